"""Scenario tests of the basic game, one or more per RULES.md id.

Covered: G1-G6, T1-T3, C1-C5 (Game level; the shoe itself is in
test_cards.py), M1-M10, P1-P8 and the rulings R1, R2, R3, R4, R8, R9, R10
(plus R11 where it decides a P8 split).

Every expected move text and result below is worked out by hand from
RULES.md (the reasoning is in the comments), never copied from the engine.

Board facts used throughout (RULES G2-G4), 4 sides x 18 holes, L = 72:
side k's in-spot is M(18k+3): M3, M21, M39, M57; its come-out hole is
M(18k+8): M8, M26, M44, M62. 6 sides: L = 108, in-spots M3 M21 M39 M57 M75
M93, come-outs M8 M26 M44 M62 M80 M98. Teams (T1): 4 players [[0,2],[1,3]];
6 players 2x3 [[0,2,4],[1,3,5]], 3x2 [[0,3],[1,4],[2,5]].

Positions are written in NOTATION.md JSON through `pos()`: each side lists
only its pegs out of start, the rest are padded with "S" (5 pegs a side).

Game-level set-ups: a `Game` is dealt from a seed, then (where a test says
so) its `position` is replaced by a NOTATION.md position with the same teams
and `hands[seat]` is overwritten with chosen cards. Card conservation with
the shoe is then not kept; those tests only look at hand sizes, the stock's
top card and the plays offered.
"""

import json
import random
from collections import Counter

import pytest

from companion.families import new_game
from companion.board import geometry, seat_sides, sides_for, team_lists
from companion.cards import draw_for_partners, make_shoe, rank_of
from companion.game import Game
from companion.moves import IllegalMoveError
from companion.notation import moves_report, position_from_json, position_to_json
from companion.errors import PositionError



from tests.companion.rules_helpers import (
    ALL_HOME, FORMAT, canon, full, game_with, illegal, moves, play_texts, pos, results,
    shoe_total, texts)



# ======================================================================
# G. Board geometry
# ======================================================================

def test_G1_supported_seat_counts_and_one_side_per_seat():
    # G1: 2, 4, 6, 8, 10 seats; one side per seat, 2 players use 4 sides.
    assert [sides_for(n) for n in (2, 4, 6, 8, 10)] == [4, 4, 6, 8, 10]
    for bad in (1, 3, 5, 7, 12):
        with pytest.raises(ValueError):
            sides_for(bad)
    with pytest.raises(ValueError):
        new_game(players=3, seed=0)
    assert new_game(players=6, seed=0).position.sides == 6


def test_G1_two_players_sit_on_opposite_sides_of_a_four_sided_board():
    assert seat_sides(2) == [0, 2]
    g = new_game(players=2, seed=0)
    assert g.sides == 4 and g.seat_side == [0, 2]
    assert sorted(g.position.pegs()) == [0, 2]
    # a 2-player position names sides 0 and 2 of a 4-sided board
    p = pos({0: ["M20"], 2: ["M50"]}, players=2)
    assert texts(p, "3") == {"3 0:M20-M23"}
    # sides 0 and 1 is not a 2-player seating
    bad = {"format": FORMAT, "rules": "basic", "sides": 4, "teams": [[0], [1]],
           "pegs": {"0": canon([]), "1": canon([])}, "to_move": 0}
    with pytest.raises(PositionError):
        position_from_json(bad)


def test_G2_main_track_length_is_sides_times_holes_per_side():
    assert geometry(4).length == 72
    assert geometry(6).length == 108
    assert geometry(8).length == 144
    assert geometry(10).length == 180
    assert geometry(4, 20).length == 80  # Pegoo's 20 holes a side
    geo = geometry(4)
    assert geo.parse_token("M0") == 0 and geo.token(geo.parse_token("M71")) == "M71"
    with pytest.raises(ValueError):
        geo.parse_token("M72")
    with pytest.raises(PositionError):
        pos({0: ["M72"]})


def test_G2_travel_wraps_from_last_hole_to_M0():
    # M70 forward 3: M71, M0, M1. Side 0's in-spot M3 is not reached.
    p = pos({0: ["M70"]})
    assert moves(p, "3") == {"3 0:M70-M1": full({0: ["M1"]})}


def test_G2_G3_backward_8_from_come_out_reaches_the_corner():
    # G3: from come-out (18k+8) backward 8 is the corner 18k (G2).
    p1 = pos({1: ["M26"]}, to_move=1)
    assert moves(p1, "8") == {"8 1:M26-M18": full({1: ["M18"]})}
    p3 = pos({3: ["M62"]}, to_move=3)
    assert texts(p3, "8") == {"8 3:M62-M54"}


def test_G3_in_spots_and_come_out_holes():
    assert geometry(4).in_spot == (3, 21, 39, 57)
    assert geometry(4).come_out == (8, 26, 44, 62)
    assert geometry(6).in_spot == (3, 21, 39, 57, 75, 93)
    assert geometry(6).come_out == (8, 26, 44, 62, 80, 98)
    # each side comes out on its own come-out hole
    for side, hole in enumerate((8, 26, 44, 62)):
        assert texts(pos({}, to_move=side), "K") == {f"K {side}:S-M{hole}"}


def test_G3_in_spot_is_met_before_come_out_so_a_new_peg_cannot_turn_in():
    # From M8 the in-spot M3 is 67 holes ahead: J forward 10 just goes to M18.
    # (A J can also come out, but M8 is taken by the own peg: R2.)
    p = pos({0: ["M8"]})
    assert texts(p, "J") == {"J 0:M8-M18"}


def test_G3_offsets_are_rule_options():
    rules = {"preset": "basic", "options": {"in_spot_offset": 2, "come_out_offset": 9}}
    p = pos({0: ["M0"]}, rules=rules)
    # come-out M9; from M0 forward 3: M1, M2 (in-spot), then H1 or M3
    assert texts(p, "A") == {"A 0:S-M9", "A 0:M0-M1"}
    assert texts(p, "3") == {"3 0:M0-H1", "3 0:M0-M3"}


def test_G4_home_branches_off_the_in_spot_H1_first():
    # On the in-spot M3: A goes to H1 (next to it) or M4; 5 reaches H5, the
    # deepest, or M8. The 4 pegs in start also come out with the A.
    p = pos({0: ["M3"]})
    assert texts(p, "A") == {"A 0:M3-H1", "A 0:M3-M4", "A 0:S-M8"}
    assert moves(p, "5") == {"5 0:M3-H5": full({0: ["H5"]}),
                             "5 0:M3-M8": full({0: ["M8"]})}


def test_G4_home_is_private_to_its_colour():
    # Side 1 passing side 0's in-spot M3 stays on the main track.
    p = pos({1: ["M1"]}, to_move=1)
    assert texts(p, "4") == {"4 1:M1-M5"}
    # side 0 and side 1 may both have a peg on "H1": different tracks
    q = pos({0: ["H1"], 1: ["H1"]})
    assert q.pegs()[0].count(q.geo.parse_token("H1")) == 1


