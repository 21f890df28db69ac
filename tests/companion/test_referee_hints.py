"""companion.referee: a hint on the board (issue 17 point 3). With a board, the LEDs show the
acting seat's hinted move in the hint look ("hint", hardware.leds.ROLES): its peg(s) and where
they go, while the board is ready and that seat acts; cleared when a card is chosen, the move
is made or the turn passes. Pure: no Flask, no threads, no sleeping."""
from __future__ import annotations

from companion.board import START
from companion.moves import Move
from companion.words import rank_name

from tests.companion.test_referee import COLOURS, NAMES, Table, set_position
from companion.referee import GameView


class HintTable(Table):
    """A `Table` whose view carries a hint ({"seat", "move"}) while `hint` is set."""

    hint = None

    def view(self) -> GameView:
        return GameView.of(self.game, self.version, names=NAMES, colour_names=COLOURS, bots=self.bots,
                           hint=self.hint)

    def give_hint(self, move: Move, seat=None):
        self.hint = {"seat": self.game.actor if seat is None else seat, "move": move}
        self.version += 1           # a hint is an event of the table's log: a new version
        self.update()


def test_the_hinted_come_out_lights_the_peg_and_its_hole_in_the_hint_look():
    tb = HintTable(seed=0)
    tb.set_up()
    play = tb.come_out()
    side = play.move.steps[0][0]
    come_out = f"M{side * 18 + 8}"
    tb.give_hint(play.move)
    ref = tb.ref
    assert ref.state == "ready"
    assert ref.leds(tb.t) == {f"S-s{side}-5": "hint", come_out: "hint"}
    assert ref.led_colours() == {}                     # the hint's own colour, not a peg's
    pub = str(ref.public())
    assert play.card not in pub and rank_name(play.move.rank) not in ref.message   # nothing names the card
    assert "hint's move" in ref.message
    # the seat chooses a card: the board follows it, the hint's look gives way
    ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    assert ref.state == "following" and "hint" not in ref.leds(tb.t).values()
    # ... and goes back: the hint shows again
    ref.choose(tb.game.actor, None, None, tb.version, tb.t)
    assert ref.leds(tb.t) == {f"S-s{side}-5": "hint", come_out: "hint"}
    # the move is made on the board: the game moves on and the hint is gone
    ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.event(f"S-s{side}-5", False)
    tb.event(come_out, True)
    commit = tb.judge(1.0)
    assert commit is not None and commit.move == play.move
    tb.hint = None                                     # the table's current hint ends with the move
    tb.commit(commit)
    assert "hint" not in ref.leds(tb.t).values() and "hint" not in ref.leds(tb.t + 2).values()


def test_a_hint_shows_only_while_its_seat_acts():
    tb = HintTable(seed=0)
    tb.set_up()
    play = tb.come_out()
    other = (tb.game.actor + 1) % 4
    tb.give_hint(play.move, seat=other)                # not the acting seat: GameView drops it
    assert tb.ref.game.hint is None and tb.ref.leds(tb.t) == {}
    # a view that still carries a stale hint after the turn passed lights nothing either
    tb.ref.game.hint = {"seat": other, "move": play.move}
    assert tb.ref.hint_holes() == []


def test_a_split_and_a_swap_light_every_peg_and_destination():
    tb = HintTable(seed=0)
    tb.set_up()
    actor_side = tb.game.seat_side[tb.game.actor]
    mate = (actor_side + 2) % 4
    set_position(tb, "basic", {actor_side: ["S"] * 3 + ["M20", "M30"], mate: ["S"] * 5}, hand="7H")
    for hole in ("S-s{0}-5", "S-s{0}-4"):
        tb.event(hole.format(actor_side), False)
    tb.event("M20", True)
    tb.event("M30", True)
    tb.update()
    assert tb.ref.state == "ready"
    pos = tb.game.position
    split = next(m for m in pos.legal_moves(["7"]) if len(m.steps) == 2)
    holes = {f"M{loc}" for c, s, d in split.steps for loc in (s, d)}
    tb.give_hint(split)
    assert tb.ref.leds(tb.t) == {h: "hint" for h in holes} and len(holes) == 4
    swap = Move("J", "swap", ((actor_side, 20, 40), ((actor_side + 1) % 4, 40, 20)))
    tb.give_hint(swap)                                 # the holes of both pegs of a swap
    assert tb.ref.leds(tb.t) == {"M20": "hint", "M40": "hint"}


