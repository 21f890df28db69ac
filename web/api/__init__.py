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

from flask import Blueprint, Response, current_app, jsonify, request

from companion.rules import DESCRIPTIONS, PRESETS, RULINGS, differences

from ..errors import ApiError
from ..util import (HOST_COOKIE, SEAT_COOKIE, base_url, host_token, json_body, seat_token,
                    service, set_secret_cookie)

bp = Blueprint("api", __name__, url_prefix="/api")
_CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def presets_json() -> list[dict]:
    out = []
    for name, rules in PRESETS.items():
        out.append({"name": name, "description": DESCRIPTIONS[name], "differences": differences(name),
                    "rulings": RULINGS.get(name, []), "decks": rules.decks,
                    "jokers_per_deck": rules.jokers_per_deck, "extra_jokers": rules.extra_jokers,
                    "hand_size": rules.hand_size, "counting": rules.counting,
                    "bluffing": rules.bluffing})
    return out


@bp.get("/presets")
def presets():
    return jsonify(presets_json())


@bp.get("/games")
def games():
    return jsonify(service().summaries())


@bp.post("/games")
def create_game():
    table, token = service().create(json_body())
    resp = jsonify({"gid": table.gid, "version": table.version, "host_url": f"/host/{table.gid}",
                    "table_url": f"/table/{table.gid}"})
    set_secret_cookie(resp, HOST_COOKIE.format(table.gid), token)
    return resp, 201


@bp.get("/games/<gid>/me")
def seat_view(gid):
    svc = service()
    return jsonify(svc.seat_view(svc.get(gid), seat_token(gid)))


@bp.get("/games/<gid>/table")
def table_view(gid):
    svc = service()
    return jsonify(svc.view(svc.get(gid), None))


@bp.get("/games/<gid>/plays")
def plays(gid):
    svc = service()
    return jsonify(svc.plays(svc.get(gid), seat_token(gid)))


@bp.post("/games/<gid>/act")
def act(gid):
    svc = service()
    return jsonify(svc.act(svc.get(gid), seat_token(gid), json_body()))


@bp.post("/games/<gid>/check")
def check(gid):
    """Would this move be legal now? (the seat page asks before it offers a move typed by taps)"""
    svc = service()
    return jsonify(svc.act(svc.get(gid), seat_token(gid), json_body(), dry_run=True))


@bp.post("/games/<gid>/hint")
def hint(gid):
    """The seat's own turn: ask for a hint (made on the bot thread; shown in the seat's view)."""
    svc = service()
    return jsonify(svc.request_hint(svc.get(gid), seat_token(gid)))


@bp.post("/join")
def join():
    data = json_body()
    code = data.get("code")
    svc = service()
    found = svc.seat_preview(code) if isinstance(code, str) else None
    current = seat_token(found[0].gid) if found else None
    table, seat, token = svc.join(code, current)
    resp = jsonify({"ok": True, "gid": table.gid, "seat": seat, "url": f"/seat/{table.gid}"})
    if token:
        set_secret_cookie(resp, SEAT_COOKIE.format(table.gid), token)
    return resp


@bp.get("/games/<gid>/host")
def host_info(gid):
    svc = service()
    return jsonify(svc.host_info(svc.get(gid), host_token(gid), base_url()))


@bp.post("/games/<gid>/host/<action>")
def host_action(gid, action):
    svc = service()
    if action not in ("undo", "pause", "resume", "end", "reseat", "bot", "hints"):
        raise ApiError(404, f"unknown host action {action!r}")
    return jsonify(svc.host_action(svc.get(gid), host_token(gid), action, json_body()))


@bp.get("/games/<gid>/record")
def record(gid):
    svc = service()
    rec = svc.record(svc.get(gid), host_token(gid))
    body = json.dumps(rec, indent=1)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="pegs-{gid}.json"'})


@bp.get("/games/<gid>/events")
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
    stop = svc.open_stream(table, f"{gid}:{client}")
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
            svc.close_stream(f"{gid}:{client}", stop)

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


from . import board  # noqa: E402,F401  (the board referee's routes, on this blueprint)
