"""The related games' options on a Pegs and Jokers preset (issue 18.1: options
any preset could use). `home_size`, `four`, `court_out` and `open_hand` run on
the Pegs and Jokers engine; the rest switch to the related engine, and a mix it
can't play is refused in one sentence."""
import json

import pytest

from companion.families import PEGS, find_family, new_game
from companion.game import Game
from companion.notation import position_from_json
from companion.families.pegs.position import Position
from companion.rules import RulesError, rules_from_json

from tests.companion.test_playouts import play_checked

OPTS = {"preset": "basic", "options": {"four": "backward", "home_size": 4, "pegs_per_side": 4,
                                       "court_out": "K", "open_hand": True}}


def test_basic_with_backward_four_home_of_four_king_only_come_out():
    rules = rules_from_json(OPTS)
    assert find_family(rules) is PEGS  # the family says, by option values
    d = {"format": "pegs-and-jokers/position/1", "rules": OPTS, "sides": 4,
         "teams": [[0, 2], [1, 3]], "to_move": 0,
         "pegs": {"0": ["S", "S", "S", "M20"], "1": ["S"] * 4, "2": ["S"] * 4, "3": ["S"] * 4}}
    p = position_from_json(json.dumps(d))
    assert type(p) is Position
    assert {m.text(p.geo) for m in p.legal_moves(["4", "J", "K"])} == {
        "4 0:M20-M16", "J 0:M20-M30", "K 0:S-M8", "K 0:M20-M30"}
    d["pegs"]["0"] = ["S", "S", "S", "M1"]
    p = position_from_json(json.dumps(d))
    assert "6 0:M1-H4" in {m.text(p.geo) for m in p.legal_moves(["6"])}  # M2, M3, H1..H4
    assert "7 0:M1-H5" not in {m.text(p.geo) for m in p.legal_moves(["7"])}


def test_basic_with_the_options_plays_to_the_end_and_shows_hands():
    game, _ = play_checked(OPTS, 4, 2, seed=3)
    assert game.is_over()
    assert new_game(OPTS, players=4, seed=1).player_view(0)["hands"] is not None


@pytest.mark.parametrize("options, says", [
    ({"start_block": True}, "deal"),
    ({"start_block": True, "deal": [5, 4, 4], "hits": "start", "seven": "one"}, "draw"),
    ({"pegs_per_side": 5, "home_size": 4}, "fit"),
])
def test_mixes_the_engines_cannot_play_are_refused(options, says):
    with pytest.raises(RulesError, match=says):
        rules_from_json({"preset": "basic" if "draw" not in says else "arizona",
                         "options": options})
