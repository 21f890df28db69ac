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

import re
from typing import TYPE_CHECKING, Any, Callable

from .board import START
from .hits import hits
from .message import Join, Msg, Said, msg, nmsg, pmsg
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
_MOVE_TEXT = re.compile(r"^(?:A|[2-9]|10|J|Q|K|JK)(?: \d+:(?:S|M\d+|H\d+)(?:-|<>)(?:\d+:)?(?:S|M\d+|H\d+))+"
                        r"|^(?:A|[2-9]|10|J|Q|K|JK) (?:discard|free \d+:S-M\d+)")
_RANK = re.compile(r"\b(a|an|no|the) (A|J|Q|K|JK|10|[2-9])\b")


def refusal(pos: PegState, names: Names, message: str, rule: str | None) -> Msg:
    """A refusal from the rules engine in words, keeping its rule id: "that's Ben's peg:
    you may move only your own (P8)". Its English is the engine's own wording made
    plain; other languages read it from `refusal_msg` (any rule id stays as it is)."""
    said = refusal_msg(pos, names, message)
    if rule:
        said = msg("%(reason)s (%(rule)s)", reason=said, rule=rule)
    return Said(said, _refusal_english(pos, names, message, rule))


def _side(names: Names, side: str) -> Msg:
    number = int(side)
    return names.side_msg(number) if number in names.seat_of else msg("side %(number)s", number=number)


def _hole_token(pos: PegState, names: Names, side: int | str, token: str) -> Msg:
    if token == "S":
        return msg("start")
    if token.startswith("H"):
        return msg("home hole %(number)s", number=int(token[1:]))
    return msg("hole %(number)s", number=int(token[1:]))


def _ranks(text: str) -> Join:
    return Join([a_rank_msg(r.strip()) for r in re.split(r", | or ", text) if r.strip()], "or")


