"""Every route through Flask's test client, valid and invalid: a bad request gets a
4xx JSON message and changes nothing."""
from __future__ import annotations

import json
import re
import time

import pytest

from companion.game import Game
from .webkit import H, join_all, new_table, wait_until


def state(app, gid):
    svc = app.extensions["pegs"]
    t = svc.get(gid)
    return (t.version, json.dumps([svc.view(t, s) for s in [None, *range(len(t.seats))]]))


def actor_and_play(app, gid, phones):
    t = app.extensions["pegs"].get(gid)
    seat = t.game.actor
    plays = phones[seat].get(f"/api/games/{gid}/plays").get_json()
    for c in plays["cards"]:
        if c["moves"]:
            return seat, {"move": c["moves"][0]["move"], "card": c["card"], "version": t.version}
    c = plays["cards"][0]
    return seat, {"move": f"{c['rank']} discard", "card": c["card"], "version": t.version}


# ------------------------------------------------------------------ pages
def test_pages(client, app):
    assert client.get("/").status_code == 200
    r = client.get("/new")
    assert r.status_code == 200 and b"Create table" in r.data
    gid = new_table(client)
    assert gid.encode() in client.get("/").data
    r = client.get(f"/table/{gid}")
    assert r.status_code == 200 and b'id="M0"' in r.data and b'id="H3-s2"' in r.data and b'id="S-s2-1"' in r.data
    assert client.get(f"/host/{gid}").status_code == 200          # the creator's cookie
    assert app.test_client().get(f"/host/{gid}").status_code == 403  # anyone else
    assert client.get("/table/nosuch").status_code == 404
    assert client.get("/nosuch").status_code == 404
    r = client.get("/colours.css")
    assert r.status_code == 200 and b".col-red" in r.data and r.headers["Cache-Control"] == "no-cache"
    # the pages name it under its version, cached for a year (a new palette, a new URL)
    href = re.search(r'href="(/colours\.css\?v=[0-9a-f]{12})"', client.get("/").data.decode()).group(1)
    r = client.get(href)
    assert r.status_code == 200 and b".col-red" in r.data and "immutable" in r.headers["Cache-Control"]
    assert client.get("/colours.css?v=000000000000").headers["Cache-Control"] == "no-cache"
    for path in ("css/app.css", "js/common.js", "js/board.js", "js/seat.js", "js/table.js",
                 "js/host.js", "js/new.js", "js/join.js"):
        assert client.get(f"/static/{path}").status_code == 200, path


def test_pages_have_no_external_assets(client):
    gid = new_table(client)
    for path in ("/", "/new", f"/table/{gid}", f"/host/{gid}", f"/seat/{gid}"):
        html = client.get(path).data.decode()
        assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html, path
        assert "Content-Security-Policy" in client.get(path).headers


def test_join_page_and_seat_page(client, app):
    gid = new_table(client)
    svc = app.extensions["pegs"]
    code = svc.join_code(svc.get(gid), 1)
    phone = app.test_client()
    r = phone.get(f"/j/{code}")
    assert r.status_code == 200 and b"Bob" in r.data and b"Take this seat" in r.data
    assert phone.get("/j/NOTACODE").status_code == 404
    assert b"No seat on this phone" in phone.get(f"/seat/{gid}").data
    r = phone.post("/api/join", json={"code": code.lower()}, headers=H)
    assert r.status_code == 200 and r.get_json()["seat"] == 1
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert b"No seat on this phone" not in phone.get(f"/seat/{gid}").data
    # the same phone again: fine; another phone: refused
    assert phone.post("/api/join", json={"code": code}, headers=H).status_code == 200
    r = app.test_client().post("/api/join", json={"code": code}, headers=H)
    assert r.status_code == 409 and "another phone" in r.get_json()["error"]
    assert b"Another phone has this seat" in app.test_client().get(f"/j/{code}").data


@pytest.mark.parametrize("body, status, words", [
    ("not json", 400, "JSON"),
    ([1, 2], 400, "object"),
    ({}, 400, "join code"),
    ({"code": 5}, 400, "join code"),
    ({"code": "ZZZZZZZZ"}, 404, "not (or no longer) valid"),
])
def test_join_bad_requests(client, body, status, words):
    new_table(client)
    if isinstance(body, str):
        r = client.post("/api/join", data=body, headers={**H, "Content-Type": "application/json"})
    else:
        r = client.post("/api/join", json=body, headers=H)
    if body == {}:
        status, words = 400, "join code"
    assert r.status_code == status and words in r.get_json()["error"]


