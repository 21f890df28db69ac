"""Board wiring configuration: the LED strip, the hole -> LED map and the reed-switch sensors.

The wiring is a TOML file (``hardware/wiring.example.toml`` documents every key).
``load_wiring`` reads and validates it; every problem is reported with the key it
is about, e.g. ``leds.brightness: must be a number from 0 to 1, got 1.5``.

Hole ids (strings, the only thing drivers know about the board):

* ``M<n>``        main-track hole n, 0 <= n < sides x holes_per_side (RULES G2);
* ``H<k>-s<s>``   home hole k (1-5) of side s (RULES G4), e.g. ``H3-s2``;
* ``S-s<s>-<k>``  start-area hole k (1-5) of side s (RULES G5), e.g. ``S-s2-1``.

Sides are numbered from 0 like the rules engine's sides. This module is pure
standard library: no GPIO, no LED library.
"""
from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

HOME_HOLES = 5
START_HOLES = 5
SIDES = (4, 6, 8, 10, 12)   # 12: the 12-section Carbles board (CB-G1)
PIXEL_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
LED_DRIVERS = ("auto", "ws281x", "pi5", "mock")
SENSOR_BACKENDS = ("shift-register", "gpio", "mcp23017", "none")
CHAIN_CHECKS = ("low", "high", "off")
BCM_PINS = range(0, 28)  # GPIO0..GPIO27 on the 40-pin header
I2C_PINS = {1: (2, 3), 0: (0, 1)}  # bus -> (SDA, SCL) on the header
# MCP23017 pins used as inputs: GPA0-6 and GPB0-6. Microchip's revised datasheet (DS20001952C)
# makes GPA7/GPB7 output-only: used as inputs they can corrupt SDA. The driver makes them outputs.
MCP23017_INPUT_PINS = (0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14)

_HOLE_RE = re.compile(r"^(?:M(0|[1-9]\d*)|H([1-9]\d*)-s(0|[1-9]\d*)|S-s(0|[1-9]\d*)-([1-9]\d*))$")


