"""The strong bot in Tock, Carbles and Jackaroo (RELATED-GAMES.md).

`companion.strong.StrongBot` hands every decision of a related-games view to
`decide` here, so the Pegs and Jokers presets keep their own code path (and
their decisions) untouched. The method is the same (a one-ply screen, then
deals of the unseen cards with short rollouts, common random numbers, and a
switch away from the screen's favourite only on clear evidence); what
differs is the game it simulates and how it values a position:

* No drawing: hands are dealt in rounds (TK-C2, CB-C2, JR-C2). The rollout
  plays the cards in hand and stops when the deal is played out; a seat with
  no cards is passed over, a skipped seat (JR-P11) misses its turn.
* The start hole is also the in-spot (TK-G3) and a peg that stands on it
  can't turn in (TK-M5): a peg there has everything still to go, and it is
  safe (TK-M3). The 4 moves backward where the rules say so (TK-V1, CB,
  JR): threats from up to 4 holes ahead. Only the cards that bring pegs out
  in this game (A, K, the Carbles joker) are come-out cards.
* The cards already played in this deal cycle are known (face up), so they
  are not dealt to the other hands (TK-C2's cycle; Carbles refills from the
  discards, so there every unseen card may come back).
* Its own phases: the card passed to the partner (TK-V4.1) is the one worth
  most to the partner's pegs against what it is worth to its own; a forced
  discard (JR-P5) gives up the card least useful to its own pegs. A 10's
  forced discard and a red queen's steal (JR-P5, JR-P6) are searched like
  any play: the rollout makes the victim lose a card and a turn.

Everything is computed from the seat's view (its own hand, the board, hand
sizes, the public log).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from ...errors import MoveError
from ...cards import make_shoe
from ...evaluation import _CARD_KEEP, Evaluator, Weights
from ...moves import DISCARD, FORCE, GIVE, HAND, MOVE, SWAP, Move
from ...rollouts import paired_rollouts
from .position import BACK, FORCE10, KING, OUT, STEAL, SWAPK, card_rank, powers

if TYPE_CHECKING:
    import random
    from ...board import Geometry
    from ...evaluation import _Tables
    from ...moves import Steps
    from ...rules import Rules
    from ...state import PegState
    from ...strong import Decision, Over, StrongBot, _Seen
    from .position import TockPosition

Evaluate = Callable[["PegState", int], float]   # (position, team) -> its score
Screened = tuple[float, Move, "str | None"]    # (one-ply score, move, the card it spends)

CANDIDATES_FORCE = 2      # force/steal plays searched besides the screen's best
COME_OUT_KEEP = 4.0       # extra worth of a come-out card while pegs wait in start
FORCE_KEEP = 2.0          # worth of keeping a 10 (Jackaroo) or red queen: it costs a rival a turn
SWAP_KEEP = 3.0           # a card that only swaps (Jackaroo's black jack)
BACK4_KEEP = 3.0          # the backward 4: from the start hole it reaches near home


# ------------------------------------------------------------------ evaluation
class TockEvaluator(Evaluator):
    """`Evaluator` (its one loop) with the related games' board: a peg on its own start hole
    (= in-spot) has the whole lap to go and is safe there when the rules make
    it a block (TK-M3); threats from behind (any forward card up to 13) and,
    with a backward 4, from up to 4 holes ahead."""

    def __init__(self, rules: Rules) -> None:
        back = 4 if rules.four == "backward" else 0
        super().__init__(Weights(reach_back=back))
        self.safe_start = rules.start_block

    def tables(self, geo: Geometry) -> _Tables:
        tb = super().tables(geo)
        if not tb.tock_board:
            w = self.w
            mv = []
            for c in range(geo.sides):
                row = list(tb.main_value[c])
                sh = geo.come_out[c]
                if geo.in_spot[c] == sh:
                    row[sh] = w.out_bonus  # TK-M5: it can't turn in from there
                mv.append(tuple(row))
            tb.main_value = mv
            if self.safe_start:  # TK-M3: a peg on its own start hole can't be hit
                tb.set_safe([geo.come_out[c] for c in range(geo.sides)])
            tb.tock_board = True
        return tb


@lru_cache(maxsize=None)
def evaluator_for(rules: Rules) -> TockEvaluator:
    return TockEvaluator(rules)


class CardWorth:
    """How useful each rank of this game is to keep (before the come-out bonus)."""

    def __init__(self, rules: Rules) -> None:
        self.table: dict[str, float] = {}
        self.out: set[str] = set()
        for rank, acts in powers(rules).items():
            kinds = {k for k, _ in acts}
            if rank == "JK":
                v = _CARD_KEEP["JK"]
            elif FORCE10 in kinds or STEAL in kinds:
                v = max(FORCE_KEEP, _CARD_KEEP.get(rank, 1.0))
            elif kinds == {SWAPK}:
                v = SWAP_KEEP
            elif kinds == {BACK}:
                v = BACK4_KEEP
            else:
                v = _CARD_KEEP.get(rank[:1] if rank[:1] in "JQ" else rank, 1.0)
            if KING in kinds:
                v += 1.0  # the king that clears its path (JR-P8)
            self.table[rank] = v
            if OUT in kinds:
                self.out.add(rank)

    def __call__(self, rank: str, pegs_in_start: bool) -> float:
        v = self.table.get(rank, 1.0)
        if pegs_in_start and rank in self.out:
            v += COME_OUT_KEEP
        return v


@lru_cache(maxsize=None)
def worth_for(rules: Rules) -> CardWorth:
    return CardWorth(rules)


# ------------------------------------------------------------------ the view
def unseen_pool(seen: _Seen) -> list[str]:
    """The ranks this seat has not seen: the shoe less its hand and, within a
    deal cycle that is shuffled only at its end (TK-C2), less the cards played
    face up since the cycle began (from the log, as far as it reaches)."""
    r, view = seen.rules, seen.view
    pool = [card_rank(r, c) for c in make_shoe(r.decks, r.jokers_per_deck, r.extra_jokers)]
    gone = list(seen.hand)
    if r.deal_reshuffle == "cycle" and view.get("deal"):
        rnd = (view["deal"] - 1) % len(r.deal)
        dealt = seen.players * sum(r.deal[:rnd + 1])
        out = dealt - sum(seen.hand_sizes)  # cards that left the hands this cycle
        for entry in reversed(view.get("log", [])):
            if out <= 0:
                break
            text = entry.get("move", "")
            if text == "pass" or " pass " in text:
                continue  # a card passed to the partner stays in the hands
            cards = entry.get("cards") or ([entry["card"]] if entry.get("card") else [])
            gone += cards
            out -= len(cards) if text == "discard hand" else 1
            if " force " in text and entry.get("stolen"):
                gone.append(entry["stolen"])  # a red queen's card this seat saw
            if " force " in text and text.split()[0] == "Qr":
                out -= 1  # the stolen card left a hand too (seen or not)
    for c in gone:
        try:
            pool.remove(card_rank(r, c))
        except ValueError:
            pass
    return pool


def _first_cards(rules: Rules, hand: Iterable[str]) -> dict[str, str]:
    first: dict[str, str] = {}
    for card in hand:
        first.setdefault(card_rank(rules, card), card)
    return first


def _in_start(pos: PegState, side: int) -> bool:
    return any(pos.start[c] for c in pos.controlled(side))


# ------------------------------------------------------------------ rollouts
class RelatedSim:
    """A light game of a related preset on a Position with sampled hands."""

    def __init__(self, seen: _Seen, evaluate: Evaluate, worth: CardWorth, rng: random.Random) -> None:
        self.seen, self.evaluate, self.worth, self.rng = seen, evaluate, worth, rng
        self.pos = cast("TockPosition", seen.pos)  # the Tock family's view
        self.players: int = seen.players
        self.seat_side = seen.seat_side
        self.side_seat = seen.side_seat
        self.step = -1 if seen.rules.direction == "counter" else 1
        self.stuck_hand = seen.rules.stuck == "hand"

    def sync(self, hands: Sequence[Sequence[str]], waiting: Iterable[int]) -> None:
        pos = self.pos
        pos.hand_sizes = {self.seat_side[s]: len(h) for s, h in enumerate(hands)}
        pos.waiting = frozenset(self.seat_side[s] for s in waiting)

    def next_seat(self, seat: int, hands: Sequence[Sequence[str]], skips: list[int]) -> int | None:
        """The seat to play after `seat` (TK-C3, JR-P11), or None when the deal is over."""
        if not any(hands):
            return None
        nxt = seat
        while True:
            nxt = (nxt + self.step) % self.players
            if not hands[nxt]:
                continue
            if skips[nxt]:
                skips[nxt] -= 1
                continue
            return nxt

    def policy(self, hand: Sequence[str]) -> tuple[Move, str | None] | None:
        """Greedy play for the side to move: (move, rank) with rank None for the whole hand."""
        pos = self.pos
        side = pos.to_move
        team = pos.team_of[side]
        ranks = list(dict.fromkeys(hand))
        moves, stuck = pos.hand_moves(ranks)
        in_start = _in_start(pos, side)
        worth, evaluate = self.worth, self.evaluate
        best: tuple[Move, str | None] | None = None
        best_score: float | None = None
        saved = pos.save()
        base: float | None = None
        scored: dict[tuple[str, Steps], float] = {}
        for m in moves:
            if m[1] in (MOVE, SWAP):
                key = (m[1], m[2])
                sc = scored.get(key)
                if sc is None:
                    pos.apply(m, side)
                    sc = scored[key] = evaluate(pos, team)
                    pos.restore(saved)
            else:
                if base is None:
                    base = evaluate(pos, team)
                sc = base
            sc -= worth(m[0], in_start)
            if best_score is None or sc > best_score:
                best, best_score = (m, m[0]), sc
        if best is None and stuck:
            if self.stuck_hand:
                return Move("", HAND), None
            rk = min(ranks, key=lambda rk: worth(rk, in_start))
            return Move(rk, DISCARD), rk
        return best

    def apply(self, seat: int, move: Move, rank: str | None, hands: list[list[str]], skips: list[int],
              waiting: set[int]) -> int | None:
        """Make `seat`'s play on the position and hands (in place); returns the next seat."""
        pos = self.pos
        kind = move[1]
        if kind == HAND:
            hands[seat] = []
            waiting.add(seat)
        else:
            hand = hands[seat][:]
            hand.remove(rank)  # type: ignore[arg-type]  # every play but the whole hand spends a card
            hands[seat] = hand
            if kind == FORCE:
                target = self.side_seat[move[2][0]]
                skips[target] += 1
                th = hands[target][:]
                if th:
                    if move[0] == "10":  # JR-P5: the victim gives up its least useful card
                        tin = _in_start(pos, move[2][0])
                        th.remove(min(th, key=lambda rk: self.worth(rk, tin)))
                    else:  # JR-P6: a random card
                        th.pop(self.rng.randrange(len(th)))
                    hands[target] = th
            elif kind in (MOVE, SWAP):
                pos.apply(move, pos.to_move)
        nxt = self.next_seat(seat, hands, skips)
        if nxt is not None:
            pos.to_move = self.seat_side[nxt]
        return nxt

    def rollout(self, seat: int | None, hands: list[list[str]], skips: list[int], waiting: set[int],
                plies: int) -> None:
        """Play up to `plies` greedy turns from `seat` (or until the deal is played out)."""
        pos = self.pos
        for _ in range(plies):
            if seat is None or pos.winner() is not None:
                return
            self.sync(hands, waiting)
            choice = self.policy(hands[seat])
            if choice is None:
                return
            seat = self.apply(seat, choice[0], choice[1], hands, skips, waiting)


