"""The referee on the physical board, and the simulated board that stands in for it.

A `BoardHub` belongs to the app (the composition root, `web.main.build_app`,
makes it and decides real or mock hardware); it owns the one board the
companion has (reed switches and LEDs, or the simulation's emulated ones) and
gives it to one live table at a time, through a `BoardReferee`. The referee:

* knows, from the game, what the board must show (`companion.matching`
  occupancies) and compares it with what the sensor says: at set-up, after a
  restart, after a move made away from the board (a phone, a computer seat, an
  undo) it lights what is out of place until the board is right again;
* once the acting seat chooses a card on its phone, follows the board with a
  `companion.matching.BoardFollower` for that card's legal moves: the LEDs
  light the pegs that can move and where they may go (`stages`: only the
  lifted peg's destinations, where a hit peg goes, a split's second part);
* when the board has been still for ``settle`` seconds and shows exactly one
  legal result, makes that move through `TableService.act_as`, the path a
  phone's move takes (log, version, server-sent events, privacy); several
  results: the phone chooses among them; anything else: "wrong" on the LEDs,
  the RULES id and how to put it right on the phones. Nothing else is ever a
  move: bounce, a lifted-and-replaced peg, a hand over the board settle back.

Modes: ``sensors`` (reed switches and LEDs), ``leds`` (LEDs only: moves are
entered on the phone, the LEDs show the choices and then the move to make),
``camera`` (a camera reads the pegs, `vision.sensor.CameraSensor` standing in
for the switches; the wiring's LEDs, if any), ``simulation`` (emulated switches and LEDs; `VirtualBoard` keeps where each
peg is and feeds the emulated switches when a peg is dragged on the table
page) and ``none`` (no hub: the phone is the board).

Locks: the hub's lock (the board and its referee) may be held while taking a
table's lock, never the other way round: `on_commit`, `on_create` and
`may_act`, which the table service calls with the table locked, only set flags
and wake the runner thread.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter, deque

from companion.board import START
from companion.cards import rank_of
from companion.game import DOUBT_PHASE, PLAY
from companion.matching import (BoardFollower, Occupancy, StageIndex, hit_returns, hole_id,
                                occupancy_from_holes, occupancy_of_pegs, parse_hole_id)
from companion.moves import RANKS, SWAP

from .errors import ApiError

log = logging.getLogger("web.board")

MODES = ("simulation", "sensors", "leds", "camera", "none")
SENSING = ("simulation", "sensors", "camera")
RGB_HEX = "#{:02x}{:02x}{:02x}"


def _hex(colour) -> str:
    return RGB_HEX.format(*colour)


def _side_of(hole: str) -> int:
    """The side a start or home hole id belongs to."""
    return int(hole.split("-s", 1)[1].split("-")[0])


def _start_holes(side: int, count: int = 5) -> list[str]:
    return [f"S-s{side}-{i}" for i in range(1, count + 1)]


def canonical_holes(occ: Occupancy) -> set[str]:
    """The filled holes of an occupancy, start pegs in the lowest start holes."""
    out = set(occ.track)
    for side, n in enumerate(occ.start):
        out.update(_start_holes(side, n))
    return out


# ============================================================================ virtual board

class VirtualBoard:
    """The pegs of the simulated board: which peg (colour) stands in which hole, and
    the pegs in the players' hands (``tray``). Every change goes to the emulated
    switches (`hardware.mock.MockBoard`), so the referee sees it exactly as a reed
    board would report it: debounced switch events with their timestamps.

    Two changes of one switch closer than its debounce would read as bounce, so a
    drop onto an occupied hole takes the peg there off first and puts the new one
    in ``GAP`` seconds later, and ``sync_to`` spaces its steps the same way.
    """

    GAP = 0.15

    def __init__(self, mock_board, start_holes: int = 5):
        self.mock = mock_board
        self.start_holes = start_holes
        self.pegs: dict[str, int] = {}     # hole -> side (colour) of the peg in it
        self.tray: list[int] = []          # sides of the pegs in someone's hand
        self.queue: deque = deque()        # (due, op, hole, side): steps still to make
        self.changes = 0

    def setup(self, holes: dict[str, int]) -> None:
        """Put pegs in `holes` (hole -> side) at once: a board already standing there."""
        for hole, side in holes.items():
            self.pegs[hole] = side
            self.mock.place(hole)
        self.changes += 1

    def state(self) -> dict:
        return {"pegs": dict(sorted(self.pegs.items())), "tray": sorted(self.tray),
                "busy": bool(self.queue)}

    # -- what a hand does
    def lift(self, hole: str) -> int:
        side = self.pegs.get(hole)
        if side is None:
            raise ApiError(409, f"there is no peg in {hole} to pick up")
        del self.pegs[hole]
        self.tray.append(side)
        self.mock.remove(hole)
        self.changes += 1
        return side

    def place(self, hole: str, side: int, now: float) -> str:
        """Put a peg of colour `side` from the hand into `hole`; returns the hole used."""
        if side not in self.tray:
            raise ApiError(409, "no peg of that colour is in the hand: pick one up first")
        if hole.startswith("S-s"):
            if hole in self.pegs:   # any free hole of that start area will do
                free = [h for h in _start_holes(_side_of(hole), self.start_holes) if h not in self.pegs]
                if not free:
                    raise ApiError(409, "that start area is full")
                hole = free[0]
        elif hole in self.pegs:     # a hit: take the peg there off, then put this one in
            self.lift(hole)
            self.queue.append((now + self.GAP, "place", hole, side))
            self.changes += 1
            return hole
        self.tray.remove(side)
        self._put(hole, side)
        return hole

    def _put(self, hole: str, side: int) -> None:
        self.pegs[hole] = side
        self.mock.place(hole)
        self.changes += 1

    def sync_to(self, target: dict[str, int], start: dict[int, int], now: float) -> int:
        """Move pegs until the board holds `target` (track and home hole -> side) and
        `start` (side -> pegs in its start area), one step every GAP seconds through the
        switches. Returns the number of steps scheduled."""
        self.queue.clear()   # a plan made before is replaced (its pegs are on the board or in the hand)
        pegs = dict(self.pegs)
        hand = Counter(self.tray)
        lifts, places = [], []
        for hole, side in sorted(pegs.items()):
            if not hole.startswith("S-") and target.get(hole) != side:
                lifts.append(hole)
                hand[side] += 1
                del pegs[hole]
        for side in sorted({_side_of(h) for h in pegs if h.startswith("S-")} | set(start)):
            mine = [h for h in _start_holes(side, self.start_holes) if h in pegs]
            for h in [h for h in mine if pegs[h] != side]:   # another colour's peg in this start
                lifts.append(h)
                hand[pegs.pop(h)] += 1
            mine = [h for h in mine if h in pegs]
            want = start.get(side, 0)
            for h in sorted(mine, reverse=True)[:max(0, len(mine) - want)]:
                lifts.append(h)
                hand[side] += 1
                del pegs[h]
            free = [h for h in _start_holes(side, self.start_holes) if h not in pegs]
            for h in free[:max(0, want - len(mine))]:
                places.append((h, side))
                pegs[h] = side
        for hole, side in sorted(target.items()):
            if pegs.get(hole) != side:
                places.append((hole, side))
                pegs[hole] = side
        t = now
        for hole in lifts:
            self.queue.append((t, "lift", hole, None))
            t += self.GAP
        for hole, side in places:
            if hand[side] <= 0:
                continue  # not enough pegs of that colour anywhere: leave it to the players
            hand[side] -= 1
            self.queue.append((t, "place", hole, side))
            t += self.GAP
        return len(lifts) + len(places)

    def run_due(self, now: float) -> bool:
        """Make the scheduled steps that are due; True if any was made."""
        due = [step for step in self.queue if step[0] <= now]
        if not due:
            return False
        self.queue = deque(step for step in self.queue if step[0] > now)
        for _, op, hole, side in sorted(due, key=lambda step: step[0]):
            if op == "lift":
                if hole in self.pegs:
                    self.lift(hole)
            elif side in self.tray and hole not in self.pegs:
                self.tray.remove(side)
                self._put(hole, side)
        return True


# ============================================================================ referee

class BoardReferee:
    """The referee of one table on the board (see the module docstring). All methods
    are called with the hub's lock held."""

    FLASH = 1.0          # seconds the pegs of a move taken from the board flash white
    SYNC_DELAY = 0.6     # simulation: seconds before the pegs of a move made elsewhere start moving

    def __init__(self, hub: "BoardHub", table, hw, virtual: VirtualBoard | None = None):
        self.hub = hub
        self.service = hub.service
        self.table = table
        self.hw = hw
        self.mode = hub.mode
        self.sensing = hub.mode in SENSING
        self.virtual = virtual
        self.leds = hw.leds
        self.led_holes = set(self.leds.led_map)
        self.sensor = hw.sensor if self.sensing else None
        self.start_holes = hw.wiring.board.start_holes
        self.version = None          # the game version last looked at
        self.dirty = True
        self.synced_version = None   # the version the board last showed
        self.ready_version = None    # the version at which the board is right and play may go on
        self.choice = None           # {"seat", "card", "rank", "version"}: the card chosen on the phone
        self.follower = None
        self.stages = None
        self.stage = None
        self.verdict = None
        self.state = "starting"
        self.message = ""
        self.rule = None
        self.fix_text: list[str] = []
        self.hits: list = []
        self.candidates: list[dict] = []
        self.plan: dict[str, str] = {}    # hole -> LED role wanted now
        self.roles: dict[str, str] = {}   # hole -> LED role shown
        self.flash: dict[str, tuple] = {}  # hole -> (role, until)
        self.start_lifted: dict[int, str] = {}  # side -> the start hole a peg last left
        self.last_event_at = None
        self.timings: deque = deque(maxlen=2000)   # commits from the board, for the benchmark
        self._pending_timing = None
        self._published = None
        self.changed = True
        if self.sensor is not None:
            self.filled = {h for h, occupied in self.sensor.snapshot().items() if occupied}
        else:
            self.filled = set()
        self.touched = None
        self._prev_expected = None
        self.history_len = None      # moves in the game's history, to see an undo
        self.undone = False
        self._refresh_game(force=True)
        self._evaluate()

    # ------------------------------------------------------------------ the game side
    @property
    def settle(self) -> float:
        """The hub's settle time (the settings page may change it while a table is live)."""
        return self.hub.settle

    def _refresh_game(self, force: bool = False) -> bool:
        """Read what the game says the board must show; True if the game moved on."""
        t = self.table
        with t.cond:
            if not force and not self.dirty and t.version == self.version:
                return False
            self.dirty = False
            changed = t.version != self.version
            g = t.game
            if changed:
                history = len(g.history)
                self.undone = self.history_len is not None and history < self.history_len
                self.history_len = history
            self.version = t.version
            self.status = t.status
            self.phase = g.phase
            self.actor = g.actor
            self.pos = g.position.copy()
            pegs = self.pos.pegs()
            if g.phase == DOUBT_PHASE and g.pending:   # V-BJ: the declared move stands on the board
                pegs = self.pos.result_of(g.pending["move"])
            self.expected_pegs = pegs
            self.expected = occupancy_of_pegs(self.pos, pegs)
            if not self.sensing:   # LEDs only: the board is taken to be as the game says
                self.filled = canonical_holes(self.expected)
            self.fresh_game = not g.history
            self.names = {g.seat_side[i]: t.name_of(i) for i in range(len(t.seats))}
            self.seat_names = [t.name_of(i) for i in range(len(t.seats))]
            self.colour_names = {g.seat_side[i]: t.public_seats_base[i]["colour"]["name"]
                                 for i in range(len(t.seats))}
            last = g.history[-1] if g.history else None
            self.last = None
            if last is not None:
                self.last = {"seat": last["seat"], "move": last["move"], "text": last["move"].text(t.geo)}
            self.bots = [bool(s.bot) for s in t.seats]
        if changed:
            self.changed = True
            self.follower = self.stages = self.stage = self.verdict = None
            self.candidates = []
            if self.choice is not None and self.choice["version"] != self.version:
                self.choice = None
            if self.virtual is not None and self.synced_version != self.version:
                # a move made away from the simulated board (a computer seat, a phone, an undo):
                # its pegs move by themselves, through the emulated switches, after a moment
                # in which the LEDs show what is to move
                self._virtual_sync(delay=self.SYNC_DELAY)
        return changed

    def _observed(self) -> Occupancy:
        try:
            return occupancy_from_holes(self.pos, self.filled)
        except ValueError:   # a hole this game's board doesn't have
            known = set()
            for h in self.filled:
                try:
                    parse_hole_id(self.pos.geo, h)
                    known.add(h)
                except ValueError:
                    pass
            return occupancy_from_holes(self.pos, known)

    # ------------------------------------------------------------------ inputs
    def on_event(self, hole: str, occupied: bool, t: float) -> None:
        """A debounced switch change (or a camera's snapshot difference)."""
        if occupied:
            self.filled.add(hole)
        else:
            self.filled.discard(hole)
            if hole.startswith("S-s"):
                self.start_lifted[_side_of(hole)] = hole
        self.last_event_at = t
        self.changed = True
        if self.follower is not None:
            self.follower.feed(hole, occupied, t)
            self.stage = self.stages.get(self._observed())
            if self.stage is not None:
                self.verdict = None
                self._plan_stage()
        else:
            self._evaluate()

    def observe(self, snapshot: dict, t: float) -> None:
        """A camera's snapshot {hole: colour side or None}: its differences are events, and
        while a card is followed its colours go to the judge (`BoardFollower.observe`)."""
        filled = {h for h, c in snapshot.items() if c is not None}
        if self.follower is None:
            for hole in sorted(self.filled - filled):
                self.on_event(hole, False, t)
            for hole in sorted(filled - self.filled):
                self.on_event(hole, True, t)
            return
        self.follower.observe(snapshot, t)
        self.filled = filled
        self.last_event_at = t
        self.changed = True
        self.stage = self.stages.get(self._observed())
        if self.stage is not None:
            self.verdict = None
            self._plan_stage()

    def choose(self, seat: int, card: str | None, rank: str | None, version: int, now: float) -> None:
        """The acting seat chose a card on its phone (None: it went back)."""
        self._refresh_game()
        if version != self.version:
            raise ApiError(409, "the game has moved on since your page was drawn; look again",
                           version=self.version)
        self.follower = self.stages = self.stage = self.verdict = None
        self.candidates = []
        self.flash.clear()
        self.choice = None if card is None else {"seat": seat, "card": card, "rank": rank,
                                                 "version": version}
        self.changed = True
        if self.choice is not None and not self.sensing:
            self._follow(now)          # LEDs only: show the card's choices
        else:
            self._evaluate()

    # ------------------------------------------------------------------ states
    def _evaluate(self) -> None:
        """No card being followed: is the board what the game says?"""
        self.rule, self.fix_text, self.hits = None, [], []
        playing = self.status == "playing"
        if not self.sensing:
            if self.choice is not None:
                return
            self.state = "ready" if playing else "waiting"
            self.message = self._ready_message()
            self._plan_move_shown()
            self.ready_version = self.version
            return
        observed = self._observed()
        if observed == self.expected:
            self.synced_version = self.version
            self.plan = {}
            if self.choice is not None and playing and self.phase == PLAY:
                self._follow(self.hub.clock())
                return
            self.state = "ready" if playing and self.phase == PLAY else "waiting"
            self.message = self._ready_message()
            if self.ready_version != self.version:
                self.ready_version = self.version
                if playing and self.actor is not None and self.bots[self.actor]:
                    self.hub.kick_later(self.table)
            return
        self.ready_version = None
        diff = observed.differences(self.expected)
        if self.fresh_game and self.synced_version is None:
            self.state = "setup"
            self.message = ("Set-up: every peg goes in its start area. A fast-blinking hole has a peg "
                            "that doesn't belong there; a green hole needs a peg.")
            self._plan_fix(diff, "wrong")
        elif self.synced_version is not None and self.synced_version < self.version and (
                self.last or self.undone):
            self.state = "sync"
            self._plan_fix(diff, "can-move", dests=self._last_destinations())
            hit = "hit" in self.plan.values()
            if self.undone or not self.last:
                what = "the host undid a move"
            else:
                who = self.seat_names[self.last["seat"]] if self.last["seat"] is not None else "the host"
                kind = self.last["move"].kind
                what = who + " " + {"doubt": "doubted", "pass": "passed",
                                    "penalty": f"chose {self.last['text']}"}.get(kind, f"played {self.last['text']}")
            self.message = (f"Move the pegs to match the game: {what}. "
                            f"Slow-blinking pegs move; green holes get a peg"
                            + ("; a pulsing hole is where a hit peg goes." if hit else ".")
                            + (" (On the simulated board they move by themselves in a moment.)"
                               if self.virtual is not None else ""))
        else:
            self.state = "restore"
            self.message = ("The board differs from the game (after a restart, or a peg knocked out "
                            "of place): put it back as lit before play goes on. Fast blink: take this "
                            "peg out; green: put a peg here.")
            self._plan_fix(diff, "wrong")
        self.fix_text = self._fix_words(diff)
        if self.choice is not None:
            self.message += " Then the card you chose is followed on the board."

    def _ready_message(self) -> str:
        if self.status == "over":
            return "The game is over."
        if self.status == "ended":
            return "The host has ended this game."
        if self.status == "paused":
            return "Paused by the host."
        if self.actor is None:
            return ""
        who = self.seat_names[self.actor]
        if self.phase == DOUBT_PHASE:
            return f"{who}: doubt or pass, on the phone."
        if self.phase != PLAY:
            return f"{who} chooses the penalty peg on the phone."
        if self.bots[self.actor]:
            return f"{who}, the computer, is playing" + (
                ": its pegs move by themselves." if self.virtual is not None else ".")
        if self.sensing:
            return f"{who} to play: choose a card on your phone, then move the peg on the board."
        return f"{who} to play: choose a card and enter the move on your phone."

    def _follow(self, now: float) -> None:
        """Start following the chosen card on the board."""
        c = self.choice
        moves = [m for m in self.pos.legal_moves([c["rank"]]) if m.steps]
        who = self.seat_names[c["seat"]]
        if not moves:
            self.state, self.choice = "ready", None
            self.message = f"No peg can move with a {c['rank']}: {who}, discard it on the phone."
            self.plan = {}
            return
        self.stages = StageIndex(self.pos, moves)
        self.follower = BoardFollower(self.pos, moves, self.filled if self.sensing else
                                      canonical_holes(self.expected), settle=self.settle, rank=c["rank"])
        self.stage = self.stages.get(self.expected)
        self.verdict = None
        self._plan_stage()

    def _plan_stage(self) -> None:
        """Light the current stage of the move being made (and say it in words)."""
        c = self.choice
        who = self.seat_names[c["seat"]]
        st = self.stage
        plan = {}
        self.hits = []
        self.rule, self.fix_text = None, []
        if st is not None:
            # One hole, several meanings (the board fits several moves so far): an empty hole
            # that is a legal destination shows green even if a peg in the hand came from it,
            # or a hit peg could go there in another reading of the board; a peg that can move
            # shows that, even where another peg could land (a hit, a split of two team pegs,
            # a swap).
            for ref in st.selected:
                if ref.startswith("S-s") and ref.count("-") == 1:
                    hole = self.start_lifted.get(_side_of(ref))
                    if hole and hole not in self.filled:
                        plan[hole] = "selected"
                else:
                    plan[ref] = "selected"
            for colour, frm, to in st.hits:
                hole = self._start_free(colour) if to == "start" else to
                if hole:
                    plan[hole] = "hit"
                self.hits.append({"side": colour, "from": frm, "to": to})
            for hole in st.destination:
                plan[hole] = "legal"
            for ref in st.can_move:
                for hole in self._start_filled(ref) if ref.startswith("S-s") and ref.count("-") == 1 else [ref]:
                    plan[hole] = "can-move"
        self.plan = plan
        if not self.sensing:
            self.state = "following"
            self.message = (f"{who} plays a {c['rank']}: the blinking pegs can move, the green holes "
                            f"are where they may go. Enter the move on the phone.")
            return
        if self.hits:
            self.state = "hit"
            parts = [f"{self.names.get(h['side'], 'the')}'s peg goes "
                     + ("back to its start area" if h["to"] == "start" else f"to {self._words(h['to'])}")
                     for h in self.hits]
            self.message = f"A hit: {'; '.join(parts)} (the pulsing hole)."
        else:
            self.state = "following"
            if st is not None and st.selected:
                self.message = f"{who} plays a {c['rank']}: put the peg in a green hole."
            elif st is not None and st.done:
                self.message = f"{who} plays a {c['rank']}: keep the board still for a moment."
            else:
                self.message = (f"Waiting for the board: {who} plays a {c['rank']}. Lift a blinking "
                                f"peg and put it in a green hole.")

    def _judge(self, now: float) -> None:
        faults = [f for f in self.sensor.active_faults.values() if f.kind != "ignored"] \
            if self.sensor is not None else []
        if faults:   # nothing is judged (let alone taken) while the sensors can't be trusted
            if self.state != "fault":
                self.state = "fault"
                self.message = (f"The sensors report a problem, so the board can't be trusted: "
                                f"{faults[0].message}. Enter the move on the phone, or wait for it "
                                f"to clear.")
                self.changed = True
            return
        if self.state == "fault" and self.follower is None:   # cleared between turns: read the board again
            self.state = None
            self._evaluate()
            self.changed = True
            return
        if self.follower is None:
            return
        if self.state == "fault":
            self.stage = self.stages.get(self._observed())
            self._plan_stage()
            self.changed = True
        verdict = self.follower.poll(now)
        if verdict is None:
            return
        self.changed = True
        if verdict.kind == "move":
            self._commit(verdict.move, now)
        elif verdict.kind == "ambiguous":
            self.verdict = verdict
            self.state = "ambiguous"
            geo = self.pos.geo
            self.candidates = [{"move": m.text(geo), "words": self._move_words(m)} for m in verdict.candidates]
            self.message = (f"The board fits {len(self.candidates)} moves: "
                            f"{self.seat_names[self.choice['seat']]}, choose yours on the phone.")
        elif verdict.kind == "unchanged":
            self.verdict = None
            self.stage = self.stages.get(self._observed())
            self._plan_stage()
        else:   # wrong, unless the board is just part of the way there (a peg in the hand)
            observed = self._observed()
            self.stage = self.stages.get(observed)
            if self.stage is not None and not self.stage.done:
                self._plan_stage()
                return
            self.verdict = verdict
            self.state = "wrong"
            self.rule = verdict.rule
            self.message = verdict.message + (f" (rule {verdict.rule})" if verdict.rule else "")
            self.fix_text = self._fix_words(verdict.fix)
            self.plan = {}
            self._plan_fix(verdict.fix, "wrong")
            for hole in verdict.wrong_holes:
                if hole in self.filled:
                    self.plan[hole] = "wrong"

    def _commit(self, move, now: float) -> None:
        c = self.choice
        text = move.text(self.pos.geo)
        last_event = self.follower.events[-1][2] if self.follower.events else now
        try:
            res = self.service.act_as(self.table, c["seat"], {"version": self.version, "move": text,
                                                              "card": c["card"]}, via="board")
        except ApiError as exc:
            log.warning("board move %s not taken: %s", text, exc.message)
            self.follower = self.stages = self.stage = None
            self.choice = None
            self.dirty = True
            self.state = "error"
            self.message = f"The move on the board could not be taken: {exc.message}"
            return
        self._pending_timing = {"last_event": last_event, "settle": self.settle, "judged": now,
                                "committed": self.hub.clock(), "version": res["version"], "move": text}
        until = now + self.FLASH
        for c_, s, d in move.steps:
            if move.kind != SWAP and d != START:
                self.flash[hole_id(self.pos.geo, c_, d)] = ("selected", until)
        self.synced_version = res["version"]
        self.choice = None
        self._refresh_game()
        self._evaluate()

    # ------------------------------------------------------------------ LED plans
    def _start_filled(self, ref: str) -> list[str]:
        side = _side_of(ref)
        return [h for h in _start_holes(side, self.start_holes) if h in self.filled]

    def _start_free(self, side: int) -> str | None:
        filled = self.filled if self.sensing else canonical_holes(self.expected)
        for h in _start_holes(side, self.start_holes):
            if h not in filled:
                return h
        return None

    def _last_destinations(self) -> set | None:
        """Where the last move's own pegs went (any other hole to fill is a hit peg's);
        None after an undo (nothing is a hit then)."""
        if self.undone:
            return None
        move = self.last["move"] if self.last else None
        if move is None or move.kind not in ("move", "free", "swap"):
            return set()
        return {hole_id(self.pos.geo, c, d) for c, _, d in move.steps if d != START}

    def _plan_fix(self, diff: dict, take_role: str, dests=None) -> None:
        """LEDs for a set of differences: pegs to take out (`take_role`), holes to fill
        (green; pulsing orange for a hit peg's place when `dests` names the move's own)."""
        plan = {}
        filled = self.filled if self.sensing else canonical_holes(self.expected)
        for hole in diff["empty"]:
            plan[hole] = take_role
        for hole in diff["fill"]:
            plan[hole] = "hit" if dests is not None and hole not in dests else "legal"
        for side, n in diff["start"].items():
            holes = _start_holes(int(side), self.start_holes)
            if n > 0:
                for hole in [h for h in holes if h not in filled][:n]:
                    plan[hole] = "hit" if dests is not None else "legal"
            else:
                for hole in [h for h in reversed(holes) if h in filled][:-n]:
                    plan[hole] = take_role
        self.plan = plan

    def _plan_move_shown(self) -> None:
        """LEDs only: after a move, show it (from, to, where hit pegs go) until the next card."""
        prev, self._prev_expected = self._prev_expected, self.expected
        self.synced_version = self.version
        if prev is None or prev == self.expected:
            self.plan = {}
            return
        d = prev.differences(self.expected)
        old_filled = canonical_holes(prev)
        plan = {h: "can-move" for h in d["empty"]}
        plan.update({h: "legal" for h in d["fill"]})
        for side, n in d["start"].items():
            if n > 0:
                for i in range(prev.start[side] + 1, prev.start[side] + n + 1):
                    plan[f"S-s{side}-{i}"] = "hit"
            else:
                for i in range(prev.start[side], prev.start[side] + n, -1):
                    plan[f"S-s{side}-{i}"] = "can-move"
        self.plan = {h: r for h, r in plan.items() if h in self.led_holes or h in old_filled}

    def _apply_leds(self, now: float) -> None:
        want = {}
        for hole, (role, until) in list(self.flash.items()):
            if now >= until:
                del self.flash[hole]
                self.changed = True
            else:
                want[hole] = role
        want.update(self.plan)
        want = {h: r for h, r in want.items() if h in self.led_holes}
        if want == self.roles:
            return
        gone = [h for h in self.roles if h not in want]
        if gone:
            self.leds.clear(gone)
        for hole, role in want.items():
            if self.roles.get(hole) != role:
                self.leds.mark([hole], role, now=now)
        self.roles = want
        self.changed = True

    # ------------------------------------------------------------------ the loop
    def tick(self, now: float) -> None:
        if self.virtual is not None and self.virtual.run_due(now):
            self.changed = True
        if self.sensor is not None:
            for event in self.sensor.scan(now):
                self.on_event(event.hole, event.occupied, event.timestamp)
        if self._refresh_game():
            self._evaluate()
        self._judge(now)
        self._apply_leds(now)
        self.leds.update(now)
        if self._pending_timing is not None:
            frames = getattr(self.hw.strip, "frames", None)
            self._pending_timing["frame"] = frames[-1].timestamp if frames else self.hub.clock()
            self.timings.append(self._pending_timing)
            self._pending_timing = None
        if self.changed:
            self.changed = False
            self._publish()

    def hot(self, now: float) -> bool:
        """Does this board need scanning at full speed now (simulation saves its CPU otherwise)?"""
        if self.mode != "simulation":
            return True
        if self.virtual is not None and self.virtual.queue:
            return True
        if self.follower is not None and self.follower.last_change is not None:
            return True
        recent = [t for t in (self.last_event_at, self.touched) if t is not None and now - t < 1.0]
        return bool(recent or self.flash)

    # ------------------------------------------------------------------ public state
    def public(self) -> dict:
        """What every page may see (never the chosen card, only the rank it moves as)."""
        marks = self.leds.marks()
        out = {"mode": self.mode, "attached": True, "gid": self.table.gid, "version": self.version,
               "state": self.state, "message": self.message, "rule": self.rule,
               "fix": self.fix_text, "hits": self.hits, "candidates": self.candidates,
               "settle": self.settle,
               "seat": self.choice["seat"] if self.choice else None,
               "rank": self.choice["rank"] if self.choice else None,
               "leds": {h: {"role": m["role"], "rgb": _hex(m["colour"]), "pattern": m["pattern"],
                            "period": m["period"]} for h, m in sorted(marks.items())}}
        if self.sensor is not None:
            out["faults"] = [f.message for f in self.sensor.active_faults.values() if f.kind != "ignored"]
        if self.virtual is not None:
            out["board"] = self.virtual.state()
        return out

    def _publish(self) -> None:
        body = self.public()
        sig = json.dumps(body, sort_keys=True)
        if sig == self._published:
            return
        self._published = sig
        with self.table.cond:
            self.table.board_version += 1
            self.table.cond.notify_all()

    # ------------------------------------------------------------------ simulation helpers
    def _virtual_sync(self, delay: float = 0.0) -> int:
        geo = self.pos.geo
        target = {}
        for side, locs in self.expected_pegs.items():
            for loc in locs:
                if loc != START:
                    target[hole_id(geo, side, loc)] = side
        start = {side: locs.count(START) for side, locs in self.expected_pegs.items()}
        return self.virtual.sync_to(target, start, self.hub.clock() + delay)

    # ------------------------------------------------------------------ words
    def _words(self, hole: str) -> str:
        if hole.startswith("M"):
            return f"hole {hole[1:]}"
        side = _side_of(hole)
        colour = self.colour_names.get(side, f"side {side}")
        if hole.startswith("H"):
            return f"{colour}'s home {hole[1]}"
        return f"{colour}'s start area"

    def _fix_words(self, fix: dict) -> list[str]:
        out = [f"take the peg out of {self._words(h)}" for h in fix.get("empty", [])]
        out += [f"put a peg in {self._words(h)}" for h in fix.get("fill", [])]
        for side, n in sorted(fix.get("start", {}).items()):
            colour = self.colour_names.get(int(side), f"side {side}")
            if n > 0:
                out.append(f"put {n} peg{'s' * (n > 1)} in {colour}'s start area")
            else:
                out.append(f"take {-n} peg{'s' * (n < -1)} out of {colour}'s start area")
        return out

    def _move_words(self, move) -> str:
        geo = self.pos.geo
        if move.kind == SWAP:
            (c1, a, _), (c2, b, _) = move.steps
            return (f"swap {self.colour_names.get(c1)} on hole {a} with {self.colour_names.get(c2)} "
                    f"on hole {b}")
        parts = []
        for c, s, d in move.steps:
            frm = "start" if s == START else self._words(hole_id(geo, c, s))
            parts.append(f"{self.colour_names.get(c)} {frm} → {self._words(hole_id(geo, c, d))}")
        extra = [f"{self.colour_names.get(col)} from {self._words(frm)} to "
                 + ("start" if to == "start" else self._words(to)) for col, frm, to in hit_returns(self.pos, move)]
        return ", then ".join(parts) + (f" (hits: {'; '.join(extra)})" if extra else "")

    def close(self) -> None:
        self.roles, self.plan, self.flash = {}, {}, {}
        try:
            self.leds.clear()
            self.leds.update(self.hub.clock())
        except Exception:   # the hardware may already be gone
            pass


