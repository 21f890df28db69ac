"""LED logic: frames recorded by MockStrip, patterns over (injected) time, brightness, the
current cap; the real NeoPixel driver's lazy import, Pi 4 / Pi 5 detection and messages."""
from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

from hardware.config import load_wiring
from hardware.devices import Hardware
from hardware.leds import (BLINK, HEARTBEAT, OFF, PULSE, ROLES, SLOW_BLINK, STEADY, BackgroundStrip, LedBoard,
                           LedDriverError, MockStrip,
                           NeoPixelStrip, cap_current, choose_led_driver, estimate_current, open_strip,
                           pattern_level, pi_generation, read_pi_model)

RED = (255, 0, 0)


@pytest.fixture
def wiring():
    return load_wiring("")


@pytest.fixture
def leds(wiring, clock):
    strip = MockStrip(wiring.leds.count, clock=clock)
    return LedBoard(wiring.leds.map, wiring.leds.count, strip, clock=clock)


# ------------------------------------------------------------------ frames

def test_mock_strip_records_frames_with_timestamps(clock):
    strip = MockStrip(3, clock=clock)
    strip.show([RED, (0, 0, 0), (1, 2, 3)])
    clock.advance(0.5)
    strip.show([(0, 0, 0)] * 3)
    assert [f.timestamp for f in strip.frames] == [100.0, 100.5]
    assert strip.frames[0].pixels == (RED, (0, 0, 0), (1, 2, 3))
    assert strip.last == ((0, 0, 0),) * 3
    with pytest.raises(ValueError, match="frame has 2 pixels, the strip has 3"):
        strip.show([RED, RED])
    with pytest.raises(ValueError, match="pixel 1 is"):
        strip.show([RED, (256, 0, 0), RED])


def test_steady_hole_and_only_changed_frames_are_sent(leds, clock):
    leds.set("M5", RED)
    assert leds.update() is True
    frame = leds.sink.last
    assert frame[5] == RED and sum(map(sum, frame)) == 255
    clock.advance(1)
    assert leds.update() is False                # nothing changed: the strip isn't rewritten
    assert leds.update(force=True) is True
    assert len(leds.sink.frames) == 2
    leds.clear(["M5"])
    leds.update()
    assert leds.sink.last[5] == (0, 0, 0)


def test_brightness_scales_and_is_capped(wiring, clock):
    strip = MockStrip(wiring.leds.count, clock=clock)
    leds = LedBoard.from_wiring(wiring, strip, clock=clock)       # wiring cap: 0.5
    assert leds.brightness == 0.5
    leds.brightness = 0.9
    assert leds.brightness == 0.5
    leds.brightness = 0.2
    leds.set("H1-s0", (200, 100, 50))
    assert leds.render()[wiring.leds.map["H1-s0"]] == (40, 20, 10)


def test_roles_and_errors(leds):
    leds.mark(["M1", "M2"], "legal")
    frame = leds.render()
    assert frame[1] == frame[2] == ROLES["legal"].colour
    with pytest.raises(ValueError, match="unknown role 'good'"):
        leds.mark(["M1"], "good")
    with pytest.raises(ValueError, match="unknown pattern 'strobe'"):
        leds.set("M1", RED, "strobe")
    with pytest.raises(KeyError, match="M99 has no LED"):
        leds.set("M99", RED)
    with pytest.raises(IndexError, match="LED 500 is off the strip"):
        leds.set_index(500, RED)


# ------------------------------------------------------------------ patterns over time

def levels(pattern, times, period=None):
    return [pattern_level(pattern, t, period) for t in times]


def test_pattern_shapes():
    ts = [i / 100 for i in range(200)]
    assert set(levels(STEADY, ts)) == {1.0}
    blink = levels(BLINK, ts)
    assert set(blink) == {0.0, 1.0} and blink[0] == 1.0          # a new mark is lit at once
    assert blink[:20] == [1.0] * 20 and blink[20:40] == [0.0] * 20   # 0.4 s period: 2.5 flashes a second
    slow = levels(SLOW_BLINK, ts)
    assert slow[:50] == [1.0] * 50 and slow[50:100] == [0.0] * 50
    pulse = levels(PULSE, ts)
    assert min(pulse) >= 0.1 and max(pulse) == 1.0 and pulse[0] == 1.0   # never dark: not a blink
    assert len(set(round(p, 3) for p in pulse)) > 50                    # smooth, not on/off
    assert max(abs(a - b) for a, b in zip(pulse, pulse[1:])) < 0.05


