"""Phones on the LAN, on loopback only (issue 22): the tests' clients bind to 127.0.0.N and,
for N >= 10, the app sees them as phones on the Wi-Fi (10.22.0.N), not as the companion
itself (which loopback is: the admin). `LanPhones` is a WSGI wrapper installed as Flask's
``app.wsgi_app`` (test-only: the product has no such switch); `GuardedServer` runs the app
under the real `pegs serve` waitress server (web.server.create_guarded_server) in a thread;
`lan_serve` starts `python -m web` itself in a subprocess with the wrapper installed."""
from __future__ import annotations

import socket
import subprocess
import sys

from ..helpers.livekit import LiveServer
from pathlib import Path

from web.server import create_guarded_server

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def lan_address(addr: str | None) -> str | None:
    """127.0.0.N (N >= 10) -> 10.22.0.N; anything else as it is."""
    if addr and addr.startswith("127.0.0."):
        n = addr.rsplit(".", 1)[1]
        if n.isdigit() and int(n) >= 10:
            return f"10.22.0.{n}"
    return addr


class LanPhones:
    """WSGI middleware: requests from 127.0.0.N, N >= 10, come from the LAN."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        environ["REMOTE_ADDR"] = lan_address(environ.get("REMOTE_ADDR"))
        return self.wsgi_app(environ, start_response)


def on_the_lan(app):
    app.wsgi_app = LanPhones(app.wsgi_app)
    return app


class GuardedServer(LiveServer):
    """The app under `create_guarded_server` (as `pegs serve` runs it) in a thread."""

    def _make_server(self, app, threads: int, **limits):
        return create_guarded_server(app, "127.0.0.1", 0, threads=threads, **limits)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


LAN_SERVE = """
import sys
sys.path.insert(0, {root!r})   # a subprocess of its own: the checkout, where tests/ is a package
import web.server
from tests.web.lankit import on_the_lan
build = web.server.build_app
web.server.build_app = lambda config: on_the_lan(build(config))
from web.cli import serve_command
sys.exit(serve_command(sys.argv[1:]))
"""


def lan_serve(*args, **popen) -> subprocess.Popen:
    """`pegs serve ARGS` (python -m web) in a subprocess, its LAN phones as above."""
    popen.setdefault("stdout", subprocess.PIPE)
    popen.setdefault("stderr", subprocess.STDOUT)
    return subprocess.Popen([sys.executable, "-c", LAN_SERVE.format(root=str(ROOT)), *args],
                            cwd=ROOT, text=True, **popen)
