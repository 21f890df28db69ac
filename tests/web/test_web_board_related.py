"""The simulated board for Jackaroo through Flask's test client (issue 18): the phone's card
choice takes the game's own ranks (RG-N2: Qr, Jb ...); a red queen's steal moves no peg, so the
board says to play it on the phone and moves on at once; a king is then followed on the
board's 4-hole start area and taken when dragged."""
from __future__ import annotations

from .test_web_board_hints import H, Clock, _hardware
from web import create_app
from web.board_referee import BoardHub
from web.store import Store
from web.tables import TableService


def run(hub, clock, seconds, step=0.02):
    for _ in range(round(seconds / step)):
        clock.t += step
        hub.tick()


def test_jackaroo_on_the_simulated_board_steal_then_king():
    clock = Clock()
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0)
    hub = BoardHub(svc, "simulation", _hardware(clock), settle=0.8, clock=clock, threaded=False)
    app = create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 0.5}, service=svc, board=hub)
    try:
        host = app.test_client()
        r = host.post("/api/games", json={"preset": "jackaroo", "players": 4, "teams": 2,
                                          "names": ["Ann", "Bob", "Cy", "Di"]}, headers=H)
        assert r.status_code == 201, r.get_json()
        gid = r.get_json()["gid"]
        table = svc.get(gid)
        g = table.game
        phones = {}
        for seat in range(4):
            phones[seat] = app.test_client()
            code = svc.join_code(table, seat)
            assert phones[seat].post("/api/join", json={"code": code}, headers=H).status_code == 200
        tv = app.test_client()
        assert tv.post("/api/display", json={"code": svc.display_code(table)}, headers=H).status_code == 200
        hub.tick()
        st = tv.get(f"/api/games/{gid}/board").get_json()
        assert st["state"] == "ready" and len(st["board"]["pegs"]) == 16      # 4 pegs a side (JR-G1)
        thief = g.actor
        with table.cond:
            g.hands[thief] = ["QH", "2C", "3C", "4C"]
            table.plays_cache = None
        r = phones[thief].post(f"/api/games/{gid}/board/card",
                               json={"version": table.version, "card": "QH", "rank": "Qr"}, headers=H)
        assert r.status_code == 200, r.get_json()
        st = r.get_json()
        assert st["state"] == "ready" and "play it on the phone" in st["message"] and st["leds"] == {}
        assert "QH" not in str(st)
        # the queen sent without a rank is read as the game's own rank, a red queen
        r = phones[thief].post(f"/api/games/{gid}/board/card",
                               json={"version": table.version, "card": "QH"}, headers=H)
        assert r.status_code == 200 and r.get_json()["rank"] is None
        r = phones[thief].post(f"/api/games/{gid}/board/card",
                               json={"version": table.version, "card": "QH", "rank": "Q"}, headers=H)
        assert r.status_code == 400
        steal = next(p.move.text(g.position.geo) for p in g.legal_plays() if p.move.kind == "force")
        r = phones[thief].post(f"/api/games/{gid}/act", json={"version": table.version, "move": steal,
                                                              "card": "QH"}, headers=H)
        assert r.status_code == 200, r.get_json()
        hub.tick()
        st = tv.get(f"/api/games/{gid}/board").get_json()
        nxt = g.actor
        assert nxt != thief and st["state"] == "ready" and st["leds"] == {}   # nothing to wait for
        assert table.name_of(nxt).split(" (")[0] in st["message"]
        # the next player brings a marble out with a king, on the board
        with table.cond:
            g.hands[nxt] = ["KH"] + g.hands[nxt][1:]
            table.plays_cache = None
        side = g.seat_side[nxt]
        r = phones[nxt].post(f"/api/games/{gid}/board/card",
                             json={"version": table.version, "card": "KH", "rank": "K"}, headers=H)
        assert r.status_code == 200, r.get_json()
        st = r.get_json()
        come_out = f"M{18 * side + 17}"                                       # JR-G1's base hole
        assert st["state"] == "following" and st["leds"][come_out]["role"] == "legal"
        assert st["leds"][f"S-s{side}-4"]["role"] == "can-move"
        assert tv.post(f"/api/games/{gid}/board/lift", json={"hole": f"S-s{side}-4"},
                       headers=H).status_code == 200
        run(hub, clock, 0.1)
        version = table.version
        assert tv.post(f"/api/games/{gid}/board/place", json={"hole": come_out, "side": side},
                       headers=H).status_code == 200
        run(hub, clock, 1.0)
        assert table.version > version
        assert g.history[-1]["move"].text(g.position.geo) == f"K {side}:S-{come_out}"
        assert tv.get(f"/api/games/{gid}/board").get_json()["state"] == "ready"
    finally:
        svc.close()
