"""The simulated board's pegs: a hand moving pegs on emulated reed switches.

`VirtualBoard` stands beside `hardware.mock.MockBoard` (the emulated switches
it drives): it keeps which peg (a side's colour) stands in which hole and
which pegs are in the players' hands, and puts every change through the
switches, so whatever reads them sees what a reed board would report. Holes
are named as in the wiring (`hardware.config`: M12, H3-s2, S-s2-1); the
rules are not known here. Problems are `VirtualBoardError` (the web answers
409: the board is not as the request thought).
"""
from __future__ import annotations

from collections import Counter, deque


class VirtualBoardError(ValueError):
    """A hand move the simulated board can't make (no peg there, a full start area)."""


def side_of_hole(hole: str) -> int:
    """The side a start or home hole id belongs to: S-s2-1 and H3-s2 -> 2."""
    return int(hole.split("-s", 1)[1].split("-")[0])


def start_holes_of(side: int, count: int = 5) -> list[str]:
    """The start-area holes of `side`: S-s<side>-1 .. S-s<side>-<count>."""
    return [f"S-s{side}-{i}" for i in range(1, count + 1)]


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
            where = f"hole {hole[1:]}" if hole.startswith("M") else "that hole"   # in words (issue 14.4)
            raise VirtualBoardError(f"there is no peg in {where} to pick up (it may have just moved)")
        del self.pegs[hole]
        self.tray.append(side)
        self.mock.remove(hole)
        self.changes += 1
        return side

    def place(self, hole: str, side: int, now: float) -> str:
        """Put a peg of colour `side` from the hand into `hole`; returns the hole used."""
        if side not in self.tray:
            raise VirtualBoardError("no peg of that colour is in the hand: pick one up first")
        if hole.startswith("S-s"):
            if hole in self.pegs:   # any free hole of that start area will do
                free = [h for h in start_holes_of(side_of_hole(hole), self.start_holes) if h not in self.pegs]
                if not free:
                    raise VirtualBoardError("that start area is full")
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
        for side in sorted({side_of_hole(h) for h in pegs if h.startswith("S-")} | set(start)):
            mine = [h for h in start_holes_of(side, self.start_holes) if h in pegs]
            for h in [h for h in mine if pegs[h] != side]:   # another colour's peg in this start
                lifts.append(h)
                hand[pegs.pop(h)] += 1
            mine = [h for h in mine if h in pegs]
            want = start.get(side, 0)
            for h in sorted(mine, reverse=True)[:max(0, len(mine) - want)]:
                lifts.append(h)
                hand[side] += 1
                del pegs[h]
            free = [h for h in start_holes_of(side, self.start_holes) if h not in pegs]
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


__all__ = ["VirtualBoard", "VirtualBoardError", "side_of_hole", "start_holes_of"]
