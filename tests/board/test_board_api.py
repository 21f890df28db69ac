"""The board's HTTP API through Flask's test client: the virtual board of simulation mode
(lift and place go to the emulated reed switches), choosing a card from the phone,
validation, the server-sent "board" event, and an app without a board."""
from __future__ import annotations

import json

import pytest

from .boardkit import NAMES, FakeClock, _seeded, mock_hardware
from web import create_app
from web.board_referee import BoardHub
from web.store import Store
from web.tables import TableService

H = {"X-Pegs-Request": "1"}


@pytest.fixture
def sim():
    """An app in simulation mode with an injected clock; the test ticks the hub."""
    clock = FakeClock()
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0)
    hub = BoardHub(svc, "simulation", lambda s, h: mock_hardware(s, clock, h), settle=0.8, clock=clock,
                   threaded=False)
    app = create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 0.2}, service=svc, board=hub)
    yield app, hub, clock
    svc.close()


def run(hub, clock, seconds, step=0.01):
    for _ in range(round(seconds / step)):
        clock.advance(step)
        hub.tick()


def new_table(app, seed=0):
    host = app.test_client()
    with _seeded(seed):
        r = host.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2, "names": NAMES[:4]},
                      headers=H)
    assert r.status_code == 201
    gid = r.get_json()["gid"]
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    phones = {}
    for seat in range(4):
        phone = app.test_client()
        assert phone.post("/api/join", json={"code": svc.join_code(table, seat)}, headers=H).status_code == 200
        phones[seat] = phone
    return gid, table, phones


def paired_display(app, table):
    """A table page the host paired (the display code from the host page's QR)."""
    tv = app.test_client()
    code = app.extensions["pegs"].display_code(table)
    r = tv.post("/api/display", json={"code": code}, headers=H)
    assert r.status_code == 200, r.get_json()
    return tv


def test_a_move_dragged_on_the_virtual_board_is_taken(sim):
    app, hub, clock = sim
    gid, table, phones = new_table(app)
    tv = paired_display(app, table)                            # the table page, paired by the host
    st = tv.get(f"/api/games/{gid}/board").get_json()
    assert st["mode"] == "simulation" and st["attached"] and st["state"] == "ready"
    assert len(st["board"]["pegs"]) == 20 and st["board"]["tray"] == [] and st["leds"] == {}
    g = table.game
    seat, side = g.actor, g.seat_side[g.actor]
    card = next(c for c in g.hands[seat] if c[:-1] in ("A", "J", "Q", "K"))
    # the phone chooses the card: the board is followed, the LEDs light the choices
    r = phones[seat].post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": card},
                          headers=H)
    assert r.status_code == 200, r.get_json()
    st = r.get_json()
    come_out = f"M{side * 18 + 8}"
    assert st["state"] == "following" and st["seat"] == seat and st["rank"] == card[:-1]
    assert st["leds"][come_out] == {"role": "legal", "rgb": "#004f3a", "pattern": "steady", "period": None} \
        or st["leds"][come_out]["role"] == "legal"
    assert st["leds"][f"S-s{side}-5"]["pattern"] == "slow-blink"
    assert card not in json.dumps(st)                         # the card itself stays on the phone
    # pick the peg up (the switch opens), drop it on the come-out hole (the switch closes)
    r = tv.post(f"/api/games/{gid}/board/lift", json={"hole": f"S-s{side}-5"}, headers=H)
    assert r.status_code == 200 and r.get_json()["board"]["tray"] == [side]
    run(hub, clock, 0.1)
    st = tv.get(f"/api/games/{gid}/board").get_json()
    assert st["leds"][come_out]["role"] == "legal" and st["leds"][f"S-s{side}-5"]["role"] == "selected"
    version = table.version
    r = tv.post(f"/api/games/{gid}/board/place", json={"hole": come_out, "side": side}, headers=H)
    assert r.status_code == 200 and r.get_json()["board"]["pegs"][come_out] == side
    run(hub, clock, 0.5)
    assert table.version == version                            # still settling
    run(hub, clock, 0.5)
    assert table.version > version
    assert tv.get(f"/api/games/{gid}/table").get_json()["log"][-1]["move"] == f"{card[:-1]} {side}:S-{come_out}"
    st = tv.get(f"/api/games/{gid}/board").get_json()
    assert st["state"] == "ready" and st["version"] == table.version


