"""The rules a table asks the engine for: set-up (companion.setup), the phone's plays
(Game.plays_for), the undo policy (Game.undo_turn) and hits (companion.hits)."""
import random

import pytest

from companion.families import new_game
from companion.cards import shoe_of
from companion.game import Game
from companion.hits import hits
from companion.rules import rules_from_json
from companion.setup import SetupError, parse_setup
from tests.companion.rules_helpers import pos

NAMES = ["Ann", "Ben", "Cy", "Di"]


# ------------------------------------------------------------------ hits
def test_two_pegs_of_one_colour_hit_by_one_split_are_both_listed():
    p = pos({0: ["M10", "M17"], 1: ["M12", "M22"]})
    move = next(m for m in p.legal_moves(["7"]) if m.text(p.geo) == "7 0:M10-M12 0:M17-M22")
    before = p.pegs()
    start = before[2][0]   # a peg still in its start area
    assert sorted(hits(p, move)) == [(1, 12, start), (1, 22, start)]
    assert sorted(hits(p, move, by_step=True)) == [(1, 12, start), (1, 22, start)]
    assert p.pegs() == before   # the position is left as it was


def test_a_move_onto_an_empty_hole_hits_nothing():
    p = pos({0: ["M10"], 1: ["M30"]})
    assert all(hits(p, m) == [] for m in p.legal_moves(["5"]))


# ------------------------------------------------------------------ set-up
def test_a_setup_is_checked_once_with_one_error_type():
    setup = parse_setup({"preset": "basic", "players": 4, "names": NAMES})
    assert setup["players"] == 4 and setup["dealer"] == 3 and setup["draw"] is None
    assert [s["name"] for s in setup["seats"]] == NAMES
    bad = [({"preset": "nope", "players": 4, "names": NAMES}, "unknown rules preset"),
           ({"preset": "basic", "players": 5, "names": NAMES}, "players must be"),
           ({"preset": "basic", "players": 4, "names": ["A", "a", "B", "C"]}, "different name"),
           ({"preset": "basic", "players": 4, "names": NAMES, "colours": [["red"]] * 4}, "colours must be"),
           ({"preset": "basic", "players": 4, "names": NAMES, "decks": 0}, "decks"),
           ({"preset": "tock", "players": 6, "names": NAMES}, "played by 4"),
           ({"preset": "basic", "players": 4, "names": NAMES, "sections": 4}, "Tock, Carbles"),
           ([], "JSON object")]
    for data, words in bad:
        with pytest.raises(SetupError, match=words):
            parse_setup(data)


def test_the_draw_for_partners_uses_the_given_random_source():
    data = {"preset": "basic", "players": 4, "names": NAMES, "draw_for_partners": True}
    a, b = parse_setup(data, random.Random(5)), parse_setup(data, random.Random(5))
    assert a == b and a["dealer"] == 0 and a["draw"]["seating"]


def test_the_two_player_shoe_rule_is_one_function():
    r = rules_from_json("basic")
    no_jokers = rules_from_json({"preset": "basic", "options": {"two_players_no_jokers": True}})
    assert "JK" in shoe_of(r, 2) and "JK" not in shoe_of(no_jokers, 2) and "JK" in shoe_of(no_jokers, 4)
    assert sorted(new_game(no_jokers, players=2, seed=1).shoe.stock + sum(new_game(no_jokers, players=2, seed=1).hands, [])) \
        == sorted(shoe_of(no_jokers, 2))


# ------------------------------------------------------------------ plays offered
def test_the_phone_is_offered_every_legal_play_and_only_to_the_actor():
    g = new_game("basic", players=4, seed=3)
    offered = g.plays_for(g.actor)
    assert offered["seat"] == g.actor and offered["phase"] == "play"
    texts = {m["move"] for c in offered["cards"] for m in c["moves"]}
    legal = {p.move.text(g.position.geo) for p in g.legal_plays() if p.move.kind != "discard"}
    assert legal <= texts   # every order of a split too (R4 lists one)
    assert {c["card"] for c in offered["cards"]} == set(g.hands[g.actor])
    with pytest.raises(ValueError, match="does not act now"):
        g.plays_for((g.actor + 1) % 4)


def test_the_related_games_plays_are_worded():
    g = new_game("tock", players=4, seed=2)
    offered = g.plays_for(g.actor)
    entries = [m for c in offered["cards"] for m in c["moves"]]
    assert offered["options"] is True and entries and all(m["words"] for m in entries)


# ------------------------------------------------------------------ undo
def _play_until_seat_zero_acted_and_bots_followed(g, rng):
    while True:
        plays = g.legal_plays()
        seat = g.actor
        g.push(rng.choice(plays))
        if seat == 0:
            break
    while g.actor != 0:
        g.push(rng.choice(g.legal_plays()))


def test_undo_takes_back_the_computers_moves_back_to_the_persons():
    g = new_game("basic", players=4, seed=7)
    rng = random.Random(1)
    _play_until_seat_zero_acted_and_bots_followed(g, rng)
    n = len(g.history)
    span = g.undo_span(bots={1, 2, 3})
    assert span[-1]["seat"] == 0 and all(e["seat"] != 0 for e in span[:-1]) and len(span) >= 2
    undone = g.undo_turn(bots={1, 2, 3})
    assert [e["seat"] for e in undone] == [e["seat"] for e in span]
    assert len(g.history) == n - len(undone) and g.actor == 0


def test_undo_at_a_table_of_computers_takes_back_one_move():
    g = new_game("basic", players=4, seed=7)
    _play_until_seat_zero_acted_and_bots_followed(g, random.Random(2))
    n = len(g.history)
    assert len(g.undo_span(bots={0, 1, 2, 3})) == 1
    assert len(g.undo_turn(bots={0, 1, 2, 3})) == 1 and len(g.history) == n - 1
