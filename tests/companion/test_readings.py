"""companion.readings: scoring candidate boards against a camera's per-hole readings."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.readings import DEFAULT_MARGIN, contradictions, decide, doubtful, score_board

HOLES = [f"M{i}" for i in range(12)] + [f"H{k}-s0" for k in range(1, 6)] + [f"S-s0-{i}" for i in range(1, 6)]


def perfect(board, holes=HOLES, p=0.97, q=0.95):
    """Readings that agree with `board`, each at confidence p (peg) and q (colour)."""
    return {h: (p, board[h], q) if h in board else (1 - p, None, 0.0) for h in holes}


def test_the_board_the_camera_shows_wins_by_the_margin():
    before = {"M3": 0, "M7": 1, "S-s0-1": 0, "S-s0-2": 0}
    after = {"M5": 0, "M7": 1, "S-s0-1": 0, "S-s0-2": 0}   # M3 -> M5
    other = {"M3": 0, "M9": 1, "S-s0-1": 0, "S-s0-2": 0}
    idx, scores = decide(perfect(after), [before, after, other])
    assert idx == 1
    assert scores[1] - max(scores[0], scores[2]) > DEFAULT_MARGIN   # two holes at 97 %: ~6.9 nats


def test_an_unsure_hole_that_decides_leaves_the_choice_to_the_phone():
    a = {"M5": 0}
    b = {"M6": 0}
    readings = perfect(a)
    readings["M5"] = (0.6, None, 0.0)   # half-covered by a hand: no colour read
    readings["M6"] = (0.45, None, 0.0)
    idx, scores = decide(readings, [a, b])
    assert idx is None and abs(scores[0] - scores[1]) < DEFAULT_MARGIN
    assert doubtful(readings, [a, b], scores) == ["M6", "M5"]   # the least decisive reading first
    # one of the two holes read fairly clearly is not enough (~2.6 nats); both are
    readings["M6"] = (0.1, None, 0.0)
    assert decide(readings, [a, b])[0] is None
    readings["M5"] = (0.95, 0, 0.9)
    assert decide(readings, [a, b])[0] == 0


def test_unread_holes_count_for_no_board():
    a, b = {"M5": 0}, {"M6": 0}
    readings = perfect(a)
    del readings["M5"], readings["M6"]
    idx, scores = decide(readings, [a, b])
    assert idx is None and scores[0] == scores[1]


def test_colour_tells_apart_boards_with_the_same_holes_filled():
    # a jack's swap: the occupancy is unchanged, only the colours moved
    before = {"M2": 0, "M8": 1}
    swapped = {"M2": 1, "M8": 0}
    idx, _ = decide(perfect(swapped), [before, swapped])
    assert idx == 1
    # a colour read weakly does not decide
    weak = perfect(swapped, q=0.6)
    assert decide(weak, [before, swapped])[0] is None


def test_start_pegs_are_interchangeable_and_may_stand_in_an_unread_hole():
    board4 = {f"S-s0-{i}": 0 for i in (1, 2, 3, 4)}
    board3 = {f"S-s0-{i}": 0 for i in (1, 2, 3)}
    # the pegs really stand in holes 2..5: the canonical ids don't matter
    truth = {f"S-s0-{i}": 0 for i in (2, 3, 4, 5)}
    readings = perfect(truth, p=0.995)   # one hole decides: it must be read surely
    assert decide(readings, [board3, board4])[0] == 1
    # one filled hole is covered: four pegs (one unseen) still explain it as well as three
    del readings["S-s0-5"]
    _, scores = decide(readings, [board3, board4])
    assert math.isclose(scores[0], scores[1])


def test_contradictions_name_the_confidently_wrong_holes():
    board = {"M1": 0, "M2": 1}
    readings = perfect({"M1": 0, "M3": 1})
    readings["M4"] = (0.6, None, 0.0)     # unsure: not a contradiction
    assert contradictions(readings, board) == ["M2", "M3"]
    readings = perfect({"M1": 1, "M2": 1})
    assert contradictions(readings, board) == ["M1"]   # a peg of the wrong colour


holes_st = st.lists(st.sampled_from(HOLES[:17]), unique=True, max_size=8)


@settings(max_examples=150, deadline=None)
@given(holes_st, holes_st, st.integers(0, 3), st.floats(0.55, 0.999))
def test_readings_that_agree_with_a_board_never_choose_another(a, b, side, p):
    board_a = {h: side for h in a}
    board_b = {h: (side + 1) % 4 for h in b}
    if board_a == board_b:
        return
    idx, scores = decide(perfect(board_a, p=p, q=p), [board_b, board_a])
    assert idx != 0 and scores[1] > scores[0]
    if p >= 0.99:   # one hole read that surely is enough
        assert idx == 1
