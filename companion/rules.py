"""Rule options and the named presets of RULES.md section V.

A rule set is a frozen `Rules` value: every variant is a preset of documented
options, and options can be combined by hand (NOTATION.md `rules` field:
``{"preset": NAME, "options": {...}}``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

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

    def options(self) -> dict:
        """The options that differ from the preset they were built from."""
        base = PRESETS[self.preset]
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)}

    def to_json(self):
        opts = self.options()
        return {"preset": self.preset, "options": opts} if opts else self.preset

    def with_options(self, **options) -> "Rules":
        return rules_from_json({"preset": self.preset, "options": {**self.options(), **options}})


class RulesError(ValueError):
    """An unknown preset or a bad option value."""


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

DESCRIPTIONS: dict[str, str] = {
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

RULINGS: dict[str, list[str]] = {
    "bluffing_joker": [
        "Pegs in home are safe (M8): a doubt penalty takes a peg from the main track only; "
        "with none there the extra-turn fallback applies.",
        "On a wrong doubt the declared move is made first, then the penalty peg is chosen.",
        "A discard is only allowed when the real hand could not move (P7); it is not declared "
        "and can't be doubted. The extra turn is taken right after the winner's next turn.",
    ],
    "north_carolina": [
        "While helping a partner, counting's free come-out brings out a peg of the partner "
        "being helped (the pegs the player controls).",
    ],
}


def differences(preset: str) -> list[str]:
    """One line per option where the preset differs from basic, with its doc."""
    rules = PRESETS[preset]
    out = []
    for f in fields(rules):
        if f.name == "preset":
            continue
        value, base = getattr(rules, f.name), getattr(_BASIC, f.name)
        if value != base:
            out.append(f"{f.name} = {value!r} (basic: {base!r}): {OPTION_DOCS[f.name][1]}")
    return out


def _check_option(name, value):
    if name not in OPTION_DOCS:
        raise RulesError(f"unknown rule option {name!r}; known options: {', '.join(OPTION_DOCS)}")
    allowed = OPTION_DOCS[name][0]
    if allowed is bool:
        ok = isinstance(value, bool)
    elif allowed is int:
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 18
    else:
        ok = value in allowed and type(value) is type(allowed[0])
    if not ok:
        want = "true or false" if allowed is bool else (
            "a whole number 0-17" if allowed is int else " or ".join(map(repr, allowed)))
        raise RulesError(f"rule option {name!r} is {value!r}; expected {want}")


def rules_from_json(value) -> Rules:
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
    if preset not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}; known presets: {', '.join(PRESETS)}")
    for name, v in options.items():
        _check_option(name, v)
    rules = replace(PRESETS[preset], **options)
    if rules.in_spot_offset >= rules.holes_per_side or rules.come_out_offset >= rules.holes_per_side:
        raise RulesError("in_spot_offset and come_out_offset must be less than holes_per_side")
    if rules.in_spot_offset == rules.come_out_offset:
        raise RulesError("in_spot_offset and come_out_offset must differ")
    return rules
