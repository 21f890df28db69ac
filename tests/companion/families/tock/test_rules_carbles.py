"""Carbles (RELATED-GAMES.md CB): one scenario test per rule id, named after it.

Each section is a Tock side: home hole M(18k+17), goal H1-H4, lot of 4.
"""
import json
from collections import Counter

import pytest

from companion.families import new_game
from companion.cards import make_shoe
from companion.game import Game
from companion.moves import DISCARD, HAND
from companion.notation import position_from_json
from companion.errors import PositionError
from companion.families.tock.position import seat_sections

from tests.companion.rg_helpers import data, full, game_where, illegal, legal, moves, pos, texts

OPEN = {"preset": "carbles", "options": {"open_hand": True}}


def cb(pegs, to_move=0, **kw):
    return pos("carbles", pegs, to_move, **kw)


def cbp(pegs, to_move=0, **kw):
    return pos("carbles_partnership", pegs, to_move, teams=[[0, 2], [1, 3]], **kw)


def has(g, rank):
    return any(g.rank_of(c) == rank for c in g.hands[g.seat])


def all_cards(g):
    c = Counter(g.shoe.stock) + Counter(g.shoe.discard)
    for h in g.hands:
        c.update(h)
    return c


# ------------------------------------------------------------------ geometry
def test_CB_G1_sections_are_tock_sides():
    for sections in (4, 6, 8, 12):
        p = cb({}, sides=sections, occupied=seat_sections(sections, min(sections, 6)))
        assert p.L == 18 * sections and p.sh[1] == 35
    assert pos("carbles_partnership", {}, sides=12, teams=[[i, i + 6] for i in range(6)]).L == 216
    assert texts(cb({1: ["M100"]}, sides=6, to_move=1), "3") == {"3 1:M100-M103"}
    with pytest.raises(PositionError):
        cb({}, sides=5)


def test_CB_G2_seats_spread_over_sections():
    g = new_game("carbles", players=3, seed=1, sides=6)
    assert g.seat_side == [0, 2, 4]
    assert new_game("carbles", players=4, seed=1, sides=6).seat_side == [0, 1, 3, 4]
    assert new_game("carbles", players=5, seed=1).sides == 6
    p = cb({0: ["M33"]}, sides=6, occupied=[0, 2, 4])
    assert "3 0:M33-M36" in texts(p, "3")  # section 1 is plain track
    with pytest.raises(PositionError, match="sit at"):
        cb({}, sides=6, occupied=[0, 1, 2])


def test_CB_G3_clockwise():
    p = cb({0: ["M20"]})
    p.push(p.parse_move("3 0:M20-M23"))
    assert p.to_move == 1 and new_game("carbles", players=4, seed=1, dealer=0).seat == 1


# --------------------------------------------------------------------- cards
def test_CB_C1_deck_of_54():
    g = new_game("carbles", players=4, seed=3)
    assert all_cards(g) == Counter(make_shoe(1, 2))
    assert "JK" in cb({}).ranks


def test_CB_C2_four_each_stock_refilled_mid_deal():
    g = new_game("carbles", players=6, seed=4)
    seen = []
    while g.deals < 3:
        deals = g.deals
        while g.deals == deals:
            g._push(g.legal_plays()[0])
        seen.append((sorted(len(h) for h in g.hands), g.shoe.reshuffles))
        assert all_cards(g) == Counter(make_shoe(1, 2))
    assert seen[0] == ([4] * 6, 0) and seen[1] == ([4] * 6, 1)  # 54 - 48 = 6 left for 24


def test_CB_C3_dealer_and_lead_rotate():
    g = new_game("carbles", players=4, seed=9, dealer=0)
    assert (g.dealer, g.seat) == (0, 1)
    deals = g.deals
    while g.deals == deals:
        g._push(g.legal_plays()[0])
    assert (g.dealer, g.seat) == (1, 2)


# ------------------------------------------------------------------ movement
def test_CB_M1_full_count():
    assert texts(cb({0: ["H3"]}), "2") == set()


def test_CB_M2_pass_and_hit_own_included():
    got = moves(cb({0: ["M20", "M22"], 1: ["M24"]}), "2", "5")
    assert got["2 0:M20-M22"] == full({0: ["M22"], 1: ["M24"]})  # own marble to its lot
    assert got["2 0:M22-M24"] == full({0: ["M20", "M24"]})
    assert got["5 0:M20-M25"] == full({0: ["M22", "M25"], 1: ["M24"]})  # passes both