# The engine's reasons (companion/explain.py, position.py, game.py, related*.py), each a
# message of its own: matched on the engine's English, which only these tests pin down.
_REASONS = [
    (r"only a 2 swaps, and only in games that have the swap", lambda m, p, n: msg("only a 2 swaps, and only in games that have the swap")),
    (r"side (\d+) has no peg on (S|M\d+|H\d+)", lambda m, p, n: msg("%(who)s has no peg on %(hole)s", who=_side(n, m[1]), hole=_hole_token(p, n, m[1], m[2]))),
    (r"a swap needs two pegs of different colours", lambda m, p, n: msg("a swap needs two pegs of different colours")),
    (r"both pegs of a swap must be on the main track", lambda m, p, n: msg("both pegs of a swap must be on the main track")),
    (r"no free come-out yet: it comes after counting on the turns before", lambda m, p, n: msg("no free come-out yet: it comes after counting on the turns before")),
    (r"the free come-out brings one of your pegs from start to its come-out hole", lambda m, p, n: msg("the free come-out brings one of your pegs from start to its come-out hole")),
    (r"the free come-out lands on the come-out hole, and any hit there must be legal", lambda m, p, n: msg("the free come-out lands on the come-out hole, and any hit there must be legal")),
    (r"a (\S+) can't be split between two pegs", lambda m, p, n: msg("%(card)s can't be split between two pegs", card=a_rank_msg(m[1]))),
    (r"a (\S+) must be split between two different pegs", lambda m, p, n: msg("%(card)s must be split between two different pegs", card=a_rank_msg(m[1]))),
    (r"a split moves two different pegs", lambda m, p, n: msg("a split moves two different pegs")),
    (r"pegs in home are safe from other teams", lambda m, p, n: msg("pegs in home are safe from other teams")),
    (r"the joker sends only another team's peg back to start", lambda m, p, n: msg("the joker sends only another team's peg back to start")),
    (r"you move your partner's pegs only once all your own are home, and then the next partner's with pegs out", lambda m, p, n: msg("you move your partner's pegs only once all your own are home, and then the next partner's with pegs out")),
    (r"you may move only your own pegs; side (\d+) is not yours to move", lambda m, p, n: msg("that's %(name)s's peg: you may move only your own", name=n.short(int(m[1])) if int(m[1]) in n.seat_of else m[1])),
    (r"you may move only your team's pegs; side (\d+) is not yours to move", lambda m, p, n: msg("that's %(name)s's peg: you may move only your team's pegs", name=n.short(int(m[1])) if int(m[1]) in n.seat_of else m[1])),
    (r"side (\d+) has no peg in start", lambda m, p, n: msg("%(who)s has no peg in start", who=_side(n, m[1]))),
    (r"the peg already stands on its in-spot: that is no move", lambda m, p, n: msg("the peg already stands on its in-spot: that is no move")),
    (r"a peg can't land on a peg of its own colour", lambda m, p, n: msg("a peg can't land on a peg of its own colour")),
    (r"only an A, J, Q, K or joker brings a peg out of start", lambda m, p, n: msg("only an ace, jack, queen, king or joker brings a peg out of start")),
    (r"a peg comes out on its come-out hole (M\d+)", lambda m, p, n: msg("a peg comes out on its come-out hole, %(hole)s", hole=_hole_token(p, n, 0, m[1]))),
    (r"that peg of side (\d+) stands on its own in-spot, so a teammate can't land on it", lambda m, p, n: msg("that peg of %(who)s stands on its own in-spot, so a teammate can't land on it", who=_side(n, m[1]))),
    (r"the hit would send a teammate's peg to its in-spot, which already holds a peg of that colour", lambda m, p, n: msg("the hit would send a teammate's peg to its in-spot, which already holds a peg of that colour")),
    (r"the two parts must add up to the card's (\d+)", lambda m, p, n: msg("the two parts must add up to the card's %(total)s", total=int(m[1]))),
    (r"is not a legal (\S+) here: the count must be used in full, without passing a peg of the same colour, and any hit must be legal",
     lambda m, p, n: msg("that move is not legal for %(card)s here: the count must be used in full, without passing a peg of the same colour, and any hit must be legal", card=a_rank_msg(m[1]))),
    (r"a peg in home never leaves it", lambda m, p, n: msg("a peg in home never leaves it")),
    (r"a peg in home moves forward only", lambda m, p, n: msg("a peg in home moves forward only")),
    (r"a peg can't pass over a peg of its own colour", lambda m, p, n: msg("a peg can't pass over a peg of its own colour")),
    (r"a backward move never enters home \(no backing in\)", lambda m, p, n: msg("a backward move never enters home (no backing in)")),
    (r"a peg moved by another team never turns into its home", lambda m, p, n: msg("a peg moved by another team never turns into its home")),
    (r"a peg may not pass its own in-spot: it must turn into home", lambda m, p, n: msg("a peg may not pass its own in-spot: it must turn into home")),
    (r"the full count must fit: that many steps don't end in that home hole", lambda m, p, n: msg("the full count must fit: that many steps don't end in that home hole")),
    (r"a (\S+) moves [\d, ]+ here, and the count must be used in full", lambda m, p, n: _count_rule(p, m[1])),
    (r"a peg in home can't be moved by a joker", lambda m, p, n: msg("a peg in home can't be moved by a joker")),
    (r"the Pegoo joker takes your own peg to its in-spot (M\d+)", lambda m, p, n: msg("the Pegoo joker takes your own peg to its in-spot, %(hole)s", hole=_hole_token(p, n, 0, m[1]))),
    (r"the peg already stands on its in-spot", lambda m, p, n: msg("the peg already stands on its in-spot")),
    (r"while your team has a peg in start, the joker must bring one out", lambda m, p, n: msg("while your team has a peg in start, the joker must bring one out")),
    (r"the joker goes straight to a main-track hole holding another colour's peg", lambda m, p, n: msg("the joker goes straight to a main-track hole holding another colour's peg")),
    (r"no card in the hand makes", lambda m, p, n: msg("no card in your hand makes that move")),
    (r"the game is over", lambda m, p, n: msg("the game is over")),
    (r"there is no declared card to doubt now", lambda m, p, n: msg("there is no declared card to doubt now")),
    (r"(\S+) is not in the hand", lambda m, p, n: msg("%(card)s is not in your hand", card=card_msg(m[1]))),
    (r"name the real card played face down", lambda m, p, n: msg("name the real card played face down")),
    (r"there is no (\S+) in the hand", lambda m, p, n: msg("there is no %(rank)s in your hand", rank=rank_msg(m[1]))),
    (r"the card (\S+) does not make a (\S+) move", lambda m, p, n: msg("%(card)s does not make a move of %(rank)s", card=card_msg(m[1]), rank=a_rank_msg(m[2]))),
    (r"the card (\S+) is not a (\S+)$", lambda m, p, n: msg("%(card)s is not %(rank)s", card=card_msg(m[1]), rank=a_rank_msg(m[2]))),
    (r"you can't discard: counting's free come-out must be taken", lambda m, p, n: msg("you can't discard: counting's free come-out must be taken")),
    (r"you can't discard while a card in your hand can move", lambda m, p, n: msg("you can't discard while a card in your hand can move")),
    (r"you can't discard your hand while a card in it can move", lambda m, p, n: msg("you can't discard your hand while a card in it can move")),
    (r"you can't burn a card while a card in your hand can move", lambda m, p, n: msg("you can't discard a card while a card in your hand can move")),
    (r"when no card can move, the whole hand is discarded", lambda m, p, n: msg("when no card can move, the whole hand is discarded")),
    (r"no free come-out: you have not counted on enough turns before", lambda m, p, n: msg("no free come-out: you have not counted on enough turns before")),
    (r"side (\d+) has no pegs in this game", lambda m, p, n: msg("that colour has no pegs in this game")),
    (r"now is not your turn to play", lambda m, p, n: msg("it is not your turn to play now")),
    (r"(\S+) is not a card of this game's deck", lambda m, p, n: msg("that card is not in this game's deck")),
    (r"a (\S+) can't act on another player's hand", lambda m, p, n: msg("%(card)s can't act on another player's hand", card=a_rank_msg(m[1]))),
    (r"only the next player \(side (\d+)\) can be forced", lambda m, p, n: msg("only the next player, %(who)s, can be forced", who=_side(n, m[1]))),
    (r"side (\d+) holds no cards", lambda m, p, n: msg("%(who)s holds no cards", who=_side(n, m[1]))),
    (r"now each player passes one card to his partner", lambda m, p, n: msg("now each player passes one card to their partner")),
    (r"cards are passed only after the deal", lambda m, p, n: msg("cards are passed only after the deal")),
    (r"a 10 forced you to discard a card of your choice", lambda m, p, n: msg("a 10 forced you to discard a card of your choice")),
    (r"side (\d+)'s pegs are not yours to move now", lambda m, p, n: msg("%(who)s's pegs are not yours to move now", who=_side(n, m[1]))),
    (r"each part moves a different marble", lambda m, p, n: msg("each part moves a different peg")),
    (r"the parts must move forward and add up to 7", lambda m, p, n: msg("the parts must move forward and add up to 7")),
    (r"a marble that stood on its (home|base) hole when the turn began can't enter its goal", lambda m, p, n: msg("a peg that stood on its start hole when the turn began can't go into home this turn")),
    (r"a peg that stood on its own start hole when the turn began can't turn in this turn", lambda m, p, n: msg("a peg that stood on its start hole when the turn began can't go into home this turn")),
    (r"all 7 must be used", lambda m, p, n: msg("all 7 must be used")),
    (r"a peg standing on its own start hole can't be passed or landed on", lambda m, p, n: msg("a peg standing on its own start hole can't be passed or landed on")),
    (r"a marble never passes or lands on a marble of its own colour", lambda m, p, n: msg("a peg can't pass over a peg of its own colour")),
    (r"a marble can't pass two marbles on neighbouring holes", lambda m, p, n: msg("a peg can't pass two pegs on neighbouring holes")),
    (r"in home a peg moves forward only, exactly, never passing or landing on a peg", lambda m, p, n: msg("in home a peg moves forward only, exactly, never passing or landing on a peg")),
    (r"a (\S+) doesn't swap here", lambda m, p, n: msg("%(card)s doesn't swap here", card=a_rank_msg(m[1]))),
    (r"a swap takes one of your pegs and another colour's, both on the main track, neither on its own start hole", lambda m, p, n: msg("a swap takes one of your pegs and another colour's, both on the main track, neither on its own start hole")),
    (r"a (\S+) moves one peg", lambda m, p, n: msg("%(card)s moves one peg", card=a_rank_msg(m[1]))),
    (r"only (.+) bring a peg out of start", lambda m, p, n: msg("only %(cards)s bring a peg out of start", cards=_ranks(m[1]))),
    (r"a peg comes out onto its start hole", lambda m, p, n: msg("a peg comes out onto its start hole")),
    (r"your own peg stands on your start hole", lambda m, p, n: msg("your own peg stands on your start hole")),
    (r"a 5 moves another colour's peg only on the main track", lambda m, p, n: msg("a 5 moves another colour's peg only on the main track")),
    (r"a marble on its own base hole can't be moved by another's 5", lambda m, p, n: msg("a peg on its own start hole can't be moved by another player's 5")),
    (r"a backward move stays on the main track", lambda m, p, n: msg("a backward move stays on the main track")),
    (r"a (\S+) moves backward (\d+)", lambda m, p, n: nmsg("%(card)s moves %(n)s backward", "%(card)s moves %(n)s backward", int(m[2]), card=a_rank_msg(m[1]))),
    (r"a (\S+) doesn't move a peg that way", lambda m, p, n: msg("%(card)s doesn't move a peg that way", card=a_rank_msg(m[1]))),
    (r"no peg enters another colour's home", lambda m, p, n: msg("no peg enters another colour's home")),
    (r"now is the time to doubt or pass", lambda m, p, n: msg("now is the time to doubt or pass")),
    (r"choose a peg on the main track to send back to start", lambda m, p, n: msg("choose a peg on the main track to send back to start")),
    (r"a (\S+) moves (\d+), and the count must be used in full", lambda m, p, n: nmsg(
        "%(card)s moves %(n)s, and the count must be used in full", "%(card)s moves %(n)s, and the count must be used in full",
        int(m[2]), card=a_rank_msg(m[1]))),
]
_REASON_PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str], PegState, Names], Msg]]] = [
    (re.compile(p), f) for p, f in _REASONS]


