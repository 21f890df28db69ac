"""The durable side of the referee: one append-only event log per game in SQLite.

A game is never stored as a snapshot. Its log holds, in order, the table's
creation (set-up), every shuffle's resulting order, every action, undo,
pause, seat change, bot assignment and the end, so replaying the log in a
fresh process gives back exactly the game that was running (hands and stock
included). `web.tables` writes the events of an action *before* the action is
acknowledged or broadcast.

Durability settings: WAL journal with ``synchronous=FULL``. In WAL mode
``NORMAL`` already survives the process being killed (``kill -9``): a
committed transaction is in the WAL file, which the OS holds. It does not
survive a power cut, and the Raspberry Pi at the table is one pulled plug
away from that; ``FULL`` syncs the WAL on every commit, a few milliseconds on
an SD card, at the pace of human turns.

Damage is never silent. `open_data_dir` checks the folder at start: the
database with ``PRAGMA quick_check``, the key beside it, and refuses to start
(`DataDirError`, one line naming the file and what to do) rather than
overwrite either. Each game's log carries its own check: ``heads`` holds, per
game, the last seq and a SHA-256 chain over every event, written in the same
transaction as the events, so a deleted, edited or unparsable row (a seat
claim removed with the sqlite3 shell, say) makes `events` raise `DamagedGame`
and that one game is set aside. `Backups` keeps the last few copies made with
SQLite's online backup API; `restore` puts one back (both in `web.data_dir`).

Everything in the data folder is the owner's alone (folder 0700, files 0600):
the shuffles in the log are every hand of every game.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path

DB_NAME = "games.sqlite3"
SECRET_NAME = "secret.key"
BACKUP_DIR = "backups"
KEEP_BACKUPS = 7
KEY_BYTES = 32

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS heads (
    game TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    chain TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
"""


class StoreError(RuntimeError):
    """The log could not be written (disk full, read-only, ...)."""


class DamagedGame(StoreError):
    """One game's log is not what was written: the game is set aside, the others served."""

    def __init__(self, game: str, reason: str):
        self.game, self.reason = game, reason
        super().__init__(f"game {game}: {reason}")


class DataDirError(RuntimeError):
    """The data folder can't be used as it is; str() is one line naming the file and what to do."""

    def __init__(self, message: str, problem: str | None = None):
        super().__init__(message)
        self.problem = problem   # the damage alone, without the advice


# --------------------------------------------------------------------------- file modes

@contextlib.contextmanager
def private_umask():
    """Files and folders made meanwhile are the owner's alone, whatever the umask."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def make_private(folder: str | os.PathLike) -> None:
    """The folder 0700 and every file in it (and in its backups) 0600."""
    folder = Path(folder)
    with private_umask():
        folder.mkdir(parents=True, exist_ok=True)
    for d in (folder, folder / BACKUP_DIR):
        if not d.is_dir():
            continue
        os.chmod(d, 0o700)
        for f in d.iterdir():
            if f.is_file() and not f.is_symlink():
                os.chmod(f, 0o600)


def _chain(prev: str, seq: int, kind: str, data: str) -> str:
    return hashlib.sha256(f"{prev}\n{seq}\n{kind}\n{data}".encode()).hexdigest()


def _first_problem(db: sqlite3.Connection) -> str | None:
    """None if SQLite's quick_check passes, else its first complaint."""
    rows = db.execute("PRAGMA quick_check").fetchall()
    if rows == [("ok",)]:
        return None
    return str(rows[0][0]) if rows else "quick_check said nothing"


# --------------------------------------------------------------------------- the log

