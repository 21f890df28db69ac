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


def test_the_bare_board_has_no_start_pegs_shadow_and_a_frame_is_judged_against_both_looks():
    """bare_board: points a start peg shades at calibration (darker than the board round them,
    near a start hole) take the board's look round them; a shadow elsewhere is kept. A frame with
    those start holes emptied (the shadow gone) shows no patch against both looks, where the
    set-up picture's look alone shows one as large as a hand's; a hand there is still a hand."""
    from types import SimpleNamespace

    from vision.colours import bgr_to_lab
    from vision.foreground import GRID_MM, bare_board

    frame, cells, points, reference = _board()
    # board mm = cells * GRID_MM; one start hole at cell (12, 12), a pitch of 8 cells
    layout = SimpleNamespace(holes={"S-s0-1": (12 * GRID_MM, 12 * GRID_MM), "M1": (35 * GRID_MM, 35 * GRID_MM)},
                             pitch=8 * GRID_MM)
    shade = np.array([75, 85, 95], np.float32)
    near = (np.abs(cells[:, 0] - 15) <= 4) & (np.abs(cells[:, 1] - 15) <= 4)     # a shadow beside the start hole
    far = (np.abs(cells[:, 0] - 40) <= 2) & (np.abs(cells[:, 1] - 40) <= 2)      # and one beside a track hole
    at_calibration = reference.copy()
    at_calibration[near | far] = shade
    bare = bare_board(layout, cells, at_calibration)
    assert np.allclose(bare[near], reference[near], atol=1.0)
    assert np.allclose(bare[far], shade) and np.allclose(bare[~near & ~far], reference[~near & ~far])
    # with the empty-board picture, its look (its light matched) is the bare board
    assert np.allclose(bare_board(layout, cells, at_calibration, reference * 0.5), reference, atol=1.0)
    # the start pegs gone: against the set-up picture alone their shadow's place is a hand-sized patch
    assert largest_patch(frame, cells, points, at_calibration) >= PATCH_POINTS
    # (the shadow by the track hole, kept, is not in this frame: its 25 points alone change)
    assert largest_patch(frame, cells, points, at_calibration, bgr_to_lab(at_calibration), bgr_to_lab(bare)) \
        == far.sum() < PATCH_POINTS
    hand = frame.copy()
    hand[90:190, 90:200] = (120, 150, 225)         # a hand over that place and round it
    assert largest_patch(hand, cells, points, at_calibration, None, bgr_to_lab(bare)) >= PATCH_POINTS
