"""Rule options and the named presets of RULES.md section V.

A rule set is a frozen `Rules` value: every variant is a preset of documented
options, and options can be combined by hand (NOTATION.md `rules` field:
``{"preset": NAME, "options": {...}}``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, cast

from .errors import RulesError  # noqa: F401 (re-exported: companion.rules.RulesError)

# Option name -> (allowed values or type, one-line documentation). The
# documentation is shown by `pegs rules` and the web page.
OPTION_DOCS: dict[str, tuple[object, str]] = {
    "holes_per_side": ((18, 20), "holes per board side (G2): 18 standard, 20 Pegoo"),
    "in_spot_offset": (int, "in-spot hole after the corner (G3), default 3"),
    "come_out_offset": (int, "come-out hole after the corner (G3), default 8"),
    "pegs_per_side": ((1, 2, 3, 4, 5), "pegs per player (G5), default 5"),
    "hand_size": ((3, 4, 5, 6), "cards dealt to each player (C2): 5, Kilpatrick 3"),
    "decks": ((1, 2, 3, 4, 5, 6), "standard decks in the shoe (C1)"),
    "jokers_per_deck": ((0, 1, 2), "jokers in each deck (C1)"),
    "extra_jokers": ((0, 1, 2, 3, 4), "extra jokers added to the shoe (C1, V-OPT)"),
    "two_players_no_jokers": (bool, "two-player games leave the jokers out (V-OPT)"),
    "draw": (("first", "after"), "draw before playing or after (C3, V-OPT end draw)"),
    "team_pegs": (bool, "any peg of the team may be moved, always (V-AZ2, V-OPT any peg moves)"),
    "nine": (("forward", "split"), "9: forward only, or also split one forward and one backward (V-AZ3, V-OPT special nines)"),
    "ace": (("basic", "north_carolina"), "ace: come out or forward 1; North Carolina adds backward 1 and forward 11 (V-NC3)"),
    "two_swap": (bool, "2 may swap two pegs of different colours on the main track (V-NC4)"),
    "ten": (("forward", "split", "forward_or_back1"), "10: forward; must split over any pegs (V-NC6); or forward 10 / backward 1 (V-AK)"),
    "court": (("10", "11-13"), "J, Q, K move forward 10, or 11, 12, 13 (V-SS)"),
    "joker": (("basic", "arizona", "pegoo"), "joker power: P6, V-AZ5, or Pegoo's two powers (V-PG)"),
    "start_jokers": (bool, "a joker may also bring a peg out to its come-out hole (V-OPT)"),
    "counting": ((0, 3, 4), "counting: off, or the free come-out on the 3rd / 4th stuck turn (V-NC7)"),
    "split_hand_over": (bool, "a split may finish the last peg and go on with the partner's (V-NC1, R11)"),
    "must_turn_in": (bool, "a peg may not pass its own in-spot forward: it must turn in (V-KP2, R17)"),
    "forfeit": (bool, "a player may discard instead of moving even when able (V-OPT forfeit)"),
    "bluffing": (bool, "cards are played face down with a declared card; opponents may doubt (V-BJ)"),
    # Options of the related games (RELATED-GAMES.md); each is usable by any
    # rule set of the Tock family (see `family_name`).
    "home_size": ((4, 5), "holes in each home (G4): 5, Tock/Carbles/Jackaroo 4 (TK-G4)"),
    "deal": (tuple, "hands dealt in rounds without drawing, e.g. [5, 4, 4] (TK-C2); [] = draw each turn (C2, C3)"),
    "deal_reshuffle": (("cycle", "empty"), "with deal rounds: shuffle all cards after the last round (TK-C2), or refill the stock from the discards when it runs out (CB-C2)"),
    "stuck": (("card", "hand"), "no legal move: discard one card (P7, CB-P4, JR-P9) or the whole hand and wait for the next deal (TK-P3)"),
    "joker_exempt": (bool, "a joker is never forced (P7); off: must move covers the joker too (CB-R12)"),
    "give_up_hand": (bool, "a player may discard the whole hand on his turn even when able to move (JR-P10)"),
    "pass_card": (bool, "after each deal every player passes one card face down to his partner (TK-V4)"),
    "four": (("forward", "backward"), "4: forward 4, or backward 4 (TK-V1, CB, JR)"),
    "five": (("forward", "any", "others"), "5: forward; also any peg on the track (TK-V3); or any other marble not on its own start hole (JR-P3)"),
    "seven": (("split", "one", "steps", "split_any"), "7: split between two pegs (P3); one peg only (TK-R6); seven single steps with a hit on each (CB-P2); split over any number of pegs (JR-P4)"),
    "jack": (("plain", "swap", "suited"), "J: its count; or also a swap (CB-P3); or red forward 11 / black swap (JR-P7)"),
    "queen": (("plain", "suited_steal"), "Q: its count; or red takes a random card from the next player (JR-P6), black its count"),
    "king": (("plain", "clears"), "K: come out or its count; or its 13 sends every marble it passes to start (JR-P8)"),
    "court_out": (("JQK", "K"), "court cards that come out: J, Q, K (P5) or the K only (TK, CB, JR)"),
    "own_pegs": (("block", "hit"), "a peg never passes or lands on its own colour (M2), or passes it and hits it by landing (TK-M2)"),
    "hits": (("in_spot", "start"), "a hit teammate's peg goes to its in-spot (M7), or every hit peg to its start area (TK-M2)"),
    "start_block": (bool, "a peg on its own come-out hole can't be passed, landed on or swapped (TK-M3)"),
    "pair_block": (bool, "no peg passes two pegs on neighbouring main-track holes (JR-M3)"),
    "partner_joker": (bool, "a joker may bring out the partner's peg instead of one's own (CB-V1.2)"),
    "direction": (("clockwise", "counter"), "turns pass clockwise (T2) or counter-clockwise (JR-G2); pegs always move clockwise"),
    "open_hand": (bool, "every hand is shown to everyone (CB-V2)"),
    "team_play": (("any", "solo", "pairs"), "seating: T1's teams; each plays alone; or partners in pairs sitting opposite"),
}


@dataclass(frozen=True)
class Rules:
    preset: str = "basic"
    holes_per_side: int = 18
    in_spot_offset: int = 3
    come_out_offset: int = 8
    pegs_per_side: int = 5
    hand_size: int = 5
    decks: int = 4
    jokers_per_deck: int = 2
    extra_jokers: int = 0
    two_players_no_jokers: bool = False
    draw: str = "first"
    team_pegs: bool = False
    nine: str = "forward"
    ace: str = "basic"
    two_swap: bool = False
    ten: str = "forward"
    court: str = "10"
    joker: str = "basic"
    start_jokers: bool = False
    counting: int = 0
    split_hand_over: bool = False
    must_turn_in: bool = False
    forfeit: bool = False
    bluffing: bool = False
    home_size: int = 5
    deal: tuple[int, ...] = ()
    deal_reshuffle: str = "cycle"
    stuck: str = "card"
    joker_exempt: bool = True
    give_up_hand: bool = False
    pass_card: bool = False
    four: str = "forward"
    five: str = "forward"
    seven: str = "split"
    jack: str = "plain"
    queen: str = "plain"
    king: str = "plain"
    court_out: str = "JQK"
    own_pegs: str = "block"
    hits: str = "in_spot"
    start_block: bool = False
    pair_block: bool = False
    partner_joker: bool = False
    direction: str = "clockwise"
    open_hand: bool = False
    team_play: str = "any"

    def __post_init__(self) -> None:
        # Worked out once: `companion.families.find_family` reads it.
        object.__setattr__(self, "_family", _family_name(self))

    def options(self) -> dict[str, Any]:
        """The options that differ from the preset they were built from."""
        base = ALL_PRESETS[self.preset]
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)}

    def to_json(self) -> str | dict[str, Any]:
        if self.preset in RELATED_PRESETS:  # RG-N5: only the preset's switches
            on = {name: True for name, change in SWITCHES.get(self.preset, {}).items()
                  if all(getattr(self, k) == v for k, v in change.items())}
            return {"preset": self.preset, "options": on} if on else self.preset
        opts = self.options()
        return {"preset": self.preset, "options": opts} if opts else self.preset

    def with_options(self, **options: Any) -> "Rules":
        if self.preset in RELATED_PRESETS:
            return replace(self, **options)
        return rules_from_json({"preset": self.preset, "options": {**self.options(), **options}})


# Options only the Tock family plays (their values here are Pegs and Jokers'). `home_size`,
# `four`, `court_out` and `open_hand` the Pegs and Jokers family plays too.
_NEW_DEFAULTS = {
    "deal": (), "deal_reshuffle": "cycle", "stuck": "card", "joker_exempt": True,
    "give_up_hand": False, "pass_card": False, "five": "forward",
    "jack": "plain", "queen": "plain", "king": "plain", "own_pegs": "block",
    "hits": "in_spot", "start_block": False, "pair_block": False, "partner_joker": False,
    "direction": "clockwise", "team_play": "any"}


def _family_name(rules: Rules) -> str:
    """The rule family whose engine plays these rules: "tock" when an option only the
    related games have is in use (their start hole is the come-out hole, their 7, 10
    and joker, or any of `_NEW_DEFAULTS`), else "pegs". Option values, never preset names."""
    tock = (rules.in_spot_offset == rules.come_out_offset
            or rules.seven not in ("split",) or rules.ten in ("swap", "force")
            or rules.joker == "come_out"
            or any(getattr(rules, k) != v for k, v in _NEW_DEFAULTS.items()))
    return "tock" if tock else "pegs"


def family_name(rules: Rules) -> str:
    """The name of the rule family that plays `rules` ("pegs" or "tock"); the family
    itself is `companion.families.find_family(rules)`."""
    return rules._family  # type: ignore[attr-defined, no-any-return]




_BASIC = Rules()
_ARIZONA = replace(_BASIC, preset="arizona", draw="after", team_pegs=True,
                   nine="split", joker="arizona")

PRESETS: dict[str, Rules] = {
    "basic": _BASIC,
    "arizona": _ARIZONA,
    "north_carolina": replace(_BASIC, preset="north_carolina", ace="north_carolina",
                              two_swap=True, nine="split", ten="split", counting=3,
                              split_hand_over=True),
    "pegoo": replace(_BASIC, preset="pegoo", holes_per_side=20, joker="pegoo",
                     two_swap=True, nine="split", counting=3),
    "wizard_woodworks": replace(_BASIC, preset="wizard_woodworks", two_swap=True,
                                draw="after", nine="split"),
    "alaska": replace(_BASIC, preset="alaska", ten="forward_or_back1", counting=4),
    "kilpatrick": replace(_ARIZONA, preset="kilpatrick", hand_size=3, must_turn_in=True),
    "social_security": replace(_BASIC, preset="social_security", nine="split", court="11-13"),
    "bluffing_joker": replace(_BASIC, preset="bluffing_joker", bluffing=True),
}

# The related games of RELATED-GAMES.md section S, kept apart from PRESETS
# (the Pegs and Jokers variants of RULES.md V) so that lists of those stay as
# they are; `ALL_PRESETS` holds both.
_TOCK = replace(_BASIC, preset="tock", home_size=4, pegs_per_side=4, in_spot_offset=17,
                come_out_offset=17, decks=1, jokers_per_deck=0, deal=(5, 4, 4), stuck="hand",
                joker_exempt=False, seven="one", court="11-13", court_out="K", own_pegs="hit",
                hits="start", start_block=True, team_play="solo")
_CARBLES = replace(_TOCK, preset="carbles", jokers_per_deck=2, deal=(4,), deal_reshuffle="empty",
                   stuck="card", own_pegs="hit", four="backward", seven="steps", jack="swap",
                   joker="come_out")
_JACKAROO = replace(_TOCK, preset="jackaroo", deal=(4, 4, 5), stuck="card", four="backward",
                    five="others", seven="split_any", ten="force", jack="suited",
                    queen="suited_steal", king="clears", own_pegs="block", pair_block=True,
                    direction="counter", give_up_hand=True, team_play="pairs")
RELATED_PRESETS: dict[str, Rules] = {
    "tock": _TOCK,
    "tock_partnership": replace(_TOCK, preset="tock_partnership", pass_card=True,
                                team_play="pairs"),
    "tock3": replace(_TOCK, preset="tock3", deal=(5, 4, 4, 4)),
    "carbles": _CARBLES,
    "carbles_partnership": replace(_CARBLES, preset="carbles_partnership", partner_joker=True,
                                   team_play="pairs"),
    "jackaroo": _JACKAROO,
    "jackaroo_individual": replace(_JACKAROO, preset="jackaroo_individual", team_play="solo"),
}
ALL_PRESETS: dict[str, Rules] = {**PRESETS, **RELATED_PRESETS}

# RELATED-GAMES.md section S: the switches each related preset accepts, and
# the options each one sets.
_TOCK_SWITCHES = {"reverse_four": {"four": "backward"}, "ten_swap": {"ten": "swap"},
                  "forced_five": {"five": "any"}}
_CARBLES_SWITCHES = {"open_hand": {"open_hand": True}}
SWITCHES: dict[str, dict[str, dict[str, Any]]] = {
    "tock": _TOCK_SWITCHES, "tock_partnership": _TOCK_SWITCHES, "tock3": _TOCK_SWITCHES,
    "carbles": _CARBLES_SWITCHES, "carbles_partnership": _CARBLES_SWITCHES,
    "jackaroo": {}, "jackaroo_individual": {},
}
SWITCH_DOCS = {
    "reverse_four": "TK-V1 Reverse Four: the 4 moves a peg backward 4",
    "ten_swap": "TK-V2 Ten Swap: the 10 swaps one of your pegs with another colour's instead of moving",
    "forced_five": "TK-V3 Forced Five: the 5 moves any one peg on the main track forward 5",
    "open_hand": "CB-V2 Open Hand: every hand is face up",
}

# Options the related-games engine does not play: Pegs and Jokers' own powers.
_PEGS_ONLY = {"draw": "first", "team_pegs": False, "nine": "forward", "ace": "basic",
              "two_swap": False, "counting": 0, "split_hand_over": False, "must_turn_in": False,
              "forfeit": False, "bluffing": False, "start_jokers": False}


def _check_tock_family(rules: Rules) -> None:
    """The Tock family plays the options it shares with Pegs and Jokers
    (counts, come-out, home, P8 helping) but not Pegs and Jokers' own powers."""
    if family_name(rules) != "tock":
        return
    bad = [k for k, v in _PEGS_ONLY.items() if getattr(rules, k) != v]
    if rules.seven == "split":
        bad.append("seven")
    if rules.ten == "split":
        bad.append("ten")
    if rules.joker not in ("basic", "come_out"):
        bad.append("joker")
    if rules.hits != "start":
        bad.append("hits")
    if bad:
        raise RulesError(
            "options " + ", ".join(sorted(set(bad))) + " can't be combined with the related-games "
            "options (hits to start, deal rounds, the related 4/5/7/10/J/Q/K powers)")
    if not rules.deal:
        raise RulesError("the related-games engine needs hands dealt in rounds: set 'deal'")
    if rules.joker == "basic" and (rules.jokers_per_deck or rules.extra_jokers):
        raise RulesError("the related-games engine plays a joker only as 'come_out'")


