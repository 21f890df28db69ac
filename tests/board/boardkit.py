"""Helpers for the board-referee tests: an injected clock, a table service with a board
hub on emulated hardware, and "hands" that move pegs the way a person does."""
from __future__ import annotations

import contextlib
import random
import warnings

from companion.families import new_game
from companion.board import START
from companion.matching import hole_id
from companion.moves import SWAP, Move
from hardware.config import load_wiring
from hardware.devices import Hardware
from hardware.leds import ROLES
from web.board_referee import BoardHub, VirtualBoard
from web.store import Store
from web.tables import TableService

from tests.helpers.livekit import LiveServer  # noqa: F401 - re-exported for the board's browser test

warnings.filterwarnings("ignore", module="gpiozero")
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


@contextlib.contextmanager
def _seeded(seed):
    """Deal from a seeded shuffle (the table service shuffles with secrets.SystemRandom)."""
    if seed is None:
        yield
        return
    import web.tables
    saved = web.tables.secrets.SystemRandom
    web.tables.secrets.SystemRandom = lambda: random.Random(seed)
    try:
        yield
    finally:
        web.tables.secrets.SystemRandom = saved


class FakeClock:
    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


def mock_hardware(sides: int, clock, holes_per_side: int = 18, start_holes=None, home_holes=None) -> Hardware:
    board = {"sides": sides, "holes_per_side": holes_per_side}
    if start_holes is not None:   # Tock, Carbles, Jackaroo: 4 and 4 (RG-B1)
        board.update(start_holes=start_holes, home_holes=home_holes)
    wiring = load_wiring({"mock": True, "board": board, "leds": {"driver": "mock"}})
    return Hardware(wiring, mock=True, clock=clock)


class Rig:
    """A table service, a board hub (threaded=False: the test ticks it) and the board.

    mode "sensors": one emulated board (`self.hw`, given or made here), pegs moved by
    `self.hands` (a VirtualBoard over the same MockBoard: the path the table page uses);
    mode "simulation": the hub makes its own emulated board per table.
    """

    def __init__(self, mode="sensors", players=4, teams=2, preset="basic", settle=0.8, store=None,
                 clock=None, hw=None, bots=None, create=True, seed=None):
        self.clock = clock or FakeClock()
        self.mode = mode
        self.players = players
        self.store = store or Store(":memory:")
        self.svc = TableService(self.store, b"k" * 32, bot_delay=0.0)
        sides = 4 if players == 2 else players
        self.hw = hw
        if mode in ("sensors", "leds") and self.hw is None:
            self.hw = mock_hardware(sides, self.clock)
        if mode == "simulation":
            factory = lambda s, h, **kw: mock_hardware(s, self.clock, h, **kw)  # noqa: E731
        else:
            factory = lambda s, h: self.hw  # noqa: E731
        self.hub = BoardHub(self.svc, mode, factory, settle=settle, clock=self.clock, threaded=False)
        self.table = None
        self.tokens = {}
        if create:
            with _seeded(seed):
                self.table, self.host_token = self.svc.create({"preset": preset, "players": players, "teams": teams,
                                                 "names": NAMES[:players],
                                                 "bots": bots or [None] * players})
            for seat in range(players):
                if not (bots or [None] * players)[seat]:
                    self.tokens[seat] = self.svc.join(self.svc.join_code(self.table, seat))[2]
        else:
            self.hub.start()
        self.hub.tick()
        self._hands = None

    @property
    def ref(self):
        return self.hub.referee

    @property
    def game(self):
        return self.table.game

    @property
    def leds(self):
        return self.hub.hw.leds

    @property
    def strip(self):
        return self.hub.hw.strip

    @property
    def hands(self) -> VirtualBoard:
        """The people at the table: a VirtualBoard over the board's MockBoard."""
        if self.mode == "simulation":
            return self.ref.virtual
        if self._hands is None:
            self._hands = VirtualBoard(self.hw.mock_board)
        return self._hands

    def run(self, seconds: float, step: float = 0.01) -> None:
        end = self.clock.t + seconds - 1e-9
        while self.clock.t < end:
            self.clock.advance(step)
            self.hub.tick()

    # scans per step: enough for the 30 ms debounce (a change seen, then seen again 30 ms on)
    scan_step = 0.01
    settle_step = 0.05

    def fast(self) -> "Rig":
        """Scan less often (whole games: the emulated chain's bit-banging is the cost)."""
        self.scan_step, self.settle_step = 0.02, 0.25
        return self

    def settle(self) -> None:
        self.run(self.hub.settle + 0.06, step=self.settle_step)

    def lift(self, hole: str) -> int:
        side = self.hands.lift(hole)
        self.run(0.06, step=self.scan_step)
        return side

    def place(self, hole: str, side: int) -> None:
        self.hands.place(hole, side, self.clock.t)
        self.run(0.06, step=self.scan_step)
        if self.hands.queue:  # a drop onto an occupied hole: the peg goes in a moment later
            self.run(0.2, step=self.scan_step)

    def set_up(self) -> None:
        """Every peg in its start area, as the players do it before the game."""
        for seat in range(self.players):
            side = self.game.seat_side[seat]
            for i in range(1, 6):
                hole = f"S-s{side}-{i}"
                if hole not in self.hands.pegs:
                    self.hands.tray.append(side)
                    self.hands.place(hole, side, self.clock.t)
        self.run(0.1)

    def choose(self, card, rank=None, seat=None):
        seat = self.game.actor if seat is None else seat
        body = {"version": self.table.version, "card": card}
        if rank:
            body["rank"] = rank
        out = self.hub.choose(self.table, self.tokens[seat], body)
        self.hub.tick()
        return out

    def act(self, move: str, card: str | None, seat=None):
        seat = self.game.actor if seat is None else seat
        out = self.svc.act_as(self.table, seat, {"version": self.table.version, "move": move, "card": card})
        self.hub.tick()
        return out

    def colour(self, side: int) -> str:
        """The colour name of a side's pegs ("Red")."""
        return self.table.public_seats_base[self.game.side_seat[side]]["colour"]["name"]

    def role_at(self, hole: str):
        """The role lit on `hole` now (from the LED board's marks)."""
        m = self.leds.marks().get(hole)
        # a hole that wants a particular peg shows that peg's colour: its role is the referee's
        return m and (m["role"] or self.ref.roles.get(hole))

    def pixel(self, hole: str):
        """The last frame's pixel of `hole`'s LED."""
        return self.strip.last[self.leds.index_of(hole)]

    def lit(self, role: str):
        """The pixel a steady `role` shows at the board's brightness."""
        return tuple(round(c * self.leds.brightness) for c in ROLES[role].colour)

    def lit_side(self, side: int):
        """The pixel of a hole lit in a side's peg colour (a hole that wants that side's peg)."""
        h = self.table.public_seats_base[self.game.side_seat[side]]["colour"]["hex"].lstrip("#")
        return tuple(round(int(h[i:i + 2], 16) * self.leds.brightness) for i in (0, 2, 4))

    def close(self):
        self.svc.close()
        if self.hw is not None:
            self.hw.close()


