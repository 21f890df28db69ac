"""The composition root: config -> store, secret, table service, board, app."""
from __future__ import annotations

import time
from pathlib import Path

from . import create_app
from .data_dir import open_data_dir
from .tables import TableService

LEARNED_NAME = "camera-learned.json"   # in the data folder: what the camera learnt in play


def board_hardware(mode: str, *, wiring=None, camera: dict | None = None, clock=time.monotonic):
    """The one place that decides real or emulated hardware: for board `mode`, a factory
    ``(sides, holes_per_side, start_holes=None, home_holes=None) -> hardware.devices.Hardware``
    (None for "none"). "simulation": emulated switches and LEDs (`hardware.mock`) made
    for the table's board; "sensors" and "leds": the real board of `wiring` (a loaded
    `WiringConfig`; the sizes only name what the table needs); "camera": the camera of
    `camera` ({source, calibration, layout, hold_frames, learned}) reading the pegs, with the
    wiring's LEDs, or an emulated strip without a wiring. Nothing is opened until the
    factory is called."""
    from hardware.config import load_wiring
    from hardware.devices import Hardware
    if mode == "none":
        return None
    if mode == "simulation":
        def simulated(sides, holes_per_side, start_holes=None, home_holes=None):
            w = wiring
            board = {"sides": sides, "holes_per_side": holes_per_side}
            if start_holes is not None:   # not the Pegs and Jokers 5 + 5
                board.update(start_holes=start_holes, home_holes=home_holes)
            if w is None or any(getattr(w.board, k) != v for k, v in board.items()):
                w = load_wiring({"mock": True, "board": board, "leds": {"driver": "mock"}})
            return Hardware(w, mock=True, clock=clock)
        return simulated
    if mode == "camera":
        def with_camera(*size, **holes):
            from vision.sensor import open_camera_sensor
            c = camera or {}
            sensor = open_camera_sensor(c.get("source") or "pi", c["calibration"], c.get("layout"),
                                        hold_frames=c.get("hold_frames") or 5, clock=clock,
                                        threaded=c.get("threaded", True), first_read=c.get("first_read", 5.0),
                                        learned=c.get("learned"))
            layout = sensor.layout
            w, mock = wiring, False
            if w is None:
                w = load_wiring({"board": {"sides": layout.sides, "holes_per_side": layout.holes_per_side,
                                           "start_holes": layout.start_holes, "home_holes": layout.home_holes},
                                 "leds": {"driver": "mock"}, "sensors": {"backend": "none"}})
                mock = True
            elif (w.board.sides, w.board.holes_per_side) != (layout.sides, layout.holes_per_side):
                sensor.close()
                raise ValueError(f"the camera's board has {layout.sides} sides of {layout.holes_per_side} holes, "
                                 f"the wiring's {w.board.sides} of {w.board.holes_per_side}")
            return Hardware(w, mock=mock, clock=clock, sensor=sensor)   # the camera stands in for the switches
        return with_camera
    if wiring is None:
        raise ValueError(f"board mode {mode!r} needs a wiring file")

    def real(*size, **holes):
        return Hardware(wiring, clock=clock)
    return real


def build_board(app, service, config: dict, threaded: bool = True):
    """The board for the config's BOARD_MODE ("none" by default here), behind a
    `BoardControl` (the safe start), its hardware as `board_hardware` decides:
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
    camera = config.get("CAMERA")
    if camera is not None and config.get("DATA_DIR") and not camera.get("learned"):
        # what the camera learns in play is state: kept with the games (vision.learned)
        camera = {**camera, "learned": str(Path(config["DATA_DIR"]) / LEARNED_NAME)}
    control = BoardControl(app, service, mode=mode, settle=float(config.get("SETTLE_SECONDS", 0.8)),
                           wiring=wiring, threaded=threaded, camera=camera)
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