def test_bot_seat_cannot_be_joined(client, app):
    gid = new_table(client, bots=[None, "greedy", None, None])
    svc = app.extensions["pegs"]
    r = app.test_client().post("/api/join", json={"code": svc.join_code(svc.get(gid), 1)}, headers=H)
    assert r.status_code == 409 and "computer" in r.get_json()["error"]


# ------------------------------------------------------------------ creating tables
@pytest.mark.parametrize("over, words", [
    ({"preset": "chess"}, "unknown rules preset"),
    ({"players": 3}, "players must be"),
    ({"players": True}, "players must be"),
    ({"teams": 3}, "can play as"),
    ({"names": ["A", "B", "C"]}, "list of 4 names"),
    ({"names": ["A", "a", "C", "D"]}, "different name"),
    ({"names": ["A", " ", "C", "D"]}, "seat 2 needs a name"),
    ({"colours": ["red", "red", "blue", "green"]}, "different peg colour"),
    ({"colours": ["red", "mauve", "blue", "green"]}, "colours must be"),
    ({"bots": ["smart", None, None, None]}, "bots must be"),
    ({"decks": 9}, "decks"),
    ({"decks": 1, "players": 10, "names": list("ABCDEFGHIJ"), "colours": None}, "too small"),
    ({"dealer": 7}, "dealer must be"),
])
def test_create_rejects_bad_setups(client, over, words):
    body = {"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Bob", "Cy", "Di"], **over}
    if body.get("colours") is None:
        body.pop("colours", None)
    before = client.get("/api/games").get_json()
    r = client.post("/api/games", json=body, headers=H)
    assert r.status_code == 400, r.get_json()
    assert words in r.get_json()["error"]
    assert client.get("/api/games").get_json() == before


def test_create_all_layouts_and_draw_for_partners(client, app):
    for players, teams in ((2, 2), (6, 3), (8, 4), (10, 2)):
        names = [f"P{i}" for i in range(players)]
        gid = new_table(client, players=players, teams=teams, names=names)
        v = client.get(f"/api/games/{gid}/table").get_json()
        assert len(v["seats"]) == players and len(v["teams"]) == teams
    gid = new_table(client, draw_for_partners=True, names=["Ann", "Bob", "Cy", "Di"])
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert info["draw"]["rounds"] and info["dealer"] == 0
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob", "Cy", "Di"]
    seating = info["draw"]["seating"]
    assert [s["name"] for s in info["seats"]] == [info["draw"]["names"][p] for p in seating]


def test_csrf_header_and_origin_are_checked(client):
    body = {"preset": "basic", "players": 2, "names": ["A", "B"]}
    r = client.post("/api/games", json=body)
    assert r.status_code == 403 and "X-Pegs-Request" in r.get_json()["error"]
    r = client.post("/api/games", json=body, headers={**H, "Origin": "http://evil.example"})
    assert r.status_code == 403
    assert client.post("/api/games", json=body, headers={**H, "Origin": "http://localhost"}).status_code == 201


