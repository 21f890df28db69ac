"""Moves: the value type, its NOTATION.md text, and the errors.

A `Move` is a tuple ``(rank, kind, steps)``:

* ``kind`` is ``"move"`` (one or two steps, hits are consequences), ``"swap"``
  (two pegs exchange holes, V-NC4), ``"discard"`` (P7) or ``"free"``
  (counting's free come-out, V-NC7);
* each step is ``(colour, src, dst)`` with locations as in `companion.board`.

Locations are board-relative (``M<n>`` needs the track length to tell main
from home), so text conversion takes the `Geometry`.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .board import START, Geometry
from .errors import (AmbiguousMoveError, IllegalMoveError, MoveError,  # noqa: F401 (re-exported)
                     MoveSyntaxError)

if TYPE_CHECKING:
    from collections.abc import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
RANK_SET = frozenset(RANKS)


MOVE, SWAP, DISCARD, FREE = "move", "swap", "discard", "free"
# The related games (RELATED-GAMES.md RG-N3): a force on the next player's hand
# (`10 force 3`, `Qr force 3`; steps = (side,)), giving up the whole hand
# (`discard hand`, rank ""), and a card passed to the partner (`7 pass 2`).
FORCE, HAND, GIVE = "force", "hand", "give"
# Game-level actions of the Bluffing Joker doubt window (V-BJ); rank is "".
DOUBT, PASS, PENALTY = "doubt", "pass", "penalty"

_STEP = re.compile(r"^(\d+):(S|M\d+|H\d+)-(S|M\d+|H\d+)$")
_SWAP = re.compile(r"^(\d+):(M\d+)<>(\d+):(M\d+)$")


# A move's steps: (colour, from, to) per peg moved; a force or a pass names a side: (side,).
Steps = tuple[Any, ...]


class Move(tuple[str, str, Steps]):
    """An immutable, hashable move value: ``Move(rank, kind, steps)``."""

    __slots__ = ()

    def __new__(cls, rank: str, kind: str = MOVE, steps: Iterable[Any] = ()) -> Move:
        return tuple.__new__(cls, (rank, kind, tuple(steps)))

    @property
    def rank(self) -> str:
        return self[0]

    @property
    def kind(self) -> str:
        return self[1]

    @property
    def steps(self) -> Steps:
        return self[2]

    def __repr__(self) -> str:
        return f"Move({self[0]!r}, {self[1]!r}, {self[2]!r})"

    def text(self, geo: Geometry) -> str:
        rank, kind, steps = self
        if kind in (DOUBT, PASS):
            return kind
        if kind == PENALTY:
            c, s, d = steps[0]
            return f"penalty {c}:{geo.token(s)}-{geo.token(d)}"
        if kind == DISCARD:
            return f"{rank} discard"
        if kind == HAND:
            return "discard hand"
        if kind == FORCE:
            return f"{rank} force {steps[0]}"
        if kind == GIVE:
            return f"{rank} pass {steps[0]}"
        if kind == SWAP:
            (c1, a, _), (c2, b, _) = steps
            return f"{rank} {c1}:{geo.token(a)}<>{c2}:{geo.token(b)}"
        body = " ".join(f"{c}:{geo.token(s)}-{geo.token(d)}" for c, s, d in steps)
        return f"{rank} free {body}" if kind == FREE else f"{rank} {body}"

    @classmethod
    def from_text(cls, text: str, geo: Geometry, sides: int | None = None,
                  ranks: Iterable[str] | None = None) -> "Move":
        """Parse NOTATION.md move text; raises MoveSyntaxError (syntax only).

        ``ranks`` (a related game's deck, RG-N2) also admits its forms of
        RG-N3: any number of parts, force, `discard hand` and passing a card.

        >>> from companion.board import geometry
        >>> geo = geometry(4)                       # the 4-sided board of 18 holes a side
        >>> move = Move.from_text("7 0:M10-M13 0:M40-M44", geo)
        >>> move
        Move('7', 'move', ((0, 10, 13), (0, 40, 44)))
        >>> move.text(geo)
        '7 0:M10-M13 0:M40-M44'
        >>> Move.from_text("7 0:M10", geo)
        Traceback (most recent call last):
        ...
        companion.errors.MoveSyntaxError: bad step '0:M10' in '7 0:M10': expected <side>:<from>-<to>, e.g. 0:M10-M13
        """
        if not isinstance(text, str):
            raise MoveSyntaxError("a move must be text")
        words = text.split()
        if not words:
            raise MoveSyntaxError("empty move")
        if words in (["doubt"], ["pass"]):
            return cls("", words[0])
        if words[0] == "penalty":
            if len(words) != 2 or not _STEP.match(words[1]):
                raise MoveSyntaxError(f"bad penalty {text!r}: expected penalty <side>:M<n>-S")
            m = _STEP.match(words[1])
            assert m is not None  # matched just above
            c = int(m[1])
            _check_side(c, sides, text)
            return cls("", PENALTY, ((c, _loc(geo, m[2], text), _loc(geo, m[3], text)),))
        if ranks is not None:
            return _related_from_text(cls, text, words, geo, sides, ranks)
        rank = words[0].upper()
        if rank not in RANK_SET:
            raise MoveSyntaxError(f"bad move {text!r}: {words[0]!r} is not a rank "
                                  f"({' '.join(RANKS)})")
        rest = words[1:]
        if rest == ["discard"]:
            return cls(rank, DISCARD)
        kind = MOVE
        if rest and rest[0] == "free":
            kind, rest = FREE, rest[1:]
        if not rest:
            raise MoveSyntaxError(f"bad move {text!r}: no steps after the rank")
        if len(rest) == 1 and kind == MOVE and "<>" in rest[0]:
            return _swap(cls, rank, rest[0], geo, sides, text)
        if len(rest) > 2 or (kind == FREE and len(rest) != 1):
            raise MoveSyntaxError(f"bad move {text!r}: too many steps")
        steps = []
        for word in rest:
            m = _STEP.match(word)
            if not m:
                raise MoveSyntaxError(f"bad step {word!r} in {text!r}: expected <side>:<from>-<to>, e.g. 0:M10-M13")
            c = int(m[1])
            _check_side(c, sides, text)
            steps.append((c, _loc(geo, m[2], text), _loc(geo, m[3], text)))
        return cls(rank, kind, steps)


def _swap(cls: type[Move], rank: str, word: str, geo: Geometry, sides: int | None, text: str) -> Move:
    m = _SWAP.match(word)
    if not m:
        raise MoveSyntaxError(f"bad swap {word!r}: expected <side>:M<n><><side>:M<m>")
    c1, a, c2, b = int(m[1]), _loc(geo, m[2], text), int(m[3]), _loc(geo, m[4], text)
    _check_side(c1, sides, text)
    _check_side(c2, sides, text)
    if a > b:  # a swap has no order: the lower hole is written first
        c1, a, c2, b = c2, b, c1, a
    return cls(rank, SWAP, ((c1, a, b), (c2, b, a)))


def canonical_rank(word: str, ranks: Iterable[str]) -> str | None:
    """A related game's rank token (RG-N2): case-insensitive but for the r/b of
    Jr Jb Qr Qb, which read either case; None if the deck has no such rank."""
    if len(word) == 2 and word[0] in "JjQq" and word[1] in "rbRB":
        word = word[0].upper() + word[1].lower()
    else:
        word = word.upper()
    return word if word in ranks else None


def _related_from_text(cls: type[Move], text: str, words: list[str], geo: Geometry, sides: int | None,
                       ranks: Iterable[str]) -> Move:
    if words == ["discard", "hand"]:
        return cls("", HAND)
    rank = canonical_rank(words[0], ranks)
    if rank is None:
        raise MoveSyntaxError(f"bad move {text!r}: {words[0]!r} is not a rank of this game "
                              f"({' '.join(ranks)})")
    rest = words[1:]
    if rest == ["discard"]:
        return cls(rank, DISCARD)
    if len(rest) == 2 and rest[0] in ("force", "pass"):
        if not rest[1].isdigit():
            raise MoveSyntaxError(f"bad move {text!r}: {rest[0]} takes a side number")
        c = int(rest[1])
        _check_side(c, sides, text)
        return cls(rank, FORCE if rest[0] == "force" else GIVE, (c,))
    if not rest:
        raise MoveSyntaxError(f"bad move {text!r}: no steps after the rank")
    if len(rest) == 1 and "<>" in rest[0]:
        return _swap(cls, rank, rest[0], geo, sides, text)
    if len(rest) > 7:
        raise MoveSyntaxError(f"bad move {text!r}: too many steps")
    steps: list[tuple[int, int, int]] = []
    for word in rest:
        m = _STEP.match(word)
        if not m:
            raise MoveSyntaxError(f"bad step {word!r} in {text!r}: expected <side>:<from>-<to>, e.g. 0:M10-M13")
        c = int(m[1])
        _check_side(c, sides, text)
        steps.append((c, _loc(geo, m[2], text), _loc(geo, m[3], text)))
    return cls(rank, MOVE, steps)


def _loc(geo: Geometry, token: str, text: str) -> int:
    try:
        return geo.parse_token(token)
    except ValueError as exc:
        raise MoveSyntaxError(f"{exc} in {text!r}") from None


def _check_side(c: int, sides: int | None, text: str) -> None:
    if sides is not None and not 0 <= c < sides:
        raise MoveSyntaxError(f"side {c} in {text!r} is not on a {sides}-sided board")


__all__ = ["Move", "MoveError", "MoveSyntaxError", "IllegalMoveError", "AmbiguousMoveError",
           "RANKS", "MOVE", "SWAP", "DISCARD", "FREE", "DOUBT", "PASS", "PENALTY", "START",
           "FORCE", "HAND", "GIVE", "canonical_rank"]