def test_patterns_tell_roles_apart_without_hue(leds, clock):
    """Colour-blind safe: with the hue thrown away (brightness only), legal, wrong, hit and
    can-move still look different over time."""
    leds.brightness = 1.0
    leds.mark(["M1"], "legal")
    leds.mark(["M2"], "wrong")
    leds.mark(["M3"], "hit")
    leds.mark(["M4"], "can-move")
    frames = []
    for _ in range(100):                       # 2 s at 50 frames a second
        frames.append(leds.render())
        clock.advance(0.02)
    def on_off(i):
        return [max(p[i]) > 0 for p in frames]
    assert all(on_off(1))                                          # legal: steady, always on
    assert not all(on_off(2)) and any(on_off(2))                   # wrong: blinks
    assert all(on_off(3)) and len({max(p[3]) for p in frames}) > 5 # hit: always on, swelling
    flips = lambda xs: sum(a != b for a, b in zip(xs, xs[1:]))     # noqa: E731
    assert flips(on_off(2)) >= 2 * flips(on_off(4)) > 0            # wrong blinks faster than can-move


def test_the_hint_look_differs_from_every_other_role_by_pattern_alone(leds, clock):
    """Issue 17.3: the hint's heartbeat (two short flashes, a pause) is told apart from every
    other role with the hue thrown away, and its colour is none of theirs."""
    assert ROLES["hint"].colour not in {look.colour for role, look in ROLES.items() if role != "hint"}
    leds.brightness = 1.0
    roles = ["hint", "can-move", "legal", "hit", "wrong", "selected"]
    for i, role in enumerate(roles):
        leds.mark([f"M{i}"], role)
    frames = []
    for _ in range(150):                       # 3 s at 50 frames a second
        frames.append(leds.render())
        clock.advance(0.02)
    shape = {role: tuple(max(p[i]) > 0 for p in frames) if role != "hit" else
             tuple(max(p[i]) for p in frames) for i, role in enumerate(roles)}
    hint = shape["hint"]
    assert sum(a != b for a, b in zip(hint, hint[1:])) >= 6        # two flashes a beat, two beats
    assert hint[0] and sum(hint) < 0.5 * len(hint)                 # lit at once, dark most of the time
    on_hint = tuple(max(p[0]) > 0 for p in frames)
    for role in roles[1:]:
        other = shape[role] if role != "hit" else tuple(v > 0 for v in shape[role])
        assert on_hint != other, role
    assert levels(HEARTBEAT, [0.0, 0.3, 0.5, 1.0]) == [1.0, 0.0, 1.0, 0.0]   # 1.5 s: on, off, on, off


def test_marks_tell_a_mirror_what_each_hole_shows(leds, clock):
    leds.mark(["M12"], "legal")
    leds.mark(["M3"], "wrong", duration=1.0)
    leds.set("H2-s1", RED, PULSE)
    m = leds.marks()
    assert m["M12"]["role"] == "legal" and m["M12"]["pattern"] == STEADY and m["M12"]["colour"] == (0, 158, 115)
    assert m["M3"]["role"] == "wrong" and m["M3"]["pattern"] == BLINK and m["M3"]["period"] == 0.4
    assert m["H2-s1"]["role"] is None and m["H2-s1"]["pattern"] == PULSE
    clock.advance(1.0)
    assert "M3" not in leds.marks() and set(leds.marks()) == {"M12", "H2-s1"}


def test_mark_with_duration_goes_dark(leds, clock):
    leds.mark(["M7"], "wrong", duration=1.0)
    assert leds.render()[7] != (0, 0, 0)
    clock.advance(1.0)
    assert leds.render()[7] == (0, 0, 0)


