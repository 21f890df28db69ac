"""What players read: moves, refusals and doubts in plain words, with names and colours.

"Ann (Red) brought a peg out with a jack, onto hole 8", "that's Ben's peg: you may
move only your own (P8)". The notation stays in records and details views; this
module turns it into sentences. Holes are named as a player finds them on the
board: main-track hole ``M21`` is "hole 21" (the printed board and the phone's
board number every fifth hole), home hole ``H3`` of Blue is "Ben's home hole 3",
a start area is "Ben's start".

Standard library only, and duck-typed on `Game` and `Position`, so it sits on
top of the engine: nothing in the engine imports it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .board import START
from .hits import hits
from .message import Join, Msg, Ref, msg, nmsg, pmsg
from .moves import DISCARD, DOUBT, FORCE, FREE, GIVE, HAND, PASS, PENALTY, SWAP
from .powers import BACK, FWD, SPLIT, card_powers

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from .board import Geometry
    from .game import Game, Play
    from .moves import Move
    from .state import PegState

RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "JK": "joker",
              "Jr": "red jack", "Jb": "black jack", "Qr": "red queen", "Qb": "black queen"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

# Every rank's name and its name with an article, as message ids: each language says
# "a jack", "un valet", "ولد" in its own words (no article rule in code).
_RANK_MSG = {
    "A": pmsg("rank", "ace"), "J": pmsg("rank", "jack"), "Q": pmsg("rank", "queen"),
    "K": pmsg("rank", "king"), "JK": pmsg("rank", "joker"), "Jr": pmsg("rank", "red jack"),
    "Jb": pmsg("rank", "black jack"), "Qr": pmsg("rank", "red queen"), "Qb": pmsg("rank", "black queen"),
    "2": pmsg("rank", "2"), "3": pmsg("rank", "3"), "4": pmsg("rank", "4"), "5": pmsg("rank", "5"),
    "6": pmsg("rank", "6"), "7": pmsg("rank", "7"), "8": pmsg("rank", "8"), "9": pmsg("rank", "9"),
    "10": pmsg("rank", "10"),
}
_A_RANK_MSG = {
    "A": pmsg("a card", "an ace"), "J": pmsg("a card", "a jack"), "Q": pmsg("a card", "a queen"),
    "K": pmsg("a card", "a king"), "JK": pmsg("a card", "a joker"), "Jr": pmsg("a card", "a red jack"),
    "Jb": pmsg("a card", "a black jack"), "Qr": pmsg("a card", "a red queen"),
    "Qb": pmsg("a card", "a black queen"),
    "2": pmsg("a card", "a 2"), "3": pmsg("a card", "a 3"), "4": pmsg("a card", "a 4"),
    "5": pmsg("a card", "a 5"), "6": pmsg("a card", "a 6"), "7": pmsg("a card", "a 7"),
    "8": pmsg("a card", "an 8"), "9": pmsg("a card", "a 9"), "10": pmsg("a card", "a 10"),
}
_CARD_MSG = {
    "S": lambda r: msg("the %(rank)s of spades", rank=r), "H": lambda r: msg("the %(rank)s of hearts", rank=r),
    "D": lambda r: msg("the %(rank)s of diamonds", rank=r), "C": lambda r: msg("the %(rank)s of clubs", rank=r),
}


def rank_msg(rank: str) -> Msg:
    """"jack", "8", "joker" (a message)."""
    return _RANK_MSG.get(rank) or msg("%(rank)s", rank=rank)


def a_rank_msg(rank: str) -> Msg:
    """The rank with its article: "a jack", "an 8" (a message)."""
    return _A_RANK_MSG.get(rank) or msg("a card %(rank)s", rank=rank)


def card_msg(card: str) -> Msg:
    """"the 8 of diamonds", "a joker" (a message)."""
    if card == "JK":
        return a_rank_msg("JK")
    make = _CARD_MSG.get(card[-1])
    return make(rank_msg(card[:-1])) if make else msg("%(card)s", card=card)


def rank_name(rank: str) -> str:
    """"jack", "8", "joker"."""
    return RANK_NAMES.get(rank, rank)


def a_rank(rank: str) -> str:
    """The rank with its article, in English: "a jack", "an 8", "an ace", "a joker"."""
    return str(a_rank_msg(rank))


def card_words(card: str) -> str:
    """"the 8 of diamonds", "the king of spades", "a joker"."""
    return str(card_msg(card))


# The palette's colour names (web/colours.py), as the catalogs know them: a seat's colour
# ("Ann (Red)") and a peg's ("Ben's blue peg"), which some languages inflect differently.
COLOUR_MSGS = (
    pmsg("colour", "Red"), pmsg("colour", "Blue"), pmsg("colour", "Green"), pmsg("colour", "Yellow"),
    pmsg("colour", "Black"), pmsg("colour", "White"), pmsg("colour", "Orange"), pmsg("colour", "Purple"),
    pmsg("colour", "Pink"), pmsg("colour", "Teal"), pmsg("colour", "Brown"), pmsg("colour", "Grey"),
    pmsg("peg colour", "red"), pmsg("peg colour", "blue"), pmsg("peg colour", "green"),
    pmsg("peg colour", "yellow"), pmsg("peg colour", "black"), pmsg("peg colour", "white"),
    pmsg("peg colour", "orange"), pmsg("peg colour", "purple"), pmsg("peg colour", "pink"),
    pmsg("peg colour", "teal"), pmsg("peg colour", "brown"), pmsg("peg colour", "grey"),
)


def colour_msg(name: str) -> Msg:
    """A peg colour's name (the palette's), as a message."""
    return pmsg("colour", name)


class Names:
    """Who sits where: seat names and colour names, looked up by seat or by side.

    The colours are the palette's English names; the phrases are messages, so a name
    reads "Ann (Rouge)" on a French phone."""

    def __init__(self, seats: Iterable[tuple[str, str]], seat_side: Iterable[int]) -> None:
        """``seats``: [(name, colour name)] in seat order; ``seat_side``: each seat's side."""
        seats = list(seats)
        self.names: list[str] = [n for n, _ in seats]
        self.colours: list[str] = [c for _, c in seats]
        self.seat_of = {side: seat for seat, side in enumerate(seat_side)}

    def seat_msg(self, seat: int) -> Msg:
        return msg("%(name)s (%(colour)s)", name=self.names[seat], colour=colour_msg(self.colours[seat]))

    def seat(self, seat: int) -> str:
        """"Ann (Red)"."""
        return str(self.seat_msg(seat))

    def side_msg(self, side: int) -> Msg:
        return self.seat_msg(self.seat_of[side])

    def side(self, side: int) -> str:
        return self.seat(self.seat_of[side])

    def short(self, side: int) -> str:
        return self.names[self.seat_of[side]]

    def colour(self, side: int) -> str:
        return self.colours[self.seat_of[side]]

    def peg_msg(self, side: int, mover: int | None = None) -> Msg:
        if side == mover:
            return msg("a peg")
        return msg("%(name)s's %(colour)s peg", name=self.short(side),
                   colour=pmsg("peg colour", self.colour(side).lower()))

    def peg(self, side: int, mover: int | None = None) -> str:
        """"a peg" (the mover's own), else "Ben's blue peg"."""
        return str(self.peg_msg(side, mover))


