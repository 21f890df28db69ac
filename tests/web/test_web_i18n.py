"""Issue 25.1: the catalogs are complete and current, each phone's language is chosen and
remembered, and the engine's sentences reach each phone in its own language."""
from __future__ import annotations

import gettext
import re

import pytest

from companion.message import Join, msg, nmsg, pmsg
from web import catalogs
from web.i18n import TRANSLATIONS
from .webkit import H, join_all, new_table


def test_the_catalogs_are_complete_current_and_keep_every_placeholder():
    assert catalogs.problems() == []


def test_the_check_finds_a_missing_a_stale_and_a_wrong_placeholder(monkeypatch):
    real = catalogs.template

    def changed():
        cat = real()
        cat.add("A brand new message %(x)s")         # no catalog has it: missing
        del cat[("%(who)s passed")]                   # gone from the code: stale in every catalog
        return cat
    monkeypatch.setattr(catalogs, "template", changed)
    found = catalogs.problems()
    assert any("lacks 'A brand new message %(x)s'" in p for p in found)
    assert any("stale '%(who)s passed'" in p for p in found)
    monkeypatch.setattr(catalogs, "template", real)
    read = catalogs.read
    fr = read("fr_CA")
    fr["%(who)s passed"].string = "%(qui)s a passé"
    monkeypatch.setattr(catalogs, "read", lambda lang: fr if lang == "fr_CA" else read(lang))
    found = catalogs.problems()
    assert any("placeholders" in p and "%(who)s passed" in p for p in found)
    assert any("fr_CA" in p and "is not what its .po compiles to" in p for p in found)   # a stale .mo


def _tr(lang):
    return gettext.translation("messages", str(TRANSLATIONS), [lang])


def test_a_sentence_renders_in_each_language_with_its_plural_forms():
    who = msg("%(name)s (%(colour)s)", name="Ann", colour=pmsg("colour", "Red"))
    said = msg("%(who)s brought %(peg)s out with %(card)s, onto %(dst)s", who=who, peg=msg("a peg"),
               card=pmsg("a card", "a jack"), dst=msg("hole %(number)s", number=8))
    assert str(said) == "Ann (Red) brought a peg out with a jack, onto hole 8"
    assert said.render(_tr("fr_CA")) == "Ann (Rouge) a sorti un pion avec un valet, sur le trou 8"
    assert said.render(_tr("ar")) == "Ann (أحمر) طلّع حجر بولد إلى الخانة 8"
    forms = [nmsg("Undone (%(n)s move).", "Undone (%(n)s moves).", n).render(_tr("ar")) for n in (0, 1, 2, 3, 11, 100)]
    assert forms == ["تم التراجع (ولا حركة).", "تم التراجع (حركة وحدة).", "تم التراجع (حركتين).",
                     "تم التراجع (3 حركات).", "تم التراجع (11 حركة).", "تم التراجع (100 حركة)."]
    assert Join(["A", "B", "C"]).render(_tr("fr_CA")) == "A, B et C"


def test_each_phone_reads_the_log_in_its_own_language(app):
    c = app.test_client()
    gid = new_table(c)
    phones = join_all(app, gid)
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    g = table.game
    play = g.legal_plays()[0]
    svc.act_as(table, g.actor, {"version": table.version, "move": play.move.text(table.geo), "card": play.card})
    seen = {}
    for lang, phone in zip(("en", "fr_CA", "ar"), phones.values()):
        phone.set_cookie("pj_lang", lang)
        view = phone.get(f"/api/games/{gid}/me").get_json()
        seen[lang] = view["log"][-1]["words"]
    assert seen["en"].startswith(table.seats[0].name) or "discarded" in seen["en"] or " " in seen["en"]
    assert seen["fr_CA"] != seen["en"] and seen["ar"] != seen["en"]
    assert any(w in seen["fr_CA"] for w in ("a défaussé", "a sorti", "a déplacé"))
    assert any(w in seen["ar"] for w in ("حرق", "طلّع", "حرّك"))
    assert "\u2068" in seen["ar"]   # the names isolated inside the Arabic sentence


@pytest.mark.parametrize("header, lang, direction", [("fr-CA,fr;q=0.9", "fr-CA", "ltr"), ("ar-KW", "ar", "rtl"),
                                                      ("de-DE,en;q=0.5", "en", "ltr")])
