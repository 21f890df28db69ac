"""Small helpers shared by the blueprints."""
from __future__ import annotations

from flask import current_app, request

from .netinfo import is_loopback, lan_ip

SEAT_COOKIE = "pj_s_{}"
HOST_COOKIE = "pj_h_{}"
DISPLAY_COOKIE = "pj_d_{}"
ADMIN_COOKIE = "pj_admin"
COOKIE_AGE = 3 * 24 * 3600


def service():
    return current_app.extensions["pegs"]


def seat_token(gid: str) -> str | None:
    return request.cookies.get(SEAT_COOKIE.format(gid))


def host_token(gid: str) -> str | None:
    return request.cookies.get(HOST_COOKIE.format(gid))


def display_token(gid: str) -> str | None:
    return request.cookies.get(DISPLAY_COOKIE.format(gid))


def set_secret_cookie(resp, name: str, value: str) -> None:
    """HttpOnly, SameSite=Strict, whole site: what lets this phone act for its seat."""
    resp.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="Strict",
                    secure=request.is_secure, path="/")


def base_url() -> str:
    """The address phones should use: PUBLIC_URL, else this request's, with the LAN IP for localhost."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + "/"
    host = request.host
    if is_loopback(host):
        ip = lan_ip()
        if ip:
            port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else None
            host = f"{ip}:{port}" if port else ip
    return f"{request.scheme}://{host}/"
