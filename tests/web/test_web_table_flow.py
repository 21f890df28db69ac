"""What a new group ran into (issue 25 §4), on the server side: an undo told in words (2),
the host playing a seat from the host page (9), a returning phone's own request (10), the
rematch with the same phones (11), and versioned, compressed static files (12). Phones on
the LAN (non-loopback addresses): the companion itself is the admin, they are not."""
from __future__ import annotations

import gzip
import re

from .webkit import H, make_app, new_table

LAN = "192.168.1.50"


def lan(app, n=50):
    c = app.test_client()
    c.environ_base.update({"REMOTE_ADDR": f"192.168.1.{n}"})
    return c


def table_on_the_lan(app, **over):
    """A table made by a host phone on the LAN; its seats joined by phones on the LAN."""
    host = lan(app, 50)
    gid = new_table(host, **over)
    svc = app.extensions["pegs"]
    t = svc.get(gid)
    phones = {}
    for seat in range(len(t.seats)):
        phone = lan(app, 60 + seat)
        r = phone.post("/api/join", json={"code": svc.join_code(t, seat)}, headers=H)
        assert r.status_code == 200, r.get_json()
        phones[seat] = phone
    return host, gid, phones


def play_one(app, gid, phones):
    t = app.extensions["pegs"].get(gid)
    seat = t.game.actor
    plays = phones[seat].get(f"/api/games/{gid}/plays").get_json()
    move = next(({"move": m["move"], "card": c["card"]} for c in plays["cards"] for m in c["moves"]),
                {"move": f"{plays['cards'][0]['rank']} discard", "card": plays["cards"][0]["card"]})
    r = phones[seat].post(f"/api/games/{gid}/act", json={**move, "version": t.version}, headers=H)
    assert r.status_code == 200, r.get_json()
    return seat


# ------------------------------------------------------------------ 2: undo, in words
def test_an_undo_is_told_on_every_phone_and_the_table_in_its_language():
    app = make_app()
    host, gid, phones = table_on_the_lan(app)
    t = app.extensions["pegs"].get(gid)
    seat = play_one(app, gid, phones)
    name = t.name_of(seat)
    assert "undone" not in phones[0].get(f"/api/games/{gid}/me").get_json()
    r = host.post(f"/api/games/{gid}/host/undo", json={"version": t.version}, headers=H)
    assert r.status_code == 200
    for phone in phones.values():
        u = phone.get(f"/api/games/{gid}/me").get_json()["undone"]
        assert u["words"] == f"The host took back {name}'s last move." and u["seats"] == [seat]
    table = lan(app, 90).get(f"/api/games/{gid}/table").get_json()["undone"]
    assert table["words"] == f"The host took back {name}'s last move." and table["at"] == 1
    fr = phones[1].get(f"/api/games/{gid}/me", headers={"X-Pegs-Lang": "fr_CA"}).get_json()["undone"]["words"]
    ar = phones[1].get(f"/api/games/{gid}/me", headers={"X-Pegs-Lang": "ar"}).get_json()["undone"]["words"]
    assert t.seats[seat].name in fr and fr != table["words"] and "took back" not in fr
    assert t.seats[seat].name in ar and re.search("[\u0600-\u06ff]", ar)
    # the next move clears it
    play_one(app, gid, phones)
    assert "undone" not in phones[0].get(f"/api/games/{gid}/me").get_json()
    app.extensions["pegs"].close()


def test_an_undo_of_the_computers_moves_too_says_how_many_and_replays(tmp_path):
    from web.store import Store
    from web.tables import TableService
    svc = TableService(Store(tmp_path / "g.sqlite3"), b"k" * 32, bot_delay=0)
    table, host = svc.create({"preset": "basic", "players": 4, "teams": 2, "names": ["A", "B", "C", "D"],
                              "bots": [None, "easy", "easy", "easy"]})
    import time
    assert table.game.actor == 0   # the dealer is seat 3: seat 0 plays first
    # seat 0 plays (act_as: no phone needed), the three bots answer, then the host undoes
    with table.cond:
        plays = svc._plays(table)
    move = next(({"move": m["move"], "card": c["card"]} for c in plays["cards"] for m in c["moves"]),
                {"move": f"{plays['cards'][0]['rank']} discard", "card": plays["cards"][0]["card"]})
    svc.act_as(table, 0, {**move, "version": table.version})
    deadline = time.time() + 20
    while time.time() < deadline and table.game.actor != 0:
        time.sleep(0.02)
    time.sleep(0.1)
    with table.cond:
        n = len(table.game.undo_span(table.bot_seats()))
    assert n == 4
    svc.host_action(table, host, "undo", {"version": table.version})
    said = svc.view(table, None)["undone"]
    assert said["seats"][-1] == 0 and str(said["words"]) == "The host took back A (Red)'s move and 3 moves after it."
    svc.close()
    again = TableService(Store(tmp_path / "g.sqlite3"), b"k" * 32, bot_delay=0)
    assert str(again.view(again.get(table.gid), None)["undone"]["words"]) == str(said["words"])
    again.close()


