"""companion.referee: the board referee's decisions, with no Flask, no threads and no sleeping.

The game is a `companion.game.Game`; the board is a set of filled holes fed to the
referee as sensor events; time is a number passed in."""
from __future__ import annotations

import pytest

from companion.families import new_game
from companion.board import START
from companion.game import Game
from companion.matching import board_of_pegs, hole_id
from companion.notation import pegs_to_json, position_from_json
from companion.referee import GameView, Referee, RefereeError

NAMES = ["Ann", "Bob", "Cy", "Di"]
COLOURS = ["Red", "Blue", "Green", "Yellow"]


class Table:
    """A game, its version, and a referee on a board whose filled holes the test sets."""

    def __init__(self, seed=0, preset="basic", bots=None, sensing=True, settle=0.8, filled=()):
        self.preset = preset
        self.game = new_game(preset, 4, seed=seed)
        self.version = 1
        self.bots = bots or [False] * 4
        self.t = 100.0
        self.ref = Referee(sensing=sensing, settle=settle, filled=filled)
        self.update()

    def view(self) -> GameView:
        return GameView.of(self.game, self.version, names=NAMES, colour_names=COLOURS, bots=self.bots)

    def update(self):
        return self.ref.update_game(self.view(), self.t)

    def event(self, hole, occupied, dt=0.1):
        self.t += dt
        self.ref.on_event(hole, occupied, self.t)

    def set_up(self):
        for side in self.game.seat_side:
            for i in range(1, 6):
                self.event(f"S-s{side}-{i}", True, dt=0.01)

    def judge(self, dt):
        self.t += dt
        return self.ref.judge(self.t)

    def commit(self, commit):
        self.game.push_text(commit.text, commit.card)
        self.version += 1
        self.ref.committed(commit, self.version, self.t)
        self.update()

    def come_out(self):
        """A legal come-out play of the acting seat (seeds are chosen to have one)."""
        for play in self.game.legal_plays():
            if play.move.steps and play.move.steps[0][1] == START and play.card:
                return play
        raise AssertionError("this seed's deal has no come-out card: choose another seed")


def test_set_up_lights_every_start_hole_then_the_board_is_ready():
    tb = Table(seed=0)
    ref = tb.ref
    assert ref.state == "setup"
    assert set(ref.leds(tb.t)) == {f"S-s{s}-{i}" for s in range(4) for i in range(1, 6)}
    assert set(ref.leds(tb.t).values()) == {"legal"}
    tb.set_up()
    assert ref.state == "ready" and ref.leds(tb.t) == {} and "to play" in ref.message
    assert ref.ready_version == tb.version


def test_a_stray_peg_is_named_and_blinks():
    tb = Table(seed=0)
    tb.set_up()
    tb.event("M30", True)
    assert tb.ref.state == "restore" and tb.ref.leds(tb.t) == {"M30": "wrong"}
    assert tb.ref.fix_text == ["take the peg out of hole 30"]
    tb.event("M30", False)
    assert tb.ref.state == "ready"


def test_a_move_is_committed_only_once_the_board_has_settled():
    tb = Table(seed=0)
    tb.set_up()
    play = tb.come_out()
    side = play.move.steps[0][0]
    dest = hole_id(tb.game.position.geo, side, play.move.steps[0][2])
    tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    assert tb.ref.state == "following" and tb.ref.leds(tb.t)[dest] == "legal"
    assert tb.ref.public()["rank"] == play.move.rank and play.card not in str(tb.ref.public())
    tb.event(f"S-s{side}-5", False)
    assert tb.ref.leds(tb.t) == {f"S-s{side}-5": "selected", dest: "legal"}
    tb.event(dest, True)
    assert tb.judge(0.75) is None                      # still settling
    commit = tb.judge(0.1)
    assert commit is not None and commit.move == play.move and commit.card == play.card
    tb.commit(commit)
    assert tb.ref.state in ("ready", "waiting") and tb.ref.leds(tb.t) == {dest: "selected"}   # the flash
    assert tb.ref.leds(tb.t + 1.1) == {}


def test_a_lifted_and_replaced_peg_is_not_a_move():
    tb = Table(seed=0)
    tb.set_up()
    play = tb.come_out()
    side = play.move.steps[0][0]
    tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.event(f"S-s{side}-5", False)
    tb.event(f"S-s{side}-5", True, dt=0.3)
    assert tb.judge(1.0) is None and tb.ref.state == "following"


def test_a_wrong_hole_says_the_rule_and_how_to_put_it_right():
    tb = Table(seed=0)
    tb.set_up()
    play = tb.come_out()
    side = play.move.steps[0][0]
    dest = hole_id(tb.game.position.geo, side, play.move.steps[0][2])
    wrong = f"M{(int(dest[1:]) + 3) % 72}"
    tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.event(f"S-s{side}-5", False)
    tb.event(wrong, True)
    assert tb.judge(1.0) is None
    assert tb.ref.state == "wrong" and tb.ref.rule and tb.ref.leds(tb.t)[wrong] == "wrong"
    colour = COLOURS[tb.game.side_seat[side]]
    assert tb.ref.fix_text == [f"take {colour}'s peg out of hole {wrong[1:]}", f"put {colour}'s peg in hole {dest[1:]}"]
    assert tb.ref.led_colours() == {dest: side}         # the hole lit in the colour of the peg it wants


