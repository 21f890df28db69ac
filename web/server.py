"""Running the app under waitress, with a clean shutdown on SIGTERM / Ctrl-C."""
from __future__ import annotations

import signal
import sys

from waitress.server import create_server

from .main import build_app
from .netinfo import is_loopback, lan_ip


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
    app = build_app({"DATA_DIR": conf["data_dir"], "BOT_DELAY": conf["bot_delay"],
                     "PUBLIC_URL": conf["public_url"], "BIND_HOST": conf["host"], "MAX_STREAMS": max(8, conf["threads"] - 8),
                     "BOARD_MODE": board["mode"], "SETTLE_SECONDS": board.get("settle_seconds", 0.8),
                     "WIRING": conf.get("wiring") or board.get("wiring"), "CONFIG_PATH": conf.get("config_path"),
                     "WIRING_FILE": board.get("wiring"), "ADMIN_CODE": conf.get("admin_code"),
                     "CAMERA": conf.get("camera"), "MAX_TABLES": conf.get("max_tables", 20),
                     "TABLES_PER_MINUTE": conf.get("tables_per_minute", 6)})
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
    if not conf["public_url"] and is_loopback(conf["host"]):
        print(f"  (it listens on {conf['host']} only: phones can't reach it; use --host 0.0.0.0 "
              "to serve them)", flush=True)
    print(BOARD_WORDS.get(board["mode"], "").format(**{**board, "wiring": conf.get("wiring_source")}), flush=True)
    if control is not None and control.problems:
        print("The board did not start, so the phones are the board for now:", flush=True)
        for p in control.problems:
            print(f"  {p.what} {p.fix}", flush=True)
    print(f"Games are kept in {conf['data_dir']}. Stop with Ctrl-C.", flush=True)

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
