"""Shared helpers of the rules scenario tests: positions in NOTATION.md form.

Positions are written as {side: [tokens out of start]}; the helpers pad with
S, order tokens canonically and build the JSON the engine reads.
"""
import json
from collections import Counter

import pytest

from companion.families import new_game
from companion.game import Game
from companion.moves import IllegalMoveError
from companion.notation import moves_report, position_from_json, position_to_json

FORMAT = "pegs-and-jokers/position/1"
ALL_HOME = ["H1", "H2", "H3", "H4", "H5"]

# --------------------------------------------------------------- helpers

def _key(token):
    if token == "S":
        return (0, 0)
    return (1 if token[0] == "M" else 2, int(token[1:]))


def canon(tokens, n=5):
    """A colour's pegs padded with S to n and put in NOTATION.md order."""
    tokens = list(tokens)
    assert len(tokens) <= n
    return sorted(tokens + ["S"] * (n - len(tokens)), key=_key)


def occupied_sides(sides, players):
    return [0, 2] if players == 2 else list(range(sides))


def full(pegs, sides=4, players=None):
    """Expected `pegs` dict (string keys, canonical) from the sides given."""
    players = players or sides
    return {str(s): canon(pegs.get(s, [])) for s in occupied_sides(sides, players)}


def default_teams(sides, players):
    if players == 2:
        return [[0], [2]]
    return [[s for s in range(sides) if s % 2 == t] for t in (0, 1)]


def pos(pegs, to_move=0, sides=4, teams=None, rules="basic", players=None, counting=None):
    """A Position from NOTATION.md JSON: {side: [tokens out of start]}."""
    players = players or sides
    data = {
        "format": FORMAT,
        "rules": rules,
        "sides": sides,
        "teams": teams if teams is not None else default_teams(sides, players),
        "pegs": full(pegs, sides, players),
        "to_move": to_move,
    }
    if counting is not None:
        data["counting"] = {str(k): v for k, v in counting.items()}
    return position_from_json(json.dumps(data))


def moves(p, *ranks):
    """{move text: result} for the given ranks, as `pegs moves --hand` prints."""
    report = moves_report(p, list(ranks) if ranks else None)
    out = {}
    for m in report["moves"]:
        assert m["move"] not in out, f"move {m['move']} listed twice"
        out[m["move"]] = m["result"]
    return out


def texts(p, *ranks):
    return set(moves(p, *ranks))


def rset(p, *ranks):
    """The end positions of the given ranks as a set; each listed once (R4)."""
    rs = [json.dumps(r, sort_keys=True) for r in moves(p, *ranks).values()]
    assert len(rs) == len(set(rs)), "an end position is listed twice (R4)"
    return set(rs)


def R(pegs, sides=4):
    """An expected end position, in the form `rset` returns."""
    return json.dumps(full(pegs, sides), sort_keys=True)


def after(p, text, ranks=None):
    """The `pegs` after the typed move (checked legal first); p is unchanged."""
    m = p.parse_move(text, ranks)
    p.push(m)
    try:
        return position_to_json(p)["pegs"]
    finally:
        p.pop()


def illegal(p, text, ranks=None):
    with pytest.raises(IllegalMoveError) as info:
        p.parse_move(text, ranks)
    return info.value


def game_with(pegs, hand, seed=1, players=4, rules="basic", teams=None, counting=None):
    """A seeded game whose position and hand of the seat to move are replaced.

    The dealer is the last seat, so seat 0 (side 0) is to move.
    """
    g = new_game(rules=rules, players=players, teams=teams, seed=seed)
    assert g.seat == 0
    g.position = pos(pegs, to_move=g.seat_side[0], sides=g.sides,
                     teams=[list(t) for t in g.position.teams], rules=rules,
                     players=players, counting=counting)
    g.hands[0] = list(hand)
    return g


def play_texts(g):
    return {p.move.text(g.position.geo) for p in g.legal_plays()}


def shoe_total(g):
    return Counter(g.shoe.stock) + Counter(g.shoe.discard) + sum(
        (Counter(h) for h in g.hands), Counter())


def opts(preset, **options):
    return {"preset": preset, "options": options}


def nine_fb(fixed, side, x, y):
    """By hand: a 9 on pegs `x` and `y` of `side` (main track, far apart, no
    other peg in reach, nothing to turn into): one peg forward 9, or one
    forward a and the other backward 9 - a (a = 1..8), either peg forward.
    `fixed` holds the other pegs of the position."""
    out = set()

    def res(a_loc, b_loc):
        return R({**fixed, side: fixed.get(side, []) + [f"M{a_loc}", f"M{b_loc}"]})

    out.add(res(x + 9, y))
    out.add(res(x, y + 9))
    for a in range(1, 9):
        out.add(res(x + a, y - (9 - a)))
        out.add(res(x - (9 - a), y + a))
    return out


# A 9 over own pegs M10 and M30 (standard or Pegoo board): M10 forward reaches
# at most M19, backward M1; M30 forward M39, backward M21. The pegs never meet
# or pass an in-spot of their own colour going forward (side 0's is M3), so
# 2 single moves + 2 x 8 splits = 18 end positions.
NINE_0 = nine_fb({}, 0, 10, 30)


def results(p, *ranks):
    return [m["result"] for m in moves_report(p, list(ranks))["moves"]]
