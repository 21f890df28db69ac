"""Sentences as message ids and parameters, rendered in any language later.

The rules engine says what happened once (``Msg("%(who)s passed", who=...)``); each
phone renders it with its own catalog (`Msg.render(translations)`, any object with
gettext's ``gettext``/``ngettext``/``pgettext``, e.g. the standard library's
`gettext.GNUTranslations`). A parameter may itself be a `Msg` ("a jack" is one), so
grammar lives in the catalogs: articles, plural forms, word order, list joins.
``str(msg)`` is the English sentence (the `pegs` command and the records).

The message ids are extracted from the calls of `msg`, `nmsg` and `pmsg`
(`web.catalogs`); pass them literal strings.

Standard library only.
"""
from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterable
from typing import Any, Protocol


class Catalog(Protocol):
    """What `render` needs of a catalog: gettext's lookups (`gettext.GNUTranslations`)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str: ...


_ENGLISH: Catalog = _gettext.NullTranslations()


class Msg(str):
    """One sentence (or phrase): a message id, its parameters, maybe a plural count and a
    context. It *is* its English text (a `str`), so English-only callers (the `pegs`
    command, the records, the board's messages) use it as before."""

    __slots__ = ("id", "plural", "n", "ctx", "params")
    id: str
    plural: str | None
    n: int | None
    ctx: str | None
    params: dict[str, Any]

    def __new__(cls, id: str, params: dict[str, Any] | None = None, plural: str | None = None,
                n: int | None = None, ctx: str | None = None) -> Msg:
        self = str.__new__(cls, _format(_ENGLISH, id, params or {}, plural, n, ctx))
        self.id, self.plural, self.n, self.ctx = id, plural, n, ctx
        self.params = params or {}
        return self

    def render(self, tr: Catalog | None = None, isolate: bool = False) -> str:
        """The sentence with catalog `tr`; ``isolate``: names (plain-text parameters) in
        Unicode isolates, so "Ann" reads right inside a right-to-left sentence."""
        if tr is None:
            return str.__str__(self)
        return _format(tr, self.id, self.params, self.plural, self.n, self.ctx, isolate)

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Msg({self.id!r}, {self.params!r})"

    def __reduce__(self) -> tuple[Any, ...]:   # copies and pickles keep the structure, not just the English
        return (Msg, (self.id, self.params, self.plural, self.n, self.ctx))

    __hash__ = str.__hash__
    __eq__ = str.__eq__

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"m": self.id}
        if self.params:
            out["p"] = {k: (v.to_json() if isinstance(v, Msg) else str(v) if isinstance(v, Ref) else v)
                        for k, v in self.params.items()}
        if self.plural is not None:
            out["pl"], out["n"] = self.plural, self.n
        if self.ctx:
            out["c"] = self.ctx
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Msg":
        params = {k: (cls.from_json(v) if isinstance(v, dict) else v)
                  for k, v in (data.get("p") or {}).items()}
        return cls(data["m"], params, data.get("pl"), data.get("n"), data.get("c"))


def _format(tr: Catalog, id: str, params: dict[str, Any], plural: str | None, n: int | None,
            ctx: str | None, isolate: bool = False) -> str:
    values: dict[str, Any] = {}
    for k, v in params.items():
        if isinstance(v, Msg):
            v = v.render(tr, isolate) if tr is not _ENGLISH else str.__str__(v)
        elif isolate and isinstance(v, str):
            v = f"\u2068{v}\u2069"   # FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE: <bdi> in text
        values[k] = v
    if plural is not None:
        count = n if n is not None else 0  # a plural message is made with its count
        text = tr.npgettext(ctx, id, plural, count) if ctx else tr.ngettext(id, plural, count)
        values.setdefault("n", n)
    elif ctx:
        text = tr.pgettext(ctx, id)
    else:
        text = tr.gettext(id)
    return text % values if values else text


class Ref:
    """A thing of the table the engine knows only by its number or code, as a sentence's
    parameter: a side ("side 2"), a side's owner, a hole token (M13), a rank ("J") with or
    without its article, a card ("JH"), a list of ranks. The words layer names it for the
    table ("Ann (Red)", "hole 13", "a jack": `companion.words.named`); unnamed it reads as
    the engine writes it, so the engine's own sentences need no names."""

    __slots__ = ("kind", "value")
    KINDS = ("side", "owner", "hole", "a rank", "rank", "card", "ranks")

    def __init__(self, kind: str, value: Any) -> None:
        self.kind, self.value = kind, value

    def __str__(self) -> str:
        if self.kind in ("side", "owner"):
            return f"side {self.value}"
        if self.kind == "ranks":
            return ", ".join(self.value)
        return str(self.value)

    def __repr__(self) -> str:
        return f"Ref({self.kind!r}, {self.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and (self.kind, self.value) == (other.kind, other.value)

    def __hash__(self) -> int:
        return hash((self.kind, str(self.value)))

    def __reduce__(self) -> tuple[type[Ref], tuple[str, Any]]:
        return (Ref, (self.kind, self.value))