def test_a_stale_choice_is_refused_and_nothing_is_judged_in_a_fault():
    tb = Table(seed=0)
    tb.set_up()
    play = tb.come_out()
    with pytest.raises(RefereeError):
        tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version - 1, tb.t)
    side = play.move.steps[0][0]
    dest = hole_id(tb.game.position.geo, side, play.move.steps[0][2])
    tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.event(f"S-s{side}-5", False)
    tb.event(dest, True)
    assert tb.ref.judge(tb.t + 2, faults=["chip 2 reads all ones"]) is None
    assert tb.ref.state == "fault" and "chip 2" in tb.ref.message
    assert tb.ref.judge(tb.t + 3) is not None          # cleared: the settled move is taken


def test_a_move_made_on_a_phone_lights_the_pegs_to_move_and_a_computer_waits_for_the_board():
    tb = Table(seed=0, bots=[False, True, False, True])
    tb.set_up()
    play = tb.come_out()
    tb.game.push(play.move, play.card)                 # entered on the phone
    tb.version += 1
    tb.update()
    side = play.move.steps[0][0]
    dest = hole_id(tb.game.position.geo, side, play.move.steps[0][2])
    assert tb.ref.state == "sync" and "played" in tb.ref.message
    assert tb.ref.leds(tb.t)[dest] == "legal" and "can-move" in tb.ref.leds(tb.t).values()
    tb.ref.kick = False
    tb.event(f"S-s{side}-5", False)
    tb.event(dest, True)
    assert tb.ref.state in ("ready", "waiting") and tb.ref.ready_version == tb.version
    assert tb.ref.kick == tb.bots[tb.game.actor]       # a computer seat may go on only now


def test_leds_only_shows_the_choices_and_the_move_made():
    tb = Table(seed=0, sensing=False)
    assert tb.ref.state == "ready"
    play = tb.come_out()
    tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    assert tb.ref.state == "following" and "legal" in tb.ref.leds(tb.t).values()
    tb.game.push(play.move, play.card)
    tb.version += 1
    tb.update()
    side = play.move.steps[0][0]
    dest = hole_id(tb.game.position.geo, side, play.move.steps[0][2])
    assert tb.ref.leds(tb.t)[dest] == "legal"          # the move shown until the next card ...
    assert tb.ref.led_colours() == {dest: side}         # ... the hole in the colour of the peg it gets


def test_a_board_that_sees_colours_refuses_pegs_of_the_wrong_colour():
    tb = Table(seed=0)
    tb.set_up()
    g = tb.game
    a, b = g.seat_side[0], g.seat_side[1]
    ha, hb = f"M{a * 18 + 8}", f"M{b * 18 + 8}"
    # both pegs stand where the game has them, but each in the other's hole
    pegs = pegs_to_json(g.position)
    pegs[str(a)] = ["S"] * 4 + [ha]
    pegs[str(b)] = ["S"] * 4 + [hb]
    new = position_from_json({"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4,
                              "teams": [[0, 2], [1, 3]], "pegs": pegs, "to_move": g.position.to_move})
    g.position.occ, g.position.start = new.occ, new.start
    tb.version += 1
    tb.ref.see_colours({ha: b, hb: a}, tb.t)
    for side, hole in ((a, ha), (b, hb)):
        tb.event(f"S-s{side}-5", False)
        tb.event(hole, True)
    tb.update()
    ref = tb.ref
    assert ref.state == "restore" and ref.ready_version is None
    name_a, name_b = COLOURS[g.side_seat[a]], COLOURS[g.side_seat[b]]
    assert sorted(ref.fix_text) == sorted([f"take {name_b}'s peg out of hole {ha[1:]} and put {name_a}'s peg there",
                                           f"take {name_a}'s peg out of hole {hb[1:]} and put {name_b}'s peg there"])
    assert ref.leds(tb.t) == {ha: "wrong", hb: "wrong"} and ref.led_colours() == {ha: a, hb: b}
    tb.ref.see_colours({ha: a, hb: b}, tb.t)   # put right
    assert ref.state == "ready" and ref.leds(tb.t) == {}


# ------------------------------------------------------------------ camera readings (issue 16.3)

def set_position(tb, preset, pegs_by_side, hand=None):
    g = tb.game
    pegs = pegs_to_json(g.position)
    for side, locs in pegs_by_side.items():
        pegs[str(side)] = locs
    new = position_from_json({"format": "pegs-and-jokers/position/1", "rules": preset, "sides": 4,
                              "teams": [[0, 2], [1, 3]], "pegs": pegs, "to_move": g.position.to_move})
    g.position.occ, g.position.start = new.occ, new.start
    if hand:
        g.hands[g.actor] = [hand] + g.hands[g.actor][1:]
    tb.version += 1


