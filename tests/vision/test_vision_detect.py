"""Detection accuracy on synthetic pictures: at most 0.1 % of holes wrong (an unreadable
hole counts as wrong) on clean and moderate pictures, over 40 pictures of 112 holes per
level, each a random mid-game position under its own light and noise."""
from __future__ import annotations

import time

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

import numpy as np  # noqa: E402

from vision.detect import EMPTY, Classifier, HoleSampler, read_holes  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.render import coloured, make_scene, random_position, render_scene, setup_pegs  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.watch import BoardVision, detect_image  # noqa: E402


def measure(layout, calibrated_sessions, images_per_session, seed=0):
    wrong, total, details = 0, 0, []
    for k, (scene, cal) in enumerate(calibrated_sessions):
        sampler = cal.sampler(layout)
        clf = Classifier(cal.colours)
        for i in range(images_per_session):
            rng = np.random.default_rng(seed + 1000 * k + i)
            pos = random_position(layout, rng)
            img = render_scene(scene, coloured(pos), seed + 7919 * k + i)
            reading = read_holes(img, sampler, clf)
            for hole in layout.holes:
                total += 1
                if reading.labels[hole] != pos.get(hole, EMPTY):
                    wrong += 1
                    details.append((k, i, hole, pos.get(hole, EMPTY), reading.labels[hole]))
    return wrong, total, details


@pytest.mark.parametrize("level", ["clean", "moderate"])
def test_per_hole_error_at_most_a_thousandth(layout4, calibrated, level):
    wrong, total, details = measure(layout4, calibrated(level, 4), 10)
    assert total == 40 * 112
    assert wrong <= total // 1000, details[:10]


@pytest.mark.slow
@pytest.mark.parametrize("level", ["clean", "mild", "moderate"])
@pytest.mark.parametrize("sides,hps,size", [(6, 18, (1920, 1080)), (8, 20, (2304, 1296)), (10, 18, (2304, 1296))])
def test_bigger_boards(level, sides, hps, size):
    """6-, 8- and 10-sided boards (pitch 20 mm, 0.9-1.2 px/mm: a 1080p or 2304x1296 camera).
    Glare on a hole makes it unreadable more often at this resolution: at most 0.5 %."""
    layout = standard_layout(sides, hps, pitch=20)
    sessions = []
    for k in range(2):
        scene = make_scene(layout, level, 500 + k, size)
        sessions.append((scene, calibrate(render_scene(scene, setup_pegs(layout), k), layout)))
    wrong, total, details = measure(layout, sessions, 5)
    assert wrong <= total // 200, details[:10]


def test_detect_image_uses_the_pictures_own_markers(layout4, calibrated):
    scene, cal = calibrated("mild")[0]
    # the camera was bumped since calibration: a new pose, same lighting model
    other = make_scene(layout4, "mild", 999)
    pos = random_position(layout4, np.random.default_rng(5))
    img = render_scene(other, coloured(pos), 3)
    reading = detect_image(img, layout4, cal)
    assert reading.markers_ok
    assert reading.pegs == pos


def test_pipeline_time_per_frame_at_720p(layout4, calibrated):
    """Every stage of a frame at 1280x720 (bench_vision.py prints the details)."""
    scene, cal = calibrated("moderate")[0]
    vision = BoardVision(layout4, cal)
    frames = [render_scene(scene, setup_pegs(layout4), 50 + i) for i in range(4)]
    for f in frames:
        vision.process(f)                       # fill the motion history
    start = time.process_time()   # the work's CPU time (OpenCV's threads too), not a loaded wall clock
    n = 12
    for i in range(n):
        result = vision.process(frames[i % 4])
        assert not result.moving
    per_frame = (time.process_time() - start) / n * 1000
    assert per_frame < 100, f"{per_frame:.1f} ms per frame"
    assert set(vision.timings) == {"markers", "motion", "sampling", "classification", "tracker", "total"}
