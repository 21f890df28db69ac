"""Cameras: replay from images or a video, a camera that disappears (reads fail, or no
frame for N seconds) is reported, Picamera2 (faked) locks exposure and white balance
after settling, OpenCV's VideoCapture (faked) likewise."""
from __future__ import annotations

import types

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.camera import (CameraError, CameraLost, OpenCVCamera, PiCamera, ReplayCamera, Watchdog,  # noqa: E402
                           open_camera)
from vision.render import render_scene, setup_pegs  # noqa: E402
from vision.watch import BoardVision, BoardWatcher  # noqa: E402


def frames(n, shape=(48, 64)):
    return [np.full(shape + (3,), 10 * i, np.uint8) for i in range(n)]


def test_replay_list_then_end():
    cam = ReplayCamera(frames(3))
    got = [cam.read()[0, 0, 0] for _ in range(3)]
    assert got == [0, 10, 20]
    with pytest.raises(CameraLost, match="end of the recording"):
        cam.read()
    loop = ReplayCamera(frames(2), loop=True)
    assert [loop.read()[0, 0, 0] for _ in range(5)] == [0, 10, 0, 10, 0]


def test_replay_folder_and_video(tmp_path):
    for i, f in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), f)
    cam = open_camera(str(tmp_path))
    assert isinstance(cam, ReplayCamera) and cam.read().shape == (48, 64, 3)
    video = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for f in frames(4):
        writer.write(f)
    writer.release()
    cam = ReplayCamera(video)
    assert sum(1 for _ in iter_until_lost(cam)) == 4
    with pytest.raises(CameraError, match="no such file"):
        ReplayCamera(tmp_path / "missing.mp4")


def iter_until_lost(cam):
    try:
        while True:
            yield cam.read()
    except CameraLost:
        return


def test_read_failure_is_reported_as_camera_lost():
    cam = ReplayCamera(frames(10), fail_after=4)
    for _ in range(4):
        cam.read()
    with pytest.raises(CameraLost, match="read failed"):
        cam.read()


class StepClock:
    """A clock that stands still (frames come however loaded the machine is) until
    ``step`` is set; then each reading moves it on by ``step`` seconds."""

    def __init__(self):
        self.t, self.step, self.reads = 0.0, 0.0, 0

    def __call__(self):
        self.t += self.step
        self.reads += 1
        return self.t


def test_watchdog_reports_a_camera_that_stops_delivering():
    clock = StepClock()
    # one frame, then the camera hangs: with more, a loaded machine let the watchdog's thread
    # replace an unread frame by the next (it keeps the newest), a read waited for a frame
    # that never came, and the standing clock never timed it out
    cam = Watchdog(ReplayCamera(frames(10), stall_after=1, fps=50), timeout=0.3, clock=clock)
    try:
        cam.read()
        clock.step, clock.reads = 0.1, 0   # the camera hangs: the watchdog's clock runs on
        with pytest.raises(CameraLost, match="no frame for 0.3 s"):
            cam.read()
        assert clock.reads <= 5   # it gave up once 0.3 s had passed on its clock, not later
    finally:
        cam.close()


def test_watcher_emits_camera_lost_and_stops(layout4, calibrated):
    scene, cal = calibrated("clean")[0]
    pics = [render_scene(scene, setup_pegs(layout4), i) for i in range(7)]
    events = []
    watcher = BoardWatcher(ReplayCamera(pics, fail_after=7), BoardVision(layout4, cal, hold_frames=3),
                           events.append)
    reason = watcher.run(max_frames=50)
    kinds = [e.kind for e in events if e.kind != "readings"]
    assert kinds == ["board", "camera_lost"]
    assert "read failed" in reason and watcher.step() == []


class FakeCapture:
    """cv2.VideoCapture stand-in: frames, then failures; records property sets."""

    def __init__(self, good=3):
        self.good = good
        self.sets = []
        self.released = False

    def isOpened(self):
        return True

    def read(self):
        if self.good > 0:
            self.good -= 1
            return True, np.zeros((4, 4, 3), np.uint8)
        return False, None

    def set(self, prop, value):
        self.sets.append((prop, value))
        return True

    def get(self, prop):
        return {cv2.CAP_PROP_EXPOSURE: 156.0, cv2.CAP_PROP_WB_TEMPERATURE: 4600.0}.get(prop, 0.0)

    def release(self):
        self.released = True


def test_opencv_camera_locks_exposure_then_reports_loss():
    cap = FakeCapture(good=3)
    cam = OpenCVCamera(0, timeout=0.2, settle_frames=2, capture=cap)
    cam.read()
    assert cam.locked == {}
    cam.read()
    assert cam.locked["auto_exposure"] == 1 and cam.locked["exposure"] == 156.0
    assert cam.locked["auto_wb"] == 0 and cam.locked["wb_temperature"] == 4600.0
    cam.read()
    with pytest.raises(CameraLost, match="no frame for 0.2 s"):
        cam.read()
    cam.close()
    assert cap.released


def fake_picamera2(fail_after=None):
    log = {"controls": [], "started": False}

    class Picamera2:
        def __init__(self, num=0):
            self.n = 0

        def create_video_configuration(self, main):
            log["config"] = main
            return {"main": main}

        def configure(self, config):
            pass

        def set_controls(self, controls):
            log["controls"].append(dict(controls))

        def start(self):
            log["started"] = True

        def capture_metadata(self):
            return {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5), "Lux": 300}

        def capture_array(self, name="main"):
            self.n += 1
            if fail_after is not None and self.n > fail_after:
                raise RuntimeError("Camera frontend has timed out!")
            w, h = log["config"]["size"]
            return np.zeros((h, w, 4), np.uint8)

        def stop(self):
            log["started"] = False

        def close(self):
            pass
    return types.SimpleNamespace(Picamera2=Picamera2), log


def test_picamera_locks_after_settling_and_reports_loss():
    module, log = fake_picamera2(fail_after=2)
    slept = []
    cam = PiCamera(size=(640, 480), module=module, settle=1.5, sleep=slept.append)
    assert slept == [1.5] and log["config"] == {"size": (640, 480), "format": "RGB888"}
    assert log["controls"][0] == {"ExposureValue": -0.3}
    locked = log["controls"][-1]
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0,
                      "ColourGains": (1.8, 1.5)}
    assert cam.read().shape == (480, 640, 3)          # XRGB -> 3 channels
    cam.read()
    with pytest.raises(CameraLost, match="timed out"):
        cam.read()
    cam.close()
    assert not log["started"]


def test_picamera_missing_module_says_how_to_install(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera()


def test_open_camera_specs(tmp_path):
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), frames(1)[0])
    cam = open_camera(f"{path},{path}")
    cam.read(), cam.read()
    with pytest.raises(CameraLost):
        cam.read()
    with pytest.raises(CameraError):
        open_camera(str(tmp_path / "nothing.mp4"))


def test_watchdog_passes_frames_through_from_a_thread():
    inner = ReplayCamera(frames(5), fps=100)
    dog = Watchdog(inner, timeout=1.0, clock=StepClock())   # a clock that stands still: no budget
    seen = [dog.read() for _ in range(2)]
    assert all(f.shape == (48, 64, 3) for f in seen)
    dog.close()
    assert not dog._thread.is_alive()