def test_G5_start_holds_five_interchangeable_pegs():
    p = pos({})
    assert position_to_json(p)["pegs"]["0"] == ["S"] * 5
    # five pegs in start, yet one come-out per card: they are interchangeable
    assert texts(p, "A") == {"A 0:S-M8"}
    q = pos({1: ["M20"]})
    assert texts(q, "JK") == {"JK 0:S-M20"}


def test_G5_every_side_has_its_five_pegs():
    bad = {"format": FORMAT, "rules": "basic", "sides": 4, "teams": [[0, 2], [1, 3]],
           "pegs": {"0": ["S"] * 4, "1": ["S"] * 5, "2": ["S"] * 5, "3": ["S"] * 5},
           "to_move": 0}
    with pytest.raises(PositionError):
        position_from_json(bad)


def test_G6_pegs_of_one_colour_are_interchangeable():
    # The same pegs listed in another order are the same position.
    data = {"format": FORMAT, "rules": "basic", "sides": 4, "teams": [[0, 2], [1, 3]],
            "pegs": {"0": ["M40", "S", "M8", "H5", "S"], "1": ["S"] * 5,
                     "2": ["H3", "S", "M47", "S", "S"], "3": ["S"] * 5},
            "to_move": 0}
    a = position_from_json(data)
    b = pos({0: ["M8", "M40", "H5"], 2: ["M47", "H3"]})
    assert a == b
    assert position_to_json(a)["pegs"]["0"] == ["S", "S", "M8", "M40", "H5"]
    assert moves(a) == moves(b)


def test_G6_different_splits_to_the_same_holes_are_one_position():
    # Pegs on M1 and M2, a 7 (see test_M9_two_pegs_before_the_in_spot...):
    # "M2+2 -> M4, then M1+5 -> H3" and "M2+4 -> H3, then M1+3 -> M4" leave
    # pegs on M4 and H3 either way. Which peg is which does not matter: it is
    # one position, listed once (R4), and both ways are legal as typed.
    p = pos({0: ["M1", "M2"]})
    p.parse_move("7 0:M2-M4 0:M1-H3")
    p.parse_move("7 0:M2-H3 0:M1-M4")
    target = full({0: ["M4", "H3"]})
    assert [r for r in results(p, "7") if r == target] == [target]


# ======================================================================
# T. Teams and seating
# ======================================================================

def test_T1_teams_sit_alternately():
    assert team_lists(2) == [[0], [2]]
    assert team_lists(4) == [[0, 2], [1, 3]]
    assert team_lists(6, 2) == [[0, 2, 4], [1, 3, 5]]
    assert team_lists(6, 3) == [[0, 3], [1, 4], [2, 5]]
    assert team_lists(8, 2) == [[0, 2, 4, 6], [1, 3, 5, 7]]
    assert team_lists(8, 4) == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert team_lists(10, 2) == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]
    assert new_game(players=6, teams=3, seed=0).position.teams == ((0, 3), (1, 4), (2, 5))


@pytest.mark.parametrize("players, teams", [(4, 4), (4, 3), (6, 6), (8, 3), (10, 5)])
def test_T1_unsupported_team_layouts_are_rejected(players, teams):
    with pytest.raises(ValueError):
        team_lists(players, teams)


def test_T1_partners_in_six_player_three_teams_of_two():
    # 3x2: side 0's partner is side 3 (0 mod 3 == 3 mod 3); side 2 is an opponent.
    t = [[0, 3], [1, 4], [2, 5]]
    p = pos({0: ["M10"], 3: ["M13"], 2: ["M14"]}, sides=6, teams=t)
    res = moves(p, "3", "4")
    # partner hit on M13: side 3 goes to its in-spot M57
    assert res["3 0:M10-M13"] == full({0: ["M13"], 3: ["M57"], 2: ["M14"]}, sides=6)
    # opponent hit on M14 (passing side 3's peg on M13 freely): side 2 to start
    assert res["4 0:M10-M14"] == full({0: ["M14"], 3: ["M13"]}, sides=6)


def test_T2_play_goes_clockwise_in_a_game():
    g = new_game(players=4, seed=5)
    for seat in (0, 1, 2, 3, 0):
        assert g.seat == seat
        g.push(g.legal_plays()[0])
    g2 = new_game(players=2, seed=5)
    seen = []
    for _ in range(3):
        seen.append(g2.position.to_move)
        g2.push(g2.legal_plays()[0])
    assert seen == [0, 2, 0]


def test_T2_position_passes_the_turn_to_the_next_side():
    p = pos({})
    order = []
    for _ in range(5):
        order.append(p.to_move)
        p.push(next(p.legal_moves(["A"])))  # everyone comes out
    assert order == [0, 1, 2, 3, 0]


def test_T2_next_partner_is_the_first_teammate_after_in_turn_order():
    # 6 players 2x3, team [0, 2, 4]: after 4 come 5 (opponent) then 0.
    p = pos({4: ALL_HOME, 0: ["M10"], 2: ["M50"]}, to_move=4, sides=6)
    assert p.controlled(4) == [0]
    q = pos({2: ALL_HOME, 0: ["M10"], 4: ["M80"]}, to_move=2, sides=6)
    assert q.controlled(2) == [4]


def test_T3_first_to_play_is_left_of_the_dealer():
    for dealer in range(4):
        g = new_game(players=4, seed=3, dealer=dealer)
        assert g.seat == (dealer + 1) % 4
        # draw first (C3): only the first player has drawn
        assert [len(h) for h in g.hands] == [6 if s == g.seat else 5 for s in range(4)]


class _NoShuffle:
    def shuffle(self, cards):
        pass


def test_T3_six_players_three_teams_cut_from_the_top():
    # draws (aces low = 1, jokers high = 14): p0 2, p1 JK, p2 7, p3 K, p4 A, p5 9
    # ranking p1 p3 p5 p2 p0 p4 -> teams {1,3}, {5,2}, {0,4}; p1 deals.
    pile = list(reversed(["2S", "JK", "7H", "KD", "AS", "9C"]))
    r = draw_for_partners(6, 3, _NoShuffle(), pile)
    assert [set(t) for t in r.teams] == [{1, 3}, {2, 5}, {0, 4}]
    assert r.dealer == 1
    assert r.seating[0] == 1 and r.first == r.seating[1]
    for seat, player in enumerate(r.seating):  # T1: seat s on team s mod 3
        assert player in r.teams[seat % 3]


# ======================================================================
# C. Cards and the shoe, at game level
# ======================================================================

def test_C1_game_shoe_default_216_cards():
    g = new_game(players=4, seed=1)
    assert shoe_total(g) == Counter(make_shoe())
    assert sum(shoe_total(g).values()) == 216


def test_C1_game_shoe_options_three_decks_and_no_jokers_for_two():
    g = new_game(rules={"preset": "basic", "options": {"decks": 3}}, players=6, seed=1)
    assert sum(shoe_total(g).values()) == 162
    g2 = new_game(rules={"preset": "basic", "options": {"two_players_no_jokers": True}},
              players=2, seed=1)
    total = shoe_total(g2)
    assert sum(total.values()) == 208 and total["JK"] == 0


