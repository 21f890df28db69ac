"""A phone asking the host for a seat, kept in bounds (issue 22 point 2).

Anyone holding a seat's join code may ask the host for that seat (`TableService.request_seat`):
a fresh phone after a lost cookie, or the phone the host gave the seat away from. Each new
request is logged and bumps the table's version, so unbounded they were a way to make
every phone re-fetch, fill the log, and push a real phone's request off the host's page.
The bounds:

* a rate per client (its address; an IPv6 device its /64) and table: `BURST` at once, then
  `PER_MINUTE` (the companion itself, while serve.loopback_admin, is not limited);
* one pending request per seat per device: the same device asking again for the seat it
  already asked for (with or without its cookie) is not logged and changes no version;
* the seat's former phone (the one that held it until the host moved it or gave it to the
  computer) asking for it back is never displaced by another phone's request: the host
  answers that one first (or gives the seat a new code).

Which device made the pending request is kept in memory only (it is an address; the log
keeps no addresses): after a restart a device's first repeat is logged once more.
"""
from __future__ import annotations

import threading

from companion.message import msg

from .access import Bucket
from .errors import ApiError

PER_MINUTE, BURST = 6.0, 4
OWN = ("computer", "moved")   # why a former phone lost the seat it held (Table.former)


class SeatRequests:
    def __init__(self, per_minute: float = PER_MINUTE, burst: int = BURST):
        self.bucket = Bucket(per_minute, burst)
        self._devices: dict[tuple[str, int], str] = {}   # (table id, seat) -> the pending request's device
        self._lock = threading.Lock()

    def take(self, gid: str, device: str) -> None:
        """Spend one of `device`'s requests at table `gid`; 429 if it has none left."""
        wait = self.bucket.take(f"{device}|{gid}")
        if wait > 0:
            raise ApiError(429, msg("this device asked for seats at this table several times just now: "
                                    "wait %(seconds)s s (the host's page already shows the request)",
                                    seconds="%.0f" % wait))

    def admit(self, table, seat: int, token_hash: str, device: str | None) -> bool:
        """With the table's lock held: log this request (True), or not (False: the same
        phone asking again). 409 if the same device already asked for this seat, or the
        seat's former phone has asked for it back and this is another phone."""
        s = table.seats[seat]
        pending = s.request_hash
        if pending == token_hash:
            return False
        if pending is not None:
            with self._lock:
                same_device = device is not None and self._devices.get((table.gid, seat)) == device
            if same_device:
                raise ApiError(409, msg("this device has already asked for %(name)s's seat: the host's "
                                        "page shows the request", name=table.name_of(seat)), code="seat_requested")
            if getattr(s, "request_own", False) and not is_former(table, seat, token_hash):
                raise ApiError(409, msg("the phone that held %(name)s's seat has asked for it back: "
                                        "the host answers that first (or gives the seat a new code)",
                                        name=table.name_of(seat)), code="seat_requested")
        return True

    def logged(self, table, seat: int, device: str | None) -> None:
        with self._lock:
            if len(self._devices) > 4096:
                self._devices.clear()
            if device is None:
                self._devices.pop((table.gid, seat), None)
            else:
                self._devices[(table.gid, seat)] = device


def is_former(table, seat: int, token_hash: str) -> bool:
    """Did the phone of this token hold `seat` until the host moved it or gave it to the computer?"""
    was = table.former.get(token_hash)
    return was is not None and was[0] == seat and was[1] in OWN


__all__ = ["SeatRequests", "is_former", "PER_MINUTE", "BURST"]
