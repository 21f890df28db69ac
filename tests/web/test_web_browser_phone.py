"""The phone pages in a real browser (Debian's chromium via Playwright, 390x844):
Bluffing Joker with many doubts and penalties never leaves a phone on a loading or
empty choice (issue 14.1), and the other phone-side behaviours of issue 14."""
from __future__ import annotations

import os
import random
import re
import time

import pytest
from .webkit import H, make_app
from playwright.sync_api import expect

from tests.helpers.livekit import LiveServer
from .test_web_browser import ARTIFACTS, CHROMIUM, PHONE, browser, phone  # noqa: F401  (browser: the module's fixture)

STUCK = 30.0   # a ceiling: a frozen phone never offers its choices; a loaded machine may take seconds

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def unexpected(errors):
    """The page's errors, less the console lines for refused requests (403, 409), which
    are expected here: a phone that lost its seat, a tap on a page the game moved past."""
    return [e for e in errors if "status of 403" not in e and "status of 409" not in e]


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
    """A new table (no host page needed): its id."""
    data = {"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Ben", "Cy", "Di"], **body}
    return live.app.extensions["pegs"].create(data)[0].gid


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


def test_bluffing_doubts_and_penalties_never_freeze_a_phone(live, browser):
    gid = create(live, preset="bluffing_joker")
    svc = live.app.extensions["pegs"]
    table = svc.get(gid)
    phones = seated_phones(browser, live, gid, range(4))
    rng = random.Random(14)
    doubts = penalties = own_again = 0
    stuck = []
    t0 = time.monotonic()
    for _ in range(140):   # stops once it has seen enough (about 60 actions)
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
        assert not unexpected(errors), errors
    assert not stuck, f"a phone stayed on a loading or empty choice for > {STUCK} s: {stuck}"
    # the game went through what froze phones before: doubts, penalties, the same phone again
    assert doubts >= 10 and penalties >= 4 and own_again >= 4, (doubts, penalties, own_again, elapsed)


# ------------------------------------------------------------------ 14.6 / 14.7 / 14.8: the host decides
@pytest.fixture
def live_bots():
    app = make_app(BOT_DELAY=0.1)   # the computer plays on steadily, without flooding a loaded machine
    srv = LiveServer(app)
    yield srv
    srv.close()


