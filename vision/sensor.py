"""The camera as the board's sensor: the reed-switch sensor's interface over `BoardWatcher`.

`CameraSensor` reads the camera in a thread of its own (`BoardWatcher`: motion
gating, the stable-state tracker) and offers what the board referee asks of
`hardware.sensors.ReedSensor`: ``scan(now)`` gives the per-hole changes since
the last call as `SwitchEvent`s, ``snapshot()`` the holes with a peg,
``readings()`` the per-hole (p_peg, side, p_side) of the latest still board and
``colours()`` its pegs' sides (the referee weighs them against the legal moves),
``crop_png(hole)`` a small picture of a doubtful hole for the phone,
``active_faults`` what stops the camera from being trusted now (markers out of
sight, the camera gone). Like the rest of vision/ it knows hole ids, not rules.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from hardware.sensors import SensorFault, SwitchEvent

log = logging.getLogger("vision.sensor")


class CameraSensor:
    def __init__(self, camera, vision, holes, *, clock: Callable[[], float] = time.monotonic,
                 threaded: bool = True, on_fault=None):
        from .watch import BoardWatcher
        self.holes = list(holes)
        self.clock = clock
        self.on_fault = on_fault
        self.lock = threading.Lock()
        self.filled: set[str] = set()          # what the referee has been told
        self.seen: set[str] | None = None      # the latest stable state of the camera
        self.read_once = threading.Event()
        self.active_faults: dict[tuple, SensorFault] = {}
        self._readings: tuple | None = None   # (frame index, {hole: (p_peg, side, p_side)})
        self.vision = vision
        self.watcher = BoardWatcher(camera, vision, self._on_event)
        self.camera = camera
        self._stop = threading.Event()
        self._thread = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="pegs-camera", daemon=True)
            self._thread.start()

    # ------------------------------------------------------------------ the camera thread
    def _run(self) -> None:
        try:
            self.watcher.run(self._stop)
        except Exception as exc:   # a driver error must not go unnoticed: it is a fault, and logged
            log.exception("the camera stopped")
            self._fault("camera", f"the camera stopped ({type(exc).__name__}: {exc}): enter the moves on "
                                  f"the phones, or restart the companion")

    def step(self) -> list:
        """One frame, in the caller's thread (``threaded=False``: tests)."""
        return self.watcher.step()

    def _fault(self, key: str, message: str) -> None:
        fault = SensorFault(key if key != "markers" else "read-error", message, self.clock())
        with self.lock:
            self.active_faults[(key,)] = fault
        if self.on_fault:
            self.on_fault(fault)

    def _clear(self, key: str) -> None:
        with self.lock:
            self.active_faults.pop((key,), None)

    def _on_event(self, event) -> None:
        if event.kind == "readings":
            with self.lock:
                self._readings = (event.frame, dict(event.data))
        elif event.kind == "board":
            with self.lock:
                self.seen = set(event.data.after)
            self.read_once.set()
        elif event.kind == "calibration_lost":
            self._fault("markers", "the camera can't see the board's markers: move what covers them, or "
                                   "calibrate again if the board or the camera moved")
        elif event.kind in ("calibration_restored", "recalibrated"):
            self._clear("markers")
        elif event.kind == "camera_lost":
            self._fault("camera", f"{event.message}: enter the moves on the phones, check the camera's "
                                  f"cable, then try the board again")

    # ------------------------------------------------------------------ the sensor interface
    def scan(self, now: float | None = None) -> list[SwitchEvent]:
        now = self.clock() if now is None else now
        with self.lock:
            seen = self.seen
        if seen is None or seen == self.filled:
            return []
        events = [SwitchEvent(h, False, now) for h in sorted(self.filled - seen)]
        events += [SwitchEvent(h, True, now) for h in sorted(seen - self.filled)]
        self.filled = set(seen)
        return events

    def readings(self):
        """(stamp, {hole: (p_peg, side, p_side)}) of the latest still board, or None before one:
        `companion.readings.Reading` per hole, side being the colour's side; holes it could not
        read are left out. The stamp changes with every new still board."""
        with self.lock:
            return self._readings

    def board_known(self, start_counts: dict, stamp=None) -> list:
        """The referee took a move from the still board of readings ``stamp`` and now knows how
        many pegs each side has in its start area (side -> n): start holes that must be empty
        learn their own empty look from that picture (``BoardVision.learn_start_empties``).
        Returns the holes learnt."""
        with self.lock:
            took = self.vision.learn_start_empties(start_counts, stamp, keep=False)
        if took:
            # the file is written (and fsynced) outside the lock, which every frame's readings take
            self.vision.keep_learned()
            log.info("camera: learnt the empty look of start holes %s", ", ".join(took))
        return took

    def colours(self) -> dict:
        """{hole: side} of the latest still board's pegs (each hole's likeliest colour)."""
        got = self.readings()
        if got is None:
            return {}
        return {h: r[1] for h, r in got[1].items() if r[0] >= 0.5 and r[1] is not None}

    def crop_png(self, hole: str, size: int = 96) -> bytes | None:
        """A small PNG of the latest frame round ``hole`` (a doubtful hole, for the phone), or None
        (no frame yet, or the hole is not on this board)."""
        frame = self.vision.last_frame
        if frame is None or hole not in self.vision.sampler.holes:
            return None
        return hole_crop_png(frame, self.vision.sampler, self.vision.layout, hole, size)

    def crop(self, hole: str) -> bytes | None:
        """``crop_png`` at its default size: what the hub serves the phone (web.board_referee)."""
        return self.crop_png(hole)

    def snapshot(self, fresh: bool = False) -> dict[str, bool]:
        return {h: h in self.filled for h in self.holes}

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        try:
            self.camera.close()
        except Exception as exc:   # noqa: BLE001 - a camera already gone
            log.info("closing the camera: %s", exc)


