"""tests/ is a package: a folder's helpers are imported relatively (from .webkit import ...),
shared ones from tests.helpers (tests.helpers.livekit); nothing is put on sys.path by hand.
the engine's rule tests follow the families (tests/companion/families/pegs, .../tock)."""

try:   # browser tests: a wait for the page is a ceiling against a hang, not a budget; a
    # loaded machine may take seconds to draw what a quiet one draws at once
    from playwright.sync_api import expect as _expect
    _expect.set_options(timeout=30_000)
except ImportError:
    pass


def pytest_sessionfinish(session):
    """The worker's shared browser (tests.helpers.browserkit), if a test borrowed it."""
    import sys
    kit = sys.modules.get("tests.helpers.browserkit")
    if kit is not None:
        kit.close_shared()
