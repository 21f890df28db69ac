"""Scenario tests of the variants (RULES.md section V) and the rulings R5-R17.

Covered: V-AZ1..5, V-NC1..7, V-PG (20-hole board, both joker powers, swap,
splits, counting, partner's pegs), V-WW, V-AK, V-KP1..2, V-SS, V-BJ (declare,
pass, doubted bluff and penalty, wrong doubt and penalty, the extra-turn
fallback both ways, the undoubted card never shown to another seat), every
V-OPT switch, the rulings R5, R6, R7, R11, R12, R13, R14, R15, R16, R17, and
the `pegs moves` / `pegs rules` commands for every preset.

Every expected move text and result below is worked out by hand from
RULES.md (the reasoning is in the comments), never copied from the engine.

Board facts used throughout (RULES G2-G4). Standard board, 4 sides x 18
holes, L = 72: in-spots M3 M21 M39 M57, come-outs M8 M26 M44 M62. Pegoo
(V-PG, R6), 4 sides x 20 holes, L = 80: in-spots M3 M23 M43 M63, come-outs
M8 M28 M48 M68. Teams (T1) with 4 players: [[0, 2], [1, 3]]; seat s sits on
side s.

Positions are written in NOTATION.md JSON through `pos()`: each side lists
only its pegs out of start, the rest are padded with "S" (5 pegs a side).
Splits can be listed in either order (R4), so split expectations compare
end positions (`rset`) or check a typed move with `after()`.
"""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.families import new_game
from companion.cards import rank_of
from companion.game import Game
from companion.moves import IllegalMoveError, MoveSyntaxError
from companion.notation import position_to_json
from companion.rules import DESCRIPTIONS, PRESETS, differences

ROOT = Path(__file__).resolve().parents[4]
NON_JOKER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


from tests.companion.rules_helpers import (
    ALL_HOME, FORMAT, NINE_0, R, after, full, game_with, illegal, moves, nine_fb, opts,
    play_texts, pos, rset, shoe_total, texts)



# ======================================================================
# V-AZ Arizona
# ======================================================================

def test_V_AZ1_draw_after_and_four_decks_with_eight_jokers():
    g = new_game(rules="arizona", players=4, seed=3)
    total = shoe_total(g)
    assert sum(total.values()) == 216 and total["JK"] == 8   # 4 x (52 + 2)
    # draw after: nobody holds more than 5 before playing (C3)
    assert [len(h) for h in g.hands] == [5, 5, 5, 5]
    top = g.shoe.stock[-1]
    before = Counter(g.hands[0])
    play = g.legal_plays()[0]
    g.push(play)
    # play 1, then draw 1: back to 5, the new card is the stock's top
    assert Counter(g.hands[0]) == before - Counter({play.card: 1}) + Counter({top: 1})
    assert len(g.hands[1]) == 5


def test_V_AZ2_any_team_peg_always():
    # Side 0 still has pegs out of home, yet may move partner 2's pegs (P8 does
    # not apply); an opponent's peg (side 1) never.
    p = pos({0: ["M10"], 2: ["M50"], 1: ["M20"]}, rules="arizona")
    assert p.controlled(0) == [0, 2]
    assert texts(p, "3") == {"3 0:M10-M13", "3 2:M50-M53"}
    # A: come out either colour (side 0 on M8, side 2 on M44), or forward 1
    assert texts(p, "A") == {"A 0:S-M8", "A 2:S-M44", "A 0:M10-M11", "A 2:M50-M51"}
    assert illegal(p, "3 1:M20-M23").rule == "P8"
    # the partner's peg turns into the partner's home (R10): M37 + 3 = M38,
    # M39 (side 2's in-spot), H1
    q = pos({0: ["M10"], 2: ["M37"]}, rules="arizona")
    assert texts(q, "3") == {"3 0:M10-M13", "3 2:M37-H1", "3 2:M37-M40"}
    # the basic game: own pegs only
    assert texts(pos({0: ["M10"], 2: ["M50"]}), "3") == {"3 0:M10-M13"}
    # so a player may discard only if no team peg can move (P7 over the team):
    # side 0 all in start and no come-out card, but the partner's M50 moves
    r = pos({2: ["M50"]}, rules="arizona")
    assert texts(r, "5") == {"5 2:M50-M55"}
    assert r.discard_allowed(["5"]) is False
    assert pos({2: ["M50"]}).discard_allowed(["5"]) is True


def test_V_AZ3_nine_forward_or_split_forward_and_backward():
    # Side 0 on M10 and M30, partner all in start: see NINE_0.
    p = pos({0: ["M10", "M30"]}, rules="arizona")
    assert rset(p, "9") == NINE_0
    assert len(NINE_0) == 18
    # both parts forward is the 7's split, not the 9's
    illegal(p, "9 0:M10-M14 0:M30-M35")
    # both backward neither
    illegal(p, "9 0:M10-M6 0:M30-M25")
    # a typed split: M30 forward 3 -> M33, M10 back 6 -> M4
    assert after(p, "9 0:M30-M33 0:M10-M4") == full({0: ["M4", "M33"]})
    # the basic 9 does not split
    assert rset(pos({0: ["M10", "M30"]}), "9") == {R({0: ["M19", "M30"]}), R({0: ["M10", "M39"]})}


def test_V_AZ4_seven_and_nine_split_over_two_team_colours():
    # Side 0 on M10, partner side 2 on M50: one peg each colour.
    p = pos({0: ["M10"], 2: ["M50"]}, rules="arizona")
    # 7: single M10 -> M17 or M50 -> M57 (side 3's empty in-spot), or split
    # a + (7 - a) forward: M10+a, M50+7-a, a = 1..6 -> 8 end positions
    seven = {R({0: ["M17"], 2: ["M50"]}), R({0: ["M10"], 2: ["M57"]})}
    seven |= {R({0: [f"M{10 + a}"], 2: [f"M{57 - a}"]}) for a in range(1, 7)}
    assert rset(p, "7") == seven
    # 9: single M19 / M59; 0 forward a and 2 back 9-a (M10+a, M41+a); 2 forward
    # a and 0 back 9-a (M50+a, M1+a): 2 + 16 = 18
    nine = {R({0: ["M19"], 2: ["M50"]}), R({0: ["M10"], 2: ["M59"]})}
    nine |= {R({0: [f"M{10 + a}"], 2: [f"M{41 + a}"]}) for a in range(1, 9)}
    nine |= {R({0: [f"M{1 + a}"], 2: [f"M{50 + a}"]}) for a in range(1, 9)}
    assert rset(p, "9") == nine
    # two pegs of the same colour: see V-AZ3. Basic: own pegs, one peg only.
    b = pos({0: ["M10"], 2: ["M50"]})
    assert rset(b, "7") == {R({0: ["M17"], 2: ["M50"]})}


def test_V_AZ5_joker_must_bring_a_team_start_peg_out():
    # Side 0 has no peg in start, partner side 2 has one: the joker must take
    # that start peg onto a peg of another colour: M20 (side 1, opponent ->
    # start) or M10 (side 0, teammate -> its in-spot M3, empty). M50 is its own
    # colour (R1). Side 0's M10 may not jump.
    p = pos({0: ["M10", "H1", "H2", "H3", "H4"], 2: ["S", "M50", "H1", "H2", "H3"],
             1: ["M20"]}, rules="arizona")
    assert moves(p, "JK") == {
        "JK 2:S-M20": full({0: ["M10", "H1", "H2", "H3", "H4"],
                            2: ["M20", "M50", "H1", "H2", "H3"]}),
        "JK 2:S-M10": full({0: ["M3", "H1", "H2", "H3", "H4"],
                            2: ["M10", "M50", "H1", "H2", "H3"], 1: ["M20"]}),
    }
    assert illegal(p, "JK 0:M10-M20").rule == "R15"


