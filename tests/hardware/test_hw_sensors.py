"""Reed-switch backends on gpiozero's MockFactory and the emulated 74HC165 chain / MCP23017:
debouncing, events, snapshots, and faults that are reported and never taken for peg moves."""
from __future__ import annotations

import builtins

import pytest

from hardware.config import load_wiring
from hardware.mock import FakeMcp23017Bus, HC165ChainMock, MockBoard
from hardware.sensors import (GpioReedSensor, Mcp23017ReedSensor, ShiftRegisterReedSensor,
                              SwitchEvent, open_sensor)


def run(sensor, clock, seconds, step=0.01):
    """Scan every ``step`` s for ``seconds``; all events."""
    events = []
    for _ in range(round(seconds / step)):
        clock.advance(step)
        events += sensor.scan()
    return events


def kinds(sensor):
    return [f.kind for f in sensor.faults]


# ------------------------------------------------------------------ direct GPIO

@pytest.fixture
def gpio(factory, clock):
    holes = {"M0": 17, "M1": 27, "H1-s0": 22}
    sensor = GpioReedSensor(holes, pin_factory=factory, clock=clock, debounce_ms=30)
    yield sensor, {h: factory.pin(p) for h, p in holes.items()}
    sensor.close()


def test_gpio_pins_are_pulled_up_inputs(gpio):
    sensor, pins = gpio
    assert all(p.function == "input" and p.pull == "up" for p in pins.values())
    assert sensor.snapshot() == {"M0": False, "M1": False, "H1-s0": False}


def test_gpio_magnet_closes_to_ground_and_is_debounced(gpio, clock):
    sensor, pins = gpio
    sensor.scan()
    t0 = clock.advance(0.01)
    pins["M1"].drive_low()
    assert sensor.scan() == []                 # not yet: must stay closed 30 ms
    events = run(sensor, clock, 0.05)
    assert events == [SwitchEvent("M1", True, t0)]   # timestamp: when the switch first moved
    assert events == [("M1", True, t0)]              # plain tuples compare equal
    assert sensor.snapshot() == {"M0": False, "M1": True, "H1-s0": False}
    pins["M1"].drive_high()
    assert [(e.hole, e.occupied) for e in run(sensor, clock, 0.05)] == [("M1", False)]


def test_gpio_switch_bounce_is_reported_not_an_event(gpio, clock):
    sensor, pins = gpio
    sensor.scan()
    # a peg brushing past: closed for 10 ms, open again
    clock.advance(0.01)
    pins["H1-s0"].drive_low()
    sensor.scan()
    clock.advance(0.01)
    pins["H1-s0"].drive_high()
    assert run(sensor, clock, 0.1) == []
    bounce = [f for f in sensor.faults if f.kind == "bounce"]
    assert len(bounce) == 1 and bounce[0].holes == ("H1-s0",)
    assert "H1-s0" in bounce[0].message and "no change" in bounce[0].message
    assert sensor.snapshot()["H1-s0"] is False


def test_gpio_bouncing_into_a_new_state_gives_one_event(gpio, clock):
    sensor, pins = gpio
    sensor.scan()
    t0 = clock.advance(0.01)
    for level in (0, 1, 0, 1, 0):             # contact bounce as the peg goes in
        (pins["M0"].drive_low if level == 0 else pins["M0"].drive_high)()
        sensor.scan()
        clock.advance(0.005)
    events = run(sensor, clock, 0.1)
    assert events == [SwitchEvent("M0", True, t0)]


def test_zero_debounce_reports_at_once(factory, clock):
    sensor = GpioReedSensor({"M3": 5}, pin_factory=factory, clock=clock, debounce_ms=0)
    sensor.scan()
    factory.pin(5).drive_low()
    assert sensor.scan() == [SwitchEvent("M3", True, clock.t)]
    sensor.close()


def test_chattering_switch_is_a_fault_until_it_settles(gpio, clock):
    sensor, pins = gpio
    sensor.scan()
    events = []
    for i in range(12):                        # flips every scan, never settles
        clock.advance(0.01)
        (pins["M0"].drive_low if i % 2 == 0 else pins["M0"].drive_high)()
        events += sensor.scan()
    assert events == []
    chatter = sensor.active_faults[("chatter", 17)]
    assert chatter.kind == "chatter" and "M0" in chatter.message and "M0" in sensor.unreliable_holes()
    pins["M0"].drive_low()
    events = run(sensor, clock, 0.1)
    assert [(e.hole, e.occupied) for e in events] == [("M0", True)]
    assert ("chatter", 17) not in sensor.active_faults
    assert kinds(sensor)[-1] in ("recovered", "bounce") and "recovered" in kinds(sensor)


