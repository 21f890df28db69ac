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
"""
from __future__ import annotations

import hashlib
import heapq
import hmac
import logging
import random
import secrets
import threading
import time
from collections import Counter

from companion.board import TEAM_LAYOUTS
from companion import words
from companion.bots import BOT_NAMES, make_bot
from companion.cards import draw_for_partners, is_card, make_shoe, rank_of
from companion.game import DOUBT_PHASE, PENALTY_PHASE, Game
from companion.moves import (DISCARD, RANKS, SWAP, AmbiguousMoveError, IllegalMoveError,
                             MoveSyntaxError)
from companion.notation import pegs_to_json
from companion.related_game import SEATS as RELATED_SEATS
from companion.related import seat_sections
from companion.related_game import SECTIONS, default_sections
from companion.rules import PRESETS, RELATED_PRESETS, SWITCHES, RulesError, rules_from_json

from . import colours
from .errors import ApiError
from .qr import qr_svg
from .store import DamagedGame, StoreError

log = logging.getLogger("web.tables")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_LEN = 8
MAX_NAME = 24


SEAT_ACTIONS = ("reseat", "bot", "approve", "refuse")
REQUEST_ID = 12   # hex digits of a request's token hash that name it to the host's page
LOST_WORDS = {
    "requested": "you asked the host for {name}'s seat: waiting for the host to give it to this "
                 "phone (on the host's page)",
    "computer": "the host gave your seat to the computer",
    "moved": "the host moved {name}'s seat to another phone",
    "refused": "the host did not give this phone {name}'s seat",
    "superseded": "another phone asked for {name}'s seat after this one did",
}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Seat:
    __slots__ = ("name", "colour", "bot", "gen", "token_hash", "bot_obj", "request_hash", "hints", "hints_used")

    def __init__(self, name, colour, bot=None):
        self.name, self.colour, self.bot = name, colour, bot
        self.gen = 1            # invitation generation: the join code changes with it
        self.token_hash = None  # sha256 of the phone's seat token, once claimed
        self.bot_obj = None
        self.request_hash = None  # a phone asking the host for this seat (its token's hash)
        self.hints = False      # the host turned hints on for this seat
        self.hints_used = 0


class Table:
    def __init__(self, gid: str, setup: dict, created: float, shuffles=()):
        self.gid = gid
        self.setup = setup
        self.created = created
        # Dealt with secrets.SystemRandom (RULES C5) after playing back the logged
        # shuffles; game.take_new_shuffles() gives each new one for the log.
        extra = {"sides": setup["sides"]} if setup.get("sides") else {}  # the related games' board
        self.game = Game(rules=setup["rules"], players=setup["players"], teams=setup["teams"],
                         dealer=setup["dealer"], shuffles=list(shuffles), **extra)
        self.geo = self.game.position.geo
        self.cond = threading.Condition()
        self.version = 0
        self.board_version = 0   # bumped when the board referee's public state changes
        self.paused = False
        self.ended = False
        self.undos = 0
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
        self.game._push(play)
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
            self.hint = data
            self.seats[data["seat"]].hints_used += 1
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


def hole_id(side: int, token: str) -> str:
    """Board SVG hole ids: M12; H3-s2 (home hole 3 of side 2); S-s2 (side 2's start)."""
    if token == "S":
        return f"S-s{side}"
    if token[0] == "H":
        return f"{token}-s{side}"
    return token


# ======================================================================= setup
def parse_setup(data) -> dict:
    """Validate a new-table request into the logged set-up (ApiError 400 on any problem)."""
    if not isinstance(data, dict):
        raise ApiError(400, "send a JSON object describing the table")
    preset = data.get("preset", "basic")
    if preset in RELATED_PRESETS:
        return _parse_related(data, preset)
    if preset not in PRESETS:
        raise ApiError(400, f"unknown rules preset {preset!r}; choose one of "
                       f"{', '.join([*PRESETS, *RELATED_PRESETS])}")
    for key in ("sections", "switches"):
        if key in data:
            raise ApiError(400, f"{key} is for Tock, Carbles and Jackaroo only, not {preset}")
    players = data.get("players")
    if players not in TEAM_LAYOUTS or isinstance(players, bool):
        raise ApiError(400, "players must be 2, 4, 6, 8 or 10")
    teams = data.get("teams", 2)
    if teams not in TEAM_LAYOUTS[players] or isinstance(teams, bool):
        raise ApiError(400, f"{players} players can play as "
                       f"{' or '.join(str(t) for t in TEAM_LAYOUTS[players])} teams, not {teams!r}")
    names, cols, bots = _seat_lists(data, players, False)
    options = {}
    for key in ("decks", "jokers_per_deck", "extra_jokers"):
        if key in data and data[key] is not None:
            options[key] = data[key]
    try:
        rules = rules_from_json({"preset": preset, "options": options})
    except RulesError as exc:
        raise ApiError(400, str(exc)) from None
    jokers = 0 if (players == 2 and rules.two_players_no_jokers) else rules.jokers_per_deck
    extra = 0 if (players == 2 and rules.two_players_no_jokers) else rules.extra_jokers
    shoe = len(make_shoe(rules.decks, jokers, extra))
    need = players * (rules.hand_size + 1) + 2
    if shoe < need:
        raise ApiError(400, f"a shoe of {shoe} cards is too small for {players} players "
                       f"(at least {need}); add a deck")
    return _seated(data, rules, players, teams, names, cols, bots)


def _seated(data, rules, players: int, teams: int, names, cols, bots, may_draw: bool = True) -> dict:
    """The set-up's seats and dealer: drawn for partners (RULES T3) when asked and
    `may_draw`, else in the order given with the dealer asked for."""
    dealer = data.get("dealer", players - 1)
    seating = list(range(players))
    draw_info = None
    if may_draw and data.get("draw_for_partners", False):
        result = draw_for_partners(players, teams, secrets.SystemRandom())
        seating = result.seating
        dealer = 0
        draw_info = {"names": names,
                     "rounds": [[[p, c] for p, c in sorted(r.items())] for r in result.draws],
                     "seating": seating}
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ApiError(400, f"dealer must be a seat number 0-{players - 1}")
    seats = [{"name": names[seating[s]], "colour": cols[s], "bot": bots[seating[s]]}
             for s in range(players)]
    return {"rules": rules.to_json(), "players": players, "teams": teams, "dealer": dealer,
            "seats": seats, "draw": draw_info}


def related_layouts(preset: str) -> dict:
    """Seat counts of a related preset, each with its teams and its board sections
    (RELATED-GAMES.md S, CB-G1): {players: {"teams": n, "sections": [...]}}."""
    rules = RELATED_PRESETS[preset]
    carbles = preset.startswith("carbles")
    out = {}
    for n in RELATED_SEATS[preset]:
        out[n] = {"teams": n // 2 if rules.team_play == "pairs" else n,
                  "sections": [s for s in SECTIONS if s >= n] if carbles else [4],
                  "default_sections": default_sections(rules, n)}
    return out


def _seat_lists(data, players: int, palette_all: bool, defaults=None) -> tuple[list, list, list]:
    """Names, colours and computer seats of a set-up (400 on any problem)."""
    names = data.get("names")
    if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names):
        raise ApiError(400, f"names must be a list of {players} names")
    names = [" ".join(n.split())[:MAX_NAME] for n in names]
    for i, n in enumerate(names):
        if not n:
            raise ApiError(400, f"seat {i + 1} needs a name")
    if len(set(n.casefold() for n in names)) != players:
        raise ApiError(400, "every player needs a different name")
    if defaults is None:
        defaults = list(colours.BY_KEY) if palette_all else colours.DEFAULTS
    cols = data.get("colours", defaults[:players])
    if not isinstance(cols, list) or len(cols) != players or not all(c in colours.BY_KEY for c in cols):
        raise ApiError(400, f"colours must be a list of {players} colours from: {', '.join(colours.BY_KEY)}")
    if len(set(cols)) != players:
        raise ApiError(400, "every seat needs a different peg colour")
    bots = data.get("bots", [None] * players)
    if not isinstance(bots, list) or len(bots) != players or \
            not all(b is None or (isinstance(b, str) and b in BOT_NAMES) for b in bots):
        raise ApiError(400, f"bots must be a list of {players} entries, each null or one of {', '.join(BOT_NAMES)}")
    return names, cols, bots