DESCRIPTIONS: dict[str, str] = {
    "tock": (
        "Tock (4 players, each alone): one 52-card deck dealt 5, 4, 4 with no drawing. "
        "A and K come out onto the start hole, the 4 is forward, the 7 moves one peg, J, Q, "
        "K move 11, 12, 13. Landing on any peg, your own included, sends it to start; a "
        "peg on its own start hole can't be passed or landed on. Stuck: discard your hand "
        "and wait for the next deal. Switches: reverse_four, ten_swap, forced_five."),
    "tock_partnership": (
        "Partnership Tock: Tock with partners opposite. After each deal you pass one card "
        "face down to your partner; once your pegs are all home you move your partner's. "
        "A team wins with all 8 pegs home."),
    "tock3": (
        "Three-player Tock: the 4-sided board with side 3 empty; deals of 5, 4, 4, 4, the "
        "52nd card set aside unseen until the reshuffle."),
    "carbles": (
        "Carbles (2-6 players, each alone): 52 cards and 2 jokers, 4 cards a deal. A, K and "
        "the joker come out; the 4 moves backward; the 7 is seven single steps shared among "
        "your marbles, hitting on each; the J moves 11 or swaps. Stuck: burn one card."),
    "carbles_partnership": (
        "Partnership Carbles: 4, 6, 8 or 12 players in pairs sitting opposite; a joker may "
        "bring out your partner's marble; a team wins with all 8 marbles in goal."),
    "jackaroo": (
        "Jackaroo (two teams of two): deals of 4, 4, 5; turns pass to the right. No marble "
        "passes its own colour or a pair; the 4 moves backward, the 5 may move any other "
        "marble, the 7 splits over your marbles, the 10 may force the next player to "
        "discard, the red queen takes a random card from him, the black jack swaps, and the "
        "K sends every marble it passes to start. You may give up your hand on your turn."),
    "jackaroo_individual": (
        "Individual Jackaroo: Jackaroo with each player alone; the 5 takes only your own "
        "marbles into your goal."),
    "basic": (
        "The basic game (pagat.com): draw one card, then play one of six. A, J, Q, K "
        "come out; 8 moves backward; 7 may split between two of your own pegs; the "
        "joker jumps one of your pegs onto any other colour's peg on the main track. "
        "You move only your own pegs until all are home, then help your next partner."),
    "arizona": (
        "Arizona rules: play first, then draw (choice among five). Any peg of your team "
        "may be moved at any time. 7 and 9 split between any two team pegs, the 9 one "
        "forward and one backward. The joker must bring a team peg out of start while "
        "the team has any there (R15: even if none of them has a target)."),
    "north_carolina": (
        "North Carolina (Jokers and Pegs): ace also moves backward 1 or forward 11; 2 "
        "may swap any two pegs of different colours on the main track; 9 may split "
        "forward/backward between your own pegs; 10 must be split between any two pegs "
        "on the board, each part forward or backward; three turns stuck in a row "
        "(counting) earn a free come-out. A split may finish your last peg and go on "
        "with your partner's (R11). Rulings: a peg moved by another team never turns "
        "into its home (R7); the free come-out is compulsory once offered (R12)."),
    "pegoo": (
        "Pegoo (Florida): 20 holes a side. The joker either takes your own peg from "
        "anywhere but home to its in-spot, or sends any opponent's peg on the main "
        "track back to start (R14). 2 swaps as in North Carolina; 9 splits forward/"
        "backward; counting with the free come-out on the third turn. In-spot and "
        "come-out at 3 and 8 as on the standard board (R6)."),
    "wizard_woodworks": (
        "Wizard Woodworks rule sheet: the basic game, but play first and draw after, "
        "the 2 may swap two pegs of different colours on the main track, and the 9 may "
        "split between two of your own pegs, one forward and one backward."),
    "alaska": (
        "Alaska (Becker): the basic game, but the 10 moves forward 10 or backward 1, "
        "and counting applies with the free come-out on the fourth stuck turn."),
    "kilpatrick": (
        "Kilpatrick: Arizona rules with hands of three cards, and no peg may move "
        "forward past its own in-spot: it must turn into home, and a move that home "
        "can't take is not possible for that peg (R17: landing exactly on the in-spot "
        "is allowed)."),
    "social_security": (
        "Social Security: the basic game, but the 9 may split between two pegs, one "
        "backward and one forward in any division totalling 9 (R5; a single 9 forward "
        "stays legal, R13), and J, Q, K move forward 11, 12, 13 (each can still come "
        "out)."),
    "bluffing_joker": (
        "Bluffing Joker: the basic game, but every card is played face down with a "
        "declared card, and the move is made as declared. The opponents, in turn, may "
        "doubt. A caught bluff costs the bluffer a peg on the main track (sent to "
        "start) and the move; a wrong doubt costs the doubter a peg and the move "
        "stands. With no peg on the main track to send back, the winner of the doubt "
        "takes an extra turn instead. Undoubted cards are never revealed."),
}