def test_stuck_switch_never_makes_events_and_can_be_ignored(factory, clock):
    board_wiring = load_wiring('[sensors]\nbackend = "gpio"\nignore = ["M1"]\n'
                               '[sensors.map]\n"M0" = 17\n"M1" = 27\n')
    board = MockBoard(board_wiring, pin_factory=factory)
    board.stick("M1", True)                    # welded reed: reads closed whatever happens
    sensor = board.open_sensor(clock=clock)
    assert sensor.snapshot() == {"M0": False}  # ignored hole left out
    board.remove("M1")
    board.place("M0")
    assert run(sensor, clock, 0.1) == [SwitchEvent("M0", True, pytest.approx(clock.t - 0.09))]
    assert sensor.active_faults[("ignored", "M1")].message.startswith("M1: ignored")
    assert "M1" in sensor.unreliable_holes()
    sensor.close()


def test_unmapped_input_change_is_a_notice(factory, clock):
    w = load_wiring('[sensors.map]\n"M5" = 6\n', allow_duplicates=True)   # input 5 now has no hole
    board = MockBoard(w, pin_factory=factory)
    sensor = board.open_sensor(clock=clock)
    sensor.scan()
    board.set_input(5, True)
    assert run(sensor, clock, 0.1) == []
    unmapped = [f for f in sensor.faults if f.kind == "unmapped"]
    assert unmapped and unmapped[0].inputs == (5,) and "chain bit 5" in unmapped[0].message
    board.set_input(6, True)                   # M5 and M6 share input 6: both report
    assert {e.hole for e in run(sensor, clock, 0.1)} == {"M5", "M6"}
    sensor.close()


# ------------------------------------------------------------------ the 74HC165 chain on (mock) SPI

@pytest.fixture
def chain(factory):
    """Three emulated 74HC165 behind gpiozero's mock SPI, and the gpiozero SPIDevice reading them."""
    mock = HC165ChainMock(3, latch_pin=25, pin_factory=factory)
    sensor = ShiftRegisterReedSensor({f"M{n}": n for n in range(24)}, 3, latch_pin=25, pin_factory=factory,
                                     debounce_ms=0)
    yield mock, sensor
    sensor.close()
    mock.close()


def set_byte(mock, chip, level_byte):
    for j in range(8):
        mock.levels[chip * 8 + j] = level_byte >> j & 1


def test_chain_bytes_come_out_msb_first_in_chain_order(chain):
    mock, sensor = chain
    set_byte(mock, 0, 0xA5)
    set_byte(mock, 1, 0x3C)
    set_byte(mock, 2, 0x0F)
    assert sensor.chain.read() == [0xA5, 0x3C, 0x0F, 0xFF]   # + the chain-check byte (SER tied high)
    assert mock.loads == 1
    # bit j of chip k's byte is input j (A = 0 ... H = 7), chain bit k * 8 + j, low = closed
    assert sensor.snapshot(fresh=True) == {f"M{n}": not (0x0F3CA5 >> n & 1) for n in range(24)}


def test_chain_is_read_through_gpiozero_spi_and_a_latch_pin(chain, factory):
    mock, sensor = chain
    from gpiozero import SPIDevice
    assert isinstance(sensor.chain, SPIDevice)
    latch = factory.pin(25)
    assert latch.function == "output" and latch.state       # SH/LD idles high (shift mode)
    set_byte(mock, 0, 0xFE)
    # without the latch pulse the registers still hold the previous load
    assert sensor.chain._spi.transfer([0, 0, 0, 0])[0] == 0xFF   # loaded when all were open
    assert sensor.chain.read()[0] == 0xFE


def test_clock_is_ignored_while_latch_is_low(chain, factory):
    mock, sensor = chain
    set_byte(mock, 0, 0x81)
    sensor.chain._latch.off()
    assert sensor.chain._spi.transfer([0])[0] == 0x00       # loading: nothing shifts out
    sensor.chain._latch.on()
    assert sensor.chain._spi.transfer([0, 0])[0] == 0x81


