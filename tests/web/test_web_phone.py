"""Issue 14 on the server side of the phones: join links a phone can open, the undo
preview, seats handed to the computer and asked back, seat requests the host approves."""
from __future__ import annotations

import pytest
from .webkit import H, join_all, make_app, new_table

from web import netinfo


# ------------------------------------------------------------------ 14.9: links the server serves
@pytest.fixture
def lan(monkeypatch):
    monkeypatch.setattr(netinfo, "lan_ip", lambda: "192.168.4.1")


@pytest.mark.parametrize("request_host, bind, want", [
    ("127.0.0.1:8000", "127.0.0.1", "127.0.0.1:8000"),     # --host 127.0.0.1: nothing else answers
    ("localhost:8000", "127.0.0.1", "localhost:8000"),
    ("127.0.0.1:8000", "0.0.0.0", "192.168.4.1:8000"),     # every interface: the LAN address
    ("[::1]:8000", "::", "192.168.4.1:8000"),
    ("localhost", None, "192.168.4.1"),                    # not known (tests, other servers): as before
    ("192.168.4.1:8000", "0.0.0.0", "192.168.4.1:8000"),   # opened from a phone: as it came
])
def test_phone_host_uses_an_address_the_server_serves(lan, request_host, bind, want):
    assert netinfo.phone_host(request_host, bind) == want


@pytest.mark.parametrize("bind, link, local_only", [
    ("127.0.0.1", "http://localhost/j/", True),
    ("0.0.0.0", "http://192.168.4.1/j/", False),
])
def test_host_page_links_follow_the_listening_address(lan, bind, link, local_only):
    app = make_app(BIND_HOST=bind)
    try:
        host = app.test_client()
        gid = new_table(host)
        info = host.get(f"/api/games/{gid}/host").get_json()
        assert all(s["link"].startswith(link) for s in info["seats"]), info["seats"][0]["link"]
        assert info["local_only"] is local_only
    finally:
        app.extensions["pegs"].close()


def test_pegs_serve_on_loopback_links_to_the_address_it_listens_on(tmp_path):
    """The real server (`python -m web --host 127.0.0.1`): its join links stay on 127.0.0.1,
    and the console says phones can't reach it."""
    import signal

    from .webkit import Phone
    from .test_web_durability import Server, free_port
    srv = Server(tmp_path / "data", free_port())
    srv.start()
    try:
        host = Phone(srv.port)
        gid = host.post("/api/games", {"preset": "basic", "players": 2, "names": ["A", "B"]})[1]["gid"]
        info = host.get(f"/api/games/{gid}/host")[1]
        assert info["seats"][0]["link"].startswith(f"http://127.0.0.1:{srv.port}/j/"), info["seats"][0]["link"]
        assert info["local_only"] is True
    finally:
        srv.proc.send_signal(signal.SIGTERM)
        srv.proc.wait(10)
    assert "phones can't reach it" in srv.proc.stdout.read()


# ------------------------------------------------------------------ 14.8: undo says what it takes back
def test_undo_preview_names_the_move_and_the_computer_moves_after_it(app, client):
    gid = new_table(client, bots=[None, "greedy", "greedy", "greedy"])
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    phones = join_all(app, gid, seats=[0])
    assert client.get(f"/api/games/{gid}/host").get_json()["undo"] is None
    with table.cond:
        table.cond.wait_for(lambda: table.game.actor == 0, 60)   # a ceiling against a hang
    plays = phones[0].get(f"/api/games/{gid}/plays").get_json()
    move = next(({"move": m["move"], "card": c["card"]} for c in plays["cards"] for m in c["moves"]),
                {"move": f"{plays['cards'][0]['rank']} discard", "card": plays["cards"][0]["card"]})
    r = phones[0].post(f"/api/games/{gid}/act", json={"version": plays["version"], **move}, headers=H)
    assert r.status_code == 200, r.get_json()
    with table.cond:
        table.cond.wait_for(lambda: table.game.actor == 0 and len(table.game.history) == 4, 60)
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert info["undo"] == {"moves": 4, "who": "Ann (Red)"}
    r = client.post(f"/api/games/{gid}/host/undo", json={"version": info["version"]}, headers=H)
    assert r.get_json()["undone"] == info["undo"]["moves"]


# ------------------------------------------------------------------ 14.6 / 14.7: seats asked for
def host_post(client, gid, action, **body):
    info = client.get(f"/api/games/{gid}/host").get_json()
    if action in ("approve", "refuse") and "request" not in body and body.get("seat", 9) < len(info["seats"]):
        body["request"] = info["seats"][body["seat"]]["request"]
    return client.post(f"/api/games/{gid}/host/{action}", json={"version": info["version"], **body}, headers=H)


