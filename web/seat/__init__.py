"""A player's phone: joining a seat by its code, and the seat page."""
from __future__ import annotations

from flask import Blueprint, render_template

from ..access import route
from ..board import render_svg
from ..table import board_boot
from ..util import seat_token, service

bp = Blueprint("seat", __name__, template_folder="templates")


@route(bp, "GET", "/j/<code>", who={"anyone"}, reveals="for a valid join code: the seat's name and colour")
def join_page(code):
    found = service().seat_preview(code)
    if found is None:
        return render_template("seat/join.html", found=None, code=code), 404
    table, seat = found
    s = table.public_seats()[seat]
    token = seat_token(table.gid)
    with table.cond:
        mine = table.seat_of_token(token) == seat
        lost = table.lost_seat(token)
    asked = lost is not None and lost == (seat, "requested")
    return render_template("seat/join.html", found=True, code=code.strip().upper(), seat=s,
                           gid=table.gid, taken=s["joined"], bot=s["bot"], mine=mine, asked=asked)


@route(bp, "GET", "/seat/<gid>", who={"anyone"},
       reveals="the seat page's frame and this phone's seat number; its hand comes from /me")
def seat_page(gid):
    svc = service()
    table = svc.get(gid)
    seat = table.seat_of_token(seat_token(gid))
    with table.cond:   # a phone that lost its seat watches from where it sat (25 §4.1)
        lost = table.lost_seat(seat_token(gid)) if seat is None else None
    side = table.game.seat_side[seat if seat is not None else lost[0] if lost else 0]
    return render_template("seat/seat.html", gid=gid, seat=seat, board=render_svg(table, side),
                           boot={"gid": gid, "seat": seat, "board": board_boot()})
