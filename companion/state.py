"""The peg state both rule families share: who is where, whose turn, and a snapshot of it.

`PegState` holds the pegs as bit masks (``occ[c]``: colour ``c``'s pegs on the main track
and in its own home, see `companion.board`; ``start[c]``: how many are in start), the side
to move and the counting turns (V-NC7). It answers what does not depend on the rule family
(the pegs of a side, a hashable key, the winner, which colours a player controls) and saves
and restores itself as a `Saved` snapshot for push/pop, search and undo, so no module writes
``pos.occ, pos.start, ... = saved`` by hand. Each family's position subclasses it and adds
the moves (`companion.families.pegs.position`, `companion.families.tock.position`).

Lists are never edited in place once a move is made (`apply` replaces them), so a snapshot
holds references, not copies, and costs one small tuple.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .board import HOME_SIZE, START, Geometry, geometry
from .errors import PositionError

if TYPE_CHECKING:
    from .moves import Move
    from .rules import Rules

FORMAT = "pegs-and-jokers/position/1"

S = TypeVar("S", bound="PegState")


def bits(mask: int) -> Iterator[int]:
    """Set bit indices of a mask, low first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Saved(tuple):  # type: ignore[type-arg]
    """A snapshot of a position's state: `PegState.save` makes it, `restore` puts it back.

    A tuple underneath (cheap to make in the bots' inner loops), read by name:
    ``occ``, ``start``, ``to_move``, ``counting``, and ``extra`` (what a family
    adds, e.g. the Tock family's hand sizes and waiting sides; () if nothing).
    """

    __slots__ = ()

    occ = property(lambda self: self[0])
    start = property(lambda self: self[1])
    to_move = property(lambda self: self[2])
    counting = property(lambda self: self[3])
    extra = property(lambda self: self[4])

    def __repr__(self) -> str:
        return (f"Saved(occ={self[0]!r}, start={self[1]!r}, to_move={self[2]!r}, "
                f"counting={self[3]!r}, extra={self[4]!r})")