class WiringError(ValueError):
    """A wiring file that can't be used; ``problems`` lists each as ``"key: problem"``."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problem{'s' * (len(self.problems) != 1)}:\n{lines}")


# --------------------------------------------------------------------------- geometry

@dataclass(frozen=True)
class BoardLayout:
    """The holes of one physical board (RULES G2, G4, G5)."""
    sides: int = 4
    holes_per_side: int = 18
    start_holes: int = START_HOLES
    home_holes: int = HOME_HOLES

    @property
    def track_length(self) -> int:
        return self.sides * self.holes_per_side

    @property
    def hole_count(self) -> int:
        return self.track_length + self.sides * (self.start_holes + self.home_holes)

    def holes(self) -> list[str]:
        """All hole ids in default strip order (see ``default_hole_order``)."""
        return default_hole_order(self.sides, self.holes_per_side,
                                  start_holes=self.start_holes, home_holes=self.home_holes)

    def is_hole(self, hole: str) -> bool:
        m = _HOLE_RE.match(hole) if isinstance(hole, str) else None
        if not m:
            return False
        main, home_k, home_s, start_s, start_k = m.groups()
        if main is not None:
            return int(main) < self.track_length
        if home_k is not None:
            return int(home_k) <= self.home_holes and int(home_s) < self.sides
        return int(start_s) < self.sides and int(start_k) <= self.start_holes

    def describe(self) -> str:
        return f"a {self.sides}-side board with {self.holes_per_side} holes per side"

    def why_not_hole(self, hole) -> str:
        if not isinstance(hole, str) or not _HOLE_RE.match(hole):
            return (f"{hole!r} is not a hole id (expected M<n>, H<k>-s<side> or "
                    f"S-s<side>-<k>, e.g. M12, H3-s2, S-s2-1)")
        return (f"{hole!r} is not a hole of {self.describe()} (main track M0-M{self.track_length - 1}, "
                f"sides s0-s{self.sides - 1}, home H1-H{self.home_holes}, start 1-{self.start_holes})")


def default_hole_order(sides: int, holes_per_side: int, *, start_holes: int = START_HOLES,
                       home_holes: int = HOME_HOLES, track_start: int = 0,
                       reverse: bool = False) -> list[str]:
    """Every hole id, in the order of a strip (or shift-register chain) that follows the
    main track in the direction of travel from ``track_start`` (backwards if ``reverse``),
    then visits each side's start area (``S-s<s>-1..5``) and home (``H1-s<s>..H5-s<s>``),
    side 0 first. Position i in the list is LED index i / sensor input i by default.
    """
    length = sides * holes_per_side
    step = -1 if reverse else 1
    order = [f"M{(track_start + step * i) % length}" for i in range(length)]
    for s in range(sides):
        order += [f"S-s{s}-{k}" for k in range(1, start_holes + 1)]
        order += [f"H{k}-s{s}" for k in range(1, home_holes + 1)]
    return order


# --------------------------------------------------------------------------- config objects

@dataclass(frozen=True)
class LedConfig:
    data_pin: int = 18
    count: int = 0                      # LEDs on the strip
    pixel_order: str = "GRB"
    brightness: float = 0.5             # cap on the brightness (0-1)
    current_budget_a: float = 4.0       # amps the strip's 5 V supply may deliver
    ma_per_channel: float = 20.0        # current of one channel at full
    idle_ma: float = 1.0                # current of one dark LED
    driver: str = "auto"
    map: dict = field(default_factory=dict)   # hole -> LED index (complete, after overrides)


@dataclass(frozen=True)
class ShiftRegisterConfig:
    clock_pin: int = 11                 # SPI0 SCLK -> CLK (pin 2) of every 74HC165
    miso_pin: int = 9                   # SPI0 MISO <- QH (pin 9) of chip 0
    mosi_pin: int = 10                  # claimed by the SPI interface, not connected
    select_pin: int = 8                 # SPI0 CE0: claimed by the SPI driver, not connected
    latch_pin: int = 25                 # any GPIO -> SH/LD (pin 1) of every chip
    chips: int = 0
    spi_hz: int = 1_000_000
    # level of SER (pin 10) of the last chip. "high" (tied to 3.3 V): an open MISO wire or an
    # unpowered chain reads 0x00, which then fails the check instead of reading "every hole full"
    chain_check: str = "high"


@dataclass(frozen=True)
class GpioConfig:
    pull_up: bool = True


@dataclass(frozen=True)
class Mcp23017Config:
    bus: int = 1
    addresses: tuple = (0x20,)


@dataclass(frozen=True)
class SensorConfig:
    backend: str = "shift-register"
    debounce_ms: float = 30.0
    scan_hz: float = 100.0
    chatter_limit: int = 8
    map: dict = field(default_factory=dict)   # hole -> input (complete, after overrides)
    ignore: tuple = ()
    shift_register: ShiftRegisterConfig = field(default_factory=ShiftRegisterConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    mcp23017: Mcp23017Config = field(default_factory=Mcp23017Config)

    @property
    def input_count(self) -> int:
        """How many inputs the backend has (mapped or not)."""
        if self.backend == "shift-register":
            return 8 * self.shift_register.chips
        if self.backend == "mcp23017":
            return 16 * len(self.mcp23017.addresses)   # numbered chip x 16 + pin; 7 and 15 unused
        if self.backend == "gpio":
            return len(BCM_PINS)
        return 0

    def describe_input(self, n: int) -> str:
        """A builder-readable name of input n, e.g. "chip 3 input C (chain bit 26)"."""
        if self.backend == "shift-register":
            return f"chip {n // 8} input {'ABCDEFGH'[n % 8]} (chain bit {n})"
        if self.backend == "mcp23017":
            chip, pin = divmod(n, 16)
            addr = self.mcp23017.addresses[chip] if chip < len(self.mcp23017.addresses) else None
            where = f"0x{addr:02x}" if addr is not None else f"#{chip}"
            return f"MCP23017 {where} GP{'AB'[pin // 8]}{pin % 8} (input {n})"
        if self.backend == "gpio":
            return f"GPIO{n}"
        return f"input {n}"


@dataclass(frozen=True)
class WiringConfig:
    board: BoardLayout
    leds: LedConfig
    sensors: SensorConfig
    source: str = "<defaults>"
    duplicates: tuple = ()   # ("leds"|"sensors", index, (holes...)) when allow_duplicates
    mock: bool = False       # run on emulated hardware (a demo on a PC)

    def holes(self) -> list[str]:
        return self.board.holes()

    def led_holes(self) -> dict[int, list[str]]:
        """LED index -> the holes mapped to it."""
        out: dict[int, list[str]] = {}
        for hole, i in self.leds.map.items():
            out.setdefault(i, []).append(hole)
        return out

    def input_holes(self) -> dict[int, list[str]]:
        """Sensor input -> the holes mapped to it."""
        out: dict[int, list[str]] = {}
        for hole, n in self.sensors.map.items():
            out.setdefault(n, []).append(hole)
        return out


# --------------------------------------------------------------------------- loading

_KEYS = {
    "": {"mock", "board", "leds", "sensors"},
    "board": {"sides", "holes_per_side", "start_holes", "home_holes"},
    "leds": {"data_pin", "count", "pixel_order", "brightness", "current_budget_a",
             "ma_per_channel", "idle_ma", "driver", "track_start", "reverse", "map"},
    "sensors": {"backend", "debounce_ms", "scan_hz", "chatter_limit", "track_start", "reverse",
                "map", "ignore", "shift_register", "gpio", "mcp23017"},
    "sensors.shift_register": {"clock_pin", "miso_pin", "mosi_pin", "select_pin", "latch_pin",
                               "chips", "spi_hz", "chain_check"},
    "sensors.gpio": {"pull_up"},
    "sensors.mcp23017": {"bus", "addresses"},
}


class _Checker:
    """Collects ``key: problem`` lines while reading values out of nested tables."""

    def __init__(self, data: Mapping):
        self.data = data
        self.problems: list[str] = []

    def fail(self, key: str, problem: str):
        self.problems.append(f"{key}: {problem}")

    def table(self, key: str) -> Mapping:
        node = self.data
        for part in key.split(".") if key else []:
            node = node.get(part, {})
            if not isinstance(node, Mapping):
                self.fail(key, f"must be a table ([{key}]), got {_show(node)}")
                return {}
        allowed = _KEYS.get(key)
        if allowed is not None:
            for k in node:
                if k not in allowed:
                    full = f"{key}.{k}" if key else k
                    self.fail(full, f"unknown key (known keys{' in [' + key + ']' if key else ''}: "
                                    f"{', '.join(sorted(allowed))})")
        return node

    def get(self, table: Mapping, key: str, full: str, kind, default, check=None, why=""):
        if key not in table:
            return default
        value = table[key]
        ok = _is(value, kind)
        if ok and check is not None:
            ok = check(value)
        if not ok:
            self.fail(full, f"must be {why or _kind_name(kind)}, got {_show(value)}")
            return default
        return float(value) if kind is float else value


def _is(value, kind) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return isinstance(value, kind)


def _kind_name(kind) -> str:
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false"}.get(kind, str(kind))


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _read_source(path_or_text) -> tuple[str, Mapping]:
    if isinstance(path_or_text, Mapping):
        return "<dict>", path_or_text
    if isinstance(path_or_text, Path) or (isinstance(path_or_text, str) and path_or_text
                                          and not any(c in path_or_text for c in "\n=[")):
        path = Path(path_or_text)
        source = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise WiringError(source, ["file: not found"]) from None
        except OSError as exc:
            raise WiringError(source, [f"file: can't be read ({exc.strerror})"]) from None
        except UnicodeDecodeError:
            raise WiringError(source, ["file: is not UTF-8 text"]) from None
    else:
        source, text = "<text>", path_or_text or ""
    try:
        return source, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise WiringError(source, [f"toml: not valid TOML ({exc})"]) from None


def wiring_in_companion_config(path) -> tuple[str, object] | None:
    """Where the companion's config file (``/etc/pegs-companion/config.toml``) keeps the
    wiring: ``("table", {...})`` for a ``[wiring]`` table, ``("file", path)`` for
    ``board.wiring`` (relative to the config file), or None. A file that is itself a
    wiring file (no ``[serve]``, no ``[wiring]``, no ``board.mode``/``board.wiring``)
    is ``("file", path)``. WiringError if it can't be read."""
    source, data = _read_source(Path(path))
    board = data.get("board") if isinstance(data.get("board"), Mapping) else {}
    is_companion = "serve" in data or "wiring" in data or "mode" in board or "wiring" in board \
        or "settle_seconds" in board
    if not is_companion:
        return "file", str(path)
    table = wiring_table_of(data)
    if table is not None:
        return "table", table
    if isinstance(board.get("wiring"), str):
        return "file", str(Path(path).expanduser().resolve().parent / Path(board["wiring"]).expanduser())
    return None