def test_bad_requests_change_nothing(sim):
    app, hub, clock = sim
    gid, table, phones = new_table(app)
    tv = paired_display(app, table)
    g = table.game
    seat = g.actor
    public = lambda: json.dumps({k: v for k, v in tv.get(f"/api/games/{gid}/board").get_json().items()
                                 if k != "board_version"})   # the board's own counter (the first look attaches it)
    before = public()
    cases = [
        ("lift", {"hole": "M99"}, 400, "hole"),
        ("lift", {"hole": "M5"}, 409, "no peg in hole 5"),
        ("lift", {}, 400, "hole"),
        ("place", {"hole": "M5", "side": 0}, 409, "no peg of that colour"),
        ("place", {"hole": "M5"}, 400, "side"),
    ]
    for what, body, status, words in cases:
        r = tv.post(f"/api/games/{gid}/board/{what}", json=body, headers=H)
        assert r.status_code == status and words in r.get_json()["error"], (what, body, r.get_json())
    r = tv.post(f"/api/games/{gid}/board/lift", json={"hole": "S-s0-1"})        # no CSRF header
    assert r.status_code == 403
    r = tv.post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": g.hands[seat][0]},
                headers=H)
    assert r.status_code == 403                                # not a seat's phone
    other = (seat + 1) % 4
    r = phones[other].post(f"/api/games/{gid}/board/card",
                           json={"version": table.version, "card": g.hands[other][0]}, headers=H)
    assert r.status_code == 403 and "not your turn" in r.get_json()["error"]
    r = phones[seat].post(f"/api/games/{gid}/board/card", json={"version": 0, "card": g.hands[seat][0]},
                          headers=H)
    assert r.status_code == 409
    assert tv.get("/api/games/nosuch/board").status_code == 404
    assert public() == before


def test_a_drop_on_a_peg_takes_it_off_first_and_sync_moves_the_pegs_for_you(sim):
    app, hub, clock = sim
    gid, table, phones = new_table(app)
    tv = paired_display(app, table)
    st = tv.post(f"/api/games/{gid}/board/lift", json={"hole": "S-s1-1"}, headers=H).get_json()
    run(hub, clock, 0.1)
    # dropped on a start hole that is taken: a free hole of that start area, but side 0's is full
    r = tv.post(f"/api/games/{gid}/board/place", json={"hole": "S-s0-1", "side": 1}, headers=H)
    assert r.status_code == 409 and "full" in r.get_json()["error"]
    st = tv.post(f"/api/games/{gid}/board/place", json={"hole": "M20", "side": 1}, headers=H).get_json()
    run(hub, clock, 0.1)
    st = tv.get(f"/api/games/{gid}/board").get_json()
    assert st["state"] == "restore" and st["leds"]["M20"]["role"] == "wrong"
    assert "put it back" in st["message"]
    # a peg dropped onto M20's peg: that one goes to the hand, this one in a moment later
    tv.post(f"/api/games/{gid}/board/lift", json={"hole": "S-s2-1"}, headers=H)
    st = tv.post(f"/api/games/{gid}/board/place", json={"hole": "M20", "side": 2}, headers=H).get_json()
    assert sorted(st["board"]["tray"]) == [1, 2]
    assert st["board"]["busy"] and "M20" not in st["board"]["pegs"]
    run(hub, clock, 0.3)
    st = tv.get(f"/api/games/{gid}/board").get_json()
    assert st["board"]["pegs"]["M20"] == 2 and st["board"]["tray"] == [1]
    # "move the pegs for me": one step at a time, through the switches
    st = tv.post(f"/api/games/{gid}/board/sync", json={}, headers=H).get_json()
    assert st["steps"] == 3
    run(hub, clock, 1.0)
    st = tv.get(f"/api/games/{gid}/board").get_json()
    assert st["state"] == "ready" and st["board"]["tray"] == [] and "M20" not in st["board"]["pegs"]


def test_the_event_stream_says_when_the_board_changes(sim):
    app, hub, clock = sim
    gid, table, phones = new_table(app)
    tv = paired_display(app, table)
    board_version = table.board_version
    tv.post(f"/api/games/{gid}/board/lift", json={"hole": "S-s3-2"}, headers=H)
    assert table.board_version > board_version
    r = tv.get(f"/api/games/{gid}/events?client=abcdefgh12", buffered=False)
    chunks = []
    for chunk in r.response:
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if sum("event:" in c for c in chunks) >= 2:
            break
    text = "".join(chunks)
    assert "event: version" in text and f'event: board\ndata: {{"board": {table.board_version}' in text
    r.close()


def test_an_app_without_a_board_says_so():
    app = create_app({"BOT_DELAY": 0.0})
    try:
        c = app.test_client()
        r = c.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2, "names": NAMES[:4]},
                   headers=H)
        gid = r.get_json()["gid"]
        st = c.get(f"/api/games/{gid}/board").get_json()
        assert st["mode"] == "none" and not st["attached"]
        r = c.post(f"/api/games/{gid}/board/lift", json={"hole": "M1"}, headers=H)
        assert r.status_code == 404 and "without a board" in r.get_json()["error"]
        assert b'"mode": "none"' in c.get(f"/table/{gid}").data
    finally:
        app.extensions["pegs"].close()


