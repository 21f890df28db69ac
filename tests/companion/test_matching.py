"""The physical-board matcher: sensor events -> exactly one legal move, or not."""
import random

import pytest

from companion.game import Game
from companion.moves import Move
from companion.board import START
from companion.matching import (BoardFollower, Occupancy, all_holes, guidance, hit_returns,
                                hole_id, judge, occupancy_from_holes, occupancy_of_pegs,
                                setup_check)
from companion.notation import position_from_json


def pos(pegs, to_move=0, rules="basic", sides=4, teams=None):
    teams = teams or [[0, 2], [1, 3]]
    full = {str(s): (pegs.get(s, []) + ["S"] * 5)[:5] if len(pegs.get(s, [])) < 5 else pegs[s]
            for s in range(sides)}
    for s in range(sides):
        got = pegs.get(s, [])
        full[str(s)] = ["S"] * (5 - len(got)) + got
    return position_from_json({"format": "pegs-and-jokers/position/1", "rules": rules,
                               "sides": sides, "teams": teams, "pegs": full,
                               "to_move": to_move})


def filled(p):
    occ = occupancy_of_pegs(p, p.pegs())
    out = set(occ.track)
    for side, n in enumerate(occ.start):
        out |= {f"S-s{side}-{i}" for i in range(1, n + 1)}
    return out


def follow(p, rank, events, settle=0.8):
    moves = list(p.legal_moves([rank]))
    f = BoardFollower(p, moves, filled(p), settle=settle, rank=rank)
    verdict = None
    for hole, occupied, t in events:
        f.feed(hole, occupied, t)
        assert f.poll(t) is None  # never judged while things change
    last = events[-1][2] if events else 0.0
    assert f.poll(last + settle - 0.01) is None  # not before the board settles
    verdict = f.poll(last + settle + 0.01)
    return f, verdict


def test_simple_move_is_matched_after_settling():
    p = pos({0: ["M10"]})
    _, v = follow(p, "5", [("M10", False, 0.0), ("M15", True, 0.4)])
    assert v.kind == "move" and v.move.text(p.geo) == "5 0:M10-M15"


def test_switch_bounce_and_a_peg_put_back_are_never_moves():
    p = pos({0: ["M10"]})
    events = [("M10", False, 0.0), ("M10", True, 0.01), ("M10", False, 0.02),
              ("M10", True, 0.03), ("M10", False, 0.5), ("M10", True, 0.9)]
    _, v = follow(p, "5", events)
    assert v.kind == "unchanged"


def test_hand_over_the_board_noise_then_the_real_move():
    p = pos({0: ["M10"], 1: ["M30"]})
    moves = list(p.legal_moves(["5"]))
    f = BoardFollower(p, moves, filled(p), settle=0.8, rank="5")
    # a sleeve knocks M30 out and the player puts it back at once
    for e in [("M30", False, 0.0), ("M30", True, 0.2)]:
        f.feed(*e)
    assert f.poll(0.5) is None
    assert f.poll(1.1).kind == "unchanged"
    for e in [("M10", False, 2.0), ("M15", True, 2.3)]:
        f.feed(*e)
    assert f.poll(2.5) is None
    v = f.poll(3.2)
    assert v.kind == "move" and v.move.text(p.geo) == "5 0:M10-M15"


def test_wrong_hole_is_explained_with_the_rule_M1():
    p = pos({0: ["M10"]})
    _, v = follow(p, "5", [("M10", False, 0.0), ("M14", True, 0.4)])
    assert v.kind == "wrong" and v.rule == "M1"
    assert v.fix == {"empty": ["M14"], "fill": ["M15"], "start": {}}  # nearest legal result


def test_M5_backing_into_home_is_explained():
    p = pos({0: ["M11"]})  # 8 back from M11 reaches M3, the in-spot; home is off limits
    _, v = follow(p, "8", [("M11", False, 0.0), ("H1-s0", True, 0.4)])
    assert v.kind == "wrong" and v.rule == "M5"


def test_M2_passing_own_peg_is_explained():
    p = pos({0: ["M10", "M12"]})
    _, v = follow(p, "4", [("M10", False, 0.0), ("M14", True, 0.4)])
    assert v.kind == "wrong" and v.rule == "M2"


def test_M7_hit_needs_the_hit_peg_back_in_start():
    p = pos({0: ["M10"], 1: ["M15"]})
    moves = list(p.legal_moves(["5"]))
    (move,) = moves
    assert hit_returns(p, move) == [(1, "M15", "start")]
    # the player moves the peg and puts the hit peg into side 1's start area
    events = [("M10", False, 0.0), ("M15", False, 0.3), ("M15", True, 0.5), ("S-s1-5", True, 0.9)]
    _, v = follow(p, "5", events)
    assert v.kind == "move" and v.move == move
    # forgetting the hit peg: not a legal result, and the fix says where it goes
    events = [("M10", False, 0.0), ("M15", False, 0.3), ("M15", True, 0.5)]
    _, v = follow(p, "5", events)
    assert v.kind == "wrong" and v.fix["start"] == {1: 1}


def test_M7_partner_hit_goes_to_its_in_spot():
    p = pos({0: ["M10"], 2: ["M15"]})
    (move,) = list(p.legal_moves(["5"]))
    assert hit_returns(p, move) == [(2, "M15", "M39")]


