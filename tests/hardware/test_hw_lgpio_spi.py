"""The Pi-side SPI path that runs on the board: gpiozero's LGPIOFactory and LGPIOHardwareSPI
under a fake ``lgpio`` module that records what it is asked (issue 15). On a Pi with Bookworm
or Trixie this is what reads the 74HC165 chain: spi_open, the reopen on a mode or rate change,
the latch pulse on a GPIO, then one spi_xfer of the whole chain."""
from __future__ import annotations

import sys
import types

import pytest

from hardware.config import load_wiring
from hardware.sensors import ShiftRegisterReedSensor


class FakeLgpio(types.ModuleType):
    """The lgpio C module's functions gpiozero calls, recording each call."""

    SET_PULL_NONE, SET_PULL_UP, SET_PULL_DOWN = 0x80, 0x20, 0x40
    SET_BIAS_DISABLE, SET_BIAS_PULL_UP, SET_BIAS_PULL_DOWN = 0x80, 0x20, 0x40
    BOTH_EDGES, RISING_EDGE, FALLING_EDGE = 3, 1, 2
    IS_OUT = 1 << 1

    class error(Exception):
        pass

    def __init__(self):
        super().__init__("lgpio")
        self.calls: list[tuple] = []
        self.modes: dict[int, int] = {}
        self.levels: dict[int, int] = {}
        self.chain_reply: list[int] | None = None      # what MISO clocks in (None: zeros)
        self._next_spi = 10

    def _log(self, *call):
        self.calls.append(call)

    def gpiochip_open(self, chip):
        self._log("gpiochip_open", chip)
        return 1

    def gpiochip_close(self, handle):
        self._log("gpiochip_close", handle)

    def gpio_claim_input(self, handle, gpio, flags=0):
        self._log("gpio_claim_input", gpio, flags)
        self.modes[gpio] = flags

    def gpio_claim_output(self, handle, gpio, flags=0, level=0):
        self._log("gpio_claim_output", gpio)
        self.modes[gpio] = self.IS_OUT
        self.levels[gpio] = level

    def gpio_free(self, handle, gpio):
        self._log("gpio_free", gpio)

    def gpio_get_mode(self, handle, gpio):
        return self.modes.get(gpio, 0)

    def gpio_read(self, handle, gpio):
        return self.levels.get(gpio, 0)

    def gpio_write(self, handle, gpio, level):
        self._log("gpio_write", gpio, int(level))
        self.levels[gpio] = int(level)

    def spi_open(self, port, device, baud, flags):
        self._next_spi += 1
        self._log("spi_open", port, device, baud, flags, self._next_spi)
        return self._next_spi

    def spi_close(self, handle):
        self._log("spi_close", handle)

    def spi_xfer(self, handle, data):
        self._log("spi_xfer", handle, list(data))
        reply = self.chain_reply if self.chain_reply is not None else [0] * len(data)
        return len(data), bytearray(reply[:len(data)])


@pytest.fixture
def lgpio_factory(monkeypatch):
    fake = FakeLgpio()
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    from gpiozero.pins.local import LocalPiFactory
    from gpiozero.pins.lgpio import LGPIOFactory
    monkeypatch.setattr(LGPIOFactory, "_get_revision", lambda self: 0xC03114)   # a Pi 4B
    factory = LGPIOFactory(chip=0)
    yield fake, factory
    factory.close()
    LocalPiFactory.pins.clear()
    sys.modules.pop("gpiozero.pins.lgpio", None)


def test_chain_opens_lgpio_hardware_spi_sets_mode_and_rate(lgpio_factory):
    fake, factory = lgpio_factory
    sensor = ShiftRegisterReedSensor({f"M{n}": n for n in range(16)}, 2, latch_pin=25, pin_factory=factory,
                                     spi_hz=1_000_000, debounce_ms=0)
    try:
        from gpiozero.pins.lgpio import LGPIOHardwareSPI
        assert isinstance(sensor.chain._spi, LGPIOHardwareSPI)        # hardware SPI, no bit-banging
        spi = [c for c in fake.calls if c[0].startswith("spi_")]
        # gpiozero opens SPI0 CE0 at 500 kHz, then reopens it for mode 0 and again for our 1 MHz
        assert [c[:5] for c in spi if c[0] == "spi_open"] == [
            ("spi_open", 0, 0, 500000, 0), ("spi_open", 0, 0, 500000, 0), ("spi_open", 0, 0, 1000000, 0)]
        assert [c[0] for c in spi] == ["spi_open", "spi_close", "spi_open", "spi_close", "spi_open"]
        handle = spi[-1][5]
        assert ("gpio_claim_output", 25) in fake.calls and fake.levels[25] == 1    # SH/LD idles high

        fake.calls.clear()
        fake.chain_reply = [0xFE, 0x7F, 0xFF]          # M0 and M15 closed; check byte 0xFF (SER high)
        assert sensor.snapshot(fresh=True) == {f"M{n}": n in (0, 15) for n in range(16)}
        # one read: latch low (parallel load), high again (shift), then the chain in one transfer
        assert fake.calls == [("gpio_write", 25, 0), ("gpio_write", 25, 1), ("spi_xfer", handle, [0, 0, 0])]
    finally:
        sensor.close()
    assert ("spi_close", handle) in fake.calls


def test_chain_over_lgpio_reports_an_open_miso(lgpio_factory):
    fake, factory = lgpio_factory
    w = load_wiring("[sensors.shift_register]\nchips = 2\n", partial=True)
    sensor = ShiftRegisterReedSensor(w.sensors.map, 2, pin_factory=factory)
    try:
        fake.chain_reply = [0x00, 0x00, 0x00]           # MISO pulled down: nothing from the chain
        assert not any(sensor.snapshot(fresh=True).values())
        assert "the break is at chip 0 - the MISO wire" in sensor.active_faults[("chain",)].message
    finally:
        sensor.close()
