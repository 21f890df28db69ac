"""The `Family` interface: what a rule family gives the rest of the companion.

A family is one engine for a set of rule sets: Pegs and Jokers with its presets, or Tock
with Carbles and Jackaroo. The registry (`companion.families`) lists them; everything
outside a family asks it (`find_family(rules)`) instead of testing option values or
preset names.

The family's parts that sit above the registry in the import layers (its position, game,
search, hint reasons) are named by ``"module:attribute"`` and imported on first use, so the
registry can sit low enough for notation and the game to ask it, with no import cycle.
`tests/companion/test_families.py` checks that every name resolves.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules import Rules


def resolve(name: str) -> Any:
    """The object named ``"package.module:attribute"``."""
    module, _, attr = name.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Family:
    """One rule family. Fields that are ``"module:attribute"`` names are resolved by the
    properties of the same name without the ``_path`` suffix."""

    name: str                       # "pegs", "tock": what `rules.family_name` says
    title: str                      # for people
    presets: tuple[str, ...]        # its named presets, in the order menus list them
    doc: str                        # the rules document its rule ids cite
    board_sides: tuple[int, ...]    # the board sizes a position may have
    sides_error: str                # the message when a position has another ({sides})
    position_keys: frozenset[str]   # NOTATION.md keys beyond the common ones (RG-N4, RG-N5)
    position_path: str = ""         # its position class (a `companion.state.PegState`)
    game_path: str = ""             # its game class (a `companion.game.Game`)
    deck_ranks_path: str = ""       # rules -> the ranks of its deck, in `moves` order
    card_rank_path: str = ""        # (rules, card) -> the rank the card plays as
    parse_rank_path: str = ""       # (rules, word) -> a rank of its deck, or RulesError
    evaluator_path: str = ""        # the bots' board evaluation (companion.evaluation.Evaluator)
    search_path: str = ""           # (bot, seen, phase, Decision, over) -> the hard bot's Decision
    unseen_path: str = ""           # seen view -> the ranks of the cards that seat can't see
    hint_reason_path: str = ""      # (view, seen, move, card, names) -> why a play off the board
                                    # is good (None: the board's reasons say it)
    come_out_ranks_path: str = ""   # rules -> the ranks that bring a peg out (the hints keep them)
    seats_path: str = ""            # {preset: the player counts it is played by}
    board_sizes_path: str = ""      # rules -> the board sizes (sides) its games are played on

    def _get(self, path: str) -> Any:
        return resolve(path)

    @property
    def position_cls(self) -> Any:
        return self._get(self.position_path)

    @property
    def game_cls(self) -> Any:
        return self._get(self.game_path)

    def deck_ranks(self, rules: Rules) -> tuple[str, ...]:
        return tuple(self._get(self.deck_ranks_path)(rules))

    def card_rank(self, rules: Rules, card: str) -> str:
        return str(self._get(self.card_rank_path)(rules, card))

    def parse_rank(self, rules: Rules, word: str) -> str:
        return str(self._get(self.parse_rank_path)(rules, word))

    @property
    def evaluator(self) -> Any:
        return self._get(self.evaluator_path)

    @property
    def search(self) -> Callable[..., Any]:
        return self._get(self.search_path)  # type: ignore[no-any-return]

    def unseen_pool(self, seen: Any) -> list[str]:
        return self._get(self.unseen_path)(seen)  # type: ignore[no-any-return]

    @property
    def hint_reason(self) -> Callable[..., Any]:
        return self._get(self.hint_reason_path)  # type: ignore[no-any-return]

    def come_out_ranks(self, rules: Rules) -> tuple[str, ...]:
        return tuple(self._get(self.come_out_ranks_path)(rules))

    def board_sizes(self, rules: Rules) -> tuple[int, ...]:
        return tuple(self._get(self.board_sizes_path)(rules))

    @property
    def seats(self) -> dict[str, tuple[int, ...]]:
        return self._get(self.seats_path)  # type: ignore[no-any-return]

    def paths(self) -> Iterable[str]:
        """Every ``module:attribute`` name of the family (the test resolves them all)."""
        return (getattr(self, f) for f in self.__dataclass_fields__ if f.endswith("_path"))


__all__ = ["Family", "resolve"]
