"""Whole games through the HTTP API on a live server, every response and every
server-sent event each seat receives checked for hidden information: no other
hand's cards, no stock order, no undoubted bluff card (RULES C5, V-BJ)."""
from __future__ import annotations

import random
import re

import pytest

from companion.cards import is_card
from .webkit import Phone, SSEListener, choose, wait_until

SSE_LINE = re.compile(rb"^(retry: \d+|id: \d+|event: version|data: \{\"version\": \d+\}|: keep-alive|)$")


def card_paths(obj, path=()):
    """Every string in a JSON value that is a card, with its path."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from card_paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from card_paths(v, path + (i,))
    elif isinstance(obj, str) and is_card(obj):
        yield path, obj


def check_private(payload, seat, table):
    """Fail if `payload` (an answer to `seat`; None: the table or host) shows a card it may not."""
    g = table.game
    window = g.history[-30:]
    for path, card in card_paths(payload):
        where = "/".join(map(str, path))
        if path[0] == "hand" or (path[0] == "view" and path[1] == "hand"):
            assert seat is not None, where
            assert card in g.hands[seat], where
        elif path[-1] == "discard_top":
            assert not g.top_hidden and card == g.shoe.discard[-1], where
        elif "log" in path and path[-1] == "card":
            entry = window[path[path.index("log") + 1]]
            assert entry["public"] or entry["seat"] == seat or entry.get("revealed") == card, \
                f"{where}: {card} of a face-down play by seat {entry['seat']} shown to seat {seat}"
        elif path[0] == "cards" and path[-1] in ("card", "rank"):
            assert seat is not None and any(c == card or c == "JK" == card for c in g.hands[seat]), where
        elif path[:2] == ("draw", "rounds"):
            pass  # drawing for partners is done face up
        else:
            raise AssertionError(f"card {card} at {where} in an answer to seat {seat}")
    if seat is not None and isinstance(payload, dict) and "hand" in payload:
        assert sorted(payload["hand"]) == sorted(g.hands[seat])


def play_game(live, preset, players, names, seed, undo_every=60, max_actions=3000, every=1, enough=None):
    """Play until the game is over, or until `enough(game, actions, undos)` says so."""
    rng = random.Random(seed)
    svc = live.app.extensions["pegs"]
    host = Phone(live.port)
    status, created, _ = host.post("/api/games", {"preset": preset, "players": players,
                                                   "teams": 2, "names": names})
    assert status == 201
    gid = created["gid"]
    table = svc.get(gid)
    phones = {}
    for seat in range(players):
        phones[seat] = Phone(live.port)
        status, body, _ = phones[seat].post("/api/join", {"code": svc.join_code(table, seat)})
        assert status == 200, body
    listeners = [SSEListener(live.port, gid, f"seat-{seat}-listener") for seat in range(players)]
    listeners.append(SSEListener(live.port, gid, "table-listener"))
    for lis in listeners:
        lis.start()
    assert all(lis.ready.wait(30) for lis in listeners)
    teams = {}
    checked = 0

    def look(phone, seat, path):
        nonlocal checked
        status, body, raw = phone.get(path)
        assert status == 200, body
        check_private(body, seat, table)
        checked += 1
        return body

    actions = undos = 0
    while not table.game.is_over() and actions < max_actions:
        if enough is not None and enough(table.game, actions, undos):
            break
        actor = table.game.actor
        view = look(phones[actor], actor, f"/api/games/{gid}/me")
        side_of = view["seat_sides"]
        team_sides = teams.setdefault(actor, {str(side_of[s]) for t in view["teams"] if actor in t for s in t})
        plays = look(phones[actor], actor, f"/api/games/{gid}/plays")
        body = choose(plays, rng, team_sides)
        status, answer, _ = phones[actor].post(f"/api/games/{gid}/act", {**body, "version": view["version"]})
        assert status == 200, (body, answer)
        check_private(answer, actor, table)
        actions += 1
        if actions % undo_every == 0 and not table.game.is_over():
            status, answer, _ = host.post(f"/api/games/{gid}/host/undo", {"version": table.version})
            assert status == 200, answer
            undos += 1
        if actions % every == 0 or table.game.is_over():  # everyone looks (SSE saw every change)
            for seat, phone in phones.items():
                look(phone, seat, f"/api/games/{gid}/me")
            look(host, None, f"/api/games/{gid}/table")
        if actions % 10 == 0:
            status, info, _ = host.get(f"/api/games/{gid}/host")
            check_private(info, None, table)
    assert enough is not None or table.game.is_over(), f"{preset}: no winner after {actions} actions"
    assert wait_until(lambda: all(lis.events and lis.events[-1][1] == table.version for lis in listeners))
    for lis in listeners:
        lis.stop = True
        for line in b"".join(lis.raw).split(b"\n"):
            assert SSE_LINE.match(line), line
    return table, actions, undos, checked


def bluffed_and_doubted(game):
    hist = game.history
    return (any(not h["public"] and "revealed" not in h for h in hist)   # an undoubted face-down play
            and any("revealed" in h for h in hist))                       # and a doubt


# The fast suite plays basic to the end and Bluffing Joker until its secrets have been at
# stake (a face-down card not doubted, a doubt, an undo, 100 actions): 3 s of CPU instead of
# 14 (a random Bluffing Joker game runs to about 1,100 actions). The slow part plays it to
# the end, where every card is shown. Every phone and the table look after every second action
# of basic (the actor's own view, plays and answer at every action; the streams every event).
@pytest.mark.parametrize("preset, players, seed, every, to_the_end", [
    ("basic", 4, 1, 2, True),
    ("bluffing_joker", 4, 4, 3, False),
    pytest.param("bluffing_joker", 4, 4, 3, True, marks=pytest.mark.slow)])
def test_whole_game_leaks_nothing(live, preset, players, seed, every, to_the_end):
    names = ["Ann", "Bob", "Cy", "Di"]
    enough = None if to_the_end else (
        lambda game, actions, undos: actions >= 100 and undos >= 1 and bluffed_and_doubted(game))
    table, actions, undos, checked = play_game(live, preset, players, names, seed, every=every,
                                               enough=enough)
    assert actions > 50 and undos >= 1 and checked >= (2 + 5 / every) * actions - 10
    assert table.game.is_over() == to_the_end
    if preset == "bluffing_joker":
        assert bluffed_and_doubted(table.game), "no undoubted face-down play, or no doubt"