def test_C2_deal_five_each_rest_is_stock():
    # 4 players: 20 dealt, the first player (seat 0, left of dealer 3) then
    # draws 1 (C3 draw first): 216 - 21 = 195 left in stock.
    g = new_game(players=4, seed=11)
    assert [len(h) for h in g.hands] == [6, 5, 5, 5]
    assert len(g.shoe.stock) == 195 and g.shoe.discard == []
    g6 = new_game(players=6, seed=11)
    assert [len(h) for h in g6.hands] == [6, 5, 5, 5, 5, 5]
    assert len(g6.shoe.stock) == 216 - 31


def test_C2_hand_size_option_and_draw_after_deal():
    g = new_game(rules={"preset": "basic", "options": {"hand_size": 3}}, players=4, seed=2)
    assert [len(h) for h in g.hands] == [4, 3, 3, 3]
    ga = new_game(rules={"preset": "basic", "options": {"draw": "after"}}, players=4, seed=2)
    assert [len(h) for h in ga.hands] == [5, 5, 5, 5]
    assert len(ga.shoe.stock) == 196


def test_C3_draw_first_choice_among_six_then_next_player_draws():
    # Seat 0 holds 6 cards, none of which can move a peg from start: the
    # choice is a discard of any of the 6 (P7).
    hand = ["2H", "3H", "4H", "5H", "6H", "9H"]
    g = game_with({}, hand, seed=21)
    assert play_texts(g) == {f"{rank_of(c)} discard" for c in hand}
    top = g.shoe.stock[-1]
    before = Counter(g.hands[1])
    g.push_text("4 discard", "4H")
    assert len(g.hands[0]) == 5
    # seat 1 has drawn the top of the stock at the start of its turn
    assert len(g.hands[1]) == 6
    assert Counter(g.hands[1]) - before == Counter({top: 1})


def test_C3_draw_after_play_then_draw_choice_among_five():
    rules = {"preset": "basic", "options": {"draw": "after"}}
    g = new_game(rules=rules, players=4, seed=21)
    assert len(g.hands[0]) == 5
    play = g.legal_plays()[0]
    top = g.shoe.stock[-1]
    before = Counter(g.hands[0])
    g.push(play)
    assert Counter(g.hands[0]) == before - Counter({play.card: 1}) + Counter({top: 1})
    assert len(g.hands[1]) == 5  # seat 1 does not draw before playing


def test_C4_reshuffle_during_a_game():
    # Set-up: move the whole stock onto the discard pile, so the stock is empty
    # when seat 1 must draw. The discard pile (with seat 0's card just played
    # on it) is shuffled into a new stock; seat 1 draws from it.
    g = new_game(players=4, seed=4)
    shoe = g.shoe
    shoe.discard.extend(shoe.stock)
    shoe.stock.clear()
    n_discard = len(shoe.discard)
    g.push(g.legal_plays()[0])
    assert shoe.reshuffles == 1
    assert shoe.discard == []
    assert len(shoe.stock) == n_discard + 1 - 1  # + the card played, - the draw
    assert len(g.hands[1]) == 6
    assert shoe_total(g) == Counter(make_shoe())


def test_C4_reshuffle_when_drawing_after():
    # Draw after: the player's own draw empties nothing but the pile it just
    # played onto; that pile (with its card) becomes the new stock.
    g = new_game(rules={"preset": "basic", "options": {"draw": "after"}}, players=4, seed=4)
    shoe = g.shoe
    shoe.discard.extend(shoe.stock)
    shoe.stock.clear()
    n_discard = len(shoe.discard)
    g.push(g.legal_plays()[0])
    assert shoe.reshuffles == 1 and shoe.discard == []
    assert len(shoe.stock) == n_discard and len(g.hands[0]) == 5
    assert shoe_total(g) == Counter(make_shoe())


def test_C5_players_see_only_their_own_hand():
    g = new_game(players=4, seed=9)
    for seat in range(4):
        view = g.player_view(seat)
        assert view["hand"] == g.hands[seat]
        assert view["hand_sizes"] == [len(h) for h in g.hands]
        others = [g.hands[s] for s in range(4) if s != seat]

        def walk(value):
            if isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                assert value not in others or value == g.hands[seat]
                for v in value:
                    walk(v)

        walk({k: v for k, v in view.items() if k != "hand"})
    assert "hand" not in g.player_view(None)


def test_C5_seeded_games_repeat_and_unseeded_use_a_system_random_source():
    assert new_game(seed=77).hands == new_game(seed=77).hands
    g = new_game()
    rng = getattr(g.rng, "rng", g.rng)
    assert isinstance(rng, random.SystemRandom)


# ======================================================================
# M. Movement
# ======================================================================

def test_M1_count_must_be_used_in_full_in_home():
    # H3 + 3 would be "H6": no move; H3 + 2 = H5.
    p = pos({0: ["H3"]})
    assert texts(p, "3") == set()
    assert texts(p, "2") == {"2 0:H3-H5"}
    assert p.discard_allowed(["3", "4", "5"])


def test_M1_six_from_the_in_spot_cannot_go_home():
    # pagat: a peg on the in-spot with the rest in start must go on with a 6.
    p = pos({0: ["M3"]})
    assert texts(p, "6") == {"6 0:M3-M9"}
    e = illegal(p, "6 0:M3-H5")
    assert e.rule == "M1"


def test_M2_own_colour_blocks_passing_and_landing_on_main_track():
    p = pos({0: ["M10", "M13"]})
    # 3 from M10 lands on M13 (own), 5 from M10 passes M13: both illegal
    assert texts(p, "3") == {"3 0:M13-M16"}
    assert texts(p, "5") == {"5 0:M13-M18"}
    assert illegal(p, "3 0:M10-M13").rule == "M2"
    illegal(p, "5 0:M10-M15")


def test_M2_passing_own_peg_is_explained_by_M2():
    # The referee must cite the rule that forbids the move: passing one's own
    # peg is M2 ("may never land on, or pass over"), not M1.
    p = pos({0: ["M10", "M13"]})
    assert illegal(p, "5 0:M10-M15").rule == "M2"


def test_M2_other_colours_are_passed_freely():
    # M10 + 5 passes side 1 on M12 and side 2 on M13; neither is touched.
    p = pos({0: ["M10"], 1: ["M12"], 2: ["M13"]})
    assert moves(p, "5") == {"5 0:M10-M15": full({0: ["M15"], 1: ["M12"], 2: ["M13"]})}


def test_M2_own_colour_blocks_turning_in_and_in_home():
    # Pegs on M1 and H2. From M1: M2, M3 (in-spot), H1, H2, ...
    p = pos({0: ["M1", "H2"]})
    # 3: H1 is free -> H1 or M4; H2 + 3 = H5.
    assert texts(p, "3") == {"3 0:M1-H1", "3 0:M1-M4", "3 0:H2-H5"}
    # 4 would land on H2, 5 would pass it: both must stay on the main track
    assert texts(p, "4") == {"4 0:M1-M5"}
    assert texts(p, "5") == {"5 0:M1-M6"}


