"""The referee on the board: what the board must show, what to light, what to say, which move to take.

Pure (standard library and companion only): no threads, no clock of its own, no
hardware. One `Referee` serves one table on any board, reed switches, a camera or
the simulated board; the web hub (`web.board_referee`) feeds it and carries out
what it decides:

* `update_game(GameView)`: the game as the table has it now (a `GameView`, read
  under the table's lock); a move made away from the board (a phone, a computer
  seat, an undo) makes the board differ from the game, and the referee lights
  what is out of place until the board is right again;
* `on_event(hole, occupied, t)`: a sensor's change; `observe(snapshot, t)`: a
  camera's colours; `see_colours({hole: side})`: what a board that sees colours
  (the simulated board) holds; `observe_readings(readings, t)`: a camera's per-hole
  probabilities (`companion.readings`), with which every legal result is scored and a
  move is taken only when one explains the picture by `MARGIN` better than all others
  (else the phone is asked, the doubtful holes named);
* `choose(seat, card, rank, version, now)`: the acting seat's phone chose a card:
  its legal moves are followed on the board (`companion.matching.BoardFollower`);
* `judge(now, faults)`: once the board has been still for ``settle`` seconds and
  shows exactly one legal result, returns that move for the hub to commit (then
  `committed` or `commit_failed`); several: the phone chooses; anything else:
  "wrong", the RULES id and how to put it right;
* `leds(now)`: {hole: role} to light now (`colours` names the side whose colour
  a hole's LED should show, where it wants a particular peg); `public()`: the
  words for every page.

Nothing private leaves it: only the rank a card moves as (declared, in Bluffing
Joker), never the card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import START
from .errors import CompanionError
from .game import DOUBT_PHASE, PLAY
from .matching import (BoardFollower, Occupancy, Stage, StageIndex, Verdict, board_of_pegs, colours_of_pegs, hit_returns,
                       hole_id, occupancy_from_holes, occupancy_of_pegs, parse_hole_id)
from .moves import FREE, MOVE, PENALTY, SWAP
from .message import Join, Msg, Said, msg, nmsg, pmsg
from .words import Names, a_rank, a_rank_msg, move_words, refusal, refusal_msg
from .readings import DEFAULT_MARGIN, Reading, contradictions, decide, doubtful

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from .game import Game
    from .moves import Move
    from .state import PegState

BOARD_KINDS = (MOVE, SWAP, FREE)   # plays made by moving pegs (the rest are the phone's)


class RefereeError(CompanionError, ValueError):
    """A request the referee can't take now (the game moved on since the phone looked)."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.version = version


def side_of_hole(hole: str) -> int:
    """The side a start or home hole id belongs to."""
    return int(hole.split("-s", 1)[1].split("-")[0])


def start_holes_of(side: int, count: int = 5) -> list[str]:
    return [f"S-s{side}-{i}" for i in range(1, count + 1)]


def canonical_holes(occ: Occupancy) -> set[str]:
    """The filled holes of an occupancy, start pegs in the lowest start holes."""
    out = set(occ.track)
    for side, n in enumerate(occ.start):
        out.update(start_holes_of(side, n))
    return out


@dataclass
class GameView:
    """What the referee needs of a table's game (read by the hub under the table lock)."""
    version: int
    status: str                    # "playing", "paused", "over", "ended", ...
    phase: str
    actor: int | None
    pos: PegState                  # a copy of the position
    expected_pegs: dict[int, list[int]]  # side -> locations the board must show (a declared move stands)
    history_len: int
    seat_names: list[str]
    names: dict[int, str]          # side -> the seat's name
    colour_names: dict[int, str]   # side -> the seat's colour name ("Blue")
    bots: list[bool]
    last: dict[str, Any] | None = None  # {"seat", "move", "text", "words"} of the last move, if any
    speaker: Names | None = None   # names and colours, to say moves and refusals in words
    hint: dict[str, Any] | None = None  # {"seat", "move"}: the acting seat's current hint (never its card)

    @classmethod
    def of(cls, game: Game, version: int, *, names: Sequence[str], colour_names: Sequence[str],
           status: str = "playing", bots: Iterable[bool] | None = None, speaker: Names | None = None,
           hint: dict[str, Any] | None = None) -> "GameView":
        """The view of a `companion.game.Game` (`names`, `colour_names`: per seat; `speaker`:
        the table's `words.Names`, if its `names` say more than the players' own names;
        `hint`: {"seat", "move": Move} of the acting seat's current hint, for the LEDs)."""
        pos = game.position.copy()
        pegs = pos.pegs()
        if game.phase == DOUBT_PHASE and game.pending:   # V-BJ: the declared move stands on the board
            pegs = pos.result_of(game.pending["move"])
        last = game.history[-1] if game.history else None
        seats = range(len(game.seat_side))
        return cls(version=version, status=status, phase=game.phase, actor=game.actor, pos=pos,
                   expected_pegs=pegs, history_len=len(game.history), seat_names=list(names),
                   names={game.seat_side[i]: names[i] for i in seats},
                   colour_names={game.seat_side[i]: colour_names[i] for i in seats},
                   bots=list(bots) if bots is not None else [False] * len(game.seat_side),
                   last=None if last is None else {"seat": last["seat"], "move": last["move"],
                                                   "text": last["move"].text(pos.geo),
                                                   "words": last.get("words")},
                   speaker=speaker or Names(list(zip(names, colour_names)), game.seat_side),
                   hint=hint if hint is not None and hint.get("seat") == game.actor else None)


@dataclass
class Commit:
    """A move the board shows, for the hub to make (`TableService.act_as`)."""
    seat: int
    card: str
    move: Move
    text: str
    version: int
    last_event: float


