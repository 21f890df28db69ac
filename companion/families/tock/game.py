"""A whole game of Tock, Carbles or Jackaroo (RELATED-GAMES.md): `Game` for the
related rules, made by `companion.families.new_game` (or `game_from_record`).

What differs from the Pegs and Jokers turn flow: hands are dealt in rounds with
no drawing (TK-C2, CB-C2, JR-C2); after a deal, partners may each pass one
card (TK-V4.1, phase ``give``); a stuck player discards his hand and waits
(TK-P3) or burns a card (CB-P4, JR-P9); a 10 may force the next player to
discard a card of his choice (phase ``forced``, JR-P5) and a red queen takes
a random card from him (JR-P6), each adding a skip (JR-P11); turns may pass
counter-clockwise (JR-G2).

Secrets (C5): a passed card is seen by its giver and receiver only; a card
taken by a red queen lies face down on the discard pile, seen only by the
thief and its former holder; with Open Hand (CB-V2) every hand is shown.
Random choices go through the shuffle log, so records replay exactly.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ...errors import RulesError, SetupError
from ...board import START
from ...cards import Shoe, make_shoe
from ...game import OVER, PLAY, Game, Play, _ShuffleLog, _check_family
from ...message import Ref, msg, nmsg
from ...moves import (DISCARD, FORCE, GIVE, HAND, AmbiguousMoveError, IllegalMoveError, Move,
                    canonical_rank)
from ...rules import Rules, rules_from_json
from ...state import Saved
from .position import SEATS, SECTIONS, TockPosition, board_sizes, card_rank, seat_sections

if TYPE_CHECKING:
    import random
    from collections.abc import Iterable, Iterator
    from ...board import Geometry

GIVE_PHASE, FORCED_PHASE = "give", "forced"

# RG-D1 (docs/related-reference-notes.md): the game is drawn when this many deals
# in a row end with no peg moved (everyone stuck or giving up the hand), where it
# would otherwise be dealt forever; normal play never comes near it.
STILL_DEALS_TO_DRAW = 10

# SEATS: seat counts of each preset (RELATED-GAMES.md S); other rule sets take
# 2-12 seats that the deck can deal to.


def default_sections(rules: Rules, players: int) -> int:
    """Board sides: the Tock board (4), or for Carbles the smallest of 4, 6, 8, 12
    sections that seats everyone (CB-G1)."""
    sizes = board_sizes(rules)
    return next((s for s in sizes if s >= players), sizes[-1])


class _Undo(NamedTuple):
    """What `TockGame.pop` puts back: the state before one push."""
    shoe: Any
    hands: list[list[str]]
    position: Saved
    phase: str
    skips: list[int]
    deals: int
    dealer: int
    gives: dict[int, str]
    forcer: int | None
    secret_top: Any
    winner: int | None
    turn: int
    waiting: frozenset[int]
    moved: bool
    still_deals: int
    drawn: bool


def _team_seats(rules: Rules, players: int, teams: int | None) -> list[list[int]]:
    """The seats of each team: partners opposite (seats i and i + n/2) when the rules pair
    them, else each seat alone."""
    pairs = rules.team_play == "pairs" or (rules.team_play == "any" and teams not in (None, players))
    half = players // 2
    return [[i, i + half] for i in range(half)] if pairs else [[i] for i in range(players)]


class TockGame(Game):
    """The Tock family's game: the same interface as `Game` (legal_plays, push, pop,
    record, player_view) with its own deal in rounds, passing and forces."""

    position: TockPosition

    FAMILY = "tock"

    @classmethod
    def check_setup(cls, rules: Rules, players: int, teams: int | None = None,
                    dealer: int | None = None, sides: int | None = None) -> None:
        """SetupError unless the preset seats `players` (RELATED-GAMES.md S) on a board of
        `sides` (CB-G1) in `teams`, with `dealer` dealing and a shoe that deals them
        (`new_game` and a record's replay call it; a table's set-up is checked by
        `companion.setup.parse_setup`, so the constructor checks none of it)."""
        allowed = SEATS.get(rules.preset, tuple(range(2, 13)))
        if players not in allowed:
            raise SetupError(f"{rules.preset} is played by {' or '.join(map(str, allowed))} players, "
                             f"not {players}")
        board = default_sections(rules, players) if sides is None else sides
        if board not in SECTIONS or board < players:
            raise SetupError(f"{players} players need a board of 4, 6, 8 or 12 sides, at least "
                             f"one per player (CB-G1), not {board}")
        seats = _team_seats(rules, players, teams)
        if len(seats[0]) == 2 and players % 2:
            raise SetupError(f"{players} players can't sit in pairs")
        count = len(seats)
        if teams is not None and teams != count:
            raise SetupError(f"{rules.preset} with {players} players has {count} teams, "
                             f"not {teams}")
        if dealer is not None and not 0 <= dealer < players:
            raise SetupError(f"dealer must be a seat 0-{players - 1}")
        cards = len(make_shoe(rules.decks, rules.jokers_per_deck, rules.extra_jokers))
        if players * max(rules.deal) > cards:
            raise SetupError(f"{cards} cards can't deal {max(rules.deal)} to {players} players")

    def __init__(self, rules: Rules | str | dict[str, Any] = "tock", players: int = 4, teams: int | None = None,
                 seed: int | str | None = None, rng: random.Random | None = None, dealer: int | None = None,
                 shuffles: Iterable[list[str]] | None = None, sides: int | None = None) -> None:
        import random
        import secrets
        r = self.rules = rules_from_json(rules)
        _check_family(self)
        # the seats, board, teams, dealer and shoe are not checked here: `check_setup`
        # does it for new_game and a record, companion.setup.parse_setup for a table
        self.players = players
        self.sides = default_sections(r, players) if sides is None else sides
        self.seat_side = seat_sections(self.sides, players)
        self.side_seat = {s: i for i, s in enumerate(self.seat_side)}
        team_seats = _team_seats(r, players, teams)
        self.team_count = len(team_seats)
        self.seed = seed if (shuffles is None and rng is None) else None
        if rng is None:
            rng = random.Random(seed) if seed is not None and shuffles is None \
                else secrets.SystemRandom()
        self.rng = _ShuffleLog(rng, shuffles or ())
        self.dealer = players - 1 if dealer is None else dealer
        self.shoe = Shoe(make_shoe(r.decks, r.jokers_per_deck, r.extra_jokers), self.rng)
        self.step = -1 if r.direction == "counter" else 1
        pegs = {side: [START] * r.pegs_per_side for side in self.seat_side}
        teams_sides = [[self.seat_side[s] for s in t] for t in team_seats]
        self.position = TockPosition.from_pegs(r, self.sides, teams_sides, pegs, self.seat_side[0])
        self.hands = [[] for _ in range(players)]
        self.skips = [0] * players   # JR-P11, per seat
        self.waiting: frozenset[int] = frozenset()  # seats out until the next deal (TK-P3, JR-P10)
        self.deals = 0               # deals made (the round of the cycle is deals % len(deal))
        self.moved = False           # a peg moved in this deal (RG-D1)
        self.still_deals = 0         # deals in a row that ended with no peg moved (RG-D1)
        self.drawn = False           # ended by RG-D1, with no winner
        self.gives: dict[int, str] = {}  # seat -> card chosen to pass (TK-V4.1)
        self.forcer: int | None = None  # seat whose 10 forced the actor to discard (JR-P5)
        self.secret_top: Any = None  # (card, seats that saw it): a red queen's card (JR-P6)
        self.pending = None
        self._grants = ()
        self.winner = None
        self.turn = 0
        self.top_hidden = False
        self.history = []
        self._undo = []
        self.phase = PLAY
        self.first_dealer = self.dealer
        self.dealer = (self.dealer - self.step) % players  # _deal passes the deal on first
        self._deal()

    # ----------------------------------------------------------------- deal
    def _next_seat(self, seat: int) -> int:
        return (seat + self.step) % self.players

    def _deal(self) -> None:
        """TK-C2/C3, CB-C2, JR-C2/C3: the next round, one card at a time from the
        player after the dealer; the deal passes on after every deal."""
        r, shoe = self.rules, self.shoe
        self.dealer = self._next_seat(self.dealer)
        rnd = self.deals % len(r.deal)
        if rnd == 0 and self.deals and r.deal_reshuffle == "cycle":
            shoe.stock.extend(shoe.discard)  # TK-C2: all cards, TK-V5's set-aside one too
            shoe.discard.clear()
            self.rng.shuffle(shoe.stock)
            shoe.reshuffles += 1
            self.secret_top = None
        self.deals += 1
        lead = self._next_seat(self.dealer)
        hands = [h[:] for h in self.hands]
        for _ in range(r.deal[rnd]):
            seat = lead
            for _ in range(self.players):
                hands[seat].append(shoe.draw())  # CB-C2: refills from the discards
                seat = self._next_seat(seat)
        self.hands = hands
        self.skips = [0] * self.players  # JR-P11: skips lapse with the deal
        self.waiting = frozenset()
        self.position.to_move = self.seat_side[lead]
        if r.pass_card:
            self.gives = {}
            self.phase = GIVE_PHASE
        else:
            self.phase = PLAY

    # ------------------------------------------------------------------ state
    @property
    def actor(self) -> int | None:
        if self.phase == PLAY:
            return self.seat
        if self.phase == GIVE_PHASE:
            return next(s for s in self._order(self.seat) if s not in self.gives)
        if self.phase == FORCED_PHASE:
            assert self.forcer is not None  # set with the phase
            return self._next_seat(self.forcer)
        return None

    def _order(self, first: int) -> list[int]:
        return [(first + self.step * k) % self.players for k in range(self.players)]

    def partner(self, seat: int) -> int:
        """The seat of `seat`'s partner (partnership games: seats i and i + n/2)."""
        team = self.position.teams[self.team_of_seat(seat)]
        others = [self.side_seat[c] for c in team if self.side_seat[c] != seat]
        if not others:
            raise RulesError(f"seat {seat} plays alone: it has no partner")
        return others[0]

    def rank_of(self, card: str) -> str:
        return card_rank(self.rules, card)

    def _sync(self) -> None:
        """What the position's forces read (RG-N5): cards held per side."""
        pos = self.position
        pos.hand_sizes = {self.seat_side[s]: len(h) for s, h in enumerate(self.hands)}
        pos.waiting = frozenset(self.seat_side[s] for s in self.waiting)

    # ------------------------------------------------------------- generation
    def legal_plays(self) -> list[Play]:
        return list(self.iter_plays())

    def iter_plays(self) -> Iterator[Play]:
        if self.phase == OVER:
            return
        if self.phase == GIVE_PHASE:
            seat = self._acting()
            partner = self.partner(seat)
            for card in dict.fromkeys(self.hands[seat]):
                yield Play(Move(self.rank_of(card), GIVE, (self.seat_side[partner],)), card)
            return
        if self.phase == FORCED_PHASE:  # JR-P5: any card of his choice
            for card in dict.fromkeys(self.hands[self._acting()]):
                yield Play(Move(self.rank_of(card), DISCARD), card)
            return
        self._sync()
        hand = self.hands[self.seat]
        first: dict[str, str] = {}
        for card in hand:
            first.setdefault(self.rank_of(card), card)
        moves, stuck = self.position.hand_moves(list(first))
        for m in moves:
            yield Play(m, first[m[0]])
        r = self.rules
        if stuck and r.stuck == "card":  # CB-P4, JR-P9: burn one card
            for rk, card in first.items():
                yield Play(Move(rk, DISCARD), card)
        if (stuck and r.stuck == "hand") or r.give_up_hand:  # TK-P3, JR-P10
            yield Play(Move("", HAND), None)

    def parse(self, text: str, card: str | None = None) -> Play:
        pos = self.position
        words = text.split() if isinstance(text, str) else []
        ranks = pos.ranks
        if words and words != ["discard", "hand"] and canonical_rank(words[0], ranks) is None \
                and ":" in words[0]:
            candidates = []
            for rk in dict.fromkeys(self.rank_of(c) for c in self.hands[self._acting()]):
                try:
                    candidates.append(self.check(Move.from_text(f"{rk} {text}", pos.geo,
                                                                self.sides, ranks), card))
                except IllegalMoveError:
                    pass
            if not candidates:
                Move.from_text(f"A {text}", pos.geo, self.sides, ranks)
                raise IllegalMoveError(f"no card in the hand makes {text!r}", pos.ids["must"],
                                       msg("no card in your hand makes that move"))
            if len(candidates) > 1:
                raise AmbiguousMoveError(f"{text!r} can be made with " + ", ".join(
                    p.move.rank for p in candidates) + "; name the card", candidates)
            return candidates[0]
        return self.check(Move.from_text(text, pos.geo, self.sides, ranks), card)

    def check(self, move: Move, card: str | None = None) -> Play:
        if self.phase == OVER:
            raise IllegalMoveError("the game is over", "TK-P5", msg("the game is over"))
        actor = self._acting()
        hand = self.hands[actor]
        kind = move.kind
        if kind == HAND:
            if self.phase != PLAY:
                raise IllegalMoveError("now is not your turn to play", "TK-P1",
                                       msg("it is not your turn to play now"))
            self._sync()
            self.position.check_move(move, {self.rank_of(c) for c in hand})
            return Play(move, None)
        if card is None:
            card = next((c for c in hand if self.rank_of(c) == move.rank), None)
            if card is None:
                raise IllegalMoveError(f"there is no {move.rank} in the hand", "TK-P2",
                                       msg("there is no %(rank)s in your hand", rank=Ref("rank", move.rank)))
        elif card not in hand:
            raise IllegalMoveError(f"{card} is not in the hand", "C5",
                                   msg("%(card)s is not in your hand", card=Ref("card", card)))
        if self.rank_of(card) != move.rank:
            raise IllegalMoveError(f"the card {card} is not a {move.rank}", "RG-N2",
                                   msg("%(card)s is not %(rank)s", card=Ref("card", card),
                                       rank=Ref("a rank", move.rank)))
        if self.phase == GIVE_PHASE:
            partner = self.partner(actor)
            if kind != GIVE or move.steps[0] != self.seat_side[partner]:
                raise IllegalMoveError(f"now each player passes one card to his partner "
                                       f"(side {self.seat_side[partner]})", "TK-V4",
                                       msg("now each player passes one card to their partner"))
            return Play(move, card)
        if kind == GIVE:
            raise IllegalMoveError("cards are passed only after the deal", "TK-V4",
                                   msg("cards are passed only after the deal"))
        if self.phase == FORCED_PHASE:
            if kind != DISCARD:
                raise IllegalMoveError("a 10 forced you to discard a card of your choice", "JR-P5",
                                       msg("a 10 forced you to discard a card of your choice"))
            return Play(move, card)
        self._sync()
        self.position.check_move(move, {self.rank_of(c) for c in hand})
        return Play(move, card)

    # ------------------------------------------------------------- push / pop
    def _push(self, play: Play) -> None:
        move, card = play
        pos, shoe = self.position, self.shoe
        self._undo.append(_Undo(shoe.snapshot(), self.hands[:], pos.save(), self.phase,
                                self.skips[:], self.deals, self.dealer, dict(self.gives),
                                self.forcer, self.secret_top, self.winner, self.turn, self.waiting,
                                self.moved, self.still_deals, self.drawn))
        actor = self._acting()
        kind = move[1]
        entry = {"seat": actor, "move": move, "card": card, "public": True}
        self.history.append(entry)
        if self.phase == GIVE_PHASE:  # TK-V4.1: chosen face down, exchanged together
            entry["public"] = False
            entry["to"] = self.partner(actor)
            self.gives = {**self.gives, actor: card}  # type: ignore[dict-item]  # a card is passed
            if len(self.gives) == self.players:
                hands = [h[:] for h in self.hands]
                for seat, c in self.gives.items():
                    hands[seat].remove(c)
                for seat, c in self.gives.items():
                    hands[self.partner(seat)].append(c)
                self.hands = hands
                self.gives = {}
                self.phase = PLAY
            return
        if self.phase == FORCED_PHASE:  # JR-P5: his discard of choice, face up
            assert card is not None and self.forcer is not None  # a card, forced by a seat
            self._discard(actor, [card])
            forcer, self.forcer = self.forcer, None
            self.phase = PLAY
            self._end_turn(forcer)
            return
        seat = actor
        if kind == HAND:  # TK-P3, JR-P10: the whole hand, face up
            entry["cards"] = list(self.hands[seat])
            self._discard(seat, list(self.hands[seat]))
            self.waiting = self.waiting | {seat}
        else:
            assert card is not None  # only the whole hand is given up without one
            self._discard(seat, [card])
            if kind == FORCE:
                target = self.side_seat[move[2][0]]
                self.skips = self.skips[:]
                self.skips[target] += 1  # JR-P11
                if move[0] == "10":
                    self.forcer = seat
                    self.phase = FORCED_PHASE
                    return
                hand = self.hands[target][:]  # JR-P6: a random card, by the logged shuffle
                self.rng.shuffle(hand)
                taken = hand[0]
                entry["stolen"] = taken
                self._discard(target, [taken])
                self.secret_top = (taken, frozenset((seat, target)))
            elif kind != DISCARD:
                pos.apply(move, pos.to_move)
                self.moved = True
        self._end_turn(seat)

    def _discard(self, seat: int, cards: Iterable[str]) -> None:
        hand = self.hands[seat][:]
        for c in cards:
            hand.remove(c)
        self.hands = self.hands[:]
        self.hands[seat] = hand
        self.shoe.discard.extend(cards)
        self.secret_top = None

    def _end_turn(self, seat: int) -> None:
        pos = self.position
        self.turn += 1
        won = pos.winner()
        if won is not None:  # TK-P5, CB-P5, JR-P13: at once
            self.winner = won
            self.phase = OVER
            return
        if not any(self.hands):  # a deal ends when every hand is empty
            self.still_deals = 0 if self.moved else self.still_deals + 1
            self.moved = False
            if self.still_deals >= STILL_DEALS_TO_DRAW:  # RG-D1: drawn, not dealt forever
                self.drawn = True
                self.phase = OVER
                return
            self._deal()
            return
        nxt = seat
        skips = self.skips
        while True:
            nxt = self._next_seat(nxt)
            if not self.hands[nxt]:
                continue  # TK-P3, JR-P11: no cards, passed over
            if skips[nxt]:
                skips = skips[:]
                skips[nxt] -= 1  # JR-P11: a skipped turn passes with no play
                self.skips = skips
                continue
            break
        pos.to_move = self.seat_side[nxt]

    def pop(self) -> dict[str, Any]:
        (snap, self.hands, saved, self.phase, self.skips, self.deals, self.dealer,
         self.gives, self.forcer, self.secret_top, self.winner, self.turn,
         self.waiting, self.moved, self.still_deals, self.drawn) = self._undo.pop()
        self.shoe.restore(snap)
        self.position.restore(saved)
        return self.history.pop()

    # ---------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        rec = super().record()
        rec["sides"] = self.sides
        rec["dealer"] = self.first_dealer
        return rec

    # ------------------------------------------------------------------ views
    def player_view(self, seat: int | None) -> dict[str, Any]:
        """What one seat may see (None: the table). Other hands are counts unless
        Open Hand (CB-V2); a passed card shows only to its giver and receiver;
        a red queen's card only to the thief and its former holder."""
        pos = self.position
        self._sync()
        view = super().player_view(seat)
        view["discard_top"] = (None if not self.shoe.discard else self.shoe.discard[-1])
        if self.secret_top is not None and seat not in self.secret_top[1]:
            view["discard_top"] = "hidden"
        view["skips"] = list(self.skips)
        view["dealer"] = self.dealer
        view["deal"] = self.deals
        view["waiting"] = sorted(self.waiting)
        if self.drawn:
            view["drawn"] = nmsg("The game is drawn: %(n)s deal in a row ended with no peg moved.",
                                 "The game is drawn: %(n)s deals in a row ended with no peg moved.",
                                 STILL_DEALS_TO_DRAW)
        # TK-V4.1: a passed card reaches its receiver only once all have chosen
        pending = {id(h) for h in self.history[len(self.history) - len(self.gives):]} \
            if self.phase == GIVE_PHASE and self.gives else set()
        view["log"] = [self._rg_entry(h, seat, pos.geo, id(h) in pending)
                       for h in self.history[-30:]]
        if self.phase == GIVE_PHASE:
            view["give"] = {"chosen": sorted(self.gives)}
            if seat is not None and seat in self.gives:
                view["giving"] = self.gives[seat]
        if self.phase == FORCED_PHASE:
            view["forced"] = {"by": self.forcer, "seat": self.actor}
        return view

    def _rg_entry(self, entry: dict[str, Any], seat: int | None, geo: Geometry,
                  pending: bool = False) -> dict[str, Any]:
        move = entry["move"]
        out: dict[str, Any] = {"seat": entry["seat"], "move": move.text(geo)}
        if move.kind == GIVE:
            if seat == entry["seat"] or (seat == entry["to"] and not pending):
                out["card"] = entry["card"]
            else:
                out["move"] = "pass"  # the rank stays secret (TK-V4.1)
            return out
        out["card"] = entry["card"]
        if "cards" in entry:
            out["cards"] = entry["cards"]
        if "stolen" in entry and seat in (entry["seat"], self.side_seat[move.steps[0]]):
            out["stolen"] = entry["stolen"]
        return out



__all__ = ["TockGame", "GIVE_PHASE", "FORCED_PHASE", "SEATS", "default_sections",
           "STILL_DEALS_TO_DRAW"]
