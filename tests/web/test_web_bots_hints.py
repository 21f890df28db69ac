"""The computer's levels at the table, its thinking off the table's lock, and hints (issue 17)."""
from __future__ import annotations

import threading

from .webkit import H, join_all, make_app, new_table, wait_until


def _app(**config):
    return make_app(BOT_THINK_MS=30, **config)


def _post(client, path, body):
    r = client.post(path, json=body, headers=H)
    return r.status_code, r.get_json()


def test_levels_are_accepted_and_unknown_ones_refused():
    app = _app()
    try:
        c = app.test_client()
        gid = new_table(c, bots=["hard", "medium", "easy", None])
        table = app.extensions["pegs"].get(gid)
        assert [s.bot for s in table.seats] == ["hard", "medium", "easy", None]
        r = c.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2,
                                       "names": ["A", "B", "C", "D"],
                                       "bots": ["clever", None, None, None]}, headers=H)
        assert r.status_code == 400 and "hard" in r.get_json()["error"]
        # the bots play on until it is the person's turn
        assert wait_until(lambda: table.game.actor == 3, timeout=20)
        status, body = _post(c, f"/api/games/{gid}/host/bot",
                             {"version": table.version, "seat": 3, "bot": "clever"})
        assert status == 400
    finally:
        app.extensions["pegs"].close()


def test_requests_do_not_wait_for_a_thinking_bot(monkeypatch):
    from companion.strong import StrongBot
    real = StrongBot.decide
    thinking = threading.Event()
    answered = threading.Event()   # the page's request came back while the bot thought
    released = []

    def slow(self, view):  # a bot that thinks until the page has had its answer
        thinking.set()
        released.append(answered.wait(60))
        return real(self, view)

    monkeypatch.setattr(StrongBot, "decide", slow)
    app = _app()
    try:
        c = app.test_client()
        gid = new_table(c, bots=["hard", None, None, None])  # seat 0 plays first
        table = app.extensions["pegs"].get(gid)
        v0 = table.version
        assert thinking.wait(60)
        assert c.get(f"/api/games/{gid}/table").status_code == 200
        with table.cond:  # the lock is free while it thinks
            pass
        assert table.version == v0, "the bot should still be thinking"
        answered.set()
        # had the bot held the table's lock, the request would have waited for it to give up
        assert wait_until(lambda: released, timeout=60) and released == [True]
        assert wait_until(lambda: table.version > v0, timeout=60)
        assert table.game.history and table.game.history[0]["seat"] == 0
    finally:
        app.extensions["pegs"].close()


def test_hint_for_a_seat_with_hints_on():
    app = _app()
    try:
        c = app.test_client()
        gid = new_table(c)
        table = app.extensions["pegs"].get(gid)
        phones = join_all(app, gid)
        seat = table.game.actor
        # hints are off: refused
        status, body = _post(phones[seat], f"/api/games/{gid}/hint", {})
        assert status == 403 and "hints" in body["error"]
        status, _ = _post(c, f"/api/games/{gid}/host/hints",
                          {"version": table.version, "seat": seat, "on": True})
        assert status == 200
        other = (seat + 1) % 4
        assert _post(phones[other], f"/api/games/{gid}/hint", {})[0] == 403  # not its turn
        status, body = _post(phones[seat], f"/api/games/{gid}/hint", {})
        assert status == 200 and body["ok"]
        assert wait_until(lambda: "hint" in phones[seat].get(f"/api/games/{gid}/me").get_json())
        me = phones[seat].get(f"/api/games/{gid}/me").get_json()
        hint = me["hint"]
        assert hint["seat"] == seat and hint["reason"]
        # a move shows its pegs; a discard (the deal is random here) has none
        assert bool(hint["steps"]) != hint["move"].endswith("discard")
        assert hint["card"] in me["hand"]
        table.game.parse(hint["move"], hint["card"])  # a legal play for that seat
        # the table and the other seats see that a hint is in use, not what it is
        tv = c.get(f"/api/games/{gid}/table").get_json()
        assert tv["hint"] == {"seat": seat}
        assert tv["seats"][seat]["hints_used"] == 1 and tv["seats"][seat]["hints"]
        assert "hint" not in phones[other].get(f"/api/games/{gid}/me").get_json()
        # the hint is logged as an event of its own
        kinds = [k for _, k, _ in app.extensions["pegs"].store.events(gid)]
        assert "hint" in kinds
        # playing it moves the game on: the hint is gone
        status, _ = _post(phones[seat], f"/api/games/{gid}/act",
                          {"version": table.version, "move": hint["move"], "card": hint["card"]})
        assert status == 200
        assert "hint" not in c.get(f"/api/games/{gid}/table").get_json()
    finally:
        app.extensions["pegs"].close()


def test_hints_for_the_whole_table():
    app = _app()
    try:
        c = app.test_client()
        gid = new_table(c)
        table = app.extensions["pegs"].get(gid)
        status, _ = _post(c, f"/api/games/{gid}/host/hints",
                          {"version": table.version, "all": True, "on": True})
        assert status == 200
        assert all(s["hints"] for s in c.get(f"/api/games/{gid}/table").get_json()["seats"])
        assert _post(c, f"/api/games/{gid}/host/hints",
                     {"version": table.version, "all": True, "on": "yes"})[0] == 400
    finally:
        app.extensions["pegs"].close()


def test_hints_in_the_doubt_phase_of_bluffing_joker():
    import random

    from companion.bots import make_bot
    app = _app()
    try:
        c = app.test_client()
        gid = new_table(c, preset="bluffing_joker")
        svc = app.extensions["pegs"]
        table = svc.get(gid)
        phones = join_all(app, gid)
        _post(c, f"/api/games/{gid}/host/hints", {"version": table.version, "all": True, "on": True})
        bot = make_bot("greedy", random.Random(1))
        while table.game.phase != "doubt":  # play until someone must doubt or pass
            g = table.game
            play = bot.choose(g, g.legal_plays())
            status, _ = _post(phones[g.actor], f"/api/games/{gid}/act",
                              {"version": table.version, "move": play.move.text(table.geo),
                               "card": play.card})
            assert status == 200
        seat = table.game.actor
        svc.hint_step(gid, seat)  # what the bot thread does for a request
        hint = phones[seat].get(f"/api/games/{gid}/me").get_json()["hint"]
        assert hint["move"] in ("doubt", "pass") and hint["card"] is None
        assert "%" in hint["reason"]
        status, _ = _post(phones[seat], f"/api/games/{gid}/act",
                          {"version": table.version, "move": hint["move"]})
        assert status == 200
    finally:
        app.extensions["pegs"].close()
