"""The strong bot's search loop, shared by both families (`companion.strong` for Pegs and
Jokers, `companion.families.tock.search` for Tock, Carbles and Jackaroo).

Each iteration deals the cards this seat can't see (a sample of the unseen pool) to the
other seats, plays every candidate out on that same deal (common random numbers: the
family's `play_out` makes the move and its rollout and scores the end), and sums each
candidate's value and its paired difference to candidate 0. A candidate's edge is that
mean difference less `switch_z` standard errors, so the one-ply favourite is left only
for one that is clearly better. A deal the clock stops in the middle of is dropped whole.

Standard library only: what a family deals and plays is its own (`play_out`).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

# play_out(candidate, hands dealt per seat (this seat's left empty), the rest of the deal)
# -> the candidate's value on this deal (the position put back afterwards)
PlayOut = Callable[[int, list[list[str]], list[str]], float]


def paired_rollouts(rng: random.Random, pool: Sequence[str], need: int, players: int,
                    others: Sequence[int], sizes: Sequence[int], candidates: int, iterations: int,
                    over: Callable[[], bool] | None, play_out: PlayOut,
                    switch_z: float) -> tuple[list[float], list[float], int]:
    """(each candidate's mean value, its edge over candidate 0, deals played) from up to
    `iterations` deals of `need` cards from `pool`, `sizes[k]` of them to seat `others[k]`
    in turn; `over()` says when the thinking budget is spent (None: no budget)."""
    totals = [0.0] * candidates
    diff = [0.0] * candidates   # sums of the paired differences to candidate 0, and squares
    diff2 = [0.0] * candidates
    vals = [0.0] * candidates
    it = 0
    while it < iterations:
        if over is not None and it and over():
            break
        deal = rng.sample(pool, need)
        hands0: list[list[str]] = [[]] * players  # every other seat's is set below
        k = 0
        for s, size in zip(others, sizes):
            hands0[s] = deal[k:k + size]
            k += size
        rest = deal[k:]
        late = False
        for i in range(candidates):
            if over is not None and it and over():
                late = True  # out of time mid-deal: drop this deal (the candidates share it)
                break
            vals[i] = play_out(i, hands0, rest)
        if late:
            break
        for i in range(candidates):
            totals[i] += vals[i]
            d = vals[i] - vals[0]
            diff[i] += d
            diff2[i] += d * d
        it += 1
    n = max(it, 1)
    means = [t / n for t in totals]
    edges: list[float] = []
    for i in range(candidates):
        mean = diff[i] / n
        var = max(diff2[i] / n - mean * mean, 0.0)
        edges.append(mean - switch_z * (var / n) ** 0.5 if it > 1 else (0.0 if i == 0 else -1e9))
    return means, edges, it


__all__ = ["PlayOut", "paired_rollouts"]