def test_a_seat_given_to_the_computer_says_so_and_can_be_asked_back(app, client):
    gid = new_table(client)
    phones = join_all(app, gid, seats=[0, 1])
    assert host_post(client, gid, "bot", seat=0, bot="greedy").status_code == 200
    r = phones[0].get(f"/api/games/{gid}/me")
    body = r.get_json()
    assert r.status_code == 403 and body["code"] == "seat_computer" and body["seat"] == 0
    assert body["error"] == "the host gave your seat to the computer"
    # the phone asks; nothing changes until the host taps
    r = phones[0].post(f"/api/games/{gid}/seat-request", json={}, headers=H)
    assert r.status_code == 200 and "Set-Cookie" not in r.headers   # it keeps its own token
    assert phones[0].get(f"/api/games/{gid}/me").get_json()["code"] == "seat_requested"
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert [bool(s["request"]) for s in info["seats"]] == [True, False, False, False]
    assert info["seats"][0]["bot"] == "greedy"
    assert host_post(client, gid, "approve", seat=0).status_code == 200
    assert phones[0].get(f"/api/games/{gid}/me").status_code == 200
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert info["seats"][0]["bot"] is None and info["seats"][0]["joined"] and info["seats"][0]["request"] is None
    assert host_post(client, gid, "approve", seat=0).status_code == 409   # nothing asked now


def test_a_fresh_phone_asks_for_a_taken_seat_and_the_host_decides(app, client):
    gid = new_table(client)
    svc = app.extensions["pegs"]
    old = join_all(app, gid, seats=[1])[1]
    code = svc.join_code(svc.get(gid), 1)
    fresh = app.test_client()
    page = fresh.get(f"/j/{code}").data
    assert b"Another phone has this seat already" in page and b'id="ask-seat"' in page
    r = fresh.post(f"/api/games/{gid}/seat-request", json={"code": code.lower()}, headers=H)
    assert r.status_code == 200 and "pj_s_" in r.headers["Set-Cookie"]
    assert fresh.get(f"/api/games/{gid}/me").get_json()["code"] == "seat_requested"
    assert b"You asked the host for this seat" in fresh.get(f"/j/{code}").data
    assert old.get(f"/api/games/{gid}/me").status_code == 200      # not silently moved
    assert host_post(client, gid, "refuse", seat=1).status_code == 200
    assert fresh.get(f"/api/games/{gid}/me").get_json()["code"] == "seat_refused"
    assert fresh.post(f"/api/games/{gid}/seat-request", json={}, headers=H).status_code == 200
    assert host_post(client, gid, "approve", seat=1).status_code == 200
    assert fresh.get(f"/api/games/{gid}/me").get_json()["seat"] == 1
    body = old.get(f"/api/games/{gid}/me").get_json()
    assert body["code"] == "seat_moved" and "moved Bob's seat to another phone" in body["error"]
    assert b"This phone has this seat" in fresh.get(f"/j/{code}").data


def test_seat_requests_that_make_no_sense_are_refused(app, client):
    gid = new_table(client)
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    phones = join_all(app, gid, seats=[0])
    free = svc.join_code(table, 2)
    r = app.test_client().post(f"/api/games/{gid}/seat-request", json={"code": free}, headers=H)
    assert r.status_code == 409 and "free" in r.get_json()["error"]
    r = phones[0].post(f"/api/games/{gid}/seat-request", json={"code": svc.join_code(table, 0)}, headers=H)
    assert r.status_code == 409 and "already holds" in r.get_json()["error"]
    for body, status in (({"code": "NOPE1234"}, 404), ({"code": 7}, 400), ({}, 403)):
        assert app.test_client().post(f"/api/games/{gid}/seat-request", json=body, headers=H).status_code == status
    assert host_post(client, gid, "approve", seat=9).status_code == 400
    assert app.test_client().post(f"/api/games/{gid}/host/approve", json={"version": table.version, "seat": 0},
                                  headers=H).status_code == 403   # only the host approves
    # the host approves the phone it saw asking, not one that asked a moment later
    code0 = svc.join_code(table, 0)
    first = app.test_client()
    assert first.post(f"/api/games/{gid}/seat-request", json={"code": code0}, headers=H).status_code == 200
    seen = client.get(f"/api/games/{gid}/host").get_json()["seats"][0]["request"]
    later = app.test_client()   # another phone: another address (one device asks once per seat)
    later.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    assert later.post(f"/api/games/{gid}/seat-request", json={"code": code0}, headers=H).status_code == 200
    r = host_post(client, gid, "approve", seat=0, request=seen)
    assert r.status_code == 409 and "since" in r.get_json()["error"]
    assert first.get(f"/api/games/{gid}/me").get_json()["code"] == "seat_superseded"
    assert phones[0].get(f"/api/games/{gid}/me").status_code == 200
    # seat actions don't go stale while the game moves on
    r = client.post(f"/api/games/{gid}/host/refuse", json={"version": 0, "seat": 0,
                    "request": client.get(f"/api/games/{gid}/host").get_json()["seats"][0]["request"]}, headers=H)
    assert r.status_code == 200
    # while the game is paused seats can still be sorted out; once it has ended, not
    assert host_post(client, gid, "pause").status_code == 200
    assert first.post(f"/api/games/{gid}/seat-request", json={}, headers=H).status_code == 200
    assert host_post(client, gid, "end").status_code == 200
    r = first.post(f"/api/games/{gid}/seat-request", json={"code": code0}, headers=H)
    assert r.status_code == 409