# ------------------------------------------------------------------ decisions
def _one_ply_gain(pos: PegState, side: int, team: int, rank: str, evaluate: Evaluate, base: float) -> float:
    """The best board gain `side` could make with a card of `rank` now (0 if none)."""
    saved = pos.save()
    pos.to_move = side
    best = 0.0
    try:
        for m in pos.legal_moves([rank]):
            if m[1] in (MOVE, SWAP):
                pos.apply(m, side)
                best = max(best, evaluate(pos, team) - base)
                pos.restore(saved)
                pos.to_move = side
    finally:
        pos.restore(saved)
    return best


def _card_uses(seen: _Seen, side: int, evaluate: Evaluate,
               worth: CardWorth) -> tuple[dict[str, float], dict[str, str]]:
    """rank -> how useful a card of that rank is to `side` now: its best one-ply
    gain plus its worth of keeping."""
    pos, team = seen.pos, seen.team
    base = evaluate(pos, team)
    in_start = _in_start(pos, side)
    first = _first_cards(seen.rules, seen.hand)
    return {rk: _one_ply_gain(pos, side, team, rk, evaluate, base) + worth(rk, in_start)
            for rk in first}, first


def decide_give(seen: _Seen, decision_cls: type[Decision]) -> Decision:
    """TK-V4.1: pass the card worth most to the partner against its worth to this seat."""
    evaluate, worth = evaluator_for(seen.rules), worth_for(seen.rules)
    team_seats = next(t for t in seen.view["teams"] if seen.seat in t)
    partner_side = seen.seat_side[next(s for s in team_seats if s != seen.seat)]
    mine, first = _card_uses(seen, seen.side, evaluate, worth)
    theirs, _ = _card_uses(seen, partner_side, evaluate, worth)
    best = max(first, key=lambda rk: (theirs[rk] - mine[rk], -list(first).index(rk)))
    return decision_cls(Move(best, GIVE, (partner_side,)), first[best],
                        theirs[best] - mine[best], 0, len(first))