def camera_readings(tb, board, p=0.96, q=0.9, odd=None):
    """What a camera reads off `board` ({hole: side}): every hole, at confidence p (peg) and q
    (colour); `odd` overrides single holes."""
    from companion.matching import all_holes
    out = {}
    for h in all_holes(tb.game.position.geo, range(4)):
        out[h] = (p, board[h], q) if h in board else (1 - p, None, 0.0)
    out.update(odd or {})
    return out


def board_of(tb, pegs):
    return board_of_pegs(tb.ref.pos, pegs)


def test_camera_takes_a_swap_by_the_colours_it_reads():
    # V-NC4: a 2 swaps two pegs of different colours: no hole changes occupancy, only colours do
    tb = Table(seed=0, preset="north_carolina")
    tb.set_up()
    set_position(tb, "north_carolina", {0: ["S"] * 4 + ["M20"], 1: ["S"] * 4 + ["M40"]}, hand="2H")
    pos = tb.game.position
    tb.ref.observe_readings(camera_readings(tb, board_of(tb, pos.pegs())), tb.t)
    tb.update()
    assert tb.ref.state == "ready"
    tb.ref.choose(tb.game.actor, "2H", "2", tb.version, tb.t)
    swap = next(m for m in pos.legal_moves(["2"]) if m.kind == "swap")
    tb.t += 0.5
    tb.ref.observe_readings(camera_readings(tb, board_of(tb, pos.result_of(swap))), tb.t)
    assert tb.judge(0.5) is None                       # settling
    commit = tb.judge(0.4)
    assert commit is not None and commit.move == swap and commit.text == "2 0:M20<>1:M40"


def test_camera_takes_a_clear_result_despite_a_misread_hole_elsewhere():
    tb = Table(seed=0)
    tb.set_up()
    pos = tb.game.position
    play = tb.come_out()
    noisy = {"M50": (0.6, 3, 0.5)}                     # a shadow reads like a peg in an empty hole
    tb.ref.observe_readings(camera_readings(tb, board_of(tb, pos.pegs()), odd=noisy), tb.t)
    tb.ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.t += 0.3
    tb.ref.observe_readings(camera_readings(tb, board_of(tb, pos.result_of(play.move)), odd=noisy), tb.t)
    commit = tb.judge(1.0)
    assert commit is not None and commit.move == play.move


def test_camera_unsure_between_results_asks_the_phone_naming_the_holes():
    tb = Table(seed=0)
    tb.set_up()
    pos = tb.game.position
    set_position(tb, "basic", {0: ["S"] * 4 + ["M20"]}, hand="5H")
    tb.ref.observe_readings(camera_readings(tb, board_of(tb, tb.game.position.pegs())), tb.t)
    tb.update()
    pos = tb.game.position
    tb.ref.choose(tb.game.actor, "5H", "5", tb.version, tb.t)
    (move,) = [m for m in pos.legal_moves(["5"]) if m.steps]
    after = board_of(tb, pos.result_of(move))
    # a hand's shadow: the destination half-read, the source unsure too
    odd = {"M25": (0.55, None, 0.0), "M20": (0.45, None, 0.0)}
    tb.t += 0.3
    tb.ref.observe_readings(camera_readings(tb, after, odd=odd), tb.t)
    assert tb.judge(1.0) is None
    assert tb.ref.state == "ambiguous" and set(tb.ref.public()["doubtful"]) == {"M20", "M25"}
    assert "hole 25" in tb.ref.message and "choose yours on the phone" in tb.ref.message
    assert [c["move"] for c in tb.ref.candidates] == [move.text(pos.geo)]
    # the same picture read clearly is taken
    tb.t += 0.3
    tb.ref.observe_readings(camera_readings(tb, after), tb.t)
    commit = tb.judge(1.0)
    assert commit is not None and commit.move == move


def test_camera_never_takes_a_result_a_sure_reading_contradicts():
    tb = Table(seed=0)
    tb.set_up()
    set_position(tb, "basic", {0: ["S"] * 4 + ["M20"]}, hand="5H")
    pos = tb.game.position
    tb.ref.observe_readings(camera_readings(tb, board_of(tb, pos.pegs())), tb.t)
    tb.update()
    tb.ref.choose(tb.game.actor, "5H", "5", tb.version, tb.t)
    # the peg put in M24, one short: M20 surely empty, M24 surely filled, M25 surely empty
    wrong = dict(board_of(tb, pos.pegs()))
    del wrong["M20"]
    wrong["M24"] = 0
    tb.t += 0.3
    tb.ref.observe_readings(camera_readings(tb, wrong, p=0.99), tb.t)
    assert tb.judge(1.0) is None and tb.ref.state == "wrong" and tb.ref.rule