def test_M2_own_colour_blocks_within_home():
    p = pos({0: ["H1", "H3"]})
    assert texts(p, "A") == {"A 0:H1-H2", "A 0:H3-H4", "A 0:S-M8"}
    assert texts(p, "2") == {"2 0:H3-H5"}  # H1 + 2 lands on H3
    assert texts(p, "3") == set()          # H1 + 3 passes H3; H3 + 3 is off the end


def test_M2_own_colour_blocks_backward_moves():
    # 8 from M10 would pass M5 (own); 8 from M5 goes to M69 (5 - 8 = -3 mod 72).
    p = pos({0: ["M5", "M10"]})
    assert texts(p, "8") == {"8 0:M5-M69"}


def test_M3_turning_in_is_optional():
    p = pos({0: ["M1"]})
    assert moves(p, "4") == {"4 0:M1-H2": full({0: ["H2"]}),
                             "4 0:M1-M5": full({0: ["M5"]})}


def test_M3_the_in_spot_itself_is_a_step():
    p = pos({0: ["M1"]})
    # 2: M2, M3 -> stops on the in-spot, no step left to turn in
    assert texts(p, "2") == {"2 0:M1-M3"}
    # 3: M2, M3, then H1 (turn in) or M4
    assert texts(p, "3") == {"3 0:M1-H1", "3 0:M1-M4"}
    q = pos({0: ["M2"]})
    assert texts(q, "A") == {"A 0:M2-M3", "A 0:S-M8"}


def test_M3_standing_on_the_in_spot_may_turn_in():
    p = pos({0: ["M3"]})
    assert texts(p, "3") == {"3 0:M3-H3", "3 0:M3-M6"}


def test_M3_home_must_fit_the_remaining_steps():
    p = pos({0: ["M1"]})
    # 7: 2 steps to M3, 5 left -> H5 fits
    assert texts(p, "7") == {"7 0:M1-H5", "7 0:M1-M8"}
    # 9: 7 left, 10 (J): 8 left -> home can't take it, main track only
    assert texts(p, "9") == {"9 0:M1-M10"}
    assert texts(p, "10") == {"10 0:M1-M11"}
    assert texts(p, "J") == {"J 0:M1-M11", "J 0:S-M8"}


def test_M3_turn_in_after_wrapping_around_the_board():
    # M70 + 10: M71, M0, M1, M2, M3 (5 steps), then H1..H5 -> H5; or M8 (80 - 72).
    p = pos({0: ["M70"]})
    assert texts(p, "10") == {"10 0:M70-H5", "10 0:M70-M8"}
    # M70 + 5 lands on the in-spot; + 6 turns in to H1 or goes on to M4
    assert texts(p, "5") == {"5 0:M70-M3"}
    assert texts(p, "6") == {"6 0:M70-H1", "6 0:M70-M4"}


def test_M3_no_lap_counting_back_8_from_come_out_then_home():
    # pagat: come out, back 8 to the corner M0, then forward into home
    # although the peg never went round the board.
    p = pos({0: ["M8"]})
    p.push(p.parse_move("8 0:M8-M0"), next_to_move=0)
    assert p.pegs()[0] == [-1] * 4 + [0]
    # 5: M1, M2, M3, H1, H2
    assert moves(p, "5") == {"5 0:M0-H2": full({0: ["H2"]}),
                             "5 0:M0-M5": full({0: ["M5"]})}


def test_M3_only_at_own_in_spot():
    # Side 0 passes side 1's in-spot M21 without any home option.
    p = pos({0: ["M19"]})
    assert texts(p, "3") == {"3 0:M19-M22"}


def test_M4_in_home_forward_only():
    p = pos({0: ["M30", "H2", "H5"]})
    assert texts(p, "2") == {"2 0:M30-M32", "2 0:H2-H4"}
    assert texts(p, "3") == {"3 0:M30-M33"}       # H2 + 3 lands on H5 (own)
    assert texts(p, "4") == {"4 0:M30-M34"}       # H2 + 4 is off the home track
    assert texts(p, "8") == {"8 0:M30-M22"}       # home pegs never move backward


def test_M4_never_back_out_of_home_or_backward_in_home():
    p = pos({0: ["H3", "H5"]})
    assert illegal(p, "A 0:H5-M4").rule == "M4"
    assert illegal(p, "8 0:H3-H1").rule in ("M4", "M5")
    assert texts(p, "8") == set()


def test_M5_backward_passes_the_in_spot_without_entering_home():
    # 8 from M8: M7 ... M3 ... M0; no backing in.
    p = pos({0: ["M8"]})
    assert moves(p, "8") == {"8 0:M8-M0": full({0: ["M0"]})}
    q = pos({0: ["M10"]})
    assert texts(q, "8") == {"8 0:M10-M2"}
    # backing in: M9..M3 is 7 steps, H1 would be the 8th
    assert illegal(q, "8 0:M10-H1").rule == "M5"


def test_M5_backward_wraps_and_hits():
    p = pos({0: ["M5"]})
    assert texts(p, "8") == {"8 0:M5-M69"}
    # landing backward on an opponent (side 1) sends it to start (M7)
    q = pos({0: ["M30"], 1: ["M22"]})
    assert moves(q, "8") == {"8 0:M30-M22": full({0: ["M22"]})}
    # on a partner (side 2): to its in-spot M39
    r = pos({0: ["M30"], 2: ["M22"]})
    assert moves(r, "8") == {"8 0:M30-M22": full({0: ["M22"], 2: ["M39"]})}


def test_M6_only_come_out_cards_leave_start():
    p = pos({})  # everyone in start: the joker has no target (P6)
    assert texts(p) == {"A 0:S-M8", "J 0:S-M8", "Q 0:S-M8", "K 0:S-M8"}
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "JK"):
        assert texts(p, rank) == set()
    assert illegal(p, "5 0:S-M13").rule == "M6"
    assert illegal(p, "5 0:S-M8").rule == "M6"


def test_M6_come_out_landing_hits():
    # opponent on M8 -> its start; partner on M8 -> its in-spot M39
    p = pos({1: ["M8"]})
    assert moves(p, "A") == {"A 0:S-M8": full({0: ["M8"]})}
    q = pos({2: ["M8"]})
    assert moves(q, "K") == {"K 0:S-M8": full({0: ["M8"], 2: ["M39"]})}


def test_M7_opponent_hit_goes_to_start():
    p = pos({0: ["M10"], 1: ["M13", "M40"]})
    assert moves(p, "3")["3 0:M10-M13"] == full({0: ["M13"], 1: ["M40"]})


def test_M7_partner_hit_goes_to_in_spot():
    p = pos({0: ["M10"], 2: ["M13"]})
    assert moves(p, "3") == {"3 0:M10-M13": full({0: ["M13"], 2: ["M39"]})}


def test_M7_partner_hit_illegal_when_its_in_spot_holds_its_colour():
    p = pos({0: ["M10"], 2: ["M13", "M39"]})
    assert "3 0:M10-M13" not in texts(p, "3")
    illegal(p, "3 0:M10-M13")


def test_M7_illegal_partner_hit_is_explained_by_M7():
    # M7: "If that in-spot holds a peg of the same colour as the hit peg, the
    # move is illegal." The explanation must cite M7 (or R8), not M1.
    p = pos({0: ["M10"], 2: ["M13", "M39"]})
    assert illegal(p, "3 0:M10-M13").rule in ("M7", "R8")


