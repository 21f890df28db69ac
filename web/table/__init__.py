"""The table view: a tablet, TV or the host's phone showing the whole board."""
from __future__ import annotations

from flask import Blueprint, current_app, g, render_template, request

from ..access import route
from ..board import render_svg
from ..i18n import localize
from ..util import service

bp = Blueprint("table", __name__, template_folder="templates")


@route(bp, "GET", "/table/<gid>", who={"anyone"},
       reveals="the public view; its simulated board moves only for the acting seat, the host, a paired display or the admin")
def table_page(gid):
    table = service().get(gid)
    bottom = request.args.get("bottom", "0")
    side = int(bottom) if bottom.isascii() and bottom.isdigit() and int(bottom) < table.geo.sides else 0
    boot = {"gid": gid, "board": board_boot(),
            "admitted": bool(g.roles & {"host", "display", "acting_seat", "admin"})}
    return render_template("table/table.html", gid=gid, board=render_svg(table, side), boot=boot,
                           problems=localize((boot["board"]["control"] or {}).get("problems", [])),   # messages
                           admitted=boot["admitted"])


@route(bp, "GET", "/d/<code>", who={"anyone"}, reveals="for a valid pairing code: which table it pairs")
def pair_page(code):
    table = service().find_display(code)
    if table is None:
        return render_template("table/pair.html", table=None, code=code), 404
    return render_template("table/pair.html", table=table, code=code.strip().upper(),
                           names=[s.name for s in table.seats])


def board_boot() -> dict:
    """What a page needs to know about the board before it asks /board: its mode and,
    after a safe start, what failed (``control``: `BoardControl.status()`)."""
    hub = current_app.extensions.get("pegs_board")
    control = current_app.extensions.get("pegs_board_control")
    mode = hub.mode if hub is not None else "none"
    return {"mode": mode, "senses": mode in ("simulation", "sensors"), "settle": hub.settle if hub else None,
            "control": control.status() if control is not None else None}
