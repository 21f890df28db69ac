"""The safe start (issue 8): hardware that fails to start leaves the companion running with
the phones as the board, and the table page says what failed and how to fix it."""
from __future__ import annotations

import errno
import functools
import warnings

import pytest

from hardware.config import load_wiring
from hardware.devices import Hardware
from hardware.diagnose import diagnose_sensor, diagnose_strip, open_hardware
from hardware.leds import LedDriverError

CSRF = {"X-Pegs-Request": "1"}
PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


@pytest.fixture
def pi(tmp_path):
    """A fake Pi: its device-tree model file and an empty /dev."""
    def make(model=PI4, devices=()):
        (tmp_path / "model").write_text(model + "\x00")
        dev = tmp_path / "dev"
        dev.mkdir(exist_ok=True)
        for d in devices:
            (dev / d).write_text("")
        return {"dev": dev, "model_paths": [tmp_path / "model"]}
    return make


def wiring(backend="shift-register", **extra):
    data = {"board": {"sides": 4}, "sensors": {"backend": backend, **extra}}
    return load_wiring(data)


class BadPinFactory(Exception):
    """Stands for gpiozero.exc.BadPinFactory (matched by module and name)."""


BadPinFactory.__module__ = "gpiozero.exc"


# --------------------------------------------------------------------------- the words

def test_spi_off_on_a_pi_says_how_to_turn_it_on(pi):
    p = diagnose_sensor(OSError(errno.ENOENT, "No such file"), wiring(), **pi())
    assert p.part == "switches" and "SPI is off" in p.what and "/dev/spidev0.0" in p.what
    assert "do_spi 0" in p.fix and "reboot" in p.fix


def test_spi_without_permission_names_the_groups(pi):
    p = diagnose_sensor(PermissionError(errno.EACCES, "Permission denied", "/dev/spidev0.0"), wiring(),
                        **pi(devices=["spidev0.0"]))
    assert "no permission" in p.what and "usermod -aG spi,gpio pegs" in p.fix


def test_i2c_off_and_an_expander_that_does_not_answer(pi):
    w = wiring("mcp23017", mcp23017={"addresses": list(range(0x20, 0x28))})
    p = diagnose_sensor(FileNotFoundError(2, "No such file"), w, **pi())
    assert "I2C is off" in p.what and "/dev/i2c-1" in p.what and "do_i2c 0" in p.fix
    p = diagnose_sensor(OSError(errno.EREMOTEIO, "Remote I/O error"), w, **pi(devices=["i2c-1"]))
    assert "no MCP23017 answers at 0x20, 0x21" in p.what and "i2cdetect -y 1" in p.fix


def test_no_gpio_library_on_a_pi_and_on_a_pc(pi, tmp_path):
    p = diagnose_sensor(BadPinFactory("Unable to load any default pin factory!"), wiring(),
                        **pi(devices=["spidev0.0"]))
    assert "no GPIO library" in p.what and "python3-lgpio" in p.fix
    p = diagnose_sensor(BadPinFactory("Unable to load any default pin factory!"), wiring(),
                        dev=tmp_path, model_paths=[tmp_path / "none"])
    assert "not a Raspberry Pi" in p.what and "simulation" in p.fix


def test_led_driver_problems(pi):
    p = diagnose_strip(LedDriverError("the LED strip needs the adafruit-circuitpython-neopixel package"),
                       wiring(), **pi())
    assert p.part == "LEDs" and "neopixel" in p.what and p.fix
    p = diagnose_strip(PermissionError(errno.EACCES, "Permission denied", "/dev/mem"), wiring(), **pi())
    assert "/dev/mem" in p.what and "--pwm-root" in p.fix
    p = diagnose_strip(RuntimeError("PIO"), wiring(), **pi(PI5))
    assert "/dev/pio0" in p.what and "udev" in p.fix


def test_open_hardware_finds_nothing_wrong_with_working_hardware():
    hw = Hardware(wiring(), mock=True)
    try:
        assert open_hardware(hw) == []
        assert hw.strip.frames and hw.strip.frames[-1].pixels == ((0, 0, 0),) * hw.strip.count
    finally:
        hw.close()


