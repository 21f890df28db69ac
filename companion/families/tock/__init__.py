"""The Tock family: Tock, Carbles and Jackaroo (RELATED-GAMES.md), and any rule set using
their options (`companion.rules.family_name`).

Its modules: `position` (the move generator, moved unchanged from companion/related.py),
`game` (deals in rounds, passing, forces; from companion/related_game.py), `search` (the
hard bot's search and evaluation for these games; from companion/strong_related.py) and
`hints` (the reasons of the plays off the board).
"""
from __future__ import annotations

from ..base import Family

FAMILY = Family(
    name="tock",
    title="Tock, Carbles and Jackaroo",
    presets=("tock", "tock_partnership", "tock3", "carbles", "carbles_partnership", "jackaroo",
             "jackaroo_individual"),
    doc="RELATED-GAMES.md",
    board_sides=(4, 6, 8, 10, 12),
    sides_error="sides is {sides}; a board has 4, 6, 8 or 12 sections (CB-G1)",
    position_keys=frozenset({"skips", "hand_sizes", "waiting"}),  # RG-N4, RG-N5
    position_path="companion.families.tock.position:TockPosition",
    game_path="companion.families.tock.game:TockGame",
    deck_ranks_path="companion.families.tock.position:deck_ranks",
    card_rank_path="companion.families.tock.position:card_rank",
    parse_rank_path="companion.families.tock.position:parse_rank",
    evaluator_path="companion.families.tock.search:TockEvaluator",
    unseen_path="companion.families.tock.search:unseen_pool",
    search_path="companion.families.tock.search:decide",
    hint_reason_path="companion.families.tock.hints:play_reason",
    come_out_ranks_path="companion.families.tock.hints:come_out_ranks",
    seats_path="companion.families.tock.position:SEATS",
    board_sizes_path="companion.families.tock.position:board_sizes",
)
