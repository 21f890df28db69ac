"""One error root: every exception class companion/ defines descends from CompanionError,
companion/ raises no bare ValueError, and the branches still are ValueErrors for old callers."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from companion.families import new_game
from companion.errors import (CompanionError, IllegalMoveError, MoveError, PositionError,
                              RulesError, SetupError)
from companion.game import Game
from companion.notation import position_from_json
from companion.rules import rules_from_json

COMPANION = Path(__file__).resolve().parents[2] / "companion"
MODULES = sorted(p for p in COMPANION.rglob("*.py") if "__pycache__" not in p.parts)


def _module(path: Path) -> str:
    parts = list(path.relative_to(COMPANION.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_exception_class_has_the_one_root():
    found = []
    for path in MODULES:
        mod = importlib.import_module(_module(path))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                cls = getattr(mod, node.name, None)
                if isinstance(cls, type) and issubclass(cls, BaseException):
                    found.append(cls)
                    assert issubclass(cls, CompanionError), f"{path.name}: {node.name}"
    assert len(found) >= 10


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(COMPANION)))
def test_no_bare_value_error_is_raised(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            name = node.exc.func
            assert not (isinstance(name, ast.Name) and name.id == "ValueError"), \
                f"{path.name}:{node.lineno} raises a bare ValueError"


def test_each_branch_is_raised_where_it_belongs_and_is_still_a_value_error():
    with pytest.raises(RulesError):
        rules_from_json("no_such_preset")
    with pytest.raises(SetupError):
        new_game("basic", players=4, dealer=9)
    bad = {"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4,
           "teams": [[0, 2], [1, 3]], "pegs": {str(k): ["S"] * 4 for k in range(4)}, "to_move": 0}
    with pytest.raises(PositionError):
        position_from_json(bad)
    game = new_game("basic", players=4, seed=1)
    with pytest.raises(IllegalMoveError) as info:
        game.push_text("5 0:M3-M8")
    assert isinstance(info.value, MoveError) and info.value.rule  # the rule id is kept
    for cls in (RulesError, SetupError, PositionError, MoveError):
        assert issubclass(cls, CompanionError) and issubclass(cls, ValueError)
