"""companion/ is pure: the rules, the referee's decisions and the camera scoring import only
the standard library and companion itself (no flask, gpiozero, numpy, cv2, hardware, vision, web)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

COMPANION = Path(__file__).resolve().parents[2] / "companion"


# rglob: the rule families live in subfolders (companion/families/...), which glob would skip
MODULES = sorted(p for p in COMPANION.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_walk_reaches_subfolders():
    assert any(p.parent != COMPANION for p in MODULES), "rglob found no module in a subfolder"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(COMPANION)))
def test_companion_imports_only_the_standard_library(path):
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:        # relative: companion itself
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top != "companion" and top not in sys.stdlib_module_names:
                bad.append(name)
    assert not bad, f"{path.relative_to(COMPANION)} imports {bad}"
