"""The camera page (issue 16.4): calibrate from a phone with a recorded camera (frames made
by vision/render_hard.py): the picture, the markers found, the per-hole reading, four taps
when the markers are hidden, the colour warnings in words, Save writing the calibration
atomically beside the config. API tests with Flask's client; the page in Chromium at 390x844."""
from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

import cv2  # noqa: E402

from vision.calibration import Calibration  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.render import setup_pegs  # noqa: E402
from vision.render_hard import TABLE_COLOURS, make_hard_scene, render_hard  # noqa: E402
from web import create_app  # noqa: E402
from web.board_control import BoardControl  # noqa: E402

CSRF = {"X-Pegs-Request": "1"}
CHROMIUM = "/usr/bin/chromium"
COLOURS = ["red", "blue", "green", "yellow"]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    """Recorded cameras: the set-up position, with the markers in view and with them covered, and
    the same camera and light over the empty board."""
    d = tmp_path_factory.mktemp("camrec")
    layout = standard_layout(4)
    scene = make_hard_scene(layout, "mild", 21)
    img = render_hard(scene, setup_pegs(layout, colours=TABLE_COLOURS), 1)
    (d / "seen").mkdir()
    cv2.imwrite(str(d / "seen" / "00.png"), img)
    hidden = img.copy()
    for m in layout.markers:             # a cloth over each marker sticker
        corners = [(m.x + dx * (m.size / 2 + m.quiet + 2), m.y + dy * (m.size / 2 + m.quiet + 2), 0.0)
                   for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        pts = scene.camera.project(corners).round().astype("int32")
        cv2.fillPoly(hidden, [pts], (70, 110, 150))
    (d / "hidden").mkdir()
    cv2.imwrite(str(d / "hidden" / "00.png"), hidden)
    (d / "empty").mkdir()
    cv2.imwrite(str(d / "empty" / "00.png"), render_hard(scene, {}, 2))
    taps = [scene.hole_px(h) for h in layout.manual_reference_holes()]
    return {"seen": str(d / "seen"), "hidden": str(d / "hidden"), "empty": str(d / "empty"), "taps": taps}


def start_holes_seen_empty(cal) -> list:
    """Start holes whose own empty look the calibration stored: only an empty-board picture shows them."""
    return sorted(h for h in cal.colours.hole_empty if h.startswith("S-"))


def use_camera(app, source):
    """Point the recorded camera at another recording (the host took the pegs off, or put them back)."""
    app.extensions["pegs_board_control"].camera["source"] = source


def make(tmp_path, source):
    config = tmp_path / "config.toml"
    config.write_text("[serve]\n")
    app = create_app({"CONFIG_PATH": str(config)})
    BoardControl(app, app.extensions["pegs"], mode="none", threaded=False, camera={"source": source})
    return app, tmp_path / "camera-calibration.json"


def test_the_page_needs_the_admin(tmp_path, recordings):
    app, _ = make(tmp_path, recordings["seen"])
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = "192.168.1.20"      # a phone without the admin code
    assert c.post("/api/camera/snapshot", json={}, headers=CSRF).status_code == 403
    assert c.post("/api/camera/analyse", json={}, headers=CSRF).status_code == 403
    assert c.post("/api/camera/save", json={}, headers=CSRF).status_code == 403
    assert c.get("/api/camera/snapshot.jpg").status_code == 403
    assert c.post("/api/camera/empty", json={}, headers=CSRF).status_code == 403
    assert c.get("/api/camera/empty.jpg").status_code == 403
    page = c.get("/settings/camera").get_data(as_text=True)
    assert "admin code" in page and "camera.js" not in page
    assert 'href="/settings/camera"' in app.test_client().get("/settings").get_data(as_text=True)   # reached from there


def test_picture_reading_and_save(tmp_path, recordings):
    app, target = make(tmp_path, recordings["seen"])
    c = app.test_client()
    assert c.post("/api/camera/save", json={}, headers=CSRF).status_code == 409      # nothing read yet
    assert c.post("/api/camera/analyse", json={}, headers=CSRF).status_code == 409   # no picture yet
    assert c.post("/api/camera/snapshot", json={}, headers=CSRF).get_json() == {"size": [1280, 720]}
    assert c.get("/api/camera/snapshot.jpg").mimetype == "image/jpeg"
    assert c.post("/api/camera/analyse", json={"colours": ["red", "nope"]}, headers=CSRF).status_code == 400
    assert c.post("/api/camera/analyse", json={"points": [[1, 2]]}, headers=CSRF).status_code == 400
    res = c.post("/api/camera/analyse", json={"colours": COLOURS}, headers=CSRF).get_json()
    assert res["error"] is None and res["ok"] and len(res["markers"]) == 4
    filled = {h["id"]: h["colour"] for h in res["holes"] if h["state"] == "filled"}
    assert filled == {h: COLOURS[int(h[3])].capitalize() for h in setup_pegs(standard_layout(4))}
    assert c.post("/api/camera/save", json={"accept_weak": "yes"}, headers=CSRF).status_code == 400
    out = c.post("/api/camera/save", json={}, headers=CSRF).get_json()
    assert out["saved"] == str(target) and "camera.calibration" in out["message"]
    cal = Calibration.load(target)
    assert cal.colours.names == {0: "Red", 1: "Blue", 2: "Green", 3: "Yellow"}
    assert start_holes_seen_empty(cal) == []                # no empty-board picture: not seen
    assert not list(tmp_path.glob(".*.tmp"))                # written atomically: no leftovers


def test_the_empty_board_picture_first_then_the_pegs(tmp_path, recordings):
    """The optional empty-board picture, taken before the set-up picture, is used by the same
    calibration as ``pegs vision calibrate --empty``: every start hole's own empty look is stored."""
    app, target = make(tmp_path, recordings["empty"])
    c = app.test_client()
    assert c.get("/api/camera/empty.jpg").status_code == 404                  # none yet
    assert c.post("/api/camera/empty", json={"drop": "yes"}, headers=CSRF).status_code == 400
    assert c.post("/api/camera/empty", json={"now": True}, headers=CSRF).status_code == 400
    assert c.post("/api/camera/empty", data="[]", content_type="application/json",
                  headers=CSRF).status_code == 400
    assert c.post("/api/camera/empty", json={}, headers=CSRF).get_json() == {"empty": True, "size": [1280, 720]}
    assert c.get("/api/camera/empty.jpg").mimetype == "image/jpeg"
    assert "\"empty\": true" in c.get("/settings/camera").get_data(as_text=True)    # kept across reloads
    assert c.post("/api/camera/analyse", json={"colours": COLOURS}, headers=CSRF).status_code == 409
    use_camera(app, recordings["seen"])                                         # the pegs put back
    c.post("/api/camera/snapshot", json={}, headers=CSRF)
    res = c.post("/api/camera/analyse", json={"colours": COLOURS}, headers=CSRF).get_json()
    assert res["error"] is None and res["ok"] and res["empty_used"]
    assert sum(h["state"] == "filled" for h in res["holes"]) == 20
    assert c.post("/api/camera/save", json={}, headers=CSRF).status_code == 200
    assert start_holes_seen_empty(Calibration.load(target)) == sorted(h for h in standard_layout(4).holes
                                                                     if h.startswith("S-"))


def test_an_empty_board_picture_with_pegs_is_refused_in_words_and_can_be_dropped(tmp_path, recordings):
    app, target = make(tmp_path, recordings["seen"])
    c = app.test_client()
    c.post("/api/camera/snapshot", json={}, headers=CSRF)
    c.post("/api/camera/empty", json={}, headers=CSRF)          # the pegs were left on the board
    res = c.post("/api/camera/analyse", json={"colours": COLOURS}, headers=CSRF).get_json()
    assert "doesn't show an empty board" in res["error"] and "take every peg off" in res["error"]
    assert c.post("/api/camera/save", json={}, headers=CSRF).status_code == 409
    assert c.post("/api/camera/empty", json={"drop": True}, headers=CSRF).get_json() == {"empty": False}
    assert c.get("/api/camera/empty.jpg").status_code == 404
    res = c.post("/api/camera/analyse", json={"colours": COLOURS}, headers=CSRF).get_json()
    assert res["error"] is None and res["ok"] and not res["empty_used"]


def test_the_empty_board_advice_points_to_the_page_step():
    from vision.calibration import EMPTY_ADVICE
    from web.camera import _page_words
    msg = f"side 0's red pegs can't be told from empty holes: lower the exposure, {EMPTY_ADVICE}, or use ..."
    words = _page_words(msg)
    assert "pegs vision calibrate" not in words and '"Take a picture of the empty board" below' in words


def test_taps_in_a_line_are_refused_in_words(tmp_path, recordings):
    app, target = make(tmp_path, recordings["seen"])
    c = app.test_client()
    c.post("/api/camera/snapshot", json={}, headers=CSRF)
    res = c.post("/api/camera/analyse", json={"colours": COLOURS, "points": [[0, 0], [1, 0], [2, 0], [3, 0]]},
                 headers=CSRF).get_json()
    assert res["error"] and "line" in res["error"] and res["holes"] == []
    assert c.post("/api/camera/save", json={}, headers=CSRF).status_code == 409
    assert not target.exists()


browser_only = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")


@pytest.fixture
def live_page(tmp_path):
    from tests.helpers.livekit import LiveServer
    from tests.helpers.browserkit import borrowed_browser
    servers = []

    def open_page(source):
        app, target = make(tmp_path, source)
        srv = LiveServer(app)
        servers.append(srv)
        return srv, target
    with borrowed_browser() as b:   # the worker's one browser (tests/helpers/browserkit.py)
        ctx = b.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                            has_touch=True)
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield open_page, page, errors
        b.close()
    for srv in servers:
        srv.close()


