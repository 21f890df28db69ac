"""LED guidance: one WS2812 ("NeoPixel") LED under each hole, frame by frame.

``LedBoard`` is the logic: a colour and a pattern per hole, brightness, and a
current estimate that scales the whole frame down to the supply's budget. It
hands each finished frame to one narrow hook, ``FrameSink.show(pixels)``:

* ``MockStrip``     records the frames (with timestamps) for tests and ``--mock``;
* ``NeoPixelStrip`` the real strip; imports the LED library when it first shows a
  frame: Pi 1-4 through rpi_ws281x (``neopixel``/``board`` from
  adafruit-circuitpython-neopixel and Blinka), Pi 5 through the RP1's PIO
  (``adafruit_raspberry_pi5_neopixel_write`` from adafruit-blinka-raspberry-pi5-neopixel).

Roles (colour-blind safe: the pattern alone tells them apart, the hue only helps):

=============  ==============  =====================================
role           pattern         colour (Okabe-Ito palette)
=============  ==============  =====================================
can-move       slow blink 1 Hz sky blue    (86, 180, 233)
legal          steady          bluish green (0, 158, 115)
hit            pulse 1.6 s     orange      (230, 159, 0)
wrong          fast blink 2.5 Hz vermillion (213, 94, 0)
selected       steady          white       (255, 255, 255)
hint           heartbeat 1.5 s reddish purple (204, 121, 167)
want           occult 1.2 s    the wanted peg's colour
=============  ==============  =====================================

``want`` lights a hole that wants one particular peg (the move's peg, put back after a
hit or a mistake) in that peg's colour, and in a pattern no other role uses: lit, with a
short dark wink each period (a lighthouse's "occulting" light). So for a seat whose pegs are
green it can't be taken for the steady green "the peg in hand may go here" (issue 25).

``hint`` lights a hint's suggested move (issue 17.3): its peg(s) and where they go. Its
heartbeat (two short flashes, then a pause) is the one pattern no other role uses.
"""
from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

from companion.message import msg   # a driver problem is a message: pages show it in their language

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)

STEADY, SLOW_BLINK, BLINK, PULSE, HEARTBEAT = "steady", "slow-blink", "blink", "pulse", "heartbeat"
OCCULT = "occult"
PATTERNS = {STEADY: None, SLOW_BLINK: 1.0, BLINK: 0.4, PULSE: 1.6,
            HEARTBEAT: 1.5, OCCULT: 1.2}   # pattern -> default period (s)
OCCULT_DARK = 0.2    # the share of an occulting period that is dark (at its end)


@dataclass(frozen=True)
class Look:
    colour: RGB
    pattern: str = STEADY
    period: float | None = None     # None: the pattern's default


ROLES: dict[str, Look] = {
    "can-move": Look((86, 180, 233), SLOW_BLINK),
    "legal": Look((0, 158, 115), STEADY),
    "hit": Look((230, 159, 0), PULSE),
    "wrong": Look((213, 94, 0), BLINK),
    "selected": Look((255, 255, 255), STEADY),
    "hint": Look((204, 121, 167), HEARTBEAT),
    "want": Look((0, 158, 115), OCCULT),   # shown in the wanted peg's colour (LedBoard.want)
}


def pattern_level(pattern: str, t: float, period: float | None = None) -> float:
    """How lit (0-1) a pattern is ``t`` seconds after it started.

    steady: 1. blink / slow-blink: on for the first half of each period (so a new
    mark is lit at once). pulse: a smooth swell from 100 % down to 10 % and back,
    never dark, so it can't be mistaken for a blink. heartbeat: two short flashes
    (0-15 % and 25-40 % of the period), then dark. occult: lit, dark for the last 20 %
    of each period (a wink, the opposite of a flash).
    """
    if pattern == STEADY:
        return 1.0
    if pattern not in PATTERNS:
        raise ValueError(f"unknown pattern {pattern!r}; known: {', '.join(PATTERNS)}")
    period = period or PATTERNS[pattern]
    phase = (t / period) % 1.0
    if pattern == PULSE:
        return 0.1 + 0.9 * math.cos(math.pi * phase) ** 2   # starts bright
    if pattern == HEARTBEAT:
        return 1.0 if phase < 0.15 or 0.25 <= phase < 0.4 else 0.0
    if pattern == OCCULT:
        return 0.0 if phase >= 1.0 - OCCULT_DARK else 1.0
    return 1.0 if phase < 0.5 else 0.0


