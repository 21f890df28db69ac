"""Bluffing Joker through the simulated board (issue 13.1): the board is public, so nothing it
shows about a chosen card (rank, LEDs, destinations, words) may give away the card's real rank;
it shows only the declared rank, and only once declared (V-BJ)."""
from __future__ import annotations

import json
import random
import re

import pytest

from .boardkit import NAMES, FakeClock, _seeded, plan_physical
from companion.bots import make_bot
from companion.cards import rank_of
from companion.matching import hole_id
from companion.moves import DISCARD, Move
from companion.words import RANK_NAMES, rank_name
from hardware.config import load_wiring
from hardware.devices import Hardware
from web import create_app
from web.board_referee import BoardHub
from web.store import Store
from web.tables import TableService

RANK_OF_NAME = {name: rank for rank, name in RANK_NAMES.items()}

H = {"X-Pegs-Request": "1"}
MAX_TURNS = 2000
# The fast suite's part: the game's first OPENING turns (a twelfth of its 700 board moves),
# which already hold as many bluffs, doubts and board moves as the whole game is asked for
OPENING = 60


def fast_hardware(sides, holes_per_side, clock):
    """The simulated board's emulated switches on MCP23017 expanders (a fake I2C bus): read
    100 times faster than the emulated shift-register chain, so a whole game fits the budget."""
    wiring = load_wiring({"mock": True, "board": {"sides": sides, "holes_per_side": holes_per_side},
                          "leds": {"driver": "mock"},
                          "sensors": {"backend": "mcp23017", "mcp23017": {"addresses": list(range(0x20, 0x28))}}})
    return Hardware(wiring, mock=True, clock=clock)


def run(hub, clock, seconds, step):
    for _ in range(max(1, round(seconds / step))):
        clock.advance(step)
        hub.tick()


def destinations(pos, rank) -> set:
    """Every hole a peg may end in with `rank`'s legal moves."""
    return {hole_id(pos.geo, c, d) for m in pos.legal_moves([rank]) for c, _, d in m.steps if d >= 0}


class Watcher:
    """Reads every public answer (no cookie) and checks it against the card being played."""

    def __init__(self, app, gid, table):
        self.client, self.gid, self.table = app.test_client(), gid, table
        self.real = self.declared = None
        self.pos = None
        self.looks = 0
        self.leaks: list[str] = []

    def choose(self, pos, real, declared):
        self.pos, self.real, self.declared = pos, real, declared

    def look(self, where: str) -> dict:
        board = self.client.get(f"/api/games/{self.gid}/board").get_json()
        view = self.client.get(f"/api/games/{self.gid}/table").get_json()
        self.looks += 1
        real, declared = self.real, self.declared
        if real is None or real == declared:
            return board
        if board.get("rank") not in (None, declared):
            self.leaks.append(f"{where}: the board says rank {board.get('rank')} (real {real}, declared {declared})")
        # What speaks of the card being played now: the board's words while it follows the card,
        # and the doubt prompt. (The log, the last doubt's outcome and a catch-up message tell
        # earlier plays, by the ranks declared for them, which may be this card's real rank.)
        following = board.get("state") in ("following", "hit", "ambiguous", "wrong")
        words = json.dumps([board.get("message"), board.get("fix"), board.get("candidates")] if following
                           else []) + json.dumps(view.get("declared"))
        named = rf"(?:{re.escape(real)}|{re.escape(rank_name(real))})"   # "J" or, in words, "jack"
        if re.search(rf"\b(?:as |with |plays |split )?an? {named}\b", words):
            self.leaks.append(f"{where}: words name the real rank {real}: {board.get('message')!r}")
        for entry in view.get("log", []):   # past plays: only ever their declared ranks
            said, move = entry.get("words") or "", entry.get("move") or ""
            told = re.findall(r"\b(?:as a|with a|plays a)n? (\w+)", said)
            if move[:1].isalnum() and any(RANK_OF_NAME.get(n, n) != move.split()[0] for n in told):
                self.leaks.append(f"{where}: a log entry names another rank than declared: {entry}")
        if declared is not None and board.get("state") in ("following", "hit", "ambiguous"):
            lit = {h for h, m in board.get("leds", {}).items() if m["role"] in ("legal", "can-move")}
            only_real = destinations(self.pos, real) - destinations(self.pos, declared)
            if lit & only_real:
                self.leaks.append(f"{where}: LEDs light {sorted(lit & only_real)}, reachable only as a {real}")
        return board

    def unchanged(self, where: str, before: dict, after: dict) -> None:
        """A card tapped but not declared: the board must show nothing new at all."""
        if self.real != self.declared and before != after:
            self.leaks.append(f"{where}: the board changed before the declaration: "
                              f"{before.get('state')}/{before.get('rank')} -> {after.get('state')}/{after.get('rank')}")


