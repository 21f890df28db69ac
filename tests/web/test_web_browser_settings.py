"""A real browser (Debian's chromium via Playwright) against the app as `pegs serve` builds
it (`web.cli.resolve` reads the config file, `web.main.build_app`, waitress):

* the safe start: board mode "sensors" on this PC (no Raspberry Pi) still serves, and the
  table page says what failed, how to fix it, and "Try the board again" keeps working;
* the settings page, opened on the companion itself (loopback, no admin code): values
  shown, changed, saved to the config file (its comments kept), a bad value refused;
* a board mode changed on the settings page reloads an open table page by itself.
"""
from __future__ import annotations

import os
import time
import tomllib
import warnings

import pytest
from .webkit import LiveServer, Phone
from playwright.sync_api import expect
from .test_web_browser import CHROMIUM, browser, phone  # noqa: F401  (browser: the module's fixture)

from web import config as cfgmod
from web.cli import resolve
from web.main import build_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(90),
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
    pytest.mark.filterwarnings("ignore::Warning:gpiozero"),   # pin-factory fallback chatter on a PC
]

OUR_NIGHTS = "# our nights\n[serve]\nbot_delay = 0.8\n"
FAILED_TO_START = "failed to start"   # web.board's log line for the safe start (an ERROR, on purpose)


