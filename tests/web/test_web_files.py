"""The server's files: a hostile config file, the data folder's modes whatever the umask,
damaged databases and keys found at start (never silent, never overwritten), and the
rotating backups with `pegs serve --restore`."""
from __future__ import annotations

import pytest

from web import config as cfgmod
from web.cli import serve_command


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setattr(cfgmod, "DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))
    monkeypatch.setattr(cfgmod, "SYSTEM_CONFIG", tmp_path / "no-config.toml")
    monkeypatch.delenv("PEGS_CONFIG", raising=False)
    monkeypatch.delenv("PEGS_WIRING", raising=False)


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# --------------------------------------------------------------------------- the config file

@pytest.mark.parametrize("content, words", [
    (b'[serve]\nhost = "\xff\xfe"\n', "not UTF-8"),
    (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
])
def test_serve_check_on_a_hostile_config_file(tmp_path, capsys, content, words):
    path = tmp_path / "c.toml"
    path.write_bytes(content)
    code = serve_command(["--check", "--config", str(path), "--data-dir", str(tmp_path / "data")])
    assert code == 2
    line = one_line(capsys.readouterr().err)
    assert words in line and str(path) in line
