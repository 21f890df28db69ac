"""The settings page: who may change settings, changes checked with the key, written to the
config file atomically (comments kept) and made live without a restart."""
from __future__ import annotations

import tomllib

import pytest

from web import config as cfgmod
from web.main import build_app

CSRF = {"X-Pegs-Request": "1"}
LAN = {"REMOTE_ADDR": "192.168.1.50"}
MINE = "# our game nights\n[serve]\nbot_delay = 1.5   # slow bots for the kids\n"


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setattr(cfgmod, "DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))


@pytest.fixture
def make_app(tmp_path):
    apps = []

    def make(text=MINE, mode="simulation", admin_code="open-sesame", config=True, wiring=None):
        path = tmp_path / "config.toml"
        if config:
            path.write_text(text)
        app = build_app({"DATA_DIR": str(tmp_path / "data"), "BOARD_MODE": mode, "BOT_DELAY": 1.5,
                         "CONFIG_PATH": str(path) if config else None, "ADMIN_CODE": admin_code,
                         "WIRING": wiring})
        apps.append(app)
        return app, path
    yield make
    for app in apps:
        app.extensions["pegs"].close()


def post(client, url, body, **kw):
    return client.post(url, json=body, headers=CSRF, **kw)


def test_on_the_companion_itself_settings_change_live_and_are_kept(make_app):
    app, path = make_app()
    c = app.test_client()
    state = c.get("/api/settings").get_json()
    assert state["values"] == {"serve.bot_delay": 1.5, "serve.bot_think_ms": 140, "board.mode": "simulation",
                               "board.settle_seconds": 0.8, "wiring.leds.brightness": None}
    assert state["config_path"] == str(path) and not state["has_wiring"]
    r = post(c, "/api/settings", {"changes": {"serve.bot_delay": 0.3, "board.settle_seconds": 1.5}})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["saved"] and body["message"] == f"Saved to {path}."
    assert body["values"]["serve.bot_delay"] == 0.3 and body["values"]["board.settle_seconds"] == 1.5
    # live: the bots and the board use the new values at once
    assert app.extensions["pegs"].bot_delay == 0.3
    assert app.extensions["pegs_board"].settle == 1.5
    # kept: the file has them, with the owner's comments
    text = path.read_text()
    assert "# our game nights" in text
    assert tomllib.loads(text) == {"serve": {"bot_delay": 0.3}, "board": {"settle_seconds": 1.5}}
    assert cfgmod.load_settings(str(path), probe_data_dir=False)["board.settle_seconds"] == 1.5


def test_changing_the_board_mode_swaps_the_board_and_tells_the_pages(make_app):
    app, path = make_app()
    c = app.test_client()
    gid = post(c, "/api/games", {"preset": "basic", "players": 4, "teams": 2,
                                 "names": ["A", "B", "C", "D"]}).get_json()["gid"]
    table = app.extensions["pegs"].tables[gid]
    old = app.extensions["pegs_board"]
    before = table.board_version
    r = post(c, "/api/settings", {"changes": {"board.mode": "none"}})
    assert r.status_code == 200 and r.get_json()["board"]["running"] == "none"
    assert app.extensions["pegs_board"] is None and app.extensions["pegs"].board is None
    assert old.runner is None or not old.runner.is_alive()               # the old board is closed
    assert table.board_version > before                                  # open pages reload
    assert c.get(f"/api/games/{gid}/board").get_json()["mode"] == "none"
    assert tomllib.loads(path.read_text())["board"] == {"mode": "none"}
    r = post(c, "/api/settings", {"changes": {"board.mode": "simulation"}})
    hub = app.extensions["pegs_board"]
    assert hub is not None and hub.mode == "simulation" and app.extensions["pegs"].board is hub
    hub.tick()
    assert c.get(f"/api/games/{gid}/board").get_json()["attached"]


@pytest.mark.parametrize("changes, words", [
    ({"board.settle_seconds": 0}, "board.settle_seconds: must be a number from 0.1 to 10 seconds, not 0"),
    ({"serve.port": 9000}, "serve.port: can't be changed from the settings page"),
    ({"board.mode": "sensors"}, "board.mode: a real board needs its wiring"),
    ({"wiring.leds.brightness": 0.5}, "wiring.leds.brightness: there are no LEDs configured"),
    ({}, "send {\"changes\""),
])
def test_bad_changes_name_the_key_and_change_nothing(make_app, changes, words):
    app, path = make_app()
    c = app.test_client()
    r = post(c, "/api/settings", {"changes": changes})
    assert r.status_code == 400 and words in r.get_json()["error"]
    assert path.read_text() == MINE and app.extensions["pegs"].bot_delay == 1.5


def test_a_phone_needs_the_admin_code(make_app):
    app, path = make_app()
    c = app.test_client()
    c.environ_base.update(LAN)
    page = c.get("/settings").get_data(as_text=True)
    assert 'id="code"' in page and '"authorised": false' in page and "bot_delay" not in page
    assert c.get("/api/settings").status_code == 403
    assert post(c, "/api/settings", {"changes": {"serve.bot_delay": 0}}).status_code == 403
    r = post(c, "/api/settings/unlock", {"code": "guess"})
    assert r.status_code == 403 and "not the admin code" in r.get_json()["error"]
    r = post(c, "/api/settings/unlock", {"code": " open-sesame "})
    assert r.status_code == 200
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "open-sesame" not in cookie
    assert post(c, "/api/settings", {"changes": {"serve.bot_delay": 0}}).status_code == 200
    assert tomllib.loads(path.read_text())["serve"]["bot_delay"] == 0
    # another phone without the cookie still can't
    other = app.test_client()
    other.environ_base.update(LAN)
    assert other.get("/api/settings").status_code == 403


def test_guessing_the_code_is_slowed_down(make_app):
    app, _ = make_app()
    c = app.test_client()
    c.environ_base.update(LAN)
    codes = [post(c, "/api/settings/unlock", {"code": f"guess{i}"}).status_code for i in range(6)]
    assert codes == [403] * 5 + [429]
    r = post(c, "/api/settings/unlock", {"code": "open-sesame"})     # even the right code waits
    assert r.status_code == 429 and "wait" in r.get_json()["error"]


def test_without_an_admin_code_only_the_companion_itself(make_app):
    app, _ = make_app(admin_code=None)
    c = app.test_client()
    c.environ_base.update(LAN)
    assert "admin_code" in c.get("/settings").get_data(as_text=True)
    r = c.get("/api/settings")
    assert r.status_code == 403 and "serve.admin_code" in r.get_json()["error"]
    assert post(c, "/api/settings/unlock", {"code": "anything"}).status_code == 403
    assert app.test_client().get("/api/settings").status_code == 200     # loopback


def test_without_a_config_file_changes_last_until_the_companion_stops(make_app):
    app, path = make_app(config=False)
    c = app.test_client()
    r = post(c, "/api/settings", {"changes": {"serve.bot_delay": 2.5}})
    assert r.status_code == 200
    body = r.get_json()
    assert not body["saved"] and "--config" in body["message"] and not path.exists()
    assert app.extensions["pegs"].bot_delay == 2.5


def test_led_brightness_is_live_and_kept_in_the_wiring_table(make_app, tmp_path):
    from hardware.config import load_wiring
    text = "[wiring]\nmock = true\n[wiring.leds]\nbrightness = 0.5\n"
    app, path = make_app(text=text, mode="sensors", wiring=load_wiring({"mock": True, "leds": {"brightness": 0.5}}))
    c = app.test_client()
    control = app.extensions["pegs_board_control"]
    assert control.running == "sensors" and not control.problems
    hw = control.hardware                      # opened at start; the hub takes it with the first table
    assert c.get("/api/settings").get_json()["values"]["wiring.leds.brightness"] == 0.5
    r = post(c, "/api/settings", {"changes": {"wiring.leds.brightness": 0.2}})
    assert r.status_code == 200, r.get_json()
    assert hw.leds.max_brightness == 0.2 and hw.leds.brightness == 0.2
    assert tomllib.loads(path.read_text())["wiring"]["leds"]["brightness"] == 0.2
    assert cfgmod.load_settings(str(path), probe_data_dir=False)["wiring"].leds.brightness == 0.2


def test_the_hard_bots_budget_changes_live_and_is_kept(make_app):
    app, path = make_app()
    c = app.test_client()
    r = post(c, "/api/settings", {"changes": {"serve.bot_think_ms": 400}})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["values"]["serve.bot_think_ms"] == 400
    assert app.extensions["pegs"].bot_think_ms == 400       # the next decision and hint use it
    assert tomllib.loads(path.read_text())["serve"] == {"bot_delay": 1.5, "bot_think_ms": 400}
    r = post(c, "/api/settings", {"changes": {"serve.bot_think_ms": 5}})
    assert r.status_code == 400 and "serve.bot_think_ms: must be a whole number 10-3000" in r.get_json()["error"]
    assert app.extensions["pegs"].bot_think_ms == 400
