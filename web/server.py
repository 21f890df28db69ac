"""Running the app under waitress, with a clean shutdown on SIGTERM / Ctrl-C.

On a shared Wi-Fi a client may open connections and never finish a request
(a byte a second keeps waitress's inactivity timer happy). `create_guarded_server`
keeps players served: many connections allowed (CONNECTION_LIMIT, with the
open-file limit raised to match), at most PER_ADDRESS of them from one client
(an IPv4 address; an IPv6 /64 holds PER_ADDRESS x PREFIX_SHARE), near the limit
the oldest connections that have not sent a whole request are closed to make
room for new ones, a request's head and body must arrive within REQUEST_DEADLINE seconds,
idle connections close after IDLE_TIMEOUT, request sizes are bounded, and an
address making more than RATE requests a second (after a BURST) is read no
faster than that: a client that floods waits on its own sockets, so its flood
costs neither threads nor the players' time (the Pi's own browser, on
127.0.0.1, is not metered).
Half-open connections cost a socket, never a worker thread: waitress hands a
request to a thread only once it has fully arrived. Event streams do hold a
thread each, so `stream_cap` leaves REQUEST_THREADS for plain requests.
"""
from __future__ import annotations

import ipaddress
import os
import resource
import signal
import sys
import time
from collections import Counter

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server

from .main import build_app
from .netinfo import is_loopback, lan_ip
from .data_dir import BackupKeeper, Backups, DataDirLock
from .store import DataDirError


CONNECTION_LIMIT = 1000   # waitress's default 100 is 100 half-open connections from a stranger
PER_ADDRESS = 16          # connections one client may hold: a phone's browser uses at most 6 a site
PREFIX_SHARE = 4          # an IPv6 /64 (a household's phones may share one) holds PER_ADDRESS x 4
HEADROOM = 50             # from CONNECTION_LIMIT - HEADROOM on, the oldest half-open connections close
REQUEST_DEADLINE = 10.0   # seconds a request may take to arrive, however it trickles in
IDLE_TIMEOUT = 30         # seconds an idle keep-alive connection stays open
CLEANUP_INTERVAL = 2      # seconds between the checks of the two above
MAX_HEADER_BYTES = 32 * 1024
MAX_BODY_BYTES = 1024 * 1024   # the app refuses more than 64 KB; waitress need not buffer a gigabyte
REQUEST_THREADS = 8       # worker threads always left for plain requests (event streams take the rest)
RATE, BURST = 20.0, 100   # requests a second one address may make, sustained, after a burst (a page load ~10)
UNMETERED = frozenset({"127.0.0.1", "::1"})   # the companion's own browser and tools (serve.loopback_admin)


def connection_key(addr) -> str | None:
    """Who a connection comes from, for counting: its IPv4 address (an IPv4 client seen as
    ::ffff:a.b.c.d too), the IPv6 loopback as itself, any other IPv6 address as its /64
    (a device picks any address in its /64 at will: privacy addresses), as web.access does."""
    try:
        ip = ipaddress.ip_address(addr)
    except (TypeError, ValueError):
        return addr or None
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ip.is_loopback:
            return str(ip)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Budget:
    """One client address's request budget (a token bucket); its connections are not read
    while it is spent, so a flood waits on its own sockets and costs no thread."""

    __slots__ = ("tokens", "at", "rate", "burst")

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def ready(self) -> bool:
        if self.tokens < 1:
            self._refill()
        return self.tokens >= 1

    def spend(self) -> None:
        self._refill()
        self.tokens -= 1

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


