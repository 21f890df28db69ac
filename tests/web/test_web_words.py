"""Issue 14 points 4 and 5 through the API: the log, the doubt prompt and refusals carry words
with names and colours (the notation stays beside them), and after a doubt every page is told
how it ended; a move a caught bluff cancelled is marked cancelled in the log."""
from __future__ import annotations

import re

from companion.cards import rank_of

# Defined here, not imported from conftest: run beside other folders, `conftest` may be theirs.
H = {"X-Pegs-Request": "1"}


def new_table(client, **over):
    body = {"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Bob", "Cy", "Di"], **over}
    r = client.post("/api/games", json=body, headers=H)
    assert r.status_code == 201, r.get_json()
    return r.get_json()["gid"]


def join_all(app, gid):
    """A test client per seat, each holding its seat cookie."""
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    phones = {}
    for seat in range(len(table.seats)):
        phone = app.test_client()
        r = phone.post("/api/join", json={"code": svc.join_code(table, seat)}, headers=H)
        assert r.status_code == 200, r.get_json()
        phones[seat] = phone
    return phones

NOTATION = re.compile(r"\b[MH]\d+\b|\d+:[SMH]|\bside \d")


def views(app, gid):
    svc = app.extensions["pegs"]
    t = svc.get(gid)
    return [svc.view(t, s) for s in [None, *range(len(t.seats))]]


def test_log_and_refusals_in_words(client, app):
    gid = new_table(client, names=["Ann", "Bob", "Cy", "Di"])
    phones = join_all(app, gid)
    t = app.extensions["pegs"].get(gid)
    seat = t.game.actor
    me = phones[seat]
    # a refusal: moving an opponent's peg names its owner and keeps the rule id
    other = (seat + 1) % 4
    side = t.game.seat_side[other]
    come_out = t.geo.come_out[side]
    rank = rank_of(t.game.hands[seat][0])   # a card in the hand, so the refusal is about the peg
    r = me.post(f"/api/games/{gid}/check", json={"version": t.version, "move": f"{rank} {side}:S-M{come_out}",
                                                 "card": None}, headers=H)
    body = r.get_json()
    assert r.status_code == 422 and body["rule"] == "P8"
    assert body["words"] == f"that's {t.seats[other].name}'s peg: you may move only your own (P8)"
    # a move: the log says it in words; the notation and the card stay in the entry
    plays = me.get(f"/api/games/{gid}/plays").get_json()
    card = next((c for c in plays["cards"] if c["moves"]), None)
    move = card["moves"][0]["move"] if card else f"{plays['cards'][0]['rank']} discard"
    card = card or plays["cards"][0]
    r = me.post(f"/api/games/{gid}/act", json={"version": t.version, "move": move, "card": card["card"]},
                headers=H)
    assert r.status_code == 200, r.get_json()
    who = f"{t.seats[seat].name} ({t.seats[seat].colour.title()})"
    for v in views(app, gid):
        entry = v["log"][-1]
        assert entry["move"] == move
        assert entry["words"].startswith(who) and not NOTATION.search(entry["words"]), entry


def test_a_doubt_is_told_to_everyone_and_the_bluff_cancelled(client, app):
    gid = new_table(client, preset="bluffing_joker")
    phones = join_all(app, gid)
    t = app.extensions["pegs"].get(gid)
    bluffer = t.game.actor
    plays = phones[bluffer].get(f"/api/games/{gid}/plays").get_json()
    # a bluff is always there: a card declared as a rank it isn't (five ranks bring a peg out)
    card, move = next((c["card"], ms[0]["move"]) for c in plays["cards"]
                      for rank, ms in plays["declare"].items() if ms and rank != c["rank"])
    r = phones[bluffer].post(f"/api/games/{gid}/act", json={"version": t.version, "move": move, "card": card},
                             headers=H)
    assert r.status_code == 200, r.get_json()
    for v in views(app, gid):   # the prompt says it in words, without the real card
        assert v["declared"]["words"].startswith(f"{t.seats[bluffer].name} (")
        assert "face down as" in v["declared"]["words"] and not NOTATION.search(v["declared"]["words"])
        assert card not in str(v["declared"]) and "told" not in v
    doubter = t.game.actor
    r = phones[doubter].post(f"/api/games/{gid}/act", json={"version": t.version, "move": "doubt",
                                                              "card": None}, headers=H)
    assert r.status_code == 200, r.get_json()
    b = t.seats[bluffer].name
    for v in views(app, gid):
        told = v["told"]
        assert f"doubted {b}'s" in told and "a bluff" in told and f"{b}'s move is cancelled" in told
        assert "plays next" in told or "is choosing the peg" in told
        declared = [e for e in v["log"] if e.get("cancelled")]
        assert len(declared) == 1 and declared[0]["seat"] == bluffer and declared[0]["move"] == move
        assert rank_of(card) != move.split()[0]


def test_the_phones_board_numbers_every_fifth_hole(client, app):
    """The same numbers as the printed board, so "hole 21" can be found on either."""
    from web.board import render_svg
    gid = new_table(client, preset="basic", players=6, teams=2,
                    names=["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])
    svg = render_svg(app.extensions["pegs"].get(gid))
    numbers = re.findall(r'<text class="hole-num"[^>]*>(\d+)</text>', svg)
    assert numbers == [str(n) for n in range(0, 108, 5)]
