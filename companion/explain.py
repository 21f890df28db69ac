"""Why a well-formed move is illegal: a sentence and the RULES id it breaks.

The referee's words for players ("illegal: an 8 can't move a peg into home,
rule M5"). It reads a Position's fields but never imports `position`, which
imports this module: the layers run board/moves/powers -> explain -> position ->
notation. The move's steps are replayed in order on a copy of the position,
as they would be played, so the first rule a step breaks is the one named.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import START
from .message import Join, Msg, Ref, Said, msg, nmsg, said
from .moves import FREE, SWAP, Move
from .powers import BACK, FWD, OUT, SPLIT, SWAP2

if TYPE_CHECKING:
    from collections.abc import Sequence
    from .families.pegs.position import Position


def explain(pos: Position, move: Move) -> tuple[str, str]:
    rank, kind, steps = move
    geo, L = pos.geo, pos.L
    text = move.text(geo)
    acts = pos.powers[rank]
    kinds = {a[0] for a in acts}
    rules = pos.rules

    if kind == SWAP:
        if SWAP2 not in kinds:
            return said(f"{text}: only a 2 swaps, and only in games that have the swap",
                        msg("only a 2 swaps, and only in games that have the swap")), "V-NC4"
        (c1, a, _), (c2, b, _) = steps
        for c, h in ((c1, a), (c2, b)):
            if not pos.occ[c] >> h & 1:
                return _no_peg(text, c, geo.token(h)), "V-NC4"
        if c1 == c2:
            return said(f"{text}: a swap needs two pegs of different colours",
                        msg("a swap needs two pegs of different colours")), "V-NC4"
        return said(f"{text}: both pegs of a swap must be on the main track",
                    msg("both pegs of a swap must be on the main track")), "V-NC4"
    if kind == FREE:
        if not pos.free_come_out_due():
            return said(f"{text}: no free come-out yet: it comes after counting on the turns before",
                        msg("no free come-out yet: it comes after counting on the turns before")), "V-NC7"
        c, s, d = steps[0]
        if s != START or d != geo.come_out[c] or c not in pos.controlled():
            return said(f"{text}: the free come-out brings one of your pegs from start to its come-out hole",
                        msg("the free come-out brings one of your pegs from start to its come-out hole")), "V-NC7"
        return said(f"{text}: the free come-out lands on the come-out hole, and any hit there must be legal",
                    msg("the free come-out lands on the come-out hole, and any hit there must be legal")), "R2"
    split_acts = [a for a in acts if a[0] == SPLIT]
    if len(steps) == 2 and not split_acts:
        return said(f"{text}: a {rank} can't be split between two pegs",
                    msg("%(card)s can't be split between two pegs", card=Ref("a rank", rank))), "M9"
    if len(steps) == 1 and split_acts and not (kinds - {SPLIT}):
        return said(f"{text}: a {rank} must be split between two different pegs",
                    msg("%(card)s must be split between two different pegs", card=Ref("a rank", rank))), "V-NC6"

    occ, start = pos.occ[:], pos.start[:]
    side = pos.to_move
    team = pos.team_of[side]
    any_pegs = rules.ten == "split" and rank == "10"
    cols = pos.controlled(side)
    moved = None
    for i, (c, s, d) in enumerate(steps):
        if i == 1:
            if rules.split_hand_over:
                cols = pos.controlled(side, occ, start)  # R11
            if moved is not None and c == steps[0][0] and s == moved:
                return said(f"{text}: a split moves two different pegs", msg("a split moves two different pegs")), "M9"
        # whose peg
        opponent = pos.team_of[c] != team
        if any_pegs:
            if opponent and s >= L:
                return said(f"{text}: pegs in home are safe from other teams",
                            msg("pegs in home are safe from other teams")), "M8"
        elif rank == "JK" and rules.joker == "pegoo" and d == START:
            if not opponent:
                return said(f"{text}: the joker sends only another team's peg back to start",
                            msg("the joker sends only another team's peg back to start")), "R14"
        elif c not in cols:
            if pos.team_of[c] == team and not rules.team_pegs:
                return said(f"{text}: you move your partner's pegs only once all your own are home, "
                            f"and then the next partner's with pegs out",
                            msg("you move your partner's pegs only once all your own are home, and then "
                                "the next partner's with pegs out")), "P8"
            who = "your team's pegs" if rules.team_pegs else "your own pegs"
            reason = (msg("that's %(name)s's peg: you may move only your team's pegs", name=Ref("owner", c))
                      if rules.team_pegs else
                      msg("that's %(name)s's peg: you may move only your own", name=Ref("owner", c)))
            return said(f"{text}: you may move only {who}; side {c} is not yours to move", reason), "P8"
        # where from
        if s == START:
            if not start[c]:
                return _no_peg_in_start(text, c), "M6"
        elif not occ[c] >> s & 1:
            return _no_peg(text, c, geo.token(s)), "M1"
        # what the card allows
        if rank == "JK":
            if rules.joker == "pegoo" and s == d:
                return said(f"{text}: the peg already stands on its in-spot: that is no move",
                            msg("the peg already stands on its in-spot: that is no move")), "R14"
            if d != START and occ[c] >> d & 1:
                return _own_colour(text), "M2"
            refused = _joker_reason(pos, occ, start, c, s, d, text, team)
            if refused:
                return refused
        elif s == START:
            if OUT not in kinds:
                return said(f"{text}: only an A, J, Q, K or joker brings a peg out of start",
                            msg("only an ace, jack, queen, king or joker brings a peg out of start")), "M6"
            if d != geo.come_out[c]:
                hole = geo.token(geo.come_out[c])
                return said(f"{text}: a peg comes out on its come-out hole {hole}",
                            msg("a peg comes out on its come-out hole, %(hole)s", hole=Ref("hole", hole))), "M6"
        else:
            refused = _count_reason(pos, occ, c, s, d, text, rank, acts, len(steps), opponent and any_pegs)
            if refused:
                return refused
        # landing, hits and chains
        if d != START and occ[c] >> d & 1:
            return _own_colour(text), "M2"
        if d != START and d < L:
            victim = next((v for v in pos.colours if v != c and occ[v] >> d & 1), None)
        else:
            victim = None
        final = pos._apply_step(occ, start, c, s, d, team)
        if final is None:
            if victim is not None and pos.team_of[victim] == team and d == geo.in_spot[victim]:
                return said(f"{text}: that peg of side {victim} stands on its own in-spot, so a "
                            f"teammate can't land on it",
                            msg("that peg of %(who)s stands on its own in-spot, so a teammate can't land on it",
                                who=Ref("side", victim))), "R8"
            return said(f"{text}: the hit would send a teammate's peg to its in-spot, which already "
                        f"holds a peg of that colour",
                        msg("the hit would send a teammate's peg to its in-spot, which already holds a "
                            "peg of that colour")), "M7"
        moved = final
    if len(steps) == 2:
        total = sum(a[1] for a in split_acts)
        return said(f"{text}: the two parts must add up to the card's {total}",
                    msg("the two parts must add up to the card's %(total)s", total=total)), "M1"
    return said(f"{text} is not a legal {rank} here: the count must be used in full, without "
                f"passing a peg of the same colour, and any hit must be legal",
                msg("that move is not legal for %(card)s here: the count must be used in full, without "
                    "passing a peg of the same colour, and any hit must be legal",
                    card=Ref("a rank", rank))), "M1"


def _count_reason(pos: Position, occ: Sequence[int], c: int, s: int, d: int, text: str, rank: str,
                  acts: Sequence[tuple[Any, ...]], nsteps: int, other_team: bool) -> tuple[str, str] | None:
    """Is s -> d a distance the card allows, along a clear path?"""
    geo, L = pos.geo, pos.L
    if s >= L:
        if d < L:
            return said(f"{text}: a peg in home never leaves it", msg("a peg in home never leaves it")), "M4"
        if d <= s:
            return said(f"{text}: a peg in home moves forward only", msg("a peg in home moves forward only")), "M4"
    if nsteps == 1:
        counts = [(a[0], a[1]) for a in acts if a[0] in (FWD, BACK)]
    else:
        n = max(a[1] for a in acts if a[0] == SPLIT)
        dirs = {x for a in acts if a[0] == SPLIT for pair in a[2] for x in pair}
        counts = [(FWD if dd == "F" else BACK, k) for dd in dirs for k in range(1, n)]
    table = geo.forward_main if other_team else geo.forward[c]
    blocked = None
    for kind, k in counts:
        opts = table[s][k] if kind == FWD else geo.backward[s][k]
        for dst, path in opts:
            if dst == d:
                if occ[c] & path & ~(1 << d):
                    blocked = kind
                    continue
                return None
    if blocked:
        return said(f"{text}: a peg can't pass over a peg of its own colour",
                    msg("a peg can't pass over a peg of its own colour")), "M2"
    if d >= L and any(kind == BACK for kind, _ in counts) and s < L:
        if not any(kind == FWD for kind, _ in counts) or rank == "8":
            return said(f"{text}: a backward move never enters home (no backing in)",
                        msg("a backward move never enters home (no backing in)")), "M5"
    if d >= L and other_team:
        return said(f"{text}: a peg moved by another team never turns into its home",
                    msg("a peg moved by another team never turns into its home")), "R7"
    if d < L and pos.rules.must_turn_in and s < L:
        ahead = (geo.in_spot[c] - s) % L
        if any(kind == FWD and ahead < k for kind, k in counts):
            return said(f"{text}: a peg may not pass its own in-spot: it must turn into home",
                        msg("a peg may not pass its own in-spot: it must turn into home")), "V-KP2"
    if d >= L and s < L:
        return said(f"{text}: the full count must fit: that many steps don't end in that home hole",
                    msg("the full count must fit: that many steps don't end in that home hole")), "M1"
    allowed = sorted({k for kind, k in counts})
    return said(f"{text}: a {rank} moves {', '.join(map(str, allowed))} here, and the count must be used in full",
                _count_rule(rank, acts)), "M1"


def _joker_reason(pos: Position, occ: Sequence[int], start: Sequence[int], c: int, s: int, d: int, text: str,
                  team: int) -> tuple[str, str] | None:
    geo, L, rules = pos.geo, pos.L, pos.rules
    if s != START and s >= L:
        return said(f"{text}: a peg in home can't be moved by a joker",
                    msg("a peg in home can't be moved by a joker")), "P6"
    if rules.joker == "pegoo":
        if d == START:
            return None
        if d != geo.in_spot[c]:
            spot = geo.token(geo.in_spot[c])
            return said(f"{text}: the Pegoo joker takes your own peg to its in-spot {spot}",
                        msg("the Pegoo joker takes your own peg to its in-spot, %(hole)s",
                            hole=Ref("hole", spot))), "V-PG"
        if s == d:
            return said(f"{text}: the peg already stands on its in-spot",
                        msg("the peg already stands on its in-spot")), "R14"
        return None
    if rules.start_jokers and s == START and d == geo.come_out[c]:
        return None
    if rules.joker == "arizona" and s != START and any(start[t] for t in pos.teams[team]):
        return said(f"{text}: while your team has a peg in start, the joker must bring one out",
                    msg("while your team has a peg in start, the joker must bring one out")), "R15"
    if d >= L or not any(v != c and occ[v] >> d & 1 for v in pos.colours):
        return said(f"{text}: the joker goes straight to a main-track hole holding another colour's peg",
                    msg("the joker goes straight to a main-track hole holding another colour's peg")), "P6"
    return None


def _no_peg(text: str, c: int, token: str) -> Said:
    return said(f"{text}: side {c} has no peg on {token}",
                msg("%(who)s has no peg on %(hole)s", who=Ref("side", c), hole=Ref("hole", token)))


def _no_peg_in_start(text: str, c: int) -> Said:
    return said(f"{text}: side {c} has no peg in start", msg("%(who)s has no peg in start", who=Ref("side", c)))


def _own_colour(text: str) -> Said:
    return said(f"{text}: a peg can't land on a peg of its own colour", msg("a peg can't land on a peg of its own colour"))


def _count_rule(rank: str, acts: Sequence[tuple[Any, ...]]) -> Msg:
    """"a 7 moves a peg 7 forward, and the whole count must be used" (the card's counts)."""
    dirs = [nmsg("%(n)s forward", "%(n)s forward", n) if k == FWD else nmsg("%(n)s backward", "%(n)s backward", n)
            for k, n, _ in acts if k in (FWD, BACK)]
    if not dirs:
        return msg("%(card)s moves a peg by its count, and the whole count must be used", card=Ref("a rank", rank))
    return msg("%(card)s moves a peg %(counts)s, and the whole count must be used", card=Ref("a rank", rank),
               counts=Join(dirs, "or"))