# Rulings made where the texts are silent (also listed in the closing notes).
GENERAL_RULINGS: list[str] = [
    "M9: a peg that its own first part's chain sent on to its in-spot is still the same "
    "peg, so the second part must move another one.",
    "M1/M10: a split is one move: if its first part would win, the second part must still "
    "be made; the game ends after the whole move.",
    "P7: when discarding is allowed, any card may be discarded, the joker included.",
    "V-NC7: a turn spent discarding counts, even if a joker could have moved (a joker is "
    "never forced).",
    "V-OPT 'two players without jokers' applies to two-player games only.",
    "A game record holds every real card, bluffs included, for replay: it is shown only "
    "once the game is over.",
]

# Rulings on gaps in RELATED-GAMES.md (also listed in the closing notes).
_RELATED_RULINGS = [
    "The first dealer is the seat the table names (the last seat by default); the deal then "
    "passes on after every deal (TK-C4, JR-C3).",
    "Skipped turns and players passed over for having no cards are not moves of the record: "
    "they follow from the rules.",
    "A stuck player's burn is offered once per rank: suits make no difference to a burn.",
    "RG-D1: when 10 deals in a row end with no peg moved (everyone stuck or giving up the "
    "hand), the game ends drawn instead of being dealt forever.",
]
_TOCK_RULINGS = _RELATED_RULINGS + [
    "TK-V3 Forced Five: the 5 still moves your own pegs as an ordinary 5 (in home too); the "
    "other pegs it may move are those on the main track.",
    "TK-P3: the discarded hand lies face up; the player shows as waiting until the next deal.",
]
_CARBLES_RULINGS = _RELATED_RULINGS + [
    "CB-G1: without a choice of board, the smallest of 4, 6, 8, 12 sections that seats everyone.",
    "CB-P2: a 7 is listed once per end position, written as one order of steps that reaches it; "
    "any legal order of the same steps is accepted.",
]
_JACKAROO_RULINGS = _RELATED_RULINGS + [
    "JR-P5: the forced player discards at once, a card of his choice, face up; his next turn "
    "is then skipped.",
    "JR-P6: the card taken lies face down on the discard pile: only the thief and its former "
    "holder see it.",
    "JR-P9/P10: a stuck player may burn one card or give up the whole hand.",
]

