"""Which board the companion runs with, and the safe start.

`BoardControl` owns the app's board hub (`web.board_referee.BoardHub`, or None
when the phones are the board). With real hardware (``sensors``/``leds``) it
opens the switches and the strip once at start (`hardware.diagnose.open_hardware`);
if they fail (SPI off, no GPIO, the LED driver missing...) the companion still
starts, with the phones as the board, and `status()` says what failed and how to
fix it: the table and settings pages show it, and "Try the board again"
(`retry`) opens the hardware afresh. Settings changed on the settings page are
applied here, live (`apply`): the bot delay, the settle time, the LED
brightness, and the board mode (a new hub).
"""
from __future__ import annotations

import dataclasses
import logging
import threading
import time

log = logging.getLogger("web.board")

REAL = ("sensors", "leds", "camera")


class BoardControl:
    def __init__(self, app, service, *, mode: str, settle: float = 0.8, wiring=None, clock=time.monotonic,
                 threaded: bool = True, hardware_factory=None, open_hardware=None, camera: dict | None = None):
        self.app = app
        self.service = service
        self.mode = mode                # the mode configured
        self.settle = settle
        self.wiring = wiring
        self.camera = camera or {}      # source, calibration, layout, hold_frames
        self.clock = clock
        self.threaded = threaded
        self._hardware_factory = hardware_factory
        self._open_hardware = open_hardware
        self.problems: list = []        # why the configured board is not running (HardwareProblem)
        self.lock = threading.RLock()
        self.hub = None
        self._built = False             # a hub made before: a new one may adopt the lone game in play
        self.hardware = None            # the real board's Hardware (the hub takes it when a table does)
        app.extensions["pegs_board"] = None
        app.extensions["pegs_board_control"] = self

    # ------------------------------------------------------------------ state
    @property
    def running(self) -> str:
        """The mode actually running: the configured one, or "none" after a safe start."""
        return self.hub.mode if self.hub is not None else "none"

    def status(self) -> dict:
        return {"configured": self.mode, "running": self.running,
                "problems": [p.public() for p in self.problems], "can_retry": bool(self.problems)}

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> dict:
        with self.lock:
            self._build()
            self._built = True
            return self.status()

    def retry(self) -> dict:
        """Open the configured board again (after the fix the page suggested)."""
        with self.lock:
            if self.hub is None and self.mode != "none":
                self._build()
            return self.status()

    def close(self) -> None:
        with self.lock:
            self._install(None)

    def _hardware(self):
        if self._hardware_factory is not None:
            return self._hardware_factory(self.wiring)
        from .main import board_hardware
        return board_hardware(self.mode, wiring=self.wiring, clock=self.clock)()

    def _camera_hardware(self):
        """Hardware whose sensor is the camera; its LEDs are the wiring's, or none (a mock strip)."""
        from .main import board_hardware
        return board_hardware("camera", wiring=self.wiring, camera=self.camera, clock=self.clock)()

    def _open_camera(self):
        """(hardware, problems) for camera mode."""
        from vision.sensor import diagnose_camera
        try:
            hw = self._hardware_factory(self.wiring) if self._hardware_factory else self._camera_hardware()
        except Exception as exc:   # no camera, no OpenCV, not calibrated ... : the safe start
            return None, [diagnose_camera(exc, self.camera.get("source") or "pi", self.camera.get("calibration"))]
        return hw, []

    def _build(self) -> None:
        from .board_referee import make_hub
        if self.hub is not None:
            self._install(None, notify=False)   # the old board lets go of its pins first
        # self.problems stays as it is until the new attempt is decided: pages that ask meanwhile
        # still see what failed (a probe can take seconds: an expander, a camera's first frame)
        hw = None
        if self.mode == "camera":
            hw, problems = self._open_camera()
            if hw is not None and self.wiring is not None:   # the LEDs over the board
                problems = self._probe(hw, sensing=False)
            if problems:
                self._failed(hw, problems)
                return
        elif self.mode in REAL:
            if self.wiring is None:
                raise ValueError(f"board mode {self.mode!r} needs a wiring")
            hw = self._hardware()
            problems = self._probe(hw, sensing=self.mode == "sensors")
            if problems:
                self._failed(hw, problems)
                return
        self.problems = []
        hub = make_hub(self.service, self.mode, settle=self.settle,
                       wiring=hw.wiring if hw is not None else self.wiring, clock=self.clock,
                       threaded=self.threaded, hardware=hw, adopt_lone=self._built)
        self.hardware = hw
        self._install(hub)

    def _probe(self, hw, sensing: bool) -> list:
        if self._open_hardware is None:
            from hardware.diagnose import open_hardware
        else:
            open_hardware = self._open_hardware
        return open_hardware(hw, sensing=sensing)

    def _failed(self, hw, problems) -> None:
        if hw is not None:
            try:
                hw.close()
            except Exception as exc:   # half-open hardware: the rest is closed all the same
                log.info("closing the hardware that failed to start: %s: %s", type(exc).__name__, exc)
        self.problems = problems
        for p in problems:
            log.error("the board's %s failed to start: %s %s (%s); the phones are the board",
                      p.part, p.what, p.fix, p.detail)
        self._notify()

    def _install(self, hub, notify: bool = True) -> None:
        old = self.hub
        if old is not None and old is not hub:
            old.close()
        if hub is None:
            self.hardware = None   # the old hub closed it (BoardHub.unclaimed if no table took it)
        self.hub = hub
        self.service.board = hub
        self.app.extensions["pegs_board"] = hub
        if notify:
            self._notify()

    def _notify(self) -> None:
        """Every open page asks for the board again (and reloads if its mode changed)."""
        for table in list(self.service.tables.values()):
            with table.cond:
                table.board_version += 1
                table.cond.notify_all()

    # ------------------------------------------------------------------ settings
    def apply(self, changes: dict) -> None:
        """Settings changed on the settings page ({key: checked value}), made live."""
        with self.lock:
            if "serve.bot_delay" in changes:
                self.service.bot_delay = changes["serve.bot_delay"]
            if "serve.bot_think_ms" in changes:
                self.service.bot_think_ms = changes["serve.bot_think_ms"]
            if "board.settle_seconds" in changes:
                self.settle = changes["board.settle_seconds"]
                if self.hub is not None:
                    self.hub.settle = self.settle   # the referee reads it from the hub
            if "wiring.leds.brightness" in changes and self.wiring is not None:
                b = changes["wiring.leds.brightness"]
                self.wiring = dataclasses.replace(self.wiring, leds=dataclasses.replace(self.wiring.leds,
                                                                                       brightness=b))
                hw = self.hardware   # the real board's, which its hub uses too
                if hw is not None and "leds" in hw.__dict__:
                    hw.leds.max_brightness = b
                    hw.leds.brightness = b
            if "board.mode" in changes and changes["board.mode"] != self.mode:
                if changes["board.mode"] in ("sensors", "leds") and self.wiring is None:
                    raise ValueError("board.mode: a real board needs its wiring in the config")
                if changes["board.mode"] == "camera" and not self.camera.get("calibration"):
                    raise ValueError("board.mode: the camera needs camera.calibration in the config")
                self.mode = changes["board.mode"]
                self._build()


__all__ = ["BoardControl"]