def test_CB_M3_home_hole_block():
    p = cb({0: ["M30"], 1: ["M35"]})
    assert "6 0:M30-M36" not in texts(p, "6")
    illegal(p, "5 0:M30-M35", "CB-M3")
    illegal(cb({0: ["M38"], 1: ["M35"]}), "4 0:M38-M34", "CB-M3")


def test_CB_M4_coming_out_with_a_k_joker():
    p = cb({2: ["M17"]})
    got = moves(p, "A", "K", "JK", "Q")
    assert set(got) >= {"A 0:S-M17", "K 0:S-M17", "JK 0:S-M17"} and "Q 0:S-M17" not in got
    assert got["JK 0:S-M17"] == full({0: ["M17"]})
    assert texts(cb({0: ["M17"]}), "JK") == set()


def test_CB_M5_into_goal_not_from_the_home_hole_this_turn():
    assert texts(cb({0: ["M17"]}), "3") == {"3 0:M17-M20"}
    assert texts(cb({0: ["M16"]}), "3") == {"3 0:M16-H2", "3 0:M16-M19"}
    five = pos({"preset": "tock", "options": {"forced_five": True}}, {0: ["M10"], 1: ["M15"]})
    assert "5 1:M15-H3" not in texts(five, "5")  # no marble enters another colour's goal


def test_CB_M6_in_goal():
    assert texts(cb({0: ["H1", "H3"]}), "2") == set()


def test_CB_M7_the_four_moves_backward():
    p = cb({0: ["M19"], 1: ["M15"]})
    assert moves(p, "4") == {"4 0:M19-M15": full({0: ["M15"]})}
    illegal(p, "4 0:M19-H1", "CB-M7")


# ---------------------------------------------------------------------- play
def test_CB_P1_one_card():
    g = game_where("carbles", 4, lambda g: has(g, "A"))
    seat = g.seat
    g.push(next(p for p in g.legal_plays() if p.move.rank == "A"))
    assert len(g.hands[seat]) == 3


def test_CB_P2_seven_single_steps_hit_on_each():
    p = cb({0: ["M10"], 1: ["M12"]})
    got = moves(p, "7")
    assert got == {"7 0:M10-M17": full({0: ["M17"]})}  # stepping onto M12 hit it
    two = cb({0: ["M10", "M40"]})
    t = texts(two, "7")
    assert {"7 0:M10-M17", "7 0:M10-M12 0:M40-M45", "7 0:M40-M47"} <= t
    legal(two, "7 0:M40-M43 0:M10-M12 0:M43-M45")  # interleaved, any order
    illegal(two, "7 0:M10-M12 0:M40-M44", "CB-P2")  # all 7 steps
    blocked = cb({0: ["M30", "M60"], 1: ["M35"]})  # a marble can't step onto a guarded home hole
    assert not any("0:M30-M3" in x and int(x.split("0:M30-M")[1].split()[0]) >= 35 for x in texts(blocked, "7"))
    start = cb({0: ["M17", "M12"]})
    t = texts(start, "7")
    assert not any("M17-H" in x for x in t)  # stood on its home hole when the turn began
    assert any("0:M12-" in x and "H" in x for x in t)  # another marble reaching it may turn in
    illegal(start, "7 0:M17-H4 0:M12-M15", "CB-M5")


def test_CB_P3_jack_forward_11_or_swap():
    p = cb({0: ["M20"], 1: ["M40"], 2: ["M53"]})
    assert texts(p, "J") == {"J 0:M20-M31", "J 0:M20<>1:M40"}


def test_CB_P4_must_move_joker_included_then_burn():
    p = cb({})
    assert not p.discard_allowed(["JK", "3"]) and p.discard_allowed(["3", "9"])
    g = game_where("carbles", 4, lambda g: not any(has(g, r) for r in ("A", "K", "JK")))
    plays = g.legal_plays()
    assert {p.move.kind for p in plays} == {DISCARD}
    seat = g.seat
    g.push(plays[0])
    assert len(g.hands[seat]) == 3 and g.seat == (seat + 1) % 4  # plays again next turn


