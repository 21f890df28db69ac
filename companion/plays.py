"""The plays a phone is offered (`Game.plays_for`): the acting seat's legal plays,
grouped by card, each with the taps that make it on the drawn board, the pegs
after it and the pegs it hits. JSON-ready; shown only to the seat that acts.

Hole ids are the board drawing's (`svg_hole_id`): M12; H3-s2 (home hole 3 of
side 2); S-s2 (side 2's start area).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

from .cards import rank_of
from .errors import MoveError
from .families import PEGS, find_family
from .hits import hits
from .message import Msg, Trimmed, msg
from .moves import DISCARD, RANKS, SWAP
from .notation import pegs_to_json

if TYPE_CHECKING:
    from collections.abc import Iterable
    from .families.tock.game import TockGame
    from .game import Game
    from .moves import Move
    from .state import PegState

DOUBT_PHASE, PENALTY_PHASE = "doubt", "penalty"   # companion.game's phases (no import cycle)


def svg_hole_id(side: int, token: str) -> str:
    """Board SVG hole ids: M12; H3-s2 (home hole 3 of side 2); S-s2 (side 2's start)."""
    if token == "S":
        return f"S-s{side}"
    if token[0] == "H":
        return f"{token}-s{side}"
    return token


def move_json(game: Game, move: Move) -> dict[str, Any]:
    """One move of the side to move for the phone: its text, kind, taps ("steps"),
    and unless it is a penalty the pegs after it ("result") and its hits."""
    pos = game.position
    geo = pos.geo
    tok = geo.token
    rank, kind, steps = move
    if kind == SWAP:
        (c1, a, b), (c2, _, _) = steps
        taps = [{"side": c1, "from": tok(a), "to": tok(b), "swap_side": c2}]
    else:
        taps = [{"side": c, "from": tok(s), "to": tok(d)} for c, s, d in steps]
    for t in taps:
        t["from_id"], t["to_id"] = svg_hole_id(t["side"], t["from"]), svg_hole_id(t["side"], t["to"])
    out: dict[str, Any] = {"move": move.text(geo), "kind": kind, "steps": taps}
    if kind != "penalty":
        out["result"] = pegs_to_json(pos, pos.result_of(move))
        out["hits"] = [{"side": c, "from": tok(s), "to": tok(d)} for c, s, d in hits(pos, move)]
    return out


class SeatNaming(Protocol):
    """Names of seats and sides: `SeatNames`, or `companion.words.Names` (which also has
    `seat_msg` and `side_msg`, messages said in each phone's language)."""

    def seat(self, seat: int) -> str: ...

    def side(self, side: int) -> str: ...


# words for a play of the Tock family: (position, move, names) -> the sentence
Say = Callable[["PegState", "Move", SeatNaming], str]


class SeatNames:
    """Names for a game played without a table's names: "seat 1", "seat 2" ... (the
    phone's table gives `companion.words.Names`, which has the same two methods)."""

    def __init__(self, seat_side: Iterable[int]) -> None:
        self.seat_of = {side: seat for seat, side in enumerate(seat_side)}

    def seat(self, seat: int) -> str:
        return f"seat {seat + 1}"

    def side(self, side: int) -> str:
        return self.seat(self.seat_of[side])


def _notation(pos: PegState, move: Move, names: SeatNaming) -> str:
    return f"{names.side(pos.to_move)} {move.text(pos.geo)}"


def offered_plays(game: Game, seat: int, names: SeatNaming | None = None,
                  say: Say | None = None) -> dict[str, Any]:
    """What the phone of `seat` (which must be the actor) is offered now. The related
    games' plays are worded with `say(position, move, names)` (the phone's table passes
    `companion.words.move_words`, which sits above the engine; default: the notation)
    and `names` (`companion.words.Names`; default `SeatNames`)."""
    g = game
    if seat != g.actor:
        raise MoveError(f"seat {seat} does not act now (seat {g.actor} does)")
    names = names if names is not None else SeatNames(g.seat_side)
    say = say if say is not None else _notation
    pos = g.position
    out = {"seat": g.actor, "phase": g.phase, "bluffing": g.rules.bluffing}
    if g.phase == DOUBT_PHASE:
        out["choices"] = ["doubt", "pass"]
        return out
    if g.phase == PENALTY_PHASE:
        out["penalty"] = [move_json(g, p.move) for p in g.legal_plays()]
        return out
    if find_family(g.rules) is not PEGS:  # the Tock family's plays off the board too
        return _related_plays(cast("TockGame", g), out, names, say)
    hand = g.hands[g.actor]
    ranks = list(dict.fromkeys(rank_of(c) for c in hand))
    plays = g.legal_plays()
    out["discard"] = any(p.move.kind == DISCARD for p in plays)
    # Every order of every legal move (R4 lists one order; the player may tap either).
    if g.rules.bluffing:
        by_rank: dict[str, list[dict[str, Any]]] = {}
        for move in pos.legal_moves(RANKS, dedupe=False):
            by_rank.setdefault(move.rank, []).append(move_json(g, move))
        out["cards"] = [{"card": c, "rank": rank_of(c)} for c in dict.fromkeys(hand)]
        out["declare"] = by_rank
        return out
    legal_ranks = {p.move.rank for p in plays if p.move.kind != DISCARD}
    moves_of: dict[str, list[dict[str, Any]]] = {rk: [] for rk in ranks}
    for move in pos.legal_moves([rk for rk in ranks if rk in legal_ranks], dedupe=False):
        moves_of[move.rank].append(move_json(g, move))
    out["cards"] = [{"card": c, "rank": rank_of(c), "moves": moves_of[rank_of(c)]}
                    for c in dict.fromkeys(hand)]
    return out


def _seat(names: SeatNaming, seat: int) -> str:
    """A seat's name as a message where the names give one (each phone says it in its words)."""
    return names.seat_msg(seat) if hasattr(names, "seat_msg") else names.seat(seat)


def _related_plays(g: TockGame, out: dict[str, Any], names: SeatNaming, say: Say) -> dict[str, Any]:
    """Tock, Carbles, Jackaroo: every play in words, grouped by card (issue 18.4).
    A pass to the partner, a forced discard and the whole hand given up are plays
    like any other; the phone lists them, and draws a move's steps where it can."""
    actor = g._acting()
    geo = g.position.geo
    plays = g.legal_plays()
    out["cards"] = [{"card": c, "rank": g.rank_of(c), "moves": []}
                    for c in dict.fromkeys(g.hands[actor])]
    by_card = {c["card"]: c for c in out["cards"]}
    out["discard"] = any(p.move.kind == DISCARD for p in plays)
    out["options"] = True
    if g.phase == "give":
        partner = g.partner(actor)
        out["prompt"] = msg("Choose a card to pass face down to your partner %(who)s",
                            who=_seat(names, partner))
    elif g.phase == "forced" and g.forcer is not None:
        out["prompt"] = msg("%(who)s played a 10: discard a card of your choice (you then miss a turn)",
                            who=_seat(names, g.forcer))
    for p in plays:
        move, card = p
        kind = move.kind
        if kind == "hand":
            out["give_up"] = {"move": move.text(geo), "kind": kind,
                              "words": msg("Discard the whole hand and wait for the next deal")}
            continue
        entry = {"move": move.text(geo), "kind": kind, "steps": []}
        if g.phase == "give":
            entry["words"] = msg("Pass it face down to %(who)s", who=_seat(names, g.partner(actor)))
        elif kind == DISCARD:
            entry["words"] = msg("Discard it") if g.phase == "forced" else msg("Discard it (no move)")
        else:
            said = say(g.position, move, names)
            if isinstance(said, Msg) and hasattr(names, "side_msg"):   # "moved a peg ...", in any language
                entry["words"] = Trimmed(said, names.side_msg(g.position.to_move))
            else:
                who = names.side(g.position.to_move) + " "
                entry["words"] = said[len(who):] if said.startswith(who) else said
            if kind not in ("force",):
                try:
                    entry.update({k: v for k, v in move_json(g, move).items()
                                  if k in ("steps", "result", "hits")})
                except Exception:  # noqa: BLE001 - a step the phone's board can't name: words only
                    pass
        by_card[card]["moves"].append(entry)
    return out


__all__ = ["offered_plays", "move_json", "svg_hole_id", "SeatNames"]