def test_V_AZ5_joker_from_main_track_once_team_start_is_empty():
    # Both team start areas empty: any team peg on the main track jumps onto a
    # peg of another colour. 0:M10 -> M20 (opp to start), 0:M10 -> M50 (2 to
    # M39), 2:M50 -> M20, 2:M50 -> M10 (0 to M3).
    h4 = ["H1", "H2", "H3", "H4"]
    p = pos({0: ["M10"] + h4, 2: ["M50"] + h4, 1: ["M20"]}, rules="arizona")
    assert moves(p, "JK") == {
        "JK 0:M10-M20": full({0: ["M20"] + h4, 2: ["M50"] + h4}),
        "JK 0:M10-M50": full({0: ["M50"] + h4, 2: ["M39"] + h4, 1: ["M20"]}),
        "JK 2:M50-M20": full({0: ["M10"] + h4, 2: ["M20"] + h4}),
        "JK 2:M50-M10": full({0: ["M3"] + h4, 2: ["M10"] + h4, 1: ["M20"]}),
    }


# ======================================================================
# V-NC North Carolina
# ======================================================================

def test_V_NC1_draw_first_own_pegs_until_all_home():
    g = new_game(rules="north_carolina", players=4, seed=2)
    assert [len(h) for h in g.hands] == [6, 5, 5, 5]   # draw first (C3)
    p = pos({0: ["M10"], 2: ["M50"]}, rules="north_carolina")
    assert texts(p, "3") == {"3 0:M10-M13"}
    assert illegal(p, "3 2:M50-M53").rule == "P8"
    q = pos({0: ALL_HOME, 2: ["M50"]}, rules="north_carolina")
    assert texts(q, "3") == {"3 2:M50-M53"}


def test_V_NC1_split_finishes_last_peg_then_moves_partner():
    # Side 0: M1 and H2..H5. 7: M1 + 7 can't turn in (M2, M3, H1, then H2 is
    # its own peg) -> M8. Split: M1 + 3 = M2, M3, H1: all home, so the other 4
    # go to the next partner's peg: M50 -> M54. No other split: H2..H5 can't
    # move, so a first part that does not finish side 0 has no second part.
    p = pos({0: ["M1", "H2", "H3", "H4", "H5"], 2: ["M50"]}, rules="north_carolina")
    assert moves(p, "7") == {
        "7 0:M1-M8": full({0: ["M8", "H2", "H3", "H4", "H5"], 2: ["M50"]}),
        "7 0:M1-H1 2:M50-M54": full({0: ALL_HOME, 2: ["M54"]}),
    }
    # the 9 the same way, the rest backward: M1 -> H1, then M50 back 6 -> M44
    assert moves(p, "9") == {
        "9 0:M1-M10": full({0: ["M10", "H2", "H3", "H4", "H5"], 2: ["M50"]}),
        "9 0:M1-H1 2:M50-M44": full({0: ALL_HOME, 2: ["M44"]}),
    }
    # the partner's part can't come first: at the start of the turn side 0
    # controls only its own pegs
    assert illegal(p, "7 2:M50-M54 0:M1-H1").rule == "P8"


def test_V_NC2_joker_own_peg_from_start_or_main_track_to_any_occupied_hole():
    # Sources 0:S and 0:M10 (own only, P8); targets M20 (opp -> start) and M50
    # (partner -> its in-spot M39).
    p = pos({0: ["M10"], 1: ["M20"], 2: ["M50"]}, rules="north_carolina")
    assert moves(p, "JK") == {
        "JK 0:S-M20": full({0: ["M10", "M20"], 2: ["M50"]}),
        "JK 0:S-M50": full({0: ["M10", "M50"], 1: ["M20"], 2: ["M39"]}),
        "JK 0:M10-M20": full({0: ["M20"], 2: ["M50"]}),
        "JK 0:M10-M50": full({0: ["M50"], 1: ["M20"], 2: ["M39"]}),
    }
    assert illegal(p, "JK 2:M50-M20").rule == "P8"
    assert illegal(p, "JK 0:M10-M11").rule == "P6"


def test_V_NC3_ace_out_forward_1_backward_1_or_forward_11():
    # M68: forward 1 -> M69; backward 1 -> M67; forward 11: M69, M70, M71, M0,
    # M1, M2, M3 is 7 steps, 4 left -> H4 (H5 is not passed), or main track
    # 68 + 11 - 72 = M7; come out on M8. H5 can't move (M4, M5).
    p = pos({0: ["M68", "H5"]}, rules="north_carolina")
    assert texts(p, "A") == {"A 0:S-M8", "A 0:M68-M69", "A 0:M68-M67",
                             "A 0:M68-H4", "A 0:M68-M7"}
    # backward 1 onto the in-spot stays on the main track (M5)
    q = pos({0: ["M4"]}, rules="north_carolina")
    assert moves(q, "A")["A 0:M4-M3"] == full({0: ["M3"]})
    assert texts(q, "A") == {"A 0:S-M8", "A 0:M4-M5", "A 0:M4-M3", "A 0:M4-M15"}
    # the basic ace has neither
    assert texts(pos({0: ["M4"]}), "A") == {"A 0:S-M8", "A 0:M4-M5"}


def test_V_NC4_two_forward_or_swap_two_colours_on_the_main_track():
    # Side 0: M10, H1; side 1 M20; side 2 M30. Forward 2: M10 -> M12, H1 -> H3.
    # Swaps: pairs of different colours both on the main track: (0,1) (0,2)
    # (1,2). A swap is not a hit: the partner swapped with side 0 stays on M10
    # (a hit would send it to M39).
    p = pos({0: ["M10", "H1"], 1: ["M20"], 2: ["M30"]}, rules="north_carolina")
    assert rset(p, "2") == {
        R({0: ["M12", "H1"], 1: ["M20"], 2: ["M30"]}),
        R({0: ["M10", "H3"], 1: ["M20"], 2: ["M30"]}),
        R({0: ["M20", "H1"], 1: ["M10"], 2: ["M30"]}),
        R({0: ["M30", "H1"], 1: ["M20"], 2: ["M10"]}),
        R({0: ["M10", "H1"], 1: ["M30"], 2: ["M20"]}),
    }
    assert after(p, "2 0:M10<>2:M30") == full({0: ["M30", "H1"], 1: ["M20"], 2: ["M10"]})
    # only a 2 swaps; a peg in home can't be swapped; nor two pegs of one colour
    illegal(p, "3 0:M10<>1:M20")
    with pytest.raises((MoveSyntaxError, IllegalMoveError)):
        p.parse_move("2 0:H1<>1:M20")
    q = pos({0: ["M10", "M40"], 1: ["M20"]}, rules="north_carolina")
    illegal(q, "2 0:M10<>0:M40")
    # the basic 2 does not swap
    assert rset(pos({0: ["M10", "H1"], 1: ["M20"], 2: ["M30"]}), "2") == {
        R({0: ["M12", "H1"], 1: ["M20"], 2: ["M30"]}),
        R({0: ["M10", "H3"], 1: ["M20"], 2: ["M30"]})}


