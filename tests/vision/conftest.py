"""Shared fixtures for the vision tests: a standard 4-sided layout and calibrated scenes.

Without OpenCV/NumPy (the ``vision`` extra) the test modules that need them skip
themselves; the layout tests (pure Python) still run.
"""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def layout4():
    from vision.layout import standard_layout
    return standard_layout(4)


@pytest.fixture(scope="session")
def calibrated(layout4):
    """level -> list of (scene, calibration) for a few random camera set-ups."""
    from vision.calibration import calibrate
    from vision.render import make_scene, render_scene, setup_pegs
    cache = {}

    def get(level, sessions=1, first_seed=100):
        key = (level, sessions, first_seed)
        if key not in cache:
            out = []
            for k in range(sessions):
                scene = make_scene(layout4, level, first_seed + k)
                setup = render_scene(scene, setup_pegs(layout4), seed=k)
                out.append((scene, calibrate(setup, layout4)))
            cache[key] = out
        return cache[key]
    return get
