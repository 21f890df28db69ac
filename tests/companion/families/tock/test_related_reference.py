"""Hand-checked expectations for related_reference.py, one small position per
rule id of RELATED-GAMES.md, the expected moves worked out from the text, so
the reference is trusted before it judges the engine
(test_related_differential.py). Tests are named after the rule they check.
"""
from __future__ import annotations

import pytest

from tests.companion import related_reference as ref


def P(preset, pegs, to_move=0, options=None, sections=4, seats=None, teams=None, **extra):
    """A position; unlisted occupied sides have all pegs in start."""
    game, partnership, _ = ref.PRESETS[preset]
    if seats is None:
        seats = [0, 1, 2] if preset == "tock3" else sorted(pegs) if game == "carbles" else [0, 1, 2, 3]
    if teams is None:
        if partnership:
            n = len(seats)
            teams = [[seats[i], seats[i + n // 2]] for i in range(n // 2)]
        else:
            teams = [[s] for s in seats]
    full = {str(s): list(pegs.get(s, ["S"] * 4)) for s in seats}
    rules = {"preset": preset, "options": options} if options else preset
    pos = {"format": ref.FORMAT, "rules": rules, "sides": sections, "teams": teams,
           "pegs": full, "to_move": to_move}
    pos.update(extra)
    return pos


def texts(pos, rank):
    return {m["move"] for m in ref.moves(pos, [rank])["moves"]}


def results(pos, rank):
    return [m["result"] for m in ref.moves(pos, [rank])["moves"]]


def result_of(pos, move):
    rank = move.split()[0]
    [m] = [m for m in ref.moves(pos, [rank])["moves"] if m["move"] == move]
    return m["result"]


S4 = ["S"] * 4

# ------------------------------------------------------------------ Tock

def test_TK_G3_start_hole_per_side():
    assert [ref.start_hole(k) for k in range(4)] == [17, 35, 53, 71]


def test_TK_M4_come_out_with_A_and_K():
    pos = P("tock", {0: ["S", "S", "S", "M3"]})
    assert texts(pos, "A") == {"A 0:S-M17", "A 0:M3-M4"}
    assert texts(pos, "K") == {"K 0:S-M17", "K 0:M3-M16"}
    assert texts(pos, "Q") == {"Q 0:M3-M15"}


def test_TK_M4_come_out_blocked_by_own_peg_on_start_hole():
    pos = P("tock", {0: ["S", "S", "S", "M17"]})
    # no come-out; the peg on its start hole can't turn in (TK-M5)
    assert texts(pos, "A") == {"A 0:M17-M18"}


def test_TK_M4_come_out_hits_another_colour():
    pos = P("tock", {1: ["S", "S", "S", "M17"]})
    assert texts(pos, "A") == {"A 0:S-M17"}
    r = result_of(pos, "A 0:S-M17")
    assert r["0"] == ["S", "S", "S", "M17"] and r["1"] == S4


def test_TK_M2_passing_and_hitting_own_colour():
    pos = P("tock", {0: ["S", "S", "M10", "M12"]})
    assert texts(pos, "2") == {"2 0:M10-M12", "2 0:M12-M14"}
    assert result_of(pos, "2 0:M10-M12")["0"] == ["S", "S", "S", "M12"]
    assert texts(pos, "3") == {"3 0:M10-M13", "3 0:M12-M15"}


def test_TK_M3_own_start_hole_blocks_every_colour():
    pos = P("tock", {0: ["S", "S", "S", "M30"], 1: ["S", "S", "M33", "M35"]}, to_move=1)
    assert texts(pos, "3") == {"3 1:M35-M38"}       # its own peg can't pass
    assert texts(pos, "2") == {"2 1:M35-M37"}       # nor land
    pos0 = dict(pos, to_move=0)
    assert texts(pos0, "5") == set()                # lands on M35
    assert texts(pos0, "6") == set()                # passes M35
    assert texts(pos0, "4") == {"4 0:M30-M34"}
    assert ref.moves(pos0, ["5", "6"])["discard_allowed"] is True


def test_TK_M3_another_colours_start_hole_gives_no_protection():
    pos = P("tock", {0: ["S", "S", "S", "M30"], 2: ["S", "S", "S", "M35"]})
    assert texts(pos, "5") == {"5 0:M30-M35"}
    assert result_of(pos, "5 0:M30-M35")["2"] == S4


def test_TK_M5_turning_in_is_optional_and_exact():
    pos = P("tock", {0: ["S", "S", "S", "M15"]})
    assert texts(pos, "5") == {"5 0:M15-M20", "5 0:M15-H3"}      # TK-G7's example
    assert texts(pos, "8") == {"8 0:M15-M23"}                    # 6 left > 4 holes


def test_TK_M5_peg_on_start_hole_at_turn_start_cannot_turn_in():
    pos = P("tock", {0: ["S", "S", "S", "M17"]})
    assert texts(pos, "2") == {"2 0:M17-M19"}
    assert texts(pos, "4") == {"4 0:M17-M21"}


def test_TK_M5_home_pegs_block_turning_in():
    pos = P("tock", {0: ["S", "S", "M15", "H2"]})
    assert texts(pos, "5") == {"5 0:M15-M20"}                   # would pass H2
    assert texts(pos, "4") == {"4 0:M15-M19"}                   # would land on H2
    assert texts(pos, "3") == {"3 0:M15-M18", "3 0:M15-H1"}
    assert texts(pos, "2") == {"2 0:M15-M17", "2 0:H2-H4"}


def test_TK_M6_in_home_exact_and_never_passing():
    pos = P("tock", {0: ["S", "S", "H1", "H3"]})
    assert texts(pos, "A") == {"A 0:S-M17", "A 0:H1-H2", "A 0:H3-H4"}
    assert texts(pos, "2") == set()


def test_TK_R6_seven_is_one_peg_no_split():
    pos = P("tock", {0: ["S", "S", "M10", "M20"]})
    assert texts(pos, "7") == {"7 0:M10-M17", "7 0:M20-M27"}


def test_TK_V1_reverse_four_backward_only():
    pos = P("tock", {0: ["S", "S", "M1", "M20"]}, options={"reverse_four": True})
    assert texts(pos, "4") == {"4 0:M1-M69", "4 0:M20-M16"}
    plain = P("tock", {0: ["S", "S", "M1", "M20"]})
    assert texts(plain, "4") == {"4 0:M1-M5", "4 0:M20-M24"}


def test_TK_M7_backward_passes_and_hits_own_but_not_start_hole_block():
    opts = {"reverse_four": True}
    pos = P("tock", {0: ["S", "S", "M16", "M20"]}, options=opts)
    assert texts(pos, "4") == {"4 0:M20-M16", "4 0:M16-M12"}
    assert result_of(pos, "4 0:M20-M16")["0"] == ["S", "S", "S", "M16"]
    blocked = P("tock", {0: ["S", "S", "S", "M37"], 1: ["S", "S", "S", "M35"]}, options=opts)
    assert texts(blocked, "4") == set()
    # backward past its own start hole stays on the track (RULES M5)
    assert texts(P("tock", {0: ["S", "S", "S", "M19"]}, options=opts), "4") == {"4 0:M19-M15"}


def test_TK_V2_ten_swap_replaces_the_ten():
    pos = P("tock", {0: ["S", "S", "M5", "M17"], 1: ["S", "S", "M30", "M35"],
                     2: ["S", "S", "S", "M40"]}, options={"ten_swap": True})
    assert texts(pos, "10") == {"10 0:M5<>1:M30", "10 0:M5<>2:M40"}
    r = result_of(pos, "10 0:M5<>1:M30")
    assert r["0"] == ["S", "S", "M17", "M30"] and r["1"] == ["S", "S", "M5", "M35"]


def test_TK_V3_forced_five_any_peg_on_the_track():
    pos = P("tock", {0: ["S", "S", "S", "M3"], 1: ["S", "S", "M33", "M35"]},
            options={"forced_five": True})
    # 1:M35 may move off its start hole; 1:M33 can't pass it
    assert texts(pos, "5") == {"5 0:M3-M8", "5 1:M35-M40"}
    other = P("tock", {1: ["S", "S", "S", "M32"]}, options={"forced_five": True})
    assert texts(other, "5") == {"5 1:M32-M37"}          # another colour stays out (TK-R13)


def test_TK_V3_forced_five_partner_may_turn_in():
    pos = P("tock_partnership", {1: ["S", "S", "S", "M32"], 2: ["S", "S", "S", "M50"]},
            options={"forced_five": True})
    assert texts(pos, "5") == {"5 2:M50-M55", "5 2:M50-H2", "5 1:M32-M37"}


def test_TK_V4_partner_pegs_once_own_all_home():
    pos = P("tock_partnership", {0: ["H1", "H2", "H3", "H4"], 2: ["S", "S", "S", "M40"]})
    assert texts(pos, "A") == {"A 2:S-M53", "A 2:M40-M41"}


def test_TK_V5_three_players_on_sides_0_to_2():
    pos = P("tock3", {0: ["S", "S", "S", "M68"]})
    assert texts(pos, "5") == {"5 0:M68-M1"}             # side 3's hole M71 is plain
    bad = P("tock3", {})
    bad["pegs"]["3"] = list(S4)
    with pytest.raises(ref.PositionError):
        ref.moves(bad)


def test_TK_P3_no_move_allows_the_discard():
    pos = P("tock", {})
    report = ref.moves(pos, ["2", "3", "Q"])
    assert report["moves"] == [] and report["discard_allowed"] is True
    assert ref.moves(pos, ["2", "K"])["discard_allowed"] is False


# ------------------------------------------------------------------ Carbles

def test_CB_G2_seats_spread_over_sections():
    assert ref.carbles_sections(3, 8) == [0, 2, 5]
    assert ref.carbles_sections(4, 6) == [0, 1, 3, 4]
    pos = P("carbles", {0: S4, 2: S4, 5: S4}, to_move=5, sections=8)
    assert texts(pos, "A") == {"A 5:S-M107"}
    wrong = P("carbles", {0: S4, 1: S4, 2: S4}, sections=8)
    with pytest.raises(ref.PositionError):
        ref.moves(wrong)


def test_CB_G2_unused_sections_home_hole_protects_nothing():
    # 2 players on 4 sections use 0 and 2; section 1's M35 is plain track
    pos = P("carbles", {0: ["S", "S", "S", "M33"], 2: ["S", "S", "S", "M35"]})
    assert texts(pos, "3") == {"3 0:M33-M36"}
    assert texts(pos, "2") == {"2 0:M33-M35"}


def test_CB_P2_seven_single_steps_hit_own_colour():
    pos = P("carbles", {0: ["S", "S", "M10", "M12"], 2: S4})
    got = {tuple(r["0"]) for r in results(pos, "7")}
    assert got == {("S", "S", "M10", "M19"), ("S", "S", "M11", "M18"), ("S", "S", "M12", "M17"),
                   ("S", "S", "M13", "M16"), ("S", "S", "M14", "M15"),
                   ("S", "S", "S", "M17"), ("S", "S", "S", "M16"), ("S", "S", "S", "M15"),
                   # M12's marble reaches M17 after 5 steps and may turn in
                   ("S", "S", "M11", "H1"), ("S", "S", "M10", "H2")}


def test_CB_P2_each_step_is_a_landing_on_another_colour():
    pos = P("carbles", {0: ["S", "S", "S", "M10"], 2: ["S", "S", "S", "M12"]})
    assert texts(pos, "7") == {"7 0:M10-M17"}
    assert result_of(pos, "7 0:M10-M17")["2"] == S4


def test_CB_P2_text_is_parts_in_order_made():
    pos = P("carbles", {0: ["S", "S", "M10", "M40"], 2: S4})
    moves = {m["move"]: m["result"]["0"] for m in ref.moves(pos, ["7"])["moves"]}
    for text, pegs in moves.items():
        parts = text.split()[1:]
        assert all(p.startswith("0:M") for p in parts)
        steps = sum(int(p.split("-")[1][1:]) - int(p.split("-")[0][3:]) for p in parts)
        assert steps == 7, text
    assert len(moves) == 8


def test_CB_P2_restriction_follows_the_marble_on_its_home_hole():
    pos = P("carbles", {0: ["S", "S", "M14", "M17"], 2: S4})
    got = {tuple(r["0"]) for r in results(pos, "7")}
    assert ("S", "S", "M18", "H3") in got        # the other marble reaches M17, turns in
    assert ("S", "S", "M17", "H4") not in got
    assert ("S", "S", "M14", "H4") not in got    # the first can't turn in
    assert ("S", "S", "M14", "M24") in got


def test_CB_M3_home_hole_block_stops_the_steps():
    pos = P("carbles", {0: ["S", "S", "S", "M50"], 2: ["S", "S", "S", "M53"]})
    assert texts(pos, "7") == set()
    assert texts(pos, "2") == {"2 0:M50-M52"}


def test_CB_P3_jack_forward_eleven_or_swap():
    pos = P("carbles", {0: ["S", "S", "S", "M5"], 2: ["S", "S", "M30", "M53"]})
    assert texts(pos, "J") == {"J 0:M5-M16", "J 0:M5<>2:M30"}


def test_CB_M7_backward_four_passes_own():
    pos = P("carbles", {0: ["S", "S", "M8", "M10"], 2: S4})
    assert texts(pos, "4") == {"4 0:M10-M6", "4 0:M8-M4"}
    assert texts(P("carbles", {0: ["S", "S", "S", "M2"], 2: S4}), "4") == {"4 0:M2-M70"}


def test_CB_V1_2_joker_brings_out_the_partner():
    pos = P("carbles_partnership", {0: ["S", "S", "S", "M53"], 1: S4, 2: S4, 3: S4})
    assert texts(pos, "JK") == {"JK 0:S-M17", "JK 2:S-M53"}
    r = result_of(pos, "JK 2:S-M53")
    assert r["0"] == S4 and r["2"] == ["S", "S", "S", "M53"]
    own_blocked = P("carbles_partnership", {0: ["S", "S", "S", "M17"], 1: S4, 2: S4, 3: S4})
    assert texts(own_blocked, "JK") == {"JK 2:S-M53"}
    solo = P("carbles", {0: ["S", "S", "S", "M53"], 2: S4})
    assert texts(solo, "JK") == {"JK 0:S-M17"}


def test_CB_V1_1_partner_marbles_once_own_in_goal():
    pos = P("carbles_partnership", {0: ["H1", "H2", "H3", "H4"], 1: S4, 2: ["S", "S", "S", "M40"], 3: S4})
    assert texts(pos, "A") == {"A 2:S-M53", "A 2:M40-M41"}


def test_CB_R12_joker_is_not_exempt_from_must_move():
    pos = P("carbles", {0: S4, 2: S4})
    assert ref.moves(pos, ["JK", "2"])["discard_allowed"] is False
    out = P("carbles", {0: ["M1", "M3", "M5", "M17"], 2: S4})
    assert texts(out, "JK") == set()


# ------------------------------------------------------------------ Jackaroo

def test_JR_M2_own_colour_blocks():
    pos = P("jackaroo", {0: ["S", "S", "M10", "M12"]})
    assert texts(pos, "3") == {"3 0:M12-M15"}
    assert texts(pos, "2") == {"2 0:M12-M14"}


def test_JR_M3_no_jumping_a_pair_but_landing_on_one():
    pos = P("jackaroo", {0: ["S", "S", "S", "M10"], 1: ["S", "S", "S", "M12"], 2: ["S", "S", "S", "M13"]})
    assert texts(pos, "2") == {"2 0:M10-M12"}
    assert texts(pos, "3") == {"3 0:M10-M13"}
    assert texts(pos, "6") == set()


def test_JR_M3_pair_across_M71_M0():
    pos = P("jackaroo", {0: ["S", "S", "S", "M69"], 1: ["S", "S", "S", "M71"], 2: ["S", "S", "S", "M0"]})
    assert texts(pos, "3") == {"3 0:M69-M0"}
    assert texts(pos, "6") == set()


def test_JR_M3_turning_in_passes_the_base_hole():
    # pair M16, M17 before the goal entry: both ways blocked
    pos = P("jackaroo", {0: ["S", "S", "S", "M14"], 1: ["S", "S", "S", "M16"], 2: ["S", "S", "S", "M17"]})
    assert texts(pos, "6") == set()
    assert texts(pos, "3") == {"3 0:M14-M17"}
    # pair M17, M18: turning in passes only M17 (ruling, notes)
    pos2 = P("jackaroo", {0: ["S", "S", "S", "M14"], 2: ["S", "S", "S", "M17"], 1: ["S", "S", "S", "M18"]})
    assert texts(pos2, "6") == {"6 0:M14-H3"}


def test_JR_M4_base_hole_block_and_no_five():
    pos = P("jackaroo", {0: ["S", "S", "S", "M33"], 1: ["S", "S", "S", "M35"]})
    assert texts(pos, "2") == set() and texts(pos, "3") == set()
    five = P("jackaroo", {0: ["S", "S", "S", "M3"], 1: ["S", "S", "S", "M35"]})
    assert texts(five, "5") == {"5 0:M3-M8"}
    assert texts(dict(five, to_move=1), "5") == {"5 1:M35-M40", "5 0:M3-M8"}


def test_JR_M5_hits_the_partner_too():
    pos = P("jackaroo", {0: ["S", "S", "S", "M10"], 2: ["S", "S", "S", "M12"]})
    assert result_of(pos, "2 0:M10-M12")["2"] == S4


def test_JR_M7_base_hole_at_turn_start_no_turn_in():
    pos = P("jackaroo", {0: ["S", "S", "S", "M17"]})
    assert texts(pos, "3") == {"3 0:M17-M20"}


def test_JR_M9_backward_never_into_the_goal_nor_past_own():
    pos = P("jackaroo", {0: ["S", "S", "S", "M19"]})
    assert texts(pos, "4") == {"4 0:M19-M15"}
    pos2 = P("jackaroo", {0: ["S", "S", "M17", "M19"]})
    assert texts(pos2, "4") == {"4 0:M17-M13"}
    pair = P("jackaroo", {0: ["S", "S", "S", "M20"], 1: ["S", "S", "S", "M18"], 2: ["S", "S", "S", "M17"]})
    assert texts(pair, "4") == set()


def test_JR_P3_five_moves_any_marble_goal_only_for_the_team():
    pos = P("jackaroo", {1: ["S", "S", "S", "M32"], 2: ["S", "S", "S", "M50"]})
    assert texts(pos, "5") == {"5 1:M32-M37", "5 2:M50-M55", "5 2:M50-H2"}


def test_JR_V1_individual_five_no_partner_goal():
    pos = P("jackaroo_individual", {1: ["S", "S", "S", "M32"], 2: ["S", "S", "S", "M50"]})
    assert texts(pos, "5") == {"5 1:M32-M37", "5 2:M50-M55"}


def test_JR_P4_seven_split_any_way():
    pos = P("jackaroo", {0: ["S", "S", "M10", "M20"]})
    got = {tuple(r["0"]) for r in results(pos, "7")}
    assert got == {("S", "S", f"M{10 + a}", f"M{27 - a}") if 10 + a < 27 - a else
                   ("S", "S", f"M{27 - a}", f"M{10 + a}") for a in range(8)}
    assert "7 0:M10-M13 0:M20-M24" in texts(pos, "7") or "7 0:M20-M24 0:M10-M13" in texts(pos, "7")


def test_JR_P4_controlled_colours_fixed_for_the_seven():
    pos = P("jackaroo", {0: ["M15", "H2", "H3", "H4"], 2: ["S", "S", "S", "M40"]})
    assert texts(pos, "7") == {"7 0:M15-M22"}


def test_JR_P5_ten_forces_the_next_player():
    pos = P("jackaroo", {})
    [m] = ref.moves(pos, ["10"])["moves"]
    assert m == {"card": "10", "move": "10 force 3", "result": pos["pegs"],
                 "effects": {"skip": 3, "discard": 3}}
    assert texts(dict(pos, to_move=2), "10") == {"10 force 1"}
    assert texts(P("jackaroo", {}, hand_sizes={"3": 0}), "10") == set()
    assert texts(P("jackaroo", {}, hand_sizes={"3": 0}, waiting=[3]), "10") == set()
    assert texts(P("jackaroo", {}, hand_sizes={"1": 0}), "10") == {"10 force 3"}


def test_JR_P6_red_queen_steals():
    pos = P("jackaroo", {0: ["S", "S", "S", "M3"]})
    [m] = ref.moves(pos, ["Qr"])["moves"]
    assert m["move"] == "Qr force 3" and m["effects"] == {"skip": 3, "steal": 3}
    assert texts(pos, "Qb") == {"Qb 0:M3-M15"}
    empty = P("jackaroo", {}, hand_sizes={"3": 0})
    assert ref.moves(empty, ["Qr"])["discard_allowed"] is True


def test_JR_R12_usable_force_forbids_the_burn():
    assert ref.moves(P("jackaroo", {}), ["Qr", "2"])["discard_allowed"] is False


def test_JR_P7_black_jack_swaps_red_jack_moves():
    pos = P("jackaroo", {0: ["S", "S", "M5", "H1"], 1: ["S", "S", "M30", "M35"], 2: ["S", "S", "S", "M40"]})
    assert texts(pos, "Jb") == {"Jb 0:M5<>1:M30", "Jb 0:M5<>2:M40"}
    assert texts(pos, "Jr") == {"Jr 0:M5-M16"}


def test_JR_P8_king_clears_what_it_passes():
    pos = P("jackaroo", {0: ["S", "S", "S", "M0"], 1: ["S", "S", "S", "M3"], 2: ["S", "S", "S", "M6"],
                         3: ["S", "S", "S", "M13"]})
    assert texts(pos, "K") == {"K 0:S-M17", "K 0:M0-M13"}
    r = result_of(pos, "K 0:M0-M13")
    assert r["0"] == ["S", "S", "S", "M13"] and r["1"] == S4 and r["2"] == S4 and r["3"] == S4


def test_JR_P8_king_keeps_the_blocks():
    pair = P("jackaroo", {0: ["S", "S", "S", "M0"], 1: ["S", "S", "M3", "M4"]})
    assert texts(pair, "K") == {"K 0:S-M17"}
    own = P("jackaroo", {0: ["S", "S", "M0", "M5"]})
    assert texts(own, "K") == {"K 0:S-M17", "K 0:M5-M18", "K 0:M5-H1"}
    base = P("jackaroo", {0: ["S", "S", "S", "M30"], 1: ["S", "S", "S", "M35"]})
    assert texts(base, "K") == {"K 0:S-M17"}


def test_JR_P8_king_turning_in_clears_up_to_the_base_hole():
    pos = P("jackaroo", {0: ["S", "S", "S", "M8"], 1: ["S", "S", "S", "M10"], 2: ["S", "S", "S", "M17"]})
    assert texts(pos, "K") == {"K 0:S-M17", "K 0:M8-M21", "K 0:M8-H4"}
    r = result_of(pos, "K 0:M8-H4")
    assert r["0"] == ["S", "S", "S", "H4"] and r["1"] == S4 and r["2"] == S4
    assert result_of(pos, "K 0:S-M17")["2"] == S4


def test_JR_P12_partner_marbles_once_own_in_goal():
    pos = P("jackaroo", {0: ["H1", "H2", "H3", "H4"], 2: ["S", "S", "S", "M40"]})
    assert texts(pos, "A") == {"A 2:S-M53", "A 2:M40-M41"}


def test_JR_R11_ace_is_not_eleven():
    assert texts(P("jackaroo", {0: ["S", "S", "S", "M3"]}), "A") == {"A 0:S-M17", "A 0:M3-M4"}


# ------------------------------------------------------------------ notation

def test_RG_N2_each_game_its_own_ranks():
    with pytest.raises(ref.PositionError):
        ref.moves(P("tock", {}), ["JK"])
    with pytest.raises(ref.PositionError):
        ref.moves(P("jackaroo", {}), ["J"])
    with pytest.raises(ref.PositionError):
        ref.moves(P("carbles", {0: S4, 2: S4}), ["Qr"])


def test_RG_N5_switches_belong_to_their_preset():
    with pytest.raises(ref.PositionError):
        ref.moves(P("jackaroo", {}, options={"reverse_four": True}))
    with pytest.raises(ref.PositionError):
        ref.moves(P("tock", {}, options={"open_hand": True}))
    with pytest.raises(ref.PositionError):       # a waiting side holds no cards
        ref.moves(P("jackaroo", {}, waiting=[3], hand_sizes={"3": 2}))
    assert ref.moves(P("carbles", {0: S4, 2: S4}, options={"open_hand": True}), ["A"])["moves"]


# ------------------------------------------------------------------ replaying a 7

@pytest.mark.parametrize("pos", [
    P("carbles", {0: ["S", "S", "M10", "M12"], 2: S4}),
    P("carbles", {0: ["S", "S", "M14", "M17"], 2: ["S", "S", "M16", "M20"]}),
    P("jackaroo", {0: ["S", "S", "M10", "M20"], 1: ["S", "S", "S", "M15"]}),
    P("jackaroo", {0: ["S", "M14", "M17", "H1"], 2: ["S", "S", "S", "M16"]}),
])
def test_CB_P2_JR_P4_replaying_each_listed_seven_gives_its_result(pos):
    listed = ref.moves(pos, ["7"])["moves"]
    assert listed
    for m in listed:
        assert ref.play_seven(pos, m["move"]) == m["result"], m["move"]


def test_CB_P2_JR_P4_replay_refuses_illegal_sevens():
    cb = P("carbles", {0: ["S", "S", "M14", "M17"], 2: S4})
    with pytest.raises(ref.IllegalSeven):
        ref.play_seven(cb, "7 0:M17-H4 0:M14-M17")        # the marble on its home hole turns in
    with pytest.raises(ref.IllegalSeven):
        ref.play_seven(cb, "7 0:M14-M17 0:M17-M21")       # steps onto the protected marble
    with pytest.raises(ref.IllegalSeven):
        ref.play_seven(cb, "7 0:M14-M20")                 # 6 steps
    assert ref.play_seven(cb, "7 0:M17-M18 0:M14-H3")["0"] == ["S", "S", "M18", "H3"]
    jr = P("jackaroo", {0: ["S", "S", "M10", "M20"]})
    with pytest.raises(ref.IllegalSeven):
        ref.play_seven(jr, "7 0:M10-M12 0:M12-M15")       # one marble twice
    with pytest.raises(ref.IllegalSeven):
        ref.play_seven(jr, "7 0:M10-M21")                 # passes its own marble
    assert ref.play_seven(jr, "7 0:M20-M24 0:M10-M13")["0"] == ["S", "S", "M13", "M24"]
