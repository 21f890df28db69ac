"""The web tests' fixtures live in webkit.py (importable by a unique name)."""
from .webkit import *  # noqa: F401,F403  (fixtures: app, client, live, no_server_errors)
