"""A whole game: seats, the shoe, hands, turns, push/pop, records and views.

A game is its set-up (rules, players, teams, dealer), its randomness (a seed,
or the recorded shuffles of a game dealt with `secrets.SystemRandom`) and its
list of moves, so any game can be replayed (`Game.from_record`).

Turn flow (RULES C2-C4, P7, M10): at rest the seat to act holds its full
choice of cards (6 when drawing first, 5 when drawing after). `push` plays
one card, makes the move, draws (draw after), passes the turn and lets the
next seat draw (draw first); no card is drawn after the winning move. With
Bluffing Joker (V-BJ) the doubt window and the penalty choice are steps of
their own, made by the seat whose decision it is (`actor`).
"""
from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import SetupError
from .board import START, seat_sides, sides_for, team_lists
from .cards import Shoe, rank_of, shoe_of
from .message import Ref, msg
from .moves import (DISCARD, DOUBT, PASS, PENALTY, RANKS, AmbiguousMoveError,
                    IllegalMoveError, Move, MoveSyntaxError)
from .families.pegs.position import Position
from .rules import Rules, family_name, rules_from_json
from .state import PegState, Saved, bits as _bits

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator
    from .board import Geometry
    from .plays import Say, SeatNaming

GAME_FORMAT = "pegs-and-jokers/game/1"
PLAY, DOUBT_PHASE, PENALTY_PHASE, OVER = "play", "doubt", "penalty", "over"


class Play(NamedTuple):
    """A legal action: the move and the real card it spends (None if no card)."""
    move: Move
    card: str | None


class _Undo(NamedTuple):
    """What `Game.pop` puts back: the state before one push."""
    shoe: Any              # shoe.snapshot(), or (stock size, its top 3, discard size) if not `full`
    full: bool
    hands: list[list[str]]
    position: Saved
    phase: str
    pending: dict[str, Any] | None
    grants: tuple[tuple[int, int], ...]
    winner: int | None
    turn: int
    top_hidden: bool


class _ShuffleLog:
    """Wraps the random source: shuffles with it and logs every result.

    The log holds the shuffles in effect (an undone reshuffle is forgotten),
    so a game dealt with `secrets.SystemRandom` can still be recorded and
    replayed. With ``replay`` it first plays logged shuffles back, in the
    order they were made (never rewinding: a live game that undid a
    reshuffle shuffled anew when it drew again), then shuffles fresh.

    Fresh shuffles (not played back) also wait in ``fresh`` until
    `take_fresh` hands them out, undone ones included: that is what a live
    store appends to its log so that ``replay`` = everything it logged
    deals and draws the same cards again.
    """

    def __init__(self, rng: random.Random, replay: Iterable[list[str]] = ()) -> None:
        self.rng = rng
        self.replay = [list(s) for s in replay]
        self.used = 0
        self.log: list[list[str]] = []
        self.fresh: list[list[str]] = []

    def shuffle(self, cards: list[str]) -> None:
        if self.used < len(self.replay):
            nxt = self.replay[self.used]
            if sorted(nxt) != sorted(cards):
                raise SetupError(f"recorded shuffle {self.used} does not hold the cards being shuffled")
            cards[:] = nxt
            self.used += 1
        else:
            self.rng.shuffle(cards)
            self.fresh.append(list(cards))
        self.log.append(list(cards))

    def take_fresh(self) -> list[list[str]]:
        out, self.fresh = self.fresh, []
        return out

    def getstate(self) -> tuple[int, Any]:
        try:
            inner = self.rng.getstate()
        except (AttributeError, NotImplementedError):
            inner = None
        return len(self.log), inner

    def setstate(self, state: tuple[int, Any]) -> None:
        n, inner = state
        del self.log[n:]
        if inner is not None:  # a seeded game reshuffles the same way again
            self.rng.setstate(inner)


