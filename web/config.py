"""The companion's one settings file, `/etc/pegs-companion/config.toml`, read and checked.

The file holds only what differs from the defaults; `systemd/config.example.toml`
documents every key (a test keeps the two in step with `SETTINGS` below).
Tables: ``[serve]`` (the web server), ``[board]`` (the board referee),
``[wiring]`` (the board's LEDs and switches: the keys of
`hardware/wiring.example.toml`, as ``[wiring.leds]``, ``[wiring.sensors]`` ...;
or ``board.wiring`` names a separate wiring file) and ``[camera]`` (a camera
that reads the pegs).

Where a value comes from, strongest first: the command line, the config file,
the environment ($PEGS_DATA_DIR, $PEGS_WIRING), the defaults. Every problem
is reported with its key (``board.settle_seconds: must be ...``) and all of
them at once, on one line.

`save_settings` writes changes made on the settings page: the file is edited
with tomlkit (comments and layout kept), checked as a whole, written to a
temporary file beside it, fsynced and renamed over the old one, so a crash or a
power cut leaves either the old file or the new one, never half of one.
"""
from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.message import msg

SYSTEM_CONFIG = Path("/etc/pegs-companion/config.toml")
PI_MODEL_FILE = Path("/proc/device-tree/model")   # e.g. "Raspberry Pi 3 Model B Plus Rev 1.3"
DEFAULT_WIRING = "/etc/pegs-companion/wiring.toml"   # a separate wiring file (where `pegs hw-test` looks too)
BOARD_MODES = ("simulation", "sensors", "leds", "camera", "none")


class ConfigError(ValueError):
    """Settings that can't be used: ``problems`` are ``"key: problem"``; str() is one line."""

    def __init__(self, problems: list[str] | str, source: str | None = None):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        self.source = source
        text = "; ".join(self.problems)
        super().__init__(f"{source}: {text}" if source else text)


# --------------------------------------------------------------------------- the keys

def _whole(low: int, high: int):
    def check(v):
        if isinstance(v, bool):
            raise ValueError
        if isinstance(v, str):
            v = v.strip()
        n = int(v)
        if not low <= n <= high:
            raise ValueError
        return n
    check.words = f"a whole number {low}-{high}"
    check.said = msg("a whole number %(low)s-%(high)s", low=low, high=high)
    return check


def _number(low: float, high: float, unit: str = ""):
    def check(v):
        if isinstance(v, bool):
            raise ValueError
        x = float(v)
        if not low <= x <= high:
            raise ValueError
        return x
    check.words = f"a number from {low:g} to {high:g}{unit}"
    check.said = (msg("a number from %(low)s to %(high)s seconds", low=format(low, "g"), high=format(high, "g")) if unit
                  else msg("a number from %(low)s to %(high)s", low=format(low, "g"), high=format(high, "g")))
    return check


def _bool(v):
    if not isinstance(v, bool):
        raise ValueError
    return v


_bool.words = "true or false"


def _text(words: str, test: Callable[[str], bool] = lambda s: True):
    def check(v):
        if not isinstance(v, str) or not v.strip() or not test(v.strip()):
            raise ValueError
        return v.strip()
    check.words = words
    return check


def _choice(options):
    def check(v):
        if v not in options:
            raise ValueError
        return v
    check.words = f"one of {', '.join(options)}"
    check.said = msg("one of %(options)s", options=", ".join(options))
    return check


@dataclass(frozen=True)
class Setting:
    key: str                 # "table.name"
    default: object          # None: none, or worked out at start (see `doc`)
    check: Callable          # value -> value; ValueError if bad
    doc: str
    option: str | None = None   # the `pegs serve` option that overrides it
    web: bool = False        # may be changed on the settings page


