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

from .board import START
from .hits import hits
from .moves import DISCARD, DOUBT, FORCE, FREE, GIVE, HAND, PASS, PENALTY, SWAP
from .powers import BACK, FWD, SPLIT, card_powers

RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "JK": "joker",
              "Jr": "red jack", "Jb": "black jack", "Qr": "red queen", "Qb": "black queen"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def rank_name(rank: str) -> str:
    """"jack", "8", "joker"."""
    return RANK_NAMES.get(rank, rank)


def a_rank(rank: str) -> str:
    """The rank with its article: "a jack", "an 8", "an ace", "a joker"."""
    name = rank_name(rank)
    return ("an " if name[0] in "aeiou8" or name in ("11", "18") else "a ") + name


def card_words(card: str) -> str:
    """"the 8 of diamonds", "the king of spades", "a joker"."""
    if card == "JK":
        return "a joker"
    return f"the {rank_name(card[:-1])} of {SUITS.get(card[-1], card[-1])}"


class Names:
    """Who sits where: seat names and colour names, looked up by seat or by side."""

    def __init__(self, seats, seat_side):
        """``seats``: [(name, colour name)] in seat order; ``seat_side``: each seat's side."""
        self.names = [n for n, _ in seats]
        self.colours = [c for _, c in seats]
        self.seat_of = {side: seat for seat, side in enumerate(seat_side)}

    def seat(self, seat: int) -> str:
        """"Ann (Red)"."""
        return f"{self.names[seat]} ({self.colours[seat]})"

    def side(self, side: int) -> str:
        return self.seat(self.seat_of[side])

    def short(self, side: int) -> str:
        return self.names[self.seat_of[side]]

    def colour(self, side: int) -> str:
        return self.colours[self.seat_of[side]]

    def peg(self, side: int, mover: int | None = None) -> str:
        """"a peg" (the mover's own), else "Ben's blue peg"."""
        if side == mover:
            return "a peg"
        return f"{self.short(side)}'s {self.colour(side).lower()} peg"


def hole(geo, names: Names, side: int, loc: int) -> str:
    """A hole as a player finds it: "hole 21", "Ben's home hole 3", "Ben's start"."""
    if loc == START:
        return f"{names.short(side)}'s start"
    if loc < geo.length:
        return f"hole {loc}"
    return f"{names.short(side)}'s home hole {loc - geo.length + 1}"


def _count(pos, c, s, d, rank):
    """(direction word, count) of one step s -> d by a card of `rank`, or None."""
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
            return ("forward" if kind == FWD else "backward"), n
    return None


def _step(pos, names, c, s, d, rank, mover):
    peg = names.peg(c, mover)
    where = f"from {hole(pos.geo, names, c, s)} to {hole(pos.geo, names, c, d)}"
    if s == START:
        return f"{peg} out onto {hole(pos.geo, names, c, d)}"
    if rank == "JK":
        return f"{peg} {where}"
    found = _count(pos, c, s, d, rank)
    if found is None:
        return f"{peg} {where}"
    direction, n = found
    return f"{peg} {n} {direction}, {where}"


def _hits(pos, move, names):
    """Pegs the move sends elsewhere besides its own steps (M7), in words."""
    geo = pos.geo
    out = []
    for c, src, dst in hits(pos, move):
        to = "back to start" if dst == START else (
            f"to its in-spot, {hole(geo, names, c, dst)}" if dst == geo.in_spot[c]
            else f"to {hole(geo, names, c, dst)}")
        out.append(f"{names.peg(c)} on {hole(geo, names, c, src)} goes {to}")
    return out


