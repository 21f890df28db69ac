"""Board geometry (RULES G) and the precomputed path tables move generation uses.

A peg's location is an int:

* ``0 .. L-1``: main-track hole ``M<n>`` (G2);
* ``L .. L+4``: its own colour's home holes ``H1 .. H5`` (G4);
* ``START`` (-1): its start area (G5).

Each colour's pegs are kept as one bit mask over ``L + 5`` bits (main track
then its private home), so "no own peg on the path" (M2) is one AND.
"""
from __future__ import annotations

from .errors import PositionError, SetupError

from functools import lru_cache

START = -1
HOME_SIZE = 5
SEAT_COUNTS = (2, 4, 6, 8, 10)
TEAM_LAYOUTS = {2: (2,), 4: (2,), 6: (2, 3), 8: (2, 4), 10: (2,)}  # T1: number of teams


# A path table: by location, by count, the options ((destination, path mask), ...) a peg
# there has (`Geometry.forward[c]`, `forward_main`, `backward`).
Options = tuple[tuple[int, int], ...]
PathTable = tuple[tuple[Options, ...], ...]


class Geometry:
    """Holes, landmarks and path tables of one board (G1-G4)."""

    def __init__(self, sides: int, holes_per_side: int = 18, in_spot_offset: int = 3,
                 come_out_offset: int = 8, must_turn_in: bool = False, home_size: int = HOME_SIZE) -> None:
        if sides not in (4, 6, 8, 10, 12):
            raise SetupError(f"a board has 4, 6, 8, 10 or 12 sides, not {sides}")
        self.home_size = home_size  # 5 (G4), 4 on the related games' boards (TK-G4)
        self.sides = sides
        self.holes_per_side = h = holes_per_side
        self.length = L = sides * h
        self.in_spot = tuple(k * h + in_spot_offset for k in range(sides))
        self.come_out = tuple(k * h + come_out_offset for k in range(sides))
        self.main_mask = (1 << L) - 1
        self.home_mask = ((1 << home_size) - 1) << L
        self.must_turn_in = must_turn_in
        # forward[c][loc][n]: tuple of (dest, path mask) options, home turn-in first.
        self.forward: tuple[PathTable, ...] = tuple(self._forward_table(c, turn_in=True) for c in range(sides))
        # forward_main[loc][n]: main-track only (R7: another team's peg never turns in).
        self.forward_main = self._forward_table(None, turn_in=False)
        # backward[loc][n]: ((dest, path mask),) on the main track (M5); () in home.
        self.backward: PathTable = tuple(
            tuple(((self._backward(loc, n),) if loc < L and n else ()) for n in range(14))
            for loc in range(L + HOME_SIZE))

    def _forward_table(self, colour: int | None, turn_in: bool) -> PathTable:
        L = self.length
        table = []
        for loc in range(L + HOME_SIZE):
            table.append(tuple(self._forward_options(colour, loc, n, turn_in) for n in range(14)))
        return tuple(table)

    def _forward_options(self, colour: int | None, loc: int, n: int,
                         turn_in: bool) -> tuple[tuple[int, int], ...]:
        L = self.length
        if n == 0:
            return ()
        if loc >= L:  # M4: within home, forward only
            k = loc - L
            if k + n >= self.home_size:
                return ()
            path = sum(1 << (L + j) for j in range(k + 1, k + n + 1))
            return ((L + k + n, path),)
        options = []
        d = (self.in_spot[colour] - loc) % L if turn_in and colour is not None else None
        if turn_in and d is not None and d < n and n - d <= self.home_size:  # M3: turn in at the in-spot
            path = sum(1 << ((loc + j) % L) for j in range(1, d + 1))
            path |= sum(1 << (L + j) for j in range(n - d))
            options.append((L + n - d - 1, path))
        if not (self.must_turn_in and d is not None and d < n):  # V-KP2, R17
            path = sum(1 << ((loc + j) % L) for j in range(1, n + 1))
            options.append(((loc + n) % L, path))
        return tuple(options)

    def _backward(self, loc: int, n: int) -> tuple[int, int]:
        """(destination, path mask) of `n` >= 1 holes backward from `loc` on the main track."""
        L = self.length
        path = sum(1 << ((loc - j) % L) for j in range(1, n + 1))
        return ((loc - n) % L, path)

    def token(self, loc: int) -> str:
        if loc == START:
            return "S"
        if loc < self.length:
            return f"M{loc}"
        return f"H{loc - self.length + 1}"

    def parse_token(self, token: str) -> int:
        """A NOTATION.md hole token to a location; ValueError names the problem."""
        if token == "S":
            return START
        kind, digits = token[:1], token[1:]
        if kind not in ("M", "H") or not digits.isdigit() or (len(digits) > 1 and digits[0] == "0"):
            raise PositionError(f"bad hole token {token!r}: expected S, M<n> or H<k>")
        n = int(digits)
        if kind == "M":
            if n >= self.length:
                raise PositionError(f"hole {token} is off the board: the main track is M0-M{self.length - 1}")
            return n
        if not 1 <= n <= self.home_size:
            raise PositionError(f"hole {token} is off the board: home holes are H1-H{self.home_size}")
        return self.length + n - 1


@lru_cache(maxsize=64)
def geometry(sides: int, holes_per_side: int = 18, in_spot_offset: int = 3,
             come_out_offset: int = 8, must_turn_in: bool = False,
             home_size: int = HOME_SIZE) -> Geometry:
    return Geometry(sides, holes_per_side, in_spot_offset, come_out_offset, must_turn_in,
                    home_size)


def sides_for(players: int) -> int:
    """G1: one side per seat; two players use a 4-sided board."""
    if players not in SEAT_COUNTS:
        raise SetupError(f"{players} players is not supported; choose 2, 4, 6, 8 or 10")
    return 4 if players == 2 else players


def seat_sides(players: int) -> list[int]:
    """The side each seat (in turn order) sits at: 2 players on sides 0 and 2 (G1)."""
    sides = sides_for(players)
    step = sides // players
    return [s * step for s in range(players)]


def team_lists(players: int, teams: int | None = None) -> list[list[int]]:
    """T1: seat s is on team s mod T; returned as lists of sides."""
    if teams is None:
        teams = 2
    if teams not in TEAM_LAYOUTS[sides_for(players) if players != 2 else 2]:
        raise SetupError(f"{players} players can't play as {teams} teams; "
                         f"choose {' or '.join(map(str, TEAM_LAYOUTS[players]))}")
    sides = seat_sides(players)
    if players == 2:
        return [[sides[0]], [sides[1]]]
    return [[sides[s] for s in range(players) if s % teams == t] for t in range(teams)]
