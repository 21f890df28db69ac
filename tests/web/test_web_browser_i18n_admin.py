"""Issue 25.1 in Chromium: the settings and camera pages in French and Arabic, including the
server's answers they show (a refused setting, a camera that isn't there), with no catalog
English left (tests/helpers/english.py: every message's fixed words, placeholders cut out)."""
from __future__ import annotations

import os

import pytest

from tests.helpers.english import english_left

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
HTML_LANG = {"fr_CA": ("fr-CA", "ltr"), "ar": ("ar", "rtl")}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def shown(page) -> str:
    return page.evaluate("document.body.innerText + ' ' + document.title")


@pytest.mark.parametrize("lang", ["fr_CA", "ar"])
def test_the_settings_and_camera_pages_and_their_answers_speak_the_pages_language(live, lang):
    from tests.helpers.browserkit import borrowed_browser
    host = live.url.split("//")[1].split(":")[0]
    errors = []
    with borrowed_browser() as browser:   # the worker's one browser (tests/helpers/browserkit.py)
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        ctx.add_cookies([{"name": "pj_lang", "value": lang, "domain": host, "path": "/"}])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the settings page (this browser is on the companion itself: the admin)
        page.goto(live.url + "/settings")
        page.wait_for_selector("#settings-form:not([hidden])")
        page.wait_for_timeout(300)
        code, direction = HTML_LANG[lang]
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [code, direction]
        assert not english_left(shown(page), lang), english_left(shown(page), lang)
        page.fill("#settle", "0")          # refused by the server, in the page's words
        page.locator("#save").tap()
        page.locator("#settings-error").filter(has_text="board.settle_seconds").wait_for(timeout=30_000)
        said = page.locator("#settings-error").inner_text()
        assert "must be" not in said and not english_left(said, lang), said
        page.fill("#settle", "1.2")        # taken: no config file to keep it in, said so
        page.locator("#save").tap()
        page.locator("#settings-msg").filter(has_text="--config").wait_for(timeout=30_000)
        assert not english_left(shown(page), lang), english_left(shown(page), lang)
        # the camera page: no camera here, and the page says so in its words
        page.goto(live.url + "/settings/camera")
        page.wait_for_selector("#take")
        page.locator("#take").tap()
        page.locator("#cam-error").filter(has_text="camera.source").wait_for(timeout=30_000)
        text = shown(page)
        assert "no camera is configured" not in text and not english_left(text, lang), english_left(text, lang)
        ctx.close()
    assert not errors, errors
