"""Regenerate tests/companion/data/perft/*.json (run from the repository root):

    python tests/companion/make_perft_data.py

Every count comes from the independent reference generator (reference.py)
and must equal the engine's `moves_report`; the hand-counted entries must
also equal the counts worked out by hand below (their "note" says how).
A disagreement stops the script: it is a bug report, not a data entry.

The mid-game positions come from seeded random games whose moves depend on
the order of the engine's legal plays, so regenerating after an engine change
may pick other positions; the stored files are the fixed data.
"""
from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))   # the checkout: tests/ is a package

from companion.notation import position_from_json, position_to_json, moves_report  # noqa: E402

from tests.companion import reference as ref  # noqa: E402
from tests.companion import sampling  # noqa: E402

OUT = os.path.join(HERE, "data", "perft")
FORMAT = "pegs-and-jokers/position/1"
T4 = [[0, 2], [1, 3]]
S5 = ["S"] * 5


def pos(rules, pegs, to_move=0, sides=4, teams=T4, counting=None):
    d = {"format": FORMAT, "rules": rules, "sides": sides, "teams": teams,
         "pegs": {str(k): v for k, v in pegs.items()}, "to_move": to_move}
    if counting is not None:
        d["counting"] = counting
    return d


def four(p0=S5, p1=S5, p2=S5, p3=S5):
    return {0: p0, 1: p1, 2: p2, 3: p3}


def s(n, *rest):
    return ["S"] * n + list(rest)


def c(**kw):
    """Counts by rank; keyword names: A, r2..r10, J, Q, K, JK."""
    out = {rk: 0 for rk in ref.RANKS}
    for k, v in kw.items():
        out[k[1:] if k.startswith("r") else k] = v
    return out


def basic_one_peg(**over):
    base = dict(A=2, r2=1, r3=1, r4=1, r5=1, r6=1, r7=1, r8=1, r9=1, r10=1, J=2, Q=2, K=2, JK=0)
    base.update(over)
    return c(**base)