def decide_forced(seen: _Seen, decision_cls: type[Decision]) -> Decision:
    """JR-P5: discard the card least useful to this seat's pegs."""
    evaluate, worth = evaluator_for(seen.rules), worth_for(seen.rules)
    mine, first = _card_uses(seen, seen.side, evaluate, worth)
    worst = min(first, key=lambda rk: (mine[rk], list(first).index(rk)))
    return decision_cls(Move(worst, DISCARD), first[worst], -mine[worst], 0, len(first))


def screen(seen: _Seen) -> list[Screened]:
    """One-ply scores of the distinct plays: [(score, move, card)], best first."""
    rules, pos, side, team = seen.rules, seen.pos, seen.side, seen.team
    evaluate, worth = evaluator_for(rules), worth_for(rules)
    first = _first_cards(rules, seen.hand)
    in_start = _in_start(pos, side)
    moves, stuck = pos.hand_moves(list(first))
    base = evaluate(pos, team)
    out: list[Screened] = []
    score_of: dict[tuple[str, Steps], float] = {}
    for m in moves:
        if m[1] in (MOVE, SWAP):
            key = (m[1], m[2])
            sc = score_of.get(key)
            if sc is None:
                pos.push(m)
                sc = score_of[key] = evaluate(pos, team)
                pos.pop()
        else:
            sc = base
        out.append((sc - worth(m[0], in_start), m, first[m[0]]))
    if stuck and rules.stuck == "card":  # CB-P4, JR-P9
        for rk, card in first.items():
            out.append((base - worth(rk, in_start), Move(rk, DISCARD), card))
    if (stuck and rules.stuck == "hand") or rules.give_up_hand:  # TK-P3, JR-P10
        out.append((base - sum(worth(card_rank(rules, c), in_start) for c in seen.hand),
                    Move("", HAND), None))
    out.sort(key=lambda t: -t[0])
    return out


