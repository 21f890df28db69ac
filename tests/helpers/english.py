"""English left on a French or Arabic page: the catalog's own English sentences, cut at their
placeholders into fragments of three words or more. A fragment the message's translation
keeps as written (a command, a setting's key) is not English left over."""
from __future__ import annotations

import html
import re
from functools import lru_cache

from web import catalogs

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


@lru_cache(maxsize=None)
def english_fragments(lang: str) -> tuple[str, ...]:
    translated = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id): m.string
                  for m in catalogs.read(lang) if m.id}
    out = set()
    for m in catalogs.template():
        if not m.id or "Pegs and Jokers" in str(m.id):   # the game's name is a name
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = translated.get((m.context, ids[0])) or ""
        strings = " ".join(strings) if isinstance(strings, tuple) else strings
        for text in ids:
            for part in PLACEHOLDER.split(text):
                part = part.strip(" .,:;()\"'")
                words = re.findall(r"[A-Za-z']+", part)
                if len(words) >= 3 and len(part.split()) >= 3 and part not in strings:
                    out.add(part)
    return tuple(sorted(out))


def english_left(text: str, lang: str) -> list[str]:
    """The catalog English fragments found in `text` (a page or a JSON answer, in `lang`)."""
    text = html.unescape(text).replace("\u2068", "").replace("\u2069", "")
    return [f for f in english_fragments(lang) if f in text]
