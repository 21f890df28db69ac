"""Live tables: the games in memory, their event logs, bots and change notices.

`TableService` is the only thing the blueprints talk to. Each `Table` holds
one `companion.game.Game` and a condition variable that is both the table's
lock and the broadcast that wakes its server-sent-event streams. Every state
change follows one path (`_commit`): change the game in memory under the
lock, write the change and any new shuffles to the store in one transaction,
bump the version, wake the streams, let a bot act if it is a bot's turn. If
the write fails the table is rebuilt from its log, so memory never runs ahead
of the disk. The rules stay in `companion`: this module asks the game for
legal plays, checks and explanations.

Privacy: views are `Game.player_view(seat)` (None for the table) plus public
seat data; legal plays go only to the seat that must act (`game.actor`).

Parts: `web.table_state` (a `Table` and its events), `web.table_seats` (tokens,
join codes, seat requests, the host playing a seat), `web.table_bots` (the computer seats,
hints and their thread), `web.table_rematch` (the next game with the same phones), `web.streams` (the event streams' caps); this module checks and commits.
"""
from __future__ import annotations

import logging
import secrets
import threading
import time

from companion import words
from companion.message import msg, nmsg
from companion.bots import BOT_NAMES
from companion.cards import is_card
from companion.game import DOUBT_PHASE, PENALTY_PHASE
from companion.moves import AmbiguousMoveError, IllegalMoveError, MoveSyntaxError
from companion.plays import move_json, svg_hole_id
from companion.setup import SetupError
from companion.setup import parse_setup as _parse_setup

from .errors import ApiError, api_error
from .qr import qr_svg
from .seat_requests import SeatRequests
from .streams import Streams
from .table_bots import BotRunner, BotTurns
from .table_rematch import Rematch
from .table_seats import SeatAccess
from .table_state import Table, token_hash
from .store import DamagedGame, StoreError

log = logging.getLogger("web.tables")

SEAT_ACTIONS = ("reseat", "bot", "approve", "refuse")
REQUEST_ID = 12   # hex digits of a request's token hash that name it to the host's page

hole_id = svg_hole_id   # the board drawing's hole ids (companion.plays)


# ======================================================================= setup
def parse_setup(data) -> dict:
    """Validate a new-table request into the logged set-up (`companion.setup`; ApiError 400)."""
    try:
        return _parse_setup(data)
    except SetupError as exc:
        raise api_error(exc) from None


