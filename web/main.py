"""The composition root: config -> store, secret, table service, board, app."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from . import create_app
from .store import Store
from .tables import TableService

DB_NAME = "games.sqlite3"
SECRET_NAME = "secret.key"


def load_secret(data_dir: Path) -> bytes:
    """The key join codes are derived from (kept beside the database, owner-only)."""
    path = data_dir / SECRET_NAME
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
        fh.flush()
        os.fsync(fh.fileno())
    return key


def build_board(app, service, config: dict, threaded: bool = True):
    """The board for the config's BOARD_MODE ("none" by default here), behind a
    `BoardControl`: the one place that decides real or emulated hardware.
    "simulation" gets `hardware.mock` boards made for each table's size;
    "sensors" and "leds" the real switches and LEDs of WIRING (a path or a loaded
    `WiringConfig`), "camera" the camera of CAMERA ({source, calibration, layout,
    hold_frames}) with the wiring's LEDs if any; real hardware is opened now so that a failure falls back to the phones with
    the reason on the table page (the safe start)."""
    from .board_control import BoardControl
    mode = config.get("BOARD_MODE") or "none"
    wiring = config.get("WIRING")
    if isinstance(wiring, (str, Path)):
        from hardware.config import load_wiring
        wiring = load_wiring(wiring)
    control = BoardControl(app, service, mode=mode, settle=float(config.get("SETTLE_SECONDS", 0.8)),
                           wiring=wiring, threaded=threaded, camera=config.get("CAMERA"))
    control.start()
    return control


def build_app(config: dict):
    """The app for `pegs serve`: games in DATA_DIR/games.sqlite3, the board as configured,
    the settings page writing CONFIG_PATH (if any)."""
    data_dir = Path(config["DATA_DIR"])
    data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(data_dir / DB_NAME)
    app_config = dict(config)
    secret = load_secret(data_dir)
    app_config.setdefault("SECRET", secret)
    service = TableService(store, secret,
                           bot_delay=float(app_config.get("BOT_DELAY", 0.8)),
                           max_streams=int(app_config.get("MAX_STREAMS", 40)))
    app = create_app(app_config, service=service)
    build_board(app, service, app_config)
    return app
