"""The Pegs and Jokers deck as the family interface reads it (RULES.md C1): the same
ranks whatever the options, a card's rank from its text."""
from __future__ import annotations

from typing import Any

from ...cards import parse_rank as _parse_rank, rank_of
from ...moves import RANKS
from ...rules import Rules

# Every preset is played by 2, 4, 6, 8 or 10 players (G1, T1).
SEATS = {preset: (2, 4, 6, 8, 10) for preset in ("basic", "arizona", "north_carolina", "pegoo",
                                                  "wizard_woodworks", "alaska", "kilpatrick",
                                                  "social_security", "bluffing_joker")}
COME_OUT_RANKS = ("JK", "A", "K", "Q", "J")  # the cards that may bring a peg out (M6, P1, P5, P6)


def deck_ranks(rules: Rules) -> tuple[str, ...]:
    return RANKS


def card_rank(rules: Rules, card: str) -> str:
    return rank_of(card)


def parse_rank(rules: Rules, word: str) -> str:
    return _parse_rank(word)


def board_sizes(rules: Rules) -> tuple[int, ...]:
    return (4, 6, 8, 10)  # G1


def come_out_ranks(rules: Rules) -> tuple[str, ...]:
    return COME_OUT_RANKS


def no_reason(view: dict[str, Any], seen: Any, move: Any, card: str | None, names: Any) -> None:
    """Pegs and Jokers has no plays off the board: every hint reason is the board's."""
    return None