HAND = [
    ("start 4 players basic", pos("basic", four()),
     c(A=1, J=1, Q=1, K=1),
     "Every peg in start (G5). Only the come-out cards A, J, Q, K can move (M6, P1, P5): "
     "one come-out each to M8. The joker needs a peg of another colour on the main track "
     "(P6): none. Every other rank has no move (M1)."),
    ("start 2 players basic", pos("basic", {0: S5, 2: S5}, teams=[[0], [2]]),
     c(A=1, J=1, Q=1, K=1),
     "Two players on sides 0 and 2 of a 4-sided board (G1). As the 4-player start: "
     "A, J, Q, K come out to M8; nothing else moves."),
    ("start 6 players in 3 teams basic",
     pos("basic", {k: S5 for k in range(6)}, sides=6, teams=[[0, 3], [1, 4], [2, 5]], to_move=4),
     c(A=1, J=1, Q=1, K=1),
     "Side 4 to move; as the 4-player start, one come-out (to M80 = 4*18+8) for A, J, Q, K."),
    ("start 4 players north_carolina, counted twice",
     pos("north_carolina", four(), counting={"0": 2}),
     {rk: 1 for rk in ref.RANKS},
     "Side 0 has counted on the two turns before, so counting's free come-out (V-NC7, R12) "
     "is offered with any card, jokers included: one move for every rank. For A, J, Q, K "
     "the ordinary come-out ends in the same position, so it is the same entry (R4, "
     "NOTATION moves). The NC ace's other moves, the 2's swap and the 10's split need pegs "
     "on the board: none."),
    ("one peg on M20", pos("basic", four(p0=s(4, "M20"))),
     basic_one_peg(),
     "Side 0: one peg on M20, four in start; no other peg on the board. A: come out (M8) "
     "or M21 = 2. 2-6, 9, 10: one forward move each. 7: forward 7 only; a split needs two "
     "pegs that can move (M9) = 1. 8: back to M12 = 1. J, Q, K: come out or M30 = 2. "
     "JK: no peg of another colour on the main track (P6) = 0."),
    ("two pegs, 7 splits", pos("basic", four(p0=s(3, "M20", "M40"))),
     c(A=3, r2=2, r3=2, r4=2, r5=2, r6=2, r7=8, r8=2, r9=2, r10=2, J=3, Q=3, K=3, JK=0),
     "Side 0: pegs on M20 and M40. A: come out, M21, M41 = 3. 2-6, 8, 9, 10: each peg = 2. "
     "7: each peg forward 7 (2) plus splits 1+6 ... 6+1 (6 divisions; M20 reaches at most "
     "M26, so nothing blocks; either order ends alike, R4) = 8. J, Q, K: come out, M30, "
     "M50 = 3. JK: no other colour on the board = 0."),
    ("turn in from M1", pos("basic", four(p0=s(4, "M1"))),
     basic_one_peg(r3=2, r4=2, r5=2, r6=2, r7=2, r8=1),
     "Side 0's in-spot is M3, two steps from M1 (G3, M3). A: come out or M2 = 2. 2: M3 only "
     "(no steps left to turn in) = 1. 3-7: stay on the main track (M4..M8) or turn in with "
     "the remaining 1-5 steps (H1..H5) = 2 each. 8: back to M65 (72 holes) = 1. 9, 10: the "
     "remaining 7 or 8 steps don't fit in home (M1), main track only = 1. J, Q, K: come "
     "out or M11 = 2. JK: no target = 0."),
    ("hits", pos("basic", four(p0=s(4, "M10"), p1=s(4, "M14"), p2=s(4, "M12"))),
     basic_one_peg(JK=4),
     "Side 0 on M10, opponent 1 on M14, partner 2 on M12. Every rank as for one peg; the 2 "
     "lands on the partner, which goes to its in-spot M39 (M7); the 4 lands on the opponent, "
     "which goes to start (M7). JK: a start peg or the M10 peg onto M12 or M14 = 4 (P6)."),
    ("R8 partner on its in-spot", pos("basic", four(p0=s(4, "M35"), p2=s(4, "M39"))),
     basic_one_peg(r4=0, JK=0),
     "Partner 2 stands on its own in-spot M39. Landing on it is illegal (R8: the hit peg's "
     "in-spot already holds a peg of its colour, M7), so the 4 has no move and the joker's "
     "only target is illegal. Passing it is fine (M2): 5 to M40. Other ranks as one peg."),
    ("chain through the partner's in-spot",
     pos("basic", four(p0=s(4, "M10"), p1=s(4, "M39"), p2=s(4, "M12"))),
     basic_one_peg(JK=4),
     "0 on M10, partner 2 on M12, opponent 1 on 2's in-spot M39. The 2 hits the partner, "
     "which goes to M39 and hits the opponent there, which goes to start (M7 chain) = 1. "
     "JK: start peg or M10 peg onto M12 (chain) or M39 (opponent to start) = 4."),
    ("home moves", pos("basic", four(p0=s(3, "H1", "H3"))),
     c(A=3, r2=1, J=1, Q=1, K=1),
     "Side 0: H1, H3, three in start. A: come out, H1-H2, H3-H4 = 3. 2: H3-H5 (H1-H3 would "
     "land on its own colour, M2) = 1. 3+: H1 is blocked by H3 and H3 would leave home (M4); "
     "7 splits: at most 2 (H3) + 3 (H1 after) = 5 < 7. J, Q, K: come out = 1. 8: no peg on "
     "the main track (M5). JK: no target."),
    ("helping the partner", pos("basic", four(p0=["H1", "H2", "H3", "H4", "H5"], p2=s(4, "M50"))),
     basic_one_peg(),
     "Side 0 is all home, so it moves partner 2's pegs (P8): 2's peg on M50 and its start "
     "pegs (come out to M44). Counts as for one peg on the board; JK has no target (the only "
     "peg on the main track is the moving colour's own)."),
    ("kilpatrick must turn in", pos("kilpatrick", four(p0=s(4, "M1"))),
     c(A=3, r2=1, r3=1, r4=1, r5=1, r6=1, r7=1, r8=1, J=2, Q=2, K=2, JK=1),
     "Kilpatrick: team pegs (V-AZ2) and no passing one's in-spot forward (V-KP2, R17). "
     "A: come out 0 (M8) or 2 (M44), or M2 = 3. 2: M3, landing on the in-spot is allowed "
     "(R17) = 1. 3-7: must turn in, H1..H5 = 1 each (7: no second movable peg to split). "
     "8: M65 = 1. 9, 10: home can't take the rest = 0. J, Q, K: the two come-outs = 2. "
     "JK: the team has pegs in start, so only start pegs may use it (V-AZ5, R15); 0's have "
     "no target, 2's may jump onto 0's peg on M1, which goes to 0's in-spot M3 (M7) = 1."),
    ("north_carolina ace, swaps and 10 splits",
     pos("north_carolina", four(p0=s(4, "M20"), p1=s(4, "M30"), p3=s(4, "M50")), counting={}),
     c(A=4, r2=4, r3=1, r4=1, r5=1, r6=1, r7=1, r8=1, r9=1, r10=117, J=2, Q=2, K=2, JK=4),
     "North Carolina, 0 on M20, opponents 1 on M30 and 3 on M50. A: come out, M21, M19, "
     "M31 (V-NC3) = 4. 2: M22 or one of 3 swaps of different colours (0-1, 0-3, 1-3; R16) "
     "= 4. 7, 9: only one own peg can move, no split = 1. 10 must split over two pegs, each "
     "part forward or backward (V-NC6): pairs {0,3} and {1,3} never meet: 9 divisions x 4 "
     "directions = 36 each; pair {0,1}: 0 forward a and 1 backward 10-a land on the same "
     "hole M(20+a): 0 first then 1 sends 0 to its in-spot M3 (teammate, M7), 1 first then 0 "
     "sends 1 to start: 2 results; so 9 x 3 + 9 x 2 = 45. Total 117. J, Q, K: come out or "
     "M30 hitting 1 = 2. JK: start peg or M20 peg onto M30 or M50 = 4."),
    ("pegoo joker and swaps",
     pos("pegoo", four(p0=s(4, "M30"), p1=s(4, "M40"), p2=s(4, "M50")), counting={}),
     c(A=2, r2=4, r3=1, r4=1, r5=1, r6=1, r7=1, r8=1, r9=1, r10=1, J=2, Q=2, K=2, JK=3),
     "Pegoo (20 holes a side). 2: M32 or 3 swaps (0-1, 0-2, 1-2) = 4. 9: one own peg, "
     "no split = 1. 10: M40 hitting opponent 1 = 1. JK: a start peg or the M30 peg to 0's "
     "in-spot M3 (2), or opponent 1's M40 peg back to start (1) = 3 (V-PG, R14); partner "
     "2's peg is not an opponent."),
    ("social security court cards", pos("social_security", four(p0=s(4, "M20"))),
     basic_one_peg(),
     "Social Security: J, Q, K come out or go 11, 12, 13 (M31, M32, M33) = 2 each; the 9 "
     "moves the one peg forward 9 (R13), a split needs two pegs = 1. Others as one peg."),
    ("alaska ten", pos("alaska", four(p0=s(4, "M20")), counting={}),
     basic_one_peg(r10=2),
     "Alaska: 10 forward to M30 or backward 1 to M19 (V-AK) = 2; not counting. Others as "
     "one peg."),
    ("arizona team pegs", pos("arizona", four(p0=s(4, "M20"), p2=s(4, "M50"))),
     c(A=4, r2=2, r3=2, r4=2, r5=2, r6=2, r7=8, r8=2, r9=18, r10=2, J=4, Q=4, K=4, JK=2),
     "Arizona: 0 moves any team peg (V-AZ2): 0 on M20, 2 on M50. A: 2 come-outs + 2 "
     "forward = 4. 7: 2 singles + 6 splits (V-AZ4) = 8. 9: 2 singles + one forward a, the "
     "other backward 9-a, a = 1..8, either peg forward: 16 (V-AZ3) = 18. J, Q, K: 2 "
     "come-outs + 2 forward 10 = 4. JK: the team has start pegs, so only start pegs use it "
     "(V-AZ5, R15): 0's onto 2's M50 peg (to its in-spot M39) or 2's onto 0's M20 peg (to "
     "M3) = 2."),
]