@browser_only
@pytest.mark.browser
@pytest.mark.timeout(90)
def test_phone_calibrates_with_the_markers(live_page, recordings, tmp_path):
    from playwright.sync_api import expect
    open_page, page, errors = live_page
    srv, target = open_page(recordings["seen"])
    page.goto(srv.url + "/settings/camera")
    page.click("#take")
    expect(page.locator("#overlay circle.hole")).to_have_count(112, timeout=30000)
    expect(page.locator("#overlay circle.filled")).to_have_count(20)
    expect(page.locator("#overlay polygon.marker")).to_have_count(4)
    expect(page.locator("#cam-msg")).to_contain_text("reads 20 pegs")
    page.screenshot(path=str(tmp_path / "camera-page.png"), full_page=True)
    # the optional second picture: the host takes every peg off, then taps
    expect(page.locator("#take-empty")).to_have_text("Take a picture of the empty board")
    page.click("#take-empty")                                     # the pegs were left on: refused in words
    expect(page.locator("#empty-state")).to_contain_text("can't use it", timeout=30000)
    expect(page.locator("#cam-error")).to_contain_text("take every peg off")
    expect(page.locator("#save")).to_be_disabled()
    use_camera(srv.app, recordings["empty"])
    page.click("#take-empty")                                     # retaken with the board empty
    expect(page.locator("#empty-state")).to_contain_text("Done: the camera uses it", timeout=30000)
    expect(page.locator("#take-empty")).to_have_text("Retake the empty board")
    expect(page.locator("#empty-snap")).to_be_visible()
    expect(page.locator("#overlay circle.filled")).to_have_count(20)      # the picture with the pegs, read again
    page.screenshot(path=str(tmp_path / "camera-empty.png"), full_page=True)
    page.click("#save")
    expect(page.locator("#cam-msg")).to_contain_text("Saved to")
    assert json.loads(target.read_text())["colours"]["names"]["1"] == "Blue"
    assert len(start_holes_seen_empty(Calibration.load(target))) == 20     # the empty-board picture was used
    assert errors == []