# ------------------------------------------------------------------ 9: the host plays a seat
def test_the_host_phone_takes_a_free_seat_without_scanning_its_own_code():
    app = make_app()
    host = lan(app, 50)
    gid = new_table(host)
    info = host.get(f"/api/games/{gid}/host").get_json()
    assert info["my_seat"] is None
    stranger = lan(app, 51)
    r = stranger.post(f"/api/games/{gid}/play-here", json={"seat": 2}, headers=H)
    assert r.status_code == 403                                         # only the host's phone
    assert host.post(f"/api/games/{gid}/play-here", json={"seat": "2"}, headers=H).status_code == 400
    assert host.post(f"/api/games/{gid}/play-here", json={"seat": 9}, headers=H).status_code == 400
    r = host.post(f"/api/games/{gid}/play-here", json={"seat": 2}, headers=H)
    assert r.status_code == 200 and r.get_json()["url"] == f"/seat/{gid}"
    me = host.get(f"/api/games/{gid}/me").get_json()
    assert me["seat"] == 2 and len(me["hand"]) > 0
    assert host.get(f"/api/games/{gid}/host").get_json()["my_seat"] == 2
    # one seat per phone; a seat another phone holds is not taken from it
    r = host.post(f"/api/games/{gid}/play-here", json={"seat": 3}, headers=H)
    assert r.status_code == 409 and "already holds" in r.get_json()["error"]
    svc = app.extensions["pegs"]
    other = lan(app, 52)
    other.post("/api/join", json={"code": svc.join_code(svc.get(gid), 1)}, headers=H)
    fresh_host = app.test_client()   # the host's cookie only, no seat
    fresh_host.set_cookie(f"pj_h_{gid}", host.get_cookie(f"pj_h_{gid}").value)
    fresh_host.environ_base.update({"REMOTE_ADDR": "192.168.1.53"})
    r = fresh_host.post(f"/api/games/{gid}/play-here", json={"seat": 1}, headers=H)
    assert r.status_code == 409 and "another phone" in r.get_json()["error"]
    svc.close()


def board_of(phone, gid):
    page = phone.get(f"/seat/{gid}").get_data(as_text=True)
    return page[page.index('<svg id="board"'):page.index("</svg>")]


# ------------------------------------------------------------------ 10: a returning phone
def test_a_returning_phones_own_request_is_marked_for_the_host():
    app = make_app()
    host, gid, phones = table_on_the_lan(app)
    t = app.extensions["pegs"].get(gid)
    held_board = board_of(phones[1], gid)
    assert host.post(f"/api/games/{gid}/host/bot", json={"version": t.version, "seat": 1, "bot": "easy"},
                     headers=H).status_code == 200
    assert phones[1].post(f"/api/games/{gid}/seat-request", json={}, headers=H).status_code == 200
    seat = host.get(f"/api/games/{gid}/host").get_json()["seats"][1]
    assert seat["request"] and seat["request_own"] is True
    # its page (reloaded) draws the board from where it sat, as before (25 §4.1)
    assert board_of(phones[1], gid) == held_board != board_of(phones[0], gid)
    # a stranger who scanned seat 3's code while seat 3's phone holds it: not "own"
    code = app.extensions["pegs"].join_code(t, 3)
    r = lan(app, 99).post(f"/api/games/{gid}/seat-request", json={"code": code}, headers=H)
    assert r.status_code == 200
    seat = host.get(f"/api/games/{gid}/host").get_json()["seats"][3]
    assert seat["request"] and seat["request_own"] is False
    app.extensions["pegs"].close()