SETTINGS = (
    Setting("serve.host", "0.0.0.0", _text("an address such as 0.0.0.0"),
            "address to listen on (0.0.0.0: every interface)", "--host"),
    Setting("serve.port", 8000, _whole(1, 65535), "port to listen on", "--port"),
    Setting("serve.threads", 48, _whole(16, 512),
            "waitress worker threads: a quarter (at least 8) answer requests, the rest hold the live "
            "pages' event streams (~12 per table); fewer than 16 can't do both", "--threads"),
    Setting("serve.bot_delay", 0.8, _number(0, 30, " seconds"),
            "seconds a computer player waits before it moves", "--bot-delay", web=True),
    Setting("serve.bot_think_ms", None, _whole(10, 3000),
            "milliseconds of CPU time the hard computer player (and a hint) thinks per decision, 10-3000; "
            "default: 140, or more on a slower Pi (Pi 3: 300, Zero 2 W: 400), see docs/bots.md",
            "--bot-think-ms", web=True),
    Setting("serve.public_url", None, _text("an address starting with http:// or https://",
                                            lambda s: s.startswith(("http://", "https://"))),
            "the address put in the join links and QR codes (default: the one the host's phone opened)",
            "--public-url"),
    Setting("serve.data_dir", None, _text("a directory path"),
            "where games are kept (default $PEGS_DATA_DIR, else ~/.local/share/pegs-companion)", "--data-dir"),
    Setting("serve.max_tables", 20, _whole(1, 500),
            "tables being played at once at most; finished ones and ones untouched for 12 hours don't count"),
    Setting("serve.tables_per_minute", 6, _whole(1, 600),
            "new tables a minute from one device (the companion itself: no limit)"),
    Setting("serve.admin_code", None, _text("at least 6 characters", lambda s: len(s) >= 6),
            "the code that opens the settings page from a phone (without one, only from the companion "
            "itself: http://127.0.0.1)"),
    Setting("serve.loopback_admin", True, _bool,
            "a request from the companion itself (127.0.0.1, ::1: its own screen, any program on it) is the "
            "admin: the settings, any table's board, no limit on new tables; false: it needs the admin code "
            "like a phone"),
    Setting("board.mode", None, _choice(BOARD_MODES),
            "simulation (a virtual board on the table page), sensors (reed switches and LEDs), leds (LEDs "
            "only), camera (a camera reads the pegs; LEDs too if a wiring is configured), none (the phones "
            "are the board); default: sensors when a wiring is configured, else simulation", "--board",
            web=True),
    Setting("board.settle_seconds", 0.8, _number(0.1, 10, " seconds"),
            "how long the board must be still before a move is taken", "--settle-seconds", web=True),
    Setting("board.wiring", None, _text("the path of a wiring file"),
            "a separate wiring file (relative to this file), instead of a [wiring] table; default "
            "$PEGS_WIRING, else /etc/pegs-companion/wiring.toml if it exists", "--wiring"),
)
SETTINGS += (
    Setting("camera.source", "pi", _text("pi, usb:N, or a video file or folder of pictures"),
            "the camera: pi (the Pi camera, Picamera2), usb:0 (a webcam), or a recording (tests, rehearsal)"),
    Setting("camera.calibration", None, _text("the path of a calibration file"),
            "the calibration made by pegs vision calibrate (relative to this file); needed by board.mode "
            "= \"camera\""),
    Setting("camera.layout", None, _text("a layout file, or SIDES[:HOLES_PER_SIDE]"),
            "the board's layout (pegs board layout) for a home-made board; default: the standard board "
            "of the calibration's size"),
    Setting("camera.hold_frames", 5, _whole(2, 60),
            "still frames a new state must hold before it counts"),
)
BY_KEY = {s.key: s for s in SETTINGS}
TABLES = ("serve", "board", "wiring", "camera")
WEB_KEYS = tuple(s.key for s in SETTINGS if s.web) + ("wiring.leds.brightness",)


# --------------------------------------------------------------------------- the Pi model

