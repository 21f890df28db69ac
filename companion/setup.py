"""A table's set-up, parsed and checked once: rules, seats, teams, board, names,
colours, computer seats and dealer, each problem a `SetupError` in words a
person can act on.

`parse_setup(data)` takes a request as a phone sends it (JSON-ready values,
anything may be of the wrong type) and returns the set-up that is logged and
that `Game` is made from::

    {"rules": {...}, "players": 4, "teams": 2, "dealer": 3,
     "seats": [{"name", "colour", "bot"}, ...], "draw": None | {...}}

plus ``"sides"`` for Tock, Carbles and Jackaroo. The web layer answers a
`SetupError` with 400 (web/errors.py's table).
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import colours
from .board import TEAM_LAYOUTS
from .bots import BOT_NAMES
from .cards import draw_for_partners, shoe_of
from .errors import RulesError, SetupError
from .families import TOCK, find_family
from .families.tock.game import default_sections
from .families.tock.position import SECTIONS, seat_sections
from .rules import PRESETS, RELATED_PRESETS, SWITCHES, rules_from_json

if TYPE_CHECKING:
    import random
    from .game import Game
    from .rules import Rules

MAX_NAME = 24   # characters of a player's name


def parse_setup(data: Any, rng: random.Random | None = None) -> dict[str, Any]:
    """Check a new-table request and return the set-up to log (`SetupError` on any
    problem). `rng` draws for partners (RULES T3) when asked; default
    `secrets.SystemRandom` (C5)."""
    if not isinstance(data, dict):
        raise SetupError("send a JSON object describing the table")
    preset = data.get("preset", "basic")
    if preset in TOCK.presets:  # the Tock family's own seats, teams and boards
        return _parse_related(data, preset, rng)
    if preset not in PRESETS:
        raise SetupError(f"unknown rules preset {preset!r}; choose one of "
                         f"{', '.join([*PRESETS, *RELATED_PRESETS])}")
    for key in ("sections", "switches"):
        if key in data:
            raise SetupError(f"{key} is for Tock, Carbles and Jackaroo only, not {preset}")
    players = data.get("players")
    if players not in TEAM_LAYOUTS or isinstance(players, bool):
        raise SetupError("players must be 2, 4, 6, 8 or 10")
    teams = data.get("teams", 2)
    if teams not in TEAM_LAYOUTS[players] or isinstance(teams, bool):
        raise SetupError(f"{players} players can play as "
                         f"{' or '.join(str(t) for t in TEAM_LAYOUTS[players])} teams, not {teams!r}")
    names, cols, bots = _seat_lists(data, players, False)
    options = {}
    for key in ("decks", "jokers_per_deck", "extra_jokers"):
        if key in data and data[key] is not None:
            options[key] = data[key]
    try:
        rules = rules_from_json({"preset": preset, "options": options})
    except RulesError as exc:
        raise SetupError(str(exc)) from None
    shoe = len(shoe_of(rules, players))
    need = players * (rules.hand_size + 1) + 2
    if shoe < need:
        raise SetupError(f"a shoe of {shoe} cards is too small for {players} players "
                         f"(at least {need}); add a deck")
    return _seated(data, rules, players, teams, names, cols, bots, rng)


def _seated(data: dict[str, Any], rules: Rules, players: int, teams: int, names: list[str], cols: list[str],
            bots: list[str | None], rng: random.Random | None, may_draw: bool = True) -> dict[str, Any]:
    """The set-up's seats and dealer: drawn for partners (RULES T3) when asked and
    `may_draw`, else in the order given with the dealer asked for."""
    dealer = data.get("dealer", players - 1)
    seating = list(range(players))
    draw_info = None
    if may_draw and data.get("draw_for_partners", False):
        result = draw_for_partners(players, teams, rng if rng is not None else secrets.SystemRandom())
        seating = result.seating
        dealer = 0
        draw_info = {"names": names,
                     "rounds": [[[p, c] for p, c in sorted(r.items())] for r in result.draws],
                     "seating": seating}
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise SetupError(f"dealer must be a seat number 0-{players - 1}")
    seats = [{"name": names[seating[s]], "colour": cols[s], "bot": bots[seating[s]]}
             for s in range(players)]
    return {"rules": rules.to_json(), "players": players, "teams": teams, "dealer": dealer,
            "seats": seats, "draw": draw_info}


def game_from_setup(setup: dict[str, Any], shuffles: Iterable[list[str]] = ()) -> Game:
    """The game of a set-up `parse_setup` returned (a table's, also when read back from
    the store), by its family's game class: not checked again. `shuffles` are the
    table's logged shuffles, played back before any fresh one."""
    rules = rules_from_json(setup["rules"])
    board = {"sides": setup["sides"]} if setup.get("sides") else {}  # the Tock family's board
    game: Game = find_family(rules).game_cls(rules, setup["players"], setup["teams"],
                                             dealer=setup["dealer"], shuffles=list(shuffles), **board)
    return game


