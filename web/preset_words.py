"""The rules presets' names and descriptions as messages, so the new-table page, the home
page and the card sheet show them in the phone's language (issue 25.1).

The English here must be companion.rules.DESCRIPTIONS word for word (a test compares
them), so a changed description shows up as a stale catalog entry, not a silent mix.
The presets' differences keep their settings as written (``draw = 'after'``) with the doc translated.
"""
from __future__ import annotations

import re

from companion.message import msg
from companion.option_words import OPTION_NAME_MSGS, VALUE_MSGS

TITLES = {
    "basic": msg("Basic game"), "arizona": msg("Arizona"), "north_carolina": msg("North Carolina"),
    "pegoo": msg("Pegoo"), "wizard_woodworks": msg("Wizard Woodworks"), "alaska": msg("Alaska"),
    "kilpatrick": msg("Kilpatrick"), "social_security": msg("Social Security"),
    "bluffing_joker": msg("Bluffing Joker"), "tock": msg("Tock"), "tock_partnership": msg("Partnership Tock"),
    "tock3": msg("Three-player Tock"), "carbles": msg("Carbles"), "carbles_partnership": msg("Partnership Carbles"),
    "jackaroo": msg("Jackaroo"), "jackaroo_individual": msg("Individual Jackaroo"),
}

DESCRIPTIONS = {
    "tock": msg("Tock (4 players, each alone): one 52-card deck dealt 5, 4, 4 with no drawing. A and K come out onto the start hole, the 4 is forward, the 7 moves one peg, J, Q, K move 11, 12, 13. Landing on any peg, your own included, sends it to start; a peg on its own start hole can't be passed or landed on. Stuck: discard your hand and wait for the next deal. Switches: reverse_four, ten_swap, forced_five."),
    "tock_partnership": msg("Partnership Tock: Tock with partners opposite. After each deal you pass one card face down to your partner; once your pegs are all home you move your partner's. A team wins with all 8 pegs home."),
    "tock3": msg("Three-player Tock: the 4-sided board with side 3 empty; deals of 5, 4, 4, 4, the 52nd card set aside unseen until the reshuffle."),
    "carbles": msg("Carbles (2-6 players, each alone): 52 cards and 2 jokers, 4 cards a deal. A, K and the joker come out; the 4 moves backward; the 7 is seven single steps shared among your marbles, hitting on each; the J moves 11 or swaps. Stuck: burn one card."),
    "carbles_partnership": msg("Partnership Carbles: 4, 6, 8 or 12 players in pairs sitting opposite; a joker may bring out your partner's marble; a team wins with all 8 marbles in goal."),
    "jackaroo": msg("Jackaroo (two teams of two): deals of 4, 4, 5; turns pass to the right. No marble passes its own colour or a pair; the 4 moves backward, the 5 may move any other marble, the 7 splits over your marbles, the 10 may force the next player to discard, the red queen takes a random card from him, the black jack swaps, and the K sends every marble it passes to start. You may give up your hand on your turn."),
    "jackaroo_individual": msg("Individual Jackaroo: Jackaroo with each player alone; the 5 takes only your own marbles into your goal."),
    "basic": msg("The basic game (pagat.com): draw one card, then play one of six. A, J, Q, K come out; 8 moves backward; 7 may split between two of your own pegs; the joker jumps one of your pegs onto any other colour's peg on the main track. You move only your own pegs until all are home, then help your next partner."),
    "arizona": msg("Arizona rules: play first, then draw (choice among five). Any peg of your team may be moved at any time. 7 and 9 split between any two team pegs, the 9 one forward and one backward. The joker must bring a team peg out of start while the team has any there (R15: even if none of them has a target)."),
    "north_carolina": msg("North Carolina (Jokers and Pegs): ace also moves backward 1 or forward 11; 2 may swap any two pegs of different colours on the main track; 9 may split forward/backward between your own pegs; 10 must be split between any two pegs on the board, each part forward or backward; three turns stuck in a row (counting) earn a free come-out. A split may finish your last peg and go on with your partner's (R11). Rulings: a peg moved by another team never turns into its home (R7); the free come-out is compulsory once offered (R12)."),
    "pegoo": msg("Pegoo (Florida): 20 holes a side. The joker either takes your own peg from anywhere but home to its in-spot, or sends any opponent's peg on the main track back to start (R14). 2 swaps as in North Carolina; 9 splits forward/backward; counting with the free come-out on the third turn. In-spot and come-out at 3 and 8 as on the standard board (R6)."),
    "wizard_woodworks": msg("Wizard Woodworks rule sheet: the basic game, but play first and draw after, the 2 may swap two pegs of different colours on the main track, and the 9 may split between two of your own pegs, one forward and one backward."),
    "alaska": msg("Alaska (Becker): the basic game, but the 10 moves forward 10 or backward 1, and counting applies with the free come-out on the fourth stuck turn."),
    "kilpatrick": msg("Kilpatrick: Arizona rules with hands of three cards, and no peg may move forward past its own in-spot: it must turn into home, and a move that home can't take is not possible for that peg (R17: landing exactly on the in-spot is allowed)."),
    "social_security": msg("Social Security: the basic game, but the 9 may split between two pegs, one backward and one forward in any division totalling 9 (R5; a single 9 forward stays legal, R13), and J, Q, K move forward 11, 12, 13 (each can still come out)."),
    "bluffing_joker": msg("Bluffing Joker: the basic game, but every card is played face down with a declared card, and the move is made as declared. The opponents, in turn, may doubt. A caught bluff costs the bluffer a peg on the main track (sent to start) and the move; a wrong doubt costs the doubter a peg and the move stands. With no peg on the main track to send back, the winner of the doubt takes an extra turn instead. Undoubted cards are never revealed."),
}


