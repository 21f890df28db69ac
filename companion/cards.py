"""Cards, the shoe, and drawing for partners (RULES C1-C5, T3).

Standard library only. A card is a plain ``str``: rank then suit, e.g.
``"AS"``, ``"10H"``, ``"QC"``; a joker is exactly ``"JK"`` (jokers have no
suit). Ranks are the notation's tokens ``A 2 3 4 5 6 7 8 9 10 J Q K JK``.

Randomness always comes from an rng object passed in (anything with
``shuffle``, e.g. ``random.Random`` or ``random.SystemRandom``). RULES C5
asks for a cryptographic-quality source in play: use
``random.SystemRandom()`` (the default of :class:`Shoe`); tests pass a seeded
``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from .errors import CompanionError, RulesError, SetupError

if TYPE_CHECKING:
    from .rules import Rules

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
SUITS = "SHDC"
JOKER = "JK"

_SUITED_RANKS = frozenset(RANKS[:-1])
# RULES T3 order: aces low (A=1 ... K=13), jokers high (14). RANKS is in that order.
_DRAW_VALUE = {r: i + 1 for i, r in enumerate(RANKS)}


def rank_of(card: str) -> str:
    """Rank of a valid card: ``"JK"`` for a joker, else the card minus its suit."""
    return card if card == JOKER else card[:-1]


def is_card(text: object) -> bool:
    """True if ``text`` is a card in canonical form (``"AS"``, ``"10H"``, ``"JK"``)."""
    if not isinstance(text, str):
        return False
    if text == JOKER:
        return True
    return len(text) >= 2 and text[-1] in SUITS and text[:-1] in _SUITED_RANKS


def parse_rank(text: str) -> str:
    """Parse a rank token (case-insensitive, surrounding spaces ignored).

    Accepts exactly the notation's ranks ``A 2 3 4 5 6 7 8 9 10 J Q K JK``
    and returns the canonical token; anything else raises ``ValueError``.
    """
    if isinstance(text, str):
        rank = text.strip().upper()
        if rank in RANKS:
            return rank
    raise RulesError(f"unknown card rank {text!r}: expected one of {' '.join(RANKS)}")


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SetupError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"between {low} and {high}"
        raise SetupError(f"{name} must be {span}, got {value}")
    return value


def shoe_of(rules: Rules, players: int) -> list[str]:
    """The unshuffled shoe a game of `rules` for `players` plays with (RULES C1):
    the rules' decks and jokers, none for two players where the rules say so (V-OPT).
    The one place this rule is written: the game, the set-up check and the bots."""
    no_jokers = players == 2 and rules.two_players_no_jokers
    return make_shoe(rules.decks, 0 if no_jokers else rules.jokers_per_deck,
                     0 if no_jokers else rules.extra_jokers)


def _check_cards(cards: list[str]) -> None:
    for card in cards:
        if not is_card(card):
            raise RulesError(f"not a card: {card!r} (cards look like 'AS', '10H', 'JK')")


def make_shoe(decks: int = 4, jokers_per_deck: int = 2, extra_jokers: int = 0) -> list[str]:
    """The unshuffled shoe of RULES C1, in a fixed canonical order.

    Each deck is its 52 cards suit by suit (S, H, D, C), each suit A to K,
    followed by that deck's jokers; the extra jokers (0-4) come last.
    The default, 4 decks with 2 jokers each, has 216 cards.
    """
    _check_int("decks", decks, 1)
    _check_int("jokers_per_deck", jokers_per_deck, 0)
    _check_int("extra_jokers", extra_jokers, 0, 4)
    deck = [rank + suit for suit in SUITS for rank in RANKS[:-1]]
    deck += [JOKER] * jokers_per_deck
    return deck * decks + [JOKER] * extra_jokers


class ShoeSnapshot(NamedTuple):
    """An exact copy of a shoe's state, for undo (see :meth:`Shoe.snapshot`)."""

    stock: tuple[str, ...]
    discard: tuple[str, ...]
    reshuffles: int
    rng_state: Any  # rng.getstate(), or None when the rng has no state to save