def test_seat_to_the_computer_asked_back_a_fresh_phone_asks_and_undo_asks_first(live_bots, browser):
    live = live_bots
    ARTIFACTS.mkdir(exist_ok=True)
    svc = live.app.extensions["pegs"]
    host_ctx, host, host_errors = phone(browser)
    r = host_ctx.request.post(live.url + "/api/games", headers=H, data={
        "preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Ben", "Cy", "Di"],
        "bots": [None, "greedy", "greedy", "greedy"]})
    gid = r.json()["gid"]
    table = svc.get(gid)
    host.goto(f"{live.url}/host/{gid}")
    ann_ctx, ann, ann_errors = seated_phones(browser, live, gid, [0])[0]
    requests = []
    ann.on("request", lambda req: requests.append(req.url))

    # 14.6: the host gives Ann's seat to the computer: her phone says so, stops asking for her
    # hand, and (25 §4.1) watches the game live: the board, whose turn, the log
    host.locator('.seat-card[data-seat="0"] [data-action="bot"]').tap()
    expect(ann.locator("#noseat .lost-title")).to_have_text("The host gave your seat to the computer", timeout=30000)
    expect(ann.locator("#banner")).not_to_have_text("Your turn")
    ann.screenshot(path=str(ARTIFACTS / "phone-seat-to-computer.png"))
    with table.cond:
        v0 = table.version
    n0 = len(requests)
    with table.cond:   # five of the computer's moves, however long a loaded machine takes
        table.cond.wait_for(lambda: table.version - v0 >= 5, 120)
        moved = table.version - v0
    assert moved >= 5, moved   # the computer plays on ...
    expect(ann.locator("#log li").first).to_be_visible()
    expect(ann.locator("#banner")).to_contain_text("to play")
    expect(ann.locator("#hand")).to_be_hidden()
    private = [u for u in requests[n0:] if re.search(r"/(me|plays)$", u)]
    assert private == []       # ... the phone asks nothing of its old seat meanwhile ...
    assert any(u.endswith(f"/api/games/{gid}/table") for u in requests[n0:]), (requests, ann_errors)   # ... and watches
    # after a reload too: a live board (pegs drawn), the log, the way to ask back
    ann.reload()
    expect(ann.locator("#noseat .lost-title")).to_have_text("The host gave your seat to the computer", timeout=30000)
    expect(ann.locator("#log li").first).to_be_visible()
    assert ann.locator("#board .peg").count() >= 16
    logged = ann.locator("#log li").first.inner_text()
    expect(ann.locator("#log li").first).not_to_have_text(logged, timeout=30000)   # it moves on by itself

    # she asks for it back; the host gives it with one tap
    ann.locator("#ask-back").tap()
    expect(ann.locator("#noseat .lost-title")).to_have_text("Waiting for the host")
    box = host.locator('.seat-card[data-seat="0"] .seat-request')
    expect(box).to_be_visible(timeout=30000)
    # 25 §4.10: her own phone asks it back: no stranger's warning
    expect(box).to_contain_text("Ann's phone asks for the seat back.")
    expect(box).not_to_contain_text("anyone who saw the QR code")
    host.screenshot(path=str(ARTIFACTS / "host-seat-request.png"), full_page=True)
    box.locator('[data-action="approve"]').tap()
    expect(ann.locator("#noseat")).to_be_hidden(timeout=30000)
    expect(ann.locator("#hand button.pcard").first).to_be_visible()

    # 14.7: a fresh phone re-scans Ann's link: it asks, the host approves, it plays
    new_ctx, new, new_errors = phone(browser)
    new.goto(f"{live.url}/j/{svc.join_code(table, 0)}")
    expect(new.locator(".warn")).to_have_text("Another phone has this seat already.")
    new.screenshot(path=str(ARTIFACTS / "join-taken.png"))
    new.locator("#ask-seat").tap()
    try:
        new.wait_for_url(f"**/seat/{gid}", timeout=30000)
    except Exception:
        raise AssertionError((new.url, new.locator("#join-error").inner_text(), table.status)) from None
    expect(new.locator("#noseat .lost-title")).to_have_text("Waiting for the host")
    new.screenshot(path=str(ARTIFACTS / "phone-waiting-for-host.png"))
    expect(box).to_contain_text("anyone who saw the QR code", timeout=30000)   # a stranger's phone: warned
    assert table.seats[0].token_hash is not None and table.seats[0].request_hash is not None  # not silently
    box.locator('[data-action="approve"]').tap()
    expect(new.locator("#hand button.pcard").first).to_be_visible(timeout=30000)
    expect(new.locator("#noseat")).to_be_hidden()
    expect(ann.locator("#noseat .lost-title")).to_have_text("Your seat is on another phone", timeout=30000)

    # 14.8: Undo asks first; "Cancel" changes nothing
    with table.cond:
        assert table.cond.wait_for(lambda: table.game.actor == 0 and table.game.history, 30)
    expect(host.locator("#undo")).to_be_enabled()
    asked = []
    host.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    host.locator("#undo").tap()
    host.wait_for_timeout(300)
    assert asked and asked[0].startswith("Undo ") and table.undos == 0, asked
    host.once("dialog", lambda d: d.accept())
    host.locator("#undo").tap()
    expect(host.locator("#host-msg")).to_contain_text("Undone")
    assert table.undos >= 1
    # 25 §4.2: every phone and the table say whose move went back, in words
    tv_ctx, tv, tv_errors = phone(browser)
    tv.goto(f"{live.url}/table/{gid}")
    for page in (new, ann, tv):
        expect(page.locator("#undone")).to_contain_text("The host took back", timeout=30000)
    expect(new.locator("#undone")).to_contain_text("Ann (Red)")
    tv_ctx.close()
    for ctx, errors in ((host_ctx, host_errors), (ann_ctx, ann_errors), (new_ctx, new_errors)):
        ctx.close()
        assert not unexpected(errors), errors


# ------------------------------------------------------------------ 14.3 / 14.10: a board follows the card
COME_OUT = ("A", "K")


