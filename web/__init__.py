"""Web front end of the companion: the referee and dealer on the players' phones.

`create_app` builds the Flask app around a `web.tables.TableService`; the
composition root for real use is `web.main.build_app`, served by waitress
(`pegs serve`, `web.cli`). Blueprints: ``host`` (home, new table, host
controls), ``seat`` (a player's phone), ``table`` (the shared table view) and
``api`` (JSON and the server-sent-event stream) and ``settings`` (the settings
page, and "try the board again"). Every route says who may call it and what it
reveals in `web.access` (docs/security-access.md has the table); a request
whose Host is not one of the companion's own names is refused (DNS rebinding).
"""
from __future__ import annotations

import logging
import secrets
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, render_template, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException

from companion.message import msg

from .access import Bucket, Failures, OwnNames, declare
from .errors import STATUS, ApiError, api_error

log = logging.getLogger("web")

DEFAULTS = {
    "BOT_DELAY": 0.8,         # seconds a bot waits before it acts, so people can follow
    "HEARTBEAT": 15.0,        # seconds between SSE keep-alive comments
    "MAX_STREAMS": 40,        # open SSE streams at most (waitress threads are finite)
    "PUBLIC_URL": None,       # e.g. "http://192.168.4.1:8000/" for the join links
    "BIND_HOST": None,        # the address the server listens on (None: not known; see web.netinfo)
    "PORT": None,             # the port the server listens on (for the join links)
    "MAX_CONTENT_LENGTH": 16 * 1024,   # the largest real body (a new table) is under 1 KB
    "CSRF_HEADER": "X-Pegs-Request",
    "MAX_TABLES": 20,         # live tables at most (serve.max_tables)
    "TABLES_PER_MINUTE": 6,   # new tables per client address (serve.tables_per_minute; loopback: no limit)
    "ALLOWED_HOSTS": (),      # more names the companion answers to, besides its own (see web.access.OwnNames)
    "LOOPBACK_ADMIN": True,   # loopback is the admin (serve.loopback_admin; docs/security-access.md)
}


def create_app(config: dict | None = None, store=None, service=None, board=None) -> Flask:
    """The app. Without a service, one is made over `store` (default: in memory).
    `board`: the board referee (`web.board_referee.BoardHub`), None without a board."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.debug = False
    app.json.sort_keys = False
    if service is None:
        from .store import Store
        from .tables import TableService
        store = store if store is not None else Store(":memory:")
        service = TableService(store, app.config.get("SECRET") or secrets.token_bytes(32),
                               bot_delay=app.config["BOT_DELAY"],
                               max_streams=app.config["MAX_STREAMS"],
                               bot_think_ms=app.config.get("BOT_THINK_MS"))
    service.max_tables = int(app.config["MAX_TABLES"])
    app.extensions["pegs"] = service
    app.extensions["pegs_board"] = board
    app.extensions["pegs_admin_failures"] = Failures(limit=5, decay=60.0)
    rate = float(app.config["TABLES_PER_MINUTE"])
    app.extensions["pegs_create_bucket"] = Bucket(rate, burst=max(1, int(rate)))
    own_names = app.extensions["pegs_own_names"] = OwnNames(app.config)

    from .api import bp as api_bp
    from .host import bp as host_bp
    from .seat import bp as seat_bp
    from .settings import bp as settings_bp
    from .table import bp as table_bp
    from .camera import bp as camera_bp
    for bp in (host_bp, seat_bp, table_bp, api_bp, settings_bp, camera_bp):
        app.register_blueprint(bp)
    from . import i18n
    i18n.init_app(app)   # each phone's language (issue 25.1)
    from .powers import bp as powers_bp
    app.register_blueprint(powers_bp)   # what each card does, in the phone's language
    declare(app, "static", who={"anyone"}, reveals="the pages' scripts, styles and pictures")
    declare(app, "camera.static", who={"anyone"}, reveals="the camera page's script and style")

    @app.before_request
    def _own_host_and_csrf():
        # DNS rebinding: a page of evil.example whose name now points here sends Host:
        # evil.example. Answer only to the companion's own names and addresses.
        # (No Host at all is no browser's request, so it can't be one.)
        host = request.environ.get("HTTP_HOST")
        if host is not None and host not in own_names:
            raise ApiError(421, "this companion answers only to its own names and addresses "
                           "(serve.public_url adds one)")
        # State changes are JSON POSTs carrying a header a cross-site form can't
        # send (and a cross-site fetch can't send without a preflight we refuse).
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            if request.headers.get(app.config["CSRF_HEADER"]) != "1":
                raise ApiError(403, f"missing the {app.config['CSRF_HEADER']} header")
            origin = request.headers.get("Origin")
            if origin is not None and not _own_origin(origin, host):
                raise ApiError(403, "cross-site request refused")

    public = urlsplit(app.config.get("PUBLIC_URL") or "")
    public_origin = f"{public.scheme}://{public.netloc}".lower() if public.netloc else None

    def _own_origin(origin: str, host: str | None) -> bool:
        """Only the exact origins the companion serves: plain http on the very name and port the
        request came to (a page of the same name on another port or scheme is another site),
        or serve.public_url's (behind a proxy that gives it https)."""
        origin = origin.strip().lower()
        if public_origin is not None and origin == public_origin:
            return True
        return host is not None and host in own_names and origin == f"http://{host.strip().lower()}"

    @app.after_request
    def _headers(resp):
        resp.headers.setdefault("Cache-Control", "no-store")
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
        return resp

    def _wants_json() -> bool:
        return request.path.startswith("/api/") or request.method != "GET"

    def _page(status: int, message: str):
        if request_ctx.url_adapter is None:   # a Host werkzeug can't bind: no url_for, plain words
            return Response(f"{status}: {message}\n", status, mimetype="text/plain")
        from .i18n import say
        return render_template("error.html", status=status, message=say(message)), status

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        if _wants_json():
            return jsonify(exc.body()), exc.status
        return _page(exc.status, exc.message)

    def _mapped_error(exc: Exception):   # an engine's or driver's error: its status from STATUS
        return _api_error(api_error(exc))

    for cls in STATUS:
        app.register_error_handler(cls, _mapped_error)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        messages = {404: msg("there is no such page here"), 405: msg("that method is not allowed here"),
                    413: msg("the request is too large"), 400: msg("bad request"),
                    431: msg("the request's headers are too large")}
        said = messages.get(exc.code, exc.name.lower())
        if _wants_json():
            return jsonify({"error": said}), exc.code
        return _page(exc.code, said)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        said = msg("something went wrong in the companion; the game is safe, try again")
        if _wants_json():
            return jsonify({"error": said}), 500
        return _page(500, said)

    from . import assets
    assets.init_app(app)   # versioned static URLs cached a year, compressed (issue 25 §4.12)

    @app.context_processor
    def _globals():
        return {"csrf_header": app.config["CSRF_HEADER"]}

    return app


__all__ = ["create_app"]