class ShoeEmpty(CompanionError, RuntimeError):
    """A card must be drawn but both the stock and the discard pile are empty."""


class Shoe:
    """The stock and discard pile of one game (RULES C2, C4).

    ``stock`` and ``discard`` are plain lists whose *end* is the top: draw
    with :meth:`draw`; put played or discarded cards on the pile with
    ``shoe.discard.append(card)``. The lists are only ever changed in place.
    """

    def __init__(self, cards: Iterable[str], rng: Any = None) -> None:  # a random.Random or game's shuffle log
        """Shuffle a copy of ``cards`` with ``rng`` to form the stock.

        ``rng`` defaults to ``random.SystemRandom()`` (RULES C5).
        """
        stock = list(cards)
        _check_cards(stock)
        self.rng = random.SystemRandom() if rng is None else rng
        self.rng.shuffle(stock)
        self.stock: list[str] = stock
        self.discard: list[str] = []
        self.reshuffles = 0  # how many times the discard pile became the stock (C4)

    def __len__(self) -> int:
        """Cards that can still be drawn: stock plus discard pile."""
        return len(self.stock) + len(self.discard)

    def draw(self) -> str:
        """Take the top card of the stock.

        If the stock is empty, the discard pile is first shuffled with the
        shoe's rng to form a new stock and ``reshuffles`` goes up by one
        (RULES C4). Raises :class:`ShoeEmpty` if there is no card at all.
        """
        if not self.stock:
            if not self.discard:
                raise ShoeEmpty("cannot draw: the stock and the discard pile are both empty")
            self.stock.extend(self.discard)
            self.discard.clear()
            self.rng.shuffle(self.stock)
            self.reshuffles += 1
        return self.stock.pop()

    def deal(self, n_players: int, hand_size: int) -> list[list[str]]:
        """Deal ``hand_size`` cards to each of ``n_players``, one at a time (RULES C2).

        Cards go round-robin: ``hands[0]`` gets the first card, ``hands[1]``
        the second, ... ``hands[0]`` the ``n_players+1``-th. ``hands[0]`` is
        whoever is dealt to first (the player left of the dealer); the caller
        maps hands to seats. Raises ``ValueError``, changing nothing, if the
        shoe holds too few cards.
        """
        _check_int("n_players", n_players, 1)
        _check_int("hand_size", hand_size, 0)
        if n_players * hand_size > len(self):
            raise SetupError(
                f"cannot deal {hand_size} cards to {n_players} players: "
                f"the shoe holds only {len(self)} cards"
            )
        hands: list[list[str]] = [[] for _ in range(n_players)]
        for _ in range(hand_size):
            for hand in hands:
                hand.append(self.draw())
        return hands

    def snapshot(self) -> ShoeSnapshot:
        """An exact copy of the shoe's state, to :meth:`restore` on undo.

        Includes the rng's state when the rng can give it (``random.Random``
        can; ``random.SystemRandom`` can't, so after an undo a later reshuffle
        comes out differently). Restoring rewinds the rng object itself, so
        if other code shares it, it is rewound for that code too.
        """
        try:
            rng_state = self.rng.getstate()
        except (AttributeError, NotImplementedError):
            rng_state = None
        return ShoeSnapshot(tuple(self.stock), tuple(self.discard), self.reshuffles, rng_state)

    def restore(self, snap: ShoeSnapshot) -> None:
        """Put the shoe (and the rng, if its state was saved) back as in ``snap``."""
        stock, discard, reshuffles, rng_state = snap
        self.stock[:] = stock
        self.discard[:] = discard
        self.reshuffles = reshuffles
        if rng_state is not None:
            self.rng.setstate(rng_state)


