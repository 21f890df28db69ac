"""Shared helpers for the companion's differential, perft, playout and
property tests: the seat/team layouts and presets, seeded random play with
`Game`, and synthetic random positions (NOTATION.md dicts) that put pegs
near the landmarks where the rules get interesting (in-spots, come-out
holes, home).
"""
from __future__ import annotations

import random

import pytest

from companion.families import new_game
from companion.cards import rank_of
from companion.game import Game
from companion.moves import DOUBT, PASS

from tests.companion import reference as ref

PRESETS = ("basic", "arizona", "north_carolina", "pegoo", "wizard_woodworks", "alaska",
           "kilpatrick", "social_security", "bluffing_joker")
# (players, teams): every seat count and team layout of RULES T1.
LAYOUTS = ((2, None), (4, 2), (6, 2), (6, 3), (8, 2), (8, 4), (10, 2))
# Every basic layout, then every other preset at 4 players.
CONFIGS = tuple(("basic", p, t) for p, t in LAYOUTS) + tuple(
    (preset, 4, 2) for preset in PRESETS if preset != "basic")


# The long versions run only when asked for: `-m slow` (or PEGS_SLOW=1), so the
# default test command (README, CI) stays quick. pytest evaluates this string
# with `config` and `os` in scope.
_NOT_ASKED = ("os.environ.get('PEGS_SLOW') != '1' and ("
              "'slow' not in config.getoption('markexpr') or "
              "'not slow' in config.getoption('markexpr'))")


def slow(test):
    """Mark a long-running test: deselect with -m 'not slow'; runs only with -m slow."""
    test = pytest.mark.skipif(_NOT_ASKED, reason="long version, opt-in: run with -m slow (or PEGS_SLOW=1)")(test)
    return pytest.mark.slow(test)


def config_id(cfg):
    preset, players, teams = cfg
    return f"{preset}-{players}x{teams or 1}"


def bot_choice(game: Game, rng: random.Random, doubt_rate=0.15, bluff_rate=0.2):
    """A random legal play; for Bluffing Joker mostly honest, doubting sometimes."""
    plays = game.legal_plays()
    if game.phase == "doubt":
        want = DOUBT if rng.random() < doubt_rate else PASS
        return next(p for p in plays if p.move.kind == want)
    if game.rules.bluffing and game.phase == "play" and rng.random() >= bluff_rate:
        honest = [p for p in plays if p.card is None or rank_of(p.card) == p.move.rank]
        if honest:
            return rng.choice(honest)
    return rng.choice(plays)


def play_random(preset, players, teams, seed, max_actions=60_000, every=1):
    """Yield (game, n) at rest positions of a seeded random game, every `every` actions."""
    game = new_game(rules=preset, players=players, teams=teams, seed=seed)
    rng = random.Random(seed * 7919 + 17)
    n = 0
    while not game.is_over() and n < max_actions:
        if game.phase == "play" and n % every == 0:
            yield game, n
        game._push(bot_choice(game, rng))
        n += 1


# ---------------------------------------------------------------- synthetic
def _team_lists(sides, t):
    return [[s for s in range(sides) if s % t == k] for k in range(t)]


OPTION_MIXES = (
    None, {"start_jokers": True}, {"team_pegs": True}, {"must_turn_in": True},
    {"ten": "forward_or_back1"}, {"court": "11-13"}, {"nine": "split"}, {"two_swap": True},
    {"ace": "north_carolina"}, {"counting": 3}, {"joker": "pegoo"},
    {"joker": "arizona", "team_pegs": True}, {"split_hand_over": True, "nine": "split"},
    {"ten": "split"}, {"pegs_per_side": 3}, {"in_spot_offset": 5, "come_out_offset": 10},
)


def random_position(rng: random.Random, preset=None, options=None, layouts=None):
    """A random legal position (dict) of a game not over yet (no team all home, M10).

    Pegs cluster around in-spots and come-out holes; about a quarter of the
    positions have the player to move (and sometimes partners) all home, so
    P8's hand-over is exercised, and about a third are end games (homes
    filled from H5 down, the other pegs just before their own in-spot), so
    turn-ins, must_turn_in and split hand-overs (V-NC1, R11) come up.
    """
    preset = preset or rng.choice(PRESETS)
    rules = preset if not options else {"preset": preset, "options": dict(options)}
    r = ref.rules_of(rules)
    players, t = rng.choice(layouts or ((2, None), (4, 2), (4, 2), (6, 2), (6, 3), (8, 2),
                                        (8, 4), (10, 2)))
    if players == 2:
        sides, occupied, teams = 4, [0, 2], [[0], [2]]
    else:
        sides, occupied, teams = players, list(range(players)), _team_lists(players, t)
    h = r["holes_per_side"]
    L = sides * h
    ins = [k * h + r["in_spot_offset"] for k in range(sides)]
    cos = [k * h + r["come_out_offset"] for k in range(sides)]
    while True:
        taken = set()
        pegs = {}
        density = rng.random()
        to_move = rng.choice(occupied)
        my_team = next(tt for tt in teams if to_move in tt)
        helping = rng.random() < 0.25
        endgame = rng.random() < 0.3
        for c in occupied:
            toks, homes = [], set()
            all_home = helping and (c == to_move or (c in my_team and rng.random() < 0.3))
            for i in range(r["pegs_per_side"]):
                x = rng.random()
                if endgame and not all_home and x < 0.8:
                    # end game: home filled from the deep end, the rest just before the in-spot
                    if i < r["pegs_per_side"] - 1 - (rng.random() < 0.4):
                        free = [k for k in range(1, 6) if k not in homes]
                        homes.add(max(free))
                        toks.append("H%d" % max(free))
                        continue
                    m = (ins[c] - rng.randint(0, 12)) % L
                    if m not in taken:
                        taken.add(m)
                        toks.append("M%d" % m)
                        continue
                if all_home or x < 0.25:
                    free = [k for k in range(1, 6) if k not in homes]
                    k = rng.choice(free) if rng.random() < 0.5 else max(free)
                    homes.add(k)
                    toks.append("H%d" % k)
                    continue
                if x < 0.25 + 0.25 * (1 - density):
                    toks.append("S")
                    continue
                for _ in range(50):
                    if rng.random() < 0.6:
                        m = (rng.choice(ins + cos) + rng.randint(-13, 13)) % L
                    else:
                        m = rng.randrange(L)
                    if m not in taken:
                        break
                else:
                    toks.append("S")
                    continue
                taken.add(m)
                toks.append("M%d" % m)
            pegs[str(c)] = sorted(toks, key=ref.tok_key)
        if not any(all(all(tok[0] == "H" for tok in pegs[str(c)]) for c in team)
                   for team in teams):
            break  # nobody has won yet (M10)
    d = {"format": "pegs-and-jokers/position/1", "rules": rules, "sides": sides,
         "teams": teams, "pegs": pegs, "to_move": to_move}
    if r["counting"] or rng.random() < 0.1:
        d["counting"] = {str(to_move): rng.randint(0, 4)} if rng.random() < 0.8 else {}
    return d
