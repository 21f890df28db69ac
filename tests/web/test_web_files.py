"""The server's files: a hostile config file, the data folder's modes whatever the umask,
damaged databases and keys found at start (never silent, never overwritten), and the
rotating backups with `pegs serve --restore`."""
from __future__ import annotations

import os

import pytest

from web import config as cfgmod
from web.cli import serve_command


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setattr(cfgmod, "DEFAULT_WIRING", str(tmp_path / "no-wiring.toml"))
    monkeypatch.setattr(cfgmod, "SYSTEM_CONFIG", tmp_path / "no-config.toml")
    monkeypatch.delenv("PEGS_CONFIG", raising=False)
    monkeypatch.delenv("PEGS_WIRING", raising=False)
    old = os.umask(0o022)   # `pegs serve` sets its own; give the next test the usual one back
    yield
    os.umask(old)


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


# --------------------------------------------------------------------------- helpers

import sqlite3  # noqa: E402
import stat  # noqa: E402
from pathlib import Path  # noqa: E402

from web.main import build_app  # noqa: E402
from web.store import (BackupKeeper, Backups, DataDirError, DamagedGame, Store,  # noqa: E402
                       open_data_dir)

SETUP = {"preset": "basic", "players": 4, "teams": 2, "names": ["Ann", "Bob", "Cy", "Di"]}


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def start(data_dir, **config):
    return build_app({"DATA_DIR": str(data_dir), "BOT_DELAY": 0.0, **config})


def stop(app):
    svc = app.extensions["pegs"]
    svc.close()
    svc.store.close()


def played(data_dir, games=2):
    """A data folder with `games` tables, seat 0 of each claimed by a phone; their ids."""
    app = start(data_dir)
    svc = app.extensions["pegs"]
    gids = []
    for _ in range(games):
        table, _ = svc.create(SETUP)
        svc.join(svc.join_code(table, 0))
        gids.append(table.gid)
    stop(app)
    return gids


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# --------------------------------------------------------------------------- file modes (point 2)

def test_the_data_folder_is_private_whatever_the_umask(tmp_path, umask_022):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    app = start(data)
    svc = app.extensions["pegs"]
    table, _ = svc.create(SETUP)              # the -wal and -shm exist now
    Backups(svc.store, data).take()
    names = {p.name for p in data.iterdir()}
    assert {"games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm", "secret.key", "backups"} <= names
    assert mode(data) == 0o700 and mode(data / "backups") == 0o700
    for folder in (data, data / "backups"):
        for f in folder.iterdir():
            if f.is_file():
                assert mode(f) == 0o600, f
    stop(app)


def test_files_left_readable_by_an_older_version_are_made_private(tmp_path, umask_022):
    data = tmp_path / "data"
    played(data, 1)
    os.chmod(data, 0o755)
    for f in data.iterdir():
        os.chmod(f, 0o644)
    app = start(data)
    assert mode(data) == 0o700
    assert all(mode(f) == 0o600 for f in data.iterdir() if f.is_file())
    stop(app)


# --------------------------------------------------------------------------- damage found at start (point 14)

def test_a_deleted_seat_claim_sets_that_game_aside_and_the_others_are_served(tmp_path):
    data = tmp_path / "data"
    damaged, fine = played(data, 2)
    with sqlite3.connect(data / "games.sqlite3") as db:
        (seq,) = db.execute("SELECT MAX(seq) FROM events WHERE game = ? AND kind = 'claim'", (damaged,)).fetchone()
        db.execute("DELETE FROM events WHERE game = ? AND seq = ?", (damaged, seq))
    app = start(data)
    svc = app.extensions["pegs"]
    assert damaged in svc.broken and "written up to event" in svc.broken[damaged]
    assert fine in svc.tables and svc.get(fine).seats[0].token_hash is not None
    c = app.test_client()
    r = c.get(f"/api/games/{damaged}/table")
    assert r.status_code == 503 and "set it aside" in r.get_json()["error"]
    assert c.get(f"/api/games/{fine}/table").status_code == 200
    stop(app)


@pytest.mark.parametrize("damage, words", [
    ("UPDATE events SET data = '{\"seat\": 0, ' WHERE game = ? AND kind = 'claim'", "not readable JSON"),
    ("DELETE FROM events WHERE game = ? AND seq = 2", "event 2 of its log is missing"),
    ("UPDATE events SET data = replace(data, '\"seat\":0', '\"seat\":1') WHERE game = ? AND kind = 'claim'",
     "not the ones written"),
    ("DELETE FROM heads WHERE game = ?", "lost its check record"),
])
def test_a_damaged_log_is_named_and_set_aside(tmp_path, damage, words):
    data = tmp_path / "data"
    damaged, fine = played(data, 2)
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute(damage, (damaged,))
    store = Store(data / "games.sqlite3")
    with pytest.raises(DamagedGame, match=words):
        store.events(damaged)
    assert store.events(fine)
    store.close()
    app = start(data)
    assert damaged in app.extensions["pegs"].broken and fine in app.extensions["pegs"].tables
    stop(app)


