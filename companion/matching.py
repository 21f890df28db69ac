"""Matching what the board shows to the legal moves (the physical-board referee).

Pure: no hardware, no clock of its own. The sensors speak in hole ids:

* ``M12``: main-track hole 12;
* ``H3-s2``: home hole 3 of side 2;
* ``S-s2-1`` .. ``S-s2-5``: the start holes of side 2 (pegs there are
  interchangeable, so only how many are filled matters).

Reed switches give occupancy only, as events ``(hole, occupied, time)``; a
camera gives snapshots ``{hole: colour side or None}``. Once a card is
chosen the referee knows its legal moves; `BoardFollower` collects the
board's changes, waits until the board has settled (no change for
``settle`` seconds) and then judges: exactly one legal move, a legal result
needing a choice on the phone (ambiguous), or a wrong placement (with the
RULES id and how to put it right). Nothing that is not a settled legal
result is ever taken as a move: a hand over the board, a knocked peg put
back, switch bounce all settle back to "unchanged".
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import PositionError
from .board import START
from .hits import hits
from .message import msg, said
from .moves import FORCE, GIVE, MOVE, SWAP, Move

if TYPE_CHECKING:
    from .board import Geometry
    from .moves import Steps
    from .state import PegState

Pegs = Mapping[int, Sequence[int]]   # {side: [locations]}, as `PegState.pegs` gives them
Event = tuple[str, bool, float]      # (hole id, occupied, time): a switch's report
HitReturn = tuple[int, str, str]     # (colour, from hole, to hole or "start")
AddStage = Callable[..., None]       # add(occupancy, **Stage fields)

# ------------------------------------------------------------------ hole ids


def hole_id(geo: Geometry, side: int, loc: int, start_index: int = 1) -> str:
    """The sensor id of a location of colour `side`."""
    if loc == START:
        return f"S-s{side}-{start_index}"
    if loc < geo.length:
        return f"M{loc}"
    return f"H{loc - geo.length + 1}-s{side}"


def parse_hole_id(geo: Geometry, hole: str) -> tuple[str, int | None, int]:
    """(kind, side or None, loc or index): ('M', None, n) / ('H', side, loc) / ('S', side, i)."""
    try:
        if hole.startswith("M"):
            n = int(hole[1:])
            if 0 <= n < geo.length:
                return "M", None, n
        elif hole.startswith("H"):
            k_text, s_text = hole[1:].split("-s")
            k, s = int(k_text), int(s_text)
            if 1 <= k <= 5 and 0 <= s < geo.sides:
                return "H", s, geo.length + k - 1
        elif hole.startswith("S-s"):
            s_text, i_text = hole[3:].split("-")
            s, i = int(s_text), int(i_text)
            if 0 <= s < geo.sides and i >= 1:
                return "S", s, i
    except ValueError:
        pass
    raise PositionError(f"unknown hole id {hole!r}")


def all_holes(geo: Geometry, sides: Iterable[int], pegs_per_side: int = 5) -> list[str]:
    """Every hole id of a board whose occupied sides are `sides`."""
    out = [f"M{n}" for n in range(geo.length)]
    for s in sides:
        out += [f"H{k}-s{s}" for k in range(1, geo.home_size + 1)]   # 5, or 4 (TK-G4)
        out += [f"S-s{s}-{i}" for i in range(1, pegs_per_side + 1)]
    return out


# ---------------------------------------------------------------- occupancy

@dataclass(frozen=True)
class Occupancy:
    """What occupancy sensing can know: filled holes, and start counts."""
    track: frozenset[str]     # filled main and home hole ids
    start: tuple[int, ...]    # pegs in start, per side (0 for unused sides)

    def differences(self, other: "Occupancy") -> dict[str, Any]:
        """Holes to empty and to fill to turn `self` into `other`."""
        out: dict[str, Any] = {"empty": sorted(self.track - other.track), "fill": sorted(other.track - self.track),
               "start": {}}
        for s, (a, b) in enumerate(zip(self.start, other.start)):
            if a != b:
                out["start"][s] = b - a
        return out


def occupancy_of_pegs(pos: PegState, pegs: Pegs) -> Occupancy:
    geo = pos.geo
    track: set[str] = set()
    start = [0] * pos.sides
    for side, locs in pegs.items():
        for loc in locs:
            if loc == START:
                start[side] += 1
            else:
                track.add(hole_id(geo, side, loc))
    return Occupancy(frozenset(track), tuple(start))


def occupancy_from_holes(pos: PegState, filled: Iterable[str]) -> Occupancy:
    """An Occupancy from the set of filled hole ids a sensor reports."""
    geo = pos.geo
    track: set[str] = set()
    start = [0] * pos.sides
    for hole in filled:
        kind, side, _ = parse_hole_id(geo, hole)
        if kind == "S":
            assert side is not None  # a start hole names its side
            start[side] += 1
        else:
            track.add(hole)
    return Occupancy(frozenset(track), tuple(start))


def board_of_pegs(pos: PegState, pegs: Pegs) -> dict[str, int]:
    """{hole id: colour side} of every peg of `pegs`, start pegs in the lowest start holes."""
    out: dict[str, int] = {}
    for side, locs in pegs.items():
        k = 0
        for loc in locs:
            if loc == START:
                k += 1
            out[hole_id(pos.geo, side, loc, k)] = side
    return out


def colours_of_pegs(pos: PegState, pegs: Pegs) -> dict[str, int]:
    """{track hole id: colour side} for the pegs on the main track and in home."""
    out: dict[str, int] = {}
    for side, locs in pegs.items():
        for loc in locs:
            if loc != START:
                out[hole_id(pos.geo, side, loc)] = side
    return out


# ------------------------------------------------------------------ verdicts

@dataclass
class Verdict:
    """The referee's judgement of a settled board."""
    kind: str                 # "move", "ambiguous", "unchanged", "wrong"
    move: Move | None = None
    candidates: list[Move] = field(default_factory=list)
    message: str = ""
    rule: str | None = None
    fix: dict[str, Any] = field(default_factory=dict)   # {"empty": [...], "fill": [...], "start": {side: +-n}}
    wrong_holes: list[str] = field(default_factory=list)
    fix_colours: dict[str, int] = field(default_factory=dict)   # {track hole: side} of the board the fix leads to
    colours: dict[str, int] = field(default_factory=dict)       # {hole: side} of pegs known to stand in wrong holes


