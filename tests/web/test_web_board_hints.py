"""A hint on the simulated board (issue 17 point 3), through Flask's test client: the seat
asks for a hint, and the board's LED frame lights the hinted move in the hint look
(hardware.leds.ROLES["hint"]); the board state names no card; the move made clears it."""
from __future__ import annotations

import random
import time

from hardware.config import load_wiring
from hardware.devices import Hardware
from hardware.leds import ROLES
from web import create_app
from web.board_referee import BoardHub
from web.store import Store
from web.tables import TableService


H = {"X-Pegs-Request": "1"}


def wait_until(pred, timeout=30.0, step=0.01):   # a ceiling against a hang
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return False


class Clock:
    t = 1000.0

    def __call__(self):
        return self.t


def _hardware(clock):
    def make(sides, holes_per_side, start_holes=None, home_holes=None):
        board = {"sides": sides, "holes_per_side": holes_per_side}
        if start_holes is not None:
            board.update(start_holes=start_holes, home_holes=home_holes)
        wiring = load_wiring({"mock": True, "board": board, "leds": {"driver": "mock"}})
        return Hardware(wiring, mock=True, clock=clock)
    return make


def test_the_simulated_board_lights_the_hinted_move_in_the_hint_look(monkeypatch):
    import web.tables
    clock = Clock()
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0, bot_think_ms=30)
    hub = BoardHub(svc, "simulation", _hardware(clock), settle=0.8, clock=clock, threaded=False)
    app = create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 0.5}, service=svc, board=hub)
    try:
        host = app.test_client()
        # a deal (seeded) whose first player holds a card that brings a peg out
        for seed in range(50):
            monkeypatch.setattr(web.tables.secrets, "SystemRandom", lambda s=seed: random.Random(s))
            r = host.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2,
                                              "names": ["Ann", "Bob", "Cy", "Di"]}, headers=H)
            table = svc.get(r.get_json()["gid"])
            g = table.game
            if any(c[:-1] in ("A", "K") for c in g.hands[g.actor]) and not any(
                    c[:-1] in ("7", "9", "JK") for c in g.hands[g.actor]):
                break
        monkeypatch.undo()
        gid = table.gid
        hub.tick()
        seat = g.actor
        phone = app.test_client()
        assert phone.post("/api/join", json={"code": svc.join_code(table, seat)}, headers=H).status_code == 200
        assert host.post(f"/api/games/{gid}/host/hints", json={"version": table.version, "seat": seat,
                                                             "on": True}, headers=H).status_code == 200
        hub.tick()
        st = host.get(f"/api/games/{gid}/board").get_json()
        assert st["state"] == "ready" and st["leds"] == {}
        assert phone.post(f"/api/games/{gid}/hint", json={}, headers=H).status_code == 200
        assert wait_until(lambda: table.current_hint(seat) is not None, timeout=20)
        hint = table.current_hint(seat)
        hub.tick()
        st = host.get(f"/api/games/{gid}/board").get_json()
        lit = {h: led for h, led in st["leds"].items() if led["role"] == "hint"}
        assert lit, (hint, st["leds"])
        assert set(lit) == set(hub.referee.core.hint_holes())
        # every hole the hint's steps name is lit: the peg's hole (its start area) and where it goes
        for step in hint["steps"]:
            for end in ("from", "to"):
                token = step.get(end)
                if token and token.startswith("M"):
                    assert token in lit, (token, lit)
        assert all(led["pattern"] == "heartbeat" for led in lit.values())
        # the LED frame itself: each of those LEDs shows the hint colour (lit at the pattern's start)
        leds, strip = hub.hw.leds, hub.hw.strip
        want = tuple(round(c * leds.brightness) for c in ROLES["hint"].colour)
        for hole in lit:
            assert tuple(strip.last[leds.index_of(hole)]) == want, hole
        # nothing on the board's state says which card the hint plays
        assert hint["card"] not in str(st) and hint["reason"] not in str(st)
        # the hint played from the phone: the game moves on, the hint look is gone
        r = phone.post(f"/api/games/{gid}/act", json={"version": table.version, "move": hint["move"],
                                                      "card": hint["card"]}, headers=H)
        assert r.status_code == 200, r.get_json()
        hub.tick()
        st = host.get(f"/api/games/{gid}/board").get_json()
        assert not any(led["role"] == "hint" for led in st["leds"].values())
    finally:
        svc.close()
