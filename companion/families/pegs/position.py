"""The Pegs and Jokers position: its legal move generation (RULES.md and the presets of V).

Moved here unchanged from companion/position.py (issue 24); the peg state it shares with
the Tock family (masks, key, winner, push/pop) is `companion.state.PegState`. Move generation is the hot path (bots, hints, the referee), so positions are
bit masks: ``occ[c]`` holds colour ``c``'s pegs on the main track and in its
own home (see `companion.board`), ``start[c]`` counts its pegs in start.
Paths come from the geometry's precomputed tables; a step with no hit
changes one mask, and only hits (M7) copy the state to play out the chain.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...board import START
from ...errors import PositionError
from ...explain import explain
from ...message import Ref, msg
from ...moves import (DISCARD, FREE, MOVE, SWAP, RANKS, IllegalMoveError, Move,
                      MoveSyntaxError)
from ...powers import B, BACK, FWD, JOKER, OUT, SPLIT, SWAP2, card_powers
from ...rules import Rules
from ...state import PegState, bits as _bits

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from ...board import Options, PathTable

    # (colours the side to move may move, its team, every main-track peg, a free come-out due)
    Context = tuple[list[int], int, int, bool]


@lru_cache(maxsize=None)
def split_ranks(rules: Rules) -> frozenset[str]:
    """Ranks whose moves need de-duplication by end position (R4)."""
    return frozenset(r for r, acts in card_powers(rules).items() if any(a[0] == SPLIT for a in acts))


class Position(PegState):
    """A position of Pegs and Jokers (RULES.md and its presets), with its legal moves.

    The shared peg state, queries and push/pop are `PegState`'s; this class adds
    the Pegs and Jokers move generator, the discard rule and move checking.
    """

    def __init__(self, rules: Rules, sides: int, teams: Iterable[Iterable[int]], occ: Sequence[int],
                 start: Sequence[int], to_move: int, counting: Sequence[int] | None = None) -> None:
        super().__init__(rules, sides, teams, occ, start, to_move, counting)
        self.powers = card_powers(rules)
        self._split_ranks = split_ranks(rules)

    @staticmethod
    def _check_sides(sides: int, pegs: Mapping[int, object]) -> None:
        if sides not in (4, 6, 8, 10):
            raise PositionError(f"sides is {sides}; a board has 4, 6, 8 or 10 sides (G1)")
        occupied = sorted(pegs)
        if occupied != list(range(sides)) and not (sides == 4 and occupied == [0, 2]):
            raise PositionError(
                f"pegs are given for sides {occupied}; expected every side 0-{sides - 1}"
                + (" (or sides 0 and 2 for two players, G1)" if sides == 4 else ""))

    # ---------------------------------------------------------- state helpers
    def _land(self, occ: list[int], start: list[int], col: int, dst: int, team: int) -> int | None:
        """Put a peg of `col` (already lifted) on `dst`, playing out hits (M7).

        Returns the peg's final location (R9: a chain may move it on), or None
        if the landing is illegal.
        """
        bit = 1 << dst
        if occ[col] & bit:
            return None  # M2, R1, R2
        L = self.L
        victim = None
        if dst < L:
            for v in self.colours:
                if occ[v] & bit:
                    victim = v
                    break
        occ[col] |= bit
        final = dst
        hole = dst
        in_spot = self.geo.in_spot
        team_of = self.team_of
        while victim is not None:
            hb = 1 << hole
            if team_of[victim] != team:  # M7: opponent to start
                occ[victim] &= ~hb
                start[victim] += 1
                if victim == col and hole == final:
                    final = START
                break
            t = in_spot[victim]
            tb = 1 << t
            if occ[victim] & tb:  # M7, R8: its in-spot holds its own colour
                return None
            occ[victim] &= ~hb
            if victim == col and hole == final:
                final = t  # R9: the moving peg itself was hit on
            nxt = None
            for w in self.colours:
                if w != victim and occ[w] & tb:
                    nxt = w
                    break
            occ[victim] |= tb
            victim, hole = nxt, t
        return final

    def _apply_step(self, occ: list[int], start: list[int], col: int, src: int, dst: int,
                    team: int) -> int | None:
        """Move one peg src -> dst on the given lists (path already checked)."""
        if src == START:
            start[col] -= 1
        else:
            occ[col] &= ~(1 << src)
        if dst == START:  # Pegoo joker: opponent's peg back to start
            start[col] += 1
            return START
        return self._land(occ, start, col, dst, team)

    # ------------------------------------------------------------- generation
    def legal_moves(self, ranks: Iterable[str] | None = None, dedupe: bool = True) -> Iterator[Move]:
        """Lazily yield the legal moves of the given ranks (all ranks if None).

        Each distinct end position of a rank is yielded once (R4) unless
        ``dedupe`` is false, which yields every legal way (used to check a
        move typed in another order). Discards are not included: see
        `discard_allowed`.
        """
        if self.winner() is not None:
            return  # M10: the game ended at once
        ctx = self._context()
        done = set()
        for rank in (RANKS if ranks is None else ranks):
            if rank in done:
                continue
            done.add(rank)
            yield from self._rank_moves(rank, dedupe, ctx)

    def hand_moves(self, ranks: Iterable[str]) -> tuple[list[Move], bool]:
        """(legal moves of the distinct `ranks`, discard allowed) in one pass.

        The same answers as `legal_moves` and `discard_allowed`, without
        generating anything twice (the bots' and hints' hot path).
        """
        if self.winner() is not None:
            return [], False  # M10
        ctx = self._context()
        moves: list[Move] = []
        nonjoker = free = False
        for rank in ranks:
            n = len(moves)
            moves.extend(self._rank_moves(rank, True, ctx))
            if len(moves) > n:
                if rank != "JK":
                    nonjoker = True
                if ctx[3] and not free:
                    free = any(m[1] == FREE for m in moves[n:])
        if free:
            return moves, False  # R12
        return moves, self.rules.forfeit or not nonjoker

    def _context(self) -> Context:
        side = self.to_move
        return (self.controlled(side), self.team_of[side], self._main_all(self.occ),
                self.free_come_out_due(side))

    def _rank_moves(self, rank: str, dedupe: bool = True, ctx: Context | None = None) -> Iterator[Move]:
        cols, team, main_all, free_due = self._context() if ctx is None else ctx
        occ, start, L = self.occ, self.start, self.L
        acts = self.powers[rank]
        # R4 / NOTATION: one entry per end position. Moves without a hit have
        # distinct results unless a split can repeat them; a hit's chain (M7)
        # can make two moves end alike, so every hit result is keyed.
        splits = dedupe and rank in self._split_ranks
        seen: set[int] | None = set() if dedupe else None
        keys: set[int] = seen if seen is not None else set()  # `seen`, read below only when deduping
        base = self._key(occ, start) if splits else 0
        w = self._width
        new = tuple.__new__
        for kind, n, extra in acts:
            if kind == FWD or kind == BACK:
                for c in cols:
                    o = occ[c]
                    if kind == FWD:
                        table = self.geo.forward[c]
                        locs = o
                    else:
                        table = self.geo.backward
                        locs = o & self.geo.main_mask  # M5
                    while locs:
                        low = locs & -locs
                        x = low.bit_length() - 1
                        locs ^= low
                        for dst, path in table[x][n]:
                            if o & path:
                                continue  # M2
                            if dst < L and main_all >> dst & 1:
                                o2, s2 = occ[:], start[:]
                                if self._apply_step(o2, s2, c, x, dst, team) is None:
                                    continue
                                if dedupe:
                                    k = self._key(o2, s2)
                                    if k in keys:
                                        continue
                                    keys.add(k)
                            elif splits:
                                keys.add(base ^ ((low | (1 << dst)) << (c * w)))
                            yield new(Move, (rank, MOVE, ((c, x, dst),)))
            elif kind == OUT:
                yield from self._come_outs(rank, cols, team, MOVE, seen)
            elif kind == SPLIT:
                yield from self._splits(rank, n, extra, cols, team, seen if splits else None,
                                        base, main_all)
            elif kind == SWAP2:
                yield from self._swaps(rank, seen)
            elif kind == JOKER:
                yield from self._jokers(rank, cols, team, main_all, seen, free_due)
        if free_due:
            yield from self._come_outs(rank, cols, team, FREE, seen)

    def _come_outs(self, rank: str, cols: Sequence[int], team: int, kind: str,
                   seen: set[int] | None = None) -> Iterator[Move]:
        occ, start = self.occ, self.start
        for c in cols:
            if not start[c]:
                continue
            dst = self.geo.come_out[c]
            o2, s2 = occ[:], start[:]
            if self._apply_step(o2, s2, c, START, dst, team) is not None:  # M6, R2
                if seen is not None:  # a free come-out ending like a plain one is that one
                    k = self._key(o2, s2)
                    if k in seen:
                        continue
                    seen.add(k)
                yield Move(rank, kind, ((c, START, dst),))

    def _splits(self, rank: str, n: int, dir_pairs: Sequence[tuple[str, str]], cols: Sequence[int], team: int,
                seen: set[int] | None, base: int, main_all: int) -> Iterator[Move]:
        """M9: two different pegs, parts in the player's order, each >= 1.

        Written as flat loops over the masks: with no hit, a part changes one
        colour's mask and the dedupe key by an XOR; only hits copy the state.
        """
        occ, start, L, w = self.occ, self.start, self.L, self._width
        geo, team_of = self.geo, self.team_of
        mm = geo.main_mask
        any_pegs = self.rules.ten == "split" and rank == "10"  # V-NC6
        cols1 = self.colours if any_pegs else cols
        recompute = self.rules.split_hand_over and not any_pegs  # R11
        dedupe = seen is not None
        keys: set[int] = seen if seen is not None else set()  # `seen`, read only when deduping
        new = tuple.__new__

        def table(c: int, d: str) -> tuple[PathTable, int]:
            if d == B:
                return geo.backward, mm
            if any_pegs and team_of[c] != team:  # opponents: main track only, R7
                return geo.forward_main, mm
            return geo.forward[c], -1

        def second(o1: list[int], s1: list[int], moved: int, c1: int, x: int, dst1: int, k1: int, m1: int,
                   b: int, d2: str) -> Iterator[Move]:
            """Second parts after a first part that hit (the general case)."""
            cols2 = self.controlled(self.to_move, o1, s1) if recompute else cols1
            for c2 in cols2:
                t2, lm2 = table(c2, d2)
                oc2 = o1[c2]
                locs2 = oc2 & lm2
                if c2 == c1 and moved >= 0:
                    locs2 &= ~(1 << moved)  # M9: a different peg
                for y in _bits(locs2):
                    for dst2, path2 in t2[y][b]:
                        if oc2 & path2:
                            continue
                        o2, s2 = o1[:], s1[:]
                        if self._apply_step(o2, s2, c2, y, dst2, team) is None:
                            continue
                        if dedupe:
                            k2 = self._key(o2, s2)
                            if k2 in keys:
                                continue  # R4
                            keys.add(k2)
                        yield new(Move, (rank, MOVE, ((c1, x, dst1), (c2, y, dst2))))

        # Pegs able to make a part, per direction: (colour, loc, bit, options by count).
        pegs: dict[str, list[tuple[int, int, int, tuple[Options, ...]]]] = {}
        for d in {d for pair in dir_pairs for d in pair}:
            lst = pegs[d] = []
            for c in cols1:
                t, lm = table(c, d)
                for x in _bits(occ[c] & lm):
                    lst.append((c, x, 1 << x, t[x]))
        for a in range(1, n):
            b = n - a
            for d1, d2 in dir_pairs:
                second_pegs = pegs[d2]
                for c1, x, low, tx in pegs[d1]:
                    oc1 = occ[c1]
                    for dst1, path1 in tx[a]:
                        if oc1 & path1:
                            continue  # M2
                        if (dst1 < L and main_all >> dst1 & 1) or recompute:
                            o1, s1 = occ[:], start[:]
                            moved = self._apply_step(o1, s1, c1, x, dst1, team)
                            if moved is None:
                                continue
                            k1 = self._key(o1, s1) if dedupe else 0
                            yield from second(o1, s1, moved, c1, x, dst1, k1,
                                              self._main_all(o1), b, d2)
                            continue
                        # No hit: only c1's mask changed, and the second part's
                        # pegs are the original ones but the peg just moved.
                        flip = low | (1 << dst1)
                        oc1n = oc1 ^ flip
                        k1 = base ^ (flip << (c1 * w)) if dedupe else 0
                        m1 = main_all ^ (flip & mm)
                        for c2, y, low2, ty in second_pegs:
                            if c2 == c1:
                                if y == x:
                                    continue  # M9: a different peg
                                oc2 = oc1n
                            else:
                                oc2 = occ[c2]
                            for dst2, path2 in ty[b]:
                                if oc2 & path2:
                                    continue
                                if dst2 < L and m1 >> dst2 & 1:
                                    o2, s2 = occ[:], start[:]
                                    o2[c1] = oc1n
                                    if self._apply_step(o2, s2, c2, y, dst2, team) is None:
                                        continue
                                    if dedupe:
                                        k2 = self._key(o2, s2)
                                elif dedupe:
                                    k2 = k1 ^ ((low2 | (1 << dst2)) << (c2 * w))
                                if dedupe:
                                    if k2 in keys:
                                        continue  # R4
                                    keys.add(k2)
                                yield new(Move, (rank, MOVE, ((c1, x, dst1), (c2, y, dst2))))

    def _swaps(self, rank: str, seen: set[int] | None = None) -> Iterator[Move]:
        """V-NC4, R16: two pegs of different colours on the main track."""
        pegs = sorted((h, c) for c in self.colours for h in _bits(self.occ[c] & self.geo.main_mask))
        base, w = self._key(self.occ, self.start), self._width
        for i, (h1, c1) in enumerate(pegs):
            for h2, c2 in pegs[i + 1:]:
                if c1 != c2:
                    if seen is not None:  # a 2 onto a partner can end like a swap
                        flip = (1 << h1) | (1 << h2)
                        k = base ^ (flip << (c1 * w)) ^ (flip << (c2 * w))
                        if k in seen:
                            continue
                        seen.add(k)
                    yield Move(rank, SWAP, ((c1, h1, h2), (c2, h2, h1)))

    def _jokers(self, rank: str, cols: Sequence[int], team: int, main_all: int, seen: set[int] | None = None,
                key_all: bool = False) -> Iterator[Move]:
        occ, start, mm = self.occ, self.start, self.geo.main_mask
        mode = self.rules.joker
        emitted = set()
        if mode == "pegoo":
            for c in cols:  # own peg from anywhere but home to its in-spot
                dst = self.geo.in_spot[c]
                srcs = ([START] if start[c] else []) + list(_bits(occ[c] & mm))
                for x in srcs:
                    if x == dst:
                        continue  # R14
                    o2, s2 = occ[:], start[:]
                    if self._apply_step(o2, s2, c, x, dst, team) is not None:
                        if seen is not None:
                            k = self._key(o2, s2)
                            if k in seen:
                                continue
                            seen.add(k)
                        emitted.add((c, x, dst))
                        yield Move(rank, MOVE, ((c, x, dst),))
            for v in self.colours:  # R14: any peg of another team on the main track
                if self.team_of[v] != team:
                    for h in _bits(occ[v] & mm):
                        yield Move(rank, MOVE, ((v, h, START),))
        else:
            sources = []
            if mode == "arizona" and any(start[c] for c in self.teams[team]):
                # V-AZ5, R15: while the team has pegs in start, only those may use it
                sources = [(c, START) for c in self.teams[team] if start[c]]
            else:
                for c in cols:
                    if start[c] and mode != "arizona":
                        sources.append((c, START))
                    sources.extend((c, x) for x in _bits(occ[c] & mm))
            if not sources:
                return
            # Targets once: (hole, is an opponent's peg) for every peg on the track.
            team_of = self.team_of
            targets = [(h, v, team_of[v] != team) for v in self.colours
                       for h in _bits(occ[v] & mm)]
            new = tuple.__new__
            for c, x in sources:
                for dst, v, opponent in targets:
                    if v == c:
                        continue
                    if not opponent or (key_all and seen is not None):
                        # A teammate's peg: play out the chain (M7). With a free
                        # come-out due, a jump onto the come-out hole is that too.
                        o2, s2 = occ[:], start[:]
                        if self._apply_step(o2, s2, c, x, dst, team) is None:
                            continue
                        if seen is not None:
                            k = self._key(o2, s2)
                            if k in seen:
                                continue  # two chains ending alike (R4)
                            seen.add(k)
                    step = (c, x, dst)
                    emitted.add(step)
                    yield new(Move, (rank, MOVE, (step,)))
        if self.rules.start_jokers:  # V-OPT start jokers
            for mv in self._come_outs(rank, cols, team, MOVE, seen):
                if mv.steps[0] not in emitted:
                    yield mv

    def discard_allowed(self, ranks: Iterable[str] | None = None) -> bool:
        """P7 (with R12 and V-OPT forfeit) for a hand holding `ranks`."""
        ranks = RANKS if ranks is None else ranks
        if self.winner() is not None:
            return False  # M10
        ctx = self._context()
        if ctx[3] and any(True for _ in self._come_outs("A", ctx[0], ctx[1], FREE)):
            return False  # R12
        if self.rules.forfeit:
            return True
        for rank in set(ranks):
            if rank != "JK":
                for _ in self._rank_moves(rank, False, ctx):
                    return False
        return True

    # ------------------------------------------------------------ validation
    def parse_move(self, text: str, ranks: Iterable[str] | None = None) -> Move:
        """Parse move text and check it is legal here (optionally for a hand)."""
        move = Move.from_text(text, self.geo, self.sides)
        self.check_move(move, ranks)
        return move

    def check_move(self, move: Move, ranks: Iterable[str] | None = None) -> None:
        """Raise IllegalMoveError, citing a rule, unless `move` is legal."""
        rank, kind = move.rank, move.kind
        if self.winner() is not None:
            raise IllegalMoveError("the game is over: a team has all its pegs home", "M10",
                                   msg("the game is over"))
        if ranks is not None and rank not in ranks:
            raise IllegalMoveError(f"there is no {rank} in the hand", "P7",
                                   msg("there is no %(rank)s in your hand", rank=Ref("rank", rank)))
        for c, _, _ in move.steps:
            if c not in self.colours:
                raise IllegalMoveError(f"side {c} has no pegs in this game", "G1",
                                       msg("that colour has no pegs in this game"))
        if kind == DISCARD:
            if not self.discard_allowed(ranks):
                ctx = self._context()
                if ctx[3] and any(True for _ in self._come_outs("A", ctx[0], ctx[1], FREE)):
                    raise IllegalMoveError("you can't discard: counting's free come-out must be taken", "R12",
                                           msg("you can't discard: counting's free come-out must be taken"))
                raise IllegalMoveError("you can't discard while a card in your hand can move", "P7",
                                       msg("you can't discard while a card in your hand can move"))
            return
        if kind == FREE and not self.free_come_out_due():
            raise IllegalMoveError("no free come-out: you have not counted on enough turns before", "V-NC7",
                                   msg("no free come-out: you have not counted on enough turns before"))
        for legal in self._rank_moves(rank, False):
            if legal == move:
                return
        raise IllegalMoveError(*self.explain_illegal(move))

    def explain_illegal(self, move: Move) -> tuple[str, str]:
        """(sentence, RULES id) saying why a well-formed move is not legal here."""
        return explain(self, move)

    # ------------------------------------------------------------------ apply
    def apply(self, move: Move, next_to_move: int | None = None) -> None:
        """Make a move without an undo record (see `PegState.apply`)."""
        # Fresh lists, so generators still running over the old ones stay valid.
        self.occ = occ = self.occ[:]
        self.start = start = self.start[:]
        side = self.to_move
        team = self.team_of[side]
        kind = move[1]
        if kind == SWAP:
            (c1, a, b), (c2, _, _) = move[2]
            flip = (1 << a) | (1 << b)
            occ[c1] ^= flip
            occ[c2] ^= flip
        elif kind != DISCARD:
            for c, s, d in move[2]:
                self._apply_step(occ, start, c, s, d, team)
        if self.rules.counting and kind in (MOVE, SWAP, FREE, DISCARD):
            self.counting = self.counting[:]
            self.counting[side] = self.counting[side] + 1 if kind == DISCARD else 0
        self.to_move = self.next_side(side) if next_to_move is None else next_to_move


__all__ = ["Position", "PositionError", "card_powers", "IllegalMoveError", "MoveSyntaxError"]