def _parse_related(data: dict, preset: str) -> dict:
    """A Tock, Carbles or Jackaroo table: the preset's own seat counts, its teams
    (partners sit opposite: seats i and i + n/2) and, for Carbles, the sections."""
    layouts = related_layouts(preset)
    players = data.get("players")
    if isinstance(players, bool) or players not in layouts:
        raise ApiError(400, f"{preset.replace('_', ' ')} is played by "
                       f"{' or '.join(map(str, layouts))} players, not {players!r}")
    lay = layouts[players]
    teams = data.get("teams", lay["teams"])
    if teams != lay["teams"] or isinstance(teams, bool):
        raise ApiError(400, f"{preset.replace('_', ' ')} with {players} players has "
                       f"{lay['teams']} teams, not {teams!r}")
    sides = data.get("sections", lay["default_sections"])
    if sides not in lay["sections"] or isinstance(sides, bool):
        raise ApiError(400, f"{players} players of {preset.replace('_', ' ')} play on a board of "
                       f"{' or '.join(map(str, lay['sections']))} sections, not {sides!r}")
    for key in ("decks", "jokers_per_deck", "extra_jokers"):
        if data.get(key) not in (None, getattr(RELATED_PRESETS[preset], key)):
            raise ApiError(400, f"{preset.replace('_', ' ')} is played with its own deck: "
                           f"{key} can't be changed")
    known = SWITCHES.get(preset, {})
    switches = data.get("switches") or {}
    if not isinstance(switches, dict):
        raise ApiError(400, "switches must be an object of option names to true or false")
    for k, v in switches.items():
        if k not in known or not isinstance(v, bool):
            raise ApiError(400, f"{k!r} is no switch of {preset.replace('_', ' ')}; its switches: "
                           f"{', '.join(known) or 'none'}")
    on = {k: True for k, v in switches.items() if v}
    try:
        rules = rules_from_json({"preset": preset, "options": on} if on else preset)
    except RulesError as exc:
        raise ApiError(400, str(exc)) from None
    # RG-B4: each seat's default colour is its side's
    side_colours = [colours.SIDE_DEFAULTS[s] for s in seat_sections(sides, players)]
    names, cols, bots = _seat_lists(data, players, True, side_colours)
    # partners opposite: the same seats as i % teams; a game played alone draws nothing
    return {**_seated(data, rules, players, teams, names, cols, bots, may_draw=teams < players),
            "sides": sides}