def stream_cap(threads: int) -> int:
    """How many event streams `threads` waitress threads can hold and still answer plain
    requests promptly: a quarter of them, at least REQUEST_THREADS, stay free."""
    return threads - max(REQUEST_THREADS, threads // 4)


class GuardedChannel(HTTPChannel):
    """An HTTP connection that notes when its current request began, is closed at once
    when its client (an IPv4 address, an IPv6 /64) already holds its share of connections,
    and is not read while its client has spent its request budget (RATE, BURST). When the
    connections near the server's limit, the oldest that have not yet sent one whole
    request are closed to make room: a flood of half-open connections then costs its
    senders their sockets, never the players a place (waitress stops accepting at the limit)."""

    per_address = PER_ADDRESS
    rate, burst = RATE, BURST
    headroom = HEADROOM
    unmetered = UNMETERED
    request_started = None
    counted = None   # the client key this connection is counted under
    budget = None

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        host = addr[0] if isinstance(addr, tuple) and addr else None
        key = connection_key(host) if host else None
        if key and self._fileno in server.active_channels:
            held = server.__dict__.setdefault("connections_by_address", Counter())
            held[key] += 1
            self.counted = key
            waiting = server.__dict__.setdefault("half_open", {})   # fileno -> channel, oldest first
            waiting[self._fileno] = self
            local = key in self.unmetered
            if not local:
                share = 1 if "/" not in key else PREFIX_SHARE
                budgets = server.__dict__.setdefault("budgets", {})
                self.budget = budgets.get(key) or budgets.setdefault(
                    key, Budget(self.rate * share, self.burst * share))
                if held[key] > self.per_address * share:
                    self.close()
                    return
            self._make_room(server, waiting)

    def _make_room(self, server, waiting) -> None:
        """Near the connection limit: close the oldest connections that have not sent a
        whole request (never this new one, never one with a request in hand)."""
        limit = server.adj.connection_limit
        headroom = min(self.headroom, max(1, limit // 10))   # a small limit (few open files) keeps most
        if len(server._map) < limit - headroom:
            return
        target = limit - 2 * headroom
        for fileno, channel in list(waiting.items()):
            if len(server._map) <= target:
                break
            if channel is self or channel.requests:
                continue
            channel.close()   # its del_channel forgets it

    def readable(self):
        return super().readable() and (self.budget is None or self.budget.ready())

    def del_channel(self, map=None):
        if self.counted is not None and self._fileno in self.server.active_channels:
            held = self.server.connections_by_address
            held[self.counted] -= 1
            if held[self.counted] <= 0:
                del held[self.counted]
            self.server.__dict__.get("half_open", {}).pop(self._fileno, None)
            self.counted = None
        super().del_channel(map)

    def received(self, data):
        before = self.request
        if data and before is None:
            self.request_started = time.monotonic()
        result = super().received(data)
        completed = (self.request is not before) if before is not None else (self.request is None)
        if data and completed:
            if self.counted is not None:
                self.server.__dict__.get("half_open", {}).pop(self._fileno, None)   # a whole request: a client
            if self.budget is not None:
                self.budget.spend()   # a request arrived whole (one charge a read, however many it held)
        return result


def _guarded_maintenance(server, deadline: float):
    def maintenance(now):
        BaseWSGIServer.maintenance(server, now)   # idle connections (channel_timeout)
        late = time.monotonic() - deadline
        budgets = server.__dict__.get("budgets", {})
        held = server.__dict__.get("connections_by_address", {})
        for host in [h for h, b in budgets.items() if h not in held and b.full()]:
            del budgets[host]   # forget addresses gone quiet
        for channel in list(server.active_channels.values()):
            started = getattr(channel, "request_started", None)
            if (not channel.requests and channel.request is not None and started is not None
                    and started < late):
                channel.will_close = True   # a request still arriving after the deadline
    return maintenance


def _raise_open_file_limit(want: int) -> int:
    """The soft limit on open files raised towards `want` (as far as the hard limit allows)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        return soft if soft != resource.RLIM_INFINITY else want
    except (ValueError, OSError):
        return 1024


def create_guarded_server(app, host: str, port: int, threads: int, request_deadline: float = REQUEST_DEADLINE,
                          idle_timeout: int = IDLE_TIMEOUT, cleanup_interval: float = CLEANUP_INTERVAL,
                          per_address: int = PER_ADDRESS, rate: float = RATE, burst: int = BURST,
                          connection_limit: int = CONNECTION_LIMIT, headroom: int = HEADROOM,
                          unmetered=UNMETERED):
    """A waitress server with the limits above (OSError if it can't listen). `unmetered`:
    client keys neither metered nor capped (the companion itself, while serve.loopback_admin)."""
    files = _raise_open_file_limit(connection_limit + threads + 128)
    server = create_server(app, host=host, port=port, threads=threads, ident="pegs-companion",
                           connection_limit=max(100, min(connection_limit, files - threads - 128)),
                           channel_timeout=idle_timeout, cleanup_interval=cleanup_interval,
                           max_request_header_size=MAX_HEADER_BYTES, max_request_body_size=MAX_BODY_BYTES)
    if isinstance(server, BaseWSGIServer):
        server.channel_class = type("Channel", (GuardedChannel,),
                                    {"per_address": per_address, "rate": rate, "burst": burst,
                                     "headroom": headroom, "unmetered": frozenset(unmetered)})
        server.maintenance = _guarded_maintenance(server, request_deadline)
    return server


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
        lock = DataDirLock(conf["data_dir"])   # held until this process ends: one companion per folder
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
        lock.release()


def finished_games(service) -> list[str]:
    return [gid for gid, table in list(service.tables.items()) if table.status in ("over", "ended")]


def _build(conf: dict, board: dict):
    return build_app({"DATA_DIR": conf["data_dir"], "BOT_DELAY": conf["bot_delay"],
                     "BOT_THINK_MS": conf.get("bot_think_ms"),
                     "PUBLIC_URL": conf["public_url"], "BIND_HOST": conf["host"],
                     "MAX_STREAMS": stream_cap(conf["threads"]),
                     "BOARD_MODE": board["mode"], "SETTLE_SECONDS": board.get("settle_seconds", 0.8),
                     "WIRING": conf.get("wiring") or board.get("wiring"), "CONFIG_PATH": conf.get("config_path"),
                     "WIRING_FILE": board.get("wiring"), "ADMIN_CODE": conf.get("admin_code"),
                     "CAMERA": conf.get("camera"), "NEW_KEY": conf.get("new_key"),
                     "MAX_TABLES": conf.get("max_tables", 20), "TABLES_PER_MINUTE": conf.get("tables_per_minute", 6),
                     "LOOPBACK_ADMIN": conf.get("loopback_admin", True)})


def _serve(conf: dict, board: dict, app) -> int:
    service = app.extensions["pegs"]
    control = app.extensions.get("pegs_board_control")
    try:
        server = create_guarded_server(app, conf["host"], conf["port"], conf["threads"],
                                       unmetered=UNMETERED if conf.get("loopback_admin", True) else frozenset())
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
