"""A game from the host's phone to its rematch, in a real browser (issue 25 §4): the host
plays a seat from the host page (9), an individual game lists players (7), a single
winner's grammar (3), the rematch with the same phones (11); and with the simulated
board, a table that doesn't hold it says so only to its host (6), and the seat page
asks /me and /board once on load (12)."""
from __future__ import annotations

import os
import re
import time
from collections import Counter

import pytest
from playwright.sync_api import expect

from tests.helpers.livekit import LiveServer
from .test_web_browser import CHROMIUM, browser, phone  # noqa: F401  (browser: the module's fixture)
from .webkit import H, make_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def test_the_host_plays_a_seat_watches_it_won_and_starts_the_rematch(browser):
    app = make_app(BOT_DELAY=0.05)
    live = LiveServer(app)
    svc = app.extensions["pegs"]
    try:
        host_ctx, host, host_errors = phone(browser)
        r = host_ctx.request.post(live.url + "/api/games", headers=H, data={
            "preset": "tock", "players": 4, "teams": 4, "names": ["Ann", "Ben", "Cy", "Di"],
            "bots": [None, "greedy", "greedy", "greedy"]})
        gid = r.json()["gid"]
        table = svc.get(gid)
        host.goto(f"{live.url}/host/{gid}")
        # 9: "this phone plays seat 1": no QR code to scan on its own screen
        host.locator('.seat-card[data-seat="0"] [data-action="play-here"]').tap()
        expect(host.locator("#my-seat-link")).to_be_visible()
        expect(host.locator('[data-action="play-here"]')).to_have_count(0)   # one seat per phone
        seat = host_ctx.new_page()
        seat.goto(live.url + host.locator("#my-seat-link").get_attribute("href"))
        expect(seat.locator("#hand button.pcard").first).to_be_visible()
        # 7: Tock, each alone: the table lists players, not "Team A" ... "Team D"
        tv_ctx, tv, tv_errors = phone(browser)
        tv.goto(f"{live.url}/table/{gid}")
        expect(tv.locator("#progress li")).to_have_count(4)
        expect(tv.locator("#progress-h")).to_have_text("Players")
        expect(tv.locator("#progress")).not_to_contain_text("Team")
        # the game to its end: the host hands its seat to the computer, which plays it out fast
        svc.bot_delay = 0.0
        host.locator('.seat-card[data-seat="0"] [data-action="bot"]').tap()
        with table.cond:
            assert table.cond.wait_for(lambda: table.game.is_over(), 60)
        winner = table.game.player_view(None)["winner"]
        assert len(winner) == 1
        s = table.seats[winner[0]]
        name = f"\u2068{s.name}\u2069 ({table.name_of(winner[0]).rsplit('(', 1)[1]}"   # the name isolated (bidi)
        # 3: one winner "wins", on the table and on the phone watching (its seat the computer's)
        expect(tv.locator("#winner-text")).to_have_text(f"{name} wins!")
        expect(seat.locator("#banner")).to_have_text(f"{name} wins the game.")
        # 11: the host starts the next game: the same phones go on, no new QR code
        host.locator("#rematch").tap()
        # the page may be sent on twice (its own answer, then the live event): the URL it
        # settles on is what counts, not one navigation's events
        expect(host).to_have_url(re.compile(r"/host/(?!%s)[a-z0-9]+$" % gid))
        new_gid = host.url.rsplit("/", 1)[1]
        expect(seat).to_have_url(re.compile(rf"/seat/{new_gid}$"))
        expect(seat.locator("#hand button.pcard").first).to_be_visible()   # its seat back, dealt anew
        expect(tv).to_have_url(re.compile(rf"/table/{new_gid}$"))
        expect(host.locator('.seat-card[data-seat="0"] .state')).to_contain_text("Joined")
        assert svc.get(new_gid).seats[0].bot is None and svc.get(new_gid).rematch_of == gid
        for ctx, errors in ((host_ctx, host_errors), (tv_ctx, tv_errors)):
            ctx.close()
            assert not [e for e in errors if "status of 403" not in e and "status of 409" not in e], errors
    finally:
        live.close()


