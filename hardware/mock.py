"""Emulated board hardware for tests, benchmarks and ``pegs hw-test --mock``.

* ``HC165ChainMock``  a daisy chain of 74HC165 behind gpiozero's mock SPI
  (``gpiozero.pins.mock.MockSPIDevice``): SH/LD low loads the parallel inputs,
  each SPI clock shifts one bit out MSB first, chip 0 (the one whose QH drives
  MISO) first, then chip 1 through chip 0, and so on; after the last chip comes
  the level of the last chip's SER pin. Faults: a dead chip whose QH is stuck
  (it and every chip behind it read all ones or all zeros), or a chip whose own
  inputs read stuck while it still passes the chain through.
* ``FakeMcp23017Bus`` an smbus2-like object with MCP23017s on it (gpiozero has no I2C).
* ``MockBoard``       all of it for one wiring config, with pegs placed by hole id:
  ``place("M12")``, ``remove("M12")``, ``stick("M3")``, ``fail_chip(2)``.

Only this module and the tests import gpiozero's mock classes.
"""
from __future__ import annotations

import errno

from gpiozero.pins.mock import MockFactory, MockPin, MockSPIDevice


class MockLatchPin(MockPin):
    """A mock pin that tells its listeners when it is driven (the 74HC165 SH/LD line)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.listeners = getattr(self, "listeners", [])

    def _set_state(self, value):
        super()._set_state(value)
        for listener in self.listeners:
            listener(bool(value))


class HC165ChainMock(MockSPIDevice):
    """``chips`` 74HC165 in a chain. ``levels[n]`` is input n's level (1 = high = open
    switch, 0 = low = closed by a magnet); n = chip * 8 + input (A = 0 ... H = 7)."""

    def __init__(self, chips: int, *, latch_pin=25, clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=8,
                 ser_level: int = 1, pin_factory=None):
        super().__init__(clock_pin, mosi_pin, miso_pin, select_pin, pin_factory=pin_factory)
        self.chips = chips
        self.levels = [1] * (8 * chips)
        self.ser_level = ser_level
        self.dead: dict[int, tuple[int, bool]] = {}   # chip -> (level, breaks the chain)
        self.loads = 0
        self._loading = False
        self.latch_pin = pin_factory.pin(latch_pin, pin_class=MockLatchPin)
        self.latch_pin.listeners.append(self._on_latch)

    def _on_latch(self, high: bool):
        self._loading = not high
        self._load()
        if not high:
            self.loads += 1
        else:
            # keep the mock pins' state histories from growing without bound
            for pin in (self.clock_pin, self.miso_pin, self.select_pin, self.latch_pin):
                pin.clear_states()

    def _load(self):
        bits = []
        for chip in range(self.chips):
            bits.extend(self.levels[chip * 8 + j] for j in range(7, -1, -1))   # QH (input H) first
        bits.extend([self.ser_level] * 64)
        for chip, (level, breaks_chain) in sorted(self.dead.items()):
            end = len(bits) if breaks_chain else 8 * chip + 8
            bits[8 * chip:end] = [level] * (end - 8 * chip)
        self.tx_buf = bits

    def on_start(self):
        self.rx_bit = 0
        self.rx_buf = []   # the register (tx_buf) keeps its contents: CE only gates the clock

    def on_clock(self):
        if self._loading:
            return   # while SH/LD is low the chips ignore the clock
        super().on_clock()

    def fail_chip(self, chip: int, level: int = 1, breaks_chain: bool = True):
        """Chip ``chip`` reads all ``level`` (1: 0xFF, 0: 0x00); if ``breaks_chain`` its QH
        is stuck, so every chip behind it reads the same and so does the chain check."""
        self.dead[chip] = (level, breaks_chain)

    def repair_chip(self, chip: int):
        self.dead.pop(chip, None)


class FakeMcp23017Bus:
    """An smbus2.SMBus stand-in with MCP23017s at ``addresses`` (IOCON.BANK = 0, sequential
    reads); ``closed`` holds (address, pin) while a magnet closes that switch. A chip in
    ``dead`` doesn't acknowledge; ``reset(addr)`` is a power glitch (registers back to their
    power-on values: all inputs, pull-ups off)."""

    POWER_ON = {0x00: 0xFF, 0x01: 0xFF, 0x0C: 0x00, 0x0D: 0x00, 0x14: 0x00, 0x15: 0x00}

    def __init__(self, addresses=(0x20,)):
        self.regs = {a: dict(self.POWER_ON) for a in addresses}
        self.closed: set[tuple[int, int]] = set()
        self.dead: set[int] = set()
        self.reads = 0
        self.reads_by_register: dict[int, int] = {}
        self.writes: list[tuple[int, int, int]] = []

    def _chip(self, addr):
        if addr not in self.regs or addr in self.dead:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return self.regs[addr]

    def write_byte_data(self, addr, reg, value):
        self._chip(addr)[reg] = value & 0xFF
        self.writes.append((addr, reg, value & 0xFF))

    def _port(self, addr, port):
        regs = self._chip(addr)
        iodir, pull, olat = regs[0x00 + port], regs[0x0C + port], regs[0x14 + port]
        value = 0
        for j in range(8):
            if not iodir >> j & 1:          # an output reads its latch
                value |= (olat >> j & 1) << j
                continue
            closed = (addr, port * 8 + j) in self.closed
            if not closed and pull >> j & 1:
                value |= 1 << j
        return value

    def _register(self, addr, reg):
        if reg in (0x12, 0x13):
            return self._port(addr, reg - 0x12)
        return self._chip(addr).get(reg, 0)

    def read_i2c_block_data(self, addr, reg, length):
        self.reads += 1
        self.reads_by_register[reg] = self.reads_by_register.get(reg, 0) + 1
        self._chip(addr)
        if reg + length > 0x16:
            raise NotImplementedError("the fake has registers 0x00-0x15 (IOCON.BANK = 0)")
        return [self._register(addr, r) for r in range(reg, reg + length)]

    def reset(self, addr):
        """A power glitch: registers back to power-on values (pull-ups off)."""
        self.regs[addr] = dict(self.POWER_ON)

    def close(self):
        pass


class MockBoard:
    """The emulated hardware of one wiring config: a gpiozero ``MockFactory`` with the
    chain emulator (or plain mock pins, or the fake I2C bus) behind it."""

    def __init__(self, wiring, *, pin_factory: MockFactory | None = None):
        self.wiring = wiring
        self.pin_factory = pin_factory or MockFactory()
        s = wiring.sensors
        self.backend = s.backend
        self.chain = None
        self.bus = None
        self.stuck: dict[int, bool] = {}
        self.closed: set[int] = set()
        if s.backend == "shift-register":
            sr = s.shift_register
            self.chain = HC165ChainMock(sr.chips, latch_pin=sr.latch_pin, clock_pin=sr.clock_pin,
                                        mosi_pin=sr.mosi_pin, miso_pin=sr.miso_pin, select_pin=sr.select_pin,
                                        ser_level=1 if sr.chain_check == "high" else 0,
                                        pin_factory=self.pin_factory)
        elif s.backend == "mcp23017":
            self.bus = FakeMcp23017Bus(s.mcp23017.addresses)

    def open_sensor(self, **kw):
        """The wiring's sensor, driven by this mock hardware."""
        from .sensors import open_sensor
        sensor = open_sensor(self.wiring, pin_factory=self.pin_factory, smbus=self.bus, **kw)
        for n in range(self._count()):
            self._apply(n)
        return sensor

    def _count(self):
        s = self.wiring.sensors
        return 28 if s.backend == "gpio" else s.input_count

    def input_of(self, hole: str) -> int:
        try:
            return self.wiring.sensors.map[hole]
        except KeyError:
            raise KeyError(f"{hole} has no sensor input in this wiring") from None

    # pegs ---------------------------------------------------------------

    def place(self, hole: str):
        self.set_input(self.input_of(hole), True)

    def remove(self, hole: str):
        self.set_input(self.input_of(hole), False)

    def set_input(self, n: int, occupied: bool):
        """Close (peg in) or open input n, unless it is stuck."""
        if occupied:
            self.closed.add(n)
        else:
            self.closed.discard(n)
        self._apply(n)

    def stick(self, hole_or_input, occupied: bool = True):
        """A stuck switch: input reads ``occupied`` whatever happens."""
        n = self.input_of(hole_or_input) if isinstance(hole_or_input, str) else hole_or_input
        self.stuck[n] = occupied
        self._apply(n)

    def unstick(self, hole_or_input):
        n = self.input_of(hole_or_input) if isinstance(hole_or_input, str) else hole_or_input
        self.stuck.pop(n, None)
        self._apply(n)

    def fail_chip(self, chip: int, level: int = 1, breaks_chain: bool = True):
        if self.chain is not None:
            self.chain.fail_chip(chip, level, breaks_chain)
        elif self.bus is not None:
            self.bus.dead.add(self.wiring.sensors.mcp23017.addresses[chip])
        else:
            raise ValueError("the gpio backend has no chips")

    def repair_chip(self, chip: int):
        if self.chain is not None:
            self.chain.repair_chip(chip)
        elif self.bus is not None:
            self.bus.dead.discard(self.wiring.sensors.mcp23017.addresses[chip])

    def _apply(self, n: int):
        occupied = self.stuck.get(n, n in self.closed)
        if self.chain is not None:
            if n < len(self.chain.levels):
                self.chain.levels[n] = 0 if occupied else 1
        elif self.bus is not None:
            addrs = self.wiring.sensors.mcp23017.addresses
            key = (addrs[n // 16], n % 16)
            (self.bus.closed.add if occupied else self.bus.closed.discard)(key)
        else:
            pin = self.pin_factory.pins.get(self._pin_info(n))
            if pin is not None and pin.function == "input":
                low = occupied == self.wiring.sensors.gpio.pull_up   # pull-up: closed pulls low
                pin.drive_low() if low else pin.drive_high()

    def _pin_info(self, n):
        for _, info in self.pin_factory.board_info.find_pin(f"GPIO{n}"):
            return info
        return None

    def close(self):
        if self.chain is not None:
            self.chain.close()
