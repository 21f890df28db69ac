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
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""


class StoreError(RuntimeError):
    """The log could not be written (disk full, read-only, ...)."""


class Store:
    """Thread-safe SQLite event store (one connection, serialised by a lock)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)

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
                    self._db.executemany(
                        "INSERT INTO events (game, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)", rows)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StoreError(f"could not save the game: {exc}") from exc
        return first_seq + len(events) - 1

    def events(self, game: str) -> list[tuple[int, str, dict]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, data FROM events WHERE game = ? ORDER BY seq", (game,)).fetchall()
        return [(seq, kind, json.loads(data)) for seq, kind, data in rows]

    def games(self) -> list[str]:
        """Game ids, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game FROM events WHERE seq = 1 ORDER BY at, game").fetchall()
        return [r[0] for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
