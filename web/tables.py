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
from companion.bots import BOTS, make_bot
from companion.cards import draw_for_partners, is_card, make_shoe, rank_of
from companion.game import DOUBT_PHASE, PENALTY_PHASE, Game
from companion.moves import (DISCARD, RANKS, SWAP, AmbiguousMoveError, IllegalMoveError,
                             MoveSyntaxError)
from companion.notation import pegs_to_json
from companion.rules import PRESETS, RulesError, rules_from_json

from . import colours
from .errors import ApiError
from .qr import qr_svg
from .store import StoreError

log = logging.getLogger("web.tables")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_LEN = 8
MAX_NAME = 24


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Seat:
    __slots__ = ("name", "colour", "bot", "gen", "token_hash", "bot_obj")

    def __init__(self, name, colour, bot=None):
        self.name, self.colour, self.bot = name, colour, bot
        self.gen = 1            # invitation generation: the join code changes with it
        self.token_hash = None  # sha256 of the phone's seat token, once claimed
        self.bot_obj = None


class Table:
    def __init__(self, gid: str, setup: dict, created: float, shuffles=()):
        self.gid = gid
        self.setup = setup
        self.created = created
        # Dealt with secrets.SystemRandom (RULES C5) after playing back the logged
        # shuffles; game.take_new_shuffles() gives each new one for the log.
        self.game = Game(rules=setup["rules"], players=setup["players"], teams=setup["teams"],
                         dealer=setup["dealer"], shuffles=list(shuffles))
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
        self.plays_cache = None  # (version, payload)
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

    def public_seats(self) -> list[dict]:
        return [{**base, "bot": s.bot, "joined": s.token_hash is not None}
                for base, s in zip(self.public_seats_base, self.seats)]

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
            seat.gen, seat.token_hash = data["gen"], None
        elif kind == "claim":
            self.seats[data["seat"]].token_hash = data["hash"]
        elif kind == "host":
            self.host_hashes.add(data["hash"])
        elif kind == "bot":
            seat = self.seats[data["seat"]]
            seat.bot, seat.bot_obj = data["bot"], None
            if data["bot"]:
                seat.token_hash = None
        elif kind != "shuffle":
            raise ValueError(f"unknown event kind {kind!r}")


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
    if preset not in PRESETS:
        raise ApiError(400, f"unknown rules preset {preset!r}; choose one of {', '.join(PRESETS)}")
    players = data.get("players")
    if players not in TEAM_LAYOUTS or isinstance(players, bool):
        raise ApiError(400, "players must be 2, 4, 6, 8 or 10")
    teams = data.get("teams", 2)
    if teams not in TEAM_LAYOUTS[players] or isinstance(teams, bool):
        raise ApiError(400, f"{players} players can play as "
                       f"{' or '.join(str(t) for t in TEAM_LAYOUTS[players])} teams, not {teams!r}")
    names = data.get("names")
    if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names):
        raise ApiError(400, f"names must be a list of {players} names")
    names = [" ".join(n.split())[:MAX_NAME] for n in names]
    for i, n in enumerate(names):
        if not n:
            raise ApiError(400, f"seat {i + 1} needs a name")
    if len(set(n.casefold() for n in names)) != players:
        raise ApiError(400, "every player needs a different name")
    cols = data.get("colours", colours.DEFAULTS[:players])
    if not isinstance(cols, list) or len(cols) != players or not all(c in colours.BY_KEY for c in cols):
        raise ApiError(400, f"colours must be a list of {players} colours from: {', '.join(colours.BY_KEY)}")
    if len(set(cols)) != players:
        raise ApiError(400, "every seat needs a different peg colour")
    bots = data.get("bots", [None] * players)
    if not isinstance(bots, list) or len(bots) != players or not all(b is None or b in BOTS for b in bots):
        raise ApiError(400, f"bots must be a list of {players} entries, each null or one of {', '.join(BOTS)}")
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
    draw = bool(data.get("draw_for_partners", False))
    dealer = data.get("dealer", players - 1)
    seating = list(range(players))
    draw_info = None
    if draw:
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