@pytest.fixture
def live_sim():
    """The app as `pegs serve --board simulation` builds it (the runner thread, a real clock)."""
    from web import create_app
    from web.board_referee import make_hub
    from web.store import Store
    from web.tables import TableService
    svc = TableService(Store(":memory:"), b"k" * 32, bot_delay=0.2)
    app = create_app({"BOT_DELAY": 0.2, "HEARTBEAT": 1.0}, service=svc, board=make_hub(svc, "simulation"))
    srv = LiveServer(app, threads=24)
    yield srv
    srv.close()


def sim_table(svc, bots, preset="basic"):
    """A table whose first player (seat 0) holds a card that brings a peg out."""
    for _ in range(100):
        table, host = svc.create({"preset": preset, "players": 4, "teams": 2,
                                  "names": ["Ann", "Ben", "Cy", "Di"], "bots": bots})
        g = table.game
        card = next((c for c in g.hands[0] if rank_of(c) in COME_OUT), None)
        if g.actor == 0 and card:
            return table, card
        # a game in play keeps the board (13.4): end the deals not wanted, as their host would
        svc.host_action(table, host, "end", {"version": table.version})
    raise AssertionError("no deal with a come-out card for seat 0")


def rank_of(card):
    return "JK" if card == "JK" else card[:-1]


def in_view(page, selector):
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_reload_mid_turn_shows_the_chosen_card_and_the_hand_stays_in_view(live_sim, browser):
    live = live_sim
    ARTIFACTS.mkdir(exist_ok=True)
    svc = live.app.extensions["pegs"]
    hub = live.app.extensions["pegs_board"]
    # Bluffing Joker: the declare row makes the page longest
    table, card = sim_table(svc, [None, "greedy", "greedy", "greedy"], preset="bluffing_joker")
    gid = table.gid
    ctx, page, errors = seated_phones(browser, live, gid, [0])[0]
    page.locator(f'#hand button.pcard[aria-label="{card_words(card)}"]').first.tap()
    # 13.1: the public board follows a Bluffing Joker card only once a rank is declared
    assert hub.chosen(table, 0, table.version) is None
    page.locator('#declare button.rank[aria-label$="(the real card)"]').first.tap()
    expect(page.locator("#prompt")).to_have_text(re.compile("^Move the peg on the board"))
    expect(page.locator("#boardbox")).to_be_visible()
    assert hub.chosen(table, 0, table.version) == {"card": card, "rank": rank_of(card)}
    page.screenshot(path=str(ARTIFACTS / "phone-card-chosen-board.png"))
    hand_in_view = in_view(page, "#hand")   # 14.10: the hand stays in view (asserted after the reload too)
    prompt = page.locator("#prompt").inner_text()
    msg = page.locator("#board-msg").inner_text()

    # 14.3: a reload shows what the server has: the card chosen, the board following it, the words
    page.reload()
    expect(page.locator("#hand button.pcard.selected")).to_have_count(1)
    expect(page.locator("#hand button.pcard.selected")).to_have_attribute("aria-label", card_words(card))
    expect(page.locator("#prompt")).to_have_text(prompt)
    expect(page.locator("#boardbox")).to_be_visible()
    expect(page.locator("#board-msg")).to_have_text(msg)
    assert hand_in_view and in_view(page, "#hand"), page.locator("#hand").bounding_box()
    # Back still lets go of the card, on the board too
    page.locator("#cancel").tap()
    expect(page.locator("#hand button.pcard.selected")).to_have_count(0)
    expect(page.locator("#prompt")).to_have_text("Tap a card to play.")
    for _ in range(20):
        if hub.chosen(table, 0, table.version) is None:
            break
        time.sleep(0.05)
    assert hub.chosen(table, 0, table.version) is None
    ctx.close()
    assert not unexpected(errors), errors


