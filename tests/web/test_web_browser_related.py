"""Tock, Carbles and Jackaroo in a real browser (issue 18.5): each new preset played to
the end with computer seats and one phone (390x844). The phone plays its first turns
by tapping (the first card it may play, the first play offered, confirm), and the
pass to the partner, a forced discard and a red queen's steal whenever they come to
it; its other turns go through the same phone's session (its cookies) to keep the run
short, and the phone shows the end of the game."""
from __future__ import annotations

import os
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.helpers.livekit import LiveServer
from .test_web_browser import ARTIFACTS, CHROMIUM, browser, phone  # noqa: F401  (browser: the module's fixture)

from companion.families.tock.game import SEATS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

TAPPED_TURNS = 3   # ordinary turns the phone plays by tapping, per game


def tap_turn(page, want=None, shot=None):
    """One turn by tapping: the first card that may play (or the one with a `want` play),
    the first play offered (or the `want` one; "Discard the whole hand" if no card can
    play), confirm. `shot`: a screenshot before confirming. A tap on a page that was
    just redrawn (its plays arriving) is tried again."""
    page.wait_for_selector("#banner.go", timeout=30000)
    for attempt in range(20):
        expect(page.locator("#prompt")).not_to_have_text(re.compile("^Loading"), timeout=30000)
        try:
            cards = page.locator("#hand button.pcard:not([disabled]):not(.dim)")
            if cards.count() == 0:
                if want:   # the hand is being redrawn: giving up now would lose the play wanted
                    raise AssertionError("the wanted card is not offered yet")
                page.locator("#give-up").tap(timeout=500)
            else:
                cards.nth(want[0] if want else 0).tap(timeout=500)
                option = page.locator(f'#choices button.option[data-move="{want[1]}"]') if want else \
                    page.locator("#choices #option-first")
                option.first.tap(timeout=1000)
            expect(page.locator("#confirm")).to_be_visible(timeout=1000)
            break
        except (AssertionError, PlaywrightError):
            page.wait_for_timeout(100)
            if page.locator("#cancel:not([hidden])").count():
                page.locator("#cancel").tap()
    else:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-related-nochoice.png"))
        raise AssertionError(page.locator("main").inner_text()[:600])
    if shot:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / shot))
    page.locator("#confirm").tap()


def api_turn(page, live, gid):
    """The phone's first offered play, posted with the phone's own cookies."""
    h = {"X-Pegs-Request": "1"}
    p = page.request.get(f"{live.url}/api/games/{gid}/plays").json()
    offered = [(m["move"], c["card"]) for c in p["cards"] for m in c["moves"]]
    move, card = offered[0] if offered else (p["give_up"]["move"], None)
    r = page.request.post(f"{live.url}/api/games/{gid}/act", headers=h,
                          data={"version": p["version"], "move": move, "card": card})
    return r.status


@pytest.fixture
def live_app():
    from .webkit import make_app
    app = make_app()
    srv = LiveServer(app)
    yield srv
    srv.close()
    app.extensions["pegs"].close()


# The fast suite plays the presets whose phone shows a phase of its own: the pass to the partner
# (tock_partnership), the forced discard and the red queen's steal (jackaroo), and Carbles'
# bigger board with partners; the others differ from these only in rules the engine's tests
# cover, and are played in .ci/run's slow part (about 5 s of CPU each, most of it the browser's).
FAST_PRESETS = ("tock_partnership", "jackaroo", "carbles_partnership")


@pytest.mark.timeout(900)   # a whole game: minutes at load 15 (pyproject's 300 s is for the rest)
@pytest.mark.parametrize("preset", [p if p in FAST_PRESETS else pytest.param(p, marks=pytest.mark.slow)
                                    for p in SEATS])
