"""Who may call each route, what it may reveal, and the shape of its request: one place.

Every route is made with `route(bp, method, rule, who=..., reveals=..., body=...)`;
`tests/web/test_web_access.py` fails if a rule of ``app.url_map`` lacks one, and
docs/security-access.md lists them all. At the edge, once, before the handler:

* path parts: ``<gid>`` must look like a table id and ``<code>`` like a join or
  pairing code (ASCII letters and digits), else 404;
* the caller: the roles its cookies (and address) give it at this table, see `ROLES`;
  none of the route's `who` -> 403 (a route's ``denied`` may draw a page instead);
* the JSON body (POST): parsed strictly (UTF-8, no NaN, at most `MAX_DEPTH` levels,
  no RecursionError) and checked against the route's `Body` (exact types: 4.0 is
  not an int, a list is not a string; unknown keys refused), else 400. The handler
  reads the checked copy with `body()`.

The service (`web.tables`, `web.board_referee`) still checks what only it can
(whose turn, under the table's lock); this layer decides who gets that far.
Hand-written on purpose: the checks are ~150 lines of plain Python, fewer than
wiring in a schema library and its error messages would take.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import json
import math
import re
import socket
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from flask import current_app, g, request

from companion.message import msg

from .errors import ApiError
from .util import ADMIN_COOKIE, DISPLAY_COOKIE, HOST_COOKIE, SEAT_COOKIE

# ----------------------------------------------------------------------------- roles
ROLES = {
    "anyone": "any device on the network",
    "seat": "a phone holding a seat of this table (its seat cookie)",
    "acting_seat": "the phone of the seat that must act now",
    "host": "the phone that created the table (host cookie; the admin code recovers it)",
    "display": "a table display the host paired (display cookie)",
    "admin": "the companion itself (loopback, while serve.loopback_admin) or a phone that gave the admin code",
}

GID = re.compile(r"[a-z0-9]{1,32}")
CODE = re.compile(r"[A-Za-z0-9]{4,16}")


@dataclass(frozen=True)
class Access:
    endpoint: str
    method: str
    rule: str
    who: frozenset
    reveals: str
    body: "Body | None" = None


REGISTRY: dict[str, Access] = {}   # endpoint -> its declaration


def is_loopback() -> bool:
    try:
        ip = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    # `--host ::` takes IPv4 too: 127.0.0.1 then arrives as ::ffff:127.0.0.1
    return ip.is_loopback or (ip.version == 6 and ip.ipv4_mapped is not None and ip.ipv4_mapped.is_loopback)


def loopback_admin() -> bool:
    """Is this request the companion itself acting as the admin? (loopback, and
    serve.loopback_admin, the default: its own screen, a kiosk, any program on the Pi)"""
    return bool(current_app.config.get("LOOPBACK_ADMIN", True)) and is_loopback()


def client_key(addr: str | None = None) -> str:
    """Who a client is, for counting what it does (wrong admin codes, new tables): its IPv4
    address, or its IPv6 /64, since an IPv6 device picks any address in its /64 at will
    (privacy addresses); an IPv4 client seen as ::ffff:a.b.c.d is that IPv4 address."""
    addr = request.remote_addr if addr is None else addr
    try:
        ip = ipaddress.ip_address(addr or "")
    except ValueError:
        return addr or "?"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def admin_token() -> str | None:
    code = current_app.config.get("ADMIN_CODE")
    if not code:
        return None
    return hmac.new(current_app.config["SECRET"], f"admin:{code}".encode(), hashlib.sha256).hexdigest()


def admin_code_matches(code) -> bool:
    token = admin_token()
    if token is None or not isinstance(code, str):
        return False
    given = hmac.new(current_app.config["SECRET"], f"admin:{code.strip()}".encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(given, token)


def is_admin() -> bool:
    if loopback_admin():
        return True
    token, cookie = admin_token(), request.cookies.get(ADMIN_COOKIE)
    return bool(token and cookie and hmac.compare_digest(token.encode(), cookie.encode("utf-8", "replace")))


def roles_at(table) -> set[str]:
    """The roles this request's cookies (and address) give it at `table` (None: no table)."""
    roles = {"anyone"}
    if is_admin():
        roles.add("admin")
    if table is None:
        return roles
    seat = table.seat_of_token(request.cookies.get(SEAT_COOKIE.format(table.gid)))
    if seat is not None:
        roles.add("seat")
        if seat == table.game.actor:
            roles.add("acting_seat")
    if table.is_host(request.cookies.get(HOST_COOKIE.format(table.gid))):
        roles.add("host")
    if table.is_display(request.cookies.get(DISPLAY_COOKIE.format(table.gid))):
        roles.add("display")
    return roles


