"""One live table in memory: its game, seats, holders and the events that change them.

`Table.apply` makes one logged event (live, after validation, and on replay from the
store), so a table rebuilt from its log is the table that was played. The service
that checks requests and logs events is `web.tables.TableService`.
"""
from __future__ import annotations

import hashlib
import hmac
import threading
import time

from companion.message import Msg
from companion import words
from companion.setup import game_from_setup

from . import colours
from .seat_requests import is_former


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Seat:
    __slots__ = ("name", "colour", "bot", "gen", "token_hash", "bot_obj", "request_hash", "request_own",
                 "hints", "hints_used")

    def __init__(self, name, colour, bot=None):
        self.name, self.colour, self.bot = name, colour, bot
        self.gen = 1            # invitation generation: the join code changes with it
        self.token_hash = None  # sha256 of the phone's seat token, once claimed
        self.bot_obj = None
        self.request_hash = None  # a phone asking the host for this seat (its token's hash)
        self.request_own = False  # ... and it is the phone that held the seat (web.seat_requests)
        self.hints = False      # the host turned hints on for this seat
        self.hints_used = 0


class Table:
    def __init__(self, gid: str, setup: dict, created: float, shuffles=()):
        self.gid = gid
        self.setup = setup
        self.created = created
        # Dealt with secrets.SystemRandom (RULES C5) after playing back the logged
        # shuffles; game.take_new_shuffles() gives each new one for the log.
        self.game = game_from_setup(setup, shuffles)  # checked once, by parse_setup
        self.geo = self.game.position.geo
        self.cond = threading.Condition()
        self.version = 0
        self.board_version = 0   # bumped when the board referee's public state changes
        self.paused = False
        self.ended = False
        self.undos = 0
        self.undone = None       # the host's last undo, until the next move: {"seats": newest first}
        self.rematch = None      # the table the host started after this one (same phones)
        self.rematch_of = None   # ... and the one this table follows
        self.seats = [Seat(s["name"], s["colour"], s.get("bot")) for s in setup["seats"]]
        self.names = words.Names([(s.name, colours.BY_KEY[s.colour]["name"]) for s in self.seats],
                                 self.game.seat_side)
        self.host_hashes: set[str] = set()
        # phones that held (or asked for) a seat and no longer may: token hash -> (seat, why),
        # why = "computer" | "moved" | "refused" | "superseded"; so such a phone is told what happened
        self.former: dict[str, tuple[int, str]] = {}
        self.display_hashes: set[str] = set()   # table displays the host paired
        self.touched = time.time()   # last change (since this process started): ages out of the home page
        self.plays_cache = None  # (version, payload)
        self.hints_all = False   # the host turned hints on for every seat
        self.hint = None         # the last hint: {seat, at, move, card, reason}
        self.board_held = None   # the board's last "board" event here: {held, at} (web.board_referee)
        labels = _labels([s.name for s in self.seats])
        self.public_seats_base = [
            {"seat": i, "name": s.name, "label": labels[i], "team": self.game.team_of_seat(i),
             "side": self.game.seat_side[i], "colour": colours.BY_KEY[s.colour]}
            for i, s in enumerate(self.seats)]

    # ------------------------------------------------------------- queries
    @property
    def status(self) -> str:
        if self.ended:
            return "ended"
        if self.game.is_over():
            return "over"
        return "paused" if self.paused else "playing"

    def seat_of_token(self, token: str | None):
        if not token:
            return None
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        return None

    def is_host(self, token: str | None) -> bool:
        return bool(token) and token_hash(token) in self.host_hashes

    def is_display(self, token: str | None) -> bool:
        return bool(token) and token_hash(token) in self.display_hashes

    def public_seats(self) -> list[dict]:
        return [{**base, "bot": s.bot, "joined": s.token_hash is not None,
                 "hints": self.hints_on(i), "hints_used": s.hints_used}
                for i, (base, s) in enumerate(zip(self.public_seats_base, self.seats))]

    def bot_seats(self) -> set[int]:
        """The seats the computer plays (the undo policy asks)."""
        return {i for i, s in enumerate(self.seats) if s.bot}

    def hints_on(self, seat: int) -> bool:
        return self.hints_all or self.seats[seat].hints

    def hint_key(self) -> list:
        """Where the game stands, so a hint is shown only for the decision it was made for."""
        g = self.game
        return [len(g.history), hash(g.position.key()) & 0xFFFFFFFF, g.phase]

    def current_hint(self, seat: int | None):
        """The hint made for this decision of `seat` (any seat's if None), else None."""
        h = self.hint
        if h is None or self.game.actor != h["seat"] or h["at"] != self.hint_key():
            return None
        return h if seat is None or seat == h["seat"] else None

    def name_of(self, seat) -> str:
        s = self.seats[seat]
        return f"{s.name} ({colours.BY_KEY[s.colour]['name']})"

    def push(self, play) -> None:
        """Make a legal play; its history entry keeps what it says in words (issue 14.4)."""
        said = words.before_play(self.game, play, self.names)
        self.undone = None
        self.game.push(play)
        words.after_play(self.game, said, self.names)

    # ---------------------------------------------------------- events
    def apply(self, kind: str, data: dict) -> None:
        """Apply one logged event (live, after validation, and on replay)."""
        g = self.game
        if kind == "action":
            if g.actor != data["seat"]:
                raise ValueError(f"logged action of seat {data['seat']} but seat {g.actor} acts")
            self.push(g.parse(data["move"], data.get("card")))
        elif kind == "undo":
            g.pop()
            self.undos += 1
            if data.get("seat") is not None:   # one host undo: its events in a row
                if self.undone is None or data.get("first"):
                    self.undone = {"seats": []}
                self.undone["seats"].append(data["seat"])
        elif kind == "rematch":   # the host started the next game with the same phones
            self.rematch = data["gid"]
        elif kind == "pause":
            self.paused = True
        elif kind == "resume":
            self.paused = False
        elif kind == "end":
            self.ended = True
        elif kind == "invite":
            seat = self.seats[data["seat"]]
            self._drop_holder(data["seat"], "moved")
            if seat.request_hash is not None:   # a new QR code instead of the phone that asked
                self.former[seat.request_hash] = (data["seat"], "refused")
            seat.gen, seat.token_hash, seat.request_hash = data["gen"], None, None
        elif kind == "claim":
            seat = self.seats[data["seat"]]
            if seat.token_hash != data["hash"]:
                self._drop_holder(data["seat"], "moved")
            self.former.pop(data["hash"], None)
            seat.token_hash, seat.request_hash = data["hash"], None
        elif kind == "request":   # a phone asks the host for a seat (it approves: "claim")
            seat = self.seats[data["seat"]]
            if seat.request_hash not in (None, data["hash"]):   # the host answers the latest
                self.former[seat.request_hash] = (data["seat"], "superseded")
            seat.request_own = is_former(self, data["seat"], data["hash"])
            self.former.pop(data["hash"], None)
            seat.request_hash = data["hash"]
        elif kind == "refuse":
            seat = self.seats[data["seat"]]
            if seat.request_hash is not None:
                self.former[seat.request_hash] = (data["seat"], "refused")
            seat.request_hash = None
        elif kind == "host":
            self.host_hashes.add(data["hash"])
        elif kind == "display":
            self.display_hashes.add(data["hash"])
        elif kind == "bot":
            seat = self.seats[data["seat"]]
            seat.bot, seat.bot_obj = data["bot"], None
            if data["bot"]:
                self._drop_holder(data["seat"], "computer")
                seat.token_hash = None
        elif kind == "hints":
            if data["seat"] is None:
                self.hints_all = data["on"]
            else:
                self.seats[data["seat"]].hints = data["on"]
        elif kind == "hint":
            self.hint = {**data, "reason": Msg.from_json(data["said"])} if data.get("said") else data
            self.seats[data["seat"]].hints_used += 1
        elif kind == "board":   # this table took (held) or let go of the companion's board
            self.board_held = data
        elif kind != "shuffle":
            raise ValueError(f"unknown event kind {kind!r}")

    def _drop_holder(self, seat: int, why: str) -> None:
        """The phone holding `seat` loses it; remember why, to tell that phone."""
        h = self.seats[seat].token_hash
        if h is not None:
            self.former[h] = (seat, why)

    def lost_seat(self, token: str | None):
        """(seat, why) for a phone that held or asked for a seat here and holds none now:
        why = "requested" (waiting for the host), or as in `former`."""
        if not token:
            return None
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.request_hash is not None and hmac.compare_digest(s.request_hash, h):
                return i, "requested"
        return self.former.get(h)


def _labels(names: list[str]) -> list[str]:
    """Short peg labels: initials, longer where two would clash, else seat numbers."""
    for n in (1, 2):
        labels = [(name.strip()[:n] or "?").upper() for name in names]
        if len(set(labels)) == len(labels):
            return labels
    return [str(i + 1) for i in range(len(names))]


__all__ = ["Table", "Seat", "token_hash"]
