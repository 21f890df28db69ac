"""One object for a board's hardware: sensor and LEDs, real or mock, created at first use.

    hw = Hardware(load_wiring("/etc/pegs-companion/wiring.toml"))      # nothing opened yet
    hw.leds.mark(["M12", "M17"], "legal")                    # opens the strip driver
    for event in hw.poll():                                  # opens the sensor
        ...

Whether the real drivers or the mocks are used is decided from ``mock=`` or the
wiring (top-level ``mock = true``: everything emulated; ``leds.driver = "mock"``: no
strip), when a device is first touched, never at import.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import cached_property

from .leds import MODEL_PATHS, LedBoard, open_strip


class Hardware:
    def __init__(self, wiring, *, mock: bool | None = None, clock: Callable[[], float] = time.monotonic,
                 pin_factory=None, smbus=None, model_paths=MODEL_PATHS, on_fault=None, sensor=None):
        """``sensor``: one already opened that stands in for the switches (a camera)."""
        self.wiring = wiring
        self._given_sensor = sensor
        self.mock = wiring.mock if mock is None else mock
        self.clock = clock
        self._pin_factory = pin_factory
        self._smbus = smbus
        self.model_paths = model_paths
        self.on_fault = on_fault

    @cached_property
    def mock_board(self):
        """The emulated hardware (``MockBoard``) when ``mock``; None otherwise."""
        if not self.mock:
            return None
        from .mock import MockBoard
        return MockBoard(self.wiring, pin_factory=self._pin_factory)

    @cached_property
    def sensor(self):
        if self._given_sensor is not None:
            return self._given_sensor
        if self.mock:
            return self.mock_board.open_sensor(clock=self.clock, on_fault=self.on_fault)
        from .sensors import open_sensor
        return open_sensor(self.wiring, pin_factory=self._pin_factory, smbus=self._smbus, clock=self.clock,
                           on_fault=self.on_fault)

    @cached_property
    def strip(self):
        return open_strip(self.wiring, mock=self.mock, clock=self.clock, model_paths=self.model_paths)

    @cached_property
    def leds(self) -> LedBoard:
        return LedBoard.from_wiring(self.wiring, self.strip, clock=self.clock)

    def poll(self, now: float | None = None) -> list:
        """One scan of the switches and one LED frame; returns the switch events."""
        now = self.clock() if now is None else now
        events = self.sensor.scan(now) if self.sensor is not None else []
        self.leds.update(now)
        return events

    def run(self, on_event: Callable, stop: threading.Event, hz: float | None = None,
            sleep: Callable[[float], None] = time.sleep):
        """Poll at ``hz`` (default sensors.scan_hz) until ``stop`` is set."""
        period = 1.0 / (hz or self.wiring.sensors.scan_hz)
        next_t = self.clock()
        while not stop.is_set():
            for event in self.poll():
                on_event(event)
            next_t += period
            delay = next_t - self.clock()
            if delay > 0:
                sleep(delay)
            else:
                next_t = self.clock()

    def close(self):
        """Close every part that was opened; a part that fails to close (a strip whose driver
        never loaded) doesn't keep the others open. The first error is raised at the end."""
        first = None
        if self._given_sensor is not None:   # closed with the rest, read or not
            self.__dict__.setdefault("sensor", self._given_sensor)
            self._given_sensor = None
        for name in ("leds", "strip", "sensor", "mock_board"):
            obj = self.__dict__.pop(name, None)
            if obj is not None:
                try:
                    obj.close()
                except Exception as exc:   # noqa: BLE001 - re-raised below, once the rest is closed
                    first = first or exc
        if first is not None:
            raise first