def _check_family(game: "Game") -> None:
    """A game class plays its own family's rules: the others' need their game (new_game)."""
    name = family_name(game.rules)
    if name != game.FAMILY:
        raise SetupError(f"these {game.rules.preset} rules are played by the {name!r} family's "
                         f"game, not {type(game).__name__}: make it with "
                         f"companion.families.new_game")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_record_types(record: dict[str, Any]) -> None:
    """ValueError naming the first field of a record that has the wrong type (before any use)."""
    for key in ("players", "teams", "dealer"):
        if record.get(key) is not None and not _whole(record[key]):
            raise SetupError(f"the record's {key!r} must be a whole number, not {record[key]!r}")
    seed = record.get("seed")
    if seed is not None and not (_whole(seed) or isinstance(seed, str)):
        raise SetupError(f"the record's 'seed' must be a whole number or text, not {seed!r}")
    if "shuffles" in record:
        shuffles = record["shuffles"]
        if not isinstance(shuffles, list) or not all(
                isinstance(s, list) and all(isinstance(c, str) for c in s) for s in shuffles):
            raise SetupError("the record's 'shuffles' must be a list of lists of cards")
    moves = record.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
        raise SetupError("the record's 'moves' must be a list of objects {\"move\", \"card\"}")


class Game:
    position: PegState  # the family's position (Pegs and Jokers': `families.pegs.position.Position`)
    """A game of Pegs and Jokers from the deal to the win.

    ``seed`` seeds a `random.Random` (tests, simulations); without a seed or
    ``rng`` the shoe is shuffled with `secrets.SystemRandom` (C5) and the
    shuffles are recorded for the game record. ``shuffles`` (a record's, or
    a live store's log of them) are played back first, in order, before any
    fresh shuffle; `take_new_shuffles` gives the fresh ones to be stored.
    """

    FAMILY = "pegs"  # the rule family this class plays (`companion.families`)

    @classmethod
    def check_setup(cls, rules: Rules, players: int, teams: int | None = None,
                    dealer: int | None = None, sides: int | None = None) -> None:
        """SetupError unless this family can seat `players` in `teams` with `dealer` dealing
        (`new_game` and a record's replay call it; a table's set-up is checked by
        `companion.setup.parse_setup` instead, so the constructor checks neither)."""
        team_lists(players, teams)  # G1 seat counts, T1 team layouts
        if dealer is not None and not 0 <= dealer < players:
            raise SetupError(f"dealer must be a seat 0-{players - 1}")

    def __init__(self, rules: Rules | str | dict[str, Any] = "basic", players: int = 4,
                 teams: int | None = None, seed: int | str | None = None, rng: random.Random | None = None,
                 dealer: int | None = None, shuffles: Iterable[list[str]] | None = None) -> None:
        # the seats, teams and dealer are not checked here: `check_setup` does it for
        # new_game and a record, companion.setup.parse_setup for a table
        self.rules = rules_from_json(rules)
        _check_family(self)
        self.players = players
        self.sides = sides_for(players)
        self.seat_side = seat_sides(players)
        self.side_seat = {s: i for i, s in enumerate(self.seat_side)}
        self.team_count = 2 if teams is None else teams
        team_sides = team_lists(players, self.team_count)
        self.seed = seed if (shuffles is None and rng is None) else None
        if rng is None:
            rng = random.Random(seed) if seed is not None and shuffles is None \
                else secrets.SystemRandom()  # C5
        self.rng = _ShuffleLog(rng, shuffles or ())
        self.dealer = players - 1 if dealer is None else dealer
        r = self.rules
        self.shoe = Shoe(shoe_of(r, players), self.rng)
        # Hand lists are replaced on every change, never edited in place, so an
        # undo record need only copy the outer list.
        self.hands = self.shoe.deal(players, r.hand_size)
        first = (self.dealer + 1) % players
        pegs = {side: [START] * r.pegs_per_side for side in self.seat_side}
        self.position = Position.from_pegs(r, self.sides, team_sides, pegs, self.seat_side[first])
        self.phase = PLAY
        self.pending: Any = None   # V-BJ: the declared play awaiting doubts / penalty
        self._grants: tuple[tuple[int, int], ...] = ()  # V-BJ extra turns: (seat, turn when granted)
        self.winner: int | None = None  # team index (M10)
        self.turn = 0              # completed turns
        self.top_hidden = False    # the top discard was played face down (V-BJ)
        self.history: list[dict[str, Any]] = []  # [{"seat", "move", "card", "public"}]
        self._undo: list[Any] = []
        if r.draw == "first":
            self.hands[first].append(self.shoe.draw())

    # ------------------------------------------------------------------ state
    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        return self.side_seat[self.position.to_move]

    @property
    def actor(self) -> int | None:
        """The seat that must act now (the turn's player, a doubter, a chooser)."""
        if self.phase == PLAY:
            return self.seat
        if self.phase == DOUBT_PHASE:
            seat: int = self.pending["queue"][0]
            return seat
        if self.phase == PENALTY_PHASE:
            chooser: int = self.pending["chooser"]
            return chooser
        return None

    @property
    def extra_turns(self) -> list[int]:
        """Extra turns owed per seat (V-BJ), each taken at that seat's next turn."""
        return [sum(1 for g in self._grants if g[0] == s) for s in range(self.players)]

    def is_over(self) -> bool:
        return self.phase == OVER

    def _acting(self) -> int:
        """`actor` where the phase has one (callers check the game is not over first)."""
        actor = self.actor
        assert actor is not None, "no seat acts: the game is over"
        return actor

    def team_of_seat(self, seat: int) -> int:
        return self.position.team_of[self.seat_side[seat]]

    # ------------------------------------------------------------- generation
    def legal_plays(self) -> list[Play]:
        """The legal plays of the seat that must act (`actor`), each a move and the real
        card it spends; one per distinct end position and card rank (R4).

        >>> from companion.families import new_game
        >>> game = new_game("basic", players=4, seed=7)
        >>> game.actor, game.hands[game.actor]
        (0, ['3D', 'KS', 'AC', 'AS', 'JK', '8D'])
        >>> [(play.move.text(game.position.geo), play.card) for play in game.legal_plays()]
        [('K 0:S-M8', 'KS'), ('A 0:S-M8', 'AC')]
        """
        if self.phase == PLAY and not self.rules.bluffing:  # the bots' hot path
            hand = self.hands[self.seat]
            first_card = {}
            for card in hand:
                rk = card[:-1] if card != "JK" else card
                if rk not in first_card:
                    first_card[rk] = card
            moves, discard = self.position.hand_moves(first_card)
            new = tuple.__new__
            plays = [new(Play, (m, first_card[m[0]])) for m in moves]
            if discard:
                plays.extend(new(Play, (Move(rk, DISCARD), c)) for rk, c in first_card.items())
            return plays
        return list(self.iter_plays())

    def iter_plays(self) -> Iterator[Play]:
        """Lazily yield every legal Play for the actor."""
        if self.phase == PLAY:
            hand = self.hands[self.seat]
            pos = self.position
            ranks, first_card = [], {}
            for card in hand:
                rk = rank_of(card)
                if rk not in first_card:
                    first_card[rk] = card
                    ranks.append(rk)
            if self.rules.bluffing:
                for move in pos.legal_moves(RANKS):
                    for rk in ranks:
                        yield Play(move, first_card[rk])
                discard = pos.discard_allowed(ranks)
            else:
                moves, discard = pos.hand_moves(ranks)
                new = tuple.__new__
                for move in moves:
                    yield new(Play, (move, first_card[move[0]]))
            if discard:
                for rk in ranks:
                    yield Play(Move(rk, DISCARD), first_card[rk])
        elif self.phase == DOUBT_PHASE:
            yield Play(Move("", PASS), None)
            yield Play(Move("", DOUBT), None)
        elif self.phase == PENALTY_PHASE:
            victim = self.pending["victim"]
            pos = self.position
            for h in _bits(pos.occ[victim] & pos.geo.main_mask):
                yield Play(Move("", PENALTY, ((victim, h, START),)), None)

    def parse(self, text: str, card: str | None = None) -> Play:
        """Parse and check a move typed by the actor; the card is optional.

        A move without a rank ("0:M10-M17") is accepted when one card of the
        hand makes it; AmbiguousMoveError when several would.
        """
        geo = self.position.geo
        words = text.split() if isinstance(text, str) else []
        if words and words[0].upper() not in RANKS and words[0] not in ("doubt", "pass", "penalty"):
            candidates = []
            for rk in dict.fromkeys(rank_of(c) for c in self.hands[self.seat]):
                try:
                    candidates.append(self.check(Move.from_text(f"{rk} {text}", geo, self.sides), card))
                except IllegalMoveError:
                    pass
            if not candidates:
                Move.from_text(f"A {text}", geo, self.sides)  # syntax errors first
                raise IllegalMoveError(f"no card in the hand makes {text!r}", "P7",
                                       msg("no card in your hand makes that move"))
            if len(candidates) > 1:
                raise AmbiguousMoveError(f"{text!r} can be made with " + ", ".join(
                    p.move.rank for p in candidates) + "; name the card", candidates)
            return candidates[0]
        return self.check(Move.from_text(text, geo, self.sides), card)

    def check(self, move: Move, card: str | None = None) -> Play:
        """The Play for `move` if the actor may make it, else IllegalMoveError."""
        if self.phase == OVER:
            raise IllegalMoveError("the game is over", "M10", msg("the game is over"))
        kind = move.kind
        if self.phase in (DOUBT_PHASE, PENALTY_PHASE):
            for play in self.iter_plays():
                if play.move == move:
                    return play
            if self.phase == DOUBT_PHASE:
                raise IllegalMoveError("now is the time to doubt or pass", "V-BJ",
                                       msg("now is the time to doubt or pass"))
            raise IllegalMoveError("choose a peg on the main track to send back to start", "V-BJ",
                                   msg("choose a peg on the main track to send back to start"))
        if kind in (DOUBT, PASS, PENALTY):
            raise IllegalMoveError("there is no declared card to doubt now", "V-BJ",
                                   msg("there is no declared card to doubt now"))
        hand = self.hands[self.seat]
        if card is not None:
            if card not in hand:
                raise IllegalMoveError(f"{card} is not in the hand", "C5",
                                       msg("%(card)s is not in your hand", card=Ref("card", card)))
        else:
            card = next((c for c in hand if rank_of(c) == move.rank), None)
            if card is None:
                if self.rules.bluffing and kind != DISCARD:
                    raise IllegalMoveError("name the real card played face down", "V-BJ",
                                           msg("name the real card played face down"))
                raise IllegalMoveError(f"there is no {move.rank} in the hand", "P7",
                                       msg("there is no %(rank)s in your hand", rank=Ref("rank", move.rank)))
        ranks = {rank_of(c) for c in hand}
        if rank_of(card) != move.rank and not (self.rules.bluffing and kind != DISCARD):
            raise IllegalMoveError(f"the card {card} does not make a {move.rank} move", "P7",
                                   msg("%(card)s does not make a move of %(rank)s", card=Ref("card", card),
                                       rank=Ref("a rank", move.rank)))
        pos = self.position
        if kind == DISCARD:
            pos.check_move(move, ranks)
        else:
            pos.check_move(move, None if self.rules.bluffing else ranks)
        return Play(move, card)

    # ------------------------------------------------------------- push / pop
    def push(self, move: Move | Play, card: str | None = None) -> None:
        """Check and make a move for the actor (a `Play`, or a `Move` and the card).

        >>> from companion.families import new_game
        >>> game = new_game("basic", players=4, seed=7)
        >>> game.push(game.legal_plays()[0])
        >>> game.turn, game.history[-1]["move"].text(game.position.geo), game.actor
        (1, 'K 0:S-M8', 1)
        >>> game.pop()["card"]                      # undone exactly: the turn, hand and pegs
        'KS'
        >>> game.turn, game.position.pegs()[0]
        (0, [-1, -1, -1, -1, -1])
        """
        if isinstance(move, Play):
            move, card = move
        self._push(self.check(move, card))

    def push_text(self, text: str, card: str | None = None) -> Play:
        play = self.parse(text, card)
        self._push(play)
        return play

    def _push(self, play: Play) -> None:
        """Make a legal play (unchecked: callers use `push`, bots pass legal plays)."""
        move, card = play
        pos, shoe = self.position, self.shoe
        stock = shoe.stock
        full = len(stock) < 3  # a reshuffle may happen: save everything
        # tuple.__new__: a named tuple's own __new__ is a Python call, once per play pushed
        self._undo.append(tuple.__new__(_Undo, (
            shoe.snapshot() if full else (len(stock), stock[-3:], len(shoe.discard)),
            full, self.hands[:], pos.save(), self.phase, self.pending, self._grants,
            self.winner, self.turn, self.top_hidden)))
        # The move's text is made when a record or view asks for it.
        self.history.append({"seat": self.actor, "move": move, "card": card,
                             "public": not self.rules.bluffing or move[1] == DISCARD})
        kind = move[1]
        if self.phase == PLAY:
            seat = self.seat
            hand = self.hands[seat][:]  # hands are replaced, never edited: cheap undo
            hand.remove(card)  # type: ignore[arg-type]  # a play phase card is a card
            self.hands[seat] = hand
            if self.rules.bluffing and kind != DISCARD:
                opponents = [(seat + k) % self.players for k in range(1, self.players)]
                queue = [s for s in opponents if self.team_of_seat(s) != self.team_of_seat(seat)]
                self.pending = {"seat": seat, "card": card, "move": move, "queue": queue}
                self.phase = DOUBT_PHASE
                return
            pos.apply(move, pos.to_move)
            shoe.discard.append(card)  # type: ignore[arg-type]
            self.top_hidden = False
            self._end_turn(seat)
        elif self.phase == DOUBT_PHASE:
            p = self.pending
            if kind == PASS:
                p = self.pending = {**p, "queue": p["queue"][1:]}
                if not p["queue"]:  # no doubt: the move stands, the card stays unseen
                    pos.apply(p["move"], pos.to_move)
                    shoe.discard.append(p["card"])
                    self.top_hidden = True
                    self.pending = None
                    self.phase = PLAY
                    self._end_turn(p["seat"])
                return
            doubter, bluffer = p["queue"][0], p["seat"]
            shoe.discard.append(p["card"])  # doubted: revealed
            self.top_hidden = False
            self.history[-1]["revealed"] = p["card"]  # on the doubt's own entry
            if rank_of(p["card"]) != p["move"].rank:  # a caught bluff: no move
                self._penalty(chooser=doubter, victim_seat=bluffer, turn_seat=bluffer)
            else:  # a wrong doubt: the move stands, then the doubter pays
                pos.apply(p["move"], pos.to_move)
                if pos.winner() is not None:
                    self.pending = None
                    self.phase = PLAY
                    self._end_turn(bluffer)
                    return
                self._penalty(chooser=bluffer, victim_seat=doubter, turn_seat=bluffer)
        elif self.phase == PENALTY_PHASE:
            pos.apply(move, pos.to_move)
            turn_seat = self.pending["turn_seat"]
            self.pending = None
            self.phase = PLAY
            self._end_turn(turn_seat)

    def _penalty(self, chooser: int, victim_seat: int, turn_seat: int) -> None:
        pos = self.position
        victim = self.seat_side[victim_seat]
        if pos.occ[victim] & pos.geo.main_mask:
            self.pending = {"chooser": chooser, "victim": victim, "turn_seat": turn_seat}
            self.phase = PENALTY_PHASE
        else:  # nothing to send back: the winner of the doubt gets an extra turn
            self._grants += ((chooser, self.turn),)
            self.pending = None
            self.phase = PLAY
            self._end_turn(turn_seat)

    def _end_turn(self, seat: int) -> None:
        pos = self.position
        current = self.turn
        self.turn += 1
        won = pos.winner()
        if won is not None:  # M10: ends at once, no draw
            self.winner = won
            self.phase = OVER
            return
        if self.rules.draw == "after":
            self.hands[seat] = self.hands[seat] + [self.shoe.draw()]
        # V-BJ: an extra turn is taken at the seat's next turn, not this one.
        grant = next((g for g in self._grants if g[0] == seat and g[1] < current), None)
        if grant is not None:
            grants = list(self._grants)
            grants.remove(grant)
            self._grants = tuple(grants)
            nxt = seat
        else:
            nxt = (seat + 1) % self.players
        pos.to_move = self.seat_side[nxt]
        if self.rules.draw == "first":
            self.hands[nxt] = self.hands[nxt] + [self.shoe.draw()]

    def plays_for(self, seat: int, names: SeatNaming | None = None,
                  say: Say | None = None) -> dict[str, Any]:
        """The plays the phone of `seat` (the actor) is offered now, JSON-ready: grouped
        by card, each with its taps, result and hits (`companion.plays`). `names` and
        `say` word the related games' plays (a table passes `companion.words.Names` and
        `companion.words.move_words`)."""
        from .plays import offered_plays
        return offered_plays(self, seat, names, say)

    def undo_turn(self, bots: Collection[int] = ()) -> list[dict[str, Any]]:
        """Undo the last play; when people play too (a seat not in `bots`, the computer's
        seats), also the computer's plays before it, until a person is to act again.
        Returns the history entries taken back, newest first."""
        humans = any(s not in bots for s in range(self.players))
        undone = []
        while self.history:
            undone.append(self.pop())
            if not humans or self.actor not in bots:
                break
        return undone

    def undo_span(self, bots: Collection[int] = ()) -> list[dict[str, Any]]:
        """The history entries `undo_turn(bots)` would take back, newest first (for an
        "are you sure?"), without undoing anything."""
        humans = any(s not in bots for s in range(self.players))
        span = []
        for entry in reversed(self.history):
            span.append(entry)
            if not humans or entry["seat"] not in bots:
                break
        return span

    def pop(self) -> dict[str, Any]:
        """Undo the last push; returns its history entry (see `push`)."""
        (shoe_state, full, hands, saved, self.phase, self.pending,
         self._grants, self.winner, self.turn, self.top_hidden) = self._undo.pop()
        shoe = self.shoe
        if full:
            shoe.restore(shoe_state)
        else:
            n_stock, tail, n_discard = shoe_state
            del shoe.stock[n_stock - len(tail):]
            shoe.stock.extend(tail)
            del shoe.discard[n_discard:]
        self.hands = hands
        self.position.restore(saved)
        return self.history.pop()

    # ---------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The game record: set-up, randomness and moves (NOTATION.md move text)."""
        rec: dict[str, Any] = {"format": GAME_FORMAT, "rules": self.rules.to_json(), "players": self.players,
               "teams": self.team_count, "dealer": self.dealer,
               "moves": [{"move": h["move"].text(self.position.geo), "card": h["card"]}
                         for h in self.history]}
        if self.seed is not None:
            rec["seed"] = self.seed
        else:
            rec["shuffles"] = [list(s) for s in self.rng.log]
        return rec

    def take_new_shuffles(self) -> list[list[str]]:
        """The shuffles made fresh since the last call (not played back from
        ``shuffles``), oldest first, each the resulting card order.

        Undone reshuffles are included: play-back never rewinds, so a log
        that appends these after each change, given back as ``shuffles``,
        deals and draws exactly as this game did. (`record` holds only the
        shuffles in effect, for a replay of the moves alone.)
        """
        return self.rng.take_fresh()

    @staticmethod
    def from_record(record: dict[str, Any], upto: int | None = None) -> "Game":
        """Replay a record (all moves, or the first `upto`): a game of the record's
        family, whichever game class this is called on (`families.game_from_record`)."""
        from .families import game_from_record
        return game_from_record(record, upto)

    @classmethod
    def replay(cls, record: dict[str, Any], upto: int | None = None) -> "Game":
        """Replay a record of this class's family (all moves, or the first `upto`)."""
        if not isinstance(record, dict) or record.get("format") != GAME_FORMAT:
            raise SetupError(f"not a game record: expected format {GAME_FORMAT!r}")
        _check_record_types(record)
        kwargs = dict(rules=record.get("rules", "basic"), players=record.get("players", 4),
                      teams=record.get("teams"), dealer=record.get("dealer"))
        if "sides" in record:  # the related games' board (CB-G1)
            kwargs["sides"] = record["sides"]
        cls.check_setup(rules_from_json(kwargs["rules"]), kwargs["players"], kwargs["teams"],
                        kwargs["dealer"], kwargs.get("sides"))
        if "shuffles" in record:
            game = cls(**kwargs, shuffles=record["shuffles"])
        elif record.get("seed") is not None:
            game = cls(**kwargs, seed=record["seed"])
        else:
            raise SetupError("the record has neither a seed nor recorded shuffles")
        moves = record.get("moves", [])
        for i, entry in enumerate(moves[:upto]):
            try:
                game.push_text(entry["move"], entry.get("card"))
            except (MoveSyntaxError, IllegalMoveError, KeyError, TypeError) as exc:
                shown = repr(entry) if len(repr(entry)) <= 80 else repr(entry)[:77] + "..."
                raise SetupError(f"move {i + 1} ({shown}) does not replay: {exc}") from None
        return game

    # ------------------------------------------------------------------ views
    def player_view(self, seat: int | None) -> dict[str, Any]:
        """What one seat may see (None: the table view). JSON-ready.

        Other hands appear only as counts; the stock only as a count; a card
        played face down (V-BJ) only if it was doubted.
        """
        pos = self.position
        view: dict[str, Any] = {
            "seat": seat,
            "rules": self.rules.to_json(),
            "players": self.players,
            "seat_sides": list(self.seat_side),
            "teams": [[self.side_seat[c] for c in t] for t in pos.teams],
            "position": pos.to_json(),
            "phase": self.phase,
            "turn_seat": self.seat,
            "actor": self.actor,
            "hand_sizes": [len(h) for h in self.hands],
            "stock": len(self.shoe.stock),
            "discard_count": len(self.shoe.discard),
            "discard_top": (None if not self.shoe.discard else
                            "hidden" if self.top_hidden else self.shoe.discard[-1]),
            "winner": None if self.winner is None else [self.side_seat[c] for c in pos.teams[self.winner]],
            "turn": self.turn,
            "log": [self._public_entry(h, seat, pos.geo) for h in self.history[-30:]],
            "progress": self.progress(),
        }
        if self.rules.open_hand:  # CB-V2 as an option: every hand face up
            view["hands"] = [list(h) for h in self.hands]
        if seat is not None:
            view["hand"] = list(self.hands[seat])
            view["controls"] = [self.side_seat[c] for c in pos.controlled(self.seat_side[seat])]
        if self.rules.counting:
            view["counting"] = [pos.counting[s] for s in self.seat_side]
        if self.pending and self.phase == DOUBT_PHASE:
            view["declared"] = {"seat": self.pending["seat"],
                                "move": self.pending["move"].text(pos.geo),
                                "queue": list(self.pending["queue"])}
        if self.pending and self.phase == PENALTY_PHASE:
            view["penalty"] = {"chooser": self.pending["chooser"],
                               "victim_seat": self.side_seat[self.pending["victim"]]}
        if self._grants:
            view["extra_turns"] = self.extra_turns
        return view

    @staticmethod
    def _public_entry(entry: dict[str, Any], seat: int | None, geo: Geometry) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": entry["seat"], "move": entry["move"].text(geo)}
        if entry["public"] or entry["seat"] == seat:
            out["card"] = entry["card"]
        if "revealed" in entry:
            out["card"] = entry["revealed"]
        return out

    def progress(self) -> list[dict[str, Any]]:
        """Per team: pegs home out of pegs in play (for the table view)."""
        pos = self.position
        out = []
        for team in pos.teams:
            home = sum(bin(pos.occ[c] >> pos.L).count("1") for c in team)
            out.append({"seats": [self.side_seat[c] for c in team], "home": home,
                        "pegs": len(team) * self.rules.pegs_per_side})
        return out


__all__ = ["Game", "Play", "GAME_FORMAT"]