def test_V_NC4_swap_may_be_written_in_either_order():
    # A swap exchanges two pegs: "2 0:M10<>2:M30" and "2 2:M30<>0:M10" are the
    # same move (NOTATION.md fixes no order for the two pegs; cf. R4).
    p = pos({0: ["M10", "H1"], 1: ["M20"], 2: ["M30"]}, rules="north_carolina")
    assert after(p, "2 2:M30<>0:M10") == full({0: ["M30", "H1"], 1: ["M20"], 2: ["M10"]})
    assert after(p, "2 1:M20<>0:M10") == full({0: ["M20", "H1"], 1: ["M10"], 2: ["M30"]})


def test_V_NC5_seven_splits_forward_nine_splits_own_pegs_only():
    # Own pegs M10, M30; partner on M50 is not side 0's to move (V-NC1).
    p = pos({0: ["M10", "M30"], 2: ["M50"]}, rules="north_carolina")
    # 7: M17 or M37, or M10+a with M30+7-a (a = 1..6): 8 end positions
    seven = {R({0: ["M17", "M30"], 2: ["M50"]}), R({0: ["M10", "M37"], 2: ["M50"]})}
    seven |= {R({0: [f"M{10 + a}", f"M{37 - a}"], 2: ["M50"]}) for a in range(1, 7)}
    assert rset(p, "7") == seven
    # 7 never splits forward/backward
    illegal(p, "7 0:M10-M15 0:M30-M28")
    # 9: NINE_0 with the partner's M50 untouched
    assert rset(p, "9") == nine_fb({2: ["M50"]}, 0, 10, 30)
    assert illegal(p, "9 0:M10-M15 2:M50-M46").rule == "P8"
    # one forward and a *different* one backward: not the same peg twice
    illegal(p, "9 0:M10-M15 0:M15-M11")
    # helping: side 0 all home splits the partner's pegs M50 +3 and M60 -6
    h = pos({0: ALL_HOME, 2: ["M50", "M60"]}, rules="north_carolina")
    assert after(h, "9 2:M50-M53 2:M60-M54") == full({0: ALL_HOME, 2: ["M53", "M54"]})


def test_V_NC6_ten_must_split_never_a_single_ten():
    # One peg on the whole board: a 10 can't be split, so it can't be played.
    p = pos({0: ["M10"]}, rules="north_carolina")
    assert texts(p, "10") == set()
    assert illegal(p, "10 0:M10-M20").rule == "V-NC6"
    assert p.discard_allowed(["10", "3"]) is False   # the 3 moves
    assert p.discard_allowed(["10"]) is True


def test_V_NC6_ten_splits_over_any_pegs_each_part_either_way():
    # Side 0 on M10, opponent side 1 on M30, nothing else on the board. Parts
    # a and 10 - a (a = 1..9), each forward or backward: side 0 stays within
    # M1..M19, side 1 within M21..M39 (its in-spot M21 lies behind it, and a
    # peg moved by another team never turns in anyway, R7). No hit, no block:
    # 9 x 4 = 36 end positions.
    p = pos({0: ["M10"], 1: ["M30"]}, rules="north_carolina")
    expected = set()
    for a in range(1, 10):
        for s0 in (+1, -1):
            for s1 in (+1, -1):
                expected.add(R({0: [f"M{10 + s0 * a}"], 1: [f"M{30 + s1 * (10 - a)}"]}))
    assert len(expected) == 36
    assert rset(p, "10") == expected


def test_V_NC6_ten_hits_are_judged_by_the_movers_team():
    # Side 0 M10, side 1 M20, side 2 M25, side 3 M28.
    p = pos({0: ["M10"], 1: ["M20"], 2: ["M25"], 3: ["M28"]}, rules="north_carolina")
    # an opponent's peg (1) lands on the mover's partner (2): 2 -> its in-spot M39
    assert after(p, "10 1:M20-M25 0:M10-M15") == full(
        {0: ["M15"], 1: ["M25"], 2: ["M39"], 3: ["M28"]})
    # the partner's peg (2) back 5 onto an opponent (1): 1 -> start
    assert after(p, "10 2:M25-M20 0:M10-M15") == full(
        {0: ["M15"], 2: ["M20"], 3: ["M28"]})
    # an opponent's peg (1) forward 8 (passing its own in-spot M21 and M25)
    # onto its own teammate (3), an opponent of the mover: 3 -> start
    assert after(p, "10 1:M20-M28 0:M10-M12") == full(
        {0: ["M12"], 1: ["M28"], 2: ["M25"]})


def test_V_NC6_ten_home_pegs_team_yes_opponents_no():
    # Partner's peg in home may be moved (R10: only other teams are kept out,
    # M8); an opponent's peg in home may not.
    p = pos({0: ["M10"], 1: ["H2"], 2: ["H1"]}, rules="north_carolina")
    assert after(p, "10 2:H1-H3 0:M10-M18") == full({0: ["M18"], 1: ["H2"], 2: ["H3"]})
    assert illegal(p, "10 1:H2-H4 0:M10-M18").rule == "M8"
    # home pegs never move backward (M5)
    illegal(p, "10 2:H1-M2 0:M10-M18")


def test_V_NC6_ten_moved_peg_is_blocked_by_its_own_colour():
    # M2 is about the moved peg's colour: side 1's M20 + 4 would pass side 1's
    # own M22; side 0's pegs are passed freely by it.
    p = pos({0: ["M10", "M21"], 1: ["M20", "M22"]}, rules="north_carolina")
    assert illegal(p, "10 1:M20-M24 0:M10-M16").rule == "M2"
    assert after(p, "10 1:M22-M26 0:M10-M16") == full({0: ["M16", "M21"], 1: ["M20", "M26"]})


def test_V_NC7_counting_third_turn_free_come_out_per_player_reset_by_a_move():
    # Everyone in start, every hand only a 5: nobody can move, all count.
    p = pos({}, rules="north_carolina")
    for side in range(4):                      # round 1: all count once
        assert p.to_move == side
        assert texts(p, "5") == set() and p.discard_allowed(["5"])
        p.push(p.parse_move("5 discard", ["5"]))
    assert list(p.counting) == [1, 1, 1, 1]
    p.push(p.parse_move("5 discard", ["5"]))   # round 2: side 0 counts again
    assert not p.free_come_out_due(1)          # side 1 has counted once only
    p.push(p.parse_move("K 1:S-M26", ["K"]))   # side 1 moves: its count resets
    p.push(p.parse_move("5 discard", ["5"]))
    p.push(p.parse_move("5 discard", ["5"]))
    assert list(p.counting) == [2, 0, 2, 2]
    # round 3: side 0 has counted on the two turns before -> free come-out with
    # any card; discarding is no longer allowed (R12)
    assert p.to_move == 0 and p.free_come_out_due()
    assert moves(p, "5") == {"5 free 0:S-M8": full({0: ["M8"], 1: ["M26"]})}
    assert p.discard_allowed(["5"]) is False
    p.push(p.parse_move("5 free 0:S-M8", ["5"]))
    assert p.counting[0] == 0                  # a real move resets the count
    # side 1 (count 0) gets nothing free
    assert p.to_move == 1 and not p.free_come_out_due()
    assert texts(p, "5") == {"5 1:M26-M31"}
    assert illegal(p, "5 free 1:S-M26").rule == "V-NC7"


def test_V_NC7_free_come_out_even_holding_a_come_out_card():
    # Counted twice before; holding K and 5: "K 0:S-M8" (a plain come-out) and
    # "5 free 0:S-M8" (discard the 5, come out free) are both allowed. A peg
    # in H1 could also move with the 5? H1 + 5 = off the end: no.
    p = pos({0: ["H1"]}, rules="north_carolina", counting={0: 2})
    assert texts(p, "5") == {"5 free 0:S-M8"}
    assert texts(p, "K") == {"K 0:S-M8"}
    p.parse_move("K free 0:S-M8")              # K as the discarded card: same end
    assert p.discard_allowed(["K", "5"]) is False
    # a card that also moves the home peg: both choices (2: H1 -> H3)
    assert texts(p, "2") == {"2 0:H1-H3", "2 free 0:S-M8"}


