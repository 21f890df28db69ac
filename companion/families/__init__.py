"""The rule families and their registry, like python-chess's variants.

`FAMILIES` lists them; `find_family(rules or preset)` says which one plays a rule set (by its
options, `companion.rules.family_name`, never by preset name); `new_game` and
`game_from_record` make the family's game. Nothing outside this package tests a preset's
name or an option to pick an engine: it asks the family.

>>> find_family("carbles").name
'tock'
>>> find_family({"preset": "basic", "options": {"ten": "split"}}).title
'Pegs and Jokers'
>>> [f.name for f in FAMILIES]
['pegs', 'tock']
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..rules import ALL_PRESETS, Rules, family_name, rules_from_json
from .base import Family
from .pegs import FAMILY as PEGS
from .tock import FAMILY as TOCK

if TYPE_CHECKING:
    from ..game import Game

FAMILIES: tuple[Family, ...] = (PEGS, TOCK)
_BY_NAME = {f.name: f for f in FAMILIES}


def find_family(rules: Rules | str | dict[str, Any]) -> Family:
    """The family that plays `rules` (a `Rules`, a preset name or NOTATION.md rules JSON);
    RulesError for rules that don't parse."""
    r = rules_from_json(rules)
    return _BY_NAME[family_name(r)]


def new_game(rules: Rules | str | dict[str, Any] = "basic", players: int = 4,
             teams: int | None = None, **kwargs: Any) -> Game:
    """A new game of `rules` by its family's game class; `kwargs` as that class takes them
    (teams, seed, rng, dealer, shuffles; the Tock family also sides).

    >>> game = new_game("basic", players=4, seed=7)
    >>> type(game).__name__, game.players, game.phase
    ('Game', 4, 'play')
    >>> type(new_game("tock", seed=7)).__name__
    'TockGame'
    """
    r = rules_from_json(rules)
    game_cls = find_family(r).game_cls
    game_cls.check_setup(r, players, teams, kwargs.get("dealer"), kwargs.get("sides"))
    return game_cls(r, players, teams, **kwargs)  # type: ignore[no-any-return]


def game_from_record(record: dict[str, Any], upto: int | None = None) -> Game:
    """Replay a game record (NOTATION.md): the game of the record's family."""
    family = PEGS
    if isinstance(record, dict):
        try:
            family = find_family(record.get("rules", "basic"))
        except (RulesError, TypeError):
            pass  # the game's own checks say what is wrong with the record
    return family.game_cls.replay(record, upto)  # type: ignore[no-any-return]


def presets_of(name: str) -> dict[str, Rules]:
    """{preset: Rules} of the family called `name`."""
    return {p: ALL_PRESETS[p] for p in _BY_NAME[name].presets}


__all__ = ["Family", "FAMILIES", "PEGS", "TOCK", "find_family", "new_game", "game_from_record",
           "presets_of"]