def test_CB_P5_first_all_in_goal_wins():
    p = cb({0: ["H2", "H3", "H4", "M16"]})
    p.push(p.parse_move("2 0:M16-H1"))
    assert p.winner() == 0


def test_CB_V1_partnership():
    g = new_game("carbles_partnership", players=6, seed=1)
    assert [list(t) for t in g.position.teams] == [[0, 3], [1, 4], [2, 5]]
    p = cbp({0: ["M53"]})
    got = moves(p, "JK")
    assert got["JK 2:S-M53"] == full({2: ["M53"]})  # own marble on the partner's hole is hit
    assert "JK 0:S-M17" in got
    own_blocked = cbp({0: ["M17"]})
    assert texts(own_blocked, "JK") == {"JK 2:S-M53"}
    helping = cbp({0: ["H1", "H2", "H3", "H4"], 2: ["M50"]})
    assert texts(helping, "3") == {"3 2:M50-M53"}
    assert moves(cbp({0: ["M20"], 2: ["M23"]}), "3")["3 0:M20-M23"] == full({0: ["M23"]})
    q = cbp({0: ["H1", "H2", "H3", "H4"], 2: ["H2", "H3", "H4", "M52"]})
    q.push(q.parse_move("A 2:M52-M53"))
    assert q.winner() is None


def test_CB_V2_open_hand():
    g = new_game(OPEN, players=4, seed=1)
    v = g.player_view(2)
    assert v["hands"] == g.hands
    assert "hands" not in new_game("carbles", players=4, seed=1).player_view(2)


# ------------------------------------------------------------------ rulings
def test_CB_R1_one_side_design():
    assert cb({}).sh[0] == pos("tock", {}).sh[0] == 17


def test_CB_R3_only_own_colour_on_its_home_hole_is_protected():
    p = cb({0: ["M30"], 2: ["M35"]})
    assert "5 0:M30-M35" in texts(p, "5")


def test_CB_R4_seven_steps_interleave():
    p = cb({0: ["M10", "M40"]})
    legal(p, "7 0:M10-M11 0:M40-M41 0:M11-M12 0:M41-M42 0:M12-M13 0:M42-M43 0:M13-M14")


def test_CB_R5_jack_swap_needs_one_own_and_another_colour():
    assert texts(cb({0: ["M20", "M40"]}), "J") == {"J 0:M20-M31", "J 0:M40-M51"}


def test_CB_R6_marbles_in_goal_move_deeper():
    assert "2 0:H1-H3" in texts(cb({0: ["H1"]}), "2")


def test_CB_R7_stock_refilled_from_the_discards():
    test_CB_C2_four_each_stock_refilled_mid_deal()


def test_CB_R8_more_sections_than_players():
    assert new_game("carbles", players=2, seed=1, sides=8).seat_side == [0, 4]


def test_CB_R10_joker_helps_the_partner():
    assert "JK 2:S-M53" in texts(cbp({}), "JK")
    assert "JK 1:S-M35" not in texts(cbp({}), "JK")


def test_CB_R12_must_move_covers_the_joker():
    illegal(cb({}), "3 discard", "CB-P4")
    assert not cb({}).discard_allowed(["JK"])


def test_carbles_twelve_player_partnership_plays():
    g = new_game("carbles_partnership", players=12, seed=2)
    assert g.sides == 12 and len(g.position.teams) == 6
    d = json.loads(json.dumps(g.record()))
    assert Game.from_record(d).sides == 12


def test_CB_R2_king_comes_out_from_the_lot_onto_the_home_hole():
    assert texts(cb({}), "K") == {"K 0:S-M17"}


def test_CB_R9_partners_sit_opposite():
    g = new_game("carbles_partnership", players=4, seed=1)
    assert [list(t) for t in g.position.teams] == [[0, 2], [1, 3]]
    g8 = new_game("carbles_partnership", players=8, seed=1)
    assert [list(t) for t in g8.position.teams][0] == [0, 4]


def test_CB_R11_hit_partner_marble_goes_to_its_lot():
    got = moves(cbp({0: ["M20"], 2: ["M25"]}), "5")
    assert got["5 0:M20-M25"] == full({0: ["M25"]})