def test_the_board_stays_with_the_game_in_play_until_its_host_releases_it(sim):
    """Issue 13 point 4: a new table never takes the board from a game in progress (paused
    included); only that game's host, or the admin, releases it; then another table takes it."""
    app, hub, clock = sim
    lan = {"REMOTE_ADDR": "192.168.1.50"}          # not loopback: loopback is the admin
    tables = []
    for seed in (0, 1):
        host = app.test_client()
        host.environ_base.update(lan)
        with _seeded(seed):
            r = host.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2, "names": NAMES[:4]},
                          headers=H)
        assert r.status_code == 201, r.get_json()
        tables.append((r.get_json()["gid"], host))
        hub.tick()
    (gid1, host1), (gid2, host2) = tables
    t1 = app.extensions["pegs"].get(gid1)
    anyone = app.test_client()
    anyone.environ_base.update(lan)
    assert anyone.get(f"/api/games/{gid1}/board").get_json()["attached"]       # the first game keeps it
    st = anyone.get(f"/api/games/{gid2}/board").get_json()
    assert not st["attached"] and st["state"] == "elsewhere"
    for c in (anyone, host2):                                 # nobody takes it from a game in play
        for what in ("attach", "release"):
            r = c.post(f"/api/games/{gid2}/board/{what}", json={}, headers=H)
            assert r.status_code in (403, 409), (what, r.get_json())
    r = anyone.post(f"/api/games/{gid1}/board/release", json={}, headers=H)
    assert r.status_code == 403
    with t1.cond:
        t1.paused = True                                       # paused is still in progress
    r = host2.post(f"/api/games/{gid2}/board/attach", json={}, headers=H)
    assert r.status_code == 409 and "release" in r.get_json()["error"]
    assert anyone.get(f"/api/games/{gid1}/board").get_json()["attached"]
    r = host1.post(f"/api/games/{gid1}/board/release", json={}, headers=H)   # its host lets it go
    assert r.status_code == 200 and not r.get_json()["attached"]
    st = host2.post(f"/api/games/{gid2}/board/attach", json={}, headers=H).get_json()
    assert st["attached"] and st["gid"] == gid2
    admin = app.test_client()                                  # loopback: the companion itself
    r = admin.post(f"/api/games/{gid2}/board/release", json={}, headers=H)
    assert r.status_code == 200 and not r.get_json()["attached"]


def test_only_the_acting_seat_the_host_or_a_paired_display_drive_the_board(sim):
    """Issue 13 point 3: a phone without a seat, another seat, or an unpaired screen can't
    move the simulated board's pegs; the acting seat, the host and a paired display can."""
    app, hub, clock = sim
    gid, table, phones = new_table(app)
    lan = {"REMOTE_ADDR": "192.168.1.60"}
    stranger = app.test_client()
    stranger.environ_base.update(lan)
    g = table.game
    seat, side = g.actor, g.seat_side[g.actor]
    card = next(c for c in g.hands[seat] if c[:-1] in ("A", "K"))
    assert phones[seat].post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": card},
                             headers=H).status_code == 200
    other = phones[(seat + 1) % 4]
    other.environ_base.update(lan)
    before = (table.version, json.dumps(stranger.get(f"/api/games/{gid}/board").get_json()))
    for c in (stranger, other):
        for what, body in (("lift", {"hole": f"S-s{side}-5"}), ("place", {"hole": f"M{side * 18 + 8}", "side": side}),
                           ("sync", {}), ("attach", {})):
            r = c.post(f"/api/games/{gid}/board/{what}", json=body, headers=H)
            assert r.status_code == 403, (what, r.get_json())
    assert (table.version, json.dumps(stranger.get(f"/api/games/{gid}/board").get_json())) == before
    page = stranger.get(f"/table/{gid}").data
    assert b'"admitted": false' in page and b"pair this display from the host page" in page
    tv = paired_display(app, table)
    tv.environ_base.update(lan)
    assert b'"admitted": true' in tv.get(f"/table/{gid}").data
    for c in (phones[seat], tv):
        r = c.post(f"/api/games/{gid}/board/lift", json={"hole": f"S-s{side}-5"}, headers=H)
        assert r.status_code == 200, r.get_json()
        r = c.post(f"/api/games/{gid}/board/place", json={"hole": f"S-s{side}-5", "side": side}, headers=H)
        assert r.status_code == 200, r.get_json()
    r = app.test_client().post("/api/display", json={"code": "ZZZZZZZZ"}, headers=H)
    assert r.status_code == 404
    # the pairing is logged (a hash, like a seat's token), so it survives a restart
    assert any(kind == "display" and len(data["hash"]) == 64
               for _, kind, data in app.extensions["pegs"].store.events(gid))
