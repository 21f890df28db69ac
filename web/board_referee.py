"""The referee on the physical board: the hub that owns the board (here) and the referee
of the one table that has it (`web.board_table.BoardReferee`); the simulated board's
pegs are `hardware.virtual.VirtualBoard`.

A `BoardHub` belongs to the app (the composition root, `web.main`, makes it;
`web.main.board_hardware` decides real or emulated hardware); it owns the one board the
companion has (reed switches and LEDs, or the simulation's emulated ones), its
thread and its lock, and gives it to one live table at a time, through a
`BoardReferee`: that feeds the pure `companion.referee.Referee`, which makes
every decision, and carries them out (LEDs, commits, wake-ups). The referee:

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
for the switches; a camera whose sensor offers ``readings()`` -> (stamp, {hole:
(p_peg, side, p_side)}) has its readings weighed by the referee instead, and one
offering ``crop(hole)`` -> PNG bytes shows the phone the holes it could not read;
the wiring's LEDs, if any), ``simulation`` (emulated switches and LEDs; `VirtualBoard` keeps where each
peg is and feeds the emulated switches when a peg is dragged on the table
page) and ``none`` (no hub: the phone is the board).

Locks: the hub's lock (the board and its referee) may be held while taking a
table's lock, never the other way round: `on_commit`, `on_create` and
`may_act`, which the table service calls with the table locked, only set flags
and wake the runner thread.
"""
from __future__ import annotations

import logging
import threading
import time

from companion.message import msg
from companion.board import START
from companion.cards import rank_of
from companion.game import PLAY
from companion.matching import hole_id
from companion.moves import RANKS
from companion.referee import canonical_holes
from companion.referee import start_holes_of as _start_holes

from hardware.virtual import VirtualBoard, VirtualBoardError

from .board_table import MODES, SENSING, BoardReferee
from .errors import ApiError, api_error

