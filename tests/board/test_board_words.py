"""Issue 14.4 on the board: what the board referee says (its message, the candidate moves, the
catch-up line) is in words with names and colours, never a move's notation, which stays in
the candidates' "move" field for the phone to send and in the record."""
from __future__ import annotations

import re

from .boardkit import NAMES, FakeClock, _seeded, deal_seed, mock_hardware
from web import create_app
from web.board_referee import BoardHub
from web.store import Store
from web.tables import TableService

H = {"X-Pegs-Request": "1"}
NOTATION = re.compile(r"\b\d+:[SMH]|\b[MH]\d+\b|\bside \d")
COME_OUT = ("A", "J", "Q", "K")


def sim_table(seed):
    clock = FakeClock()
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0)
    hub = BoardHub(svc, "simulation", lambda s, h: mock_hardware(s, clock, h), settle=0.8, clock=clock,
                   threaded=False)
    app = create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 0.2}, service=svc, board=hub)
    with _seeded(seed):
        r = app.test_client().post("/api/games", json={"preset": "basic", "players": 4, "teams": 2,
                                                       "names": NAMES[:4]}, headers=H)
    gid = r.get_json()["gid"]
    table = svc.get(gid)
    phones = {}
    for seat in range(4):
        phones[seat] = app.test_client()
        phones[seat].post("/api/join", json={"code": svc.join_code(table, seat)}, headers=H)
    tv = app.test_client()
    tv.post("/api/display", json={"code": svc.display_code(table)}, headers=H)
    assert tv.get(f"/api/games/{gid}/board").get_json()["state"] == "ready"   # the table page is open

    def run(seconds, step=0.01):
        for _ in range(round(seconds / step)):
            clock.advance(step)
            hub.tick()
    return svc, gid, table, phones, tv, run


def said(st) -> str:
    return " | ".join([st.get("message") or "", st.get("catch_up") or "", *st.get("fix", []),
                       *(c["words"] for c in st.get("candidates", []))])


def test_a_wrong_peg_on_the_board_is_refused_in_words_naming_its_owner():
    seed = deal_seed(lambda hand: any(c[:-1] in COME_OUT for c in hand))
    svc, gid, table, phones, tv, run = sim_table(seed)
    try:
        g = table.game
        seat, side = g.actor, g.seat_side[g.actor]
        card = next(c for c in g.hands[seat] if c[:-1] in COME_OUT)
        r = phones[seat].post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": card},
                              headers=H)
        assert r.status_code == 200, r.get_json()
        # the next player's peg brought out instead of one's own (P8)
        other = (side + 1) % 4
        tv.post(f"/api/games/{gid}/board/lift", json={"hole": f"S-s{other}-5"}, headers=H)
        run(0.1)
        tv.post(f"/api/games/{gid}/board/place", json={"hole": f"M{side * 18 + 8}", "side": other}, headers=H)
        run(1.2)
        st = tv.get(f"/api/games/{gid}/board").get_json()
        assert st["state"] == "wrong" and st["rule"] == "P8", st
        owner = table.seats[g.side_seat[other]].name
        assert st["message"] == f"That's {owner}'s peg: you may move only your own (rule P8)", st["message"]
        assert not NOTATION.search(said(st)), said(st)
    finally:
        svc.close()


def test_a_move_made_on_a_phone_is_caught_up_in_words():
    seed = deal_seed(lambda hand: any(c[:-1] in COME_OUT for c in hand))
    svc, gid, table, phones, tv, run = sim_table(seed)
    try:
        g = table.game
        seat = g.actor
        play = next(p for p in g.legal_plays() if p.move.steps and p.card)
        r = phones[seat].post(f"/api/games/{gid}/act", json={"version": table.version, "card": play.card,
                                                              "move": play.move.text(table.geo)}, headers=H)
        assert r.status_code == 200, r.get_json()
        for _ in range(20):   # the simulated board catches up a moment later (SYNC_DELAY)
            run(0.01)
            st = tv.get(f"/api/games/{gid}/board").get_json()
            if st["state"] == "sync":
                break
        assert st["state"] == "sync", st
        who = f"{table.seats[seat].name} ("
        assert who in st["message"] and st["catch_up"].startswith(f"The board is catching up: {who}")
        assert not NOTATION.search(said(st)), said(st)
    finally:
        svc.close()