RULINGS: dict[str, list[str]] = {
    "bluffing_joker": [
        "Pegs in home are safe (M8): a doubt penalty takes a peg from the main track only; "
        "with none there the extra-turn fallback applies.",
        "On a wrong doubt the declared move is made first, then the penalty peg is chosen.",
        "A discard is only allowed when the real hand could not move (P7); it is not declared "
        "and can't be doubted. The extra turn is taken right after the winner's next turn.",
    ],
    "tock": _TOCK_RULINGS,
    "tock_partnership": _TOCK_RULINGS + [
        "TK-V4.1: players choose the card to pass in turn order from the lead; the cards are "
        "exchanged once everyone has chosen, so no one sees the card he receives before."],
    "tock3": _TOCK_RULINGS,
    "carbles": _CARBLES_RULINGS, "carbles_partnership": _CARBLES_RULINGS,
    "jackaroo": _JACKAROO_RULINGS, "jackaroo_individual": _JACKAROO_RULINGS,
    "north_carolina": [
        "While helping a partner, counting's free come-out brings out a peg of the partner "
        "being helped (the pegs the player controls).",
    ],
}


def differences(preset: str) -> list[str]:
    """One line per option where the preset differs from basic, with its doc."""
    rules = ALL_PRESETS[preset]
    out = []
    for f in fields(rules):
        if f.name == "preset":
            continue
        value, base = getattr(rules, f.name), getattr(_BASIC, f.name)
        if value != base:
            out.append(f"{f.name} = {value!r} (basic: {base!r}): {OPTION_DOCS[f.name][1]}")
    return out


