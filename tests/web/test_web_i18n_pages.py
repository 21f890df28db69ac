"""Issue 25.1, the words that were still English: the settings API's refusals and messages,
the hardware's problem reports (table page, board status) and the presets' option names
reach a French or Arabic page in its language, with no catalog English left over."""
from __future__ import annotations

import warnings

import pytest

from tests.helpers.english import english_fragments, english_left
from web import config as cfgmod
from web.main import build_app

CSRF = {"X-Pegs-Request": "1"}
LANGS = ("fr_CA", "ar")


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setattr(cfgmod, "DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))


@pytest.fixture
def settings_app(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[serve]\nbot_delay = 1.5\n")
    app = build_app({"DATA_DIR": str(tmp_path / "data"), "BOARD_MODE": "simulation", "BOT_DELAY": 1.5,
                     "CONFIG_PATH": str(path), "ADMIN_CODE": "open-sesame"})
    yield app, path
    app.extensions["pegs"].close()


@pytest.fixture
def app_on_a_pc(tmp_path):
    """The reed switches and LEDs asked for on a PC: both parts fail to start."""
    w = tmp_path / "wiring.toml"
    w.write_text("[board]\nsides = 4\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = build_app({"DATA_DIR": str(tmp_path / "d"), "BOARD_MODE": "sensors", "WIRING": str(w)})
    yield app
    app.extensions["pegs"].close()


def test_the_check_finds_english_where_it_is_left():
    """The check itself: an English refusal in a French answer is found, its French is not."""
    english = "board.settle_seconds: must be a number from 0.1 to 10 seconds, not 0"
    assert english_left(english, "fr_CA") and not english_left(
        "board.settle_seconds : doit être un nombre de 0.1 à 10 secondes, pas 0", "fr_CA")
    assert len(english_fragments("ar")) > 500


BAD = [({"board.settle_seconds": 0}, "board.settle_seconds"), ({"serve.port": 80}, "serve.port"),
       ({"board.mode": "sensors"}, "board.mode"), ({"board.mode": "camera"}, "board.mode"),
       ({"wiring.leds.brightness": 0.5}, "wiring.leds.brightness"), ({"board.mode": "disco"}, "board.mode")]


@pytest.mark.parametrize("lang", LANGS)
def test_the_settings_api_refuses_and_answers_in_the_pages_language(settings_app, lang):
    app, path = settings_app
    c = app.test_client()
    c.set_cookie("pj_lang", lang)
    english = app.test_client()
    for changes, key in BAD:
        r = c.post("/api/settings", json={"changes": changes}, headers=CSRF)
        assert r.status_code == 400
        said = r.get_json()["error"]
        theirs = english.post("/api/settings", json={"changes": changes}, headers=CSRF).get_json()["error"]
        assert key in said and said != theirs, (said, theirs)       # the key stays, the words don't
        assert not english_left(said, lang), said
    r = c.post("/api/settings", json={"changes": {"serve.bot_delay": 0.4}}, headers=CSRF)
    message = r.get_json()["message"]
    assert str(path) in message and not message.startswith("Saved") and not english_left(message, lang)
    page = c.get("/settings").get_data(as_text=True)
    assert not english_left(page, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_hardwares_problems_read_in_the_pages_language(app_on_a_pc, lang):
    c = app_on_a_pc.test_client()
    r = c.post("/api/games", json={"preset": "basic", "players": 4, "teams": 2, "names": ["A", "B", "C", "D"]},
               headers=CSRF)
    gid = r.get_json()["gid"]
    english = [p["what"] for p in c.get(f"/api/games/{gid}/board").get_json()["control"]["problems"]]
    assert any("not a Raspberry Pi" in w for w in english)
    c.set_cookie("pj_lang", lang)
    c.set_cookie("pj_table_lang", lang)
    problems = c.get(f"/api/games/{gid}/board").get_json()["control"]["problems"]
    assert [p["part"] for p in problems] == ["switches", "LEDs"]
    for p in problems:
        assert p["what"] not in english and not english_left(p["what"] + " " + p["fix"], lang), p
    assert "Raspberry Pi" in problems[0]["what"] and "board.mode" in problems[0]["fix"]   # names stay
    page = c.get(f"/table/{gid}").get_data(as_text=True)
    shown = page.split('<ul id="board-problems">')[1].split("</ul>")[0]   # (the raw error is for the log)
    assert not english_left(shown, lang), shown
    assert ("interrupteurs à lames" if lang == "fr_CA" else "الحساسات المغناطيسية") in shown
    assert not english_left(page.split('<section id="board-problem"')[0], lang)
    status = c.get("/api/settings").get_json()["board"]
    assert not english_left(" ".join(p["what"] + " " + p["fix"] for p in status["problems"]), lang)


def _texts(html: str) -> set[str]:
    """The page's visible text pieces of three words or more (scripts, styles and tags out)."""
    import re
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    from web.i18n import LANGUAGES
    names = {name for name, _ in LANGUAGES.values()}
    return {t.strip() for t in re.split(r"<[^>]*>", html)
            if len(re.findall(r"[A-Za-z]{2,}", t)) >= 3 and " " in t.strip() and "Pegs and Jokers" not in t
            and not any(n in t for n in names)}   # the language picker names each language in its own


@pytest.mark.parametrize("path", ["/settings", "/settings/camera"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_of_the_admin_pages_is_the_same_as_in_english(settings_app, path, lang):
    """A literal the catalogs never saw (no _() round it) reads the same in every language:
    no visible sentence of the settings and camera pages may be the English page's."""
    app, _ = settings_app
    english = _texts(app.test_client().get(path).get_data(as_text=True))
    c = app.test_client()
    c.set_cookie("pj_lang", lang)
    same = english & _texts(c.get(path).get_data(as_text=True))
    assert not same, same


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_of_the_players_pages_is_the_same_as_in_english(lang):
    """The same check on the pages the server writes for the players and the host: home,
    new table, join, seat, host, table, pairing and the card sheet."""
    from tests.web.webkit import join_all, make_app, new_table
    app = make_app()
    try:
        host = app.test_client()
        gid = new_table(host)
        svc = app.extensions["pegs"]
        table = svc.get(gid)
        phone = join_all(app, gid, seats=[0])[0]
        code = svc.join_code(table, 1)
        paths = ["/", "/new", f"/j/{code}", f"/seat/{gid}", f"/host/{gid}", f"/table/{gid}", f"/rules/{gid}",
                 "/d/ZZZZZZ"]
        for path in paths:
            who = phone if path.startswith("/seat") else host
            who.set_cookie("pj_lang", "en")
            who.set_cookie("pj_table_lang", "en")
            english = _texts(who.get(path).get_data(as_text=True))
            who.set_cookie("pj_lang", lang)
            who.set_cookie("pj_table_lang", lang)
            same = english & _texts(who.get(path).get_data(as_text=True))
            same = {t for t in same if not t.startswith(("Ann", "Bob", "Cy", "Di", "pegs "))}   # names, commands
            assert not same, (path, same)
    finally:
        app.extensions["pegs"].close()