def test_a_lost_meta_row_does_not_adopt_a_damaged_log_as_it_is(tmp_path):
    """Logs from before the checks are adopted once, when the check records' table is new;
    a database that has it but lost its 'chained' row must not adopt a cut log again."""
    data = tmp_path / "data"
    damaged, fine = played(data, 2)
    with sqlite3.connect(data / "games.sqlite3") as db:
        (seq,) = db.execute("SELECT MAX(seq) FROM events WHERE game = ? AND kind = 'claim'", (damaged,)).fetchone()
        db.execute("DELETE FROM events WHERE game = ? AND seq = ?", (damaged, seq))
        db.execute("DELETE FROM heads WHERE game = ?", (damaged,))
        db.execute("DELETE FROM meta WHERE key = 'chained'")
    store = Store(data / "games.sqlite3")
    with pytest.raises(DamagedGame, match="lost its check record"):
        store.events(damaged)
    assert store.events(fine)
    store.close()
    app = start(data)
    assert damaged in app.extensions["pegs"].broken and fine in app.extensions["pegs"].tables
    stop(app)


def test_a_database_from_before_the_checks_is_adopted_once(tmp_path):
    data = tmp_path / "data"
    first, second = played(data, 2)
    with sqlite3.connect(data / "games.sqlite3") as db:      # as written before the heads table
        db.execute("DROP TABLE heads")
        db.execute("DELETE FROM meta WHERE key = 'chained'")
    app = start(data)
    svc = app.extensions["pegs"]
    assert not svc.broken and {first, second} <= set(svc.tables)
    stop(app)
    with sqlite3.connect(data / "games.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM heads").fetchone() == (2,)


def test_a_lost_key_fingerprint_with_another_key_stops_the_start(tmp_path):
    """Deleting meta's rows must not let a replaced key through unnoticed."""
    data = tmp_path / "data"
    played(data, 1)
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute("DELETE FROM meta")
    (data / "secret.key").write_bytes(b"w" * 32)
    with pytest.raises(DataDirError, match="fingerprint"):
        open_data_dir(data)
    assert (data / "secret.key").read_bytes() == b"w" * 32
    store, kept = open_data_dir(data, new_key=True)          # keeping it is still one word away
    assert kept == b"w" * 32
    store.close()
    store, _ = open_data_dir(data)
    store.close()


def garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database " * 400)