@browser_only
@pytest.mark.browser
@pytest.mark.timeout(90)
def test_phone_taps_four_holes_when_the_markers_are_hidden(live_page, recordings, tmp_path):
    from playwright.sync_api import expect
    open_page, page, errors = live_page
    srv, target = open_page(recordings["hidden"])
    page.goto(srv.url + "/settings/camera")
    page.click("#take")
    expect(page.locator("#tap-help")).to_contain_text("Tap hole 0", timeout=30000)
    expect(page.locator("#cam-msg")).to_contain_text("found 0 of the board's markers")
    page.locator("#snap").scroll_into_view_if_needed()
    box = page.locator("#snap").bounding_box()
    for x, y in recordings["taps"]:
        page.mouse.click(box["x"] + x * box["width"] / 1280, box["y"] + y * box["height"] / 720)
    expect(page.locator("#overlay circle.filled")).to_have_count(20, timeout=30000)
    page.screenshot(path=str(tmp_path / "camera-taps.png"), full_page=True)
    page.click("#save")
    expect(page.locator("#cam-msg")).to_contain_text("Saved to")
    assert Calibration.load(target).method == "manual"
    assert errors == []


@pytest.fixture(scope="module")
def sheen(tmp_path_factory):
    """Hard set-up 1004 (tests/vision/test_vision_hard.py): a lamp's sheen washes the red start holes
    out, so red can't be told from an empty hole there without a picture of the empty board."""
    d = tmp_path_factory.mktemp("sheen")
    layout = standard_layout(4)
    scene = make_hard_scene(layout, "hard", 1004)
    for name, pegs, seed in (("setup", setup_pegs(layout, colours=TABLE_COLOURS), 1004), ("empty", {}, 1005)):
        (d / name).mkdir()
        cv2.imwrite(str(d / name / "00.png"), render_hard(scene, pegs, seed))
    return {"setup": str(d / "setup"), "empty": str(d / "empty"), "red_starts": sorted(layout.start_ids(0))}