def wiring_table_of(data: Mapping) -> Mapping | None:
    """The ``[wiring]`` table of a companion config, or None if it has none or only empty
    headers (config.example.toml's, every key commented out)."""
    def empty(t):
        return isinstance(t, Mapping) and all(empty(v) for v in t.values())
    table = data.get("wiring")
    return table if isinstance(table, Mapping) and not empty(table) else None


def load_wiring(path_or_text=None, sides: int | None = None, holes_per_side: int | None = None, *,
                start_holes: int | None = None, home_holes: int | None = None,
                allow_duplicates: bool = False, partial: bool = False) -> WiringConfig:
    """Read and validate a wiring file (a path, TOML text, or an already-parsed dict).

    ``sides``/``holes_per_side``/``start_holes``/``home_holes`` give the board geometry; when
    None they come from the file's ``[board]`` table (defaults 4, 18, 5, 5; the Tock, Carbles
    and Jackaroo boards have 4 and 4, RG-B1). If both are given they
    must agree. Two holes on one LED or one sensor input is an error unless
    ``allow_duplicates`` (``pegs hw-test`` loads that way, to report them). ``partial``
    accepts fewer 74HC165 chips or MCP23017s than the board needs (bring-up: one chip or
    one section at a time); the holes past them are simply not sensed.
    Raises ``WiringError`` listing every problem as ``"key: problem"``.
    """
    source, data = _read_source(path_or_text if path_or_text is not None else "")
    c = _Checker(data)
    mock = c.get(c.table(""), "mock", "mock", bool, False)

    # [board]
    bt = c.table("board")
    file_sides = c.get(bt, "sides", "board.sides", int, None, lambda v: v in SIDES, "4, 6, 8, 10 or 12")
    file_hps = c.get(bt, "holes_per_side", "board.holes_per_side", int, None,
                     lambda v: 10 <= v <= 40, "an integer from 10 to 40 (18 standard, 20 Pegoo)")
    file_start = c.get(bt, "start_holes", "board.start_holes", int, None, lambda v: 1 <= v <= 10,
                       "an integer from 1 to 10")
    file_home = c.get(bt, "home_holes", "board.home_holes", int, None, lambda v: 1 <= v <= 10,
                      "an integer from 1 to 10")
    geo = {}
    for key, arg, from_file, default in (("sides", sides, file_sides, 4),
                                         ("holes_per_side", holes_per_side, file_hps, 18),
                                         ("start_holes", start_holes, file_start, START_HOLES),
                                         ("home_holes", home_holes, file_home, HOME_HOLES)):
        if arg is not None and from_file is not None and arg != from_file:
            c.fail(f"board.{key}", f"the file says {from_file} but {arg} was asked for")
        geo[key] = arg if arg is not None else (from_file if from_file is not None else default)
    if geo["sides"] not in SIDES:
        c.fail("board.sides", f"must be 4, 6, 8, 10 or 12, got {geo['sides']!r}")
        geo["sides"] = 4
    board = BoardLayout(**geo)

    leds = _load_leds(c, board)
    sensors = _load_sensors(c, board, partial)
    duplicates = _check_duplicates(c, leds, sensors, allow_duplicates)
    _check_pins(c, leds, sensors)
    if c.problems:
        raise WiringError(source, c.problems)
    return WiringConfig(board=board, leds=leds, sensors=sensors, source=source,
                        duplicates=tuple(duplicates), mock=mock)