def decide_play(bot: StrongBot, seen: _Seen, decision_cls: type[Decision], over: Over) -> Decision:
    screened = screen(seen)
    if not screened:
        raise MoveError("no legal plays in this view")
    cands: list[Screened] = []
    forces: list[Screened] = []
    keys: set[tuple[str, Any]] = set()
    for t in screened:
        m = t[1]
        key = (m[1], m[2]) if m[1] in (MOVE, SWAP) else (m[1], m[0])
        if key in keys:
            continue
        keys.add(key)
        if len(cands) < bot.candidates:
            cands.append(t)
        elif m[1] == FORCE and len(forces) < CANDIDATES_FORCE:
            forces.append(t)  # the screen can't see what a force costs the victim
    cands += forces
    if len(cands) == 1 or all(t[1][1] in (DISCARD, HAND) for t in cands):
        top = cands[0]
        return decision_cls(top[1], top[2], top[0], 0, len(cands))
    edges, n = search(bot, seen, [t[1] for t in cands], [t[2] for t in cands], over)
    best, best_v = cands[0], 0.0
    for t, v in zip(cands, edges):
        if v > best_v:
            best, best_v = t, v
    return decision_cls(best[1], best[2], best_v, n, len(cands))


def search(bot: StrongBot, seen: _Seen, moves: Sequence[Move], cards: Sequence[str | None], over: Over,
           switch_z: float = 1.0) -> tuple[list[float], int]:
    """Each candidate's edge over the first, from rollouts on sampled deals
    (common random numbers), less `switch_z` standard errors."""
    rng = bot.rng
    rules, pos = seen.rules, seen.pos
    evaluate, worth = evaluator_for(rules), worth_for(rules)
    sim = RelatedSim(seen, evaluate, worth, rng)
    me, players = seen.seat, seen.players
    plies = bot.rollout_plies if bot.rollout_plies is not None else players + 1
    others = [s for s in range(players) if s != me]
    sizes = [seen.hand_sizes[s] for s in others]
    pool = seen.pool
    need = min(sum(sizes), len(pool))
    in_start = _in_start(pos, seen.side)
    hand_value = sum(worth(card_rank(rules, c), in_start) for c in seen.hand)
    keeps = [hand_value if c is None else worth(card_rank(rules, c), in_start) for c in cards]
    hand_ranks = [card_rank(rules, c) for c in seen.hand]
    skips0 = list(seen.view.get("skips") or [0] * players)
    waiting0 = set(seen.view.get("waiting") or ())
    root = pos.save()  # with the hand sizes and waiting sides the rollouts change

    def play_out(i: int, hands0: list[list[str]], rest: list[str]) -> float:
        hands, skips, waiting = hands0[:], skips0[:], set(waiting0)
        hands[me] = hand_ranks
        m = moves[i]
        seat = sim.apply(me, m, None if m[1] == HAND else m[0], hands, skips, waiting)
        sim.rollout(seat, hands, skips, waiting, plies - 1)
        value = evaluate(pos, seen.team) - keeps[i]
        pos.restore(root)
        return value

    _, edges, it = paired_rollouts(rng, pool, need, players, others, sizes, len(moves), bot.iterations,
                                   over, play_out, switch_z)
    return edges, it


def decide(bot: StrongBot, seen: _Seen, phase: str, decision_cls: type[Decision], over: Over) -> Decision:
    """The strong bot's decision in a related-games view."""
    if phase == "give":
        return decide_give(seen, decision_cls)
    if phase == "forced":
        return decide_forced(seen, decision_cls)
    if phase == "play":
        return decide_play(bot, seen, decision_cls, over)
    raise MoveError(f"nothing to decide in phase {phase!r}")


__all__ = ["decide", "TockEvaluator", "CardWorth", "unseen_pool"]
