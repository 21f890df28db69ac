"""mypy checks companion/ with the project's configuration (pyproject.toml [tool.mypy]):
default flags for the package, mypy's strict set for the fully typed modules."""
from __future__ import annotations

import tomllib
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]
STRICT = {"disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
          "disallow_any_generics", "check_untyped_defs", "warn_return_any", "no_implicit_reexport"}


def test_the_strict_set_covers_the_typed_core():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["packages"] == ["companion"]
    strict = [o for o in config["overrides"] if STRICT <= {k for k, v in o.items() if v is True}]
    assert strict, "no override has the strict flags"
    modules = set(strict[0]["module"])
    assert {"companion.errors", "companion.state", "companion.families",
            "companion.families.base"} <= modules


def test_mypy_passes_on_companion(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # `packages = ["companion"]` is found from the root
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"])
    assert status == 0, out + err
