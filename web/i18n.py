"""Each phone in its own language: gettext catalogs through Babel and flask-babel.

The catalogs are ``web/translations/<lang>/LC_MESSAGES/messages.po`` (extracted from the
Python, the templates and the JavaScript by `web.catalogs`); their compiled ``.mo`` files
are committed beside them, so a fresh ``pip install -e .`` serves them with no build step
(a test fails when a ``.mo`` is not what its ``.po`` compiles to).

A phone's language: its ``pj_lang`` cookie (the picker on the seat, join, host and new-table
pages sets it), else the best of the browser's Accept-Language, else English. The table
page reads ``pj_table_lang`` first, so the table display has a language of its own even in
a browser that also holds a seat. The JavaScript gets the same catalog as a script
(``/i18n/<lang>.js``: message -> translation, and the language's plural rule), cached
under a version taken from the ``.mo``.

The rules engine's sentences (`companion.message.Msg`, the log, prompts, refusals) are
rendered here with the request's catalog: a mixed table plays together, each phone
reading the same structured log in its own words.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, has_request_context, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, get_locale, get_translations
from markupsafe import Markup

from companion.message import Msg

from .access import route

TRANSLATIONS = Path(__file__).parent / "translations"
# code -> (its own name, text direction); English is the source language (no catalog)
LANGUAGES = {"en": ("English", "ltr"), "fr_CA": ("Français (Canada)", "ltr"), "ar": ("العربية", "rtl")}
LANG_COOKIE = "pj_lang"
TABLE_LANG_COOKIE = "pj_table_lang"
_ALIASES = {"en": "en", "fr": "fr_CA", "ar": "ar"}   # a browser's "fr-FR" still reads Québec French

bp = Blueprint("i18n", __name__)


def _known(code: str | None) -> str | None:
    if not code:
        return None
    code = code.replace("-", "_")
    if code in LANGUAGES:
        return code
    return _ALIASES.get(code.split("_")[0].lower())


def select_locale() -> str:
    """The request's language (see the module docstring)."""
    if not has_request_context():
        return "en"
    code = _known(request.headers.get("X-Pegs-Lang"))   # the page's own language, on its API calls
    if code:
        return code
    cookies = [LANG_COOKIE]
    if request.endpoint == "table.table_page":
        cookies.insert(0, TABLE_LANG_COOKIE)
    for name in cookies:
        code = _known(request.cookies.get(name))
        if code:
            return code
    for value, _q in request.accept_languages:
        code = _known(value)
        if code:
            return code
    return "en"


def lang() -> str:
    return str(get_locale() or "en")


def direction(code: str | None = None) -> str:
    return LANGUAGES.get(code or lang(), ("", "ltr"))[1]


def say(message) -> str:
    """A rules-engine sentence (a `Msg`, its JSON form, or plain text) in the request's language."""
    if message is None:
        return None
    if isinstance(message, dict):
        message = Msg.from_json(message)
    if isinstance(message, Msg):
        return message.render(get_translations(), isolate=direction() == "rtl")
    return str(message)


def localize(obj):
    """A JSON-ready value with every `Msg` in it rendered in the request's language."""
    if isinstance(obj, Msg):
        return say(obj)
    if isinstance(obj, dict):
        return {k: localize(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [localize(v) for v in obj]
    return obj


class LocalizingJSON(DefaultJSONProvider):
    """Flask's JSON, with the rules engine's sentences (`Msg`, a str that is its English)
    rendered in the request's language: views, plays and refusals need no other change."""

    def dumps(self, obj, **kwargs):
        if has_request_context() and lang() != "en":
            obj = localize(obj)
        return super().dumps(obj, **kwargs)


def _catalog_of(code: str) -> dict:
    """The catalog as the JavaScript reads it: {msgid: msgstr | [plural forms]}, with
    the context as "ctx\\x04msgid" (gettext's own key)."""
    if code == "en":
        return {"messages": {}, "plural": "n != 1", "nplurals": 2}
    from babel.messages.mofile import read_mo
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo", "rb") as f:
        cat = read_mo(f)
    out = {}
    for m in cat:
        if not m.id or not m.string:
            continue
        key = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
        if m.context:
            key = f"{m.context}\x04{key}"
        out[key] = list(m.string) if isinstance(m.string, (tuple, list)) else m.string
    return {"messages": out, "plural": cat.plural_expr, "nplurals": cat.num_plurals}


_SCRIPTS: dict[str, tuple[str, bytes]] = {}


def catalog_script(code: str) -> tuple[str, bytes]:
    """(version, the script) of one language, made once per process from its .mo."""
    if code not in _SCRIPTS:
        cat = _catalog_of(code)
        # The plural rule is C syntax, which is JavaScript too; written into the served
        # script (not eval'd), so the pages' CSP (script-src 'self') still holds.
        body = (f"window.PJ_I18N = {json.dumps({'lang': code, 'dir': direction(code), 'messages': cat['messages']}, ensure_ascii=False)};\n"
                f"window.PJ_I18N.plural = function (n) {{ return Number({cat['plural']}); }};\n").encode()
        _SCRIPTS[code] = (hashlib.sha256(body).hexdigest()[:12], body)
    return _SCRIPTS[code]


@route(bp, "GET", "/i18n/<language>.js", who={"anyone"},
       reveals="the pages' words in one language (the public message catalog)")
def catalog_js(language):
    code = language
    if code not in LANGUAGES:
        return Response("/* no such language */\n", 404, mimetype="text/javascript")
    version, body = catalog_script(code)
    resp = Response(body, mimetype="text/javascript")
    if request.args.get("v") == version:   # versioned URL: the words change only with a new release
        resp.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        resp.headers["Cache-Control"] = "no-cache"
    return resp


def init_app(app) -> None:
    sort_keys = app.json.sort_keys
    app.json = LocalizingJSON(app)
    app.json.sort_keys = sort_keys
    app.jinja_env.policies["json.dumps_function"] = app.json.dumps   # the pages' |tojson boot data too
    Babel(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    app.register_blueprint(bp)

    @app.context_processor
    def _i18n_globals():
        code = lang()
        from .preset_words import title
        return {"preset_title": lambda preset: say(title(preset)), "Markup": Markup,   # <code> in a sentence
                "lang": code, "lang_html": code.replace("_", "-"), "dir": direction(code),
                "languages": LANGUAGES, "catalog_version": catalog_script(code)[0]}


__all__ = ["init_app", "say", "lang", "direction", "LANGUAGES", "select_locale", "catalog_script"]
