"""Computer players: a uniform random bot and a cheap greedy heuristic.

A bot is a small object with a ``name`` and ``choose(game, plays) -> Play``,
where ``plays`` is ``game.legal_plays()`` for the seat that must act
(``game.actor``), in any phase (play, doubt, penalty). Bots take an injected
`random.Random`, so a bot with a seeded rng is deterministic.

`GreedyBot` looks one play ahead. It scores the position after each play
from the point of view of the actor's team (pegs home count most, then how
far each peg has come toward its in-spot, then pegs out of start; minus the
same for the other teams; any peg that an opponent's peg 1-13 holes behind
could hit loses part of its value), and subtracts how useful the card spent
was to keep. Ties are broken with the rng.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Protocol

from .errors import MoveError, SetupError
from .cards import rank_of
from .moves import DISCARD, DOUBT, FREE, HAND, MOVE, PASS, SWAP
from .game import DOUBT_PHASE, PENALTY_PHASE
from .evaluation import Evaluator, Weights, card_keep_value

if TYPE_CHECKING:
    from collections.abc import Sequence
    from .game import Game, Play
    from .moves import Move

# -------------------------------------------------------------------- weights
OUT_BONUS = 12.0      # a peg out of start, before any distance travelled
STEP = 1.0            # per hole travelled toward the in-spot
HOME_BONUS = 40.0     # a peg in home, beyond being at its in-spot
HOME_DEPTH = 3.0      # per hole deeper in home (deep pegs don't block the others)
DANGER = 0.35         # share of a peg's value at risk when an opponent is 1-13 behind
DANGER_REACH = 13     # the longest ordinary forward card (K in Social Security)
CARD_WEIGHT = 1.0     # how much keeping good cards matters against board gains
BLUFF_COST = 25.0     # Bluffing Joker: a declared card that is not the real one
DOUBT_RATE = 0.1      # Bluffing Joker: chance of doubting an opponent's card



class Bot(Protocol):
    """A computer player: `choose` one of the legal plays (`Game.legal_plays`)."""

    name: str

    def choose(self, game: Game, plays: Sequence[Play]) -> Play: ...


class RandomBot:
    """Uniform random over the legal plays."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def choose(self, game: Game, plays: Sequence[Play]) -> Play:
        if not plays:
            raise MoveError("no legal plays to choose from")
        return self.rng.choice(plays)


# The greedy bot's evaluation: the one loop (`companion.evaluation.Evaluator`) with these
# weights, one threat from 1-13 holes behind costing DANGER of a peg's value.
GREEDY_WEIGHTS = Weights(out_bonus=OUT_BONUS, step=STEP, home_bonus=HOME_BONUS,
                         home_depth=HOME_DEPTH, danger_each=DANGER, danger_max=DANGER,
                         reach_forward=DANGER_REACH)
# evaluate(pos, team): the score of `pos` for `team`, its progress minus the others' (mean
# per team). Progress is summed over the team's colours: each peg in home is worth the most
# (more when deeper), a peg on the main track its out-of-start bonus plus the holes travelled
# toward its in-spot, a peg in start nothing. Pegs on the main track with an opponent's peg
# 1-13 holes behind them lose a share of their value (they may be hit back to start).
evaluate = Evaluator(GREEDY_WEIGHTS).score  # a bound method: one call layer less per play