def test_V_NC7_game_free_come_out_spends_the_card():
    hand = ["2H", "3H", "4H", "5H", "6H", "9H"]
    g = game_with({}, hand, rules="north_carolina", counting={0: 2}, seed=5)
    # every card of the hand can be the one discarded; no plain discard (R12)
    assert play_texts(g) == {f"{rank_of(c)} free 0:S-M8" for c in hand}
    with pytest.raises(IllegalMoveError) as info:
        g.push_text("5 discard", "5H")
    assert info.value.rule == "R12"
    g.push_text("5 free 0:S-M8", "5H")
    assert g.position.pegs()[0].count(8) == 1
    assert g.position.counting[0] == 0
    assert g.shoe.discard[-1] == "5H" and len(g.hands[0]) == 5
    assert position_to_json(g.position)["pegs"]["0"] == ["S", "S", "S", "S", "M8"]


def test_V_NC7_option_free_come_out_on_the_fourth_turn():
    rules = opts("north_carolina", counting=4)
    p2 = pos({}, rules=rules, counting={0: 2})
    assert not p2.free_come_out_due() and texts(p2, "5") == set()
    assert p2.discard_allowed(["5"])
    p3 = pos({}, rules=rules, counting={0: 3})
    assert p3.free_come_out_due() and texts(p3, "5") == {"5 free 0:S-M8"}
    # counting off (the basic game): no free come-out however long one waits
    p0 = pos({}, counting={0: 5})
    assert not p0.free_come_out_due() and texts(p0, "5") == set()


# ======================================================================
# V-PG Pegoo (20 holes a side; R6: in-spot 3, come-out 8)
# ======================================================================

def test_V_PG_twenty_holes_per_side():
    p = pos({0: ["M78"]}, rules="pegoo")
    assert p.geo.length == 80
    # M78 + 3: M79, M0, M1 (no hole M80 .. M81 on this board)
    assert texts(p, "3") == {"3 0:M78-M1"}
    with pytest.raises(Exception):
        pos({0: ["M80"]}, rules="pegoo")
    assert new_game(rules="pegoo", seed=1).position.geo.length == 80


def test_V_PG_joker_own_peg_to_in_spot_or_opponent_to_start():
    # Side 0: M10, H5; opponent 1 on M50; partner 2 on M60. Power 1: own peg
    # from start or M10 to the in-spot M3 (not from home). Power 2: the
    # opponent's peg on M50 back to start; never the partner's.
    p = pos({0: ["M10", "H5"], 1: ["M50"], 2: ["M60"]}, rules="pegoo")
    assert moves(p, "JK") == {
        "JK 0:S-M3": full({0: ["M3", "M10", "H5"], 1: ["M50"], 2: ["M60"]}),
        "JK 0:M10-M3": full({0: ["M3", "H5"], 1: ["M50"], 2: ["M60"]}),
        "JK 1:M50-S": full({0: ["M10", "H5"], 2: ["M60"]}),
    }
    # no P6 jump onto another peg
    illegal(p, "JK 0:M10-M50")
    illegal(p, "JK 2:M60-S")


def test_V_PG_joker_to_in_spot_hits_per_M7():
    # Opponent 1 on side 0's in-spot M3: sent to start by either source.
    p = pos({0: ["M10"], 1: ["M3"]}, rules="pegoo")
    assert moves(p, "JK") == {
        "JK 0:S-M3": full({0: ["M3", "M10"]}),
        "JK 0:M10-M3": full({0: ["M3"]}),
        "JK 1:M3-S": full({0: ["M10"]}),
    }
    # Partner 2 on M3: goes to its own in-spot, M43 on the Pegoo board.
    q = pos({0: ["M10"], 2: ["M3"]}, rules="pegoo")
    assert moves(q, "JK") == {
        "JK 0:S-M3": full({0: ["M3", "M10"], 2: ["M43"]}),
        "JK 0:M10-M3": full({0: ["M3"], 2: ["M43"]}),
    }


def test_V_PG_joker_while_helping_moves_the_partners_peg_to_its_in_spot():
    # Side 0 all home (P8): "one's own peg" is the partner's: from start or
    # M50 to side 2's in-spot M43 (Pegoo board).
    p = pos({0: ALL_HOME, 2: ["M50"]}, rules="pegoo")
    assert texts(p, "JK") == {"JK 2:S-M43", "JK 2:M50-M43"}


def test_V_PG_two_swaps_seven_splits_nine_splits():
    p = pos({0: ["M10"], 1: ["M30"]}, rules="pegoo")
    assert rset(p, "2") == {R({0: ["M12"], 1: ["M30"]}), R({0: ["M30"], 1: ["M10"]})}
    q = pos({0: ["M10", "M30"]}, rules="pegoo")
    seven = {R({0: ["M17", "M30"]}), R({0: ["M10", "M37"]})}
    seven |= {R({0: [f"M{10 + a}", f"M{37 - a}"]}) for a in range(1, 7)}
    assert rset(q, "7") == seven
    assert rset(q, "9") == NINE_0


def test_V_PG_counting_third_turn_and_partner_only_when_all_home():
    p = pos({}, rules="pegoo", counting={0: 2})
    assert texts(p, "5") == {"5 free 0:S-M8"}
    assert not pos({}, rules="pegoo", counting={0: 1}).free_come_out_due()
    q = pos({0: ["M10"], 2: ["M50"]}, rules="pegoo")
    assert texts(q, "3") == {"3 0:M10-M13"}
    r = pos({0: ALL_HOME, 2: ["M50"]}, rules="pegoo")
    assert texts(r, "3") == {"3 2:M50-M53"}


# ======================================================================
# V-WW Wizard Woodworks
# ======================================================================

def test_V_WW_swap_draw_after_nine_split_own_pegs():
    g = new_game(rules="wizard_woodworks", seed=4)
    assert [len(h) for h in g.hands] == [5, 5, 5, 5]     # draw after
    p = pos({0: ["M10", "M30"], 2: ["M50"], 1: ["M60"]}, rules="wizard_woodworks")
    # 9: own pegs only (the partner's M50 is not side 0's), as V-AZ3
    assert rset(p, "9") == nine_fb({2: ["M50"], 1: ["M60"]}, 0, 10, 30)
    # 2 swaps (V-NC4): forward M12, M32, or one of the 5 different-colour pairs
    # among 0:M10, 0:M30, 2:M50, 1:M60 ((0,0) is one colour)
    base = {0: ["M10", "M30"], 2: ["M50"], 1: ["M60"]}
    two = {R({**base, 0: ["M12", "M30"]}), R({**base, 0: ["M10", "M32"]}),
           R({**base, 0: ["M50", "M30"], 2: ["M10"]}),
           R({**base, 0: ["M60", "M30"], 1: ["M10"]}),
           R({**base, 0: ["M10", "M50"], 2: ["M30"]}),
           R({**base, 0: ["M10", "M60"], 1: ["M30"]}),
           R({**base, 2: ["M60"], 1: ["M50"]})}
    assert rset(p, "2") == two
    # no team pegs: the partner can't be moved
    assert illegal(p, "3 2:M50-M53").rule == "P8"


# ======================================================================
# V-AK Alaska / Becker
# ======================================================================