def plan_physical(pos, move, pegs: dict) -> list:
    """What a person does to make `move` on a board whose pegs are `pegs` (hole -> side):
    [("lift", hole) | ("place", hole, side, moving)], the moving peg first, then the pegs it
    hits (moving: False for a hit peg put where it goes)."""
    geo = pos.geo
    pegs = dict(pegs)
    if move.kind == SWAP:
        (c1, a, _), (c2, b, _) = move.steps
        ha, hb = hole_id(geo, c1, a), hole_id(geo, c2, b)
        return [("lift", ha), ("lift", hb), ("place", ha, c2, True), ("place", hb, c1, True)]
    out = []
    q = pos.copy()
    for c, s, d in move.steps:
        track0, start0 = _track_and_start(q)
        q.apply(Move(move.rank, move.kind, ((c, s, d),)), pos.to_move)
        track1, start1 = _track_and_start(q)
        src = (max(h for h, side in pegs.items() if h.startswith(f"S-s{c}-")) if s == START
               else hole_id(geo, c, s))
        dst = hole_id(geo, c, d)
        lifts = [src] + [h for h, side in sorted(track0.items()) if h != src and track1.get(h) != side]
        places = [(dst, c)] + [(h, side) for h, side in sorted(track1.items())
                               if h != dst and track0.get(h) != side]
        for hole in lifts:
            out.append(("lift", hole))
            pegs.pop(hole, None)
        for side in sorted(start1):
            for _ in range(start1[side] - start0.get(side, 0) + (1 if side == c and s == START else 0)):
                free = min((h for h in (f"S-s{side}-{i}" for i in range(1, 6)) if h not in pegs),
                           key=lambda h: int(h.rsplit("-", 1)[1]))
                places.append((free, side))
                pegs[free] = side
        for i, (hole, side) in enumerate(places):
            out.append(("place", hole, side, i == 0))
            pegs[hole] = side
    return out


def _track_and_start(pos):
    track, start = {}, {}
    for side, locs in pos.pegs().items():
        for loc in locs:
            if loc == START:
                start[side] = start.get(side, 0) + 1
            else:
                track[hole_id(pos.geo, side, loc)] = side
    return track, start


