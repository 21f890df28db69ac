"""Players' latency on a hostile Wi-Fi (not a pytest test): python tests/benchmarks/bench_hostile.py
[--seconds 30] [--threads 48] [--streams 60] [--half-open 150] [--reconnect-delay 0]
[--flood 1100] [--flood-addresses 20] [--storm 44]

Starts `python -m web` (waitress, as `pegs serve`) on 127.0.0.1 with a temporary data
folder and serve.loopback_admin = false (so every client counts as a phone on the Wi-Fi,
none as the companion itself), and a 10-player table whose ten seats are joined: 10 active
clients, each on its own address (127.0.0.10-19) with its own event stream, fetching its
seat's view (GET /api/games/G/me) after every event and every 0.25 s besides, while the
seat to act plays a legal move every 0.5 s. Three phases of --seconds each, in one run:

1. quiet;
2. attack A (issue 13): --streams anonymous event streams from 127.0.0.2 that reconnect
   when ended (at once, or after --reconnect-delay), and --half-open connections (spread
   over 127.0.0.3-5) each sending one byte of an endless request head a second,
   reconnecting when closed;
3. attack B (issue 22): the connection flood, --flood half-open connections spread over
   --flood-addresses addresses (127.0.0.30...), a byte a second, reconnecting when closed;
   and the stream storm, a 10-seat table of the attacker's own (made from 127.0.0.20, every
   seat joined) whose seat pages open --storm streams from as many addresses
   (127.0.0.100...), reconnecting at once when ended or refused. During it, 10 fresh
   requests from a new address (127.0.0.200, a new connection each, 3 s timeout) say
   whether a newcomer still gets in.

Prints, per phase, the seat view GET's p50 / p95 / p99 / max in milliseconds, the failed
GETs, how often a player's stream was ended, the CPU the server used (in cores: the
attack's cost whatever else runs on the machine) and the load average.
"""
from __future__ import annotations

import argparse
import http.client
import os
import platform
import random
import socket
import statistics
import tempfile
import threading
import time

from benchkit import call, cpu_name, cpu_seconds, pct, pegs_serve, ten_seat_table  # noqa: E402


class Player(threading.Thread):
    """A seat's phone: its event stream, and a timed view GET after each event and every 0.25 s."""

    def __init__(self, port, gid, cookies, name, source):
        super().__init__(daemon=True)
        self.port, self.gid, self.name, self.source = port, gid, name, source
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.times, self.failed, self.stream_ended = [], 0, 0
        self.recording = False
        self.halt = False
        self.poke = threading.Event()

    def view(self, conn):
        t0 = time.perf_counter()
        try:
            conn.request("GET", f"/api/games/{self.gid}/me", headers={"Cookie": self.cookie})
            r = conn.getresponse()
            r.read()
            ok = r.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
        if self.recording:
            if ok:
                self.times.append((time.perf_counter() - t0) * 1000)
            else:
                self.failed += 1
        return ok

    def run(self):
        threading.Thread(target=self.stream, daemon=True).start()
        conn = self.connect(10)
        while not self.halt:
            self.poke.wait(0.25)
            self.poke.clear()
            if not self.view(conn):
                conn.close()
                conn = self.connect(10)

    def connect(self, timeout):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(self.source, 0))

    def stream(self):
        while not self.halt:
            sse = self.connect(60)
            try:
                sse.request("GET", f"/api/games/{self.gid}/events?client=bench-{self.name}",
                            headers={"Cookie": self.cookie})
                resp = sse.getresponse()
                while not self.halt:
                    chunk = resp.read1(65536)
                    if not chunk:
                        break
                    if b"event: version" in chunk:
                        self.poke.set()
            except (OSError, http.client.HTTPException):
                pass
            sse.close()
            if not self.halt:
                if self.recording:
                    self.stream_ended += 1
                time.sleep(1.5)   # EventSource's retry


