"""Hints: the strong bot's choice for one seat, from that seat's view, with a reason in words.

`suggest(view, rng, names)` returns a JSON-ready dict: the move (notation,
for the page to highlight), the real card to play, and one short sentence
saying why, with colour names (``names`` maps a side to a word such as
"Blue"; without it sides are called "side 2").
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .message import Join, Msg, msg, nmsg, pmsg
from .moves import DISCARD, DOUBT, MOVE, PASS, PENALTY, SWAP
from .strong import DEFAULT_THINK_MS, StrongBot, _Seen

if TYPE_CHECKING:
    from collections.abc import Mapping
    from .board import Geometry
    from .moves import Move

_CARD_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "JK": "joker"}


def card_word(rank: str) -> str:
    return _CARD_WORDS.get(rank, rank)


def _name(names: Mapping[int, str] | None, side: int) -> Msg:
    if names and side in names:
        return pmsg("colour", names[side])   # the colour's name, in the reader's language
    return msg("side %(number)s", number=side)


# The card's name after "the", "a", "your" in a hint: each its own message.
_RANK_IN_HINT = {"A": pmsg("rank", "ace"), "J": pmsg("rank", "jack"), "Q": pmsg("rank", "queen"),
                 "K": pmsg("rank", "king"), "JK": pmsg("rank", "joker")}


def card_msg(rank: str) -> Msg:
    """A rank's name in a hint ("jack", "8"), as a message."""
    return _RANK_IN_HINT.get(rank) or pmsg("rank", rank)


def _to_home(geo: Geometry, side: int, hole: int) -> int:
    """Holes a peg on main hole `hole` still has to go to its in-spot."""
    return (geo.in_spot[side] - hole) % geo.length


def reason(view: dict[str, Any], move: Move, card: str | None, p_real: float | None = None,
           names: Mapping[int, str] | None = None) -> str:
    """One short sentence: why this choice, in words with names."""
    seen = _Seen(view)
    pos, geo = seen.pos, seen.pos.geo
    L = geo.length
    kind = move[1]
    me, team = seen.side, seen.team
    partners = [c for c in pos.teams[team] if c != me]
    if kind in (DOUBT, PASS):
        d = view["declared"]
        who = _name(names, seen.seat_side[d["seat"]])
        rank = d["move"].split()[0]
        pct = round(100 * (p_real or 0))
        if kind == DOUBT:
            return msg("doubt: %(who)s really has a %(card)s only about %(pct)s%% of the time, "
                       "and catching a bluff gains more than a wrong doubt costs", who=who, card=card_msg(rank),
                       pct=pct)
        return msg("pass: %(who)s most likely really has the %(card)s (about %(pct)s%%)", who=who,
                   card=card_msg(rank), pct=pct)
    if kind == PENALTY:
        victim, hole, _ = move[2][0]
        return nmsg("send back %(who)s's peg %(n)s hole from home: it hurts them most",
                    "send back %(who)s's peg %(n)s holes from home: it hurts them most",
                    _to_home(geo, victim, hole), who=_name(names, victim))
    family = seen.family
    text: Msg | None = family.hint_reason(view, seen, move, card, names)  # the plays off the board
    if text is not None:
        return text
    rank = family.card_rank(seen.rules, card) if card else move[0]
    if kind == DISCARD:
        return msg("no card can move: let go of the %(card)s, the least useful to keep", card=card_msg(rank))
    bluff = seen.rules.bluffing and rank != move[0]
    before_start = list(pos.start)
    before_occ = list(pos.occ)
    pos.push(move)
    try:
        parts = []
        for c in pos.colours:
            if pos.start[c] > before_start[c] and pos.team_of[c] != team:
                # which hole it was hit on
                lost = before_occ[c] & ~pos.occ[c] & geo.main_mask
                hole = lost.bit_length() - 1 if lost else None
                parts.append(nmsg("hits %(who)s's peg %(n)s hole from home", "hits %(who)s's peg %(n)s holes from home",
                                  _to_home(geo, c, hole), who=_name(names, c)) if hole is not None
                             else msg("hits %(who)s's peg", who=_name(names, c)))
        out = [c for c in pos.colours if pos.start[c] < before_start[c] and pos.team_of[c] == team]
        if out:
            blocked = [p for p in partners if pos.start[p] and
                       any(pos.occ[x] >> geo.come_out[p] & 1 for x in pos.colours)]
            if out == [me]:
                text = (msg("brings a peg out while your partner's start is blocked") if blocked
                        else msg("brings a peg out"))
            else:
                text = (msg("brings a peg of %(who)s out while your partner's start is blocked", who=_name(names, out[0]))
                        if blocked else msg("brings a peg of %(who)s out", who=_name(names, out[0])))
            parts.append(text)
        home_gain = [c for c in pos.colours if pos.team_of[c] == team and
                     bin(pos.occ[c] >> L).count("1") > bin(before_occ[c] >> L).count("1")]
        if home_gain:
            parts.append(msg("takes a peg into home") if home_gain == [me]
                         else msg("takes %(who)s's peg into home", who=_name(names, home_gain[0])))
        if not parts and kind == SWAP:
            parts.append(msg("swaps places to gain ground"))
        if not parts:
            moved = [s for s in move[2] if s[0] in partners]
            if moved:
                parts.append(msg("moves your partner %(who)s on", who=_name(names, moved[0][0])))
        if not parts:
            parts.append(msg("makes the most progress while keeping your pegs safe"))
    finally:
        pos.pop()
    text = Join(parts[:2]).msg()
    if bluff:
        text = msg("bluff: declare a %(declared)s and play the %(card)s; %(why)s", declared=card_msg(move[0]),
                   card=card_msg(rank), why=text)
    come_out = family.come_out_ranks(seen.rules)  # the cards that bring pegs out in this game
    hand_ranks = {family.card_rank(seen.rules, c) for c in seen.hand}
    kept = [r for r in ("JK", "A", "K", "Q", "J") if r in hand_ranks and r != rank and r in come_out]
    if kept and not out and any(pos.start[c] for c in pos.controlled(me)) and kind == MOVE:
        text = msg("%(why)s, and keeps your %(card)s for bringing a peg out", why=text, card=card_msg(kept[0]))
    return text


def suggest(view: dict[str, Any], rng: random.Random | None = None, names: dict[int, str] | None = None,
            think_ms: float | None = DEFAULT_THINK_MS, iterations: int = 400) -> dict[str, Any]:
    """The strong bot's suggestion for the seat of `view` (the seat that must act)."""
    bot = StrongBot(rng if rng is not None else random.Random(), think_ms=think_ms,
                    iterations=iterations)
    d = bot.decide(view)
    seen = _Seen(view)
    geo = seen.pos.geo
    text = d.move.text(geo)
    return {"move": text, "card": d.card, "kind": d.move[1],
            "reason": reason(view, d.move, d.card, d.p_real, names)}


__all__ = ["suggest", "reason", "card_word"]
