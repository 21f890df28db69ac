"""Issue 16.2 and 16.3 on photo-like pictures (vision/render_hard.py): a tilted camera with a
barrel lens, dome pegs with parallax, a strong gradient, a shadow band, a colour-temperature
shift, noise and JPEG 75, and a lamp's sheen and glare that dividing by a hole's ring can't cancel. A small fixed-seed set asserting the targets; the big evaluation
is tests/benchmarks/bench_vision.py."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

import numpy as np  # noqa: E402

from .gamekit import CameraSetUp, position_read, replay, summary  # noqa: E402

from vision.calibration import calibrate  # noqa: E402
from vision.detect import EMPTY, Classifier, HoleSampler, read_holes  # noqa: E402
from vision.render import coloured, random_position, setup_pegs  # noqa: E402
from vision.render_hard import (PEG_HEIGHT_MM, PRESETS, TABLE_COLOURS, TABLE_NAMES, make_hard_scene,  # noqa: E402
                                render_hard)


def test_the_hard_renderer_has_tilt_barrel_and_parallax(layout4):
    scene = make_hard_scene(layout4, "hard", 3)
    cam = scene.camera
    assert -0.15 <= cam.k1 <= -0.12
    tilt = np.degrees(np.arccos(abs(cam.R[2, 2])))
    assert 15 <= tilt <= 20
    # a peg's head is seen away from its hole, most at the board's far corners
    shifts = [np.linalg.norm(cam.project([(x, y, -PEG_HEIGHT_MM)])[0] - cam.project([(x, y, 0)])[0])
              for x, y in layout4.holes.values()]
    assert max(shifts) / scene.px_per_mm > 5
    # the lens bows the board's straight edge: its middle is off the line through its ends
    a, m, b = cam.project([(0, 0, 0), (layout4.width / 2, 0, 0), (layout4.width, 0, 0)])
    d, v = b - a, m - a
    assert abs(d[0] * v[1] - d[1] * v[0]) / np.linalg.norm(d) > 1.5      # px (0 through a pinhole)
    # a lamp's sheen is added, not multiplied (a ring ratio can't cancel it): it blows the paper out
    assert scene.sheen is not None and scene.sheen.max() > 0.3 * 255
    assert make_hard_scene(layout4, "hard-soft", 3).sheen is None


def test_hard_set_targets():
    """Two camera set-ups, 12 moves each: per-hole error <= 0.3 %, >= 90 % of positions read,
    no false position, >= 95 % of moves taken without asking, no wrong move; hand pictures
    give no position and no wrong move."""
    c = Counter()
    for k in range(2):
        replay(CameraSetUp(300 + k), game_seed=k + 1, moves=12, hands_every=4, stats=c)
    s = summary(c)
    assert s["pictures"] == 24 and s["hand_pictures"] == 6
    assert s["hole_error"] <= 0.003, s
    assert s["positions_read"] >= 0.9, s
    assert s["false_positions"] == 0 and s["wrong"] == 0, s
    assert s["taken"] >= 0.95, s
    assert s["hand_positions_read"] == 0 and s["hand_wrong"] == 0, s


@pytest.mark.parametrize("seed", [1005, 1007])
def test_set_ups_a_ring_ratio_refused_now_calibrate_and_read(seed):
    """Set-ups where the lamp's sheen and the cool shadow made a side's pegs look like empty holes
    to a ring ratio (calibration refused: blue in 1005, red in 1007, the old detector read 0 of 6
    positions in each). Judged against each hole's own ring and empty look they are told apart:
    calibration passes and the targets hold."""
    setup = CameraSetUp(seed)
    assert setup.calibration.weak == [], setup.calibration.weak
    s = summary(replay(setup, game_seed=seed % 100, moves=10))
    assert s["hole_error"] <= 0.003, s
    assert s["positions_read"] >= 0.9, s
    assert s["false_positions"] == 0 and s["wrong"] == 0 and s["taken"] >= 0.95, s


@pytest.mark.parametrize("empty_picture, at_least", [(False, 1), (True, 5)])
def test_the_side_under_the_lamps_sheen_is_read_with_the_camera_model(empty_picture, at_least):
    """Set-up 1004: the sheen lies on the red start holes; a ring ratio, and then each hole's own
    empty look through a homography, could not tell red from an empty hole there (calibration
    refused; with an empty-board picture only its clipped red channel did). With the camera model
    each head is read at its own spot against that spot's empty look, and the hole's own disc
    must agree: calibration passes with or without the empty-board picture, and positions are
    read (1 of 8 without it, measured: red start holes under the sheen stay unsure; 5 of 8 with
    it), none of them false, no wrong move. Before, none was read without the empty-board
    picture, and the calibration was refused either way."""
    setup = CameraSetUp(1004, empty_picture=empty_picture)
    assert setup.calibration.camera is not None
    assert setup.calibration.weak == [], setup.calibration.weak
    read = false = 0
    for i in range(8):
        pos = random_position(setup.layout, np.random.default_rng(100 * 1004 + i))
        got = position_read(setup.read(pos))
        read += got is not None
        false += got is not None and got != pos
    assert false == 0 and read >= at_least, (read, false)
    s = summary(replay(setup, game_seed=4, moves=8))
    assert s["false_positions"] == 0 and s["wrong"] == 0 and s["taken"] >= 0.95, s


def test_a_peg_whose_colour_the_sheen_moved_is_read_where_only_its_side_is_near():
    """Set-up 1010 with the empty-board picture: green pegs in home holes under the lamp's sheen
    show colours 25-27 from green's (more than 4 spreads: "unreadable" before), 48-50 from any other
    side's. Their holes' patterns are broken and the board round them is as at calibration (no
    hand): a peg, and only green is near, so they are read green and those positions are read
    (pictures 1 and 4). A yellow peg there (picture 0), 27.5 from yellow and 29.5 from green when
    the head was read over its core and rim, stayed unread; read over its core alone (the rim
    takes in the sheen round the head) it is 27.5 from yellow and 33.8 from green, within
    yellow's spread: read yellow, and all 6 positions are read (4 before, 2 before that), none
    falsely."""
    setup = CameraSetUp(1010, empty_picture=True)
    readings = []
    for i in range(6):
        pos = random_position(setup.layout, np.random.default_rng(100 * 1010 + i))
        readings.append((pos, setup.read(pos)))
    got = [position_read(r) for _, r in readings]
    assert all(g is None or g == pos for g, (pos, _) in zip(got, readings))
    assert got[1] is not None and got[4] is not None
    assert readings[1][1].labels["H3-s2"] == 2 and readings[4][1].labels["H4-s2"] == 2
    assert readings[0][0]["M40"] == 3 and readings[0][1].labels["M40"] == 3
    assert sum(g is not None for g in got) == 6


def test_a_clipped_channel_rules_out_only_an_empty_look_well_below_the_clip():
    from vision.detect import CLIP_PROOF, LocalNorm, Samples, brighter_than_empty
    ring = np.array([[130.0, 240, 255], [130, 240, 255], [130, 240, 255]], np.float32)
    hole = np.array([[107.0, 156, 255], [99, 175, 222], [107, 156, 255]], np.float32)
    ratio = np.array([[0.75, 0.73, 222 / 255], [0.75, 0.73, 222 / 255], [0.75, 0.73, 0.99]], np.float32)
    samples = Samples(hole=hole, heads=hole[:, None, :], ring=ring, saturated=np.zeros(3))
    norm = LocalNorm(ratio, np.array([20.0, 24, 28], np.float32), np.array([90.0, 130, 160], np.float32))
    # a clipped peg over a hole whose empty look is 33 below the clip; the empty hole itself; a clipped
    # reading where the empty look is itself near the clip (it says nothing)
    assert brighter_than_empty(samples, norm).tolist() == [True, False, False]
    assert 255 - 222 > CLIP_PROOF


def test_mild_set_stays_at_a_thousandth():
    c = replay(CameraSetUp(400, level="mild"), game_seed=7, moves=8)
    s = summary(c)
    assert s["hole_error"] <= 0.001 and s["false_positions"] == 0 and s["wrong"] == 0, s


def test_corner_holes_at_the_picture_edge_are_read(layout4):
    """The board's corners run out of the picture: the corner holes' rings are partly outside
    it. They used to be "outside the picture" (calibration refused, holes unreadable)."""
    scene = make_hard_scene(layout4, replace(PRESETS["hard"], margin=(-58, -50)), 0)
    cal = calibrate(render_hard(scene, setup_pegs(layout4, colours=TABLE_COLOURS), 1), layout4,
                    names=dict(enumerate(TABLE_NAMES)))
    sampler = cal.sampler(layout4)
    clf = Classifier(cal.colours, sampler.holes)
    corner = min(layout4.holes, key=lambda h: min(scene.hole_px(h)[0], scene.hole_px(h)[1],
                                                  1279 - scene.hole_px(h)[0], 719 - scene.hole_px(h)[1]))
    for i in range(2):
        pos = random_position(layout4, np.random.default_rng(i))
        pos[corner] = 1
        reading = read_holes(render_hard(scene, coloured(pos, TABLE_COLOURS), 10 + i), sampler, clf)
        assert reading.labels == {h: pos.get(h, EMPTY) for h in layout4.holes}


def test_an_empty_board_picture_gives_every_hole_its_own_empty_look(layout4):
    scene = make_hard_scene(layout4, "hard", 5)
    setup = render_hard(scene, setup_pegs(layout4, colours=TABLE_COLOURS), 1)
    cal = calibrate(setup, layout4, names=dict(enumerate(TABLE_NAMES)))
    assert set(cal.colours.hole_empty) == {h for h in layout4.holes if not h.startswith("S-")}
    cal = calibrate(setup, layout4, names=dict(enumerate(TABLE_NAMES)), empty_image=render_hard(scene, {}, 2))
    assert set(cal.colours.hole_empty) == set(layout4.holes)
    sampler = cal.sampler(layout4)
    pos = random_position(layout4, np.random.default_rng(9))
    reading = read_holes(render_hard(scene, coloured(pos, TABLE_COLOURS), 3), sampler,
                         Classifier(cal.colours, sampler.holes))
    assert reading.pegs == pos
    with pytest.raises(Exception, match="empty-board picture"):
        calibrate(setup, layout4, empty_image=setup)


def test_local_normalisation_cancels_added_light_where_a_ring_ratio_cannot():
    """A peg, its hole's ring and its empty look under light that multiplies (x0.6 .. x1.1 per
    channel) and adds (a sheen, 0-60 levels; nothing clipped): its place between empty look and
    ring is the same everywhere; divided by the ring alone it is not."""
    from vision.detect import LocalNorm, Samples, features
    board, hole, peg = np.array([90.0, 130, 160]), np.array([20.0, 24, 28]), np.array([40.0, 50, 150])
    rng = np.random.default_rng(1)
    gain = rng.uniform(0.6, 1.1, (40, 3))
    added = rng.uniform(0, 60, (40, 1)) * np.ones(3)
    ring, empty, heads = board * gain + added, hole * gain + added, peg * gain + added
    samples = Samples(hole=heads.astype(np.float32), heads=heads[:, None, :].astype(np.float32),
                      ring=ring.astype(np.float32), saturated=np.zeros(40))
    norm = LocalNorm((empty / ring).astype(np.float32), hole.astype(np.float32), board.astype(np.float32))
    local = features(samples, board, norm).hole_lab
    assert np.ptp(local, axis=0).max() < 0.5                     # Lab units: the same colour everywhere
    ratio = features(samples, board).hole_lab
    assert np.ptp(ratio, axis=0).max() > 10


def test_calibration_file_keeps_the_local_model_and_old_files_still_read(tmp_path):
    from vision.calibration import Calibration
    setup = CameraSetUp(1005)
    cal = setup.calibration
    assert set(cal.colours.hole_ratio) == set(setup.layout.holes) and cal.colours.bodies
    cal.save(tmp_path / "cal.json")
    back = Calibration.load(tmp_path / "cal.json")
    assert back.colours.hole_ratio.keys() == cal.colours.hole_ratio.keys()
    assert back.colours.local_norm(setup.sampler.holes) is not None
    # a file saved before the local model: read with the ring ratio, as it was made
    data = json.loads((tmp_path / "cal.json").read_text())
    for key in ("hole_ratio", "empty_ref", "bodies", "spreads", "unsure"):
        del data["colours"][key]
    old = Calibration.from_json(data)
    assert Classifier(old.colours, setup.sampler.holes).norm is None
