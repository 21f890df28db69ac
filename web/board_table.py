"""One table on the board (`BoardReferee`): what the board must show, the card chosen
on the phone followed on the board, the move committed once the board settles, the
LEDs. The pure decisions are `companion.referee.Referee`'s; the board's owner, its
thread and lock are `web.board_referee.BoardHub`'s (whose module docstring says how
the two work together).
"""
from __future__ import annotations

import json
import logging
from collections import deque

from companion.referee import GameView, Referee, RefereeError

from hardware.leds import PATTERNS, STEADY
from hardware.virtual import VirtualBoard

from .errors import ApiError

log = logging.getLogger("web.board")

MODES = ("simulation", "sensors", "leds", "camera", "none")
SENSING = ("simulation", "sensors", "camera")
RGB_HEX = "#{:02x}{:02x}{:02x}"


def _hex(colour) -> str:
    return RGB_HEX.format(*colour)


def _rgb(hex_colour: str) -> tuple:
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


class BoardReferee:
    """One table on the board: feeds the pure `companion.referee.Referee` (which decides)
    from the sensor, the table and the simulated board, and carries out what it decides:
    the LEDs, the move to commit (through `TableService.act_as`, the path a phone's move
    takes), a computer seat's go-ahead, the pages' wake-up. All methods are called with the
    hub's lock held."""

    SYNC_DELAY = 0.2     # simulation: seconds before the pegs of a move made elsewhere start moving
                         # (the phones draw those lights as catch-up; longer only made the board lag)

    def __init__(self, hub, table, hw, virtual: VirtualBoard | None = None):
        self.hub = hub
        self.service = hub.service
        self.table = table
        self.hw = hw
        self.mode = hub.mode
        self.sensing = hub.mode in SENSING
        self.virtual = virtual
        self.leds = hw.leds
        self.sensor = hw.sensor if self.sensing else None
        filled = {h for h, occupied in self.sensor.snapshot().items() if occupied} \
            if self.sensor is not None else set()
        self.core = Referee(sensing=self.sensing, start_holes=hw.wiring.board.start_holes,
                            led_holes=set(self.leds.led_map), settle=hub.settle, filled=filled,
                            simulated=virtual is not None)
        self.dirty = True
        self.roles: dict[str, str] = {}   # hole -> LED role shown
        self.shown_colours: dict[str, int] = {}   # hole -> the side whose colour its LED shows
        self.side_rgb: dict[int, tuple] = {}
        self.touched = None
        self.timings: deque = deque(maxlen=2000)   # commits from the board, for the benchmark
        self._pending_timing = None
        self._published = None
        self.changed = True
        self.view: GameView | None = None
        self._readings_seen = None
        self._taught = None      # the readings' stamp the camera last learnt from (_teach_camera)
        self._refresh_game(force=True)

    def __getattr__(self, name):
        # the decisions' state (state, message, fix_text, follower, filled ...) is the core's
        if name == "core":
            raise AttributeError(name)
        return getattr(self.core, name)

    @property
    def settle(self) -> float:
        """The hub's settle time (the settings page may change it while a table is live)."""
        return self.hub.settle

    # ------------------------------------------------------------------ the game side
    def _refresh_game(self, force: bool = False) -> bool:
        """Give the referee the game as the table has it; True if the game moved on."""
        t = self.table
        with t.cond:
            if not force and not self.dirty and t.version == self.core.version:
                return False
            self.dirty = False
            view = GameView.of(t.game, t.version, status=t.status,
                               names=[t.name_of(i) for i in range(len(t.seats))],
                               colour_names=[b["colour"]["name"] for b in t.public_seats_base],
                               bots=[bool(s.bot) for s in t.seats], speaker=t.names,
                               hint=self._hint(t))
        self.view = view
        self.side_rgb = {self.table.game.seat_side[i]: _rgb(b["colour"]["hex"])
                         for i, b in enumerate(self.table.public_seats_base)}
        self.core.settle = self.settle
        changed = self.core.update_game(view, self.hub.clock())
        if changed:
            self.changed = True
            if self.virtual is not None and self.core.synced_version != self.core.version:
                # a move made away from the simulated board (a computer seat, a phone, an undo):
                # its pegs move by themselves, through the emulated switches, after a moment
                # in which the LEDs show what is to move
                self._virtual_sync(delay=self.SYNC_DELAY)
        self._kick()
        return changed

    @staticmethod
    def _hint(t) -> dict | None:
        """The acting seat's current hint as the referee takes it: its seat and move, never
        its card (the LEDs show only the move's holes). Called with the table locked."""
        h = t.current_hint(None)
        if h is None:
            return None
        try:
            return {"seat": h["seat"], "move": t.game.parse(h["move"], h["card"]).move}
        except ValueError:   # a hint the game no longer takes: nothing to light
            return None

    def _kick(self) -> None:
        if self.core.kick:
            self.core.kick = False
            self.hub.kick_later(self.table)

    # ------------------------------------------------------------------ inputs
    def on_event(self, hole: str, occupied: bool, t: float) -> None:
        self.core.on_event(hole, occupied, t)
        self._kick()

    def observe(self, snapshot: dict, t: float) -> None:
        self.core.observe(snapshot, t)
        self._kick()

    def choose(self, seat: int, card: str | None, rank: str | None, version: int, now: float) -> None:
        self._refresh_game()
        self.core.settle = self.settle
        try:
            self.core.choose(seat, card, rank, version, now)
        except RefereeError as exc:
            raise ApiError(409, exc.message, version=exc.version) from None
        self._kick()

    # ------------------------------------------------------------------ judging
    def _readings(self):
        """(stamp, {hole: (p_peg, side, p_side)}) of the camera's latest stable picture, from a
        sensor that offers ``readings()`` (vision's camera); None from reed switches."""
        reader = getattr(self.sensor, "readings", None)
        return reader() if callable(reader) else None

    def _judge(self, now: float) -> None:
        faults = [f.message for f in self.sensor.active_faults.values() if f.kind != "ignored"] \
            if self.sensor is not None else []
        commit = self.core.judge(now, faults)
        if commit is not None:
            self._commit(commit, now)
        self._kick()

    def _commit(self, commit, now: float) -> None:
        try:
            res = self.service.act_as(self.table, commit.seat, {"version": commit.version, "move": commit.text,
                                                                "card": commit.card}, via="board")
        except ApiError as exc:
            log.warning("board move %s not taken: %s", commit.text, exc.message)
            self.core.commit_failed(exc.extra.get("words") or exc.message)   # in words when it has them
            self.dirty = True
            return
        self._pending_timing = {"last_event": commit.last_event, "settle": self.settle, "judged": now,
                                "committed": self.hub.clock(), "version": res["version"], "move": commit.text}
        self.core.committed(commit, res["version"], now)
        self._refresh_game()
        self._teach_camera()

    def _teach_camera(self) -> None:
        """A camera learns the empty look of start holes the game says are empty (it knows how
        many pegs each start area holds, the camera which holes hold them: vision.watch), from a
        still picture the referee saw show the game: the one a move was taken from, or, after a
        move entered on a phone (or a restart), the first whose sure readings agree with the
        game. Once per picture."""
        learn = getattr(self.sensor, "board_known", None)
        stamp = self._readings_seen
        if not callable(learn) or stamp is None or stamp == self._taught \
                or self.core.readings_show is None or self.core.readings_show != self.core.version:
            return
        self._taught = stamp
        try:
            learn(self.core.expected_holes()[1], stamp)
        except Exception:   # noqa: BLE001 - learning is a bonus; the game goes on
            log.exception("the camera could not learn from the board at version %s", self.core.version)

    # ------------------------------------------------------------------ LEDs
    def _apply_leds(self, now: float) -> None:
        want = self.core.leds(now)
        colours = {h: s for h, s in self.core.led_colours().items() if h in want and s in self.side_rgb}
        if want == self.roles and colours == self.shown_colours:
            return
        gone = [h for h in self.roles if h not in want]
        if gone:
            self.leds.clear(gone)
        for hole, role in want.items():
            if self.roles.get(hole) == role and self.shown_colours.get(hole) == colours.get(hole):
                continue
            if hole in colours:   # a hole that wants a particular peg shows that peg's colour
                look = self.leds.roles[role]
                if look.pattern == STEADY:   # in a pattern of its own: never the steady (green) "legal"
                    self.leds.want([hole], self.side_rgb[colours[hole]], now=now)
                else:                       # a peg to take out, a mistake, a hit: its role's blink or pulse
                    self.leds.set(hole, self.side_rgb[colours[hole]], look.pattern, period=look.period, now=now)
            else:
                self.leds.mark([hole], role, now=now)
        self.roles = want
        self.shown_colours = colours
        self.changed = True

    # ------------------------------------------------------------------ the loop
    def tick(self, now: float) -> None:
        if self.virtual is not None and self.virtual.run_due(now):
            self.changed = True
        if self.sensor is not None:
            events = self.sensor.scan(now)
            read = self._readings()
            if read is not None:   # a camera that scores its holes: the referee weighs the readings
                if read[0] != self._readings_seen:
                    self._readings_seen = read[0]
                    self.core.observe_readings(read[1], now)
            else:
                for event in events:
                    self.core.on_event(event.hole, event.occupied, event.timestamp)
        if self.virtual is not None:   # the simulated board knows each peg's colour
            self.core.see_colours(self.virtual.pegs, now)
        self._refresh_game()
        self._judge(now)
        self._teach_camera()
        self._apply_leds(now)
        self.leds.update(now)
        if self._pending_timing is not None:
            frames = getattr(self.hw.strip, "frames", None)
            self._pending_timing["frame"] = frames[-1].timestamp if frames else self.hub.clock()
            self.timings.append(self._pending_timing)
            self._pending_timing = None
        if self.changed or self.core.changed:
            self.changed = self.core.changed = False
            self._publish()

    def hot(self, now: float) -> bool:
        """Does this board need scanning at full speed now (simulation saves its CPU otherwise)?"""
        if self.mode != "simulation":
            return True
        if self.virtual is not None and self.virtual.queue:
            return True
        return self.core.busy(now) or (self.touched is not None and now - self.touched < 1.0)

    # ------------------------------------------------------------------ public state
    def public(self, hint: bool = True) -> dict:
        """What every page may see (never the chosen card, only the rank it moves as); with
        `hint` False, the LEDs as they would be without the acting seat's hint (its move's
        holes tell a card of that hand: issue 22 point 3). The real board's LEDs show it."""
        marks = self.leds.marks()
        leds = {h: self._led(h, m) for h, m in sorted(marks.items())}
        if not hint:
            leds = self._without_hint(leds)
        out = {"mode": self.mode, "attached": True, "gid": self.table.gid, **self.core.public(),
               "leds": leds}
        if self.sensor is not None:
            out["faults"] = [f.message for f in self.sensor.active_faults.values() if f.kind != "ignored"]
        if self.virtual is not None:
            out["board"] = self.virtual.state()
        return out

    def _without_hint(self, leds: dict) -> dict:
        out = {}
        for hole, led in leds.items():
            if led["role"] != "hint":
                out[hole] = led
                continue
            role, side = self.core.hint_under.get(hole, (None, None))
            look = self.leds.roles.get(role) if role else None
            if look is None:
                continue   # dark without the hint
            pattern, period = look.pattern, look.period
            if side is not None and pattern == STEADY:   # wanting one peg: its own pattern (_apply_leds)
                want = self.leds.roles["want"]
                pattern, period = want.pattern, want.period
            shown = {"role": role, "rgb": _hex(self.side_rgb.get(side, look.colour)), "pattern": pattern,
                     "period": period or PATTERNS[pattern]}
            if side is not None and self.view is not None:
                shown["want"] = self.view.colour_names.get(side)
            out[hole] = shown
        return out

    def _led(self, hole: str, mark: dict) -> dict:
        out = {"role": mark["role"] or self.roles.get(hole), "rgb": _hex(mark["colour"]),
               "pattern": mark["pattern"], "period": mark["period"]}
        side = self.shown_colours.get(hole)
        if side is not None and self.view is not None:
            out["want"] = self.view.colour_names.get(side)   # the colour of the peg this hole wants
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
        target, start = self.core.expected_holes()
        return self.virtual.sync_to(target, start, self.hub.clock() + delay)

    def close(self) -> None:
        self.roles, self.shown_colours, self.core.plan, self.core.flash = {}, {}, {}, {}
        try:
            self.leds.clear()
            self.leds.update(self.hub.clock())
        except Exception:   # the hardware may already be gone
            pass


__all__ = ["BoardReferee", "MODES", "SENSING"]