# ===================================================================== service
class TableService(SeatAccess, BotTurns, Rematch):
    # Set from the config by create_app (serve.max_tables ...): live tables at most, and how
    # long a finished or untouched table stays on the home page (it stays in the log).
    max_tables = 20
    finished_age = 3600.0
    abandoned_age = 12 * 3600.0

    STREAMS_PER_HOLDER = 4   # a seat's (or the host's) pages: a phone, a tab or two

    def __init__(self, store, secret: bytes, bot_delay: float = 0.8, max_streams: int = 40,
                 streams_per_address: int = 12, bot_think_ms: float | None = None):
        self.store = store
        # The strong bot's and the hints' budget per decision (None: its default).
        self.bot_think_ms = bot_think_ms
        self.secret = secret
        self.bot_delay = bot_delay
        self.max_streams = max_streams
        self.streams_per_address = streams_per_address   # anonymous streams one client address may hold
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        self._lock = threading.Lock()
        self._create_lock = threading.Lock()
        self.closing = threading.Event()
        self.streams = Streams(self, self._lock)   # the open event streams and their caps
        self._streams = self.streams.entries   # key -> (table, stop event, address, holder), oldest first
        self.seat_requests = SeatRequests()   # their bounds (issue 22 point 2)
        # The physical (or simulated) board's referee, set by the composition root
        # (web.board_referee.BoardHub): told of every commit, asked before a bot acts.
        self.board = None
        self._bots = BotRunner(self)
        for gid in store.games():
            self._load(gid)
        self._bots.start()
        for table in list(self.tables.values()):
            with table.cond:
                self._kick(table)

    # ------------------------------------------------------------ loading
    def _load(self, gid: str) -> Table | None:
        try:
            events = self.store.events(gid)
            if not events or events[0][1] != "created":
                raise ValueError("the log does not start with the table's creation")
            shuffles = [d["cards"] for _, kind, d in events if kind == "shuffle"]
            table = Table(gid, events[0][2]["setup"], events[0][2]["at"], shuffles)
            table.rematch_of = events[0][2].get("rematch_of")
            for seq, kind, data in events[1:]:
                table.apply(kind, data)
            table.version = events[-1][0]
            table.game.take_new_shuffles()
        except DamagedGame as exc:  # a log that is not what was written: set it aside
            log.warning("game %s is set aside: %s; the other games are served (pegs serve --restore puts "
                      "back the last backup)", gid, exc.reason)
            self.broken[gid] = exc.reason
            self.tables.pop(gid, None)
            return None
        except Exception as exc:  # a log this code can't replay: keep serving the others
            log.exception("game %s can't be replayed", gid)
            self.broken[gid] = str(exc)
            self.tables.pop(gid, None)
            return None
        with self._lock:
            self.tables[gid] = table
        return table

    def get(self, gid: str) -> Table:
        table = self.tables.get(gid)
        if table is None:
            if gid in self.broken:
                raise ApiError(503, msg("this game's saved log is damaged, so the companion set it aside "
                               "(its start message and log say why); the other games go on"))
            raise ApiError(404, msg("there is no table with that id on this companion"))
        return table

    def is_live(self, table: Table, now: float | None = None) -> bool:
        """Being played (or paused) and changed lately: counts against max_tables."""
        idle = (now or time.time()) - table.touched
        return table.status in ("playing", "paused") and idle < self.abandoned_age

    def listed(self, table: Table, now: float) -> bool:
        """On the home page: live, or finished a short while ago."""
        return self.is_live(table, now) or (table.status in ("over", "ended")
                                            and now - table.touched < self.finished_age)

    def summaries(self) -> list[dict]:
        out = []
        now = time.time()
        finished = 0
        for table in sorted(self.tables.values(), key=lambda t: -t.created):
            if not self.listed(table, now):
                continue
            if not self.is_live(table, now):
                # ending a table frees its place under max_tables: without this a guest making
                # and ending tables all evening would swell the home page (issue 13.5)
                finished += 1
                if finished > self.max_tables:
                    continue
            with table.cond:
                out.append({"gid": table.gid, "status": table.status,
                            "preset": table.game.rules.preset, "created": table.created,
                            "names": [s.name for s in table.seats], "turn": table.game.turn})
        return out

    # ------------------------------------------------------------ commits
    def _commit(self, table: Table, events: list[tuple[str, dict]]) -> None:
        """Persist events already applied in memory (lock held), then tell everyone."""
        logged = [("shuffle", {"cards": s}) for s in table.game.take_new_shuffles()] + events
        try:
            table.version = self.store.append(table.gid, table.version + 1, logged)
        except StoreError:
            log.exception("game %s: write failed; rebuilding it from its log", table.gid)
            self._rebuild(table)
            raise ApiError(503, msg("the companion could not save that; nothing changed, try again"))
        table.plays_cache = None
        table.touched = time.time()
        table.cond.notify_all()
        if self.board is not None:
            self.board.on_commit(table)
        self._kick(table)

    def _rebuild(self, table: Table) -> None:
        fresh = self._load(table.gid)
        if fresh is not None:  # swap state into the object everyone holds
            cond, board_version = table.cond, table.board_version
            table.__dict__.update(fresh.__dict__)
            table.cond, table.board_version = cond, board_version
            with self._lock:
                self.tables[table.gid] = table

    def create(self, data) -> tuple[Table, str]:
        setup = parse_setup(data)
        with self._create_lock:
            now = time.time()
            live = sum(self.is_live(t, now) for t in list(self.tables.values()))
            if live >= self.max_tables:
                raise ApiError(429, nmsg("%(n)s table is being played on this companion, the most it "
                                         "takes (serve.max_tables); end one from its host page first",
                                         "%(n)s tables are being played on this companion, the most it "
                                         "takes (serve.max_tables); end one from its host page first", live))
            return self._create(setup)

    def _create(self, setup: dict) -> tuple[Table, str]:
        gid = "".join(secrets.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(8))
        now = time.time()
        table = Table(gid, setup, now)
        host_token = secrets.token_urlsafe(32)
        table.host_hashes.add(token_hash(host_token))
        events = [("created", {"setup": setup, "at": now}),
                  ("host", {"hash": token_hash(host_token)})]
        with table.cond:
            shuffles = [("shuffle", {"cards": s}) for s in table.game.take_new_shuffles()]
            logged = events[:1] + shuffles + events[1:]
            try:
                table.version = self.store.append(gid, 1, logged)
            except StoreError:
                log.exception("could not create a table")
                raise ApiError(503, msg("the companion could not save the new table; try again")) from None
            with self._lock:
                self.tables[gid] = table
            if self.board is not None:
                self.board.on_create(table)
            self._kick(table)
        return table, host_token

    # ------------------------------------------------------------ checks
    @staticmethod
    def _check_version(table: Table, version) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ApiError(400, "send the state version your page shows (\"version\": a number)")
        if version != table.version:
            raise ApiError(409, msg("the game has moved on since your page was drawn; "
                           "it has been brought up to date, look again"), version=table.version)

    @staticmethod
    def _check_open(table: Table) -> None:
        status = table.status
        if status == "ended":
            raise ApiError(409, msg("the host has ended this game"))
        if status == "over":
            raise ApiError(409, msg("the game is over"), rule="M10")
        if status == "paused":
            raise ApiError(409, msg("the host has paused the game"))

    def _waiting_for(self, table: Table) -> str:
        g = table.game
        who = table.names.seat_msg(g.actor)
        if g.phase == DOUBT_PHASE:
            return msg("it is %(who)s's decision: doubt or pass", who=who)
        if g.phase == PENALTY_PHASE:
            return msg("%(who)s is choosing the penalty peg", who=who)
        return msg("it is %(who)s's turn", who=who)

    # ------------------------------------------------------------ views
    def view(self, table: Table, seat: int | None) -> dict:
        with table.cond:
            return self._view(table, seat)

    def seat_view(self, table: Table, token: str | None) -> dict:
        """The view of the seat this phone's token holds (ApiError 403 if none)."""
        with table.cond:
            return self._view(table, self.seat_for(table, token))

    def _view(self, table: Table, seat: int | None) -> dict:
        v = table.game.player_view(seat)
        v.update(gid=table.gid, version=table.version, status=table.status,
                 seats=table.public_seats(), draw=table.setup.get("draw"), undos=table.undos)
        if table.undone:   # everyone is told what went back, in words (issue 25 §4.2)
            v["undone"] = {"seats": table.undone["seats"], "at": table.undos,
                           "words": undone_words(table)}
        if table.rematch:
            v["rematch"] = table.rematch
        _add_words(table, v)
        hint = table.current_hint(seat)
        if hint is not None:  # a seat sees its own hint; the table only that one is in use
            v["hint"] = ({k: hint[k] for k in ("seat", "move", "card", "reason", "steps")}
                         if seat is not None else {"seat": hint["seat"]})
        return v

    def plays(self, table: Table, token: str | None) -> dict:
        """The acting seat's legal plays, grouped by card, with steps and results."""
        with table.cond:
            seat = self.seat_for(table, token)
            self._check_open(table)
            if table.game.actor != seat:
                raise ApiError(403, msg("not your turn: %(why)s", why=self._waiting_for(table)))
            cached = table.plays_cache
            if cached is None or cached[0] != table.version:
                cached = table.plays_cache = (table.version, self._plays(table))
            return cached[1]

    @staticmethod
    def _plays(table: Table) -> dict:
        g = table.game
        return {"version": table.version, **g.plays_for(g.actor, table.names, words.move_words)}

    @staticmethod
    def _move_json(table: Table, move) -> dict:
        return move_json(table.game, move)

    # ------------------------------------------------------------ actions
    def act(self, table: Table, token: str | None, data, dry_run: bool = False) -> dict:
        """A phone's action for the seat its token holds."""
        move, card = self._action_body(data)
        with table.cond:
            return self._act(table, self.seat_for(table, token), move, card, data.get("version"), dry_run)

    def act_as(self, table: Table, seat: int, data, via: str | None = None) -> dict:
        """The same action for `seat` without its phone: the board referee, once the
        board has settled on a legal move (`via` = "board" is kept in the log)."""
        move, card = self._action_body(data)
        with table.cond:
            return self._act(table, seat, move, card, data.get("version"), False, via)

    @staticmethod
    def _action_body(data):
        if not isinstance(data, dict):
            raise ApiError(400, "send a JSON object: {\"version\", \"move\", \"card\"}")
        move, card = data.get("move"), data.get("card")
        if not isinstance(move, str) or not move.strip() or len(move) > 80:
            raise ApiError(400, "\"move\" must be a move in the notation, e.g. \"7 0:M10-M17\", "
                           "or doubt / pass / penalty")
        if card is not None and (not isinstance(card, str) or not is_card(card)):
            raise ApiError(400, f"unknown card {card!r}: cards look like AS, 10H, QC or JK")
        return move, card

    def _act(self, table: Table, seat: int, move: str, card, version, dry_run: bool,
             via: str | None = None) -> dict:
        """Check and make one action of `seat` (table lock held): the one path of every move."""
        self._check_open(table)
        self._check_version(table, version)
        g = table.game
        if g.actor != seat:
            raise ApiError(403, msg("not your turn: %(why)s", why=self._waiting_for(table)))
        try:
            play = g.parse(move, card)
        except AmbiguousMoveError as exc:
            raise api_error(exc, rule="P7") from None
        except IllegalMoveError as exc:
            raise api_error(exc, f"not allowed: {exc}", rule=exc.rule,
                            words=words.refusal(g.position, table.names, exc)) from None
        except MoveSyntaxError as exc:
            raise api_error(exc, f"not a move: {exc}") from None
        text = play.move.text(table.geo)
        if dry_run:
            return {"ok": True, "move": text, "version": table.version}
        table.push(play)
        event = {"seat": seat, "move": text, "card": play.card}
        if via:
            event["via"] = via
        self._commit(table, [("action", event)])
        return {"ok": True, "move": text, "version": table.version,
                "view": self._view(table, seat)}

    # ------------------------------------------------------------ host
    def host_action(self, table: Table, token: str | None, action: str, data) -> dict:
        if not isinstance(data, dict):
            raise ApiError(400, "send a JSON object with the state \"version\"")
        with table.cond:
            self.require_host(table, token)
            if action not in SEAT_ACTIONS:   # these act on who holds a seat, not on the game:
                self._check_version(table, data.get("version"))   # bots playing on don't stale them
            g = table.game
            if action == "undo":
                if table.ended:
                    raise ApiError(409, msg("the host has ended this game"))
                if not g.history:
                    raise ApiError(409, msg("there is nothing to undo"))
                undone = [{"seat": e["seat"], "move": e["move"].text(table.geo)}
                          for e in g.undo_turn(table.bot_seats())]
                table.undos += len(undone)
                table.undone = {"seats": [u["seat"] for u in undone]}
                self._commit(table, [("undo", {**u, "first": True} if i == 0 else u)
                                     for i, u in enumerate(undone)])
                return {"ok": True, "undone": len(undone), "version": table.version}
            if action in ("pause", "resume"):
                if table.ended or g.is_over():
                    raise ApiError(409, msg("the game is over"))
                if table.paused == (action == "pause"):
                    raise ApiError(409, msg("the game is already paused") if table.paused else
                                   msg("the game is already running"))
                table.paused = action == "pause"
                self._commit(table, [(action, {})])
                return {"ok": True, "version": table.version}
            if action == "end":
                if table.ended:
                    raise ApiError(409, msg("the game has already been ended"))
                table.ended = True
                self._commit(table, [("end", {})])
                return {"ok": True, "version": table.version}
            seat = data.get("seat")
            if action == "hints" and data.get("all") is True:
                seat = 0  # the whole table: no seat needed
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
                raise ApiError(400, f"\"seat\" must be a seat number 0-{len(table.seats) - 1}")
            s = table.seats[seat]
            if action in ("approve", "refuse"):
                if s.request_hash is None:
                    raise ApiError(409, msg("no phone is asking for %(name)s's seat now", name=s.name))
                if data.get("request") != s.request_hash[:REQUEST_ID]:
                    raise ApiError(409, msg("another phone has asked for %(name)s's seat since: look again", name=s.name))
                if action == "refuse":
                    events = [("refuse", {"seat": seat})]
                else:
                    events = [("bot", {"seat": seat, "bot": None})] if s.bot else []
                    events.append(("claim", {"seat": seat, "hash": s.request_hash, "gen": s.gen}))
                for event in events:
                    table.apply(*event)
                self._commit(table, events)
                return {"ok": True, "version": table.version}
            if action == "hints":
                on = data.get("on")
                if not isinstance(on, bool):
                    raise ApiError(400, "\"on\" must be true or false")
                event = ("hints", {"seat": None if data.get("all") else seat, "on": on})
                table.apply(*event)
                self._commit(table, [event])
                return {"ok": True, "version": table.version}
            if action == "reseat":
                if s.bot:
                    raise ApiError(409, msg("the computer plays this seat; give it back to a person first"))
                s.gen += 1
                s.token_hash = None
                self._commit(table, [("invite", {"seat": seat, "gen": s.gen})])
                return {"ok": True, "version": table.version}
            if action == "bot":
                bot = data.get("bot")
                if bot is not None and not (isinstance(bot, str) and bot in BOT_NAMES):
                    raise ApiError(400, f"\"bot\" must be null or one of {', '.join(BOT_NAMES)}")
                if bot == s.bot:
                    raise ApiError(409, msg("that seat is already played that way"))
                events = [("bot", {"seat": seat, "bot": bot})]
                table.apply(*events[0])
                if bot is None:
                    s.gen += 1
                    events.append(("invite", {"seat": seat, "gen": s.gen}))
                self._commit(table, events)
                return {"ok": True, "version": table.version}
            raise ApiError(404, f"unknown host action {action!r}")

    def host_info(self, table: Table, token: str | None, base_url: str,
                  seat_token: str | None = None) -> dict:
        """The host page's data; `seat_token`: this phone's seat cookie (the host plays too)."""
        with table.cond:
            self.require_host(table, token)
            seats = []
            for i, s in enumerate(table.public_seats()):
                code = self.join_code(table, i)
                link = f"{base_url}j/{code}"
                pending = table.seats[i].request_hash
                seats.append({**s, "code": code, "link": link, "qr": qr_svg(link),
                              "request": (pending or "")[:REQUEST_ID] or None,
                              # the phone that held the seat asks it back: no stranger's warning
                              "request_own": bool(pending and table.seats[i].request_own)})
            return {"my_seat": table.seat_of_token(seat_token), "rematch": table.rematch,
                    "rematch_of": table.rematch_of, "gid": table.gid, "version": table.version, "status": table.status,
                    "seats": seats, "rules": table.game.rules.to_json(),
                    "draw": table.setup.get("draw"), "dealer": table.game.dealer,
                    "hints_all": table.hints_all,
                    "history": len(table.game.history), "turn": table.game.turn,
                    "undo": self._undo_preview(table)}

    @staticmethod
    def _undo_preview(table: Table) -> dict | None:
        """What Undo would take back (for the host's \"are you sure?\"): the last move, and
        the computer's moves after it when people play too (host_action's undo)."""
        span = table.game.undo_span(table.bot_seats())
        if not span:
            return None
        return {"moves": len(span), "who": table.name_of(span[-1]["seat"])}

    def record(self, table: Table, token: str | None) -> dict:
        """The finished game's record (companion.game format), for `pegs replay`."""
        with table.cond:
            self.require_host(table, token)
            if table.status not in ("over", "ended"):
                raise ApiError(409, msg("the record (which shows every card) is available once the "
                               "game is over or ended"))
            rec = table.game.record()  # no seed: the shuffles in effect
            rec["names"] = [s.name for s in table.seats]
            rec["colours"] = [s.colour for s in table.seats]
            return rec

    # ------------------------------------------------------------ streams
    def open_stream(self, table: Table, key: str, address: str | None = None,
                    holder: str | None = None) -> threading.Event:
        """Register a change stream (waitress threads are finite, so streams are capped).

        `key` names the page (a newer stream with it ends the older), `address`
        the client's IP (an IPv6 device: its /64), `holder` who the page belongs to
        ("seat 2", "host", a paired display) or None for an anonymous page. The
        rules (a holder's stream is never ended for another table's, unless that one
        lies idle while this one is played) are `web.streams.Streams`'."""
        return self.streams.open(table, key, address, holder)

    def close_stream(self, key: str, stop: threading.Event) -> None:
        self.streams.close(key, stop)

    def wait_change(self, table: Table, seen: int, timeout: float, stop: threading.Event,
                    seen_board: int | None = None) -> int | tuple[int, int]:
        """Wait for a new version (and, given `seen_board`, a new board version too)."""
        with table.cond:
            table.cond.wait_for(
                lambda: table.version != seen or stop.is_set() or self.closing.is_set()
                or (seen_board is not None and table.board_version != seen_board), timeout)
            return table.version if seen_board is None else (table.version, table.board_version)

    def close(self) -> None:
        """End the streams and the bot thread (server shutdown)."""
        self.closing.set()
        self._bots.stop()
        if self.board is not None:
            self.board.close()
        for table in list(self.tables.values()):
            with table.cond:
                table.cond.notify_all()


def undone_words(table: Table):
    """What the host's last undo took back, in words: whose move (the earliest one), and how
    many of the computer's moves after it."""
    seats = table.undone["seats"]
    who = table.names.seat_msg(seats[-1])
    if len(seats) == 1:
        return msg("The host took back %(who)s's last move.", who=who)
    return nmsg("The host took back %(who)s's move and %(n)s move after it.",
                "The host took back %(who)s's move and %(n)s moves after it.", len(seats) - 1, who=who)


def _add_words(table: Table, v: dict) -> None:
    """The view's log, doubt prompt and doubt outcome in words (the notation stays beside)."""
    history = table.game.history
    first = len(history) - len(v["log"])
    gone = words.cancelled(history)
    for i, entry in enumerate(v["log"], first):
        said = history[i].get("words")
        if said:
            entry["words"] = said
        if i in gone:
            entry["cancelled"] = True
    if v.get("declared"):
        v["declared"]["words"] = words.declared_words(table.game, table.names)
    told = words.told(history)
    if told:
        v["told"] = told


__all__ = ["TableService", "Table", "parse_setup", "hole_id", "token_hash"]