def hole_msg(geo: Geometry, names: Names, side: int, loc: int) -> Msg:
    if loc == START:
        return msg("%(name)s's start", name=names.short(side))
    if loc < geo.length:
        return msg("hole %(number)s", number=loc)
    return msg("%(name)s's home hole %(number)s", name=names.short(side), number=loc - geo.length + 1)


def hole(geo: Geometry, names: Names, side: int, loc: int) -> str:
    """A hole as a player finds it: "hole 21", "Ben's home hole 3", "Ben's start"."""
    return str(hole_msg(geo, names, side, loc))


def _count(pos: PegState, c: int, s: int, d: int, rank: str) -> tuple[str, int] | None:
    """(direction, count) of one step s -> d by a card of `rank`, or None."""
    geo = pos.geo
    acts = card_powers(pos.rules).get(rank, ())  # the related games' Jr, Qb, ... count as any
    counts = []
    for kind, n, _ in acts:
        if kind in (FWD, BACK):
            counts.append((kind, n))
        elif kind == SPLIT:
            counts += [(k, m) for k in (FWD, BACK) for m in range(1, n)]
    for kind, n in counts + [(k, m) for k in (FWD, BACK) for m in range(1, 14)]:
        if kind == FWD:
            opts = geo.forward[c][s][n] + geo.forward_main[s][n]
        else:
            opts = geo.backward[s][n] if s < geo.length else ()
        if any(dst == d for dst, _ in opts):
            return kind, n
    return None


