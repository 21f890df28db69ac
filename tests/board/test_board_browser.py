"""A real browser (Debian's chromium via Playwright): a phone chooses a card, and on the
table page (1280x800) the peg is dragged on the virtual board, with the mouse and then by
touch; the referee takes the move once the board settles. Screenshots in tests/artifacts/."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .boardkit import LiveServer, simulation_app, table_with_a_come_out

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


@pytest.fixture
def live():
    srv = LiveServer(simulation_app(bot_delay=0.2), threads=24)
    yield srv
    srv.close()


def watch(page, errors):
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page, src, dst, steps=12):
    (x0, y0), (x1, y1) = centre(src), centre(dst)
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        time.sleep(0.015)
    page.mouse.up()


def touch_drag(page, src, dst, steps=10):
    """A finger: touch events through the DevTools protocol (the page sees pointer events)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = centre(src), centre(dst)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x0 + (x1 - x0) * i / steps, "y": y0 + (y1 - y0) * i / steps}]})
        time.sleep(0.015)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_drag_a_peg_on_the_virtual_board_and_the_move_is_taken(live):
    ARTIFACTS.mkdir(exist_ok=True)
    svc = live.app.extensions["pegs"]
    # seats 1-3 are the computer's: after the person's move their pegs move by themselves
    table, seat, card = table_with_a_come_out(svc, bots=[None, "greedy", "greedy", "greedy"])
    assert seat == 0
    token = svc.join(svc.join_code(table, seat))[2]
    gid, side = table.gid, table.game.seat_side[seat]
    from tests.helpers.browserkit import borrowed_browser
    errors = []
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        try:
            phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                            is_mobile=True, has_touch=True)
            phone_ctx.add_cookies([{"name": f"pj_s_{gid}", "value": token, "url": live.url}])
            phone = watch(phone_ctx.new_page(), errors)
            tv_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
            tv = watch(tv_ctx.new_page(), errors)
            # the table display, paired with the host's code (this browser is on loopback, the
            # companion's own screen, which may drive the board anyway: the pairing page is the test)
            tv.goto(f"{live.url}/d/{svc.display_code(table)}")
            tv.screenshot(path=str(ARTIFACTS / "board-pair-display.png"))
            tv.locator("#pair").click()
            tv.wait_for_url(f"**/table/{gid}")
            expect(tv.locator("#pair-note")).to_have_count(0)
            tv.wait_for_selector(f'#pegs .peg[data-hole="S-s{side}-5"]')
            expect(tv.locator("#referee")).to_have_attribute("data-state", "ready")

            # the phone chooses the card: "waiting for the board" on the phone and the table
            phone.goto(f"{live.url}/seat/{gid}")
            phone.wait_for_selector("#banner.go")
            phone.locator("#hand button.pcard").nth(table.game.hands[seat].index(card)).tap()
            expect(phone.locator("#boardbox")).to_be_visible()
            expect(phone.locator("#manual")).to_be_visible()
            expect(tv.locator("#banner")).to_contain_text("waiting for the board")
            come_out = f"M{side * 18 + 8}"
            tv.wait_for_selector(f'#leds [data-led="{come_out}"][data-role="legal"]')
            tv.wait_for_selector(f'#leds [data-led="S-s{side}-5"][data-role="can-move"]')
            phone.screenshot(path=str(ARTIFACTS / "board-seat-waiting.png"), full_page=True)
            tv.screenshot(path=str(ARTIFACTS / "board-table-following.png"))

            # drag the peg with the mouse: lifted on pick-up, placed on drop
            version = table.version
            src = tv.locator(f'#pegs .peg[data-hole="S-s{side}-5"]').bounding_box()
            dst = tv.locator(f"#{come_out}").bounding_box()
            started = time.monotonic()
            mouse_drag(tv, src, dst)
            tv.wait_for_selector(f'#pegs .peg[data-hole="{come_out}"]')
            assert table.version == version           # not before the board has settled
            tv.wait_for_selector("#log li", timeout=30000)
            took = time.monotonic() - started
            # at least the settle time (the latency itself is measured by
            # tests/benchmarks/bench_board.py; a hang fails the wait above)
            assert 0.8 <= took, took
            assert table.game.history[0]["move"].text(table.geo) == f"{card[:-1]} {side}:S-{come_out}"
            # newest first, and the computer seats may already have played after it
            expect(tv.locator("#log li").filter(has_text=f"{side}:S-{come_out}").first).to_be_visible()
            expect(phone.locator("#banner")).not_to_have_class("banner go", timeout=30000)
            tv.screenshot(path=str(ARTIFACTS / "board-table-taken.png"))

            # the computer seats play; their pegs move on the virtual board by themselves
            deadline = time.monotonic() + 20
            while table.game.actor != seat and time.monotonic() < deadline:
                time.sleep(0.1)
            assert table.game.actor == seat and table.game.turn >= 4
            expect(tv.locator("#referee")).to_have_attribute("data-state", "ready", timeout=30000)
            g = table.game
            # a finger this time: touch events, the same pointer code
            plays = [p for p in g.legal_plays() if p.move.kind == "move" and len(p.move.steps) == 1]
            if plays:
                play = plays[0]
                c, s, d = play.move.steps[0]
                from companion.matching import hole_id
                pegs = _pegs(live, gid)
                from_hole = (max((h for h in pegs if h.startswith(f"S-s{c}-")), key=lambda h: h[-1])
                             if s < 0 else hole_id(table.geo, c, s))
                to_hole = hole_id(table.geo, c, d)
                phone.locator("#hand button.pcard").nth(g.hands[seat].index(play.card)).tap()
                tv.wait_for_selector(f'#leds [data-led="{to_hole}"][data-role="legal"]')
                version = table.version
                # first into a wrong hole: it blinks "wrong", the table and phone say why and what to do
                legal = {el.get_attribute("data-led") for el in tv.locator('#leds [data-role="legal"]').all()}
                taken = _pegs(live, gid)
                L = table.geo.length
                wrong = next(f"M{(d + k) % L}" for k in range(1, L) if f"M{(d + k) % L}" not in taken
                             and f"M{(d + k) % L}" not in legal)
                touch_drag(tv, tv.locator(f'#pegs .peg[data-hole="{from_hole}"]').bounding_box(),
                           tv.locator(f"#{wrong}").bounding_box())
                expect(tv.locator("#referee")).to_have_attribute("data-state", "wrong", timeout=30000)
                tv.wait_for_selector(f'#leds [data-led="{wrong}"][data-role="wrong"]')
                expect(tv.locator("#ref-msg")).to_contain_text("(rule ")
                expect(tv.locator("#ref-fix li").first).to_contain_text(f"'s peg out of hole {wrong[1:]}")
                expect(phone.locator("#board-msg")).to_contain_text("(rule ")
                assert table.version == version
                tv.screenshot(path=str(ARTIFACTS / "board-table-wrong.png"))
                phone.screenshot(path=str(ARTIFACTS / "board-seat-wrong.png"), full_page=True)
                touch_drag(tv, tv.locator(f'#pegs .peg[data-hole="{wrong}"]').bounding_box(),
                           tv.locator(f"#{to_hole}").bounding_box())
                deadline = time.monotonic() + 5
                while table.version == version and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert table.version > version
                assert any(h["move"] == play.move for h in g.history[-4:])
                tv.screenshot(path=str(ARTIFACTS / "board-table-touch.png"))
        finally:
            browser.close()
    assert not errors, errors