def test_blink_frames_are_timestamped_by_the_injected_clock(leds, clock):
    leds.set("M0", RED, BLINK)
    for _ in range(4):
        leds.update()
        clock.advance(0.2)
    assert [(f.timestamp - 100.0, f.pixels[0]) for f in leds.sink.frames] == [
        (0.0, RED), (pytest.approx(0.2), (0, 0, 0)), (pytest.approx(0.4), RED), (pytest.approx(0.6), (0, 0, 0))]


# ------------------------------------------------------------------ current

def test_current_estimate():
    assert estimate_current([(255, 255, 255)]) == pytest.approx(0.061)
    assert estimate_current([(0, 0, 0)] * 280) == pytest.approx(0.28)
    assert estimate_current([(255, 255, 255)] * 280) == pytest.approx(16.8 + 0.28)   # why the cap matters
    assert estimate_current([(255, 0, 0)] * 10) == pytest.approx(0.21)


def test_frame_over_budget_is_scaled_as_a_whole(clock):
    w = load_wiring("[leds]\nbrightness = 1.0\ncurrent_budget_a = 4.0\n", 10, 18)
    strip = MockStrip(280, clock=clock)
    leds = LedBoard.from_wiring(w, strip, clock=clock)
    for hole in w.leds.map:
        leds.set(hole, (255, 255, 255))
    leds.set("M0", (255, 128, 0))
    leds.update()
    assert leds.last_uncapped_a == pytest.approx(17.08 - (127 + 255) / 255 * 0.02, abs=1e-6)
    assert leds.last_current_a <= 4.0
    assert leds.last_current_a > 3.9                         # uses the budget, doesn't over-dim
    assert leds.last_scale == pytest.approx((4000 - 280) / (16800 - (127 + 255) / 255 * 20), rel=1e-6)
    frame = strip.last
    r, g, b = frame[1]
    assert r == g == b and 50 < r < 60                        # white stays white, just dimmer
    r0, g0, b0 = frame[0]
    assert b0 == 0 and g0 == pytest.approx(r0 / 2, abs=1)     # hue kept


def test_cap_leaves_frames_under_budget_alone():
    pixels = [(10, 10, 10)] * 5
    assert cap_current(pixels, 1.0) == (pixels, 1.0)
    assert cap_current([(255, 255, 255)] * 10, 0.005)[0] == [(0, 0, 0)] * 10   # only idle fits


# ------------------------------------------------------------------ real driver: detection and lazy import

def model_file(tmp_path, text):
    f = tmp_path / "model"
    f.write_bytes(text.encode() + b"\x00")
    return [f]


