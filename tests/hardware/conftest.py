"""Fixtures for the hardware tests: an injected clock and gpiozero's MockFactory."""
from __future__ import annotations

import warnings

import pytest

warnings.filterwarnings("ignore", module="gpiozero")   # pin-factory fallback chatter on a PC


class FakeClock:
    """Injected time: tests move it with ``advance``; ``sleep`` advances it too."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t

    sleep = advance


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def factory():
    """A fresh gpiozero MockFactory; gpiozero's global default is left (or put back) unset."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    saved = Device.pin_factory
    f = MockFactory()
    yield f
    f.reset()
    Device.pin_factory = saved
