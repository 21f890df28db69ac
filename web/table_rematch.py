"""The next game at a table: the host's rematch with the same preset, seats and phones, and
a new deal (issue 25 §4.11; `Rematch`, a part of `web.tables.TableService`)."""
from __future__ import annotations

import logging
import secrets
import time

from companion.message import msg, nmsg

from .errors import ApiError
from .store import StoreError
from .table_state import Table

log = logging.getLogger("web.tables")


class Rematch:
    """The rematch half of the table service (it holds `tables`, `store`, `board`,
    `_create_lock`, `_lock`, `is_live`, `_commit`, `_kick` and `require_host`)."""

    def rematch(self, table: Table, token: str | None) -> Table:
        """At a game's end, the next game: the same set-up (preset, seats, names, colours, the
        computer's seats), a new deal, and the same phones. The new table's log starts with its
        own creation (saying which game it follows) and the claims of the seats the phones held,
        each written before the old table logs where the game went on, so a crash between the
        two loses nothing (at worst the host starts it once more)."""
        with self._create_lock:   # held throughout: two taps at once start one game
            with table.cond:
                self.require_host(table, token)
                if table.status not in ("over", "ended"):
                    raise ApiError(409, msg("a rematch starts once this game is over or ended"))
                if table.rematch is not None and table.rematch in self.tables:
                    raise ApiError(409, msg("the next game has already been started"), gid=table.rematch)
                setup = dict(table.setup)
                setup.pop("draw", None)   # the seats stay as they were drawn: no new draw
                setup["dealer"] = (table.game.dealer + 1) % table.game.players   # the deal passes on
                # each seat's phone: the one holding it, else the one the host gave it to the computer
                # from (it watched the game: it plays again); a seat with neither stays as it is now
                gave_away = {seat: h for h, (seat, why) in table.former.items() if why == "computer"}
                holders, seats = [], []
                for i, s in enumerate(table.seats):
                    phone = s.token_hash or gave_away.get(i)
                    if phone:
                        holders.append((i, phone))
                    seats.append({**setup["seats"][i], "bot": None if phone else s.bot})
                setup["seats"] = seats
                hosts, displays = sorted(table.host_hashes), sorted(table.display_hashes)
                hints = [(i, s.hints) for i, s in enumerate(table.seats) if s.hints]
                hints_all = table.hints_all
            now = time.time()
            live = sum(self.is_live(t, now) for t in list(self.tables.values()))
            if live >= self.max_tables:
                raise ApiError(429, nmsg("%(n)s table is being played on this companion, the most it "
                                         "takes (serve.max_tables); end one from its host page first",
                                         "%(n)s tables are being played on this companion, the most it "
                                         "takes (serve.max_tables); end one from its host page first", live))
            new = self._create_following(setup, table.gid, hosts, displays, holders, hints, hints_all)
            with table.cond:
                event = ("rematch", {"gid": new.gid})
                table.apply(*event)
                self._commit(table, [event])
            return new

    def _create_following(self, setup, after: str, hosts, displays, holders, hints, hints_all) -> Table:
        gid = "".join(secrets.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(8))
        now = time.time()
        table = Table(gid, setup, now)
        table.rematch_of = after
        events = ([("host", {"hash": h}) for h in hosts] + [("display", {"hash": h}) for h in displays]
                  + [("claim", {"seat": i, "hash": h, "gen": 1}) for i, h in holders]
                  + [("hints", {"seat": i, "on": on}) for i, on in hints]
                  + ([("hints", {"seat": None, "on": True})] if hints_all else []))
        with table.cond:
            for event in events:
                table.apply(*event)
            shuffles = [("shuffle", {"cards": s}) for s in table.game.take_new_shuffles()]
            logged = [("created", {"setup": setup, "at": now, "rematch_of": after})] + shuffles + events
            try:
                table.version = self.store.append(gid, 1, logged)
            except StoreError:
                log.exception("could not create the rematch")
                raise ApiError(503, msg("the companion could not save the new table; try again")) from None
            with self._lock:
                self.tables[gid] = table
            if self.board is not None:
                self.board.on_create(table)
            self._kick(table)
        return table

    def follow(self, table: Table) -> Table | None:
        """The game this table's host started after it (None: none yet)."""
        with table.cond:
            gid = table.rematch
        return self.tables.get(gid) if gid else None



__all__ = ["Rematch"]
