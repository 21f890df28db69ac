"""Hands over the board: frames with motion are ignored, a still hand makes holes
unreadable rather than empty, and a state is reported only once it holds. Over a video
of a hand sweeping in, resting, and out, then a real move, exactly one change is reported,
after the hand has gone."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

import numpy as np  # noqa: E402

from vision.detect import EMPTY, UNKNOWN, BoardReading  # noqa: E402
from vision.motion import MotionDetector  # noqa: E402
from vision.render import (coloured, make_scene, occlusion_sequence, random_position,  # noqa: E402
                           render_scene, setup_pegs)
from vision.calibration import calibrate  # noqa: E402
from vision.tracker import StableBoardTracker  # noqa: E402
from vision.watch import BoardVision  # noqa: E402


def reading(pegs, holes=("M0", "M1", "M2"), unknown=(), conf=0.99):
    labels = {h: pegs.get(h, EMPTY) for h in holes}
    for h in unknown:
        labels[h] = UNKNOWN
    return BoardReading(labels, {h: (0.0 if h in unknown else conf) for h in holes})


def test_tracker_reports_after_hold_frames_only():
    t = StableBoardTracker(hold_frames=3)
    a, b = {"M0": 1}, {"M1": 1}
    assert t.update(reading(a)) is None
    assert t.update(reading(a)) is None
    first = t.update(reading(a))
    assert first.initial and first.after == a
    for _ in range(5):
        assert t.update(reading(a)) is None              # no change, nothing to say
    assert t.update(reading(b)) is None
    assert t.update(reading(b)) is None
    change = t.update(reading(b))
    assert change.removed == [("M0", 1)] and change.added == [("M1", 1)]
    assert change.describe() == "-M0(1) +M1(1)"


def test_tracker_ignores_moving_unreadable_and_unsure_frames():
    t = StableBoardTracker(hold_frames=2)
    a, b = {"M0": 1}, {"M2": 0}
    t.update(reading(a)), t.update(reading(a))
    assert t.stable == a
    # b seen twice, but never twice in a row without a spoiled frame in between
    for spoiled in (dict(moving=True), dict(unknown=("M1",)), dict(conf=0.3)):
        assert t.update(reading(b)) is None
        r = reading(b, unknown=spoiled.get("unknown", ()), conf=spoiled.get("conf", 0.99))
        assert t.update(r, moving=spoiled.get("moving", False)) is None
    assert t.stable == a and t.ignored == 3
    assert t.update(reading(b)) is None
    assert t.update(reading(b)).after == b


def test_motion_detector_sees_a_moving_blob_not_noise():
    rng = np.random.default_rng(0)
    base = rng.integers(60, 200, (720, 1280), dtype=np.uint8)
    det = MotionDetector()
    results = []
    for i in range(8):
        frame = np.clip(base + rng.normal(0, 4, base.shape), 0, 255).astype(np.uint8)
        if i >= 5:
            frame[200:300, 100 + 60 * i:220 + 60 * i] = 230
        results.append(det.update(frame).moving)
    assert results[:2] == [True, True]              # no history yet
    assert results[2:5] == [False, False, False]     # noise alone is not motion
    assert all(results[5:])


@pytest.fixture(scope="module")
def sequence(layout4):
    """A moderate scene, its calibration, and an occlusion video with one real move."""
    scene = make_scene(layout4, "moderate", 3)
    cal = calibrate(render_scene(scene, setup_pegs(layout4), 1), layout4)
    pos = random_position(layout4, np.random.default_rng(3))
    src = next(h for h in pos if h.startswith("M"))
    n = int(src[1:]) + 5
    while f"M{n % 72}" in pos:
        n += 1
    dst = f"M{n % 72}"
    after = dict(pos)
    after[dst] = after.pop(src)
    frames, truth = occlusion_sequence(layout4, coloured(pos), coloured(after), (src, dst), scene=scene)
    return cal, pos, after, (src, dst), frames, truth


def test_occlusion_sequence_one_change_after_the_hand_has_gone(layout4, sequence):
    cal, before, after, (src, dst), frames, truth = sequence
    vision = BoardVision(layout4, cal, hold_frames=5)
    changes, still_hand = [], 0
    for i, frame in enumerate(frames):
        result = vision.process(frame)
        if result.change is not None:
            changes.append((i, result.change))
        if truth[i] is None and not result.moving and result.reading.labels:
            still_hand += 1
            # a hand resting on the board: what it covers is unreadable or right, never confidently wrong
            for hole, label in result.reading.labels.items():
                if label != UNKNOWN and result.reading.confidence[hole] >= 0.8:
                    assert label in (before.get(hole, EMPTY), after.get(hole, EMPTY)), (i, hole)
    assert still_hand >= 5, "the hand should rest over the board for a while"
    assert changes[0][1].initial and changes[0][1].after == before
    moves = changes[1:]
    assert len(moves) == 1, [c.describe() for _, c in moves]
    i, change = moves[0]
    side = before[src]
    assert change.removed == [(src, side)] and change.added == [(dst, side)]
    last_hand = max(k for k, t in enumerate(truth) if t is None)
    assert i >= last_hand + 5                           # reported once it held, after the hand left
    assert all(t == "after" for t in truth[last_hand + 1:])


def test_still_hand_makes_holes_unreadable(layout4, sequence):
    cal, before, after, moved, frames, truth = sequence
    scene = make_scene(layout4, "moderate", 3)
    from vision.watch import detect_image
    import cv2
    centre = cv2.perspectiveTransform(np.array([[[layout4.width / 2, layout4.height * 0.8]]]), scene.homography)[0, 0]
    img = render_scene(scene, coloured(before), 77, hands=[((float(centre[0]), float(centre[1])), 270.0)])
    r = detect_image(img, layout4, cal)
    assert r.unknown, "holes under the hand must not read as empty"
    for hole, label in r.labels.items():
        if label != UNKNOWN and r.confidence[hole] >= 0.8:
            assert label == before.get(hole, EMPTY), hole


@pytest.mark.slow
@pytest.mark.parametrize("level", ["clean", "mild", "moderate"])
def test_no_false_moves_over_many_sequences(layout4, level):
    for seed in range(10, 14):
        scene = make_scene(layout4, level, seed)
        cal = calibrate(render_scene(scene, setup_pegs(layout4), 1), layout4)
        pos = random_position(layout4, np.random.default_rng(seed))
        src = next(h for h in pos if h.startswith("M"))
        n = int(src[1:]) + 4
        while f"M{n % 72}" in pos:
            n += 1
        dst = f"M{n % 72}"
        after = dict(pos)
        after[dst] = after.pop(src)
        frames, truth = occlusion_sequence(layout4, coloured(pos), coloured(after), (src, dst), scene=scene)
        vision = BoardVision(layout4, cal)
        changes = [r.change for r in map(vision.process, frames) if r.change and not r.change.initial]
        assert [(c.before, c.after) for c in changes] == [(pos, after)], (level, seed)