class GreedyBot:
    """One-ply greedy: the play whose resulting position scores best.

    Deterministic for a given rng: ties are broken with ``rng.choice`` over
    the best plays in the order the game lists them.
    """

    name = "greedy"

    def __init__(self, rng: random.Random | None = None, doubt_rate: float | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.doubt_rate = DOUBT_RATE if doubt_rate is None else doubt_rate

    # -------------------------------------------------------------- choose
    def choose(self, game: Game, plays: Sequence[Play]) -> Play:
        if not plays:
            raise MoveError("no legal plays to choose from")
        if len(plays) == 1:
            return plays[0]
        if game.phase == DOUBT_PHASE:
            return self._doubt_or_pass(plays)
        if game.phase == PENALTY_PHASE:
            return self._penalty(game, plays)
        return self._best_play(game, plays)

    def _doubt_or_pass(self, plays: Sequence[Play]) -> Play:
        want = DOUBT if self.rng.random() < self.doubt_rate else PASS
        for play in plays:
            if play.move.kind == want:
                return play
        return plays[0]

    def _penalty(self, game: Game, plays: Sequence[Play]) -> Play:
        """Send back the victim's most advanced peg on the main track."""
        geo = game.position.geo
        L = geo.length

        def travelled(play: Play) -> int:
            c, src, _ = play.move.steps[0]
            travel: int = L - (geo.in_spot[c] - src) % L
            return travel

        best = max(travelled(p) for p in plays)
        return self.rng.choice([p for p in plays if travelled(p) == best])

    def _best_play(self, game: Game, plays: Sequence[Play]) -> Play:
        pos = game.position
        actor = game.actor
        assert actor is not None  # a play phase has a player to act
        team = game.team_of_seat(actor)
        in_start = any(pos.start[c] for c in pos.controlled())
        bluffing = game.rules.bluffing
        base: float | None = None
        move_score: dict[Move, float] = {}  # a move's board score, shared by the cards that can make it
        keep_of: dict[str, float] = {}      # rank -> worth of keeping that card
        best, best_plays = None, []
        for play in plays:
            move, card = play
            kind = move[1]
            rank = rank_of(card) if card is not None else move[0]
            keep = keep_of.get(rank)
            if keep is None:
                keep = keep_of[rank] = card_keep_value(rank, in_start) * CARD_WEIGHT
            if kind == DISCARD:
                if base is None:
                    base = evaluate(pos, team)
                score = base - keep
            elif kind == HAND:  # JR-P10, TK-P3: the whole hand is given up, every card's worth
                if base is None:
                    base = evaluate(pos, team)
                score = base - sum(card_keep_value(rank_of(c), in_start) * CARD_WEIGHT
                                   for c in game.hands[actor])
            else:
                known = move_score.get(move)
                if known is not None:
                    score = known
                else:
                    if kind in (MOVE, SWAP, FREE):
                        pos.push(move)
                        try:
                            score = evaluate(pos, team)
                        finally:
                            pos.pop()
                    else:  # not expected in the play phase; neutral
                        score = base if base is not None else evaluate(pos, team)
                    move_score[move] = score
                score -= keep
                if bluffing and rank != move[0]:
                    score -= BLUFF_COST
            if best is None or score > best:
                best, best_plays = score, [play]
            elif score == best:
                best_plays.append(play)
        return best_plays[0] if len(best_plays) == 1 else self.rng.choice(best_plays)


class EasyBot(GreedyBot):
    """The easy level: greedy, but a random play half the time (a gentle opponent)."""

    name = "easy"
    SLIP = 0.5

    def choose(self, game: Game, plays: Sequence[Play]) -> Play:
        if not plays:
            raise MoveError("no legal plays to choose from")
        if self.rng.random() < self.SLIP:
            return self.rng.choice(plays)
        return super().choose(game, plays)


def _strong(rng: random.Random | None, **options: Any) -> Bot:
    from .strong import StrongBot  # local: strong builds on this module
    return StrongBot(rng, **options)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "easy": EasyBot, "strong": _strong}
# The levels a host chooses per computer seat (issue 17), as bot names.
LEVELS = {"easy": "easy", "medium": "greedy", "hard": "strong"}
BOT_NAMES = tuple(BOTS) + ("medium", "hard")


def make_bot(name: str, rng: random.Random | None = None, **options: Any) -> Bot:
    """A bot by name or level with the given rng.

    Names: random, greedy, easy, strong; levels: easy, medium (greedy), hard
    (strong). ``options`` go to the strong bot (think_ms, iterations, ...)
    and are ignored by the others.
    """
    cls = BOTS.get(LEVELS.get(name, name)) if isinstance(name, str) else None
    if cls is None:
        raise SetupError(f"unknown bot {name!r}; choose one of {', '.join(BOT_NAMES)}")
    if cls is _strong:
        return cls(rng, **options)
    return cls(rng)


__all__ = ["RandomBot", "GreedyBot", "EasyBot", "BOTS", "LEVELS", "BOT_NAMES", "make_bot", "evaluate", "card_keep_value"]