# The hard bot's default budget by board. It is CPU time, so a slower CPU deals
# fewer futures in it and plays weaker (10 deals a decision won 71.5 % against
# greedy here, ~100 deals 79 %: docs/bots.md). A Pi 4 at 140 ms deals about a
# seventh of this machine's; the Cortex-A53 boards are estimated (published
# single-core figures, not measured here) at about 2x (Pi 3, 1.2-1.4 GHz) and
# 2.7x (Zero 2 W, 1 GHz) slower than a Pi 4, so their budgets are raised to
# deal about as many as a Pi 4 does. The wall-clock cap (3 budgets) bounds the
# wait: at most 0.9 s and 1.2 s.
BOT_THINK_MS_BY_MODEL = (("Raspberry Pi Zero 2", 400), ("Raspberry Pi 3", 300))


def pi_model(path: Path | None = None) -> str | None:
    """The board's model from the device tree, or None (not a Pi, or unreadable)."""
    try:
        return Path(path or PI_MODEL_FILE).read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip() or None
    except OSError:
        return None


def default_bot_think_ms(model: str | None) -> int:
    """The hard bot's budget per decision on this board (ms of CPU time)."""
    from companion.strong import DEFAULT_THINK_MS
    for prefix, ms in BOT_THINK_MS_BY_MODEL:
        if model and model.startswith(prefix):
            return ms
    return DEFAULT_THINK_MS


# --------------------------------------------------------------------------- reading

def default_config_path(env: Mapping = os.environ) -> str | None:
    """The config file `pegs serve` reads without --config: $PEGS_CONFIG, else the system one if present."""
    if env.get("PEGS_CONFIG"):
        return env["PEGS_CONFIG"]
    return str(SYSTEM_CONFIG) if SYSTEM_CONFIG.exists() else None


def read_file(path: str | os.PathLike) -> dict:
    """The parsed TOML of a config file; ConfigError (one line) if it can't be read."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError("file not found", str(path)) from None
    except OSError as exc:
        raise ConfigError(f"can't be read ({exc.strerror})", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML ({exc})", str(path)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text (byte {exc.start}); save it as UTF-8", str(path)) from None
    except RecursionError:
        raise ConfigError("nested too deeply to be a settings file", str(path)) from None


def _flatten(data: dict, problems: list) -> dict:
    """{"serve.port": 8000, ...} from the file's tables; unknown keys are problems."""
    flat = {}
    for name, value in data.items():
        if name not in TABLES:
            hint = ""
            if name in {k.split(".")[1] for k in BY_KEY}:
                owner = next(k for k in BY_KEY if k.split(".")[1] == name)
                hint = f" (did you mean {owner}, under [{owner.split('.')[0]}]?)"
            problems.append(f"{name}: unknown key; the tables are [serve], [board], [wiring] and [camera]{hint}")
            continue
        if not isinstance(value, dict):
            problems.append(f"{name}: must be a table ([{name}]), not {value!r}")
            continue
        if name == "wiring":
            continue
        for key, v in value.items():
            full = f"{name}.{key}"
            if full not in BY_KEY:
                known = ", ".join(k for k in BY_KEY if k.startswith(name + "."))
                problems.append(f"{full}: unknown key; [{name}] has {known}")
            else:
                flat[full] = v
    return flat


def _check(key: str, value, where: str = ""):
    check = BY_KEY[key].check if key in BY_KEY else WEB_CHECKS[key]
    try:
        return check(value), None
    except (TypeError, ValueError):
        return None, f"{key}{where}: must be {check.words}, not {value!r}"


