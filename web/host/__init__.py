"""Host pages: the home page, the new-table form and the host's controls."""
from __future__ import annotations

import hashlib
from functools import cache

from flask import Blueprint, Response, current_app, render_template, request

from companion.board import TEAM_LAYOUTS
from companion.bots import BOTS

from .. import colours
from ..access import route
from ..api import presets_json
from ..assets import IMMUTABLE
from ..util import service

bp = Blueprint("host", __name__, template_folder="templates")


@route(bp, "GET", "/", who={"anyone"}, reveals="live and lately finished tables: names, status, preset")
def home():
    return render_template("host/home.html", games=service().summaries())


@route(bp, "GET", "/new", who={"anyone"}, reveals="the new-table form")
def new_table():
    boot = {"presets": presets_json(), "palette": list(colours.BY_KEY.values()),
            "defaults": colours.DEFAULTS, "side_defaults": colours.SIDE_DEFAULTS, "layouts": {str(k): v for k, v in TEAM_LAYOUTS.items()},
            "bots": list(BOTS)}
    return render_template("host/new.html", boot=boot)


def _not_host(table):
    """Another phone on the host page: say so, and offer the admin code (a lost host phone)."""
    return render_template("host/recover.html", gid=table.gid,
                           has_code=bool(current_app.config.get("ADMIN_CODE"))), 403


@route(bp, "GET", "/host/<gid>", who={"host"}, denied=_not_host,
       reveals="the host controls page (the join codes come from /api/games/<gid>/host)")
def host_page(gid):
    return render_template("host/host.html", gid=gid, boot={"gid": gid, "bots": list(BOTS)})


@cache
def _colours_css() -> tuple[str, str]:
    """(version, CSS): the palette is fixed per release, so its URL carries a hash of it."""
    css = "".join(f".col-{c['key']}{{background:{c['hex']};color:{c['ink']}}}\n"
                  for c in colours.BY_KEY.values())
    return hashlib.sha256(css.encode()).hexdigest()[:12], css


@bp.url_defaults
def _versioned(endpoint, values):
    if endpoint == "host.colours_css" and "v" not in values:
        values["v"] = _colours_css()[0]


@route(bp, "GET", "/colours.css", who={"anyone"}, reveals="the peg colours as CSS")
def colours_css():
    """The peg colours as CSS classes (.col-red ...), from the one palette in web.colours; cached
    for a year under its versioned URL (a release that changes a colour changes the URL), and
    revalidated without it, so a phone never keeps a colour from an older release."""
    version, css = _colours_css()
    cache_control = IMMUTABLE if request.args.get("v") == version else "no-cache"
    return Response(css, mimetype="text/css", headers={"Cache-Control": cache_control})
