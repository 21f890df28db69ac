"""Issue 25 in Chromium at phone size: a mixed table (a French, an Arabic and an English
phone, and the computer) plays turns, each phone in its own words, lang and dir; no
catalog English is left on the seat, host, join, new-table and table pages in French or
Arabic; the turn alert (title, vibration, chime) comes when the turn does, and not the
vibration or the chime on a phone that switched them off."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from web import catalogs

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

# what the page did about the alert: navigator.vibrate's calls, oscillators started
SPY = """
window.__vibrations = [];
Object.defineProperty(navigator, "vibrate", { value: (p) => { window.__vibrations.push(p); return true; } });
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) { window.__tones += 1; return start.apply(this, a); };
"""
TURN = {"fr_CA": "À toi de jouer", "ar": "دورك", "en": "Your turn"}
HTML_LANG = {"fr_CA": ("fr-CA", "ltr"), "ar": ("ar", "rtl"), "en": ("en", "ltr")}


def english_phrases():
    """The catalog's English sentences of three words or more (no placeholders): none of
    them may be left on a French or Arabic page."""
    out = []
    for m in catalogs.template():
        if not m.id or isinstance(m.id, tuple) or "%(" in m.id or m.context:
            continue
        if len(m.id.split()) >= 3 and "Pegs and Jokers" not in m.id:   # the game's name is a name
            out.append(m.id)
    return out


def assert_no_english(page, phrases, where):
    text = page.evaluate("document.body.innerText + ' ' + document.title")
    left = [p for p in phrases if p in text]
    assert not left, f"{where}: English left: {left}"


def assert_lang(page, lang):
    code, direction = HTML_LANG[lang]
    assert page.evaluate("document.documentElement.lang") == code
    assert page.evaluate("document.documentElement.dir") == direction


def wait_js(page, expr, timeout=30.0):   # a ceiling against a hang, not a budget
    """Poll `expr` with page.evaluate (wait_for_function evals, which the pages' CSP forbids)."""
    import time
    end = time.monotonic() + timeout
    while not page.evaluate(expr):
        assert time.monotonic() < end, f"timed out waiting for {expr}"
        page.wait_for_timeout(50)


def play_turn(page):
    """Tap a card, then the first choice until Confirm shows, and confirm."""
    cards = page.locator("#hand button.pcard:not([disabled])")
    for i in range(cards.count()):   # a card that can move (or be discarded)
        cards.nth(i).tap()
        page.wait_for_timeout(150)
        if page.locator("#choices button.choice, #confirm:not([hidden])").count():
            break
    for _ in range(6):
        if page.locator("#confirm:not([hidden])").count():
            break
        if page.locator("#discard").count() and not page.locator("#choices button.choice:not(#discard)").count():
            page.locator("#discard").tap()
            continue
        page.locator("#choices button.choice:not(#discard)").first.tap()
    page.locator("#confirm").tap()


def test_a_mixed_table_plays_each_phone_in_its_own_language(live):
    from tests.helpers.browserkit import borrowed_browser
    svc = live.app.extensions["pegs"]
    names = ["Ann", "Béa", "Cyr", "Dalia"]
    table, host_token = svc.create({"preset": "basic", "players": 4, "teams": 2, "names": names})
    first = table.game.actor   # played from here (no phone), once the three phones are ready
    langs = {(first + 1) % 4: "fr_CA", (first + 2) % 4: "ar", (first + 3) % 4: "en"}
    phrases = english_phrases()
    assert len(phrases) > 100
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        errors, pages = [], {}
        host = live.url.split("//")[1].split(":")[0]
        for seat, lang in langs.items():
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            ctx.add_cookies([{"name": "pj_lang", "value": lang, "domain": host, "path": "/"}])
            ctx.add_init_script(SPY)
            if lang == "en":   # this phone switched sound and vibration off
                ctx.add_init_script("localStorage.setItem('pj-alert-sound', 'off');"
                                    "localStorage.setItem('pj-alert-vibrate', 'off');")
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{live.url}/j/{svc.join_code(table, seat)}")
            assert_lang(page, lang)
            if lang != "en":
                assert_no_english(page, phrases, f"join page ({lang})")
            page.locator("#take-seat").tap()
            page.wait_for_selector("#hand button.pcard")
            page.locator("#piles").tap()   # touched once, as a phone in use is (browsers allow vibrate after that)
            pages[seat] = page
        g = table.game
        play = g.legal_plays()[0]
        svc.act_as(table, first, {"version": table.version, "move": play.move.text(table.geo), "card": play.card})

        # the turns go French, Arabic, English
        for seat in ((first + 1) % 4, (first + 2) % 4, (first + 3) % 4):
            page, lang = pages[seat], langs[seat]
            expect(page).to_have_title(f"● {TURN[lang]}", timeout=30000)
            assert_lang(page, lang)
            expect(page.locator("#banner")).to_have_text(TURN[lang])
            if lang != "en":
                wait_js(page, "window.__tones > 0 && window.__vibrations.length > 0")
            if lang != "en":
                assert page.evaluate("window.__vibrations.length") == 1
                assert page.evaluate("window.__tones") >= 2   # the chime's two notes
                assert_no_english(page, phrases, f"seat page ({lang}) on its turn")
            else:
                assert page.evaluate("window.__vibrations.length") == 0
                assert page.evaluate("window.__tones") == 0
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"i18n-seat-{lang}.png"), full_page=True)
            play_turn(page)
            expect(page).not_to_have_title(re.compile("●"), timeout=30000)   # the title is back
            expect(page.locator("#banner")).not_to_have_text(TURN[lang], timeout=30000)

        # each phone's log tells the French player's move in its own words
        fr_page = pages[(first + 1) % 4]
        fr_move = fr_page.locator("#log li").first.inner_text()
        ar_log = pages[(first + 2) % 4].locator("#log").inner_text()
        en_log = pages[(first + 3) % 4].locator("#log").inner_text()
        assert re.search(r"a (défaussé|sorti|bougé)", fr_page.locator("#log").inner_text())
        assert re.search(r"حرق|طلّع|حرّك", ar_log)
        assert re.search(r"discarded|brought|moved", en_log)
        assert fr_move
        for seat, page in pages.items():
            if langs[seat] != "en":
                assert_no_english(page, phrases, f"seat page ({langs[seat]}) after the turns")

        # the host, new-table and table pages, in French and in Arabic
        for lang in ("fr_CA", "ar"):
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            ctx.add_cookies([{"name": "pj_lang", "value": lang, "domain": host, "path": "/"},
                             {"name": "pj_table_lang", "value": lang, "domain": host, "path": "/"},
                             {"name": f"pj_h_{table.gid}", "value": host_token, "domain": host, "path": "/"}])
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            for path, ready in ((f"/host/{table.gid}", "#seat-list .seat-card"), ("/new", "#seats li"),
                                (f"/table/{table.gid}", "#log li"), ("/", "#new-table")):
                page.goto(live.url + path)
                page.wait_for_selector(ready)
                page.wait_for_timeout(300)   # the scripts' first render
                assert_lang(page, lang)
                assert_no_english(page, phrases, f"{path} ({lang})")
                page.screenshot(path=str(ARTIFACTS / f"i18n-{path.strip('/').split('/')[0] or 'home'}-{lang}.png"),
                                full_page=True)
            ctx.close()
        browser.close()
    assert not errors, errors