def title(preset: str):
    """A preset's name for people ("North Carolina"), as a message; the id if unknown."""
    return TITLES.get(preset) or preset.replace("_", " ")


def description(preset: str, english: str):
    """The preset's description as a message when it is the one catalogued, else the English."""
    said = DESCRIPTIONS.get(preset)
    return said if said is not None and str(said) == english else english


# The options' docs (companion.rules.OPTION_DOCS) and the presets' rulings (RULINGS), each
# a message; a test keeps them word for word the engine's.
OPTION_DOC_MSGS = {m: m for m in (
    msg('holes per board side (G2): 18 standard, 20 Pegoo'),
    msg('in-spot hole after the corner (G3), default 3'),
    msg('come-out hole after the corner (G3), default 8'),
    msg('pegs per player (G5), default 5'),
    msg('cards dealt to each player (C2): 5, Kilpatrick 3'),
    msg('standard decks in the shoe (C1)'),
    msg('jokers in each deck (C1)'),
    msg('extra jokers added to the shoe (C1, V-OPT)'),
    msg('two-player games leave the jokers out (V-OPT)'),
    msg('draw before playing or after (C3, V-OPT end draw)'),
    msg('any peg of the team may be moved, always (V-AZ2, V-OPT any peg moves)'),
    msg('9: forward only, or also split one forward and one backward (V-AZ3, V-OPT special nines)'),
    msg('ace: come out or forward 1; North Carolina adds backward 1 and forward 11 (V-NC3)'),
    msg('2 may swap two pegs of different colours on the main track (V-NC4)'),
    msg('10: forward; must split over any pegs (V-NC6); or forward 10 / backward 1 (V-AK)'),
    msg('J, Q, K move forward 10, or 11, 12, 13 (V-SS)'),
    msg("joker power: P6, V-AZ5, or Pegoo's two powers (V-PG)"),
    msg('a joker may also bring a peg out to its come-out hole (V-OPT)'),
    msg('counting: off, or the free come-out on the 3rd / 4th stuck turn (V-NC7)'),
    msg("a split may finish the last peg and go on with the partner's (V-NC1, R11)"),
    msg('a peg may not pass its own in-spot forward: it must turn in (V-KP2, R17)'),
    msg('a player may discard instead of moving even when able (V-OPT forfeit)'),
    msg('cards are played face down with a declared card; opponents may doubt (V-BJ)'),
    msg('holes in each home (G4): 5, Tock/Carbles/Jackaroo 4 (TK-G4)'),
    msg('hands dealt in rounds without drawing, e.g. [5, 4, 4] (TK-C2); [] = draw each turn (C2, C3)'),
    msg('with deal rounds: shuffle all cards after the last round (TK-C2), or refill the stock from the discards when it runs out (CB-C2)'),
    msg('no legal move: discard one card (P7, CB-P4, JR-P9) or the whole hand and wait for the next deal (TK-P3)'),
    msg('a joker is never forced (P7); off: must move covers the joker too (CB-R12)'),
    msg('a player may discard the whole hand on his turn even when able to move (JR-P10)'),
    msg('after each deal every player passes one card face down to his partner (TK-V4)'),
    msg('4: forward 4, or backward 4 (TK-V1, CB, JR)'),
    msg('5: forward; also any peg on the track (TK-V3); or any other marble not on its own start hole (JR-P3)'),
    msg('7: split between two pegs (P3); one peg only (TK-R6); seven single steps with a hit on each (CB-P2); split over any number of pegs (JR-P4)'),
    msg('J: its count; or also a swap (CB-P3); or red forward 11 / black swap (JR-P7)'),
    msg('Q: its count; or red takes a random card from the next player (JR-P6), black its count'),
    msg('K: come out or its count; or its 13 sends every marble it passes to start (JR-P8)'),
    msg('court cards that come out: J, Q, K (P5) or the K only (TK, CB, JR)'),
    msg('a peg never passes or lands on its own colour (M2), or passes it and hits it by landing (TK-M2)'),
    msg("a hit teammate's peg goes to its in-spot (M7), or every hit peg to its start area (TK-M2)"),
    msg("a peg on its own come-out hole can't be passed, landed on or swapped (TK-M3)"),
    msg('no peg passes two pegs on neighbouring main-track holes (JR-M3)'),
    msg("a joker may bring out the partner's peg instead of one's own (CB-V1.2)"),
    msg('turns pass clockwise (T2) or counter-clockwise (JR-G2); pegs always move clockwise'),
    msg('every hand is shown to everyone (CB-V2)'),
    msg("seating: T1's teams; each plays alone; or partners in pairs sitting opposite"),
)}