def _step(pos: PegState, names: Names, c: int, s: int, d: int, rank: str, mover: int | None,
          card: Msg | None = None) -> Msg:
    """One peg's step: "a peg 7 forward, from hole 4 to hole 11" (with `card`:
    "a peg 7 forward with a 7, from ...")."""
    peg = names.peg_msg(c, mover)
    src, dst = hole_msg(pos.geo, names, c, s), hole_msg(pos.geo, names, c, d)
    found = None if rank == "JK" else _count(pos, c, s, d, rank)
    if found is None:
        if card is not None:
            return msg("%(peg)s with %(card)s, from %(src)s to %(dst)s", peg=peg, card=card, src=src, dst=dst)
        return msg("%(peg)s from %(src)s to %(dst)s", peg=peg, src=src, dst=dst)
    kind, n = found
    if card is not None:
        if kind == FWD:
            return nmsg("%(peg)s %(n)s forward with %(card)s, from %(src)s to %(dst)s",
                        "%(peg)s %(n)s forward with %(card)s, from %(src)s to %(dst)s", n,
                        peg=peg, card=card, src=src, dst=dst)
        return nmsg("%(peg)s %(n)s backward with %(card)s, from %(src)s to %(dst)s",
                    "%(peg)s %(n)s backward with %(card)s, from %(src)s to %(dst)s", n,
                    peg=peg, card=card, src=src, dst=dst)
    if kind == FWD:
        return nmsg("%(peg)s %(n)s forward, from %(src)s to %(dst)s",
                    "%(peg)s %(n)s forward, from %(src)s to %(dst)s", n, peg=peg, src=src, dst=dst)
    return nmsg("%(peg)s %(n)s backward, from %(src)s to %(dst)s",
                "%(peg)s %(n)s backward, from %(src)s to %(dst)s", n, peg=peg, src=src, dst=dst)


def _hits(pos: PegState, move: Move, names: Names) -> list[Msg]:
    """Pegs the move sends elsewhere besides its own steps (M7), in words."""
    geo = pos.geo
    out: list[Msg] = []
    for c, src, dst in hits(pos, move):
        peg, at = names.peg_msg(c), hole_msg(geo, names, c, src)
        if dst == START:
            out.append(msg("%(peg)s on %(src)s goes back to start", peg=peg, src=at))
        elif dst == geo.in_spot[c]:
            out.append(msg("%(peg)s on %(src)s goes to its in-spot, %(dst)s", peg=peg, src=at,
                           dst=hole_msg(geo, names, c, dst)))
        else:
            out.append(msg("%(peg)s on %(src)s goes to %(dst)s", peg=peg, src=at,
                           dst=hole_msg(geo, names, c, dst)))
    return out