def move_words(pos, move, names: Names, declared: bool = False) -> str:
    """A move of the side to move, in words, from the position before it.

    ``declared``: played face down (Bluffing Joker): the rank is what was declared.
    """
    rank, kind, steps = move
    who = names.side(pos.to_move)
    mover = pos.to_move
    if kind == DISCARD:
        return f"{who} discarded {a_rank(rank)}: no card could move"
    if kind == HAND:  # TK-P3, JR-P10
        return f"{who} discarded the whole hand and waits for the next deal"
    if kind == GIVE:  # TK-V4: the card stays secret
        return f"{who} passed a card face down to {names.side(steps[0])}"
    if kind == FORCE:  # JR-P5, JR-P6
        target = names.side(steps[0])
        if rank == "Qr":
            return (f"{who} played a red queen: a card is taken at random from {target}, "
                    f"who misses a turn")
        return f"{who} played {a_rank(rank)}: {target} discards a card and misses a turn"
    card = f"as {a_rank(rank)}" if declared else f"with {a_rank(rank)}"
    lead = f"{who} played a card face down {card}: " if declared else f"{who} "
    tail = "" if declared else f" {card}"
    if kind == FREE:
        c, s, d = steps[0]
        text = f"{lead}took the free come-out (counting): {_step(pos, names, c, s, d, rank, mover)}"
        tail = ""
    elif kind == SWAP:
        (c1, a, _), (c2, b, _) = steps
        text = (f"{lead}swapped {names.peg(c1, mover)} on {hole(pos.geo, names, c1, a)} with "
                f"{names.peg(c2, mover)} on {hole(pos.geo, names, c2, b)}")
    elif len(steps) >= 2:
        parts = [_step(pos, names, c, s, d, rank, mover) for c, s, d in steps]
        text = f"{lead}split {a_rank(rank)}: {', '.join(parts[:-1])}, and {parts[-1]}"
        tail = ""
    else:
        c, s, d = steps[0]
        step = _step(pos, names, c, s, d, rank, mover)
        if s == START:
            peg, place = step.split(" out onto ", 1)
            text = f"{lead}brought {peg} out{tail}, onto {place}"
            tail = ""
        elif rank == "JK":
            text = f"{lead}moved {step}" + ("" if declared else " with the joker")
            tail = ""
        else:
            text = f"{lead}moved {step}"
            if tail:  # "moved a peg 7 forward with a 7, from hole 4 to hole 11"
                head, sep, where = text.partition(", from ")
                text, tail = (f"{head}{tail}{sep}{where}", "") if sep else (text, tail)
    text += tail
    hits = _hits(pos, move, names)
    if hits:
        text += "; " + "; ".join(hits)
    return text


# ------------------------------------------------------------------ the game's own steps
def before_play(game, play, names: Names) -> dict:
    """What a play will say, taken before it is made (the position is still the old one)."""
    move = play[0]
    kind = move[1]
    if kind in (DOUBT, PASS):
        p = game.pending
        return {"kind": kind, "actor": game.actor, "bluffer": p["seat"], "declared": p["move"][0],
                "card": p["card"], "last": len(p["queue"]) == 1}
    if kind == PENALTY:
        c, s, _ = move[2][0]
        return {"kind": kind, "actor": game.actor,
                "words": f"{names.seat(game.actor)} sent {names.peg(c)} on "
                         f"{hole(game.position.geo, names, c, s)} back to start"}
    phase = getattr(game, "phase", None)
    if phase == "give":  # TK-V4.1: the giver is the actor, not the side to move
        return {"kind": kind, "words": f"{names.seat(game.actor)} passed a card face down to "
                                       f"{names.side(move[2][0])}"}
    if phase == "forced":  # JR-P5: a discard of his choice, face up
        return {"kind": kind, "words": f"{names.seat(game.actor)} discarded {a_rank(move[0])}, "
                                       f"forced by {names.seat(game.forcer)}'s 10"}
    declared = bool(game.rules.bluffing) and kind != DISCARD
    return {"kind": kind, "words": move_words(game.position, move, names, declared)}


