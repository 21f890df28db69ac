"""The data folder: its lock (one companion per folder), its key, the checks at start
(`open_data_dir`), the backups (`Backups`, `BackupKeeper`) and `restore`. The event
log itself is `web.store.Store` (whose module docstring says what is checked and why).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

from .store import (BACKUP_DIR, DB_NAME, KEEP_BACKUPS, KEY_BYTES, LOCK_NAME, SECRET_NAME, SQLITE_HEADER,
                    DamagedGame, DataDirError, Store, make_private, private_umask)


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
