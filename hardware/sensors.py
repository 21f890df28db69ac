"""Reed-switch sensing: one magnet-in-peg per hole closes a reed switch to ground.

Backends (all built on gpiozero devices, ``pin_factory=`` passed through, so
gpiozero's ``MockFactory`` drives them in tests):

* ``GpioReedSensor``          one GPIO per hole (a gpiozero ``DigitalInputDevice``, pull-up);
* ``ShiftRegisterReedSensor`` a daisy chain of 74HC165 read over SPI with a latch pin
                              (``HC165Chain``, a gpiozero ``SPIDevice``): 3 wires, any size;
* ``Mcp23017ReedSensor``      MCP23017 I2C expanders (gpiozero has no I2C: smbus2, imported
                              when the sensor is opened).

The shared ``ReedSensor`` logic turns raw reads into debounced
``SwitchEvent(hole, occupied, timestamp)`` events and a ``snapshot()`` of every
hole, and reports faults (``SensorFault``) instead of turning them into events:
contact bounce, chattering switches, a chip of the chain that suddenly reads all
ones or all zeros, a broken chain, an expander that doesn't answer.

Inputs are numbered per backend: chain bit ``chip*8 + input`` (input A = 0 .. H = 7),
MCP23017 ``chip*16 + pin`` (GPA0-7 = 0-7, GPB0-7 = 8-15), BCM pin number for gpio.
Drivers know hole ids and inputs, nothing of the rules.
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple


class SwitchEvent(NamedTuple):
    """A debounced change of one hole; ``timestamp`` is when the switch first moved."""
    hole: str
    occupied: bool
    timestamp: float


class InputChange(NamedTuple):
    """A debounced change of one input, mapped or not (what ``pegs hw-test`` watches)."""
    input: int
    occupied: bool
    timestamp: float


@dataclass(frozen=True)
class SensorFault:
    """Something wrong (or suspicious) with the sensing hardware; never a peg move.

    kind: ``bounce`` (a switch moved and settled back: no event), ``chatter`` (a
    switch that won't settle), ``dead-chip`` (a chip's inputs all jumped to one
    level at once), ``chain`` (the shift-register chain check failed),
    ``read-error`` (a bus or chip that doesn't answer), ``reset`` (an MCP23017 that
    lost its settings and was set up again), ``ignored`` (configured
    as known bad), ``unmapped`` (an input with no hole changed), ``recovered``
    (an earlier fault went away).
    """
    kind: str
    message: str
    timestamp: float
    holes: tuple = ()
    inputs: tuple = ()
    chip: int | None = None


class SensorReadError(Exception):
    """A read whose data can't be trusted at all (kind: "chain" or "read-error")."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class ReedSensor:
    """Debouncing, fault detection, events and snapshots over a backend's raw reads.

    Subclasses implement ``_read() -> (occupied_mask, failed_chips)`` where bit n of
    the mask is 1 when input n is closed (a peg is in its hole) and failed_chips maps
    a chip number to a message for chips that couldn't be read; or raise
    ``SensorReadError`` when the whole read is unusable.
    """

    chip_size: int | None = None      # inputs per chip, for per-chip fault handling
    uniform_check = False             # flag chips whose inputs all jump to one level at once

    def __init__(self, hole_inputs: Mapping[str, int], *, input_count: int, debounce_ms: float = 30.0,
                 clock: Callable[[], float] = time.monotonic, chatter_limit: int = 8,
                 ignore: Iterable[str] = (), describe_input: Callable[[int], str] | None = None,
                 on_fault: Callable[[SensorFault], None] | None = None, fault_history: int = 200):
        self.hole_inputs = dict(hole_inputs)
        self.input_count = input_count
        self.debounce = debounce_ms / 1000.0
        self.clock = clock
        self.chatter_limit = chatter_limit
        self.ignored = frozenset(ignore)
        self.describe_input = describe_input or (lambda n: f"input {n}")
        self.on_fault = on_fault
        self.faults: deque[SensorFault] = deque(maxlen=fault_history)   # everything reported
        self.active_faults: dict[tuple, SensorFault] = {}               # what is wrong now
        self._input_holes: dict[int, list[str]] = {}
        for hole, n in self.hole_inputs.items():
            self._input_holes.setdefault(n, []).append(hole)
        self._started = False
        self._raw = 0          # last accepted raw mask (chips in fault held at their last good bits)
        self._stable = 0       # debounced mask
        self._pending: dict[int, list] = {}   # input -> [first change, last change, transitions]
        self._stuck_chips: dict[int, int] = {}  # chip -> the uniform bits it is stuck at
        self._failed_chips: set[int] = set()
        now = clock()
        for hole in sorted(self.ignored):
            self._fault(("ignored", hole), "ignored", f"{hole}: ignored (listed in sensors.ignore)", now,
                        holes=(hole,))

    # ------------------------------------------------------------------ public API

    def scan(self, now: float | None = None) -> list[SwitchEvent]:
        """Read every input once; return the holes whose debounced state changed."""
        events = []
        for n, occupied, t in self.scan_inputs(now):
            holes = self._input_holes.get(n)
            if not holes:
                self._notice("unmapped", f"{self.describe_input(n)} {'closed' if occupied else 'opened'} "
                                         f"but no hole is mapped to it", t, inputs=(n,))
                continue
            events.extend(SwitchEvent(h, occupied, t) for h in holes if h not in self.ignored)
        return events

    def scan_inputs(self, now: float | None = None) -> list[InputChange]:
        """Like ``scan`` but per input, unmapped ones included."""
        now = self.clock() if now is None else now
        mask = self._accept(now)
        if mask is None:
            return []
        if not self._started:
            self._raw = self._stable = mask
            self._started = True
            return []
        return self._debounce(mask, now)

    def snapshot(self, fresh: bool = False) -> dict[str, bool]:
        """{hole: occupied} for every mapped hole except ignored ones (debounced state;
        holes on a chip in fault keep their last good state). ``fresh`` scans first."""
        if fresh or not self._started:
            self.scan()
        return {h: bool(self._stable >> n & 1) for h, n in self.hole_inputs.items() if h not in self.ignored}

    def input_occupied(self, n: int) -> bool:
        return bool(self._stable >> n & 1)

    def raw_mask(self) -> int:
        """Last accepted raw read (undebounced), bit n = input n closed."""
        return self._raw

    def unreliable_holes(self) -> set[str]:
        """Holes whose reading can't be trusted now (chip in fault, chattering, ignored)."""
        out = set(self.ignored)
        for fault in self.active_faults.values():
            out.update(fault.holes)
        if any(k[0] in ("chain", "read-error") for k in self.active_faults):
            out.update(self.hole_inputs)
        return out

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ backend

    def _read(self) -> tuple[int, dict[int, str]]:
        raise NotImplementedError

    # ------------------------------------------------------------------ internals

    def _holes_of(self, inputs: Iterable[int]) -> tuple:
        return tuple(h for n in inputs for h in self._input_holes.get(n, ()))

    def _fault(self, key, kind, message, now, **info):
        if key in self.active_faults:
            return
        fault = SensorFault(kind, message, now, **info)
        self.active_faults[key] = fault
        self._report(fault)

    def _clear(self, key, message, now):
        old = self.active_faults.pop(key, None)
        if old is not None:
            self._report(SensorFault("recovered", message, now, holes=old.holes, inputs=old.inputs,
                                     chip=old.chip))

    def _notice(self, kind, message, now, **info):
        self._report(SensorFault(kind, message, now, **info))

    def _report(self, fault: SensorFault):
        self.faults.append(fault)
        if self.on_fault is not None:
            self.on_fault(fault)

    def _chip_mask(self, chip: int) -> int:
        return ((1 << self.chip_size) - 1) << (chip * self.chip_size)

    def _accept(self, now) -> int | None:
        """Read, check and return the mask to debounce (None: nothing usable this scan)."""
        try:
            mask, failed = self._read()
        except SensorReadError as exc:
            self._fault((exc.kind,), exc.kind, f"{exc} - all switch changes are ignored until it reads "
                                               f"correctly again", now)
            return None
        for kind in ("chain", "read-error"):
            self._clear((kind,), f"sensors read correctly again (after: {kind})", now)
        hold = 0
        if self.chip_size:
            for chip, message in failed.items():
                cm = self._chip_mask(chip)
                hold |= cm
                self._fault(("chip", chip), "read-error", f"{message}: its holes keep their last state", now,
                            chip=chip, holes=self._holes_of(_bits(cm)))
            for chip in [c for c in self._failed_chips if c not in failed]:
                self._clear(("chip", chip), f"chip {chip} answers again", now)
            self._failed_chips = set(failed)
            if self.uniform_check and self._started:
                hold |= self._check_uniform(mask, now, failed)
        if not self._started:
            return mask
        return (mask & ~hold) | (self._raw & hold)

    def _check_uniform(self, mask: int, now: float, failed) -> int:
        """Chips whose inputs all jumped to one level at once: hold them, report them."""
        size = self.chip_size
        full = (1 << size) - 1
        hold = 0
        changed = mask ^ self._raw
        chips = {n // size for n in _bits(changed)} | set(self._stuck_chips)
        new_faults = []
        for chip in sorted(chips):
            if chip in failed:
                continue
            shift = chip * size
            new, old = mask >> shift & full, self._raw >> shift & full
            if chip in self._stuck_chips:
                if new == self._stuck_chips[chip]:
                    hold |= full << shift
                    continue
                del self._stuck_chips[chip]
                self._clear(("chip", chip), f"chip {chip} reads normally again "
                                            f"(level byte 0x{~new & full:02X})", now)
                continue
            if new in (0, full) and bin(new ^ old).count("1") >= 2:
                self._stuck_chips[chip] = new
                hold |= full << shift
                new_faults.append((chip, new, old))
        if new_faults:
            # a broken chain makes every chip behind the break read the same: chips that jumped
            # to that same level in the same scan are held too, even if only one input changed
            level = new_faults[0][1]
            for chip in sorted(chips):
                shift = chip * size
                new, old = mask >> shift & full, self._raw >> shift & full
                if (chip not in failed and chip not in self._stuck_chips and new == level and new != old):
                    self._stuck_chips[chip] = new
                    hold |= full << shift
                    new_faults.append((chip, new, old))
            new_faults.sort()
        for i, (chip, new, old) in enumerate(new_faults):
            level = "0x00 (all inputs low: every hole closed)" if new == full else "0xFF (all inputs high: every hole open)"
            was = [h for h in self._holes_of(chip * size + b for b in range(size) if old >> b & 1)]
            was_text = (f"peg{'s' * (len(was) > 1)} in {', '.join(was)}" if was else
                        f"level byte 0x{~old & full:02X}")
            tail = ""
            later = [c for c, _, _ in new_faults[i + 1:]]
            if i == 0 and later:
                tail = (f"; chips {', '.join(map(str, later))} after it jumped too: the chain is probably "
                        f"broken at chip {chip}")
            holes = self._holes_of(range(chip * size, chip * size + size))
            self._fault(("chip", chip), "dead-chip",
                        f"chip {chip} ({', '.join(holes) or 'no holes'}) suddenly reads {level}; it had "
                        f"{was_text}: a dead chip or a broken wire, not peg moves - its holes keep their "
                        f"last state until it reads normally{tail}", now, chip=chip, holes=holes)
        return hold

    def _debounce(self, mask: int, now: float) -> list[InputChange]:
        pending = self._pending
        for n in _bits(mask ^ self._raw):
            st = pending.get(n)
            if st is None:
                pending[n] = [now, now, 1]
            else:
                st[1] = now
                st[2] += 1
        self._raw = mask
        if not pending:
            return []
        out = []
        for n in list(pending):
            first, last, flips = pending[n]
            if now - last >= self.debounce:
                del pending[n]
                level = mask >> n & 1
                self._clear(("chatter", n), f"{self._name(n)} settled", now)
                if level != self._stable >> n & 1:
                    self._stable ^= 1 << n
                    out.append(InputChange(n, bool(level), first))
                else:
                    self._notice("bounce", f"{self._name(n)}: switch moved {flips} time{'s' * (flips > 1)} "
                                           f"in {1000 * (last - first):.0f} ms and settled back "
                                           f"{'closed' if level else 'open'} - no change",
                                 now, holes=self._holes_of((n,)), inputs=(n,))
            elif flips >= self.chatter_limit:
                self._fault(("chatter", n), "chatter",
                            f"{self._name(n)}: switch chattering ({flips} changes in "
                            f"{1000 * (now - first):.0f} ms without settling) - a magnet at the edge of the "
                            f"reed's range or a loose wire; no change is reported until it settles",
                            now, holes=self._holes_of((n,)), inputs=(n,))
        return out

    def _name(self, n: int) -> str:
        holes = self._input_holes.get(n)
        return f"{'/'.join(holes)} ({self.describe_input(n)})" if holes else self.describe_input(n)


# ---------------------------------------------------------------------- gpiozero helpers

@contextmanager
def _default_factory(pin_factory):
    """gpiozero 2.0's software SPI bus (used by MockFactory) builds its Device without
    passing ``pin_factory`` on, so it falls back to the default factory, which fails
    on a PC. Make the given factory the default while the SPI interface is built."""
    from gpiozero import Device
    if pin_factory is None or Device.pin_factory is not None:
        yield
        return
    Device.pin_factory = pin_factory
    try:
        yield
    finally:
        Device.pin_factory = None


class GpioReedSensor(ReedSensor):
    """One GPIO per hole: a gpiozero ``DigitalInputDevice`` with the pull-up on, the
    reed switch between the pin and ground (magnet -> closed -> low -> occupied)."""

    def __init__(self, hole_pins: Mapping[str, int], *, pull_up: bool = True, pin_factory=None, **kw):
        from gpiozero import DigitalInputDevice
        self._devices = []
        try:
            for pin in sorted(set(hole_pins.values())):
                self._devices.append((pin, DigitalInputDevice(pin, pull_up=pull_up, pin_factory=pin_factory)))
        except Exception:
            self.close()
            raise
        kw.setdefault("describe_input", lambda n: f"GPIO{n}")
        super().__init__(hole_pins, input_count=28, **kw)

    def _read(self):
        mask = 0
        for pin, dev in self._devices:
            if dev.value:
                mask |= 1 << pin
        return mask, {}

    def close(self):
        for _, dev in self._devices:
            dev.close()
        self._devices = []


class SoftwareSPIFallback(RuntimeError):
    """gpiozero couldn't open the hardware SPI on the SPI0 pins and would bit-bang them instead
    (its SPISoftwareFallback warning): slow, and it hides the cause (SPI off, no permission,
    no spidev/lgpio). ``cause`` is gpiozero's text of the original error."""

    def __init__(self, cause: str):
        self.cause = cause
        super().__init__(f"the hardware SPI (/dev/spidev0.0) can't be opened ({cause}); gpiozero would fall "
                         f"back to bit-banging the pins, far slower, so the chain is not read that way")


def _hc165_chain_class():
    import warnings

    from gpiozero import DigitalOutputDevice, SPIDevice
    from gpiozero.exc import SPIError, SPISoftwareFallback

    class HC165Chain(SPIDevice):
        """A daisy chain of 74HC165 parallel-in/serial-out shift registers on SPI.

        SH/LD (PL) of every chip on ``latch_pin``; CLK on SCLK; chip 0's QH on MISO;
        chip k+1's QH into chip k's SER; the last chip's SER tied to ``chain_check``'s
        level so the byte after the chain is known. ``read()`` pulses the latch low
        (parallel load), then clocks the bytes out MSB first: chip 0 first, bit j of
        each byte = input j (A = 0 ... H = 7).
        """

        def __init__(self, chips: int, *, latch_pin: int, extra_bytes: int = 1, spi_hz: int = 1_000_000,
                     clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=8, pin_factory=None):
            self._latch = None
            with _default_factory(pin_factory), warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", SPISoftwareFallback)
                super().__init__(clock_pin=clock_pin, mosi_pin=mosi_pin, miso_pin=miso_pin,
                                 select_pin=select_pin, pin_factory=pin_factory)
            fallback = [w for w in caught if issubclass(w.category, SPISoftwareFallback)]
            for w in caught:
                if w not in fallback:
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            if fallback:
                self.close()
                text = str(fallback[0].message)
                raise SoftwareSPIFallback(text.split("error was: ", 1)[-1].rstrip(")") or text)
            try:
                # gpiozero shares software SPI buses by pin numbers alone, whatever the factory:
                # an unclosed chain from another (mock) factory would be read instead of ours
                bus_clock = getattr(getattr(self._spi, "_bus", None), "clock", None)
                if pin_factory is not None and bus_clock is not None and bus_clock.pin_factory is not pin_factory:
                    raise RuntimeError("the SPI bus on these pins is still open from another pin factory: "
                                       "close the previous shift-register sensor first")
                self._latch = DigitalOutputDevice(latch_pin, initial_value=True, pin_factory=pin_factory)
                self._spi.clock_mode = 0
                try:
                    self._spi.rate = spi_hz
                except (SPIError, AttributeError):
                    pass  # software SPI (and the mock) has no rate
            except Exception:
                self.close()
                raise
            self.chips = chips
            self._zeros = [0] * (chips + extra_bytes)

        def read(self) -> list[int]:
            self._latch.off()   # SH/LD low: load the parallel inputs
            self._latch.on()    # high again: shift mode
            return self._spi.transfer(self._zeros)

        def close(self):
            if getattr(self, "_latch", None) is not None:
                self._latch.close()
                self._latch = None
            super().close()

    return HC165Chain


class ShiftRegisterReedSensor(ReedSensor):
    """Holes on a 74HC165 chain: 3 wires (SCLK, MISO, latch) for any number of holes."""

    chip_size = 8
    uniform_check = True

    def __init__(self, hole_inputs: Mapping[str, int], chips: int, *, latch_pin: int = 25,
                 clock_pin: int = 11, miso_pin: int = 9, mosi_pin: int = 10, select_pin: int = 8,
                 spi_hz: int = 1_000_000, chain_check: str = "high", pin_factory=None, **kw):
        self.chips = chips
        self.chain_check = chain_check
        self._expect = {"low": 0x00, "high": 0xFF}.get(chain_check)
        self.chain = _hc165_chain_class()(
            chips, latch_pin=latch_pin, extra_bytes=0 if self._expect is None else 1, spi_hz=spi_hz,
            clock_pin=clock_pin, mosi_pin=mosi_pin, miso_pin=miso_pin, select_pin=select_pin,
            pin_factory=pin_factory)
        self._full = (1 << (8 * chips)) - 1
        kw.setdefault("describe_input", lambda n: f"chip {n // 8} input {'ABCDEFGH'[n % 8]} (chain bit {n})")
        super().__init__(hole_inputs, input_count=8 * chips, **kw)

    def _read(self):
        data = self.chain.read()
        if self._expect is not None:
            tail = data[self.chips]
            if tail != self._expect:
                raise SensorReadError("chain", self._chain_message(data, tail))
        levels = int.from_bytes(bytes(data[:self.chips]), "little")
        return ~levels & self._full, {}

    def _chain_message(self, data, tail) -> str:
        """Where the chain is broken: the chips behind a break all read what the broken wire
        reads (the check byte's value), so the first of the trailing run of such chips is the
        first one lost. On an empty board (every input reads 0xFF) that is exact."""
        k = self.chips
        while k > 0 and data[k - 1] == tail:
            k -= 1
        last = self.chips - 1
        if k == self.chips:
            where = (f"every chip reads differently, so the break is after chip {last}: its SER (pin 10) is "
                     f"not tied to {'3.3 V' if self.chain_check == 'high' else 'GND'}, or "
                     f"sensors.shift_register.chips ({self.chips}) is more than the chips there are")
        elif k == 0:
            where = (f"chip 0 and every chip after it read 0x{tail:02X}: the break is at chip 0 - the MISO wire "
                     f"(GPIO9, pin 21) to chip 0's QH (pin 9), or chip 0's 3.3 V, GND, CLK or SH/LD")
        else:
            good = "chip 0 reads" if k == 1 else f"chips 0-{k - 1} read"
            lost = f"chip {k} reads" if k == last else f"chips {k}-{last} all read"
            where = (f"{good} data, {lost} 0x{tail:02X}: the chain is broken "
                     f"between chip {k - 1} and chip {k} - chip {k}'s QH (pin 9) to chip {k - 1}'s SER (pin 10), "
                     f"or chip {k}'s 3.3 V, GND, CLK or SH/LD (with pegs on the board, chips "
                     f"reading 0x{tail:02X} by chance may hide the exact place: take them off)")
        return (f"shift-register chain check failed: the byte after chip {last} read 0x{tail:02X}, expected "
                f"0x{self._expect:02X} (SER of the last chip tied {self.chain_check}); {where}")

    def raw_bytes(self) -> list[int]:
        """One fresh read of the chain: the bytes as clocked in (chip 0 first, then the check
        byte), bit j = level of input j (1 = open). ``pegs hw-test --raw`` shows them."""
        return list(self.chain.read())

    def close(self):
        if getattr(self, "chain", None) is not None:
            self.chain.close()
            self.chain = None


# MCP23017 registers (IOCON.BANK = 0, the power-on default)
IODIRA, IODIRB, GPPUA, GPPUB, GPIOA, OLATA = 0x00, 0x01, 0x0C, 0x0D, 0x12, 0x14
# GPA0-6 and GPB0-6 are inputs with pull-ups. GPA7/GPB7 are output-only in Microchip's revised
# datasheet (as inputs they can corrupt SDA), so they are made outputs (driving low, left unconnected).
MCP_INPUTS = 0x7F
# Written to OLATA/OLATB: bits 0-6 latch nothing on input pins, bit 7 = 0 keeps GPA7/GPB7 low.
# A reset clears OLAT to 0x00, so reading it with the inputs (one 4-byte read, GPIOA..OLATB)
# tells a chip that was reset while still answering: pull-ups off, inputs floating.
MCP_MARK = 0x2A


class Mcp23017ReedSensor(ReedSensor):
    """Holes on MCP23017 I2C expanders (14 inputs each: GPA0-6, GPB0-6; up to 8 on a bus),
    internal pull-ups on, reed switches to ground. ``smbus`` is an ``smbus2.SMBus``-like
    object; by default ``smbus2.SMBus(bus)`` is opened here.

    A chip is set up (IODIR, GPPU, the OLAT mark) and its IODIR and GPPU read back; every
    scan reads GPIOA, GPIOB and the OLAT mark in one transaction. A missing mark means the
    chip was reset (a power glitch, a brown-out) and still answers, with its pull-ups off:
    it is set up again, read again, and the reset is reported (kind ``reset``)."""

    chip_size = 16

    def __init__(self, hole_inputs: Mapping[str, int], *, bus: int = 1, addresses=(0x20,), smbus=None, **kw):
        if smbus is None:
            try:
                from smbus2 import SMBus
            except ImportError:
                raise RuntimeError("the mcp23017 sensor backend needs the smbus2 package: "
                                   "pip install smbus2 (and enable I2C: sudo raspi-config nonint do_i2c 0)") from None
            smbus = SMBus(bus)
        self.bus_number = bus
        self.bus = smbus
        self.addresses = tuple(addresses)
        self._configured: set[int] = set()
        self.resets = 0
        kw.setdefault("describe_input", lambda n: f"MCP23017 0x{self.addresses[n // 16]:02x} "
                                                  f"GP{'AB'[n % 16 // 8]}{n % 8} (input {n})")
        super().__init__(hole_inputs, input_count=16 * len(self.addresses), **kw)

    def _configure(self, addr: int):
        for reg, value in ((IODIRA, MCP_INPUTS), (IODIRB, MCP_INPUTS), (GPPUA, MCP_INPUTS), (GPPUB, MCP_INPUTS),
                           (OLATA, MCP_MARK), (OLATA + 1, MCP_MARK)):
            self.bus.write_byte_data(addr, reg, value)
        iodir = self.bus.read_i2c_block_data(addr, IODIRA, 2)
        gppu = self.bus.read_i2c_block_data(addr, GPPUA, 2)
        if list(iodir) + list(gppu) != [MCP_INPUTS] * 4:
            raise OSError(f"it doesn't keep its settings (IODIR read back {iodir[0]:02X} {iodir[1]:02X}, "
                          f"GPPU {gppu[0]:02X} {gppu[1]:02X}, written 7F): a bad I2C wire or a wrong part")

    def _read(self):
        mask, failed = 0, {}
        for k, addr in enumerate(self.addresses):
            try:
                if k not in self._configured:
                    self._configure(addr)
                    self._configured.add(k)
                a, b, mark_a, mark_b = self.bus.read_i2c_block_data(addr, GPIOA, 4)
                if (mark_a, mark_b) != (MCP_MARK, MCP_MARK):
                    self._configured.discard(k)
                    self.resets += 1
                    self._notice("reset", f"MCP23017 0x{addr:02x} was reset (its settings were gone: a power "
                                          f"glitch or a loose 3.3 V/RESET wire?); it was set up again",
                                 self.clock(), chip=k)
                    self._configure(addr)
                    self._configured.add(k)
                    a, b, _, _ = self.bus.read_i2c_block_data(addr, GPIOA, 4)
            except OSError as exc:
                self._configured.discard(k)
                failed[k] = f"MCP23017 0x{addr:02x} on I2C bus {self.bus_number} doesn't answer ({exc})"
                continue
            mask |= (~(a | b << 8) & (MCP_INPUTS | MCP_INPUTS << 8)) << (16 * k)
        return mask, failed

    def close(self):
        close = getattr(self.bus, "close", None)
        if close:
            close()


def open_sensor(wiring, *, pin_factory=None, smbus=None, clock: Callable[[], float] = time.monotonic,
                on_fault=None) -> ReedSensor | None:
    """The sensor a wiring config describes (None for backend "none")."""
    s = wiring.sensors
    common = dict(debounce_ms=s.debounce_ms, clock=clock, chatter_limit=s.chatter_limit, ignore=s.ignore,
                  describe_input=s.describe_input, on_fault=on_fault)
    if s.backend == "none":
        return None
    if s.backend == "gpio":
        return GpioReedSensor(s.map, pull_up=s.gpio.pull_up, pin_factory=pin_factory, **common)
    if s.backend == "shift-register":
        sr = s.shift_register
        return ShiftRegisterReedSensor(s.map, sr.chips, latch_pin=sr.latch_pin, clock_pin=sr.clock_pin,
                                       miso_pin=sr.miso_pin, mosi_pin=sr.mosi_pin, select_pin=sr.select_pin,
                                       spi_hz=sr.spi_hz, chain_check=sr.chain_check,
                                       pin_factory=pin_factory, **common)
    if s.backend == "mcp23017":
        return Mcp23017ReedSensor(s.map, bus=s.mcp23017.bus, addresses=s.mcp23017.addresses, smbus=smbus,
                                  **common)
    raise ValueError(f"unknown sensor backend {s.backend!r}")
