"""Fixtures for the web tests: an app over an in-memory store, a live waitress server,
and helpers that act like phones. Tests import helpers with `from webkit import ...`
(a module named conftest clashes with another folder's when folders are collected
together); conftest.py re-exports the fixtures."""
from __future__ import annotations

import http.client
import json
import threading
import time

import pytest

from web import create_app

from tests.helpers.livekit import LiveServer  # noqa: F401 - the tests here import it from webkit

H = {"X-Pegs-Request": "1"}


def make_app(**config):
    return create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 1.0, **config})


@pytest.fixture
def app():
    a = make_app()
    yield a
    a.extensions["pegs"].close()


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, **over):
    body = {"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Bob", "Cy", "Di"]}
    body.update(over)
    r = client.post("/api/games", json=body, headers=H)
    assert r.status_code == 201, r.get_json()
    return r.get_json()["gid"]


def join_all(app, gid, seats=None):
    """A test client per seat, each holding its seat cookie."""
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    phones = {}
    for seat in (range(len(table.seats)) if seats is None else seats):
        phone = app.test_client()
        code = svc.join_code(table, seat)
        r = phone.post("/api/join", json={"code": code}, headers=H)
        assert r.status_code == 200, r.get_json()
        phones[seat] = phone
    return phones


@pytest.fixture
def live(app):
    srv = LiveServer(app)
    yield srv
    srv.close()


class Phone:
    """A minimal HTTP client with its own cookies (http.client, one connection per call)."""

    def __init__(self, port, source=None):
        self.port = port
        self.cookies = {}
        self.source = source   # e.g. "127.0.0.12": a phone on the LAN (see lankit.LanPhones)

    conn = None

    def request(self, method, path, body=None, timeout=60, headers=None):
        if self.conn is None:  # one kept-alive connection per phone
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                                   source_address=(self.source, 0) if self.source else None)
        conn = self.conn
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers.update({"Content-Type": "application/json", **H})
        try:
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            self.conn = None
            raise
        for k, v in resp.getheaders():
            if k.lower() == "set-cookie":
                name, _, rest = v.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return resp.status, raw

    def get(self, path):
        status, raw = self.request("GET", path)
        return status, json.loads(raw) if raw else None, raw

    def post(self, path, body, headers=None):
        status, raw = self.request("POST", path, body, headers=headers)
        return status, json.loads(raw) if raw else None, raw


class SSEListener(threading.Thread):
    """Reads a server-sent-event stream, keeping every raw chunk and each event's arrival time."""

    def __init__(self, port, gid, client_id):
        super().__init__(daemon=True)
        self.port, self.gid, self.client_id = port, gid, client_id
        self.raw = []
        self.events = []  # (monotonic time, version)
        self.stop = False
        self.ready = threading.Event()

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", f"/api/games/{self.gid}/events?client={self.client_id}")
        resp = conn.getresponse()
        buf = b""
        while not self.stop:
            try:
                chunk = resp.read1(65536)
            except Exception:
                break
            if not chunk:
                break
            now = time.monotonic()
            self.raw.append(chunk)
            buf += chunk
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        self.events.append((now, json.loads(line[6:])["version"]))
                        self.ready.set()
        conn.close()


def wait_until(pred, timeout=30.0, step=0.01):
    """Whether `pred()` came true; `timeout` is a ceiling against a hang, not a budget."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return False


@pytest.fixture(autouse=True)
def no_server_errors(caplog):
    """Every web test also checks that nothing answered with an unexpected 500."""
    yield
    bad = [r for r in caplog.get_records("call") if r.name.startswith("web") and r.levelname == "ERROR"]
    assert not bad, [r.getMessage() for r in bad]


def choose(plays, rng, team_sides, bluff_rate=0.2, doubt_rate=0.1):
    """A client-side player: picks from the legal-move endpoint's answer, favouring moves
    that put pegs home or on the board (so games end), sometimes bluffing and doubting.
    Returns the JSON body to POST to /act (without the version)."""
    if plays.get("choices"):
        return {"move": "doubt" if rng.random() < doubt_rate else "pass"}
    if plays.get("penalty"):
        return {"move": rng.choice(plays["penalty"])["move"]}
    def score(m):
        res = m.get("result", {})
        return sum(100 * t.startswith("H") + 10 * t.startswith("M")
                   for side, toks in res.items() for t in toks if side in team_sides) + rng.random()

    if plays["bluffing"]:
        cards = plays["cards"]
        options = [(m, c["card"]) for rank, moves in plays["declare"].items() for m in moves
                   for c in cards if c["rank"] == rank or rng.random() < bluff_rate / 5]
        if options:
            m, card = max(options, key=lambda o: score(o[0]))
            return {"move": m["move"], "card": card}
        card = rng.choice(cards)["card"]
        return {"move": f"{card[:-1] if card != 'JK' else 'JK'} discard", "card": card}
    options = [(m, c["card"]) for c in plays["cards"] for m in c["moves"]]
    if options:
        m, card = max(options, key=lambda o: score(o[0]))
        return {"move": m["move"], "card": card}
    c = rng.choice(plays["cards"])
    return {"move": f"{c['rank']} discard", "card": c["card"]}