RULING_MSGS = {m: m for m in (
    msg('Pegs in home are safe (M8): a doubt penalty takes a peg from the main track only; with none there the extra-turn fallback applies.'),
    msg('On a wrong doubt the declared move is made first, then the penalty peg is chosen.'),
    msg("A discard is only allowed when the real hand could not move (P7); it is not declared and can't be doubted. The extra turn is taken right after the winner's next turn."),
    msg('The first dealer is the seat the table names (the last seat by default); the deal then passes on after every deal (TK-C4, JR-C3).'),
    msg('Skipped turns and players passed over for having no cards are not moves of the record: they follow from the rules.'),
    msg("A stuck player's burn is offered once per rank: suits make no difference to a burn."),
    msg('RG-D1: when 10 deals in a row end with no peg moved (everyone stuck or giving up the hand), the game ends drawn instead of being dealt forever.'),
    msg('TK-V3 Forced Five: the 5 still moves your own pegs as an ordinary 5 (in home too); the other pegs it may move are those on the main track.'),
    msg('TK-P3: the discarded hand lies face up; the player shows as waiting until the next deal.'),
    msg('TK-V4.1: players choose the card to pass in turn order from the lead; the cards are exchanged once everyone has chosen, so no one sees the card he receives before.'),
    msg('CB-G1: without a choice of board, the smallest of 4, 6, 8, 12 sections that seats everyone.'),
    msg('CB-P2: a 7 is listed once per end position, written as one order of steps that reaches it; any legal order of the same steps is accepted.'),
    msg('JR-P5: the forced player discards at once, a card of his choice, face up; his next turn is then skipped.'),
    msg('JR-P6: the card taken lies face down on the discard pile: only the thief and its former holder see it.'),
    msg('JR-P9/P10: a stuck player may burn one card or give up the whole hand.'),
    msg("While helping a partner, counting's free come-out brings out a peg of the partner being helped (the pegs the player controls)."),
)}


_SETTING = re.compile(r"^(\w+) = (.*) \(basic: (.*)$")


def difference(line: str):
    """A line of `companion.rules.differences` ("draw = 'after' (basic: 'first'): draw before
    playing or after (...)"): the option's name, its yes/no values and its doc in the reader's
    words; other values stay as written (they are what a rules file says)."""
    setting, sep, doc = line.partition("): ")
    said = OPTION_DOC_MSGS.get(doc) if sep else None
    parts = _SETTING.match(setting) if said is not None else None
    if parts is None or parts[1] not in OPTION_NAME_MSGS:
        return msg("%(setting)s): %(doc)s", setting=setting, doc=said) if said is not None else line
    name, value, base = parts.groups()
    return msg("%(option)s = %(value)s (basic: %(base)s): %(doc)s", option=OPTION_NAME_MSGS[name],
               value=VALUE_MSGS.get(value, value), base=VALUE_MSGS.get(base, base), doc=said)


def ruling(text: str):
    return RULING_MSGS.get(text, text)


__all__ = ["TITLES", "DESCRIPTIONS", "OPTION_DOC_MSGS", "OPTION_NAME_MSGS", "RULING_MSGS", "title", "description", "difference",
           "ruling"]