# ============================================================================ hub

class BoardHub:
    """The companion's one board, given to one live table at a time (see the module docstring).

    ``hardware(sides, holes_per_side)`` makes the `hardware.devices.Hardware`:
    in ``simulation`` mode a fresh emulated board of that size each time a table
    takes it; in ``sensors``/``leds`` mode the real board, made once (the
    arguments are then only for checking that a table fits it). ``threaded=False``
    leaves the ticking to the caller (tests, with an injected clock).
    """

    IDLE = 0.25    # seconds between scans of a simulated board nobody touches

    def __init__(self, service, mode: str, hardware, *, settle: float = 0.8,
                 clock=time.monotonic, threaded: bool = True):
        if mode not in MODES or mode == "none":
            raise ValueError(f"board mode must be one of {', '.join(MODES[:4])} for a hub, not {mode!r}")
        self.service = service
        self.mode = mode
        self.settle = settle
        self.clock = clock
        self._factory = hardware
        self.lock = threading.RLock()
        self.hw = None
        self.hw_size = None
        self.referee: BoardReferee | None = None
        self.unclaimed: list = []   # hardware opened for the hub that no table has taken yet
        self.error: str | None = None
        self._attach_wanted: str | None = None
        self._kicks: list = []
        self._closed = False
        self.runner = _Runner(self) if threaded else None
        service.board = self

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Take the newest playing table (after a restart: the game that was going on)."""
        playing = [t for t in self.service.tables.values() if t.status == "playing"]
        if playing:
            self._attach_wanted = max(playing, key=lambda t: t.created).gid
        if self.runner is not None:
            self.runner.start()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.runner is not None:
            self.runner.stop()
        with self.lock:
            if self.referee is not None:
                self.referee.close()
                self.referee = None
            for hw in [self.hw, *self.unclaimed]:
                if hw is not None:
                    try:
                        hw.close()
                    except Exception:
                        log.exception("closing the board hardware")
            self.hw = None
            self.unclaimed.clear()

    # ------------------------------------------------------------------ hooks (table lock held)
    def on_commit(self, table) -> None:
        ref = self.referee
        if ref is not None and ref.table is table:
            ref.dirty = True
            self.wake()

    def on_create(self, table) -> None:
        # A new table takes the board only when no game in play holds it (issue 13 point 4).
        ref = self.referee
        holder = ref.table if ref is not None else self.service.tables.get(self._attach_wanted or "")
        if holder is not None and holder is not table and self.service.is_live(holder):
            return
        self._attach_wanted = table.gid
        self.wake()

    def may_act(self, table) -> bool:
        """May a computer seat act now? Only once the board shows the game."""
        ref = self.referee
        if ref is None or ref.table is not table or not ref.sensing:
            return self._attach_wanted != table.gid
        return ref.ready_version == table.version

    def kick_later(self, table) -> None:
        self._kicks.append(table)

    def wake(self) -> None:
        if self.runner is not None:
            self.runner.wake()

    # ------------------------------------------------------------------ the board
    def _attach(self, gid: str, explicit: bool = False) -> None:
        table = self.service.tables.get(gid)
        if table is None:
            return
        size = (table.geo.sides, table.geo.holes_per_side)
        try:
            if self.mode == "simulation":
                if self.referee is not None:
                    self.referee.close()
                    self.referee = None
                if self.hw is not None:
                    self.hw.close()
                    self.hw = None
                hw = self._factory(*size)
                self.hw, self.hw_size = hw, size
            else:
                if self.hw is None:
                    self.hw = self._factory(*size)
                    b = self.hw.wiring.board
                    self.hw_size = (b.sides, b.holes_per_side)
                if self.hw_size != size:
                    msg = (f"the board has {self.hw_size[0]} sides of {self.hw_size[1]} holes; this game "
                           f"needs {size[0]} of {size[1]}: enter its moves on the phones")
                    if explicit:
                        raise ApiError(409, msg)
                    log.info("table %s can't use the board: %s", gid, msg)
                    return
                if self.referee is not None:
                    self.referee.close()
                    self.referee = None
            virtual = None
            if self.mode == "simulation":
                virtual = VirtualBoard(self.hw.mock_board, self.hw.wiring.board.start_holes)
                with table.cond:
                    pos = table.game.position
                    pegs = pos.pegs()
                holes = {}
                for side, locs in pegs.items():
                    starts = iter(_start_holes(side, self.hw.wiring.board.start_holes))
                    for loc in locs:
                        holes[next(starts) if loc == START else hole_id(pos.geo, side, loc)] = side
                virtual.setup(holes)
            self.referee = BoardReferee(self, table, self.hw, virtual)
            self.error = None
        except ApiError:
            raise
        except Exception as exc:   # no hardware here, a driver missing, a GPIO error ...
            log.exception("the board could not be opened")
            self.error = (f"the board could not be opened ({type(exc).__name__}: {exc}); "
                          f"enter the moves on the phones")
            self.referee = None
            if explicit:
                raise ApiError(503, self.error) from None
        with table.cond:
            table.board_version += 1
            table.cond.notify_all()

    def tick(self, now: float | None = None) -> float:
        """One round: attach a table if one is waiting, scan, judge, light. Returns how
        long the runner may sleep."""
        with self.lock:
            if self._closed:
                return 1.0
            now = self.clock() if now is None else now
            gid, self._attach_wanted = self._attach_wanted, None
            if gid is not None and (self.referee is None or self.referee.table.gid != gid):
                self._attach(gid)
            ref = self.referee
            if ref is None:
                return 1.0
            try:
                ref.tick(now)
            except Exception as exc:
                log.exception("the board referee failed")
                self.error = f"the board stopped working ({type(exc).__name__}: {exc}); enter the moves on the phones"
                ref.close()
                self.referee = None
                with ref.table.cond:
                    ref.table.board_version += 1
                    ref.table.cond.notify_all()
                return 1.0
            kicks, self._kicks = self._kicks, []
            hot = ref.hot(now)
        for table in kicks:
            self.service.kick(table)
        if hot:
            scan_hz = self.hw.wiring.sensors.scan_hz if self.hw is not None else 100.0
            return 1.0 / scan_hz
        return self.IDLE

    # ------------------------------------------------------------------ API (web threads)
    def _referee_of(self, table, attach: bool = False) -> BoardReferee:
        gid, self._attach_wanted = self._attach_wanted, None
        if gid is not None and (self.referee is None or self.referee.table.gid != gid):
            self._attach(gid)
        ref = self.referee
        if ref is None or ref.table is not table:
            if attach:
                self._attach(table.gid, explicit=True)
                ref = self.referee
                if ref is not None and ref.table is table:
                    return ref
            raise ApiError(409, self.error or "the board is following another table")
        return ref

    def state(self, table) -> dict:
        with self.lock:
            ref = self.referee
            if self._attach_wanted == table.gid:
                try:
                    ref = self._referee_of(table)
                except ApiError:
                    ref = self.referee
            if ref is not None and ref.table is table:
                return ref.public()
            other = ref.table.gid if ref is not None else None
            return {"mode": self.mode, "attached": False, "state": "elsewhere" if other else "unavailable",
                    "message": self.error or ("The board is following another table." if other else
                                              "The board is not in use."),
                    "leds": {}, "candidates": [], "fix": [], "hits": []}

    def choose(self, table, token, data) -> dict:
        """The acting seat's phone chose a card (or went back: card null)."""
        if not isinstance(data, dict):
            raise ApiError(400, "send a JSON object: {\"version\", \"card\", \"rank\"}")
        svc = self.service
        card = data.get("card")
        with table.cond:
            seat = svc.seat_for(table, token)
            svc._check_open(table)
            svc._check_version(table, data.get("version"))
            g = table.game
            if g.actor != seat or g.phase != PLAY:
                raise ApiError(403, f"not your turn: {svc._waiting_for(table)}")
            rank = data.get("rank")
            if card is not None:
                if not isinstance(card, str) or card not in g.hands[seat]:
                    raise ApiError(400, f"{card!r} is not a card in your hand")
                if rank is None:
                    rank = rank_of(card)
                if rank not in RANKS:
                    raise ApiError(400, f"{rank!r} is not a rank ({' '.join(RANKS)})")
                if rank != rank_of(card) and not g.rules.bluffing:
                    raise ApiError(400, f"a {card} moves as a {rank_of(card)}, not a {rank}")
            version = table.version
        with self.lock:
            ref = self._referee_of(table)
            ref.choose(seat, card, rank if card is not None else None, version, self.clock())
            ref.changed = True
            ref._apply_leds(self.clock())
            ref._publish()
            body = ref.public()
        self.wake()
        return body

    def _virtual(self, table) -> tuple[BoardReferee, VirtualBoard]:
        if self.mode != "simulation":
            raise ApiError(404, "there is no virtual board here: the companion runs with a real board "
                           "(or none)")
        ref = self._referee_of(table)
        return ref, ref.virtual

    def _hole(self, ref, data) -> str:
        hole = data.get("hole") if isinstance(data, dict) else None
        if not isinstance(hole, str) or hole not in ref.hw.wiring.sensors.map:
            raise ApiError(400, f"\"hole\" must be a hole of this board, e.g. M12, H3-s2, S-s2-1; "
                           f"not {hole!r}")
        return hole

    def lift(self, table, data) -> dict:
        with self.lock:
            ref, vb = self._virtual(table)
            hole = self._hole(ref, data)
            side = vb.lift(hole)
            ref.touched = self.clock()
            ref.changed = True
            ref._publish()
            body = {**ref.public(), "lifted": {"hole": hole, "side": side}}
        self.wake()
        return body

    def place(self, table, data) -> dict:
        with self.lock:
            ref, vb = self._virtual(table)
            hole = self._hole(ref, data)
            side = data.get("side")
            if not isinstance(side, int) or isinstance(side, bool):
                raise ApiError(400, "\"side\": the colour (side number) of the peg to put down")
            placed = vb.place(hole, side, self.clock())
            ref.touched = self.clock()
            ref.changed = True
            ref._publish()
            body = {**ref.public(), "placed": {"hole": placed, "side": side}}
        self.wake()
        return body

    def sync(self, table) -> dict:
        """Simulation: move the pegs for the players until the board shows the game."""
        with self.lock:
            ref, vb = self._virtual(table)
            ref._refresh_game()
            steps = ref._virtual_sync()
            ref.touched = self.clock()
            ref.changed = True
            ref._publish()
            body = {**ref.public(), "steps": steps}
        self.wake()
        return body

    def attach(self, table) -> dict:
        """Give the board to this table (when no other game in play holds it)."""
        with self.lock:
            ref = self.referee
            if ref is not None and ref.table is not table and self.service.is_live(ref.table):
                raise ApiError(409, "the board is in use by another game; its host (or the admin) can "
                               "release it from that game's host page, or end that game")
            if ref is None or ref.table is not table:
                self._attach(table.gid, explicit=True)
            return self.state(table)

    def release(self, table) -> dict:
        """This table lets the board go (its host or the admin asked): another may take it."""
        with self.lock:
            ref = self.referee
            if ref is None or ref.table is not table:
                raise ApiError(409, "this table does not have the board")
            ref.close()
            self.referee = None
            if self.mode == "simulation" and self.hw is not None:
                self.hw.close()
                self.hw = None
            if self._attach_wanted == table.gid:
                self._attach_wanted = None
            with table.cond:
                table.board_version += 1
                table.cond.notify_all()
            return self.state(table)


