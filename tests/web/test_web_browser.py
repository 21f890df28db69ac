"""A real browser (Debian's chromium via Playwright) at a phone's size: create a
table, join four seats on four phones, play several turns by tapping, and save
screenshots of the pages to tests/artifacts/."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser():
    from tests.helpers.browserkit import borrowed_browser
    with borrowed_browser() as b:   # the worker's one browser (tests/helpers/browserkit.py)
        yield b
        b.close()


def phone(browser):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page, errors


def play_turn(page):
    """Tap through one turn on the acting phone: a card, a peg, a destination (twice for a split), confirm."""
    page.wait_for_selector("#banner.go", timeout=30000)
    expect(page.locator("#hand button.pcard:not([disabled])").first).to_be_visible()
    cards = page.locator("#hand button.pcard:not(.dim)")
    if cards.count() == 0:
        cards = page.locator("#hand button.pcard")
    cards.first.tap()
    for _ in range(4):
        if page.locator("#confirm:not([hidden])").count():
            break
        if page.locator("#discard").count() and page.locator("#targets .target.movable").count() == 0:
            page.locator("#discard").tap()
            break
        target = page.locator("#targets .target.movable, #targets .target.dest").first
        target.dispatch_event("click")
    page.locator("#confirm").tap()
    expect(page.locator("#banner.go")).to_have_count(0, timeout=30000)


def test_phones_create_join_and_play(live, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    host_ctx, host, host_errors = phone(browser)
    host.goto(live.url + "/")
    host.screenshot(path=str(ARTIFACTS / "home.png"))
    host.locator("#new-table").tap()
    host.wait_for_selector("#name-3")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        host.fill(f"#name-{i}", name)
    host.screenshot(path=str(ARTIFACTS / "new-table.png"), full_page=True)
    host.locator("#create").tap()
    host.wait_for_selector(".seat-card .join-link")
    links = [a.get_attribute("href") for a in host.locator(".join-link").all()]
    assert len(links) == 4
    host.screenshot(path=str(ARTIFACTS / "host.png"), full_page=True)
    gid = host.url.rstrip("/").rsplit("/", 1)[1]

    seats = []
    for i, link in enumerate(links):
        ctx, page, errors = phone(browser)
        code = link.rsplit("/", 1)[1]
        page.goto(f"{live.url}/j/{code}")
        if i == 0:
            page.screenshot(path=str(ARTIFACTS / "join.png"))
        page.locator("#take-seat").tap()
        page.wait_for_url(f"**/seat/{gid}")
        page.wait_for_selector("#hand button.pcard")
        seats.append((ctx, page, errors))
    host.wait_for_selector(".seat-card .state.ok >> nth=3")

    table_ctx, table, table_errors = phone(browser)
    table.goto(f"{live.url}/table/{gid}")
    table.wait_for_selector("#pegs .peg")

    svc = live.app.extensions["pegs"]
    t = svc.get(gid)
    for turn in range(6):
        actor = t.game.actor
        page = seats[actor][1]
        if turn == 0:
            page.screenshot(path=str(ARTIFACTS / "seat-turn.png"), full_page=True)
        play_turn(page)
        if turn == 0:
            seats[(actor + 1) % 4][1].wait_for_selector("#banner.go")
    assert t.game.turn == 6
    # every phone and the table caught up
    for page in [p for _, p, _ in seats] + [table]:
        expect(page.locator("#log li")).to_have_count(6 if page is table else 6, timeout=30000)
    seats[t.game.actor][1].locator("#hand button.pcard").first.tap()
    seats[t.game.actor][1].screenshot(path=str(ARTIFACTS / "seat-card-chosen.png"), full_page=True)
    seats[(t.game.actor + 1) % 4][1].screenshot(path=str(ARTIFACTS / "seat-waiting.png"), full_page=True)
    table.screenshot(path=str(ARTIFACTS / "table-phone.png"), full_page=True)
    table.set_viewport_size({"width": 1280, "height": 800})
    table.screenshot(path=str(ARTIFACTS / "table-tv.png"))
    for ctx, _, errors in seats + [(host_ctx, None, host_errors), (table_ctx, None, table_errors)]:
        ctx.close()
        assert not errors, errors
