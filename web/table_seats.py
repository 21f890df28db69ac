"""Who holds which seat: tokens, join codes, seat requests and the host's check
(`SeatAccess`, a part of `web.tables.TableService`)."""
from __future__ import annotations

import hmac
import secrets
import time

from companion.message import msg

from .errors import ApiError
from .table_state import Table, token_hash

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_LEN = 8
LOST_WORDS = {   # each phone reads these in its own language (companion.message)
    "requested": lambda name: msg("you asked the host for %(name)s's seat: waiting for the host to give it "
                                  "to this phone (on the host's page)", name=name),
    "computer": lambda name: msg("the host gave your seat to the computer"),
    "moved": lambda name: msg("the host moved %(name)s's seat to another phone", name=name),
    "refused": lambda name: msg("the host did not give this phone %(name)s's seat", name=name),
    "superseded": lambda name: msg("another phone asked for %(name)s's seat after this one did", name=name),
}


class SeatAccess:
    """The seat and join-code half of the table service (it holds `tables`, `secret`,
    `seat_requests` and `_commit`)."""

    def seat_for(self, table: Table, token: str | None) -> int:
        seat = table.seat_of_token(token)
        if seat is None:
            lost = table.lost_seat(token)
            if lost is not None:
                i, why = lost
                name = table.seats[i].name
                if why == "computer" and not table.seats[i].bot:
                    why = "moved"
                raise ApiError(403, LOST_WORDS[why](name), code=f"seat_{why}", seat=i,
                               name=table.name_of(i))
            raise ApiError(403, msg("this phone does not hold a seat at this table: scan your "
                           "seat's QR code, or ask the host for a new one"), code="no_seat")
        return seat

    def request_seat(self, table: Table, token: str | None, code,
                     device: str | None = None) -> tuple[int, str | None]:
        """A phone asks the host for a seat: one it held (its token says which) or the one
        whose join code it scanned while another phone (or the computer) has it. Logged,
        so the host's page shows it after a restart too; the host approves with a tap
        ("approve"), never silently, since anyone may have seen the QR code. `device`: the
        client asking (its address or /64), for `web.seat_requests`' bounds.
        Returns (seat, the new token for this phone's cookie or None to keep its own)."""
        with table.cond:
            if table.status in ("ended", "over"):   # a paused game is a good time to sort seats out
                raise ApiError(409, msg("the game is over"))
            held = table.seat_of_token(token)
            if held is not None:
                raise ApiError(409, msg("this phone already holds %(who)s's seat", who=table.names.seat_msg(held)))
            lost = table.lost_seat(token)
            new_token = None
            if code is not None:
                if not isinstance(code, str) or not code.strip():
                    raise ApiError(400, "\"code\": the seat's join code, as in its link")
                found = self.find_code(code.strip().upper())
                if found is None or found[0] is not table:
                    raise ApiError(404, msg("this join code is not (or no longer) valid: ask the host for "
                                   "the seat's current QR code"))
                seat = found[1]
            elif lost is not None:
                seat = lost[0]
            else:
                raise ApiError(403, msg("this phone held no seat here: scan your seat's QR code"),
                               code="no_seat")
            s = table.seats[seat]
            if not s.bot and s.token_hash is None:
                raise ApiError(409, msg("this seat is free: take it with its join link"))
            if lost is not None and lost[0] == seat:
                h = token_hash(token)
            else:
                new_token = secrets.token_urlsafe(32)
                h = token_hash(new_token)
            if self.seat_requests.admit(table, seat, h, device):
                event = ("request", {"seat": seat, "hash": h, "at": time.time()})
                table.apply(*event)
                self._commit(table, [event])
                self.seat_requests.logged(table, seat, device)
            return seat, new_token

    def play_here(self, table: Table, token: str | None, seat, current: str | None) -> str:
        """The host's own phone takes a free seat (it can't scan its own QR code): a new
        seat token for it, logged as a claim like a join. 409 if the seat is the computer's or
        another phone's, or this phone already plays another seat here."""
        with table.cond:
            self.require_host(table, token)
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
                raise ApiError(400, f"\"seat\" must be a seat number 0-{len(table.seats) - 1}")
            held = table.seat_of_token(current)
            if held is not None:
                raise ApiError(409, msg("this phone already holds %(who)s's seat", who=table.names.seat_msg(held)))
            return self._claim(table, seat)

    def _claim(self, table: Table, seat: int) -> str:
        """A free seat to a new phone (lock held): its new token, the claim logged."""
        s = table.seats[seat]
        if s.bot:
            raise ApiError(409, msg("the computer plays this seat now; the host can give it back"))
        if s.token_hash is not None:
            raise ApiError(409, msg("another phone already took this seat; the host can move it "
                           "to this phone (a new QR code)"))
        token = secrets.token_urlsafe(32)
        s.token_hash = token_hash(token)
        self._commit(table, [("claim", {"seat": seat, "hash": s.token_hash, "gen": s.gen})])
        return token

    def require_host(self, table: Table, token: str | None) -> None:
        if not table.is_host(token):
            raise ApiError(403, msg("only the host's phone (the one that created the table) can do that"))

    def join(self, code, current_token: str | None = None) -> tuple[Table, int, str | None]:
        """Claim a seat by its join code. Returns (table, seat, new token or None if already held)."""
        if not isinstance(code, str) or not code.strip():
            raise ApiError(400, "send the join code: {\"code\": \"...\"}")
        code = code.strip().upper()
        found = self.find_code(code)
        if found is None:
            raise ApiError(404, msg("this join code is not (or no longer) valid: ask the host for the "
                           "seat's current QR code"))
        table, seat = found
        with table.cond:
            if self.join_code(table, seat) != code:
                raise ApiError(404, msg("this join code is no longer valid: ask the host for a new one"))
            if table.seat_of_token(current_token) == seat:
                return table, seat, None
            return table, seat, self._claim(table, seat)

    def join_code(self, table: Table, seat: int) -> str:
        gen = table.seats[seat].gen
        return self._code(f"{table.gid}:{seat}:{gen}")

    def display_code(self, table: Table) -> str:
        """The code that pairs a table display (shown on the host page as a QR code)."""
        return self._code(f"{table.gid}:display")

    def find_display(self, code: str):
        if not isinstance(code, str) or not code.isascii():
            return None
        code = code.strip().upper()
        for table in list(self.tables.values()):
            if hmac.compare_digest(self.display_code(table), code):
                return table
        return None

    def pair_display(self, table: Table) -> str:
        """A new display token for this table (its hash logged, like a seat's)."""
        return self._new_token(table, "display")

    def recover_host(self, table: Table) -> str:
        """A new host token (the admin code was given: a lost host phone)."""
        return self._new_token(table, "host")

    def _new_token(self, table: Table, kind: str) -> str:
        token = secrets.token_urlsafe(32)
        with table.cond:
            table.apply(kind, {"hash": token_hash(token)})
            self._commit(table, [(kind, {"hash": token_hash(token)})])
        return token

    def _code(self, text: str) -> str:
        digest = hmac.new(self.secret, text.encode(), "sha256").digest()
        n = int.from_bytes(digest[:8], "big")
        out = []
        for _ in range(CODE_LEN):
            n, r = divmod(n, len(CODE_ALPHABET))
            out.append(CODE_ALPHABET[r])
        return "".join(out)

    def find_code(self, code: str):
        if not isinstance(code, str) or not code.isascii():
            return None
        for table in list(self.tables.values()):
            for seat in range(len(table.seats)):
                if hmac.compare_digest(self.join_code(table, seat), code):
                    return table, seat
        return None

    def seat_preview(self, code: str):
        """(table, seat) for a join page, or None."""
        return self.find_code(code.strip().upper()) if isinstance(code, str) else None


__all__ = ["SeatAccess", "CODE_ALPHABET", "CODE_LEN", "LOST_WORDS"]
