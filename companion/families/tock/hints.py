"""The Tock family's hint reasons: the plays off the board (passing, forces, giving up the
hand) and the cards that bring a peg out (TK-M4, CB-M4, JR-M6); `companion.hints` asks the
family for them."""
from __future__ import annotations

from ...hints import _name, card_word
from ...moves import DISCARD, FORCE, GIVE, HAND
from .position import card_rank
from .search import worth_for


def come_out_ranks(rules) -> tuple:
    return tuple(worth_for(rules).out)


def play_reason(view, seen, move, card, names):
    """Tock, Carbles, Jackaroo: the reasons of their own plays (None: a move on the board)."""
    kind = move[1]
    rank = card_rank(seen.rules, card) if card else move[0]
    word = card_word(rank[:1] if rank[:1] in "JQ" else rank)
    if kind == GIVE:
        return (f"pass the {word} to your partner {_name(names, move[2][0])}: it is worth more "
                f"to their pegs than to yours")
    if kind == DISCARD and view.get("phase") == "forced":
        return f"a 10 makes you discard: let go of the {word}, the least useful to your pegs"
    if kind == DISCARD:
        return f"no card can move: let go of the {word}, the least useful to keep"
    if kind == HAND:
        return "give up the whole hand and wait for the next deal: no play helps more"
    if kind == FORCE:
        who = _name(names, move[2][0])
        if move[0] == "10":
            return f"make {who} discard a card and miss a turn"
        return f"take a card at random from {who}, who also misses a turn"
    return None