def engine_counts(d):
    rep = moves_report(position_from_json(d))
    out = {rk: 0 for rk in ref.RANKS}
    for m in rep["moves"]:
        out[m["card"]] += 1
    return out


def ref_counts(d):
    return {rk: len(ref.results(d, rk)) for rk in ref.RANKS}


def checked(name, d, hand=None):
    r, e = ref_counts(d), engine_counts(d)
    if hand is not None and hand != r:
        raise SystemExit(f"{name}: hand count {hand} != reference {r}")
    if r != e:
        diff = {rk: (r[rk], e[rk]) for rk in ref.RANKS if r[rk] != e[rk]}
        raise SystemExit(f"{name}: reference != engine (ref, engine): {diff}\n{json.dumps(d)}")
    return r


MIDGAME = [
    # (preset, players, teams, seed, action number)
    ("basic", 4, 2, 1, 120), ("basic", 4, 2, 2, 300), ("basic", 4, 2, 3, 600),
    ("basic", 6, 2, 1, 250), ("basic", 6, 2, 2, 700),
    ("basic", 6, 3, 1, 300), ("basic", 6, 3, 4, 900),
    ("basic", 8, 4, 1, 800), ("basic", 10, 2, 1, 1500), ("basic", 2, None, 1, 150),
    ("arizona", 4, 2, 1, 400), ("north_carolina", 4, 2, 1, 300),
    ("north_carolina", 6, 3, 1, 400),
    ("pegoo", 4, 2, 1, 400), ("wizard_woodworks", 4, 2, 1, 300), ("alaska", 4, 2, 1, 500),
    ("kilpatrick", 4, 2, 1, 120), ("social_security", 4, 2, 1, 400),
    ("bluffing_joker", 4, 2, 1, 300), ("arizona", 6, 2, 1, 500),
]


