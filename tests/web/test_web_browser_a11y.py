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
    # every seat page has its <h1>; a card button's name begins with what it shows (voice control:
    # "tap 10"), in Arabic too
    assert page.locator("h1").count() >= 1
    names = page.evaluate("""() => [...document.querySelectorAll('#hand button.pcard')].map((b) =>
        [b.querySelector('.rank').textContent, b.getAttribute('aria-label')])""")
    assert names and all(label.split(" ")[0] == shown for shown, label in names), names
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


# ------------------------------------------------------------------ helpers: a game moved on by the server

def advance_until(live, t, want, limit=400):
    """Play turns server-side (webkit.choose, acted for the seat as the board referee acts)
    until want(plays) holds for the acting seat: (that seat, its plays). No phone is needed,
    so a browser can take any seat after."""
    svc = live.app.extensions["pegs"]
    rng = random.Random(5)
    for _ in range(limit):
        seat = t.game.actor
        with t.cond:
            p = svc._plays(t)
        if p.get("cards") is not None and want(p):
            return seat, p
        mine = {str(t.game.seat_side[s]) for s in range(len(t.seats)) if t.game.team_of_seat(s) == t.game.team_of_seat(seat)}
        svc.act_as(t, seat, {"version": p["version"], **choose(p, rng, mine)})
    raise AssertionError("no such turn came")


def movable(p):
    return any(c["moves"] for c in p["cards"]) and not p.get("options")


def card_button(page, t, seat, card):
    """The hand's button for `card` (the hand is drawn in the view's order)."""
    return page.locator("#hand button.pcard").nth(t.game.player_view(seat)["hand"].index(card))


def focused(page):
    return page.evaluate("""() => { const a = document.activeElement;
        return { id: a.id, tag: a.tagName, action: !!a.closest('#action'), hand: !!a.closest('#hand'),
                 text: a.textContent.trim().slice(0, 60), enabled: !a.disabled }; }""")


# ------------------------------------------------------------------ keyboard: focus on the next choice; the last move marked

def test_a_turn_played_by_keyboard_keeps_focus_on_the_next_choice_and_the_move_is_marked(live, browser):
    t, _ = table(live)
    seat, p = advance_until(live, t, movable)
    card = next(c["card"] for c in p["cards"] if c["moves"])
    ctx = context(browser)
    errors = []
    page = seated(ctx, live, t, seat, errors)
    other_ctx = context(browser)
    other = seated(other_ctx, live, t, (seat + 1) % 4, errors)
    tv_ctx = context(browser, viewport={"width": 1280, "height": 800}, scale=1)
    tv = tv_ctx.new_page()
    tv.goto(f"{live.url}/table/{t.gid}")
    tv.wait_for_selector("#pegs .peg")
    expect(page.locator("#banner.go")).to_be_visible()
    card_button(page, t, seat, card).focus()
    page.keyboard.press("Enter")
    turn = t.game.turn
    for _ in range(8):   # Enter on whatever has focus: the next choice each time, then Confirm
        page.wait_for_timeout(100)
        if t.game.turn != turn:
            break
        f = focused(page)
        assert f["action"] and f["tag"] == "BUTTON" and f["enabled"], f
        page.keyboard.press("Enter")
    expect(page.locator("#banner.go")).to_have_count(0)
    assert t.game.turn != turn
    # the move just made is marked (a square where the peg arrived) on every board
    for pg in (page, other, tv):
        expect(pg.locator("#last-move .last-to").first).to_be_attached()
    # the discard pile's card is named to screen readers (an image with the card's name)
    expect(other.locator("#piles").get_by_role("img", name=re.compile(r"\S"))).to_have_count(1)
    for c in (ctx, other_ctx, tv_ctx):
        c.close()
    assert not errors, errors


# ------------------------------------------------------------------ 4.5: the 7 split's preview

def test_a_seven_split_is_drawn_half_made_and_its_preview_leaves_the_board_readable(live, browser):
    t, _ = table(live)
    seat, p = advance_until(live, t, lambda p: any(c["rank"] == "7" and any(len(m["steps"]) == 2 for m in c["moves"])
                                                   for c in p["cards"]))
    seven = next(c for c in p["cards"] if c["rank"] == "7" and any(len(m["steps"]) == 2 for m in c["moves"]))
    split = next(m for m in seven["moves"] if len(m["steps"]) == 2)
    first, second = split["steps"]
    ctx = context(browser)
    errors = []
    page = seated(ctx, live, t, seat, errors)
    card_button(page, t, seat, seven["card"]).tap()
    tap = lambda hole: page.locator(f'#targets .target[data-hole="{hole}"]').first.dispatch_event("click")
    tap(first["from_id"])
    tap(first["to_id"])
    # half made: the first peg is drawn where it went, ringed thinly, not as a disc
    expect(page.locator(f'#pegs .peg[data-hole="{first["to_id"]}"]')).to_have_count(1)
    assert page.locator(f'#targets .mark.chosen').count() == 1
    tap(second["from_id"])
    tap(second["to_id"])
    expect(page.locator("#confirm")).to_be_visible()
    assert page.locator("#targets .target.dest, #targets .target.chosen").count() == 0
    marks = page.evaluate("""() => [...document.querySelectorAll('#targets .mark')].map((m) => ({
        fill: getComputedStyle(m).fill, r: Number(m.getAttribute('r')), events: getComputedStyle(m).pointerEvents }))""")
    unit = float(page.locator("#board").get_attribute("data-unit"))
    assert len(marks) == 2 and all(m["fill"] == "none" and m["r"] <= 0.5 * unit and m["events"] == "none" for m in marks), marks
    page.locator("#confirm").tap()
    expect(page.locator("#banner.go")).to_have_count(0)
    ctx.close()
    assert not errors, errors