def test_a_seat_request_and_its_answer_survive_a_restart(tmp_path):
    from web import create_app
    from web.store import Store
    from web.tables import TableService
    secret = b"k" * 32
    app = create_app({"BOT_DELAY": 0.0, "SECRET": secret}, store=Store(tmp_path / "g.sqlite3"))
    client = app.test_client()
    gid = new_table(client)
    svc = app.extensions["pegs"]
    old = join_all(app, gid, seats=[0])[0]
    fresh = app.test_client()
    assert fresh.post(f"/api/games/{gid}/seat-request", json={"code": svc.join_code(svc.get(gid), 0)},
                      headers=H).status_code == 200
    hashes = (svc.get(gid).seats[0].token_hash, svc.get(gid).seats[0].request_hash)
    host_token = client.get_cookie(f"pj_h_{gid}").value
    old_token = old.get_cookie(f"pj_s_{gid}").value
    svc.close()
    again = TableService(Store(tmp_path / "g.sqlite3"), secret)
    try:
        table = again.get(gid)
        s = table.seats[0]
        assert (s.token_hash, s.request_hash) == hashes and s.request_hash is not None
        again.host_action(table, host_token, "approve", {"seat": 0, "request": hashes[1][:12]})
    finally:
        again.close()
    again = TableService(Store(tmp_path / "g.sqlite3"), secret)
    try:
        table = again.get(gid)
        assert table.seats[0].token_hash == hashes[1] and table.seats[0].request_hash is None
        assert table.lost_seat(old_token) == (0, "moved")
    finally:
        again.close()


# ------------------------------------------------------------------ 14.10: the board catches up at once
def test_the_simulated_board_catches_up_with_a_phone_move_without_lag():
    from web import create_app
    from web.board_referee import make_hub
    from web.store import Store
    from web.tables import TableService

    class Clock:   # the board's time, moved by the test: a loaded machine can't stretch it
        t = 1000.0

        def __call__(self):
            return self.t

    clock = Clock()
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0)
    hub = make_hub(svc, "simulation", clock=clock, threaded=False)
    app = create_app({"BOT_DELAY": 0.0}, service=svc, board=hub)

    def run_until(done, limit=5.0, step=0.005):
        """Tick the board every `step` seconds of its clock until `done()`; the seconds taken."""
        start = clock.t
        while not done() and clock.t - start < limit:
            clock.t += step
            hub.tick(clock.t)
        return clock.t - start

    try:
        for _ in range(100):   # a deal where the first player can bring a peg out
            table, host = svc.create({"preset": "basic", "players": 4, "teams": 2,
                                      "names": ["Ann", "Ben", "Cy", "Di"]})
            g = table.game
            play = next((p for p in g.legal_plays() if p.move.rank in ("A", "K")), None)
            if play is not None:
                break
            # a game in play keeps the board (13.4): end the deals not wanted, as their host would
            svc.host_action(table, host, "end", {"version": table.version})
        run_until(lambda: hub.state(table)["state"] == "ready")
        svc.act_as(table, g.actor, {"version": table.version, "move": play.move.text(table.geo), "card": play.card})
        states = set()

        def caught_up():
            st = hub.state(table)
            states.add(st["state"])
            return st["state"] == "ready" and st["version"] == table.version
        took = run_until(caught_up)
        assert "sync" in states
        # one peg out of start: 2 switch changes. It took >= 0.75 s when the board waited 0.6 s first.
        assert took < 0.7, took
    finally:
        svc.close()
        app.extensions["pegs"].close()