@pytest.mark.parametrize("model,gen,driver", [
    ("Raspberry Pi 5 Model B Rev 1.0", 5, "pi5"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", 5, "pi5"),
    ("Raspberry Pi 500 Rev 1.0", 5, "pi5"),
    ("Raspberry Pi 4 Model B Rev 1.4", 4, "ws281x"),
    ("Raspberry Pi 400 Rev 1.0", 4, "ws281x"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", 3, "ws281x"),
    ("Raspberry Pi Zero 2 W Rev 1.0", 3, "ws281x"),
    ("Raspberry Pi Zero W Rev 1.1", 1, "ws281x"),
    ("Raspberry Pi Model B Rev 2", 1, "ws281x"),
])
def test_pi_model_detection(tmp_path, model, gen, driver):
    paths = [tmp_path / "missing"] + model_file(tmp_path, model)   # first path absent: falls back
    assert read_pi_model(paths) == model
    assert pi_generation(model) == gen
    assert choose_led_driver(model) == driver


def test_not_a_pi(tmp_path):
    assert read_pi_model([tmp_path / "none"]) is None
    with pytest.raises(LedDriverError, match="no Raspberry Pi found.*--mock"):
        choose_led_driver(None)
    with pytest.raises(LedDriverError, match="no Raspberry Pi found"):
        NeoPixelStrip(18, 2, model_paths=[tmp_path / "none"]).show([RED, RED])


def hide_modules(monkeypatch, *names):
    for name in names:
        monkeypatch.setitem(sys.modules, name, None)     # "import name" now raises ImportError


def test_missing_pi4_driver_names_the_package(tmp_path, monkeypatch):
    hide_modules(monkeypatch, "neopixel", "board")
    strip = NeoPixelStrip(18, 2, model_paths=model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.4"), euid=0)
    with pytest.raises(LedDriverError, match=r"adafruit-circuitpython-neopixel.*pip install"):
        strip.show([RED, RED])


def test_missing_pi5_driver_names_the_package(tmp_path, monkeypatch):
    hide_modules(monkeypatch, "adafruit_raspberry_pi5_neopixel_write")
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(D18=types.SimpleNamespace(id=18)))
    strip = NeoPixelStrip(18, 2, model_paths=model_file(tmp_path, "Raspberry Pi 5 Model B Rev 1.0"))
    with pytest.raises(LedDriverError,
                       match=r"Pi 5.*pip install adafruit-blinka-raspberry-pi5-neopixel"):
        strip.show([RED, RED])


def test_pi4_pwm_needs_root_and_a_capable_pin(tmp_path):
    pi4 = model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.4")
    with pytest.raises(LedDriverError, match="needs root on a Pi 1-4") as err:
        NeoPixelStrip(18, 1, model_paths=pi4, euid=1000).show([RED])
    assert "GPIO10" not in str(err.value) and "sudo" in str(err.value)
    with pytest.raises(LedDriverError, match="GPIO18 \\(PWM, recommended\\).*not GPIO17"):
        NeoPixelStrip(17, 1, model_paths=pi4, euid=0).show([RED])


def test_gpio10_is_no_longer_offered_for_the_leds(tmp_path):
    """rpi_ws281x's SPI mode (GPIO10) needs SPI0 to itself, which the 74HC165 chain uses: the
    "no root: move the data line to GPIO10" advice is gone, and the pin is refused."""
    pi4 = model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.4")
    with pytest.raises(LedDriverError, match="GPIO10, rpi_ws281x's SPI mode, is not supported"):
        NeoPixelStrip(10, 1, model_paths=pi4, euid=1000).show([RED])
    repo = Path(__file__).resolve().parents[2]
    for path in ("hardware/leds.py", "hardware/diagnose.py", "systemd/pwm-root.conf", "systemd/README.md",
                 "systemd/pegs-companion.service", "hardware/wiring.example.toml", "systemd/config.example.toml",
                 "hardware/README.md"):
        text = (repo / path).read_text()
        assert "GPIO10 (SPI) works" not in text and "or wire the data line to GPIO10" not in text, path
        assert "move the LED data wire to GPIO10" not in text and "GPIO10 over SPI does not" not in text, path
        assert "GPIO10 (SPI) works without root" not in text and "12, 21 or 10" not in text, path


class FakeWs281x(types.ModuleType):
    """The C extension ``_rpi_ws281x`` (rpi_ws281x's SWIG module): records every call."""

    SUCCESS, STRIP_RGB = 0, 0x00100800

    def __init__(self, init_result=0):
        super().__init__("_rpi_ws281x")
        self.calls = []
        self.init_result = init_result
        self.WS2811_SUCCESS, self.WS2811_STRIP_RGB, self.SK6812_STRIP_RGBW = 0, self.STRIP_RGB, 0x18100800
        self.gpionum = {}
        self.leds = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def call(*args):
            self.calls.append((name, *args))
            if name == "new_ws2811_t":
                return "strip"
            if name == "ws2811_channel_get":
                return f"channel{args[1]}"
            if name == "ws2811_channel_t_gpionum_set":
                self.gpionum[args[0]] = args[1]
            if name == "ws2811_channel_t_gpionum_get":
                return self.gpionum[args[0]]
            if name == "ws2811_channel_t_strip_type_get":
                return self.STRIP_RGB
            if name == "ws2811_led_set":
                self.leds[args[1]] = args[2]
            if name == "ws2811_init":
                return self.init_result
            if name == "ws2811_get_return_t_str":
                return "error"
            return 0
        return call


@pytest.fixture
def real_neopixel(monkeypatch):
    """Adafruit's real ``neopixel`` and Blinka's pure-Python ``neopixel_write`` (platform
    detection forced to a Pi 4, bcm283x's rpi_ws281x driver code), over a recording fake of
    the C extension ``_rpi_ws281x`` and fakes of Blinka's pin layer (``board``, ``digitalio``,
    ``microcontroller``: on a PC it would need libgpiod)."""
    import importlib.util
    if importlib.util.find_spec("neopixel") is None:
        pytest.skip("needs adafruit-circuitpython-neopixel (the dev extra)")
    before = set(sys.modules)
    for name in [m for m in sys.modules if m in ("neopixel", "neopixel_write", "adafruit_pixelbuf")
                 or m.startswith("adafruit_blinka")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setenv("BLINKA_FORCEBOARD", "RASPBERRY_PI_4B")
    monkeypatch.setenv("BLINKA_FORCECHIP", "BCM2XXX")
    ws = FakeWs281x()
    monkeypatch.setitem(sys.modules, "_rpi_ws281x", ws)
    pins = {n: types.SimpleNamespace(id=n) for n in (12, 18, 21)}
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(**{f"D{n}": p for n, p in pins.items()}))

    class DigitalInOut:
        def __init__(self, pin):
            self._pin, self.direction = pin, None

        def deinit(self):
            pass
    monkeypatch.setitem(sys.modules, "digitalio", types.SimpleNamespace(
        DigitalInOut=DigitalInOut, Direction=types.SimpleNamespace(OUTPUT="output")))
    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(Pin=object))
    import adafruit_blinka.agnostic as agnostic
    # /proc/cpuinfo's Revision: a Pi 4B (c03114)
    monkeypatch.setattr(agnostic.detector, "get_cpuinfo_field", lambda f: "c03114" if f == "Revision" else None)
    yield ws
    for name in set(sys.modules) - before:
        sys.modules.pop(name, None)


def test_pi4_driver_runs_the_real_neopixel_and_blinka_code(tmp_path, real_neopixel):
    ws = real_neopixel
    strip = NeoPixelStrip(18, 3, "GRB", model_paths=model_file(tmp_path, "Raspberry Pi 4 Model B"), euid=0)
    strip.show([RED, (0, 0, 9), (1, 2, 3)])
    import neopixel
    assert neopixel.__file__.endswith("site-packages/neopixel.py")       # Adafruit's, not a stand-in
    assert ("ws2811_channel_t_gpionum_set", "channel0", 18) in ws.calls   # PWM0 channel on GPIO18
    assert ("ws2811_channel_t_count_set", "channel0", 3) in ws.calls
    assert ("ws2811_t_freq_set", "strip", 800000) in ws.calls
    # Blinka packs the wire-order bytes (G, R, B here) as 0xAABBCC for an RGB-typed channel
    assert ws.leds == {0: 0x00FF00, 1: 0x000009, 2: 0x020103}
    assert [c[0] for c in ws.calls].count("ws2811_render") == 1
    strip.show([OFF, OFF, (255, 255, 255)])
    assert ws.leds == {0: 0, 1: 0, 2: 0xFFFFFF}
    assert [c[0] for c in ws.calls].count("ws2811_init") == 1             # one init, two renders
    assert strip.driver_used == "ws281x"


def test_pi4_driver_without_root_fails_with_blinkas_sudo_message_diagnosed(tmp_path, real_neopixel):
    """euid unknown (None) lets the real code run: ws2811_init's -5 is Blinka's "requires running
    with sudo", which the diagnosis turns into what to do."""
    from hardware.diagnose import diagnose_strip
    real_neopixel.init_result = -5
    strip = NeoPixelStrip(18, 2, model_paths=model_file(tmp_path, "Raspberry Pi 4 Model B"), euid=None)
    with pytest.raises(RuntimeError, match="sudo") as err:
        strip.show([RED, RED])
    pi4 = model_file(tmp_path, "Raspberry Pi 4 Model B")
    problem = diagnose_strip(err.value, load_wiring(""), dev=tmp_path, model_paths=pi4)
    assert "needs root" in problem.what and "--pwm-root" in problem.fix and "GPIO10" not in problem.fix


def test_led_writes_leave_the_scan_loop_at_once(tmp_path, real_neopixel, monkeypatch):
    """Blinka's Pi 1-4 write sleeps ~1 ms per 100 bytes: 9 ms a frame for 280 LEDs. Through the
    BackgroundStrip the scan loop's show() returns at once; the newest frame still arrives.
    Counted, not timed: which thread Blinka's write sleeps in (a loaded machine can't change it)."""
    import threading
    import time as _time
    from adafruit_blinka.microcontroller.bcm283x import neopixel as blinka_neopixel
    slept = []   # (thread, seconds) of each of Blinka's sleeps
    real_sleep = _time.sleep

    def sleep(seconds):
        slept.append((threading.current_thread(), seconds))
        real_sleep(seconds)
    monkeypatch.setattr(blinka_neopixel.time, "sleep", sleep)
    caller = threading.current_thread()
    pi4 = model_file(tmp_path, "Raspberry Pi 4 Model B")
    direct = NeoPixelStrip(18, 280, model_paths=pi4, euid=0)
    frames = [[(i, 0, 0)] * 280 for i in range(12)]
    for f in frames[:4]:
        direct.show(f)
    assert [t for t, _ in slept] == [caller] * 4 and min(s for _, s in slept) >= 0.008   # in the caller
    import neopixel_write
    neopixel_write._neopixel.neopixel_cleanup()
    strip = BackgroundStrip(NeoPixelStrip(18, 280, model_paths=pi4, euid=0), max_fps=50)
    strip.show(frames[0])                                      # opens the driver, in the caller
    slept.clear()
    for f in frames[1:]:
        strip.show(f)
    assert strip.flush()
    assert slept and all(t is not caller for t, _ in slept)     # every write's sleep off the scan loop
    assert real_neopixel.leds[279] == 11 << 8                  # the newest frame (red 11 -> G, R, B)
    assert strip.written + strip.skipped == len(frames) and strip.skipped > 0
    strip.close()


def test_background_strip_sends_only_changed_frames_and_reports_errors():
    class Sink:
        count = 2

        def __init__(self):
            self.frames, self.fail = [], False

        def show(self, pixels):
            if self.fail:
                raise OSError("DMA gone")
            self.frames.append(list(pixels))
    sink = Sink()
    strip = BackgroundStrip(sink, max_fps=1000)
    assert strip.count == 2
    strip.show([RED, OFF])
    strip.show([RED, OFF])                       # same again: not written
    assert strip.flush() and sink.frames == [[RED, OFF]]
    strip.show([OFF, RED])
    assert strip.flush() and sink.frames[-1] == [OFF, RED]
    sink.fail = True
    strip.show([RED, RED])
    strip.flush()
    with pytest.raises(LedDriverError, match="the LED strip stopped: DMA gone"):
        strip.show([OFF, OFF])
    strip.close()


def test_pi5_driver_writes_wire_order_bytes(tmp_path, monkeypatch):
    writes = []
    pin18 = types.SimpleNamespace(id=18)
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(D18=pin18))
    monkeypatch.setitem(sys.modules, "adafruit_raspberry_pi5_neopixel_write", types.SimpleNamespace(
        neopixel_write=lambda pin, buf: writes.append((pin, bytes(buf))), free_pio=lambda: writes.append("free")))
    strip = NeoPixelStrip(18, 2, "GRB", model_paths=model_file(tmp_path, "Raspberry Pi 5 Model B Rev 1.0"))
    strip.show([(1, 2, 3), (255, 0, 16)])
    assert writes == [(pin18, bytes([2, 1, 3, 0, 255, 16]))]     # G, R, B per LED
    strip.close()
    assert writes[-2] == (pin18, bytes(6)) and writes[-1] == "free"   # dark, then PIO released
    assert strip.driver_used == "pi5"


