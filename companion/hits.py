"""Hits of a move (M7, M9; RELATED-GAMES.md's hits): the pegs a move sends elsewhere
besides its own steps, worked out in one place for the phone's preview, the words
and the board referee.

`hits(pos, move)` compares the pegs after the whole move with what its own steps
alone would leave: a peg hit twice in one move (a split landing on the in-spot a
first part sent it to) is listed once, from where it stood to where it ends.
`hits(pos, move, by_step=True)` makes the steps one at a time (M9: a split's
first part hits before the second is made), so each hit is listed where it
happens: what a person moving the pegs on the board does.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .moves import SWAP, Move

if TYPE_CHECKING:
    from collections.abc import Iterable
    from .state import PegState


def _diff(before: dict[int, list[int]], after: dict[int, list[int]],
          steps: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """(colour, from, to) of the pegs that moved between `before` and `after` (pegs
    dicts) besides the `steps` (colour, src, dst)."""
    expected = {c: Counter(locs) for c, locs in before.items()}
    for c, s, d in steps:
        expected[c][s] -= 1
        expected[c][d] += 1
    out: list[tuple[int, int, int]] = []
    for c, locs in after.items():
        got = Counter(locs)
        gone = sorted((+expected[c] - got).elements())
        came = sorted((got - +expected[c]).elements())
        out.extend((c, src, dst) for src, dst in zip(gone, came))
    return out


def hits(pos: PegState, move: Move, by_step: bool = False) -> list[tuple[int, int, int]]:
    """[(colour, from location, to location)] of the pegs `move` hits, from `pos`
    (the position before it; unchanged). Locations are the position's own (START for
    a start area); a swap hits nothing."""
    rank, kind, steps = move
    if kind == SWAP:
        return []
    if not by_step:
        return _diff(pos.pegs(), pos.result_of(move), steps)
    out = []
    q = pos.copy()
    for step in steps:
        before = q.pegs()
        q.apply(Move(rank, kind, (step,)), pos.to_move)
        out.extend(_diff(before, q.pegs(), (step,)))
    return out


__all__ = ["hits"]