class _Runner(threading.Thread):
    """Ticks the hub: at the sensors' scan rate while a board is live, slower when a
    simulated board is idle, at once when woken (a commit, a peg dragged, a card chosen)."""

    def __init__(self, hub: BoardHub):
        super().__init__(name="pegs-board", daemon=True)
        self.hub = hub
        self.cond = threading.Condition()
        self.woken = False
        self.stopped = False

    def wake(self) -> None:
        with self.cond:
            self.woken = True
            self.cond.notify()

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout=5)

    def run(self) -> None:
        while True:
            with self.cond:
                if self.stopped:
                    return
            try:
                delay = self.hub.tick()
            except Exception:   # never let the board take the thread down
                log.exception("board tick failed")
                delay = 1.0
            with self.cond:
                if not self.woken and not self.stopped:
                    self.cond.wait(delay)
                self.woken = False


def make_hub(service, mode: str, *, settle: float = 0.8, wiring=None, clock=time.monotonic,
             threaded: bool = True, hardware=None) -> BoardHub | None:
    """The board for `pegs serve`'s config (None for mode "none"). `wiring` is a loaded
    `hardware.config.WiringConfig` (required for sensors and leds); `hardware`, a
    `Hardware` already opened for it (`web.board_control` opens it at start, to
    fall back safely); without it, nothing is opened until a table takes the board."""
    if mode == "none":
        return None
    if mode == "simulation":
        def factory(sides, holes_per_side):
            from hardware.config import load_wiring
            from hardware.devices import Hardware
            w = wiring
            if w is None or (w.board.sides, w.board.holes_per_side) != (sides, holes_per_side):
                w = load_wiring({"mock": True, "board": {"sides": sides, "holes_per_side": holes_per_side},
                                 "leds": {"driver": "mock"}})
            return Hardware(w, mock=True, clock=clock)
    else:
        if wiring is None:
            raise ValueError(f"board mode {mode!r} needs a wiring file")

        opened = [hardware] if hardware is not None else []

        def factory(sides, holes_per_side):
            if opened:
                return opened.pop()
            from hardware.devices import Hardware
            return Hardware(wiring, clock=clock)
    hub = BoardHub(service, mode, factory, settle=settle, clock=clock, threaded=threaded)
    if mode != "simulation":
        hub.unclaimed = opened   # closed with the hub if no table ever took it
    hub.start()
    return hub


__all__ = ["BoardHub", "BoardReferee", "VirtualBoard", "make_hub", "MODES", "canonical_holes"]