def test_chain_events_name_the_hole(factory, clock):
    w = load_wiring("", 10, 18)                 # 280 holes, 35 chips
    board = MockBoard(w, pin_factory=factory)
    sensor = board.open_sensor(clock=clock)
    assert sensor.input_count == 280 and not any(sensor.snapshot().values())
    board.place("H3-s7")
    board.place("S-s9-5")
    board.place("M179")
    events = run(sensor, clock, 0.05)
    assert sorted(e.hole for e in events) == ["H3-s7", "M179", "S-s9-5"]
    assert {h for h, v in sensor.snapshot().items() if v} == {"H3-s7", "M179", "S-s9-5"}
    board.remove("M179")
    assert [(e.hole, e.occupied) for e in run(sensor, clock, 0.05)] == [("M179", False)]
    sensor.close()
    board.close()


@pytest.fixture
def board14(factory, clock):
    """The default 4-side board: 14 emulated chips; pegs in M1, M3, M4 (chip 0 has a mix)."""
    w = load_wiring("")
    board = MockBoard(w, pin_factory=factory)
    for hole in ("M1", "M3", "M4", "M12"):
        board.place(hole)
    sensor = board.open_sensor(clock=clock)
    sensor.scan()
    yield board, sensor
    sensor.close()
    board.close()


@pytest.mark.parametrize("level,byte", [(1, "0xFF"), (0, "0x00")])
def test_dead_chip_reading_all_ones_or_zeros_is_a_fault_not_moves(board14, clock, level, byte):
    board, sensor = board14
    before = sensor.snapshot()
    board.fail_chip(0, level=level, breaks_chain=False)   # its own inputs dead, chain still passes
    assert run(sensor, clock, 0.2) == []
    fault = sensor.active_faults[("chip", 0)]
    assert fault.kind == "dead-chip" and fault.chip == 0
    assert f"chip 0 (M0, M1, M2, M3, M4, M5, M6, M7) suddenly reads {byte}" in fault.message
    assert "pegs in M1, M3, M4" in fault.message
    assert sensor.snapshot() == before                    # holes keep their last good state
    assert {"M0", "M7"} <= sensor.unreliable_holes()
    # other chips still work
    board.place("M20")
    assert [e.hole for e in run(sensor, clock, 0.05)] == ["M20"]
    # repaired, with a peg moved meanwhile: the move is an event, the fault is cleared
    board.remove("M1")
    board.repair_chip(0)
    assert [(e.hole, e.occupied) for e in run(sensor, clock, 0.05)] == [("M1", False)]
    assert ("chip", 0) not in sensor.active_faults
    assert "recovered" in kinds(sensor)


def test_one_peg_leaving_a_chip_empty_is_an_ordinary_event(board14, clock):
    board, sensor = board14
    board.remove("M12")                        # chip 1: 0xEF -> 0xFF, one input changed
    assert [(e.hole, e.occupied) for e in run(sensor, clock, 0.05)] == [("M12", False)]
    assert not any(k[0] == "chip" for k in sensor.active_faults)


def test_broken_chain_fails_the_check_byte_and_suppresses_everything(board14, clock):
    board, sensor = board14
    board.fail_chip(5, level=0, breaks_chain=True)      # chip 5's QH stuck low: 5..13 and the check read 0x00
    board.place("M2")                                    # would be an event, but the read can't be trusted
    assert run(sensor, clock, 0.2) == []
    fault = sensor.active_faults[("chain",)]
    assert fault.kind == "chain"
    assert "byte after chip 13 read 0x00, expected 0xFF" in fault.message
    # the board is empty but for M2, so the break is located exactly
    assert "chips 5-13 all read 0x00: the chain is broken between chip 4 and chip 5" in fault.message
    assert set(sensor.unreliable_holes()) >= set(sensor.hole_inputs)
    board.repair_chip(5)
    assert [e.hole for e in run(sensor, clock, 0.05)] == ["M2"]
    assert ("chain",) not in sensor.active_faults


def test_broken_chain_without_check_byte_flags_each_chip_with_a_mix(factory, clock):
    w = load_wiring('[sensors.shift_register]\nchain_check = "off"\n')
    board = MockBoard(w, pin_factory=factory)
    for hole in ("M17", "M16", "M25", "M40"):            # chips 2, 3 and 5 have pegs
        board.place(hole)
    sensor = board.open_sensor(clock=clock)
    sensor.scan()
    board.fail_chip(2, level=1)
    assert run(sensor, clock, 0.1) == []
    faults = [f for f in sensor.faults if f.kind == "dead-chip"]
    # chip 2 jumped 0xFC -> 0xFF (two pegs): dead. Chips 3 and 5 each lost one peg in the same
    # scan, to the same level: behind the break, held too rather than taken as two removals
    assert [f.chip for f in faults] == [2, 3, 5]
    assert "pegs in M16, M17" in faults[0].message
    assert "chips 3, 5 after it jumped too: the chain is probably broken at chip 2" in faults[0].message
    assert "peg in M25" in faults[1].message
    assert sensor.snapshot()["M40"] is True
    board.close()
    sensor.close()


