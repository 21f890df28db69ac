"""The rule families: the registry, what each family's parts are, the choice by option
values, the shared peg state's snapshots, and no engine choice made outside the registry."""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from companion.errors import SetupError
from companion.families import FAMILIES, PEGS, TOCK, find_family, game_from_record, new_game
from companion.families.base import resolve
from companion.game import Game
from companion.rules import ALL_PRESETS, PRESETS, RELATED_PRESETS
from companion.state import PegState, Saved

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_every_part_of_a_family_resolves_to_what_the_interface_says(family):
    for path in family.paths():
        assert path, f"{family.name} leaves a part unnamed"
        resolve(path)
    assert issubclass(family.position_cls, PegState)
    assert issubclass(family.game_cls, Game) and family.game_cls.FAMILY == family.name
    assert callable(family.search) and callable(family.hint_reason)
    for preset in family.presets:
        rules = ALL_PRESETS[preset]
        assert find_family(preset) is family and find_family(rules) is family
        assert family.deck_ranks(rules) and family.board_sizes(rules)
        assert family.come_out_ranks(rules)
        assert preset in family.seats


def test_the_registry_lists_every_preset_once():
    listed = [p for f in FAMILIES for p in f.presets]
    assert sorted(listed) == sorted(ALL_PRESETS)
    assert set(PEGS.presets) == set(PRESETS) and set(TOCK.presets) == set(RELATED_PRESETS)


def test_the_family_is_chosen_by_option_values_not_preset_names():
    assert find_family({"preset": "basic", "options": {"ten": "split"}}) is PEGS
    # the related games' own options make a basic rule set the Tock family's (issue 18.1)
    tock_basic = {"preset": "basic", "options": {
        "deal": [5, 4, 4], "hits": "start", "seven": "one", "court_out": "K", "jokers_per_deck": 0,
        "home_size": 4, "pegs_per_side": 4, "in_spot_offset": 17, "come_out_offset": 17}}
    assert find_family(tock_basic) is TOCK
    assert type(new_game(tock_basic, players=4, seed=1)).__name__ == "TockGame"
    # the options both play keep Pegs and Jokers
    assert find_family({"preset": "basic", "options": {"four": "backward", "home_size": 4,
                                                       "pegs_per_side": 4}}) is PEGS


def test_a_game_class_plays_only_its_own_family():
    with pytest.raises(SetupError, match="new_game"):
        Game("tock", players=4, seed=1)
    for preset in ALL_PRESETS:
        players = 3 if preset == "tock3" else 4
        game = new_game(preset, players=players, seed=2)
        assert type(game) is find_family(preset).game_cls
        assert isinstance(game.position, find_family(preset).position_cls)


@pytest.mark.parametrize("preset", ["basic", "bluffing_joker", "tock", "jackaroo", "carbles"])
def test_save_restore_and_undo_put_back_the_same_state(preset):
    game = new_game(preset, players=4, seed=5)
    rng = random.Random(5)
    states, views = [], []
    for _ in range(60):
        if game.is_over():
            break
        views.append(game.player_view(game.actor))  # (a Tock view syncs its hand sizes)
        pos = game.position
        states.append((pos.key(), pos.to_json()))
        game.push(rng.choice(game.legal_plays()))
    saved = game.position.save()
    assert isinstance(saved, Saved) and saved.occ is game.position.occ
    for key_json, view in zip(reversed(states), reversed(views)):
        game.pop()
        assert game.player_view(game.actor) == view
        assert (game.position.key(), game.position.to_json()) == key_json


def test_a_record_replays_as_its_familys_game():
    game = new_game("jackaroo", players=4, seed=3)
    for _ in range(10):
        game.push(game.legal_plays()[0])
    again = game_from_record(game.record())
    assert type(again).__name__ == "TockGame" and again.position.key() == game.position.key()
    assert Game.from_record(game.record()).position.key() == game.position.key()


# An engine is chosen by asking the family; no module outside the registry tests a
# preset's name (`preset.startswith("carbles")`, `preset == "tock"`) or `rules.related`.
_NAME_TEST = re.compile(r"""(preset|\.preset)\s*(\.startswith\(|==\s*["']|in\s*\(["'])""")


def _outside_registry():
    for folder in ("companion", "vision", "web"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(("companion/families/", "companion/rules.py")):
                continue
            yield rel, path


def test_no_preset_name_test_or_related_flag_outside_the_registry():
    found = []
    for rel, path in _outside_registry():
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Attribute) and node.attr == "related":
                found.append(f"{rel}:{node.lineno}: .related")
        for n, line in enumerate(text.splitlines(), 1):
            if _NAME_TEST.search(line) and not line.lstrip().startswith("#"):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