@dataclass(frozen=True)
class PartnerDraw:
    """Outcome of :func:`draw_for_partners`. Players are numbered 0..n-1 as they drew.

    - ``draws``: the rounds, for display: ``draws[0]`` has every player's
      card, each later round only the players who redrew.
    - ``ranking``: players from highest to lowest card (ties broken by redraws).
    - ``teams``: ``teams[t]`` lists the players of team ``t``, each from
      highest to lowest card; team 0 drew the highest cards.
    - ``dealer``: the player with the highest card.
    - ``seating``: ``seating[s]`` is the player in seat ``s`` (turn order,
      seat ``s`` on team ``s mod T``, RULES T1). The dealer has seat 0.
    - ``first``: the first to play, left of the dealer: ``seating[1]``.
    """

    draws: list[dict[int, str]]
    ranking: list[int]
    teams: list[list[int]]
    dealer: int
    first: int
    seating: list[int]


def draw_for_partners(
    n_players: int,
    n_teams: int,
    rng: random.Random,
    cards: Iterable[str] | None = None,
) -> PartnerDraw:
    """Draw for partners and the deal (RULES T3).

    A copy of ``cards`` (default: the standard shoe, :func:`make_shoe`) is
    shuffled with ``rng``; players 0, 1, ... each draw one card from the top.
    Cards rank A=1 ... K=13, joker=14; suits don't matter. Players are
    ranked high to low and cut into ``n_teams`` teams of equal size from the
    top: the highest ``n/T`` players form team 0, the next ``n/T`` team 1,
    and so on (4 players: two highest against two lowest).

    Choices where the rules are silent:

    - A tie matters, and the tied players redraw, when the tied players
      straddle a team boundary in the ranking, or when they share the
      highest card (which decides the dealer). Other ties stand.
    - Only the tied players redraw, in player order, from the same shoe;
      cards drawn earlier are set aside, not returned. A redraw only orders
      the tied players among themselves, and repeats until no tie matters.
      Running out of cards raises ``ValueError`` (with the default 216-card
      shoe that takes a vanishingly unlikely run of ties).
    - Players whose tie stands keep player order (lower number first).
    - Seating (RULES T1, teams alternate): seat ``s`` is team ``s mod T``'s
      member number ``s // T``, members taken from highest card to lowest.
      So the dealer sits at seat 0, and the first to play (left of the
      dealer) is ``seating[1]``, the highest of team 1.
    """
    _check_int("n_players", n_players, 2)
    _check_int("n_teams", n_teams, 1, n_players)
    if n_players % n_teams:
        raise SetupError(f"{n_players} players can't form {n_teams} teams of equal size")
    pile = make_shoe() if cards is None else list(cards)
    _check_cards(pile)
    rng.shuffle(pile)
    size = n_players // n_teams

    # keys[p]: values of p's cards, round by round. Players still tied have
    # equal keys; players told apart differ at an earlier round, so list
    # comparison never reaches a missing round.
    keys: dict[int, list[int]] = {p: [] for p in range(n_players)}
    draws: list[dict[int, str]] = []
    redraw = list(range(n_players))
    while True:
        if len(redraw) > len(pile):
            raise SetupError("ran out of cards while drawing for partners; use a larger shoe")
        round_cards = {p: pile.pop() for p in redraw}
        draws.append(round_cards)
        for p, card in round_cards.items():
            keys[p].append(_DRAW_VALUE[rank_of(card)])
        # sorted() is stable: equal keys keep player order.
        ranking = sorted(range(n_players), key=keys.__getitem__, reverse=True)
        redraw = []
        start = 0
        for end in range(1, n_players + 1):
            if end < n_players and keys[ranking[end]] == keys[ranking[start]]:
                continue
            # ranking[start:end] is a run of tied players
            last = end - 1
            if last > start and (start == 0 or start // size != last // size):
                redraw.extend(ranking[start:end])
            start = end
        if not redraw:
            break
        redraw.sort()

    teams = [ranking[t * size:(t + 1) * size] for t in range(n_teams)]
    seating = [teams[s % n_teams][s // n_teams] for s in range(n_players)]
    return PartnerDraw(
        draws=draws,
        ranking=ranking,
        teams=teams,
        dealer=seating[0],
        first=seating[1],
        seating=seating,
    )
