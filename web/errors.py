"""The one error type of the web layer (a 4xx/5xx answer with a message for people),
and the one table that says which HTTP status each error of the layers below gets.

The engine and the drivers raise their own errors, never HTTP ones; `api_error`
turns one into an `ApiError` with the status of `STATUS` (the most specific class
listed wins), and the app answers any of them that reaches it the same way.
"""
from __future__ import annotations

from companion.cards import ShoeEmpty
from companion.errors import (AmbiguousMoveError, CompanionError, IllegalMoveError, MoveError, MoveSyntaxError,
                              PositionError, RulesError, SetupError)
from companion.referee import RefereeError
from companion.simulate import SimulationError
from hardware.virtual import VirtualBoardError

from .store import DamagedGame, StoreError


class ApiError(Exception):
    """An answer ``status`` with ``{"error": message, ...extra}``; nothing was changed."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}

    def body(self) -> dict:
        return {"error": self.message, **self.extra}


# Error class -> HTTP status. Bad input is 400, a move the rules refuse 422, a request
# that clashes with the state of the game or the board 409, a store that can't save 503.
STATUS: dict[type[Exception], int] = {
    SetupError: 400,          # a table's set-up (companion.setup)
    RulesError: 400,          # rule options
    MoveSyntaxError: 400,     # not a move in the notation
    AmbiguousMoveError: 422,  # several cards or moves fit (P7)
    IllegalMoveError: 422,    # the rules forbid it (carries its rule id)
    MoveError: 422,
    PositionError: 400,       # a position that can't be (a request that describes one)
    RefereeError: 409,        # the board referee can't take that now (a stale card choice)
    VirtualBoardError: 409,   # the simulated board: no peg there, a full start area
    DamagedGame: 503,         # a saved log that is not what was written
    StoreError: 503,          # the store could not save
}
# The engine's errors that no request can cause: a fault of the companion, answered by the
# app's 500 handler ("something went wrong ... the game is safe") without their words.
NOT_A_REQUEST: tuple[type[CompanionError], ...] = (ShoeEmpty, SimulationError)


def status_of(exc: BaseException) -> int | None:
    """The status `STATUS` gives `exc` (its most specific class listed), else None."""
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return None


def api_error(exc: Exception, message: str | None = None, **extra) -> ApiError:
    """`exc` as an answer: the status of its class, its own words unless `message`."""
    status = status_of(exc)
    if status is None:
        raise TypeError(f"{type(exc).__name__} has no HTTP status in web.errors.STATUS") from exc
    return ApiError(status, str(exc) if message is None else message, **extra)


__all__ = ["ApiError", "STATUS", "NOT_A_REQUEST", "status_of", "api_error"]
