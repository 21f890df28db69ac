"""Differential tests: the engine's `moves_report` against the independent
reference generator in `reference.py` (written from RULES.md alone).

For sampled positions of seeded random games (basic rules at every seat
count and team layout, every other preset at 4 players) and for synthetic
positions that crowd pegs around the landmarks, every rank's SET of result
positions must be the same in both, the engine must list each result once
(NOTATION.md `moves`, RULES R4), and `discard_allowed` must answer P7/R12
alike. Failures print the position JSON, the rank and the difference.

The quick versions stay well under 30 s; `-m slow` runs longer versions.
"""
from __future__ import annotations

import collections
import functools
import json
import random

import pytest

from companion.cards import rank_of
from companion.notation import position_from_json, position_to_json, moves_report
from companion.rules import PRESETS as ENGINE_PRESETS

from tests.companion import reference as ref
from tests.companion import sampling


# ---------------------------------------------------------------- helpers
def engine_by_rank(report):
    """rank -> list of (frozen result, move text), in the engine's order."""
    out = collections.defaultdict(list)
    for m in report["moves"]:
        out[m["card"]].append((ref.freeze(m["result"]), m["move"]))
    return out


def set_differences(d, pos=None, report=None):
    """Problems where the engine's result set differs from the reference's."""
    if report is None:
        report = moves_report(pos if pos is not None else position_from_json(d))
    eng = engine_by_rank(report)
    problems = []
    for rank in ref.RANKS:
        got = {res: text for res, text in eng.get(rank, [])}
        want = ref.results(d, rank)
        if set(got) != want:
            problems.append({
                "position": d, "rank": rank,
                "engine_only": [got[r] for r in set(got) - want],
                "reference_only": [ref.thaw(r) for r in want - set(got)],
            })
    return problems


def duplicates(d, pos=None, report=None):
    """Results the engine lists more than once within one rank."""
    if report is None:
        report = moves_report(pos if pos is not None else position_from_json(d))
    problems = []
    for rank, entries in engine_by_rank(report).items():
        texts = collections.defaultdict(list)
        for res, text in entries:
            texts[res].append(text)
        dup = [t for t in texts.values() if len(t) > 1]
        if dup:
            problems.append({"position": d, "rank": rank, "same_result": dup})
    return problems


def describe(problems, limit=3):
    lines = [f"{len(problems)} disagreement(s); first {min(limit, len(problems))}:"]
    for p in problems[:limit]:
        lines.append(json.dumps(p))
    return "\n".join(lines)


def discard_difference(d, hand_ranks, pos=None):
    pos = pos if pos is not None else position_from_json(d)
    got = moves_report(pos, hand_ranks)["discard_allowed"]
    want = ref.discard_allowed(d, hand_ranks)
    if got != want:
        return [{"position": d, "hand": hand_ranks, "engine_discard_allowed": got,
                 "reference_discard_allowed": want, "rule": "P7/R12"}]
    return []


@functools.lru_cache(maxsize=None)
def game_samples(cfg, seeds, every):
    """JSON strings of at-rest positions, with the hand of the player to move."""
    preset, players, teams = cfg
    out = []
    for seed in seeds:
        for game, _ in sampling.play_random(preset, players, teams, seed, every=every):
            hand = sorted({rank_of(c) for c in game.hands[game.seat]}, key=ref.RANKS.index)
            out.append((json.dumps(position_to_json(game.position)), tuple(hand)))
    return out


def synthetic_samples(seed, n, preset, layouts=None):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        opts = rng.choice(sampling.OPTION_MIXES) if rng.random() < 0.35 else None
        d = sampling.random_position(rng, preset, opts, layouts)
        hand = rng.sample(ref.RANKS, rng.randint(1, 6))
        out.append((d, hand))
    return out


def check_samples(samples):
    """Every rank's result set against the reference, each result listed once (R4), and
    discard_allowed against the reference: one engine report per sample serves the first two."""
    problems = []
    for d, hand in samples:
        d = json.loads(d) if isinstance(d, str) else d
        pos = position_from_json(d)
        report = moves_report(pos)
        problems += set_differences(d, report=report)
        problems += duplicates(d, report=report)
        problems += discard_difference(d, list(hand), pos)
    return problems