@browser_only
@pytest.mark.browser
@pytest.mark.timeout(90)
def test_phone_shows_the_camera_and_takes_the_sheen_set_up_with_an_empty_board_picture(live_page, sheen, tmp_path):
    """Hard set-up 1004 with the camera model (issue 23): the page lists the camera's measured height,
    tilt and lens and the pegs' working envelope; red under the sheen is told apart (before, it was
    refused and the page pointed to the empty-board step); the empty-board step still works and the
    calibration is saved without "save anyway", with its camera."""
    from playwright.sync_api import expect
    open_page, page, errors = live_page
    srv, target = open_page(sheen["setup"])
    page.goto(srv.url + "/settings/camera")
    page.click("#take")
    info = page.locator("#warnings li.camera-info")
    expect(info.first).to_contain_text("cm above the board, tilted", timeout=30000)
    expect(info.last).to_contain_text("working envelope for these pegs")
    expect(page.locator("#cam-msg")).to_contain_text("It can tell every colour apart")
    page.screenshot(path=str(tmp_path / "camera-sheen-camera.png"), full_page=True)
    use_camera(srv.app, sheen["empty"])
    page.click("#take-empty")
    expect(page.locator("#empty-state")).to_contain_text("Done: the camera uses it", timeout=30000)
    page.click("#save")
    expect(page.locator("#cam-msg")).to_contain_text("Saved to")
    cal = Calibration.load(target)
    assert cal.camera is not None and cal.weak == [] and not cal.accepted_weak
    assert errors == []


