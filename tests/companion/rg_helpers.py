"""Helpers of the related games' scenario tests (RELATED-GAMES.md): positions
in NOTATION.md form with RG-N5's extras, and the `pegs moves` answer."""
import json

import pytest

from companion.families import new_game
from companion.game import Game
from companion.moves import IllegalMoveError
from companion.notation import position_from_json
from tests.companion.rules_helpers import moves, texts  # noqa: F401  (the `pegs moves` answer, as for Pegs and Jokers)

FORMAT = "pegs-and-jokers/position/1"


def _key(token):
    if token == "S":
        return (0, 0)
    return (1 if token[0] == "M" else 2, int(token[1:]))


def canon(tokens, n=4):
    tokens = list(tokens)
    assert len(tokens) <= n
    return sorted(tokens + ["S"] * (n - len(tokens)), key=_key)


def data(rules, pegs, to_move=0, sides=4, occupied=None, teams=None, **extra):
    """NOTATION.md JSON: pegs {side: [tokens out of start]} for the occupied sides."""
    occupied = occupied if occupied is not None else list(range(sides))
    if teams is None:
        teams = [[s] for s in occupied]
    out = {"format": FORMAT, "rules": rules, "sides": sides, "teams": teams,
           "pegs": {str(s): canon(pegs.get(s, [])) for s in occupied}, "to_move": to_move}
    out.update(extra)
    return out


def pos(rules, pegs, to_move=0, **kw):
    return position_from_json(json.dumps(data(rules, pegs, to_move, **kw)))


def full(pegs, sides=4, occupied=None):
    occupied = occupied if occupied is not None else list(range(sides))
    return {str(s): canon(pegs.get(s, [])) for s in occupied}


def illegal(p, text, rule):
    """The move is refused, citing `rule`."""
    with pytest.raises(IllegalMoveError) as exc:
        p.parse_move(text)
    assert exc.value.rule == rule, (str(exc.value), exc.value.rule)


def legal(p, text):
    p.parse_move(text)


def game_where(preset, players, want, seeds=range(1, 400), **kw):
    """The first seeded game for which want(game) holds."""
    for seed in seeds:
        g = new_game(preset, players=players, seed=seed, **kw)
        if want(g):
            return g
    raise AssertionError("no seed gives the wanted deal")