def _peg_moves(moves: Iterable[Move]) -> list[Move]:
    """The moves a board can show: a discard, a force or a passed card (RG-N3) moves no peg."""
    return [m for m in moves if m.steps and m.kind not in (FORCE, GIVE)]


def _expected(pos: PegState, moves: Iterable[Move]) -> list[tuple[Move, dict[int, list[int]], Occupancy]]:
    """[(move, pegs after, Occupancy after)] for the candidate moves."""
    out = []
    for move in moves:
        pegs = pos.result_of(move)
        out.append((move, pegs, occupancy_of_pegs(pos, pegs)))
    return out


def _could_produce(pos: PegState, pegs_after: Pegs, events: Sequence[Event]) -> bool:
    """Could the lifts and placements, in their order, have made `pegs_after`?

    Pegs in the player's hand are tracked by colour; every placement whose
    colour is known (a start hole's own colour, or the final colour of the
    last placement in a track hole) must take a peg of that colour from the
    hand. Tells apart moves that leave the same occupancy with different
    colours (an Arizona split of two colours, a North Carolina 10).
    """
    geo = pos.geo
    current: dict[str, int | None] = dict(colours_of_pegs(pos, pos.pegs()))
    final = colours_of_pegs(pos, pegs_after)
    last_place: dict[str, int] = {}
    for i, (hole, occupied, _) in enumerate(events):
        if occupied:
            last_place[hole] = i
    hand: dict[int, int] = {}
    unknown = 0
    for i, (hole, occupied, _) in enumerate(events):
        kind, side, _ = parse_hole_id(geo, hole)
        if not occupied:
            colour = side if kind == "S" else current.pop(hole, None)
            if colour is None:
                unknown += 1
            else:
                hand[colour] = hand.get(colour, 0) + 1
            continue
        if kind == "S":
            colour = side
        elif last_place[hole] == i:
            colour = final.get(hole)
        else:
            colour = None
        if colour is None:
            if kind != "S":
                current[hole] = None
            continue
        if hand.get(colour, 0):
            hand[colour] -= 1
        elif unknown:
            unknown -= 1
        else:
            return False
        if kind != "S":
            current[hole] = colour
    return True


