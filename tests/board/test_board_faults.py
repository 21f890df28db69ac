"""Injected faults on the emulated board: each ends in the right state with the right
message, and none is ever taken for a move."""
from __future__ import annotations

from .boardkit import Rig, mock_hardware
from web.store import Store


def come_out(rig):
    g = rig.game
    card = next(c for c in g.hands[g.actor] if c[:-1] in ("A", "J", "Q", "K"))
    side = g.seat_side[g.actor]
    return card, side, f"S-s{side}-5", f"M{side * 18 + 8}"


def flick(rig, hole, ms=10):
    """The switch under `hole` flips and flips back within `ms` (contact bounce, a magnet
    brushing past): raw changes shorter than the 30 ms debounce."""
    mb = rig.hw.mock_board
    occupied = hole in rig.hands.pegs
    mb.remove(hole) if occupied else mb.place(hole)
    rig.run(ms / 1000, step=0.005)
    mb.place(hole) if occupied else mb.remove(hole)


def test_switch_bounce_is_never_a_move(rigs):
    rig = rigs("sensors", seed=0)
    rig.set_up()
    ref = rig.ref
    card, side, src, dst = come_out(rig)
    rig.choose(card)
    version = rig.table.version
    for hole in (src, dst, "M40", f"S-s{side}-1"):
        flick(rig, hole)
    rig.run(1.5, step=0.01)
    assert rig.table.version == version and ref.state == "following"
    assert ref.follower.events == []                       # nothing got past the debounce
    assert [f.kind for f in ref.sensor.faults].count("bounce") == 4
    # bounce as the peg goes in is one event: the move is taken
    rig.lift(src)
    mb = rig.hw.mock_board
    for _ in range(3):
        mb.place(dst)
        rig.run(0.005, step=0.005)
        mb.remove(dst)
        rig.run(0.005, step=0.005)
    rig.hands.tray.remove(side)
    rig.hands._put(dst, side)
    rig.settle()
    assert rig.table.version > version and ref.state == "ready"


def test_a_peg_put_in_the_wrong_hole_then_put_right(rigs):
    rig = rigs("sensors", seed=0)
    rig.set_up()
    ref = rig.ref
    card, side, src, dst = come_out(rig)
    wrong = f"M{side * 18 + 9}"
    rig.choose(card)
    version = rig.table.version
    rig.lift(src)
    rig.place(wrong, side)
    rig.settle()
    assert ref.state == "wrong" and rig.table.version == version
    assert ref.rule == "M6" or ref.rule == "M1"
    assert "(rule" in ref.message
    assert ref.roles[wrong] == "wrong" and ref.roles[dst] == "legal"
    assert ref.fix_text == [f"take {rig.colour(side)}'s peg out of hole {wrong[1:]}",
                            f"put {rig.colour(side)}'s peg in hole {dst[1:]}"]
    public = ref.public()
    assert public["state"] == "wrong" and public["leds"][wrong]["pattern"] == "blink"
    rig.lift(wrong)
    rig.place(dst, side)
    rig.settle()
    assert rig.table.version > version and ref.state == "ready"


def test_a_knocked_peg_is_put_back_before_anything_counts(rigs):
    rig = rigs("sensors", seed=0)
    rig.set_up()
    ref = rig.ref
    card, side, src, dst = come_out(rig)
    other = (side + 1) % 4
    # knocked while nobody is moving: the board no longer shows the game
    rig.lift(f"S-s{other}-3")
    assert ref.state == "restore" and ref.roles == {f"S-s{other}-3": "legal"}
    assert "put it back" in ref.message
    rig.place(f"S-s{other}-3", other)
    assert ref.state == "ready"
    # knocked while a move is being made: the move is made, but the board doesn't fit it
    rig.choose(card)
    version = rig.table.version
    rig.lift(src)
    rig.lift(f"S-s{other}-3")                              # a sleeve sends it flying
    rig.place(dst, side)
    rig.settle()
    assert ref.state == "wrong" and rig.table.version == version
    assert any("start area" in f for f in ref.fix_text)
    rig.place(f"S-s{other}-3", other)
    rig.settle()
    assert rig.table.version > version and ref.state == "ready"


