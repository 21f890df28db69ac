"""Tock (RELATED-GAMES.md TK): one scenario test per rule id, named after it.

Side k's start hole is M(18k+17) (TK-G3); home is H1-H4 entered from it.
"""
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.families import new_game
from companion.cards import make_shoe
from companion.game import Game
from companion.moves import GIVE, HAND, MoveSyntaxError
from companion.notation import position_from_json, position_to_json
from companion.errors import PositionError
from companion.rules import rules_from_json

from tests.companion.rg_helpers import data, full, game_where, illegal, legal, moves, pos, texts

ROOT = Path(__file__).resolve().parents[4]
TEN_SWAP = {"preset": "tock", "options": {"ten_swap": True}}
REVERSE = {"preset": "tock", "options": {"reverse_four": True}}
FORCED5 = {"preset": "tock", "options": {"forced_five": True}}
PARTNERS = [[0, 2], [1, 3]]


# ------------------------------------------------------------------ geometry
def test_TK_G1_sides_and_track():
    p = pos("tock", {})
    assert p.L == 72 and p.sides == 4
    assert p.geo.token(71) == "M71"
    with pytest.raises(MoveSyntaxError):
        p.parse_move("3 0:M72-M75")


def test_TK_G2_seed_numbering_side_k_adds_18():
    # seed hole n of side k is M(18k+n-1): side 1's hole 18 is M35
    p = pos("tock", {}, to_move=1)
    assert texts(p, "A") == {"A 1:S-M35"}


def test_TK_G3_start_hole_is_come_out_and_in_spot():
    p = pos("tock", {0: ["M16"]})
    assert "A 0:S-M17" in texts(p, "A")
    assert "2 0:M16-H1" in texts(p, "2")  # M17, then H1


def test_TK_G4_home_of_four():
    p = pos("tock", {0: ["M15"]})
    assert texts(p, "5") == {"5 0:M15-H3", "5 0:M15-M20"}
    assert texts(p, "6") == {"6 0:M15-H4", "6 0:M15-M21"}
    assert texts(p, "8") == {"8 0:M15-M23"}  # 8 doesn't fit home
    with pytest.raises(PositionError, match="H1-H4"):
        pos("tock", {0: ["H5"]})


def test_TK_G5_four_pegs_interchangeable():
    d = data("tock", {})
    d["pegs"]["0"] = ["S"] * 5
    with pytest.raises(PositionError, match="expected 4"):
        position_from_json(json.dumps(d))
    assert texts(pos("tock", {0: ["M20"]}), "A") == {"A 0:S-M17", "A 0:M20-M21"}


def test_TK_G6_clockwise_wraps_and_turn_passes_to_next():
    p = pos("tock", {0: ["M70"]})
    assert texts(p, "3") == {"3 0:M70-M1"}
    p = pos("tock", {0: ["M20"]})
    p.push(p.parse_move("3 0:M20-M23"))
    assert p.to_move == 1


def test_TK_G7_worked_side():
    p = pos("tock", {0: ["M15"]})
    assert texts(p, "5") == {"5 0:M15-H3", "5 0:M15-M20"}
    for side, hole in ((1, "M35"), (2, "M53"), (3, "M71")):
        assert texts(pos("tock", {}, to_move=side), "K") == {f"K {side}:S-{hole}"}


# --------------------------------------------------------------------- cards
def test_TK_C1_one_deck_no_jokers(tmp_path):
    g = new_game("tock", players=4, seed=3)
    cards = Counter(g.shoe.stock) + Counter(g.shoe.discard) + sum((Counter(h) for h in g.hands), Counter())
    assert cards == Counter(make_shoe(1, 0))
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data("tock", {0: ["M20"]})))
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "moves", str(f), "--hand", "JK"],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "JK" in proc.stderr and "\n" == proc.stderr[-1]


def _play_out_deal(g, rng_pick=0):
    deals = g.deals
    while g.deals == deals and not g.is_over():
        g._push(g.legal_plays()[rng_pick % len(g.legal_plays())])


