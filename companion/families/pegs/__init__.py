"""The Pegs and Jokers family: RULES.md and the presets of its section V.

Its modules: `position` (the move generator, moved unchanged from companion/position.py)
and `deck`; its game is `companion.game.Game`, its search the hard bot's own
(`companion.strong`), its evaluation `companion.evaluation.Evaluator`.
"""
from __future__ import annotations

from ..base import Family

FAMILY = Family(
    name="pegs",
    title="Pegs and Jokers",
    presets=("basic", "arizona", "north_carolina", "pegoo", "wizard_woodworks", "alaska",
             "kilpatrick", "social_security", "bluffing_joker"),
    doc="RULES.md",
    board_sides=(4, 6, 8, 10),
    sides_error="sides is {sides}; a board has 4, 6, 8 or 10 sides (G1)",
    position_keys=frozenset(),
    position_path="companion.families.pegs.position:Position",
    game_path="companion.game:Game",
    deck_ranks_path="companion.families.pegs.deck:deck_ranks",
    card_rank_path="companion.families.pegs.deck:card_rank",
    parse_rank_path="companion.families.pegs.deck:parse_rank",
    evaluator_path="companion.evaluation:Evaluator",
    unseen_path="companion.strong:pegs_unseen_pool",
    search_path="companion.strong:decide_pegs",
    hint_reason_path="companion.families.pegs.deck:no_reason",
    come_out_ranks_path="companion.families.pegs.deck:come_out_ranks",
    seats_path="companion.families.pegs.deck:SEATS",
    board_sizes_path="companion.families.pegs.deck:board_sizes",
)
