"""The Tock family's hint reasons: the plays off the board (passing, forces, giving up the
hand) and the cards that bring a peg out (TK-M4, CB-M4, JR-M6); `companion.hints` asks the
family for them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...hints import _name, card_msg
from ...message import Msg, msg
from ...moves import DISCARD, FORCE, GIVE, HAND
from .position import card_rank
from .search import worth_for

if TYPE_CHECKING:
    from collections.abc import Mapping
    from ...moves import Move
    from ...rules import Rules
    from ...strong import _Seen


def come_out_ranks(rules: Rules) -> tuple[str, ...]:
    return tuple(worth_for(rules).out)


def play_reason(view: dict[str, Any], seen: _Seen, move: Move, card: str | None,
                names: Mapping[int, str] | None) -> Msg | None:
    """Tock, Carbles, Jackaroo: the reasons of their own plays (None: a move on the board)."""
    kind = move[1]
    rank = card_rank(seen.rules, card) if card else move[0]
    word = card_msg(rank[:1] if rank[:1] in "JQ" else rank)
    if kind == GIVE:
        return msg("pass the %(card)s to your partner %(who)s: it is worth more to their pegs than to yours",
                   card=word, who=_name(names, move[2][0]))
    if kind == DISCARD and view.get("phase") == "forced":
        return msg("a 10 makes you discard: let go of the %(card)s, the least useful to your pegs", card=word)
    if kind == DISCARD:
        return msg("no card can move: let go of the %(card)s, the least useful to keep", card=word)
    if kind == HAND:
        return msg("give up the whole hand and wait for the next deal: no play helps more")
    if kind == FORCE:
        who = _name(names, move[2][0])
        if move[0] == "10":
            return msg("make %(who)s discard a card and miss a turn", who=who)
        return msg("take a card at random from %(who)s, who also misses a turn", who=who)
    return None