class Store:
    """Thread-safe SQLite event store (one connection, serialised by a lock).

    A file that SQLite finds damaged raises DataDirError here, before anything
    is written to it."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        self._heads: dict[str, tuple[int, str]] = {}
        self.had_checks = True
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(self.path + suffix):
                    os.chmod(self.path + suffix, 0o600)
        try:
            with private_umask():   # the -wal and -shm SQLite makes are 0600 too
                self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                problem = _first_problem(self._db)
                if problem is None:
                    self._db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            problem = str(exc)
        if problem is not None:
            with contextlib.suppress(Exception):
                self._db.close()
            raise DataDirError(
                f"{self.path} is damaged ({problem}); it was left as it is. Put back the last good copy "
                f"with `pegs serve --restore` (copies in {Path(self.path).parent / BACKUP_DIR}), or move "
                f"it away to start with no games", problem)
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=5000")
        try:
            self._prepare()
        except sqlite3.Error as exc:
            self._db.close()
            raise DataDirError(f"{self.path} can't be written ({exc}): is the disk full or read-only?",
                               str(exc)) from None

    def _prepare(self) -> None:
        """The tables, logs from before the checks adopted, the check records read."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                had_heads = self._db.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'heads'").fetchone() is not None
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self.had_checks = had_heads   # written by a version with the checks (else adopted now)
                if self._db.execute("SELECT value FROM meta WHERE key = 'chained'").fetchone() is None:
                    if had_heads:   # the mark was lost, not a log from before the checks: check, don't adopt
                        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('chained', '1')")
                    else:
                        self._adopt_unchained()
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            for game, seq, chain in self._db.execute("SELECT game, seq, chain FROM heads"):
                self._heads[game] = (seq, chain)

    def _adopt_unchained(self) -> None:
        """A log written before the checks existed: chain what is there, once (lock held)."""
        for (game,) in self._db.execute("SELECT DISTINCT game FROM events").fetchall():
            chain, last = "", 0
            for seq, kind, data in self._db.execute(
                    "SELECT seq, kind, data FROM events WHERE game = ? ORDER BY seq", (game,)):
                chain, last = _chain(chain, seq, kind, data), seq
            self._db.execute("INSERT OR REPLACE INTO heads (game, seq, chain) VALUES (?, ?, ?)",
                             (game, last, chain))
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('chained', '1')")

    def append(self, game: str, first_seq: int, events: list[tuple[str, dict]]) -> int:
        """Write `events` as seq first_seq, first_seq+1, ... in one transaction.

        Returns the last seq. A seq that already exists (two writers racing,
        which the per-game lock prevents) raises StoreError and writes nothing.
        """
        now = time.time()
        rows = [(game, first_seq + i, kind, json.dumps(data, separators=(",", ":")), now)
                for i, (kind, data) in enumerate(events)]
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    seq, chain = self._heads.get(game, (0, ""))
                    if seq != first_seq - 1:
                        raise StoreError(f"game {game}: the log ends at {seq}, not {first_seq - 1}")
                    for _, s, kind, data, _ in rows:
                        chain = _chain(chain, s, kind, data)
                    self._db.executemany(
                        "INSERT INTO events (game, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)", rows)
                    self._db.execute("INSERT OR REPLACE INTO heads (game, seq, chain) VALUES (?, ?, ?)",
                                     (game, rows[-1][1], chain))
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StoreError(f"could not save the game: {exc}") from exc
            self._heads[game] = (rows[-1][1], chain)
        return first_seq + len(events) - 1

    def events(self, game: str) -> list[tuple[int, str, dict]]:
        """The game's log, checked: DamagedGame if a row is missing, edited or unreadable."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, data FROM events WHERE game = ? ORDER BY seq", (game,)).fetchall()
            head = self._db.execute("SELECT seq, chain FROM heads WHERE game = ?", (game,)).fetchone()
        out, chain = [], ""
        for expected, (seq, kind, data) in enumerate(rows, start=1):
            if seq != expected:
                raise DamagedGame(game, f"event {expected} of its log is missing")
            chain = _chain(chain, seq, kind, data)
            try:
                parsed = json.loads(data)
            except (ValueError, RecursionError):
                raise DamagedGame(game, f"event {seq} of its log is not readable JSON") from None
            if not isinstance(parsed, dict):
                raise DamagedGame(game, f"event {seq} of its log is not an object")
            out.append((seq, kind, parsed))
        if head is None:
            if rows:
                raise DamagedGame(game, "its log has lost its check record (heads)")
        elif head[0] != len(rows):
            raise DamagedGame(game, f"its log was written up to event {head[0]} but holds {len(rows)}")
        elif head[1] != chain:
            raise DamagedGame(game, "its log's events are not the ones written (the check chain differs)")
        return out

    def games(self) -> list[str]:
        """Game ids, oldest first (every game with a log or a check record)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game, MIN(at) FROM events GROUP BY game "
                "UNION SELECT game, NULL FROM heads WHERE game NOT IN (SELECT game FROM events) "
                "ORDER BY 2, 1").fetchall()
        return [r[0] for r in rows]

    def meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            try:
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
            except sqlite3.Error as exc:
                raise StoreError(f"could not save: {exc}") from exc

    def count_games(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(DISTINCT game) FROM events").fetchone()[0]

    def backup_to(self, dest: str | os.PathLike) -> None:
        """A consistent copy of the whole database (SQLite's online backup), 0600, fsynced."""
        dest = str(dest)
        os.close(os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        target = sqlite3.connect(dest, isolation_level=None)
        try:
            with self._lock:
                self._db.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")   # one self-contained file
        finally:
            target.close()
        fd = os.open(dest, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def close(self) -> None:
        with self._lock:
            self._db.close()


# --------------------------------------------------------------------------- the data folder

LOCK_NAME = "companion.lock"
SQLITE_HEADER = b"SQLite format 3\x00"


# The data folder's names, kept importable from here (web.data_dir imports this module,
# so they are looked up when first asked for).
_DATA_DIR = ("DataDirLock", "open_data_dir", "Backups", "BackupKeeper", "restore")


def __getattr__(name: str):
    if name in _DATA_DIR:
        from . import data_dir
        return getattr(data_dir, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