@pytest.fixture
def live_sim():
    from web import create_app
    from web.board_referee import make_hub
    from web.store import Store
    from web.tables import TableService
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.2)
    app = create_app({"BOT_DELAY": 0.2, "HEARTBEAT": 1.0}, service=svc, board=make_hub(svc, "simulation"))
    srv = LiveServer(app, threads=24)
    yield srv
    srv.close()


def test_the_board_elsewhere_is_the_hosts_business_and_the_seat_page_asks_once(live_sim, browser):
    svc = live_sim.app.extensions["pegs"]
    first, _ = svc.create({"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Ben", "Cy", "Di"]})
    hub = live_sim.app.extensions["pegs_board"]
    deadline = time.time() + 20   # the board's runner has attached it to the first table
    while not hub.state(first)["attached"] and time.time() < deadline:
        time.sleep(0.05)
    second, host_token = svc.create({"preset": "bluffing_joker", "players": 4, "teams": 2,
                                     "names": ["Eve", "Fay", "Gus", "Hal"]})
    # 12: a seat of the table holding the board: /me and /board once each on load
    ctx, page, errors = phone(browser)
    page.goto(f"{live_sim.url}/j/{svc.join_code(first, 1)}")
    page.locator("#take-seat").tap()
    page.wait_for_url(f"**/seat/{first.gid}")
    asked = Counter()
    page.on("request", lambda req: asked.update([req.url.split("?")[0].replace(live_sim.url, "")]))
    page.reload()
    expect(page.locator("#hand button.pcard").first).to_be_visible()
    page.wait_for_timeout(1500)   # the live stream's first events have come and gone
    assert asked[f"/api/games/{first.gid}/me"] == 1 and asked[f"/api/games/{first.gid}/board"] == 1, asked
    assert [u for u in asked if u.startswith("/static/")]
    # the versioned files come from the browser's cache, unasked: the server sees none of them
    served = []
    wsgi = live_sim.app.wsgi_app
    live_sim.app.wsgi_app = lambda environ, start: (served.append(environ["PATH_INFO"]), wsgi(environ, start))[1]
    try:
        page.goto(f"{live_sim.url}/seat/{first.gid}")
        expect(page.locator("#hand button.pcard").first).to_be_visible()
    finally:
        live_sim.app.wsgi_app = wsgi
    assert f"/seat/{first.gid}" in served and not [u for u in served if u.startswith("/static/")], served
    ctx.close()
    # 6: the second table's TV shows no LED legend nor "following another table" ...
    tv_ctx, tv, _ = phone(browser)
    tv.goto(f"{live_sim.url}/table/{second.gid}")
    expect(tv.locator("#banner")).to_contain_text("to play")
    tv.wait_for_timeout(1000)
    expect(tv.locator("#referee")).to_be_hidden()
    expect(tv.get_by_text("following another table")).to_be_hidden()
    expect(tv.get_by_text("slow blink: can move")).to_be_hidden()
    tv_ctx.close()
    # ... nor does its Bluffing Joker player's prompt once a card is chosen ...
    actor = second.game.actor
    p_ctx, player, _ = phone(browser)
    player.goto(f"{live_sim.url}/j/{svc.join_code(second, actor)}")
    player.locator("#take-seat").tap()
    player.wait_for_url(f"**/seat/{second.gid}")
    player.locator("#hand button.pcard:not([disabled])").first.tap()
    expect(player.locator("#declare")).to_be_visible()
    player.wait_for_timeout(500)
    expect(player.get_by_text("following another table")).to_have_count(0)
    expect(player.locator("#msg")).to_be_hidden()
    p_ctx.close()
    # ... but its host's page does, with the way to take the board
    h_ctx, host, _ = phone(browser)
    h_ctx.add_cookies([{"name": f"pj_h_{second.gid}", "value": host_token, "url": live_sim.url}])
    host.goto(f"{live_sim.url}/host/{second.gid}")
    expect(host.locator("#board-elsewhere")).to_have_text("The board is following another table.")
    expect(host.locator("#take-board")).to_be_visible()
    h_ctx.close()