def half(path: Path) -> None:
    with open(path, "r+b") as fh:
        fh.truncate(os.path.getsize(path) // 2)


@pytest.mark.parametrize("damage, words", [
    (lambda p: p.write_bytes(b""), "empty"),
    (lambda p: p.unlink(), "missing"),
    (garbage, "is damaged"),
    (half, "is damaged"),
])
def test_a_damaged_or_missing_database_stops_the_start_and_is_left_as_it_is(tmp_path, capsys, damage, words):
    data = tmp_path / "data"
    played(data, 12)   # big enough that half of it is missing pages
    store, _ = open_data_dir(data)
    Backups(store, data).take()
    store.close()
    db = data / "games.sqlite3"
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{db}{suffix}").exists()   # a clean stop folded the WAL in
    damage(db)
    before = db.read_bytes() if db.exists() else None
    with pytest.raises(DataDirError, match=words):
        open_data_dir(data)
    assert (db.read_bytes() if db.exists() else None) == before
    code = serve_command(["--data-dir", str(data), "--host", "127.0.0.1", "--port", str(free_port())])
    line = one_line(capsys.readouterr().err)
    assert code == 2 and "games.sqlite3" in line and "pegs serve --restore" in line
    assert (db.read_bytes() if db.exists() else None) == before


@pytest.mark.parametrize("damage, words", [
    (lambda p: p.unlink(), "missing"),
    (lambda p: p.write_bytes(p.read_bytes()[:7]), "truncated"),
])
def test_a_missing_or_short_key_stops_the_start_when_games_use_it(tmp_path, damage, words):
    data = tmp_path / "data"
    gid, = played(data, 1)
    key = data / "secret.key"
    damage(key)
    before = key.read_bytes() if key.exists() else None
    with pytest.raises(DataDirError, match=f"secret.key is {words}.*--new-key"):
        open_data_dir(data)
    assert (key.read_bytes() if key.exists() else None) == before
    store, secret = open_data_dir(data, new_key=True)     # asked for: a new key, the old one kept aside
    assert len(secret) == 32 and key.read_bytes() == secret
    if before is not None:
        assert [p.read_bytes() for p in data.glob("secret.key.set-aside-*")] == [before]
    store.close()


def test_a_fresh_folder_starts_with_no_games(tmp_path):
    store, secret = open_data_dir(tmp_path / "new")
    assert store.games() == [] and len(secret) == 32
    store.close()
    store, again = open_data_dir(tmp_path / "new")
    assert again == secret
    store.close()


# --------------------------------------------------------------------------- backups and restore (point 14)

def test_a_backup_at_each_games_end_and_daily_the_last_few_kept(tmp_path):
    data = tmp_path / "data"
    app = start(data)
    svc = app.extensions["pegs"]
    table, host = svc.create(SETUP)
    backups = Backups(svc.store, data, keep=3)
    keeper = BackupKeeper(backups, lambda: [g for g, t in svc.tables.items() if t.status in ("over", "ended")],
                          every=3600)
    import time
    now = time.time()
    assert keeper.tick(now + 10) is not None   # none in the last day (here: hour) yet
    assert keeper.tick(now + 20) is None       # nothing new
    svc.host_action(table, host, "end", {"version": table.version})
    copy = keeper.tick(now + 30)               # the game ended
    assert copy is not None
    with sqlite3.connect(copy) as db:
        kinds = [k for (k,) in db.execute("SELECT kind FROM events WHERE game = ? ORDER BY seq", (table.gid,))]
    assert kinds[-1] == "end"
    assert keeper.tick(now + 3700) is not None  # daily
    for _ in range(4):
        backups.take()
    assert len(backups.copies()) == 3
    assert (data / "backups" / "secret.key").read_bytes() == (data / "secret.key").read_bytes()
    stop(app)


def test_restore_puts_back_the_last_good_backup_and_keeps_the_damaged_file(tmp_path, capsys):
    data = tmp_path / "data"
    gids = played(data, 2)
    store, _ = open_data_dir(data)
    Backups(store, data).take()
    store.close()
    db, key = data / "games.sqlite3", data / "secret.key"
    key_bytes = key.read_bytes()
    garbage(db)
    key.unlink()
    damaged = db.read_bytes()
    assert serve_command(["--restore", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "restored from" in out and "(2 games)" in out and "secret.key (missing) put back" in out
    assert [p.read_bytes() for p in data.glob("games.sqlite3.set-aside-*")] == [damaged]
    assert key.read_bytes() == key_bytes
    app = start(data)
    assert set(app.extensions["pegs"].tables) == set(gids) and not app.extensions["pegs"].broken
    assert mode(db) == 0o600
    stop(app)
    # nothing damaged: nothing done unless a backup is named
    assert serve_command(["--restore", "--data-dir", str(data)]) == 0
    assert "nothing to restore" in capsys.readouterr().out


def test_restore_without_a_backup_says_so_in_one_line(tmp_path, capsys):
    data = tmp_path / "data"
    played(data, 1)
    garbage(data / "games.sqlite3")
    assert serve_command(["--restore", "--data-dir", str(data)]) == 2
    assert "there is no backup" in one_line(capsys.readouterr().err)


def test_pegs_serve_names_a_set_aside_game_when_it_starts(tmp_path):
    import subprocess
    import sys
    data = tmp_path / "data"
    damaged, fine = played(data, 2)
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute("UPDATE events SET data = 'not json' WHERE game = ? AND seq = 1", (damaged,))
    proc = subprocess.Popen([sys.executable, "-m", "web", "--host", "127.0.0.1", "--port", str(free_port()),
                             "--data-dir", str(data)], cwd=Path(__file__).resolve().parents[2],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("Games are kept in"):
                break
        said = "".join(lines)
        assert f"Game {damaged} is set aside" in said and "not readable JSON" in said, said
        assert fine not in said
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_replaced_key_is_found_and_restore_puts_back_the_right_one(tmp_path, capsys):
    data = tmp_path / "data"
    gid, = played(data, 1)
    store, right = open_data_dir(data)
    Backups(store, data).take()            # keeps a copy of the key too
    store.close()
    key = data / "secret.key"
    key.write_bytes(b"w" * 32)              # another key, of the right length
    with pytest.raises(DataDirError, match="not the key the saved games' join codes were made with"):
        open_data_dir(data)
    assert key.read_bytes() == b"w" * 32
    assert serve_command(["--restore", "--data-dir", str(data)]) == 0
    assert "not the key the saved games were made with) put back" in capsys.readouterr().out
    store, again = open_data_dir(data)
    assert again == right
    store.close()
    key.write_bytes(b"n" * 32)              # or keep a new one, when asked to
    store, kept = open_data_dir(data, new_key=True)
    assert kept == b"n" * 32
    store.close()
    store, _ = open_data_dir(data)          # and from then on it is the key
    store.close()
