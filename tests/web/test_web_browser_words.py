"""Issue 14 points 4 and 5 in Chromium at phone size: the doubt prompt is in words, and after
a doubt every phone and the table say how it ended; the cancelled move is marked in the log,
its notation kept in a details view."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.cards import rank_of

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def test_a_doubt_is_told_on_every_page(live):
    from tests.helpers.browserkit import borrowed_browser
    svc = live.app.extensions["pegs"]
    table, _ = svc.create({"preset": "bluffing_joker", "players": 4, "teams": 2,
                           "names": ["Ann", "Ben", "Cat", "Dan"]})
    g = table.game
    bluffer = g.actor
    doubter = (bluffer + 1) % 4   # the first opponent after the bluffer decides first
    # a bluff: a real card declared as another rank that can come out
    play = next(p for p in g.legal_plays() if p.move.kind == "move" and rank_of(p.card) != p.move.rank)
    move = play.move.text(table.geo)
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        pages, errors = {}, []
        for seat in (bluffer, doubter):
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{live.url}/j/{svc.join_code(table, seat)}")
            page.locator("#take-seat").tap()
            page.wait_for_selector("#hand button.pcard")
            pages[seat] = page
        tv = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        tv.on("pageerror", lambda e: errors.append(str(e)))
        tv.goto(f"{live.url}/table/{table.gid}")
        tv.wait_for_selector("#pegs .peg")

        svc.act_as(table, bluffer, {"version": table.version, "move": move, "card": play.card})
        prompt = pages[doubter].locator("#prompt")
        who = f"{table.seats[bluffer].name} ({table.seats[bluffer].colour.title()})"
        expect(prompt).to_contain_text(f"{who} played a card face down as", timeout=30000)
        assert not re.search(r"\d+:[SMH]", prompt.inner_text())   # no "K 0:S-M8"
        expect(pages[doubter].locator("#doubt")).to_be_visible()
        pages[doubter].locator("#doubt").tap()

        name = table.seats[bluffer].name
        for page in pages.values():
            expect(page.locator("#msg")).to_contain_text(f"doubted {name}'s", timeout=30000)
            expect(page.locator("#msg")).to_contain_text(f"a bluff. {name}'s move is cancelled")
        expect(tv.locator("#declared")).to_contain_text(f"a bluff. {name}'s move is cancelled", timeout=30000)
        cancelled = tv.locator("#log li.cancelled")
        expect(cancelled).to_have_count(1)
        expect(cancelled).to_contain_text("cancelled: the bluff was caught")
        cancelled.locator("summary").click()
        expect(cancelled.locator("details code")).to_have_text(move)
        ARTIFACTS.mkdir(exist_ok=True)
        pages[doubter].screenshot(path=str(ARTIFACTS / "words-doubt-phone.png"), full_page=True)
        tv.screenshot(path=str(ARTIFACTS / "words-doubt-table.png"))
        browser.close()
    assert not errors, errors