@browser_only
@pytest.mark.browser
@pytest.mark.timeout(90)
def test_phone_tells_a_camera_outside_the_working_envelope_what_to_change(live_page, tmp_path, monkeypatch):
    """A camera that sees the farthest heads further off their holes than the envelope allows gets a
    warning on the phone page in the words of what to change (issue 23: "raise the camera", "point it
    straight down"), wrapped within a phone's width. A `room` set-up (pegs with heads above the
    board, their height measured), its envelope made tiny."""
    from playwright.sync_api import expect

    import vision.calibration as calibration
    layout = standard_layout(4)
    scene = make_hard_scene(layout, "room", 201)
    (tmp_path / "room").mkdir()
    cv2.imwrite(str(tmp_path / "room" / "00.png"), render_hard(scene, setup_pegs(layout, colours=TABLE_COLOURS), 201))
    monkeypatch.setattr(calibration, "HEAD_OFFSET_READ", 0.05)
    open_page, page, errors = live_page
    srv, _ = open_page(str(tmp_path / "room"))
    page.goto(srv.url + "/settings/camera")
    page.click("#take")
    warning = page.locator("#warnings li", has_text="farthest peg heads")
    expect(warning).to_have_count(1, timeout=30000)
    expect(warning).to_contain_text("these holes read well at")
    expect(warning).to_contain_text("point it straight down")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "camera-outside-envelope.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("lang", ["fr_CA", "ar"])
def test_the_camera_speaks_the_pages_language(tmp_path, recordings, lang):
    """Issue 25.1: the camera API's refusals, the calibration's refusals, warnings and summary
    and the save message reach a French or Arabic page in its words (commands and keys as
    written), with no catalog English left over."""
    from tests.helpers.english import english_left
    app, target = make(tmp_path, recordings["seen"])
    c = app.test_client()
    c.set_cookie("pj_lang", lang)
    refused = c.post("/api/camera/analyse", json={}, headers=CSRF).get_json()["error"]   # no picture yet
    assert refused and not english_left(refused, lang) and "take a picture" not in refused
    c.post("/api/camera/snapshot", json={}, headers=CSRF)
    line = c.post("/api/camera/analyse", json={"colours": COLOURS, "points": [[0, 0], [1, 0], [2, 0], [3, 0]]},
                  headers=CSRF).get_json()["error"]
    assert line and "line" not in line and not english_left(line, lang)
    res = c.post("/api/camera/analyse", json={"colours": COLOURS}, headers=CSRF).get_json()
    assert res["error"] is None and res["camera"]
    said = " ".join(res["camera"] + res["warnings"] + res["weak"])
    assert not english_left(said, lang), said
    assert ("caméra" if lang == "fr_CA" else "الكاميرا") in said and "degrees" not in said
    out = c.post("/api/camera/save", json={}, headers=CSRF).get_json()
    assert "camera.calibration" in out["message"] and str(target) in out["message"]
    assert not out["message"].startswith("Saved") and not english_left(out["message"], lang)
    page = c.get("/settings/camera").get_data(as_text=True)
    assert not english_left(page, lang)


def test_a_broken_calibration_file_is_reported_in_the_readers_language(tmp_path):
    """The board's start-up report quotes the calibration's own refusal: a message too."""
    import gettext
    from pathlib import Path
    from tests.helpers.english import english_left
    from vision.calibration import CalibrationError
    from vision.sensor import diagnose_camera
    bad = tmp_path / "cal.json"
    bad.write_text('{"format": "pegs-and-jokers/vision-calibration/9"}')
    with pytest.raises(CalibrationError) as exc:
        Calibration.load(bad)
    problem = diagnose_camera(exc.value, "pi", str(bad))
    assert "newer format" in problem.what                       # the English (the log, the CLI)
    mo = Path(__file__).resolve().parents[2] / "web" / "translations" / "fr_CA" / "LC_MESSAGES" / "messages.mo"
    with open(mo, "rb") as f:
        french = problem.what.render(gettext.GNUTranslations(f))
    assert "format plus récent" in french and not english_left(french, "fr_CA"), french
