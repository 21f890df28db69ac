"""Report the board only once it holds still: ``StableBoardTracker``.

A frame counts only if nothing moved over the board, the homography was
confirmed, and every hole was read with enough confidence (a hand resting
still over the board makes the holes under it unreadable, not empty). A new
state is reported once it has been read the same in ``hold_frames`` such
frames in a row.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .detect import EMPTY, UNKNOWN, BoardReading


@dataclass
class BoardChange:
    before: dict | None          # hole -> side of every peg, None for the first state
    after: dict                  # hole -> side of every peg
    frame: int                   # index of the frame that confirmed it
    removed: list = field(default_factory=list)   # [(hole, side)] pegs gone from a hole
    added: list = field(default_factory=list)     # [(hole, side)] pegs new in a hole

    @property
    def initial(self) -> bool:
        return self.before is None

    def describe(self) -> str:
        if self.initial:
            return f"board read: {len(self.after)} pegs"
        parts = [f"-{h}({s})" for h, s in self.removed] + [f"+{h}({s})" for h, s in self.added]
        return " ".join(parts) or "no change"


class StableBoardTracker:
    def __init__(self, hold_frames: int = 5, min_confidence: float = 0.8, report_initial: bool = True):
        if hold_frames < 1:
            raise ValueError("hold_frames must be at least 1")
        self.hold_frames = hold_frames
        self.min_confidence = min_confidence
        self.report_initial = report_initial
        self.stable: dict | None = None          # hole -> side of the reported state
        self._stable_key = None
        self._candidate = None
        self._count = 0
        self.frames = 0
        self.ignored = 0                         # frames that could not count
        self.unreadable: dict = {}               # hole -> frames in a row it could not be read

    def reset(self, pegs: dict | None = None) -> None:
        """Forget the candidate; optionally set the known state (e.g. from the referee)."""
        self._candidate, self._count = None, 0
        if pegs is not None:
            self.stable = dict(pegs)
            self._stable_key = tuple(sorted(self.stable.items()))

    def _usable(self, reading: BoardReading, moving: bool) -> bool:
        if moving or not reading.markers_ok:
            return False
        bad = [h for h, v in reading.labels.items()
               if v == UNKNOWN or reading.confidence.get(h, 0.0) < self.min_confidence]
        for h in list(self.unreadable):
            if h not in bad:
                del self.unreadable[h]
        for h in bad:
            self.unreadable[h] = self.unreadable.get(h, 0) + 1
        return not bad

    def update(self, reading: BoardReading, moving: bool | None = None) -> BoardChange | None:
        """Feed one frame's reading; a ``BoardChange`` when a new state has held long enough."""
        self.frames += 1
        moving = reading.moving if moving is None else moving
        if not self._usable(reading, moving):
            self.ignored += 1
            self._candidate, self._count = None, 0
            return None
        pegs = {h: int(v) for h, v in reading.labels.items() if v != EMPTY}
        key = tuple(sorted(pegs.items()))
        if key == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = key, 1
        if self._count < self.hold_frames or key == self._stable_key:
            return None
        before = self.stable
        self.stable, self._stable_key = pegs, key
        if before is None:
            return BoardChange(None, dict(pegs), self.frames - 1) if self.report_initial else None
        removed = sorted((h, s) for h, s in before.items() if pegs.get(h) != s)
        added = sorted((h, s) for h, s in pegs.items() if before.get(h) != s)
        return BoardChange(dict(before), dict(pegs), self.frames - 1, removed, added)