def _count_rule(pos: PegState, rank: str) -> Msg:
    acts = card_powers(pos.rules).get(rank, ())
    dirs = [nmsg("%(n)s forward", "%(n)s forward", n) if k == FWD else nmsg("%(n)s backward", "%(n)s backward", n)
            for k, n, _ in acts if k in (FWD, BACK)]
    if not dirs:
        return msg("%(card)s moves a peg by its count, and the whole count must be used", card=a_rank_msg(rank))
    return msg("%(card)s moves a peg %(counts)s, and the whole count must be used", card=a_rank_msg(rank),
               counts=Join(dirs, "or"))


def refusal_msg(pos: PegState, names: Names, message: str) -> Msg:
    """The engine's refusal as a message (without its rule id); a reason it doesn't know
    reads "that move is not allowed here" (the rule id and its page say more)."""
    text = message.strip()
    for pattern, make in _REASON_PATTERNS:
        found = pattern.search(text)
        if found:
            try:
                made: Msg = make(found, pos, names)
                return made
            except (KeyError, ValueError, AttributeError):
                break
    return msg("that move is not allowed here")


def _refusal_english(pos: PegState, names: Names, message: str, rule: str | None) -> str:
    text = message.strip()
    m = _MOVE_TEXT.match(text)
    if m:
        text = text[m.end():]
        text = text[2:] if text.startswith(": ") else "that move " + text.lstrip()
    count = re.match(r"a (\S+) moves [\d, ]+ here, and the count must be used in full", text)
    own = re.search(r"you may move only (your own pegs|your team's pegs); side (\d+) is not yours", text)
    if count:
        acts = card_powers(pos.rules).get(count.group(1), ())
        dirs = [f"{n} {'forward' if k == FWD else 'backward'}" for k, n, _ in acts if k in (FWD, BACK)]
        text = (f"{a_rank(count.group(1))} moves a peg {' or '.join(dirs) or 'by its count'}, "
                f"and the whole count must be used")
    elif own:
        side = int(own.group(2))
        whose = names.short(side) if side in names.seat_of else f"side {side}"
        text = f"that's {whose}'s peg: you may move only " + (
            "your own" if own.group(1) == "your own pegs" else "your team's pegs")

    def side_name(mt: re.Match[str]) -> str:
        side = int(mt.group(1))
        return names.side(side) if side in names.seat_of else mt.group(0)
    text = re.sub(r"\bside (\d+)\b", side_name, text)
    text = re.sub(r"\bM(\d+)\b", r"hole \1", text)
    text = re.sub(r"\bH([1-9])\b", r"home hole \1", text)
    text = _RANK.sub(lambda mt: (a_rank(mt.group(2)) if mt.group(1) in ("a", "an")
                                 else f"{mt.group(1)} {rank_name(mt.group(2))}"), text)
    text = text.replace("hole hole", "hole").replace("an ace, J, Q, K or joker", "an ace, jack, queen, king or joker")
    return f"{text} ({rule})" if rule else text


__all__ = ["Names", "hole", "move_words", "before_play", "after_play", "declared_words",
           "cancelled", "told", "refusal", "refusal_msg", "a_rank", "rank_name", "card_words"]
