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


# ---- scheduling (issue 24: the README's command in 4 minutes on 2 cores)
# pytest-xdist hands a worker a whole file at a time (--dist loadfile) and, unless told
# otherwise, the files with the most tests first: the few-test files that take longest
# (a whole game through the browser or the HTTP API, the fuzzer) came last, and one
# worker ran one of them while the others had finished. These files, the longest
# measured (wall time of the fast suite, 2 workers, 2026-11-27: 15-130 s each, half of
# the run), go first; every other file follows in collection order
# (pyproject's addopts: --no-loadscope-reorder). A file missing here is only scheduled
# later; a name here that no longer exists is ignored.
LONGEST_FIRST = (
    "companion/test_bots_strong.py", "vision/test_vision_hard.py", "companion/test_playouts.py",
    "vision/test_vision_camera_page.py", "companion/families/pegs/test_reference.py",
    "vision/test_vision_calibration.py", "web/test_web_browser_related.py",
    "web/test_web_browser_phone.py", "web/test_web_durability.py", "vision/test_vision_detect.py",
    "companion/test_golden.py", "web/test_web_privacy.py", "companion/test_properties.py",
    "hardware/test_hw_cli.py", "vision/test_vision_pathtraced.py", "web/test_web_shared_wifi.py",
    "board/test_board_browser.py", "board/test_board_games.py", "web/test_web_fuzz.py",
    "vision/test_vision_tracker.py", "companion/test_simulate.py", "web/test_web_browser_i18n.py",
    "companion/families/tock/test_related_differential.py", "web/test_web_browser_table_flow.py",
    "companion/test_matching.py", "companion/test_layers.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {"tests/" + name: i for i, name in enumerate(LONGEST_FIRST)}
    root = config.rootpath
    def file_rank(item):
        path = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        return rank.get(path, len(rank))
    items.sort(key=file_rank)   # stable: a file's tests keep their order


def pytest_xdist_auto_num_workers(config):
    """-n auto: one and a half workers a core (3 on 2 cores). A third of a worker's time in
    the fast suite is spent waiting (browser pages, live servers, subprocesses: 250-320 s
    a worker measured at load 13-17, from the main thread's schedstat), when another
    worker can use the core. PYTEST_XDIST_AUTO_NUM_WORKERS still decides when it is set."""
    import os
    env = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if env:
        return int(env)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:   # (not on Linux)
        cores = os.cpu_count() or 1
    return cores + max(1, cores // 2)