def move_words(pos: PegState, move: Move, names: Names, declared: bool = False) -> Msg:
    """A move of the side to move, in words, from the position before it (a `Msg`;
    ``str()`` of it is the English sentence).

    ``declared``: played face down (Bluffing Joker): the rank is what was declared.
    """
    rank, kind, steps = move
    who = names.side_msg(pos.to_move)
    mover = pos.to_move
    card = a_rank_msg(rank)
    if kind == DISCARD:
        return msg("%(who)s discarded %(card)s: no card could move", who=who, card=card)
    if kind == HAND:  # TK-P3, JR-P10
        return msg("%(who)s discarded the whole hand and waits for the next deal", who=who)
    if kind == GIVE:  # TK-V4: the card stays secret
        return msg("%(who)s passed a card face down to %(target)s", who=who, target=names.side_msg(steps[0]))
    if kind == FORCE:  # JR-P5, JR-P6
        target = names.side_msg(steps[0])
        if rank == "Qr":
            return msg("%(who)s played a red queen: a card is taken at random from %(target)s, "
                       "who misses a turn", who=who, target=target)
        return msg("%(who)s played %(card)s: %(target)s discards a card and misses a turn",
                   who=who, card=card, target=target)
    if kind == FREE:
        c, s, d = steps[0]
        step = _step(pos, names, c, s, d, rank, mover)
        text = (msg("%(who)s played a card face down as %(card)s: took the free come-out (counting): %(step)s",
                    who=who, card=card, step=step) if declared else
                msg("%(who)s took the free come-out (counting): %(step)s", who=who, step=step))
    elif kind == SWAP:
        (c1, a, _), (c2, b, _) = steps
        p = dict(who=who, card=card, peg=names.peg_msg(c1, mover), src=hole_msg(pos.geo, names, c1, a),
                 other=names.peg_msg(c2, mover), dst=hole_msg(pos.geo, names, c2, b))
        text = (msg("%(who)s played a card face down as %(card)s: swapped %(peg)s on %(src)s with "
                    "%(other)s on %(dst)s", **p) if declared else
                msg("%(who)s swapped %(peg)s on %(src)s with %(other)s on %(dst)s with %(card)s", **p))
    elif len(steps) >= 2:
        parts = [_step(pos, names, c, s, d, rank, mover) for c, s, d in steps]
        split = msg("%(a)s, and %(b)s", a=parts[-2], b=parts[-1])
        for part in reversed(parts[:-2]):
            split = msg("%(a)s, %(b)s", a=part, b=split)
        text = (msg("%(who)s played a card face down as %(card)s: split %(card)s: %(steps)s",
                    who=who, card=card, steps=split) if declared else
                msg("%(who)s split %(card)s: %(steps)s", who=who, card=card, steps=split))
    else:
        c, s, d = steps[0]
        if s == START:
            p = dict(who=who, card=card, peg=names.peg_msg(c, mover), dst=hole_msg(pos.geo, names, c, d))
            text = (msg("%(who)s played a card face down as %(card)s: brought %(peg)s out, onto %(dst)s", **p)
                    if declared else msg("%(who)s brought %(peg)s out with %(card)s, onto %(dst)s", **p))
        elif rank == "JK":
            step = _step(pos, names, c, s, d, rank, mover)
            text = (msg("%(who)s played a card face down as %(card)s: moved %(step)s", who=who, card=card, step=step)
                    if declared else msg("%(who)s moved %(step)s with the joker", who=who, step=step))
        elif declared:
            text = msg("%(who)s played a card face down as %(card)s: moved %(step)s", who=who, card=card,
                       step=_step(pos, names, c, s, d, rank, mover))
        else:   # "moved a peg 7 forward with a 7, from hole 4 to hole 11"
            text = msg("%(who)s moved %(step)s", who=who, step=_step(pos, names, c, s, d, rank, mover, card))
    hits = _hits(pos, move, names)
    if hits:
        text = msg("%(move)s; %(hits)s", move=text, hits=Join(hits, "semicolon"))
    return text