class Attack:
    def __init__(self, port, gid, streams, half_open, delay):
        self.port, self.gid, self.delay = port, gid, delay
        self.halt = False
        self.threads = [threading.Thread(target=self.stream, args=(i,), daemon=True) for i in range(streams)]
        self.threads.append(threading.Thread(target=self.trickle, args=(half_open,), daemon=True))
        self.reconnects = 0

    def start(self):
        for t in self.threads:
            t.start()

    def stop(self):
        self.halt = True

    def stream(self, i):
        while not self.halt:
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=2, source_address=("127.0.0.2", 0))
                s.sendall(f"GET /api/games/{self.gid}/events?client=attacker-{i:04d} HTTP/1.1\r\n"
                          f"Host: 127.0.0.1\r\n\r\n".encode())
                s.settimeout(1)
                first = True
                while not self.halt:
                    try:
                        chunk = s.recv(65536)
                    except socket.timeout:
                        continue
                    if not chunk or (first and b" 200 " not in chunk.split(b"\r\n", 1)[0]):
                        break   # ended, or refused: try again
                    first = False
                s.close()
                self.reconnects += 1
                time.sleep(self.delay)
            except OSError:
                time.sleep(0.05)

    def trickle(self, n):
        def opened(i):
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                             source_address=(f"127.0.0.{3 + i % 3}", 0))
                s.setblocking(False)
                return s
            except OSError:
                return None
        socks = [opened(i) for i in range(n)]
        head = b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 1000
        k = 0
        while not self.halt:
            for i, s in enumerate(socks):
                if s is None:
                    socks[i] = opened(i)
                    continue
                try:
                    s.send(head[k % len(head):k % len(head) + 1])
                except OSError:
                    s.close()
                    socks[i] = opened(i)
            k += 1
            time.sleep(1)
        for s in socks:
            if s is not None:
                s.close()


class Flood:
    """Attack B: half-open connections spread over many addresses, and a stream storm from a
    table of the attacker's own (every seat joined), each page from its own address."""

    HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000

    def __init__(self, port, half_open, addresses, storm):
        self.port, self.half_open, self.addresses, self.storm = port, half_open, addresses, storm
        self.halt = False
        self.reconnects = 0
        self.closed = 0
        self.jars = []
        if storm:
            boss = {}
            _, made = call(port, "POST", "/api/games", {"preset": "basic", "players": 10, "teams": 2,
                                                       "names": [f"Z{i}" for i in range(10)]}, boss,
                           source="127.0.0.20")
            self.gid = made["gid"]
            _, info = call(port, "GET", f"/api/games/{self.gid}/host", cookies=boss, source="127.0.0.20")
            for i, seat in enumerate(info["seats"]):
                jar = {}
                call(port, "POST", "/api/join", {"code": seat["code"]}, jar, source=f"127.0.0.{21 + i}")
                self.jars.append(jar)
        self.threads = [threading.Thread(target=self.stream, args=(i,), daemon=True) for i in range(storm)]
        self.threads.append(threading.Thread(target=self.trickle, daemon=True))

    def start(self):
        for t in self.threads:
            t.start()

    def stop(self):
        self.halt = True

    def stream(self, i):
        cookie = "; ".join(f"{k}={v}" for k, v in self.jars[i % len(self.jars)].items())
        while not self.halt:
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                             source_address=(f"127.0.0.{100 + i}", 0))
                s.sendall(f"GET /api/games/{self.gid}/events?client=storm-{i:04d} HTTP/1.1\r\n"
                          f"Host: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n".encode())
                s.settimeout(1)
                first = True
                while not self.halt:
                    try:
                        chunk = s.recv(65536)
                    except socket.timeout:
                        continue
                    if not chunk or (first and b" 200 " not in chunk.split(b"\r\n", 1)[0]):
                        break
                    first = False
                s.close()
                self.reconnects += 1
            except OSError:
                time.sleep(0.05)

    def trickle(self):
        def opened(i):
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                             source_address=(f"127.0.0.{30 + i % self.addresses}", 0))
                s.setblocking(False)
                return s
            except OSError:
                return None
        socks = [opened(i) for i in range(self.half_open)]
        k = 0
        while not self.halt:
            t0 = time.monotonic()
            for i, s in enumerate(socks):
                if s is None:
                    socks[i] = opened(i)
                    continue
                try:
                    s.send(self.HEAD[k % len(self.HEAD):k % len(self.HEAD) + 1])
                except OSError:
                    s.close()
                    self.closed += 1
                    socks[i] = None   # reopened on the next round
            k += 1
            time.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))
        for s in socks:
            if s is not None:
                s.close()


def newcomer(port, n=10, timeout=3.0):
    """n requests from a new address (a new connection each): how many were answered in time."""
    ok = 0
    for _ in range(n):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=("127.0.0.200", 0))
            conn.request("GET", "/api/presets")
            r = conn.getresponse()
            r.read()
            conn.close()
            ok += r.status == 200
        except OSError:
            pass
        time.sleep(0.2)
    return ok


def play(port, gid, seats, halt):
    try:
        _play(port, gid, seats, halt)
    except (OSError, http.client.HTTPException, ValueError):
        if not halt.is_set():
            raise


