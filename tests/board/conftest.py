"""Fixtures for the board-referee tests (helpers live in boardkit.py)."""
from __future__ import annotations

import warnings

import pytest

warnings.filterwarnings("ignore", module="gpiozero")   # pin-factory fallback chatter on a PC


@pytest.fixture
def rigs():
    """make(**kw) -> boardkit.Rig; every rig (and its emulated board) is closed afterwards."""
    from .boardkit import Rig
    made = []

    def make(*args, **kw):
        rig = Rig(*args, **kw)
        made.append(rig)
        return rig
    yield make
    for rig in made:
        rig.close()


@pytest.fixture(autouse=True)
def no_board_errors(caplog):
    """No test may leave an unexpected error in the board's or the web's log."""
    yield
    bad = [r for r in caplog.get_records("call") if r.name.startswith("web") and r.levelname == "ERROR"]
    assert not bad, [r.getMessage() for r in bad]