def _order(c: _Checker, table: Mapping, prefix: str, board: BoardLayout) -> list[str]:
    track_start = c.get(table, "track_start", f"{prefix}.track_start", int, 0,
                        lambda v: 0 <= v < board.track_length,
                        f"a main-track hole number 0-{board.track_length - 1}")
    reverse = c.get(table, "reverse", f"{prefix}.reverse", bool, False)
    return default_hole_order(board.sides, board.holes_per_side, start_holes=board.start_holes,
                              home_holes=board.home_holes, track_start=track_start, reverse=reverse)


def _overrides(c: _Checker, table: Mapping, key: str, board: BoardLayout, check, why) -> dict:
    node = table.get("map", {})
    if not isinstance(node, Mapping):
        c.fail(key, f"must be a table of hole = number, got {_show(node)}")
        return {}
    out = {}
    for hole, value in node.items():
        if not board.is_hole(hole):
            c.fail(f"{key}.{hole}", board.why_not_hole(hole))
        elif not _is(value, int) or not check(value):
            c.fail(f"{key}.{hole}", f"must be {why}, got {_show(value)}")
        else:
            out[hole] = value
    return out


def _load_leds(c: _Checker, board: BoardLayout) -> LedConfig:
    t = c.table("leds")
    d = LedConfig()
    data_pin = c.get(t, "data_pin", "leds.data_pin", int, d.data_pin, lambda v: v in BCM_PINS,
                     "a BCM GPIO number 0-27")
    count = c.get(t, "count", "leds.count", int, 0, lambda v: 1 <= v <= 4096, "an integer from 1 to 4096")
    order = c.get(t, "pixel_order", "leds.pixel_order", str, d.pixel_order,
                  lambda v: v.upper() in PIXEL_ORDERS, f"one of {', '.join(PIXEL_ORDERS)}").upper()
    brightness = c.get(t, "brightness", "leds.brightness", float, d.brightness, lambda v: 0 <= v <= 1,
                       "a number from 0 to 1")
    budget = c.get(t, "current_budget_a", "leds.current_budget_a", float, d.current_budget_a,
                   lambda v: 0 < v <= 100, "a number of amps above 0 (at most 100)")
    per_channel = c.get(t, "ma_per_channel", "leds.ma_per_channel", float, d.ma_per_channel,
                        lambda v: 0 < v <= 100, "a number of milliamps above 0 (at most 100)")
    idle = c.get(t, "idle_ma", "leds.idle_ma", float, d.idle_ma, lambda v: 0 <= v <= 10,
                 "a number of milliamps from 0 to 10")
    driver = c.get(t, "driver", "leds.driver", str, d.driver, lambda v: v in LED_DRIVERS,
                   f"one of {', '.join(LED_DRIVERS)}")
    order_list = _order(c, t, "leds", board)
    mapping = {hole: i for i, hole in enumerate(order_list)}
    limit = count or 4096
    mapping.update(_overrides(c, t, "leds.map", board, lambda v: 0 <= v < limit,
                              f"an LED index 0-{limit - 1}" + (" (leds.count is %d)" % count if count else "")))
    needed = max(mapping.values()) + 1
    if count and count < needed:
        # the generated map runs past the strip: say which holes have no LED
        short = [h for h, i in mapping.items() if i >= count]
        c.fail("leds.count", f"{count} LEDs is too few: the map needs {needed} "
                             f"({', '.join(short[:5])}{' ...' if len(short) > 5 else ''} "
                             f"would be past the end); set leds.count or map those holes in leds.map")
    if idle * (count or needed) / 1000 >= budget:
        c.fail("leds.current_budget_a", f"{budget} A is less than the strip's idle current "
                                        f"({idle * (count or needed) / 1000:.2f} A): nothing could light")
    return LedConfig(data_pin=data_pin, count=count or needed, pixel_order=order, brightness=brightness,
                     current_budget_a=budget, ma_per_channel=per_channel, idle_ma=idle,
                     driver=driver, map=mapping)