def test_M7_chain_ends_at_a_start_area():
    # side 2 hit on M13 -> M39, which holds side 1 (opponent) -> start
    p = pos({0: ["M10"], 2: ["M13"], 1: ["M39"]})
    assert moves(p, "3") == {"3 0:M10-M13": full({0: ["M13"], 2: ["M39"]})}


def test_M7_chain_of_three_in_six_players():
    # 2x3, team [0, 2, 4]. Side 2 on M13 -> M39 holding side 4 -> M75 holding
    # side 1 (opponent) -> side 1 to start.
    p = pos({0: ["M10"], 2: ["M13"], 4: ["M39"], 1: ["M75"]}, sides=6)
    assert moves(p, "3") == {
        "3 0:M10-M13": full({0: ["M13"], 2: ["M39"], 4: ["M75"]}, sides=6)}


def test_M7_chain_illegal_when_a_later_in_spot_holds_the_hit_colour():
    # side 2 -> M39 holding side 4 -> M75 holds side 4 already: illegal
    p = pos({0: ["M10"], 2: ["M13"], 4: ["M39", "M75"]}, sides=6)
    assert texts(p, "3") == set()
    illegal(p, "3 0:M10-M13")


def test_M7_illegal_chain_is_explained_by_M7():
    p = pos({0: ["M10"], 2: ["M13"], 4: ["M39", "M75"]}, sides=6)
    assert illegal(p, "3 0:M10-M13").rule in ("M7", "R8")


def test_M7_two_players_the_other_side_is_an_opponent():
    p = pos({0: ["M10"], 2: ["M13"]}, players=2)
    assert moves(p, "3") == {"3 0:M10-M13": full({0: ["M13"]}, players=2)}


def test_M7_hit_judged_by_the_movers_team_when_helping():
    # Side 0 all home moves side 2's pegs (P8); side 2's peg lands on side 1,
    # an opponent of the mover's team [0, 2] -> side 1's start.
    p = pos({0: ALL_HOME, 2: ["M50"], 1: ["M53"]})
    assert moves(p, "3") == {"3 2:M50-M53": full({0: ALL_HOME, 2: ["M53"]})}


def test_M8_home_pegs_are_never_hit():
    # Opponents' pegs in their homes are untouched by every move of side 0,
    # and are no joker targets (P6 targets main-track holes only).
    p = pos({0: ["M1", "M10", "M30"], 1: ["H1", "H3", "M20"], 3: ["H2", "H4"]})
    report = moves(p)
    assert report
    for text, res in report.items():
        assert [t for t in res["1"] if t[0] == "H"] == ["H1", "H3"], text
        assert [t for t in res["3"] if t[0] == "H"] == ["H2", "H4"], text
    jokers = texts(p, "JK")
    assert jokers == {"JK 0:S-M20", "JK 0:M1-M20", "JK 0:M10-M20", "JK 0:M30-M20"}


def test_M8_others_cannot_move_home_pegs():
    p = pos({0: ["H1"], 1: ["M20"]}, to_move=1)
    assert illegal(p, "A 0:H1-H2").rule in ("P8", "M8")


def test_M9_split_seven_every_division_and_single_moves():
    # Pegs M10 and M30: single 7 -> M17 or M37; split a + (7 - a), a = 1..6:
    # {M10 + a, M30 + 7 - a}. Either order gives the same end (R4): 8 moves.
    p = pos({0: ["M10", "M30"]})
    got = results(p, "7")
    expected = [full({0: ["M17", "M30"]}), full({0: ["M10", "M37"]})]
    expected += [full({0: [f"M{10 + a}", f"M{37 - a}"]}) for a in range(1, 7)]
    assert sorted(map(json.dumps, got)) == sorted(map(json.dumps, expected))
    # forward only in the basic game (P3): no backward part
    with pytest.raises(IllegalMoveError):
        p.parse_move("7 0:M10-M14 0:M30-M27")


def test_M9_order_matters_each_part_legal_when_made():
    # Pegs M10 and M12. M12 first (b = 3..6), then M10 + (7 - b) stays behind
    # it: {M14,M15} {M13,M16} {M12,M17} {M11,M18}. M10 first can only move 1
    # (M11; M12 is own): {M11, M18} again. Single 7: only M12 -> M19.
    p = pos({0: ["M10", "M12"]})
    got = sorted(map(json.dumps, results(p, "7")))
    expected = [full({0: holes}) for holes in (["M10", "M19"], ["M14", "M15"], ["M13", "M16"],
                                              ["M12", "M17"], ["M11", "M18"])]
    assert got == sorted(map(json.dumps, expected))
    p.parse_move("7 0:M12-M17 0:M10-M12")               # legal in this order
    assert illegal(p, "7 0:M10-M12 0:M12-M17").rule == "M2"  # first part lands on own peg
    with pytest.raises(IllegalMoveError):
        p.parse_move("7 0:M10-M13 0:M12-M16")           # first part passes own peg


def test_M9_hits_of_the_first_part_happen_before_the_second():
    # Pegs 0 on M10 and M36, partner 2 on M14.
    # Order A: M10+4 hits 2 -> M39; then M36+3 lands on 2 on its own in-spot:
    # illegal (M7/R8).
    # Order B: M36+3 -> M39 (empty); then M10+4 hits 2 -> M39, where side 0's
    # peg is hit in turn -> side 0's in-spot M3.
    p = pos({0: ["M10", "M36"], 2: ["M14"]})
    res = moves(p, "7")
    illegal(p, "7 0:M10-M14 0:M36-M39")
    expected = full({0: ["M3", "M14"], 2: ["M39"]})
    assert res.get("7 0:M36-M39 0:M10-M14") == expected
    assert [r for r in res.values() if r == expected] == [expected]


def test_M9_chain_of_first_part_blocks_the_second():
    # 0 on M1, M10, M39; partner 2 on M13. M10+3 hits 2 -> M39 -> 0's peg
    # there goes to M3. If that is the first part, the second part M1+4 must
    # pass M3, now own colour (M2): illegal. M1+4 first (H2 or M5), then the
    # chain finds M3 empty: legal.
    p = pos({0: ["M1", "M10", "M39"], 2: ["M13"]})
    res = moves(p, "7")
    with pytest.raises(IllegalMoveError):
        p.parse_move("7 0:M10-M13 0:M1-H2")
    with pytest.raises(IllegalMoveError):
        p.parse_move("7 0:M10-M13 0:M1-M5")
    a = full({0: ["M3", "M13", "H2"], 2: ["M39"]})
    b = full({0: ["M3", "M5", "M13"], 2: ["M39"]})
    assert res.get("7 0:M1-H2 0:M10-M13") == a
    assert res.get("7 0:M1-M5 0:M10-M13") == b