def _check_option(name: str, value: Any) -> None:
    if name not in OPTION_DOCS:
        raise RulesError(f"unknown rule option {name!r}; known options: {', '.join(OPTION_DOCS)}")
    allowed = OPTION_DOCS[name][0]
    if allowed is tuple:
        ok = (isinstance(value, (list, tuple)) and 1 <= len(value) <= 13 or value in ((), [])) and all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 13 for v in value)
    elif allowed is bool:
        ok = isinstance(value, bool)
    elif allowed is int:
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 18
    else:
        choices = cast("tuple[object, ...]", allowed)  # the option's values
        ok = value in choices and type(value) is type(choices[0])
    if not ok:
        want = "true or false" if allowed is bool else "a list of hand sizes 1-13" if allowed is tuple else (
            "a whole number 0-17" if allowed is int else " or ".join(map(repr, cast("tuple[object, ...]", allowed))))
        raise RulesError(f"rule option {name!r} is {value!r}; expected {want}")


def rules_from_json(value: object) -> Rules:
    """Read the NOTATION.md `rules` field: a preset name or {preset, options}."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        preset, options = value, {}
    elif isinstance(value, dict):
        unknown = set(value) - {"preset", "options"}
        if unknown:
            raise RulesError(f"rules object has unknown key(s) {sorted(unknown)}; expected 'preset' and 'options'")
        preset, options = value.get("preset", "basic"), value.get("options", {})
        if not isinstance(options, dict):
            raise RulesError("rules 'options' must be an object")
    else:
        raise RulesError("rules must be a preset name or an object {preset, options}")
    if preset not in ALL_PRESETS:
        raise RulesError(f"unknown preset {preset!r}; known presets: {', '.join(ALL_PRESETS)}")
    if preset in RELATED_PRESETS:  # RG-N5: only the preset's own switches
        switches = SWITCHES[preset]
        changes = {}
        for name, v in options.items():
            if name not in switches:
                raise RulesError(f"unknown option {name!r} for {preset}; its switches: "
                                 f"{', '.join(switches) or 'none'}")
            if not isinstance(v, bool):
                raise RulesError(f"switch {name!r} is {v!r}; expected true or false")
            if v:
                changes.update(switches[name])
        return replace(RELATED_PRESETS[preset], **changes)
    for name, v in options.items():
        _check_option(name, v)
    options = {k: tuple(v) if k == "deal" else v for k, v in options.items()}
    rules = replace(PRESETS[preset], **options)
    if rules.in_spot_offset >= rules.holes_per_side or rules.come_out_offset >= rules.holes_per_side:
        raise RulesError("in_spot_offset and come_out_offset must be less than holes_per_side")
    if rules.pegs_per_side > rules.home_size:
        raise RulesError(f"{rules.pegs_per_side} pegs per player can't all fit a home of "
                         f"{rules.home_size}")
    _check_tock_family(rules)
    return rules