def _pegs(live, gid):
    hub = live.app.extensions["pegs_board"]
    return hub.state(live.app.extensions["pegs"].get(gid))["board"]["pegs"]


def test_bluffing_on_the_board_the_table_learns_only_the_declared_rank(live):
    """Issue 13.1 in the browser: tapping a card tells the public board nothing; declaring a
    rank makes the board follow that rank."""
    import json
    import urllib.request

    from .boardkit import NAMES, _seeded
    svc = live.app.extensions["pegs"]
    with _seeded(3):
        table, _ = svc.create({"preset": "bluffing_joker", "players": 4, "teams": 2, "names": NAMES[:4],
                               "bots": [None, "greedy", "greedy", "greedy"]})
    seat = table.game.actor
    assert seat == 0
    token = svc.join(svc.join_code(table, seat))[2]
    gid = table.gid
    hand = table.game.hands[seat]
    card = next(c for c in hand if c[:-1] not in ("A", "K", "Q", "J", "JK"))   # a card that can't come out
    declared = "K"

    def public():
        with urllib.request.urlopen(f"{live.url}/api/games/{gid}/board") as r:
            return json.load(r)

    from tests.helpers.browserkit import borrowed_browser
    errors = []
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        try:
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            ctx.add_cookies([{"name": f"pj_s_{gid}", "value": token, "url": live.url}])
            phone = watch(ctx.new_page(), errors)
            phone.goto(f"{live.url}/seat/{gid}")
            phone.wait_for_selector("#banner.go")
            phone.locator("#hand button.pcard").nth(hand.index(card)).tap()
            expect(phone.locator("#declare")).to_be_visible()
            time.sleep(0.8)                                   # time for a request the page should not send
            st = public()
            assert st["rank"] is None and st["state"] == "ready", st
            phone.locator("#declare button.rank", has_text=declared).first.tap()
            deadline = time.monotonic() + 5
            while public()["state"] != "following" and time.monotonic() < deadline:
                time.sleep(0.1)
            st = public()
            assert st["state"] == "following" and st["rank"] == declared and card not in json.dumps(st), st
            assert card[:-1] not in (st["rank"],) and f"a {card[:-1]}" not in st["message"]
            ARTIFACTS.mkdir(exist_ok=True)
            phone.screenshot(path=str(ARTIFACTS / "board-seat-bluff-declared.png"), full_page=True)
        finally:
            browser.close()
    assert not errors, errors