# ------------------------------------------------------------------ 11: rematch
def test_a_rematch_keeps_the_preset_seats_and_phones_with_a_new_deal(tmp_path):
    from web import create_app
    from web.store import Store
    from web.tables import TableService
    path = tmp_path / "games.sqlite3"
    svc = TableService(Store(path), b"k" * 32, bot_delay=0)
    app = create_app({"BOT_DELAY": 0.0}, service=svc)
    host, gid, phones = table_on_the_lan(app, preset="tock", players=4, teams=4,
                                         names=["Ann", "Bob", "Cy", "Di"])
    old = svc.get(gid)
    hands = [list(h) for h in old.game.hands]
    r = host.post(f"/api/games/{gid}/rematch", json={}, headers=H)
    assert r.status_code == 409                               # not before the game's end
    assert phones[0].post(f"/api/games/{gid}/rematch", json={}, headers=H).status_code == 403
    # Bob's seat went to the computer during the game: his phone (watching) plays the next one
    assert host.post(f"/api/games/{gid}/host/bot", json={"version": old.version, "seat": 1, "bot": "easy"},
                     headers=H).status_code == 200
    assert host.post(f"/api/games/{gid}/host/end", json={"version": old.version}, headers=H).status_code == 200
    r = host.post(f"/api/games/{gid}/rematch", json={}, headers=H)
    assert r.status_code == 200, r.get_json()
    new_gid = r.get_json()["gid"]
    assert new_gid != gid and r.get_json()["url"] == f"/host/{new_gid}"
    assert host.post(f"/api/games/{gid}/rematch", json={}, headers=H).status_code == 409   # once
    new = svc.get(new_gid)
    assert [s.name for s in new.seats] == [s.name for s in old.seats]
    assert new.game.rules.to_json() == old.game.rules.to_json() and new.status == "playing"
    assert [list(h) for h in new.game.hands] != hands          # a new deal
    assert new.game.dealer == (old.game.dealer + 1) % 4
    # every phone learns where the game went on, and follows with its own cookie
    assert [s.bot for s in new.seats] == [None] * 4
    assert phones[1].get(f"/api/games/{gid}/table").get_json()["rematch"] == new_gid
    for seat, phone in phones.items():
        if seat != 1:
            assert phone.get(f"/api/games/{gid}/me").get_json()["rematch"] == new_gid
        r = phone.post(f"/api/games/{gid}/follow", json={}, headers=H)
        assert r.status_code == 200 and r.get_json()["gid"] == new_gid
        assert phone.get(f"/api/games/{new_gid}/me").get_json()["seat"] == seat
    assert host.get(f"/api/games/{new_gid}/host").status_code == 200      # the host's page too
    # a passer-by learns the public table id and gets no cookie
    passer = lan(app, 98)
    r = passer.post(f"/api/games/{gid}/follow", json={}, headers=H)
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
    assert passer.get(f"/api/games/{new_gid}/me").status_code == 403
    # nothing lost on a restart: both logs say it (the new one's creation names the old)
    svc.close()
    again = TableService(Store(path), b"k" * 32, bot_delay=0)
    t_old, t_new = again.get(gid), again.get(new_gid)
    assert t_old.rematch == new_gid and t_new.rematch_of == gid
    assert [list(h) for h in t_new.game.hands] == [list(h) for h in new.game.hands]
    assert [s.token_hash for s in t_new.seats] == [s.token_hash for s in new.seats]
    again.close()


# ------------------------------------------------------------------ 12: static files
def test_static_files_are_versioned_cached_and_compressed():
    app = make_app()
    c = lan(app)
    gid = new_table(c)
    page = c.get(f"/seat/{gid}").get_data(as_text=True)
    urls = re.findall(r'src="(/static/[^"]+)"', page) + re.findall(r'href="(/static/[^"]+)"', page)
    assert urls and all(re.search(r"\?v=[0-9a-f]{12}$", u) for u in urls), urls
    for url in urls:
        plain = c.get(url)
        assert plain.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        packed = c.get(url, headers={"Accept-Encoding": "gzip, deflate"})
        assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data) / 2
    # the same file under an old (or no) version: revalidated, never kept stale
    stale = c.get("/static/js/seat.js?v=000000000000")
    assert stale.headers["Cache-Control"] == "no-cache" and stale.headers.get("ETag")
    assert c.get("/static/js/seat.js", headers={"If-None-Match": stale.headers["ETag"]}).status_code == 304
    packed = c.get("/static/js/seat.js", headers={"Accept-Encoding": "gzip"})
    again = c.get("/static/js/seat.js", headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304
    # the pages and the words' catalog are compressed too; the event stream never is
    assert c.get(f"/seat/{gid}", headers={"Accept-Encoding": "gzip"}).headers["Content-Encoding"] == "gzip"
    cat = c.get("/i18n/ar.js", headers={"Accept-Encoding": "gzip"})
    assert cat.headers["Content-Encoding"] == "gzip"
    stream = c.get(f"/api/games/{gid}/events?client=abcdefgh12", headers={"Accept-Encoding": "gzip"},
                   buffered=False)
    assert "Content-Encoding" not in stream.headers
    stream.close()
    # a client that accepts no compression gets the plain bytes
    assert "Content-Encoding" not in c.get(urls[0], headers={"Accept-Encoding": "identity"}).headers
    app.extensions["pegs"].close()


def test_a_rematch_refused_at_the_tables_cap_says_so_in_the_hosts_language():
    app = make_app()
    svc = app.extensions["pegs"]
    host, gid, _ = table_on_the_lan(app, preset="basic", players=4, teams=2, names=["Ann", "Bob", "Cy", "Di"])
    t = svc.get(gid)
    assert host.post(f"/api/games/{gid}/host/end", json={"version": t.version}, headers=H).status_code == 200
    new_table(app.test_client())                      # another table in play: the cap is reached
    svc.max_tables = 1
    host.set_cookie("pj_lang", "fr_CA")
    r = host.post(f"/api/games/{gid}/rematch", json={}, headers=H)
    said = r.get_json()["error"]
    assert r.status_code == 429 and "serve.max_tables" in said and "being played" not in said, said
    assert said == host.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2,
                                                  "names": ["A", "B", "C", "D"]}, headers=H).get_json()["error"]
    app.extensions["pegs"].close()
