"""Take the README's screenshots (docs/images/*.png) of a game night in simulation mode.

    .venv/bin/python docs/screenshots.py [--out docs/images]

Runs the companion as `pegs serve` builds it (simulated board) on a free localhost port,
creates a 4-player table from the host's phone, joins the four seats on four phones
(390x844), lets the greedy bot choose a dozen turns for the players through the same
service call as a phone, and photographs the host page, a seat page on its turn, the
same page with a card chosen (the move entered on the phone), and the table page
(1280x800) with Debian's chromium.
Not a test: it only makes pictures (the browser tests check the pages).
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]   # the packages first: tests/web would shadow web
sys.path.append(str(ROOT / "tests"))   # livekit.LiveServer

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TABLE = {"width": 1280, "height": 800}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "images"))
    ap.add_argument("--turns", type=int, default=14)
    ap.add_argument("--issue25", action="store_true",
                    help="only the seat page in English, French and Arabic and the 8-player phone")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.issue25:
        return languages_and_eight_players(out, args.turns)

    from playwright.sync_api import sync_playwright

    from companion.bots import make_bot
    from tests.helpers.livekit import LiveServer
    from web.main import build_app

    data = tempfile.mkdtemp(prefix="pegs-shots-")
    app = build_app({"DATA_DIR": data, "BOARD_MODE": "simulation", "BOT_DELAY": 0.3,
                     "SETTLE_SECONDS": 0.3})
    live = LiveServer(app)
    svc = app.extensions["pegs"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"])

            def new_phone():
                ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                          has_touch=True)
                return ctx.new_page()

            host = new_phone()
            host.goto(live.url + "/new")
            host.wait_for_selector("#name-3")
            for i, name in enumerate(NAMES):
                host.fill(f"#name-{i}", name)
            host.evaluate("window.scrollTo(0, 0)")
            host.screenshot(path=str(out / "new-table.png"))
            host.locator("#create").tap()
            host.wait_for_selector(".seat-card .join-link")
            links = [a.get_attribute("href") for a in host.locator(".join-link").all()]
            host.screenshot(path=str(out / "host.png"))
            gid = host.url.rstrip("/").rsplit("/", 1)[1]

            phones = []
            for link in links:
                page = new_phone()
                page.goto(live.url + "/j/" + link.rstrip("/").rsplit("/j/", 1)[1])
                page.locator("#take-seat").tap()
                page.wait_for_selector("#me .who")
                phones.append(page)

            table = svc.get(gid)
            bot = make_bot("greedy", random.Random(7))
            for _ in range(args.turns):
                g = table.game
                play = bot.choose(g, g.legal_plays())
                svc.act_as(table, g.actor, {"version": table.version, "move": play.move.text(table.geo),
                                            "card": play.card})

            tv = browser.new_context(viewport=TABLE).new_page()
            tv.goto(f"{live.url}/table/{gid}")
            tv.wait_for_selector("#log li")
            tv.wait_for_timeout(2500)   # the simulated board catches up
            tv.screenshot(path=str(out / "table.png"))

            seat = table.game.actor
            me = phones[seat]
            me.reload()
            me.wait_for_selector("#banner.go")
            me.wait_for_timeout(800)
            me.screenshot(path=str(out / "phone-turn.png"))
            card = me.locator("#hand button.pcard:not(.dim):not([disabled])").first
            card.tap()
            me.wait_for_timeout(800)
            manual = me.locator("#manual:not([hidden])")
            if manual.count():
                manual.tap()
                me.wait_for_timeout(300)
            me.screenshot(path=str(out / "phone-card.png"))
            browser.close()
    finally:
        live.close()
    for name in ("new-table", "host", "phone-turn", "phone-card", "table"):
        print(out / f"{name}.png")
    return 0


def languages_and_eight_players(out: Path, turns: int) -> int:
    """The seat page on its turn in English, French (Canada) and Arabic (the same seat, three
    phones in three languages: its cookie copied), and an 8-player phone with a card chosen
    (the board drawn big enough for 44 px targets, scrolled to them). One CSS pixel a pixel:
    small files."""
    from playwright.sync_api import sync_playwright

    from companion.bots import make_bot
    from tests.helpers.livekit import LiveServer
    from web.main import build_app

    app = build_app({"DATA_DIR": tempfile.mkdtemp(prefix="pegs-shots-"), "BOARD_MODE": "none", "BOT_DELAY": 0.3})
    live = LiveServer(app)
    svc = app.extensions["pegs"]
    bot = make_bot("greedy", random.Random(7))

    def play(table, n, until=None):
        for _ in range(n if until is None else 400):
            g = table.game
            if until is not None and until(table):
                return
            p = bot.choose(g, g.legal_plays())
            svc.act_as(table, g.actor, {"version": table.version, "move": p.move.text(table.geo), "card": p.card})

    def movable(table):
        with table.cond:
            plays = svc._plays(table)
        return any(c["moves"] for c in plays.get("cards") or []) and not plays.get("options")

    made = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"])
            host = "127.0.0.1"
            table, _ = svc.create({"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Béa", "Cyr", "Dalia"]})
            play(table, turns)
            play(table, 0, until=movable)
            seat = table.game.actor
            cookies = None
            for lang, name in (("en", "seat-en"), ("fr_CA", "seat-fr-ca"), ("ar", "seat-ar")):
                ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
                ctx.add_cookies([{"name": "pj_lang", "value": lang, "domain": host, "path": "/"}])
                page = ctx.new_page()
                if cookies is None:
                    page.goto(f"{live.url}/j/{svc.join_code(table, seat)}")
                    page.locator("#take-seat").tap()
                    cookies = [c for c in ctx.cookies() if c["name"] != "pj_lang"]
                else:
                    ctx.add_cookies(cookies)
                    page.goto(f"{live.url}/seat/{table.gid}")
                page.wait_for_selector("#banner.go")
                page.wait_for_timeout(400)
                page.screenshot(path=str(out / f"{name}.png"))
                made.append(name)
                ctx.close()
            eight, _ = svc.create({"preset": "basic", "players": 8, "teams": 2,
                                   "names": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]})
            play(eight, turns)
            play(eight, 0, until=movable)
            seat = eight.game.actor
            with eight.cond:
                card = next(c["card"] for c in svc._plays(eight)["cards"] if c["moves"])
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
            page = ctx.new_page()
            page.goto(f"{live.url}/j/{svc.join_code(eight, seat)}")
            page.locator("#take-seat").tap()
            page.wait_for_selector("#banner.go")
            hand = eight.game.player_view(seat)["hand"]
            page.locator("#hand button.pcard").nth(hand.index(card)).tap()
            page.wait_for_selector("#targets .target")
            page.evaluate("window.scrollTo(0, 0)")   # the board (focus went to the first choice below)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "phone-8-players.png"))
            made.append("phone-8-players")
            browser.close()
    finally:
        live.close()
    for name in made:
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
