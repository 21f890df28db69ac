"""What the benchmark scripts share: the CPU's name, an HTTP call that keeps cookies, percentiles."""
from __future__ import annotations

import http.client
import json
import platform
from pathlib import Path


def cpu_name() -> str:
    """The CPU's model name (/proc/cpuinfo), else what platform knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def call(port, method, path, body=None, cookies=None):
    """(status, JSON body) of one request to 127.0.0.1:port; `cookies` (a dict) is sent and updated."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
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
