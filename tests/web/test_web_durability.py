"""Kill -9 at random points of a game and restart: the game goes on exactly where it
was (every seat's view, hands and stock included, and the version), nothing lost or
doubled. Also the server's command line and its clean shutdown."""
from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .webkit import Phone, choose, wait_until

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data_dir, port):
        self.data_dir, self.port = data_dir, port
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "web", "--host", "127.0.0.1", "--port", str(self.port),
             "--data-dir", str(self.data_dir), "--bot-delay", "0", "--threads", "16"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ok = wait_until(lambda: self._up() or self.proc.poll() is not None, 60, 0.05)
        assert ok and self.proc.poll() is None, self.proc.stdout.read()

    def _up(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "data", free_port())
    srv.start()
    yield srv
    if srv.proc.poll() is None:
        srv.kill()


def snapshot(phones, host, gid):
    views = {}
    for seat, phone in phones.items():
        status, body, _ = phone.get(f"/api/games/{gid}/me")
        assert status == 200, body
        views[seat] = body
    views["table"] = host.get(f"/api/games/{gid}/table")[1]
    return views


def test_kill_and_restart_at_random_points(server):
    rng = random.Random(7)
    host = Phone(server.port)
    status, created, _ = host.post("/api/games", {"preset": "basic", "players": 4,
                                                   "names": ["Ann", "Bob", "Cy", "Di"]})
    assert status == 201
    gid = created["gid"]
    info = host.get(f"/api/games/{gid}/host")[1]
    phones = {}
    for s in info["seats"]:
        phones[s["seat"]] = Phone(server.port)
        assert phones[s["seat"]].post("/api/join", {"code": s["code"]})[0] == 200

    def one_action():
        tv = host.get(f"/api/games/{gid}/table")[1]
        actor = tv["actor"]
        view = phones[actor].get(f"/api/games/{gid}/me")[1]
        team_sides = {str(view["seat_sides"][s]) for t in view["teams"] if actor in t for s in t}
        plays = phones[actor].get(f"/api/games/{gid}/plays")[1]
        body = {**choose(plays, rng, team_sides), "version": view["version"]}
        return actor, body

    for cycle in range(4):
        for _ in range(rng.randint(5, 40)):
            actor, body = one_action()
            status, ans, _ = phones[actor].post(f"/api/games/{gid}/act", body)
            assert status == 200, ans
        if cycle == 1:  # an undo and a pause are durable too
            v = host.get(f"/api/games/{gid}/table")[1]["version"]
            assert host.post(f"/api/games/{gid}/host/undo", {"version": v})[0] == 200
        before = snapshot(phones, host, gid)
        server.kill()
        for p in [host, *phones.values()]:
            p.conn = None
        server.start()
        after = snapshot(phones, host, gid)
        assert after == before  # hands, stock count, discard, log, version: all identical
    # a kill while an action is in flight: either it happened entirely or not at all
    actor, body = one_action()
    before = snapshot(phones, host, gid)
    t = threading.Thread(target=lambda: _quiet(phones[actor].post, f"/api/games/{gid}/act", body))
    t.start()
    time.sleep(rng.uniform(0, 0.01))
    server.kill()
    t.join(5)
    for p in [host, *phones.values()]:
        p.conn = None
    server.start()
    after = snapshot(phones, host, gid)
    if after["table"]["version"] == before["table"]["version"]:
        assert after == before
    else:
        assert len(after["table"]["log"]) in (len(before["table"]["log"]) + 1, 30)
        assert after["table"]["log"][-1]["move"] == body["move"]
        assert after["table"]["turn"] == before["table"]["turn"] + 1
    # and play goes on
    for _ in range(5):
        actor, body = one_action()
        assert phones[actor].post(f"/api/games/{gid}/act", body)[0] == 200


def _quiet(fn, *args):
    try:
        fn(*args)
    except Exception:
        pass


def test_sigterm_ends_streams_and_exits_cleanly(server):
    host = Phone(server.port)
    gid = host.post("/api/games", {"preset": "basic", "players": 2, "names": ["A", "B"]})[1]["gid"]
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", f"/api/games/{gid}/events?client=sigterm-test")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.read1(1000).startswith(b"retry:")
    server.proc.send_signal(signal.SIGTERM)
    rest = resp.read()  # the stream ends (chunked terminator) instead of hanging
    assert isinstance(rest, bytes)
    assert server.proc.wait(10) == 0
    out = server.proc.stdout.read()
    assert "http://127.0.0.1:" in out and "stopped." in out


