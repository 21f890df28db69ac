"""Scoring boards against a camera's per-hole readings (RULES-free, standard library only).

The camera does not have to read every hole perfectly: once a card is chosen the
referee knows the few boards that may follow (the legal results, and the board as
it was). `score_board` says how well one such board explains the picture, as a
log-likelihood; `decide` takes a board only when it explains the picture clearly
better than every other one.

A reading is ``(p_peg, side, p_side)``: the probability that the hole holds a peg,
the seat whose colour the peg most likely shows (None: no colour read) and the
confidence in that colour. Hole ids are the referee's (``M12``, ``H3-s2``,
``S-s2-1``). A hole absent from the readings is unread (covered, out of the
picture) and counts for no board. Start holes are interchangeable: a start area
holding n pegs is scored with its pegs in whichever n holes read most like pegs.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Reading = tuple[float, int | None, float]   # (p_peg, side or None, p_side)

EPS = 1e-3            # no single reading is ever certain: one bad hole costs at most ~7 nats
DEFAULT_MARGIN = 3.0  # nats: the winner must be >= e^3 (about 20) times likelier than the next
                      # (replayed games with 2.75 % misread holes: 0 wrong moves at 2 and 3, the
                      # first wrong one at 1; 94 % taken at 2, 90 % at 3: tests/benchmarks/bench_readings.py)
START_HOLES = 5       # holes in a start area (companion.matching.all_holes' default)


def _clamp(p: float) -> float:
    if p != p:   # NaN: no information
        return 0.5
    return min(1.0 - EPS, max(EPS, float(p)))


def _filled_term(reading: Reading, side: int) -> float:
    """log P(reading | a peg of colour `side` in the hole). A colour read counts against
    the even odds it would have in an empty hole, so a colour that agrees never makes a
    filled hole look less likely than an empty one."""
    p_peg, seen, p_side = reading
    term = math.log(_clamp(p_peg))
    if seen is not None:
        q = _clamp(p_side)
        term += math.log((q if seen == side else 1.0 - q) / 0.5)
    return term


def _empty_term(reading: Reading) -> float:
    """log P(reading | the hole is empty)."""
    return math.log(1.0 - _clamp(reading[0]))


def _start_area(hole: str) -> int | None:
    if hole.startswith("S-s"):
        try:
            return int(hole[3:].split("-")[0])
        except ValueError:
            return None
    return None


def score_board(readings: Mapping[str, Reading], board: Mapping[str, int], *,
                start_holes: int = START_HOLES) -> float:
    """The log-likelihood of the readings if the board is `board` ({occupied hole: side};
    holes not in it are empty). Higher is better; only differences between boards mean
    anything."""
    return _Scorer(readings, start_holes).score(board)


class _Scorer:
    """score_board for many boards on one set of readings: every hole's empty term is summed
    once, so a board costs only its pegs (a North Carolina 10 has hundreds of results)."""

    def __init__(self, readings: Mapping[str, Reading], start_holes: int = START_HOLES) -> None:
        self.readings = readings
        self.start_holes = start_holes
        self.empty = 0.0
        self._start: dict[tuple[int, tuple[int, ...]], float] = {}  # (area, sides) -> its term
        self.areas: dict[int, list[Reading]] = {}
        for hole, reading in readings.items():
            area = _start_area(hole)
            if area is None:
                self.empty += _empty_term(reading)
            else:
                self.areas.setdefault(area, []).append(reading)

    def score(self, board: Mapping[str, int]) -> float:
        total = self.empty
        wanted: dict[int, list[int]] = {}     # start area -> sides of the pegs the board puts there
        for hole, side in board.items():
            area = _start_area(hole)
            if area is not None:
                wanted.setdefault(area, []).append(side)
                continue
            reading = self.readings.get(hole)
            if reading is not None:
                total += _filled_term(reading, side) - _empty_term(reading)
        for area in set(self.areas) | set(wanted):
            sides = tuple(sorted(wanted.get(area, ())))
            key = (area, sides)
            term = self._start.get(key)
            if term is None:   # boards share their start areas: each is worked out once
                read = self.areas.get(area, [])
                term = self._start[key] = _score_start(read, list(sides), max(self.start_holes, len(read)))
            total += term
        return total


def _score_start(read: list[Reading], sides: list[int], capacity: int) -> float:
    """A start area: its pegs in the read holes that fit best, or in holes not read."""
    n = len(sides)
    side = max(set(sides), key=sides.count) if sides else None
    base = sum(_empty_term(r) for r in read)
    gains = sorted(((_filled_term(r, side) - _empty_term(r)) if side is not None else 0.0 for r in read),
                   reverse=True)
    unread = max(0, capacity - len(read))
    least = max(0, n - unread)          # pegs that must stand in read holes
    most = min(n, len(read))
    best = None
    acc = sum(gains[:least])
    for k in range(least, most + 1):
        if k > least:
            acc += gains[k - 1]
        if best is None or acc > best:
            best = acc
    if best is None:   # more pegs than the area has holes: impossible, scored as very unlikely
        return base + (n - len(read)) * math.log(EPS) + sum(gains)
    return base + best


def decide(readings: Mapping[str, Reading], boards: Sequence[Mapping[str, int]],
           margin: float = DEFAULT_MARGIN) -> tuple[int | None, list[float]]:
    """(index of the board that beats every other by at least `margin`, or None; every
    board's score). A single board wins unopposed: the caller judges whether it fits at
    all (`contradictions`)."""
    scorer = _Scorer(readings)
    scores = [scorer.score(b) for b in boards]
    if not scores:
        return None, scores
    order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
    best = order[0]
    if len(order) > 1 and scores[best] - scores[order[1]] < margin:
        return None, scores
    return best, scores


def contradictions(readings: Mapping[str, Reading], board: Mapping[str, int],
                   sure: float = 0.9) -> list[str]:
    """Track and home holes where a confident reading says the board is wrong: a peg read
    with p_peg >= `sure` where the board has none, none read (p_peg <= 1 - sure) where it
    has one, or a peg whose colour is read, that confidently, as another side's."""
    out = []
    for hole, (p_peg, seen, p_side) in sorted(readings.items()):
        if _start_area(hole) is not None:
            continue
        side = board.get(hole)
        if side is None:
            if p_peg >= sure:
                out.append(hole)
        elif p_peg <= 1.0 - sure or (seen is not None and seen != side and p_side >= sure and p_peg >= 0.5):
            out.append(hole)
    return out


def doubtful(readings: Mapping[str, Reading], boards: Sequence[Mapping[str, int]],
             scores: Sequence[float] | None = None, limit: int = 4) -> list[str]:
    """The holes that decide between the best boards, worst read first: where the two best
    boards differ (occupancy or colour) and the reading is least sure. For the phone to
    show their crops when it asks."""
    if len(boards) < 2:
        return []
    if scores is None:
        scores = [score_board(readings, b) for b in boards]
    order = sorted(range(len(boards)), key=lambda i: scores[i], reverse=True)
    a, b = boards[order[0]], boards[order[1]]
    holes = {h for h in set(a) | set(b) if a.get(h) != b.get(h) and _start_area(h) is None}
    ranked = []
    for hole in holes:
        r = readings.get(hole)
        if r is None:
            ranked.append((0.0, hole))
            continue
        sa = _empty_term(r) if a.get(hole) is None else _filled_term(r, a[hole])
        sb = _empty_term(r) if b.get(hole) is None else _filled_term(r, b[hole])
        ranked.append((abs(sa - sb), hole))
    return [h for _, h in sorted(ranked)[:limit]]


__all__ = ["Reading", "score_board", "decide", "contradictions", "doubtful", "DEFAULT_MARGIN", "EPS"]
