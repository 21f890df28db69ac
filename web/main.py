"""The composition root: config -> store, secret, table service, board, app."""
from __future__ import annotations

from pathlib import Path

from . import create_app
from .store import open_data_dir
from .tables import TableService


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
    the settings page writing CONFIG_PATH (if any). `web.store.DataDirError` if the data
    folder can't be used as it is (NEW_KEY: replace a missing or short key)."""
    store, secret = open_data_dir(config["DATA_DIR"], new_key=bool(config.get("NEW_KEY")))
    app_config = dict(config)
    app_config.setdefault("SECRET", secret)
    service = TableService(store, secret,
                           bot_delay=float(app_config.get("BOT_DELAY", 0.8)),
                           max_streams=int(app_config.get("MAX_STREAMS", 40)),
                           bot_think_ms=app_config.get("BOT_THINK_MS"))
    app = create_app(app_config, service=service)
    build_board(app, service, app_config)
    return app