def test_M9_two_pegs_before_the_in_spot_split_seven():
    # 0 on M1 and M2. M1 can never pass M2's peg, so M2 moves first (or alone).
    # Single 7: M2 -> M9 (6 left after M3: home can't take it); M1 passes M2.
    # M2 + b, then M1 + (7 - b):
    #  b=1 M3: M1+6 passes M3 -> none
    #  b=2 H1: M1+5 -> M6 (home passes H1) | M4: M1+5 -> H3 (main passes M4)
    #  b=3 H2: M1+4 -> M5                 | M5: M1+4 -> H2
    #  b=4 H3: M1+3 -> H1 or M4           | M6: M1+3 -> H1 or M4
    #  b=5 H4: M1+2 -> M3                 | M7: M1+2 -> M3
    #  b=6 H5: M1+1 -> M2                 | M8: M1+1 -> M2
    # Pegs are interchangeable (G6), one entry per end position (R4).
    p = pos({0: ["M1", "M2"]})
    ends = [["M1", "M9"], ["M6", "H1"], ["M4", "H3"], ["M5", "H2"], ["H1", "H3"],
            ["M4", "M6"], ["M3", "H4"], ["M3", "M7"], ["M2", "H5"], ["M2", "M8"]]
    got = sorted(map(json.dumps, results(p, "7")))
    assert got == sorted(json.dumps(full({0: e})) for e in ends)


def test_M9_second_part_onto_partner_on_its_in_spot_is_explained_by_M7():
    # order A of the test above fails on the second part's landing (M7, R8)
    p = pos({0: ["M10", "M36"], 2: ["M14"]})
    assert illegal(p, "7 0:M10-M14 0:M36-M39").rule in ("M7", "R8")


def test_M9_peg_hit_into_its_in_spot_then_moved_by_the_second_part():
    # 0 on M10 and M39, partner 2 on M13. Part 1: M10+3 hits 2 -> M39, which
    # holds 0's peg -> M3 (R9). Part 2: that peg, now on its in-spot, + 4:
    # H1..H4, or M4..M7 on the main track.
    p = pos({0: ["M10", "M39"], 2: ["M13"]})
    res = moves(p, "7")
    assert res["7 0:M10-M13 0:M3-H4"] == full({0: ["M13", "H4"], 2: ["M39"]})
    assert p.parse_move("7 0:M10-M13 0:M3-M7")
    assert full({0: ["M7", "M13"], 2: ["M39"]}) in res.values()
    # the other order is not a move: there is no peg on M3 before part 1
    with pytest.raises(IllegalMoveError):
        p.parse_move("7 0:M3-H4 0:M10-M13")


def test_M9_split_needs_two_different_pegs():
    # one peg out of start: the 7 can only move it 7
    p = pos({0: ["M10"]})
    assert texts(p, "7") == {"7 0:M10-M17"}
    # the same peg twice is not a split
    q = pos({0: ["M10", "M30"]})
    illegal(q, "7 0:M10-M13 0:M13-M17")


def test_M9_same_peg_twice_is_explained_by_M9():
    # M9: "between two *different* pegs"; moving M10 -> M13 -> M17 is one peg.
    q = pos({0: ["M10", "M30"]})
    assert illegal(q, "7 0:M10-M13 0:M13-M17").rule == "M9"


def test_M9_split_with_a_peg_in_home():
    # M10 and H1: single M10 -> M17; split H1 + a (a = 1..4, up to H5) and
    # M10 + (7 - a): {H2,M16} {H3,M15} {H4,M14} {H5,M13}.
    p = pos({0: ["M10", "H1"]})
    got = sorted(map(json.dumps, results(p, "7")))
    expected = [full({0: ["M17", "H1"]})] + [
        full({0: [f"M{17 - a}", f"H{1 + a}"]}) for a in range(1, 5)]
    assert got == sorted(map(json.dumps, expected))


def test_M10_team_wins_when_every_member_is_home():
    both = pos({0: ALL_HOME, 2: ALL_HOME, 1: ["M20"]})
    assert both.winner() == 0
    one = pos({0: ALL_HOME, 2: ["M50", "H2", "H3", "H4", "H5"]})
    assert one.winner() is None
    # the helping move that brings the partner's last peg home wins (M3: M37 +
    # 3 = M38, M39, H1)
    p = pos({0: ALL_HOME, 2: ["M37", "H2", "H3", "H4", "H5"]})
    p.push(p.parse_move("3 2:M37-H1"))
    assert p.winner() == 0


def test_M10_no_draw_after_winning_move():
    # Set-up: seat 0 (side 0) all home, helps side 2 whose last peg is on M37.
    hand = ["3H", "5S", "9D", "KC", "2C", "4H"]  # 6 cards: draw first
    g = game_with({0: ALL_HOME, 2: ["M37", "H2", "H3", "H4", "H5"]}, hand, seed=8)
    stock = len(g.shoe.stock)
    sizes = [len(h) for h in g.hands]
    g.push_text("3 2:M37-H1", "3H")
    assert g.is_over() and g.winner == 0
    assert len(g.shoe.stock) == stock           # nobody drew
    assert [len(h) for h in g.hands] == [sizes[0] - 1] + sizes[1:]
    assert g.shoe.discard[-1] == "3H"
    with pytest.raises(IllegalMoveError) as info:
        g.push_text("5 discard", "5S")
    assert info.value.rule == "M10"


def test_M10_no_draw_after_winning_move_when_drawing_after():
    rules = {"preset": "basic", "options": {"draw": "after"}}
    hand = ["3H", "5S", "9D", "KC", "2C"]
    g = game_with({0: ALL_HOME, 2: ["M37", "H2", "H3", "H4", "H5"]}, hand, seed=8, rules=rules)
    stock = len(g.shoe.stock)
    g.push_text("3 2:M37-H1", "3H")
    assert g.is_over() and g.winner == 0
    assert len(g.hands[0]) == 4 and len(g.shoe.stock) == stock


def test_M10_solo_player_wins_alone():
    p = pos({0: ["M1", "H2", "H3", "H4", "H5"], 2: ["M50"]}, players=2)
    p.push(p.parse_move("3 0:M1-H1"))  # M2, M3, H1
    assert p.winner() == 0


# ======================================================================
# P. Playing a card
# ======================================================================

def test_P1_ace_comes_out_or_moves_one():
    p = pos({0: ["M10"]})
    assert moves(p, "A") == {"A 0:S-M8": full({0: ["M8", "M10"]}),
                             "A 0:M10-M11": full({0: ["M11"]})}


@pytest.mark.parametrize("rank", ["2", "3", "4", "5", "6", "9", "10"])
def test_P2_number_cards_move_forward_that_many(rank):
    p = pos({0: ["M10"]})
    n = int(rank)
    assert moves(p, rank) == {f"{rank} 0:M10-M{10 + n}": full({0: [f"M{10 + n}"]})}


def test_P3_seven_forward_or_split_forward():
    p = pos({0: ["M10", "M30"]})
    t = texts(p, "7")
    assert {"7 0:M10-M17", "7 0:M30-M37"} <= t
    assert len(t) == 8  # 2 single moves + 6 splits (see M9)
    assert texts(pos({0: ["M10"]}), "7") == {"7 0:M10-M17"}


