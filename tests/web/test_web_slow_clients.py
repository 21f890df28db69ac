"""Connections that never finish a request, and too few threads (issue 13 points 9, 10):
the players are still served. Against a real `pegs serve` (waitress) on 127.0.0.1; the
strangers connect from other loopback addresses (127.0.0.2...), as other hosts on the
Wi-Fi would. What is asserted is what the server decides (answered or not, counted, in
which order), never how fast a loaded machine answers: the budgets and the request
deadline run on a clock the test moves, and a wall-clock wait is only a ceiling against a hang."""
from __future__ import annotations

import http.client
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import web.server
from .webkit import Phone, make_app, wait_until
from web import config as cfgmod
from web.cli import serve_command
from web.server import REQUEST_THREADS, create_guarded_server, stream_cap

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, source, timeout=2.0):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    sock.setblocking(False)
    return sock


def closed_by_server(sock) -> bool:
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


class Trickle(threading.Thread):
    """Sends one byte a second on each socket (an endless request head), until stopped."""

    HEAD = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100

    def __init__(self, socks, every=1.0):
        super().__init__(daemon=True)
        self.socks, self.every = socks, every
        self.closed = set()
        self.halt = threading.Event()

    def run(self):
        i = 0
        while True:
            for n, sock in enumerate(self.socks):
                if n in self.closed:
                    continue
                try:
                    sock.send(self.HEAD[i % len(self.HEAD):i % len(self.HEAD) + 1])
                except OSError:
                    self.closed.add(n)
            i += 1
            if self.halt.wait(self.every):
                return

    def stop(self):
        self.halt.set()
        self.join(30)


class Clock:
    """web.server's `time` while a test runs: monotonic() is what the test sets, so a budget
    refills and a deadline passes when the test says, not when a loaded machine gets there."""

    def __init__(self):
        self.t = 1000.0

    def monotonic(self):
        return self.t

    def __getattr__(self, name):
        return getattr(time, name)


