"""The engine's errors: one root, `CompanionError`, and a branch per kind of mistake.

    CompanionError
    ├── SetupError      a game that can't be set up: players, teams, dealer, bots, a record
    ├── PositionError   an impossible position or hole (counts, two pegs in a hole, H9)
    ├── RulesError      an unknown preset, option, switch or rank of the deck
    └── MoveError       a move that can't be read or made; `rule` names the rule id
        ├── MoveSyntaxError
        ├── IllegalMoveError
        └── AmbiguousMoveError

Each branch is also a `ValueError` (what they all were before), so callers that catch
`ValueError` keep working; new code catches the branch it means, or the root. web/ maps
the branches to HTTP status codes in one table.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .message import Msg


class CompanionError(Exception):
    """The root of every error the rules engine raises on purpose."""


class SetupError(CompanionError, ValueError):
    """A game, table, bot or record that can't be set up as asked."""


class PositionError(CompanionError, ValueError):
    """An impossible position (bad counts, two pegs in a hole, ...)."""


class RulesError(CompanionError, ValueError):
    """An unknown preset, a bad option value, or a rank the deck doesn't have."""


class MoveError(CompanionError, ValueError):
    """A move that can't be read or made; `rule` names the rule id it breaks, if any.

    `reason` is the refusal as a message (`companion.message.Msg`, its side numbers, holes
    and ranks as `Ref` parameters), so each phone reads it in its own language: given, or
    carried by the message itself (`companion.message.said`). str() stays the engine's
    English, the `pegs` command's words."""

    def __init__(self, message: str, rule: str | None = None, reason: Msg | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.reason: Msg | None = reason if reason is not None else getattr(message, "said", None)


class MoveSyntaxError(MoveError):
    """The text is not a move in NOTATION.md form."""


class IllegalMoveError(MoveError):
    """The move is well formed but not legal here; `rule` names the RULES id."""


class AmbiguousMoveError(MoveError):
    """The input fits more than one legal move (e.g. no card named)."""

    def __init__(self, message: str, candidates: Iterable[object] = ()) -> None:
        super().__init__(message)
        self.candidates = list(candidates)


__all__ = ["CompanionError", "SetupError", "PositionError", "RulesError", "MoveError",
           "MoveSyntaxError", "IllegalMoveError", "AmbiguousMoveError"]
