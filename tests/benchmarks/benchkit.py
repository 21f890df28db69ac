"""What the benchmark scripts share: the CPU's name, an HTTP call that keeps cookies, percentiles,
a `pegs serve` to measure and a 10-seat table on it."""
from __future__ import annotations

import contextlib
import http.client
import json
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cpu_name() -> str:
    """The CPU's model name (/proc/cpuinfo), else what platform knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def call(port, method, path, body=None, cookies=None, source=None):
    """(status, JSON body) of one request to 127.0.0.1:port (from `source`, a 127.0.0.N, if
    given); `cookies` (a dict) is sent and updated."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(source, 0) if source else None)
    headers = {}
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers.update({"Content-Type": "application/json", "X-Pegs-Request": "1"})
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    raw = resp.read()
    for k, v in resp.getheaders():
        if k.lower() == "set-cookie" and cookies is not None:
            name, _, rest = v.partition("=")
            cookies[name] = rest.split(";", 1)[0]
    conn.close()
    return resp.status, json.loads(raw)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


@contextlib.contextmanager
def pegs_serve(*args):
    """`python -m web` (waitress, as `pegs serve`) on a free 127.0.0.1 port with a temporary
    data folder, `args` added; yields (port, pid) once it listens, stops it with SIGTERM."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tempfile.mkdtemp(prefix="pegs-bench-")
    proc = subprocess.Popen([sys.executable, "-m", "web", "--host", "127.0.0.1", "--port", str(port),
                             "--data-dir", data, *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port, proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def ten_seat_table(port):
    """A 10-player table with every seat joined: (gid, the host's cookies, each seat's cookies)."""
    host = {}
    _, created = call(port, "POST", "/api/games", {"preset": "basic", "players": 10, "teams": 2,
                                                   "names": [f"Player{i}" for i in range(10)]}, host)
    gid = created["gid"]
    _, info = call(port, "GET", f"/api/games/{gid}/host", cookies=host)
    seats = []
    for s in info["seats"]:
        jar = {}
        call(port, "POST", "/api/join", {"code": s["code"]}, jar)
        seats.append(jar)
    return gid, host, seats


def cpu_seconds(pid) -> float:
    """User + system CPU time a process has used so far (Linux /proc)."""
    import os
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
