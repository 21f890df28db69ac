"""The one config file (web/config.py): good and bad files, every key documented,
messages that name the key, and changes written atomically with comments kept."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hardware.config import load_wiring
from web import config as cfgmod
from web.config import SETTINGS, ConfigError, atomic_write, check_web_change, load_settings, save_settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "systemd" / "config.example.toml"
WIRING_EXAMPLE = ROOT / "hardware" / "wiring.example.toml"


def documented_keys(text: str) -> set[str]:
    """The keys a documented example config names (``key = ...`` lines, commented or not,
    under their ``[table]`` headers)."""
    keys, table = set(), ""
    for raw in text.splitlines():
        line = raw.lstrip("# ").strip()
        if line.startswith("[") and line.endswith("]") and not line.startswith("[["):
            table = line.strip("[]").strip()
        elif "=" in line and not line.startswith(("(", "-")):
            name = line.split("=", 1)[0].strip()
            if name.replace("_", "").isalnum():
                keys.add(f"{table}.{name}" if table else name)
    return keys


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setattr(cfgmod, "DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))
    monkeypatch.setattr(cfgmod, "SYSTEM_CONFIG", tmp_path / "no-config.toml")


def load(tmp_path, text, overrides=None, name="config.toml"):
    path = tmp_path / name
    path.write_text(text)
    return load_settings(str(path), overrides, env={"PEGS_DATA_DIR": str(tmp_path / "data")})


# --------------------------------------------------------------------------- good files

def test_an_empty_file_and_no_file_give_the_defaults(tmp_path):
    s = load(tmp_path, "")
    for setting in SETTINGS:
        if setting.key not in ("serve.data_dir", "board.mode", "serve.bot_think_ms"):
            assert s[setting.key] == setting.default, setting.key
    assert s["board.mode"] == "simulation" and s["wiring"] is None
    assert s["serve.data_dir"] == str(tmp_path / "data")
    assert load_settings(None, env={"PEGS_DATA_DIR": str(tmp_path / "x")})["serve.port"] == 8000


@pytest.mark.parametrize("model, ms", [
    (None, 140),                                            # not a Pi: the bot's own default
    ("Raspberry Pi 4 Model B Rev 1.5", 140),
    ("Raspberry Pi 5 Model B Rev 1.0", 140),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", 300),
    ("Raspberry Pi 3 Model B Rev 1.2", 300),
    ("Raspberry Pi Zero 2 W Rev 1.0", 400),
])
def test_the_hard_bots_budget_defaults_by_the_pi_model(tmp_path, monkeypatch, model, ms):
    from companion.strong import DEFAULT_THINK_MS
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model.encode() + b"\0")     # as the device tree has it
    monkeypatch.setattr(cfgmod, "PI_MODEL_FILE", model_file)
    assert cfgmod.pi_model() == model
    assert load(tmp_path, "")["serve.bot_think_ms"] == ms
    assert DEFAULT_THINK_MS == 140
    # the file and the command line win over the model's default
    assert load(tmp_path, "[serve]\nbot_think_ms = 90\n")["serve.bot_think_ms"] == 90
    assert load(tmp_path, "", overrides={"serve.bot_think_ms": "600"})["serve.bot_think_ms"] == 600
    with pytest.raises(ConfigError, match="serve.bot_think_ms: must be a whole number 10-3000, not 5"):
        load(tmp_path, "[serve]\nbot_think_ms = 5\n")


def test_pegs_serve_passes_the_budget_to_the_bots(tmp_path):
    from web.cli import resolve
    from web.server import _build
    conf = resolve(["--bot-think-ms", "250", "--data-dir", str(tmp_path / "data"), "--board", "none"])
    assert conf["bot_think_ms"] == 250
    app = _build(conf, conf["board"])
    try:
        service = app.extensions["pegs"]
        assert service.bot_think_ms == 250 and service._think() == {"think_ms": 250}
    finally:
        app.extensions["pegs"].close()


def test_the_documented_example_loads_as_the_defaults(tmp_path):
    s = load_settings(str(EXAMPLE), env={"PEGS_DATA_DIR": str(tmp_path)})
    assert s["board.mode"] == "simulation"      # its [wiring] headers alone are not a wiring
    assert s["wiring"] is None and s["serve.port"] == 8000


def test_every_key_is_documented_in_the_example():
    documented = documented_keys(EXAMPLE.read_text())
    for setting in SETTINGS:
        assert setting.key in documented, f"{setting.key} is missing from {EXAMPLE.name}"
        if setting.web:
            line = next(ln for ln in EXAMPLE.read_text().splitlines()
                        if ln.lstrip("# ").startswith(setting.key.split(".")[1] + " "))
            assert "[page]" in line, f"{setting.key} can be changed on the settings page: mark it [page]"
    # and every wiring key, under [wiring...]
    wiring_keys = {k for k in documented_keys(WIRING_EXAMPLE.read_text())
                   if not k.startswith(("leds.map", "sensors.map"))}
    missing = sorted(k for k in wiring_keys if f"wiring.{k}" not in documented)
    assert not missing, f"wiring keys not in {EXAMPLE.name}: {missing}"
    # no documented key that the loader would refuse
    unknown = sorted(k for k in documented if not k.startswith("wiring") and k not in cfgmod.BY_KEY)
    assert not unknown


def test_only_what_differs_and_where_each_value_comes_from(tmp_path):
    s = load(tmp_path, '[serve]\nport = 8123\nbot_delay = 2\n[board]\nsettle_seconds = 1.5\n',
             overrides={"serve.port": "9000", "serve.host": None})
    assert s["serve.port"] == 9000            # the command line wins
    assert s["serve.bot_delay"] == 2.0 and s["board.settle_seconds"] == 1.5
    assert s["serve.host"] == "0.0.0.0"       # not given anywhere: the default


def test_the_wiring_inline_or_in_its_own_file(tmp_path):
    s = load(tmp_path, '[wiring.board]\nsides = 6\n[wiring.leds]\nbrightness = 0.3\n')
    assert s["board.mode"] == "sensors"       # a wiring means a real board
    assert s["wiring"].board.sides == 6 and s["wiring"].leds.brightness == 0.3
    assert s["wiring_source"].endswith("config.toml [wiring]") and s["board.wiring"] is None
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "w.toml").write_text("[board]\nsides = 8\n")
    s = load(tmp_path, '[board]\nwiring = "sub/w.toml"\nmode = "leds"\n')
    assert s["board.wiring"] == str(tmp_path / "sub" / "w.toml")      # relative to the config file
    assert s["wiring"].board.sides == 8 and s["board.mode"] == "leds"


def test_wiring_from_the_environment(tmp_path):
    w = tmp_path / "env-wiring.toml"
    w.write_text("[board]\nsides = 10\n")
    path = tmp_path / "c.toml"
    path.write_text("")
    s = load_settings(str(path), env={"PEGS_WIRING": str(w), "PEGS_DATA_DIR": str(tmp_path)})
    assert s["wiring"].board.sides == 10 and s["board.mode"] == "sensors"


# --------------------------------------------------------------------------- bad files

@pytest.mark.parametrize("text, words", [
    ("[serve]\nport = 'x'\n", "serve.port: must be a whole number 1-65535, not 'x'"),
    ("[serve]\nport = 0\n", "serve.port: must be a whole number 1-65535, not 0"),
    ("[serve]\nthreads = true\n", "serve.threads: must be a whole number 16-512, not True"),
    ("[serve]\nbot_delay = 31\n", "serve.bot_delay: must be a number from 0 to 30 seconds, not 31"),
    ("[serve]\npublic_url = 'pegs.local'\n", "serve.public_url: must be an address starting with http://"),
    ("[serve]\nadmin_code = '123'\n", "serve.admin_code: must be at least 6 characters"),
    ("[serve]\ncolour = 1\n", "serve.colour: unknown key; [serve] has serve.host, serve.port"),
    ("port = 8000\n", "port: unknown key; the tables are [serve], [board], [wiring] and [camera] (did you mean serve.port"),
    ("serve = 1\n", "serve: must be a table ([serve]), not 1"),
    ("[board]\nmode = 'magic'\n", "board.mode: must be one of simulation, sensors, leds, camera, none, not 'magic'"),
    ("[wiring.leds]\ndata_pin = 99\n", "wiring.leds.data_pin:"),
    ("[wiring]\nmock = true\n[board]\nwiring = 'w.toml'\n", "board.wiring: the config file has a [wiring] table too"),
    ("[serve]\nport = \n", "not valid TOML"),
])
def test_bad_files_name_the_key_on_one_line(tmp_path, text, words):
    with pytest.raises(ConfigError) as e:
        load(tmp_path, text)
    assert words in str(e.value)
    assert "\n" not in str(e.value) and str(tmp_path / "config.toml") in str(e.value)


def test_every_problem_is_reported_at_once(tmp_path):
    with pytest.raises(ConfigError) as e:
        load(tmp_path, "[serve]\nport = -1\nthreads = 1\n[board]\nsettle_seconds = 99\nmood = 'x'\n")
    keys = [p.split(":")[0] for p in e.value.problems]
    assert keys == ["board.mood", "serve.port", "serve.threads", "board.settle_seconds"]


def test_a_missing_file_and_an_unusable_data_dir(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        load_settings(str(tmp_path / "nope.toml"))
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match=r"serve.data_dir: .*file/games is not usable"):
        load(tmp_path, f'[serve]\ndata_dir = "{tmp_path / "file" / "games"}"\n')


def test_pegs_serve_check_prints_the_settings_or_the_problem(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PEGS_CONFIG", "PEGS_WIRING")}
    path = tmp_path / "c.toml"
    path.write_text('[serve]\nport = 8124\nadmin_code = "secret-code"\n')
    r = subprocess.run([sys.executable, "-m", "web", "--config", str(path), "--check", "--data-dir", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=30, env=env)
    assert r.returncode == 0, r.stderr
    assert "serve.port = 8124" in r.stdout and "secret-code" not in r.stdout and "(set)" in r.stdout
    path.write_text('[board]\nsettle_seconds = "soon"\n')
    r = subprocess.run([sys.executable, "-m", "web", "--config", str(path), "--check"],
                       cwd=ROOT, capture_output=True, text=True, timeout=30, env=env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "board.settle_seconds:" in r.stderr


def test_pegs_serve_reads_pegs_config_without_the_option(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[serve]\nport = 8125\n')
    env = {**os.environ, "PEGS_CONFIG": str(path)}
    env.pop("PEGS_WIRING", None)
    r = subprocess.run([sys.executable, "-m", "web", "--check", "--data-dir", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=30, env=env)
    assert r.returncode == 0 and "serve.port = 8125" in r.stdout and str(path) in r.stdout


# --------------------------------------------------------------------------- writing

MINE = """# my companion
[serve]
port = 8001   # the router forwards this one