# Quick: 15 configurations x 1 game; big boards sampled more sparsely.
QUICK_EVERY = {2: 8, 4: 12, 6: 25, 8: 45, 10: 70}
SMALL_BOARDS = ((2, None), (4, 2), (4, 2), (6, 2), (6, 3))


# ------------------------------------------------------------ the tests
def test_reference_presets_match_engine_presets():
    """The option values of each preset, as transcribed from RULES.md section V
    into the reference, equal companion/rules.py's (move-relevant options)."""
    for name, opts in ref.PRESETS.items():
        engine = ENGINE_PRESETS[name]
        for key, value in opts.items():
            assert getattr(engine, key) == value, (name, key, getattr(engine, key), value)


@pytest.mark.parametrize("cfg", sampling.CONFIGS, ids=sampling.config_id)
def test_reference_matches_engine_in_games(cfg):
    every = QUICK_EVERY[cfg[1]] * (3 if cfg[0] == "north_carolina" else 1)
    samples = game_samples(cfg, (11,), every)
    assert len(samples) >= 10
    problems = check_samples(samples)
    assert not problems, describe(problems)


@pytest.mark.parametrize("preset", sampling.PRESETS)
def test_reference_matches_engine_on_synthetic_positions(preset):
    # the fast suite's sample; test_slow_reference_matches_engine_on_synthetic_positions takes 150-400
    n = 6 if preset in ("north_carolina", "arizona", "kilpatrick") else 15
    problems = check_samples(synthetic_samples(1000 + sampling.PRESETS.index(preset), n,
                                               preset, SMALL_BOARDS))
    assert not problems, describe(problems)


def test_engine_lists_each_result_once():
    """NOTATION.md `moves`: each distinct end position of a rank appears once (R4).

    Two different moves can end in the identical position: a joker or a 2
    whose hit chain (M7) puts a peg back where another move would have left
    it, a 2 forward onto a teammate equal to a swap, counting's free come-out
    equal to an A/J/Q/K come-out or to a joker jump onto the come-out hole.
    See the explicit R4 tests below. check_samples looks for such doubles in
    every sampled position of the game and synthetic tests above (with the
    report it compares with the reference); here: that the check finds one.
    """
    (cfg,) = [c for c in sampling.CONFIGS if c == ("basic", 4, 2)]
    d = json.loads(game_samples(cfg, (11,), QUICK_EVERY[4])[0][0])
    report = moves_report(position_from_json(d))
    assert report["moves"] and not duplicates(d, report=report)
    first = report["moves"][0]
    doubled = dict(report, moves=report["moves"] + [dict(first, move=first["move"] + " (again)")])
    (problem,) = duplicates(d, report=doubled)
    assert problem["rank"] == first["card"] and first["move"] in problem["same_result"][0]


# --------------------------------------- explicit engine disagreements
def _position(rules, sides, teams, pegs, to_move, counting=None):
    d = {"format": "pegs-and-jokers/position/1", "rules": rules, "sides": sides,
         "teams": teams, "pegs": pegs, "to_move": to_move}
    if counting is not None:
        d["counting"] = counting
    return d


# Found by the differential games (basic, 6 players in 2 teams, seed 1).
R4_JOKER_CHAIN = _position(
    "basic", 6, [[0, 2, 4], [1, 3, 5]],
    {"0": ["M3", "M14", "M39", "M75", "H5"], "1": ["S", "S", "M28", "M40", "H5"],
     "2": ["S", "S", "M35", "M44", "H5"], "3": ["M16", "M34", "M65", "M77", "H5"],
     "4": ["S", "M13", "M56", "M70", "H5"], "5": ["S", "S", "S", "M1", "M30"]}, 0)
# Found by the differential games (north_carolina, 4 players, seed 3).
R4_TWO_SWAP = _position(
    "north_carolina", 4, [[0, 2], [1, 3]],
    {"0": ["M8", "M39", "M54", "H4", "H5"], "1": ["M33", "M58", "H2", "H4", "H5"],
     "2": ["S", "M41", "H3", "H4", "H5"], "3": ["M65", "H2", "H3", "H4", "H5"]}, 0, {})
