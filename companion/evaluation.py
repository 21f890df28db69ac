"""The bots' one evaluation of a position for a team (tunable weights).

Team progress, partner included, minus the other teams' mean. Every bot uses this loop,
with its own weights and terms: the greedy bot the default weights (one threat from 1-13
holes behind costs 35% of a peg's value), the strong bot more of what matters (every
opponent peg that could hit a peg counts, up to 8 holes ahead for the 8 backward, a peg
parked on its own come-out hole blocking the pegs still in start costs a little), the
Tock family's search its start holes that can't be hit (`set_safe`, TK-M3; its tables in
`companion.families.tock.search`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import Geometry
    from .state import PegState

# How much a card is worth keeping (before the come-out bonus); greedy and the strong bot share it.
_CARD_KEEP = {"JK": 9.0, "A": 4.0, "J": 3.5, "Q": 3.5, "K": 3.5, "7": 3.0, "8": 3.0,
              "10": 2.0, "9": 2.0, "2": 1.0, "3": 1.0, "4": 1.0, "5": 1.0, "6": 1.5}
_COME_OUT_RANKS = frozenset(("A", "J", "Q", "K", "JK"))
_COME_OUT_KEEP = 4.0  # extra worth of a come-out card while pegs wait in start


def main_track_by_team(pos: PegState, main_mask: int) -> tuple[list[int], int]:
    """Each team's pegs on the main track (a bit mask per team) and all of them together:
    what an evaluation needs to find the opponents behind a peg."""
    by_team = [0] * len(pos.teams)
    for c in pos.colours:
        by_team[pos.team_of[c]] |= pos.occ[c] & main_mask
    all_main = 0
    for m in by_team:
        all_main |= m
    return by_team, all_main


def card_keep_value(rank: str, pegs_in_start: bool) -> float:
    """How useful a card of `rank` is to hold on to."""
    v = _CARD_KEEP.get(rank, 1.0)
    if pegs_in_start and rank in _COME_OUT_RANKS:
        v += _COME_OUT_KEEP
    return v



@dataclass(frozen=True)
class Weights:
    out_bonus: float = 12.0     # a peg out of start, before any distance travelled
    step: float = 1.0           # per hole travelled toward the in-spot
    home_bonus: float = 40.0    # a peg in home, beyond being at its in-spot
    home_depth: float = 3.0     # per hole deeper in home
    danger_each: float = 0.35   # share of a peg's value at risk per opponent peg that can hit it
    danger_max: float = 0.35    # the most of a peg's value at risk
    reach_forward: int = 13     # holes behind a peg from which a forward card hits it
    reach_back: int = 0         # holes ahead of a peg from which the 8 backward hits it
    back_weight: float = 0.5    # a backward threat, against a forward one
    block_come_out: float = 0.0  # a peg on its own come-out hole while pegs wait in start
    come_out_danger: float = 0.0  # share at risk on an opponent's come-out hole (pegs in its start)


class _Tables:
    def __init__(self, geo: Geometry, w: Weights) -> None:
        L = self.L = geo.length
        self.main_mask = geo.main_mask
        self.main_value = []
        for c in range(geo.sides):
            spot = geo.in_spot[c]
            self.main_value.append(tuple(
                w.out_bonus + w.step * (L - (spot - x) % L) for x in range(L)))
        top = w.out_bonus + w.step * L + w.home_bonus
        self.home_value = tuple(sum(top + w.home_depth * k for k in range(5) if m >> k & 1)
                                for m in range(32))
        rf = min(w.reach_forward, L - 1)
        rb = min(w.reach_back, L - 1)
        self.behind = tuple(sum(1 << ((x - d) % L) for d in range(1, rf + 1)) for x in range(L))
        self.ahead = tuple(sum(1 << ((x + d) % L) for d in range(1, rb + 1)) for x in range(L))
        self.come_out_bit = tuple(1 << geo.come_out[c] for c in range(geo.sides))
        # per colour, the threat tables its pegs read: the shared ones, or with the hole
        # where its peg can't be hit left out (the Tock family's start holes, TK-M3: `set_safe`)
        self.behind_of = (self.behind,) * geo.sides
        self.ahead_of = (self.ahead,) * geo.sides
        # every hole a threat may come from (behind or ahead): no threat there, no danger
        self.reach_of = (tuple(b | a for b, a in zip(self.behind, self.ahead)),) * geo.sides
        self.tock_board = False  # adjusted for the Tock family's board (`TockEvaluator.tables`)

    def set_safe(self, holes: list[int]) -> None:
        """Colour c's peg on holes[c] can't be hit: no threat counts against it there."""
        self.behind_of = tuple(tuple(0 if x == h else b for x, b in enumerate(self.behind))
                               for h in holes)
        self.ahead_of = tuple(tuple(0 if x == h else a for x, a in enumerate(self.ahead))
                              for h in holes)
        self.reach_of = tuple(tuple(b | a for b, a in zip(bs, as_))
                              for bs, as_ in zip(self.behind_of, self.ahead_of))


class Evaluator:
    """`evaluator(pos, team)`: the team's score, its progress minus the others' mean."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.w = w = weights or Weights()
        # the loop's constants, worked out once (the greedy bot calls this per play)
        self._k = (w.danger_each, w.danger_max, w.danger_each * w.back_weight, w.reach_back > 0,
                   w.danger_each >= w.danger_max, w.block_come_out, w.come_out_danger, w.back_weight)
        self._tables: dict[int, tuple[Any, _Tables]] = {}
        self._last_geo: Any = None
        self._last: _Tables = None  # type: ignore[assignment]  # set before first use
        # `score`: the same value as calling the evaluator, by the loop without the terms these
        # weights leave at zero when that is all they need (the greedy bot's: one threat from
        # behind caps the danger, no backward reach, no come-out terms)
        plain = (w.reach_back <= 0 and w.danger_each >= w.danger_max and not w.block_come_out
                 and not w.come_out_danger)
        self.score = self._plain if plain else self.__call__

    def tables(self, geo: Geometry) -> _Tables:
        if geo is self._last_geo:  # the hot path: the same board again
            return self._last
        t = self._tables.get(id(geo))
        if t is None or t[0] is not geo:
            t = self._tables[id(geo)] = (geo, _Tables(geo, self.w))  # geo kept: its id stays unique
        self._last_geo, self._last = geo, t[1]
        return t[1]

    def _plain(self, pos: PegState, team: int) -> float:
        """`__call__`'s loop for weights with only the forward threat (`score`): the same
        operations in the same order on each peg, so the same float."""
        geo = pos.geo
        tb = self._last if geo is self._last_geo else self.tables(geo)
        L, mm, behind_of, home_value, main_value = (tb.L, tb.main_mask, tb.behind_of,
                                                    tb.home_value, tb.main_value)
        occ, team_of = pos.occ, pos.team_of
        each = self.w.danger_each
        totals = [0.0] * len(pos.teams)
        main_by_team, all_main = main_track_by_team(pos, mm)
        for c in pos.colours:
            o = occ[c]
            t = team_of[c]
            value = home_value[o >> L]
            main = o & mm
            if main:
                opp = all_main & ~main_by_team[t]
                mv = main_value[c]
                behind = behind_of[c]
                while main:
                    low = main & -main
                    x = low.bit_length() - 1
                    main ^= low
                    v = mv[x]
                    if opp & behind[x]:
                        v -= v * each
                    value += v
            totals[t] += value
        mine = totals[team]
        if len(totals) == 1:
            return mine
        return mine - (sum(totals) - mine) / (len(totals) - 1)

    def __call__(self, pos: PegState, team: int) -> float:
        geo = pos.geo
        # the hot path: the same board again (a subclass's `tables` has adjusted them already)
        tb = self._last if geo is self._last_geo else self.tables(geo)
        L, mm, behind_of, ahead_of, reach_of = (tb.L, tb.main_mask, tb.behind_of, tb.ahead_of,
                                                tb.reach_of)
        occ, start, team_of, teams = pos.occ, pos.start, pos.team_of, pos.teams
        home_value = tb.home_value
        each, cap, back_each, use_ahead, one_threat, block, co_danger, bw = self._k
        if co_danger:
            hot = [0] * len(teams)  # come-out holes of each team's colours with pegs in start
            for c in pos.colours:
                if start[c]:
                    hot[team_of[c]] |= tb.come_out_bit[c]
        totals = [0.0] * len(teams)
        main_by_team, all_main = main_track_by_team(pos, mm)
        for c in pos.colours:
            o = occ[c]
            t = team_of[c]
            value = home_value[o >> L]
            main = o & mm
            if main:
                opp = all_main & ~main_by_team[t]
                hot_opp = 0
                if co_danger:
                    for i, h in enumerate(hot):
                        if i != t:
                            hot_opp |= h
                mv = tb.main_value[c]
                behind, ahead, reach = behind_of[c], ahead_of[c], reach_of[c]
                if block and start[c] and main & tb.come_out_bit[c]:
                    value -= block
                while main:
                    low = main & -main
                    x = low.bit_length() - 1
                    main ^= low
                    v = mv[x]
                    if opp & reach[x]:  # a threat at all
                        if one_threat:  # the first threat already reaches the cap
                            if opp & behind[x]:
                                v -= v * each
                            elif use_ahead and opp & ahead[x]:
                                v -= v * min(cap, back_each * (opp & ahead[x]).bit_count())
                        else:
                            n: float = (opp & behind[x]).bit_count()
                            if use_ahead:
                                n += bw * (opp & ahead[x]).bit_count()
                            if n:
                                v -= v * min(cap, each * n)
                    if hot_opp & low:
                        v -= v * co_danger
                    value += v
            totals[t] += value
        mine = totals[team]
        if len(totals) == 1:
            return mine
        return mine - (sum(totals) - mine) / (len(totals) - 1)


__all__ = ["Weights", "Evaluator"]