class Referee:
    """The decisions of the board referee for one table (see the module docstring)."""

    FLASH = 1.0          # seconds the pegs of a move taken from the board flash white
    MARGIN = DEFAULT_MARGIN   # camera: nats by which one result must explain the picture best
    SURE = 0.9           # camera: a reading this sure that contradicts the best result vetoes it

    def __init__(self, *, sensing: bool, start_holes: int = 5, led_holes: Iterable[str] | None = None,
                 settle: float = 0.8, filled: Iterable[str] = (), simulated: bool = False) -> None:
        self.sensing = sensing
        self.start_holes = start_holes
        self.led_holes = set(led_holes) if led_holes is not None else None
        self.settle = settle
        self.simulated = simulated
        self.filled: set[str] = set(filled) if sensing else set()
        self.game: GameView | None = None
        self.version: int | None = None
        self.synced_version: int | None = None   # the version the board last showed
        self.ready_version: int | None = None    # the version at which the board is right and play may go on
        self.choice: dict[str, Any] | None = None  # {"seat", "card", "rank", "version"}: the card chosen on the phone
        self.follower: BoardFollower | None = None
        self.stages: StageIndex | None = None
        self.stage: Stage | None = None
        self.verdict: Verdict | None = None
        self.state: str | None = "starting"
        self.message = ""
        self.rule: str | None = None
        self.fix_text: list[Msg] = []
        self.hits: list[dict[str, Any]] = []
        self.candidates: list[dict[str, Any]] = []
        self.plan: dict[str, str] = {}      # hole -> LED role wanted now
        self.plan_colours: dict[str, int] = {}   # hole -> the side whose peg it wants (its LED's colour)
        self.hint_under: dict[str, tuple[str | None, int | None]] = {}   # hinted hole -> (role, side) it shows without the hint
        self.seen: dict[str, int] | None = None  # track hole -> side, on a board that sees colours
        self.seen_start: dict[str, int] = {}     # start hole -> side of another side's peg standing there
        self.readings: dict[str, Reading] | None = None        # camera: hole -> (p_peg, side, p_side), latest stable frame
        self.readings_show: int | None = None    # camera: the game version those readings were seen to show
        self.doubtful: list[str] = []            # camera: the holes it could not read surely, when it asks
        self.scores: list[float] = []            # camera: the last decision's scores (for the benchmark)
        self.board_colours: dict[str, int] = {}  # track hole -> side when the board last showed the game
        self.flash: dict[str, tuple[str, float]] = {}   # hole -> (role, until)
        self.start_lifted: dict[int, str] = {}  # side -> the start hole a peg last left
        self.last_event_at: float | None = None
        self.kick = False             # a computer seat may act now (the hub passes it on once)
        self.changed = True
        self._prev_expected: Occupancy | None = None
        self._move_shown: tuple[Any, ...] | None = None  # LEDs only: (history length, plan, colours) of the move shown
        self.history_len: int | None = None
        self.undone = False
        self.expected: Occupancy | None = None
        self.pos: PegState | None = None

    # the state a follow needs, set by `update_game` (the game) and `_start_follow` (the
    # follower) before any board event reaches the code that reads it
    @property
    def _game(self) -> GameView:
        assert self.game is not None, "no game yet: update_game first"
        return self.game

    @property
    def _pos(self) -> PegState:
        assert self.pos is not None, "no game yet: update_game first"
        return self.pos

    @property
    def _expected(self) -> Occupancy:
        assert self.expected is not None, "no game yet: update_game first"
        return self.expected

    @property
    def _follower(self) -> BoardFollower:
        assert self.follower is not None, "no move is being followed"
        return self.follower

    @property
    def _stages(self) -> StageIndex:
        assert self.stages is not None, "no move is being followed"
        return self.stages

    @property
    def _choice(self) -> dict[str, Any]:
        assert self.choice is not None, "no card chosen"
        return self.choice

    @property
    def _readings(self) -> dict[str, Any]:
        assert self.readings is not None, "no camera readings"
        return self.readings

    @property
    def _version(self) -> int:
        assert self.version is not None, "no game yet: update_game first"
        return self.version

    # ------------------------------------------------------------------ the game side
    def update_game(self, view: GameView, now: float) -> bool:
        """The game as it is now; True if it moved on (the follow starts again)."""
        changed = view.version != self.version
        if changed and self._same_game(view):
            # an event that moves nothing (a hint, a seat handed over): a card chosen,
            # a move half made and the board's sync stay as they were
            old = self.version
            self.game, self.version, self.pos = view, view.version, view.pos
            for name in ("synced_version", "ready_version", "readings_show"):
                if getattr(self, name) == old:
                    setattr(self, name, view.version)
            if self.choice is not None and self.choice["version"] == old:
                self.choice["version"] = view.version
            self.changed = True
            if self.follower is None:
                self._evaluate(now)
            return True
        if changed:
            self.undone = self.history_len is not None and view.history_len < self.history_len
            self.history_len = view.history_len
        self.game = view
        self.version = view.version
        self.pos = view.pos
        self.expected = occupancy_of_pegs(view.pos, view.expected_pegs)
        if not self.sensing:   # LEDs only: the board is taken to be as the game says
            self.filled = canonical_holes(self._expected)
        if changed:
            self.changed = True
            self.follower = self.stages = self.stage = self.verdict = None
            self.candidates, self.doubtful = [], []
            if self.choice is not None and self.choice["version"] != self.version:
                self.choice = None
        if changed or self.state == "starting":
            self._evaluate(now)
        return changed

    def _same_game(self, view: GameView) -> bool:
        """`view` is the game already held, only at a later version."""
        g = self.game
        return (g is not None and view.history_len == self.history_len and view.status == g.status
                and view.phase == g.phase and view.actor == g.actor and view.last == g.last
                and view.expected_pegs == g.expected_pegs and view.bots == g.bots)

    @property
    def seat_names(self) -> list[str]:
        return self._game.seat_names

    def _observed(self) -> Occupancy:
        try:
            return occupancy_from_holes(self._pos, self.filled)
        except ValueError:   # a hole this game's board doesn't have
            known = set()
            for h in self.filled:
                try:
                    parse_hole_id(self._pos.geo, h)
                    known.add(h)
                except ValueError:
                    pass
            return occupancy_from_holes(self._pos, known)

    # ------------------------------------------------------------------ inputs
    def on_event(self, hole: str, occupied: bool, t: float) -> None:
        """A debounced switch change (or a camera's snapshot difference)."""
        if occupied:
            self.filled.add(hole)
        else:
            self.filled.discard(hole)
            if hole.startswith("S-s"):
                self.start_lifted[side_of_hole(hole)] = hole
        self.last_event_at = t
        self.changed = True
        if self.game is None:
            return
        if self.follower is not None:
            self._follower.feed(hole, occupied, t)
            self._follower_colours()
            self.stage = self._stages.get(self._observed())
            if self.stage is not None:
                self.verdict = None
                self._plan_stage()
        else:
            self._evaluate(t)

    def see_colours(self, colours: dict[str, int], t: float) -> None:
        """What a board that sees colours holds now ({hole: side}: the simulated board, whose
        pegs are placed by colour). A wrong colour is then a difference like any other."""
        seen = {h: s for h, s in colours.items() if not h.startswith("S-")}
        foreign = {h: s for h, s in colours.items() if h.startswith("S-") and s != side_of_hole(h)}
        if seen == self.seen and foreign == self.seen_start:
            return
        self.seen, self.seen_start = seen, foreign
        self.changed = True
        if self.game is None:
            return
        if self.follower is not None:
            self._follower_colours()
        else:
            self._evaluate(t)

    def _follower_colours(self) -> None:
        """Give the judge the colours a board sees (the simulated board), when they agree with
        the switches (not while a switch has yet to report a peg the picture already has)."""
        if self.seen is None or self.readings is not None or self.follower is None:
            return
        track = {h for h in self.filled if not h.startswith("S-")}
        self._follower.colours = dict(self.seen) if set(self.seen) == track else None

    def observe(self, snapshot: dict[str, int | None], t: float) -> None:
        """A camera's snapshot {hole: colour side or None}: its differences are events, and
        while a card is followed its colours go to the judge (`BoardFollower.observe`)."""
        filled = {h for h, c in snapshot.items() if c is not None}
        self.seen = {h: c for h, c in snapshot.items() if c is not None and not h.startswith("S-")}
        if self.follower is None:
            for hole in sorted(self.filled - filled):
                self.on_event(hole, False, t)
            for hole in sorted(filled - self.filled):
                self.on_event(hole, True, t)
            return
        self._follower.observe(snapshot, t)
        self.filled = filled
        self.last_event_at = t
        self.changed = True
        self.stage = self._stages.get(self._observed())
        if self.stage is not None:
            self.verdict = None
            self._plan_stage()

    def observe_readings(self, readings: Mapping[str, Reading], t: float) -> None:
        """A camera's per-hole readings {hole: (p_peg, side, p_side)} (`companion.readings`) of a
        stable picture. Their likeliest board goes in as a snapshot (events, colours); while a
        card is followed, the settled picture is then judged by scoring every legal result
        against them (`_judge_readings`), not by the likeliest reading of each hole alone."""
        self.readings = dict(readings)
        snap: dict[str, int | None] = {}
        for hole, (p_peg, side, _) in readings.items():
            if p_peg >= 0.5:
                snap[hole] = side if side is not None else (
                    side_of_hole(hole) if hole.startswith("S-") else -1)
            else:
                snap[hole] = None
        for hole in self.filled:   # a hole the camera could not read keeps what it had
            if hole not in snap:
                snap[hole] = (self.seen or {}).get(hole, side_of_hole(hole) if hole.startswith("S-") else -1)
        self.observe(snap, t)
        # between moves, a picture whose sure readings agree with the game (whoever entered the
        # last move: the board or a phone) tells the camera where every peg is in it
        self.readings_show = None
        if self.follower is None and self.game is not None and self.pos is not None:
            board = self._read_board()
            if board == self._expected and not self._recolour(board, self._wanted()):
                self.readings_show = self.version

    def choose(self, seat: int, card: str | None, rank: str | None, version: int, now: float) -> None:
        """The acting seat chose a card on its phone (None: it went back)."""
        if version != self.version:
            raise RefereeError("the game has moved on since your page was drawn; look again",
                               version=self.version)
        self.follower = self.stages = self.stage = self.verdict = None
        self.candidates, self.doubtful = [], []
        self.flash.clear()
        self.choice = None if card is None else {"seat": seat, "card": card, "rank": rank,
                                                 "version": version}
        self.changed = True
        if self.choice is not None and not self.sensing:
            self._follow(now)          # LEDs only: show the card's choices
        else:
            self._evaluate(now)

    # ------------------------------------------------------------------ states
    def _evaluate(self, now: float) -> None:
        """No card being followed: is the board what the game says?"""
        g = self._game
        self.rule, self.fix_text, self.hits = None, [], []
        playing = g.status == "playing"
        if not self.sensing:
            if self.choice is not None:
                return
            self.state = "ready" if playing else "waiting"
            self.message = self._ready_message()
            self._plan_move_shown()
            self._plan_hint()
            self.ready_version = self.version
            return
        if self.follower is not None:
            return
        observed = self._observed() if self.readings is None else self._read_board()
        wanted = self._wanted()
        recolour = self._recolour(observed, wanted)
        if observed == self.expected and not recolour:
            self.synced_version = self.version
            self.board_colours = dict(wanted)
            self.plan, self.plan_colours = {}, {}
            if self.choice is not None and playing and g.phase == PLAY:
                self._follow(now)
                return
            self.state = "ready" if playing and g.phase == PLAY else "waiting"
            self.message = self._ready_message()
            self._plan_hint()
            if self.ready_version != self.version:
                self.ready_version = self.version
                if playing and g.actor is not None and g.bots[g.actor]:
                    self.kick = True
            return
        self.ready_version = None
        diff = observed.differences(self._expected)
        diff["recolour"] = recolour
        if not g.history_len and self.synced_version is None:
            self.state = "setup"
            self.message = msg("Set-up: every peg goes in its start area. A fast-blinking hole has a peg "
                               "that doesn't belong there; a hole lit in a peg's colour needs that peg.")
            self._plan_fix(diff, "wrong", wanted=wanted)
        elif self.synced_version is not None and self.version is not None and self.synced_version < self.version and (
                g.last or self.undone):
            self.state = "sync"
            self._plan_fix(diff, "can-move", dests=self._last_destinations(), wanted=wanted)
            hit = "hit" in self.plan.values()
            what = self._last_words()
            self.message = (msg("Move the pegs to match the game: %(what)s. Slow-blinking pegs move; a hole lit "
                                "in a peg's colour gets that peg; a pulsing hole is where a hit peg goes.", what=what)
                            if hit else
                            msg("Move the pegs to match the game: %(what)s. Slow-blinking pegs move; a hole lit "
                                "in a peg's colour gets that peg.", what=what))
            if self.simulated:
                self.message = _and(self.message, msg("(On the simulated board they move by themselves in a moment.)"))
        else:
            self.state = "restore"
            self.message = msg("The board differs from the game (after a restart, or a peg knocked out "
                               "of place): put it back as lit before play goes on. Fast blink: take this "
                               "peg out; a hole lit in a peg's colour: put that peg there.")
            self._plan_fix(diff, "wrong", wanted=wanted)
        self.fix_text = self._fix_words(diff, wanted, self._present())
        if self.choice is not None:
            self.message = _and(self.message, msg("Then the card you chose is followed on the board."))

    def hint_holes(self) -> list[str]:
        """The holes of the acting seat's current hint (issue 17.3): the peg(s) it moves and
        where they go, every part of a split or a 7, both pegs of a swap, the peg a penalty
        sends back. A play that moves no peg (a discard, a pass, a force) lights nothing, and
        nothing says which card: only the move's holes are lit, as the move itself shows."""
        g = self.game
        h = g.hint if g is not None else None
        if g is None or h is None or g.status != "playing" or h.get("seat") != g.actor:
            return []
        move = h["move"]
        if move.kind not in (MOVE, SWAP, FREE, PENALTY):
            return []
        geo = self._pos.geo
        filled = self.filled if self.sensing else canonical_holes(self._expected)
        out = []
        for c, s, d in move.steps:
            if s == START:   # the top peg of its start area (they are interchangeable)
                out += [x for x in start_holes_of(c, self.start_holes) if x in filled][-1:]
            else:
                out.append(hole_id(geo, c, s))
            if d != START:
                out.append(hole_id(geo, c, d))
        return list(dict.fromkeys(out))

    def _plan_hint(self) -> None:
        """Over the ready (or waiting) board's plan: the hint's holes in the hint look."""
        holes = self.hint_holes()
        # what those holes show without the hint: the public board's view (issue 22 point 3)
        self.hint_under = {hole: (self.plan.get(hole), self.plan_colours.get(hole)) for hole in holes}
        for hole in holes:
            self.plan[hole] = "hint"
            self.plan_colours.pop(hole, None)
        if holes:
            self.message = _and(self.message, msg("The holes flashing twice (purple) show the hint's move."))

    def _last_words(self) -> str:
        """The move the board must catch up with, in words (its history entry's sentence)."""
        g = self._game
        if self.undone or not g.last:
            return msg("the host undid a move")
        if g.last.get("words"):
            words: str = g.last["words"]
            return words
        who = g.speaker.seat_msg(g.last["seat"]) if g.last["seat"] is not None and g.speaker else msg("the host")
        move = g.last["move"]
        if move.kind == "doubt":
            return msg("%(who)s doubted", who=who)
        if move.kind == "pass":
            return msg("%(who)s passed", who=who)
        if move.kind == "penalty":
            return msg("%(who)s sent a peg back to start", who=who)
        return msg("%(who)s played %(card)s", who=who, card=a_rank_msg(move.rank))

    def catch_up(self) -> str | None:
        """What the simulated board is catching up with, in words (None when not syncing)."""
        if self.state != "sync" or self.game is None:
            return None
        return msg("The board is catching up: %(what)s. Its pegs move by themselves.", what=self._last_words())

    def _ready_message(self) -> str:
        g = self._game
        if g.status == "over":
            return msg("The game is over.")
        if g.status == "ended":
            return msg("The host has ended this game.")
        if g.status == "paused":
            return msg("Paused by the host.")
        if g.actor is None:
            return ""
        who = self.seat_names[g.actor]
        if g.phase == DOUBT_PHASE:
            return msg("%(who)s: doubt or pass, on the phone.", who=who)
        if g.phase == "give":      # TK-V4.1: no peg moves, the board stays as it is
            return msg("%(who)s: choose a card to pass to your partner, on the phone.", who=who)
        if g.phase == "forced":    # JR-P5
            return msg("%(who)s: a 10 forces you to discard a card of your choice, on the phone.", who=who)
        if g.phase != PLAY:
            return msg("%(who)s chooses the penalty peg on the phone.", who=who)
        if g.bots[g.actor]:
            return (msg("%(who)s, the computer, is playing: its pegs move by themselves.", who=who)
                    if self.simulated else msg("%(who)s, the computer, is playing.", who=who))
        if self.sensing:
            return msg("%(who)s to play: choose a card on your phone, then move the peg on the board.", who=who)
        return msg("%(who)s to play: choose a card and enter the move on your phone.", who=who)

    def _read_board(self) -> Occupancy:
        """Camera: the board as the game has it, but for the holes that sure readings
        contradict. A hole the camera reads unsurely is not a difference (no one is asked to
        fix a shadow); a sure difference is."""
        expected = board_of_pegs(self._pos, self._game.expected_pegs)
        filled = set(expected)
        for hole in contradictions(self._readings, expected, self.SURE):
            filled ^= {hole}
        for side in range(len(self._expected.start)):
            holes = [h for h in start_holes_of(side, self.start_holes) if h in self._readings]
            want = self._expected.start[side]
            sure_in = sum(self._readings[h][0] >= self.SURE for h in holes)
            sure_out = sum(self._readings[h][0] <= 1 - self.SURE for h in holes)
            have = max(sure_in, min(want, self.start_holes - sure_out))
            filled -= set(start_holes_of(side, self.start_holes))
            filled |= set(start_holes_of(side, have))
        return occupancy_from_holes(self._pos, {h for h in filled if self._known_hole(h)})

    def _known_hole(self, hole: str) -> bool:
        try:
            parse_hole_id(self._pos.geo, hole)
            return True
        except ValueError:
            return False

    def _wanted(self) -> dict[str, int]:
        """{track hole: side} of the pegs the game puts on the track and in the homes."""
        return colours_of_pegs(self._pos, self._game.expected_pegs)

    def _present(self) -> dict[str, int]:
        """{hole: side} of the pegs known to stand on the board now: what a board that sees
        colours sees, else what stood there when the board last showed the game."""
        return {**self.seen, **self.seen_start} if self.seen is not None else self.board_colours

    def _recolour(self, observed: Occupancy, wanted: dict[str, int]) -> dict[str, int]:
        """{hole: the side it wants} where a peg of another colour stands (boards that see colours)."""
        if self.seen is None:
            return {}
        if self.readings is not None:   # a camera: only a colour it reads surely counts
            return {h: wanted[h] for h in sorted(observed.track & self._expected.track)
                    if h in wanted and h in self._readings and self._readings[h][1] is not None
                    and self._readings[h][1] != wanted[h] and self._readings[h][2] >= self.SURE}
        out = {h: wanted[h] for h in sorted(observed.track & self._expected.track)
               if h in self.seen and h in wanted and self.seen[h] != wanted[h]}
        out.update({h: side_of_hole(h) for h in sorted(self.seen_start)})   # a peg in another's start area
        return out

    def _follow(self, now: float) -> None:
        """Start following the chosen card on the board."""
        c = self._choice
        legal = list(self._pos.legal_moves([c["rank"]]))
        # only plays that move pegs are made on the board; a force on the next player's hand
        # (JR-P5, JR-P6) is played on the phone
        moves = [m for m in legal if m.kind in BOARD_KINDS and m.steps]
        who = self.seat_names[c["seat"]]
        if not moves:
            self.state, self.choice = "ready", None
            if legal:
                self.message = Said(msg("%(card)s moves no peg here: %(who)s, play it on the phone.",
                                        card=a_rank_msg(c["rank"]), who=who),
                                    f"{a_rank(c['rank'])[:1].upper()}{a_rank(c['rank'])[1:]} moves no peg "
                                    f"here: {who}, play it on the phone.")
            else:
                self.message = msg("No peg can move with %(card)s: %(who)s, discard it on the phone.",
                                   card=a_rank_msg(c["rank"]), who=who)
            self.plan = {}
            return
        self.stages = StageIndex(self._pos, moves)
        self.follower = BoardFollower(self._pos, moves, self.filled if self.sensing else
                                      canonical_holes(self._expected),
                                      settle=self.settle, rank=c["rank"])
        if self.readings is not None:
            self._follower.colours = dict(self.seen or {})
        else:
            self._follower_colours()
        self.stage = self._stages.get(self._expected)
        self.verdict = None
        self._plan_stage()

    def _plan_stage(self) -> None:
        """Light the current stage of the move being made (and say it in words)."""
        c = self._choice
        who = self.seat_names[c["seat"]]
        st = self.stage
        plan, colours = {}, {}
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
                    hole = self.start_lifted.get(side_of_hole(ref))
                    if hole and hole not in self.filled:
                        plan[hole] = "selected"
                else:
                    plan[ref] = "selected"
            for colour, frm, to in st.hits:
                hole = self._start_free(colour) if to == "start" else to
                if hole:
                    plan[hole] = "hit"
                    colours[hole] = colour
                if frm in self.filled and frm not in st.destination:
                    plan.setdefault(frm, "can-move")   # a peg passed over and hit: this one goes
                self.hits.append({"side": colour, "from": frm, "to": to})
            for hole in st.destination:   # the player holds the peg: green, as every legal place
                plan[hole] = "legal"
                colours.pop(hole, None)
            for ref in st.can_move:
                for hole in self._start_filled(ref) if ref.startswith("S-s") and ref.count("-") == 1 else [ref]:
                    plan[hole] = "can-move"
                    colours.pop(hole, None)
        self.plan = plan
        self.plan_colours = colours
        if not self.sensing:
            self.state = "following"
            self.message = msg("%(who)s plays %(card)s: the blinking pegs can move, the green holes "
                               "are where they may go. Enter the move on the phone.", who=who, card=a_rank_msg(c["rank"]))
            return
        if self.hits:
            self.state = "hit"
            sp = self._game.speaker   # "Bob's blue peg goes back to its start area"
            parts = []
            for h in self.hits:
                peg = (sp.peg_msg(h["side"]) if sp else
                       msg("%(name)s's peg", name=self._game.names[h["side"]]) if h["side"] in self._game.names
                       else msg("the peg"))
                parts.append(msg("%(peg)s goes back to its start area", peg=peg) if h["to"] == "start"
                             else msg("%(peg)s goes to %(dst)s", peg=peg, dst=self._words(h["to"])))
            self.message = msg("A hit: %(hits)s (the pulsing hole).", hits=Join(parts, "semicolon"))
        else:
            self.state = "following"
            if st is not None and st.selected:
                self.message = msg("%(who)s plays %(card)s: put the peg in a green hole.", who=who,
                                   card=a_rank_msg(c["rank"]))
            elif st is not None and st.done:
                self.message = msg("%(who)s plays %(card)s: keep the board still for a moment.", who=who,
                                   card=a_rank_msg(c["rank"]))
            else:
                self.message = msg("Waiting for the board: %(who)s plays %(card)s. Lift a blinking "
                                   "peg and put it in a green hole.", who=who, card=a_rank_msg(c["rank"]))

    def judge(self, now: float, faults: Sequence[str] = ()) -> Commit | None:
        """Judge the board at `now` (`faults`: the sensors' active fault messages). Returns
        the move to commit, if the board shows one."""
        if faults:   # nothing is judged (let alone taken) while the sensors can't be trusted
            if self.state != "fault":
                self.state = "fault"
                self.message = msg("The sensors report a problem, so the board can't be trusted: "
                                   "%(fault)s. Enter the move on the phone, or wait for it to clear.",
                                   fault=faults[0])
                self.changed = True
            return None
        if self.state == "fault" and self.follower is None:   # cleared between turns: read the board again
            self.state = None
            self._evaluate(now)
            self.changed = True
            return None
        if self.follower is None:
            return None
        if self.state == "fault":
            self.stage = self._stages.get(self._observed())
            self._plan_stage()
            self.changed = True
        verdict = self._follower.poll(now)
        if verdict is None:
            return None
        self.changed = True
        if self.readings is not None:
            commit, verdict = self._judge_readings(now, verdict)
            if commit is not None or verdict is None:
                return commit
        if verdict.kind == "move":
            c = self._choice
            move = verdict.move
            assert move is not None  # a "move" verdict names it
            last_event = self._follower.events[-1][2] if self._follower.events else now
            return Commit(c["seat"], c["card"], move, move.text(self._pos.geo),
                          self._version, last_event)
        if verdict.kind == "ambiguous":
            self.verdict = verdict
            self.state = "ambiguous"
            self.candidates = [{"move": m.text(self._pos.geo), "words": self._move_words(m)}
                               for m in verdict.candidates]
            who = self.seat_names[self._choice["seat"]]
            self.message = nmsg("The board fits %(n)s move: %(who)s, choose yours on the phone.",
                                "The board fits %(n)s moves: %(who)s, choose yours on the phone.",
                                len(self.candidates), who=who)
            if len(self.candidates) == 1:
                self.message = msg("The board looks like %(move)s, but not for sure: %(who)s, confirm your "
                                   "move on the phone.", move=self.candidates[0]["words"], who=who)
            if self.doubtful:
                self.message = msg("The camera can't tell for sure which move was made (it can't read "
                                   "%(holes)s clearly): %(who)s, choose yours on the phone.",
                                   holes=Join([self._words(h) for h in self.doubtful], "comma"), who=who)
        elif verdict.kind == "unchanged":
            self.verdict = None
            self.stage = self._stages.get(self._observed())
            self._plan_stage()
        else:   # wrong, unless the board is just part of the way there (a peg in the hand)
            observed = self._observed()
            self.stage = self._stages.get(observed)
            if self.stage is not None and not self.stage.done:
                self._plan_stage()
                return None
            self.verdict = verdict
            self.state = "wrong"
            self.rule = verdict.rule
            self.message = self._refusal(verdict.message, verdict.rule)
            fix = dict(verdict.fix)
            if self.seen is not None:   # a peg of the wrong colour where the result wants another
                fix["recolour"] = {h: s for h, s in sorted(verdict.fix_colours.items())
                                   if h in self.filled and h in self.seen and self.seen[h] != s}
            self.fix_text = self._fix_words(fix, verdict.fix_colours, {**verdict.colours, **(self.seen or {})})
            self.plan = {}
            self._plan_fix(fix, "wrong", wanted=verdict.fix_colours)
            for hole in verdict.wrong_holes:
                if hole in self.filled:
                    self.plan[hole] = "wrong"
        return None

    def _judge_readings(self, now: float, verdict: Verdict) -> tuple[Commit | None, Verdict | None]:
        """Camera: score the board as it was and every legal result against the readings.
        Returns (a move to commit or None, the verdict still to act on or None). A result is
        taken only when it explains the picture by `MARGIN` better than every other board and
        no sure reading contradicts it; when the camera is unsure the phone is asked (the
        doubtful holes named); a board that fits no result is judged as before (wrong)."""
        results: dict[tuple[tuple[str, int], ...], tuple[dict[str, int], list[Move]]] = {}   # board key -> (board, [moves])
        before = board_of_pegs(self._pos, self._pos.pegs())
        results[tuple(sorted(before.items()))] = (before, [])
        for m in self._follower.moves:
            board = board_of_pegs(self._pos, self._pos.result_of(m))
            results.setdefault(tuple(sorted(board.items())), (board, []))[1].append(m)
        boards = [b for b, _ in results.values()]
        moves = [ms for _, ms in results.values()]
        idx, scores = decide(self._readings, boards, self.MARGIN)
        self.scores = scores
        # Only the holes where the boards differ can veto one: a sure misread where every board
        # agrees says nothing about which move was made (the board is checked after the move).
        decisive = {h for b in boards for h in set(b) ^ set(boards[0])} | {
            h for b in boards for h in b if h in boards[0] and b[h] != boards[0][h]}

        def vetoed(i: int) -> bool:
            return any(h in decisive for h in contradictions(self._readings, boards[i], self.SURE))

        if idx is not None and not vetoed(idx):
            self.doubtful = []
            if idx == 0:   # the board as it was: nothing made yet (or put back)
                self.verdict = None
                self.stage = self._stages.get(self._observed())
                self._plan_stage()
                return None, None
            chosen = moves[idx]
            if len(chosen) > 1 and verdict.kind == "move" and verdict.move in chosen:
                chosen = [verdict.move]   # one board, several moves: the event order told them apart
            if len(chosen) == 1:
                c = self._choice
                last_event = self._follower.events[-1][2] if self._follower.events else now
                move = chosen[0]
                return Commit(c["seat"], c["card"], move, move.text(self._pos.geo), self._version,
                              last_event), None
            verdict.kind, verdict.candidates = "ambiguous", chosen
            return None, verdict
        stage = self._stages.get(self._observed())
        if stage is not None and not stage.done:
            return None, verdict   # a peg still in the hand, by the likeliest reading: wait
        best = max(scores)
        close = [i for i in range(1, len(boards)) if best - scores[i] < self.MARGIN
                 and not vetoed(i)]
        if idx is None and close:   # the camera can't tell: ask the phone, naming what it couldn't read
            self.doubtful = doubtful(self._readings, boards, scores)
            verdict.kind = "ambiguous"
            verdict.candidates = [m for i in sorted(close, key=lambda i: -scores[i]) for m in moves[i]]
            return None, verdict
        if verdict.kind == "move" and verdict.move is not None:   # never taken unless the readings chose it: the phone confirms
            verdict.kind, verdict.candidates = "ambiguous", [verdict.move]
        return None, verdict   # a picture no legal result explains: judged as the switches would

    def committed(self, commit: Commit, version: int, now: float) -> None:
        """The hub made the move: flash its pegs; the board shows version `version`."""
        move = commit.move
        until = now + self.FLASH
        for c_, s, d in move.steps:
            if move.kind != SWAP and d != START:
                self.flash[hole_id(self._pos.geo, c_, d)] = ("selected", until)
        self.synced_version = version
        self.readings_show = version if self.readings is not None else None   # the picture judged shows it
        self.choice = None
        self.follower = self.stages = self.stage = None
        self.changed = True

    def _refusal(self, message: str, rule: str | None) -> str:
        """A refusal in words with names and colours (the engine's sentence names moves in
        notation), keeping its rule id."""
        said = refusal(self._pos, self._game.speaker, message, None) if self._game.speaker else message
        english = said[:1].upper() + said[1:] + (f" (rule {rule})" if rule else "")
        if not self._game.speaker:
            return english
        reason = refusal_msg(self._pos, self._game.speaker, message)
        return Said(msg("%(reason)s (rule %(rule)s)", reason=reason, rule=rule) if rule else reason, english)

    def commit_failed(self, message: str) -> None:
        self.follower = self.stages = self.stage = None
        self.choice = None
        self.state = "error"
        self.message = msg("The move on the board could not be taken: %(why)s", why=message)
        self.changed = True

    # ------------------------------------------------------------------ LED plans
    def _start_filled(self, ref: str) -> list[str]:
        side = side_of_hole(ref)
        return [h for h in start_holes_of(side, self.start_holes) if h in self.filled]

    def _start_free(self, side: int) -> str | None:
        filled = self.filled if self.sensing else canonical_holes(self._expected)
        for h in start_holes_of(side, self.start_holes):
            if h not in filled:
                return h
        return None

    def _last_destinations(self) -> set[str] | None:
        """Where the last move's own pegs went (any other hole to fill is a hit peg's);
        None after an undo (nothing is a hit then)."""
        if self.undone:
            return None
        last = self._game.last
        move = last["move"] if last else None
        if move is None or move.kind not in ("move", "free", "swap"):
            return set()
        return {hole_id(self._pos.geo, c, d) for c, _, d in move.steps if d != START}

    def _plan_fix(self, diff: dict[str, Any], take_role: str, dests: set[str] | None = None,
                  wanted: dict[str, int] | None = None) -> None:
        """LEDs for a set of differences: pegs to take out (`take_role`), holes to fill
        (green; pulsing orange for a hit peg's place when `dests` names the move's own),
        a peg of the wrong colour (`take_role`). A hole that wants a peg shows, where the
        LEDs can, the colour of the peg it wants (`wanted`: {hole: side})."""
        plan, colours = {}, {}
        wanted = wanted or {}
        filled = self.filled if self.sensing else canonical_holes(self._expected)
        for hole in diff["empty"]:
            plan[hole] = take_role
        for hole in diff["fill"]:
            plan[hole] = "hit" if dests is not None and hole not in dests else "legal"
            if hole in wanted:
                colours[hole] = wanted[hole]
        for hole, side in diff.get("recolour", {}).items():
            plan[hole] = take_role
            colours[hole] = side
        for side, n in diff["start"].items():
            holes = start_holes_of(int(side), self.start_holes)
            if n > 0:
                for hole in [h for h in holes if h not in filled][:n]:
                    plan[hole] = "hit" if dests is not None else "legal"
                    colours[hole] = int(side)
            else:
                for hole in [h for h in reversed(holes) if h in filled][:-n]:
                    plan[hole] = take_role
        self.plan = plan
        self.plan_colours = colours

    def _plan_move_shown(self) -> None:
        """LEDs only: after a move, show it (from, to, where hit pegs go) until the next card."""
        prev, self._prev_expected = self._prev_expected, self.expected
        self.synced_version = self.version
        self.plan_colours = {}
        if prev is None or prev == self.expected:
            shown = self._move_shown
            if shown is not None and shown[0] == self._game.history_len:   # no move since (a hint)
                self.plan, self.plan_colours = dict(shown[1]), dict(shown[2])
            else:
                self.plan = {}
            return
        d = prev.differences(self._expected)
        old_filled = canonical_holes(prev)
        plan = {h: "can-move" for h in d["empty"]}
        plan.update({h: "legal" for h in d["fill"]})
        wanted = self._wanted()
        self.plan_colours = {h: wanted[h] for h in d["fill"] if h in wanted}   # the peg each hole gets
        for side, n in d["start"].items():
            if n > 0:
                for i in range(prev.start[side] + 1, prev.start[side] + n + 1):
                    plan[f"S-s{side}-{i}"] = "hit"
                    self.plan_colours[f"S-s{side}-{i}"] = side
            else:
                for i in range(prev.start[side], prev.start[side] + n, -1):
                    plan[f"S-s{side}-{i}"] = "can-move"
        self.plan = {h: r for h, r in plan.items()
                     if self.led_holes is None or h in self.led_holes or h in old_filled}
        self._move_shown = (self._game.history_len, dict(self.plan), dict(self.plan_colours))

    def leds(self, now: float) -> dict[str, str]:
        """{hole: role} to light at `now`: the plan over the flashes still running."""
        want = {}
        for hole, (role, until) in list(self.flash.items()):
            if now >= until:
                del self.flash[hole]
                self.changed = True
            else:
                want[hole] = role
        want.update(self.plan)
        if self.led_holes is not None:
            want = {h: r for h, r in want.items() if h in self.led_holes}
        return want

    def led_colours(self) -> dict[str, int]:
        """{hole: side} for the lit holes that want a particular peg: their LED shows that
        side's colour (in the role's pattern), so a player sees which peg goes where."""
        return {h: s for h, s in self.plan_colours.items() if self.plan.get(h) is not None}

    def busy(self, now: float) -> bool:
        """Is something under way that needs the board read at full speed?"""
        if self.follower is not None and self._follower.last_change is not None:
            return True
        return bool(self.flash) or (self.last_event_at is not None and now - self.last_event_at < 1.0)

    # ------------------------------------------------------------------ public state
    def public(self) -> dict[str, Any]:
        """What every page may see (never the chosen card, only the rank it moves as)."""
        return {"version": self.version, "state": self.state, "message": self.message, "rule": self.rule,
                "catch_up": self.catch_up(),
                "fix": self.fix_text, "hits": self.hits, "candidates": self.candidates,
                "settle": self.settle,
                "doubtful": list(self.doubtful),
                "seat": self.choice["seat"] if self.choice else None,
                "rank": self.choice["rank"] if self.choice else None}

    def expected_holes(self) -> tuple[dict[str, int], dict[int, int]]:
        """({track or home hole: side}, {side: pegs in its start area}) the board must hold."""
        target = colours_of_pegs(self._pos, self._game.expected_pegs)
        start = {side: locs.count(START) for side, locs in self._game.expected_pegs.items()}
        return target, start

    # ------------------------------------------------------------------ words
    def _colour(self, side: int) -> Msg:
        name = self._game.colour_names.get(int(side))
        return pmsg("colour", name) if name is not None else msg("side %(number)s", number=side)

    def _words(self, hole: str) -> Msg:
        if hole.startswith("M"):
            return msg("hole %(number)s", number=int(hole[1:]))
        side = side_of_hole(hole)
        colour = self._colour(side)
        if hole.startswith("H"):
            return msg("%(colour)s's home %(number)s", colour=colour, number=int(hole[1]))
        return msg("%(colour)s's start area", colour=colour)

    def _peg(self, side: int | None) -> Msg:
        return msg("the peg") if side is None else msg("%(colour)s's peg", colour=self._colour(side))

    def _fix_words(self, fix: dict[str, Any], wanted: dict[str, int] | None = None,
                   present: dict[str, int] | None = None) -> list[Msg]:
        """How to put the board right, every peg named by its colour where it is known
        (`wanted`: {hole: side} the holes want; `present`: {hole: side} the pegs there now)."""
        wanted, present = wanted or {}, present or {}
        out = [msg("take %(peg)s out of %(hole)s", peg=self._peg(present.get(h)), hole=self._words(h))
               for h in fix.get("empty", [])]
        for h, side in fix.get("recolour", {}).items():
            out.append(msg("take %(peg)s out of %(hole)s and put %(other)s there", peg=self._peg(present.get(h)),
                           hole=self._words(h), other=self._peg(side)))
        out += [msg("put %(peg)s in %(hole)s", peg=self._peg(wanted.get(h)), hole=self._words(h))
                for h in fix.get("fill", [])]
        for side, n in sorted(fix.get("start", {}).items()):
            colour = self._colour(side)
            if n > 0:
                out.append(nmsg("put %(colour)s's peg in %(colour)s's start area",
                                "put %(n)s of %(colour)s's pegs in %(colour)s's start area", abs(n), colour=colour))
            else:
                out.append(nmsg("take %(colour)s's peg out of %(colour)s's start area",
                                "take %(n)s of %(colour)s's pegs out of %(colour)s's start area", abs(n),
                                colour=colour))
        return out

    def _move_words(self, move: Move) -> str:
        """A candidate move in words ("Ann (Red) brought a peg out with a jack, onto hole 8")."""
        if self._game.speaker is not None:
            try:
                return move_words(self._pos, move, self._game.speaker)
            except (KeyError, IndexError, ValueError):   # a move words.py can't phrase: the plain form
                pass
        geo = self._pos.geo
        if move.kind == SWAP:
            (c1, a, _), (c2, b, _) = move.steps
            return msg("swap %(peg)s on hole %(a)s with %(other)s on hole %(b)s", peg=self._colour(c1), a=a,
                       other=self._colour(c2), b=b)
        parts = []
        for c, s, d in move.steps:
            frm = msg("start") if s == START else self._words(hole_id(geo, c, s))
            parts.append(msg("%(peg)s %(src)s → %(dst)s", peg=self._colour(c), src=frm,
                             dst=self._words(hole_id(geo, c, d))))
        extra = [msg("%(peg)s from %(src)s to %(dst)s", peg=self._colour(col), src=self._words(frm),
                     dst=msg("start") if to == "start" else self._words(to))
                 for col, frm, to in hit_returns(self._pos, move)]
        steps = Join(parts, "then").msg()
        return msg("%(steps)s (hits: %(hits)s)", steps=steps, hits=Join(extra, "semicolon")) if extra else steps


def _and(first: str, then: Msg) -> Msg:
    """Two sentences, one after the other (each phone's language joins them)."""
    return msg("%(a)s %(b)s", a=first, b=then)


__all__ = ["Referee", "GameView", "Commit", "RefereeError", "canonical_holes", "side_of_hole",
           "start_holes_of"]
