"""Card powers: the actions each rank allows under a rule set.

Its own module so that the layers read one way: `explain` and `position`
both use these names, and `position` uses `explain` (never the reverse).
"""
from __future__ import annotations

from typing import Any

from functools import lru_cache

from .moves import RANKS
from .rules import Rules

# Card powers (the actions a rank allows under a rule set).
OUT, FWD, BACK, SPLIT, SWAP2, JOKER = "out", "fwd", "back", "split", "swap", "joker"
F, B = "F", "B"


@lru_cache(maxsize=None)
def card_powers(rules: Rules) -> dict[str, Any]:
    """rank -> tuple of actions; an action is (kind, count, extra)."""
    powers = {}
    for rank in RANKS:
        acts: list[tuple[str, int, Any]] = []
        if rank == "A":
            acts += [(OUT, 0, None), (FWD, 1, None)]
            if rules.ace == "north_carolina":
                acts += [(BACK, 1, None), (FWD, 11, None)]  # V-NC3
        elif rank in ("J", "Q", "K"):
            n = 10 if rules.court == "10" else {"J": 11, "Q": 12, "K": 13}[rank]  # V-SS
            if rank == "K" or rules.court_out == "JQK":  # court_out "K": Tock's come-out cards
                acts.append((OUT, 0, None))
            acts.append((FWD, n, None))
        elif rank == "JK":
            acts.append((JOKER, 0, None))
        elif rank == "7":
            acts += [(FWD, 7, None), (SPLIT, 7, ((F, F),))]  # P3
        elif rank == "4" and rules.four == "backward":  # TK-V1, CB, JR as an option
            acts.append((BACK, 4, None))
        elif rank == "8":
            acts.append((BACK, 8, None))  # P4
        elif rank == "9":
            acts.append((FWD, 9, None))
            if rules.nine == "split":  # V-AZ3, R13
                acts.append((SPLIT, 9, ((F, B), (B, F))))
        elif rank == "10":
            if rules.ten == "split":  # V-NC6: no single 10
                acts.append((SPLIT, 10, ((F, F), (F, B), (B, F), (B, B))))
            else:
                acts.append((FWD, 10, None))
                if rules.ten == "forward_or_back1":  # V-AK
                    acts.append((BACK, 1, None))
        else:
            acts.append((FWD, int(rank), None))
            if rank == "2" and rules.two_swap:  # V-NC4
                acts.append((SWAP2, 0, None))
        powers[rank] = tuple(acts)
    return powers
