"""Fixtures of the Raspberry Pi system tests; the helpers are in system_helpers.py."""
from __future__ import annotations

import shutil

import pytest

from .system_helpers import MUTATING, REPO, make_fake_root

# What install.sh installs from a project checkout.
PROJECT_FILES = ["pyproject.toml", "README.md", "companion", "hardware", "vision", "web"]


@pytest.fixture
def fake_root(tmp_path):
    return make_fake_root(tmp_path / "root")


@pytest.fixture
def shims(tmp_path):
    """A directory of failing, logging stand-ins for MUTATING; (dir, log file)."""
    d = tmp_path / "shims"
    d.mkdir()
    log = tmp_path / "shim-calls.log"
    for name in MUTATING:
        p = d / name
        p.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\necho "shim: {name} must not run" >&2\nexit 97\n')
        p.chmod(0o755)
    return d, log


@pytest.fixture(scope="session")
def source_copy(tmp_path_factory):
    """A frozen copy of the project to install from (--source): the checkout may
    change while the tests run, and a changed source is rightly reinstalled."""
    dest = tmp_path_factory.mktemp("source") / "pegs-companion"
    dest.mkdir()
    for name in PROJECT_FILES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.exists():
            shutil.copy2(src, dest / name)
    return dest
