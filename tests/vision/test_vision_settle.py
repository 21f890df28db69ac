"""Settling the few holes a picture leaves unsure by the peg count (vision.position.settle_by_count,
what ``pegs vision detect`` does): only where exactly one way gives every side in play its pegs,
never over a hand, never a hole the picture says nothing of."""
from __future__ import annotations

import itertools
import json

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from vision.detect import EMPTY, UNKNOWN, BoardReading  # noqa: E402
from vision.foreground import PATCH_POINTS  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.position import MAX_SETTLED, settle_by_count  # noqa: E402

LAYOUT = standard_layout(4)
SIDES = [0, 1, 2, 3]


def start_board() -> dict:
    labels = dict.fromkeys(LAYOUT.holes, EMPTY)
    for s in SIDES:
        for h in LAYOUT.start_ids(s):
            labels[h] = s
    return labels


def _apart(a: str, b: str) -> float:
    """Two holes' distance in pitches."""
    (ax, ay), (bx, by) = LAYOUT.holes[a], LAYOUT.holes[b]
    return ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 / LAYOUT.pitch


def reading(labels: dict, unsure: dict, foreground: int = 0) -> BoardReading:
    """A reading of ``labels`` with the holes of ``unsure`` (hole -> candidates, or None: the
    picture says nothing of it) read at confidence 0.5, every other hole at 1.0."""
    conf = {h: 0.5 if h in unsure else 1.0 for h in labels}
    return BoardReading(labels=dict(labels), confidence=conf, foreground=foreground,
                        candidates={h: c for h, c in unsure.items() if c is not None})


def test_a_peg_short_and_one_unsure_hole_that_may_hold_it_is_settled():
    labels = start_board()
    labels["S-s2-1"] = EMPTY                                # side 2 moved a peg out to M12 ...
    labels["M12"] = 2
    r = reading(labels, {"M12": (EMPTY, 2)})               # ... which the picture leaves unsure
    got, settled = settle_by_count(r, LAYOUT, SIDES)
    assert settled == {"M12": 2} and got["M12"] == 2


def test_an_unsure_peg_where_its_side_shows_all_its_pegs_is_empty():
    labels = start_board()
    labels["M30"] = 1                                       # a shadow read "black": side 1 has its 5
    got, settled = settle_by_count(reading(labels, {"M30": (EMPTY, 1)}), LAYOUT, SIDES)
    assert settled == {"M30": EMPTY} and got["M30"] == EMPTY


def test_two_ways_are_not_settled():
    labels = start_board()
    for s, h in ((1, "M5"), (3, "M40")):
        labels[next(iter(LAYOUT.start_ids(s)))] = EMPTY
        labels[h] = UNKNOWN                               # a head between side 1's colour and side 3's
    r = reading(labels, {"M5": (EMPTY, 1, 3), "M40": (EMPTY, 1, 3)})
    got, settled = settle_by_count(r, LAYOUT, SIDES)
    assert settled == {} and got["M5"] == UNKNOWN and got["M40"] == UNKNOWN
    # the same holes where each look allows one of the two only: one way
    r = reading(labels, {"M5": (EMPTY, 1), "M40": (EMPTY, 3)})
    assert settle_by_count(r, LAYOUT, SIDES)[1] == {"M5": 1, "M40": 3}


def test_no_settling_over_a_hand_a_covered_hole_too_many_or_too_many_pegs():
    labels = start_board()
    labels["S-s0-1"], labels["M3"] = EMPTY, 0
    assert settle_by_count(reading(labels, {"M3": (EMPTY, 0)}, foreground=PATCH_POINTS), LAYOUT, SIDES)[1] == {}
    assert settle_by_count(reading(labels, {"M3": None}), LAYOUT, SIDES)[1] == {}
    many = {"M3": (EMPTY, 0), **{f"M{20 + k}": (EMPTY,) for k in range(MAX_SETTLED)}}
    assert settle_by_count(reading(labels, many), LAYOUT, SIDES)[1] == {}
    labels["M50"] = 1                                       # side 1 shows six pegs read surely
    assert settle_by_count(reading(labels, {"M3": (EMPTY, 0)}), LAYOUT, SIDES)[1] == {}
    # a side not in play read surely somewhere: nothing is settled
    assert settle_by_count(reading(start_board() | {"M3": 0}, {"M3": (EMPTY, 0)}), LAYOUT, [0, 1, 2])[1] == {}


