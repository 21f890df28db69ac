"""Whole games by bots in which every move is made physically, hole by hole, through the
emulated reed switches (hardware.mock.MockBoard, fed the way the virtual board feeds it),
and checked against the LED frames: the peg to lift blinks "can-move" first, each
destination is lit "legal" (steady, in the frame sent before the peg goes in), each hit
peg's place pulses "hit". The referee must take every move, once the board has settled,
as exactly the move played: zero desyncs."""
from __future__ import annotations

import pytest

from .boardkit import play_game


@pytest.mark.parametrize("players, teams, preset, seed", [
    (4, 2, "basic", 3),
    pytest.param(6, 3, "basic", 5, marks=pytest.mark.slow),   # six sides: .ci/run's slow part
    pytest.param(6, 2, "north_carolina", 8, marks=pytest.mark.slow),   # swaps, 10s split over any pegs,
    # chains into the mover's colour (its rules are also played on 4 sides in the fast suite's tests)
    (4, 2, "arizona", 1),          # team pegs, two-colour splits
])
def test_bots_play_a_whole_game_on_the_board(rigs, players, teams, preset, seed):
    rig = rigs("sensors", players=players, teams=teams, preset=preset, seed=seed).fast()
    rig.set_up()
    assert rig.ref.state == "ready"
    stats = play_game(rig, seed=seed)
    assert rig.game.is_over(), stats
    assert stats["moves"] > 100 and stats["lit_checks"] >= stats["moves"]
    assert stats["hits"] > 10 and stats["hit_lit"] >= 0.9 * stats["hits"]
    # every move but the phone's discards (and the candidate picked on the phone when the board
    # fitted two moves) came from the board
    events = rig.store.events(rig.table.gid)
    via_board = sum(1 for _, kind, d in events if kind == "action" and d.get("via") == "board")
    assert via_board == stats["moves"] - stats["ambiguous"]
    assert rig.ref.state == "waiting" and "over" in rig.ref.message


def test_a_game_on_the_simulated_board_of_the_table_page(rigs):
    """The same in simulation mode: the hub makes its own emulated board for the table."""
    rig = rigs("simulation", seed=3).fast()
    assert rig.ref.virtual is not None and rig.ref.state == "ready"   # the pegs stand in start
    stats = play_game(rig, seed=3, max_turns=60)
    assert stats["moves"] > 20
