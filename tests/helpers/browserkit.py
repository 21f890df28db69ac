"""One headless Chromium per test process (per xdist worker), lent to each browser test.

Launching Chromium and Playwright's driver costs about a second of CPU; the browser tests
launched it 19 times. A test borrows the shared browser with `borrowed_browser()` and gets
its own contexts (cookies, storage, viewport), which are closed when it gives the browser
back; the browser itself is closed at the end of the session (tests/conftest.py)."""
from __future__ import annotations

from contextlib import contextmanager

CHROMIUM = "/usr/bin/chromium"
# the union of what the browser tests asked for (autoplay: the i18n test's turn sound)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--autoplay-policy=no-user-gesture-required"]

_playwright = None
_browser = None


def _shared():
    global _playwright, _browser
    if _browser is None or not _browser.is_connected():
        from playwright.sync_api import sync_playwright
        if _playwright is None:
            _playwright = sync_playwright().start()
        _browser = _playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    return _browser


class BorrowedBrowser:
    """The shared browser as one test sees it: the contexts it opens are its own."""

    def __init__(self, browser):
        self._browser = browser
        self._contexts = []

    def new_context(self, **options):
        ctx = self._browser.new_context(**options)
        self._contexts.append(ctx)
        return ctx

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def close(self):
        """Closes the test's contexts (and their pages); the browser stays for the next test."""
        while self._contexts:
            try:
                self._contexts.pop().close()
            except Exception:   # already closed by the test, or the browser went away
                pass

    def __getattr__(self, name):
        return getattr(self._browser, name)


@contextmanager
def borrowed_browser():
    borrowed = BorrowedBrowser(_shared())
    try:
        yield borrowed
    finally:
        borrowed.close()


def close_shared() -> None:
    global _playwright, _browser
    if _browser is not None:
        try:
            _browser.close()
        except Exception:
            pass
        _browser = None
    if _playwright is not None:
        _playwright.stop()
        _playwright = None
