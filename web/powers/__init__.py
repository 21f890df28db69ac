"""What each card does, and the rules the referee cites, for a table's rule set, in the
reader's language (issue 25.1): the seat page links here, and a refusal's rule id opens
this page at that rule (``/rules/<gid>#rule-P8``)."""
from __future__ import annotations

from flask import Blueprint, render_template

from companion.message import Join, msg, nmsg
from companion.powers import BACK, FWD, JOKER, OUT, SPLIT, SWAP2, card_powers
from companion.words import a_rank_msg

from ..access import route
from ..i18n import say
from ..util import service

bp = Blueprint("powers", __name__, template_folder="templates")

# The rules the referee cites most, each in a sentence (docs/RULES.md says them in full).
RULES = {
    "G1": msg("Each seat has its side of the board and its own colour of pegs."),
    "T3": msg("Drawing for partners: everyone draws a card, the highest cards team up and the highest deals."),
    "C5": msg("The cards are shuffled fairly and in secret: a card is played only from your own hand."),
    "M1": msg("A card's count must be used in full: a move that can't use all of it can't be made."),
    "M2": msg("A peg never lands on or passes over a peg of its own colour."),
    "M4": msg("A peg in home moves forward within home only, and never leaves it."),
    "M5": msg("Backward moves (the 8) stay on the track: a peg never backs into home."),
    "M6": msg("A peg leaves start only by coming out onto its come-out hole, with a card that brings pegs out."),
    "M7": msg("Landing on another colour's peg hits it: an opponent's peg goes back to start, a teammate's to its in-spot."),
    "M8": msg("Pegs in home are safe: nobody else can hit, swap or move them."),
    "M9": msg("A split divides a card's count between two different pegs."),
    "M10": msg("A team wins when every peg of its players is home."),
    "P6": msg("The joker moves one of your pegs from start or the track onto another colour's peg on the main track."),
    "P7": msg("If a card in your hand can move, you must play one that moves: you may discard only when none can."),
    "P8": msg("You move only your own pegs; once all yours are home, you help your partner with theirs."),
    "R2": msg("A come-out is a landing on the come-out hole: a hit there follows the usual rules."),
    "R7": msg("A peg moved by a player of another team never turns into its home."),
    "R8": msg("A teammate's peg standing on its own in-spot can't be landed on."),
    "R12": msg("Counting: after enough turns without a move, a peg comes out for free."),
    "R14": msg("The Pegoo joker must move a peg: leaving it where it stands is no move."),
    "R15": msg("Arizona's joker: while your team has a peg in start, the joker must bring one out."),
    "V-NC4": msg("North Carolina: a 2 may swap two pegs of different colours on the main track."),
    "V-NC6": msg("North Carolina: a 10 is always split between two pegs, each part forward or backward."),
    "V-NC7": msg("North Carolina: counting gives a free come-out after enough stuck turns."),
    "V-KP2": msg("Kilpatrick: a peg may not pass its own in-spot; it must turn into home."),
    "V-PG": msg("Pegoo: the joker takes one of your pegs to its in-spot."),
    "V-BJ": msg("Bluffing Joker: a card is played face down as any rank; the next players may doubt it."),
}


def _action(kind, n, extra):
    if kind == OUT:
        return msg("brings a peg out of start onto its come-out hole")
    if kind == FWD:
        return nmsg("moves a peg %(n)s hole forward", "moves a peg %(n)s holes forward", n)
    if kind == BACK:
        return nmsg("moves a peg %(n)s hole backward", "moves a peg %(n)s holes backward", n)
    if kind == SPLIT:
        both = extra and any("B" in pair for pair in extra)
        return (msg("may split %(n)s between two of your pegs, each part forward or backward", n=n) if both
                else msg("may split %(n)s between two of your pegs, both forward", n=n))
    if kind == SWAP2:
        return msg("may swap two pegs of different colours on the main track")
    if kind == JOKER:
        return msg("moves one of your pegs from start or the track onto another colour's peg on the main track")
    return None


def _related_action(kind, n):
    from companion import related as R
    return {
        R.OUT: lambda: msg("brings a peg out of start onto its come-out hole"),
        R.FWD: lambda: nmsg("moves a peg %(n)s hole forward", "moves a peg %(n)s holes forward", n),
        R.BACK: lambda: nmsg("moves a peg %(n)s hole backward", "moves a peg %(n)s holes backward", n),
        R.OTHER5: lambda: msg("may move another player's peg 5 forward"),
        R.SWAPK: lambda: msg("swaps one of your pegs with another colour's peg on the main track"),
        R.SPLIT7: lambda: msg("may split 7 between your pegs, all forward"),
        R.STEPS7: lambda: msg("moves 7 forward one hole at a time, shared between your pegs"),
        R.FORCE10: lambda: msg("or makes the next player discard a card and miss a turn"),
        R.STEAL: lambda: msg("takes a card at random from the next player, who misses a turn"),
        R.KING: lambda: nmsg("moves a peg %(n)s hole forward, sending back every peg it passes",
                             "moves a peg %(n)s holes forward, sending back every peg it passes", n),
    }.get(kind, lambda: None)()


def powers_of(table) -> list[dict]:
    """[{rank, card, does}] for the table's rule set, the sentences rendered for the reader."""
    pos = table.game.position
    out = []
    if hasattr(pos, "rg_powers"):
        for rank, acts in pos.rg_powers.items():
            said = [a for a in (_related_action(k, n) for k, n in acts) if a is not None]
            out.append({"rank": rank, "card": say(a_rank_msg(rank)), "does": say(Join(said, "or").msg()) if said else ""})
    else:
        for rank, acts in card_powers(pos.rules).items():
            said = [a for a in (_action(*act) for act in acts) if a is not None]
            out.append({"rank": rank, "card": say(a_rank_msg(rank)), "does": say(Join(said, "or").msg()) if said else ""})
    return out


@route(bp, "GET", "/rules/<gid>", who={"anyone"},
       reveals="the table's rule set in words: what each card does and the rules the referee cites (no game state)")
def rules_page(gid):
    table = service().get(gid)
    rules = [{"id": rid, "text": say(text)} for rid, text in RULES.items()]
    return render_template("powers/sheet.html", gid=gid, preset=table.game.rules.preset,
                           powers=powers_of(table), rules=rules)
