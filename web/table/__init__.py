"""The table view: a tablet, TV or the host's phone showing the whole board."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from ..board import render_svg
from ..util import service

bp = Blueprint("table", __name__, template_folder="templates")


@bp.get("/table/<gid>")
def table_page(gid):
    table = service().get(gid)
    bottom = request.args.get("bottom", "0")
    side = int(bottom) if bottom.isdigit() and int(bottom) < table.geo.sides else 0
    boot = {"gid": gid, "board": board_boot()}
    return render_template("table/table.html", gid=gid, board=render_svg(table, side), boot=boot,
                           problems=(boot["board"]["control"] or {}).get("problems", []))


def board_boot() -> dict:
    """What a page needs to know about the board before it asks /board: its mode and,
    after a safe start, what failed (``control``: `BoardControl.status()`)."""
    hub = current_app.extensions.get("pegs_board")
    control = current_app.extensions.get("pegs_board_control")
    mode = hub.mode if hub is not None else "none"
    return {"mode": mode, "senses": mode in ("simulation", "sensors"), "settle": hub.settle if hub else None,
            "control": control.status() if control is not None else None}
