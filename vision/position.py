"""Hole readings -> a NOTATION.md position, and back (for rendering test pictures).

Vision knows holes and colours, not the rules: a peg of side ``s`` on ``M12``
is ``"M12"``, on its own home hole ``H3-s<s>`` is ``"H3"``, in any start hole
``"S"``. Whether the result is a legal position is for the rules engine to say
(``companion.notation.position_from_json``, which ``check`` runs).
"""
from __future__ import annotations

import itertools
import math

from .detect import BESIDE, EMPTY, UNKNOWN
from .foreground import PATCH_POINTS
from .layout import Layout

FORMAT = "pegs-and-jokers/position/1"
MAX_SETTLED = 4          # holes at most settled by the peg count in one picture


class ReadingError(ValueError):
    """The reading can't be made into a position; ``problems`` lists why."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def default_teams(layout: Layout, sides: list[int], teams: int | None = None) -> list[list[int]]:
    """Teams by RULES T1 (seat s on team s mod T) over the seats in play, or each alone."""
    from companion.board import seat_sides, sides_for, team_lists
    players = len(sides)
    n = 2 if teams is None else teams
    if n == players:                      # each plays alone (Tock, Carbles, Individual Jackaroo)
        return [[s] for s in sides]
    if players in (2, 4, 6, 8, 10) and sides_for(players) == layout.sides and list(sides) == seat_sides(players):
        return team_lists(players, n)
    if n < 2 or players % n:
        raise ReadingError([f"{players} seats can't make {n} teams"])
    return [[s for i, s in enumerate(sides) if i % n == t] for t in range(n)]


def _sort_key(token: str):
    return (0, 0) if token == "S" else ((1, int(token[1:])) if token[0] == "M" else (2, int(token[1:])))


def tokens_from_labels(labels: dict, layout: Layout, sides, pegs_per_side: int | None = None,
                       assume_start: bool = False) -> tuple[dict, list[str], list[str]]:
    """({"side": [tokens]}, problems, notes) from hole -> label (EMPTY, UNKNOWN or a side)."""
    sides = sorted(sides)
    pegs_per_side = pegs_per_side or layout.start_holes
    tokens = {s: [] for s in sides}
    problems, notes = [], []
    unknown = [h for h, v in labels.items() if v == UNKNOWN]
    if unknown:
        problems.append(f"{len(unknown)} hole{'s' * (len(unknown) > 1)} can't be read "
                        f"({', '.join(unknown[:6])}{' ...' if len(unknown) > 6 else ''}): covered, or in glare?")
    for hole, v in labels.items():
        if v in (EMPTY, UNKNOWN):
            continue
        v = int(v)
        if v not in tokens:
            problems.append(f"{hole} holds a peg of side {v}, which is not in play")
            continue
        kind, side, n = Layout.parse_id(hole)
        if kind == "M":
            tokens[v].append(f"M{n}")
        elif kind == "H":
            if side != v:
                problems.append(f"{hole} holds a side {v} peg, but it is side {side}'s home")
                continue
            tokens[v].append(f"H{n}")
        else:
            if side != v:
                notes.append(f"{hole}: a side {v} peg in side {side}'s start area, counted as in start")
            tokens[v].append("S")
    for s in sides:
        have = len(tokens[s])
        if have < pegs_per_side and assume_start:
            notes.append(f"side {s}: {pegs_per_side - have} peg(s) not on the board, assumed in start")
            tokens[s] += ["S"] * (pegs_per_side - have)
        elif have != pegs_per_side:
            problems.append(f"side {s} shows {have} pegs, expected {pegs_per_side}")
        tokens[s].sort(key=_sort_key)
    return {str(s): tokens[s] for s in sides}, problems, notes


def settle_by_count(reading, layout: Layout | None, sides, pegs_per_side: int | None = None,
                    min_confidence: float = 0.8) -> tuple[dict, dict]:
    """(labels, settled): the holes not read surely (below ``min_confidence``, or unknown)
    settled by the peg count, where the picture allows exactly one way to give every side in
    play its ``pegs_per_side`` pegs (a side two pegs short and two holes each "empty or that
    side" settle; a hole "side 1 or side 7" with both a peg short does not). ``settled``: hole
    -> label given; empty (and ``labels`` the reading's own) where they can't be settled: a hand
    over the board, more than MAX_SETTLED such holes, one the picture says nothing of (covered,
    out of view: no candidates), or no single way. Each hole's candidates come from its own look
    (``BoardReading.candidates``); every other hole is taken as read, so a position settled this
    way rests on the sure holes being right (over the 96 position pictures of the path-traced sets
    bench6-10 and the committed one, one hole read wrongly with confidence 0.8 or more, in a set-up
    whose calibration is refused) and on the rules engine's check after; so it never empties a hole
    that looks like a side's peg next to a sure one of that side (``_emptied_beside_its_like``).
    Without ``layout`` (the holes' neighbours) nothing is settled."""
    labels = dict(reading.labels)
    unsure = [h for h, v in labels.items() if v == UNKNOWN or reading.confidence.get(h, 0.0) < min_confidence]
    if not unsure or len(unsure) > MAX_SETTLED or reading.foreground >= PATCH_POINTS:
        return labels, {}
    cands = [reading.candidates.get(h) for h in unsure]
    if any(c is None for c in cands):
        return labels, {}
    sides = sorted(int(s) for s in sides)
    if pegs_per_side is None:
        if layout is None:
            raise ValueError("settle_by_count needs the layout or the pegs per side")
        pegs_per_side = layout.start_holes
    need = dict.fromkeys(sides, pegs_per_side)
    for h, v in labels.items():
        if h in unsure or v < 0:
            continue
        if v not in need:
            return labels, {}
        need[v] -= 1
    if any(n < 0 for n in need.values()):
        return labels, {}
    found = None
    for combo in itertools.product(*cands):
        if any(v >= 0 and v not in need for v in combo):
            continue
        if all(sum(1 for v in combo if v == s) == n for s, n in need.items()):
            if found is not None:
                return labels, {}          # two ways: the count can't say which
            found = combo
    if found is None:
        return labels, {}
    settled = dict(zip(unsure, found))
    if layout is None or _emptied_beside_its_like(reading, layout, settled, min_confidence):
        return labels, {}
    labels.update(settled)
    return labels, settled


def _emptied_beside_its_like(reading, layout: Layout, settled: dict, min_confidence: float) -> bool:
    """The count empties a hole that looks like side s's peg next to (``BESIDE``) a hole read surely as s: it
    says s has a peg too many among look-alike neighbours, not which one is wrong, and the sure
    one may be (fingers over three holes read as three white heads, one of them surely:
    bench12's s6-paper; on the path-traced sets no position the count read right did this)."""
    for h, v in settled.items():
        seen = reading.labels.get(h, UNKNOWN)
        if v != EMPTY or seen < 0:
            continue
        x, y = layout.holes[h]
        if any(reading.labels.get(g) == seen and reading.confidence.get(g, 0.0) >= min_confidence
               and math.hypot(gx - x, gy - y) <= BESIDE * layout.pitch
               for g, (gx, gy) in layout.holes.items() if g != h):
            return True
    return False


def position_from_labels(labels: dict, layout: Layout, sides, *, rules="basic", teams=None, to_move=None,
                         pegs_per_side: int | None = None, assume_start: bool = False,
                         check: bool = True) -> tuple[dict, list[str]]:
    """(NOTATION.md position JSON, notes); ReadingError if it can't be one.

    ``teams``: None (T1 with two teams), a number of teams, or lists of sides.
    ``to_move``: default the first side in play. ``check`` runs the rules engine's
    own reader over the result, so an impossible position is refused here.
    """
    sides = sorted(int(s) for s in sides)
    pegs, problems, notes = tokens_from_labels(labels, layout, sides, pegs_per_side, assume_start)
    if problems:
        raise ReadingError(problems)
    if teams is None or isinstance(teams, int):
        teams = default_teams(layout, sides, teams)
    to_move = sides[0] if to_move is None else int(to_move)
    data = {"format": FORMAT, "rules": rules, "sides": layout.sides, "teams": [list(t) for t in teams],
            "pegs": pegs, "to_move": to_move}
    if check:
        from companion.notation import position_from_json
        try:
            position_from_json(data)
        except ValueError as exc:          # PositionError: the message names the problem
            raise ReadingError([str(exc)]) from None
    return data, notes


def labels_from_position(data: dict, layout: Layout) -> dict:
    """hole -> side for a NOTATION.md position (``S`` pegs fill the start holes in order)."""
    out = {}
    for key, toks in data["pegs"].items():
        side = int(key)
        starts = iter(layout.start_ids(side))
        for t in toks:
            if t == "S":
                hole = next(starts, None)
                if hole is None:
                    raise ValueError(f"side {side} has more pegs in start than its {layout.start_holes} start holes")
            elif t[:1] == "M":
                hole = t
            elif t[:1] == "H":
                hole = f"{t}-s{side}"
            else:
                raise ValueError(f"bad hole token {t!r}")
            if hole not in layout.holes:
                raise ValueError(f"{t} (side {side}) is not a hole of this board ({layout.describe()})")
            if hole in out:
                raise ValueError(f"two pegs in {hole}")
            out[hole] = side
    return out
