"""The strong computer player: plans from its own seat's view only.

`StrongBot.choose(game, plays)` looks at ``game.player_view(game.actor)``
and nothing else of the game (other hands and the stock are not in a view).
Its decision is `decide(view)`, which the hints use too.

How it plays (the play phase):

1. Every distinct play is scored one ply ahead with the greedy evaluation
   (`companion.bots.evaluate`: team progress, partner included, danger of
   being hit) minus the worth of keeping the card spent (come-out cards and
   the joker most). The best few go on to the search.
2. Determinization: the cards this seat has not seen are dealt at random
   into the other hands (their sizes are public) and the stock. For each
   such deal every candidate is played and followed by a short rollout (one
   round of greedy play by every seat, with draws, and then the bot's own
   next turn with the cards it holds), then scored by the same evaluation. The candidates share each deal (common random numbers), so
   their differences are measured, not their luck.
3. It repeats until the time budget (``think_ms``, counted in the thinking
   thread's CPU time, at most three budgets of wall-clock time) or
   ``iterations`` runs out and plays the candidate with the best mean. A
   slower machine makes fewer deals: it plays a little weaker, not slower.

Tock, Carbles and Jackaroo: the same method on their own deal, phases and
evaluation, in `companion.families.tock.search` (this module's Pegs and Jokers
code path is left as it was).

Bluffing Joker (V-BJ): doubts and bluffs use an estimate of the chance that a
declared card is real: the chance that the declarer's hand (its public size)
holds that rank, drawn from the cards this seat has not seen, weighed against
how often that seat has been caught bluffing (from the log). A doubt is made
when its expected gain beats passing; a bluff is played when its value,
with the chance of being doubted (estimated the same way, plus how often the
opponents have doubted so far), beats the best honest play.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import comb
from typing import TYPE_CHECKING, Any

from .errors import MoveError
from .board import START
from .evaluation import Evaluator, Weights, card_keep_value
from .cards import rank_of, shoe_of
from .moves import DISCARD, DOUBT, PASS, PENALTY, RANKS, Move
from .families import find_family
from .notation import position_from_json
from .rollouts import paired_rollouts
from .rules import rules_from_json

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from .game import Game, Play
    from .moves import Steps
    from .state import PegState, Saved

Over = Callable[[], bool] | None    # says when the thinking budget is spent (None: no budget)
Screened = tuple[float, Move, str, bool]   # (one-ply score, move, the card spent, a bluff)

DEFAULT_THINK_MS = 140    # budget per decision, CPU time of the thinking thread (median target 150 ms)
WALL_CAP = 3              # and never more than this many budgets of wall-clock time
CANDIDATES = 6            # plays kept for the search after the one-ply screen
MAX_ITERATIONS = 400      # deals per decision, at most (a cap for easy decisions)
CARD_WEIGHT = 1.0         # worth of keeping a card against board gains
EXTRA_TURN = 15.0         # V-BJ: worth of an extra turn won by a doubt
BLUFF_PRIOR = 0.3         # V-BJ: prior share of declarations that are bluffs
DOUBT_PRIOR = 0.3         # V-BJ: prior chance an opponent doubts a shaky declaration
SWITCH_Z = 1.0            # leave the one-ply favourite only for a candidate this many
                          # standard errors better over the deals (noise must not decide)
WEIGHTS = Weights(reach_back=8)  # measured against greedy: see docs/bots.md
evaluate = Evaluator(WEIGHTS)


class Decision:
    """What the bot chose: the move, the real card (None for doubt/pass/penalty),
    and figures for hints and tests."""

    __slots__ = ("move", "card", "score", "iterations", "candidates", "p_real")

    def __init__(self, move: Move, card: str | None, score: float = 0.0, iterations: int = 0, candidates: int = 1,
                 p_real: float | None = None) -> None:
        self.move, self.card, self.score = move, card, score
        self.iterations, self.candidates, self.p_real = iterations, candidates, p_real

    def __repr__(self) -> str:
        return f"Decision({self.move!r}, {self.card!r}, iterations={self.iterations})"


# ------------------------------------------------------------------ the view
def pegs_unseen_pool(seen: "_Seen") -> list[str]:
    """The ranks of the cards a Pegs and Jokers seat can't see: the whole shoe less its
    own hand. (The discards are few against a 4-deck shoe and are reshuffled back into
    the stock; the log shows only the last ones.)"""
    pool = [rank_of(c) for c in shoe_of(seen.rules, seen.players)]
    for c in seen.hand:
        try:
            pool.remove(rank_of(c))
        except ValueError:
            pass
    return pool


class _Seen:
    """What a view tells: rules, the position, seats, this seat's hand, the unseen cards."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.rules = rules_from_json(view["rules"])
        self.pos = position_from_json(view["position"])
        self.players = view["players"]
        self.seat = view["seat"]
        self.seat_side = list(view["seat_sides"])
        self.side_seat = {s: i for i, s in enumerate(self.seat_side)}
        self.hand = list(view["hand"])
        self.hand_sizes = list(view["hand_sizes"])
        self.side = self.seat_side[self.seat]
        self.team = self.pos.team_of[self.side]
        # Cards this seat can't see: the whole shoe less its own hand. (The
        # discards are few against a 4-deck shoe and are reshuffled back into
        # the stock; the log shows only the last ones.)
        self.family = find_family(self.rules)
        self.pool = self.family.unseen_pool(self)  # each family's ranks and deal cycle

    def rank_count(self, rank: str) -> int:
        return sum(1 for r in self.pool if r == rank)


