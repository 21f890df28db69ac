"""vision.foreground: a patch of changed bare board between the holes (a hand beside a hole)."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

import numpy as np  # noqa: E402

from vision.foreground import PATCH_POINTS, decode, encode, largest_patch  # noqa: E402

STEP = 8      # px between the points in these pictures


def _board(shade=(150, 170, 190)):
    frame = np.zeros((400, 400, 3), np.uint8)
    frame[:] = shade
    cells = np.array([(x, y) for y in range(2, 48) for x in range(2, 48)], int)
    points = (cells * STEP).astype(np.float32)
    reference = np.tile(np.array(shade, np.float32), (len(cells), 1))
    return frame, cells, points, reference


def test_an_unchanged_board_and_a_change_of_light_show_no_patch():
    frame, cells, points, reference = _board()
    assert largest_patch(frame, cells, points, reference) == 0
    darker = (frame.astype(np.float32) * 0.6).astype(np.uint8)
    assert largest_patch(darker, cells, points, reference) == 0


def test_a_hand_sized_patch_is_found_and_scattered_pegs_are_not():
    frame, cells, points, reference = _board()
    pegs = frame.copy()
    for x in range(40, 380, 64):           # small dark spots (a peg's head or shadow) far apart
        for y in range(40, 380, 64):
            pegs[y - 6:y + 7, x - 6:x + 7] = (30, 30, 30)
    assert largest_patch(pegs, cells, points, reference) < PATCH_POINTS
    hand = frame.copy()
    hand[100:200, 150:260] = (120, 150, 225)   # a skin-coloured patch, 12 x 13 points
    assert largest_patch(hand, cells, points, reference) >= PATCH_POINTS


def test_the_calibration_keeps_the_points_cells_and_colours():
    cells = np.array([[3, 4], [200, 7], [-1, 9]], int)
    bgr = np.array([[1, 2, 3], [250, 128, 0], [9, 9, 9]], np.float32)
    got_cells, got_bgr = decode(encode(cells, bgr))
    assert (got_cells == cells).all() and (got_bgr == bgr).all()