def test_the_table_page_says_the_board_in_words(live):
    """Issue 14.4 on the table page: a peg of the wrong colour brought out is refused in words
    naming its owner; a move the board fits reads in words, its notation in a details view;
    the LED legend says a hole lit in a peg's colour wants that peg."""
    import re
    svc = live.app.extensions["pegs"]
    hub = live.app.extensions["pegs_board"]
    table, seat, card = table_with_a_come_out(svc)
    token = svc.join(svc.join_code(table, seat))[2]
    gid, side = table.gid, table.game.seat_side[seat]
    other = (side + 1) % 4
    owner = table.seats[table.game.side_seat[other]].name
    from companion.words import a_rank as aRank
    notation = re.compile(r"\b\d+:[SMH]|\b[MH]\d+\b|\bside \d")
    from tests.helpers.browserkit import borrowed_browser
    errors = []
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        try:
            tv = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page(), errors)
            tv.goto(f"{live.url}/table/{gid}")
            expect(tv.locator("#referee")).to_have_attribute("data-state", "ready")
            legend = tv.locator(".led-legend").inner_text()
            assert "a peg's colour, winking: that peg goes here" in legend and "steady: may go here" not in legend
            assert "conic-gradient" in tv.locator("#want-key").evaluate("e => e.style.background")
            hub.choose(table, token, {"version": table.version, "card": card})
            come_out = f"M{side * 18 + 8}"
            tv.wait_for_selector(f'#leds [data-led="{come_out}"][data-role="legal"]')
            expect(tv.locator("#banner")).to_contain_text(f"plays {aRank(card[:-1])}: waiting for the board")
            # the next player's peg brought out instead of one's own (P8)
            mouse_drag(tv, tv.locator(f'#pegs .peg[data-hole="S-s{other}-5"]').bounding_box(),
                       tv.locator(f"#{come_out}").bounding_box())
            expect(tv.locator("#referee")).to_have_attribute("data-state", "wrong", timeout=30000)
            expect(tv.locator("#ref-msg")).to_have_text(f"That's {owner}'s peg: you may move only your own (rule P8)")
            said = tv.locator("#referee").inner_text()
            assert not notation.search(said), said
            # a candidate line: words shown, the notation only once its details are opened
            tv.evaluate("""() => document.getElementById("ref-cands").replaceChildren(PJ.candidateLine(
                {move: "7 0:M10-M14 2:M12-M15", words: "Ann (Red) split a 7: a peg 4 forward"}))""")
            line = tv.locator("#ref-cands li")
            assert line.inner_text().startswith("Ann (Red) split a 7") and not notation.search(line.inner_text())
            line.locator("summary").click()
            expect(line.locator("code")).to_have_text("7 0:M10-M14 2:M12-M15")
            ARTIFACTS.mkdir(exist_ok=True)
            tv.screenshot(path=str(ARTIFACTS / "board-table-words.png"))
        finally:
            browser.close()
    assert not errors, errors