def judge(pos: PegState, moves: Iterable[Move], observed: Occupancy, events: Sequence[Event] = (),
          colours: dict[str, int] | None = None,
          rank: str | None = None) -> Verdict:
    """Judge a settled board against the legal `moves` of the chosen card.

    `observed` is the settled occupancy; `events` the switch events since the
    card was chosen (their order tells pegs apart); `colours` the camera's
    {hole: side} for the track holes, when there is a camera.
    """
    before = occupancy_of_pegs(pos, pos.pegs())
    expected = _expected(pos, _peg_moves(moves))
    if observed == before and (colours is None or colours == colours_of_pegs(pos, pos.pegs())):
        # Some moves leave the occupancy as it was (a swap, V-NC4; a hit whose
        # chain refills the hole just left, M7): they show only in the lifts.
        lifted = {h for h, occupied, _ in events if not occupied}
        quiet = [(m, p) for m, p, occ in expected if occ == before and all(
            hole_id(pos.geo, c, s) in lifted for c, s, _ in m.steps if s != START)]
        if not quiet:
            return Verdict("unchanged", message="the board is as it was")
        return _decide(pos, quiet, events)
    hits = [(m, p) for m, p, occ in expected if occ == observed]
    if colours is not None:
        hits = [(m, p) for m, p in hits if colours_of_pegs(pos, p) == colours]
    if hits:
        return _decide(pos, hits, events)
    return _wrong(pos, expected, before, observed, events, rank)


def _decide(pos: PegState, hits: list[tuple[Move, dict[int, list[int]]]], events: Sequence[Event]) -> Verdict:
    """One move, or several that the event order may tell apart."""
    if len(hits) > 1 and events:
        narrowed = [(m, p) for m, p in hits if _could_produce(pos, p, events)]
        if narrowed:
            hits = narrowed
    if len(hits) == 1:
        return Verdict("move", move=hits[0][0], candidates=[hits[0][0]])
    return Verdict("ambiguous", candidates=[m for m, _ in hits],
                   message="the board fits " + " or ".join(m.text(pos.geo) for m, _ in hits)
                   + ": choose on the phone")


def _wrong(pos: PegState, expected: list[tuple[Move, dict[int, list[int]], Occupancy]], before: Occupancy,
           observed: Occupancy, events: Sequence[Event], rank: str | None) -> Verdict:
    """Say what is wrong with a settled board that fits no legal move."""
    geo = pos.geo
    fix_back = observed.differences(before)
    # The nearest legal result: fewest holes to change.
    best: tuple[int, Move, dict[str, Any]] | None = None
    for move, _, occ in expected:
        d = observed.differences(occ)
        cost = len(d["empty"]) + len(d["fill"]) + sum(abs(v) for v in d["start"].values())
        if best is None or cost < best[0]:
            best = (cost, move, d)
    placed = sorted(observed.track - before.track)
    lifted = sorted(before.track - observed.track)
    message: str = ""
    rule: str | None = None
    # One peg moved: ask the engine why that move is illegal, for the rule id.
    if len(lifted) == 1 and len(placed) == 1 and rank is not None:
        s_kind, s_side, s_loc = parse_hole_id(geo, lifted[0])
        d_kind, d_side, d_loc = parse_hole_id(geo, placed[0])
        colour = colours_of_pegs(pos, pos.pegs()).get(lifted[0])
        if colour is not None:
            src = s_loc
            dst = d_loc if d_kind == "M" or d_side == colour else None
            if dst is not None:
                tried = Move(rank, MOVE, ((colour, src, dst),))
                message, rule = pos.explain_illegal(tried)
            else:
                message, rule = (said(f"{placed[0]} is another colour's home: no peg may enter a home "
                                      f"but its own", msg("that hole is in another colour's home: no peg "
                                                          "may enter a home but its own")), "G4")
    elif len(placed) == 1 and not lifted and sum(observed.start) < sum(before.start):
        s = next(i for i, (a, b) in enumerate(zip(before.start, observed.start)) if b < a)
        dst_kind, _, dst_loc = parse_hole_id(geo, placed[0])
        if rank is not None and dst_kind == "M":
            message, rule = pos.explain_illegal(Move(rank, MOVE, ((s, START, dst_loc),)))
    if not message:
        message, rule = (said("that is not a legal result of the card played; put the pegs back "
                              "as shown, or as one of the legal moves",
                              msg("that is not a legal result of the card played; put the pegs back as "
                                  "shown, or as one of the legal moves")), "M1")
    near = best is not None and best[0] <= 2
    fix = best[2] if best is not None and near else fix_back
    target = pos.result_of(best[1]) if best is not None and near else pos.pegs()
    known: dict[str, int] = {}
    if len(lifted) == 1 and len(placed) == 1:   # one peg moved: the one now in the wrong hole
        colour = colours_of_pegs(pos, pos.pegs()).get(lifted[0])
        if colour is not None:
            known[placed[0]] = colour
    elif len(placed) == 1 and not lifted and sum(observed.start) < sum(before.start):
        known[placed[0]] = next(i for i, (a, b) in enumerate(zip(before.start, observed.start)) if b < a)
    return Verdict("wrong", message=message, rule=rule, fix=fix,
                   wrong_holes=placed or lifted, fix_colours=colours_of_pegs(pos, target), colours=known)