def test_a_play_that_moves_no_peg_lights_nothing_and_a_board_out_of_step_shows_no_hint():
    tb = HintTable(seed=0)
    tb.set_up()
    tb.give_hint(Move("6", "discard"))
    assert tb.ref.state == "ready" and tb.ref.leds(tb.t) == {}
    play = tb.come_out()
    side = play.move.steps[0][0]
    tb.event("M40", True)                              # a knocked peg: the board must be put right first
    tb.give_hint(play.move)
    assert tb.ref.state == "restore" and "hint" not in tb.ref.leds(tb.t).values()
    tb.event("M40", False)
    assert tb.ref.state == "ready" and tb.ref.leds(tb.t)[f"S-s{side}-5"] == "hint"


def test_leds_only_shows_the_hint_over_the_last_move():
    tb = HintTable(seed=0, sensing=False)
    play = tb.come_out()
    tb.game.push(play.move, play.card)                 # entered on the phone
    tb.version += 1
    tb.update()
    shown = dict(tb.ref.leds(tb.t))
    assert "legal" in shown.values()                   # the move just made stays lit
    nxt = next(p for p in tb.game.legal_plays() if p.move.steps)
    tb.give_hint(nxt.move)
    lit = tb.ref.leds(tb.t)
    hinted = set(tb.ref.hint_holes())
    assert hinted and {h for h, r in lit.items() if r == "hint"} == hinted
    assert {h: r for h, r in lit.items() if h not in hinted} == {h: r for h, r in shown.items()
                                                                  if h not in hinted}


def test_related_games_hints_light_every_step_and_a_force_nothing():
    # issue 18 with 17.3: a Carbles 7's parts, a Jackaroo force (no peg moves)
    from tests.companion.refkit import BoardTable
    tb = BoardTable("carbles", 4, None, seed=3)
    g = tb.game
    me = g.seat_side[g.actor]
    a, b = 18 * me + 1, 18 * me + 30
    tb.arrange({me: ["S", "S", f"M{a}", f"M{b}"]}, hand=["7C", "2C"])
    seven = next(x for x in g.position.legal_moves(["7"]) if len(x.steps) == 2)
    tb.ref.game.hint = {"seat": g.actor, "move": seven}
    tb.ref._evaluate(tb.t)
    want = {f"M{loc}" for _, s, d in seven.steps for loc in (s, d)}
    assert {h for h, r in tb.ref.leds(tb.t).items() if r == "hint"} == want
    tb = BoardTable("jackaroo", 4, 2, seed=3)
    force = next(p.move for p in tb.game.legal_plays() if p.move.kind == "force") \
        if any(p.move.kind == "force" for p in tb.game.legal_plays()) else Move("10", "force", (1,))
    tb.ref.game.hint = {"seat": tb.game.actor, "move": force}
    assert tb.ref.hint_holes() == []


def test_a_hint_arriving_keeps_the_card_chosen_and_the_move_half_made():
    """A hint is a new version of the table, not a new game: the card already chosen on the
    phone and the pegs already lifted stay followed, and the board stays in sync."""
    tb = HintTable(seed=0)
    tb.set_up()
    play = tb.come_out()
    side = play.move.steps[0][0]
    come_out = f"M{side * 18 + 8}"
    ref = tb.ref
    ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.event(f"S-s{side}-5", False)                      # the peg is lifted ...
    synced = ref.synced_version
    tb.give_hint(play.move)                              # ... when a hint arrives
    assert ref.choice is not None and ref.choice["version"] == tb.version
    assert ref.state == "following" and ref.synced_version == synced + 1
    tb.event(come_out, True)                             # ... and is put down: the move is taken
    commit = tb.judge(1.0)
    assert commit is not None and commit.move == play.move and commit.version == tb.version


def test_a_new_move_at_a_later_version_still_drops_the_card_chosen():
    tb = HintTable(seed=0)
    tb.set_up()
    play = tb.come_out()
    ref = tb.ref
    ref.choose(tb.game.actor, play.card, play.move.rank, tb.version, tb.t)
    tb.game._push(play)                                  # the move made on the phone instead
    tb.version += 1
    tb.update()
    assert ref.choice is None