def _load_sensors(c: _Checker, board: BoardLayout, partial: bool = False) -> SensorConfig:
    t = c.table("sensors")
    d = SensorConfig()
    backend = c.get(t, "backend", "sensors.backend", str, d.backend, lambda v: v in SENSOR_BACKENDS,
                    f"one of {', '.join(SENSOR_BACKENDS)}")
    debounce = c.get(t, "debounce_ms", "sensors.debounce_ms", float, d.debounce_ms,
                     lambda v: 0 <= v <= 1000, "a number of milliseconds from 0 to 1000")
    scan_hz = c.get(t, "scan_hz", "sensors.scan_hz", float, d.scan_hz, lambda v: 1 <= v <= 1000,
                    "a number from 1 to 1000")
    chatter = c.get(t, "chatter_limit", "sensors.chatter_limit", int, d.chatter_limit,
                    lambda v: v >= 2, "an integer of at least 2")
    ignore = c.get(t, "ignore", "sensors.ignore", list, [], None)
    for i, hole in enumerate(ignore):
        if not board.is_hole(hole):
            c.fail(f"sensors.ignore[{i}]", board.why_not_hole(hole))

    srt = c.table("sensors.shift_register")
    sd = ShiftRegisterConfig()
    pin = lambda key, default: c.get(srt, key, f"sensors.shift_register.{key}", int, default,  # noqa: E731
                                     lambda v: v in BCM_PINS, "a BCM GPIO number 0-27")
    sr_pins = {k: pin(k, getattr(sd, k)) for k in ("clock_pin", "miso_pin", "mosi_pin", "select_pin",
                                                      "latch_pin")}
    chips = c.get(srt, "chips", "sensors.shift_register.chips", int, 0, lambda v: 1 <= v <= 512,
                  "an integer from 1 to 512")
    spi_hz = c.get(srt, "spi_hz", "sensors.shift_register.spi_hz", int, sd.spi_hz,
                   lambda v: 10_000 <= v <= 20_000_000, "an integer from 10000 to 20000000")
    chain_check = c.get(srt, "chain_check", "sensors.shift_register.chain_check", str, sd.chain_check,
                        lambda v: v in CHAIN_CHECKS, "low, high or off")

    gt = c.table("sensors.gpio")
    gpio = GpioConfig(pull_up=c.get(gt, "pull_up", "sensors.gpio.pull_up", bool, True))

    mt = c.table("sensors.mcp23017")
    bus = c.get(mt, "bus", "sensors.mcp23017.bus", int, 1, lambda v: 0 <= v <= 99, "an I2C bus number")
    addresses = c.get(mt, "addresses", "sensors.mcp23017.addresses", list, [0x20],
                      lambda v: 1 <= len(v) <= 8, "a list of 1 to 8 I2C addresses")
    for i, a in enumerate(addresses):
        if not _is(a, int) or not 0x20 <= a <= 0x27:
            c.fail(f"sensors.mcp23017.addresses[{i}]", f"must be an address 0x20-0x27, got {_show(a)}")
    if len(set(addresses)) != len(addresses):
        c.fail("sensors.mcp23017.addresses", "lists the same address twice")
    mcp = Mcp23017Config(bus=bus, addresses=tuple(addresses))

    # the hole -> input map
    if backend == "gpio":
        mapping = {}
        if "map" not in t:
            c.fail("sensors.map", "the gpio backend needs a map of hole = BCM pin "
                                  "(a directly wired board has at most 26 inputs)")
        mapping.update(_overrides(c, t, "sensors.map", board, lambda v: v in BCM_PINS,
                                  "a BCM GPIO number 0-27"))
    elif backend == "none":
        mapping = {}
    else:
        order_list = _order(c, t, "sensors", board)
        if backend == "mcp23017":
            usable = [16 * k + pin for k in range(len(addresses)) for pin in MCP23017_INPUT_PINS]
            limit = 16 * len(addresses)
            why = (f"an input 0-{limit - 1} (chip x 16 + pin: GPA0-6 = 0-6, GPB0-6 = 8-14; GPA7 and GPB7, "
                   f"7 and 15, are output-only on the MCP23017 and can't be used)")
            mapping = {hole: usable[i] for i, hole in enumerate(order_list) if i < len(usable)}
            mapping.update(_overrides(c, t, "sensors.map", board,
                                      lambda v: 0 <= v < limit and v % 16 in MCP23017_INPUT_PINS, why))
            if len(order_list) > len(usable) and not partial:
                c.fail("sensors.mcp23017.addresses",
                       f"{len(addresses)} MCP23017 ({len(usable)} inputs, 14 a chip) can't sense the "
                       f"{len(order_list)} holes of {board.describe()} (8 per bus at most: use 74HC165 shift "
                       f"registers instead; pegs hw-test accepts fewer chips for bring-up)")
        else:
            limit = 8 * chips if chips else 4096
            why = (f"a chain bit 0-{limit - 1} (chip x 8 + input, A = 0 ... H = 7)"
                   + (f" (sensors.shift_register.chips is {chips})" if chips else ""))
            mapping = {hole: i for i, hole in enumerate(order_list) if i < limit}
            mapping.update(_overrides(c, t, "sensors.map", board, lambda v: 0 <= v < limit, why))
            needed = math.ceil((max(mapping.values()) + 1) / 8)
            if chips and chips < math.ceil(len(order_list) / 8) and not partial:
                c.fail("sensors.shift_register.chips",
                       f"{chips} chips ({8 * chips} inputs) are too few for the {len(order_list)} holes "
                       f"of {board.describe()}: {math.ceil(len(order_list) / 8)} needed (pegs hw-test "
                       f"accepts a partial chain for bring-up)")
            chips = chips or needed
    sr = ShiftRegisterConfig(chips=chips, spi_hz=spi_hz, chain_check=chain_check, **sr_pins)
    return SensorConfig(backend=backend, debounce_ms=debounce, scan_hz=scan_hz, chatter_limit=chatter,
                        map=mapping, ignore=tuple(h for h in ignore if isinstance(h, str)),
                        shift_register=sr, gpio=gpio, mcp23017=mcp)