def related_layouts(preset: str) -> dict[int, dict[str, Any]]:
    """Seat counts of a related preset, each with its teams and its board sections
    (RELATED-GAMES.md S, CB-G1): {players: {"teams": n, "sections": [...]}}."""
    rules = RELATED_PRESETS[preset]
    carbles = TOCK.board_sizes(rules) != (4,)  # the family says its boards
    out = {}
    for n in TOCK.seats[preset]:
        out[n] = {"teams": n // 2 if rules.team_play == "pairs" else n,
                  "sections": [s for s in SECTIONS if s >= n] if carbles else [4],
                  "default_sections": default_sections(rules, n)}
    return out


def _seat_lists(data: dict[str, Any], players: int, palette_all: bool,
                defaults: list[str] | None = None) -> tuple[list[str], list[str], list[str | None]]:
    """Names, colours and computer seats of a set-up."""
    names = data.get("names")
    if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names):
        raise SetupError(f"names must be a list of {players} names")
    names = [" ".join(n.split())[:MAX_NAME] for n in names]
    for i, n in enumerate(names):
        if not n:
            raise SetupError(f"seat {i + 1} needs a name")
    if len(set(n.casefold() for n in names)) != players:
        raise SetupError("every player needs a different name")
    if defaults is None:
        defaults = list(colours.BY_KEY) if palette_all else colours.DEFAULTS
    cols = data.get("colours", defaults[:players])
    if not isinstance(cols, list) or len(cols) != players or not all(
            isinstance(c, str) and c in colours.BY_KEY for c in cols):
        raise SetupError(f"colours must be a list of {players} colours from: {', '.join(colours.BY_KEY)}")
    if len(set(cols)) != players:
        raise SetupError("every seat needs a different peg colour")
    bots = data.get("bots", [None] * players)
    if not isinstance(bots, list) or len(bots) != players or \
            not all(b is None or (isinstance(b, str) and b in BOT_NAMES) for b in bots):
        raise SetupError(f"bots must be a list of {players} entries, each null or one of {', '.join(BOT_NAMES)}")
    return names, cols, bots


def _parse_related(data: dict[str, Any], preset: str, rng: random.Random | None) -> dict[str, Any]:
    """A Tock, Carbles or Jackaroo table: the preset's own seat counts, its teams
    (partners sit opposite: seats i and i + n/2) and, for Carbles, the sections."""
    layouts = related_layouts(preset)
    players: Any = data.get("players")
    if isinstance(players, bool) or players not in layouts:
        raise SetupError(f"{preset.replace('_', ' ')} is played by "
                         f"{' or '.join(map(str, layouts))} players, not {players!r}")
    lay = layouts[players]
    teams = data.get("teams", lay["teams"])
    if teams != lay["teams"] or isinstance(teams, bool):
        raise SetupError(f"{preset.replace('_', ' ')} with {players} players has "
                         f"{lay['teams']} teams, not {teams!r}")
    sides = data.get("sections", lay["default_sections"])
    if sides not in lay["sections"] or isinstance(sides, bool):
        raise SetupError(f"{players} players of {preset.replace('_', ' ')} play on a board of "
                         f"{' or '.join(map(str, lay['sections']))} sections, not {sides!r}")
    for key in ("decks", "jokers_per_deck", "extra_jokers"):
        if data.get(key) not in (None, getattr(RELATED_PRESETS[preset], key)):
            raise SetupError(f"{preset.replace('_', ' ')} is played with its own deck: "
                             f"{key} can't be changed")
    known = SWITCHES.get(preset, {})
    switches = data.get("switches") or {}
    if not isinstance(switches, dict):
        raise SetupError("switches must be an object of option names to true or false")
    for k, v in switches.items():
        if k not in known or not isinstance(v, bool):
            raise SetupError(f"{k!r} is no switch of {preset.replace('_', ' ')}; its switches: "
                             f"{', '.join(known) or 'none'}")
    on = {k: True for k, v in switches.items() if v}
    try:
        rules = rules_from_json({"preset": preset, "options": on} if on else preset)
    except RulesError as exc:
        raise SetupError(str(exc)) from None
    # RG-B4: each seat's default colour is its side's
    side_colours = [colours.SIDE_DEFAULTS[s] for s in seat_sections(sides, players)]
    names, cols, bots = _seat_lists(data, players, True, side_colours)
    # partners opposite: the same seats as i % teams; a game played alone draws nothing
    return {**_seated(data, rules, players, teams, names, cols, bots, rng, may_draw=teams < players),
            "sides": sides}


__all__ = ["SetupError", "parse_setup", "game_from_setup", "related_layouts", "MAX_NAME"]
