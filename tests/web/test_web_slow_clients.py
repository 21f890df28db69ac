"""Connections that never finish a request, and too few threads (issue 13 points 9, 10):
the players are still served. Against a real `pegs serve` (waitress) on 127.0.0.1; the
strangers connect from other loopback addresses (127.0.0.2...), as other hosts on the
Wi-Fi would."""
from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

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
    """Sends one byte a second on each socket (an endless request head), for `seconds`."""

    HEAD = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100

    def __init__(self, socks, seconds, every=1.0):
        super().__init__(daemon=True)
        self.socks, self.seconds, self.every = socks, seconds, every
        self.closed = set()

    def run(self):
        end = time.monotonic() + self.seconds
        i = 0
        while time.monotonic() < end:
            for n, sock in enumerate(self.socks):
                if n in self.closed:
                    continue
                try:
                    sock.send(self.HEAD[i % len(self.HEAD):i % len(self.HEAD) + 1])
                except OSError:
                    self.closed.add(n)
            i += 1
            time.sleep(self.every)


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
    assert wait_until(up, 20, 0.05) and proc.poll() is None, proc.stdout.read()
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
    trickle = Trickle(slow, seconds=6)
    trickle.start()
    # and more event streams than the 16 threads could hold (the cap leaves threads free)
    streams = []
    for i in range(20):
        sock = connect(port, "127.0.0.5")
        sock.setblocking(True)
        sock.sendall(f"GET /api/games/{gid}/events?client=stranger-{i:03d} HTTP/1.1\r\n"
                     f"Host: 127.0.0.1\r\n\r\n".encode())
        streams.append(sock)
    times, failures = [], []
    seat.conn.close()
    seat.conn = None   # a new kept-alive connection, opened among the strangers' (3 s timeout)
    end = time.monotonic() + 4
    while time.monotonic() < end:
        t0 = time.monotonic()
        try:
            status, _ = seat.request("GET", f"/api/games/{gid}/me", timeout=3)
            if status != 200:
                failures.append(status)
        except OSError as exc:
            failures.append(repr(exc))
            seat.conn = None
        times.append(time.monotonic() - t0)
        time.sleep(0.05)
    trickle.join()
    assert not failures, failures[:3]
    times.sort()
    assert len(times) >= 10 and times[int(0.95 * (len(times) - 1))] < 1.0, times[-5:]
    for sock in slow + streams:
        sock.close()


def test_one_address_holds_a_bounded_number_of_connections(pegs_serve):
    port = pegs_serve
    socks = [connect(port, "127.0.0.9") for _ in range(100)]
    assert wait_until(lambda: sum(closed_by_server(s) for s in socks) >= 100 - 64 - 2, 5)
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
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.stopping:
            self.server.asyncore.loop(timeout=0.05, map=self.server._map, count=1)

    def close(self):
        self.stopping = True
        self.thread.join(5)
        self.server.task_dispatcher.shutdown(timeout=5)
        for channel in list(self.server._map.values()):
            channel.close()
        self.app.extensions["pegs"].close()


def test_an_address_that_floods_is_read_no_faster_than_its_budget():
    guarded = Guarded(rate=10, burst=5)
    try:
        def twenty_five_from(source):
            conn = http.client.HTTPConnection("127.0.0.1", guarded.port, timeout=10, source_address=(source, 0))
            t0 = time.monotonic()
            for _ in range(25):
                conn.request("GET", "/api/presets")
                assert conn.getresponse().read()
            conn.close()
            return time.monotonic() - t0
        assert twenty_five_from("127.0.0.7") >= 1.5   # 5 at once, then 10 a second: 2 s
        assert twenty_five_from("127.0.0.1") < 1.5    # the companion's own browser is not metered
    finally:
        guarded.close()


def test_a_request_that_trickles_in_is_closed_after_the_deadline():
    guarded = Guarded(request_deadline=1.0, cleanup_interval=0.2)
    server = guarded.server
    try:
        port = guarded.port
        sock = connect(port, "127.0.0.1")
        trickle = Trickle([sock], seconds=4, every=0.2)
        trickle.start()
        t0 = time.monotonic()
        assert wait_until(lambda: closed_by_server(sock), 4)
        assert 0.9 < time.monotonic() - t0 < 3
        phone = Phone(port)
        status, body, _ = phone.get("/api/presets")   # a request that arrives whole is answered
        assert status == 200 and body
        sock.close()
        phone.conn.close()
        # every connection closed is uncounted: the address is not locked out by its past
        assert wait_until(lambda: not server.connections_by_address, 3), server.connections_by_address
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