# ------------------------------------------------------------------ the game's own steps
def before_play(game: Game, play: Play, names: Names) -> dict[str, Any]:
    """What a play will say, taken before it is made (the position is still the old one)."""
    move = play[0]
    kind = move[1]
    if kind in (DOUBT, PASS):
        p = game.pending
        return {"kind": kind, "actor": game.actor, "bluffer": p["seat"], "declared": p["move"][0],
                "card": p["card"], "last": len(p["queue"]) == 1}
    actor = game.actor
    assert actor is not None  # a play is made by the seat that acts
    if kind == PENALTY:
        c, s, _ = move[2][0]
        return {"kind": kind, "actor": actor,
                "words": msg("%(who)s sent %(peg)s on %(src)s back to start", who=names.seat_msg(actor),
                             peg=names.peg_msg(c), src=hole_msg(game.position.geo, names, c, s))}
    phase = getattr(game, "phase", None)
    if phase == "give":  # TK-V4.1: the giver is the actor, not the side to move
        return {"kind": kind, "words": msg("%(who)s passed a card face down to %(target)s",
                                           who=names.seat_msg(actor), target=names.side_msg(move[2][0]))}
    if phase == "forced":  # JR-P5: a discard of his choice, face up
        return {"kind": kind, "words": msg("%(who)s discarded %(card)s, forced by %(forcer)s's 10",
                                           who=names.seat_msg(actor), card=a_rank_msg(move[0]),
                                           forcer=names.seat_msg(getattr(game, "forcer")))}  # the Tock family's game
    declared = bool(game.rules.bluffing) and kind != DISCARD
    return {"kind": kind, "words": move_words(game.position, move, names, declared)}


def after_play(game: Game, said: dict[str, Any], names: Names) -> Msg:
    """The finished sentence(s) once the play is made; also kept on its history entry
    (a `Msg`: each phone renders it in its own language)."""
    kind = said["kind"]
    entry = game.history[-1]
    if kind == DOUBT:
        text = _doubt_outcome(game, said, names)
    elif kind == PASS:
        text = msg("%(who)s passed", who=names.seat_msg(said["actor"]))
        if said["last"] and game.phase != "doubt":
            entry["stands"] = True
            text = msg("%(who)s passed. No one doubted %(bluffer)s's %(rank)s: the move stands",
                       who=names.seat_msg(said["actor"]), bluffer=names.names[said["bluffer"]],
                       rank=rank_msg(said["declared"]))
            text = _next(game, names, text)
    elif kind == PENALTY:
        text = _next(game, names, said["words"])
    else:
        text = said["words"]
        if game.is_over():
            text = _next(game, names, text)
    entry["words"] = text
    return text


def _doubt_outcome(game: Game, said: dict[str, Any], names: Names) -> Msg:
    doubter, bluffer = said["actor"], said["bluffer"]
    b = names.names[bluffer]
    declared, card = said["declared"], said["card"]
    caught = card[:-1] != declared if card != "JK" else declared != "JK"
    p = dict(doubter=names.seat_msg(doubter), bluffer=b, rank=rank_msg(declared), card=card_msg(card))
    if caught:
        text = msg("%(doubter)s doubted %(bluffer)s's %(rank)s: it was %(card)s, a bluff. "
                   "%(bluffer)s's move is cancelled", **p)
        winner, loser = doubter, bluffer
    else:
        text = msg("%(doubter)s doubted %(bluffer)s's %(rank)s: it was %(card)s, the card was true. "
                   "%(bluffer)s's move stands", **p)
        winner, loser = bluffer, doubter
    if game.phase == "penalty":   # who plays next is said once the peg is chosen
        return msg("%(said)s; %(winner)s chooses one of %(loser)s's pegs on the track to send back to start",
                   said=text, winner=names.seat_msg(winner), loser=names.names[loser])
    if not game.is_over():
        text = msg("%(said)s; %(loser)s has no peg on the track to send back, so %(winner)s gets an "
                   "extra turn at their next turn", said=text, loser=names.names[loser],
                   winner=names.names[winner])
    return _next(game, names, text)


def _next(game: Game, names: Names, text: str) -> Msg:
    if game.is_over():
        if game.winner is None:  # RG-D1
            from .families.tock.game import STILL_DEALS_TO_DRAW
            return nmsg("%(said)s. No peg has moved in %(n)s deal in a row: the game is drawn",
                        "%(said)s. No peg has moved in %(n)s deals in a row: the game is drawn",
                        STILL_DEALS_TO_DRAW, said=text)
        won = [names.seat_msg(s) for s in range(game.players) if game.team_of_seat(s) == game.winner]
        return nmsg("%(said)s. %(winners)s wins the game", "%(said)s. %(winners)s win the game", len(won),
                    said=text, winners=Join(won))
    if game.phase == "penalty":
        return msg("%(said)s. %(who)s is choosing the peg", said=text, who=names.seat_msg(game._acting()))
    return msg("%(said)s. %(who)s plays next", said=text, who=names.seat_msg(game.seat))


