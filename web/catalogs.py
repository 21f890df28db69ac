"""The message catalogs: extract, update, compile and check (``python -m web.catalogs``).

``python -m web.catalogs`` extracts every message from the files babel.cfg names,
merges it into each ``web/translations/<lang>/LC_MESSAGES/messages.po`` (keeping the
translations) and compiles the ``.mo`` files the app serves. ``--check`` changes
nothing and lists what is wrong: a message a catalog lacks or leaves untranslated
(or fuzzy), a stale one (no longer in the code), a placeholder that differs from the
English, a ``.mo`` that is not what its ``.po`` compiles to. The tests run the check.

The ``.mo`` files are committed: ``pip install -e .`` runs no build step, so a fresh
machine serves the languages with the README's two commands.
"""
from __future__ import annotations

import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = Path(__file__).parent / "translations"
LANGS = ("fr_CA", "ar")
KEYWORDS = {
    "_": None, "gettext": None, "lazy_gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3), "msg": None, "nmsg": (1, 2), "pmsg": ((1, "c"), 2),
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]")


def template():
    """The catalog of every message in the code (a babel Catalog)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    cat = Catalog(project="pegs-companion", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        if filename.startswith((".venv", "tests")):
            continue
        cat.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return cat


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def read(lang: str):
    from babel.messages.pofile import read_po
    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def compiled(cat) -> bytes:
    from babel.messages.mofile import write_mo
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def update() -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po
    tpl = template()
    for lang in LANGS:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        cat = read(lang) if path.exists() else Catalog(locale=lang, project="pegs-companion")
        created = cat.creation_date
        cat.update(tpl, no_fuzzy_matching=True)
        cat.creation_date = created   # a fixed header line: parallel branches don't conflict on it
        cat.obsolete.clear()
        with open(path, "wb") as f:
            write_po(f, cat, width=100, omit_header=False, sort_output=True, no_location=True)
        path.with_suffix(".mo").write_bytes(compiled(read(lang)))   # as the check reads it


def _ids(message) -> tuple:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message) -> tuple:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def problems() -> list[str]:
    """Everything wrong with the catalogs (empty: all complete and current)."""
    out = []
    tpl = template()
    wanted = {(m.context, _ids(m)[0]) for m in tpl if m.id}
    for lang in LANGS:
        if not po_path(lang).exists():
            out.append(f"{lang}: no catalog at {po_path(lang)}")
            continue
        cat = read(lang)
        have = {(m.context, _ids(m)[0]): m for m in cat if m.id}
        for key in sorted(wanted - set(have), key=str):
            out.append(f"{lang}: lacks {key[1]!r}" + (f" (context {key[0]})" if key[0] else ""))
        for key in sorted(set(have) - wanted, key=str):
            out.append(f"{lang}: stale {key[1]!r} (no longer in the code)")
        for key, m in have.items():
            strings = _strings(m)
            if m.fuzzy or not all(strings):
                out.append(f"{lang}: {key[1]!r} is untranslated or fuzzy")
                continue
            if isinstance(m.id, tuple) and len(strings) != cat.num_plurals:
                out.append(f"{lang}: {key[1]!r} has {len(strings)} plural forms, not {cat.num_plurals}")
            names = {frozenset(PLACEHOLDER.findall(i)) for i in _ids(m)}
            source = frozenset().union(*names)
            for s in strings:
                got = frozenset(PLACEHOLDER.findall(s))
                # a plural form may leave out %(n)s ("one peg": "pion unique"), nothing else
                if got != source and not (isinstance(m.id, tuple) and got == source - {"n"}):
                    out.append(f"{lang}: {key[1]!r}: placeholders {sorted(got)} differ from {sorted(source)}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(cat):
            out.append(f"{lang}: {mo} is not what its .po compiles to (run python -m web.catalogs)")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--check" not in argv:
        update()
    found = problems()
    for p in found:
        print(p)
    print(f"{len(found)} problem(s)" if found else "catalogs complete and current")
    return 1 if found and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main())