log = logging.getLogger("web.board")


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
    def start(self, adopt_lone: bool = False) -> None:
        """Give the board back to the table whose log says it held it, if that game is still
        in play (issue 22 point 1: not the newest table, which a guest may have made); with
        no such record, to none: a host (or the admin) attaches it, or the next new table
        takes it. `adopt_lone` (a board that starts while the companion runs: "Try the board
        again", a new mode): with no record, the one game in play if there is only one and
        it never had the board."""
        live = [t for t in self.service.tables.values() if self.service.is_live(t)]
        holders = [t for t in live if t.board_held and t.board_held.get("held")]
        if holders:
            self._attach_wanted = max(holders, key=lambda t: (t.board_held.get("at") or 0, t.created)).gid
        elif adopt_lone and len(live) == 1 and live[0].board_held is None:
            self._attach_wanted = live[0].gid
            with live[0].cond:
                self._record(live[0], True)
        if self.runner is not None:
            self.runner.start()

    def _record(self, table, held: bool) -> None:
        """Log that `table` took (or let go of) the board, durably like a move, so that a
        restart gives the board back to it. Lock order: the hub's, then the table's."""
        was = table.board_held
        if (was is not None and was.get("held") == held) or (was is None and not held):
            return
        event = ("board", {"held": held, "at": time.time()})
        with table.cond:
            table.apply(*event)
            try:
                self.service._commit(table, [event])
            except ApiError:   # not saved (the table was rebuilt from its log): the board still follows it
                log.warning("table %s: could not log that it %s the board", table.gid,
                            "took" if held else "let go of")

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
        self._record(table, True)   # the table lock is held (re-entrant): only the table's lock is taken
        if holder is not None and holder is not table:
            self._record(holder, False)
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
                # a board whose start areas and homes hold 4 (Tock, Carbles, Jackaroo, RG-B1)
                holes = (table.game.rules.pegs_per_side, table.geo.home_size)
                extra = {} if holes == (5, 5) else {"start_holes": holes[0], "home_holes": holes[1]}
                hw = self._factory(*size, **extra)
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
                self._attach_explicit(table)
                ref = self.referee
                if ref is not None and ref.table is table:
                    return ref
            raise ApiError(409, self.error or "the board is following another table")
        return ref

    def _attach_explicit(self, table) -> None:
        """A host, a display or the admin gives the board to `table` (hub lock held): logged."""
        before = self.referee.table if self.referee is not None else None
        self._attach(table.gid, explicit=True)
        if self.referee is not None and self.referee.table is table:
            self._record(table, True)
            if before is not None and before is not table:
                self._record(before, False)

    def state(self, table, hint: bool = False) -> dict:
        """The board as `table`'s pages see it; `hint`: with the hinted move's holes (only for
        the hinted seat's phone, a paired display and the admin: web.api.board)."""
        with self.lock:
            ref = self.referee
            if self._attach_wanted == table.gid:
                try:
                    ref = self._referee_of(table)
                except ApiError:
                    ref = self.referee
            if ref is not None and ref.table is table:
                return ref.public(hint)
            other = ref.table.gid if ref is not None else None
            return {"mode": self.mode, "attached": False, "state": "elsewhere" if other else "unavailable",
                    "message": self.error or (msg("The board is following another table.") if other else
                                              msg("The board is not in use.")),
                    "leds": {}, "candidates": [], "fix": [], "hits": []}

    def chosen(self, table, seat: int, version: int) -> dict | None:
        """The card `seat` chose on its phone that the board follows now ({card, rank}), or
        None: for that seat's own phone only, so that a reload shows the same choice."""
        with self.lock:
            ref = self.referee
            c = ref.choice if ref is not None and ref.table is table else None
            if c is None or c["seat"] != seat or c["version"] != version:
                return None
            return {"card": c["card"], "rank": c["rank"]}

    def choose(self, table, token, data, hint: bool = False) -> dict:
        """The acting seat's phone chose a card (or went back: card null)."""
        if not isinstance(data, dict):
            raise ApiError(400, "send a JSON object: {\"version\", \"card\", \"rank\"} "
                                "(Bluffing Joker: \"declared\" instead of \"rank\")")
        svc = self.service
        card = data.get("card")
        with table.cond:
            seat = svc.seat_for(table, token)
            svc._check_open(table)
            svc._check_version(table, data.get("version"))
            g = table.game
            if g.actor != seat or g.phase != PLAY:
                raise ApiError(403, msg("not your turn: %(why)s", why=svc._waiting_for(table)))
            rank = data.get("rank")
            # Tock, Carbles, Jackaroo: the game's own deck ranks (RG-N2: Jackaroo's Qr, Jb ...)
            card_rank = getattr(g, "rank_of", rank_of)
            ranks = getattr(g.position, "ranks", RANKS)
            if card is not None:
                if not isinstance(card, str) or card not in g.hands[seat]:
                    raise ApiError(400, f"{card!r} is not a card in your hand")
                if g.rules.bluffing:
                    # V-BJ: the board is public, so it may follow only the declared rank, and only
                    # once declared: a card tapped but not declared shows nothing (issue 13.1)
                    rank = data.get("declared")
                    if rank is None:
                        raise ApiError(400, "Bluffing Joker: the board follows a card only once you "
                                            "declare what it plays as: send {\"card\", \"declared\": rank}")
                elif rank is None:
                    rank = card_rank(card)
                if rank not in ranks:
                    raise ApiError(400, f"{rank!r} is not a rank ({' '.join(ranks)})")
                if rank != card_rank(card) and not g.rules.bluffing:
                    raise ApiError(400, f"a {card} moves as a {card_rank(card)}, not a {rank}")
            version = table.version
        with self.lock:
            ref = self._referee_of(table)
            ref.choose(seat, card, rank if card is not None else None, version, self.clock())
            ref._apply_leds(self.clock())
            ref._publish()
            body = ref.public(hint)
        self.wake()
        return body

    def crop(self, table, hole) -> bytes:
        """Camera: a small PNG of `hole` from the latest picture, for the phone, only while the
        referee asks about a move and only for the holes it could not read (the doubtful ones):
        the camera sees the table, so nothing else of its picture is served."""
        with self.lock:
            ref = self._referee_of(table)
            if not isinstance(hole, str) or hole not in ref.core.doubtful:
                raise ApiError(404, "the camera's view is shown only for a hole it could not read, "
                                    "while it asks which move was made")
            maker = getattr(ref.sensor, "crop", None)
            png = maker(hole) if callable(maker) else None
        if not png:
            raise ApiError(404, "no picture of that hole from the camera")
        return png

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

    def lift(self, table, data, hint: bool = False) -> dict:
        with self.lock:
            ref, vb = self._virtual(table)
            hole = self._hole(ref, data)
            try:
                side = vb.lift(hole)
            except VirtualBoardError as exc:
                raise api_error(exc) from None
            ref.touched = self.clock()
            ref.changed = True
            ref._publish()
            body = {**ref.public(hint), "lifted": {"hole": hole, "side": side}}
        self.wake()
        return body

    def place(self, table, data, hint: bool = False) -> dict:
        with self.lock:
            ref, vb = self._virtual(table)
            hole = self._hole(ref, data)
            side = data.get("side")
            if not isinstance(side, int) or isinstance(side, bool):
                raise ApiError(400, "\"side\": the colour (side number) of the peg to put down")
            try:
                placed = vb.place(hole, side, self.clock())
            except VirtualBoardError as exc:
                raise api_error(exc) from None
            ref.touched = self.clock()
            ref.changed = True
            ref._publish()
            body = {**ref.public(hint), "placed": {"hole": placed, "side": side}}
        self.wake()
        return body

    def sync(self, table, hint: bool = False) -> dict:
        """Simulation: move the pegs for the players until the board shows the game."""
        with self.lock:
            ref, vb = self._virtual(table)
            ref._refresh_game()
            steps = ref._virtual_sync()
            ref.touched = self.clock()
            ref.changed = True
            ref._publish()
            body = {**ref.public(hint), "steps": steps}
        self.wake()
        return body

    def attach(self, table, hint: bool = False) -> dict:
        """Give the board to this table (when no other game in play holds it)."""
        with self.lock:
            ref = self.referee
            if ref is not None and ref.table is not table and self.service.is_live(ref.table):
                raise ApiError(409, "the board is in use by another game; its host (or the admin) can "
                               "release it from that game's host page, or end that game")
            if ref is None or ref.table is not table:
                self._attach_explicit(table)
            return self.state(table, hint)

    def release(self, table, hint: bool = False) -> dict:
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
            self._record(table, False)
            with table.cond:
                table.board_version += 1
                table.cond.notify_all()
            return self.state(table, hint)


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
             threaded: bool = True, hardware=None, factory=None, adopt_lone: bool = False) -> BoardHub | None:
    """The board for `pegs serve`'s config (None for mode "none"). `wiring` is a loaded
    `hardware.config.WiringConfig` (required for sensors and leds); `hardware`, a
    `Hardware` already opened for it (`web.board_control` opens it at start, to
    fall back safely); without it, nothing is opened until a table takes the board.
    `factory` makes the hardware (default: the composition root's choice for `mode`,
    `web.main.board_hardware`)."""
    if mode == "none":
        return None
    if factory is None:
        from .main import board_hardware
        factory = board_hardware(mode, wiring=wiring, clock=clock)
    if mode != "simulation":
        opened = [hardware] if hardware is not None else []
        make = factory

        def factory(sides, holes_per_side):
            return opened.pop() if opened else make(sides, holes_per_side)
    hub = BoardHub(service, mode, factory, settle=settle, clock=clock, threaded=threaded)
    if mode != "simulation":
        hub.unclaimed = opened   # closed with the hub if no table ever took it
    hub.start(adopt_lone)
    return hub


__all__ = ["BoardHub", "BoardReferee", "VirtualBoard", "make_hub", "MODES", "SENSING", "canonical_holes"]
