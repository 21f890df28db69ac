"""``pegs hw-test``: the wiring diagnostic for the person who just built the board.

It checks the wiring file's maps, reads every switch, then lights each LED in
strip order and names its hole, and waits for a magnet (or a peg) in the lit hole
and out again before it moves on (``--no-wait``/``--delay``: a timed tour). Every
switch change is reported with its hole name. At the end it lists what is wrong,
saying which hole, LED or input:

* DUPLICATED - two holes mapped to one LED or one switch input;
* UNMAPPED   - a switch input that changed (or reads closed) but belongs to no hole;
* STUCK      - a switch that read closed all through the test;
* NO RESPONSE - a lit hole whose switch never closed (and whole chips that stayed silent);
* FAULT      - what the sensor itself reported (dead chip, broken chain, chattering switch).

For a staged bring-up: ``--chips N`` tests the first N chips alone, ``--no-strip`` runs
before the LED strip exists (nothing lit: the hole to try is named), ``--leds-only``
tours the strip without switches, ``--raw`` shows each chip's byte as it changes,
``--system`` checks the Pi's set-up, ``--harness FILE`` draws the wiring as SVG.

Exit status: 0 nothing wrong, 1 problems found, 2 bad wiring file or no hardware.
``--mock`` runs the same test against emulated hardware in simulated time, with a
virtual builder putting a magnet in each lit hole (``--mock-fault`` breaks things).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .config import WiringError, load_wiring, wiring_in_companion_config

EXIT_OK, EXIT_PROBLEMS, EXIT_BAD_INPUT = 0, 1, 2
DEFAULT_CONFIG = Path("/etc/pegs-companion/wiring.toml")          # a wiring file of its own
COMPANION_CONFIG = Path("/etc/pegs-companion/config.toml")        # `pegs serve`'s, with [wiring]
LIT = (255, 255, 255)


class SimClock:
    """Simulated time for ``--mock``: ``sleep`` advances it, so the test runs at once."""

    def __init__(self, start: float = 0.0):
        self.t = start

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float):
        self.t += max(0.0, seconds)


class VirtualBuilder:
    """Stands in for the builder under ``--mock``: puts a magnet in each lit hole
    ``press`` s after it lights and takes it out at ``release`` s. ``wired`` is where
    each hole's switch really is (hole -> input), which a fault can make differ from
    the wiring file."""

    def __init__(self, mock_board, *, press: float = 0.2, release: float = 0.6, wired: dict | None = None,
                 fail_chip_at: tuple[int, int] | None = None):
        self.board = mock_board
        self.press, self.release = press, release
        self.wired = dict(mock_board.wiring.sensors.map if wired is None else wired)
        self.fail_chip_at = fail_chip_at    # (step, chip)
        self._plan: list[tuple[float, Callable]] = []

    def on_step(self, step: int, index: int, holes: list[str], now: float):
        if self.fail_chip_at and step == self.fail_chip_at[0]:
            # a broken wire: the Pi's MISO pull-down (or a dead QH) makes the chips behind read 0x00
            self.board.fail_chip(self.fail_chip_at[1], level=0)
        for hole in holes:
            n = self.wired.get(hole)
            if n is None:
                continue
            self._plan.append((now + self.press, lambda n=n: self.board.set_input(n, True)))
            self._plan.append((now + self.release, lambda n=n: self.board.set_input(n, False)))

    def tick(self, now: float):
        due = [a for a in self._plan if a[0] <= now]
        if due:
            self._plan = [a for a in self._plan if a[0] > now]
            for _, action in sorted(due, key=lambda a: a[0]):
                action()


class HwTest:
    """The diagnostic, with its sensor, LEDs, clock and output stream injected."""

    def __init__(self, wiring, sensor, leds, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, out=None, delay: float = 1.0,
                 wait: bool = False, timeout: float = 30.0, poll_interval: float | None = None,
                 on_step: Callable | None = None, on_poll: Callable | None = None):
        self.wiring = wiring
        self.sensor = sensor
        self.leds = leds
        self.clock = clock
        self.sleep = sleep
        self.out = out if out is not None else sys.stdout
        self.delay = delay
        self.wait = wait
        self.timeout = timeout
        self.poll_interval = poll_interval if poll_interval is not None else 1.0 / wiring.sensors.scan_hz
        self.on_step = on_step
        self.on_poll = on_poll
        s = wiring.sensors
        self.describe = s.describe_input
        self.input_holes = wiring.input_holes()
        self.led_holes = wiring.led_holes()
        # findings
        self.duplicated: list[tuple[str, int, tuple]] = list(wiring.duplicates)
        self.unmapped: dict[int, int] = {}            # input -> times it closed
        self.unmapped_closed_at_start: list[int] = []
        self.stuck: list[int] = []
        self.closed_at_start: list[int] = []
        self.changed: set[int] = set()
        self.closed_seen: set[int] = set()
        self.no_response: list[str] = []
        self.untested: list[str] = []                 # waiting tour: skipped while the sensor was in fault
        self.elsewhere: list[tuple[str, int]] = []     # (lit hole, input that closed instead)
        self.faults: list = []
        self.problems: list[str] = []
        self._lit: list[str] = []
        self._lit_closed = False
        self._lit_opened = False
        self._paused = False

    def say(self, text: str = ""):
        print(text, file=self.out, flush=True)

    # -------------------------------------------------------------- the run

    def run(self) -> int:
        try:
            self._header()
            self._check_maps()
            if self.sensor is not None:
                self.sensor.on_fault = self._on_fault
                self._initial_read()
            self._tour()
        except KeyboardInterrupt:
            self.say("\ninterrupted: the summary covers what was tested so far")
            self._summary()
            return 130
        finally:
            try:
                self.leds.clear()
                self.leds.update(force=True)
            except Exception:   # noqa: BLE001 - best effort on the way out
                pass
        return self._summary()

    def _header(self):
        w = self.wiring
        b, led, s = w.board, w.leds, w.sensors
        self.say(f"pegs hw-test: {b.describe()}: {b.hole_count} holes")
        self.say(f"  wiring: {w.source}")
        self.say(f"  LEDs: {led.count} on GPIO{led.data_pin} ({led.pixel_order}), brightness cap "
                 f"{led.brightness:.2f}, current budget {led.current_budget_a:g} A")
        if s.backend == "shift-register":
            sr = s.shift_register
            detail = (f"{sr.chips} x 74HC165 = {8 * sr.chips} inputs (SCLK GPIO{sr.clock_pin}, MISO "
                      f"GPIO{sr.miso_pin}, latch GPIO{sr.latch_pin}), chain check {sr.chain_check}")
        elif s.backend == "mcp23017":
            detail = (f"{len(s.mcp23017.addresses)} x MCP23017 on I2C bus {s.mcp23017.bus} "
                      f"({', '.join(f'0x{a:02x}' for a in s.mcp23017.addresses)})")
        elif s.backend == "gpio":
            detail = f"{len(set(s.map.values()))} GPIO inputs"
        else:
            detail = "none (LED test only)"
        self.say(f"  switches: {s.backend}: {detail}; debounce {s.debounce_ms:g} ms")
        if s.backend in ("shift-register", "mcp23017") and len(s.map) < b.hole_count:
            self.say(f"  bring-up: {len(s.map)} of the {b.hole_count} holes have a switch input (a partial chain); "
                     f"only those are tested. pegs serve needs every hole wired")

    def _check_maps(self):
        w = self.wiring
        self.say("\nChecking the maps")
        for section, value, holes in self.duplicated:
            what = f"LED {value}" if section == "leds" else self.describe(value)
            self.say(f"  DUPLICATED: {what} is mapped to {len(holes)} holes: {', '.join(holes)}")
        holes = w.holes()
        no_led = [h for h in holes if h not in w.leds.map]
        no_switch = [h for h in holes if h not in w.sensors.map] if w.sensors.backend != "none" else []
        if no_led:
            self.say(f"  holes without an LED ({len(no_led)}): {_short(no_led)}")
        if no_switch:
            self.say(f"  holes without a switch ({len(no_switch)}): {_short(no_switch)}")
        spare_leds = [i for i in range(w.leds.count) if i not in self.led_holes]
        if spare_leds:
            self.say(f"  LEDs with no hole ({len(spare_leds)}): {_short(list(map(str, spare_leds)))}")
        if w.sensors.backend in ("shift-register", "mcp23017"):
            spare = [n for n in range(w.sensors.input_count) if n not in self.input_holes]
            if spare:
                self.say(f"  spare inputs, no hole ({len(spare)}): {self.describe(spare[0])}"
                         f"{' ... ' + self.describe(spare[-1]) if len(spare) > 1 else ''}")
        if not (self.duplicated or no_led or no_switch):
            self.say("  ok: every hole has one LED and one switch input of its own")

    def _initial_read(self):
        self.say("\nReading every switch (take all pegs off the board first)")
        self.sensor.scan_inputs()
        raw = self.sensor.raw_mask()
        closed = [n for n in range(self.sensor.input_count) if raw >> n & 1]
        for n in closed:
            holes = self.input_holes.get(n)
            if holes:
                self.closed_at_start.append(n)
                self.say(f"  closed now: {'/'.join(holes)} ({self.describe(n)})")
            else:
                self.unmapped_closed_at_start.append(n)
                self.say(f"  closed now: {self.describe(n)}, which no hole is mapped to")
        if not closed:
            self.say(f"  ok: all {len(self.input_holes)} switches open")

    def _tour(self):
        count = self.wiring.leds.count
        how = ("put a magnet in it and take it out; the test moves on when the switch has closed and opened "
               f"(or after {self.timeout:g} s)" if self.wait else
               f"each stays lit {self.delay:g} s: put a magnet in it and take it out")
        self.say(f"\nLED tour: each LED lights in strip order and is named; {how}")
        self.leds.clear()
        self.leds.update(force=True)   # the real strip driver opens here: fail before the tour
        waiting_tour = self.wait and self.sensor is not None
        unsensed = [i for i in range(count) if not any(h in self.wiring.sensors.map
                                                        for h in self.led_holes.get(i, []))]
        if waiting_tour and unsensed:
            self.say(f"  ({len(unsensed)} LEDs whose hole has no switch input are skipped: a partial chain, "
                     f"spare LEDs or unmapped holes)")
        for step, index in enumerate(range(count)):
            if waiting_tour and index in unsensed:
                continue
            holes = self.led_holes.get(index, [])
            self._lit = holes
            self._lit_closed = self._lit_opened = False
            inputs = [self.wiring.sensors.map[h] for h in holes if h in self.wiring.sensors.map]
            sw = ", ".join(self.describe(n) for n in inputs) or "no switch"
            name = "/".join(holes) if holes else "no hole (spare LED)"
            self.say(f"[{step + 1:>{len(str(count))}}/{count}] LED {index} -> {name}   switch: {sw}")
            self.leds.set_index(index, LIT)
            start = self.clock()
            if self.on_step:
                self.on_step(step, index, holes, start)
            waiting = self.wait and bool(inputs) and self.sensor is not None
            if waiting and any(self.sensor.input_occupied(n) for n in inputs):
                self.say(f"    {name}: its switch is already closed (stuck?) - not waiting")
                waiting = False
            if waiting and set(holes) & self.sensor.unreliable_holes():
                if not self._paused:
                    self.say("    (the sensor reports a fault, see above: holes are only lit, not waited "
                             "for, until it reads correctly again)")
                    self._paused = True
                self.untested.extend(holes)
                waiting = False
            elif waiting:
                self._paused = False
            limit = self.timeout if waiting else self.delay
            while True:
                self._poll()
                now = self.clock()
                if waiting and self._lit_closed and self._lit_opened:
                    break
                if now - start >= limit:
                    if waiting and set(holes) & self.sensor.unreliable_holes():
                        self.untested.extend(holes)
                    elif waiting and self._lit_closed:
                        self.say(f"    {name} closed but didn't open again in {self.timeout:g} s; moving on")
                    elif waiting:
                        self.no_response.extend(holes)
                        self.say(f"    NO RESPONSE: {name}'s switch didn't close in {self.timeout:g} s")
                    break
                self.sleep(self.poll_interval)
            self.leds.clear_index(index)
        self._poll()

    def _poll(self):
        if self.on_poll:
            self.on_poll(self.clock())
        if self.sensor is not None:
            for n, occupied, t in self.sensor.scan_inputs():
                self._report_change(n, occupied)
        self.leds.update()

    def _report_change(self, n: int, occupied: bool):
        self.changed.add(n)
        verb = "closed" if occupied else "opened"
        holes = self.input_holes.get(n)
        lit = "/".join(self._lit) or "a spare LED"
        if not holes:
            if occupied:
                self.unmapped[n] = self.unmapped.get(n, 0) + 1
                hint = (f" - if the magnet is in {self._lit[0]}, its switch is on this input: "
                        f"sensors.map.\"{self._lit[0]}\" = {n}" if len(self._lit) == 1 else "")
                self.say(f"    UNMAPPED: {self.describe(n)} closed, but no hole is mapped to it{hint}")
            else:
                self.say(f"    {self.describe(n)} (unmapped) opened")
            return
        name = "/".join(holes)
        mine = bool(set(holes) & set(self._lit))
        if occupied:
            self.closed_seen.add(n)
        self._show_switch(holes, occupied)
        note = ""
        if mine:
            if occupied:
                self._lit_closed = True
            elif self._lit_closed:
                self._lit_opened = True
            note = "  ok" + (f" (this input is also mapped to {', '.join(h for h in holes if h not in self._lit)}: "
                             f"DUPLICATED)" if len(holes) > 1 else "")
        elif occupied:
            note = f"  - but the lit hole is {lit}"
            if self._lit:
                self.elsewhere.append((self._lit[0], n))
        self.say(f"    {name} {verb}{note}")

    def _show_switch(self, holes, occupied):
        """A closed switch lights its own hole's LED green ("legal"), so the builder sees
        which hole the board thinks it is; the lit LED is left alone."""
        lit_index = self.leds.led_map.get(self._lit[0]) if self._lit else None
        for h in holes:
            i = self.leds.led_map.get(h)
            if i is None or i == lit_index:
                continue
            if occupied:
                self.leds.mark([h], "legal")
            else:
                self.leds.clear_index(i)

    def _on_fault(self, fault):
        self.faults.append(fault)
        if fault.kind == "bounce":
            self.say(f"    (bounce) {fault.message}")
        elif fault.kind == "recovered":
            self.say(f"    (recovered) {fault.message}")
        elif fault.kind != "unmapped":
            self.say(f"    FAULT ({fault.kind}): {fault.message}")

    # -------------------------------------------------------------- summary

    def _summary(self) -> int:
        p = self.problems
        for section, value, holes in self.duplicated:
            if section == "leds":
                p.append(f"DUPLICATED LED: LED {value} is mapped to {' and '.join(holes)}: one of them is "
                         f"wrong in leds.map")
            else:
                p.append(f"DUPLICATED input: {self.describe(value)} is mapped to {' and '.join(holes)}: "
                         f"one of them is wrong in sensors.map (or two switches share a wire)")
        for n, times in sorted(self.unmapped.items()):
            p.append(f"UNMAPPED input: {self.describe(n)} closed {times} time{'s' * (times != 1)} but no hole "
                     f"is mapped to it: add its hole to sensors.map")
        for n in self.unmapped_closed_at_start:
            if n not in self.changed:
                p.append(f"UNMAPPED input: {self.describe(n)} reads closed and no hole is mapped to it: tie unused "
                         f"inputs high (10 kOhm to 3.3 V) or find the short")
        if self.sensor is not None:
            final = self.sensor.raw_mask()
            for n in self.closed_at_start:
                if n not in self.changed and final >> n & 1:
                    self.stuck.append(n)
                    p.append(f"STUCK: {'/'.join(self.input_holes[n])} ({self.describe(n)}) read closed for the "
                             f"whole test: a stuck reed switch or a wire shorted to ground (or a peg left in "
                             f"the hole)")
        silent_chips = self._silent_chips()
        on_silent = set()
        if silent_chips:
            p.append(self._silent_chips_text(silent_chips))
            size = self.sensor.chip_size
            on_silent = {h for h, n in self.wiring.sensors.map.items() if n // size in silent_chips}
        for hole in self.no_response:
            if hole in on_silent:
                continue
            n = self.wiring.sensors.map.get(hole)
            p.append(f"NO RESPONSE: {hole} ({self.describe(n)}) never closed: a broken or stuck-open reed, a "
                     f"magnet too weak or too far, or a loose wire")
        if self.wait:
            for lit, n in self.elsewhere:
                if self.input_holes.get(n) and lit not in self.input_holes[n]:
                    p.append(f"MISWIRED: while {lit} was lit, the switch of {'/'.join(self.input_holes[n])} "
                             f"({self.describe(n)}) closed: swap them in sensors.map or fix the wires")
        if self.untested:
            p.append(f"UNTESTED: {len(self.untested)} holes were skipped while the sensor was in fault "
                     f"({_short(self.untested)}): fix the fault and run the test again")
        seen = set()
        for f in self.faults:
            if f.kind in ("dead-chip", "chain", "read-error", "chatter", "reset") and (f.kind, f.message) not in seen:
                seen.add((f.kind, f.message))
                p.append(f"FAULT ({f.kind}): {f.message}")
        self.say("\nSummary")
        if not self.wait and self.sensor is not None and self.wiring.sensors.backend != "none":
            never = [h for h, n in self.wiring.sensors.map.items() if n not in self.closed_seen
                     and n not in self.stuck]
            if self.closed_seen and never:
                self.say(f"  note: {len(never)} switch{'es' * (len(never) != 1)} never closed during the tour "
                         f"({_short(never)}); if you put a magnet in those holes, check them with the waiting tour (no --delay)")
            elif not self.closed_seen:
                self.say("  note: no switch closed during the tour: was a magnet put in the lit holes?")
        for line in p:
            self.say(f"  {line}")
        if p:
            self.say(f"{len(p)} problem{'s' * (len(p) != 1)} found.")
            return EXIT_PROBLEMS
        self.say("  no problems found.")
        return EXIT_OK


    def _silent_chips(self) -> list[int]:
        """Chips none of whose tested holes ever closed (with at least 2 tested): a chip or
        chain fault rather than 8 bad reeds. Only meaningful after a waiting tour."""
        size = getattr(self.sensor, "chip_size", None)
        if not self.wait or not size or not self.no_response:
            return []
        tested: dict[int, list[str]] = {}
        for hole, n in self.wiring.sensors.map.items():
            tested.setdefault(n // size, []).append(hole)
        silent = set(self.no_response)
        return sorted(c for c, holes in tested.items() if len(holes) >= 2 and all(h in silent for h in holes))

    def _silent_chips_text(self, chips: list[int]) -> str:
        size = self.sensor.chip_size
        last = max(n // size for n in self.wiring.sensors.map.values())
        names = ", ".join(map(str, chips))
        if self.wiring.sensors.backend == "shift-register":
            k = chips[0]
            if chips == list(range(k, last + 1)):
                where = ("chip 0's side: the MISO wire (GPIO9, pin 21) to chip 0's QH, or chip 0's 3.3 V, GND, "
                         "CLK or SH/LD" if k == 0 else
                         f"between chip {k - 1} and chip {k}: chip {k}'s QH (pin 9) to chip {k - 1}'s SER "
                         f"(pin 10), or chip {k}'s 3.3 V, GND, CLK or SH/LD")
                return (f"CHAIN: no hole on chips {names} ever closed: the chain is probably broken {where} "
                        f"(pegs hw-test --raw shows the bytes)")
            return (f"SILENT CHIP{'S' * (len(chips) > 1)}: no hole on chip{'s' * (len(chips) > 1)} {names} ever "
                    f"closed: check each one's 3.3 V, GND, CLK, SH/LD and pull-ups (pegs hw-test --raw)")
        return (f"SILENT CHIP{'S' * (len(chips) > 1)}: no hole on MCP23017 chip{'s' * (len(chips) > 1)} {names} "
                f"ever closed: check its address pins, 3.3 V and RESET (i2cdetect -y "
                f"{self.wiring.sensors.mcp23017.bus})")


def _short(items: list[str], n: int = 12) -> str:
    return ", ".join(items[:n]) + (f" ... (+{len(items) - n})" if len(items) > n else "")


# ------------------------------------------------------------------ the command

def _parse_mock_faults(specs: list[str], wiring):
    """--mock-fault stuck=M3 | open=M3 | wire=M5:6 | chip=2 -> (stuck, open, wired, chip)."""
    stuck, opened, wired, chip = [], [], {}, None
    holes = set(wiring.holes())
    for spec in specs:
        kind, _, value = spec.partition("=")
        if kind in ("stuck", "open"):
            if value not in holes:
                raise ValueError(f"--mock-fault {spec}: {value!r} is not a hole of this board")
            (stuck if kind == "stuck" else opened).append(value)
        elif kind == "wire":
            hole, _, n = value.partition(":")
            if hole not in holes or not n.isdigit():
                raise ValueError(f"--mock-fault {spec}: expected wire=HOLE:INPUT, e.g. wire=M5:6")
            wired[hole] = int(n)
        elif kind == "chip" and value.isdigit():
            chip = int(value)
        else:
            raise ValueError(f"--mock-fault {spec}: expected stuck=HOLE, open=HOLE, wire=HOLE:INPUT or chip=N")
    return stuck, opened, wired, chip


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pegs hw-test",
        description="Wiring diagnostic: lights each hole's LED in turn and names it, waits for a magnet in "
                    "that hole and out again, reports every switch change with its hole, and finds unmapped, "
                    "duplicated, stuck and silent inputs. On a Pi 1-4 the LEDs need root: stop the service "
                    "and use sudo.")
    p.add_argument("--config", metavar="FILE",
                   help=f"the companion's config file (its [wiring] tables or board.wiring) or a wiring file "
                        f"(default: $PEGS_WIRING, else the wiring of $PEGS_CONFIG or {COMPANION_CONFIG}, "
                        f"else {DEFAULT_CONFIG} if it exists, else the built-in defaults)")
    p.add_argument("--mock", action="store_true",
                   help="run against emulated hardware in simulated time, with a virtual builder")
    p.add_argument("--sides", type=int, choices=(4, 6, 8, 10), help="board sides (else the file's [board])")
    p.add_argument("--holes-per-side", type=int, help="holes per side, 18 or 20 (else the file's [board])")
    p.add_argument("--chips", type=int, metavar="N",
                   help="bring-up: only the first N 74HC165 chips (or MCP23017s) are wired; their holes are tested")
    p.add_argument("--no-strip", action="store_true",
                   help="bring-up before the LED strip is built: LEDs emulated, the hole to try is named")
    p.add_argument("--leds-only", action="store_true",
                   help="bring-up of the strip: light each LED in turn (timed), no switches read")
    p.add_argument("--raw", type=float, nargs="?", const=0.0, metavar="SECONDS",
                   help="show each chip's raw byte whenever it changes, for SECONDS (default: until Ctrl-C; "
                        "1 s with --mock), and where the chain is broken")
    p.add_argument("--system", action="store_true",
                   help="check the Pi's set-up for this wiring (SPI/I2C, libraries, root, audio) and exit")
    p.add_argument("--harness", metavar="FILE.svg",
                   help="write the wiring harness (chips, pins, holes, LED order) as an SVG drawing and exit")
    p.add_argument("--delay", type=float, default=None,
                   help="a timed tour: seconds each LED stays lit, without waiting for the switch "
                        "(default with --no-wait: 1, or 0.2 with --mock)")
    p.add_argument("--wait", action="store_true", default=True,
                   help="at each hole wait for its switch to close and open before moving on (the default)")
    p.add_argument("--no-wait", dest="wait", action="store_false", help="a timed tour (see --delay)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds to wait per hole (30; 2 simulated seconds with --mock)")
    p.add_argument("--mock-fault", action="append", default=[], metavar="SPEC",
                   help="with --mock: stuck=HOLE, open=HOLE, wire=HOLE:INPUT (its switch is really on "
                        "that input), chip=N (chip N breaks the chain halfway); repeatable")
    return p


def _bring_up(wiring, chips: int | None, leds_only: bool, no_strip: bool):
    """The wiring as the bring-up options narrow it (a partial chain, no strip, no switches)."""
    from dataclasses import replace
    s = wiring.sensors
    if chips is not None:
        if s.backend == "shift-register":
            sr = replace(s.shift_register, chips=chips)
            s = replace(s, shift_register=sr, map={h: n for h, n in s.map.items() if n < 8 * chips})
        elif s.backend == "mcp23017":
            m = replace(s.mcp23017, addresses=s.mcp23017.addresses[:chips])
            s = replace(s, mcp23017=m, map={h: n for h, n in s.map.items() if n < 16 * chips})
        else:
            raise ValueError(f"--chips is for the shift-register and mcp23017 backends, not {s.backend}")
    if leds_only:
        s = replace(s, backend="none", map={})
    leds = replace(wiring.leds, driver="mock") if no_strip else wiring.leds
    return replace(wiring, sensors=s, leds=leds)


def hw_test_command(argv=None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.delay is not None and args.delay <= 0:
        print("pegs hw-test: --delay must be above 0", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.mock_fault and not args.mock:
        print("pegs hw-test: --mock-fault needs --mock", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.chips is not None and not 1 <= args.chips <= 512:
        print("pegs hw-test: --chips must be 1 to 512", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.delay is not None or args.leds_only:
        args.wait = False
    config, source = "", None
    try:
        config, source = _find_wiring(args.config)
        wiring = load_wiring(source if source is not None else "", args.sides, args.holes_per_side,
                             allow_duplicates=True, partial=True)
        wiring = _bring_up(wiring, args.chips, args.leds_only, args.no_strip)
    except WiringError as exc:
        if isinstance(source, dict):   # the [wiring] tables of the companion's config file
            exc = WiringError(config, [f"wiring.{p}" for p in exc.problems])
        print(f"pegs hw-test: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:
        print(f"pegs hw-test: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if isinstance(source, dict):
        wiring = _with_source(wiring, f"{config} [wiring]")
    if not config:
        wiring = _with_source(wiring, "built-in defaults (no wiring file)")
    if args.harness:
        from .harness import harness_svg
        try:
            Path(args.harness).write_text(harness_svg(wiring), encoding="utf-8")
        except OSError as exc:
            print(f"pegs hw-test: can't write {args.harness} ({exc.strerror})", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(f"pegs hw-test: wrote the wiring harness of {wiring.source} to {args.harness}")
        return EXIT_OK
    if args.system:
        from .syscheck import print_system_check
        return print_system_check(wiring)
    args.mock = args.mock or wiring.mock
    delay = args.delay if args.delay is not None else (0.2 if args.mock else 1.0)
    timeout = args.timeout if args.timeout is not None else (2.0 if args.mock else 30.0)

    from .devices import Hardware
    from .leds import LedDriverError
    if args.mock:
        try:
            stuck, opened, wired, chip = _parse_mock_faults(args.mock_fault, wiring)
        except ValueError as exc:
            print(f"pegs hw-test: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        clock = SimClock()
        hw = Hardware(wiring, mock=True, clock=clock)
        sleep = clock.sleep
        builder = None
        if wiring.sensors.backend != "none":
            physical = dict(wiring.sensors.map)
            physical.update(wired)
            held = wiring.sensors.debounce_ms / 1000 + 2 / wiring.sensors.scan_hz
            if not args.wait and 0.6 * delay < held:
                print(f"pegs hw-test: note: with --delay {delay:g} the virtual builder's magnet stays in each "
                      f"hole {0.6 * delay:.3f} s, less than the debounce needs ({held:.3f} s): no switch will "
                      f"count as closed; use --delay {held / 0.6:.2f} or more", file=sys.stderr)
            builder = VirtualBuilder(hw.mock_board, press=0.2 * delay, release=0.8 * delay, wired=physical,
                                     fail_chip_at=None if chip is None else (len(wiring.sensors.map) // 2, chip))
    else:
        clock, sleep, builder = time.monotonic, time.sleep, None
        hw = Hardware(wiring)
    try:
        try:
            sensor = hw.sensor
            if args.mock:
                for hole in stuck:
                    hw.mock_board.stick(hole, True)
                for hole in opened:
                    hw.mock_board.stick(hole, False)
            if args.raw is not None:
                seconds = args.raw or (1.0 if args.mock else None)
                return raw_view(wiring, sensor, clock=clock, sleep=sleep, seconds=seconds,
                                on_poll=builder.tick if builder else None)
            test = HwTest(wiring, sensor, hw.leds, clock=clock, sleep=sleep, delay=delay, wait=args.wait,
                          timeout=timeout, on_step=builder.on_step if builder else None,
                          on_poll=builder.tick if builder else None)
            return test.run()
        except LedDriverError as exc:
            print(f"pegs hw-test: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except (ImportError, OSError, RuntimeError) as exc:
            print(f"pegs hw-test: can't open the hardware ({type(exc).__name__}: {exc}); on a PC, "
                  f"use --mock; pegs hw-test --system checks the Pi's set-up", file=sys.stderr)
            return EXIT_BAD_INPUT
        except Exception as exc:  # gpiozero's errors (BadPinFactory, pin conflicts) have no common base here
            if type(exc).__module__.startswith("gpiozero"):
                print(f"pegs hw-test: GPIO error ({type(exc).__name__}: {exc}); on a PC, use --mock; "
                      f"is the service still running? sudo systemctl stop pegs-companion", file=sys.stderr)
                return EXIT_BAD_INPUT
            raise
    finally:
        hw.close()


def raw_view(wiring, sensor, *, clock=time.monotonic, sleep=time.sleep, seconds: float | None = None,
             out=None, on_poll=None) -> int:
    """Each chip's raw byte(s), printed whenever they change: what the chain really sends,
    before any check or debounce (``pegs hw-test --raw``). Bit j of a 74HC165 byte is input j
    (A = 0 ... H = 7), 1 = open; the last column is the chain-check byte."""
    out = out if out is not None else sys.stdout
    s = wiring.sensors

    def say(text=""):
        print(text, file=out, flush=True)
    if sensor is None or s.backend == "gpio":
        say("pegs hw-test --raw: needs the shift-register or mcp23017 backend")
        return EXIT_BAD_INPUT
    if s.backend == "shift-register":
        chips = s.shift_register.chips
        check = {"high": "FF", "low": "00"}.get(s.shift_register.chain_check)
        say(f"Raw chain bytes, chip 0 first (bit j = input j, A = 0 ... H = 7; 1 = open, 0 = closed)"
            + (f", then the check byte (must read {check})" if check else ""))
        say("  " + " ".join(f"{k:>2}" for k in range(chips)) + ("  | check" if check else ""))

        def read():
            return sensor.raw_bytes()
    else:
        chips = len(s.mcp23017.addresses)
        say("Raw MCP23017 ports, chip by chip as GPIOA/GPIOB (bits 0-6 used, 1 = open; bit 7 is an output)")

        def read():
            data = []
            for addr in s.mcp23017.addresses:
                try:
                    data.extend(sensor.bus.read_i2c_block_data(addr, 0x12, 2))
                except OSError:
                    data.extend([None, None])
            return data
    start = clock()
    last = None
    reads = 0
    try:
        while seconds is None or clock() - start < seconds:
            if on_poll:
                on_poll(clock())
            data = read()
            reads += 1
            if data != last:
                cells = [("--" if b is None else f"{b:02X}") for b in data]
                if s.backend == "shift-register":
                    line = " ".join(f"{c:>2}" for c in cells[:chips]) + (
                        f"  | {cells[chips]}" if len(cells) > chips else "")
                else:
                    line = " ".join(f"{cells[2 * k]}/{cells[2 * k + 1]}" for k in range(chips))
                say(f"  {line}   t={clock() - start:.2f} s{_raw_notes(wiring, sensor, data)}")
                last = data
            sleep(0.02)
    except KeyboardInterrupt:
        pass
    say(f"({reads} reads)")
    return EXIT_OK


def _raw_notes(wiring, sensor, data) -> str:
    """What a raw read means: the closed inputs by hole, or where the chain is broken."""
    s = wiring.sensors
    if s.backend != "shift-register":
        return ""
    chips = s.shift_register.chips
    if len(data) > chips and sensor._expect is not None and data[chips] != sensor._expect:
        return "   CHAIN BROKEN: " + sensor._chain_message(data, data[chips]).split("; ", 1)[1]
    closed = [n for k in range(chips) for n in range(8 * k, 8 * k + 8) if not data[k] >> (n % 8) & 1]
    if not closed:
        return "   (all open)"
    holes = wiring.input_holes()
    return "   closed: " + _short([("/".join(holes[n]) if n in holes else s.describe_input(n)) for n in closed], 8)


def _find_wiring(given: str | None) -> tuple[str, object]:
    """(where, what to load): the wiring `pegs serve` uses, looked up as it does."""
    env_config = os.environ.get("PEGS_CONFIG")
    candidates = [given] if given else (
        [os.environ["PEGS_WIRING"]] if os.environ.get("PEGS_WIRING") else
        [c for c in (env_config, str(COMPANION_CONFIG) if COMPANION_CONFIG.exists() else None) if c])
    for path in candidates:
        found = wiring_in_companion_config(path)
        if found is not None:
            kind, what = found
            return path, (what if kind == "table" else Path(what))
    if not given and DEFAULT_CONFIG.exists():
        return str(DEFAULT_CONFIG), DEFAULT_CONFIG
    return "", None


def _with_source(wiring, source):
    from dataclasses import replace
    return replace(wiring, source=source)