def declared_words(game: Game, names: Names) -> Msg | None:
    """The face-down play waiting for doubts, in words (None outside the doubt window)."""
    if game.phase != "doubt" or not game.pending:
        return None
    return move_words(game.position, game.pending["move"], names, declared=True)


def cancelled(history: Sequence[dict[str, Any]]) -> set[int]:
    """Indices of history entries whose move a caught bluff cancelled."""
    out: set[int] = set()
    for i, entry in enumerate(history):
        card = entry.get("revealed")
        if card is None or entry["move"][1] != DOUBT:
            continue
        j = i - 1
        while j >= 0 and history[j]["move"][1] == PASS:
            j -= 1
        if j >= 0 and (card[:-1] if card != "JK" else "JK") != history[j]["move"][0]:
            out.add(j)
    return out


def told(history: Sequence[dict[str, Any]]) -> Msg | None:
    """How the latest doubt ended (and the penalty peg, once chosen), while no ordinary
    move has been made since."""
    after: list[str] = []
    for entry in reversed(history):
        kind = entry["move"][1]
        if kind == DOUBT or (kind == PASS and entry.get("stands")):
            if not entry.get("words"):
                return None
            text: Msg = entry["words"]
            for more in after:
                text = msg("%(a)s. %(b)s", a=text, b=more)
            return text
        if kind == PENALTY and entry.get("words"):
            after.insert(0, entry["words"])
        elif kind not in (PENALTY, PASS):
            return None
    return None


# ------------------------------------------------------------------ refusals
def named(message: Msg, names: Names) -> Msg:
    """`message` with its `Ref` parameters named for this table: side 2 -> "Ann (Red)",
    M13 -> "hole 13", J -> "a jack" (the engine knows sides, hole tokens and ranks only)."""
    def one(value: Any) -> Any:
        if isinstance(value, Msg):
            return named(value, names)
        if not isinstance(value, Ref):
            return value
        kind, v = value.kind, value.value
        if kind == "side":
            return names.side_msg(v) if v in names.seat_of else msg("side %(number)s", number=v)
        if kind == "owner":
            return names.short(v) if v in names.seat_of else str(v)
        if kind == "hole":
            return (msg("start") if v == "S" else
                    msg("home hole %(number)s", number=int(v[1:])) if v.startswith("H") else
                    msg("hole %(number)s", number=int(v[1:])))
        if kind == "a rank":
            return a_rank_msg(v)
        if kind == "rank":
            return rank_msg(v)
        if kind == "card":
            return card_msg(v)
        return Join([a_rank_msg(r) for r in v], "or").msg()   # "ranks"
    return Msg(message.id, {k: one(v) for k, v in message.params.items()}, message.plural, message.n,
               message.ctx)


def refusal_msg(pos: object, names: Names, error: object) -> Msg:
    """The engine's refusal as players read it (without its rule id): the message the
    error carries (`MoveError.reason`, or a `said` sentence's), named for the table. A
    refusal without one reads "that move is not allowed here" (its rule id says more)."""
    reason = getattr(error, "reason", None)
    if reason is None:
        reason = getattr(error, "said", None)
    if reason is None:
        return msg("that move is not allowed here")
    return named(reason, names)


def refusal(pos: object, names: Names, error: object, rule: str | None = None) -> Msg:
    """A refusal from the rules engine in words, keeping its rule id: "that's Ben's peg:
    you may move only your own (P8)". ``error``: the `MoveError` (its rule id is used when
    ``rule`` is not given) or the engine's sentence (`companion.message.said`)."""
    said = refusal_msg(pos, names, error)
    if rule is None:
        rule = getattr(error, "rule", None)
    return msg("%(reason)s (%(rule)s)", reason=said, rule=rule) if rule else said


__all__ = ["Names", "hole", "move_words", "before_play", "after_play", "declared_words",
           "cancelled", "told", "refusal", "refusal_msg", "named", "a_rank", "rank_name", "card_words"]
