"""JSON API and the server-sent-event stream.

Every state change is a JSON POST (with the CSRF header) carrying the state
``version`` the page shows; a stale version, a wrong seat or an illegal move
is answered with a 4xx ``{"error": ...}`` and changes nothing. Reads return
only what the caller may see: a seat its own `Game.player_view`, the table
the public view, the host the seat list with join links.
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, jsonify, request

from companion.bots import BOT_NAMES
from companion.message import msg
from companion.rules import (DESCRIPTIONS, OPTION_DOCS, PRESETS, RELATED_PRESETS, RULINGS, SWITCHES,
                             differences)

from ..access import (Body, client_key, Bool, Card, Code, Int, List, Map, Name, Opt, Str, body, check_admin_code,
                      loopback_admin, route)
from ..errors import ApiError
from ..preset_words import description, difference, ruling, title
from ..netinfo import is_loopback as host_is_loopback
from ..qr import qr_svg
from companion.setup import related_layouts

from ..tables import REQUEST_ID
from ..util import (DISPLAY_COOKIE, HOST_COOKIE, SEAT_COOKIE, base_url, display_token, host_token, seat_token,
                    service, set_secret_cookie)

bp = Blueprint("api", __name__, url_prefix="/api")
_CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
HOST_ACTIONS = ("undo", "pause", "resume", "end", "reseat", "bot", "approve", "refuse", "hints")

VERSION = Int(0, words="the state version your page shows (a number)")
NEW_TABLE = Body({
    "preset": Str(40), "players": Int(0, 99, "2, 4, 6, 8 or 10"), "teams": Int(0, 99, "a number of teams"),
    "names": List(Name(), 12, label=lambda n: msg("seat %(number)s", number=n)),
    "colours": List(Str(20), 12), "bots": List(Opt(Str(20)), 12), "decks": Opt(Int(0, 99)),
    "jokers_per_deck": Opt(Int(0, 99)), "extra_jokers": Opt(Int(0, 99)), "draw_for_partners": Bool(),
    "dealer": Int(0, 99),
    # Tock, Carbles, Jackaroo: the board's sections (Carbles: 4, 6, 8 or 12) and the preset's switches
    "sections": Int(0, 99, "4, 6, 8 or 12 sections"), "switches": Map(8)}, required=("players", "names"))
ACTION = Body({"version": VERSION, "move": Str(80, words="a move in the notation, e.g. \"7 0:M10-M17\""),
               "card": Opt(Card())}, required=("version", "move"))
HOST_ACTION = Body({"version": VERSION, "seat": Int(0, 99), "bot": Opt(Str(20)), "all": Bool(), "on": Bool(),
                    "request": Opt(Str(REQUEST_ID, r"[0-9a-f]+", "the request the host page shows"))},
                   required=("version",))
SEAT_REQUEST = Body({"code": Opt(Code())})
PLAY_HERE = Body({"seat": Int(0, 99)}, required=("seat",))
EMPTY_BODY = Body({})
CODE_BODY = Body({"code": Code()}, required=("code",))
PAIR_BODY = Body({"code": Code("pairing code")}, required=("code",))
ADMIN_CODE_BODY = Body({"code": Str(200)}, required=("code",))


SWITCH_WORDS = {  # the new-table page's words for each preset switch (RELATED-GAMES.md TK-V, CB-V2)
    "reverse_four": msg("Reverse Four: every 4 moves backward"),
    "ten_swap": msg("Ten Swap: a 10 may swap two marbles instead of moving"),
    "forced_five": msg("Forced Five: a 5 moves any colour's marble"),
    "open_hand": msg("Open Hand: everyone plays with the hand face up"),
}


def presets_json() -> list[dict]:
    out = []
    for name, rules in PRESETS.items():
        out.append({"name": name, "title": title(name), "description": description(name, DESCRIPTIONS[name]),
                    "differences": [difference(d) for d in differences(name)],
                    "rulings": [ruling(r) for r in RULINGS.get(name, [])], "decks": rules.decks,
                    "jokers_per_deck": rules.jokers_per_deck, "extra_jokers": rules.extra_jokers,
                    "hand_size": rules.hand_size, "counting": rules.counting,
                    "bluffing": rules.bluffing})
    for name, rules in RELATED_PRESETS.items():  # Tock, Carbles, Jackaroo (issue 18.4)
        out.append({"name": name, "family": name.split("_")[0].rstrip("3"), "title": title(name),
                    "description": description(name, DESCRIPTIONS[name]),
                    "differences": [difference(d) for d in differences(name)],
                    "rulings": [ruling(r) for r in RULINGS.get(name, [])], "decks": rules.decks,
                    "jokers_per_deck": rules.jokers_per_deck, "extra_jokers": rules.extra_jokers,
                    "hand_size": max(rules.deal), "counting": 0, "bluffing": False,
                    "layouts": {str(n): lay for n, lay in related_layouts(name).items()},
                    "switches": [{"name": k, "doc": SWITCH_WORDS.get(k, OPTION_DOCS[next(iter(ch))][1])}
                                 for k, ch in SWITCHES.get(name, {}).items()]})
    return out


@route(bp, "GET", "/presets", who={"anyone"}, reveals="the rules presets")
def presets():
    return jsonify(presets_json())


@route(bp, "GET", "/games", who={"anyone"},
       reveals="live and lately finished tables: id, status, preset, names, turn")
def games():
    return jsonify(service().summaries())


@route(bp, "POST", "/games", who={"anyone"}, body=NEW_TABLE,
       reveals="the new table's id; sets its host cookie (rate-limited per address, live tables capped)")
def create_game():
    if not loopback_admin():
        wait = current_app.extensions["pegs_create_bucket"].take(client_key())
        if wait > 0:
            raise ApiError(429, msg("this device made several tables just now: wait %(seconds)s s",
                                    seconds="%.0f" % wait))
    table, token = service().create(body())
    service().streams.created(table, None if loopback_admin() else client_key())   # its creator's share
    resp = jsonify({"gid": table.gid, "version": table.version, "host_url": f"/host/{table.gid}",
                    "table_url": f"/table/{table.gid}"})
    set_secret_cookie(resp, HOST_COOKIE.format(table.gid), token)
    return resp, 201


@route(bp, "GET", "/games/<gid>/me", who={"seat"}, reveals="that seat's own view: its hand, its plays")
def seat_view(gid):
    svc = service()
    table = svc.get(gid)
    view = svc.seat_view(table, seat_token(gid))
    hub = current_app.extensions.get("pegs_board")
    if hub is not None:   # the card this seat chose and the board follows (private to this phone)
        view["chosen"] = hub.chosen(table, view["seat"], view["version"])
    return jsonify(view)


@route(bp, "GET", "/games/<gid>/table", who={"anyone"}, reveals="the public view: no hand, no stock")
def table_view(gid):
    svc = service()
    return jsonify(svc.view(svc.get(gid), None))


@route(bp, "GET", "/games/<gid>/plays", who={"seat"},
       reveals="the acting seat's legal plays (its turn checked under the table's lock)")
def plays(gid):
    svc = service()
    return jsonify(svc.plays(svc.get(gid), seat_token(gid)))


@route(bp, "POST", "/games/<gid>/act", who={"seat"}, body=ACTION,
       reveals="the move made and that seat's view (its turn checked under the table's lock)")
def act(gid):
    svc = service()
    return jsonify(svc.act(svc.get(gid), seat_token(gid), body()))


@route(bp, "POST", "/games/<gid>/check", who={"seat"}, body=ACTION,
       reveals="whether a move would be legal now, for the acting seat")
def check(gid):
    """Would this move be legal now? (the seat page asks before it offers a move typed by taps)"""
    svc = service()
    return jsonify(svc.act(svc.get(gid), seat_token(gid), body(), dry_run=True))


@route(bp, "POST", "/games/<gid>/hint", who={"seat"}, body=Body({}),
       reveals="nothing at once; the hint comes in that seat's own view (made from that seat's view only)")
def hint(gid):
    """The seat's own turn: ask for a hint (made on the bot thread; shown in the seat's view)."""
    svc = service()
    return jsonify(svc.request_hint(svc.get(gid), seat_token(gid)))


@route(bp, "POST", "/join", who={"anyone"}, body=CODE_BODY,
       reveals="the seat the code names; sets that seat's cookie")
def join():
    code = body()["code"]
    svc = service()
    found = svc.seat_preview(code)
    current = seat_token(found[0].gid) if found else None
    table, seat, token = svc.join(code, current)
    resp = jsonify({"ok": True, "gid": table.gid, "seat": seat, "url": f"/seat/{table.gid}"})
    if token:
        set_secret_cookie(resp, SEAT_COOKIE.format(table.gid), token)
    return resp


@route(bp, "POST", "/games/<gid>/seat-request", who={"anyone"}, body=SEAT_REQUEST,
       reveals="nothing until the host approves; then a seat cookie for the seat asked for "
               "(rate-limited per device and table)")
def seat_request(gid):
    """A phone asks the host for a seat: `{"code"}` (the seat's join code, scanned again
    on a fresh phone) or `{}` (the seat this phone held until the host gave it away)."""
    svc = service()
    table = svc.get(gid)
    device = client_key()
    if not loopback_admin():   # bounded per device and table (web.seat_requests)
        svc.seat_requests.take(gid, device)
    seat, token = svc.request_seat(table, seat_token(gid), body().get("code"), device)
    resp = jsonify({"ok": True, "seat": seat, "url": f"/seat/{gid}"})
    if token:
        set_secret_cookie(resp, SEAT_COOKIE.format(gid), token)
    return resp


@route(bp, "POST", "/display", who={"anyone"}, body=PAIR_BODY,
       reveals="the table the pairing code names; sets a display cookie that may drive its board")
def pair_display():
    svc = service()
    table = svc.find_display(body()["code"])
    if table is None:
        raise ApiError(404, msg("this pairing code is not valid: open the host page and scan its "
                                "\"pair a table display\" code again"))
    token = svc.pair_display(table)
    resp = jsonify({"ok": True, "gid": table.gid, "url": f"/table/{table.gid}"})
    set_secret_cookie(resp, DISPLAY_COOKIE.format(table.gid), token)
    return resp


@route(bp, "POST", "/games/<gid>/recover", who={"anyone"}, body=ADMIN_CODE_BODY,
       reveals="with the admin code: a host cookie for this table (a lost host phone)")
def recover_host(gid):
    check_admin_code(body()["code"])
    svc = service()
    table = svc.get(gid)
    token = svc.recover_host(table)
    resp = jsonify({"ok": True, "gid": gid, "url": f"/host/{gid}"})
    set_secret_cookie(resp, HOST_COOKIE.format(gid), token)
    return resp


@route(bp, "GET", "/games/<gid>/host", who={"host"},
       reveals="every seat's join code and QR, the display pairing code, the set-up")
def host_info(gid):
    svc = service()
    table = svc.get(gid)
    base = base_url()
    info = svc.host_info(table, request.cookies.get(HOST_COOKIE.format(gid)), base, seat_token(gid))
    info["local_only"] = host_is_loopback(urlsplit(base).netloc)   # phones can't open these links
    code = svc.display_code(table)
    link = f"{base_url()}d/{code}"
    info["display"] = {"code": code, "link": link, "qr": qr_svg(link)}
    return jsonify(info)


@route(bp, "POST", "/games/<gid>/host/<action>", who={"host"}, body=HOST_ACTION,
       reveals="the new state version (undo, pause, resume, end, reseat, bot, approve, refuse, hints)")
def host_action(gid, action):
    svc = service()
    if action not in HOST_ACTIONS:
        raise ApiError(404, f"unknown host action {action!r}")
    data = body()
    if action == "bot" and data.get("bot") is not None and data["bot"] not in BOT_NAMES:
        raise ApiError(400, f"\"bot\" must be null or one of {', '.join(BOT_NAMES)}")
    return jsonify(svc.host_action(svc.get(gid), request.cookies.get(HOST_COOKIE.format(gid)), action, data))


@route(bp, "POST", "/games/<gid>/play-here", who={"host"}, body=PLAY_HERE,
       reveals="sets this (the host's) phone's cookie for a free seat it asked for: the host plays it")
def play_here(gid):
    """The host is a player too, and can't scan the QR code on its own screen (issue 25 §4.9)."""
    svc = service()
    table = svc.get(gid)
    token = svc.play_here(table, host_token(gid), body()["seat"], seat_token(gid))
    resp = jsonify({"ok": True, "seat": body()["seat"], "url": f"/seat/{gid}", "version": table.version})
    set_secret_cookie(resp, SEAT_COOKIE.format(gid), token)
    return resp


