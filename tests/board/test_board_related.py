"""Tock, Carbles and Jackaroo on the simulated board (issue 18: the board referee serves
every preset): greedy bots play, every peg move is made hole by hole on the emulated
board of 26 holes a side (RG-B1) and the referee takes it as exactly the move played;
plays that move no peg (a pass, a force, a steal, a burn, giving up the hand) go
through the phone."""
from __future__ import annotations

import random

import pytest

from . import boardkit
from .boardkit import Rig, plan_physical
from companion.bots import make_bot
from companion.moves import MOVE, SWAP

# web/board_referee.py's choose checks a chosen rank against Pegs and Jokers' ranks, so
# Jackaroo's Jr/Jb/Qr/Qb (RG-N2) can't be followed on the board yet: those go by phone.
JACKAROO_COURT = ("Jr", "Jb", "Qr", "Qb")


@pytest.fixture
def related_rig(monkeypatch):
    """A Rig whose simulated board has the related games' 4 start and 4 home holes."""
    from hardware.config import load_wiring
    from hardware.devices import Hardware
    real = boardkit.BoardHub

    def hub(svc, mode, factory, **kw):
        def related_factory(sides, holes_per_side, start_holes=None, home_holes=None):
            board = {"sides": sides, "holes_per_side": holes_per_side}
            if start_holes is not None:
                board.update(start_holes=start_holes, home_holes=home_holes)
            return Hardware(load_wiring({"mock": True, "board": board, "leds": {"driver": "mock"}}),
                            mock=True, clock=kw["clock"])
        return real(svc, mode, related_factory, **kw)

    monkeypatch.setattr(boardkit, "BoardHub", hub)
    rigs = []

    def make(**kw):
        rigs.append(Rig("simulation", **kw).fast())
        return rigs[-1]
    yield make
    for r in rigs:
        r.close()


@pytest.mark.parametrize("preset, players, teams", [
    ("tock", 4, 4), ("tock_partnership", 4, 2), ("jackaroo", 4, 2), ("carbles", 3, 3)])
def test_related_games_on_the_simulated_board(related_rig, preset, players, teams):
    rig = related_rig(players=players, teams=teams, preset=preset, seed=3)
    game, ref = rig.game, rig.ref
    assert ref.state in ("ready", "waiting"), ref.message   # waiting: a pass to the partner first
    rng = random.Random(1)
    bots = [make_bot("greedy", random.Random(rng.random())) for _ in range(players)]
    by_board = by_phone = 0
    while not game.is_over() and game.turn < 70:
        play = bots[game.actor].choose(game, game.legal_plays())
        pos = game.position
        if play.move.kind not in (MOVE, SWAP) or play.move.rank in JACKAROO_COURT:
            rig.act(play.move.text(pos.geo), play.card)
            rig.run(4, step=0.25)   # the simulated board puts its pegs where the game has them
            by_phone += 1
            continue
        expected = pos.result_of(play.move)
        rig.choose(play.card, play.move.rank)
        assert ref.state == "following", (ref.state, ref.message)
        for step in plan_physical(pos, play.move, rig.hands.pegs):
            if step[0] == "lift":
                rig.lift(step[1])
            else:
                rig.place(step[1], step[2])
        rig.settle()
        if ref.state == "ambiguous":
            rig.act(play.move.text(pos.geo), play.card)   # the phone's candidate button
        assert game.position.pegs() == expected or game.is_over(), \
            ("desync", play.move.text(pos.geo), ref.state, ref.message)
        assert ref.state in ("ready", "waiting"), (ref.state, ref.message)
        by_board += 1
    assert by_board >= 25 and by_phone >= 3, (by_board, by_phone)
