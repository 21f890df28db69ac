"""Puts tests/ on sys.path (pytest's default "prepend" import mode adds a conftest's folder), so
test folders share helper modules such as livekit.py without importing each other's conftest."""

try:   # browser tests: a wait for the page is a ceiling against a hang, not a budget; a
    # loaded machine may take seconds to draw what a quiet one draws at once
    from playwright.sync_api import expect as _expect
    _expect.set_options(timeout=30_000)
except ImportError:
    pass