@route(bp, "POST", "/games/<gid>/rematch", who={"host"}, body=EMPTY_BODY,
       reveals="the next game's table id; the host's cookie for it (same preset, seats and phones, new deal)")
def rematch(gid):
    svc = service()
    new = svc.rematch(svc.get(gid), host_token(gid))
    resp = jsonify({"ok": True, "gid": new.gid, "url": f"/host/{new.gid}"})
    set_secret_cookie(resp, HOST_COOKIE.format(new.gid), host_token(gid))
    return resp


@route(bp, "POST", "/games/<gid>/follow", who={"anyone"}, body=EMPTY_BODY,
       reveals="the next game's table id (public, as in the view); to a phone holding this table's seat, "
               "host or display cookie, the same cookie for the next game, where it holds the same role")
def follow(gid):
    """A phone of a finished game goes on to the rematch: its own cookie again, for the new table
    (whose log holds the same token hashes: `TableService.rematch`). Nothing for anyone else."""
    svc = service()
    table = svc.get(gid)
    new = svc.follow(table)
    if new is None:
        raise ApiError(404, msg("no next game has been started at this table"))
    resp = jsonify({"ok": True, "gid": new.gid})
    with new.cond:
        roles = [(SEAT_COOKIE, seat_token(gid), new.seat_of_token(seat_token(gid)) is not None),
                 (HOST_COOKIE, host_token(gid), new.is_host(host_token(gid))),
                 (DISPLAY_COOKIE, display_token(gid), new.is_display(display_token(gid)))]
    for cookie, token, holds in roles:
        if token and holds:
            set_secret_cookie(resp, cookie.format(new.gid), token)
    return resp