def after_play(game, said: dict, names: Names) -> str:
    """The finished sentence(s) once the play is made; also kept on its history entry."""
    kind = said["kind"]
    if kind == DOUBT:
        text = _doubt_outcome(game, said, names)
    elif kind == PASS:
        text = f"{names.seat(said['actor'])} passed"
        if said["last"] and game.phase != "doubt":
            text += (f". No one doubted {names.names[said['bluffer']]}'s "
                     f"{rank_name(said['declared'])}: the move stands")
            text += _next(game, names)
    elif kind == PENALTY:
        text = said["words"] + _next(game, names)
    else:
        text = said["words"]
        if game.is_over():
            text += _next(game, names)
    game.history[-1]["words"] = text
    return text


def _doubt_outcome(game, said, names):
    doubter, bluffer = said["actor"], said["bluffer"]
    b = names.names[bluffer]
    declared, card = said["declared"], said["card"]
    caught = card[:-1] != declared if card != "JK" else declared != "JK"
    text = f"{names.seat(doubter)} doubted {b}'s {rank_name(declared)}: it was {card_words(card)}"
    if caught:
        text += f", a bluff. {b}'s move is cancelled"
        winner, loser = doubter, bluffer
    else:
        text += f", the card was true. {b}'s move stands"
        winner, loser = bluffer, doubter
    if game.phase == "penalty":   # who plays next is said once the peg is chosen
        return text + (f"; {names.seat(winner)} chooses one of {names.names[loser]}'s pegs on "
                       f"the track to send back to start")
    if not game.is_over():
        text += (f"; {names.names[loser]} has no peg on the track to send back, so "
                 f"{names.names[winner]} gets an extra turn at their next turn")
    return text + _next(game, names)


def _next(game, names):
    if game.is_over():
        if game.winner is None:  # RG-D1
            from .families.tock.game import STILL_DEALS_TO_DRAW
            return f". No peg has moved in {STILL_DEALS_TO_DRAW} deals in a row: the game is drawn"
        won = [names.seat(s) for s in range(game.players)
               if game.team_of_seat(s) == game.winner]
        return f". {' and '.join(won)} win the game"
    if game.phase == "penalty":
        return f". {names.seat(game.actor)} is choosing the peg"
    return f". {names.seat(game.seat)} plays next"


def declared_words(game, names: Names) -> str | None:
    """The face-down play waiting for doubts, in words (None outside the doubt window)."""
    if game.phase != "doubt" or not game.pending:
        return None
    return move_words(game.position, game.pending["move"], names, declared=True)


def cancelled(history) -> set[int]:
    """Indices of history entries whose move a caught bluff cancelled."""
    out = set()
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


def told(history) -> str | None:
    """How the latest doubt ended (and the penalty peg, once chosen), while no ordinary
    move has been made since."""
    after: list[str] = []
    for entry in reversed(history):
        kind = entry["move"][1]
        if kind == DOUBT or (kind == PASS and "the move stands" in entry.get("words", "")):
            return ". ".join([entry.get("words", ""), *after]) if entry.get("words") else None
        if kind == PENALTY and entry.get("words"):
            after.insert(0, entry["words"])
        elif kind not in (PENALTY, PASS):
            return None
    return None


# ------------------------------------------------------------------ refusals
_MOVE_TEXT = re.compile(r"^(?:A|[2-9]|10|J|Q|K|JK)(?: \d+:(?:S|M\d+|H\d+)(?:-|<>)(?:\d+:)?(?:S|M\d+|H\d+))+"
                        r"|^(?:A|[2-9]|10|J|Q|K|JK) (?:discard|free \d+:S-M\d+)")
_RANK = re.compile(r"\b(a|an|no|the) (A|J|Q|K|JK|10|[2-9])\b")


def refusal(pos, names: Names, message: str, rule: str | None) -> str:
    """A refusal from the rules engine in words, keeping its rule id: "that's Ben's peg:
    you may move only your own (P8)"."""
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

    def side_name(mt):
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
           "cancelled", "told", "refusal", "a_rank", "rank_name", "card_words"]