def _play(port, gid, seats, halt):
    rng = random.Random(1)
    while not halt.is_set():
        halt.wait(0.5)
        _, tv = call(port, "GET", f"/api/games/{gid}/table")
        if tv["phase"] == "over":
            return
        jar = seats[tv["actor"]]
        _, plays = call(port, "GET", f"/api/games/{gid}/plays", cookies=jar)
        options = [(m["move"], c["card"]) for c in plays.get("cards", []) for m in c["moves"]]
        if not options:
            c = rng.choice(plays["cards"])
            options = [(f"{c['rank']} discard", c["card"])]
        move, card = rng.choice(options)
        call(port, "POST", f"/api/games/{gid}/act", {"move": move, "card": card, "version": tv["version"]}, jar)


def measure(players, seconds, pid):
    for p in players:
        p.times, p.failed, p.stream_ended = [], 0, 0
        p.recording = True
    load0, cpu0 = os.getloadavg()[0], cpu_seconds(pid)
    time.sleep(seconds)
    cpu = (cpu_seconds(pid) - cpu0) / seconds
    for p in players:
        p.recording = False
    times = [t for p in players for t in p.times]
    return {"n": len(times), "p50": statistics.median(times), "p95": pct(times, 95), "p99": pct(times, 99),
            "max": max(times), "failed": sum(p.failed for p in players),
            "ended": sum(p.stream_ended for p in players), "load": (load0 + os.getloadavg()[0]) / 2,
            "cpu": cpu}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--threads", type=int, default=48)
    ap.add_argument("--streams", type=int, default=60)
    ap.add_argument("--half-open", type=int, default=150)
    ap.add_argument("--reconnect-delay", type=float, default=0.0,
                    help="seconds an attacker's stream waits before it reconnects (0: at once; "
                         "1.5: as EventSource does)")
    ap.add_argument("--flood", type=int, default=1100, help="attack B's half-open connections")
    ap.add_argument("--flood-addresses", type=int, default=20)
    ap.add_argument("--storm", type=int, default=44, help="attack B's seat streams of the attacker's table")
    args = ap.parse_args()
    halt = threading.Event()
    config = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    config.write("[serve]\nloopback_admin = false\n")   # every client a phone on the Wi-Fi
    config.close()
    with pegs_serve("--threads", str(args.threads), "--config", config.name) as (port, pid):
        gid, _, seats = ten_seat_table(port)
        players = [Player(port, gid, jar, f"seat{i}", f"127.0.0.{10 + i}") for i, jar in enumerate(seats)]
        for p in players:
            p.start()
        threading.Thread(target=play, args=(port, gid, seats, halt), daemon=True).start()
        time.sleep(2)
        quiet = measure(players, args.seconds, pid)
        attack = Attack(port, gid, args.streams, args.half_open, args.reconnect_delay)
        attack.start()
        time.sleep(3)
        hostile = measure(players, args.seconds, pid)
        attack.stop()
        time.sleep(2)
        flood = Flood(port, args.flood, args.flood_addresses, args.storm)
        flood.start()
        time.sleep(3)
        answered = []
        prober = threading.Thread(target=lambda: answered.append(newcomer(port)), daemon=True)
        prober.start()
        flooded = measure(players, args.seconds, pid)
        prober.join(60)
        flood.stop()
        halt.set()
        for p in players:
            p.halt = True
        print(f"Seat view GET latency, localhost, waitress --threads {args.threads}, 10 active seat clients "
              f"(each its own address: stream + view after each event and every 0.25 s), a move every 0.5 s, "
              f"{args.seconds:g} s a phase; {cpu_name()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
        print()
        print("| phase | GETs | p50 ms | p95 ms | p99 ms | max ms | failed | players' streams ended "
              "| server CPU (cores) | load avg |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, r in (("quiet", quiet),
                        (f"A: + {args.streams} anonymous streams (reconnecting after {args.reconnect_delay:g} s), "
                         f"{args.half_open} half-open", hostile),
                        (f"B: + {args.flood} half-open from {args.flood_addresses} addresses, "
                         f"{args.storm} seat streams of the attacker's table from {args.storm} addresses", flooded)):
            print(f"| {name} | {r['n']} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | "
                  f"{r['failed']} | {r['ended']} | {r['cpu']:.2f} | {r['load']:.2f} |")
        print(f"\nA: attacker stream reconnects (ended or refused by the server): {attack.reconnects}")
        print(f"B: storm stream reconnects: {flood.reconnects}; flood connections closed by the server: "
              f"{flood.closed}; a new address's fresh requests answered within 3 s: "
              f"{answered[0] if answered else '?'} of 10")
    os.unlink(config.name)


if __name__ == "__main__":
    main()
