"""`pegs serve`: the referee's web server (waitress, never Flask's dev server).

Options come from the command line, else from a TOML file given with
--config (keys at the top level or under [serve]), else from the
environment ($PEGS_DATA_DIR), else the defaults.
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
KEYS = set(DEFAULTS)


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
    if args.config:
        conf.update(_read_config(args.config))
    for key in KEYS:
        v = getattr(args, key)
        if v is not None:
            conf[key] = v
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


__all__ = ["serve_command", "resolve", "ConfigError"]