def test_V_AZ4_split_of_two_colours_told_apart_by_event_order():
    # Arizona: side 0 on M10, side 2 (partner) on M12. 7 split: 0 +4 -> M14, 2 +3 -> M15,
    # or 0 +5 -> M15, 2 +2 -> M14: both leave M14 and M15 filled.
    p = pos({0: ["M10"], 2: ["M12"]}, rules="arizona")
    events = [("M10", False, 0.0), ("M14", True, 0.3), ("M12", False, 0.6), ("M15", True, 0.9)]
    _, v = follow(p, "7", events)
    assert v.kind == "move"
    assert p.result_of(v.move)[0] == ["S"] * 4 + [14] or p.result_of(v.move)[0][-1] == 14
    events = [("M10", False, 0.0), ("M15", True, 0.3), ("M12", False, 0.6), ("M14", True, 0.9)]
    _, v = follow(p, "7", events)
    assert v.kind == "move" and p.result_of(v.move)[0][-1] == 15


def test_ambiguous_without_event_order_asks_the_phone():
    p = pos({0: ["M10"], 2: ["M12"]}, rules="arizona")
    moves = list(p.legal_moves(["7"]))
    observed = occupancy_from_holes(p, (filled(p) - {"M10", "M12"}) | {"M14", "M15"})
    v = judge(p, moves, observed)
    assert v.kind == "ambiguous" and len(v.candidates) == 2


def test_V_NC4_swap_seen_by_lifts_of_both_holes():
    p = pos({0: ["M10"], 1: ["M30"]}, rules="north_carolina")
    events = [("M10", False, 0.0), ("M30", False, 0.2), ("M10", True, 0.5), ("M30", True, 0.7)]
    _, v = follow(p, "2", events)
    assert v.kind == "move" and v.move.text(p.geo) == "2 0:M10<>1:M30"


def test_camera_colours_decide_between_same_occupancy_results():
    p = pos({0: ["M10"], 2: ["M12"]}, rules="arizona")
    moves = list(p.legal_moves(["7"]))
    observed = occupancy_from_holes(p, (filled(p) - {"M10", "M12"}) | {"M14", "M15"})
    v = judge(p, moves, observed, colours={"M14": 2, "M15": 0})
    assert v.kind == "move" and p.result_of(v.move)[0][-1] == 15


def test_guidance_lights_movable_pegs_then_only_the_lifted_pegs_destinations():
    p = pos({0: ["M10", "M20"]})
    moves = list(p.legal_moves(["A"]))
    g = guidance(p, moves)
    assert set(g["can_move"]) == {"M10", "M20", "S-s0-1", "S-s0-2", "S-s0-3"}
    assert set(g["destination"]) == {"M11", "M21", "M8"}
    assert guidance(p, moves, lifted="M10") == {"can_move": ["M10"], "destination": ["M11"]}


def test_setup_check_lists_what_is_out_of_place():
    p = pos({})
    holes = filled(p) - {"S-s1-5"} | {"M40"}
    d = setup_check(p, occupancy_from_holes(p, holes))
    assert d == {"empty": ["M40"], "fill": [], "start": {1: 1}}


@pytest.mark.parametrize("players,teams,preset", [(4, 2, "basic"), (6, 2, "basic"),
                                                  (4, 2, "arizona"), (6, 3, "north_carolina")])
def test_bots_play_whole_games_through_the_sensor_events_without_a_desync(players, teams, preset):
    """Every move is made physically (events hole by hole) and must be judged as that move."""
    game = Game(preset, players, teams, seed=11)
    rng = random.Random(5)
    t = 0.0
    moves_checked = 0
    while not game.is_over() and game.turn < 400:
        plays = game.legal_plays()
        play = rng.choice(plays)
        p = game.position
        if play.move.kind in ("move", "free") and play.move.steps:
            rank = play.move.rank
            cands = [m for m in p.legal_moves([rank])]
            before, after = filled(p), None
            p2 = p.copy()
            p2.push(play.move)
            after = filled(p2)
            follower = BoardFollower(p, cands, before, rank=rank)
            # As a person does it, step by step: lift the peg (and a peg it
            # hits), put it down, put the hit pegs where they go.
            steps = play.move.steps
            parts = [steps] if play.move.kind == "swap" else [steps[:i + 1] for i in range(len(steps))]
            prev = before
            for part in parts:
                q = p.copy()
                q.push(Move(play.move.rank, play.move.kind, part))
                now = filled(q)
                c, s_, d = part[-1]
                src = hole_id(p.geo, c, s_) if s_ != START else None
                dst = hole_id(p.geo, c, d) if d != START else None
                lifts = ([src] if src in prev else []) + sorted(
                    (prev - now) - {src} | ({dst} & prev & now) - {src})
                if play.move.kind == "swap":
                    lifts = sorted({hole_id(p.geo, cc, ss) for cc, ss, _ in steps})
                places = ([dst] if dst in now else []) + sorted(
                    ((now - prev) | (set(lifts) & now)) - {dst})
                if play.move.kind == "swap":
                    places = lifts[:]
                for hole in lifts:
                    t += 0.05
                    follower.feed(hole, False, t)
                for hole in places:
                    t += 0.05
                    follower.feed(hole, True, t)
                prev = now
            after = prev
            v = follower.poll(t + 1.0)
            t += 1.0
            if v is None:  # nothing changed at all (impossible for a move)
                pytest.fail(f"no change seen for {play.move.text(p.geo)}")
            assert v.kind in ("move", "ambiguous"), (v, play.move.text(p.geo))
            assert play.move in v.candidates or p.result_of(play.move) in [
                p.result_of(m) for m in v.candidates]
            moves_checked += 1
        game._push(play)
    assert moves_checked > 50


def test_all_holes_cover_the_board():
    p = pos({})
    holes = all_holes(p.geo, p.colours)
    assert len(holes) == 72 + 4 * 10 and len(set(holes)) == len(holes)
    assert occupancy_from_holes(p, filled(p)) == occupancy_of_pegs(p, p.pegs())
    with pytest.raises(ValueError):
        occupancy_from_holes(p, {"X9"})
    assert isinstance(occupancy_from_holes(p, set()), Occupancy)