def estimate_current(pixels: Iterable[RGB], *, ma_per_channel: float = 20.0, idle_ma: float = 1.0) -> float:
    """Amps a frame draws: ``idle_ma`` per LED plus ``ma_per_channel`` per channel at
    full (so 3 x 20 + 1 = 61 mA for full white)."""
    total, n = 0, 0
    for r, g, b in pixels:
        total += r + g + b
        n += 1
    return (n * idle_ma + total / 255 * ma_per_channel) / 1000


def cap_current(pixels: list[RGB], budget_a: float, *, ma_per_channel: float = 20.0,
                idle_ma: float = 1.0) -> tuple[list[RGB], float]:
    """Scale the whole frame so its estimate fits ``budget_a``: (pixels, scale)."""
    total = sum(r + g + b for r, g, b in pixels)
    active_ma = total / 255 * ma_per_channel
    room_ma = budget_a * 1000 - len(pixels) * idle_ma
    if active_ma <= room_ma:
        return pixels, 1.0
    scale = max(0.0, room_ma / active_ma)
    return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in pixels], scale


# ---------------------------------------------------------------------------- sinks

class FrameSink(Protocol):
    """The one hook between the LED logic and a strip: show this frame now."""

    def show(self, pixels: list[RGB]) -> None: ...


class Frame(NamedTuple):
    timestamp: float
    pixels: tuple


class MockStrip:
    """A strip that records every frame it is shown (``frames``; ``keep`` bounds it)."""

    def __init__(self, count: int | None = None, *, clock: Callable[[], float] = time.monotonic,
                 keep: int | None = None):
        self.count = count
        self.clock = clock
        self.keep = keep
        self.frames: list[Frame] = []
        self.shown = 0
        self.closed = False

    def show(self, pixels: list[RGB]) -> None:
        if self.closed:
            raise RuntimeError("the strip is closed")
        if self.count is not None and len(pixels) != self.count:
            raise ValueError(f"frame has {len(pixels)} pixels, the strip has {self.count}")
        for i, p in enumerate(pixels):
            if len(p) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in p):
                raise ValueError(f"pixel {i} is {p!r}, not an (r, g, b) tuple of 0-255 ints")
        self.frames.append(Frame(self.clock(), tuple(tuple(p) for p in pixels)))
        self.shown += 1
        if self.keep is not None and len(self.frames) > self.keep:
            del self.frames[:len(self.frames) - self.keep]

    @property
    def last(self) -> tuple | None:
        return self.frames[-1].pixels if self.frames else None

    def close(self):
        self.closed = True


class LedDriverError(RuntimeError):
    """The real LED strip can't be driven here; the message says why and what to do."""


MODEL_PATHS = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")
# rpi_ws281x's pins here. Not GPIO10 (its SPI mode): SPI0 belongs to the 74HC165 chain, and
# that mode also wants the bus to itself and a fixed core_freq. PWM and PCM need root (/dev/mem).
WS281X_PINS = {18: "PWM0", 12: "PWM0", 21: "PCM"}


def read_pi_model(paths: Iterable[str | Path] = MODEL_PATHS) -> str | None:
    """The device-tree model string ("Raspberry Pi 5 Model B Rev 1.0"), or None."""
    for path in paths:
        try:
            text = Path(path).read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        return text.rstrip("\x00\n ").strip() or None
    return None