def test_V_AK_ten_forward_ten_or_backward_one():
    p = pos({0: ["M10"]}, rules="alaska")
    assert moves(p, "10") == {"10 0:M10-M20": full({0: ["M20"]}),
                              "10 0:M10-M9": full({0: ["M9"]})}
    # backward 1 onto the in-spot stays on the track (M5); J is still 10
    q = pos({0: ["M4"]}, rules="alaska")
    assert texts(q, "10") == {"10 0:M4-M14", "10 0:M4-M3"}
    assert texts(q, "J") == {"J 0:S-M8", "J 0:M4-M14"}
    # a peg in home: no backward 1, and 10 forward doesn't fit
    assert texts(pos({0: ["H2"]}, rules="alaska"), "10") == set()


def test_V_AK_counting_free_come_out_on_the_fourth_turn():
    p = pos({}, rules="alaska", counting={0: 2})
    assert not p.free_come_out_due() and p.discard_allowed(["5"])
    q = pos({}, rules="alaska", counting={0: 3})
    assert texts(q, "5") == {"5 free 0:S-M8"}
    assert q.discard_allowed(["5"]) is False


# ======================================================================
# V-KP Kilpatrick
# ======================================================================

def test_V_KP1_hands_of_three_arizona_otherwise():
    g = new_game(rules="kilpatrick", seed=6)
    assert [len(h) for h in g.hands] == [3, 3, 3, 3]     # draw after, 3 cards
    assert len(g.shoe.stock) == 216 - 12
    g.push(g.legal_plays()[0])
    assert len(g.hands[0]) == 3
    # Arizona: team pegs
    p = pos({0: ["M10"], 2: ["M50"]}, rules="kilpatrick")
    assert texts(p, "3") == {"3 0:M10-M13", "3 2:M50-M53"}


def test_V_KP2_may_not_pass_own_in_spot_must_turn_in():
    # Side 0 on M1 (partner all in start, Arizona team pegs).
    p = pos({0: ["M1"]}, rules="kilpatrick")
    # 3: M2, M3, then must turn in: H1 only (Arizona: H1 or M4)
    assert texts(p, "3") == {"3 0:M1-H1"}
    assert texts(pos({0: ["M1"]}, rules="arizona"), "3") == {"3 0:M1-H1", "3 0:M1-M4"}
    # 7: 2 steps + 5 = H5
    assert texts(p, "7") == {"7 0:M1-H5"}
    # 9 and 10 don't fit into home: that peg can't make the move
    assert texts(p, "9") == set()
    assert texts(p, "10") == set()
    # K: forward 10 impossible; come out either team colour
    assert texts(p, "K") == {"K 0:S-M8", "K 2:S-M44"}
    # backward moves are unaffected: M1 - 8 = M65
    assert texts(p, "8") == {"8 0:M1-M65"}
    # the partner's peg must turn in at its own in-spot M39: M37 + 3 -> H1
    q = pos({0: ["M10"], 2: ["M37"]}, rules="kilpatrick")
    assert texts(q, "3") == {"3 0:M10-M13", "3 2:M37-H1"}
    assert illegal(q, "3 2:M37-M40").rule == "V-KP2"
    # another colour's in-spot is passed freely: M19 + 3 = M22 past M21
    assert texts(pos({0: ["M19"]}, rules="kilpatrick"), "3") == {"3 0:M19-M22"}


def test_V_KP2_split_parts_must_turn_in_too():
    # Side 0 on M1 and M30, a 7. Single: M1 -> H5 (must turn in), M30 -> M37.
    # Split a on M1 and 7 - a on M30 (M30 part always on the main track):
    # a = 1 M2, 2 M3 (exactly the in-spot), 3..6 must turn in: H1..H4.
    p = pos({0: ["M1", "M30"]}, rules="kilpatrick")
    expected = {R({0: ["M30", "H5"]}), R({0: ["M1", "M37"]}),
                R({0: ["M2", "M36"]}), R({0: ["M3", "M35"]})}
    expected |= {R({0: [f"M{30 + 7 - a}", f"H{a - 2}"]}) for a in range(3, 7)}
    assert rset(p, "7") == expected
    # Arizona: the M1 part may also go on along the main track (M4 .. M7)
    az = rset(pos({0: ["M1", "M30"]}, rules="arizona"), "7")
    assert az - expected == {R({0: [f"M{1 + a}", f"M{37 - a}"]}) for a in range(3, 7)} | {
        R({0: ["M8", "M30"]})}


# ======================================================================
# V-SS Social Security
# ======================================================================

def test_V_SS_court_cards_eleven_twelve_thirteen_and_still_come_out():
    # M65 to the in-spot M3 is 10 steps (M66..M71, M0..M3). J 11: 1 left -> H1,
    # or 65 + 11 - 72 = M4; Q: H2 or M5; K: H3 or M6.
    p = pos({0: ["M65"]}, rules="social_security")
    assert texts(p, "J") == {"J 0:S-M8", "J 0:M65-H1", "J 0:M65-M4"}
    assert texts(p, "Q") == {"Q 0:S-M8", "Q 0:M65-H2", "Q 0:M65-M5"}
    assert texts(p, "K") == {"K 0:S-M8", "K 0:M65-H3", "K 0:M65-M6"}
    # the 10 is still 10: lands exactly on the in-spot
    assert texts(p, "10") == {"10 0:M65-M3"}


def test_V_SS_nine_splits_backward_and_forward_in_any_division():
    p = pos({0: ["M10", "M30"]}, rules="social_security")
    assert rset(p, "9") == NINE_0
    # the seeds' first example: 1 back and 8 forward
    assert after(p, "9 0:M10-M9 0:M30-M38") == full({0: ["M9", "M38"]})
    # own pegs only (basic P8)
    q = pos({0: ["M10"], 2: ["M50"]}, rules="social_security")
    assert rset(q, "9") == {R({0: ["M19"], 2: ["M50"]})}


# ======================================================================
# V-BJ Bluffing Joker
# ======================================================================

HAND_BJ = ["9H", "2C", "3C", "4C", "5C", "6C"]


def _strings(value):
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _view_without_hand(g, seat):
    view = g.player_view(seat)
    view.pop("hand", None)
    return view


def test_V_BJ_declare_then_opponents_in_turn_order_may_doubt():
    g = game_with({}, HAND_BJ, rules="bluffing_joker", seed=7)
    # declare a K (coming out) while playing the 9H face down
    g.push_text("K 0:S-M8", card="9H")
    assert g.phase == "doubt"
    assert g.actor == 1                       # the next opponent first
    assert g.pending["queue"] == [1, 3]       # opponents only, in turn order
    assert g.player_view(1)["declared"]["move"] == "K 0:S-M8"
    assert g.position.pegs()[0] == [-1] * 5   # not made yet
    assert "9H" not in g.hands[0]
    # the declared move must be a legal move of the declared card
    g2 = game_with({}, HAND_BJ, rules="bluffing_joker", seed=7)
    with pytest.raises(IllegalMoveError):
        g2.push_text("5 0:S-M8", card="9H")
    with pytest.raises(IllegalMoveError):
        g2.push_text("K 0:S-M8", card="KS")   # not in the hand


