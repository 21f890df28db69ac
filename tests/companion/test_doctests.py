"""The public engine API's examples (python-chess style doctests) run in the suite:
new_game, legal_plays, push/pop, Move.from_text, position_from_json, find_family."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("companion.families", "companion.game", "companion.moves", "companion.notation")


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2, f"{name} lost its examples"
    assert result.failed == 0


def test_the_named_api_has_examples():
    from companion.families import new_game
    from companion.game import Game
    from companion.moves import Move
    for fn in (new_game, Game.legal_plays, Game.push, Move.from_text):
        assert ">>>" in (fn.__doc__ or ""), fn.__qualname__
