"""The rule options' names and values as messages, for the presets' differences
on the new-table page and the card sheet (issue 25.1): English keeps each option's name as
a rules file writes it (``draw``); other languages say what it is. Standard library only.
"""
from __future__ import annotations

from .message import pmsg

# every option of companion.rules.OPTION_DOCS (a test keeps the two the same)
OPTION_NAME_MSGS = {
    "holes_per_side": pmsg("rule option", "holes_per_side"),
    "in_spot_offset": pmsg("rule option", "in_spot_offset"),
    "come_out_offset": pmsg("rule option", "come_out_offset"),
    "pegs_per_side": pmsg("rule option", "pegs_per_side"), "hand_size": pmsg("rule option", "hand_size"),
    "decks": pmsg("rule option", "decks"), "jokers_per_deck": pmsg("rule option", "jokers_per_deck"),
    "extra_jokers": pmsg("rule option", "extra_jokers"),
    "two_players_no_jokers": pmsg("rule option", "two_players_no_jokers"), "draw": pmsg("rule option", "draw"),
    "team_pegs": pmsg("rule option", "team_pegs"), "nine": pmsg("rule option", "nine"),
    "ace": pmsg("rule option", "ace"), "two_swap": pmsg("rule option", "two_swap"),
    "ten": pmsg("rule option", "ten"), "court": pmsg("rule option", "court"),
    "joker": pmsg("rule option", "joker"), "start_jokers": pmsg("rule option", "start_jokers"),
    "counting": pmsg("rule option", "counting"), "split_hand_over": pmsg("rule option", "split_hand_over"),
    "must_turn_in": pmsg("rule option", "must_turn_in"), "forfeit": pmsg("rule option", "forfeit"),
    "bluffing": pmsg("rule option", "bluffing"), "home_size": pmsg("rule option", "home_size"),
    "deal": pmsg("rule option", "deal"), "deal_reshuffle": pmsg("rule option", "deal_reshuffle"),
    "stuck": pmsg("rule option", "stuck"), "joker_exempt": pmsg("rule option", "joker_exempt"),
    "give_up_hand": pmsg("rule option", "give_up_hand"), "pass_card": pmsg("rule option", "pass_card"),
    "four": pmsg("rule option", "four"), "five": pmsg("rule option", "five"),
    "seven": pmsg("rule option", "seven"), "jack": pmsg("rule option", "jack"),
    "queen": pmsg("rule option", "queen"), "king": pmsg("rule option", "king"),
    "court_out": pmsg("rule option", "court_out"), "own_pegs": pmsg("rule option", "own_pegs"),
    "hits": pmsg("rule option", "hits"), "start_block": pmsg("rule option", "start_block"),
    "pair_block": pmsg("rule option", "pair_block"), "partner_joker": pmsg("rule option", "partner_joker"),
    "direction": pmsg("rule option", "direction"), "open_hand": pmsg("rule option", "open_hand"),
    "team_play": pmsg("rule option", "team_play"),
}
# True and False, the values of the yes/no options
VALUE_MSGS = {"True": pmsg("rule option value", "True"), "False": pmsg("rule option value", "False"),
              # the word values, as a rules file writes them (quoted): English keeps them so
              "'JQK'": pmsg("rule option value", "'JQK'"),
              "'K'": pmsg("rule option value", "'K'"),
              "'after'": pmsg("rule option value", "'after'"),
              "'any'": pmsg("rule option value", "'any'"),
              "'arizona'": pmsg("rule option value", "'arizona'"),
              "'backward'": pmsg("rule option value", "'backward'"),
              "'basic'": pmsg("rule option value", "'basic'"),
              "'block'": pmsg("rule option value", "'block'"),
              "'card'": pmsg("rule option value", "'card'"),
              "'clears'": pmsg("rule option value", "'clears'"),
              "'clockwise'": pmsg("rule option value", "'clockwise'"),
              "'counter'": pmsg("rule option value", "'counter'"),
              "'cycle'": pmsg("rule option value", "'cycle'"),
              "'empty'": pmsg("rule option value", "'empty'"),
              "'first'": pmsg("rule option value", "'first'"),
              "'forward'": pmsg("rule option value", "'forward'"),
              "'forward_or_back1'": pmsg("rule option value", "'forward_or_back1'"),
              "'hand'": pmsg("rule option value", "'hand'"),
              "'hit'": pmsg("rule option value", "'hit'"),
              "'in_spot'": pmsg("rule option value", "'in_spot'"),
              "'north_carolina'": pmsg("rule option value", "'north_carolina'"),
              "'one'": pmsg("rule option value", "'one'"),
              "'others'": pmsg("rule option value", "'others'"),
              "'pairs'": pmsg("rule option value", "'pairs'"),
              "'pegoo'": pmsg("rule option value", "'pegoo'"),
              "'plain'": pmsg("rule option value", "'plain'"),
              "'solo'": pmsg("rule option value", "'solo'"),
              "'split'": pmsg("rule option value", "'split'"),
              "'split_any'": pmsg("rule option value", "'split_any'"),
              "'start'": pmsg("rule option value", "'start'"),
              "'steps'": pmsg("rule option value", "'steps'"),
              "'suited'": pmsg("rule option value", "'suited'"),
              "'suited_steal'": pmsg("rule option value", "'suited_steal'"),
              "'swap'": pmsg("rule option value", "'swap'"),
              }

__all__ = ["OPTION_NAME_MSGS", "VALUE_MSGS"]