# ===================================================================== service
class TableService:
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
        self._streams: dict[str, tuple] = {}  # key -> (table, stop event, address, holder), oldest first
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
                raise ApiError(503, "this game's saved log is damaged, so the companion set it aside "
                               "(its start message and log say why); the other games go on")
            raise ApiError(404, "there is no table with that id on this companion")
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
            raise ApiError(503, "the companion could not save that; nothing changed, try again")
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
                raise ApiError(429, f"{live} tables are being played on this companion, the most it "
                               f"takes (serve.max_tables); end one from its host page first")
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
                raise ApiError(503, "the companion could not save the new table; try again") from None
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
            raise ApiError(409, "the game has moved on since your page was drawn; "
                           "it has been brought up to date, look again", version=table.version)

    @staticmethod
    def _check_open(table: Table) -> None:
        status = table.status
        if status == "ended":
            raise ApiError(409, "the host has ended this game")
        if status == "over":
            raise ApiError(409, "the game is over", rule="M10")
        if status == "paused":
            raise ApiError(409, "the host has paused the game")

    def seat_for(self, table: Table, token: str | None) -> int:
        seat = table.seat_of_token(token)
        if seat is None:
            lost = table.lost_seat(token)
            if lost is not None:
                i, why = lost
                name = table.seats[i].name
                if why == "computer" and not table.seats[i].bot:
                    why = "moved"
                raise ApiError(403, LOST_WORDS[why].format(name=name), code=f"seat_{why}", seat=i,
                               name=table.name_of(i))
            raise ApiError(403, "this phone does not hold a seat at this table: scan your "
                           "seat's QR code, or ask the host for a new one", code="no_seat")
        return seat

    def request_seat(self, table: Table, token: str | None, code) -> tuple[int, str | None]:
        """A phone asks the host for a seat: one it held (its token says which) or the one
        whose join code it scanned while another phone (or the computer) has it. Logged,
        so the host's page shows it after a restart too; the host approves with a tap
        ("approve"), never silently, since anyone may have seen the QR code.
        Returns (seat, the new token for this phone's cookie or None to keep its own)."""
        with table.cond:
            if table.status in ("ended", "over"):   # a paused game is a good time to sort seats out
                raise ApiError(409, "the game is over")
            held = table.seat_of_token(token)
            if held is not None:
                raise ApiError(409, f"this phone already holds {table.name_of(held)}'s seat")
            lost = table.lost_seat(token)
            new_token = None
            if code is not None:
                if not isinstance(code, str) or not code.strip():
                    raise ApiError(400, "\"code\": the seat's join code, as in its link")
                found = self.find_code(code.strip().upper())
                if found is None or found[0] is not table:
                    raise ApiError(404, "this join code is not (or no longer) valid: ask the host for "
                                   "the seat's current QR code")
                seat = found[1]
            elif lost is not None:
                seat = lost[0]
            else:
                raise ApiError(403, "this phone held no seat here: scan your seat's QR code",
                               code="no_seat")
            s = table.seats[seat]
            if not s.bot and s.token_hash is None:
                raise ApiError(409, "this seat is free: take it with its join link")
            if lost is not None and lost[0] == seat:
                h = token_hash(token)
            else:
                new_token = secrets.token_urlsafe(32)
                h = token_hash(new_token)
            if s.request_hash != h:
                event = ("request", {"seat": seat, "hash": h, "at": time.time()})
                table.apply(*event)
                self._commit(table, [event])
            return seat, new_token

    def require_host(self, table: Table, token: str | None) -> None:
        if not table.is_host(token):
            raise ApiError(403, "only the host's phone (the one that created the table) can do that")

    def _waiting_for(self, table: Table) -> str:
        g = table.game
        who = table.name_of(g.actor)
        if g.phase == DOUBT_PHASE:
            return f"it is {who}'s decision: doubt or pass"
        if g.phase == PENALTY_PHASE:
            return f"{who} is choosing the penalty peg"
        return f"it is {who}'s turn"

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
                raise ApiError(403, f"not your turn: {self._waiting_for(table)}")
            cached = table.plays_cache
            if cached is None or cached[0] != table.version:
                cached = table.plays_cache = (table.version, self._plays(table))
            return cached[1]

    def _plays(self, table: Table) -> dict:
        g = table.game
        pos = g.position
        out = {"version": table.version, "seat": g.actor, "phase": g.phase,
               "bluffing": g.rules.bluffing}
        if g.phase == DOUBT_PHASE:
            out["choices"] = ["doubt", "pass"]
            return out
        if g.phase == PENALTY_PHASE:
            out["penalty"] = [self._move_json(table, p.move) for p in g.legal_plays()]
            return out
        if g.rules.related:
            return self._related_plays(table, out)
        hand = g.hands[g.actor]
        ranks = list(dict.fromkeys(rank_of(c) for c in hand))
        plays = g.legal_plays()
        out["discard"] = any(p.move.kind == DISCARD for p in plays)
        # Every order of every legal move (R4 lists one order; the player may tap either).
        if g.rules.bluffing:
            by_rank = {}
            for move in pos.legal_moves(RANKS, dedupe=False):
                by_rank.setdefault(move.rank, []).append(self._move_json(table, move))
            out["cards"] = [{"card": c, "rank": rank_of(c)} for c in dict.fromkeys(hand)]
            out["declare"] = by_rank
            return out
        legal_ranks = {p.move.rank for p in plays if p.move.kind != DISCARD}
        moves_of = {rk: [] for rk in ranks}
        for move in pos.legal_moves([rk for rk in ranks if rk in legal_ranks], dedupe=False):
            moves_of[move.rank].append(self._move_json(table, move))
        out["cards"] = [{"card": c, "rank": rank_of(c), "moves": moves_of[rank_of(c)]}
                        for c in dict.fromkeys(hand)]
        return out

    def _related_plays(self, table: Table, out: dict) -> dict:
        """Tock, Carbles, Jackaroo: every play in words, grouped by card (issue 18.4).
        A pass to the partner, a forced discard and the whole hand given up are plays
        like any other; the phone lists them, and draws a move's steps where it can."""
        g = table.game
        actor = g.actor
        names = table.names
        plays = g.legal_plays()
        out["cards"] = [{"card": c, "rank": g.rank_of(c), "moves": []}
                        for c in dict.fromkeys(g.hands[actor])]
        by_card = {c["card"]: c for c in out["cards"]}
        out["discard"] = any(p.move.kind == DISCARD for p in plays)
        out["options"] = True
        if g.phase == "give":
            partner = g.partner(actor)
            out["prompt"] = (f"Choose a card to pass face down to your partner "
                             f"{names.seat(partner)}")
        elif g.phase == "forced":
            out["prompt"] = (f"{names.seat(g.forcer)} played a 10: discard a card of your "
                             f"choice (you then miss a turn)")
        for p in plays:
            move, card = p
            kind = move.kind
            if kind == "hand":
                out["give_up"] = {"move": move.text(table.geo), "kind": kind,
                                  "words": "Discard the whole hand and wait for the next deal"}
                continue
            entry = {"move": move.text(table.geo), "kind": kind, "steps": []}
            if g.phase == "give":
                entry["words"] = f"Pass it face down to {names.seat(g.partner(actor))}"
            elif kind == DISCARD:
                entry["words"] = "Discard it" + ("" if g.phase == "forced" else " (no move)")
            else:
                said = words.move_words(g.position, move, names)
                who = names.side(g.position.to_move) + " "
                entry["words"] = said[len(who):] if said.startswith(who) else said
                if kind not in ("force",):
                    try:
                        entry.update({k: v for k, v in self._move_json(table, move).items()
                                      if k in ("steps", "result", "hits")})
                    except Exception:  # a step the phone's board can't name: words only
                        log.debug("no board steps for %s", entry["move"], exc_info=True)
            by_card[card]["moves"].append(entry)
        return out

    @staticmethod
    def _move_json(table: Table, move) -> dict:
        geo = table.geo
        pos = table.game.position
        tok = geo.token
        rank, kind, steps = move
        if kind == SWAP:
            (c1, a, b), (c2, _, _) = steps
            taps = [{"side": c1, "from": tok(a), "to": tok(b), "swap_side": c2}]
        else:
            taps = [{"side": c, "from": tok(s), "to": tok(d)} for c, s, d in steps]
        for t in taps:
            t["from_id"], t["to_id"] = hole_id(t["side"], t["from"]), hole_id(t["side"], t["to"])
        before = pegs_to_json(pos)
        after = pegs_to_json(pos, pos.result_of(move)) if kind != "penalty" else None
        out = {"move": move.text(geo), "kind": kind, "steps": taps}
        if after is not None:
            out["result"] = after
            out["hits"] = _hits(before, after, steps, kind, tok)
        return out

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
            raise ApiError(403, f"not your turn: {self._waiting_for(table)}")
        try:
            play = g.parse(move, card)
        except AmbiguousMoveError as exc:
            raise ApiError(422, str(exc), rule="P7") from None
        except IllegalMoveError as exc:
            raise ApiError(422, f"not allowed: {exc}", rule=exc.rule,
                           words=words.refusal(g.position, table.names, str(exc), exc.rule)) from None
        except MoveSyntaxError as exc:
            raise ApiError(400, f"not a move: {exc}") from None
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

    def join(self, code, current_token: str | None = None) -> tuple[Table, int, str | None]:
        """Claim a seat by its join code. Returns (table, seat, new token or None if already held)."""
        if not isinstance(code, str) or not code.strip():
            raise ApiError(400, "send the join code: {\"code\": \"...\"}")
        code = code.strip().upper()
        found = self.find_code(code)
        if found is None:
            raise ApiError(404, "this join code is not (or no longer) valid: ask the host for the "
                           "seat's current QR code")
        table, seat = found
        with table.cond:
            s = table.seats[seat]
            if self.join_code(table, seat) != code:
                raise ApiError(404, "this join code is no longer valid: ask the host for a new one")
            if table.seat_of_token(current_token) == seat:
                return table, seat, None
            if s.bot:
                raise ApiError(409, "the computer plays this seat now; the host can give it back")
            if s.token_hash is not None:
                raise ApiError(409, "another phone already took this seat; the host can move it "
                               "to this phone (a new QR code)")
            token = secrets.token_urlsafe(32)
            s.token_hash = token_hash(token)
            self._commit(table, [("claim", {"seat": seat, "hash": s.token_hash, "gen": s.gen})])
            return table, seat, token

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
                    raise ApiError(409, "the host has ended this game")
                if not g.history:
                    raise ApiError(409, "there is nothing to undo")
                humans = any(not s.bot for s in table.seats)
                undone = []
                while g.history:
                    entry = g.history[-1]
                    undone.append({"seat": entry["seat"], "move": entry["move"].text(table.geo)})
                    table.apply("undo", undone[-1])
                    if not humans or not table.seats[g.actor].bot:
                        break
                self._commit(table, [("undo", u) for u in undone])
                return {"ok": True, "undone": len(undone), "version": table.version}
            if action in ("pause", "resume"):
                if table.ended or g.is_over():
                    raise ApiError(409, "the game is over")
                if table.paused == (action == "pause"):
                    raise ApiError(409, f"the game is already {'paused' if table.paused else 'running'}")
                table.paused = action == "pause"
                self._commit(table, [(action, {})])
                return {"ok": True, "version": table.version}
            if action == "end":
                if table.ended:
                    raise ApiError(409, "the game has already been ended")
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
                    raise ApiError(409, f"no phone is asking for {s.name}'s seat now")
                if data.get("request") != s.request_hash[:REQUEST_ID]:
                    raise ApiError(409, f"another phone has asked for {s.name}'s seat since: look again")
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
                    raise ApiError(409, "the computer plays this seat; give it back to a person first")
                s.gen += 1
                s.token_hash = None
                self._commit(table, [("invite", {"seat": seat, "gen": s.gen})])
                return {"ok": True, "version": table.version}
            if action == "bot":
                bot = data.get("bot")
                if bot is not None and not (isinstance(bot, str) and bot in BOT_NAMES):
                    raise ApiError(400, f"\"bot\" must be null or one of {', '.join(BOT_NAMES)}")
                if bot == s.bot:
                    raise ApiError(409, "that seat is already played that way")
                events = [("bot", {"seat": seat, "bot": bot})]
                table.apply(*events[0])
                if bot is None:
                    s.gen += 1
                    events.append(("invite", {"seat": seat, "gen": s.gen}))
                self._commit(table, events)
                return {"ok": True, "version": table.version}
            raise ApiError(404, f"unknown host action {action!r}")

    def host_info(self, table: Table, token: str | None, base_url: str) -> dict:
        with table.cond:
            self.require_host(table, token)
            seats = []
            for i, s in enumerate(table.public_seats()):
                code = self.join_code(table, i)
                link = f"{base_url}j/{code}"
                seats.append({**s, "code": code, "link": link, "qr": qr_svg(link),
                              "request": (table.seats[i].request_hash or "")[:REQUEST_ID] or None})
            return {"gid": table.gid, "version": table.version, "status": table.status,
                    "seats": seats, "rules": table.game.rules.to_json(),
                    "draw": table.setup.get("draw"), "dealer": table.game.dealer,
                    "hints_all": table.hints_all,
                    "history": len(table.game.history), "turn": table.game.turn,
                    "undo": self._undo_preview(table)}

    @staticmethod
    def _undo_preview(table: Table) -> dict | None:
        """What Undo would take back (for the host's \"are you sure?\"): the last move, and
        the computer's moves after it when people play too (host_action's undo)."""
        humans = any(not s.bot for s in table.seats)
        span = []
        for entry in reversed(table.game.history):
            span.append(entry)
            if not humans or not table.seats[entry["seat"]].bot:
                break
        if not span:
            return None
        return {"moves": len(span), "who": table.name_of(span[-1]["seat"])}

    def record(self, table: Table, token: str | None) -> dict:
        """The finished game's record (companion.game format), for `pegs replay`."""
        with table.cond:
            self.require_host(table, token)
            if table.status not in ("over", "ended"):
                raise ApiError(409, "the record (which shows every card) is available once the "
                               "game is over or ended")
            rec = table.game.record()  # no seed: the shuffles in effect
            rec["names"] = [s.name for s in table.seats]
            rec["colours"] = [s.colour for s in table.seats]
            return rec

    # ------------------------------------------------------------ bots
    def _kick(self, table: Table) -> None:
        """Let a bot act if it is a bot's turn (lock held) and the board is ready for it."""
        g = table.game
        if table.status == "playing" and g.actor is not None and table.seats[g.actor].bot:
            if self.board is not None and not self.board.may_act(table):
                return  # the board referee kicks again once the board shows the game
            self._bots.schedule(table.gid, self.bot_delay)

    def kick(self, table: Table) -> None:
        with table.cond:
            self._kick(table)

    def bot_step(self, gid: str) -> None:
        """One bot decision, run on the bot thread. The table's lock is held only to
        read the acting seat's view and to make the move: the thinking happens
        outside it, so no request waits for a bot."""
        table = self.tables.get(gid)
        if table is None:
            return
        with table.cond:
            g = table.game
            if table.status != "playing" or g.actor is None:
                return
            s = table.seats[g.actor]
            if not s.bot or (self.board is not None and not self.board.may_act(table)):
                return
            if s.bot_obj is None:
                s.bot_obj = make_bot(s.bot, random.Random(secrets.randbits(64)),
                                     **self._think())
            seat, bot, version = g.actor, s.bot_obj, table.version
            if self.bot_think_ms is not None and hasattr(bot, "think_ms"):
                bot.think_ms = self.bot_think_ms   # changed on the settings page since the bot was made
            view = g.player_view(seat) if hasattr(bot, "decide") else None
        choice = None
        fallback = False
        if view is not None:
            try:
                d = bot.decide(view)  # the strong bot: its own seat's view only
                choice = (d.move, d.card)
            except ValueError:  # a phase it doesn't decide (TK-V4.1's pass, JR-P5's discard)
                fallback = True
        with table.cond:
            g = table.game
            if (table.version != version or table.status != "playing" or g.actor != seat
                    or s.bot_obj is not bot):
                self._kick(table)  # the game moved on while it thought: think again
                return
            plays = g.legal_plays()
            if fallback:
                play = make_bot("greedy", random.Random()).choose(g, plays)
            else:
                play = next((p for p in plays if (p.move, p.card) == choice), None) \
                    if choice is not None else bot.choose(g, plays)
            if play is None:
                log.error("game %s: the bot chose %r, not a legal play", gid, choice)
                play = make_bot("greedy", random.Random()).choose(g, plays)
            table.push(play)
            try:
                self._commit(table, [("action", {"seat": seat, "move": play.move.text(table.geo),
                                                 "card": play.card})])
            except ApiError:
                self._bots.schedule(gid, max(self.bot_delay, 1.0))

    def _think(self) -> dict:
        return {} if self.bot_think_ms is None else {"think_ms": self.bot_think_ms}

    # ------------------------------------------------------------ hints
    def request_hint(self, table: Table, token: str | None) -> dict:
        """A seat asks for a hint: made on the bot thread, shown through the seat's view."""
        with table.cond:
            seat = self.seat_for(table, token)
            self._check_open(table)
            if table.game.actor != seat:
                raise ApiError(403, f"a hint is for your own turn: {self._waiting_for(table)}")
            if not table.hints_on(seat):
                raise ApiError(403, "the host has not turned hints on for this seat")
            if table.current_hint(seat) is not None:
                return {"ok": True, "ready": True, "version": table.version}
            self._bots.schedule(table.gid, 0.0, ("hint", seat))
            return {"ok": True, "ready": False, "version": table.version}

    def hint_step(self, gid: str, seat: int) -> None:
        from companion.hints import suggest
        table = self.tables.get(gid)
        if table is None:
            return
        with table.cond:
            g = table.game
            if table.status != "playing" or g.actor != seat or not table.hints_on(seat) \
                    or table.current_hint(seat) is not None:
                return
            at = table.hint_key()
            view = g.player_view(seat)
            names = {p["side"]: p["colour"]["name"] for p in table.public_seats_base}
        hint = suggest(view, random.Random(secrets.randbits(64)), names, **self._think())
        with table.cond:
            if table.hint_key() != at or table.game.actor != seat or table.status != "playing":
                return  # the game moved on: the seat can ask again
            play = table.game.parse(hint["move"], hint["card"])
            event = {"seat": seat, "at": at, "move": hint["move"], "card": hint["card"],
                     "reason": hint["reason"], "steps": self._move_json(table, play.move)["steps"]}
            table.apply("hint", event)
            self._commit(table, [("hint", event)])

    # ------------------------------------------------------------ streams
    def open_stream(self, table: Table, key: str, address: str | None = None,
                    holder: str | None = None) -> threading.Event:
        """Register a change stream (waitress threads are finite, so streams are capped).

        `key` names the page (a newer stream with it ends the older), `address`
        the client's IP, `holder` who the page belongs to ("seat 2", "host", a
        paired display) or None for an anonymous page. Anonymous streams never
        end a holder's: an address holding `streams_per_address` anonymous
        streams is refused another (429: cheap, where ending one wakes every
        stream of its table); past the total cap the oldest stream of the
        address holding the most anonymous ones ends; with only holders'
        streams open, a new anonymous one is refused (503) and a holder's ends
        the oldest of the address holding the most streams. A holder keeps
        STREAMS_PER_HOLDER (its own oldest ends)."""
        stop = threading.Event()
        refused = None
        with self._lock:
            evicted = []
            old = self._streams.pop(key, None)
            if old:
                evicted.append(old)
            if holder is None:
                if sum(1 for e in self._streams.values()
                       if e[3] is None and e[2] == address) >= self.streams_per_address:
                    refused = ApiError(429, "this device has as many live pages open as it may; close some "
                                       "(this page will try again)", code="streams_full")
            else:
                mine = [k for k, e in self._streams.items() if e[3] == holder and e[0] is table]
                if len(mine) >= self.STREAMS_PER_HOLDER:
                    evicted.append(self._streams.pop(mine[0]))
            if refused is None and len(self._streams) >= self.max_streams:
                anonymous = [(k, e[2]) for k, e in self._streams.items() if e[3] is None]
                if anonymous:
                    held = Counter(a for _, a in anonymous)
                    most = max(held.values())
                    evicted.append(self._streams.pop(next(k for k, a in anonymous if held[a] == most)))
                elif holder is None:
                    refused = ApiError(503, "the companion has as many live pages open as it can serve; "
                                       "this page will try again", code="streams_full")
                else:
                    # holders' streams alone fill the cap: the oldest of the address holding the
                    # most ends, since anyone may make a table and hold its seats' streams
                    held = Counter(e[2] for e in self._streams.values())
                    most = max(held.values())
                    evicted.append(self._streams.pop(next(k for k, e in self._streams.items()
                                                          if held[e[2]] == most)))
            if refused is None:
                self._streams[key] = (table, stop, address, holder)
        for t, ev, _, _ in evicted:
            ev.set()
            with t.cond:
                t.cond.notify_all()
        if refused is not None:
            raise refused
        return stop

    def close_stream(self, key: str, stop: threading.Event) -> None:
        with self._lock:
            if self._streams.get(key, (None, None))[1] is stop:
                del self._streams[key]

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