def load_settings(path: str | None = None, overrides: Mapping | None = None,
                  env: Mapping = os.environ, probe_data_dir: bool = True) -> dict:
    """Every setting, checked: {"serve.port": 8000, ..., "wiring": WiringConfig or None,
    "wiring_source": where it came from, "config_path": path or None}.

    ``overrides`` are command-line values by key (they win, and problems name
    their option). Raises ConfigError listing every problem.
    """
    problems: list[str] = []
    data: dict = {}
    if path is not None:
        data = read_file(path)
    flat = _flatten(data, problems)
    origin = {k: "" for k in flat}
    for key, value in (overrides or {}).items():
        if value is not None:
            flat[key] = value
            origin[key] = f" (from {BY_KEY[key].option})"
    out: dict = {"config_path": str(path) if path is not None else None}
    for s in SETTINGS:
        if s.key in flat:
            value, problem = _check(s.key, flat[s.key], origin[s.key])
            if problem:
                problems.append(problem)
            out[s.key] = value
        else:
            out[s.key] = s.default
    if out["serve.bot_think_ms"] is None:
        out["serve.bot_think_ms"] = default_bot_think_ms(pi_model())
    if out["serve.data_dir"] is None:
        out["serve.data_dir"] = env.get("PEGS_DATA_DIR") or str(Path.home() / ".local/share/pegs-companion")
    base_dir = Path(path).expanduser().resolve().parent if path is not None else Path.cwd()   # relative paths

    # the wiring: --wiring, else [wiring], else board.wiring, else $PEGS_WIRING, else the system wiring file
    from hardware.config import WiringError, load_wiring, wiring_table_of
    from_option = (overrides or {}).get("board.wiring") is not None
    wiring_table = wiring_table_of(data)
    wiring_path, inline = out["board.wiring"], False
    if wiring_table is not None and wiring_path is not None and not from_option:
        problems.append("board.wiring: the config file has a [wiring] table too; keep one of the two")
    if wiring_path is not None:
        wiring_path = str((Path.cwd() if from_option else base_dir) / Path(wiring_path).expanduser())
    elif wiring_table is not None:
        inline = True
    elif env.get("PEGS_WIRING"):
        wiring_path = env["PEGS_WIRING"]
    elif Path(DEFAULT_WIRING).exists():
        wiring_path = DEFAULT_WIRING
    wiring = None
    try:
        if inline:
            wiring = load_wiring(wiring_table)
        elif wiring_path is not None:
            wiring = load_wiring(wiring_path)
    except WiringError as exc:
        prefix = "wiring." if inline else f"board.wiring: {exc.source}: "
        problems.extend(f"{prefix}{p}" for p in exc.problems)
    out["board.wiring"] = wiring_path
    out["wiring"] = wiring
    out["wiring_source"] = f"{path} [wiring]" if inline else wiring_path

    mode = out["board.mode"]
    if mode is None:
        mode = "sensors" if out["wiring_source"] is not None else "simulation"
    if mode in ("sensors", "leds") and out["wiring_source"] is None and not any(p.startswith(("board.wiring", "wiring"))
                                                                  for p in problems):
        problems.append(f"board.mode: {mode!r} needs the board's wiring: a [wiring] table or board.wiring in "
                        f"the config, --wiring, $PEGS_WIRING or {DEFAULT_WIRING} (see hardware/README.md); "
                        f"or use board.mode = \"simulation\"")
    out["board.mode"] = mode
    for key in ("camera.calibration", "camera.layout"):
        v = out[key]
        if v is not None and not (key == "camera.layout" and v.replace(":", "").isdigit()):
            out[key] = str(base_dir / Path(v).expanduser())
    if mode == "camera" and out["camera.calibration"] is None and not any(
            p.startswith("camera.calibration") for p in problems):
        problems.append("camera.calibration: board.mode \"camera\" needs the calibration file made by "
                        "pegs vision calibrate (README: Camera)")

    if probe_data_dir and not any(p.startswith("serve.data_dir") for p in problems):
        data_dir = Path(out["serve.data_dir"]).expanduser()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            probe = data_dir / ".write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            problems.append(f"serve.data_dir: {data_dir} is not usable ({exc.strerror})")
        out["serve.data_dir"] = str(data_dir)
    if problems:
        raise ConfigError(problems, str(path) if path is not None else None)
    return out


