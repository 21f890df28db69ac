"""``pegs hw-test`` on the mocks: the tour names every hole, reports switch changes by hole,
and finds unmapped, duplicated and stuck inputs."""
from __future__ import annotations

import io

import pytest

from hardware.cli import HwTest, VirtualBuilder, build_parser, hw_test_command
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


def _make_test(text, clock, factory, *, wired=None, delay=0.1, wait=False, timeout=1.0, prepare=None,
               partial=False):
    """HwTest over the emulated board, a virtual builder putting a magnet in each lit hole
    (into the switch ``wired`` says is really there) - all in injected time."""
    wiring = load_wiring(text, allow_duplicates=True, partial=partial)
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


# ------------------------------------------------------------------ issue 15: a builder with a magnet in hand

def test_readme_mock_fault_example_shows_faults(capsys):
    """The guide's --mock-fault example must show what faults look like (wire=M5:5 did nothing:
    M5's switch is on input 5 anyway)."""
    import re
    import shlex
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "hardware/README.md").read_text()
    (example,) = re.findall(r"`(pegs hw-test --mock --mock-fault [^`]+)`", readme)
    assert hw_test_command(shlex.split(example)[2:] + ["--chips", "2"]) == 1
    out = capsys.readouterr().out
    assert "STUCK: M9" in out
    assert "MISWIRED: while M5 was lit, the switch of M6" in out


def test_waiting_is_the_default_pace(capsys):
    """At each hole the test waits for the magnet in and out (a human pace), not 1 s per LED."""
    args = build_parser().parse_args([])
    assert args.wait is True and args.delay is None
    assert build_parser().parse_args(["--no-wait"]).wait is False
    assert hw_test_command(["--mock", "--chips", "1", "--no-strip"]) == 0
    out = capsys.readouterr().out
    assert "put a magnet in it and take it out; the test moves on when the switch has closed and opened" in out
    assert "LEDs whose hole has no switch input are skipped" in out      # a partial chain: 8 holes only
    assert "[  8/112] LED 7 -> M7" in out and "LED 8 -> M8" not in out
    assert "    M7 closed  ok" in out and "no problems found." in out


def test_one_chip_bring_up_loads_a_partial_chain(capsys, tmp_path):
    f = tmp_path / "wiring.toml"
    f.write_text("[sensors.shift_register]\nchips = 2\n")      # the service refuses this; hw-test doesn't
    assert hw_test_command(["--config", str(f), "--mock", "--no-strip"]) == 0
    out = capsys.readouterr().out
    assert "2 x 74HC165 = 16 inputs" in out and "M15 closed  ok" in out
    assert "bring-up: 16 of the 112 holes have a switch input (a partial chain)" in out


def test_raw_view_shows_bytes_and_locates_a_break_on_an_empty_board(factory, clock):
    """Today's message for a chip-3 fault on an empty board was "chips 0-13 read 0xFF": now the
    raw view (and the fault) name the place, between chip 2 and chip 3."""
    from hardware.cli import raw_view
    wiring = load_wiring("")
    board = MockBoard(wiring, pin_factory=factory)
    sensor = board.open_sensor(clock=clock)
    out = io.StringIO()
    try:
        board.place("M1")
        raw_view(wiring, sensor, clock=clock, sleep=clock.sleep, seconds=0.05, out=out)
        board.fail_chip(3, level=0)
        raw_view(wiring, sensor, clock=clock, sleep=clock.sleep, seconds=0.05, out=out)
        sensor.scan()
        fault = sensor.active_faults[("chain",)]
    finally:
        sensor.close()
        board.close()
    text = out.getvalue()
    assert " 0  1  2  3  4  5  6  7  8  9 10 11 12 13  | check" in text
    assert "FD FF FF FF FF FF FF FF FF FF FF FF FF FF  | FF" in text and "closed: M1" in text
    assert "FD FF FF 00 00 00 00 00 00 00 00 00 00 00  | 00" in text
    assert "CHAIN BROKEN: chips 0-2 read data, chips 3-13 all read 0x00: the chain is broken between chip 2 " \
           "and chip 3" in text
    assert "between chip 2 and chip 3 - chip 3's QH (pin 9) to chip 2's SER (pin 10)" in fault.message