SPEECH_SPY = """
window.__spoken = [];
Object.defineProperty(window, "speechSynthesis", { value: { speak: (u) => window.__spoken.push([u.text, u.lang]) } });
"""


def test_the_host_hears_a_seat_request_and_the_table_speaks_each_move(live):
    """25.2: the host page's title, vibration and chime when a phone asks for a seat; the
    table display says each move aloud in its own language when its switch is on, and puts
    the newest log line (only that) in its polite live region."""
    from tests.helpers.browserkit import borrowed_browser
    svc = live.app.extensions["pegs"]
    table, host_token = svc.create({"preset": "basic", "players": 4, "teams": 2,
                                    "names": ["Ann", "Ben", "Cat", "Dan"]})
    svc.join(svc.join_code(table, 0), None)   # seat 0 is taken: another phone will ask for it
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        errors = []
        host = live.url.split("//")[1].split(":")[0]
        hctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        hctx.add_cookies([{"name": "pj_lang", "value": "fr_CA", "domain": host, "path": "/"},
                          {"name": f"pj_h_{table.gid}", "value": host_token, "domain": host, "path": "/"}])
        hctx.add_init_script(SPY)
        hp = hctx.new_page()
        hp.on("pageerror", lambda e: errors.append(str(e)))
        hp.goto(f"{live.url}/host/{table.gid}")
        hp.wait_for_selector("#seat-list .seat-card")
        assert hp.evaluate("window.__vibrations.length") == 0 and "●" not in hp.title()
        hp.locator("h1").tap()   # a phone in use has been touched (browsers allow vibrate after that)
        svc.request_seat(table, None, svc.join_code(table, 0), "192.168.1.77")
        expect(hp).to_have_title("● Un cellulaire demande une place", timeout=30000)
        assert hp.evaluate("window.__vibrations.length") == 1
        assert hp.evaluate("window.__tones") >= 2

        tctx = browser.new_context(viewport={"width": 1280, "height": 800})
        tctx.add_cookies([{"name": "pj_table_lang", "value": "ar", "domain": host, "path": "/"}])
        tctx.add_init_script(SPEECH_SPY + "localStorage.setItem('pj-speak', 'on');")
        tv = tctx.new_page()
        tv.on("pageerror", lambda e: errors.append(str(e)))
        tv.goto(f"{live.url}/table/{table.gid}")
        tv.wait_for_selector("#pegs .peg")
        assert tv.evaluate("document.documentElement.dir") == "rtl"
        assert tv.locator("#speak").is_checked()
        assert tv.evaluate("window.__spoken") == []   # nothing said on load
        assert tv.locator("[aria-live]").count() == 1   # one polite live region, not the banner or badge
        g = table.game
        play = g.legal_plays()[0]
        svc.act_as(table, g.actor, {"version": table.version, "move": play.move.text(table.geo), "card": play.card})
        wait_js(tv, "window.__spoken.length === 1")
        text, lang = tv.evaluate("window.__spoken[0]")
        assert lang == "ar" and re.search(r"حرق|طلّع|حرّك", text)
        expect(tv.locator("#said")).to_have_text(text)
        tv.locator("#speak").uncheck()
        play = g.legal_plays()[0]
        svc.act_as(table, g.actor, {"version": table.version, "move": play.move.text(table.geo), "card": play.card})
        expect(tv.locator("#said")).not_to_have_text(text, timeout=30000)   # the new line, silently
        assert tv.evaluate("window.__spoken.length") == 1
        browser.close()
    assert not errors, errors