def test_P4_eight_moves_one_peg_back_eight():
    p = pos({0: ["M20", "M30"]})
    # M30 back 8 = M22 (does not reach M20); M20 back 8 = M12. No split, no
    # forward move, no come-out.
    assert moves(p, "8") == {"8 0:M20-M12": full({0: ["M12", "M30"]}),
                             "8 0:M30-M22": full({0: ["M20", "M22"]})}


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_P5_court_cards_come_out_or_move_ten(rank):
    p = pos({0: ["M10"]})
    assert moves(p, rank) == {f"{rank} 0:S-M8": full({0: ["M8", "M10"]}),
                              f"{rank} 0:M10-M20": full({0: ["M20"]})}


def test_P6_joker_from_start_or_main_track_onto_another_colour():
    # Sources: start (one, G5) and M10; never H5. Targets: side 1 on M20
    # (opponent -> start) and side 2 on M50 (partner -> its in-spot M39).
    p = pos({0: ["M10", "H5"], 1: ["M20"], 2: ["M50", "H1"]})
    assert moves(p, "JK") == {
        "JK 0:S-M20": full({0: ["M10", "M20", "H5"], 2: ["M50", "H1"]}),
        "JK 0:S-M50": full({0: ["M10", "M50", "H5"], 1: ["M20"], 2: ["M39", "H1"]}),
        "JK 0:M10-M20": full({0: ["M20", "H5"], 2: ["M50", "H1"]}),
        "JK 0:M10-M50": full({0: ["M50", "H5"], 1: ["M20"], 2: ["M39", "H1"]}),
    }
    assert illegal(p, "JK 0:M10-M11").rule == "P6"   # empty hole
    assert illegal(p, "JK 0:H5-M20").rule in ("P6", "M4")  # not from home


def test_P6_joker_without_a_target_cannot_be_played():
    p = pos({0: ["M10"], 1: ["H1"], 2: ["H2"]})
    assert texts(p, "JK") == set()
    assert p.discard_allowed(["JK"])


def test_P6_joker_hit_on_partner_follows_M7():
    # partner on its own in-spot: illegal target (R8)
    p = pos({0: ["M10"], 2: ["M39"], 1: ["M60"]})
    assert texts(p, "JK") == {"JK 0:S-M60", "JK 0:M10-M60"}


def test_P7_must_move_even_if_only_a_bad_move():
    p = pos({0: ["M10"]})
    assert texts(p, "8") == {"8 0:M10-M2"}
    assert not p.discard_allowed(["8"])
    assert moves_report(p, ["8"])["discard_allowed"] is False


def test_P7_discard_only_when_no_non_joker_card_can_move():
    p = pos({1: ["M30"]})
    assert p.discard_allowed(["2", "5", "JK"])       # the joker could move: never forced
    assert moves_report(p, ["2", "JK"])["discard_allowed"] is True
    assert not p.discard_allowed(["2", "A", "JK"])   # the A comes out


def test_P7_game_discard_any_card_when_only_the_joker_can_move():
    # Set-up: all pegs in start except side 1's on M30. Seat 0 holds no come-out
    # card: it may play the joker (onto M30) or discard any card, joker included.
    hand = ["2H", "3H", "4H", "5H", "6H", "JK"]
    g = game_with({1: ["M30"]}, hand, seed=3)
    assert play_texts(g) == {"JK 0:S-M30", "2 discard", "3 discard", "4 discard",
                             "5 discard", "6 discard", "JK discard"}


def test_P7_game_must_move_with_a_come_out_card():
    hand = ["AH", "3H", "4H", "5H", "6H", "JK"]
    g = game_with({1: ["M30"]}, hand, seed=3)
    assert play_texts(g) == {"A 0:S-M8", "JK 0:S-M30"}
    with pytest.raises(IllegalMoveError) as info:
        g.push_text("3 discard", "3H")
    assert info.value.rule == "P7"


def test_P8_only_own_pegs_while_any_is_out_of_home():
    p = pos({0: ["M10", "H1", "H2", "H3", "H4"], 2: ["M50"]})
    assert texts(p, "3") == {"3 0:M10-M13"}
    assert illegal(p, "3 2:M50-M53").rule == "P8"


def test_P8_all_home_moves_the_partners_pegs():
    p = pos({0: ALL_HOME, 2: ["M37"]})
    assert p.controlled(0) == [2]
    assert texts(p, "A") == {"A 2:S-M44", "A 2:M37-M38"}
    # the partner's peg turns into the partner's home at its in-spot M39
    assert texts(p, "3") == {"3 2:M37-H1", "3 2:M37-M40"}
    assert illegal(p, "3 0:H1-H4").rule in ("P8", "M2")
    # the joker moves the partner's pegs too (from start or the main track)
    q = pos({0: ALL_HOME, 2: ["M37"], 1: ["M20"]})
    assert moves(q, "JK") == {
        "JK 2:S-M20": full({0: ALL_HOME, 2: ["M20", "M37"]}),
        "JK 2:M37-M20": full({0: ALL_HOME, 2: ["M20"]}),
    }


def test_P8_partner_with_all_pegs_in_start_is_helped():
    p = pos({0: ALL_HOME}, sides=6)
    assert p.controlled(0) == [2]
    assert texts(p, "K") == {"K 2:S-M44"}


def test_P8_helping_the_next_partner_in_six_player_2x3():
    # side 0 all home; next teammate after 0 is 2, then 4
    p = pos({0: ALL_HOME, 2: ["M50"], 4: ["M80"]}, sides=6)
    assert texts(p, "3") == {"3 2:M50-M53"}
    # side 2 also all home: side 4 is helped
    q = pos({0: ALL_HOME, 2: ALL_HOME, 4: ["M80"]}, sides=6)
    assert q.controlled(0) == [4]
    assert texts(q, "3") == {"3 4:M80-M83"}
    # wrap-around: side 4 all home helps side 0 (after 4 come 5, then 0)
    r = pos({4: ALL_HOME, 0: ["M10"], 2: ["M50"]}, to_move=4, sides=6)
    assert texts(r, "3") == {"3 0:M10-M13"}


def test_P8_control_passes_after_the_last_own_peg_is_home():
    p = pos({0: ["M1", "H2", "H3", "H4", "H5"], 2: ["M50"]})
    p.push(p.parse_move("3 0:M1-H1"), next_to_move=0)  # M2, M3, H1
    assert p.controlled(0) == [2]
    assert texts(p, "3") == {"3 2:M50-M53"}


def test_P8_basic_split_cannot_hand_over_mid_turn():
    # R11: outside North Carolina both parts use the pegs controlled at the
    # start of the turn. Side 0's only movable peg is on M1 (home pegs H2..H5
    # are stuck); a 7 can't finish it (H5 blocked) and go on with side 2.
    p = pos({0: ["M1", "H2", "H3", "H4", "H5"], 2: ["M50"]})
    assert texts(p, "7") == {"7 0:M1-M8"}
    assert illegal(p, "7 0:M1-H1 2:M50-M54").rule == "P8"


# ======================================================================
# R. Rulings
# ======================================================================

