"""Wiring config: the default hole order, loading, and validation messages that name the key."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from hardware.config import (_KEYS, BoardLayout, WiringError, default_hole_order,
                             load_wiring)

EXAMPLE = Path(__file__).resolve().parents[2] / "hardware" / "wiring.example.toml"


# ------------------------------------------------------------------ hole order (RULES G2, G4, G5)

def test_default_order_follows_the_track_then_start_and_home_per_side():
    order = default_hole_order(4, 18)
    assert len(order) == len(set(order)) == 72 + 4 * 10
    assert order[:72] == [f"M{n}" for n in range(72)]
    assert order[72:82] == ["S-s0-1", "S-s0-2", "S-s0-3", "S-s0-4", "S-s0-5",
                            "H1-s0", "H2-s0", "H3-s0", "H4-s0", "H5-s0"]
    assert order[-1] == "H5-s3"


@pytest.mark.parametrize("sides,hps,count", [(4, 18, 112), (6, 18, 168), (8, 20, 240), (10, 18, 280)])
def test_hole_counts(sides, hps, count):
    assert len(default_hole_order(sides, hps)) == count == BoardLayout(sides, hps).hole_count


def test_track_start_and_reverse():
    assert default_hole_order(4, 18, track_start=9)[:3] == ["M9", "M10", "M11"]
    assert default_hole_order(4, 18, track_start=9)[62:64] == ["M71", "M0"]
    assert default_hole_order(4, 18, track_start=9, reverse=True)[:3] == ["M9", "M8", "M7"]


def test_hole_ids_are_checked_against_the_geometry():
    b = BoardLayout(4, 18)
    for ok in ("M0", "M71", "H1-s0", "H5-s3", "S-s3-5"):
        assert b.is_hole(ok)
    for bad in ("M72", "M01", "H6-s0", "H0-s1", "H1-s4", "S-s4-1", "S-s0-6", "S-s0-0", "X1", "", 5):
        assert not b.is_hole(bad)


# ------------------------------------------------------------------ loading

def test_defaults_without_a_file():
    w = load_wiring("")
    assert (w.board.sides, w.board.holes_per_side) == (4, 18)
    assert w.leds.count == 112 and w.leds.map["M0"] == 0 and w.leds.map["H5-s3"] == 111
    assert w.sensors.backend == "shift-register"
    assert w.sensors.shift_register.chips == 14
    assert w.sensors.map == w.leds.map
    assert w.duplicates == ()


def test_geometry_from_arguments():
    w = load_wiring("", 10, 18)
    assert w.leds.count == 280 and w.sensors.shift_register.chips == 35


def test_example_file_loads_and_documents_every_key():
    w = load_wiring(EXAMPLE)
    assert w.source == str(EXAMPLE)
    assert w.leds.count == 112
    text = EXAMPLE.read_text()
    assert tomllib.loads(text)["board"]["sides"] == 4
    tables = {"leds.map", "sensors.map"} | {t for t in _KEYS if t}
    for table, keys in _KEYS.items():
        if table:
            assert re.search(rf"^\[{re.escape(table)}\]", text, re.M), f"[{table}] missing"
        for key in keys:
            full = f"{table}.{key}" if table else key
            if full in tables:
                assert re.search(rf"^\[{re.escape(full)}\]", text, re.M), f"[{full}] missing"
            else:   # set, or shown commented out, with a comment explaining it
                assert re.search(rf"^#?\s*{key}\s*=.*#", text, re.M), f"{full} is not documented"


def test_path_string_and_text_and_dict(tmp_path):
    f = tmp_path / "w.toml"
    f.write_text("[leds]\nbrightness = 0.25\n")
    assert load_wiring(str(f)).leds.brightness == 0.25
    assert load_wiring(f).leds.brightness == 0.25
    assert load_wiring("[leds]\nbrightness = 0.25\n").leds.brightness == 0.25
    assert load_wiring({"leds": {"brightness": 0.25}}).leds.brightness == 0.25


def test_overrides_swap_two_holes():
    w = load_wiring('[leds.map]\n"M12" = 13\n"M13" = 12\n[sensors.map]\n"H3-s2" = 0\n"M0" = 99\n')
    assert (w.leds.map["M12"], w.leds.map["M13"]) == (13, 12)
    assert (w.sensors.map["H3-s2"], w.sensors.map["M0"]) == (0, 99)


def test_board_table_and_arguments_must_agree():
    w = load_wiring("[board]\nsides = 6\nholes_per_side = 20\n")
    assert w.board.hole_count == 6 * 20 + 60
    assert load_wiring("[board]\nsides = 6\n", 6).board.sides == 6
    with pytest.raises(WiringError, match=r"board\.sides: the file says 6 but 8 was asked for"):
        load_wiring("[board]\nsides = 6\n", 8)


def test_gpio_backend_takes_pins_from_the_map():
    w = load_wiring('[sensors]\nbackend = "gpio"\n[sensors.map]\n"M0" = 17\n"M1" = 27\n')
    assert w.sensors.map == {"M0": 17, "M1": 27}


def test_mcp23017_backend_uses_14_pins_a_chip():
    """GPA7/GPB7 are output-only (Microchip's revised datasheet): 8 chips x 14 = 112 holes."""
    w = load_wiring('[sensors]\nbackend = "mcp23017"\n[sensors.mcp23017]\n'
                    'addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27]\n')
    assert w.sensors.map["M6"] == 6 and w.sensors.map["M7"] == 8 and w.sensors.map["M14"] == 16
    assert w.sensors.map["H5-s3"] == 16 * 7 + 14
    assert not {n % 16 for n in w.sensors.map.values()} & {7, 15}
    assert w.sensors.describe_input(17) == "MCP23017 0x21 GPA1 (input 17)"
    with pytest.raises(WiringError, match=r"sensors\.map\.M3: .*7 and 15, are output-only"):
        load_wiring('[sensors]\nbackend = "mcp23017"\n[sensors.mcp23017]\n'
                    'addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27]\n[sensors.map]\n"M3" = 7\n')
    with pytest.raises(WiringError, match=r"7 MCP23017 \(98 inputs, 14 a chip\) can't sense the 112 holes"):
        load_wiring('[sensors]\nbackend = "mcp23017"\n[sensors.mcp23017]\n'
                    'addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26]\n')


def test_partial_chain_or_expanders_for_bring_up():
    """One chip (or one section) can be brought up alone: fewer chips than holes / 8 is an
    error for the service, but accepted with partial=True (pegs hw-test); the rest is unsensed."""
    text = "[sensors.shift_register]\nchips = 1\n"
    with pytest.raises(WiringError, match="partial chain for bring-up"):
        load_wiring(text)
    w = load_wiring(text, partial=True)
    assert w.sensors.shift_register.chips == 1
    assert w.sensors.map == {f"M{n}": n for n in range(8)}
    w = load_wiring('[sensors]\nbackend = "mcp23017"\n', partial=True)
    assert len(w.sensors.map) == 14 and w.sensors.map["M13"] == 14


def test_duplicates_allowed_for_the_diagnostic():
    w = load_wiring('[sensors.map]\n"M5" = 6\n[leds.map]\n"M1" = 0\n', allow_duplicates=True)
    assert ("sensors", 6, ("M5", "M6")) in w.duplicates or ("sensors", 6, ("M6", "M5")) in w.duplicates
    assert any(d[0] == "leds" and d[1] == 0 for d in w.duplicates)


# ------------------------------------------------------------------ bad files: each message names its key

BAD = [
    ("[leds]\nbrightness = 1.5\n", "leds.brightness", "from 0 to 1"),
    ("[leds]\ncolour = 3\n", "leds.colour", "unknown key"),
    ("[led]\nbrightness = 0.5\n", "led", "unknown key"),
    ("[leds]\npixel_order = \"XYZ\"\n", "leds.pixel_order", "one of"),
    ("[leds]\ndata_pin = 40\n", "leds.data_pin", "BCM GPIO"),
    ("[leds]\ncount = true\n", "leds.count", "integer"),
    ("[leds]\ncount = 100\n", "leds.count", "too few"),
    ("[leds]\ncurrent_budget_a = 0\n", "leds.current_budget_a", "above 0"),
    ("[leds]\ncurrent_budget_a = 0.05\n", "leds.current_budget_a", "idle current"),
    ("[leds]\ndriver = \"apa102\"\n", "leds.driver", "one of"),
    ("[leds]\ntrack_start = 72\n", "leds.track_start", "main-track hole"),
    ("[leds.map]\n\"M99\" = 3\n", "leds.map.M99", "not a hole of a 4-side board"),
    ("[leds.map]\n\"Q7\" = 3\n", "leds.map.Q7", "not a hole id"),
    ("[leds.map]\n\"M5\" = \"six\"\n", "leds.map.M5", "LED index"),
    ("[leds]\ncount = 120\n[leds.map]\n\"M5\" = 200\n", "leds.map.M5", "LED index 0-119"),
    ("[leds.map]\n\"M1\" = 0\n", "leds.map", "LED 0 is mapped to 2 holes (M0, M1)"),
    ("[leds]\nmap = 3\n", "leds.map", "table"),
    ("[sensors]\nbackend = \"spi\"\n", "sensors.backend", "one of"),
    ("[sensors]\ndebounce_ms = -1\n", "sensors.debounce_ms", "milliseconds"),
    ("[sensors]\nscan_hz = 0\n", "sensors.scan_hz", "from 1"),
    ("[sensors]\nchatter_limit = 1\n", "sensors.chatter_limit", "at least 2"),
    ("[sensors]\nignore = [\"M100\"]\n", "sensors.ignore[0]", "not a hole"),
    ("[sensors]\nignore = \"M1\"\n", "sensors.ignore", "list"),
    ("[sensors]\nbackend = \"gpio\"\n", "sensors.map", "needs a map"),
    ("[sensors]\nbackend = \"gpio\"\n[sensors.map]\n\"M0\" = 17\n\"M1\" = 17\n", "sensors.map",
     "GPIO17 is mapped to 2 holes"),
    ("[sensors]\nbackend = \"gpio\"\n[sensors.map]\n\"M0\" = 18\n", "sensors.map.M0", "GPIO18 is also used by leds.data_pin"),
    ("[sensors.map]\n\"M5\" = 6\n", "sensors.map", "chip 0 input G (chain bit 6) is mapped to 2 holes"),
    ("[sensors.map]\n\"M5\" = 9999\n", "sensors.map.M5", "chain bit"),
    ("[sensors.shift_register]\nchips = 10\n", "sensors.shift_register.chips", "too few"),
    ("[sensors.shift_register]\nchain_check = \"maybe\"\n", "sensors.shift_register.chain_check", "low, high or off"),
    ("[sensors.shift_register]\nlatch_pin = 18\n", "sensors.shift_register.latch_pin", "GPIO18 is also used by leds.data_pin"),
    ("[sensors.shift_register]\nspi_hz = 5\n", "sensors.shift_register.spi_hz", "integer from"),
    ("[sensors.shift_register]\nclok_pin = 11\n", "sensors.shift_register.clok_pin", "unknown key"),
    ("[sensors]\nbackend = \"mcp23017\"\n[sensors.mcp23017]\naddresses = [0x30]\n",
     "sensors.mcp23017.addresses[0]", "0x20-0x27"),
    ("[sensors]\nbackend = \"mcp23017\"\n", "sensors.mcp23017.addresses", "can't sense the 112 holes"),
    ("[sensors]\nbackend = \"mcp23017\"\n[sensors.mcp23017]\naddresses = [0x20, 0x20]\n",
     "sensors.mcp23017.addresses", "same address twice"),
    ("[board]\nsides = 5\n", "board.sides", "4, 6, 8, 10 or 12"),
    ("[board]\nholes_per_side = 5\n", "board.holes_per_side", "10 to 40"),
    ("[leds\nbrightness = 1\n", "toml", "not valid TOML"),
]


@pytest.mark.parametrize("text,key,problem", BAD, ids=[b[1] + ":" + b[2][:20] for b in BAD])
def test_bad_wiring_names_the_key(text, key, problem):
    with pytest.raises(WiringError) as info:
        load_wiring(text)
    lines = info.value.problems
    assert any(line.startswith(f"{key}: ") and problem in line for line in lines), lines
    assert f"{key}: " in str(info.value)


def test_bad_file_names_the_file_and_every_problem(tmp_path):
    f = tmp_path / "wiring.toml"
    f.write_text("[leds]\nbrightness = 2\ndata_pin = -1\n[sensors]\ndebounce_ms = \"fast\"\n")
    with pytest.raises(WiringError) as info:
        load_wiring(f)
    message = str(info.value)
    assert message.startswith(f"{f}: 3 problems")
    for key in ("leds.brightness", "leds.data_pin", "sensors.debounce_ms"):
        assert key in message


def test_missing_file(tmp_path):
    with pytest.raises(WiringError, match="file: not found"):
        load_wiring(tmp_path / "nope.toml")
