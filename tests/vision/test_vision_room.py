"""Issue 23 on the 2.5D renderer's `room` set-ups (vision/render_hard.py): a webcam 40-75 cm up,
tilted 0-25 degrees, a barrel lens (k1 to -0.2, k2), pegs with a shaft and a head 12.5-15.5 mm up,
black and white pegs, the template's grey discs. The camera's lens and pose are fitted at
calibration, heads read where the pose puts them, and each hole checked on two looks."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
np = pytest.importorskip("numpy")

from .gamekit import CameraSetUp, position_read  # noqa: E402
from vision.calibration import (FORMAT_V1, HEAD_OFFSET_READ, Calibration, CalibrationError,  # noqa: E402
                                calibrate, camera_summary)
from vision.detect import EMPTY, read_holes, spot_distance  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.render import coloured, random_position, setup_pegs  # noqa: E402
from vision.render_hard import PRESETS, make_hard_scene, render_hard  # noqa: E402


@pytest.fixture(scope="module")
def room():
    return CameraSetUp(201, level="room")


def test_the_camera_fit_finds_the_lens_and_the_pose(room):
    cam, true = room.calibration.camera, room.scene.camera
    assert cam is not None
    true_tilt = float(np.degrees(np.arccos(true.R.T[2, 2])))
    assert abs(cam.height_mm - true.height) < 0.03 * true.height
    assert abs(cam.tilt_deg - true_tilt) < 1.0
    assert abs(cam.dist[0] - true.k1) < 0.03
    fit = room.calibration.fit
    assert fit["rms_px"] < 0.5 and fit["homography_rms_px"] > 2 * fit["rms_px"], fit
    # where the heads are seen: measured from the start pegs, near the heads' middle
    assert abs(room.calibration.head_height - (room.scene.peg_height - 6.0)) < 3.0


def test_a_lens_as_wide_as_the_fit_tries_is_still_seen():
    """Room set-up 706: a 133-degree lens 41 cm up, past the widest lens the scan tries (130). The
    error rises before that edge, so the lens is seen there and refined, not said as assumed (as a
    floor of error running off the edge is: tests/vision/test_vision_pathtraced_cases.py)."""
    su = CameraSetUp(706, level="room")
    cam, true = su.calibration.camera, su.scene.camera
    assert cam.focal_observed
    assert abs(cam.height_mm - true.height) < 0.03 * true.height, (cam.height_mm, true.height)


def test_a_lens_inside_an_error_floor_running_to_the_widest_is_kept_but_said_as_assumed():
    """Room set-up 720: a 109-degree lens 48 cm up, tilted 2.4 degrees. The fit's best lens (112) sits
    in an error floor that runs out to the widest lens tried: the pose it fits best is kept (the
    holes are read through it), the lens and the height said as assumed."""
    su = CameraSetUp(720, level="room")
    cam, true = su.calibration.camera, su.scene.camera
    assert not cam.focal_observed
    assert abs(cam.height_mm - true.height) < 0.08 * true.height, (cam.height_mm, true.height)
    assert "can't tell the two apart" in str(camera_summary(su.calibration, su.layout)[0])


def test_black_and_white_pegs_calibrate_and_read(room):
    assert {"black", "white"} <= set(room.names)
    assert room.calibration.weak == [], room.calibration.weak
    read = 0
    for i in range(4):
        pos = random_position(room.layout, np.random.default_rng(100 * room.seed + i))
        reading = room.read(pos)
        assert all(reading.labels[h] == pos.get(h, EMPTY) for h in room.layout.holes
                   if reading.confidence[h] >= 0.8)
        got = position_read(reading)
        if got is not None:
            assert got == pos
            read += 1
    assert read >= 3


def test_a_head_pasted_over_an_empty_holes_spot_is_not_sure(room):
    """Check the picture, not only the count: copy a red head onto an empty hole's head spot, its
    own disc left as it is. The head's spot alone says "a peg" (far from its empty look); the
    hole's disc says "empty", so the hole is not read surely and no position is read from the
    picture."""
    layout, s = room.layout, room.sampler
    red = next(i for i, n in enumerate(room.names) if n not in ("black", "white"))     # a coloured side
    pos = random_position(layout, np.random.default_rng(5))
    a = next(h for h, v in pos.items() if v == red and h.startswith("M"))
    b = next(h for h in layout.holes if h.startswith("M") and h not in pos and abs(int(h[1:]) - int(a[1:])) > 3)
    img = room.render(coloured(pos, room.colours), 77)
    ia, ib = s.holes.index(a), s.holes.index(b)
    px_mm = float(np.linalg.norm(s.board_to_image([(layout.holes[b][0] + 1, layout.holes[b][1])])[0] - s.centres[ib]))
    R = int(np.ceil(layout.peg_diameter / 2 * 1.15 * px_mm))
    xa, ya = (int(round(v)) for v in s.head_centres[ia])
    xb, yb = (int(round(v)) for v in s.head_centres[ib])
    yy, xx = np.mgrid[-R:R + 1, -R:R + 1]
    hx, hy = s.centres[ib]
    keep = (np.hypot(xx + xb - hx, yy + yb - hy) > layout.hole_diameter / 2 * 1.1 * px_mm) & (np.hypot(xx, yy) <= R)
    out = img.copy()
    out[yb - R:yb + R + 1, xb - R:xb + R + 1][keep] = img[ya - R:ya + R + 1, xa - R:xa + R + 1][keep]
    f = room.classifier.features(s.sample(out))
    assert spot_distance(f.spot_lab[ib], f.head_empty_lab[ib]) > 3 * room.calibration.colours.tau
    reading = read_holes(out, s, room.classifier)
    assert not (reading.labels[b] == red and reading.confidence[b] >= 0.8)
    assert position_read(reading) is None
    assert position_read(read_holes(img, s, room.classifier)) == pos      # the picture as it was


def test_calibration_files_are_versioned(room, tmp_path):
    cal = room.calibration
    data = cal.to_json()
    assert data["format"].endswith("/2") and data["camera"]["height_mm"] > 0
    again = Calibration.from_json(json.loads(json.dumps(data)))
    assert again.camera is not None and again.head_height == pytest.approx(cal.head_height, abs=0.01)
    pts = np.array([room.layout.holes["M3"], room.layout.holes["H2-s1"]])
    assert np.allclose(again.camera.project(pts), cal.camera.project(pts), atol=0.05)
    # a format 1 file (a homography, no camera) still loads and maps the board with its homography
    old = {k: v for k, v in data.items() if k not in ("camera", "head_height", "fit")}
    old["format"] = FORMAT_V1
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    loaded = Calibration.load(path)
    assert loaded.camera is None and loaded.geometry is loaded.homography
    assert loaded.sampler(room.layout).camera is None
    # a newer format is refused in words
    newer = dict(data, format="pegs-and-jokers/vision-calibration/9")
    with pytest.raises(CalibrationError, match="newer format.*calibrate again"):
        Calibration.from_json(newer)


def test_the_calibration_shows_the_camera_in_words(room):
    lines = camera_summary(room.calibration, room.layout)
    h = room.calibration.camera.height_mm / 10
    assert lines[0].startswith(f"camera {h:.0f} cm above the board, tilted")
    assert "lens: k1" in lines[1] and "bending the corners" in lines[1]
    assert "peg heads seen" in lines[2]
    assert lines[3].startswith("working envelope for these pegs") and "25 degrees" in lines[3]
    mm = HEAD_OFFSET_READ * room.layout.pitch
    assert f"heads seen up to {mm:.0f} mm off their holes" in lines[3]


@pytest.mark.parametrize("sides,pitch", [(4, 25.0), (6, 18.0), (8, 16.0)])
def test_the_working_envelope_puts_the_far_heads_where_the_holes_still_read(sides, pitch):
    """At the lowest height the envelope gives for a tilt, a camera aimed at the board's middle
    sees the farthest heads HEAD_OFFSET_READ of a pitch off their holes (the offset up to which the
    path-traced sets read the holes: docs/CAMERA.md), and no head further, never below the lowest
    camera measured (40 cm); a taller peg needs a higher camera."""
    import math

    from vision.calibration import ENVELOPE_FLOOR_MM, working_envelope
    from vision.geometry import CameraModel
    layout = standard_layout(sides, pitch=pitch)
    xy = np.array(list(layout.holes.values()), float)
    middle = np.array([layout.width / 2, layout.height / 2])
    s = HEAD_OFFSET_READ * pitch
    head = 12.0
    env = working_envelope(layout, head)
    assert [t for t, _ in env] == [0, 10, 20, 25] and all(h is not None for _, h in env)
    for tilt, lowest in env:
        worst = 0.0
        for a in np.linspace(0, 2 * math.pi, 72, endpoint=False):
            foot = middle - lowest * math.tan(math.radians(tilt)) * np.array([math.cos(a), math.sin(a)])
            cam = CameraModel(np.eye(3), np.zeros(5), np.zeros(3), -np.array([foot[0], foot[1], -lowest]),
                              (1280, 720))
            worst = max(worst, float(cam.parallax_mm(xy, head).max()))
        assert worst <= s + 1e-6 and (worst >= s * 0.97 or lowest == ENVELOPE_FLOOR_MM), (tilt, lowest, worst, s)
    assert min(h for _, h in env) >= ENVELOPE_FLOOR_MM      # no lower than any camera measured
    taller = working_envelope(layout, 15.0)
    assert all(b is None or b >= a for (_, a), (_, b) in zip(env, taller))   # None: not at any height
    assert taller[-1][1] is None or taller[-1][1] > env[-1][1]


def test_heads_seen_off_the_grey_discs_are_blamed_on_the_camera_not_the_colour():
    """A camera 44 cm up, tilted 30 degrees, pegs 18 mm tall (beyond issue 23's envelope): far from
    the camera the white heads are seen up to 12 mm off their holes, beside their grey discs,
    against the paper. That refuses white, and the advice says so in those words (raise the
    camera, point it straight down), not "use other pegs"."""
    layout = standard_layout(4)
    cond = replace(PRESETS["room"], height=(400.0, 400.0), tilt=(30.0, 30.0), peg_height=(18.0, 18.0))
    scene = make_hard_scene(layout, cond, 2)
    img = render_hard(scene, setup_pegs(layout, colours=["black", "white", "red", "#1a3a8c"]), 1)
    cal = calibrate(img, layout, names={0: "black", 1: "white", 2: "red", 3: "blue"}, head_height=12.0)
    white = [w for w in cal.weak if w["side"] == 1 and w["like"] == "empty"]
    assert white, cal.weak
    assert "raise the camera" in white[0]["message"] and "straight down" in white[0]["message"]
    assert "grey discs" in white[0]["message"] and "different colour" not in white[0]["message"]


def test_a_camera_outside_the_working_envelope_is_told_what_to_change(monkeypatch):
    """The calibration warns, in the words of what to change, when the camera sees the farthest
    heads more than ENVELOPE_SLACK x the envelope's offset off their holes: below the envelope's
    height at its tilt, raise it (or point it straight down); tilted so far that no height up to
    MOUNT_MAX_MM will do, point it straight down; high enough but aimed off the board's middle,
    aim it there. Within the envelope, nothing is said. And a calibration keeps such a warning
    (the lens's and the camera's warnings were dropped when the colours were learnt)."""
    import math

    import cv2

    import vision.calibration as calibration
    from vision.calibration import ENVELOPE_SLACK, outside_envelope, working_envelope
    from vision.geometry import CameraModel
    layout = standard_layout(4)
    middle = np.array([layout.width / 2, layout.height / 2])
    head = 12.0

    def camera(height, tilt, aim=(0.0, 0.0)):
        t = math.radians(tilt)
        c, s = math.cos(t), math.sin(t)
        R = np.array([[1.0, 0, 0], [0, c, -s], [0, s, c]])          # looks down (+z), tilted towards +y
        foot = middle + np.array(aim) - np.array([0.0, height * math.tan(t)])
        centre = np.array([foot[0], foot[1], -height])
        rvec = cv2.Rodrigues(R)[0].ravel()
        return CameraModel(np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]]), np.zeros(5), rvec,
                           -R @ centre, (1280, 720))

    def advice(cam):
        calib = Calibration(homography=np.eye(3), image_size=(1280, 720))
        calib.camera, calib.head_height = cam, head
        got = outside_envelope(layout, calib)
        return None if got is None else str(got)

    (_, lowest), = working_envelope(layout, head, tilts=(10.0,))
    assert advice(camera(lowest + 20, 10.0)) is None
    low = advice(camera(0.6 * lowest, 10.0))
    assert low is not None and f"raise the camera to at least {math.ceil(lowest / 10):.0f} cm" in low \
        and "point it straight down" in low and "tilted 10 degrees" in low, low
    # a lens the picture could not tell from the height: the height said with the lens it goes with
    guessed = camera(0.6 * lowest, 10.0)
    guessed.focal_observed = False
    said = advice(guessed)
    assert said is not None and f"camera about {0.06 * lowest:.0f} cm up if its lens is {guessed.fov_deg:.0f} " \
        "degrees across, tilted 10 degrees" in said, said
    steep = advice(camera(600.0, 40.0))
    assert steep is not None and steep.split(": ", 1)[1].startswith("point it straight down, from at least"), steep
    off_centre = advice(camera(lowest + 20, 10.0, aim=(250.0, 250.0)))
    assert off_centre is not None and "aim the camera at the board's middle" in off_centre, off_centre
    calib = Calibration(homography=np.eye(3), image_size=(1280, 720))
    calib.camera, calib.head_height = camera(0.6 * lowest, 10.0), 0.0
    assert outside_envelope(layout, calib) is None          # no head height measured: nothing to say
    assert ENVELOPE_SLACK > 1
    # kept by calibrate(): a room set-up whose envelope is made tiny
    monkeypatch.setattr(calibration, "HEAD_OFFSET_READ", 0.01)
    room = CameraSetUp(201, level="room")
    assert any("farthest peg heads" in str(w) for w in room.calibration.warnings), room.calibration.warnings
