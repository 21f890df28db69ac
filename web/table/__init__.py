"""The table view: a tablet, TV or the host's phone showing the whole board."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from ..board import render_svg
from ..util import service

bp = Blueprint("table", __name__, template_folder="templates")


@bp.get("/table/<gid>")
def table_page(gid):
    table = service().get(gid)
    bottom = request.args.get("bottom", "0")
    side = int(bottom) if bottom.isdigit() and int(bottom) < table.geo.sides else 0
    return render_template("table/table.html", gid=gid, board=render_svg(table, side),
                           boot={"gid": gid})