def test_V_BJ_no_doubt_move_stands_card_discarded_unseen():
    g = game_with({}, HAND_BJ, rules="bluffing_joker", seed=7)
    for s in (1, 2, 3):                       # nobody else holds a 9H
        g.hands[s] = [c for c in g.hands[s] if c != "9H"]
    g.push_text("K 0:S-M8", card="9H")
    g.push_text("pass")                       # seat 1
    assert g.phase == "doubt" and g.actor == 3   # seat 2 is a partner: skipped
    for seat in (1, 2, 3, None):
        assert "9H" not in set(_strings(_view_without_hand(g, seat)))
    g.push_text("pass")                       # seat 3: the move stands
    assert g.phase == "play" and g.seat == 1
    assert position_to_json(g.position)["pegs"]["0"] == ["S", "S", "S", "S", "M8"]
    assert g.shoe.discard[-1] == "9H"
    # the card is never shown to another seat: not in the log, not as the top
    # discard, nowhere in the view
    for seat in (1, 2, 3, None):
        view = _view_without_hand(g, seat)
        assert view["discard_top"] != "9H"
        assert "9H" not in set(_strings(view)), seat
        assert all(e.get("card") != "9H" for e in view["log"])
    # the player itself sees its own card
    assert any(e.get("card") == "9H" for e in g.player_view(0)["log"])
    # ... and still hidden after the next turn is played
    card1 = g.hands[1][0]
    g.push_text("K 1:S-M26", card=card1)
    g.push_text("pass")                       # seat 2
    g.push_text("pass")                       # seat 0
    for seat in (1, 2, 3, None):
        assert "9H" not in set(_strings(_view_without_hand(g, seat)))


def test_V_BJ_doubted_bluff_penalty_and_no_move():
    g = game_with({0: ["M10", "M20", "H5"], 1: ["M30"]}, HAND_BJ,
                  rules="bluffing_joker", seed=8)
    g.push_text("5 0:M10-M15", card="9H")     # a bluff: the card is a 9
    g.push_text("doubt")                      # seat 1 doubts
    assert g.phase == "penalty"
    # the doubting team chooses one of the bluffer's pegs; home pegs are safe
    # (M8), so only M10 and M20
    assert g.actor in (1, 3)
    assert play_texts(g) == {"penalty 0:M10-S", "penalty 0:M20-S"}
    g.push_text("penalty 0:M20-S")
    # the declared move was not made; the turn ended: seat 1 plays
    assert position_to_json(g.position)["pegs"] == full({0: ["M10", "H5"], 1: ["M30"]})
    assert g.phase == "play" and g.seat == 1
    # the card was revealed by the doubt
    for seat in (1, 2, 3):
        assert any(e.get("card") == "9H" for e in g.player_view(seat)["log"])


def test_V_BJ_wrong_doubt_penalty_on_the_doubter_and_move_stands():
    g = game_with({0: ["M10"], 1: ["M30"], 3: ["M60"]}, ["5H", "2C", "3C", "4C", "6C", "7C"],
                  rules="bluffing_joker", seed=9)
    g.push_text("5 0:M10-M15", card="5H")     # the truth
    g.push_text("pass")                       # seat 1
    assert g.actor == 3
    g.push_text("doubt")                      # seat 3 doubts wrongly
    assert g.phase == "penalty"
    assert g.actor == 0                       # the truthful player chooses
    assert play_texts(g) == {"penalty 3:M60-S"}
    g.push_text("penalty 3:M60-S")
    # the move stands, the doubter lost a peg; then seat 1 plays
    assert position_to_json(g.position)["pegs"] == full({0: ["M15"], 1: ["M30"]})
    assert g.phase == "play" and g.seat == 1


def test_V_BJ_doubted_bluff_with_nothing_out_gives_the_doubter_an_extra_turn():
    g = game_with({}, HAND_BJ, rules="bluffing_joker", seed=10)
    g.push_text("K 0:S-M8", card="9H")
    g.push_text("doubt")                      # seat 1 catches the bluff
    # seat 0 has no peg out of start: no penalty, seat 1 earns an extra turn
    assert g.phase == "play"
    assert g.extra_turns[1] == 1
    assert g.seat == 1
    assert position_to_json(g.position)["pegs"] == full({})
    # seat 1's own turn ...
    g.push_text("K 1:S-M26", card=g.hands[1][0])
    assert g.pending["queue"] == [2, 0]       # its opponents, next one first
    g.push_text("pass")
    g.push_text("pass")
    # ... then its extra turn at once
    assert g.phase == "play" and g.seat == 1 and g.extra_turns[1] == 0
    g.push_text("A 1:M26-M27", card=g.hands[1][0])
    g.push_text("pass")
    g.push_text("pass")
    assert g.seat == 2


def test_V_BJ_wrong_doubt_with_nothing_out_gives_the_truthful_player_an_extra_turn():
    # V-BJ: a wrong doubt -> "same extra-turn fallback": the truthful player
    # "may take an extra turn at their next turn". Seat 0's current turn ends
    # normally (seat 1 plays next); seat 0 then plays twice in a row.
    g = game_with({0: ["M10"]}, ["5H", "2C", "3C", "4C", "6C", "7C"],
                  rules="bluffing_joker", seed=11)
    g.push_text("5 0:M10-M15", card="5H")
    g.push_text("doubt")                      # seat 1 (all in start) is wrong
    assert position_to_json(g.position)["pegs"]["0"] == ["S", "S", "S", "S", "M15"]
    assert g.phase == "play"
    assert g.seat == 1                        # the turn passes as usual
    assert g.extra_turns[0] == 1
    # seats 1, 2, 3 come out (declared truthfully or not, nobody doubts)
    for seat, text in ((1, "K 1:S-M26"), (2, "K 2:S-M44"), (3, "K 3:S-M62")):
        assert g.seat == seat
        g.push_text(text, card=g.hands[seat][0])
        g.push_text("pass")
        g.push_text("pass")
    # seat 0's next turn, then its extra turn
    assert g.seat == 0
    g.push_text("2 0:M15-M17", card=g.hands[0][0])
    g.push_text("pass")
    g.push_text("pass")
    assert g.seat == 0 and g.extra_turns[0] == 0
    g.push_text("2 0:M17-M19", card=g.hands[0][0])
    g.push_text("pass")
    g.push_text("pass")
    assert g.seat == 1


# ======================================================================
# V-OPT optional rules, each a switch
# ======================================================================

def test_V_OPT_end_draw():
    g = new_game(rules=opts("basic", draw="after"), seed=12)
    assert [len(h) for h in g.hands] == [5, 5, 5, 5]
    top = g.shoe.stock[-1]
    play = g.legal_plays()[0]
    g.push(play)
    assert top in g.hands[0] and len(g.hands[0]) == 5


def test_V_OPT_special_nines():
    # V-AZ3 with own pegs: the partner's M50 stays put
    p = pos({0: ["M10", "M30"], 2: ["M50"]}, rules=opts("basic", nine="split"))
    assert rset(p, "9") == nine_fb({2: ["M50"]}, 0, 10, 30)


def test_V_OPT_any_peg_moves():
    p = pos({0: ["M10"], 2: ["M50"]}, rules=opts("basic", team_pegs=True))
    assert texts(p, "3") == {"3 0:M10-M13", "3 2:M50-M53"}
    # the basic joker, with any team peg as the jumper: 0:S, 2:S, 0:M10, 2:M50
    # onto side 1's M20 (opponent -> start)
    q = pos({0: ["M10"], 2: ["M50"], 1: ["M20"]}, rules=opts("basic", team_pegs=True))
    jk = {t for t in texts(q, "JK") if t.endswith("-M20")}
    assert jk == {"JK 0:S-M20", "JK 2:S-M20", "JK 0:M10-M20", "JK 2:M50-M20"}


