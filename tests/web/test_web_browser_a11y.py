"""Issue 25 §3 and §4 (4, 5, 8) in Chromium: eyes and hands of every kind.

The fast tests here take one representative page each; the sweep of every page in every
language through a game's states is test_web_browser_a11y_sweep.py (marked slow).
"""
from __future__ import annotations

import os
import random
import re

import pytest
from playwright.sync_api import expect

from .a11ykit import axe_violations, layout_problems, report, serve_axe, text_size
from .test_web_browser import CHROMIUM, PHONE, browser  # noqa: F401  (browser: the module's fixture)
from .webkit import H, choose, join_all

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


def table(live, players=4, preset="basic", teams=2):
    svc = live.app.extensions["pegs"]
    t, host_token = svc.create({"preset": preset, "players": players, "teams": teams, "names": NAMES[:players]})
    return t, host_token


def context(browser, lang="en", viewport=PHONE, scale=2):
    ctx = browser.new_context(viewport=viewport, device_scale_factor=scale, is_mobile=True, has_touch=True)
    ctx.add_cookies([{"name": "pj_lang", "value": lang, "domain": "127.0.0.1", "path": "/"}])
    serve_axe(ctx)
    return ctx


def seated(ctx, live, t, seat, errors=None):
    """A page of `ctx` that took `seat` by its join link, its hand drawn."""
    svc = live.app.extensions["pegs"]
    page = ctx.new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live.url}/j/{svc.join_code(t, seat)}")
    page.locator("#take-seat").tap()
    page.wait_for_selector("#hand button.pcard")
    return page


# ------------------------------------------------------------------ text size, zoom, 320 px, axe

def test_the_seat_page_follows_the_text_size_and_holds_at_320px_200pct_text_and_zoom(live, browser):
    t, _ = table(live)
    actor = t.game.actor
    ctx = context(browser, lang="ar")
    errors = []
    page = seated(ctx, live, t, actor, errors)
    expect(page.locator("#banner.go")).to_be_visible()
    # axe on the seat page at its turn (Arabic, right to left), then with a card chosen
    bad = axe_violations(page)
    assert not bad, report(bad)
    page.locator("#hand button.pcard").first.tap()
    expect(page.locator("#cancel")).to_be_visible()
    bad = axe_violations(page)
    assert not bad, report(bad)
    # focus went to the next choice (in the action area), and (4.8) the sticky hand doesn't
    # cover the lowest button the action area offers (a peg to move, Discard, Back)
    assert page.evaluate("!!document.activeElement.closest('#action')"), page.evaluate("document.activeElement.outerHTML")
    lowest = max((b.bounding_box() for b in page.locator("#action button:visible").all()), key=lambda r: r["y"])
    h = page.locator("#hand").bounding_box()
    assert lowest["y"] + lowest["height"] <= h["y"] + 0.5, (lowest, h)
    assert page.evaluate("getComputedStyle(document.querySelector('#hand')).position") == "sticky"
    cookies = ctx.cookies()
    ctx.close()
    assert not errors, errors

    # at 320 px, at 200 % text (the browser's setting: the root font follows, 17 px -> 34 px,
    # and the board's labels grow) and at 200 % zoom: nothing spills or overlaps, no small target
    _layouts(browser, live, t, cookies)


def _layouts(browser, live, t, cookies):
    """The seat page (this seat's cookies) under each condition: no layout problem."""
    for what, viewport, scale, text in [("320 px", {"width": 320, "height": 640}, 2, None),
                                        ("200 % text", PHONE, 2, 32),
                                        ("200 % zoom", {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}, 4, None)]:
        ctx = context(browser, lang="fr_CA", viewport=viewport, scale=scale)
        page = ctx.new_page()
        if text:
            text_size(page, text)
        ctx.add_cookies([c for c in cookies if c["name"] != "pj_lang"])
        page.goto(f"{live.url}/seat/{t.gid}")
        page.wait_for_selector("#hand button.pcard")
        if text:
            assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") >= 33.9
            label = page.locator("svg.board text.side-label").first
            assert float(label.get_attribute("font-size")) >= 1.9 * float(label.get_attribute("data-size"))
        problems = layout_problems(page)
        assert not problems, (what, problems)
        page.locator("#hand button.pcard").first.tap()   # a card chosen: the choices and Back shown
        page.wait_for_selector("#cancel:not([hidden])")
        problems = layout_problems(page)
        assert not problems, (what, "card chosen", problems)
        ctx.close()