# Found by the differential games (pegoo, 4 players, seed 0).
R4_FREE_COME_OUT = _position(
    "pegoo", 4, [[0, 2], [1, 3]],
    {"0": ["S", "S", "S", "M2", "M19"], "1": ["M14", "M47", "M78", "H3", "H5"],
     "2": ["M35", "M64", "H2", "H4", "H5"], "3": ["S", "S", "S", "H4", "H5"]}, 3, {"3": 2})


# North Carolina, side 0 has counted twice; an opponent stands on 0's come-out M8.
R4_FREE_COME_OUT_JOKER = _position(
    "north_carolina", 4, [[0, 2], [1, 3]],
    {"0": ["S", "S", "S", "S", "M30"], "1": ["S", "S", "S", "S", "M8"],
     "2": ["S", "S", "S", "S", "S"], "3": ["S", "S", "S", "S", "S"]}, 0, {"0": 2})


@pytest.mark.parametrize("d, rank", [
    # JK 0:M3-M35 hits partner 2 (to its in-spot M39), which hits 0's peg there
    # (to 0's in-spot M3, just vacated): the same end position as JK 0:M39-M35.
    # Likewise 0:M3-M13 = 0:M75-M13, 0:M3-M56 = 0:M75-M56, 0:M3-M70 = 0:M75-M70,
    # 0:M3-M44 = 0:M39-M44.  Rules M7, R9; listed twice against R4/NOTATION.
    (R4_JOKER_CHAIN, "JK"),
    # 2 0:M39-M41 hits partner 2 back to its in-spot M39: the same end position
    # as the swap 2 0:M39<>2:M41 (V-NC4). Rules M7, V-NC4; R4/NOTATION.
    (R4_TWO_SWAP, "2"),
    # Side 3 has counted twice (V-NC7, R12): "K free 3:S-M68" and "K 3:S-M68"
    # reach the identical position (pegs, to_move and counting all equal).
    (R4_FREE_COME_OUT, "K"),
    # "JK 0:S-M8" (P6: jump onto the opponent on M8, which goes to start) and
    # "JK free 0:S-M8" (V-NC7/R12 free come-out, hitting the same peg, M7/R2)
    # reach the identical position.
    (R4_FREE_COME_OUT_JOKER, "JK"),
], ids=["joker-chain", "two-forward-vs-swap", "free-come-out-vs-K", "free-come-out-vs-JK"])
def test_R4_each_end_position_listed_once(d, rank):
    pos = position_from_json(d)
    entries = engine_by_rank(moves_report(pos, [rank]))[rank]
    results = [res for res, _ in entries]
    assert set(results) == ref.results(d, rank)  # the sets agree ...
    dup = {res: [t for r2, t in entries if r2 == res] for res in results
           if results.count(res) > 1}
    assert not dup, f"{rank}: same end position listed more than once: {list(dup.values())}"


# A position where side 0's team (0 and 2) has every peg home: the game is
# over (M10), so no move of any rank is legal. The engine still lists the
# 2's swaps of other teams' pegs (V-NC4), North Carolina 10 splits of
# opponents' pegs (V-NC6) and Pegoo's joker sending opponents to start (V-PG).
WON = {"0": ["H1", "H2", "H3", "H4", "H5"], "1": ["S", "S", "M23", "M52", "H5"],
       "2": ["H1", "H2", "H3", "H4", "H5"], "3": ["S", "S", "M55", "H4", "H5"]}


@pytest.mark.parametrize("rules", ["north_carolina", "pegoo", "wizard_woodworks"])
def test_M10_no_moves_once_the_team_has_won(rules):
    d = _position(rules, 4, [[0, 2], [1, 3]], WON, 0,
                  {} if rules in ("north_carolina", "pegoo") else None)
    assert all(not ref.results(d, rk) for rk in ref.RANKS)
    report = moves_report(position_from_json(d))
    assert report["moves"] == [], [m["move"] for m in report["moves"]][:6]