def test_command_raw_with_mock(capsys):
    assert hw_test_command(["--mock", "--raw", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "Raw chain bytes, chip 0 first" in out and "(all open)" in out and "| FF" in out


def test_chain_stuck_high_is_found_by_the_silent_chips(clock, factory, make_test):
    """A QH stuck high behind chip 2 reads like an empty board and passes the SER-high check;
    the waiting tour then finds every hole from chip 3 on silent, and says where the break is."""
    text = "[sensors.shift_register]\nchips = 5\n"
    wiring = load_wiring(text, partial=True)

    def prepare(board):
        board.fail_chip(3, level=1)
    test, out, _, _ = _make_test(text, clock, factory, wait=True, timeout=0.1, prepare=prepare, partial=True)
    try:
        assert test.run() == 1
    finally:
        test.sensor.close()
    summary = out.getvalue().split("\nSummary\n")[1]
    assert ("CHAIN: no hole on chips 3, 4 ever closed: the chain is probably broken between chip 2 and chip 3: "
            "chip 3's QH (pin 9) to chip 2's SER (pin 10)") in summary
    assert "NO RESPONSE: M24" not in summary                     # folded into the chain finding
    assert len(wiring.sensors.map) == 40


def test_harness_svg_is_made_from_the_wiring(tmp_path, capsys):
    import xml.etree.ElementTree as ET
    svg = tmp_path / "harness.svg"
    assert hw_test_command(["--harness", str(svg)]) == 0
    assert f"wrote the wiring harness of built-in defaults (no wiring file) to {svg}" in capsys.readouterr().out
    root = ET.parse(svg).getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert [t for t in texts if t and t.startswith("chip ")] == [f"chip {k}" for k in range(14)]
    assert "A (pin 11): M0" in texts and "H (pin 6): M7" in texts and "A (pin 11): M8" in texts
    assert "QH (pin 9) -> MISO GPIO9 (pin 21)" in texts
    assert "SER (pin 10) <- QH of chip 1" in texts
    assert "SER (pin 10) <- 3.3 V (check: 0xFF)" in texts      # the last chip
    assert any("33-100 ohm at the Pi -> CLK" in (t or "") for t in texts)
    assert "LED 0: M0" in texts and "LED 111: H5-s3" in texts
    f = tmp_path / "mcp.toml"
    f.write_text('[sensors]\nbackend = "mcp23017"\n[sensors.mcp23017]\naddresses = [0x20, 0x21]\n')
    assert hw_test_command(["--config", str(f), "--harness", str(svg)]) == 0
    texts = [t.text for t in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}text")]
    assert "GPA7: not used (output-only, leave open)" in texts and "GPB6: M13" in texts
    assert "chip 1: MCP23017 0x21" in texts


def test_system_check_says_what_to_fix(tmp_path):
    from hardware.syscheck import print_system_check
    root = tmp_path
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text("VERSION_CODENAME=trixie\n")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text("dtparam=audio=on\n")
    out = io.StringIO()
    code = print_system_check(load_wiring(""), out=out, root=root, euid=1000, groups={"gpio"},
                              has_module=lambda m: m != "_rpi_ws281x")
    text = out.getvalue()
    assert code == 1
    assert "ok   model: Raspberry Pi 4 Model B Rev 1.5" in text and "ok   OS: trixie" in text
    assert "FIX  SPI on" in text and "do_spi 0" in text
    assert "FIX  groups gpio, spi for this user: sudo usermod -aG spi $USER" in text
    assert "FIX  LED library rpi_ws281x" in text
    assert "FIX  root, for the LEDs" in text and "sudo systemctl stop pegs-companion, then sudo pegs hw-test" in text
    assert "FIX  analog audio off" in text
    (root / "dev").mkdir()
    (root / "dev/spidev0.0").touch()
    (root / "boot/firmware/config.txt").write_text("dtparam=audio=on\n[all]\ndtparam=audio=off\n")
    out = io.StringIO()
    assert print_system_check(load_wiring(""), out=out, root=root, euid=0, has_module=lambda m: True) == 0
    assert "all set" in out.getvalue()


def test_the_guides_example_harness_is_up_to_date():
    """hardware/harness.example.svg (linked from the guide) is what the command draws for
    wiring.example.toml; regenerate it with the command in its docstring if this fails:
    pegs hw-test --config hardware/wiring.example.toml --harness hardware/harness.example.svg"""
    from dataclasses import replace
    from pathlib import Path

    from hardware.harness import harness_svg
    repo = Path(__file__).resolve().parents[2]
    wiring = load_wiring(repo / "hardware/wiring.example.toml", allow_duplicates=True, partial=True)
    wiring = replace(wiring, source="hardware/wiring.example.toml")
    assert (repo / "hardware/harness.example.svg").read_text() == harness_svg(wiring)