# ---------------------------------------------------------------- guidance

def guidance(pos: PegState, moves: Iterable[Move], lifted: str | None = None) -> dict[str, list[str]]:
    """LED roles for the chosen card: pegs that can move and where they may go.

    With a peg lifted, only that peg's destinations. Returns hole id lists:
    {"can_move": [...], "destination": [...]}.
    """
    geo = pos.geo
    can_move: set[str] = set()
    dest: set[str] = set()
    for move in _peg_moves(moves):  # a discard or a force moves nothing
        steps = move.steps
        c, s, d = steps[0]
        src = hole_id(geo, c, s) if s != START else None
        if lifted is not None:
            if src != lifted:
                continue
        if src is not None:
            can_move.add(src)
        else:
            can_move.update(f"S-s{c}-{i}" for i in range(1, pos.start[c] + 1))
        if d != START:
            dest.add(hole_id(geo, c, d))
    return {"can_move": sorted(can_move), "destination": sorted(dest)}


def hit_returns(pos: PegState, move: Move) -> list[HitReturn]:
    """Where pegs hit by `move` must be put: [(colour, from hole, to hole or 'start')].

    Step by step (M9: a split's first part hits before the second is made), so a
    chain that hits a peg of the moving colour (R9) is listed too."""
    geo = pos.geo
    return [(c, hole_id(geo, c, s), "start" if d == START else hole_id(geo, c, d))
            for c, s, d in hits(pos, move, by_step=True)]


def setup_check(pos: PegState, observed: Occupancy) -> dict[str, Any]:
    """Differences between the board and the stored position (start, recovery)."""
    expected = occupancy_of_pegs(pos, pos.pegs())
    return observed.differences(expected)


# ------------------------------------------------------------------ stages

@dataclass
class Stage:
    """What to light when the board shows one step on the way to a legal move.

    Hole ids as everywhere; a start area is ``"S-s<side>"`` (its pegs are
    interchangeable, so which start hole is for the caller to pick).
    """
    can_move: set[str] = field(default_factory=set)      # pegs to move next
    selected: set[str] = field(default_factory=set)      # where the peg in the hand came from
    destination: set[str] = field(default_factory=set)   # where it may go
    hits: list[HitReturn] = field(default_factory=list)        # [(colour, from, to hole or "start")] still to put
    placed: bool = False      # the mover's peg is down; only the hit pegs are missing
    done: bool = False        # the board shows a legal result (judged once settled)

    def merge(self, other: "Stage") -> None:
        self.can_move |= other.can_move
        self.selected |= other.selected
        self.destination |= other.destination
        self.hits += [h for h in other.hits if h not in self.hits]
        self.placed = self.placed or other.placed
        self.done = self.done or other.done


def _take(occ: Occupancy, holes: Iterable[str]) -> Occupancy:
    """`occ` with the pegs in `holes` (hole ids or "S-s<side>") lifted off the board."""
    track, start = set(occ.track), list(occ.start)
    for hole in holes:
        if hole.startswith("S-s"):
            side = int(hole[3:].split("-")[0])
            start[side] -= 1
        else:
            track.discard(hole)
    return Occupancy(frozenset(track), tuple(start))


def _start_ref(geo: Geometry, colour: int, loc: int) -> str:
    return f"S-s{colour}" if loc == START else hole_id(geo, colour, loc)


def _return_hole(ret: HitReturn) -> str:
    colour, _, to = ret
    return f"S-s{colour}" if to == "start" else to