@route(bp, "GET", "/games/<gid>/record", who={"host"},
       reveals="the finished game's whole record (every card), once it is over or ended")
def record(gid):
    svc = service()
    rec = svc.record(svc.get(gid), request.cookies.get(HOST_COOKIE.format(gid)))
    body_text = json.dumps(rec, indent=1)
    return Response(body_text, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="pegs-{gid}.json"'})


def _stream_holder(table, gid) -> str | None:
    """Whose page a stream is (a seat, the host, a paired display), or None: anonymous streams never end these."""
    seat = table.seat_of_token(seat_token(gid))
    if seat is not None:
        return f"seat {seat}"
    if table.is_host(host_token(gid)):
        return "host"
    return "display" if table.is_display(display_token(gid)) else None


@route(bp, "GET", "/games/<gid>/events", who={"anyone"},
       reveals="the state version and board version as they change; nothing private")
def events(gid):
    """Server-sent events: ``version`` whenever the game changes; nothing private, ever.

    Each page fetches its own view when the version moves. A heartbeat
    comment every HEARTBEAT seconds finds dead connections; a newer stream
    from the same page (client id) ends the older one, so phones that sleep
    and wake don't pile up server threads.
    """
    svc = service()
    table = svc.get(gid)
    client = request.args.get("client", "")
    if not _CLIENT_ID.match(client):
        raise ApiError(400, "the event stream needs a client id (8-64 letters, digits, - or _)")
    heartbeat = float(current_app.config["HEARTBEAT"])
    holder = _stream_holder(table, gid)
    key = f"{gid}:{holder or '-'}:{client}"   # an anonymous page can't take a holder's key
    stop = svc.open_stream(table, key, client_key(), holder)   # an IPv6 device: its /64
    # With a board, a "board" event says its state changed (a peg lifted, LEDs, a message):
    # pages then fetch /board. Without one the stream is exactly as before.
    with_board = (current_app.extensions.get("pegs_board") is not None
                  or current_app.extensions.get("pegs_board_control") is not None)

    def stream():
        try:
            yield "retry: 1500\n\n"
            sent = sent_board = None
            while True:
                version = table.version
                if version != sent:
                    sent = version
                    yield f"id: {version}\nevent: version\ndata: {{\"version\": {version}}}\n\n"
                    continue
                if with_board and table.board_version != sent_board:
                    sent_board = table.board_version
                    yield f"event: board\ndata: {{\"board\": {sent_board}, \"version\": {version}}}\n\n"
                    continue
                if stop.is_set() or svc.closing.is_set():
                    return
                seen = svc.wait_change(table, sent, heartbeat, stop,
                                       sent_board if with_board else None)
                if seen == (sent if not with_board else (sent, sent_board)) \
                        and not stop.is_set() and not svc.closing.is_set():
                    yield ": keep-alive\n\n"
        finally:
            svc.close_stream(key, stop)

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


from . import board  # noqa: E402,F401  (the board referee's routes, on this blueprint)