def test_a_seat_that_may_doubt_is_alerted_and_the_badge_is_not_announced(live):
    """25.2: when a seat may doubt (Bluffing Joker), its phone's title says so, it vibrates
    and chimes; the seat page has one polite live region (the newest log line), not the
    banner, the prompt or the connection badge."""
    from tests.helpers.browserkit import borrowed_browser
    from companion.cards import rank_of
    svc = live.app.extensions["pegs"]
    table, _ = svc.create({"preset": "bluffing_joker", "players": 4, "teams": 2,
                           "names": ["Ann", "Ben", "Cat", "Dan"]})
    g = table.game
    bluffer = g.actor
    doubter = (bluffer + 1) % 4
    play = next(p for p in g.legal_plays() if p.move.kind == "move" and rank_of(p.card) != p.move.rank)
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        errors = []
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        ctx.add_init_script(SPY)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live.url}/j/{svc.join_code(table, doubter)}")
        page.locator("#take-seat").tap()
        page.wait_for_selector("#hand button.pcard")
        assert "●" not in page.title() and page.evaluate("window.__vibrations.length") == 0
        assert page.locator("[aria-live]").count() == 1 and page.locator("#said[aria-live=polite]").count() == 1
        page.locator("#piles").tap()   # a phone in use has been touched (browsers allow vibrate after that)
        svc.act_as(table, bluffer, {"version": table.version, "move": play.move.text(table.geo), "card": play.card})
        expect(page).to_have_title("● Your call: doubt or pass?", timeout=30000)
        wait_js(page, "window.__vibrations.length === 1 && window.__tones >= 2")
        expect(page.locator("#said")).to_contain_text("played a card face down as")
        browser.close()
    assert not errors, errors