def test_the_pegs_per_side_given():
    labels = {h: EMPTY for h in LAYOUT.holes}
    labels.update({"M1": 0, "M2": 0, "M3": 0, "M9": 1, "M10": 1, "M11": 1})
    r = reading(labels, {"M11": (EMPTY, 1)})
    assert settle_by_count(r, LAYOUT, [0, 1], pegs_per_side=3)[1] == {"M11": 1}
    assert settle_by_count(r, LAYOUT, [0, 1], pegs_per_side=2)[1] == {}       # side 0 has 3 of 2
    with pytest.raises(ValueError):
        settle_by_count(r, None, [0, 1])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_what_is_settled_is_the_one_way_the_looks_and_the_count_allow(data):
    """Generated boards and unsure holes with any candidates: a settled reading gives every side
    exactly its pegs, keeps every sure hole, gives each unsure hole one of its candidates, and no
    other such assignment exists; where it settles nothing, not exactly one exists."""
    holes = list(LAYOUT.holes)
    per_side = data.draw(st.integers(1, 3))
    chosen = data.draw(st.lists(st.sampled_from(holes), min_size=4 * per_side, max_size=4 * per_side, unique=True))
    labels = dict.fromkeys(holes, EMPTY)
    for k, h in enumerate(chosen):
        labels[h] = k % 4
    unsure_holes = data.draw(st.lists(st.sampled_from(holes), min_size=1, max_size=MAX_SETTLED, unique=True))
    unsure = {}
    for h in unsure_holes:
        options = data.draw(st.sets(st.sampled_from([0, 1, 2, 3]), max_size=3))
        unsure[h] = tuple(sorted({EMPTY} | options))
        labels[h] = data.draw(st.sampled_from(unsure[h] + (UNKNOWN,)))
    r = reading(labels, unsure)
    got, settled = settle_by_count(r, LAYOUT, SIDES, pegs_per_side=per_side)
    ways = []
    for combo in itertools.product(*(unsure[h] for h in unsure_holes)):
        trial = dict(labels) | dict(zip(unsure_holes, combo))
        if all(sum(1 for v in trial.values() if v == s) == per_side for s in SIDES):
            ways.append(dict(zip(unsure_holes, combo)))
    if len(ways) == 1 and any(v == EMPTY and labels[h] >= 0 and any(
            g not in unsure and labels[g] == labels[h] and _apart(g, h) <= 1.05 for g in holes)
            for h, v in ways[0].items()):
        ways.append("the one way empties a hole that looks like a sure neighbour's side")
    if settled:
        assert ways == [settled]
        assert {h: v for h, v in got.items() if h not in unsure} == {h: v for h, v in labels.items() if h not in unsure}
        assert all(sum(1 for v in got.values() if v == s) == per_side for s in SIDES)
    else:
        assert len(ways) != 1 and got == labels
    json.dumps(settled)                                     # plain ints, as the CLI prints them


def test_the_count_never_empties_a_look_alike_hole_beside_a_sure_one_of_that_side():
    """Fingers over three track holes read as three of side 1's heads, one surely (bench12's
    s6-paper hand picture): side 1 then has its pegs with the sure one, and the only way the
    count allows empties the two unsure ones, trusting the one that may be the finger. Not
    settled; the same two unsure holes with the sure one of side 1 far off are."""
    labels = start_board()
    labels["S-s1-1"] = EMPTY
    labels |= {"M40": 1, "M41": 1, "M42": 1}              # M42 sure, M40 and M41 unsure
    unsure = {"M40": (EMPTY, 1), "M41": (EMPTY, 1)}
    assert settle_by_count(reading(labels, unsure), LAYOUT, SIDES)[1] == {}
    labels |= {"M42": EMPTY, "M60": 1}                     # side 1's sure peg four holes on
    assert settle_by_count(reading(labels, unsure), LAYOUT, SIDES)[1] == {"M40": EMPTY, "M41": EMPTY}
    # settling that fills a hole beside a sure one of its side is not refused
    labels |= {"M60": EMPTY, "M40": EMPTY, "M42": 1, "S-s1-2": EMPTY}
    assert settle_by_count(reading(labels, {"M41": (EMPTY, 1)}), LAYOUT, SIDES)[1] == {"M41": 1}
