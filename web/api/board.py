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

Nothing here is private: the chosen card is never shown, only the rank it moves as.
"""
from __future__ import annotations

from flask import Response, current_app, jsonify

from ..errors import ApiError
from ..util import json_body, seat_token, service
from . import bp

NO_BOARD = {"mode": "none", "attached": False, "state": "off", "leds": {}, "candidates": [], "fix": [],
            "hits": [], "message": ""}


def board_hub(required: bool = True):
    hub = current_app.extensions.get("pegs_board")
    if hub is None and required:
        raise ApiError(404, "this companion runs without a board: the phones are the board")
    return hub


@bp.get("/games/<gid>/board")
def board_state(gid):
    table = service().get(gid)
    hub = board_hub(required=False)
    body = dict(NO_BOARD) if hub is None else hub.state(table)
    control = current_app.extensions.get("pegs_board_control")
    if control is not None:
        body["control"] = control.status()   # after a safe start: what failed, how to fix it
    return jsonify(body)


@bp.get("/games/<gid>/board/crop/<hole>")
def board_crop(gid, hole):
    """Camera: a PNG of a hole it could not read, while it asks the phone (see BoardHub.crop)."""
    table = service().get(gid)
    return Response(board_hub().crop(table, hole), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/games/<gid>/board/card")
def board_card(gid):
    table = service().get(gid)
    return jsonify(board_hub().choose(table, seat_token(gid), json_body()))


@bp.post("/games/<gid>/board/lift")
def board_lift(gid):
    table = service().get(gid)
    return jsonify(board_hub().lift(table, json_body()))


@bp.post("/games/<gid>/board/place")
def board_place(gid):
    table = service().get(gid)
    return jsonify(board_hub().place(table, json_body()))


@bp.post("/games/<gid>/board/sync")
def board_sync(gid):
    table = service().get(gid)
    return jsonify(board_hub().sync(table))


@bp.post("/games/<gid>/board/attach")
def board_attach(gid):
    table = service().get(gid)
    return jsonify(board_hub().attach(table))
