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
SQLite's online backup API; `restore` puts one back.

Everything in the data folder is the owner's alone (folder 0700, files 0600):
the shuffles in the log are every hand of every game.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
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


class DataDirLock:
    """An exclusive lock (fcntl.flock) on the data folder, held while a companion uses it:
    `pegs serve` for its life, `pegs serve --restore` while it restores. The kernel lets
    it go when the process ends, however it ends (kill -9, a power cut), so it never
    needs clearing by hand. DataDirError (one line) if another process holds it."""

    def __init__(self, data_dir: str | os.PathLike, doing: str = "serve"):
        import fcntl
        data_dir = Path(data_dir)
        make_private(data_dir)
        self.path = data_dir / LOCK_NAME
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                held = os.pread(fd, 200, 0).decode("ascii", "replace").split()
            except OSError:
                held = []
            os.close(fd)
            who = f" (pid {held[0]}: {' '.join(held[1:])})" if held else ""
            raise DataDirError(f"a companion is running on {data_dir}{who}; stop it first "
                               f"(sudo systemctl stop pegs-companion)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} pegs serve{' --restore' if doing == 'restore' else ''}\n".encode(), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)   # closing the descriptor drops the flock
            self.fd = None


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_private(path: Path, data: bytes) -> None:
    """Replace `path` with `data` (0600): a temporary file beside it, fsynced, renamed."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _set_aside(path: Path, stamp: str) -> Path:
    """Rename a file (and its -wal and -shm) out of the way, never deleting it."""
    aside = path.with_name(f"{path.name}.set-aside-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            os.replace(src, Path(str(aside) + suffix))
    return aside


def _key_state(key: bytes | None) -> str | None:
    if key is None:
        return "missing"
    if len(key) < KEY_BYTES:
        return f"truncated ({len(key)} of {KEY_BYTES} bytes)"
    return None


def _read_key(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def open_data_dir(data_dir: str | os.PathLike, new_key: bool = False) -> tuple[Store, bytes]:
    """The store and the join-code key of the data folder, checked (DataDirError if not usable).

    A missing or empty database in a folder that has held games, a database
    SQLite finds damaged, or a missing or short key while games use it stop
    the start: nothing is overwritten. `new_key` allows a fresh key then (the
    old one is set aside)."""
    data_dir = Path(data_dir)
    try:
        return _open_data_dir(data_dir, new_key)
    except OSError as exc:
        raise DataDirError(f"{exc.filename or data_dir} can't be used ({exc.strerror}); the data folder must "
                           f"belong to the user the companion runs as") from None


def _open_data_dir(data_dir: Path, new_key: bool) -> tuple[Store, bytes]:
    make_private(data_dir)
    db_path, key_path, folder = data_dir / DB_NAME, data_dir / SECRET_NAME, data_dir / BACKUP_DIR
    copies = sorted(folder.glob("games-*.sqlite3")) if folder.is_dir() else []
    restore_hint = ("put back the last copy with `pegs serve --restore`" if copies else
                    "there is no backup to put back")
    if not db_path.exists() or db_path.stat().st_size == 0:
        held = [name for name, there in ((SECRET_NAME, key_path.exists()), ("backups", bool(copies))) if there]
        if held:
            state = "missing" if not db_path.exists() else "empty (0 bytes)"
            raise DataDirError(
                f"{db_path} is {state}, but this folder has held games (its {' and '.join(held)} "
                f"{'are' if len(held) > 1 else 'is'} there); nothing was changed: {restore_hint}, or move "
                f"{data_dir} away to start with no games")
    store = Store(db_path)
    key = _read_key(key_path)
    state = _key_state(key)
    if state is not None:
        games = store.count_games()
        if games and not new_key:
            store.close()
            has_copy = _key_state(_read_key(folder / SECRET_NAME)) is None
            raise DataDirError(
                f"{key_path} is {state} and the join codes of {games} saved games come from it; it was left "
                f"as it is: {'put back its copy with `pegs serve --restore`, or ' if has_copy else ''}"
                f"start with a new key with `pegs serve --new-key` (join codes not yet used change; seats "
                f"already taken stay)")
        if key is not None:
            _set_aside(key_path, _stamp())
        key = os.urandom(KEY_BYTES)
        _write_private(key_path, key)
        state = "new"
    stored, fingerprint = store.meta("key_check"), _key_fingerprint(key)
    if stored != fingerprint:
        if stored is not None and state is None and not new_key and store.count_games():
            store.close()
            has_copy = _key_fingerprint(_read_key(folder / SECRET_NAME) or b"") == stored
            raise DataDirError(
                f"{key_path} is not the key the saved games' join codes were made with (replaced?); it was "
                f"left as it is: {'put back its copy with `pegs serve --restore`, or ' if has_copy else ''}"
                f"keep this one with `pegs serve --new-key` (join codes not yet used change; seats already "
                f"taken stay)")
        if stored is None and state is None and not new_key and store.had_checks and store.count_games():
            store.close()   # the fingerprint was written with the checks: its loss is damage, not age
            raise DataDirError(
                f"{db_path} has lost the fingerprint of the key its games' join codes were made with, so "
                f"{key_path} can't be checked; both were left as they are: "
                f"{'put back the last copy with `pegs serve --restore ' + str(copies[-1]) + '`' if copies else restore_hint}"
                f", or keep this key "
                f"with `pegs serve --new-key` (if it is not the games' key, join codes not yet used change)")
        store.set_meta("key_check", fingerprint)
    return store, key


class Backups:
    """The last `keep` copies of the database in DATA_DIR/backups (and one of the key)."""

    def __init__(self, store: Store, data_dir: str | os.PathLike, keep: int = KEEP_BACKUPS):
        self.store, self.data_dir, self.keep = store, Path(data_dir), keep
        self.folder = self.data_dir / BACKUP_DIR

    def copies(self) -> list[Path]:
        """Newest first."""
        if not self.folder.is_dir():
            return []
        return sorted(self.folder.glob("games-*.sqlite3"), reverse=True)

    def newest_time(self) -> float | None:
        copies = self.copies()
        return copies[0].stat().st_mtime if copies else None

    def take(self) -> Path:
        with private_umask():
            self.folder.mkdir(exist_ok=True)
        os.chmod(self.folder, 0o700)
        name = f"games-{_stamp()}-{time.time_ns() % 10**9:09d}.sqlite3"
        tmp = self.folder / f".{name}.tmp"
        try:
            self.store.backup_to(tmp)
            os.replace(tmp, self.folder / name)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        key = _read_key(self.data_dir / SECRET_NAME)
        if _key_state(key) is None and _read_key(self.folder / SECRET_NAME) != key:
            _write_private(self.folder / SECRET_NAME, key)
        _fsync_dir(self.folder)
        for old in self.copies()[self.keep:]:
            old.unlink()
        return self.folder / name


class BackupKeeper(threading.Thread):
    """Takes a backup when a game ends (`finished()` grows) and once a day."""

    def __init__(self, backups: Backups, finished, every: float = 24 * 3600, poll: float = 30.0):
        super().__init__(name="pegs-backups", daemon=True)
        self.backups, self.finished, self.every, self.poll = backups, finished, every, poll
        self.seen = set(finished())
        self.stopped = threading.Event()
        self.last = backups.newest_time() or 0.0

    def tick(self, now: float | None = None) -> Path | None:
        now = time.time() if now is None else now
        finished = set(self.finished())
        if finished - self.seen or (now - self.last >= self.every and self.backups.store.count_games()):
            self.seen = finished
            self.last = now
            try:
                return self.backups.take()
            except (OSError, sqlite3.Error):
                import logging
                logging.getLogger("web.store").exception("the backup of the games failed")
        return None

    def run(self) -> None:
        while not self.stopped.wait(self.poll):
            self.tick()

    def stop(self) -> None:
        self.stopped.set()


def _problems(db_path: Path) -> tuple[str | None, int]:
    """(the first problem of a database file, or None; how many games it holds)."""
    if not db_path.exists():
        return "missing", 0
    if db_path.stat().st_size == 0:
        return "empty (0 bytes)", 0
    try:
        store = Store(db_path)
    except DataDirError as exc:
        return f"damaged ({exc.problem})", 0
    try:
        games = store.games()
        for game in games:
            try:
                store.events(game)
            except DamagedGame as exc:
                return f"damaged: {exc}", len(games)
        return None, len(games)
    finally:
        store.close()


def _key_fingerprint(key: bytes) -> str:
    """What the database keeps of its key: enough to tell the right key from another."""
    return hashlib.sha256(b"pegs-companion key check\n" + key).hexdigest()[:16]


def _stored_fingerprint(db_path: Path) -> str | None:
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'key_check'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def _restore_database(data_dir: Path, backup, stamp: str) -> list[str]:
    db_path, folder = data_dir / DB_NAME, data_dir / BACKUP_DIR
    if backup is None:
        problem, _ = _problems(db_path)
        if problem is None:
            return []
        candidates = sorted(folder.glob("games-*.sqlite3"), reverse=True) if folder.is_dir() else []
        if not candidates:
            raise DataDirError(f"{db_path} is {problem}, and there is no backup in {folder}: move it away "
                               f"to start with no games")
    else:
        problem, candidates = None, [Path(backup)]
        _check_database_file(Path(backup))
    skipped = []
    for candidate in candidates:
        tmp = data_dir / f".restore-{stamp}.sqlite3"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        try:
            with private_umask():
                shutil.copyfile(candidate, tmp)
        except OSError as exc:
            skipped.append(f"{candidate} ({exc.strerror})")
            continue
        bad, games = _problems(tmp)
        if bad is not None:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(str(tmp) + suffix)
            skipped.append(f"{candidate} ({bad})")
            continue
        aside = _set_aside(db_path, stamp) if db_path.exists() else None
        os.replace(tmp, db_path)
        _fsync_dir(data_dir)
        line = f"{db_path} restored from {candidate} ({games} games)"
        if aside is not None:
            line += f"; the one it replaces{f' ({problem})' if problem else ''} is kept as {aside}"
        done = [line]
        if skipped:
            done.append("passed over (failed their checks): " + ", ".join(skipped))
        return done
    raise DataDirError(f"no backup could be put back: {', '.join(skipped)}")


def _check_database_file(path: Path) -> None:
    """A file named to restore is a regular file that starts as an SQLite database does,
    else DataDirError at once (/dev/zero, a folder, a FIFO would be copied for ever)."""
    import stat
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise DataDirError(f"{path} is not a games database (not a regular file); nothing was changed")
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DataDirError(f"{path} can't be read ({exc.strerror}); nothing was changed") from None
    if head != SQLITE_HEADER:
        raise DataDirError(f"{path} is not a games database (not an SQLite file); nothing was changed")


def _restore_key(data_dir: Path, stamp: str) -> list[str]:
    key_path, copy_path = data_dir / SECRET_NAME, data_dir / BACKUP_DIR / SECRET_NAME
    key = _read_key(key_path)
    stored = _stored_fingerprint(data_dir / DB_NAME)
    problem = _key_state(key)
    if problem is None and stored is not None and _key_fingerprint(key) != stored:
        problem = "not the key the saved games were made with"
    if problem is None:
        return []
    copy = _read_key(copy_path)
    if _key_state(copy) is None and (stored is None or _key_fingerprint(copy) == stored):
        if key_path.exists():
            _set_aside(key_path, stamp)
        _write_private(key_path, copy)
        return [f"{key_path} ({problem}) put back from {copy_path}"]
    return [f"{key_path} is {problem}, and {copy_path} is not a copy of the right one: "
            f"`pegs serve --new-key` starts with a new key"]


def restore(data_dir: str | os.PathLike, backup: str | os.PathLike | None = None) -> list[str]:
    """Put back the last good backup of the database if it fails its checks (or `backup`,
    whatever the state of the database), then the key's copy if the key is missing,
    short or not the one the games were made with. What is replaced is renamed
    ``*.set-aside-STAMP``, never deleted. Returns what was done, a line each;
    DataDirError if the database needs a backup and none good can be put back."""
    data_dir = Path(data_dir)
    make_private(data_dir)
    stamp = _stamp()
    try:
        done, failed = _restore_database(data_dir, backup, stamp), None
    except DataDirError as exc:
        done, failed = [], exc
    done += _restore_key(data_dir, stamp)
    make_private(data_dir)
    if failed is not None:
        raise DataDirError("; ".join([str(failed)] + done))
    return done or [f"nothing to restore: {data_dir / DB_NAME} and {data_dir / SECRET_NAME} pass their checks "
                    f"(name a backup, `pegs serve --restore FILE`, to go back to it anyway)"]