def test_the_default_language_comes_from_accept_language(client, header, lang, direction):
    html = client.get("/new", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{lang}" dir="{direction}">' in html


def test_the_picked_language_wins_and_the_table_has_its_own(client):
    gid = new_table(client)
    client.set_cookie("pj_lang", "ar")
    client.set_cookie("pj_table_lang", "fr_CA")
    assert 'lang="ar" dir="rtl"' in client.get(f"/j/XXXXXX", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert 'lang="fr-CA" dir="ltr"' in client.get(f"/table/{gid}").get_data(as_text=True)


def test_the_javascript_gets_the_same_catalog_cached_under_its_version(client):
    html = client.get("/new", headers={"Accept-Language": "ar"}).get_data(as_text=True)
    src = html.split('<script src="/i18n/')[1].split('"')[0]
    r = client.get("/i18n/" + src.replace("&amp;", "&"))
    assert r.status_code == 200 and "immutable" in r.headers["Cache-Control"]
    body = r.get_data(as_text=True)
    assert '"Your turn": "دورك"' in body and "window.PJ_I18N.plural" in body
    assert client.get("/i18n/xx.js").status_code == 404


def test_a_refusal_keeps_its_rule_id_in_every_language_and_links_its_page(app):
    c = app.test_client()
    gid = new_table(c)
    phones = join_all(app, gid)
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    g = table.game
    other = (g.position.to_move + 1) % 4
    rank = next(c[:-1] for c in g.hands[g.actor] if c != "JK")
    move = f"{rank} {other}:S-M{8 + 18 * other}"   # another side's peg: P8
    said = {}
    for lang in ("en", "fr_CA", "ar"):
        phone = phones[g.actor]
        phone.set_cookie("pj_lang", lang)
        r = phone.post(f"/api/games/{gid}/act", json={"version": table.version, "move": move}, headers=H)
        assert r.status_code == 422
        body = r.get_json()
        said[lang] = (body["words"], body["rule"])
    rules = {rule for _, rule in said.values()}
    assert len(rules) == 1
    rule = rules.pop()
    for lang, (words, _) in said.items():
        assert words.replace("\u2068", "").replace("\u2069", "").endswith(f"({rule})"), (lang, words)
    assert said["fr_CA"][0] != said["en"][0] and said["ar"][0] != said["en"][0]
    assert not any(w in said["fr_CA"][0] for w in ("peg", "hole", "move only"))
    for lang, word in (("fr_CA", "Ce que fait chaque carte"), ("ar", "وش تسوي كل ورقة")):
        c.set_cookie("pj_lang", lang)
        page = c.get(f"/rules/{gid}").get_data(as_text=True)
        assert word in page and f'id="rule-{rule}"' in page
        assert ("valet" in page) if lang == "fr_CA" else ("ولد" in page)


def test_the_presets_names_and_descriptions_are_catalogued_word_for_word(client):
    from companion.rules import DESCRIPTIONS, PRESETS, RELATED_PRESETS
    from web.preset_words import DESCRIPTIONS as SAID, TITLES
    assert set(SAID) == set(DESCRIPTIONS) == set(TITLES) == set(PRESETS) | set(RELATED_PRESETS)
    for name, english in DESCRIPTIONS.items():
        assert str(SAID[name]) == english, f"{name}: web/preset_words.py is not companion's description"
    client.set_cookie("pj_lang", "fr_CA")
    presets = {p["name"]: p for p in client.get("/api/presets").get_json()}
    assert presets["north_carolina"]["title"] == "Caroline du Nord"
    assert presets["basic"]["description"].startswith("Le jeu de base")
    client.set_cookie("pj_lang", "ar")
    assert client.get("/api/presets").get_json()[0]["title"] in {"توك", "اللعبة الأساسية"}


def test_every_message_the_scripts_ask_for_is_extracted():
    """Babel's JavaScript extractor doesn't see calls inside template literals (`${_("...")}`):
    a message asked for there would stay English on every phone. Every literal the scripts
    pass to _, ngettext or pgettext must be in the catalog."""
    import re
    from pathlib import Path
    root = Path(catalogs.__file__).resolve().parent
    known = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalogs.template() if m.id}
    calls = re.compile(r'(?<![\w.])(_|ngettext|pgettext)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?')
    missing = []
    for path in root.rglob("*.js"):
        for fn, first, second in calls.findall(path.read_text()):
            if fn == "pgettext" and not second:
                continue   # a variable message of a known context (a colour, a rank)
            key = (first, second) if fn == "pgettext" else (None, first)
            key = (key[0], key[1].encode().decode("unicode_escape").encode("latin-1").decode())
            if key not in known:
                missing.append(f"{path.name}: {fn}({first!r})")
    assert not missing, missing


def test_the_presets_differences_and_rulings_are_catalogued_word_for_word(client):
    from companion.rules import OPTION_DOCS, RULINGS
    from web.preset_words import OPTION_DOC_MSGS, RULING_MSGS
    assert {doc for _, doc in OPTION_DOCS.values()} == set(OPTION_DOC_MSGS)
    assert {r for rulings in RULINGS.values() for r in rulings} == set(RULING_MSGS)
    client.set_cookie("pj_lang", "fr_CA")
    presets = {p["name"]: p for p in client.get("/api/presets").get_json()}
    nc = presets["north_carolina"]
    # the option's name and its values in the reader's words too (issue 25.1)
    assert any(d.startswith("l'as = Caroline du Nord (jeu de base : de base) : as : sortir")
               for d in nc["differences"]), nc["differences"]
    assert not [d for d in nc["differences"] if "'" in d.split(":")[0].split("=")[-1]], nc["differences"]
    assert all("must" not in d for d in nc["differences"])
    from web.preset_words import OPTION_NAME_MSGS
    assert set(OPTION_NAME_MSGS) == set(OPTION_DOCS)
    from companion.option_words import VALUE_MSGS
    word_values = {repr(v) for allowed, _ in OPTION_DOCS.values() if isinstance(allowed, tuple)
                   for v in allowed if isinstance(v, str) and not v[0].isdigit()}
    assert word_values <= set(VALUE_MSGS), sorted(word_values - set(VALUE_MSGS))
    english_names = re.compile(r"^(%s) = " % "|".join(OPTION_DOCS))
    for preset in presets.values():
        for d in preset["differences"]:
            assert not english_names.match(d) and "(basic:" not in d and "True" not in d, d
    client.set_cookie("pj_lang", "ar")
    ar = {p["name"]: [d.replace("\u2068", "").replace("\u2069", "") for d in p["differences"]]
          for p in client.get("/api/presets").get_json()}
    assert any(d.startswith("الإكة = نورث كارولاينا (اللعبة الأساسية: الأساسية): ") for d in ar["north_carolina"]), ar["north_carolina"]
    assert any(d.startswith("أحجار الفريق = نعم (اللعبة الأساسية: لا)") for d in ar["arizona"]), ar["arizona"]
    assert presets["jackaroo"]["rulings"] and all(" the " not in r for r in presets["jackaroo"]["rulings"])