def pi_generation(model: str | None) -> int | None:
    """1-5 for a Raspberry Pi model string (Zero 2 W counts as 3, 400 as 4, 500 as 5)."""
    if not model or "Raspberry Pi" not in model:
        return None
    rest = model.split("Raspberry Pi", 1)[1].strip()
    if rest.startswith("Compute Module"):
        rest = rest[len("Compute Module"):].strip()
    if rest.startswith("Zero"):
        return 3 if rest.startswith("Zero 2") else 1
    digits = ""
    for ch in rest:
        if not ch.isdigit():
            break
        digits += ch
    if not digits:
        return 1            # "Raspberry Pi Model B Rev 2": the original
    n = int(digits)
    return n // 100 if n >= 100 else n   # 400 -> 4, 500 -> 5


def choose_led_driver(model: str | None) -> str:
    """"pi5" on a Pi 5 (PIO), "ws281x" on a Pi 1-4; LedDriverError elsewhere."""
    gen = pi_generation(model)
    if gen is None:
        raise LedDriverError(msg(
            "no Raspberry Pi found (device-tree model: %(model)s): the real LED strip needs a Pi; "
            "run with --mock, or set leds.driver in the wiring file", model=model or "none"))
    return "pi5" if gen >= 5 else "ws281x"


class NeoPixelStrip:
    """The real WS2812 strip. Nothing is imported or opened until the first frame."""

    def __init__(self, data_pin: int = 18, count: int = 1, pixel_order: str = "GRB", *, driver: str = "auto",
                 model_paths: Iterable[str | Path] = MODEL_PATHS, euid: int | None = None):
        self.data_pin = data_pin
        self.count = count
        self.pixel_order = pixel_order.upper()
        self.driver = driver
        self.model_paths = tuple(model_paths)
        self.euid = os.geteuid() if euid is None and hasattr(os, "geteuid") else euid
        self.model: str | None = None
        self._write = None
        self._close = None

    def show(self, pixels: list[RGB]) -> None:
        if len(pixels) != self.count:
            raise ValueError(f"frame has {len(pixels)} pixels, the strip has {self.count}")
        if self._write is None:
            self._open()
        self._write(pixels)

    def _open(self):
        self.model = read_pi_model(self.model_paths)
        driver = self.driver if self.driver != "auto" else choose_led_driver(self.model)
        where = self.model or msg("this machine")
        if driver == "pi5":
            self._open_pi5(where)
        elif driver == "ws281x":
            self._open_ws281x(where)
        else:
            raise LedDriverError(msg("leds.driver %(driver)s is not a real strip driver (auto, ws281x or pi5)",
                                     driver=repr(driver)))
        self.driver_used = driver

    def _open_ws281x(self, where):
        pin = self.data_pin
        if pin not in WS281X_PINS:
            raise LedDriverError(msg(
                "on %(where)s the strip's data line must be on GPIO18 (PWM, recommended), GPIO12 or GPIO21 "
                "(PCM), not GPIO%(pin)s: move the wire and set leds.data_pin (GPIO10, rpi_ws281x's SPI "
                "mode, is not supported: SPI0 reads the switch chain)", where=where, pin=pin))
        if self.euid not in (0, None):
            raise LedDriverError(msg(
                "the rpi_ws281x LED driver on GPIO%(pin)s (%(mode)s) needs root on a Pi 1-4 (it "
                "drives the pin by DMA through /dev/mem): the service runs as root after "
                "sudo systemd/install.sh (unless --no-pwm-root); for pegs hw-test stop the service and "
                "use sudo", pin=pin, mode=WS281X_PINS[pin]))
        try:
            import board
            import neopixel
        except ImportError as exc:
            raise LedDriverError(msg(
                "the LED strip on %(where)s needs the adafruit-circuitpython-neopixel package "
                "(with Adafruit Blinka and rpi_ws281x); missing module %(module)s: "
                "sudo pip install adafruit-circuitpython-neopixel rpi_ws281x adafruit-blinka "
                "(or pip install -e '.[pi]')", where=where, module=repr(exc.name))) from None
        strip = neopixel.NeoPixel(getattr(board, f"D{pin}"), self.count, brightness=1.0, auto_write=False,
                                  pixel_order=self.pixel_order)

        def write(pixels):
            strip[:] = pixels
            strip.show()
        self._write = write
        self._close = getattr(strip, "deinit", None)

    def _open_pi5(self, where):
        try:
            import board
            import adafruit_raspberry_pi5_neopixel_write as pi5
        except ImportError as exc:
            raise LedDriverError(msg(
                "the LED strip on %(where)s (a Pi 5: the LEDs are driven by the RP1's PIO) needs Adafruit's "
                "Pi 5 driver; missing module %(module)s: pip install adafruit-blinka-raspberry-pi5-neopixel "
                "(it provides adafruit_raspberry_pi5_neopixel_write and pulls in Blinka's board module)",
                where=where, module=repr(exc.name))) from None
        pin = getattr(board, f"D{self.data_pin}")
        order = ["RGB".index(c) for c in self.pixel_order]

        def write(pixels):
            buf = bytearray(3 * len(pixels))
            i = 0
            for p in pixels:
                buf[i], buf[i + 1], buf[i + 2] = p[order[0]], p[order[1]], p[order[2]]
                i += 3
            pi5.neopixel_write(pin, buf)
        self._write = write
        self._close = getattr(pi5, "free_pio", None)

    def close(self):
        if self._write is not None:
            try:
                self._write([OFF] * self.count)
            finally:
                if self._close is not None:
                    self._close()
                self._write = None