# ----------------------------------------- the reference's own checks
def test_reference_hand_counted_examples():
    """The reference on hand-worked cases (see also data/perft/hand.json)."""
    basic4 = [[0, 2], [1, 3]]
    S = ["S"] * 5

    def pegs(**kw):
        return {str(i): kw.get(f"p{i}", S) for i in range(4)}
    # R8: partner 2 stands on its in-spot M39; 0's 4 from M35 can't land there.
    d = _position("basic", 4, basic4, pegs(p0=["S"] * 4 + ["M35"], p2=["S"] * 4 + ["M39"]), 0)
    assert ref.results(d, "4") == frozenset()
    assert len(ref.results(d, "5")) == 1  # passing the partner is fine (M2)
    assert ref.results(d, "JK") == frozenset()  # the only target is R8-illegal
    # M7 chain: 0 hits partner 2 at M12; 2 goes to M39 where 1 sits; 1 to start.
    d = _position("basic", 4, basic4, pegs(p0=["S"] * 4 + ["M10"], p2=["S"] * 4 + ["M12"],
                                           p1=["S"] * 4 + ["M39"]), 0)
    (res,) = ref.results(d, "2")
    assert ref.thaw(res) == {"0": ["S"] * 4 + ["M12"], "1": S, "2": ["S"] * 4 + ["M39"],
                             "3": S}
    # M3: from M1 the in-spot M3 is 2 steps away; a 5 may stop on M6 or go to H3.
    d = _position("basic", 4, basic4, pegs(p0=["S"] * 4 + ["M1"]), 0)
    assert {ref.thaw(r)["0"][-1] for r in ref.results(d, "5")} == {"M6", "H3"}
    # V-KP2/R17: in Kilpatrick the 5 must turn in, and a 9 can't move that peg.
    d["rules"] = "kilpatrick"
    assert {ref.thaw(r)["0"][-1] for r in ref.results(d, "5")} == {"H3"}
    assert ref.results(d, "9") == frozenset()


# ------------------------------------------------------------- slow
# One test a game seed, and the synthetic samples in quarters, so that .ci/run's workers
# (--dist load) share the longest: as one test each, north_carolina's took 540 s at load 15.
@sampling.slow
@pytest.mark.parametrize("seed", (1, 2, 3, 4))
@pytest.mark.parametrize("cfg", sampling.CONFIGS, ids=sampling.config_id)
def test_slow_reference_matches_engine_in_games(cfg, seed):
    samples = game_samples(cfg, (seed,), max(1, QUICK_EVERY[cfg[1]] // 4))
    problems = check_samples(samples)
    assert not problems, describe(problems)


@sampling.slow
@pytest.mark.parametrize("quarter", range(4))
@pytest.mark.parametrize("preset", sampling.PRESETS)
def test_slow_reference_matches_engine_on_synthetic_positions(preset, quarter):
    n = 150 if preset in ("north_carolina",) else 400
    samples = synthetic_samples(5000 + sampling.PRESETS.index(preset), n, preset)
    problems = check_samples(samples[quarter::4])
    assert not problems, describe(problems)


# ------------------------------------------------ discard explanations
def test_discard_refusal_cites_P7_when_no_free_come_out_is_possible():
    """Side 0 has counted twice (North Carolina) but has no peg in start, so
    counting's free come-out is impossible (V-NC7, R12 only bars discarding
    "while it is possible"). The discard is illegal because the 5 can move
    M47 to M52 (P7): the refusal must cite P7, not a free come-out."""
    from companion.moves import IllegalMoveError
    d = _position("north_carolina", 4, [[0, 2], [1, 3]],
                  {"0": ["M47", "H2", "H3", "H4", "H5"], "1": ["S"] * 5,
                   "2": ["S", "S", "S", "S", "M39"], "3": ["S"] * 5}, 0, {"0": 2})
    assert ref.discard_allowed(d, ["8"]) and not ref.discard_allowed(d, ["8", "5"])
    pos = position_from_json(d)
    assert moves_report(pos, ["8"])["discard_allowed"]
    with pytest.raises(IllegalMoveError) as err:
        pos.parse_move("8 discard", ["8", "5"])
    assert err.value.rule == "P7", str(err.value)
