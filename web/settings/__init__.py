"""The settings page: the companion's settings, changed from a phone and kept in the config file.

Who may change them: a browser on the companion itself (loopback, while
``serve.loopback_admin``), or a phone
that gave the admin code (``serve.admin_code``; `systemd/install.sh` writes a
random one and prints it). A change is checked like the config file is, written
to it atomically (`web.config.save_settings`) and then made live
(`web.board_control.BoardControl.apply`). Also here: ``POST /api/board/retry``,
"Try the board again" after a safe start (any page may ask; it only re-opens
the configured hardware).
"""
from __future__ import annotations

import threading

from flask import Blueprint, current_app, jsonify, render_template, request

from companion.message import msg

from ..access import Body, Map, Str, admin_token, body, check_admin_code, is_admin, route
from ..config import BOARD_MODES, BY_KEY, WEB_KEYS, ConfigError, check_web_change, save_settings
from ..errors import ApiError
from ..util import ADMIN_COOKIE, service

bp = Blueprint("settings", __name__, template_folder="templates")

_save_lock = threading.Lock()
ADMIN = {"admin"}   # loopback, or a phone that gave the admin code (web.access.is_admin)


def control():
    return current_app.extensions.get("pegs_board_control")


authorised = is_admin


def _said(exc: ConfigError):
    """A config problem as the page shows it: its message when it is one (in the page's
    language), else the English of the config file's check."""
    return exc.problems[0] if len(exc.problems) == 1 else str(exc)


def think_ms() -> int:
    """The hard bot's budget in force (its own default when the app was given none)."""
    ms = service().bot_think_ms
    if ms is None:
        from companion.strong import DEFAULT_THINK_MS
        return DEFAULT_THINK_MS
    return int(ms)


def current() -> dict:
    """The settings in force now, for the page."""
    ctl = control()
    wiring = ctl.wiring if ctl is not None else None
    return {
        "serve.bot_delay": service().bot_delay,
        "serve.bot_think_ms": think_ms(),
        "board.mode": ctl.mode if ctl is not None else "none",
        "board.settle_seconds": ctl.settle if ctl is not None else 0.8,
        "wiring.leds.brightness": wiring.leds.brightness if wiring is not None else None,
    }


def _state() -> dict:
    ctl = control()
    path = current_app.config.get("CONFIG_PATH")
    return {"values": current(), "keys": {k: BY_KEY[k].doc for k in WEB_KEYS if k in BY_KEY},
            "modes": list(BOARD_MODES), "has_wiring": ctl is not None and ctl.wiring is not None,
            "has_camera": ctl is not None and bool(ctl.camera.get("calibration")),
            "config_path": path, "board": ctl.status() if ctl is not None else None}


@route(bp, "GET", "/settings", who={"anyone"}, reveals="the settings page; the settings only to the admin")
def settings_page():
    ok = authorised()
    return render_template("settings/settings.html", authorised=ok,
                           has_code=bool(current_app.config.get("ADMIN_CODE")),
                           loopback_admin=bool(current_app.config.get("LOOPBACK_ADMIN", True)),
                           boot={"authorised": ok, "state": _state() if ok else None})


@route(bp, "GET", "/api/settings", who=ADMIN, reveals="the settings in force, the config file's path")
def settings_get():
    return jsonify(_state())


@route(bp, "POST", "/api/settings/unlock", who={"anyone"}, body=Body({"code": Str(200)}, required=("code",)),
       reveals="with the admin code: the settings, and the admin cookie (wrong codes counted per address)")
def settings_unlock():
    check_admin_code(body()["code"])
    resp = jsonify(_state())
    resp.set_cookie(ADMIN_COOKIE, admin_token(), max_age=30 * 24 * 3600, httponly=True, samesite="Strict",
                    secure=request.is_secure, path="/")
    return resp


@route(bp, "POST", "/api/settings", who=ADMIN, body=Body({"changes": Map()}, required=("changes",)),
       reveals="the settings in force after the change")
def settings_post():
    changes = body()["changes"]
    if not changes:
        raise ApiError(400, "send {\"changes\": {key: value}} with one or more of: " + ", ".join(WEB_KEYS))
    checked = {}
    try:
        for key, value in changes.items():
            checked[key] = check_web_change(key, value)
    except ConfigError as exc:
        raise ApiError(400, _said(exc)) from None
    ctl = control()
    if "board.mode" in checked and checked["board.mode"] in ("sensors", "leds") and (ctl is None or ctl.wiring is None):
        raise ApiError(400, msg("board.mode: a real board needs its wiring ([wiring] in the config file, see "
                                "hardware/README.md); until then use simulation or none"))
    if checked.get("board.mode") == "camera" and (ctl is None or not ctl.camera.get("calibration")):
        raise ApiError(400, msg("board.mode: the camera needs camera.calibration in the config file (made by "
                                "pegs vision calibrate; README: Camera)"))
    if "wiring.leds.brightness" in checked and (ctl is None or ctl.wiring is None):
        raise ApiError(400, msg("wiring.leds.brightness: there are no LEDs configured"))
    path = current_app.config.get("CONFIG_PATH")
    with _save_lock:
        if path:
            try:
                save_settings(path, checked, wiring_file=current_app.config.get("WIRING_FILE"))
            except ConfigError as exc:
                raise ApiError(400, _said(exc)) from None
            except OSError as exc:
                raise ApiError(500, msg("the settings could not be saved to %(path)s (%(error)s); nothing "
                                        "was changed", path=str(path), error=str(exc.strerror))) from None
        if ctl is not None:
            ctl.apply(checked)
        else:
            if "serve.bot_delay" in checked:
                service().bot_delay = checked["serve.bot_delay"]
            if "serve.bot_think_ms" in checked:
                service().bot_think_ms = checked["serve.bot_think_ms"]
    out = _state()
    out["saved"] = bool(path)
    out["message"] = (msg("Saved to %(path)s.", path=str(path)) if path else
                      msg("Changed until the companion stops: there is no config file to keep them in "
                          "(start it with --config FILE)."))
    return jsonify(out)


@route(bp, "POST", "/api/board/retry", who={"anyone"}, body=Body({}),
       reveals="what failed when the board started (it only re-opens the configured hardware)")
def board_retry():
    ctl = control()
    if ctl is None:
        raise ApiError(404, msg("this companion runs without a board control"))
    status = ctl.retry()
    return jsonify(status)
