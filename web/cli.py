"""`pegs serve`: the referee's web server (waitress, never Flask's dev server).

Options come from the command line, else from a TOML file given with
--config (keys at the top level or under [serve]; the board under [board]),
else from the environment ($PEGS_DATA_DIR, $PEGS_WIRING), else the defaults.

    [board]
    mode = "simulation"        # simulation | sensors | leds | none (default: sensors when a
                               # wiring file is given or /etc/pegs-companion/wiring.toml exists,
                               # else simulation)
    settle_seconds = 0.8       # the board must be still this long before a move is taken
    wiring = "wiring.toml"     # the board's wiring (hardware/README.md), relative to this file
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tomllib
from pathlib import Path

DEFAULTS = {"host": "0.0.0.0", "port": 8000, "threads": 48, "bot_delay": 0.8,
            "public_url": None, "data_dir": None}
KEYS = set(DEFAULTS) | {"board"}
BOARD_MODES = ("simulation", "sensors", "leds", "none")
BOARD_KEYS = ("mode", "settle_seconds", "wiring")
DEFAULT_WIRING = "/etc/pegs-companion/wiring.toml"   # where `pegs hw-test` reads it too (hardware.cli)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"pegs serve: {message}\n")


class ConfigError(ValueError):
    pass


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pegs serve", description="Serve the referee to the phones on the local network.")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    p.add_argument("--port", help="port (default 8000)")
    p.add_argument("--data-dir", help="where games are kept (default $PEGS_DATA_DIR or "
                   "~/.local/share/pegs-companion)")
    p.add_argument("--config", help="TOML file with host, port, data_dir, threads, bot_delay, public_url")
    p.add_argument("--threads", help="waitress worker threads (default 48: ~12 live phones plus requests)")
    p.add_argument("--bot-delay", help="seconds a computer player waits before it moves (default 0.8)")
    p.add_argument("--public-url", help="address printed and put in the QR codes, e.g. http://192.168.4.1:8000/")
    p.add_argument("--board", dest="board_mode", metavar="MODE",
                   help="the board: simulation (a virtual board on the table page; the default without "
                        "a wiring file), sensors (reed switches and LEDs; the default with one, or with "
                        "/etc/pegs-companion/wiring.toml), leds (LEDs only), none (the phones are the board)")
    p.add_argument("--settle-seconds", help="how long the board must be still before a move is taken "
                                            "(default 0.8)")
    p.add_argument("--wiring", help="the board's wiring file (default $PEGS_WIRING or "
                                    "/etc/pegs-companion/wiring.toml)")
    return p


def _read_config(path: str) -> dict:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"can't read config file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    if isinstance(data.get("serve"), dict):
        data = {**{k: v for k, v in data.items() if k != "serve"}, **data["serve"]}
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ConfigError(f"config file {path}: unknown key(s) {', '.join(unknown)}; "
                          f"known: {', '.join(sorted(KEYS))}")
    board = data.get("board", {})
    if not isinstance(board, dict):
        raise ConfigError(f"config file {path}: board must be a table ([board] with "
                          f"{', '.join(BOARD_KEYS)}), not {board!r}")
    unknown = sorted(set(board) - set(BOARD_KEYS))
    if unknown:
        raise ConfigError(f"config file {path}: unknown key(s) {', '.join('board.' + k for k in unknown)}; "
                          f"known: {', '.join('board.' + k for k in BOARD_KEYS)}")
    if isinstance(board.get("wiring"), str):   # relative to the config file
        board = {**board, "wiring": str(Path(path).expanduser().resolve().parent / Path(board["wiring"]).expanduser())}
    data["board"] = board
    return data


def _int(name, value, low, high):
    try:
        if isinstance(value, bool):
            raise ValueError
        n = int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a whole number {low}-{high}, not {value!r}") from None
    if not low <= n <= high:
        raise ConfigError(f"{name} must be {low}-{high}, not {n}")
    return n


def resolve(argv) -> dict:
    """The settings from argv, config file, environment and defaults; ConfigError if bad."""
    args = _parser().parse_args(argv)
    conf = dict(DEFAULTS)
    conf["data_dir"] = os.environ.get("PEGS_DATA_DIR") or str(Path.home() / ".local/share/pegs-companion")
    board = {}
    if args.config:
        conf.update(_read_config(args.config))
        board = dict(conf.pop("board", {}))
    for key in DEFAULTS:
        v = getattr(args, key)
        if v is not None:
            conf[key] = v
    for key, arg in (("mode", args.board_mode), ("settle_seconds", args.settle_seconds), ("wiring", args.wiring)):
        if arg is not None:
            board[key] = arg
    conf["board"] = resolve_board(board)
    conf["port"] = _int("port", conf["port"], 1, 65535)
    conf["threads"] = _int("threads", conf["threads"], 8, 512)
    if not isinstance(conf["host"], str) or not conf["host"].strip():
        raise ConfigError(f"host must be an address such as 0.0.0.0, not {conf['host']!r}")
    try:
        conf["bot_delay"] = float(conf["bot_delay"])
        if not 0 <= conf["bot_delay"] <= 30:
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(f"bot_delay must be 0-30 seconds, not {conf['bot_delay']!r}") from None
    if conf["public_url"] is not None and not str(conf["public_url"]).startswith(("http://", "https://")):
        raise ConfigError(f"public_url must start with http:// or https://, not {conf['public_url']!r}")
    if not isinstance(conf["data_dir"], str) or not conf["data_dir"]:
        raise ConfigError(f"data_dir must be a directory path, not {conf['data_dir']!r}")
    data_dir = Path(conf["data_dir"]).expanduser()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ConfigError(f"data directory {data_dir} is not usable: {exc.strerror}") from None
    conf["data_dir"] = str(data_dir)
    return conf


def resolve_board(board: dict) -> dict:
    """The [board] settings, checked: {"mode", "settle_seconds", "wiring" (path or None)}.
    A problem is a ConfigError naming the key (board.mode, board.settle_seconds, board.wiring)."""
    wiring = board.get("wiring")
    if wiring is not None and (not isinstance(wiring, str) or not wiring.strip()):
        raise ConfigError(f"board.wiring must be the path of a wiring file, not {wiring!r}")
    mode = board.get("mode")
    if mode is None:   # a board is wired (a wiring file given or installed): use it; else simulate one
        mode = ("sensors" if wiring or os.environ.get("PEGS_WIRING") or Path(DEFAULT_WIRING).exists()
                else "simulation")
    if mode not in BOARD_MODES:
        raise ConfigError(f"board.mode must be one of {', '.join(BOARD_MODES)}, not {mode!r}")
    settle = board.get("settle_seconds", 0.8)
    try:
        if isinstance(settle, bool):
            raise ValueError
        settle = float(settle)
        if not 0.1 <= settle <= 10:
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(f"board.settle_seconds must be a number of seconds from 0.1 to 10, "
                          f"not {board.get('settle_seconds')!r}") from None
    if wiring is None and mode in ("sensors", "leds"):
        wiring = os.environ.get("PEGS_WIRING") or (DEFAULT_WIRING if Path(DEFAULT_WIRING).exists() else None)
        if wiring is None:
            raise ConfigError(f"board.wiring: mode {mode!r} needs the board's wiring file (board.wiring in the "
                              f"config, --wiring, $PEGS_WIRING or {DEFAULT_WIRING}; see hardware/README.md), "
                              f"or use --board simulation")
    if wiring is not None:
        from hardware.config import WiringError, load_wiring
        wiring = str(Path(wiring).expanduser())
        try:
            load_wiring(wiring)
        except WiringError as exc:
            raise ConfigError(f"board.wiring: {exc.source}: {'; '.join(exc.problems)}") from None
    return {"mode": mode, "settle_seconds": settle, "wiring": wiring}


def serve_command(argv) -> int:
    try:
        conf = resolve(list(argv))
    except ConfigError as exc:
        print(f"pegs serve: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    from .server import run
    return run(conf)


__all__ = ["serve_command", "resolve", "resolve_board", "ConfigError", "BOARD_MODES"]
