"""Running the app under waitress, with a clean shutdown on SIGTERM / Ctrl-C."""
from __future__ import annotations

import os
import signal
import sys

from waitress.server import create_server

from .main import build_app
from .netinfo import lan_ip
from .store import BackupKeeper, Backups, DataDirError


BOARD_WORDS = {
    "simulation": "Board: simulation - drag the pegs on the virtual board of the table page (/table/...).",
    "sensors": "Board: reed switches and LEDs ({wiring}); a move is taken once the board is still "
               "for {settle_seconds} s.",
    "leds": "Board: LEDs only ({wiring}); moves are entered on the phones.",
    "camera": "Board: the camera reads the pegs; a move is taken once the board is still for {settle_seconds} s.",
    "none": "Board: none - the phones are the board.",
}


def run(conf: dict) -> int:
    board = conf.get("board") or {"mode": "none"}
    os.umask(0o077)   # the data folder holds every shuffle: nothing the server makes is readable by others
    try:
        app = _build(conf, board)
    except DataDirError as exc:
        print(f"pegs serve: {exc}", file=sys.stderr)
        return 2
    service = app.extensions["pegs"]
    keeper = BackupKeeper(Backups(service.store, conf["data_dir"]), lambda: finished_games(service))
    keeper.tick()   # a copy at start unless there is one from the last day
    keeper.start()
    try:
        return _serve(conf, board, app)
    finally:
        keeper.stop()


def finished_games(service) -> list[str]:
    return [gid for gid, table in list(service.tables.items()) if table.status in ("over", "ended")]


def _build(conf: dict, board: dict):
    return build_app({"DATA_DIR": conf["data_dir"], "BOT_DELAY": conf["bot_delay"],
                     "PUBLIC_URL": conf["public_url"], "MAX_STREAMS": max(8, conf["threads"] - 8),
                     "BOARD_MODE": board["mode"], "SETTLE_SECONDS": board.get("settle_seconds", 0.8),
                     "WIRING": conf.get("wiring") or board.get("wiring"), "CONFIG_PATH": conf.get("config_path"),
                     "WIRING_FILE": board.get("wiring"), "ADMIN_CODE": conf.get("admin_code"),
                     "CAMERA": conf.get("camera"), "NEW_KEY": conf.get("new_key")})


def _serve(conf: dict, board: dict, app) -> int:
    service = app.extensions["pegs"]
    control = app.extensions.get("pegs_board_control")
    try:
        server = create_server(app, host=conf["host"], port=conf["port"], threads=conf["threads"],
                               ident="pegs-companion", channel_timeout=60, cleanup_interval=15)
    except OSError as exc:
        print(f"pegs serve: can't listen on {conf['host']}:{conf['port']}: {exc.strerror}", file=sys.stderr)
        service.close()
        service.store.close()
        return 1
    port = server.effective_port if hasattr(server, "effective_port") else conf["port"]
    urls = []
    if conf["public_url"]:
        urls.append(conf["public_url"])
    elif conf["host"] in ("0.0.0.0", "::", ""):
        ip = lan_ip()
        if ip:
            urls.append(f"http://{ip}:{port}/")
        urls.append(f"http://127.0.0.1:{port}/")
    else:
        urls.append(f"http://{conf['host']}:{port}/")
    print("Pegs and Jokers companion is running. Open on the phones (same Wi-Fi):", flush=True)
    for u in urls:
        print(f"  {u}", flush=True)
    print(BOARD_WORDS.get(board["mode"], "").format(**{**board, "wiring": conf.get("wiring_source")}), flush=True)
    if control is not None and control.problems:
        print("The board did not start, so the phones are the board for now:", flush=True)
        for p in control.problems:
            print(f"  {p.what} {p.fix}", flush=True)
    for gid, reason in sorted(service.broken.items()):
        print(f"Game {gid} is set aside, its saved log is damaged: {reason}. The other games are served; "
              f"`pegs serve --restore` puts back the last backup.", flush=True)
    print(f"Games are kept in {conf['data_dir']} (backups in {conf['data_dir']}/backups). Stop with Ctrl-C.",
          flush=True)

    def stop(signum, frame):
        service.close()  # SSE streams end, the bot thread stops
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        service.close()
        server.close()
        service.store.close()
    print("stopped.", flush=True)
    return 0