# ------------------------------------------------------------------ connection lost

def test_while_the_companion_cant_be_reached_confirm_is_blocked_and_the_move_waits(live, browser):
    t, _ = table(live)
    seat, p = advance_until(live, t, movable)
    card = next(c["card"] for c in p["cards"] if c["moves"])
    ctx = context(browser)
    errors = []
    page = seated(ctx, live, t, seat, errors)
    card_button(page, t, seat, card).tap()
    for _ in range(4):
        if page.locator("#confirm:visible").count():
            break
        page.locator("#choices button.choice").first.tap()
    expect(page.locator("#confirm")).to_be_visible()
    words = page.locator("#confirm").text_content()
    turn = t.game.turn
    ctx.set_offline(True)
    expect(page.locator("#banner.offline")).to_be_visible()
    expect(page.locator("#confirm")).to_have_text("Connection lost: your move will wait")
    expect(page.locator("#confirm")).to_be_disabled()
    assert page.evaluate("getComputedStyle(document.querySelector('#banner')).backgroundColor") == "rgb(140, 140, 140)"
    ctx.set_offline(False)
    expect(page.locator("#msg")).to_have_text("The connection is back: you can confirm your move.")
    expect(page.locator("#banner.offline")).to_have_count(0)
    expect(page.locator("#confirm")).to_have_text(words)   # the move waited: the same choice, to confirm
    assert t.game.turn == turn
    page.locator("#confirm").tap()
    expect(page.locator("#banner.go")).to_have_count(0)
    assert t.game.turn != turn
    ctx.close()
    assert not [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e], errors


# ------------------------------------------------------------------ 4.4: 8 players

LANE_CROSSINGS = """() => {
  // each side's name against every home lane: the lane's ends mapped into the name's own
  // (unrotated) frame, sampled along, tested against the name's box
  const svg = document.querySelector("svg.board");
  const out = [];
  for (const label of svg.querySelectorAll("text.side-label")) {
    const box = label.getBBox();
    const m = label.transform.baseVal.consolidate();
    const inv = m ? m.matrix.inverse() : svg.createSVGMatrix();
    for (const lane of svg.querySelectorAll("line.lane")) {
      const a = [lane.x1.baseVal.value, lane.y1.baseVal.value], b = [lane.x2.baseVal.value, lane.y2.baseVal.value];
      for (let k = 0; k <= 40; k++) {
        const p = svg.createSVGPoint();
        p.x = a[0] + (b[0] - a[0]) * k / 40; p.y = a[1] + (b[1] - a[1]) * k / 40;
        const q = p.matrixTransform(inv);
        if (q.x > box.x && q.x < box.x + box.width && q.y > box.y && q.y < box.y + box.height) {
          out.push(label.textContent.trim()); break;
        }
      }
    }
  }
  return out;
}"""


def test_eight_players_a_phone_board_with_44px_targets_and_a_table_with_names_off_the_track(live, browser):
    t, _ = table(live, players=8)
    seat, p = advance_until(live, t, movable)
    card = next(c["card"] for c in p["cards"] if c["moves"])
    ctx = context(browser)
    errors = []
    page = seated(ctx, live, t, seat, errors)
    expect(page.locator("#zoom")).to_have_attribute("aria-pressed", "true")
    card_button(page, t, seat, card).tap()
    page.wait_for_selector("#targets .target")
    problems = layout_problems(page, board_target=44)
    assert not problems, problems
    # the box is scrolled to the holes to tap: the first target is inside it
    seen = page.evaluate("""() => { const w = document.querySelector('.board-wrap').getBoundingClientRect();
        const r = document.querySelector('#targets .target').getBoundingClientRect();
        return r.left >= w.left && r.right <= w.right && r.top >= w.top && r.bottom <= w.bottom; }""")
    assert seen
    page.locator("#zoom").tap()   # the whole board, on demand
    expect(page.locator("#zoom")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("document.querySelector('svg.board').getBoundingClientRect().width") <= PHONE["width"]
    tv_ctx = context(browser, viewport={"width": 1280, "height": 800}, scale=1)
    tv = tv_ctx.new_page()
    tv.goto(f"{live.url}/table/{t.gid}")
    tv.wait_for_selector("#pegs .peg")
    assert tv.evaluate(LANE_CROSSINGS) == []
    for c in (ctx, tv_ctx):
        c.close()
    assert not errors, errors
