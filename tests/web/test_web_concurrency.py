"""Two phones acting at once: exactly one wins, the other is told why; every
connected page hears about every change."""
from __future__ import annotations

import threading

from .webkit import Phone, SSEListener, wait_until


def setup_game(live, players=4):
    svc = live.app.extensions["pegs"]
    host = Phone(live.port)
    status, created, _ = host.post("/api/games", {"preset": "basic", "players": players,
                                                   "names": [f"P{i}" for i in range(players)]})
    assert status == 201
    table = svc.get(created["gid"])
    phones = {}
    for seat in range(players):
        phones[seat] = Phone(live.port)
        assert phones[seat].post("/api/join", {"code": svc.join_code(table, seat)})[0] == 200
    return created["gid"], table, host, phones


def two_plays(phone, gid):
    status, plays, _ = phone.get(f"/api/games/{gid}/plays")
    out = [{"move": m["move"], "card": c["card"]} for c in plays["cards"] for m in c["moves"]]
    out += [{"move": f"{c['rank']} discard", "card": c["card"]} for c in plays["cards"]] if plays["discard"] else []
    return (out * 2)[:2]


def race(calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, fn):
        barrier.wait()
        results[i] = fn()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return results


def test_two_phones_at_once_one_wins(live):
    gid, table, host, phones = setup_game(live)
    for _ in range(10):
        actor = table.game.actor
        version = table.version
        a, b = two_plays(phones[actor], gid)
        second = Phone(live.port)           # the same seat's cookie on a second connection
        second.cookies = dict(phones[actor].cookies)
        results = race([lambda: phones[actor].post(f"/api/games/{gid}/act", {**a, "version": version}),
                        lambda: second.post(f"/api/games/{gid}/act", {**b, "version": version})])
        statuses = sorted(r[0] for r in results)
        assert statuses == [200, 409], results
        loser = next(r for r in results if r[0] == 409)
        assert "moved on" in loser[1]["error"] and loser[1]["version"] == table.version
    assert table.game.turn == 10


def test_host_undo_races_a_move(live):
    gid, table, host, phones = setup_game(live)
    actor = table.game.actor
    a, _ = two_plays(phones[actor], gid)
    assert phones[actor].post(f"/api/games/{gid}/act", {**a, "version": table.version})[0] == 200
    actor = table.game.actor
    a, _ = two_plays(phones[actor], gid)
    version, turn = table.version, table.game.turn
    results = race([lambda: phones[actor].post(f"/api/games/{gid}/act", {**a, "version": version}),
                    lambda: host.post(f"/api/games/{gid}/host/undo", {"version": version})])
    assert sorted(r[0] for r in results) == [200, 409], results
    assert table.game.turn in (turn + 1, turn - 1)


def test_every_page_hears_every_change(live):
    gid, table, host, phones = setup_game(live)
    listeners = [SSEListener(live.port, gid, f"listener-{i:02d}") for i in range(11)]
    for lis in listeners:
        lis.start()
    assert all(lis.ready.wait(30) for lis in listeners)
    for _ in range(8):
        actor = table.game.actor
        a, _ = two_plays(phones[actor], gid)
        assert phones[actor].post(f"/api/games/{gid}/act", {**a, "version": table.version})[0] == 200
        v = table.version
        assert wait_until(lambda: all(lis.events[-1][1] >= v for lis in listeners), 30)
    for lis in listeners:
        lis.stop = True
    # a page that reconnects with the same client id replaces its old stream
    svc = live.app.extensions["pegs"]
    again = SSEListener(live.port, gid, "listener-00")
    again.start()
    assert again.ready.wait(30)
    assert wait_until(lambda: sum(1 for k in svc._streams if k.endswith("listener-00")) == 1)