def _check_duplicates(c: _Checker, leds: LedConfig, sensors: SensorConfig, allow: bool) -> list:
    found = []
    for section, mapping, what in (("leds", leds.map, "LED"), ("sensors", sensors.map, "input")):
        by_value: dict[int, list[str]] = {}
        for hole, v in mapping.items():
            by_value.setdefault(v, []).append(hole)
        for v, holes in sorted(by_value.items()):
            if len(holes) > 1:
                found.append((section, v, tuple(holes)))
                if not allow:
                    name = sensors.describe_input(v) if section == "sensors" else f"LED {v}"
                    c.fail(f"{section}.map", f"{name} is mapped to {len(holes)} holes ({', '.join(holes)}): "
                                             f"each {what} belongs to one hole")
    return found


def _check_pins(c: _Checker, leds: LedConfig, sensors: SensorConfig):
    """Every GPIO has one job."""
    users: dict[int, list[str]] = {}
    users.setdefault(leds.data_pin, []).append("leds.data_pin")
    if sensors.backend == "shift-register":
        for k in ("clock_pin", "miso_pin", "mosi_pin", "select_pin", "latch_pin"):
            users.setdefault(getattr(sensors.shift_register, k), []).append(f"sensors.shift_register.{k}")
    elif sensors.backend == "gpio":
        for hole, pin in sensors.map.items():
            users.setdefault(pin, []).append(f"sensors.map.{hole}")
    elif sensors.backend == "mcp23017":
        sda_scl = I2C_PINS.get(sensors.mcp23017.bus)
        if sda_scl:
            for pin, name in zip(sda_scl, ("SDA", "SCL")):
                users.setdefault(pin, []).append(f"sensors.mcp23017.bus (I2C {name})")
    for pin, keys in sorted(users.items()):
        if len(keys) > 1:
            if sensors.backend == "gpio" and all(k.startswith("sensors.map.") for k in keys):
                continue  # duplicate inputs are reported by _check_duplicates
            c.fail(keys[-1], f"GPIO{pin} is also used by {', '.join(keys[:-1])}")