# ===================================================================== service
class TableService:
    def __init__(self, store, secret: bytes, bot_delay: float = 0.8, max_streams: int = 40):
        self.store = store
        self.secret = secret
        self.bot_delay = bot_delay
        self.max_streams = max_streams
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        self._lock = threading.Lock()
        self.closing = threading.Event()
        self._streams: dict[str, tuple] = {}  # key -> (table, stop event), oldest first
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
        events = self.store.events(gid)
        try:
            if not events or events[0][1] != "created":
                raise ValueError("the log does not start with the table's creation")
            shuffles = [d["cards"] for _, kind, d in events if kind == "shuffle"]
            table = Table(gid, events[0][2]["setup"], events[0][2]["at"], shuffles)
            for seq, kind, data in events[1:]:
                table.apply(kind, data)
            table.version = events[-1][0]
            table.game.take_new_shuffles()
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
                raise ApiError(500, "this game's log could not be replayed; see the server log")
            raise ApiError(404, "there is no table with that id on this companion")
        return table

    def summaries(self) -> list[dict]:
        out = []
        for table in sorted(self.tables.values(), key=lambda t: -t.created):
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
            raise ApiError(403, "this phone does not hold a seat at this table: scan your "
                           "seat's QR code, or ask the host for a new one", code="no_seat")
        return seat

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
        digest = hmac.new(self.secret, f"{table.gid}:{seat}:{gen}".encode(), "sha256").digest()
        n = int.from_bytes(digest[:8], "big")
        out = []
        for _ in range(CODE_LEN):
            n, r = divmod(n, len(CODE_ALPHABET))
            out.append(CODE_ALPHABET[r])
        return "".join(out)

    def find_code(self, code: str):
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
            self._check_version(table, data.get("version"))
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
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
                raise ApiError(400, f"\"seat\" must be a seat number 0-{len(table.seats) - 1}")
            s = table.seats[seat]
            if action == "reseat":
                if s.bot:
                    raise ApiError(409, "the computer plays this seat; give it back to a person first")
                s.gen += 1
                s.token_hash = None
                self._commit(table, [("invite", {"seat": seat, "gen": s.gen})])
                return {"ok": True, "version": table.version}
            if action == "bot":
                bot = data.get("bot")
                if bot is not None and bot not in BOTS:
                    raise ApiError(400, f"\"bot\" must be null or one of {', '.join(BOTS)}")
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
                seats.append({**s, "code": code, "link": link, "qr": qr_svg(link)})
            return {"gid": table.gid, "version": table.version, "status": table.status,
                    "seats": seats, "rules": table.game.rules.to_json(),
                    "draw": table.setup.get("draw"), "dealer": table.game.dealer,
                    "history": len(table.game.history), "turn": table.game.turn}

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
                s.bot_obj = make_bot(s.bot, random.Random(secrets.randbits(64)))
            seat = g.actor
            play = s.bot_obj.choose(g, g.legal_plays())
            table.push(play)
            try:
                self._commit(table, [("action", {"seat": seat, "move": play.move.text(table.geo),
                                                 "card": play.card})])
            except ApiError:
                self._bots.schedule(gid, max(self.bot_delay, 1.0))

    # ------------------------------------------------------------ streams
    def open_stream(self, table: Table, key: str) -> threading.Event:
        """Register a change stream; a newer one with the same key ends the older."""
        stop = threading.Event()
        with self._lock:
            old = self._streams.pop(key, None)
            self._streams[key] = (table, stop)
            evicted = [old] if old else []
            while len(self._streams) > self.max_streams:
                evicted.append(self._streams.pop(next(iter(self._streams))))
        for t, ev in evicted:
            ev.set()
            with t.cond:
                t.cond.notify_all()
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
    """One thread that lets bots act a moment after it becomes their turn."""

    def __init__(self, service: TableService):
        super().__init__(name="pegs-bots", daemon=True)
        self.service = service
        self.cond = threading.Condition()
        self.heap: list[tuple[float, str]] = []
        self.pending: set[str] = set()
        self.stopped = False

    def schedule(self, gid: str, delay: float) -> None:
        with self.cond:
            if gid in self.pending:
                return
            self.pending.add(gid)
            heapq.heappush(self.heap, (time.monotonic() + delay, gid))
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
                _, gid = heapq.heappop(self.heap)
                self.pending.discard(gid)
            try:
                self.service.bot_step(gid)
            except Exception:  # a bot must never take the thread down
                log.exception("bot failed in game %s", gid)


__all__ = ["TableService", "Table", "parse_setup", "hole_id", "token_hash"]