def test_open_strip_chooses_lazily(wiring, tmp_path):
    assert isinstance(open_strip(wiring, mock=True), MockStrip)
    assert isinstance(open_strip(load_wiring('[leds]\ndriver = "mock"\n')), MockStrip)
    real = open_strip(wiring, model_paths=[tmp_path / "none"])
    assert isinstance(real, BackgroundStrip)                          # writes off the scan path
    assert isinstance(real.sink, NeoPixelStrip) and real.sink._write is None   # nothing touched yet


def test_hardware_facade_opens_devices_at_first_use(wiring, clock):
    hw = Hardware(wiring, mock=True, clock=clock)
    assert not {"sensor", "leds", "strip", "mock_board"} & set(vars(hw))
    hw.leds.mark(["M3"], "legal")
    assert isinstance(hw.strip, MockStrip) and "sensor" not in vars(hw)
    hw.poll()
    hw.mock_board.place("M3")
    events = []
    for _ in range(5):
        clock.advance(0.01)
        events += hw.poll()
    assert [e.hole for e in events] == ["M3"]
    assert hw.strip.last[3] == tuple(round(c * 0.5) for c in ROLES["legal"].colour)   # brightness cap 0.5
    strip = hw.strip
    hw.close()
    assert strip.closed and strip.last == ((0, 0, 0),) * 112


