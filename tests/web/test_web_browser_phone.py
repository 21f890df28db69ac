"""The phone pages in a real browser (Debian's chromium via Playwright, 390x844):
Bluffing Joker with many doubts and penalties never leaves a phone on a loading or
empty choice (issue 14.1), and the other phone-side behaviours of issue 14."""
from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest
from conftest import H, make_app
from playwright.sync_api import expect

from livekit import LiveServer

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 390, "height": 844}
STUCK = 2.0   # seconds a phone whose turn it is may take to offer its choices

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run", "--disable-sync",
            "--autoplay-policy=no-user-gesture-required"])
        yield b
        b.close()


def phone(browser):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 403" not in m.text
            and "status of 409" not in m.text else None)
    return ctx, page, errors


def seated_phones(browser, live, gid, seats):
    """A browser context per seat, each having taken its seat by its join link."""
    svc = live.app.extensions["pegs"]
    table = svc.get(gid)
    out = {}
    for seat in seats:
        ctx, page, errors = phone(browser)
        page.goto(f"{live.url}/j/{svc.join_code(table, seat)}")
        page.locator("#take-seat").tap()
        page.wait_for_url(f"**/seat/{gid}")
        page.wait_for_selector("#hand button.pcard")
        out[seat] = (ctx, page, errors)
    return out


def create(live, **body):
    import json
    import urllib.request
    data = {"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Ben", "Cy", "Di"], **body}
    req = urllib.request.Request(live.url + "/api/games", data=json.dumps(data).encode(),
                                 headers={**H, "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())["gid"]


@pytest.fixture
def live_app():
    app = make_app()
    srv = LiveServer(app)
    yield srv
    srv.close()


# ------------------------------------------------------------------ 14.1: no frozen phone
READY = {
    # what a phone shows once it can act, per phase
    "play": "#hand button.pcard:not([disabled])",
    "doubt": "#choices #doubt",
    "penalty": "#choices button.choice",
}


def ready_within(page, phase, timeout=STUCK):
    """The acting phone offers its choices within `timeout` seconds (not 'Loading', not empty)."""
    try:
        page.wait_for_selector(READY[phase], timeout=timeout * 1000)
        if phase == "play":
            expect(page.locator("#prompt")).not_to_have_text(re.compile("^Loading"), timeout=timeout * 1000)
        return True
    except Exception:
        return False


def play_bluffing_turn(page, rng):
    """Tap a card, often declare it as another rank (a bluff), tap pegs until Confirm, confirm."""
    cards = page.locator("#hand button.pcard:not([disabled])")
    cards.nth(rng.randrange(cards.count())).tap()
    ranks = page.locator("#declare button.rank:not([disabled])")
    out = page.locator('#declare button.rank:not([disabled]):text-is("K"), #declare button.rank:not([disabled]):text-is("A")')
    if out.count() and rng.random() < 0.7:   # bring pegs out (bluffing or not), so penalties have a victim
        out.first.tap()
    elif ranks.count() and rng.random() < 0.5:
        ranks.nth(rng.randrange(ranks.count())).tap()
    for _ in range(6):
        if page.locator("#confirm:not([hidden])").count():
            break
        if page.locator("#discard").count() and not page.locator("#choices button.choice:not(#discard)").count():
            page.locator("#discard").tap()
            continue
        page.locator("#choices button.choice:not(#discard)").first.tap()
    page.locator("#confirm").tap()


def test_bluffing_doubts_and_penalties_never_freeze_a_phone(live_app, browser):
    live = live_app
    gid = create(live, preset="bluffing_joker")
    svc = live.app.extensions["pegs"]
    table = svc.get(gid)
    phones = seated_phones(browser, live, gid, range(4))
    rng = random.Random(14)
    doubts = penalties = own_again = 0
    stuck = []
    t0 = time.monotonic()
    for _ in range(90):
        with table.cond:
            if table.status != "playing" or (doubts >= 10 and penalties >= 4 and own_again >= 4):
                break
            actor, phase, version = table.game.actor, table.game.phase, table.version
            before = table.game.history[-1]["seat"] if table.game.history else None
        page = phones[actor][1]
        if not ready_within(page, phase):
            stuck.append((actor, phase, page.locator("#banner").inner_text(), page.locator("#prompt").inner_text()))
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "phone-stuck.png"))
            break
        own_again += before == actor
        if phase == "doubt":
            if rng.random() < 0.45:
                doubts += 1
                page.locator("#doubt").tap()
            else:
                page.locator("#pass").tap()
        elif phase == "penalty":
            penalties += 1
            page.locator("#choices button.choice").first.tap()
            page.locator("#confirm").tap()
        else:
            play_bluffing_turn(page, rng)
        with table.cond:
            table.cond.wait_for(lambda: table.version != version, 5)
    elapsed = time.monotonic() - t0
    print("bluffing run", doubts, penalties, own_again, round(elapsed, 1))
    for ctx, _, errors in phones.values():
        ctx.close()
        assert not errors, errors
    assert not stuck, f"a phone stayed on a loading or empty choice for > {STUCK} s: {stuck}"
    # the game went through what froze phones before: doubts, penalties, the same phone again
    assert doubts >= 10 and penalties >= 4 and own_again >= 4, (doubts, penalties, own_again, elapsed)
