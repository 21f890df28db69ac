"""Host pages: the home page, the new-table form and the host's controls."""
from __future__ import annotations

from flask import Blueprint, Response, render_template

from companion.board import TEAM_LAYOUTS
from companion.bots import BOTS

from .. import colours
from ..api import presets_json
from ..errors import ApiError
from ..util import host_token, service

bp = Blueprint("host", __name__, template_folder="templates")


@bp.get("/")
def home():
    return render_template("host/home.html", games=service().summaries())


@bp.get("/new")
def new_table():
    boot = {"presets": presets_json(), "palette": list(colours.BY_KEY.values()),
            "defaults": colours.DEFAULTS, "layouts": {str(k): v for k, v in TEAM_LAYOUTS.items()},
            "bots": list(BOTS)}
    return render_template("host/new.html", boot=boot)


@bp.get("/host/<gid>")
def host_page(gid):
    svc = service()
    table = svc.get(gid)
    if not table.is_host(host_token(gid)):
        raise ApiError(403, "Only the phone that created this table can open its host controls.")
    return render_template("host/host.html", gid=gid, boot={"gid": gid, "bots": list(BOTS)})


@bp.get("/colours.css")
def colours_css():
    """The peg colours as CSS classes (.col-red ...), from the one palette in web.colours."""
    css = "".join(f".col-{c['key']}{{background:{c['hex']};color:{c['ink']}}}\n"
                  for c in colours.BY_KEY.values())
    return Response(css, mimetype="text/css", headers={"Cache-Control": "max-age=3600"})