def _orders(pos: PegState, move: Move) -> list[Steps]:
    """The orders a person may make the steps in: as listed, and reversed when that
    order is possible too and ends the same (RULES M9: the player chooses the order)."""
    steps = move.steps
    out = [steps]
    if hasattr(pos, "rg_powers"):
        return _related_orders(pos, move) if len(steps) >= 2 else out
    if len(steps) == 2:
        rev = steps[::-1]
        q = pos.copy()
        for c, s, d in rev:
            if s == START and not q.start[c] or s != START and not q.occ[c] >> s & 1:
                return out
            q.apply(Move(move.rank, move.kind, ((c, s, d),)), pos.to_move)
        r = pos.copy()
        r.apply(move, pos.to_move)
        if q.occ == r.occ and q.start == r.start:
            out.append(rev)
    return out


MAX_CHAINS = 3   # a 7 over more marbles is followed in its written order only


def _chains(steps: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """A 7's parts joined into one walk per marble (a part that starts where an earlier part
    of its colour ended continues that marble: CB-P2's steps need not be consecutive)."""
    chains: list[tuple[int, int, int]] = []
    for c, s, d in steps:
        for i, (c2, s2, d2) in enumerate(chains):
            if c2 == c and d2 == s:
                chains[i] = (c, s2, d)
                break
        else:
            chains.append((c, s, d))
    return chains


def _related_orders(pos: PegState, move: Move) -> list[Steps]:
    """Tock, Carbles, Jackaroo: a 7 in parts (JR-P4, CB-P2) may be made marble by marble in
    any order that is legal when made and ends the same (each order is checked by the engine:
    a hit or a block on the way may depend on it)."""
    steps = move.steps
    out = [steps]
    chains = _chains(steps)
    if len(chains) > MAX_CHAINS:
        return out
    want: dict[int, list[int]] | None = None
    for perm in itertools.permutations(chains):
        if perm == steps or perm in out:
            continue
        other = Move(move.rank, move.kind, perm)
        try:
            pos.check_move(other)
        except ValueError:
            continue
        if want is None:
            want = pos.result_of(move)
        if pos.result_of(other) == want:
            out.append(perm)
    return out


def _hits_something(pos: PegState, colour: int, dst: int) -> bool:
    """Does a peg landing on `dst` hit a peg of another colour there (M7)?"""
    if dst >= pos.geo.length:
        return False
    return any(pos.occ[x] >> dst & 1 for x in pos.colours if x != colour)


def _put(occ: Occupancy, holes: Iterable[str]) -> Occupancy:
    """`occ` with pegs put into `holes` (hole ids or "S-s<side>")."""
    track, start = set(occ.track), list(occ.start)
    for hole in holes:
        if hole.startswith("S-s"):
            start[int(hole[3:].split("-")[0])] += 1
        else:
            track.add(hole)
    return Occupancy(frozenset(track), tuple(start))


def _step_stages(add: AddStage, geo: Geometry, base: Occupancy, src: str, dst: str, returns: list[HitReturn], last: bool,
                 passed: bool = False) -> None:
    """The boards on the way through one step: the moving peg and each peg it hits is
    still in its hole, in a hand, or in the hole it goes to, in any order a person
    can manage (a peg goes into a hole only once the peg there has left it). `passed`:
    the hits show as soon as the moving peg is lifted when one of them is not where it
    lands (a peg passed over: JR-P8's king, CB-P2's steps), so the player sees which."""
    pieces = [(src, dst)] + [(r[1], _return_hole(r)) for r in returns]
    origins = {frm: i for i, (frm, _) in enumerate(pieces) if not frm.startswith("S-s")}
    n = len(pieces)
    for states in itertools.product((0, 1, 2), repeat=n):   # 0 in its hole, 1 in a hand, 2 put
        if all(x == 2 for x in states):
            continue   # the step done: the next step's start, or the result
        ok = True
        for i, x in enumerate(states):
            if x == 2 and not pieces[i][1].startswith("S-s"):
                j = origins.get(pieces[i][1])
                if (j is not None and states[j] == 0) or (j is None and pieces[i][1] in base.track):
                    ok = False
                    break
        if not ok:
            continue
        occ = _put(_take(base, [p[0] for p, x in zip(pieces, states) if x]),
                   [p[1] for p, x in zip(pieces, states) if x == 2])
        mover = states[0]
        hits_shown = mover == 2 or any(states[1:]) or (
            passed and mover == 1 and any(r[1] != dst for r in returns))
        hits = [r for r, x in zip(returns, states[1:]) if x != 2] if hits_shown else []
        if mover == 0:
            add(occ, can_move={src}, destination={dst}, hits=hits)
        elif mover == 1:
            add(occ, selected={src}, destination={dst}, hits=hits)
        else:
            add(occ, destination={dst}, hits=hits, placed=True)


def _occupancy_fast(q: PegState, names: Mapping[int, Sequence[str]]) -> Occupancy:
    """occupancy_of_pegs(q, q.pegs()) straight from the bit masks (stages' hot path)."""
    track = []
    for c in q.colours:
        m, ids = q.occ[c], names[c]
        while m:
            low = m & -m
            track.append(ids[low.bit_length() - 1])
            m ^= low
    start = [0] * q.sides
    for c in q.colours:
        start[c] = q.start[c]
    return Occupancy(frozenset(track), tuple(start))


def _hole_names(pos: PegState) -> dict[int, list[str]]:
    geo = pos.geo
    return {c: [f"M{i}" for i in range(geo.length)] + [f"H{k}-s{c}" for k in range(1, geo.home_size + 1)]
            for c in pos.colours}


def _move_stages(pos: PegState, move: Move, before: Occupancy, names: Mapping[int, Sequence[str]],
                 add: AddStage) -> None:
    """Add the stages of one move (see `stages`)."""
    geo = pos.geo
    # Tock, Carbles, Jackaroo: a peg may be hit without being landed on by another colour
    # (its own colour, TK-M2; passed over by a king, JR-P8; stepped on by a 7, CB-P2)
    related = hasattr(pos, "rg_powers")
    if move.kind == SWAP:
        (c1, a, _), (c2, b, _) = move.steps
        ha, hb = hole_id(geo, c1, a), hole_id(geo, c2, b)
        add(before, can_move={ha, hb})
        # One hole empty and a peg in the hand is also the swap half made (the other peg
        # already in its new hole): occupancy can't tell, so the empty hole is lit green too.
        add(_take(before, [ha]), selected={ha}, can_move={hb}, destination={ha, hb})
        add(_take(before, [hb]), selected={hb}, can_move={ha}, destination={ha, hb})
        add(_take(before, [ha, hb]), selected={ha, hb}, destination={ha, hb})
        return
    for steps in _orders(pos, move):
        q = pos.copy()
        for k, (c, s, d) in enumerate(steps):
            base = before if k == 0 else _occupancy_fast(q, names)
            step = Move(move.rank, move.kind, ((c, s, d),))
            returns = hit_returns(q, step) if related or _hits_something(q, c, d) else []
            _step_stages(add, geo, base, _start_ref(geo, c, s), hole_id(geo, c, d),
                         returns, k == len(steps) - 1, related)
            q.apply(step, pos.to_move)
            if k == len(steps) - 1:
                add(_occupancy_fast(q, names), destination={hole_id(geo, c, d)}, done=True)


def _adder(table: dict[Occupancy, Stage]) -> AddStage:
    def add(occ: Occupancy, **kw: Any) -> None:
        stage = Stage(**kw)
        if occ in table:
            table[occ].merge(stage)
        else:
            table[occ] = stage
    return add


def stages(pos: PegState, moves: Iterable[Move]) -> dict[Occupancy, Stage]:
    """{Occupancy: Stage} for every board a person passes through while making one of
    `moves` with occupancy sensing: nothing done yet, a peg in the hand, the pegs about
    to be hit lifted first, the mover's peg down with hit pegs still to put back (in
    any order, chains too), a split's first part done, the finished result.

    The referee looks the sensed board up after every switch event to light the next
    step; a board not in the table is off the way (judged once settled). `StageIndex`
    gives the same answers, working out only the moves that touch what changed.
    """
    out: dict[Occupancy, Stage] = {}
    add = _adder(out)
    before = occupancy_of_pegs(pos, pos.pegs())
    names = _hole_names(pos)
    for move in _peg_moves(moves):
        _move_stages(pos, move, before, names, add)
    return out


class StageIndex:
    """`stages` worked out lazily: ``index.get(occupancy)`` expands only the moves whose
    holes (sources, destinations) changed on the board, so a card with a thousand
    moves (a North Carolina 10) costs little when it is chosen. A board reached only
    by lifting pegs a chain will hit, before anything else, is not found (no new
    light; it is still judged once settled)."""

    def __init__(self, pos: PegState, moves: Iterable[Move]) -> None:
        self.pos = pos
        self.moves = _peg_moves(moves)
        self.before = occupancy_of_pegs(pos, pos.pegs())
        self.names = _hole_names(pos)
        related = hasattr(pos, "rg_powers")
        self.table: dict[Occupancy, Stage] = {}
        self._add = _adder(self.table)
        self._expanded: set[int] = set()
        geo = pos.geo
        self.by_hole: dict[str, list[int]] = {}
        first: dict[Occupancy, Stage] = {}
        add_first = _adder(first)
        for i, m in enumerate(self.moves):
            for c, s, d in m.steps:
                for ref in (_start_ref(geo, c, s), hole_id(geo, c, d)):
                    self.by_hole.setdefault(ref, []).append(i)
            if m.kind == SWAP:
                _move_stages(pos, m, self.before, self.names, add_first)
                continue
            for steps in _orders(pos, m) if len(m.steps) == 2 or related else [m.steps]:
                c, s, d = steps[0]
                add_first(self.before, can_move={_start_ref(geo, c, s)}, destination={hole_id(geo, c, d)})
        self.first = first.get(self.before)

    def get(self, occ: Occupancy) -> Stage | None:
        if occ == self.before:
            return self.first
        changed = set(self.before.track ^ occ.track)
        changed.update(f"S-s{side}" for side, (a, b) in enumerate(zip(self.before.start, occ.start)) if a != b)
        for ref in changed:
            for i in self.by_hole.get(ref, ()):
                if i not in self._expanded:
                    self._expanded.add(i)
                    _move_stages(self.pos, self.moves[i], self.before, self.names, self._add)
        return self.table.get(occ)


# ----------------------------------------------------------------- follower

class BoardFollower:
    """Follow switch events after a card is chosen; judge once settled.

    ``feed(hole, occupied, t)`` with each event; ``poll(now)`` returns a
    `Verdict` once the board has been still for ``settle`` seconds since the
    last event, else None. Time comes from the events and the caller.
    """

    def __init__(self, pos: PegState, moves: Iterable[Move], filled: Iterable[str], settle: float = 0.8,
                 rank: str | None = None) -> None:
        self.pos, self.moves, self.rank = pos, _peg_moves(moves), rank
        self.filled = set(filled)
        self.settle = settle
        self.events: list[tuple[str, bool, float]] = []
        self.last_change: float | None = None
        self.lifted: str | None = None  # the first peg lifted, for the LEDs
        self.colours: dict[str, int] | None = None  # {track hole: side} from the camera's last snapshot, if any

    def feed(self, hole: str, occupied: bool, t: float) -> None:
        if occupied:
            if hole in self.filled:
                return  # repeated report: not a change
            self.filled.add(hole)
        else:
            if hole not in self.filled:
                return
            self.filled.discard(hole)
            if self.lifted is None:
                self.lifted = hole
        self.events.append((hole, occupied, t))
        self.last_change = t

    def observe(self, snapshot: Mapping[str, int | None], t: float) -> None:
        """A camera snapshot ``{hole: colour side or None}`` of every hole: its changes are
        fed as lifts then placements at time `t`, and its colours are kept for `judge`
        (they tell apart results that fill the same holes, and show a swap)."""
        filled = {h for h, c in snapshot.items() if c is not None}
        for hole in sorted(self.filled - filled):
            self.feed(hole, False, t)
        for hole in sorted(filled - self.filled):
            self.feed(hole, True, t)
        colours = {h: c for h, c in snapshot.items() if c is not None and not h.startswith("S-")}
        previous = self.colours if self.colours is not None else colours_of_pegs(self.pos, self.pos.pegs())
        if colours != previous:
            self.last_change = t  # a colour changed where occupancy did not (a swap)
        self.colours = colours

    def guidance(self) -> dict[str, list[str]]:
        still_lifted = self.lifted if self.lifted and self.lifted not in self.filled else None
        return guidance(self.pos, self.moves, still_lifted)

    def poll(self, now: float) -> Verdict | None:
        if self.last_change is None or now - self.last_change < self.settle:
            return None
        observed = occupancy_from_holes(self.pos, self.filled)
        verdict = judge(self.pos, self.moves, observed, self.events, colours=self.colours,
                        rank=self.rank)
        self.last_change = None  # judged; a new change starts a new wait
        if verdict.kind == "unchanged":
            self.events.clear()
            self.lifted = None
        return verdict
