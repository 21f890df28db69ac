"""Hardware-layer benchmark (not a pytest test): python tests/benchmarks/bench_hardware.py [--quick]

Measures, on gpiozero's MockFactory and the emulated hardware of hardware/mock.py:

(a) full scans of a 10-side board (280 holes) on a chain of 35 emulated 74HC165
    behind gpiozero's mock SPI, pegs moving all the while: the whole scan, the
    mock SPI transfer alone (gpiozero bit-bangs every clock edge in Python), and
    the sensor's own work (debounce, chip checks, events) on pre-read data;
(b) the same logic on 26 direct GPIO inputs and on 7 emulated MCP23017 (112 holes);
(c) LED frames for 280 LEDs: patterns, brightness and the current cap.

Prints Markdown, then the bus-time arithmetic for the real hardware.
"""
from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from benchkit import cpu_name  # noqa: E402
from hardware.config import load_wiring  # noqa: E402
from hardware.leds import LedBoard, MockStrip  # noqa: E402
from hardware.mock import MockBoard  # noqa: E402
from hardware.sensors import ReedSensor  # noqa: E402

warnings.simplefilter("ignore")   # gpiozero's pin-factory fallback warnings


def machine() -> str:
    cpu = cpu_name()
    return f"{cpu}, Python {platform.python_version()}"


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def row(name: str, samples: list[float], note: str = "") -> str:
    median = statistics.median(samples)
    mean = statistics.fmean(samples)
    p99 = sorted(samples)[int(0.99 * (len(samples) - 1))]
    return (f"| {name} | {1000 * median:.3f} | {1000 * mean:.3f} | {1000 * p99:.3f} | {1 / median:,.0f} "
            f"| {note} |")


def bench_scans(wiring, n: int, rng: random.Random, label: str, note: str, moves_every: int = 5):
    clock = [0.0]
    board = MockBoard(wiring)
    sensor = board.open_sensor(clock=lambda: clock[0])
    holes = list(wiring.sensors.map)
    sensor.scan()
    events = 0
    i = 0

    def one():
        nonlocal events, i
        i += 1
        clock[0] += 0.01
        if i % moves_every == 0:   # a peg in or out every few scans, so debounce work is real
            hole = rng.choice(holes)
            (board.remove if board.input_of(hole) in board.closed else board.place)(hole)
        events += len(sensor.scan())

    samples = timed(one, n)
    out = [row(label, samples, note)]
    return out, sensor, board, events


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 300 if args.quick else 2000
    rng = random.Random(1)

    print(f"Hardware benchmark on {machine()}; {n} scans each.\n")
    print("| what | median ms | mean ms | p99 ms | per second (median) | notes |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")

    # (a) the 74HC165 chain
    w280 = load_wiring("", 10, 18)
    lines, sensor, board, events = bench_scans(
        w280, n, rng, "scan, 280 holes, 35 x 74HC165 on mock SPI",
        "whole scan: latch, 36-byte mock SPI transfer, debounce, events")
    print(*lines, sep="\n")
    chain = sensor.chain
    print(row("  of which: the mock SPI transfer", timed(chain.read, n),
              "gpiozero bit-bangs 288 bits through mock pins"))

    class Replay(ReedSensor):
        chip_size, uniform_check = 8, True

        def __init__(self, masks, **kw):
            self.masks, self.i = masks, 0
            super().__init__(w280.sensors.map, input_count=280, **kw)

        def _read(self):
            self.i += 1
            return self.masks[self.i % len(self.masks)], {}

    masks, m = [], 0
    for k in range(n):
        if k % 5 == 0:
            m ^= 1 << rng.randrange(280)
        masks.append(m)
    t = [0.0]
    replay = Replay(masks, clock=lambda: t[0])

    def logic():
        t[0] += 0.01
        replay.scan()
    print(row("  of which: the sensor logic", timed(logic, n), "debounce, chip checks, events on recorded reads"))
    snap = timed(sensor.snapshot, n)
    print(row("snapshot() of 280 holes", snap, "{hole: occupied}"))
    board.close()
    sensor.close()

    # (b) gpio and mcp23017
    pins = [p for p in range(2, 28)]
    gpio_map = "\n".join(f'"M{i}" = {p}' for i, p in enumerate(pins))
    wg = load_wiring(f'[sensors]\nbackend = "gpio"\n[leds]\ndata_pin = 0\n[sensors.map]\n{gpio_map}\n', 4, 18)
    lines, s, b, _ = bench_scans(wg, n, rng, "scan, 26 holes on direct GPIO (mock pins)",
                                 "one DigitalInputDevice per hole")
    print(*lines, sep="\n")
    s.close()
    wm = load_wiring('[sensors]\nbackend = "mcp23017"\n[sensors.mcp23017]\n'
                     'addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27]\n', 4, 18)
    lines, s, b, _ = bench_scans(wm, n, rng, "scan, 112 holes on 8 x MCP23017 (fake bus)",
                                 "two-byte block read per chip")
    print(*lines, sep="\n")

    # (c) LEDs
    strip = MockStrip(280, keep=10)
    t = [0.0]
    leds = LedBoard(w280.leds.map, 280, strip, clock=lambda: t[0], brightness=1.0, current_budget_a=4.0)
    holes = list(w280.leds.map)
    roles = ["can-move", "legal", "hit", "wrong"]
    for i, hole in enumerate(holes[:120]):
        leds.mark([hole], roles[i % 4])
    for hole in holes[120:]:
        leds.set(hole, (255, 255, 255))   # full white: far over budget, so the cap works each frame

    def frame():
        t[0] += 0.02
        leds.update()
    print(row("LED frame, 280 LEDs (patterns + current cap)", timed(frame, n),
              f"uncapped {leds.last_uncapped_a:.1f} A -> {leds.last_current_a:.2f} A (scale {leds.last_scale:.2f})"))

    print(f"\nEvents seen in (a): {events}. A scan at 50 Hz has a 20 ms budget.")
    print("""
Bus time on the real hardware (arithmetic, not measured):

* 74HC165 chain, 280 holes: 35 chips + 1 check byte = 36 bytes = 288 bits;
  at 1 MHz SPI that is 0.29 ms on the wire, plus the latch pulse (two GPIO
  writes, ~10 us) and one spidev ioctl (~50-100 us): under 0.5 ms a scan, so
  the bus allows ~2,000 scans/s; 100 Hz uses ~5 % of it.
* MCP23017 at 400 kHz I2C: ~5 bytes (address, register, address, 2 data) of
  9 bits plus start/stop = ~50 bits = 0.125 ms per chip; 8 chips (112 holes, 14 inputs each)
  ~1 ms a scan (4 ms at 100 kHz).
* WS2812 strip: 24 bits x 1.25 us = 30 us per LED; 280 LEDs = 8.4 ms per frame
  plus the 50-300 us reset gap: at most ~115 frames/s; the companion sends
  only changed frames, 30-50 a second while something blinks.""")


if __name__ == "__main__":
    main()