def hole_crop_png(frame, sampler, layout, hole: str, size: int = 96) -> bytes:
    """PNG bytes: the square of ``frame`` two hole pitches wide centred on ``hole``, scaled to
    ``size`` px, with a thin ring round the hole (so the phone shows which one is meant)."""
    import cv2
    import numpy as np
    i = sampler.holes.index(hole)
    cx, cy = (float(v) for v in sampler.centres[i])
    x, y = layout.holes[hole]
    far = sampler.board_to_image([(x + layout.pitch, y)])[0]
    half = max(8, int(round(float(np.hypot(far[0] - cx, far[1] - cy)))))
    h, w = frame.shape[:2]
    pad = cv2.copyMakeBorder(frame, half, half, half, half, cv2.BORDER_CONSTANT, value=(40, 40, 40))
    x0, y0 = int(round(cx)), int(round(cy))
    crop = cv2.resize(pad[y0:y0 + 2 * half, x0:x0 + 2 * half], (size, size), interpolation=cv2.INTER_AREA)
    r = size / (2 * half) * (layout.peg_diameter / layout.pitch) * half * 1.1
    cv2.circle(crop, (size // 2, size // 2), max(4, int(r)), (255, 255, 255), 1, cv2.LINE_AA)
    ok, buf = cv2.imencode(".png", crop)
    return buf.tobytes()


def open_camera_sensor(source: str, calibration_path: str, layout_spec: str | None = None, *,
                       hold_frames: int = 5, clock=time.monotonic, threaded: bool = True, first_read: float = 0,
                       learned: str | None = None):
    """The camera, the calibration and the layout, opened: a `CameraSensor`. Raises
    `vision.camera.CameraError`, `vision.calibration.CalibrationError`,
    `vision.layout.LayoutError` or ImportError (no OpenCV) with words for the user.
    ``first_read`` > 0: wait that long for a first frame, so a camera that opens but
    sends nothing is caught at start. ``learned``: the file that keeps what the camera learns
    in play (`vision.learned`; default: beside the calibration, NAME.learned.json)."""
    from .calibration import Calibration, CalibrationError
    from .camera import CameraError, open_camera
    from .layout import layout_from_spec
    from .watch import BoardVision
    calib = Calibration.load(calibration_path)
    layout = layout_from_spec(layout_spec or f"{calib.sides}:{calib.holes_per_side}")
    calib.check_layout(layout)
    if calib.colours is None:
        raise CalibrationError(f"{calibration_path} has no peg colours: run pegs vision calibrate on a picture "
                               f"of the set-up position")
    if learned is None:
        learned = learned_beside(calibration_path)
    vision = BoardVision(layout, calib, hold_frames=hold_frames, learned=learned)
    camera = open_camera(source, size=tuple(calib.image_size))
    try:
        if first_read > 0:
            camera.read()           # CameraLost (a CameraError) if nothing comes
        sensor = CameraSensor(camera, vision, layout.hole_ids(), clock=clock, threaded=threaded)
    except CameraError:
        camera.close()
        raise
    sensor.layout = layout
    return sensor


def learned_beside(calibration_path) -> str:
    """The default file of what the camera learns in play: calibration.json -> calibration.learned.json."""
    from pathlib import Path
    p = Path(calibration_path)
    return str(p.with_name(p.stem + ".learned.json"))


def diagnose_camera(exc: BaseException, source: str, calibration_path: str | None):
    """Words for a camera that failed to start: a `hardware.diagnose.HardwareProblem` (its
    sentences are messages, shown in the reader's language)."""
    from companion.message import Msg, msg
    from hardware.diagnose import HardwareProblem
    detail = f"{type(exc).__name__}: {exc}"
    name = type(exc).__name__
    if isinstance(exc, ImportError):
        return HardwareProblem("camera", msg("The camera can't be used: the %(module)s module is missing.",
                                             module=exc.name or "OpenCV"),
                               msg("Run %(command)s (OpenCV, NumPy and Picamera2 from apt).",
                                   command="sudo systemd/install.sh --camera"),
                               detail)
    if name == "CalibrationError":
        if str(exc).endswith(": no such file"):
            return HardwareProblem(
                "camera", msg("The camera is not calibrated yet: there is no %(path)s.", path=str(calibration_path)),
                msg("Photograph the set-up position and run %(command)s (README: Camera), then try the board again.",
                    command="pegs vision calibrate setup.png --out " + str(calibration_path)), detail)
        said = exc.args[0] if exc.args and isinstance(exc.args[0], Msg) else str(exc)
        return HardwareProblem("camera", msg("The camera's calibration can't be used: %(error)s.", error=said),
                               msg("Calibrate again from a set-up picture (%(command)s), then try the board "
                                   "again.", command="pegs vision calibrate"), detail)
    if name == "LayoutError":
        return HardwareProblem("camera", msg("The board layout can't be used: %(error)s.", error=str(exc)),
                               msg("Fix %(setting)s in the config (%(command)s writes one).",
                                   setting="camera.layout", command="pegs board layout"), detail)
    if source == "pi" or source.startswith("pi:"):
        fix = msg("Check the camera's ribbon cable (contacts the right way round) and that %(command)s "
                  "lists it; then try the board again.", command="rpicam-hello --list-cameras")
    elif source.startswith("usb:") or source.isdigit():
        fix = msg("Plug the webcam in (%(command)s lists cameras) or set %(setting)s; then try the board again.",
                  command="ls /dev/video*", setting="camera.source")
    else:
        fix = msg("Check %(setting)s in the config; then try the board again.", setting="camera.source")
    return HardwareProblem("camera", msg("The camera can't be used: %(error)s.", error=str(exc)), fix, detail)


__all__ = ["CameraSensor", "open_camera_sensor", "diagnose_camera", "hole_crop_png", "learned_beside"]