def test_chain_read_across_several_chips_dying_at_once(factory, clock):
    w = load_wiring('[sensors.shift_register]\nchain_check = "off"\n')
    board = MockBoard(w, pin_factory=factory)
    for hole in ("M16", "M17", "M24", "M25", "M32", "M33"):
        board.place(hole)
    sensor = board.open_sensor(clock=clock)
    sensor.scan()
    board.fail_chip(2, level=1)
    assert run(sensor, clock, 0.1) == []
    first = sensor.active_faults[("chip", 2)]
    assert "chips 3, 4 after it jumped too: the chain is probably broken at chip 2" in first.message
    assert {("chip", 3), ("chip", 4)} <= set(sensor.active_faults)
    board.close()
    sensor.close()


# ------------------------------------------------------------------ MCP23017 over a fake I2C bus

@pytest.fixture
def mcp(clock):
    bus = FakeMcp23017Bus((0x20, 0x21))
    sensor = Mcp23017ReedSensor({"M0": 0, "M9": 9, "M16": 16, "M17": 17}, addresses=(0x20, 0x21), smbus=bus,
                                clock=clock)
    return bus, sensor


def test_mcp23017_sets_pullups_and_reads_both_ports(mcp, clock):
    bus, sensor = mcp
    assert sensor.snapshot() == {"M0": False, "M9": False, "M16": False, "M17": False}
    assert bus.regs[0x21][0x0C] == bus.regs[0x21][0x0D] == 0x7F     # GPPUA/B: pull-ups on GP*0-6
    assert bus.regs[0x21][0x00] == bus.regs[0x21][0x01] == 0x7F     # IODIR: GPA7/GPB7 outputs
    bus.closed.add((0x20, 9))                                         # GPB1 of the first chip
    bus.closed.add((0x21, 1))                                         # GPA1 of the second
    assert sorted(e.hole for e in run(sensor, clock, 0.05)) == ["M17", "M9"]


def test_mcp23017_chip_not_answering_holds_its_holes(mcp, clock):
    bus, sensor = mcp
    sensor.scan()
    bus.closed.add((0x21, 0))
    bus.dead.add(0x21)
    assert run(sensor, clock, 0.1) == []
    fault = sensor.active_faults[("chip", 1)]
    assert fault.kind == "read-error" and "0x21 on I2C bus 1 doesn't answer" in fault.message
    assert set(fault.holes) == {"M16", "M17"}
    bus.dead.discard(0x21)
    bus.reset(0x21)                                  # came back from a power glitch: pull-ups off
    events = run(sensor, clock, 0.1)
    assert [(e.hole, e.occupied) for e in events] == [("M16", True)]
    assert bus.regs[0x21][0x0C] == 0x7F              # reconfigured
    assert ("chip", 1) not in sensor.active_faults


def test_mcp23017_needs_smbus2_with_a_clear_message(monkeypatch):
    real_import = builtins.__import__

    def no_smbus2(name, *a, **kw):
        if name == "smbus2":
            raise ImportError("No module named 'smbus2'", name="smbus2")
        return real_import(name, *a, **kw)
    monkeypatch.setattr(builtins, "__import__", no_smbus2)
    with pytest.raises(RuntimeError, match=r"needs the smbus2 package: pip install smbus2"):
        Mcp23017ReedSensor({"M0": 0})


def test_mock_board_drives_every_backend_by_hole(factory, clock):
    for text in ("", '[sensors]\nbackend = "gpio"\n[sensors.map]\n"M0" = 5\n"M3" = 6\n',
                 '[sensors]\nbackend = "mcp23017"\n[sensors.mcp23017]\n'
                 'addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27]\n'):
        w = load_wiring(text)
        board = MockBoard(w, pin_factory=factory)
        sensor = board.open_sensor(clock=clock)
        sensor.scan()                          # the first scan is the baseline: no events for it
        board.place("M3")
        assert [e.hole for e in run(sensor, clock, 0.05)] == ["M3"], w.sensors.backend
        sensor.close()
        board.close()
        factory.reset()


def test_open_sensor_none_backend():
    assert open_sensor(load_wiring('[sensors]\nbackend = "none"\n')) is None


# ------------------------------------------------------------------ issue 15: faults the chain reports