def _refusal(who: frozenset) -> ApiError:
    if who == {"seat"}:
        return ApiError(403, msg("this phone does not hold a seat at this table: scan your seat's QR code, "
                        "or ask the host for a new one"), code="no_seat")
    if who == {"acting_seat"}:
        return ApiError(403, msg("not your turn: only the phone of the player whose turn it is can do that"))
    if who == {"host"}:
        return ApiError(403, msg("only the host's phone (the one that created the table) can do that; "
                                 "a lost host phone: enter the admin code on the host page"))
    if who == {"admin"}:
        if current_app.config.get("ADMIN_CODE"):
            return ApiError(403, msg("enter the admin code first (serve.admin_code in the config file)"))
        if not current_app.config.get("LOOPBACK_ADMIN", True):
            return ApiError(403, msg("settings need the admin code (serve.admin_code in the config file): "
                                     "serve.loopback_admin is off, so the companion itself is not the admin"))
        return ApiError(403, msg("settings can be changed only on the companion itself "
                                 "(http://127.0.0.1:PORT/settings) until serve.admin_code is set in the config "
                                 "file"))
    names = {"acting_seat": "the player whose turn it is", "host": "the host's phone",
             "display": "a table display paired from the host page", "admin": "the admin",
             "seat": "a player of this table"}
    return ApiError(403, "only " + " or ".join(names[w] for w in sorted(who)) + " can do that",
                    code="not_admitted")


def route(bp, method: str, rule: str, *, who, reveals: str, body: "Body | None" = None, denied=None):
    """Declare and register one route of blueprint `bp` (see the module docstring).
    ``denied(table)``: what to answer instead of the 403 (a page), if anything."""
    who = frozenset(who)
    unknown = who - set(ROLES)
    if unknown:
        raise ValueError(f"unknown roles {sorted(unknown)} for {rule}")

    def deco(fn):
        endpoint = f"{bp.name}.{fn.__name__}"
        decl = Access(endpoint, method, (bp.url_prefix or "") + rule, who, reveals, body)

        @functools.wraps(fn)
        def view(**kw):
            gid = kw.get("gid")
            if gid is not None and not GID.fullmatch(gid):
                raise ApiError(404, msg("there is no table with that id on this companion"))
            code = kw.get("code")
            if code is not None and not CODE.fullmatch(code.strip()):
                raise ApiError(404, msg("that is not a code this companion made: ask the host for the QR code"))
            table = None
            if gid is not None:
                table = current_app.extensions["pegs"].get(gid)
            roles = roles_at(table)
            g.roles, g.table = roles, table
            if "anyone" not in who and not roles & who:
                if denied is not None:
                    return denied(table)
                if table is not None and who & {"seat", "acting_seat"}:
                    # a phone that held a seat hears why it no longer does (the computer has
                    # it, it moved to another phone, its request was refused...)
                    token = request.cookies.get(SEAT_COOKIE.format(table.gid))
                    if table.lost_seat(token) is not None:
                        current_app.extensions["pegs"].seat_for(table, token)
                raise _refusal(who)
            if body is not None:
                g.body = body.check(read_json())
            return fn(**kw)

        view.access = decl
        bp.add_url_rule(rule, endpoint=fn.__name__, view_func=view, methods=[method])
        REGISTRY[endpoint] = decl
        return view
    return deco


