"""Issue 25, "Tests and figures": axe-core on every page, in every language (en, fr_CA, ar), in
the states a game goes through, and the layout check at 390 px, 320 px, 200 % text and 200 %
zoom. Marked slow (about 14 page states x 3 languages x 4 conditions): .ci/run runs it after
the fast suite; tests/web/test_web_browser_a11y.py keeps one representative page fast."""
from __future__ import annotations

import os
import random

import pytest
from playwright.sync_api import expect

from .a11ykit import axe_violations, layout_problems
from .test_web_browser import CHROMIUM, PHONE, browser  # noqa: F401  (browser: the module's fixture)
from .test_web_browser_a11y import NAMES, advance_until, card_button, context, movable
from .webkit import choose

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

ZOOM = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}   # a 390 px phone at 200 % zoom


class Sweep:
    """Checks a page as it is now: axe at 390 px, then the layout at 390 px, 320 px, 200 % zoom
    and 200 % text (the browser's text size, changed on the live page), then back."""

    def __init__(self, lang):
        self.lang = lang
        self.checked = []
        self.failures = []

    def check(self, page, what, board_target=None):
        where = f"{what} ({self.lang})"
        self.checked.append(where)
        for v in axe_violations(page):
            self.failures.append(f"{where}: axe {v['impact']} {v['id']}: {v['help']} {v['nodes']}")
        cdp = page.context.new_cdp_session(page)
        for cond, viewport, text in (("390 px", PHONE, 16), ("320 px", {"width": 320, "height": 640}, 16),
                                     ("200 % zoom", ZOOM, 16), ("200 % text", PHONE, 32)):
            page.set_viewport_size(viewport)
            cdp.send("Page.setFontSizes", {"fontSizes": {"standard": text, "fixed": round(text * 13 / 16)}})
            page.wait_for_timeout(60)
            for p in layout_problems(page, board_target=board_target):
                self.failures.append(f"{where} at {cond}: {p}")
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        page.set_viewport_size(PHONE)
        cdp.detach()


@pytest.mark.parametrize("lang", ["en", "fr_CA", "ar"])
def test_every_page_in_every_state_has_no_serious_axe_violation_and_holds_at_320px_200pct(live, browser, lang):
    svc = live.app.extensions["pegs"]
    sweep = Sweep(lang)
    t, host_token = svc.create({"preset": "basic", "players": 4, "teams": 2, "names": NAMES[:4]})
    gid = t.gid
    ctx = context(browser, lang=lang)
    ctx.add_cookies([{"name": f"pj_h_{gid}", "value": host_token, "domain": "127.0.0.1", "path": "/"}])
    page = ctx.new_page()
    for path, what in (("/", "home"), ("/new", "new table"), (f"/host/{gid}", "host, seats free"),
                       (f"/rules/{gid}", "what each card does"), ("/settings", "settings"),
                       ("/settings/camera", "camera"), ("/j/ZZZZZZ", "join, code not valid"),
                       ("/no/such/page", "not found")):
        page.goto(live.url + path)
        page.wait_for_load_state("networkidle")
        sweep.check(page, what)

    # a game under way: the acting seat (its turn, a card chosen, the move to confirm), a waiting seat
    seat, p = advance_until(live, t, movable)
    card = next(c["card"] for c in p["cards"] if c["moves"])
    me = ctx.new_page()
    me.goto(f"{live.url}/j/{svc.join_code(t, seat)}")
    sweep.check(me, "join, a free seat")
    me.locator("#take-seat").tap()
    me.wait_for_selector("#hand button.pcard")
    expect(me.locator("#banner.go")).to_be_visible()
    sweep.check(me, "seat, its turn")
    card_button(me, t, seat, card).tap()
    me.wait_for_selector("#choices button.choice, #confirm:not([hidden])")
    sweep.check(me, "seat, a card chosen")
    for _ in range(4):
        if me.locator("#confirm:visible").count():
            break
        me.locator("#choices button.choice").first.tap()
    sweep.check(me, "seat, the move to confirm")
    other_ctx = context(browser, lang=lang)
    other = other_ctx.new_page()
    other.goto(f"{live.url}/j/{svc.join_code(t, (seat + 1) % 4)}")
    other.locator("#take-seat").tap()
    other.wait_for_selector("#hand button.pcard")
    sweep.check(other, "seat, waiting")
    page.goto(f"{live.url}/host/{gid}")
    page.wait_for_selector(".seat-card")
    sweep.check(page, "host, playing")
    tv = ctx.new_page()
    tv.goto(f"{live.url}/table/{gid}")
    tv.wait_for_selector("#pegs .peg")
    sweep.check(tv, "table, playing")
    # the seat handed to the computer: its phone says so
    svc.host_action(t, host_token, "bot", {"version": t.version, "seat": (seat + 1) % 4, "bot": "greedy"})
    other.wait_for_selector("#noseat:not([hidden])")
    sweep.check(other, "seat, given to the computer")
    # the host ends the game
    svc.host_action(t, host_token, "end", {"version": t.version})
    expect(me.locator("#banner")).not_to_have_class("banner go")
    me.wait_for_timeout(500)
    sweep.check(me, "seat, game ended")
    tv.wait_for_timeout(500)
    sweep.check(tv, "table, game ended")

    # Bluffing Joker: a card played face down, the next seat's doubt
    b, _ = svc.create({"preset": "bluffing_joker", "players": 4, "teams": 2, "names": NAMES[:4]})
    rng = random.Random(1)
    for _ in range(200):
        if b.game.phase == "doubt":
            break
        with b.cond:
            pb = svc._plays(b)
        svc.act_as(b, b.game.actor, {"version": pb["version"], **choose(pb, rng, set(), bluff_rate=1.0)})
    assert b.game.phase == "doubt", "no card was played face down"
    if True:
        dp = ctx.new_page()
        dp.goto(f"{live.url}/j/{svc.join_code(b, b.game.actor)}")
        dp.locator("#take-seat").tap()
        dp.wait_for_selector("#choices #doubt")
        sweep.check(dp, "seat, doubt or pass")

    # 8 players: the phone's board targets at 44 px
    e, _ = svc.create({"preset": "basic", "players": 8, "teams": 2, "names": NAMES[:8]})
    seat8, p8 = advance_until(live, e, movable)
    ep = ctx.new_page()
    ep.goto(f"{live.url}/j/{svc.join_code(e, seat8)}")
    ep.locator("#take-seat").tap()
    ep.wait_for_selector("#hand button.pcard")
    card_button(ep, e, seat8, next(c["card"] for c in p8["cards"] if c["moves"])).tap()
    ep.wait_for_selector("#targets .target")
    sweep.check(ep, "seat, 8 players, a card chosen", board_target=44)
    ctx.close()
    other_ctx.close()
    print(f"a11y sweep {lang}: {len(sweep.checked)} page states x 4 conditions, {len(sweep.failures)} problems")
    assert not sweep.failures, "\n".join(sweep.failures)
