"""companion.referee: the board referee's decisions, with no Flask, no threads and no sleeping.

The game is a `companion.game.Game`; the board is a set of filled holes fed to the
referee as sensor events; time is a number passed in."""
from __future__ import annotations

import pytest

from companion.board import START
from companion.game import Game
from companion.matching import hole_id
from companion.notation import pegs_to_json, position_from_json
from companion.referee import GameView, Referee, RefereeError

NAMES = ["Ann", "Bob", "Cy", "Di"]
COLOURS = ["Red", "Blue", "Green", "Yellow"]


class Table:
    """A game, its version, and a referee on a board whose filled holes the test sets."""

    def __init__(self, seed=0, preset="basic", bots=None, sensing=True, settle=0.8, filled=()):
        self.game = Game(preset, 4, seed=seed)
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
    assert tb.ref.leds(tb.t)[dest] == "legal"          # the move shown until the next card


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
