"""The physical-board matcher: sensor events -> exactly one legal move, or not."""
import random

import pytest

from companion.families import new_game
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
    game = new_game(preset, players, teams, seed=11)
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
            before = filled(p)
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


# ------------------------------------------------------------------ stages (LED guidance on the way)

def _occ(p, holes):
    return occupancy_from_holes(p, holes)


def test_stages_light_the_lifted_pegs_destinations_only():
    from companion.matching import stages
    p = pos({0: ["M10", "M20"]})
    st = stages(p, list(p.legal_moves(["A"])))
    start = filled(p)
    first = st[_occ(p, start)]
    assert first.can_move == {"M10", "M20", "S-s0"} and first.destination == {"M11", "M21", "M8"}
    lifted = st[_occ(p, start - {"M10"})]
    assert lifted.selected == {"M10"} and lifted.destination == {"M11"} and not lifted.done
    out_of_start = st[_occ(p, start - {"S-s0-3"})]
    assert out_of_start.selected == {"S-s0"} and out_of_start.destination == {"M8"}
    assert st[_occ(p, start - {"M10"} | {"M11"})].done


def test_stages_of_a_hit_show_where_the_hit_peg_goes_until_it_is_there():
    from companion.matching import stages
    p = pos({0: ["M10"], 1: ["M15"]})
    st = stages(p, list(p.legal_moves(["5"])))
    start = filled(p)
    # the hit peg taken off first, then the mover lifted
    s1 = st[_occ(p, start - {"M15"})]
    assert s1.destination == {"M15"} and s1.hits == [(1, "M15", "start")]
    s2 = st[_occ(p, start - {"M15", "M10"})]
    assert s2.selected == {"M10"} and s2.hits == [(1, "M15", "start")]
    # the mover is down, the hit peg is still in the hand
    s3 = st[_occ(p, start - {"M10"})]
    assert s3.placed and s3.hits == [(1, "M15", "start")] and not s3.done
    # and once it is in its start area the result is complete
    assert st[_occ(p, start - {"M10"} | {"S-s1-5"})].done


def test_stages_of_a_split_guide_the_second_part_in_either_order():
    from companion.matching import stages
    p = pos({0: ["M10", "M30"]})
    moves = list(p.legal_moves(["7"]))
    st = stages(p, moves)
    start = filled(p)
    # M10 +3 done: what's left is a 4 for the peg on M30 (or other splits ending on M13)
    after_first = st[_occ(p, start - {"M10"} | {"M13"})]
    assert "M30" in after_first.can_move and "M34" in after_first.destination
    # M30 +4 first, then M10 +3: the same move made in the other order
    other = st[_occ(p, start - {"M30"} | {"M34"})]
    assert "M10" in other.can_move and "M13" in other.destination


def test_stages_of_a_partner_hit_chain_accept_the_returns_in_any_order():
    from companion.matching import stages
    # side 0 hits partner side 2 on M15; side 2's peg goes to its in-spot M39, where side 1 stands
    p = pos({0: ["M10"], 2: ["M15"], 1: ["M39"]})
    (move,) = list(p.legal_moves(["5"]))
    assert hit_returns(p, move) == [(1, "M39", "start"), (2, "M15", "M39")]
    st = stages(p, [move])
    start = filled(p)
    both_pending = st[_occ(p, start - {"M10", "M39"})]
    assert both_pending.placed and len(both_pending.hits) == 2
    # M39 refilled by the partner's peg with side 1's in the hand, or the partner's peg in the
    # hand with side 1's still on M39: occupancy can't tell, both are on the way
    partner_in = st[_occ(p, start - {"M10"})]
    assert (1, "M39", "start") in partner_in.hits
    # side 1's peg put in its start first, the partner's peg in the hand: M39 empty
    assert st[_occ(p, start - {"M10", "M39"} | {"S-s1-5"})].hits == [(2, "M15", "M39")]
    # nothing moved yet but the hit pegs lifted: the mover's peg is still to move
    early = st[_occ(p, start - {"M15", "M39"})]
    assert early.can_move == {"M10"} and early.destination == {"M15"} and len(early.hits) == 2