def test_each_related_preset_to_the_end_with_one_phone(live_app, browser, preset):
    live = live_app
    n = 4 if 4 in SEATS[preset] else SEATS[preset][0]
    svc = live.app.extensions["pegs"]
    table, _ = svc.create({"preset": preset, "players": n, "names": [f"P{i}" for i in range(n)],
                           "bots": [None] + ["greedy"] * (n - 1)})
    gid = table.gid
    ctx, page, errors = phone(browser)
    page.goto(f"{live.url}/j/{svc.join_code(table, 0)}")
    page.locator("#take-seat").tap()
    page.wait_for_url(f"**/seat/{gid}")
    partners = table.game.team_count < n
    if partners:   # partners' phones name the team; a player alone has none
        expect(page.locator("#me")).to_contain_text("team A")
    else:
        expect(page.locator("#me")).not_to_contain_text("team")
    svc.kick(table)   # the computers play up to the phone's turn
    tapped, seen = 0, set()
    # no budget for the whole game (a loaded machine takes minutes): only a hang fails, a
    # minute without a single move
    moved_at, last_version = time.monotonic(), table.version
    while True:
        with table.cond:
            table.cond.wait_for(lambda: table.game.is_over() or table.game.actor == 0, 5)
            g = table.game
            if g.is_over():
                break
            phase, version = g.phase, table.version
            plays = [p for p in g.legal_plays()] if g.actor == 0 else []
        if version != last_version:
            moved_at, last_version = time.monotonic(), version
        assert time.monotonic() - moved_at < 60, f"{preset}: no move for 60 s, at version {version}"
        if not plays:
            continue
        special = None
        if phase in ("give", "forced") and phase not in seen:
            special = (phase, None, f"phone-{preset}-{phase}.png")
        else:
            steal = next((p for p in plays if p.move.kind == "force" and p.move.rank == "Qr"), None)
            if steal is not None and "steal" not in seen:
                hand = [c for c in g.hands[0] if any(q.card == c for q in plays)]
                special = ("steal", (hand.index(steal.card), steal.move.text(g.position.geo)),
                           f"phone-{preset}-steal.png")
        if special:
            seen.add(special[0])
            if special[0] == "steal":   # the computers wait a moment: the line is looked at
                svc.bot_delay = 2.0
            tap_turn(page, special[1], special[2])
        elif tapped < TAPPED_TURNS:
            tapped += 1
            tap_turn(page)
        else:
            assert api_turn(page, live, gid) in (200, 409)
        with table.cond:  # the phone's answer is in before its next turn is looked at
            table.cond.wait_for(lambda: table.version != version, 5)
        if special and special[0] == "steal":   # the thief's log names the card taken
            expect(page.locator("#log .secret-card").first).to_be_attached(timeout=30000)
            page.screenshot(path=str(ARTIFACTS / f"phone-{preset}-stolen.png"))
            svc.bot_delay = 0.0
            svc.kick(table)
    assert table.game.is_over(), f"{preset} did not end in time"
    expect(page.locator("#banner")).to_have_text(re.compile("win"), timeout=30000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-{preset}-end.png"))
    ctx.close()
    assert tapped == TAPPED_TURNS or seen, (tapped, seen)
    # refused requests are expected (a plays request just after the turn passed on)
    assert not [e for e in errors if "status of 409" not in e and "status of 403" not in e], errors
    if preset == "tock_partnership":
        assert "give" in seen


def test_the_new_table_page_offers_each_related_game(live_app, browser):
    """Issue 18.4: each preset with its own seat counts, teams and (Carbles) sections;
    a switch and the chosen sections reach the table made."""
    live = live_app
    ctx, page, errors = phone(browser)
    page.goto(f"{live.url}/new")
    for preset, counts in SEATS.items():
        page.select_option("#preset", preset)
        shown = [int(b.get_attribute("data-value")) for b in page.locator("#players button").all()]
        assert shown == list(counts), preset
        expect(page.locator("#shoe-box")).to_be_hidden()
    page.select_option("#preset", "carbles")
    page.locator('#players button[data-value="5"]').tap()
    expect(page.locator("#sections")).to_be_visible()
    expect(page.locator("#draw")).to_be_hidden()   # each on their own: no partners to draw
    page.locator('#sections button[data-value="8"]').tap()
    page.locator("#switch-open_hand").check()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "new-table-carbles.png"), full_page=True)
    page.locator("#create").tap()
    page.wait_for_url("**/host/*")
    gid = page.url.rsplit("/", 1)[1]
    game = live.app.extensions["pegs"].get(gid).game
    assert (game.players, game.sides, game.rules.open_hand) == (5, 8, True)
    # RG-B4: each seat's colour defaults to its side's (sides 0, 1, 3, 4, 6 of 8)
    table = live.app.extensions["pegs"].get(gid)
    assert [s.colour for s in table.seats] == ["red", "green", "blue", "orange", "white"]
    page.goto(f"{live.url}/new")
    page.select_option("#preset", "jackaroo")
    expect(page.locator("#teams")).to_contain_text("2 teams of 2, partners opposite")
    page.locator("#create").tap()
    page.wait_for_url("**/host/*")
    game = live.app.extensions["pegs"].get(page.url.rsplit("/", 1)[1]).game
    assert game.rules.preset == "jackaroo" and game.team_count == 2
    table = live.app.extensions["pegs"].get(page.url.rsplit("/", 1)[1])
    assert [s.colour for s in table.seats] == ["red", "green", "yellow", "blue"]
    ctx.close()
    assert not errors, errors
