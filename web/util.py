"""Small helpers shared by the blueprints."""
from __future__ import annotations

from flask import current_app, request

from .netinfo import phone_host

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
    """The address phones should use: PUBLIC_URL, else this request's, with the LAN IP
    for localhost when the server listens on every interface (BIND_HOST)."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + "/"
    return f"{request.scheme}://{phone_host(request.host, current_app.config.get('BIND_HOST'))}/"
