"""Jackaroo (RELATED-GAMES.md JR): one scenario test per rule id, named after it.

The Tock board: side k's base hole is M(18k+17), its goal H1-H4. Teams
{0, 2} and {1, 3}; turns pass counter-clockwise (seat s, then s-1).
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
from companion.moves import DISCARD, FORCE, HAND, MoveSyntaxError
from companion.notation import moves_report, position_from_json

from tests.companion.rg_helpers import data, full, game_where, illegal, legal, moves, pos, texts

ROOT = Path(__file__).resolve().parents[4]
T = [[0, 2], [1, 3]]


def jr(pegs, to_move=0, **kw):
    return pos("jackaroo", pegs, to_move, teams=T, **kw)


def solo(pegs, to_move=0, **kw):
    return pos("jackaroo_individual", pegs, to_move, **kw)


def has(g, rank):
    return any(g.rank_of(c) == rank for c in g.hands[g.seat])


# ------------------------------------------------------------------ geometry
def test_JR_G1_the_tock_board():
    p = jr({0: ["M15"]})
    assert p.L == 72 and texts(p, "5") == {"5 0:M15-H3", "5 0:M15-M20"}
    assert [p.sh[k] for k in range(4)] == [17, 35, 53, 71]


def test_JR_G2_turns_pass_counter_clockwise():
    p = jr({0: ["M20"]})
    p.push(p.parse_move("3 0:M20-M23"))
    assert p.to_move == 3
    g = new_game("jackaroo", players=4, seed=1, dealer=2)
    assert g.seat == 1  # the dealer's right leads
    assert moves_report(jr({0: ["M20"]}, to_move=0), ["10"])["moves"][-1]["move"] == "10 force 3"


def test_JR_G3_partners_opposite():
    g = new_game("jackaroo", players=4, seed=1)
    assert [list(t) for t in g.position.teams] == T


# --------------------------------------------------------------------- cards
def test_JR_C1_one_deck_suits_matter_for_j_and_q(tmp_path):
    g = new_game("jackaroo", players=4, seed=3)
    cards = Counter(g.shoe.stock) + sum((Counter(h) for h in g.hands), Counter())
    assert cards == Counter(make_shoe(1, 0))
    assert g.rank_of("JH") == "Jr" and g.rank_of("JS") == "Jb"
    assert g.rank_of("QD") == "Qr" and g.rank_of("QC") == "Qb"
    p = jr({0: ["M20"]})
    with pytest.raises(MoveSyntaxError):
        p.parse_move("J 0:M20-M31")
    assert p.ranks == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jr", "Jb", "Qr",
                       "Qb", "K")
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data("jackaroo", {0: ["M20"]}, teams=T)))
    for hand, code in (("Q", 2), ("JK", 2), ("Qb,Jr", 0)):
        proc = subprocess.run([sys.executable, "-m", "companion.cli", "moves", str(f), "--hand",
                               hand], cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert proc.returncode == code, proc.stderr


def _play_out_deal(g):
    deals = g.deals
    while g.deals == deals and not g.is_over():
        plays = g.legal_plays()
        g._push(next((p for p in plays if p.move.kind != HAND), plays[0]))


def test_JR_C2_deal_cycle_4_4_5():
    g = new_game("jackaroo", players=4, seed=5)
    sizes = [len(g.hands[0])]
    for _ in range(3):
        _play_out_deal(g)
        sizes.append(len(g.hands[0]))
    assert sizes == [4, 4, 5, 4] and g.shoe.reshuffles == 1


def test_JR_C3_dealt_counter_clockwise_from_the_dealers_right():
    g = new_game("jackaroo", players=4, seed=8, dealer=2)
    deck = list(g.rng.log[0])
    for i in range(16):
        assert g.hands[(1 - i) % 4][i // 4] == deck[-1 - i]
    _play_out_deal(g)
    assert (g.dealer, g.seat) == (1, 0)  # the deal passes to the right


# ------------------------------------------------------------------ movement
def test_JR_M1_full_count():
    assert texts(jr({0: ["H3"]}), "2", "3") == set()


def test_JR_M2_own_colour_blocks():
    p = jr({0: ["M20", "M22"]})
    assert texts(p, "2") == {"2 0:M22-M24"}
    illegal(p, "2 0:M20-M22", "JR-M2")
    illegal(p, "3 0:M20-M23", "JR-M2")


def test_JR_M3_no_jumping_a_pair():
    p = jr({0: ["M20"], 1: ["M22"], 3: ["M23"]})
    assert "5 0:M20-M25" not in texts(p, "5")
    illegal(p, "5 0:M20-M25", "JR-M3")
    assert {"2 0:M20-M22", "3 0:M20-M23"} <= texts(p, "2", "3")  # landing on one is fine
    wrap = jr({0: ["M69"], 1: ["M71"], 2: ["M0"]})  # M71, M0 are neighbours
    assert "5 0:M69-M2" not in texts(wrap, "5")
    goal = jr({0: ["M14"], 1: ["M16", "M17"]})  # turning in passes the base hole
    assert not any(t.startswith("5 0:") for t in texts(goal, "5"))


def test_JR_M4_base_hole_block_and_no_other_five():
    p = jr({0: ["M30", "M40"], 1: ["M35"]})
    assert "6 0:M30-M36" not in texts(p, "6") and "5 0:M30-M35" not in texts(p, "5")
    assert "5 1:M35-M40" not in texts(p, "5")
    illegal(p, "5 1:M35-M40", "JR-M4")
    assert texts(jr({0: ["M17"]}), "5") == {"5 0:M17-M22"}  # own 5 may move it on


def test_JR_M5_hits_send_to_start_partner_included():
    got = moves(jr({0: ["M20"], 2: ["M23"], 1: ["M25"]}), "3", "5")
    assert got["3 0:M20-M23"] == full({0: ["M23"], 1: ["M25"]})
    assert got["5 0:M20-M25"] == full({0: ["M25"], 2: ["M23"]})


def test_JR_M6_coming_out_with_a_or_k():
    p = jr({1: ["M17"]})
    got = moves(p, "A", "K", "Qb", "Jr")
    assert {"A 0:S-M17", "K 0:S-M17"} <= set(got) and "Qb 0:S-M17" not in got
    assert got["A 0:S-M17"] == full({0: ["M17"]})
    assert texts(jr({0: ["M17"]}), "A") == {"A 0:M17-M18"}


def test_JR_M7_into_goal_own_and_partner_never_another():
    p = jr({0: ["M17"]})
    assert texts(p, "3") == {"3 0:M17-M20"}  # stood on its base hole at the turn's start
    helping = jr({0: ["H1", "H2", "H3", "H4"], 2: ["M51"]})
    assert "3 2:M51-H1" in texts(helping, "3")
    five = jr({0: ["M40"], 3: ["M69"]})  # an opponent's marble passes its goal entry
    assert "5 3:M69-M2" in texts(five, "5") and not any("H" in t for t in texts(five, "5")
                                                         if t.startswith("5 3"))


def test_JR_M8_in_goal():
    assert texts(jr({0: ["H1", "H3"]}), "A") == {"A 0:S-M17", "A 0:H1-H2", "A 0:H3-H4"}


def test_JR_M9_backward_never_into_goal_turn_in_later():
    p = jr({0: ["M19"]})
    assert texts(p, "4") == {"4 0:M19-M15"}
    illegal(p, "4 0:M19-H1", "JR-M9")
    p.push(p.parse_move("4 0:M19-M15"))
    p.to_move = 0
    assert "5 0:M15-H3" in texts(p, "5")


# ---------------------------------------------------------------------- play
def test_JR_P1_one_card_a_turn():
    g = game_where("jackaroo", 4, lambda g: has(g, "A") or has(g, "K"))
    seat = g.seat
    g.push(next(p for p in g.legal_plays() if p.move.kind == "move"))
    assert len(g.hands[seat]) == 3 and g.seat == (seat - 1) % 4


def test_JR_P2_one_controlled_marble():
    p = jr({0: ["M20", "M40"], 2: ["M50"]})
    assert texts(p, "8") == {"8 0:M20-M28", "8 0:M40-M48"}
    illegal(p, "8 2:M50-M58", "JR-P12")


def test_JR_P3_five_moves_any_other_marble():
    p = jr({0: ["M20"], 1: ["M40", "M35"], 2: ["M50", "H1"]})
    assert texts(p, "5") == {"5 0:M20-M25", "5 1:M40-M45", "5 2:M50-M55"}
    partner = jr({0: ["M20"], 2: ["M51"]})
    assert "5 2:M51-H3" in texts(partner, "5")  # the partner's marble may turn in
    got = moves(jr({0: ["M44"], 1: ["M40"]}), "5")
    assert got["5 1:M40-M45"] == full({0: ["M44"], 1: ["M45"]})
    assert got["5 0:M44-M49"] == full({0: ["M49"], 1: ["M40"]})
    sent = moves(jr({0: ["M45"], 1: ["M40"]}), "5")
    assert sent["5 1:M40-M45"] == full({1: ["M45"]})  # lands on side 0's own marble: hit


def test_JR_P4_seven_split_over_any_number_of_marbles():
    p = jr({0: ["M10", "M30", "M50"]})
    got = texts(p, "7")
    assert {"7 0:M10-M17", "7 0:M10-M13 0:M30-M34", "7 0:M10-M11 0:M30-M32 0:M50-M54"} <= got
    legal(p, "7 0:M50-M54 0:M30-M32 0:M10-M11")  # any order
    illegal(p, "7 0:M10-M13 0:M13-M17", "JR-P4")  # different marbles
    illegal(p, "7 0:M10-M13 0:M30-M33", "JR-P4")  # parts add up to 7
    hit = moves(jr({0: ["M10", "M30"], 1: ["M13"]}), "7")
    assert hit["7 0:M10-M13 0:M30-M34"] == full({0: ["M13", "M34"]})


def test_JR_P5_ten_forces_the_next_player_to_discard():
    g = game_where("jackaroo", 4, lambda g: has(g, "10"))
    seat, target = g.seat, (g.seat - 1) % 4
    play = next(p for p in g.legal_plays() if p.move.kind == FORCE and p.move.rank == "10")
    assert play.move.text(g.position.geo) == f"10 force {target}"
    g.push(play)
    assert g.phase == "forced" and g.actor == target
    choices = g.legal_plays()
    assert {p.move.kind for p in choices} == {DISCARD} and len(choices) == len(set(g.hands[target]))
    card = choices[-1].card
    g.push(choices[-1])
    assert g.shoe.discard[-1] == card and len(g.hands[target]) == 3
    assert g.seat == (seat - 2) % 4  # his next turn was skipped
    assert g.history[-1]["public"]
    p = jr({0: ["M20"]}, hand_sizes={"3": 0})
    assert "10 force 3" not in texts(p, "10")


def test_JR_P6_red_queen_takes_a_random_card():
    g = game_where("jackaroo", 4, lambda g: has(g, "Qr"))
    seat, target = g.seat, (g.seat - 1) % 4
    other = (seat + 1) % 4
    before = list(g.hands[target])
    play = next(p for p in g.legal_plays() if p.move.rank == "Qr")
    assert play.move.text(g.position.geo) == f"Qr force {target}"
    g.push(play)
    taken = g.history[-1]["stolen"]
    assert taken in before and taken not in g.hands[target] and len(g.hands[target]) == 3
    assert g.shoe.discard[-1] == taken
    for s in (seat, target):
        v = g.player_view(s)
        assert v["discard_top"] == taken and v["log"][-1]["stolen"] == taken
    for s in (other, None):
        v = g.player_view(s)
        assert v["discard_top"] == "hidden" and "stolen" not in v["log"][-1]
        if taken not in g.hands[other]:
            assert f'"{taken}"' not in json.dumps(v)
    assert g.seat == (seat - 2) % 4
    again = Game.from_record(json.loads(json.dumps(g.record())))
    assert again.hands == g.hands  # the random card replays
    rep = moves_report(jr({0: ["M20"]}), ["Qr"])["moves"]
    assert rep == [{"card": "Qr", "move": "Qr force 3", "result": full({0: ["M20"]}),
                    "effects": {"skip": 3, "steal": 3}}]


def test_JR_P7_black_jack_swaps_red_jack_forward_11():
    p = jr({0: ["M20", "M17"], 1: ["M40", "M35"], 2: ["M60"]})
    assert texts(p, "Jb") == {"Jb 0:M20<>1:M40", "Jb 0:M20<>2:M60"}
    assert texts(p, "Jr") == {"Jr 0:M20-M31"}  # M17 can't pass its own M20 (JR-M2)
    illegal(p, "Jb 0:M17<>1:M40", "JR-P7")


def test_JR_P8_king_sends_passed_marbles_to_start():
    got = moves(jr({0: ["M20"], 1: ["M24"], 2: ["M28"], 3: ["M33"]}), "K")
    assert got["K 0:M20-M33"] == full({0: ["M33"]})
    own = jr({0: ["M20", "M25"]})
    assert "K 0:M20-M33" not in texts(own, "K")
    pair = jr({0: ["M20"], 1: ["M24", "M25"]})
    assert "K 0:M20-M33" not in texts(pair, "K")
    goal = moves(jr({0: ["M7"], 1: ["M12"], 3: ["M17"]}), "K")
    assert goal["K 0:M7-H3"] == full({0: ["H3"]})  # clears up to and including its base hole


def test_JR_P9_must_move_force_counts_then_burn():
    p = jr({0: ["M20"]})
    assert not p.discard_allowed(["10"])
    stuck = jr({}, hand_sizes={"3": 0})
    assert stuck.discard_allowed(["10", "2"]) and not stuck.discard_allowed(["10", "A"])
    g = game_where("jackaroo", 4, lambda g: not (has(g, "A") or has(g, "K") or has(g, "10")
                                                 or has(g, "Qr")))
    kinds = Counter(p.move.kind for p in g.legal_plays())
    assert kinds[DISCARD] == len({g.rank_of(c) for c in g.hands[g.seat]}) and kinds[HAND] == 1
    seat = g.seat
    g.push(next(p for p in g.legal_plays() if p.move.kind == DISCARD))
    assert len(g.hands[seat]) == 3


def test_JR_P10_giving_up_the_hand():
    g = game_where("jackaroo", 4, lambda g: has(g, "A"))
    seat = g.seat
    play = next(p for p in g.legal_plays() if p.move.kind == HAND)
    assert play.move.text(g.position.geo) == "discard hand" and play.card is None
    g.push(play)
    assert g.hands[seat] == [] and g.record()["moves"][-1] == {"move": "discard hand", "card": None}
    assert "discard hand" not in {m["move"] for m in moves_report(jr({0: ["M20"]}))["moves"]}


def test_JR_P11_skips_and_empty_hands_and_lapse():
    g = game_where("jackaroo", 4, lambda g: has(g, "10"))
    seat, target = g.seat, (g.seat - 1) % 4
    g.push(next(p for p in g.legal_plays() if p.move.kind == FORCE))
    g.push(g.legal_plays()[0])
    assert g.skips[target] == 0 and g.seat == (seat - 2) % 4
    d = data("jackaroo", {}, teams=T, skips={"3": 1}, waiting=[1], hand_sizes={"1": 0})
    p = position_from_json(json.dumps(d))
    assert p.skips[3] == 1 and p.to_move == 0 and p.waiting == {1}
    bad = data("jackaroo", {}, teams=T, waiting=[1], hand_sizes={"1": 2})
    with pytest.raises(Exception, match="waiting"):
        position_from_json(json.dumps(bad))
    # skips lapse at the end of the deal
    h = game_where("jackaroo", 4, lambda g: has(g, "Qr"))
    h.push(next(p for p in h.legal_plays() if p.move.rank == "Qr"))
    deals = h.deals
    while h.deals == deals:
        h._push(next(p for p in h.legal_plays() if p.move.kind != FORCE))
    assert h.skips == [0, 0, 0, 0]


def test_JR_P12_partner_marbles_once_all_home():
    p = jr({0: ["H1", "H2", "H3", "H4"], 2: ["M50"]})
    assert texts(p, "2") == {"2 2:M50-M52"}
    q = jr({0: ["H2", "H3", "H4", "M16"], 2: ["M50"]})
    assert texts(q, "2") == {"2 0:M16-M18", "2 0:M16-H1"}


def test_JR_P13_team_wins_with_all_eight():
    p = jr({0: ["H1", "H2", "H3", "H4"], 2: ["H2", "H3", "H4", "M52"]})
    p.push(p.parse_move("2 2:M52-H1"))
    assert p.winner() == 0


def test_JR_V1_individual():
    p = solo({0: ["M20"], 2: ["M51"]})
    assert "5 2:M51-M56" in texts(p, "5") and "5 2:M51-H3" not in texts(p, "5")
    g = new_game("jackaroo_individual", players=4, seed=2)
    assert len(g.position.teams) == 4


# ------------------------------------------------------------------ rulings
def test_JR_R2_deal_4_4_5():
    assert new_game("jackaroo", players=4, seed=1).rules.deal == (4, 4, 5)


def test_JR_R3_landing_on_own_is_illegal():
    illegal(jr({0: ["M20", "M23"]}), "3 0:M20-M23", "JR-M2")


def test_JR_R4_pair_binds_every_move():
    p = jr({0: ["M30", "M10"], 1: ["M27", "M28"]})
    assert "4 0:M30-M26" not in texts(p, "4")
    assert not any("0:M10-M" in t and int(t.split("-M")[-1].split()[0]) > 28
                   for t in texts(p, "7") if t.count(":") == 1)


def test_JR_R5_king_stops_at_own_colour_pairs_and_base_holes():
    assert texts(jr({0: ["M25"], 1: ["M35"]}, to_move=0), "K") == {"K 0:S-M17"}


def test_JR_R7_random_card_drawn_by_the_referee_and_forces_need_cards():
    assert texts(jr({}, waiting=[3], hand_sizes={"3": 0}), "Qr", "10") == set()


def test_JR_R9_black_jack_needs_another_colour():
    assert texts(jr({0: ["M20", "M40"]}), "Jb") == set()


def test_JR_R10_seven_one_marble_may_take_all():
    assert "7 0:M20-M27" in texts(jr({0: ["M20", "M40"]}), "7")


def test_JR_R11_ace_is_one_or_come_out():
    assert texts(jr({0: ["M20"]}), "A") == {"A 0:S-M17", "A 0:M20-M21"}


def test_JR_R12_usable_force_forbids_burning():
    p = jr({})
    assert not p.discard_allowed(["10"]) and not p.discard_allowed(["Qr"])
    illegal(p, "10 discard", "JR-P9")


def test_JR_R13_marbles_in_goal_move_deeper():
    assert "2 0:H1-H3" in texts(jr({0: ["H1"]}), "2")


def test_JR_R1_one_base_hole_for_coming_out_and_turning_in():
    p = jr({0: ["M15"]})
    assert "A 0:S-M17" in texts(p, "A") and "5 0:M15-H3" in texts(p, "5")


def test_JR_R6_five_never_moves_marbles_in_goal_or_start():
    p = jr({0: ["M20"], 1: ["H1", "H2"], 3: ["M60"]})
    assert texts(p, "5") == {"5 0:M20-M25", "5 3:M60-M65"}


def test_JR_R8_giving_up_the_hand_only_as_ones_own_turn():
    g = game_where("jackaroo", 4, lambda g: has(g, "10"))
    g.push(next(p for p in g.legal_plays() if p.move.kind == FORCE))
    from companion.moves import IllegalMoveError
    with pytest.raises(IllegalMoveError):
        g.push_text("discard hand")