class PegState:
    """Pegs on a board of one rule set, whose turn it is, and push/pop.

    ``teams`` are lists of sides; ``to_move`` is a side; ``counting[side]`` the
    consecutive counting turns of that player (V-NC7).
    """

    # The sides a board of this family may have, and the rule it cites otherwise.
    BOARD_SIDES: tuple[int, ...] = (4, 6, 8, 10)

    def __init__(self, rules: Rules, sides: int, teams: Iterable[Iterable[int]],
                 occ: Sequence[int], start: Sequence[int], to_move: int,
                 counting: Sequence[int] | None = None) -> None:
        self.rules = rules
        self.geo: Geometry = geometry(sides, rules.holes_per_side, rules.in_spot_offset,
                                      rules.come_out_offset, rules.must_turn_in, rules.home_size)
        self.sides = sides
        self.L = self.geo.length
        self.teams: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in teams)
        self.colours: tuple[int, ...] = tuple(sorted(c for t in self.teams for c in t))  # turn order
        self.team_of = [-1] * sides
        for i, t in enumerate(self.teams):
            for c in t:
                self.team_of[c] = i
        self.occ = list(occ)
        self.start = list(start)
        self.to_move = to_move
        self.counting = list(counting) if counting is not None else [0] * sides
        self._width = self.L + HOME_SIZE
        self._stack: list[tuple[list[int], list[int], int, list[int]]] = []  # push's snapshots

    # ----------------------------------------------------------- construction
    @classmethod
    def from_pegs(cls: type[S], rules: Rules, sides: int, teams: Sequence[Sequence[int]],
                  pegs: Mapping[int, Sequence[int]], to_move: int,
                  counting: Mapping[int, int] | None = None) -> S:
        """Build from {side: [locations]}; raises PositionError naming the problem."""
        cls._check_sides(sides, pegs)
        occupied = sorted(pegs)
        flat = [c for t in teams for c in t]
        if sorted(flat) != occupied:
            raise PositionError(f"teams {teams} must list each occupied side {occupied} exactly once")
        if to_move not in pegs:
            raise PositionError(f"to_move is side {to_move}, which has no pegs")
        geo = geometry(sides, rules.holes_per_side, rules.in_spot_offset,
                       rules.come_out_offset, rules.must_turn_in, rules.home_size)
        L = geo.length
        occ, start = [0] * sides, [0] * sides
        seen_main: dict[int, int] = {}
        for c in occupied:
            locs = pegs[c]
            if len(locs) != rules.pegs_per_side:
                raise PositionError(f"side {c} has {len(locs)} pegs, expected {rules.pegs_per_side}")
            for loc in locs:
                if loc == START:
                    start[c] += 1
                    continue
                if loc < L:
                    if loc in seen_main:
                        raise PositionError(f"two pegs on M{loc} (sides {seen_main[loc]} and {c})")
                    seen_main[loc] = c
                elif occ[c] >> loc & 1:
                    raise PositionError(f"side {c} has two pegs on {geo.token(loc)}")
                occ[c] |= 1 << loc
        count = [0] * sides
        for side, n in (counting or {}).items():
            if side not in pegs:
                raise PositionError(f"counting names side {side}, which has no pegs")
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise PositionError(f"counting for side {side} is {n!r}; expected a whole number >= 0")
            count[side] = n
        return cls(rules, sides, teams, occ, start, to_move, count)

    @staticmethod
    def _check_sides(sides: int, pegs: Mapping[int, object]) -> None:
        """The family's board sizes and seatings (G1 here; each family states its own)."""
        raise NotImplementedError

    def copy(self: S) -> S:
        return type(self)(self.rules, self.sides, self.teams, self.occ, self.start,
                          self.to_move, self.counting)

    # ----------------------------------------------------------------- queries
    def pegs(self) -> dict[int, list[int]]:
        """{side: locations in canonical order (S, then M by number, then H)}."""
        return {c: [START] * self.start[c] + list(bits(self.occ[c])) for c in self.colours}

    def key(self) -> tuple[int, int, tuple[int, ...]]:
        """A hashable value equal for equal positions (pegs, mover, counting)."""
        return (self._key(self.occ, self.start), self.to_move, tuple(self.counting))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PegState) and self.rules == other.rules and \
            self.sides == other.sides and self.teams == other.teams and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        # notation.py (the JSON layer) sits above this module, so no position_to_json here
        tok = self.geo.token
        pegs = {c: [tok(h) for h in locs] for c, locs in self.pegs().items()}
        return (f"Position(preset={self.rules.preset!r}, sides={self.sides}, teams={self.teams}, "
                f"pegs={pegs}, to_move={self.to_move})")

    def all_home(self, c: int, occ: Sequence[int] | None = None,
                 start: Sequence[int] | None = None) -> bool:
        occ = self.occ if occ is None else occ
        start = self.start if start is None else start
        return start[c] == 0 and not occ[c] & self.geo.main_mask

    def controlled(self, side: int | None = None, occ: Sequence[int] | None = None,
                   start: Sequence[int] | None = None) -> list[int]:
        """Colours the player at `side` may move now (P8, V-AZ2)."""
        side = self.to_move if side is None else side
        team = self.teams[self.team_of[side]]
        if self.rules.team_pegs:
            return list(team)
        if not self.all_home(side, occ, start):
            return [side]
        order = self.colours
        i = order.index(side)
        for k in range(1, len(order)):
            c = order[(i + k) % len(order)]
            if self.team_of[c] == self.team_of[side] and not self.all_home(c, occ, start):
                return [c]
        return []

    def next_side(self, side: int | None = None) -> int:
        side = self.to_move if side is None else side
        order = self.colours
        return order[(order.index(side) + 1) % len(order)]

    def winner(self) -> int | None:
        """M10: index of the team whose pegs are all home, else None."""
        mm, occ, start = self.geo.main_mask, self.occ, self.start
        for i, team in enumerate(self.teams):
            for c in team:
                if start[c] or occ[c] & mm:
                    break
            else:
                return i
        return None

    def colour_at(self, hole: int) -> int | None:
        """The colour on main-track hole `hole`, or None."""
        for c in self.colours:
            if self.occ[c] >> hole & 1:
                return c
        return None

    def free_come_out_due(self, side: int | None = None) -> bool:
        """R12: the player has counted on enough turns before this one."""
        side = self.to_move if side is None else side
        return bool(self.rules.counting) and self.counting[side] >= self.rules.counting - 1

    # ---------------------------------------------------------- state helpers
    def _main_all(self, occ: Sequence[int]) -> int:
        m = 0
        for c in self.colours:
            m |= occ[c]
        return m & self.geo.main_mask

    def _key(self, occ: Sequence[int], start: Sequence[int]) -> int:
        w, k, sw = self._width, 0, self.sides * self._width
        for c in self.colours:
            k |= (occ[c] << (c * w)) | (start[c] << (sw + 3 * c))
        return k

    # ---------------------------------------------- what each family implements
    def legal_moves(self, ranks: Iterable[str] | None = None,
                    dedupe: bool = True) -> Iterator[Move]:
        """Lazily yield the legal moves of the given ranks (all of the deck's if None),
        each distinct end position of a rank once (R4) unless ``dedupe`` is false."""
        raise NotImplementedError

    def hand_moves(self, ranks: Iterable[str]) -> tuple[list[Move], bool]:
        """(legal moves of the distinct `ranks`, discard allowed) in one pass."""
        raise NotImplementedError

    def discard_allowed(self, ranks: Iterable[str] | None = None) -> bool:
        raise NotImplementedError

    def parse_move(self, text: str, ranks: Iterable[str] | None = None) -> Move:
        """Parse move text and check it is legal here (optionally for a hand)."""
        raise NotImplementedError

    def check_move(self, move: Move, ranks: Iterable[str] | None = None) -> None:
        """Raise IllegalMoveError, citing a rule, unless `move` is legal."""
        raise NotImplementedError

    def explain_illegal(self, move: Move) -> tuple[str, str]:
        """(sentence, rule id) saying why a well-formed move is not legal here."""
        raise NotImplementedError

    # ------------------------------------------------------- save and restore
    def save(self) -> Saved:
        """A snapshot of the state a move changes (see `restore`)."""
        return tuple.__new__(Saved, (self.occ, self.start, self.to_move, self.counting, ()))

    def restore(self, saved: Saved) -> None:
        """Put back a snapshot made by `save` on this position."""
        self.occ, self.start, self.to_move, self.counting, _ = saved

    # ------------------------------------------------------------- push / pop
    def apply(self, move: Move, next_to_move: int | None = None) -> None:
        """Make a move (assumed legal) and pass the turn, keeping no undo record:
        for callers that keep their own (`save`/`restore`, a game's undo)."""
        raise NotImplementedError

    def push(self, move: Move, next_to_move: int | None = None) -> None:
        """Make a move (assumed legal: see `check_move`) and pass the turn."""
        # `PegState.save` written out as a plain tuple: a move changes only these (never a
        # family's extra state), and the greedy bot pushes and pops once per play it scores
        self._stack.append((self.occ, self.start, self.to_move, self.counting))
        self.apply(move, next_to_move)

    def pop(self) -> None:
        """Undo the last `push` (`PegState.restore` written out, as `push` saves)."""
        self.occ, self.start, self.to_move, self.counting = self._stack.pop()

    def result_of(self, move: Move) -> dict[int, list[int]]:
        """The `pegs` after `move`, without changing this position."""
        self.push(move)
        try:
            return self.pegs()
        finally:
            self.pop()

    # -------------------------------------------------------------- JSON out
    def to_json(self) -> dict[str, Any]:
        """NOTATION.md JSON of this position (`companion.notation` reads it back)."""
        token = self.geo.token
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "sides": self.sides,
            "teams": [list(t) for t in self.teams],
            "pegs": {str(c): [token(loc) for loc in locs] for c, locs in self.pegs().items()},
            "to_move": self.to_move,
        }
        counting = {str(c): self.counting[c] for c in self.colours if self.counting[c]}
        if counting or self.rules.counting:
            out["counting"] = counting
        return out


__all__ = ["PegState", "Saved", "bits", "FORMAT"]