[board]
# I like it quick
settle_seconds = 0.5
"""


def test_saving_keeps_comments_and_other_keys(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(MINE)
    os.chmod(path, 0o640)
    save_settings(path, {"board.settle_seconds": 1.25, "serve.bot_delay": 2.0, "board.mode": "none"})
    text = path.read_text()
    assert "# my companion" in text and "# the router forwards this one" in text and "# I like it quick" in text
    data = tomllib.loads(text)
    assert data == {"serve": {"port": 8001, "bot_delay": 2.0}, "board": {"settle_seconds": 1.25, "mode": "none"}}
    assert (path.stat().st_mode & 0o777) == 0o640           # the file keeps its permissions
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]   # no temporary file left
    s = load_settings(str(path), env={"PEGS_DATA_DIR": str(tmp_path / "d")})
    assert s["board.settle_seconds"] == 1.25 and s["board.mode"] == "none"


def test_saving_creates_a_missing_file_and_writes_brightness_where_the_wiring_is(tmp_path):
    path = tmp_path / "new.toml"
    save_settings(path, {"serve.bot_delay": 0.2})
    assert tomllib.loads(path.read_text()) == {"serve": {"bot_delay": 0.2}}
    save_settings(path, {"wiring.leds.brightness": 0.25})
    assert tomllib.loads(path.read_text())["wiring"] == {"leds": {"brightness": 0.25}}
    w = tmp_path / "wiring.toml"
    w.write_text("# my strip\n[leds]\ndata_pin = 21\n")
    save_settings(path, {"wiring.leds.brightness": 0.75}, wiring_file=str(w))
    assert "# my strip" in w.read_text() and load_wiring(str(w)).leds.brightness == 0.75
    assert tomllib.loads(path.read_text())["wiring"] == {"leds": {"brightness": 0.25}}   # untouched


@pytest.mark.parametrize("key, value, words", [
    ("serve.port", 9000, "serve.port: can't be changed from the settings page"),
    ("board.settle_seconds", 0, "board.settle_seconds: must be a number from 0.1 to 10 seconds"),
    ("board.mode", "cam", "board.mode: must be one of"),
    ("wiring.leds.brightness", 2, "wiring.leds.brightness: must be a number from 0 to 1"),
    ("serve.bot_delay", "fast", "serve.bot_delay: must be"),
])
def test_page_changes_are_checked_with_the_key(key, value, words):
    with pytest.raises(ConfigError) as e:
        check_web_change(key, value)
    assert words in str(e.value)


def test_a_change_that_would_not_load_is_refused_and_the_file_kept(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[serve]\nport = 8000\nmystery = 1\n")   # already broken by hand
    before = path.read_text()
    with pytest.raises(ConfigError, match="serve.mystery: unknown key"):
        save_settings(path, {"serve.bot_delay": 1.0})
    assert path.read_text() == before


def test_a_crash_while_writing_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text(MINE)

    def power_cut(src, dst):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(cfgmod.os, "replace", power_cut)
    with pytest.raises(OSError):
        save_settings(path, {"board.settle_seconds": 2.0})
    assert path.read_text() == MINE
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]   # the temporary file is removed


def test_atomic_write_replaces_by_rename(tmp_path, monkeypatch):
    path = tmp_path / "f.toml"
    path.write_text("old")
    seen = []
    real_replace = os.replace

    def spy(src, dst):
        seen.append((Path(src).parent, Path(src).read_text(), Path(dst)))
        return real_replace(src, dst)
    monkeypatch.setattr(cfgmod.os, "replace", spy)
    atomic_write(path, "new")
    assert seen == [(tmp_path, "new", path)] and path.read_text() == "new"