def run_serve(*args, env=None):
    return subprocess.run([sys.executable, "-m", "web", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=20, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("args, words", [
    (["--port", "abc"], "serve.port (from --port): must be a whole number 1-65535, not 'abc'"),
    (["--port", "70000"], "serve.port (from --port): must be a whole number 1-65535"),
    (["--threads", "2"], "serve.threads (from --threads): must be a whole number 16-512"),
    (["--bot-delay", "-1"], "serve.bot_delay (from --bot-delay)"),
    (["--public-url", "192.168.1.2"], "serve.public_url (from --public-url): must be an address starting with"),
    (["--config", "/nonexistent.toml"], "/nonexistent.toml: file not found"),
    (["--nonsense"], "unrecognized arguments"),
])
def test_serve_rejects_bad_values_in_one_line(args, words, tmp_path):
    r = run_serve(*args, "--data-dir", str(tmp_path))
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and words in r.stderr, r.stderr


def test_serve_config_file(tmp_path):
    from web.cli import resolve
    cfg = tmp_path / "pegs.toml"
    cfg.write_text(f'[serve]\nport = 8123\ndata_dir = "{tmp_path / "d"}"\nbot_delay = 0.5\n')
    conf = resolve(["--config", str(cfg)])
    assert conf["port"] == 8123 and conf["bot_delay"] == 0.5 and conf["data_dir"] == str(tmp_path / "d")
    assert resolve(["--config", str(cfg), "--port", "9000"])["port"] == 9000
    cfg.write_text("[serve]\nport = 'x'\n")
    r = run_serve("--config", str(cfg))
    assert r.returncode == 2 and "serve.port: must be a whole number" in r.stderr
    cfg.write_text("colour = 1\n")
    r = run_serve("--config", str(cfg))
    assert r.returncode == 2 and "colour: unknown key" in r.stderr
    cfg.write_text("port = \n")
    r = run_serve("--config", str(cfg))
    assert r.returncode == 2 and "not valid TOML" in r.stderr
    r = run_serve("--port", "x", env={"PEGS_DATA_DIR": str(tmp_path / "env")})
    assert r.returncode == 2


def test_pegs_serve_entry_point_and_replay_of_an_exported_record(tmp_path):
    """`pegs serve` is found through the pegs.commands entry point; an exported record replays."""
    from companion.cli import main
    r = subprocess.run([sys.executable, "-c", "import sys; from companion.cli import main; "
                        "sys.exit(main(['serve', '--port', 'nope']))"],
                       cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert r.returncode == 2 and "pegs serve: serve.port" in r.stderr
    from .webkit import make_app, H
    app = make_app()
    c = app.test_client()
    gid = c.post("/api/games", json={"preset": "basic", "players": 4, "names": list("ABCD"),
                                     "bots": ["greedy"] * 4}, headers=H).get_json()["gid"]
    t = app.extensions["pegs"].get(gid)
    assert wait_until(lambda: t.game.is_over(), 60)
    rec = c.get(f"/api/games/{gid}/record").get_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path), "--json"]) == 0
    app.extensions["pegs"].close()


def test_undone_reshuffle_replays_exactly(tmp_path):
    """An undo across a reshuffle, then a new shuffle: the log replays to the same game."""
    from companion.game import Game
    from web.store import Store
    from web.tables import TableService
    store = Store(tmp_path / "g.sqlite3")
    svc = TableService(store, b"k" * 32, bot_delay=0)
    table, _ = svc.create({"preset": "basic", "players": 2, "names": ["A", "B"], "decks": 1})
    g = table.game
    rng = random.Random(3)
    def act():
        with table.cond:
            play = rng.choice(g.legal_plays())
            seat = g.actor
            table.push(play)  # as the service does: the move and its words
            svc._commit(table, [("action", {"seat": seat, "move": play.move.text(table.geo), "card": play.card})])

    while g.shoe.reshuffles == 0:
        act()
    with table.cond:
        table.apply("undo", {})
        svc._commit(table, [("undo", {})])
    assert g.shoe.reshuffles == 0
    while g.shoe.reshuffles == 0:
        act()
    svc.close()
    # every shuffle made is in the log: the deal, the undone reshuffle and the new one
    logged = [d["cards"] for _, kind, d in store.events(table.gid) if kind == "shuffle"]
    assert len(logged) == 3 and logged[1] != logged[2]
    assert g.record()["shuffles"] == [logged[0], logged[2]]
    again = TableService(Store(tmp_path / "g.sqlite3"), b"k" * 32, bot_delay=0)
    t2 = again.get(table.gid)
    assert t2.game.take_new_shuffles() == []  # dealt and drawn from the log alone
    assert t2.version == table.version and t2.game.hands == g.hands
    assert t2.game.shoe.stock == g.shoe.stock and t2.game.shoe.discard == g.shoe.discard
    for seat in (None, 0, 1):
        assert again.view(t2, seat) == svc.view(table, seat)
    with table.cond:
        table.ended = True
    from web.tables import token_hash
    table.host_hashes.add(token_hash("h"))
    rec = svc.record(table, "h")
    replayed = Game.from_record(rec)
    assert replayed.position == g.position and replayed.hands == g.hands
    assert replayed.shoe.stock == g.shoe.stock
    again.close()