class BackgroundStrip:
    """Writes frames to a slow strip from a thread of its own, off the switch-scan path.

    Blinka's Pi 1-4 NeoPixel write sleeps about 1 ms per 100 bytes after each frame (9 ms for
    280 LEDs), and a pulsing or blinking mark makes a new frame nearly every tick: written in
    the scan loop that halves the scan rate. ``show()`` here only hands over the newest frame
    and returns; the writer sends it, at most ``max_fps`` a second, skipping frames it had no
    time for (only the newest matters) and frames equal to the last one written.

    The first frame is written in the caller's thread, so a driver that can't load (not
    installed, no root) fails where the board is opened and is diagnosed there. An error in
    the writer thread is raised by the next ``show()``.
    """

    def __init__(self, sink: FrameSink, *, max_fps: float = 50.0, name: str = "led-writer"):
        self.sink = sink
        self.min_interval = 1.0 / max_fps
        self.written = 0                # frames sent to the sink
        self.skipped = 0                # frames replaced by a newer one before they were sent
        self._cond = threading.Condition()
        self._pending: list[RGB] | None = None
        self._last: list[RGB] | None = None
        self._error: BaseException | None = None
        self._busy = False              # the writer is sending a frame now
        self._closing = False
        self._thread = None
        self._name = name

    @property
    def count(self):
        return getattr(self.sink, "count", None)

    def show(self, pixels: list[RGB]) -> None:
        pixels = list(pixels)
        if self._thread is None:
            self.sink.show(pixels)      # the driver opens here: its errors reach the caller
            self._last = pixels
            self.written += 1
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()
            return
        with self._cond:
            if self._error is not None:
                raise LedDriverError(msg("the LED strip stopped: %(error)s", error=str(self._error))) from self._error
            if self._closing:
                raise RuntimeError("the strip is closed")
            if self._pending is not None:
                self.skipped += 1
            self._pending = pixels
            self._cond.notify()

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until the newest frame has been written (tests, close)."""
        end = time.monotonic() + timeout
        with self._cond:
            while (self._pending is not None or self._busy) and self._error is None and self._thread is not None:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _run(self):
        next_at = time.monotonic()
        while True:
            with self._cond:
                while self._pending is None and not self._closing:
                    self._cond.wait()
                if self._pending is None:
                    return
            delay = next_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)           # the frame cap; a newer frame may replace the pending one meanwhile
            with self._cond:
                pixels, self._pending = self._pending, None
                self._busy = True
            try:
                if pixels is not None and pixels != self._last:
                    self.sink.show(pixels)
                    self.written += 1
                    self._last = pixels
            except BaseException as exc:   # noqa: BLE001 - handed to the caller's next show()
                with self._cond:
                    self._error = exc
                    self._busy = False
                    self._cond.notify_all()
                return
            next_at = time.monotonic() + self.min_interval
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def close(self):
        if self._thread is not None:
            self.flush()
            with self._cond:
                self._closing = True
                self._cond.notify_all()
            self._thread.join(timeout=2.0)
        close = getattr(self.sink, "close", None)
        if close:
            close()


# ---------------------------------------------------------------------------- the logic

class LedBoard:
    """Colours and patterns per hole, rendered into frames for a ``FrameSink``.

    ``brightness`` (0 to ``max_brightness``) scales everything; then, if a frame's
    estimated current is over ``current_budget_a``, the whole frame is scaled down
    to fit (hues stay the same, the board just dims). Call ``update()`` from a loop
    (30-50 times a second); it renders with the injected clock and only sends
    frames that changed.
    """

    def __init__(self, led_map: Mapping[str, int], count: int, sink: FrameSink, *,
                 clock: Callable[[], float] = time.monotonic, brightness: float | None = None,
                 max_brightness: float = 1.0, current_budget_a: float | None = None,
                 ma_per_channel: float = 20.0, idle_ma: float = 1.0, roles: Mapping[str, Look] | None = None):
        self.led_map = dict(led_map)
        self.count = count
        self.sink = sink
        self.clock = clock
        self.max_brightness = max_brightness
        self._brightness = max_brightness if brightness is None else min(brightness, max_brightness)
        self.current_budget_a = current_budget_a
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.roles = dict(ROLES if roles is None else roles)
        self._looks: dict[int, tuple[Look, float, float | None]] = {}   # index -> (look, since, until)
        self._sent: list[RGB] | None = None
        self.last_current_a = 0.0       # estimate of the last rendered frame, after capping
        self.last_uncapped_a = 0.0      # ... before capping
        self.last_scale = 1.0           # the cap's scale factor (1.0: not capped)

    @classmethod
    def from_wiring(cls, wiring, sink: FrameSink, **kw) -> LedBoard:
        led = wiring.leds
        return cls(led.map, led.count, sink, max_brightness=led.brightness, current_budget_a=led.current_budget_a,
                   ma_per_channel=led.ma_per_channel, idle_ma=led.idle_ma, **kw)

    # brightness
    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float):
        self._brightness = max(0.0, min(float(value), self.max_brightness))

    # setting looks
    def index_of(self, hole: str) -> int:
        try:
            return self.led_map[hole]
        except KeyError:
            raise KeyError(f"{hole} has no LED in the wiring") from None

    def set(self, hole: str, colour: RGB, pattern: str = STEADY, *, period: float | None = None,
            duration: float | None = None, now: float | None = None):
        """Light ``hole`` in ``colour`` with ``pattern``; ``duration`` s later it goes dark."""
        self.set_index(self.index_of(hole), colour, pattern, period=period, duration=duration, now=now)

    def set_index(self, index: int, colour: RGB, pattern: str = STEADY, *, period: float | None = None,
                  duration: float | None = None, now: float | None = None):
        if not 0 <= index < self.count:
            raise IndexError(f"LED {index} is off the strip (0-{self.count - 1})")
        if pattern not in PATTERNS:
            raise ValueError(f"unknown pattern {pattern!r}; known: {', '.join(PATTERNS)}")
        now = self.clock() if now is None else now
        self._looks[index] = (Look(tuple(colour), pattern, period), now,
                              None if duration is None else now + duration)

    def mark(self, holes: Iterable[str], role: str, *, duration: float | None = None, now: float | None = None):
        """Show ``role`` ("can-move", "legal", "hit", "wrong", "selected") on ``holes``."""
        try:
            look = self.roles[role]
        except KeyError:
            raise ValueError(f"unknown role {role!r}; known: {', '.join(self.roles)}") from None
        now = self.clock() if now is None else now
        for hole in holes:
            self.set(hole, look.colour, look.pattern, period=look.period, duration=duration, now=now)

    def want(self, holes: Iterable[str], colour: RGB, *, duration: float | None = None,
             now: float | None = None):
        """Light ``holes`` as wanting one particular peg: that peg's ``colour`` in the want
        role's own pattern (occulting), never the steady look of "legal" even in green."""
        look = self.roles["want"]
        now = self.clock() if now is None else now
        for hole in holes:
            self.set(hole, colour, look.pattern, period=look.period, duration=duration, now=now)

    def clear(self, holes: Iterable[str] | None = None):
        """Darken ``holes`` (all LEDs if None)."""
        if holes is None:
            self._looks.clear()
        else:
            for hole in holes:
                self._looks.pop(self.index_of(hole), None)

    def clear_index(self, index: int):
        self._looks.pop(index, None)

    def marks(self, now: float | None = None) -> dict[str, dict]:
        """What each lit hole shows now: {hole: {"colour", "pattern", "period", "role",
        "since"}} (role None for a colour set by hand). The looks, not a rendered
        frame: a mirror of the board (the web page's virtual board) animates the
        patterns itself. Marks whose duration is over are left out."""
        now = self.clock() if now is None else now
        holes: dict[int, list[str]] = {}
        for hole, i in self.led_map.items():
            holes.setdefault(i, []).append(hole)
        by_look = {look: role for role, look in self.roles.items()}
        out = {}
        for index, (look, since, until) in list(self._looks.items()):
            if until is not None and now >= until:
                continue
            info = {"colour": look.colour, "pattern": look.pattern,
                    "period": look.period or PATTERNS[look.pattern], "role": by_look.get(look),
                    "since": since}
            for hole in holes.get(index, ()):
                out[hole] = info
        return out

    # frames
    def render(self, now: float | None = None) -> list[RGB]:
        """The frame for time ``now``: patterns, brightness, then the current cap."""
        now = self.clock() if now is None else now
        pixels = [OFF] * self.count
        b = self._brightness
        for index, (look, since, until) in list(self._looks.items()):
            if until is not None and now >= until:
                del self._looks[index]
                continue
            f = b * pattern_level(look.pattern, now - since, look.period)
            if f > 0:
                r, g, bl = look.colour
                pixels[index] = (round(r * f), round(g * f), round(bl * f))
        kw = dict(ma_per_channel=self.ma_per_channel, idle_ma=self.idle_ma)
        self.last_uncapped_a = estimate_current(pixels, **kw)
        self.last_scale = 1.0
        if self.current_budget_a is not None and self.last_uncapped_a > self.current_budget_a:
            pixels, self.last_scale = cap_current(pixels, self.current_budget_a, **kw)
            self.last_current_a = estimate_current(pixels, **kw)
        else:
            self.last_current_a = self.last_uncapped_a
        return pixels

    def update(self, now: float | None = None, force: bool = False) -> bool:
        """Render and send the frame if it differs from the last one sent (or ``force``)."""
        pixels = self.render(now)
        if not force and pixels == self._sent:
            return False
        self.sink.show(pixels)
        self._sent = pixels
        return True

    def close(self):
        """Dark frame (unless nothing was ever sent: a driver that never loaded), then close the sink."""
        try:
            if self._sent is not None:
                self.sink.show([OFF] * self.count)
        finally:
            close = getattr(self.sink, "close", None)
            if close:
                close()


def open_strip(wiring, *, mock: bool = False, clock: Callable[[], float] = time.monotonic,
               model_paths: Iterable[str | Path] = MODEL_PATHS) -> FrameSink:
    """The wiring's strip: a ``MockStrip`` if ``mock`` or leds.driver = "mock", else a
    ``NeoPixelStrip`` (which imports its library at the first frame) written from a
    ``BackgroundStrip`` thread, so that LED writes never hold up the switch scan."""
    led = wiring.leds
    if mock or led.driver == "mock":
        return MockStrip(led.count, clock=clock, keep=1000)
    return BackgroundStrip(NeoPixelStrip(led.data_pin, led.count, led.pixel_order, driver=led.driver,
                                         model_paths=model_paths))
