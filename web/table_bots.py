"""The computer seats and the hints: `BotTurns` (a part of `web.tables.TableService`)
decides when a bot acts and makes its move or a seat's hint, `BotRunner` is the one
thread that runs them, a moment after it becomes their turn."""
from __future__ import annotations

import heapq
import logging
import random
import secrets
import threading
import time

from companion.message import Msg, msg
from companion.bots import make_bot

from .errors import ApiError
from .table_state import Table

log = logging.getLogger("web.tables")


class BotTurns:
    """The bots' half of the table service (it holds `tables`, `board`, `bot_delay`,
    `bot_think_ms`, `_bots` and `_commit`)."""

    def _kick(self, table: Table) -> None:
        """Let a bot act if it is a bot's turn (lock held) and the board is ready for it."""
        g = table.game
        if table.status == "playing" and g.actor is not None and table.seats[g.actor].bot:
            if self.board is not None and not self.board.may_act(table):
                return  # the board referee kicks again once the board shows the game
            self._bots.schedule(table.gid, self.bot_delay)

    def kick(self, table: Table) -> None:
        with table.cond:
            self._kick(table)

    def bot_step(self, gid: str) -> None:
        """One bot decision, run on the bot thread. The table's lock is held only to
        read the acting seat's view and to make the move: the thinking happens
        outside it, so no request waits for a bot."""
        table = self.tables.get(gid)
        if table is None:
            return
        with table.cond:
            g = table.game
            if table.status != "playing" or g.actor is None:
                return
            s = table.seats[g.actor]
            if not s.bot or (self.board is not None and not self.board.may_act(table)):
                return
            if s.bot_obj is None:
                s.bot_obj = make_bot(s.bot, random.Random(secrets.randbits(64)),
                                     **self._think())
            seat, bot, version = g.actor, s.bot_obj, table.version
            if self.bot_think_ms is not None and hasattr(bot, "think_ms"):
                bot.think_ms = self.bot_think_ms   # changed on the settings page since the bot was made
            view = g.player_view(seat) if hasattr(bot, "decide") else None
        choice = None
        fallback = False
        if view is not None:
            try:
                d = bot.decide(view)  # the strong bot: its own seat's view only
                choice = (d.move, d.card)
            except ValueError:  # a phase it doesn't decide (TK-V4.1's pass, JR-P5's discard)
                fallback = True
        with table.cond:
            g = table.game
            if (table.version != version or table.status != "playing" or g.actor != seat
                    or s.bot_obj is not bot):
                self._kick(table)  # the game moved on while it thought: think again
                return
            plays = g.legal_plays()
            if fallback:
                play = make_bot("greedy", random.Random()).choose(g, plays)
            else:
                play = next((p for p in plays if (p.move, p.card) == choice), None) \
                    if choice is not None else bot.choose(g, plays)
            if play is None:
                log.error("game %s: the bot chose %r, not a legal play", gid, choice)
                play = make_bot("greedy", random.Random()).choose(g, plays)
            table.push(play)
            try:
                self._commit(table, [("action", {"seat": seat, "move": play.move.text(table.geo),
                                                 "card": play.card})])
            except ApiError:
                self._bots.schedule(gid, max(self.bot_delay, 1.0))

    def _think(self) -> dict:
        return {} if self.bot_think_ms is None else {"think_ms": self.bot_think_ms}

    # ------------------------------------------------------------ hints
    def request_hint(self, table: Table, token: str | None) -> dict:
        """A seat asks for a hint: made on the bot thread, shown through the seat's view."""
        with table.cond:
            seat = self.seat_for(table, token)
            self._check_open(table)
            if table.game.actor != seat:
                raise ApiError(403, msg("a hint is for your own turn: %(why)s", why=self._waiting_for(table)))
            if not table.hints_on(seat):
                raise ApiError(403, msg("the host has not turned hints on for this seat"))
            if table.current_hint(seat) is not None:
                return {"ok": True, "ready": True, "version": table.version}
            self._bots.schedule(table.gid, 0.0, ("hint", seat))
            return {"ok": True, "ready": False, "version": table.version}

    def hint_step(self, gid: str, seat: int) -> None:
        from companion.hints import suggest
        table = self.tables.get(gid)
        if table is None:
            return
        with table.cond:
            g = table.game
            if table.status != "playing" or g.actor != seat or not table.hints_on(seat) \
                    or table.current_hint(seat) is not None:
                return
            at = table.hint_key()
            view = g.player_view(seat)
            names = {p["side"]: p["colour"]["name"] for p in table.public_seats_base}
        hint = suggest(view, random.Random(secrets.randbits(64)), names, **self._think())
        with table.cond:
            if table.hint_key() != at or table.game.actor != seat or table.status != "playing":
                return  # the game moved on: the seat can ask again
            play = table.game.parse(hint["move"], hint["card"])
            event = {"seat": seat, "at": at, "move": hint["move"], "card": hint["card"],
                     "reason": hint["reason"], "steps": self._move_json(table, play.move)["steps"]}
            if isinstance(hint["reason"], Msg):   # kept structured: each phone reads it in its language
                event["said"] = hint["reason"].to_json()
            table.apply("hint", event)
            self._commit(table, [("hint", event)])


class BotRunner(threading.Thread):
    """One thread that lets bots act a moment after it becomes their turn, and makes
    the hints seats ask for. Each job runs with the bot's own time budget."""

    def __init__(self, service: BotTurns):
        super().__init__(name="pegs-bots", daemon=True)
        self.service = service
        self.cond = threading.Condition()
        self.heap: list[tuple[float, str, tuple]] = []
        self.pending: set = set()
        self.stopped = False

    def schedule(self, gid: str, delay: float, job: tuple = ("bot",)) -> None:
        with self.cond:
            if (gid, job) in self.pending:
                return
            self.pending.add((gid, job))
            heapq.heappush(self.heap, (time.monotonic() + delay, gid, job))
            self.cond.notify()

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify()

    def run(self) -> None:
        while True:
            with self.cond:
                while not self.stopped and (not self.heap or self.heap[0][0] > time.monotonic()):
                    self.cond.wait(None if not self.heap else self.heap[0][0] - time.monotonic())
                if self.stopped:
                    return
                _, gid, job = heapq.heappop(self.heap)
                self.pending.discard((gid, job))
            try:
                if job[0] == "hint":
                    self.service.hint_step(gid, job[1])
                else:
                    self.service.bot_step(gid)
            except Exception:  # a bot must never take the thread down
                log.exception("%s failed in game %s", job[0], gid)


__all__ = ["BotTurns", "BotRunner"]