def _first_cards(hand: Iterable[str]) -> dict[str, str]:
    first: dict[str, str] = {}
    for card in hand:
        first.setdefault(rank_of(card), card)
    return first


def _keep(rank: str, in_start: bool) -> float:
    return card_keep_value(rank, in_start) * CARD_WEIGHT


def _pegs_in_start(pos: PegState, side: int) -> bool:
    return any(pos.start[c] for c in pos.controlled(side))


def _most_advanced(pos: PegState, side: int) -> int | None:
    """The main-track peg of `side` that has come furthest (or None)."""
    geo = pos.geo
    L = geo.length
    best: int | None = None
    best_d = -1
    occ = pos.occ[side] & geo.main_mask
    x = 0
    while occ:
        if occ & 1:
            d = L - (geo.in_spot[side] - x) % L
            if d > best_d:
                best, best_d = x, d
        occ >>= 1
        x += 1
    return best


def _send_back(pos: PegState, side: int, hole: int) -> Saved:
    """The position with `side`'s peg on `hole` sent to start (in place; returns the
    snapshot to `restore`)."""
    saved = pos.save()
    occ, start = pos.occ[:], pos.start[:]
    occ[side] &= ~(1 << hole)
    start[side] += 1
    pos.occ, pos.start = occ, start
    return saved


# ------------------------------------------------------------------ rollouts
class _Sim:
    """A light game on a Position with known (sampled) hands and stock."""

    def __init__(self, seen: _Seen) -> None:
        self.seen = seen
        self.pos = seen.pos
        self.draw_first = seen.rules.draw == "first"
        self.players = seen.players
        self.seat_side = seen.seat_side
        self.side_seat = seen.side_seat

    def policy(self, hand: Sequence[str]) -> tuple[Move, str] | None:
        """Greedy play for the side to move: (move, rank) or None when stuck."""
        pos = self.pos
        side = pos.to_move
        team = pos.team_of[side]
        ranks = list(dict.fromkeys(hand))
        moves, discard = pos.hand_moves(ranks)
        in_start = _pegs_in_start(pos, side)
        best: tuple[Move, str] | None = None
        best_score: float | None = None
        saved = pos.save()
        seen_moves: dict[tuple[str, Steps], float] = {}
        for m in moves:
            key = (m[1], m[2])
            sc = seen_moves.get(key)
            if sc is None:
                pos.apply(m, side)
                sc = seen_moves[key] = evaluate(pos, team)
                pos.restore(saved)
            sc -= _keep(m[0], in_start)
            if best_score is None or sc > best_score:
                best, best_score = (m, m[0]), sc
        if discard:
            base = evaluate(pos, team)
            for rk in ranks:
                sc = base - _keep(rk, in_start)
                if best_score is None or sc > best_score:
                    best, best_score = (Move(rk, DISCARD), rk), sc
        return best

    def rollout(self, hands: list[list[str]], stock: list[str], plies: int) -> None:
        """Play `plies` greedy turns from the position (changed in place)."""
        pos = self.pos
        for _ in range(plies):
            if pos.winner() is not None:
                return
            seat = self.side_seat[pos.to_move]
            hand = hands[seat]
            if self.draw_first:
                if not stock:
                    return
                hand = hands[seat] = hand + [stock.pop()]
            choice = self.policy(hand)
            if choice is None:
                return
            move, rank = choice
            hand = hand[:]
            hand.remove(rank)
            hands[seat] = hand
            pos.apply(move, self.seat_side[(seat + 1) % self.players])
            if not self.draw_first and stock:
                hands[seat] = hand + [stock.pop()]


