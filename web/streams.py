"""Who may hold the companion's event streams (issue 13 point 8, issue 22 point 4).

Each live page holds a server-sent-event stream, and each stream a waitress thread, so
their number is capped (`TableService.max_streams`). A stream knows its table and whose
page it is: a `holder` ("seat 2", "host", "display", from the page's cookies) or None
(an anonymous page: a guest's table view). The rules, in order:

* a page reconnecting (the same key) replaces its own older stream;
* anonymous: one client (address; IPv6 /64) holds at most `streams_per_address` (429 past
  that: cheaper than ending one, which wakes every stream of its table);
* a holder keeps STREAMS_PER_HOLDER (its own oldest ends);
* a table's holders together keep `table_cap` (twice its seats + 4: a seat page and a table
  page per phone, the host's pages, a display); past it a new one is refused (429). Anyone
  may make a table and join all its seats, so this is what bounds a guest's table, whatever
  its number of addresses;
* the tables one client made (its address, or /64; the companion itself is not counted)
  keep `max_streams // 2` together (at least one table's cap); past it, refused (429);
* past the total cap: the oldest anonymous stream of the client holding the most ends;
  with none, an anonymous page is refused (503, it tries again), and a holder's page may
  end only a stream of a table nobody plays (not changed for ACTIVE seconds, or over),
  and only for a table being played; else it is refused (503).

So a table's players' and host's streams are never ended for another table's streams
unless that table lies idle while theirs is played.
"""
from __future__ import annotations

import threading
import time
from collections import Counter

from companion.message import msg

from .errors import ApiError

ACTIVE = 600.0   # seconds: a table changed (a move, a join, a pause ...) within this is being played


def table_cap(table) -> int:
    return 2 * len(table.seats) + 4


class Streams:
    """The open streams of a `TableService` (its max_streams, streams_per_address and
    STREAMS_PER_HOLDER are read from it, so they may change while it runs)."""

    def __init__(self, service, lock: threading.Lock):
        self.service = service
        self.lock = lock
        self.entries: dict[str, tuple] = {}   # key -> (table, stop event, address, holder), oldest first
        self.creators: dict[str, str] = {}    # table id -> the client that made it

    def created(self, table, client: str | None) -> None:
        if client is not None:
            with self.lock:
                if len(self.creators) > 4096:
                    live = set(self.service.tables)
                    self.creators = {g: c for g, c in self.creators.items() if g in live}
                self.creators[table.gid] = client

    @staticmethod
    def active(table, now: float) -> bool:
        """Changed lately and not ended (read without the table's lock: two plain attributes;
        a game that is over stops changing, so it is idle ACTIVE seconds later)."""
        return not table.ended and now - table.touched < ACTIVE

    def open(self, table, key: str, address: str | None, holder: str | None) -> threading.Event:
        svc = self.service
        stop = threading.Event()
        refused = None
        now = time.time()
        with self.lock:
            entries = self.entries
            evicted = []

            def end(k):
                evicted.append(entries.pop(k))
            if key in entries:
                end(key)
            if holder is None:
                if sum(1 for e in entries.values() if e[3] is None and e[2] == address) >= svc.streams_per_address:
                    refused = ApiError(429, msg("this device has as many live pages open as it may; close some "
                                       "(this page will try again)"), code="streams_full")
            else:
                mine = [k for k, e in entries.items() if e[3] == holder and e[0] is table]
                if len(mine) >= svc.STREAMS_PER_HOLDER:
                    end(mine[0])
                ours = sum(1 for e in entries.values() if e[3] is not None and e[0] is table)
                maker = self.creators.get(table.gid)
                theirs = 0 if maker is None else sum(
                    1 for e in entries.values() if e[3] is not None and self.creators.get(e[0].gid) == maker)
                if ours >= table_cap(table) or theirs >= max(table_cap(table), svc.max_streams // 2):
                    # refused, not the table's own oldest ended: that would wake its streams and
                    # make a storm of reconnections twice as dear
                    refused = ApiError(429, msg("this table has as many live pages open as it may; close some "
                                           "(this page will try again)"), code="streams_full")
            if refused is None and len(entries) >= svc.max_streams:
                anonymous = [(k, e[2]) for k, e in entries.items() if e[3] is None]
                if anonymous:
                    held = Counter(a for _, a in anonymous)
                    most = max(held.values())
                    end(next(k for k, a in anonymous if held[a] == most))
                elif holder is not None and self.active(table, now):
                    idle = [(k, e[0]) for k, e in entries.items()
                            if e[0] is not table and not self.active(e[0], now)]
                    if idle:
                        held = Counter(t.gid for _, t in idle)
                        most = max(held.values())
                        end(next(k for k, t in idle if held[t.gid] == most))
                if len(entries) >= svc.max_streams:
                    refused = ApiError(503, msg("the companion has as many live pages open as it can serve; "
                                       "this page will try again"), code="streams_full")
            if refused is None:
                entries[key] = (table, stop, address, holder)
        for t, ev, _, _ in evicted:
            ev.set()
            with t.cond:
                t.cond.notify_all()
        if refused is not None:
            raise refused
        return stop

    def close(self, key: str, stop: threading.Event) -> None:
        with self.lock:
            if self.entries.get(key, (None, None))[1] is stop:
                del self.entries[key]


__all__ = ["Streams", "ACTIVE", "table_cap"]
