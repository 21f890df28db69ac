"""mypy checks companion/ with the project's configuration (pyproject.toml [tool.mypy]):
mypy's strict set for every module of companion/ (issue 24)."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]
STRICT = {"disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
          "disallow_any_generics", "check_untyped_defs", "warn_return_any", "no_implicit_reexport"}


def test_the_strict_set_covers_every_module_of_companion():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["packages"] == ["companion"]
    strict = [o for o in config["overrides"] if STRICT <= {k for k, v in o.items() if v is True}]
    assert strict, "no override has the strict flags"
    patterns = strict[0]["module"]
    modules = ["companion" + "".join(f".{p}" for p in f.relative_to(ROOT / "companion").with_suffix("").parts)
               for f in (ROOT / "companion").rglob("*.py")]
    names = [m.removesuffix(".__init__") for m in modules]
    uncovered = [m for m in names if m not in patterns and not any(
        p.endswith(".*") and m.startswith(p[:-1]) for p in patterns)]
    assert uncovered == [], f"companion modules outside the strict set: {uncovered}"
    assert not [o for o in config["overrides"] if o.get("ignore_errors")
                and any(str(m).startswith("companion") for m in o["module"])], "a companion module ignores errors"


def test_mypy_passes_on_companion(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # `packages = ["companion"]` is found from the root
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                    "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"])
    finally:   # mypy raises the limit for itself; the tests after it in this process keep Python's
        # (test_web_files' 5,000-deep TOML must still end in RecursionError)
        sys.setrecursionlimit(limit)
    assert status == 0, out + err
