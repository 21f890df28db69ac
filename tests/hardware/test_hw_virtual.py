"""The simulated board's pegs (hardware.virtual.VirtualBoard) over emulated switches."""
import pytest

from hardware.config import load_wiring
from hardware.devices import Hardware
from hardware.virtual import VirtualBoard, VirtualBoardError, side_of_hole, start_holes_of


@pytest.fixture
def board(clock):
    wiring = load_wiring({"mock": True, "board": {"sides": 4, "holes_per_side": 18}, "leds": {"driver": "mock"}})
    hw = Hardware(wiring, mock=True, clock=clock)
    yield VirtualBoard(hw.mock_board), hw
    hw.close()


def test_a_peg_lifted_and_put_down_goes_through_the_switches(board, clock):
    vb, hw = board
    vb.setup({"M12": 1, "S-s0-1": 0})
    assert hw.mock_board.input_of("M12") in hw.mock_board.closed
    assert vb.lift("M12") == 1 and vb.state()["tray"] == [1]
    assert hw.mock_board.input_of("M12") not in hw.mock_board.closed
    assert vb.place("M20", 1, clock()) == "M20" and vb.state()["pegs"] == {"M20": 1, "S-s0-1": 0}


def test_a_drop_onto_a_peg_takes_it_off_first_and_a_plan_moves_pegs_step_by_step(board, clock):
    vb, _ = board
    vb.setup({"M12": 1, "M14": 2})
    vb.lift("M12")
    assert vb.place("M14", 1, clock()) == "M14" and vb.state()["busy"]
    assert not vb.run_due(clock()) and vb.run_due(clock.advance(VirtualBoard.GAP))
    assert vb.state()["pegs"] == {"M14": 1} and vb.state()["tray"] == [2]
    assert vb.sync_to({"M3": 2}, {1: 1}, clock()) == 3   # lift M14, a peg to S-s1-1, one to M3
    for _ in range(3):
        vb.run_due(clock.advance(VirtualBoard.GAP))
    assert vb.state() == {"pegs": {"M3": 2, "S-s1-1": 1}, "tray": [], "busy": False}


def test_what_a_hand_can_not_do_is_a_virtual_board_error_not_an_http_one(board, clock):
    vb, _ = board
    vb.setup({f"S-s0-{i}": 0 for i in range(1, 6)})
    with pytest.raises(VirtualBoardError, match="no peg in hole 7"):
        vb.lift("M7")
    with pytest.raises(VirtualBoardError, match="no peg of that colour"):
        vb.place("M7", 3, clock())
    vb.lift("M1") if "M1" in vb.pegs else None
    vb.setup({"M2": 0})
    vb.lift("M2")
    with pytest.raises(VirtualBoardError, match="start area is full"):
        vb.place("S-s0-1", 0, clock())
    assert side_of_hole("H3-s2") == side_of_hole("S-s2-1") == 2 and start_holes_of(1, 2) == ["S-s1-1", "S-s1-2"]