def test_camera_snapshots_feed_the_follower_with_colours():
    p = pos({0: ["M10"], 2: ["M12"]}, rules="arizona")
    moves = list(p.legal_moves(["7"]))
    f = BoardFollower(p, moves, filled(p), settle=0.8, rank="7")
    snap = {h: None for h in all_holes(p.geo, p.colours)}
    for h in filled(p):
        snap[h] = int(h.split("-s")[1].split("-")[0]) if h.startswith("S-") else None
    snap.update({"M10": None, "M12": None, "M14": 2, "M15": 0})
    f.observe(snap, 1.0)
    assert f.poll(1.5) is None
    v = f.poll(1.9)
    assert v.kind == "move" and p.result_of(v.move)[0][-1] == 15


def test_camera_sees_a_swap_by_colour_alone():
    p = pos({0: ["M10"], 1: ["M30"]}, rules="north_carolina")
    f = BoardFollower(p, list(p.legal_moves(["2"])), filled(p), settle=0.8, rank="2")
    snap = {h: None for h in all_holes(p.geo, p.colours)}
    for h in filled(p):
        snap[h] = int(h.split("-s")[1].split("-")[0]) if h.startswith("S-") else None
    snap.update({"M10": 1, "M30": 0})
    f.observe(snap, 2.0)
    v = f.poll(3.0)
    assert v.kind == "move" and v.move.text(p.geo) == "2 0:M10<>1:M30"


def test_stage_index_agrees_with_the_full_table_in_played_games():
    from companion.matching import StageIndex, stages
    game = new_game("north_carolina", 6, 2, seed=4)
    rng = random.Random(2)
    checked = 0
    while not game.is_over() and game.turn < 70:
        p = game.position
        for rank in sorted({pl.move.rank for pl in game.legal_plays()}):
            moves = [m for m in p.legal_moves([rank]) if m.steps]
            if not moves:
                continue
            full = stages(p, moves)
            index = StageIndex(p, moves)
            before = occupancy_of_pegs(p, p.pegs())
            norm = lambda st: st and (st.can_move, st.selected, st.destination,  # noqa: E731
                                      sorted(st.hits), st.placed, st.done)
            # the board as it was: every move's first step (the index leaves out the rare moves
            # that pass through the same occupancy again: a hit into the in-spot just left)
            got, want = index.get(before), full.get(before)
            assert got.can_move <= want.can_move and got.destination <= want.destination
            assert {m.steps[0][0] for m in moves if m.kind != "swap"} <= {
                int(h.split("-s")[1]) for h in got.can_move if h.startswith("S-s")} | set(
                p.colour_at(int(h[1:])) for h in got.can_move if h.startswith("M")) | set(
                int(h.split("-s")[1]) for h in got.can_move if h.startswith("H"))
            for occ in rng.sample(sorted(full, key=repr), min(15, len(full))):
                got, want = norm(index.get(occ)), norm(full[occ])
                if got != want:   # only boards reached by lifting chain victims first may differ
                    changed = (before.track ^ occ.track)
                    assert got is None or not changed, (occ, got, want)
                checked += 1
        game._push(rng.choice(game.legal_plays()))
    assert checked > 150


def test_hit_returns_follow_a_chain_into_the_moving_colour_R9():
    # North Carolina 10: side 3's peg goes M67 -> M75 (side 4's in-spot), then side 3's other
    # peg M89 -> M91 hits side 4 (the mover's partner), which goes to M75 and hits side 3 there
    p = pos({3: ["M67", "M89"], 4: ["M91"], 0: ["H1"], 2: ["H1"]}, rules="north_carolina", sides=6,
            teams=[[0, 2, 4], [1, 3, 5]], to_move=2)
    move = Move.from_text("10 3:M67-M75 3:M89-M91", p.geo)
    assert move in list(p.legal_moves(["10"]))
    assert hit_returns(p, move) == [(3, "M75", "start"), (4, "M91", "M75")]