def test_V_OPT_start_jokers():
    rules = opts("basic", start_jokers=True)
    # nothing on the main track: the basic joker has no target, this one
    # comes out
    assert texts(pos({}, rules=rules), "JK") == {"JK 0:S-M8"}
    assert texts(pos({}), "JK") == set()
    # with a target, both
    assert texts(pos({1: ["M20"]}, rules=rules), "JK") == {"JK 0:S-M8", "JK 0:S-M20"}
    # its own peg on the come-out hole blocks it (R2); M8 has no target
    assert texts(pos({0: ["M8"]}, rules=rules), "JK") == set()


def test_V_OPT_forfeit_the_turn():
    rules = opts("basic", forfeit=True)
    p = pos({0: ["M10"]}, rules=rules)
    assert texts(p, "5") == {"5 0:M10-M15"}
    assert p.discard_allowed(["5"]) is True
    assert pos({0: ["M10"]}).discard_allowed(["5"]) is False
    g = game_with({0: ["M10"]}, ["5H", "2C", "3C", "4C", "6C", "7C"], rules=rules, seed=13)
    assert "5 discard" in play_texts(g) and "5 0:M10-M15" in play_texts(g)
    g.push_text("5 discard", "5H")
    assert position_to_json(g.position)["pegs"]["0"] == ["S", "S", "S", "S", "M10"]
    assert g.seat == 1


def test_V_OPT_extra_jokers():
    g = new_game(rules=opts("basic", extra_jokers=4), seed=14)
    total = shoe_total(g)
    assert sum(total.values()) == 220 and total["JK"] == 12


def test_V_OPT_two_players_without_jokers():
    rules = opts("basic", two_players_no_jokers=True)
    g = new_game(rules=rules, players=2, seed=15)
    total = shoe_total(g)
    assert sum(total.values()) == 208 and total["JK"] == 0
    # the switch is about two players: a 4-player game keeps its 8 jokers
    assert shoe_total(new_game(rules=rules, players=4, seed=15))["JK"] == 8
    assert shoe_total(new_game(players=2, seed=15))["JK"] == 8


# ======================================================================
# R. Rulings
# ======================================================================

def test_R5_social_security_nine_must_total_nine():
    p = pos({0: ["M10", "M30"]}, rules="social_security")
    # the seeds' "3 back and 5 forward" totals 8: not a move (M1)
    e = illegal(p, "9 0:M10-M7 0:M30-M35")
    assert e.rule == "M1"
    illegal(p, "9 0:M30-M35 0:M10-M7")
    # 3 back and 6 forward is
    assert after(p, "9 0:M10-M7 0:M30-M36") == full({0: ["M7", "M36"]})


def test_R6_pegoo_in_spot_3_and_come_out_8():
    p = pos({}, rules="pegoo", to_move=1)
    assert p.geo.in_spot == (3, 23, 43, 63)
    assert p.geo.come_out == (8, 28, 48, 68)
    assert texts(p, "K") == {"K 1:S-M28"}
    # side 1 on M21: 4 = M22, M23 (its in-spot), H1, H2; or M25
    q = pos({1: ["M21"]}, rules="pegoo", to_move=1)
    assert texts(q, "4") == {"4 1:M21-H2", "4 1:M21-M25"}
    # from come-out back 8 reaches the corner M20 (G3)
    r = pos({1: ["M28"]}, rules="pegoo", to_move=1)
    assert texts(r, "8") == {"8 1:M28-M20"}


def test_R7_peg_moved_by_another_team_never_turns_in():
    # NC 10: opponent 1 on M19 forward 4 passes its in-spot M21 (M20, M21,
    # M22, M23): as side 0 moves it, it stays on the main track -> M23.
    p = pos({0: ["M10"], 1: ["M19"]}, rules="north_carolina")
    assert after(p, "10 1:M19-M23 0:M10-M16") == full({0: ["M16"], 1: ["M23"]})
    assert illegal(p, "10 1:M19-H2 0:M10-M16").rule == "R7"
    for result in moves(p, "10").values():
        assert not any(t.startswith("H") for t in result["1"])
    # a teammate's peg may turn in: partner 2 on M37 + 3 -> M38, M39, H1
    q = pos({0: ["M10"], 2: ["M37"]}, rules="north_carolina")
    assert after(q, "10 2:M37-H1 0:M10-M17") == full({0: ["M17"], 2: ["H1"]})


def test_R11_split_hands_over_only_in_north_carolina():
    # See test_V_NC1_split_finishes_last_peg_then_moves_partner for NC.
    for preset in ("basic", "pegoo", "wizard_woodworks", "alaska", "social_security",
                   "bluffing_joker"):
        p = pos({0: ["M1", "H2", "H3", "H4", "H5"], 2: ["M50"]}, rules=preset)
        assert texts(p, "7") == {"7 0:M1-M8"}, preset
        assert illegal(p, "7 0:M1-H1 2:M50-M54").rule in ("P8", "R11"), preset
    nc = pos({0: ["M1", "H2", "H3", "H4", "H5"], 2: ["M50"]}, rules="north_carolina")
    assert "7 0:M1-H1 2:M50-M54" in texts(nc, "7")


@pytest.mark.parametrize("rank", NON_JOKER + ("JK",))
def test_R12_free_come_out_with_any_card_jokers_included(rank):
    # NC, counted on the two turns before, everything in start.
    p = pos({}, rules="north_carolina", counting={0: 2})
    # every rank ends with one peg on M8 (A, J, Q, K as a plain come-out or
    # free: the same end position, listed once)
    assert rset(p, rank) == {R({0: ["M8"]})}
    p.parse_move(f"{rank} free 0:S-M8")
    assert p.discard_allowed([rank]) is False


def test_R12_no_free_come_out_possible_then_discarding_is_allowed():
    # Partner 2 on side 0's come-out M8 and on its own in-spot M39: landing on
    # M8 would send 2 to M39, which holds its colour (M7): no come-out, free or
    # not. Side 0 can't move at all, so it discards.
    p = pos({2: ["M8", "M39"]}, rules="north_carolina", counting={0: 2})
    assert texts(p, "5") == set()
    assert p.discard_allowed(["5"]) is True


def test_R13_social_security_nine_still_moves_one_peg_nine():
    p = pos({0: ["M10"]}, rules="social_security")
    assert moves(p, "9") == {"9 0:M10-M19": full({0: ["M19"]})}


def test_R14_pegoo_joker_no_standing_still_and_any_other_team_peg():
    # Side 0's only peg out stands on its in-spot M3: power 1 would leave it
    # there (no move) and a start peg can't land on its own colour (M2).
    p = pos({0: ["M3"], 2: ["M50"]}, rules="pegoo")
    assert texts(p, "JK") == set()
    illegal(p, "JK 0:M3-M3")
    # power 2 takes any peg of another team on the main track: both opponents,
    # not the partner, not a peg in home
    q = pos({0: ["M3"], 1: ["M50", "H1"], 2: ["M60"], 3: ["M70"]}, rules="pegoo")
    assert texts(q, "JK") == {"JK 1:M50-S", "JK 3:M70-S"}
    # 6 players, 3 teams [[0,3],[1,4],[2,5]]: pegs of both other teams
    t3 = [[0, 3], [1, 4], [2, 5]]
    r = pos({0: ["M3"], 1: ["M30"], 2: ["M50"], 3: ["M70"]}, sides=6, teams=t3,
            rules="pegoo")
    assert texts(r, "JK") == {"JK 1:M30-S", "JK 2:M50-S"}


def test_R14_standing_still_is_explained_by_R14():
    # The referee must name the rule: the joker would leave the peg where it
    # is (R14); no peg lands on another of its colour (M2 does not apply).
    p = pos({0: ["M3"], 2: ["M50"]}, rules="pegoo")
    assert illegal(p, "JK 0:M3-M3").rule == "R14"


