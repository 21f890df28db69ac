"""Calibration: the homography from the markers (and from four tapped points), its cache
file, the cheap per-frame re-check, and peg colours learnt from the set-up picture,
with indistinguishable colours flagged."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.calibration import (Calibration, CalibrationError, MarkerCheck, calibrate, calibrate_geometry,  # noqa: E402
                                calibrate_manual, learn_colours)
from vision.render import make_scene, render_scene, setup_pegs  # noqa: E402
from vision.watch import BoardVision  # noqa: E402


def project(H, pts):
    return cv2.perspectiveTransform(np.array([pts], np.float64), np.asarray(H, np.float64))[0]


@pytest.mark.parametrize("level", ["clean", "moderate", "strong"])
def test_markers_recover_the_homography(layout4, level):
    holes = list(layout4.holes.values())
    for seed in range(3):
        scene = make_scene(layout4, level, 40 + seed)
        img = render_scene(scene, setup_pegs(layout4), seed)
        truth = project(scene.homography, holes)
        markers_only = calibrate_geometry(img, layout4)
        assert markers_only.reprojection_px < 1.0
        if level != "strong":
            assert np.linalg.norm(project(markers_only.homography, holes) - truth, axis=1).max() < 1.0
        # refined on the 92 empty holes of the set-up picture: a fraction of a pixel everywhere
        cal = calibrate(img, layout4)
        assert cal.refined_on >= 80
        assert np.linalg.norm(project(cal.homography, holes) - truth, axis=1).max() < 0.5


def test_calibration_file_round_trip(tmp_path, calibrated, layout4):
    scene, cal = calibrated("clean")[0]
    path = tmp_path / "cal.json"
    cal.save(path)
    back = Calibration.load(path)
    assert np.allclose(back.homography, cal.homography)
    assert back.colours.pegs.keys() == cal.colours.pegs.keys()
    assert back.image_size == cal.image_size and back.method == "markers"
    (tmp_path / "bad.json").write_text(json.dumps({"format": "x"}))
    with pytest.raises(CalibrationError, match="not a calibration file"):
        Calibration.load(tmp_path / "bad.json")
    with pytest.raises(CalibrationError, match="no such file"):
        Calibration.load(tmp_path / "none.json")


def test_manual_calibration_from_four_taps(layout4):
    scene = make_scene(layout4, "mild", 7)
    refs = [layout4.holes[h] for h in layout4.manual_reference_holes()]
    taps = project(scene.homography, refs) + np.random.default_rng(1).normal(0, 0.7, (4, 2))
    cal = calibrate_manual(layout4, taps.tolist(), scene.size)
    holes = list(layout4.holes.values())
    err = np.linalg.norm(project(cal.homography, holes) - project(scene.homography, holes), axis=1)
    assert err.max() < 2.0
    assert cal.method == "manual"
    # colours learn through the manual homography as well
    img = render_scene(scene, setup_pegs(layout4), 3)
    model = learn_colours(img, layout4, cal)
    assert sorted(model.pegs) == [0, 1, 2, 3]
    # a fingertip is a few pixels off: the set-up picture's empty holes pull it right
    rough = project(scene.homography, refs) + np.random.default_rng(2).normal(0, 5, (4, 2))
    cal = calibrate(img, layout4, points=rough.tolist())
    err = np.linalg.norm(project(cal.homography, holes) - project(scene.homography, holes), axis=1)
    assert err.max() < 0.5 and sorted(cal.colours.pegs) == [0, 1, 2, 3]
    with pytest.raises(CalibrationError, match="four points"):
        calibrate_manual(layout4, taps[:3].tolist(), scene.size)
    with pytest.raises(CalibrationError, match="not in order"):
        calibrate_manual(layout4, taps[[0, 2, 1, 3]].tolist(), scene.size)


def test_no_markers_in_view_is_a_clear_error(layout4):
    blank = np.full((720, 1280, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="no marker of the board found"):
        calibrate(blank, layout4)


def test_colours_learnt_per_side(calibrated):
    for scene, cal in calibrated("moderate", 2):
        assert sorted(cal.colours.pegs) == [0, 1, 2, 3]
        assert not [w for w in cal.warnings if "look" in w]


def test_two_players_sides_found(layout4):
    scene = make_scene(layout4, "mild", 11)
    img = render_scene(scene, setup_pegs(layout4, sides=[0, 2]), 1)
    cal = calibrate(img, layout4)
    assert sorted(cal.colours.pegs) == [0, 2]


def test_black_pegs_and_lookalike_colours_are_flagged(layout4):
    scene = make_scene(layout4, "clean", 12)
    colours = ["red", "#c8303a", "green", "black"]          # side 1 nearly side 0's red; side 3 black
    img = render_scene(scene, setup_pegs(layout4, colours=colours), 1)
    cal = calibrate(img, layout4, sides=[0, 1, 2, 3])
    text = "\n".join(cal.warnings)
    assert "side 3's pegs can't be told from empty holes" in text
    assert "side 0's pegs can't be told from side 1's pegs" in text
    assert "different colour" in text and "lighter" in text        # advice comes with the flag
    assert "side 2" not in text
    assert {(w["side"], w["like"]) for w in cal.weak} >= {(3, "empty"), (0, "side")}
    # without naming the sides: black pegs are either taken for empty start holes, or flagged
    cal = calibrate(img, layout4)
    assert 3 not in cal.colours.pegs or any("side 3" in w and "empty holes" in w for w in cal.warnings)


def test_a_side_is_judged_on_its_own_spread():
    """A glossy side's highlights (its heads' lightness strays) neither refuse two sides whose hues
    are apart nor widen the margin a black side needs from the empty holes; a side whose heads stray
    towards another's is still refused."""
    from vision.calibration import hole_margin, pair_margin, weak_sides
    from vision.detect import ColourModel
    w = np.array([0.6, 1.0, 1.0])
    red, orange = np.array([30.0, 60, 40]), np.array([30.0, 45, 55])       # weighted Lab, 21 apart in hue
    rng = np.random.default_rng(3)
    lit = red + np.outer(rng.normal(0, 9, 5), [1, 0, 0])                   # lightness only: along L
    model = ColourModel(board_ref=[200.0, 200, 200], empty=[30.0, 0, 0],
                        pegs={0: list(red / w), 1: list(orange / w)}, tau=6.0, spreads={0: 5.5, 1: 1.0})
    flat = {0: lit, 1: np.tile(orange, (5, 1))}
    assert pair_margin(model, 0, 1) == pytest.approx(36.0)                 # pooled: 6 spreads
    assert pair_margin(model, 0, 1, flat) == 15.0
    assert not weak_sides(model, heads=flat)
    toward = {0: red + np.outer(rng.normal(0, 6, 5), orange - red) / 21, 1: flat[1]}
    assert pair_margin(model, 0, 1, toward) > 21
    assert {(k, o) for k, o, *_ in weak_sides(model, heads=toward)[0]} == {("side", 1)}
    # the black side (spread 1) beside empty holes of spread 3: 4.5 of their pooled spread, at least 12
    assert hole_margin(model) == pytest.approx(27.0)
    assert hole_margin(model, 1, 3.0) == 12.0
    assert hole_margin(model, 0, 8.0) == pytest.approx(4.5 * np.hypot(8.0, 5.5) / np.sqrt(2))


def test_marker_check_notices_a_moved_board(layout4, calibrated):
    scene, cal = calibrated("mild")[0]
    check = MarkerCheck(layout4, cal.homography, cal.image_size)
    same = render_scene(scene, setup_pegs(layout4), 5)
    assert check.check(same).status == "ok"
    # nudge the board 6 px and turn it a little
    rot = np.vstack([cv2.getRotationMatrix2D((640, 360), 0.8, 1.0), [0, 0, 1]])
    shift = np.array([[1, 0, 6], [0, 1, -3], [0, 0, 1]], float) @ rot
    moved_scene = make_scene(layout4, "mild", 100, homography=shift @ scene.homography)
    moved = render_scene(moved_scene, setup_pegs(layout4), 5)
    result = check.check(moved)
    assert result.status == "moved" and result.error_px > check.threshold
    # the live pipeline recalibrates and carries on
    vision = BoardVision(layout4, Calibration.from_json(cal.to_json()))
    events = vision.process(moved).events
    assert [e.kind for e in events] == ["recalibrated"]
    holes = list(layout4.holes.values())
    err = np.linalg.norm(project(vision.calibration.homography, holes) - project(moved_scene.homography, holes), axis=1)
    assert err.max() < 1.0
    assert vision.process(moved).events == []