@pytest.mark.parametrize("turns", [
    pytest.param(OPENING, id="opening"),   # the fast suite: bluffs, doubts and board moves all come up
    pytest.param(MAX_TURNS, id="whole", marks=pytest.mark.slow),   # to the end: .ci/run's slow part
])
def test_a_whole_bluffing_joker_game_on_the_simulated_board_shows_only_declared_ranks(turns):
    clock = FakeClock()
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0)
    hub = BoardHub(svc, "simulation", lambda s, h: fast_hardware(s, h, clock), settle=0.5, clock=clock,
                   threaded=False)
    app = create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 0.2}, service=svc, board=hub)
    try:
        host = app.test_client()
        with _seeded(4):
            r = host.post("/api/games", json={"preset": "bluffing_joker", "players": 4, "teams": 2,
                                              "names": NAMES[:4]}, headers=H)
        gid = r.get_json()["gid"]
        table = svc.get(gid)
        phones = {}
        for seat in range(4):
            phones[seat] = app.test_client()
            assert phones[seat].post("/api/join", json={"code": svc.join_code(table, seat)},
                                     headers=H).status_code == 200
        hub.tick()
        g = table.game
        rng = random.Random(7)
        bots = [make_bot("greedy", random.Random(rng.random())) for _ in range(4)]
        watch = Watcher(app, gid, table)
        stats = {"bluffs": 0, "board_moves": 0, "refused_undeclared": 0, "doubts": 0}
        while not g.is_over() and g.turn < turns:
            # the board catches up with the last move (the simulated pegs move by themselves)
            for _ in range(40):
                if hub.referee.state in ("ready", "waiting"):
                    break
                run(hub, clock, 0.25, 0.05)
            seat = g.actor
            phone = phones[seat]
            pos = g.position.copy()
            play = bots[seat].choose(g, g.legal_plays())
            text = play.move.text(pos.geo)
            if g.phase != "play" or play.move.kind == DISCARD or not play.move.steps:
                stats["doubts"] += play.move.kind == "doubt"
                r = phone.post(f"/api/games/{gid}/act", json={"version": table.version, "move": text,
                                                              "card": play.card}, headers=H)
                assert r.status_code == 200, r.get_json()
                hub.tick()
                watch.look(f"after {text}")
                continue
            real, declared = rank_of(play.card), play.move.rank
            stats["bluffs"] += real != declared
            watch.choose(pos, real, None)
            before = watch.look(f"{play.card} about to be tapped")
            # the card tapped, not yet declared: as the seat page sent it before this fix
            r = phone.post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": play.card,
                                                                 "rank": real}, headers=H)
            stats["refused_undeclared"] += r.status_code == 400
            hub.tick()
            watch.unchanged(f"{play.card} tapped", before, watch.look(f"{play.card} tapped"))
            # declared: the board follows the declared rank
            watch.choose(pos, real, declared)
            r = phone.post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": play.card,
                                                                 "declared": declared, "rank": declared},
                           headers=H)
            assert r.status_code == 200, r.get_json()
            hub.tick()
            watch.look(f"{play.card} declared {declared}")
            version = table.version
            pegs = hub.referee.virtual.pegs
            for step in plan_physical(pos, play.move, pegs):
                if step[0] == "lift":
                    r = phone.post(f"/api/games/{gid}/board/lift", json={"hole": step[1]}, headers=H)
                else:
                    r = phone.post(f"/api/games/{gid}/board/place", json={"hole": step[1], "side": step[2]},
                                   headers=H)
                assert r.status_code == 200, r.get_json()
                run(hub, clock, 0.06, 0.02)
                watch.look(f"{text}: {step[:2]}")
            run(hub, clock, 0.6, 0.1)
            watch.look(f"{text} settled")
            if table.version == version and hub.referee.state == "ambiguous":
                r = phone.post(f"/api/games/{gid}/act", json={"version": table.version, "move": text,
                                                              "card": play.card}, headers=H)
                assert r.status_code == 200, r.get_json()
                hub.tick()
            assert table.version > version, (hub.referee.state, hub.referee.message, text)
            assert Move.from_text(g.history[-1]["move"].text(pos.geo), pos.geo) == play.move
            stats["board_moves"] += 1
            watch.choose(None, None, None)
        print(stats, watch.looks)
        assert g.is_over() or turns == OPENING, stats
        assert stats["bluffs"] >= 5 and stats["doubts"] >= 3 and stats["board_moves"] >= 50, stats
        assert not watch.leaks, watch.leaks[:5]
        assert stats["refused_undeclared"] == stats["board_moves"]
    finally:
        svc.close()
