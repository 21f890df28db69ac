"""Players' latency on a hostile Wi-Fi (not a pytest test): python tests/benchmarks/bench_hostile.py
[--seconds 30] [--threads 48] [--streams 60] [--half-open 150] [--reconnect-delay 0]

Starts `python -m web` (waitress, as `pegs serve`) on 127.0.0.1 with a temporary data
folder and a 10-player table whose ten seats are joined: 10 active clients, each with its
own event stream, fetching its seat's view (GET /api/games/G/me) after every event and
every 0.25 s besides, while the seat to act plays a legal move every 0.5 s. Two phases
of --seconds each: quiet, then under attack from other loopback addresses (other hosts
on the Wi-Fi): --streams anonymous event streams from 127.0.0.2 that reconnect when
ended (at once, or after --reconnect-delay), and --half-open connections (spread over
127.0.0.3-5) each sending one byte of an endless request head a second, reconnecting
when closed.

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
import threading
import time

from benchkit import call, cpu_name, cpu_seconds, pct, pegs_serve, ten_seat_table  # noqa: E402


class Player(threading.Thread):
    """A seat's phone: its event stream, and a timed view GET after each event and every 0.25 s."""

    def __init__(self, port, gid, cookies, name):
        super().__init__(daemon=True)
        self.port, self.gid, self.name = port, gid, name
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
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        while not self.halt:
            self.poke.wait(0.25)
            self.poke.clear()
            if not self.view(conn):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)

    def stream(self):
        while not self.halt:
            sse = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
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
    args = ap.parse_args()
    halt = threading.Event()
    with pegs_serve("--threads", str(args.threads)) as (port, pid):
        gid, _, seats = ten_seat_table(port)
        players = [Player(port, gid, jar, f"seat{i}") for i, jar in enumerate(seats)]
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
        halt.set()
        for p in players:
            p.halt = True
        print(f"Seat view GET latency, localhost, waitress --threads {args.threads}, 10 active seat clients "
              f"(stream + view after each event and every 0.25 s), a move every 0.5 s, {args.seconds:g} s a phase; "
              f"{cpu_name()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
        print()
        print("| phase | GETs | p50 ms | p95 ms | p99 ms | max ms | failed | players' streams ended "
              "| server CPU (cores) | load avg |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, r in (("quiet", quiet),
                        (f"+ {args.streams} anonymous streams (reconnecting after {args.reconnect_delay:g} s), "
                         f"{args.half_open} half-open", hostile)):
            print(f"| {name} | {r['n']} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | "
                  f"{r['failed']} | {r['ended']} | {r['cpu']:.2f} | {r['load']:.2f} |")
        print(f"\nattacker stream reconnects (ended or refused by the server): {attack.reconnects}")


if __name__ == "__main__":
    main()