class Join:
    """A list in words ("A, B and C"), its separators from the catalog."""

    __slots__ = ("items", "last")

    def __init__(self, items: Iterable[object], last: str = "and") -> None:
        self.items, self.last = list(items), last

    def msg(self) -> Msg:
        items = self.items
        if len(items) == 1:
            return items[0] if isinstance(items[0], Msg) else msg("%(item)s", item=items[0])
        tail = (msg("%(a)s and %(b)s", a=items[-2], b=items[-1]) if self.last == "and"
                else msg("%(a)s, %(b)s", a=items[-2], b=items[-1]) if self.last == "comma"
                else msg("%(a)s or %(b)s", a=items[-2], b=items[-1]) if self.last == "or"
                else msg("%(a)s, then %(b)s", a=items[-2], b=items[-1]) if self.last == "then"
                else msg("%(a)s; %(b)s", a=items[-2], b=items[-1]))
        for item in reversed(items[:-2]):
            tail = (msg("%(a)s, %(b)s", a=item, b=tail) if self.last != "semicolon"
                    else msg("%(a)s; %(b)s", a=item, b=tail))
        return tail

    def render(self, tr: Catalog | None = None, isolate: bool = False) -> str:
        return self.msg().render(tr, isolate)


def _trim(whole: str, head: str) -> str:
    return whole[len(head) + 1:] if whole.startswith(head + " ") else whole


class Trimmed(Msg):
    """A sentence without its subject where the language puts it first: "Ann (Red) moved
    a peg ..." offered to Ann as "moved a peg ..." (an Arabic sentence, verb first, stays whole)."""

    __slots__ = ("whole", "head")
    whole: Msg
    head: Msg

    def __new__(cls, whole: Msg, head: Msg) -> Trimmed:
        self = str.__new__(cls, _trim(str(whole), str(head)))
        self.id, self.plural, self.n, self.ctx, self.params = whole.id, whole.plural, whole.n, whole.ctx, whole.params
        self.whole, self.head = whole, head
        return self

    def render(self, tr: Catalog | None = None, isolate: bool = False) -> str:
        return _trim(self.whole.render(tr, isolate), self.head.render(tr, isolate))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Trimmed, (self.whole, self.head))


class Said(Msg):
    """A sentence whose English is given (the engine's long-standing wording) and whose
    other languages come from the structure `said` (a `Msg`)."""

    __slots__ = ("said",)
    said: Msg

    def __new__(cls, said: Msg, english: str) -> Said:
        self = str.__new__(cls, english)
        self.id, self.plural, self.n, self.ctx, self.params = said.id, said.plural, said.n, said.ctx, said.params
        self.said = said
        return self

    def render(self, tr: Catalog | None = None, isolate: bool = False) -> str:
        return str.__str__(self) if tr is None else self.said.render(tr, isolate)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Said, (self.said, str.__str__(self)))


def msg(id: str, **params: object) -> Msg:
    """A sentence: ``msg("%(who)s passed", who=...)``."""
    return Msg(id, {k: (v.msg() if isinstance(v, Join) else v) for k, v in params.items()})


def nmsg(singular: str, plural: str, n: int, **params: object) -> Msg:
    """A sentence with a count: its form from the language's plural rule (Arabic has six)."""
    return Msg(singular, {k: (v.msg() if isinstance(v, Join) else v) for k, v in params.items()},
               plural, n)


def pmsg(ctx: str, id: str, **params: object) -> Msg:
    """A phrase whose translation depends on where it stands (``pmsg("rank", "jack")``)."""
    return Msg(id, {k: (v.msg() if isinstance(v, Join) else v) for k, v in params.items()}, ctx=ctx)


def said(english: str, reason: Msg) -> Said:
    """The engine's sentence `english` (the `pegs` command's words, unchanged) carrying the
    players' sentence `reason` (a message whose `Ref` parameters the words layer names)."""
    return Said(reason, english)


__all__ = ["Msg", "Ref", "Join", "Trimmed", "Said", "msg", "nmsg", "pmsg", "said"]
