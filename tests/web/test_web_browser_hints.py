"""The host's level choice and hints on a phone, in a real browser (issue 17):
the host turns hints on for one seat, the seat taps Hint, and the suggested
card and move show with a reason; the table view says a hint is in use."""
from __future__ import annotations

from playwright.sync_api import expect

from .test_web_browser import ARTIFACTS, browser, phone, pytestmark  # noqa: F401 - fixtures


def test_host_turns_hints_on_and_the_seat_sees_one(live, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    host_ctx, host, host_errors = phone(browser)
    host.goto(live.url + "/")
    host.locator("#new-table").tap()
    host.wait_for_selector("#name-3")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        host.fill(f"#name-{i}", name)
    host.locator("#bot-1").check()           # a computer seat, chosen hard on the new-table page
    host.select_option("#level-1", "hard")
    host.screenshot(path=str(ARTIFACTS / "new-table-levels.png"), full_page=True)
    host.locator("#create").tap()
    host.wait_for_selector(".seat-card .join-link")
    links = [a.get_attribute("href") for a in host.locator(".join-link").all()]
    gid = host.url.rstrip("/").rsplit("/", 1)[1]
    table = live.app.extensions["pegs"].get(gid)
    assert table.seats[1].bot == "hard"
    first = table.game.actor
    assert first == 0
    # the host: hints on for the first player's seat, the computer at level hard for another
    card = host.locator(f'.seat-card[data-seat="{first}"]')
    card.locator('button[data-action="hints"]').tap()
    expect(card.locator('button[data-action="hints"]')).to_have_text("Turn hints off")
    other = (first + 2) % 4
    ocard = host.locator(f'.seat-card[data-seat="{other}"]')
    ocard.locator('button[data-action="bot"]').tap()
    ocard.locator("select.level").select_option("hard")
    expect(ocard.locator("p.state")).to_contain_text("hard")
    assert table.seats[other].bot == "hard"
    host.screenshot(path=str(ARTIFACTS / "host-levels-hints.png"), full_page=True)

    ctx, page, errors = phone(browser)
    page.goto(f"{live.url}/j/{links[first].rsplit('/', 1)[1]}")
    page.locator("#take-seat").tap()
    page.wait_for_url(f"**/seat/{gid}")
    page.wait_for_selector("#banner.go")
    page.locator("#hint").tap()
    expect(page.locator("#hint-text")).to_contain_text("Hint: ", timeout=30000)
    expect(page.locator("#hand button.pcard.hinted")).to_have_count(1)
    hint = table.current_hint(first)
    if not hint["move"].endswith("discard"):  # a discard (a random deal) rings no pegs
        assert page.locator("#targets .target.hint").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "seat-hint.png"), full_page=True)

    tctx, tpage, terrors = phone(browser)
    tpage.goto(f"{live.url}/table/{gid}")
    expect(tpage.locator("#banner")).to_contain_text("using a hint")
    expect(tpage.locator("#log")).to_contain_text("Hints used:")
    tpage.screenshot(path=str(ARTIFACTS / "table-hint.png"), full_page=True)
    assert not errors and not host_errors and not terrors, (errors, host_errors, terrors)
    for c in (host_ctx, ctx, tctx):
        c.close()