def test_a_hint_lights_its_move_on_the_simulated_board(live):
    """Issue 17.3: the seat taps Hint on its phone; the table page's simulated board lights
    the hinted move's holes in the hint look (reddish purple, heartbeat), and the legend says
    what it means."""
    ARTIFACTS.mkdir(exist_ok=True)
    svc = live.app.extensions["pegs"]
    table, seat, card = table_with_a_come_out(svc, bots=[None, "greedy", "greedy", "greedy"])
    with table.cond:
        table.seats[seat].hints = True          # as the host's "hints on" for this seat
    token = svc.join(svc.join_code(table, seat))[2]
    gid = table.gid
    from tests.helpers.browserkit import borrowed_browser
    errors = []
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        try:
            phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                            has_touch=True)
            phone_ctx.add_cookies([{"name": f"pj_s_{gid}", "value": token, "url": live.url}])
            phone = watch(phone_ctx.new_page(), errors)
            tv = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page(), errors)
            tv.goto(f"{live.url}/table/{gid}")
            expect(tv.locator("#referee")).to_have_attribute("data-state", "ready")
            phone.goto(f"{live.url}/seat/{gid}")
            phone.wait_for_selector("#banner.go")
            phone.locator("#hint").tap()
            expect(phone.locator("#hint-text")).to_contain_text("Hint: ", timeout=30000)
            tv.wait_for_selector('#leds [data-role="hint"]', timeout=30000)
            hinted = {c.get_attribute("data-led") for c in tv.locator('#leds [data-role="hint"]').all()}
            live_ref = svc.board.referee
            assert hinted == set(live_ref.core.hint_holes()) and hinted
            led = tv.locator('#leds [data-role="hint"]').first
            assert "led-heartbeat" in led.get_attribute("class")
            r, g, b = (int(led.get_attribute("fill")[i:i + 2], 16) for i in (1, 3, 5))
            assert r > b > g                     # the reddish purple of ROLES["hint"] (204, 121, 167)
            key = tv.locator(".led-legend .role-hint")
            expect(key).to_have_count(1)
            assert key.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(204, 121, 167)"
            tv.screenshot(path=str(ARTIFACTS / "board-table-hint.png"))
            assert not errors, errors
        finally:
            browser.close()


def test_jackaroo_a_card_chosen_on_the_phone_is_followed_on_the_simulated_board(live):
    """Issue 18: in the related games the phone tells the board the chosen card too (its
    peg moves are made on the board, the options stay on the phone): a Jackaroo king is
    followed, the marble dragged onto its base hole on the table page is taken."""
    from .boardkit import NAMES, _seeded
    svc = live.app.extensions["pegs"]
    with _seeded(5):
        table, _ = svc.create({"preset": "jackaroo", "players": 4, "teams": 2, "names": NAMES[:4],
                               "bots": [None] * 4})
    g = table.game
    seat = g.actor
    with table.cond:
        g.hands[seat] = ["KH"] + g.hands[seat][1:]
        table.plays_cache = None
    side = g.seat_side[seat]
    token = svc.join(svc.join_code(table, seat))[2]
    gid = table.gid
    base = f"M{18 * side + 17}"                          # JR-G1: the base hole
    from tests.helpers.browserkit import borrowed_browser
    errors = []
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        try:
            phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                            has_touch=True)
            phone_ctx.add_cookies([{"name": f"pj_s_{gid}", "value": token, "url": live.url}])
            phone = watch(phone_ctx.new_page(), errors)
            tv = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page(), errors)
            tv.goto(f"{live.url}/d/{svc.display_code(table)}")
            tv.locator("#pair").click()
            tv.wait_for_url(f"**/table/{gid}")
            tv.wait_for_selector(f'#pegs .peg[data-hole="S-s{side}-4"]')
            expect(tv.locator("#referee")).to_have_attribute("data-state", "ready")
            phone.goto(f"{live.url}/seat/{gid}")
            phone.wait_for_selector("#banner.go")
            phone.locator("#hand button.pcard").nth(0).tap()
            expect(phone.locator("#prompt")).to_contain_text("Move the peg on the board")
            expect(phone.locator("#choices .option").first).to_be_visible()   # the phone's way stays open
            tv.wait_for_selector(f'#leds [data-led="{base}"][data-role="legal"]')
            tv.wait_for_selector(f'#leds [data-led="S-s{side}-4"][data-role="can-move"]')
            phone.screenshot(path=str(ARTIFACTS / "board-seat-jackaroo-following.png"), full_page=True)
            version = table.version
            src = tv.locator(f'#pegs .peg[data-hole="S-s{side}-4"]').bounding_box()
            dst = tv.locator(f"#{base}").bounding_box()
            mouse_drag(tv, src, dst)
            tv.wait_for_selector(f'#pegs .peg[data-hole="{base}"]')
            deadline = time.monotonic() + 10
            while table.version == version and time.monotonic() < deadline:
                time.sleep(0.05)
            assert table.game.history[-1]["move"].text(table.geo) == f"K {side}:S-{base}"
            phone.screenshot(path=str(ARTIFACTS / "board-seat-jackaroo.png"), full_page=True)
            tv.screenshot(path=str(ARTIFACTS / "board-table-jackaroo.png"))
            assert not errors, errors
        finally:
            browser.close()
