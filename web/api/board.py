"""The board referee's JSON API (routes on the api blueprint).

* ``GET  /api/games/<gid>/board``        what the board shows and says: state, message (with
  the RULES id and how to put it right), the candidate moves when the board fits several,
  every lit LED (colour and pattern) and, in simulation, where each peg stands;
* ``POST /api/games/<gid>/board/card``   the acting seat chose a card on its phone
  (``{"version", "card", "rank"?}``; ``"card": null`` goes back): the board is followed;
* ``POST /api/games/<gid>/board/lift``   simulation: a peg picked up (``{"hole"}``) ...
* ``POST /api/games/<gid>/board/place``  ... and put down (``{"hole", "side"}``): both go
  to the emulated reed switches, the same path real switches take;
* ``POST /api/games/<gid>/board/sync``   simulation: move the pegs to match the game;
* ``POST /api/games/<gid>/board/attach`` give the board to this table (when it is free);
* ``GET  /api/games/<gid>/board/crop/<hole>`` camera: a PNG of a hole it could not read, while
  it asks the phone which move was made (only the holes listed in ``"doubtful"``).
* ``POST /api/games/<gid>/board/release`` the host (or the admin) lets the board go.

Who may call each: `web.access` (the acting seat, the host or a paired display
drive the board; the admin may attach or release).

Nothing here is private: the chosen card is never shown, only the rank it moves as, and a
hint's LEDs (its move's holes tell a card of that hand) only to the hinted seat's phone, a
paired display and the admin (`sees_hint`); the real board's LEDs show them to the table.
"""
from __future__ import annotations

from flask import Response, current_app, g, jsonify

from companion.message import msg

from ..access import Body, Int, Opt, Str, body, route
from ..errors import ApiError
from ..util import seat_token, service
from . import bp

NO_BOARD = {"mode": "none", "attached": False, "state": "off", "leds": {}, "candidates": [], "fix": [],
            "hits": [], "message": ""}
# Who may touch the board: the table admitted these devices (issue 13 point 3); the admin
# includes the companion's own screen (loopback), the natural table display on a Pi with a TV.
DRIVERS = {"acting_seat", "host", "display", "admin"}
HOLE = Str(16, r"[A-Za-z0-9-]+", "a hole of this board, e.g. M12, H3-s2, S-s2-1")
CARD = Body({"version": Int(0), "card": Opt(Str(3)), "rank": Opt(Str(2)), "declared": Opt(Str(2))},
            required=("version",))
LIFT = Body({"hole": HOLE}, required=("hole",))
PLACE = Body({"hole": HOLE, "side": Int(0, 9)}, required=("hole", "side"))
EMPTY = Body({})


def board_hub(required: bool = True):
    hub = current_app.extensions.get("pegs_board")
    if hub is None and required:
        raise ApiError(404, msg("this companion runs without a board: the phones are the board"))
    return hub


def sees_hint(table) -> bool:
    """May this caller see the LEDs of the acting seat's hint (issue 22 point 3)? The hinted
    seat's own phone, a paired display and the admin (the board's screens at the table, as
    the real board's LEDs are); the rest see the board as it would be without the hint."""
    if g.roles & {"admin", "display"}:
        return True
    seat = table.seat_of_token(seat_token(table.gid))
    if seat is None:
        return False
    with table.cond:
        return table.current_hint(seat) is not None


@route(bp, "GET", "/games/<gid>/board", who={"anyone"},
       reveals="the board's public state: LEDs, message, candidates, pegs; never the chosen card; "
               "a hint's LEDs only to the hinted seat, a paired display and the admin")
def board_state(gid):
    table = service().get(gid)
    hub = board_hub(required=False)
    seen = table.board_version   # read first: a page holding this answer has seen at least this version
    body = dict(NO_BOARD) if hub is None else hub.state(table, sees_hint(table))
    body["board_version"] = seen
    control = current_app.extensions.get("pegs_board_control")
    if control is not None:
        body["control"] = control.status()   # after a safe start: what failed, how to fix it
    return jsonify(body)


@route(bp, "GET", "/games/<gid>/board/crop/<hole>", who=DRIVERS,
       reveals="a PNG of one hole the camera could not read, only while the referee asks the "
               "phone about it (the holes listed in the board's \"doubtful\")")
def board_crop(gid, hole):
    """Camera: a PNG of a hole it could not read, while it asks the phone (see BoardHub.crop)."""
    table = service().get(gid)
    return Response(board_hub().crop(table, hole), mimetype="image/png", headers={"Cache-Control": "no-store"})


@route(bp, "POST", "/games/<gid>/board/card", who={"acting_seat"}, body=CARD,
       reveals="the board's public state")
def board_card(gid):
    table = service().get(gid)
    return jsonify(board_hub().choose(table, seat_token(gid), body(), sees_hint(table)))


@route(bp, "POST", "/games/<gid>/board/lift", who=DRIVERS, body=LIFT, reveals="the board's public state")
def board_lift(gid):
    table = service().get(gid)
    return jsonify(board_hub().lift(table, body(), sees_hint(table)))


@route(bp, "POST", "/games/<gid>/board/place", who=DRIVERS, body=PLACE, reveals="the board's public state")
def board_place(gid):
    table = service().get(gid)
    return jsonify(board_hub().place(table, body(), sees_hint(table)))


@route(bp, "POST", "/games/<gid>/board/sync", who=DRIVERS, body=EMPTY, reveals="the board's public state")
def board_sync(gid):
    table = service().get(gid)
    return jsonify(board_hub().sync(table, sees_hint(table)))


@route(bp, "POST", "/games/<gid>/board/attach", who={"host", "display", "admin"}, body=EMPTY,
       reveals="the board's public state (refused while another game in play holds the board)")
def board_attach(gid):
    table = service().get(gid)
    return jsonify(board_hub().attach(table, sees_hint(table)))


@route(bp, "POST", "/games/<gid>/board/release", who={"host", "admin"}, body=EMPTY,
       reveals="the board's public state: this table lets the board go")
def board_release(gid):
    table = service().get(gid)
    return jsonify(board_hub().release(table, sees_hint(table)))