def test_importing_hardware_loads_no_device_library():
    code = ("import sys, hardware, hardware.config, hardware.leds, hardware.cli, hardware.devices, "
            "hardware.sensors; bad = [m for m in ('neopixel', 'board', 'RPi', 'smbus2', "
            "'adafruit_raspberry_pi5_neopixel_write', 'rpi_ws281x') if m in sys.modules]; "
            "print(bad); sys.exit(bool(bad))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_wiring_mock_flag_chooses_the_emulation(clock):
    hw = Hardware(load_wiring("mock = true\n"), clock=clock)
    assert hw.mock and isinstance(hw.strip, MockStrip) and hw.mock_board is not None
    assert Hardware(load_wiring(""), clock=clock).mock_board is None
    hw.close()


def test_hardware_run_loop_polls_until_stopped(clock):
    import threading
    hw = Hardware(load_wiring(""), mock=True, clock=clock)
    stop, events, sleeps = threading.Event(), [], []
    hw.poll()
    hw.mock_board.place("H2-s1")

    def sleep(seconds):
        sleeps.append(seconds)
        clock.advance(seconds)
        if len(sleeps) == 10:
            stop.set()
    hw.run(events.append, stop, sleep=sleep)
    assert [(e.hole, e.occupied) for e in events] == [("H2-s1", True)]
    assert sleeps == [pytest.approx(0.01)] * 10          # sensors.scan_hz = 100
    hw.close()


# ------------------------------------------------------------------ a hole that wants one peg (issue 25)

def _pixels_seen(leds, clock, holes, seconds=2.4, fps=50):
    """Run the LED loop at `fps` for `seconds`: each hole's pixel as the strip last received
    it, at every step (a frame is sent only when it changed)."""
    out = {h: [] for h in holes}
    for _ in range(round(seconds * fps)):
        leds.update()
        for h in holes:
            out[h].append(leds.sink.last[leds.index_of(h)])
        clock.advance(1 / fps)
    return out


def test_a_hole_that_wants_a_green_peg_is_never_the_steady_green_of_legal(leds, clock):
    # a seat whose pegs are green: its wanted hole in its own green, beside a "legal" hole
    green = (46, 158, 62)
    leds.want(["M10"], green)
    leds.mark(["M12"], "legal")
    seen = _pixels_seen(leds, clock, ["M10", "M12"])
    want, legal = seen["M10"], seen["M12"]
    assert set(legal) == {ROLES["legal"].colour}                 # legal: always lit, steady
    assert set(want) == {green, OFF}                              # want: the peg's colour, and dark
    dark = want.count(OFF) / len(want)
    assert 0.15 <= dark <= 0.25                                   # a short wink (20 % of each period)
    # the wink repeats: two dark runs in 2.4 s (1.2 s period), each starting after a lit stretch
    runs = [k for k in range(1, len(want)) if want[k] == OFF and want[k - 1] != OFF]
    assert len(runs) == 2 and all(want[k - 1] == green for k in runs)


def test_the_want_pattern_is_unlike_every_other_roles(leds, clock):
    """Over a period, the want pattern's lit/dark sequence differs from each role's pattern."""
    from hardware.leds import OCCULT, PATTERNS
    ts = [k / 50 for k in range(120)]
    want = [pattern_level(OCCULT, t) > 0.5 for t in ts]
    for role, look in ROLES.items():
        if role == "want":
            continue
        other = [pattern_level(look.pattern, t, look.period) > 0.5 for t in ts]
        assert other != want, role
    assert PATTERNS[OCCULT] == ROLES["want"].period or ROLES["want"].period is None