def _hits(before: dict, after: dict, steps, kind, tok) -> list[dict]:
    """Pegs a move sends elsewhere besides its own steps (M7 hits), for the player's preview."""
    expected = {side: Counter(tokens) for side, tokens in before.items()}
    if kind == SWAP:
        (c1, a, b), (c2, _, _) = steps
        for c, s, d in ((c1, a, b), (c2, b, a)):
            expected[str(c)][tok(s)] -= 1
            expected[str(c)][tok(d)] += 1
    else:
        for c, s, d in steps:
            expected[str(c)][tok(s)] -= 1
            expected[str(c)][tok(d)] += 1
    out = []
    for side, tokens in after.items():
        got = Counter(tokens)
        lost = expected[side] - got
        gained = got - expected[side]
        for (src, _), (dst, _) in zip(sorted(lost.items()), sorted(gained.items())):
            out.append({"side": int(side), "from": src, "to": dst})
    return out


class BotRunner(threading.Thread):
    """One thread that lets bots act a moment after it becomes their turn, and makes
    the hints seats ask for. Each job runs with the bot's own time budget."""

    def __init__(self, service: TableService):
        super().__init__(name="pegs-bots", daemon=True)
        self.service = service
        self.cond = threading.Condition()
        self.heap: list[tuple[float, str, tuple]] = []
        self.pending: set = set()
        self.stopped = False

    def schedule(self, gid: str, delay: float, job: tuple = ("bot",)) -> None:
        with self.cond:
            if (gid, job) in self.pending:
                return
            self.pending.add((gid, job))
            heapq.heappush(self.heap, (time.monotonic() + delay, gid, job))
            self.cond.notify()

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify()

    def run(self) -> None:
        while True:
            with self.cond:
                while not self.stopped and (not self.heap or self.heap[0][0] > time.monotonic()):
                    self.cond.wait(None if not self.heap else self.heap[0][0] - time.monotonic())
                if self.stopped:
                    return
                _, gid, job = heapq.heappop(self.heap)
                self.pending.discard((gid, job))
            try:
                if job[0] == "hint":
                    self.service.hint_step(gid, job[1])
                else:
                    self.service.bot_step(gid)
            except Exception:  # a bot must never take the thread down
                log.exception("%s failed in game %s", job[0], gid)


__all__ = ["TableService", "Table", "parse_setup", "hole_id", "token_hash"]