def declare(app, endpoint: str, *, who, reveals: str) -> None:
    """The declaration of a route Flask makes itself (``static``)."""
    rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint)
    decl = Access(endpoint, "GET", rule.rule, frozenset(who), reveals)
    view = app.view_functions[endpoint]

    @functools.wraps(view)
    def declared(**kw):   # a blueprint's static view is a bound method: it takes no attributes
        return view(**kw)
    declared.access = decl
    app.view_functions[endpoint] = declared
    REGISTRY[endpoint] = decl


def body() -> dict:
    """The request's checked body (routes declared with ``body=``)."""
    return g.body


# ----------------------------------------------------------------------------- JSON
MAX_DEPTH = 6


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def read_json():
    """The request's JSON, strictly: 400 for anything else (413 above MAX_CONTENT_LENGTH)."""
    if request.mimetype != "application/json":
        raise ApiError(400, "the request body must be JSON (Content-Type: application/json)")
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError):
        raise ApiError(400, "the request body is not valid JSON") from None
    except RecursionError:
        raise ApiError(400, f"the request body is nested too deeply (at most {MAX_DEPTH} levels)") from None
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ApiError(400, f"the request body is nested too deeply (at most {MAX_DEPTH} levels)")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


# ----------------------------------------------------------------------------- schemas
def _show(v) -> str:
    text = json.dumps(v, ensure_ascii=True) if not isinstance(v, float) or math.isfinite(v) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


class Field:
    words = "a value"

    def __call__(self, v, key: str):
        raise NotImplementedError

    def bad(self, v, key):
        raise ApiError(400, f"{key} must be {self.words}, not {_show(v)}", field=key)


class Int(Field):
    def __init__(self, lo: int = -(2 ** 31), hi: int = 2 ** 31, words: str | None = None):
        self.lo, self.hi = lo, hi
        self.words = words or f"a whole number {lo}-{hi}"

    def __call__(self, v, key):
        if type(v) is not int or not self.lo <= v <= self.hi:
            self.bad(v, key)
        return v


class Num(Field):
    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi
        self.words = f"a number {lo:g}-{hi:g}"

    def __call__(self, v, key):
        if type(v) not in (int, float) or not self.lo <= v <= self.hi:
            self.bad(v, key)
        return v


class Bool(Field):
    words = "true or false"

    def __call__(self, v, key):
        if type(v) is not bool:
            self.bad(v, key)
        return v


class Str(Field):
    def __init__(self, max_len: int = 80, pattern: str | None = None, words: str | None = None):
        self.max_len = max_len
        self.pattern = re.compile(pattern) if pattern else None
        self.words = words or f"text of at most {max_len} characters"

    def __call__(self, v, key):
        if type(v) is not str or len(v) > self.max_len or (self.pattern and not self.pattern.fullmatch(v)):
            self.bad(v, key)
        return v


class Code(Str):
    """A join or pairing code: ASCII letters and digits (spaces and dashes dropped)."""

    def __init__(self, what: str = "join code"):
        super().__init__(40, words=f"the {what}: letters and digits, as on the QR code")

    def __call__(self, v, key):
        v = super().__call__(v, key)
        code = v.replace(" ", "").replace("-", "")
        if not CODE.fullmatch(code):
            self.bad(v, key)
        return code.upper()


class Name(Field):
    """A person's name: NFKC, spaces collapsed, no control or invisible-only text."""

    def __init__(self, max_len: int = 24):
        self.max_len = max_len
        self.words = f"a name of 1-{max_len} visible characters"

    def __call__(self, v, key):
        if type(v) is not str or len(v) > 4 * self.max_len:
            self.bad(v, key)
        v = unicodedata.normalize("NFKC", v)
        if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and not c.isspace() for c in v):
            raise ApiError(400, msg("%(who)s: a name can't hold control or unassigned characters", who=key),
                           field=str(key))
        # zero-width and direction marks (Cf) go, but the joiner inside emoji sequences stays
        v = "".join(c for c in v if unicodedata.category(c) != "Cf" or c == "\u200d")
        v = " ".join(v.split())[:self.max_len]
        if not v.replace("\u200d", "").strip():
            raise ApiError(400, msg("%(who)s needs a name with something visible in it", who=key), field=str(key))
        return v