def test_open_hardware_on_this_pc_reports_both_parts():
    hw = Hardware(wiring())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # gpiozero warns as it falls back through its pin factories
        problems = open_hardware(hw)
    hw.close()
    assert [p.part for p in problems] == ["switches", "LEDs"]
    assert "not a Raspberry Pi" in problems[0].what and "simulation" in problems[0].fix


# --------------------------------------------------------------------------- the companion

@pytest.fixture
def app_on_a_pc(tmp_path):
    from web.main import build_app
    w = tmp_path / "wiring.toml"
    w.write_text("[board]\nsides = 4\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = build_app({"DATA_DIR": str(tmp_path / "d"), "BOARD_MODE": "sensors", "WIRING": str(w)})
    yield app
    app.extensions["pegs"].close()


def new_table(client):
    r = client.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2, "names": ["A", "B", "C", "D"]},
                    headers=CSRF)
    assert r.status_code in (200, 201), r.get_json()
    return r.get_json()["gid"]


def test_failed_hardware_starts_with_the_phones_as_the_board(app_on_a_pc, caplog):
    app = app_on_a_pc
    control = app.extensions["pegs_board_control"]
    assert control.mode == "sensors" and control.running == "none"
    assert app.extensions["pegs_board"] is None and app.extensions["pegs"].board is None
    c = app.test_client()
    gid = new_table(c)
    st = c.get(f"/api/games/{gid}/board").get_json()
    assert st["mode"] == "none"
    assert st["control"]["configured"] == "sensors" and st["control"]["can_retry"]
    assert [p["part"] for p in st["control"]["problems"]] == ["switches", "LEDs"]
    page = c.get(f"/table/{gid}").get_data(as_text=True)
    assert "The board did not start" in page and "phones are the board" in page
    assert "The reed switches can&#39;t be read: this is not a Raspberry Pi" in page
    assert "board.mode = &#34;simulation&#34;" in page            # how to fix it
    assert 'id="board-retry"' in page
    # the game goes on from the phones
    assert c.get(f"/api/games/{gid}/table").status_code == 200
    assert c.get("/settings").status_code == 200
    caplog.clear()   # the failure was logged as an error, on purpose


def test_trying_again_after_the_fix_starts_the_board(app_on_a_pc, caplog):
    app = app_on_a_pc
    control = app.extensions["pegs_board_control"]
    c = app.test_client()
    gid = new_table(c)
    table = app.extensions["pegs"].tables[gid]
    before = table.board_version
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert c.post("/api/board/retry", json={}, headers=CSRF).get_json()["running"] == "none"   # still broken
    control._hardware_factory = lambda w: Hardware(w, mock=True)      # "SPI turned on, rebooted"
    st = c.post("/api/board/retry", json={}, headers=CSRF).get_json()
    assert st == {"configured": "sensors", "running": "sensors", "problems": [], "can_retry": False}
    assert app.extensions["pegs_board"] is control.hub and app.extensions["pegs"].board is control.hub
    assert table.board_version > before                           # open pages are told (and reload)
    control.hub.tick()
    body = c.get(f"/api/games/{gid}/board").get_json()
    assert body["mode"] == "sensors" and body["attached"]
    assert 'id="board-problem" class="board-problem" role="alert" hidden' in c.get(f"/table/{gid}").get_data(as_text=True)
    caplog.clear()


def test_retry_needs_the_request_header(app_on_a_pc):
    c = app_on_a_pc.test_client()
    assert c.post("/api/board/retry", json={}).status_code == 403


def test_a_board_control_with_injected_probe(tmp_path, pi, caplog):
    """BoardControl uses open_hardware's diagnosis with the Pi's /dev: SPI off is reported as such."""
    from web import create_app
    from web.board_control import BoardControl
    app = create_app()
    service = app.extensions["pegs"]
    probe = functools.partial(open_hardware, **pi())

    class BrokenSpi(Hardware):
        @property
        def sensor(self):
            raise FileNotFoundError(2, "No such file or directory", "/dev/spidev0.0")

    def broken_spi(w):
        return BrokenSpi(w, mock=True)
    control = BoardControl(app, service, mode="sensors", wiring=wiring(), threaded=False,
                           hardware_factory=broken_spi, open_hardware=probe)
    st = control.start()
    try:
        assert st["running"] == "none" and "SPI is off" in st["problems"][0]["what"]
        assert "do_spi 0" in st["problems"][0]["fix"]
        caplog.clear()
    finally:
        control.close()
        service.close()