def midgame_entries():
    out = []
    for preset, players, teams, seed, at in MIDGAME:
        d = None
        for game, n in sampling.play_random(preset, players, teams, seed):
            d = position_to_json(game.position)
            if n >= at:
                break
        name = f"{preset} {players}x{teams or 1} seed {seed} action {n}"
        out.append({"name": name, "position": d, "counts": checked(name, d),
                    "note": f"Reached by sampling.play_random({preset!r}, {players}, {teams}, "
                            f"seed={seed}) at action {n}; counts from reference.py, equal to "
                            f"the engine's when generated."})
    return out


def dump(entries):
    """One field per line: easy to read and to diff."""
    parts = []
    for e in entries:
        fields = ",\n  ".join(f"{json.dumps(k)}: {json.dumps(e[k])}"
                               for k in ("name", "position", "counts", "note"))
        parts.append(" {" + fields + "}")
    return "[\n" + ",\n".join(parts) + "\n]\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    start, hand = [], []
    for name, d, counts, note in HAND:
        entry = {"name": name, "position": d, "counts": checked(name, d, counts), "note": note}
        (start if name.startswith("start") else hand).append(entry)
    files = {"start.json": start, "hand_counted.json": hand, "midgame.json": midgame_entries()}
    for fname, entries in files.items():
        with open(os.path.join(OUT, fname), "w") as f:
            f.write(dump(entries))
        print(fname, len(entries), "entries")


if __name__ == "__main__":
    main()
