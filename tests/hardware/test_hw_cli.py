"""``pegs hw-test`` on the mocks: the tour names every hole, reports switch changes by hole,
and finds unmapped, duplicated and stuck inputs."""
from __future__ import annotations

import io

import pytest

from hardware.cli import HwTest, VirtualBuilder, hw_test_command
from hardware.config import default_hole_order, load_wiring
from hardware.leds import LedBoard, MockStrip
from hardware.mock import MockBoard


@pytest.fixture
def make_test(clock, factory):
    opened = []

    def make(text, clock, factory, **kw):
        test, out, strip, board = _make_test(text, clock, factory, **kw)
        opened.append((test.sensor, board))
        return test, out, strip, board
    yield make
    for sensor, board in opened:
        sensor.close()
        board.close()


def _make_test(text, clock, factory, *, wired=None, delay=0.1, wait=False, timeout=1.0, prepare=None):
    """HwTest over the emulated board, a virtual builder putting a magnet in each lit hole
    (into the switch ``wired`` says is really there) - all in injected time."""
    wiring = load_wiring(text, allow_duplicates=True)
    board = MockBoard(wiring, pin_factory=factory)
    if prepare:
        prepare(board)
    sensor = board.open_sensor(clock=clock)
    strip = MockStrip(wiring.leds.count, clock=clock, keep=None)
    leds = LedBoard.from_wiring(wiring, strip, clock=clock)
    builder = VirtualBuilder(board, press=0.2 * delay, release=0.6 * delay, wired=wired)
    out = io.StringIO()
    test = HwTest(wiring, sensor, leds, clock=clock, sleep=clock.sleep, out=out, delay=delay, wait=wait,
                  timeout=timeout, on_step=builder.on_step, on_poll=builder.tick)
    return test, out, strip, board


def test_clean_board_passes_and_names_every_hole(clock, factory, make_test):
    test, out, strip, _ = make_test("", clock, factory)
    assert test.run() == 0
    text = out.getvalue()
    for i, hole in enumerate(default_hole_order(4, 18)):
        assert f"LED {i} -> {hole}   switch: chip {i // 8} input {'ABCDEFGH'[i % 8]} (chain bit {i})" in text
        assert f"    {hole} closed  ok" in text
    assert "no problems found." in text
    assert "ok: every hole has one LED and one switch input of its own" in text


def test_tour_lights_each_led_in_turn(clock, factory, make_test):
    test, out, strip, _ = make_test("", clock, factory)
    test.run()
    lit_order = []
    for frame in strip.frames:
        white = [i for i, p in enumerate(frame.pixels) if p[0] == p[1] == p[2] > 0]
        if white and (not lit_order or lit_order[-1] != white[0]):
            lit_order.append(white[0])
        assert len(white) <= 1
    assert lit_order == list(range(112))
    assert strip.last == ((0, 0, 0),) * 112            # dark at the end


def test_finds_unmapped_duplicated_and_stuck_inputs(clock, factory, make_test):
    # The file maps M5 to M6's input (a typo), so input 6 has two holes and the real
    # switch of M5 (input 5) has none; M9's reed is stuck closed.
    physical = {h: i for i, h in enumerate(default_hole_order(4, 18))}
    test, out, _, _ = make_test('[sensors.map]\n"M5" = 6\n', clock, factory, wired=physical,
                                prepare=lambda b: b.stick("M9", True))
    assert test.run() == 1
    text = out.getvalue()
    assert "DUPLICATED: chip 0 input G (chain bit 6) is mapped to 2 holes: M5, M6" in text
    assert "closed now: M9 (chip 1 input B (chain bit 9))" in text
    assert ('UNMAPPED: chip 0 input F (chain bit 5) closed, but no hole is mapped to it - if the magnet '
            'is in M5, its switch is on this input: sensors.map."M5" = 5') in text
    summary = text.split("\nSummary\n")[1]
    assert ("DUPLICATED input: chip 0 input G (chain bit 6) is mapped to M5 and M6: one of them is wrong "
            "in sensors.map") in summary
    assert "UNMAPPED input: chip 0 input F (chain bit 5) closed 1 time but no hole is mapped to it" in summary
    assert "STUCK: M9 (chip 1 input B (chain bit 9)) read closed for the whole test" in summary
    assert summary.rstrip().endswith("3 problems found.")
    assert test.stuck == [9] and test.unmapped == {5: 1}
    assert [d[1:] for d in test.duplicated] == [(6, ("M5", "M6"))]


def test_duplicated_led_and_swapped_switches(clock, factory, make_test):
    # LED 0 serves M0 and M1; M20 and M21's switches are swapped on the chain
    physical = {h: i for i, h in enumerate(default_hole_order(4, 18))}
    physical["M20"], physical["M21"] = 21, 20
    test, out, _, _ = make_test('[leds.map]\n"M1" = 0\n', clock, factory, wired=physical, wait=True)
    assert test.run() == 1
    text = out.getvalue()
    assert "DUPLICATED LED: LED 0 is mapped to M0 and M1" in text
    assert "LEDs with no hole (1): 1" in text
    assert "    M21 closed  - but the lit hole is M20" in text
    assert ("MISWIRED: while M20 was lit, the switch of M21 (chip 2 input F (chain bit 21)) closed: swap them "
            "in sensors.map or fix the wires") in text