class Card(Field):
    words = "a card such as AS, 10H, QC or JK"

    def __call__(self, v, key):
        from companion.cards import is_card
        if type(v) is not str or len(v) > 3 or not is_card(v):
            raise ApiError(400, f"unknown card {_show(v)}: cards look like AS, 10H, QC or JK", field=key)
        return v


class Opt(Field):
    """`inner` or null."""

    def __init__(self, inner: Field):
        self.inner = inner
        self.words = f"{inner.words}, or null"

    def __call__(self, v, key):
        return None if v is None else self.inner(v, key)


class OneOf(Field):
    def __init__(self, options):
        self.options = tuple(options)
        self.words = "one of " + ", ".join(str(o) for o in self.options)

    def __call__(self, v, key):
        if type(v) is not str or v not in self.options:
            self.bad(v, key)
        return v


class List(Field):
    """A list; `label(n)` names an entry in messages (n counts from 1; a player may read it)."""

    def __init__(self, item: Field, max_len: int = 10, label: Callable[[int], str] | None = None):
        self.item, self.max_len, self.label = item, max_len, label
        self.words = f"a list of at most {max_len} entries"

    def __call__(self, v, key):
        if type(v) is not list or len(v) > self.max_len:
            self.bad(v, key)
        return [self.item(x, self.label(i + 1) if self.label else f"{key}[{i}]")
                for i, x in enumerate(v)]


class Map(Field):
    """An object of text keys to scalar values (the settings page's changes)."""

    def __init__(self, max_len: int = 16):
        self.max_len = max_len
        self.words = f"an object of at most {max_len} settings"

    def __call__(self, v, key):
        if type(v) is not dict or len(v) > self.max_len:
            self.bad(v, key)
        for k, x in v.items():
            if len(k) > 60 or not (x is None or type(x) in (str, int, float, bool)) or (
                    type(x) is str and len(x) > 500):
                raise ApiError(400, f"\"{key}\": {_show(k)} must be a setting name with a plain value", field=key)
        return dict(v)


@dataclass
class Body:
    """A JSON object's keys: `fields` (key -> Field), `required` keys, nothing else."""
    fields: dict = field(default_factory=dict)
    required: tuple = ()

    def check(self, data: dict) -> dict:
        extra = [k for k in data if k not in self.fields]
        if extra:
            known = ", ".join(self.fields) or "no keys"
            raise ApiError(400, f"unknown key {_show(extra[0])}: this request takes {known}")
        for k in self.required:
            if k not in data:
                raise ApiError(400, f"{k} is missing: send {self.fields[k].words}", field=k)
        return {k: self.fields[k](v, k) for k, v in data.items()}


# ----------------------------------------------------------------------------- the companion's names
class OwnNames:
    """Is a Host (or Origin) one of this companion's own names? (DNS rebinding, issue 13 point 7)

    Names: localhost, this machine's hostname and hostname.local, PUBLIC_URL's host,
    ALLOWED_HOSTS from the config; addresses: any IP literal bound to this machine
    (checked by binding a socket to it, so a new DHCP address needs no restart).
    """

    def __init__(self, config):
        names = {"localhost", "localhost.localdomain"}
        host = socket.gethostname().lower().rstrip(".")
        if host:
            names.update({host, f"{host}.local", host.split(".")[0], host.split(".")[0] + ".local"})
        public = config.get("PUBLIC_URL")
        if public:
            hostname = urlsplit(public).hostname
            if hostname:
                names.add(hostname.lower())
        names.update(h.lower() for h in (config.get("ALLOWED_HOSTS") or ()))
        self.names = names
        self._ips: dict[str, bool] = {}
        self._lock = threading.Lock()

    @staticmethod
    def split(host: str) -> str | None:
        """The name or address of a Host header ("[::1]:8000" -> "::1"); None if malformed."""
        host = host.strip().lower()
        if not host or len(host) > 255 or any(c.isspace() or ord(c) > 126 for c in host):
            return None
        if host.startswith("["):
            end = host.find("]")
            if end < 0 or (host[end + 1:] and not re.fullmatch(r":\d{1,5}", host[end + 1:])):
                return None
            return host[1:end]
        name, _, port = host.partition(":")
        if port and not port.isdigit():
            return None
        return name.rstrip(".")

    def _local_ip(self, ip) -> bool:
        key = str(ip)
        with self._lock:
            if key in self._ips:
                return self._ips[key]
        if ip.is_unspecified or ip.is_multicast:
            ok = False      # 0.0.0.0 reaches this machine, but is no name of it
        elif ip.is_loopback:
            ok = True
        else:
            try:
                with socket.socket(socket.AF_INET6 if ip.version == 6 else socket.AF_INET, socket.SOCK_DGRAM) as s:
                    s.bind((key, 0))
                ok = True
            except OSError:
                ok = False
        with self._lock:
            if len(self._ips) > 1024:
                self._ips.clear()
            self._ips[key] = ok
        return ok

    def __contains__(self, host: str) -> bool:
        name = self.split(host or "")
        if not name:
            return False
        if name in self.names:
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        return self._local_ip(ip)


