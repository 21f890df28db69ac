"""`pegs serve`: the referee's web server (waitress, never Flask's dev server).

Settings come from the command line, else the config file (--config, else
$PEGS_CONFIG, else /etc/pegs-companion/config.toml if it exists; see
`web.config` and systemd/config.example.toml, which documents every key), else
the environment ($PEGS_DATA_DIR, $PEGS_WIRING), else the defaults.
``pegs serve --check`` prints the settings in use and stops.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys

from .config import BOARD_MODES, DEFAULT_WIRING, ConfigError, default_config_path, load_settings

OPTIONS = {"host": "serve.host", "port": "serve.port", "threads": "serve.threads", "bot_delay": "serve.bot_delay",
           "bot_think_ms": "serve.bot_think_ms",
           "public_url": "serve.public_url", "data_dir": "serve.data_dir", "board_mode": "board.mode",
           "settle_seconds": "board.settle_seconds", "wiring": "board.wiring"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"pegs serve: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pegs serve", description="Serve the referee to the phones on the local network.")
    p.add_argument("--config", help="the settings file (default $PEGS_CONFIG, else /etc/pegs-companion/config.toml "
                                    "if it exists); systemd/config.example.toml documents every key")
    p.add_argument("--check", action="store_true", help="check the settings, print them and stop")
    p.add_argument("--restore", nargs="?", const="", metavar="BACKUP",
                   help="put back the newest good backup of the games (DATA_DIR/backups) if the database "
                        "fails its checks, and secret.key's copy if it is missing; with BACKUP, that file "
                        "whatever the state of the database. What it replaces is kept (*.set-aside-*). "
                        "Stop the server first")
    p.add_argument("--new-key", action="store_true",
                   help="start even though secret.key is missing or truncated: make a new one (join codes "
                        "not yet used change; seats already taken stay)")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    p.add_argument("--port", help="port (default 8000)")
    p.add_argument("--data-dir", help="where games are kept (default $PEGS_DATA_DIR or "
                   "~/.local/share/pegs-companion)")
    p.add_argument("--threads", help="waitress worker threads, 16-512 (default 48): a quarter, at least 8, answer "
                                     "requests; the rest hold the live pages' event streams")
    p.add_argument("--bot-delay", help="seconds a computer player waits before it moves (default 0.8)")
    p.add_argument("--bot-think-ms", help="milliseconds of CPU time the hard computer player (and a hint) thinks "
                                          "per decision, 10-3000 (default 140; Pi 3: 300, Pi Zero 2 W: 400)")
    p.add_argument("--public-url", help="address printed and put in the QR codes, e.g. http://192.168.4.1:8000/")
    p.add_argument("--board", dest="board_mode", metavar="MODE",
                   help="the board: simulation (a virtual board on the table page; the default without "
                        "a wiring), sensors (reed switches and LEDs; the default with one), leds (LEDs only), "
                        "camera (a camera reads the pegs: [camera] in the config), none (the phones are the "
                        "board)")
    p.add_argument("--settle-seconds", help="how long the board must be still before a move is taken "
                                            "(default 0.8)")
    p.add_argument("--wiring", help="the board's wiring file (default: [wiring] in the config, $PEGS_WIRING or "
                                    "/etc/pegs-companion/wiring.toml)")
    return p


def resolve(argv, env=None) -> dict:
    """The settings from argv, config file, environment and defaults; ConfigError if bad.

    {"host", "port", "threads", "bot_delay", "bot_think_ms", "public_url", "data_dir", "admin_code",
     "board": {"mode", "settle_seconds", "wiring" (path, or None)}, "wiring" (WiringConfig or None),
     "config_path", "settings" (every key)}"""
    env = os.environ if env is None else env
    args = _parser().parse_args(argv)
    path = args.config or default_config_path(env)
    overrides = {key: getattr(args, name) for name, key in OPTIONS.items()}
    s = load_settings(path, overrides, env=env)
    return {"host": s["serve.host"], "port": s["serve.port"], "threads": s["serve.threads"],
            "bot_delay": s["serve.bot_delay"], "bot_think_ms": s["serve.bot_think_ms"],
            "public_url": s["serve.public_url"],
            "data_dir": s["serve.data_dir"], "admin_code": s["serve.admin_code"],
            "loopback_admin": s["serve.loopback_admin"],
            "max_tables": s["serve.max_tables"], "tables_per_minute": s["serve.tables_per_minute"],
            "board": {"mode": s["board.mode"], "settle_seconds": s["board.settle_seconds"],
                      "wiring": s["board.wiring"]},
            "wiring": s["wiring"], "wiring_source": s["wiring_source"], "config_path": s["config_path"],
            "camera": {"source": s["camera.source"], "calibration": s["camera.calibration"],
                       "layout": s["camera.layout"], "hold_frames": s["camera.hold_frames"]},
            "settings": s, "check": args.check, "restore": args.restore, "new_key": args.new_key}


def describe(conf: dict) -> str:
    """The settings in use, for --check and the log."""
    lines = [f"config file: {conf['config_path'] or 'none (defaults)'}"]
    for key, value in conf["settings"].items():
        if key in ("wiring", "wiring_source", "config_path"):
            continue
        if key == "serve.admin_code" and value:
            value = "(set)"
        lines.append(f"  {key} = {value!r}")
    lines.append(f"  wiring: {conf['wiring_source'] or 'none'}")
    return "\n".join(lines)


def serve_command(argv) -> int:
    try:
        conf = resolve(list(argv))
    except ConfigError as exc:
        print(f"pegs serve: {exc}", file=sys.stderr)
        return 2
    if conf["check"]:
        print(describe(conf))
        return 0
    if conf["restore"] is not None:
        from .data_dir import DataDirLock, restore
        from .store import DataDirError
        try:
            lock = DataDirLock(conf["data_dir"], "restore")   # never under a running companion
            try:
                done = restore(conf["data_dir"], conf["restore"] or None)
            finally:
                lock.release()
        except (DataDirError, OSError) as exc:
            print(f"pegs serve --restore: {exc}", file=sys.stderr)
            return 2
        for line in done:
            print(line)
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    import warnings   # gpiozero warns once per pin library it can't load; the safe start says it better
    warnings.filterwarnings("ignore", message="Falling back from")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    from .server import run
    return run(conf)


__all__ = ["serve_command", "resolve", "describe", "ConfigError", "BOARD_MODES", "DEFAULT_WIRING"]