def test_TK_C2_deal_cycle_5_4_4_then_reshuffle():
    g = new_game("tock", players=4, seed=5)
    sizes = [sorted(len(h) for h in g.hands)]
    stocks = [len(g.shoe.stock)]
    for _ in range(3):
        _play_out_deal(g)
        sizes.append(sorted(len(h) for h in g.hands))
        stocks.append(len(g.shoe.stock))
    assert sizes == [[5] * 4, [4] * 4, [4] * 4, [5] * 4]
    assert stocks == [32, 16, 0, 32]
    assert g.shoe.reshuffles == 1 and not g.shoe.discard


def test_TK_C3_dealt_one_at_a_time_from_the_player_after_the_dealer():
    g = new_game("tock", players=4, seed=8, dealer=2)
    g2 = new_game("tock", players=4, shuffles=[list(g.rng.log[0])], dealer=2)
    deck = list(g.rng.log[0])
    lead = 3
    for i in range(20):
        seat = (lead + i) % 4
        assert g2.hands[seat][i // 4] == deck[-1 - i]
    assert g.seat == lead and g2.hands == g.hands


def test_TK_C4_deal_and_lead_pass_to_the_next_player():
    g = new_game("tock", players=4, seed=9, dealer=0)
    assert (g.dealer, g.seat) == (0, 1)
    _play_out_deal(g)
    assert (g.dealer, g.seat) == (1, 2)


def test_TK_C5_hands_and_stock_are_private():
    g = new_game("tock", players=4, seed=1)
    view = g.player_view(1)
    assert view["hand"] == g.hands[1]
    text = json.dumps(view)
    for seat in (0, 2, 3):
        for card in g.hands[seat]:
            assert f'"{card}"' not in text
    assert view["stock"] == len(g.shoe.stock) and "hands" not in view


# ------------------------------------------------------------------ movement
def test_TK_M1_full_count():
    p = pos("tock", {0: ["H2"]})
    assert texts(p, "3") == set() and texts(p, "2") == {"2 0:H2-H4"}


def test_TK_M2_pass_any_colour_and_hit_on_landing_own_included():
    p = pos("tock", {0: ["M20", "M22"], 1: ["M24"]})
    got = moves(p, "2", "4")
    assert got["2 0:M20-M22"] == full({0: ["M22"], 1: ["M24"]})  # own peg hit to start
    assert got["4 0:M20-M24"] == full({0: ["M22", "M24"]})  # passes own M22, hits side 1
    assert got["4 0:M22-M26"] == full({0: ["M20", "M26"], 1: ["M24"]})


def test_TK_M3_start_hole_block_for_every_colour():
    p = pos("tock", {0: ["M30", "M33"], 1: ["M35"]})
    assert "6 0:M30-M36" not in texts(p, "6")
    assert "5 0:M30-M35" not in texts(p, "5")
    illegal(p, "6 0:M30-M36", "TK-M3")
    illegal(p, "5 0:M30-M35", "TK-M3")
    own = pos("tock", {0: ["M17", "M10"]})
    assert texts(own, "7") == {"7 0:M17-M24"}  # M10 can't land on nor pass its own M17
    illegal(own, "7 0:M10-M17", "TK-M3")
    back = pos(REVERSE, {0: ["M38"], 1: ["M35"]})
    assert texts(back, "4") == set()  # backward past M35 is blocked too
    illegal(back, "4 0:M38-M34", "TK-M3")
    other = pos("tock", {0: ["M33"], 2: ["M35"]})  # another colour on side 1's hole: no protection
    assert "2 0:M33-M35" in texts(other, "2")


def test_TK_M4_coming_out_is_a_landing():
    assert texts(pos("tock", {0: ["M17"]}), "A", "K") == {"A 0:M17-M18", "K 0:M17-M30"}
    got = moves(pos("tock", {3: ["M17"]}), "K")
    assert got["K 0:S-M17"] == full({0: ["M17"]})  # side 3 hit back to start
    assert "Q 0:S-M17" not in texts(pos("tock", {}), "Q", "J")


def test_TK_M5_into_home_optional_not_from_the_start_hole_this_turn():
    p = pos("tock", {0: ["M17"]})
    assert texts(p, "3") == {"3 0:M17-M20"}
    illegal(p, "3 0:M17-H3", "TK-M5")
    q = pos("tock", {0: ["M16"]})
    assert texts(q, "3") == {"3 0:M16-H2", "3 0:M16-M19"}
    blocked = pos("tock", {0: ["M16", "H1"]})
    assert texts(blocked, "3", "4") == {"3 0:M16-M19", "4 0:M16-M20", "3 0:H1-H4"}


def test_TK_M6_in_home_forward_exact_no_passing():
    p = pos("tock", {0: ["H1", "H3"]})
    assert texts(p, "2", "3") == set()
    assert texts(p, "A") == {"A 0:S-M17", "A 0:H1-H2", "A 0:H3-H4"}
    illegal(p, "2 0:H1-H3", "TK-M6")


def test_TK_M7_backward_on_the_main_track():
    p = pos(REVERSE, {0: ["M19", "H1"], 1: ["M15"]})
    got = moves(p, "4")
    assert got == {"4 0:M19-M15": full({0: ["M15", "H1"]})}  # hit; never into home
    illegal(p, "4 0:M19-H2", "TK-M7")


# ---------------------------------------------------------------------- play
def test_TK_P1_one_card_no_draw():
    g = game_where("tock", 4, lambda g: any(c[:-1] in ("A", "K") for c in g.hands[g.seat]))
    stock, seat = len(g.shoe.stock), g.seat
    play = next(p for p in g.legal_plays() if p.move.kind == "move")
    g.push(play)
    assert len(g.hands[seat]) == 4 and len(g.shoe.stock) == stock
    assert g.shoe.discard[-1] == play.card


def test_TK_P2_must_move():
    p = pos("tock", {0: ["M20"]})
    assert not p.discard_allowed(["3", "9"])
    illegal(p, "discard hand", "TK-P2")
    start = pos("tock", {})
    assert start.discard_allowed(["3", "9"]) and not start.discard_allowed(["3", "K"])


def test_TK_P3_stuck_discards_the_hand_and_waits():
    g = game_where("tock", 4, lambda g: not any(c[:-1] in ("A", "K") for c in g.hands[g.seat]))
    seat = g.seat
    plays = g.legal_plays()
    assert [p.move.kind for p in plays] == [HAND]
    assert g.player_view(seat)["position"]["to_move"] == g.seat_side[seat]
    hand = list(g.hands[seat])
    g.push(plays[0])
    assert g.hands[seat] == [] and g.shoe.discard[-5:] == hand
    assert g.history[-1]["cards"] == hand
    view = g.player_view(None)
    assert view["waiting"] == [seat] and view["position"]["waiting"] == [g.seat_side[seat]]
    assert view["position"]["hand_sizes"][str(g.seat_side[seat])] == 0
    deals = g.deals
    while g.deals == deals:
        assert g.seat != seat  # skipped until the next deal
        g._push(g.legal_plays()[0])
    assert len(g.hands[seat]) == 4


def test_TK_P4_own_pegs_only():
    p = pos("tock", {0: ["M20"], 1: ["M40"]})
    assert texts(p, "3") == {"3 0:M20-M23"}
    illegal(p, "3 1:M40-M43", "TK-P4")


def test_TK_P5_first_player_all_home_wins():
    p = pos("tock", {0: ["H1", "H2", "H3", "M16"]})
    p.push(p.parse_move("A 0:M16-M17"))
    assert p.winner() is None
    q = pos("tock", {0: ["H2", "H3", "H4", "M16"]})
    q.push(q.parse_move("2 0:M16-H1"))
    assert q.winner() == 0 and list(q.legal_moves()) == []


# ------------------------------------------------------------------ variants
def test_TK_V1_reverse_four():
    assert texts(pos(REVERSE, {0: ["M20"]}), "4") == {"4 0:M20-M16"}
    assert texts(pos("tock", {0: ["M20"]}), "4") == {"4 0:M20-M24"}
    assert rules_from_json(REVERSE).to_json() == REVERSE


def test_TK_V2_ten_swap():
    p = pos(TEN_SWAP, {0: ["M20", "M17"], 1: ["M35", "M40"], 2: ["M50"]})
    assert texts(p, "10") == {"10 0:M20<>1:M40", "10 0:M20<>2:M50"}
    got = moves(p, "10")
    assert got["10 0:M20<>1:M40"] == full({0: ["M17", "M40"], 1: ["M20", "M35"], 2: ["M50"]})
    illegal(p, "10 0:M17<>1:M40", "TK-V2")
    illegal(p, "10 0:M20<>1:M35", "TK-V2")


def test_TK_V3_forced_five():
    p = pos(FORCED5, {0: ["M40"], 1: ["M35"], 3: ["M66"]})
    got = moves(p, "5")
    assert set(got) == {"5 0:M40-M45", "5 1:M35-M40", "5 3:M66-M71"}
    assert got["5 1:M35-M40"] == full({1: ["M40"], 3: ["M66"]})  # hits side 0 on M40
    q = pos(FORCED5, {0: ["M10"], 1: ["M15"]})
    assert "5 1:M15-M20" in texts(q, "5") and "5 1:M15-H3" not in texts(q, "5")


def test_TK_V4_partnership():
    g = new_game("tock_partnership", players=4, seed=2)
    assert g.phase == "give" and g.actor == g.seat
    hands = [list(h) for h in g.hands]
    order = []
    while g.phase == "give":
        seat = g.actor
        order.append(seat)
        play = g.legal_plays()[0]
        assert play.move.kind == GIVE and play.move.steps[0] == (seat + 2) % 4
        assert g.player_view((seat + 2) % 4)["hand"] == hands[(seat + 2) % 4]  # not yet seen
        g.push(play)
        assert g.player_view(seat)["log"][-1]["card"] == play.card
        for other in ((seat + 1) % 4, (seat + 3) % 4, None) + (((seat + 2) % 4,) if g.phase == "give" else ()):
            entry = g.player_view(other)["log"][-1]
            assert entry["move"] == "pass" and "card" not in entry  # face down
    assert sorted(len(h) for h in g.hands) == [5] * 4 and sorted(order) == [0, 1, 2, 3]
    partner_sees = g.player_view((order[0] + 2) % 4)["log"][0]
    assert partner_sees["card"] == g.history[0]["card"]  # after the exchange
    passed = {e["seat"]: e["card"] for e in g.history}
    for seat in range(4):
        assert passed[(seat + 2) % 4] in g.hands[seat]
    # help the partner once all own pegs are home; a team wins with 8 home
    p = pos("tock_partnership", {0: ["H1", "H2", "H3", "H4"], 2: ["M50"]}, teams=PARTNERS)
    assert texts(p, "3") == {"3 2:M50-M53"} and texts(p, "A") == {"A 2:S-M53", "A 2:M50-M51"}
    q = pos("tock_partnership", {0: ["H1", "H2", "H3", "H4"], 2: ["H2", "H3", "H4", "M52"]},
            teams=PARTNERS)
    q.push(q.parse_move("2 2:M52-H1"))
    assert q.winner() == 0


def test_TK_V5_three_player_tock():
    g = new_game("tock3", players=3, seed=4)
    assert g.seat_side == [0, 1, 2] and sorted(len(h) for h in g.hands) == [5, 5, 5]
    for _ in range(4):
        _play_out_deal(g)
    assert g.deals == 5 and g.shoe.reshuffles == 1  # 5, 4, 4, 4, then all 52 again
    p = pos("tock3", {0: ["M70"], 1: ["M69"]}, occupied=[0, 1, 2], to_move=1)
    assert "3 1:M69-M0" in texts(p, "3")  # side 3's start hole M71 protects nothing
    with pytest.raises(PositionError, match="sit at"):
        pos("tock3", {}, occupied=[0, 1, 3])


# ------------------------------------------------------------------ rulings
def test_TK_R1_eighteen_new_holes_per_side():
    assert [pos("tock", {}, to_move=k).sh[k] for k in range(4)] == [17, 35, 53, 71]


def test_TK_R3_after_a_lap_a_peg_on_its_start_hole_goes_round():
    p = pos(REVERSE, {0: ["M17"]})
    assert texts(p, "2", "4") == {"2 0:M17-M19", "4 0:M17-M13"}


def test_TK_R4_own_peg_landed_on_goes_to_start():
    got = moves(pos("tock", {0: ["M20", "M23"]}), "3")
    assert got["3 0:M20-M23"] == full({0: ["M23"]})


def test_TK_R5_start_hole_block_both_ways_and_against_swaps():
    p = pos({"preset": "tock", "options": {"reverse_four": True, "ten_swap": True}},
            {0: ["M38", "M20"], 1: ["M35"]})
    assert "4 0:M38-M34" not in texts(p, "4")
    assert texts(p, "10") == set()


def test_TK_R6_the_seven_moves_one_peg():
    p = pos("tock", {0: ["M20", "M40"]})
    assert texts(p, "7") == {"7 0:M20-M27", "7 0:M40-M47"}
    illegal(p, "7 0:M20-M23 0:M40-M44", "TK-R6")


def test_TK_R8_turning_in_optional_and_deeper_in_home():
    p = pos("tock", {0: ["M16", "H1"]})
    assert {"3 0:H1-H4", "3 0:M16-M19"} <= texts(p, "3")


def test_TK_R9_stuck_discards_the_remainder():
    g = game_where("tock", 4, lambda g: not any(c[:-1] in ("A", "K") for c in g.hands[g.seat]))
    g.push(g.legal_plays()[0])
    assert len(g.history[-1]["cards"]) == 5
    # later in a deal the remainder may be shorter: the whole of what is left goes


def test_TK_R10_card_passed_to_the_partner():
    g = new_game("tock_partnership", players=4, seed=11)
    play = g.legal_plays()[0]
    assert play.move.text(g.position.geo).endswith(f"pass {(g.actor + 2) % 4}")
    with pytest.raises(Exception):
        g.push_text(f"{play.move.rank} pass {(g.actor + 1) % 4}", play.card)


def test_TK_R11_hit_partner_goes_to_start():
    p = pos("tock_partnership", {0: ["M20"], 2: ["M23"]}, teams=PARTNERS)
    assert moves(p, "3")["3 0:M20-M23"] == full({0: ["M23"]})


def test_TK_R12_ten_swap_replaces_the_forward_ten():
    p = pos(TEN_SWAP, {0: ["M20"]})
    assert texts(p, "10") == set()


def test_TK_R13_forced_five_other_colour_stays_on_the_track():
    p = pos(FORCED5, {0: ["M10"], 3: ["M68"]})
    assert texts(p, "5") >= {"5 3:M68-M1"} and "5 3:M68-H2" not in texts(p, "5")


def test_TK_R14_tock3_sets_the_52nd_card_aside():
    g = new_game("tock3", players=3, seed=6)
    for _ in range(3):
        _play_out_deal(g)
    assert len(g.shoe.stock) == 1  # 15 + 12 + 12 + 12 dealt, the 52nd aside
    _play_out_deal(g)
    assert g.player_view(0)["stock"] == 52 - 15


def test_tock_record_replays():
    g = new_game("tock_partnership", players=4, seed=21)
    for _ in range(60):
        g._push(g.legal_plays()[-1])
    again = Game.from_record(json.loads(json.dumps(g.record())))
    assert position_to_json(again.position) == position_to_json(g.position)
    assert again.hands == g.hands


def test_TK_R2_start_area_to_start_hole_home_filled_from_the_back():
    p = pos("tock", {0: ["M14"]})
    assert "A 0:S-M17" in texts(p, "A")
    assert "7 0:M14-H4" in texts(p, "7")  # M15, M16, M17, H1..H4: the back of the home
    done = pos("tock", {0: ["H1", "H2", "H3", "H4"]})
    assert done.winner() == 0


def test_TK_R7_lead_rotates_evenly():
    g = new_game("tock", players=4, seed=12, dealer=3)
    leads = [g.seat]
    for _ in range(3):
        _play_out_deal(g)
        leads.append(g.seat)
    assert leads == [0, 1, 2, 3]