def test_the_next_phone_shows_the_board_catching_up_as_catch_up(live_sim, browser):
    live = live_sim
    svc = live.app.extensions["pegs"]
    hub = live.app.extensions["pegs_board"]
    table, card = sim_table(svc, [None, None, "greedy", "greedy"])
    phones = seated_phones(browser, live, table.gid, [1])
    ctx, ben, errors = phones[1]
    for _ in range(200):
        if hub.referee is not None and hub.referee.table is table and hub.state(table)["state"] == "ready":
            break
        time.sleep(0.02)
    hub.referee.SYNC_DELAY = 3600.0   # hold the catch-up until the test has looked at it
    with table.cond:
        play = next(p for p in table.game.legal_plays() if p.card == card)
        version = table.version
    svc.act_as(table, 0, {"version": version, "move": play.move.text(table.geo), "card": card})
    expect(ben.locator("#banner.go")).to_be_visible()
    expect(ben.locator("svg.board.catch-up")).to_have_count(1, timeout=30000)
    expect(ben.locator("#boardbox.catchup")).to_be_visible()
    expect(ben.locator("#board-msg")).to_contain_text("catching up")
    # ... with whose move, in words (issue 14.4), never its notation
    expect(ben.locator("#board-msg")).to_contain_text(f"The board is catching up: {table.seats[0].name} (")
    assert not re.search(r"\d+:[SMH]|\b[MH]\d+\b", ben.locator("#board-msg").inner_text())
    assert ben.locator("#leds .led").count() >= 1
    ben.screenshot(path=str(ARTIFACTS / "phone-board-catching-up.png"))
    # once the board shows the move: no catch-up marks, and Ben's own choices are his
    hub.sync(table)   # the held pegs move now
    expect(ben.locator("svg.board.catch-up")).to_have_count(0, timeout=30000)
    expect(ben.locator("#boardbox.catchup")).to_have_count(0)
    ctx.close()
    assert not unexpected(errors), errors


def card_words(card):
    """A card button's name: what it shows first, then its name (issue 25: "A Ace of clubs")."""
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    words = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
    if card == "JK":
        return "JK Joker"
    rank = card[:-1]
    return f"{rank} {words[rank]} of {suits[card[-1]]}" if rank in words else f"{rank} of {suits[card[-1]]}"


# ------------------------------------------------------------------ 14.11: the screen stays on
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"   # as on plain http, where it isn't offered


@pytest.mark.parametrize("api", ["absent", "offered"])
def test_the_acting_phone_keeps_its_screen_on(live, browser, api):
    svc = live.app.extensions["pegs"]
    gid = create(live)
    table = svc.get(gid)
    actor = table.game.actor
    ctx, page, errors = phone(browser)
    if api == "absent":
        ctx.add_init_script(NO_WAKE_LOCK)
    page.goto(f"{live.url}/j/{svc.join_code(table, actor)}")
    page.locator("#take-seat").tap()
    page.wait_for_url(f"**/seat/{gid}")
    expect(page.locator("#banner.go")).to_be_visible()
    html = page.locator("html")
    if api == "absent":   # the fallback: a video looping, served from here
        expect(html).to_have_attribute("data-awake", "video", timeout=30000)
        # Blink keeps the screen on for a silent video only if it covers > 20 % of the view,
        # >= 75 % of it on screen: the video spans the view, all but transparent, behind the page
        box = page.locator("#keep-awake").bounding_box()
        assert box["width"] * box["height"] >= 0.9 * PHONE["width"] * PHONE["height"], box
        assert box["x"] >= -1 and box["y"] >= -1, box
        expect(page.locator("#keep-awake")).not_to_have_attribute("loop", "")
        # ... and never in the way of a tap
        page.locator("#hand button.pcard").first.tap()
        expect(page.locator("#hand button.pcard.selected")).to_have_count(1)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-turn-screen-on.png"))
    else:                 # the Screen Wake Lock where granted, else the video
        expect(html).to_have_attribute("data-awake", re.compile("^(lock|video)$"), timeout=30000)
    # the turn passes: the screen may sleep again
    with table.cond:
        g = table.game
        play = next(iter(g.legal_plays()))
        version = table.version
    svc.act_as(table, actor, {"version": version, "move": play.move.text(table.geo), "card": play.card})
    expect(page.locator("#banner.go")).to_have_count(0, timeout=30000)
    expect(html).to_have_attribute("data-awake", "off", timeout=30000)
    ctx.close()
    assert not unexpected(errors), errors
