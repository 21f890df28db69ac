"""Web push benchmark (not a pytest test): python tests/benchmarks/bench_web.py [--actions N]

Starts `python -m web` (waitress, as `pegs serve`) on a free localhost port with
a temporary data directory, creates a 10-player table, joins all ten seats and
opens a table view: 11 live pages, each with its own server-sent-event stream.
Then the seat to act plays (a legal play from the legal-move endpoint) N times,
one at a time, and for each action it measures, from the moment the POST is
sent:

* event: until each of the 11 streams has delivered the new version;
* view: until each page has also fetched its own view after that event
  (what a phone needs before it can redraw).

Prints p50 / p95 / max over all (action, page) pairs, in milliseconds.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import statistics
import threading
import time

from benchkit import call, cpu_name, pct, pegs_serve, ten_seat_table  # noqa: E402


class Page(threading.Thread):
    """One phone (or the table view): an SSE stream, and a view fetch after each event."""

    def __init__(self, port, gid, view_path, cookies, name):
        super().__init__(daemon=True)
        self.port, self.gid, self.view_path, self.name = port, gid, view_path, name
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.arrived = {}   # version -> (event time, view time)
        self.ready = threading.Event()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def run(self):
        sse = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sse.request("GET", f"/api/games/{self.gid}/events?client=bench-{self.name}")
        resp = sse.getresponse()
        buf = b""
        while True:
            chunk = resp.read1(65536)
            if not chunk:
                return
            buf += chunk
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        t_event = time.perf_counter()
                        version = json.loads(line[6:])["version"]
                        try:
                            self.conn.request("GET", self.view_path, headers={"Cookie": self.cookie})
                            r = self.conn.getresponse()
                            r.read()
                        except (OSError, http.client.HTTPException):
                            return   # the server is stopping (a board event at shutdown)
                        self.arrived[version] = (t_event, time.perf_counter())
                        self.ready.set()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=200)
    args = ap.parse_args()
    with pegs_serve() as (port, _):
        gid, _, seats = ten_seat_table(port)
        pages = [Page(port, gid, f"/api/games/{gid}/me", jar, f"seat{i}") for i, jar in enumerate(seats)]
        pages.append(Page(port, gid, f"/api/games/{gid}/table", {}, "table"))
        for p in pages:
            p.start()
        for p in pages:
            p.ready.wait(10)
        rng = random.Random(1)
        ev, vw = [], []
        for _ in range(args.actions):
            _, tv = call(port, "GET", f"/api/games/{gid}/table")
            if tv["phase"] == "over":
                break
            jar = seats[tv["actor"]]
            _, plays = call(port, "GET", f"/api/games/{gid}/plays", cookies=jar)
            options = [(m["move"], c["card"]) for c in plays["cards"] for m in c["moves"]]
            if not options:
                c = rng.choice(plays["cards"])
                options = [(f"{c['rank']} discard", c["card"])]
            move, card = rng.choice(options)
            t0 = time.perf_counter()
            status, ans = call(port, "POST", f"/api/games/{gid}/act",
                               {"move": move, "card": card, "version": tv["version"]}, jar)
            assert status == 200, ans
            version = ans["version"]
            deadline = time.time() + 10
            while not all(version in p.arrived for p in pages) and time.time() < deadline:
                time.sleep(0.0005)
            for p in pages:
                te, tview = p.arrived[version]
                ev.append((te - t0) * 1000)
                vw.append((tview - t0) * 1000)
        n = len(ev) // len(pages)
        cpu = cpu_name()
        print(f"Web push latency, localhost, {len(pages)} live pages (10 seats + table view), "
              f"{n} actions; {cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
        print()
        print("| from the POST of an action to ... | p50 ms | p95 ms | max ms |")
        print("| --- | ---: | ---: | ---: |")
        print(f"| the event at every page | {statistics.median(ev):.1f} | {pct(ev, 95):.1f} | {max(ev):.1f} |")
        print(f"| every page holding its new view | {statistics.median(vw):.1f} | {pct(vw, 95):.1f} | {max(vw):.1f} |")


if __name__ == "__main__":
    main()