def test_noise_while_a_hand_is_over_the_board(rigs):
    """Pegs brushed and lifted-and-put-back, switches flicking, all over the board."""
    import random
    rig = rigs("sensors", seed=0)
    rig.set_up()
    ref = rig.ref
    card, side, src, dst = come_out(rig)
    rig.choose(card)
    version = rig.table.version
    rng = random.Random(4)
    filled = sorted(rig.hands.pegs)
    for _ in range(12):
        hole = rng.choice(filled)
        if rng.random() < 0.5:
            flick(rig, hole, ms=rng.choice((5, 10, 20)))
        else:                                              # lifted and put straight back
            side_of = rig.hands.pegs[hole]
            rig.lift(hole)
            rig.run(rng.uniform(0.05, 0.3))
            rig.place(hole, side_of)
    rig.settle()
    assert rig.table.version == version and ref.state == "following"
    assert set(ref.roles.values()) == {"can-move", "legal"}     # the guidance is back as it was
    rig.lift(src)
    rig.place(dst, side)
    rig.settle()
    assert rig.table.version > version


def test_a_restart_mid_turn_asks_for_the_board_to_be_put_back(tmp_path):
    """The server stops while a peg is on its way (the move not yet taken); the board keeps
    its pegs. After the restart the referee compares it with the stored game."""
    import random

    from .boardkit import plan_physical
    from companion.bots import make_bot
    store = Store(tmp_path / "games.sqlite3")
    rig = Rig("sensors", seed=0, store=store)
    rig.set_up()
    g = rig.game
    bot = make_bot("greedy", random.Random(1))
    while True:                                            # a few turns, then a move is under way
        play = bot.choose(g, g.legal_plays())
        if play.move.kind == "discard":
            rig.act(play.move.text(g.position.geo), play.card)
            continue
        steps = plan_physical(g.position, play.move, rig.hands.pegs)
        rig.choose(play.card, play.move.rank)
        if g.turn >= 3 and len(steps) == 2:
            break
        for step in steps:
            rig.lift(step[1]) if step[0] == "lift" else rig.place(step[1], step[2])
        rig.settle()
    (_, src), (_, dst, side, _) = steps
    gid, version = rig.table.gid, rig.table.version
    rig.lift(src)
    rig.place(dst, side)
    rig.run(0.3)                                           # not settled yet: the power goes
    hands, clock = rig.hands, rig.clock
    rig.close()                                            # the process ends, the hardware with it
    store.close()
    hw = mock_hardware(4, clock)                           # a new process opens the board again:
    for hole in hands.pegs:                                # the pegs are where they were left
        hw.mock_board.place(hole)
    hands.mock = hw.mock_board
    again = Rig("sensors", store=Store(tmp_path / "games.sqlite3"), hw=hw, clock=clock, create=False)
    again._hands = hands
    try:
        again.table = again.svc.get(gid)
        assert again.table.version == version              # nothing was taken
        ref = again.ref
        assert ref.state == "restore" and "restart" in ref.message
        assert ref.roles == {dst: "wrong", src: "legal"} or src.startswith("S-")
        assert ref.fix_text[0] == f"take the peg out of hole {dst[1:]}"
        assert not again.hub.may_act(again.table)
        again.lift(dst)
        again.place(src, side)
        assert ref.state == "ready" and ref.roles == {}
        again.tokens = rig.tokens                          # the phones keep their seats
        again.choose(play.card, play.move.rank)            # the card is chosen again, the move made
        again.lift(src)
        again.place(dst, side)
        again.settle()
        assert again.table.version > version and again.game.history[-1]["move"] == play.move
        assert ref.state in ("ready", "waiting")
    finally:
        again.close()