def play_game(rig: Rig, seed: int = 1, max_turns: int = 2000) -> dict:
    """Bots play the whole game; every move is made on the board, hole by hole, and
    checked against the LED frames. Discards (no peg moves) go through the phone path.
    Returns counts; raises AssertionError at the first desync."""
    import random

    from companion.bots import make_bot
    from companion.moves import DISCARD

    rng = random.Random(seed)
    bots = [make_bot("greedy", random.Random(rng.random())) for _ in range(rig.players)]
    stats = {"moves": 0, "discards": 0, "ambiguous": 0, "hits": 0, "hit_lit": 0, "lit_checks": 0}
    game, ref = rig.game, rig.ref
    while not game.is_over() and game.turn < max_turns:
        seat = game.actor
        play = bots[seat].choose(game, game.legal_plays())
        pos = game.position
        version = rig.table.version
        if play.move.kind == DISCARD:
            rig.act(play.move.text(pos.geo), play.card)
            stats["discards"] += 1
            assert ref.state in ("ready", "waiting"), (ref.state, ref.message)
            continue
        expected = pos.result_of(play.move)
        rig.choose(play.card, play.move.rank)
        assert ref.state == "following", (ref.state, ref.message)
        steps = plan_physical(pos, play.move, rig.hands.pegs)
        first_lift = steps[0][1]
        # the peg about to be lifted blinks "can-move" (slow blink: lit in the first half)
        assert rig.role_at(first_lift) == "can-move", (first_lift, rig.leds.marks(), play.move.text(pos.geo))
        for step in steps:
            if step[0] == "lift":
                rig.lift(step[1])
                continue
            hole, side, moving = step[1:]
            if moving and play.move.kind != SWAP:
                # the destination is lit "legal" (steady green) in the frame sent before the peg goes in
                assert rig.role_at(hole) == "legal", (hole, rig.leds.marks(), play.move.text(pos.geo))
                assert rig.pixel(hole) == rig.lit("legal"), (hole, rig.pixel(hole))
                stats["lit_checks"] += 1
            elif not moving:
                # where a hit peg goes pulses "hit" (or shows green where the board, by occupancy
                # alone, could also be half-way through another legal move that lands there)
                stats["hits"] += 1
                role = rig.role_at(hole)
                assert role in ("hit", "legal"), (hole, rig.leds.marks(), ref.state)
                stats["hit_lit"] += role == "hit"
                assert ref.state == "hit"
            rig.place(hole, side)
        rig.settle()
        if ref.state == "ambiguous":
            stats["ambiguous"] += 1
            assert play.move.text(pos.geo) in [c["move"] for c in ref.candidates] or any(
                pos.result_of(Move.from_text(c["move"], pos.geo)) == expected for c in ref.candidates)
            rig.act(play.move.text(pos.geo), play.card)   # the phone's candidate button
        assert rig.table.version > version, (ref.state, ref.message, play.move.text(pos.geo))
        assert game.history[-1 if not game.rules.bluffing else -1]["card"] == play.card
        assert game.position.pegs() == expected or game.is_over(), "desync: the game is not the board"
        assert ref.state in ("ready", "waiting"), (ref.state, ref.message)
        stats["moves"] += 1
    return stats


def simulation_app(settle: float = 0.8, store=None, bot_delay: float = 0.3, mode: str = "simulation"):
    """The app as `pegs serve` builds it in simulation mode (a real clock, the runner thread)."""
    from web import create_app
    from web.board_referee import make_hub
    svc = TableService(store or Store(":memory:"), b"k" * 32, bot_delay=bot_delay)
    hub = make_hub(svc, mode, settle=settle)
    return create_app({"BOT_DELAY": bot_delay, "HEARTBEAT": 1.0}, service=svc, board=hub)


COME_OUT = ("A", "J", "Q", "K")


def table_with_a_come_out(svc, players=4, bots=None, first_seed=0):
    """A table (seeded deal) whose first player holds a come-out card: (table, seat, card)."""
    for seed in range(first_seed, first_seed + 200):
        with _seeded(seed):
            table, _ = svc.create({"preset": "basic", "players": players, "teams": 2,
                                   "names": NAMES[:players], "bots": bots or [None] * players})
        g = table.game
        card = next((c for c in g.hands[g.actor] if c[:-1] in COME_OUT), None)
        if card:
            return table, g.actor, card
    raise AssertionError("no deal with a come-out card")


def deal_seed(pred, preset="basic", players=4, teams=2, tries=200) -> int:
    """The first seed whose deal, dealt exactly as `Rig(seed=...)` deals it, gives the first
    player a hand with pred(hand): a deterministic search, so a test that needs a card (a
    come-out card, a card that can't move) has it on every run instead of skipping."""
    from companion.game import Game
    for seed in range(tries):
        with _seeded(seed):
            game = new_game(rules=preset, players=players, teams=teams, dealer=players - 1, shuffles=[])
        if pred(game.hands[game.actor]):
            return seed
    raise AssertionError(f"no deal among seeds 0-{tries - 1} fits {pred}")