def test_open_miso_or_unpowered_chain_is_a_fault_by_default(factory, clock):
    """An open MISO wire (the Pi's pull-down) or an unpowered chain reads 0x00 everywhere. With
    the last chip's SER tied low (the old default) that was "every hole full", no fault; the
    default is now SER high, so the check byte 0x00 fails and nothing is believed."""
    w = load_wiring("")
    assert w.sensors.shift_register.chain_check == "high"
    board = MockBoard(w, pin_factory=factory)
    board.fail_chip(0, level=0)                 # every byte, the check byte too, reads 0x00
    sensor = board.open_sensor(clock=clock)
    try:
        assert not any(sensor.snapshot(fresh=True).values())
        fault = sensor.active_faults[("chain",)]
        assert "expected 0xFF" in fault.message and "the break is at chip 0 - the MISO wire" in fault.message
        assert sensor.unreliable_holes() >= set(w.sensors.map)
    finally:
        sensor.close()
        board.close()


def test_software_spi_fallback_is_an_error_not_a_slow_board(factory, monkeypatch, tmp_path):
    """gpiozero warns SPISoftwareFallback and bit-bangs when /dev/spidev0.0 can't be opened;
    the sensor refuses instead, naming the cause, and diagnose says what to do."""
    import warnings

    from gpiozero.exc import SPISoftwareFallback

    from hardware.diagnose import diagnose_sensor
    from hardware.sensors import SoftwareSPIFallback
    real_spi = type(factory).spi

    def spi_with_fallback(self, **kw):
        warnings.warn(SPISoftwareFallback("failed to initialize hardware SPI, falling back to software "
                                          "(error was: [Errno 13] Permission denied)"))
        return real_spi(self, **kw)
    monkeypatch.setattr(type(factory), "spi", spi_with_fallback)
    w = load_wiring("")
    with pytest.raises(SoftwareSPIFallback, match=r"Permission denied.*fall back to bit-banging") as err:
        ShiftRegisterReedSensor(w.sensors.map, 14, pin_factory=factory)
    assert err.value.cause == "[Errno 13] Permission denied"
    assert factory.pin(11).function == "input"      # nothing left claimed: SCLK free again
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev/spidev0.0").touch()
    (tmp_path / "model").write_text("Raspberry Pi 4 Model B Rev 1.5")
    problem = diagnose_sensor(err.value, w, dev=tmp_path / "dev", model_paths=[tmp_path / "model"])
    assert "the hardware SPI can't be opened ([Errno 13] Permission denied)" in problem.what
    assert "usermod -aG spi,gpio pegs" in problem.fix


def test_mcp23017_reset_while_answering_is_detected_and_set_up_again(clock):
    """A chip that resets but still answers has no pull-ups: without the read-back it read
    floating inputs for ever (it was only set up again after an OSError)."""
    bus = FakeMcp23017Bus((0x20,))
    faults = []
    sensor = Mcp23017ReedSensor({"M0": 0, "M1": 1}, addresses=(0x20,), smbus=bus, clock=clock,
                                on_fault=faults.append)
    sensor.scan()
    bus.reset(0x20)                                  # pull-ups off, inputs float (read 0 here: "closed")
    assert run(sensor, clock, 0.1) == []
    assert sensor.resets == 1 and bus.regs[0x20][0x0C] == 0x7F
    assert bus.reads_by_register.get(0x0C, 0) == 2        # GPPU read back at each set-up, not every scan
    assert [f.kind for f in faults] == ["reset"] and "0x20 was reset" in faults[0].message


def test_mcp23017_that_does_not_keep_its_settings_is_a_read_error(clock):
    class ForgetfulBus(FakeMcp23017Bus):
        def write_byte_data(self, addr, reg, value):
            pass                                    # writes never land (SDA loose, wrong part)
    sensor = Mcp23017ReedSensor({"M0": 0}, addresses=(0x20,), smbus=ForgetfulBus((0x20,)), clock=clock)
    sensor.scan()
    fault = sensor.active_faults[("chip", 0)]
    assert "doesn't keep its settings (IODIR read back FF FF, GPPU 00 00, written 7F)" in fault.message


def test_mcp23017_pins_7_are_outputs_never_read_as_holes(clock):
    bus = FakeMcp23017Bus((0x20,))
    sensor = Mcp23017ReedSensor({"M0": 0}, addresses=(0x20,), smbus=bus, clock=clock)
    sensor.scan()
    assert sensor.raw_mask() == 0                     # GPA7/GPB7 (outputs, reading 0) are masked off