def test_unknown_api_route_and_method(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.get_json()["error"]
    r = client.get("/api/join")
    assert r.status_code == 405 and r.get_json()["error"]
    r = client.post("/api/games/nosuch/act", json={}, headers=H)
    assert r.status_code == 404 and "no table" in r.get_json()["error"]


# ------------------------------------------------------------------ views and privacy basics
def test_seat_view_shows_only_own_hand(client, app):
    gid = new_table(client)
    phones = join_all(app, gid)
    t = app.extensions["pegs"].get(gid)
    for seat, phone in phones.items():
        v = phone.get(f"/api/games/{gid}/me").get_json()
        assert v["seat"] == seat and v["hand"] == t.game.hands[seat]
        assert "hands" not in v and isinstance(v["stock"], int)
    r = app.test_client().get(f"/api/games/{gid}/me")
    assert r.status_code == 403 and r.get_json()["code"] == "no_seat"
    tv = client.get(f"/api/games/{gid}/table").get_json()
    assert "hand" not in tv and tv["seat"] is None


def test_plays_only_for_the_actor(client, app):
    gid = new_table(client)
    phones = join_all(app, gid)
    t = app.extensions["pegs"].get(gid)
    actor = t.game.actor
    r = phones[(actor + 1) % 4].get(f"/api/games/{gid}/plays")
    assert r.status_code == 403 and "not your turn" in r.get_json()["error"]
    p = phones[actor].get(f"/api/games/{gid}/plays").get_json()
    assert p["seat"] == actor and {c["card"] for c in p["cards"]} == set(t.game.hands[actor])
    for c in p["cards"]:
        for m in c["moves"]:
            assert m["steps"] and "result" in m and m["move"].startswith(c["rank"])


# ------------------------------------------------------------------ acting
def test_act_validation_changes_nothing(client, app):
    gid = new_table(client)
    phones = join_all(app, gid)
    seat, good = actor_and_play(app, gid, phones)
    me, other = phones[seat], phones[(seat + 1) % 4]
    url = f"/api/games/{gid}/act"
    before = state(app, gid)
    t = app.extensions["pegs"].get(gid)
    hand = t.game.hands[seat]
    missing = next(c for c in ("AS", "KH", "7D", "2C", "9S", "QC", "5H") if c not in hand)
    cases = [
        (me, "{bad json", 400, "JSON"),
        (me, {**good, "version": None}, 400, "version"),
        (me, {**good, "version": "3"}, 400, "version"),
        (me, {**good, "version": good["version"] - 1}, 409, "moved on"),
        (me, {**good, "card": "ZZ"}, 400, "unknown card"),
        (me, {**good, "card": 7}, 400, "unknown card"),
        (me, {**good, "card": missing}, 422, "not in the hand"),
        (me, {**good, "move": ""}, 400, "move"),
        (me, {**good, "move": "7 0:Q1-M3"}, 400, "not a move"),
        (me, {**good, "move": "8 9:M1-M3"}, 400, "not a move"),
        (me, {**good, "move": "doubt", "card": None}, 422, "no declared card"),
        (other, good, 403, "not your turn"),
        (app.test_client(), good, 403, "does not hold a seat"),
    ]
    for phone, body, status, words in cases:
        if isinstance(body, str):
            r = phone.post(url, data=body, headers={**H, "Content-Type": "application/json"})
        else:
            r = phone.post(url, json=body, headers=H)
        assert r.status_code == status, (body, r.get_json())
        assert words in r.get_json()["error"], (body, r.get_json())
        assert state(app, gid) == before
    # an illegal move is explained with its rule id
    side = t.game.seat_side[seat]
    r = me.post(f"/api/games/{gid}/check", json={"version": good["version"], "move": f"5 {side}:S-M13", "card": None}, headers=H)
    assert r.status_code == 422 and r.get_json()["rule"], r.get_json()
    assert state(app, gid) == before
    # the good move, then the same tap again (a double tap): refused as stale
    r = me.post(url, json=good, headers=H)
    assert r.status_code == 200 and r.get_json()["version"] > good["version"]
    after = state(app, gid)
    r = me.post(url, json=good, headers=H)
    assert r.status_code in (403, 409)
    assert state(app, gid) == after


def test_check_is_a_dry_run(client, app):
    gid = new_table(client)
    phones = join_all(app, gid)
    seat, good = actor_and_play(app, gid, phones)
    before = state(app, gid)
    r = phones[seat].post(f"/api/games/{gid}/check", json=good, headers=H)
    assert r.status_code == 200 and r.get_json()["ok"]
    assert state(app, gid) == before


# ------------------------------------------------------------------ host controls
def test_host_controls(client, app):
    gid = new_table(client)
    phones = join_all(app, gid)
    svc = app.extensions["pegs"]
    t = svc.get(gid)
    host = lambda action, **kw: client.post(f"/api/games/{gid}/host/{action}",
                                            json={"version": t.version, **kw}, headers=H)
    # only the host
    r = phones[0].post(f"/api/games/{gid}/host/pause", json={"version": t.version}, headers=H)
    assert r.status_code == 403 and "host" in r.get_json()["error"]
    assert phones[0].get(f"/api/games/{gid}/host").status_code == 403
    assert host("undo").status_code == 409                       # nothing to undo
    assert host("dance").status_code == 404
    assert client.post(f"/api/games/{gid}/host/pause", json={}, headers=H).status_code == 400
    # a move, then undo: every view back as before
    before = state(app, gid)[1]
    seat, good = actor_and_play(app, gid, phones)
    assert phones[seat].post(f"/api/games/{gid}/act", json=good, headers=H).status_code == 200
    r = host("undo")
    assert r.status_code == 200 and r.get_json()["undone"] == 1
    after = json.loads(state(app, gid)[1])
    for a, b in zip(after, json.loads(before)):
        a.pop("version"), b.pop("version"), a.pop("undos"), b.pop("undos"), a.pop("undone")
        assert a == b
    # pause stops play
    assert host("pause").status_code == 200
    assert host("pause").status_code == 409
    seat = t.game.actor
    plays = phones[seat].get(f"/api/games/{gid}/plays")
    assert plays.status_code == 409 and "paused" in plays.get_json()["error"]
    assert host("resume").status_code == 200
    # move a seat to another phone: the old phone loses access
    assert host("reseat", seat=1).status_code == 200
    r = phones[1].get(f"/api/games/{gid}/me")
    assert r.status_code == 403
    new_phone = app.test_client()
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert not info["seats"][1]["joined"] and "<svg" in info["seats"][1]["qr"]
    assert new_phone.post("/api/join", json={"code": info["seats"][1]["code"]}, headers=H).status_code == 200
    assert new_phone.get(f"/api/games/{gid}/me").get_json()["seat"] == 1
    assert host("reseat", seat=9).status_code == 400
    # record only once the game is over
    assert client.get(f"/api/games/{gid}/record").status_code == 409
    assert host("end").status_code == 200
    assert host("end").status_code == 409
    seat = t.game.actor
    r = (new_phone if seat == 1 else phones[seat]).post(
        f"/api/games/{gid}/act", json={"version": t.version, "move": "A discard"}, headers=H)
    assert r.status_code == 409 and "ended" in r.get_json()["error"]
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    game = Game.from_record(r.get_json())
    assert game.position == t.game.position and game.hands == t.game.hands
    assert app.test_client().get(f"/api/games/{gid}/record").status_code == 403


def test_bots_play_and_give_back(client, app):
    gid = new_table(client)
    phones = join_all(app, gid, seats=[0])
    svc = app.extensions["pegs"]
    t = svc.get(gid)
    for seat in (1, 2, 3):
        r = client.post(f"/api/games/{gid}/host/bot", json={"version": t.version, "seat": seat, "bot": "greedy"}, headers=H)
        assert r.status_code == 200, r.get_json()
    r = client.post(f"/api/games/{gid}/host/bot", json={"version": t.version, "seat": 1, "bot": "greedy"}, headers=H)
    assert r.status_code == 409
    r = client.post(f"/api/games/{gid}/host/bot", json={"version": t.version, "seat": 1, "bot": "genius"}, headers=H)
    assert r.status_code == 400
    # the human plays; the three bots answer by themselves
    for _ in range(3):
        assert wait_until(lambda: t.game.actor == 0)
        seat, good = actor_and_play(app, gid, phones)
        assert phones[0].post(f"/api/games/{gid}/act", json=good, headers=H).status_code == 200
    assert wait_until(lambda: t.game.actor == 0 and t.game.turn >= 12)
    # undo goes back to the human's last move (the bots' moves after it too)
    turn = t.game.turn
    r = client.post(f"/api/games/{gid}/host/undo", json={"version": t.version}, headers=H)
    assert r.status_code == 200 and r.get_json()["undone"] == 4 and t.game.actor == 0
    assert t.game.turn == turn - 4
    time.sleep(0.05)
    assert t.game.actor == 0  # the bots don't replay over the human's turn
    r = client.post(f"/api/games/{gid}/host/bot", json={"version": t.version, "seat": 2, "bot": None}, headers=H)
    assert r.status_code == 200
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert info["seats"][2]["bot"] is None and info["seats"][2]["code"]


def test_event_stream_needs_a_client_id(client):
    gid = new_table(client)
    r = client.get(f"/api/games/{gid}/events")
    assert r.status_code == 400 and "client id" in r.get_json()["error"]
    r = client.get(f"/api/games/{gid}/events?client=../../x")
    assert r.status_code == 400