# --------------------------------------------------------------------------- writing

def atomic_write(path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    """Replace `path` with `text`: a temporary file beside it, fsynced, renamed over it,
    and the directory fsynced, so a power cut leaves the old file or the new one."""
    path = Path(path)
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o664
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


WEB_CHECKS = {"wiring.leds.brightness": _number(0, 1)}   # web-editable keys outside SETTINGS


def check_web_change(key: str, value):
    """A value from the settings page, checked: returns it; ConfigError naming the key."""
    if key not in WEB_KEYS:   # the problems are messages: the settings page shows them in its language
        raise ConfigError(msg("%(key)s: can't be changed from the settings page (these can: %(keys)s)",
                              key=key, keys=", ".join(WEB_KEYS)))
    checked, problem = _check(key, value)
    if problem:
        check = BY_KEY[key].check if key in BY_KEY else WEB_CHECKS[key]
        said = getattr(check, "said", None)
        raise ConfigError(msg("%(key)s: must be %(words)s, not %(value)s", key=key, words=said, value=repr(value))
                          if said is not None else problem)
    return checked


def _set(doc, dotted: str, value) -> None:
    import tomlkit
    *tables, name = dotted.split(".")
    node = doc
    for t in tables:
        if t not in node:
            node[t] = tomlkit.table()
        node = node[t]
    node[name] = value


NEW_FILE = ("# Pegs and Jokers companion settings: only what differs from the defaults\n"
            "# (systemd/config.example.toml documents every key).\n")


def _edited(path: Path, changes: Mapping, new_file: str | None = None) -> str:
    """The text of the TOML file `path` (`new_file` if given and it is missing) with `changes`
    set, comments kept."""
    import tomlkit
    doc = tomlkit.parse(new_file if new_file is not None and not path.exists() else path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        _set(doc, key, value)
    return tomlkit.dumps(doc)


def _wiring_problems(table, prefix: str = "") -> list[str]:
    from hardware.config import WiringError, load_wiring
    try:
        load_wiring(table)
    except WiringError as exc:
        return [f"{prefix}{p}" for p in exc.problems]
    return []


def save_settings(path: str | os.PathLike, changes: Mapping, wiring_file: str | None = None) -> None:
    """Write `changes` ({key: value}, checked by `check_web_change`) into the config file
    (created if missing), keeping its comments; ``wiring.*`` keys go to `wiring_file`
    when the wiring is a file of its own. The result is re-read and checked before it
    replaces the old file: a change that would not load is refused (ConfigError)."""
    path = Path(path)
    to_wiring_file = {k[len("wiring."):]: v for k, v in changes.items() if k.startswith("wiring.") and wiring_file}
    to_config = {k: v for k, v in changes.items() if not (k.startswith("wiring.") and wiring_file)}
    texts = {}
    if to_config:
        texts[path] = _edited(path, to_config, NEW_FILE)
    if to_wiring_file:
        texts[Path(wiring_file)] = _edited(Path(wiring_file), to_wiring_file)
    # check the whole result before anything is replaced
    for p, text in texts.items():
        data = tomllib.loads(text)
        problems: list[str] = []
        if p == path:
            _flatten(data, problems)
            if not problems and isinstance(data.get("wiring"), dict):
                problems = _wiring_problems(data["wiring"], "wiring.")
        else:
            problems = _wiring_problems(data)
        if problems:
            raise ConfigError(problems, str(p))
    for p, text in texts.items():
        atomic_write(p, text)


__all__ = ["ConfigError", "SETTINGS", "default_bot_think_ms", "pi_model", "BY_KEY", "WEB_KEYS", "BOARD_MODES", "SYSTEM_CONFIG", "DEFAULT_WIRING",
           "default_config_path", "read_file", "load_settings", "save_settings", "check_web_change",
           "atomic_write"]