@pytest.fixture
def pegs_serve(tmp_path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "web", "--host", "127.0.0.1", "--port", str(port),
                             "--data-dir", str(tmp_path / "data"), "--threads", "16", "--bot-delay", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def up():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return proc.poll() is not None
    assert wait_until(up, 60, 0.05) and proc.poll() is None, proc.stdout.read()   # a ceiling
    yield port
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def test_150_half_open_connections_and_streams_do_not_stop_the_players(pegs_serve):
    port = pegs_serve
    host = Phone(port)
    status, created, _ = host.post("/api/games", {"preset": "basic", "players": 4,
                                                   "names": ["Ann", "Bob", "Cy", "Di"]})
    assert status == 201, created
    gid = created["gid"]
    status, info, _ = host.get(f"/api/games/{gid}/host")
    seat = Phone(port)
    assert seat.post("/api/join", {"code": info["seats"][0]["code"]})[0] == 200
    # 150 strangers trickling a byte a second, 50 from each of three addresses
    slow = [connect(port, f"127.0.0.{2 + i // 50}") for i in range(150)]
    trickle = Trickle(slow)
    trickle.start()
    # and more event streams than the 16 threads could hold (the cap leaves threads free)
    streams = []
    for i in range(20):
        sock = connect(port, "127.0.0.5")
        sock.setblocking(True)
        sock.sendall(f"GET /api/games/{gid}/events?client=stranger-{i:03d} HTTP/1.1\r\n"
                     f"Host: 127.0.0.1\r\n\r\n".encode())
        streams.append(sock)
    answered, failures = 0, []
    seat.conn.close()
    seat.conn = None   # a new kept-alive connection, opened among the strangers'
    for _ in range(20):   # every one answered while the strangers trickle (30 s: a ceiling against a hang)
        try:
            status, _ = seat.request("GET", f"/api/games/{gid}/me", timeout=30)
            if status == 200:
                answered += 1
            else:
                failures.append(status)
        except OSError as exc:
            failures.append(repr(exc))
            seat.conn = None
    assert trickle.is_alive()   # the strangers were still at it all along
    trickle.stop()
    assert answered == 20 and not failures, failures[:3]
    for sock in slow + streams:
        sock.close()


def test_one_address_holds_a_bounded_number_of_connections(pegs_serve):
    port = pegs_serve
    socks = [connect(port, "127.0.0.9") for _ in range(100)]
    assert wait_until(lambda: sum(closed_by_server(s) for s in socks) >= 100 - 64 - 2, 30)
    assert Phone(port).get("/api/presets")[0] == 200
    for s in socks:
        s.close()


class Guarded:
    """`create_guarded_server` in a thread (limits given as keyword arguments)."""

    def __init__(self, **limits):
        self.app = make_app()
        self.server = create_guarded_server(self.app, "127.0.0.1", 0, threads=4, **limits)
        self.port = self.server.effective_port
        self.stopping = False
        self.rounds = 0   # the server loop's turns, and its maintenance calls (idle, deadline checks)
        self.checks = 0
        check = self.server.maintenance

        def counted(now):
            check(now)
            self.checks += 1
        self.server.maintenance = counted
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.stopping:
            self.server.asyncore.loop(timeout=0.05, map=self.server._map, count=1)
            self.rounds += 1

    def wait_rounds(self, n=10):
        """Until the server loop has gone round `n` more times (each polls every socket it may read)."""
        start = self.rounds
        assert wait_until(lambda: self.rounds >= start + n, 60), "the server loop stopped"

    def wait_checks(self, n=2):
        start = self.checks
        assert wait_until(lambda: self.checks >= start + n, 60), "the server's checks stopped"

    def close(self):
        self.stopping = True
        self.thread.join(5)
        self.server.task_dispatcher.shutdown(timeout=5)
        for channel in list(self.server._map.values()):
            channel.close()
        self.app.extensions["pegs"].close()


def answered(conn) -> bool:
    """Whether a response waits on `conn`'s socket (nothing read)."""
    return bool(select.select([conn.sock], [], [], 0)[0])


def test_an_address_that_floods_is_read_no_faster_than_its_budget(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(web.server, "time", clock)
    guarded = Guarded(rate=10, burst=5)
    try:
        def asker(source):
            return http.client.HTTPConnection("127.0.0.1", guarded.port, timeout=60, source_address=(source, 0))

        def ask(conn):
            conn.request("GET", "/api/presets")
            response = conn.getresponse()
            assert response.status == 200 and response.read()
        flood = asker("127.0.0.7")
        for _ in range(5):   # the burst, with the clock standing still
            ask(flood)
        flood.request("GET", "/api/presets")
        guarded.wait_rounds()
        assert not answered(flood)   # spent: its socket is not read while no time passes
        clock.t += 0.15              # 1.5 requests' worth at 10 a second: one more
        assert flood.getresponse().read()
        flood.request("GET", "/api/presets")
        guarded.wait_rounds()
        assert not answered(flood)
        clock.t += 60                # a long pause refills the budget to its burst, no more
        assert flood.getresponse().read()
        for _ in range(4):
            ask(flood)
        flood.request("GET", "/api/presets")
        guarded.wait_rounds()
        assert not answered(flood)
        flood.close()
        own = asker("127.0.0.1")     # the companion's own browser is not metered: 25 at a standstill
        for _ in range(25):
            ask(own)
        own.close()
    finally:
        guarded.close()


def test_a_request_that_trickles_in_is_closed_after_the_deadline(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(web.server, "time", clock)
    # idle connections stay (an hour): only the request deadline may close this one
    guarded = Guarded(request_deadline=1.0, cleanup_interval=0.2, idle_timeout=3600)
    server = guarded.server
    try:
        port = guarded.port
        sock = connect(port, "127.0.0.1")
        sock.send(Trickle.HEAD[:20])

        def begun():
            return any(getattr(c, "request_started", None) is not None for c in list(server.active_channels.values()))
        assert wait_until(begun, 60)
        for _ in range(9):           # 0.9 s of its clock, a byte every 0.1 s: still within the deadline
            clock.t += 0.1
            sock.send(b"a")
            guarded.wait_checks()
            assert not closed_by_server(sock)
        clock.t += 0.2               # past it, though bytes still come
        sock.send(b"a")
        assert wait_until(lambda: closed_by_server(sock), 60)
        phone = Phone(port)
        status, body, _ = phone.get("/api/presets")   # a request that arrives whole is answered
        assert status == 200 and body
        sock.close()
        phone.conn.close()
        # every connection closed is uncounted: the address is not locked out by its past
        assert wait_until(lambda: not server.connections_by_address, 30), server.connections_by_address
    finally:
        guarded.close()


def test_too_few_threads_are_refused_and_the_stream_cap_leaves_threads_for_requests(tmp_path, capsys,
                                                                                   monkeypatch):
    monkeypatch.setattr(cfgmod, "SYSTEM_CONFIG", tmp_path / "none.toml")
    monkeypatch.delenv("PEGS_CONFIG", raising=False)
    assert serve_command(["--threads", "8", "--check", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "serve.threads (from --threads): must be a whole number 16-512" in err
    for threads in range(16, 513):
        assert stream_cap(threads) >= 8 and threads - stream_cap(threads) >= REQUEST_THREADS
