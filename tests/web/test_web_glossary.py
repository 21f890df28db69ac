"""The catalogs keep the words the second reading settled on (docs/TRANSLATIONS.md,
"Second reading (session 6)"): a message added later with an old word, or with an
article before a card placeholder, fails here and names the message."""
import re

import pytest

from web import catalogs

# words replaced everywhere by the second reading, and the word that replaced them
RETIRED = {
    "fr_CA": [(r"\bcases?\b", "trou (a hole; the in-spot is « trou d'entrée »)"),
              (r"\bbilles?\b", "pion (one word for peg, also in Carbles and Jackaroo)"),
              (r"\bviolet\b", "mauve")],
    "ar": [(r"ضرب|مضروب", "أكل / ياكل / حجر مأكول (a hit)"),
           (r"خانة الطلعة|خانة طلعت", "القاعدة (the come-out hole)")],
}
# the queen is feminine: no masculine (or any) article before a card or rank placeholder
ARTICLE_BEFORE_CARD = re.compile(r"\b(?:le|la|les|du|au|un|une|ton|ta)\s+%\((?:card|rank|declared)\)s", re.I)


def _strings(lang):
    for m in catalogs.read(lang):
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        yield (m.id[0] if isinstance(m.id, tuple) else m.id), strings


@pytest.mark.parametrize("lang", sorted(RETIRED))
def test_retired_words_stay_out_of_the_catalog(lang):
    found = [f"{mid!r}: {s!r} (use {use})" for mid, strings in _strings(lang) for s in strings
             for pattern, use in RETIRED[lang] if re.search(pattern, s, re.I)]
    assert found == []


def test_french_names_a_card_without_an_article_before_its_placeholder():
    found = [f"{mid!r}: {s!r}" for mid, strings in _strings("fr_CA") for s in strings if ARTICLE_BEFORE_CARD.search(s)]
    assert found == []


def test_the_checks_catch_what_they_guard(monkeypatch):
    real = catalogs.read

    def with_slips(lang):
        cat = real(lang)
        m = cat.get("Discard the %(card)s")
        m.string = "Défausser le %(card)s" if lang == "fr_CA" else "احرق %(card)s وضربة"
        return cat

    monkeypatch.setattr(catalogs, "read", with_slips)
    with pytest.raises(AssertionError):
        test_french_names_a_card_without_an_article_before_its_placeholder()
    with pytest.raises(AssertionError):
        test_retired_words_stay_out_of_the_catalog("ar")