# ----------------------------------------------------------------------------- rates
class Bucket:
    """Per-client token buckets: `burst` at once, refilled at `per_minute`."""

    def __init__(self, per_minute: float, burst: int, clock=time.monotonic):
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self._b: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> float:
        """0 if `who` may go now (a token spent), else seconds to wait."""
        now = self.clock()
        with self._lock:
            tokens, then = self._b.get(who, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens >= 1:
                self._b[who] = (tokens - 1, now)
                self._trim(now)
                return 0.0
            self._b[who] = (tokens, now)
            return (1 - tokens) / self.rate if self.rate > 0 else 3600.0

    def _trim(self, now):
        if len(self._b) > 4096:   # forget clients whose buckets are full again
            full = [k for k, (t, then) in self._b.items() if t + (now - then) * self.rate >= self.burst]
            for k in full:
                del self._b[k]


class Failures:
    """Wrong codes per client, forgetting one every `decay` seconds; `limit` of them -> wait."""

    def __init__(self, limit: int = 5, decay: float = 60.0, clock=time.monotonic):
        self.limit, self.decay, self.clock = limit, decay, clock
        self._f: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _count(self, who, now) -> float:
        count, then = self._f.get(who, (0.0, now))
        return max(0.0, count - (now - then) / self.decay)

    def wait(self, who: str) -> float:
        now = self.clock()
        with self._lock:
            over = self._count(who, now) - (self.limit - 1)
            return over * self.decay if over > 0 else 0.0

    def failed(self, who: str) -> None:
        now = self.clock()
        with self._lock:
            self._f[who] = (self._count(who, now) + 1, now)
            if len(self._f) > 4096:
                for k in [k for k in self._f if self._count(k, now) == 0]:
                    del self._f[k]

    def forget(self, who: str) -> None:
        with self._lock:
            self._f.pop(who, None)


def check_admin_code(code) -> None:
    """The admin code, with wrong tries counted per client address (loopback is never
    kept waiting). 403 wrong, 429 too many wrong lately, 403 if no code is set."""
    if admin_token() is None:
        raise ApiError(403, msg("no admin code is set: add serve.admin_code to the config file, or use "
                                "the companion itself (http://127.0.0.1)"))
    fails: Failures = current_app.extensions["pegs_admin_failures"]
    who = client_key()
    local = loopback_admin()
    wait = 0.0 if local else fails.wait(who)
    if wait > 0:
        raise ApiError(429, msg("too many wrong codes from this device: wait %(seconds)s s", seconds=math.ceil(wait)))
    if not admin_code_matches(code):
        if not local:
            fails.failed(who)
        raise ApiError(403, msg("that is not the admin code"))
    fails.forget(who)


__all__ = ["client_key", "route", "body", "Body", "Card", "Int", "Num", "Bool", "Str", "Code", "Name", "Opt", "OneOf", "List",
           "Map", "ROLES", "REGISTRY", "OwnNames", "Bucket", "Failures", "read_json", "roles_at",
           "is_admin", "is_loopback", "loopback_admin", "check_admin_code", "admin_token"]
