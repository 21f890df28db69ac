"""The rules presets' names and descriptions as messages, so the new-table page, the home
page and the card sheet show them in the phone's language (issue 25.1).

The English here must be companion.rules.DESCRIPTIONS word for word (a test compares
them), so a changed description shows up as a stale catalog entry, not a silent mix.
The presets' generated lists of differences and rulings stay English for now.
"""
from __future__ import annotations

from companion.message import msg

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


__all__ = ["TITLES", "DESCRIPTIONS", "title", "description"]