def test_R1_landing_on_own_colour_is_never_a_hit():
    p = pos({0: ["M10", "M20"], 1: ["M30"]})
    assert illegal(p, "10 0:M10-M20").rule in ("M2", "R1")
    # the joker may not take an own peg as a target either
    assert texts(p, "JK") == {"JK 0:S-M30", "JK 0:M10-M30", "JK 0:M20-M30"}
    assert illegal(p, "JK 0:M10-M20").rule in ("M2", "R1")


def test_R2_come_out_onto_own_peg_is_illegal():
    p = pos({0: ["M8"]})
    assert texts(p, "A") == {"A 0:M8-M9"}
    assert texts(p, "K") == {"K 0:M8-M18"}
    assert illegal(p, "K 0:S-M8").rule in ("R2", "M2")


def test_R2_come_out_onto_partner_follows_M7():
    # partner on M8 whose in-spot M39 holds its own colour: no come-out
    p = pos({2: ["M8", "M39"]})
    assert texts(p, "A") == set()
    assert illegal(p, "A 0:S-M8").rule in ("R2", "M7", "R8")


def test_R3_discard_draw_first_hand_six_to_five():
    hand = ["2H", "3H", "4H", "5H", "6H", "9H"]
    g = game_with({}, hand, seed=13)
    pegs = g.position.pegs()
    g.push_text("9 discard", "9H")
    assert sorted(g.hands[0]) == sorted(hand[:-1])
    assert g.shoe.discard[-1] == "9H"
    assert g.position.pegs() == pegs
    assert g.seat == 1 and len(g.hands[1]) == 6


def test_R3_discard_draw_after_hand_five_four_five():
    rules = {"preset": "basic", "options": {"draw": "after"}}
    hand = ["2H", "3H", "4H", "5H", "6H"]
    g = game_with({}, hand, seed=13, rules=rules)
    top = g.shoe.stock[-1]
    g.push_text("2 discard", "2H")
    assert Counter(g.hands[0]) == Counter(hand[1:] + [top])
    assert g.shoe.discard[-1] == "2H"
    assert g.seat == 1 and len(g.hands[1]) == 5


def test_R4_split_in_either_order_is_one_move():
    p = pos({0: ["M10", "M30"]})
    res = moves(p, "7")
    # M10+3, M30+4 can be made in either order: one entry, in either order
    target = full({0: ["M13", "M34"]})
    entries = [t for t, r in res.items() if r == target]
    assert len(entries) == 1
    assert entries[0] in ("7 0:M10-M13 0:M30-M34", "7 0:M30-M34 0:M10-M13")
    # both orders are still accepted as typed
    p.parse_move("7 0:M10-M13 0:M30-M34")
    p.parse_move("7 0:M30-M34 0:M10-M13")


def test_R4_each_rank_lists_distinct_end_positions():
    p = pos({0: ["M1", "M10", "M30", "H1"], 1: ["M12", "M33"], 2: ["M14", "M37"],
             3: ["M5"]})
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"):
        rs = [json.dumps(r, sort_keys=True) for r in results(p, rank)]
        assert len(rs) == len(set(rs)), rank


def test_R8_landing_on_partner_on_its_own_in_spot_is_illegal():
    p = pos({0: ["M36"], 2: ["M39"]})
    assert texts(p, "3") == set()
    illegal(p, "3 0:M36-M39")
    assert "JK 0:M36-M39" not in texts(p, "JK")
    illegal(p, "JK 0:S-M39")


def test_R8_is_cited_for_landing_on_partner_on_its_in_spot():
    # The explanation must name R8 (or M7). For the joker the engine says "the
    # joker goes straight to a hole holding another colour's peg" (P6), which
    # M39 does hold: the reason is R8.
    p = pos({0: ["M36"], 2: ["M39"]})
    assert illegal(p, "3 0:M36-M39").rule in ("R8", "M7")
    assert illegal(p, "JK 0:S-M39").rule in ("R8", "M7")


def test_R9_chain_may_hit_the_movers_own_colour():
    # 2 on M13 -> M39, which holds side 0's other peg -> side 0's in-spot M3
    p = pos({0: ["M10", "M39"], 2: ["M13"]})
    assert moves(p, "3")["3 0:M10-M13"] == full({0: ["M3", "M13"], 2: ["M39"]})


def test_R9_chain_through_own_colour_illegal_if_own_in_spot_taken():
    # as above, but side 0 already has a peg on M3: the chain can't put another
    p = pos({0: ["M3", "M10", "M39"], 2: ["M13"]})
    assert "3 0:M10-M13" not in texts(p, "3")
    illegal(p, "3 0:M10-M13")


def test_R9_illegal_chain_through_own_colour_is_explained_by_M7():
    p = pos({0: ["M3", "M10", "M39"], 2: ["M13"]})
    assert illegal(p, "3 0:M10-M13").rule in ("M7", "R8", "R9")


def test_R9_chain_may_end_on_the_in_spot_the_moving_peg_just_left():
    # 0 on its in-spot M3 moves 10 (can't turn in: 10 > 5) to M13 onto partner
    # 2 -> M39, holding 0's other peg -> M3, which the moving peg has left.
    p = pos({0: ["M3", "M39"], 2: ["M13"]})
    assert moves(p, "10")["10 0:M3-M13"] == full({0: ["M3", "M13"], 2: ["M39"]})
    # the joker the same way: the jumping peg leaves M3 first
    assert moves(p, "JK")["JK 0:M3-M13"] == full({0: ["M3", "M13"], 2: ["M39"]})


def test_R9_chain_may_hit_the_moving_peg_itself():
    # 6 players 2x3. 0 on M30 + 9 lands on M39 (side 2's in-spot) holding side
    # 4 -> M75 holding side 2 -> M39, where the moving peg stands -> M3.
    p = pos({0: ["M30"], 2: ["M75"], 4: ["M39"]}, sides=6)
    assert moves(p, "9") == {"9 0:M30-M39": full({0: ["M3"], 2: ["M39"], 4: ["M75"]}, sides=6)}


def test_R9_split_first_part_chain_moves_its_own_peg_second_part_other_peg():
    # 6 players 2x3. Part 1: 0 M34 + 5 -> M39 hits 4 -> M75 hits 2 -> M39 hits
    # the moving peg -> M3. Part 2: the other peg M50 + 2 -> M52.
    p = pos({0: ["M34", "M50"], 2: ["M75"], 4: ["M39"]}, sides=6)
    expected = full({0: ["M3", "M52"], 2: ["M39"], 4: ["M75"]}, sides=6)
    res = moves(p, "7")
    assert [r for r in res.values() if r == expected] == [expected]
    p.parse_move("7 0:M34-M39 0:M50-M52")


def test_R10_helping_partner_moves_its_pegs_within_home():
    p = pos({0: ALL_HOME, 2: ["M50", "H1", "H3"]})
    assert texts(p, "A") == {"A 2:S-M44", "A 2:M50-M51", "A 2:H1-H2", "A 2:H3-H4"}
    assert moves(p, "2")["2 2:H3-H5"] == full({0: ALL_HOME, 2: ["M50", "H1", "H5"]})
    assert "2 2:H1-H3" not in texts(p, "2")  # lands on its own colour (M2)