def test_wait_mode_reports_a_switch_that_never_closes(clock, factory, make_test):
    test, out, _, _ = make_test("", clock, factory, wait=True, timeout=0.5,
                                prepare=lambda b: b.stick("H2-s1", False))
    assert test.run() == 1
    text = out.getvalue()
    assert "NO RESPONSE: H2-s1's switch didn't close in 0.5 s" in text
    assert "NO RESPONSE: H2-s1 (chip 11 input A (chain bit 88)) never closed" in text
    assert text.count("NO RESPONSE") == 2


def test_dead_chip_during_the_test_is_a_fault_and_no_peg_events(clock, factory, make_test):
    wiring = load_wiring("")
    test, out, _, board = make_test("", clock, factory)
    step_hook = test.on_step

    def on_step(step, index, holes, now):
        if step == 40:
            board.fail_chip(9, level=0)   # QH stuck low: chips 9-13 and the check byte read 0x00
        step_hook(step, index, holes, now)
    test.on_step = on_step
    assert test.run() == 1
    text = out.getvalue()
    assert "FAULT (chain): shift-register chain check failed" in text
    assert "M72 closed" not in text and "S-s0-1 closed" not in text   # chip 9 on: nothing believed
    assert "M39 closed  ok" in text
    assert wiring.leds.count == 112


def test_bounce_is_shown_not_counted(clock, factory, make_test):
    test, out, _, board = make_test("", clock, factory, delay=0.1)
    original = test.on_step

    def on_step(step, index, holes, now):
        original(step, index, holes, now)
        if step == 3:                  # a 10 ms blip on M50 while M3 is lit
            test.on_poll.__self__._plan.append((now + 0.05, lambda: board.set_input(50, True)))
            test.on_poll.__self__._plan.append((now + 0.06, lambda: board.set_input(50, False)))
    test.on_step = on_step
    assert test.run() == 0
    assert "(bounce) M50 (chip 6 input C (chain bit 50)): switch moved 2 times" in out.getvalue()


# ------------------------------------------------------------------ the command

def test_command_with_mock(capsys):
    assert hw_test_command(["--mock", "--delay", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "built-in defaults" in out and "LED 111 -> H5-s3" in out and "no problems found." in out
    assert "    H5-s3 closed  ok" in out


def test_command_with_mock_faults(capsys, tmp_path):
    f = tmp_path / "wiring.toml"
    f.write_text('[board]\nsides = 4\n[sensors.map]\n"M5" = 6\n')
    code = hw_test_command(["--config", str(f), "--mock", "--delay", "0.1",
                            "--mock-fault", "stuck=M9", "--mock-fault", "wire=M5:5"])
    out = capsys.readouterr().out
    assert code == 1
    for word in ("DUPLICATED input", "UNMAPPED input", "STUCK: M9"):
        assert word in out


def test_command_bad_config_names_the_key(capsys, tmp_path):
    f = tmp_path / "wiring.toml"
    f.write_text("[leds]\nbrightness = 3\n")
    assert hw_test_command(["--config", str(f), "--mock"]) == 2
    err = capsys.readouterr().err
    assert str(f) in err and "leds.brightness: must be a number from 0 to 1, got 3" in err


def test_command_geometry_flags(capsys):
    assert hw_test_command(["--mock", "--sides", "6", "--holes-per-side", "20", "--delay", "0.02"]) == 0
    assert "a 6-side board with 20 holes per side: 180 holes" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["--mock-fault", "stuck=M1"], "--mock-fault needs --mock"),
    (["--mock", "--mock-fault", "stuck=M999"], "is not a hole"),
    (["--mock", "--delay", "0"], "--delay must be above 0"),
])
def test_command_argument_errors(capsys, argv, message):
    assert hw_test_command(argv) == 2
    assert message in capsys.readouterr().err


def test_command_without_hardware_says_use_mock(capsys, monkeypatch, tmp_path):
    # a PC: no GPIO for gpiozero's default pin factory -> a one-line hint, exit 2
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nonexistent")
    f = tmp_path / "w.toml"
    f.write_text('[leds]\ndriver = "mock"\n')
    assert hw_test_command(["--config", str(f)]) == 2
    assert "use --mock" in capsys.readouterr().err


def test_pegs_command_finds_hw_test():
    from companion.cli import main
    assert main(["hw-test", "--mock", "--delay", "0.02", "--sides", "4"]) == 0


def test_command_reads_the_wiring_from_the_companion_config(capsys, tmp_path, monkeypatch):
    """`pegs hw-test` tests the wiring `pegs serve` uses: [wiring] of config.toml, or its board.wiring."""
    monkeypatch.delenv("PEGS_WIRING", raising=False)
    cfg = tmp_path / "config.toml"
    cfg.write_text('[serve]\nport = 8000\n[wiring.board]\nsides = 6\n[wiring.leds]\nbrightness = 3\n')
    assert hw_test_command(["--config", str(cfg), "--mock"]) == 2
    err = capsys.readouterr().err
    assert str(cfg) in err and "wiring.leds.brightness: must be a number from 0 to 1" in err
    cfg.write_text('[serve]\nport = 8000\n[wiring.board]\nsides = 6\n')
    assert hw_test_command(["--config", str(cfg), "--mock", "--delay", "0.02"]) == 0
    out = capsys.readouterr().out
    assert f"{cfg} [wiring]" in out and "a 6-side board" in out
    (tmp_path / "w.toml").write_text("[board]\nsides = 8\n")
    cfg.write_text('[board]\nwiring = "w.toml"\n')
    monkeypatch.setenv("PEGS_CONFIG", str(cfg))                # found without --config, as pegs serve does
    assert hw_test_command(["--mock", "--delay", "0.02"]) == 0
    assert "8-side board" in capsys.readouterr().out