# ------------------------------------------------------------------ the bot
def _over(think_ms: float | None) -> Over:
    """A check that says when the budget is spent (None: no budget)."""
    if think_ms is None:
        return None
    cpu_end = time.thread_time() + think_ms / 1000
    wall_end = time.perf_counter() + WALL_CAP * think_ms / 1000

    def over() -> bool:
        return time.thread_time() >= cpu_end or time.perf_counter() >= wall_end
    return over


class StrongBot:
    """Determinized Monte Carlo over the seat's own view, within a time budget.

    ``think_ms`` is the budget per decision (None: no clock, only
    ``iterations``), counted in the thinking thread's CPU time so that the
    players' requests and other work on the machine don't weaken it, and
    capped at ``WALL_CAP`` budgets of wall-clock time so a busy machine
    doesn't make it drag; ``iterations`` caps the deals per decision. With
    ``think_ms=None`` and a seeded rng the bot is deterministic.
    """

    name = "strong"

    def __init__(self, rng: random.Random | None = None, think_ms: float | None = DEFAULT_THINK_MS,
                 iterations: int = MAX_ITERATIONS, candidates: int = CANDIDATES,
                 rollout_plies: int | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.think_ms = think_ms
        self.iterations = iterations
        self.candidates = candidates
        self.rollout_plies = rollout_plies
        self.last: Decision | None = None  # the last Decision (for hints and benchmarks)

    # ----------------------------------------------------------- interface
    def choose(self, game: Game, plays: Sequence[Play]) -> Play:
        if not plays:
            raise MoveError("no legal plays to choose from")
        if len(plays) == 1:
            self.last = Decision(plays[0].move, plays[0].card)
            return plays[0]
        d = self.decide(game.player_view(game.actor))
        for play in plays:
            if play.move == d.move and play.card == d.card:
                return play
        raise RuntimeError(f"the strong bot chose {d!r}, which is not a legal play")

    def decide(self, view: dict[str, Any]) -> Decision:
        """The choice for the seat of `view` (which must be the seat to act)."""
        if view.get("seat") is None or view.get("actor") != view["seat"]:
            raise MoveError("decide needs the view of the seat that must act")
        seen = _Seen(view)
        phase = view["phase"]
        # each family's phases, deal and evaluation (Pegs and Jokers': `decide_pegs`)
        d: Decision = seen.family.search(self, seen, phase, Decision, _over(self.think_ms))
        self.last = d
        return d

    # ------------------------------------------------------------ play phase
    def _screen(self, seen: _Seen) -> list[Screened]:
        """One-ply scores of the distinct plays: [(score, move, card, bluff)]."""
        pos, side, team = seen.pos, seen.side, seen.team
        first = _first_cards(seen.hand)
        in_start = _pegs_in_start(pos, side)
        bluffing = seen.rules.bluffing
        if bluffing:
            moves = list(pos.legal_moves(RANKS))
            discard = pos.discard_allowed(list(first))
        else:
            moves, discard = pos.hand_moves(list(first))
        cheapest = min(first, key=lambda rk: _keep(rk, in_start))
        out: list[Screened] = []
        score_of: dict[tuple[str, Steps], float] = {}
        for m in moves:
            key = (m[1], m[2])
            sc = score_of.get(key)
            if sc is None:
                pos.push(m)
                sc = score_of[key] = evaluate(pos, team)
                pos.pop()
            if m[0] in first:
                out.append((sc - _keep(m[0], in_start), m, first[m[0]], False))
            else:  # V-BJ: declared without the card; spend the least useful one
                out.append((sc - _keep(cheapest, in_start), m, first[cheapest], True))
        if discard:
            base = evaluate(pos, team)
            for rk, card in first.items():
                out.append((base - _keep(rk, in_start), Move(rk, DISCARD), card, False))
        out.sort(key=lambda t: -t[0])
        return out

    def _play(self, seen: _Seen) -> Decision:
        screened = self._screen(seen)
        if not screened:
            raise MoveError("no legal plays in this view")
        honest = [t for t in screened if not t[3]]
        bluffs = [t for t in screened if t[3]]
        # the same end position from two cards: keep the better card only
        cands: list[Screened] = []
        seen_keys: set[tuple[str, Any]] = set()
        for t in honest:
            key = (t[1][1], t[1][2]) if t[1][1] != DISCARD else ("discard", t[1][0])
            if key not in seen_keys:
                seen_keys.add(key)
                cands.append(t)
            if len(cands) >= self.candidates:
                break
        best_honest = honest[0][0] if honest else None
        bluff_cands = [t for t in bluffs if best_honest is None or t[0] > best_honest][:2]
        if all(t[1][1] == DISCARD for t in cands) and not bluff_cands:
            top = cands[0]  # only discards: the least useful card, no search needed
            return Decision(top[1], top[2], top[0], 0, len(cands))
        if len(cands) == 1 and not bluff_cands:
            return Decision(cands[0][1], cands[0][2], cands[0][0], 0, 1)
        q = {t[1]: self._doubt_chance(seen, t[1][0]) for t in bluff_cands}
        means, n = self._search(seen, [t[1] for t in cands + bluff_cands],
                                [t[2] for t in cands + bluff_cands],
                                caught=bool(bluff_cands))
        best, best_v = cands[0], 0.0  # the favourite unless another is clearly better
        for i, t in enumerate(cands + bluff_cands):
            v = self._edges[i]
            if t[3]:  # a bluff: made unless doubted, then caught
                v = (1 - q[t[1]]) * means[i] + q[t[1]] * means[-1] - means[0]
            if v > best_v:
                best, best_v = t, v
        p = None if not best[3] else 1 - q[best[1]]
        return Decision(best[1], best[2], best_v, n, len(cands) + len(bluff_cands), p)

    def _search(self, seen: _Seen, moves: Sequence[Move], cards: Sequence[str],
                caught: bool = False) -> tuple[list[float], int]:
        """Mean rollout score of each candidate (plus the caught-bluff outcome last)."""
        rng = self.rng
        pos = seen.pos
        sim = _Sim(seen)
        me, players = seen.seat, seen.players
        # one round of replies, then the bot's own next turn (it plans with its hand)
        plies = self.rollout_plies if self.rollout_plies is not None else players + 1
        others = [s for s in range(players) if s != me]
        sizes = [seen.hand_sizes[s] for s in others]
        pool = [rk for rk in seen.pool]
        need = sum(sizes) + plies + 2
        in_start = _pegs_in_start(pos, seen.side)
        keeps = [_keep(rank_of(c), in_start) for c in cards]
        hand_ranks = [rank_of(c) for c in seen.hand]
        n_out = len(moves) + (1 if caught else 0)
        root = pos.save()
        nxt = seen.seat_side[(me + 1) % players]
        draw_first = seen.rules.draw == "first"
        team, side = seen.team, seen.side

        def play_out(i: int, hands0: list[list[str]], stock0: list[str]) -> float:
            hands = hands0[:]
            stock = stock0[:]
            mine = hand_ranks[:]
            if i < len(moves):
                mine.remove(rank_of(cards[i]))
                pos.apply(moves[i], nxt)
            else:  # caught bluff: no move, the most advanced peg back to start
                mine.remove(rank_of(cards[-1]))
                hole = _most_advanced(pos, side)
                if hole is not None:
                    _send_back(pos, side, hole)
                pos.to_move = nxt
            if not draw_first and stock:
                mine.append(stock.pop())
            hands[me] = mine
            sim.rollout(hands, stock, plies - 1)
            value = evaluate(pos, team) - keeps[min(i, len(keeps) - 1)]
            pos.restore(root)
            return value

        # a candidate's edge over the favourite, less SWITCH_Z standard errors
        means, self._edges, it = paired_rollouts(
            rng, pool, min(need, len(pool)), players, others, sizes, n_out, self.iterations,
            _over(self.think_ms), play_out, SWITCH_Z)
        return means, it

    # ------------------------------------------------------------ V-BJ
    def _bluff_rate(self, seen: _Seen, seat: int) -> float:
        """How often `seat` bluffs, from the doubts revealed in the log (with a prior)."""
        caught = doubted = 0
        log = seen.view.get("log", [])
        for i, entry in enumerate(log):
            if "revealed" not in entry and not (entry.get("move") == "doubt" and "card" in entry):
                continue
            # the declaration is the entry before the doubt
            if i and log[i - 1]["seat"] == seat and entry.get("card"):
                doubted += 1
                declared = log[i - 1]["move"].split()[0]
                if rank_of(entry["card"]) != declared:
                    caught += 1
        return (caught + 2 * BLUFF_PRIOR) / (doubted + 2)

    def _p_real(self, seen: _Seen, declarer: int, rank: str) -> float:
        """Chance that `declarer` really holds the declared `rank`."""
        n = len(seen.pool)
        k = seen.rank_count(rank)
        h = seen.hand_sizes[declarer] + 1  # the declared card left the hand
        if k == 0:
            return 0.0
        h = min(h, n)
        p_has = 1 - comb(n - k, h) / comb(n, h)
        beta = self._bluff_rate(seen, declarer)
        return p_has / (p_has + (1 - p_has) * beta)

    def _doubt_chance(self, seen: _Seen, rank: str) -> float:
        """Chance that one of the opponents doubts this seat declaring `rank`."""
        shoe_n = len(seen.pool) + len(seen.hand)
        k = seen.rank_count(rank) + sum(1 for c in seen.hand if rank_of(c) == rank)
        h = min(len(seen.hand), shoe_n)
        p_has = 1 - comb(shoe_n - k, h) / comb(shoe_n, h)
        p_real = p_has / (p_has + (1 - p_has) * BLUFF_PRIOR)
        doubts = passes = 0
        for entry in seen.view.get("log", []):
            if entry.get("seat") is not None and seen.pos.team_of[seen.seat_side[entry["seat"]]] != seen.team:
                if entry.get("move") == "doubt":
                    doubts += 1
                elif entry.get("move") == "pass":
                    passes += 1
        # each opponent's doubt rate: what the log shows, from a prior that grows
        # with how unlikely the declaration looks (two pseudo-observations)
        prior = 2 * DOUBT_PRIOR * (1 - p_real)
        each = (doubts + 2 * prior) / (doubts + passes + 2)
        each = min(max(each, 0.02), 0.98)
        opponents = sum(1 for s in range(seen.players)
                        if seen.pos.team_of[seen.seat_side[s]] != seen.team)
        return 1 - (1 - each) ** opponents

    def _doubt(self, seen: _Seen) -> Decision:
        view, pos, team = seen.view, seen.pos, seen.team
        declared = view["declared"]
        declarer = declared["seat"]
        move = Move.from_text(declared["move"], pos.geo, pos.sides)
        p = self._p_real(seen, declarer, move.rank)
        dside = seen.seat_side[declarer]
        # passing: the move is made (a later doubter may still doubt: ignored)
        pos.push(move)
        v_pass = evaluate(pos, team)
        # a wrong doubt: the move stands and the declarer sends back our worst-hit peg
        mine = pos.occ[seen.side] & pos.geo.main_mask
        if mine:
            worst: float | None = None
            for h in range(pos.L):
                if mine >> h & 1:
                    saved = _send_back(pos, seen.side, h)
                    v = evaluate(pos, team)
                    pos.restore(saved)
                    worst = v if worst is None else min(worst, v)
            assert worst is not None  # `mine` has a peg
            v_wrong = worst
        else:
            v_wrong = v_pass - EXTRA_TURN
        pos.pop()
        # a caught bluff: no move, and we send back the declarer's peg that helps us most
        theirs = pos.occ[dside] & pos.geo.main_mask
        if theirs:
            best: float | None = None
            for h in range(pos.L):
                if theirs >> h & 1:
                    saved = _send_back(pos, dside, h)
                    v = evaluate(pos, team)
                    pos.restore(saved)
                    best = v if best is None else max(best, v)
            assert best is not None  # `theirs` has a peg
            v_caught = best
        else:
            v_caught = evaluate(pos, team) + EXTRA_TURN
        v_doubt = p * v_wrong + (1 - p) * v_caught
        kind = DOUBT if v_doubt > v_pass else PASS
        return Decision(Move("", kind), None, max(v_doubt, v_pass), 0, 2, p)

    def _penalty(self, seen: _Seen) -> Decision:
        pos, team = seen.pos, seen.team
        victim = seen.seat_side[seen.view["penalty"]["victim_seat"]]
        best: int | None = None
        best_v: float | None = None
        occ = pos.occ[victim] & pos.geo.main_mask
        for h in range(pos.L):
            if occ >> h & 1:
                saved = _send_back(pos, victim, h)
                v = evaluate(pos, team)
                pos.restore(saved)
                if best_v is None or v > best_v:
                    best, best_v = h, v
        if best is None:
            raise MoveError("no peg to send back in this view")
        assert best_v is not None  # scored with its peg
        return Decision(Move("", PENALTY, ((victim, best, START),)), None, best_v, 0, 1)




def decide_pegs(bot: StrongBot, seen: _Seen, phase: str, decision_cls: type,
                over: object) -> Decision:
    """The Pegs and Jokers family's search (`Family.search`): the bot's own play, doubt and
    penalty searches, which keep their own clock."""
    if phase == "doubt":
        return bot._doubt(seen)
    if phase == "penalty":
        return bot._penalty(seen)
    if phase == "play":
        return bot._play(seen)
    raise MoveError(f"nothing to decide in phase {phase!r}")

__all__ = ["StrongBot", "Decision", "DEFAULT_THINK_MS"]