@pytest.fixture(autouse=True)
def _no_system_wiring(tmp_path, monkeypatch):
    """This PC's /etc/pegs-companion/wiring.toml (if any) plays no part."""
    monkeypatch.setattr(cfgmod, "DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))


@pytest.fixture
def serve(tmp_path):
    """serve(*argv) -> LiveServer: `pegs serve ARGV` as web.server.run builds it, on a free port."""
    servers = []

    def start(*argv):
        conf = resolve(["--data-dir", str(tmp_path / "data"), *argv], env={})
        board = conf["board"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # gpiozero, when the real board is tried
            app = build_app({"DATA_DIR": conf["data_dir"], "BOT_DELAY": conf["bot_delay"],
                             "PUBLIC_URL": conf["public_url"], "BOARD_MODE": board["mode"],
                             "SETTLE_SECONDS": board["settle_seconds"], "WIRING": conf["wiring"],
                             "CONFIG_PATH": conf["config_path"], "WIRING_FILE": board["wiring"],
                             "ADMIN_CODE": conf["admin_code"]})
        srv = LiveServer(app)
        servers.append(srv)
        return srv
    yield start
    for srv in servers:
        srv.close()
        srv.app.extensions["pegs_board_control"].close()
        srv.app.extensions["pegs"].store.close()


def watch(page, errors):
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def new_table(srv) -> str:
    status, body, _ = Phone(srv.port).post("/api/games", {"preset": "basic", "players": 4, "teams": 2,
                                                          "names": ["Ann", "Bob", "Cy", "Di"]})
    assert status == 201, body
    return body["gid"]


OBSERVE_THE_PROBLEMS = """() => {
  const box = document.getElementById('board-problem'), list = document.getElementById('board-problems');
  window.__seen = [];
  new MutationObserver(() => window.__seen.push({hidden: box.hidden, text: list.textContent}))
    .observe(box, {attributes: true, childList: true, subtree: true, characterData: true});
}"""


def shows_the_problems(state) -> bool:
    return not state["hidden"] and "not a Raspberry Pi" in state["text"]


def boot_mode(page) -> str:
    return page.evaluate("JSON.parse(document.getElementById('boot').textContent).board.mode")


def test_safe_start_table_page_says_what_failed_and_retry_keeps_it(serve, browser, tmp_path, caplog):  # noqa: F811
    wiring = tmp_path / "wiring.toml"
    wiring.write_text("[board]\nsides = 4\n")
    srv = serve("--board", "sensors", "--wiring", str(wiring))
    control = srv.app.extensions["pegs_board_control"]
    assert control.mode == "sensors" and control.running == "none" and control.problems   # it served anyway
    gid = new_table(srv)

    ctx, page, errors = phone(browser)
    tried = []
    try:
        page.goto(f"{srv.url}/table/{gid}")
        page.wait_for_selector("#pegs .peg")
        expect(page.locator("#conn")).to_have_text("live")
        assert boot_mode(page) == "none"                       # the phones are the board
        box = page.locator("#board-problem")
        expect(box).to_be_visible()
        expect(box).to_contain_text("The board did not start")
        expect(box.locator("#board-problems li").first).to_be_visible()
        expect(box.locator("#board-problems")).to_contain_text("not a Raspberry Pi")
        expect(box.locator("#board-problems")).to_contain_text('board.mode = "simulation"')
        expect(page.locator("#referee")).to_be_hidden()
        before = box.locator("#board-problems li").count()
        # every state the section goes through from here on (it must never hide, nor lose the problems)
        page.evaluate(OBSERVE_THE_PROBLEMS)

        retry = page.locator("#board-retry")
        expect(retry).to_be_enabled()
        # the retry's answer, then (told over the event stream) the page asks for the board again
        with page.expect_response(lambda r: r.url.endswith(f"/api/games/{gid}/board")) as board, \
                page.expect_response(lambda r: r.url.endswith("/api/board/retry")) as answer:
            retry.click()
        assert answer.value.status == 200 and board.value.status == 200
        st = answer.value.json()
        assert st["configured"] == "sensors" and st["running"] == "none" and st["can_retry"]   # still broken
        expect(retry).to_have_text("Try the board again")      # the button came back
        expect(retry).to_be_enabled()
        page.wait_for_function("() => window.__seen.length && "
                               "window.__seen[window.__seen.length - 1].text.includes('not a Raspberry Pi')")
        expect(box).to_be_visible()
        expect(box.locator("#board-problems")).to_contain_text("not a Raspberry Pi")
        expect(box.locator("#board-problems li")).to_have_count(before)
        seen = page.evaluate("window.__seen")
        assert seen
        odd = [s for s in seen if not shows_the_problems(s)]
        assert not odd, odd                                    # never hidden with the problems, nor an error shown
        assert boot_mode(page) == "none" and page.url.endswith(f"/table/{gid}")   # no reload: same mode
        assert not errors, errors
    finally:
        ctx.close()
        # the board's "failed to start" errors are logged on purpose (at start, and on the retry):
        # keep only the others for the no-server-errors check
        tried = [r for r in caplog.records if r.name == "web.board" and FAILED_TO_START in r.getMessage()]
        caplog.records[:] = [r for r in caplog.records if r not in tried]
    assert tried, "the retry did not try the hardware again"


def test_retry_keeps_the_problems_shown_while_it_tries(serve, browser, tmp_path, caplog, monkeypatch):  # noqa: F811
    """On a Pi, opening the hardware can take a while (an I2C expander that doesn't answer, a
    camera's first frame): the section must not vanish meanwhile. Here the probe takes 0.6 s."""
    from hardware import diagnose
    wiring = tmp_path / "wiring.toml"
    wiring.write_text("[board]\nsides = 4\n")
    srv = serve("--board", "sensors", "--wiring", str(wiring))
    gid = new_table(srv)
    probe = diagnose.open_hardware

    def slow_probe(hw, **kw):
        time.sleep(0.6)
        return probe(hw, **kw)
    monkeypatch.setattr(diagnose, "open_hardware", slow_probe)

    ctx, page, errors = phone(browser)
    try:
        page.goto(f"{srv.url}/table/{gid}")
        page.wait_for_selector("#pegs .peg")
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#board-problem")).to_be_visible()
        page.evaluate(OBSERVE_THE_PROBLEMS)
        retry = page.locator("#board-retry")
        with page.expect_response(lambda r: r.url.endswith("/api/board/retry")):
            retry.click()
        expect(retry).to_have_text("Try the board again")
        page.wait_for_function("() => window.__seen.length && "
                               "window.__seen[window.__seen.length - 1].text.includes('not a Raspberry Pi')")
        expect(page.locator("#board-problem")).to_be_visible()
        assert not errors, errors
        seen = page.evaluate("window.__seen")
        hidden = [s for s in seen if not shows_the_problems(s)]
        assert not hidden, hidden                              # never {"hidden": True, "text": ""}
    finally:
        ctx.close()
        tried = [r for r in caplog.records if r.name == "web.board" and FAILED_TO_START in r.getMessage()]
        caplog.records[:] = [r for r in caplog.records if r not in tried]


def test_settings_page_saves_to_the_config_file_and_refuses_a_bad_value(serve, browser, tmp_path):  # noqa: F811
    path = tmp_path / "config.toml"
    path.write_text(OUR_NIGHTS)
    srv = serve("--config", str(path))
    svc, control = srv.app.extensions["pegs"], srv.app.extensions["pegs_board_control"]

    ctx, page, errors = phone(browser)
    try:
        page.goto(f"{srv.url}/settings")
        form = page.locator("#settings-form")
        expect(form).to_be_visible()                           # loopback: no admin code asked
        expect(page.locator("#unlock-form")).to_be_hidden()
        expect(page.locator("#board-mode")).to_have_value("simulation")
        expect(page.locator("#bot-delay")).to_have_value("0.8")
        expect(page.locator("#settle")).to_have_value("0.8")
        expect(page.locator("#brightness")).to_be_disabled()  # no LEDs configured
        expect(page.locator("#config-path")).to_have_text(f"Kept in {path}.")
        expect(page.locator("#board-status")).to_be_hidden()

        page.fill("#bot-delay", "2.5")
        page.fill("#settle", "1.5")
        page.click("#save")
        expect(page.locator("#settings-msg")).to_have_text(f"Saved to {path}.")
        expect(page.locator("#settings-error")).to_be_hidden()
        text = path.read_text()
        assert text.startswith("# our nights\n")               # the owner's comment kept
        assert tomllib.loads(text) == {"serve": {"bot_delay": 2.5}, "board": {"settle_seconds": 1.5}}
        assert svc.bot_delay == 2.5 and control.settle == 1.5 and control.hub.settle == 1.5   # live
        page.reload()
        expect(page.locator("#bot-delay")).to_have_value("2.5")
        expect(page.locator("#settle")).to_have_value("1.5")
        assert not errors, errors

        saved = path.read_bytes()
        page.fill("#settle", "0")
        with page.expect_response(lambda r: r.url.endswith("/api/settings") and r.request.method == "POST") as answer:
            page.click("#save")
        assert answer.value.status == 400
        err = page.locator("#settings-error")
        expect(err).to_be_visible()
        expect(err).to_contain_text("board.settle_seconds")
        expect(err).to_contain_text("0.1 to 10")
        expect(page.locator("#save")).to_be_enabled()
        assert path.read_bytes() == saved                      # nothing written
        assert control.settle == 1.5 and control.hub.settle == 1.5
        # the browser logs the refused request itself; nothing else went wrong
        assert len(errors) == 1 and "status of 400" in errors[0], errors
    finally:
        ctx.close()


def test_board_mode_changed_in_settings_reloads_an_open_table_page(serve, browser, tmp_path):  # noqa: F811
    path = tmp_path / "config.toml"
    path.write_text(OUR_NIGHTS)
    srv = serve("--config", str(path))
    gid = new_table(srv)

    ctx, table, errors = phone(browser)
    try:
        table.goto(f"{srv.url}/table/{gid}")
        table.wait_for_selector("#pegs .peg")
        expect(table.locator("#conn")).to_have_text("live")
        assert boot_mode(table) == "simulation"
        expect(table.locator("#referee")).to_be_visible()
        expect(table.locator("#referee .led-legend")).to_be_visible()
        expect(table.locator("#board-problem")).to_be_hidden()
        table.evaluate("window.__beforeTheChange = true")      # gone once the page reloads

        settings = watch(ctx.new_page(), errors)                # a second tab
        settings.goto(f"{srv.url}/settings")
        expect(settings.locator("#board-mode")).to_have_value("simulation")
        settings.select_option("#board-mode", "none")
        settings.click("#save")
        expect(settings.locator("#settings-msg")).to_have_text(f"Saved to {path}.")
        assert tomllib.loads(path.read_text())["board"] == {"mode": "none"}
        assert path.read_text().startswith("# our nights\n")

        # the table page is told over its event stream, and reloads itself with the new mode
        table.wait_for_function("() => !window.__beforeTheChange && JSON.parse("
                                "document.getElementById('boot').textContent).board.mode === 'none'",
                                timeout=30000)
        table.wait_for_selector("#pegs .peg")
        expect(table.locator("#referee")).to_be_hidden()
        expect(table.locator("#referee .led-legend")).not_to_be_visible()
        expect(table.locator("#board-problem")).to_be_hidden()
        expect(table.locator("#conn")).to_have_text("live")
        assert srv.app.extensions["pegs_board"] is None
        assert not errors, errors
    finally:
        ctx.close()
