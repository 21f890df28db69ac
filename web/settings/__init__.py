"""The settings page: the companion's settings, changed from a phone and kept in the config file.

Who may change them: a browser on the companion itself (loopback), or a phone
that gave the admin code (``serve.admin_code``; `systemd/install.sh` writes a
random one and prints it). A change is checked like the config file is, written
to it atomically (`web.config.save_settings`) and then made live
(`web.board_control.BoardControl.apply`). Also here: ``POST /api/board/retry``,
"Try the board again" after a safe start (any page may ask; it only re-opens
the configured hardware).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import threading
import time

from flask import Blueprint, current_app, jsonify, render_template, request

from ..config import BOARD_MODES, BY_KEY, WEB_KEYS, ConfigError, check_web_change, save_settings
from ..errors import ApiError
from ..util import json_body, service

bp = Blueprint("settings", __name__, template_folder="templates")

ADMIN_COOKIE = "pj_admin"
MAX_TRIES = 5          # wrong codes in a row before each try waits
LOCKOUT = 30.0         # seconds
_tries_lock = threading.Lock()
_save_lock = threading.Lock()


def _tries() -> dict:
    return current_app.extensions.setdefault("pegs_admin_tries", {"wrong": 0, "until": 0.0})


def control():
    return current_app.extensions.get("pegs_board_control")


def _token_for(code: str) -> str:
    return hmac.new(current_app.config["SECRET"], f"admin:{code}".encode(), hashlib.sha256).hexdigest()


def _admin_token() -> str | None:
    code = current_app.config.get("ADMIN_CODE")
    return _token_for(code) if code else None


def _local() -> bool:
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def authorised() -> bool:
    if _local():
        return True
    token = _admin_token()
    cookie = request.cookies.get(ADMIN_COOKIE)
    return bool(token and cookie and hmac.compare_digest(token, cookie))


def _require():
    if not authorised():
        if current_app.config.get("ADMIN_CODE"):
            raise ApiError(403, "enter the admin code first (serve.admin_code in the config file)")
        raise ApiError(403, "settings can be changed only on the companion itself (http://127.0.0.1:PORT/settings) "
                            "until serve.admin_code is set in the config file")


def current() -> dict:
    """The settings in force now, for the page."""
    ctl = control()
    wiring = ctl.wiring if ctl is not None else None
    return {
        "serve.bot_delay": service().bot_delay,
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


@bp.get("/settings")
def settings_page():
    ok = authorised()
    return render_template("settings/settings.html", authorised=ok,
                           has_code=bool(current_app.config.get("ADMIN_CODE")),
                           boot={"authorised": ok, "state": _state() if ok else None})


@bp.get("/api/settings")
def settings_get():
    _require()
    return jsonify(_state())


@bp.post("/api/settings/unlock")
def settings_unlock():
    code = json_body().get("code")
    token = _admin_token()
    if token is None:
        raise ApiError(403, "no admin code is set: add serve.admin_code to the config file, or open the "
                            "settings on the companion itself")
    with _tries_lock:
        tries = _tries()
        wait = tries["until"] - time.monotonic()
        if wait > 0:
            raise ApiError(429, f"too many wrong codes: wait {wait:.0f} s")
        good = isinstance(code, str) and hmac.compare_digest(_token_for(code.strip()), token)
        if not good:
            tries["wrong"] += 1
            if tries["wrong"] >= MAX_TRIES:
                tries["until"] = time.monotonic() + LOCKOUT
            raise ApiError(403, "that is not the admin code")
        tries["wrong"] = 0
    resp = jsonify(_state())
    resp.set_cookie(ADMIN_COOKIE, token, max_age=30 * 24 * 3600, httponly=True, samesite="Strict",
                    secure=request.is_secure, path="/")
    return resp


@bp.post("/api/settings")
def settings_post():
    _require()
    body = json_body()
    changes = body.get("changes")
    if not isinstance(changes, dict) or not changes:
        raise ApiError(400, "send {\"changes\": {key: value}} with one or more of: " + ", ".join(WEB_KEYS))
    checked = {}
    try:
        for key, value in changes.items():
            checked[key] = check_web_change(key, value)
    except ConfigError as exc:
        raise ApiError(400, str(exc)) from None
    ctl = control()
    if "board.mode" in checked and checked["board.mode"] in ("sensors", "leds") and (ctl is None or ctl.wiring is None):
        raise ApiError(400, "board.mode: a real board needs its wiring ([wiring] in the config file, see "
                            "hardware/README.md); until then use simulation or none")
    if checked.get("board.mode") == "camera" and (ctl is None or not ctl.camera.get("calibration")):
        raise ApiError(400, "board.mode: the camera needs camera.calibration in the config file (made by "
                            "pegs vision calibrate; README: Camera)")
    if "wiring.leds.brightness" in checked and (ctl is None or ctl.wiring is None):
        raise ApiError(400, "wiring.leds.brightness: there are no LEDs configured")
    path = current_app.config.get("CONFIG_PATH")
    with _save_lock:
        if path:
            try:
                save_settings(path, checked, wiring_file=current_app.config.get("WIRING_FILE"))
            except ConfigError as exc:
                raise ApiError(400, str(exc)) from None
            except OSError as exc:
                raise ApiError(500, f"the settings could not be saved to {path} ({exc.strerror}); nothing "
                                    f"was changed") from None
        if ctl is not None:
            ctl.apply(checked)
        else:
            if "serve.bot_delay" in checked:
                service().bot_delay = checked["serve.bot_delay"]
    out = _state()
    out["saved"] = bool(path)
    out["message"] = (f"Saved to {path}." if path else
                      "Changed until the companion stops: there is no config file to keep them in "
                      "(start it with --config FILE).")
    return jsonify(out)


@bp.post("/api/board/retry")
def board_retry():
    ctl = control()
    if ctl is None:
        raise ApiError(404, "this companion runs without a board control")
    status = ctl.retry()
    return jsonify(status)
