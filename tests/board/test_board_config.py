"""`pegs serve`'s [board] settings: mode, settle time and wiring, checked with messages
that name the key; the composition root picks emulated or real hardware from them, and
opens nothing until a table takes the board."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from web.cli import ConfigError, resolve
from web.config import DEFAULT_WIRING as SYSTEM_WIRING   # before the fixture below patches it

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_system_files(tmp_path, monkeypatch):
    """Neither this machine's /etc/pegs-companion nor the caller's environment leak in."""
    monkeypatch.delenv("PEGS_WIRING", raising=False)
    monkeypatch.delenv("PEGS_CONFIG", raising=False)
    monkeypatch.setattr("web.config.DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))
    monkeypatch.setattr("web.config.SYSTEM_CONFIG", tmp_path / "no-config.toml")


def conf(tmp_path, text, *args):
    cfg = tmp_path / "pegs.toml"
    cfg.write_text(text)
    return resolve(["--config", str(cfg), "--data-dir", str(tmp_path / "d"), *args])


def test_simulation_is_the_default_without_a_wiring_file(tmp_path, monkeypatch):
    monkeypatch.setattr("web.config.DEFAULT_WIRING", str(tmp_path / "none.toml"))
    assert resolve(["--data-dir", str(tmp_path)])["board"] == {"mode": "simulation", "settle_seconds": 0.8,
                                                                 "wiring": None}
    # on the Pi, once the board's wiring file is installed, the real board is the default
    (tmp_path / "none.toml").write_text("[board]\nsides = 4\n")
    assert resolve(["--data-dir", str(tmp_path)])["board"] == {
        "mode": "sensors", "settle_seconds": 0.8, "wiring": str(tmp_path / "none.toml")}


def test_board_table_in_the_config_file(tmp_path):
    wiring = tmp_path / "wiring.toml"
    wiring.write_text("[board]\nsides = 4\n")
    c = conf(tmp_path, '[board]\nmode = "sensors"\nsettle_seconds = 1.2\nwiring = "wiring.toml"\n')
    assert c["board"] == {"mode": "sensors", "settle_seconds": 1.2, "wiring": str(wiring)}
    # a wiring file alone means a real board; the command line wins over the file
    c = conf(tmp_path, '[board]\nwiring = "wiring.toml"\n', "--board", "leds", "--settle-seconds", "0.5")
    assert c["board"]["mode"] == "leds" and c["board"]["settle_seconds"] == 0.5
    assert conf(tmp_path, '[board]\nwiring = "wiring.toml"\n')["board"]["mode"] == "sensors"
    assert conf(tmp_path, '[serve]\nport = 8001\n[board]\nmode = "none"\n')["board"]["mode"] == "none"


@pytest.mark.parametrize("text, words", [
    ('[board]\nmode = "magic"\n', "board.mode: must be one of simulation, sensors, leds, camera, none, not 'magic'"),
    ('[board]\nmode = "camera"\n', "camera.calibration: board.mode \"camera\" needs the calibration file"),
    ('[board]\nsettle_seconds = 0\n', "board.settle_seconds: must be a number from 0.1 to 10 seconds, not 0"),
    ('[board]\nsettle_seconds = "slow"\n', "board.settle_seconds"),
    ('[board]\nmode = "sensors"\nwiring = "nowhere.toml"\n', "board.wiring:"),
    ('[board]\nwiring = 5\n', "board.wiring: must be the path of a wiring file"),
    ('[board]\nsettle = 1\n', "board.settle: unknown key"),
    ('board = 3\n', "board: must be a table"),
])
def test_bad_board_settings_name_the_key(tmp_path, text, words):
    with pytest.raises(ConfigError) as e:
        conf(tmp_path, text)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_a_bad_wiring_file_is_reported_with_its_keys(tmp_path):
    wiring = tmp_path / "w.toml"
    wiring.write_text("[leds]\nbrightness = 1.5\n")
    with pytest.raises(ConfigError) as e:
        conf(tmp_path, f'[board]\nmode = "sensors"\nwiring = "{wiring}"\n')
    assert "board.wiring:" in str(e.value) and "leds.brightness: must be a number from 0 to 1" in str(e.value)
    # the same mistake in a [wiring] table of the config file names it there
    with pytest.raises(ConfigError) as e:
        conf(tmp_path, '[wiring.leds]\nbrightness = 1.5\n')
    assert "wiring.leds.brightness: must be a number from 0 to 1" in str(e.value)


def test_sensors_without_a_wiring_file_say_what_to_do(tmp_path):
    with pytest.raises(ConfigError) as e:
        conf(tmp_path, '[board]\nmode = "sensors"\n')
    assert "board.mode" in str(e.value) and "[wiring]" in str(e.value) and "simulation" in str(e.value)


def test_serve_stops_with_one_line_naming_the_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PEGS_CONFIG", "PEGS_WIRING")}
    r = subprocess.run([sys.executable, "-m", "web", "--data-dir", str(tmp_path), "--board", "magic"],
                       cwd=ROOT, capture_output=True, text=True, timeout=20, env=env)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "board.mode" in r.stderr


def test_the_composition_root_chooses_the_hardware_lazily(tmp_path):
    from web.main import build_app
    app = build_app({"DATA_DIR": str(tmp_path / "d"), "BOARD_MODE": "simulation", "SETTLE_SECONDS": 0.5})
    try:
        hub = app.extensions["pegs_board"]
        assert hub.mode == "simulation" and hub.settle == 0.5 and hub.hw is None   # nothing opened yet
        c = app.test_client()
        r = c.post("/api/games", json={"preset": "basic", "players": 6, "teams": 2,
                                       "names": ["A", "B", "C", "D", "E", "F"]}, headers={"X-Pegs-Request": "1"})
        gid = r.get_json()["gid"]
        st = c.get(f"/api/games/{gid}/board").get_json()
        assert st["attached"] and len(st["board"]["pegs"]) == 30
        assert hub.hw.mock and hub.hw.wiring.board.sides == 6                      # emulated, the table's size
        assert b'"senses": true' in c.get(f"/table/{gid}").data
    finally:
        app.extensions["pegs"].close()
    app = build_app({"DATA_DIR": str(tmp_path / "e")})
    try:
        assert app.extensions["pegs_board"] is None                                  # "none" unless asked
    finally:
        app.extensions["pegs"].close()


def test_serve_and_hw_test_look_for_the_wiring_in_the_same_place():
    from hardware.cli import DEFAULT_CONFIG
    assert Path(SYSTEM_WIRING) == DEFAULT_CONFIG


def test_simulation_board_for_a_four_hole_home_board():
    """The simulated board of a Tock/Carbles/Jackaroo table (RG-B1: start area and home of
    4) is emulated with those holes, in the wiring's default order; Pegs and Jokers' stays 5 + 5."""
    from hardware.config import default_hole_order
    from web.board_referee import make_hub
    from web.store import Store
    from web.tables import TableService
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.0)
    hub = make_hub(svc, "simulation", threaded=False)
    try:
        for extra, holes in (({"start_holes": 4, "home_holes": 4}, 104), ({}, 112)):
            hw = hub._factory(4, 18, **extra)
            try:
                b = hw.wiring.board
                order = default_hole_order(4, 18, start_holes=b.start_holes, home_holes=b.home_holes)
                assert len(order) == holes
                assert sorted(hw.wiring.leds.map, key=hw.wiring.leds.map.get) == order
            finally:
                hw.close()
    finally:
        hub.close()
        svc.close()