def test_R15_arizona_joker_start_pegs_only_even_without_a_target():
    # Side 2 has a peg in start. Its targets: M3 (side 0 on its own in-spot,
    # R8) and M10 (side 0 -> its in-spot M3, which holds side 0: M7): none.
    # Without R15, 0:M3 or 0:M10 could jump onto 2's M50 (2 -> M39).
    p = pos({0: ["M3", "M10", "H1", "H2", "H3"], 2: ["S", "M50", "H1", "H2", "H3"]},
            rules="arizona")
    assert texts(p, "JK") == set()
    assert illegal(p, "JK 0:M10-M50").rule == "R15"
    unruled = pos({0: ["M3", "M10", "H1", "H2", "H3"], 2: ["S", "M50", "H1", "H2", "H3"]},
                  rules=opts("arizona", joker="basic"))
    assert texts(unruled, "JK") == {"JK 0:M3-M50", "JK 0:M10-M50"}


def test_R16_nc_two_swaps_any_two_colours_whoever_owns_them():
    # Side 0 has nothing on the main track; 1, 2, 3 on M20, M30, M40: the
    # swaps (1,2) (1,3) (2,3), two opponents included; the 2 forward: H1 -> H3.
    p = pos({0: ["H1"], 1: ["M20"], 2: ["M30"], 3: ["M40"]}, rules="north_carolina")
    assert rset(p, "2") == {
        R({0: ["H3"], 1: ["M20"], 2: ["M30"], 3: ["M40"]}),
        R({0: ["H1"], 1: ["M30"], 2: ["M20"], 3: ["M40"]}),
        R({0: ["H1"], 1: ["M40"], 2: ["M30"], 3: ["M20"]}),
        R({0: ["H1"], 1: ["M20"], 2: ["M40"], 3: ["M30"]}),
    }
    assert after(p, "2 1:M20<>3:M40") == full({0: ["H1"], 1: ["M40"], 2: ["M30"], 3: ["M20"]})
    # a swap is a move, so it forbids discarding (P7) even between two
    # opponents' pegs: side 0 all in start holding a 2 and a 5
    q = pos({1: ["M20"], 3: ["M40"]}, rules="north_carolina")
    assert rset(q, "2") == {R({1: ["M40"], 3: ["M20"]})}
    assert q.discard_allowed(["2", "5"]) is False
    assert q.discard_allowed(["5"]) is True


def test_R16_nc_ten_second_part_may_move_a_peg_hit_into_its_in_spot():
    # Part 1: 0 M10 + 6 lands on partner 2 at M16 -> 2 to its in-spot M39.
    # Part 2: that peg, 4 more: from its in-spot into H4, or M43, or back M35.
    p = pos({0: ["M10"], 2: ["M16"]}, rules="north_carolina")
    assert after(p, "10 0:M10-M16 2:M39-H4") == full({0: ["M16"], 2: ["H4"]})
    assert after(p, "10 0:M10-M16 2:M39-M43") == full({0: ["M16"], 2: ["M43"]})
    assert after(p, "10 0:M10-M16 2:M39-M35") == full({0: ["M16"], 2: ["M35"]})
    # the other order: before part 1 there is no peg on M39
    illegal(p, "10 2:M39-H4 0:M10-M16")


def test_R16_nc_ten_second_part_may_not_move_a_peg_sent_to_start():
    # Part 1: 0 M10 + 6 hits opponent 1 on M16 -> start. Part 2 (4) can move
    # side 3's M50 but nothing of side 1's.
    p = pos({0: ["M10"], 1: ["M16"], 3: ["M50"]}, rules="north_carolina")
    assert after(p, "10 0:M10-M16 3:M50-M54") == full({0: ["M16"], 3: ["M54"]})
    seconds = {m.steps[1][0] for m in p.legal_moves(["10"], dedupe=False)
               if m.steps[0] == (0, 10, 16)}
    assert seconds == {3}
    illegal(p, "10 0:M10-M16 1:M16-M20")


def test_R17_kilpatrick_may_land_on_in_spot_and_from_it_must_turn_in():
    p = pos({0: ["M1"]}, rules="kilpatrick")
    # 2: M2, M3 -> exactly on the in-spot
    assert texts(p, "2") == {"2 0:M1-M3"}
    # A: M2, or come out either team colour
    assert texts(p, "A") == {"A 0:S-M8", "A 2:S-M44", "A 0:M1-M2"}
    # standing on the in-spot with steps left: into home only
    q = pos({0: ["M3"]}, rules="kilpatrick")
    assert texts(q, "A") == {"A 0:S-M8", "A 2:S-M44", "A 0:M3-H1"}
    assert texts(q, "5") == {"5 0:M3-H5"}
    assert texts(q, "6") == set()
    assert illegal(q, "6 0:M3-M9").rule == "V-KP2"


# ======================================================================
# The command line, every preset
# ======================================================================

def _expected_cli_moves(preset):
    """By hand: side 0 on M10, partner 2 on M50, hand A,3."""
    a = {"A 0:S-M8", "A 0:M10-M11"}
    three = {"3 0:M10-M13"}
    if preset == "north_carolina":            # V-NC3: back 1 -> M9, forward 11 -> M21
        a |= {"A 0:M10-M9", "A 0:M10-M21"}
    if preset in ("arizona", "kilpatrick"):   # V-AZ2: the partner's pegs too
        a |= {"A 2:S-M44", "A 2:M50-M51"}
        three |= {"3 2:M50-M53"}
    return a | three


@pytest.mark.parametrize("preset", list(PRESETS))
def test_cli_moves_works_for_every_preset(preset, tmp_path):
    data = {"format": FORMAT, "rules": preset, "sides": 4, "teams": [[0, 2], [1, 3]],
            "pegs": full({0: ["M10"], 2: ["M50"]}), "to_move": 0}
    f = tmp_path / "position.json"
    f.write_text(json.dumps(data))
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "moves", str(f),
                           "--hand", "A,3"], cwd=ROOT, capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["to_move"] == 0 and out["discard_allowed"] is False
    assert {m["move"] for m in out["moves"]} == _expected_cli_moves(preset)
    by_move = {m["move"]: m for m in out["moves"]}
    assert by_move["3 0:M10-M13"]["card"] == "3"
    assert by_move["3 0:M10-M13"]["result"] == full({0: ["M13"], 2: ["M50"]})


# Options each preset changes, read off RULES section V.
PRESET_DIFFERENCES = {
    "basic": set(),
    "arizona": {"draw", "team_pegs", "nine", "joker"},
    "north_carolina": {"ace", "two_swap", "nine", "ten", "counting", "split_hand_over"},
    "pegoo": {"holes_per_side", "joker", "two_swap", "nine", "counting"},
    "wizard_woodworks": {"two_swap", "draw", "nine"},
    "alaska": {"ten", "counting"},
    "kilpatrick": {"draw", "team_pegs", "nine", "joker", "hand_size", "must_turn_in"},
    "social_security": {"nine", "court"},
    "bluffing_joker": {"bluffing"},
}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_cli_rules_prints_description_and_differences(preset):
    assert set(PRESETS) == set(PRESET_DIFFERENCES)
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "rules", preset],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert preset in out.splitlines()[0]
    assert DESCRIPTIONS[preset] in out
    for line in differences(preset):
        assert line in out
    printed = {ln.strip()[2:].split(" = ")[0] for ln in out.splitlines()
               if ln.strip().startswith("- ") and " = " in ln}
    assert printed == PRESET_DIFFERENCES[preset]
    if preset == "basic":
        assert "none" in out
