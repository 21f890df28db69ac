"""The Tock family's position: Tock, Carbles and Jackaroo (RELATED-GAMES.md).

`TockPosition` is the position of any rule set of the Tock family (`find_family`):
the related games' options never reach the Pegs and Jokers generator. It shares
the peg state (`companion.state.PegState`: masks, keys, winners, push/pop) with
the Pegs and Jokers position, so notation and the board referee read both alike.
Moved here unchanged from companion/related.py (issue 24).

The moves are generated from a few primitives (a forward path, a backward
path, what blocks a path, what a landing does), and a typed move is checked
by replaying its parts with the same primitives, so every refusal names the
rule it breaks (TK-/CB-/JR- ids).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...board import START
from ...errors import PositionError, RulesError
from ...message import Ref, Said, msg, nmsg, said
from ...moves import (DISCARD, FORCE, HAND, MOVE, SWAP, IllegalMoveError, Move,
                      canonical_rank)
from ...state import PegState, Saved, bits as _bits

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from ...rules import Rules

    # a forward or backward path: (destination, main-track holes passed in order, home holes mask)
    Path = tuple[int, tuple[int, ...], int]
    # (colours the side to move may move, its team, 0, False): the Pegs and Jokers context's shape
    Context = tuple[list[int], int, int, bool]

RED_SUITS = "HD"

# Powers of a rank here: (kind, count).
OUT, FWD, BACK, OTHER5, SWAPK, SPLIT7, STEPS7, FORCE10, STEAL, KING = (
    "out", "fwd", "back", "other5", "swap", "split7", "steps7", "force", "steal", "king")


def deck_ranks(rules: Rules) -> tuple[str, ...]:
    """RG-N2: the ranks of this game's deck, in the order `moves` lists them."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    ranks += ["Jr", "Jb"] if rules.jack == "suited" else ["J"]
    ranks += ["Qr", "Qb"] if rules.queen == "suited_steal" else ["Q"]
    ranks.append("K")
    if rules.jokers_per_deck or rules.extra_jokers:
        ranks.append("JK")
    return tuple(ranks)


def card_rank(rules: Rules, card: str) -> str:
    """The rank a card plays as (JR-C1: suits matter for J and Q)."""
    if card == "JK":
        return card
    rank = card[:-1]
    if (rank == "J" and rules.jack == "suited") or (rank == "Q" and rules.queen == "suited_steal"):
        return rank + ("r" if card[-1] in RED_SUITS else "b")
    return rank


def powers(rules: Rules) -> dict[str, tuple[tuple[str, int], ...]]:
    """rank -> tuple of (kind, count): the card table of RELATED-GAMES.md K."""
    court = (10, 10, 10) if rules.court == "10" else (11, 12, 13)
    out: dict[str, tuple[tuple[str, int], ...]] = {}
    for rank in deck_ranks(rules):
        acts: list[tuple[str, int]] = []
        if rank == "A":
            acts = [(OUT, 0), (FWD, 1)]
        elif rank in ("2", "3", "6", "8", "9"):
            acts = [(FWD, int(rank))]
        elif rank == "4":
            acts = [(BACK, 4) if rules.four == "backward" else (FWD, 4)]
        elif rank == "5":
            acts = [(FWD, 5)] + ([(OTHER5, 5)] if rules.five != "forward" else [])
        elif rank == "7":
            acts = [{"one": (FWD, 7), "steps": (STEPS7, 7), "split_any": (SPLIT7, 7)}[rules.seven]]
        elif rank == "10":
            acts = {"swap": [(SWAPK, 0)], "force": [(FWD, 10), (FORCE10, 0)]}.get(
                rules.ten, [(FWD, 10)])
        elif rank in ("J", "Jr", "Jb"):
            if rank == "Jb":
                acts = [(SWAPK, 0)]
            else:
                acts = [(FWD, court[0])] + ([(SWAPK, 0)] if rules.jack == "swap" else [])
                if rules.court_out == "JQK":
                    acts.insert(0, (OUT, 0))
        elif rank in ("Q", "Qr", "Qb"):
            if rank == "Qr":
                acts = [(STEAL, 0)]
            else:
                acts = [(FWD, court[1])]
                if rules.court_out == "JQK":
                    acts.insert(0, (OUT, 0))
        elif rank == "K":
            acts = [(OUT, 0), (KING if rules.king == "clears" else FWD, court[2])]
        elif rank == "JK":
            acts = [(OUT, 0)]  # CB-M4, CB-V1.2
        out[rank] = tuple(acts)
    return out


def family(rules: Rules) -> str:
    """Which document's ids to cite: TK, CB or JR (the prefix of the preset's board rule in
    `_BOARD`; other rule sets using these options cite Tock's)."""
    board = _BOARD.get(rules.preset)
    return board[1].split("-")[0] if board else "TK"


def board_sizes(rules: Rules) -> tuple[int, ...]:
    """The board sizes a game of `rules` may have: the preset's (RELATED-GAMES.md S), or for
    other rule sets with these options any of Carbles' sections (CB-G1)."""
    board = _BOARD.get(rules.preset)
    return board[0] if board else SECTIONS


def is_carbles_board(rules: Rules) -> bool:
    """A board of sections (CB-G1: 4, 6, 8 or 12 of them), not Tock's or Jackaroo's 4-sided one
    (the camera's layout and the set-up page ask this)."""
    board = _BOARD.get(rules.preset)
    return board is not None and board[0] == SECTIONS


# Rule ids by family, for the refusals.
_IDS = {
    "TK": {"block": "TK-M3", "own": "TK-M2", "pair": "JR-M3", "turn": "TK-M5", "home": "TK-M6",
           "must": "TK-P2", "whose": "TK-P4", "count": "TK-M1", "back": "TK-M7", "out": "TK-M4",
           "swap": "TK-V2", "seven": "TK-R6", "five": "TK-V3", "force": "JR-P5"},
    "CB": {"block": "CB-M3", "own": "CB-M2", "pair": "JR-M3", "turn": "CB-M5", "home": "CB-M6",
           "must": "CB-P4", "whose": "CB-V1", "count": "CB-M1", "back": "CB-M7", "out": "CB-M4",
           "swap": "CB-P3", "seven": "CB-P2", "five": "TK-V3", "force": "JR-P5"},
    "JR": {"block": "JR-M4", "own": "JR-M2", "pair": "JR-M3", "turn": "JR-M7", "home": "JR-M8",
           "must": "JR-P9", "whose": "JR-P12", "count": "JR-M1", "back": "JR-M9", "out": "JR-M6",
           "swap": "JR-P7", "seven": "JR-P4", "five": "JR-P3", "force": "JR-P5"},
}


def seat_sections(sections: int, players: int) -> list[int]:
    """CB-G2: seat i sits at section floor(i*S/n)."""
    return [i * sections // players for i in range(players)]


# RELATED-GAMES.md S: each preset's player counts and board sides, with the
# rule a position off them breaks. Other rule sets using the related options
# take any layout CB-G2 seats.
SEATS = {"tock": (4,), "tock_partnership": (4,), "tock3": (3,), "carbles": (2, 3, 4, 5, 6),
         "carbles_partnership": (4, 6, 8, 12), "jackaroo": (4,), "jackaroo_individual": (4,)}
SECTIONS = (4, 6, 8, 12)
_BOARD = {"tock": ((4,), "TK-G1", "TK-G1"), "tock_partnership": ((4,), "TK-G1", "TK-V4"),
          "tock3": ((4,), "TK-V5", "TK-V5"), "carbles": (SECTIONS, "CB-G1", "CB-G2"),
          "carbles_partnership": (SECTIONS, "CB-G1", "CB-V1"), "jackaroo": ((4,), "JR-G1", "JR-G3"),
          "jackaroo_individual": ((4,), "JR-G1", "JR-V1")}
_OTHER_FORM = {"tock": "tock_partnership", "tock_partnership": "tock", "carbles": "carbles_partnership",
               "carbles_partnership": "carbles", "jackaroo": "jackaroo_individual",
               "jackaroo_individual": "jackaroo"}


def _words(numbers: Iterable[object]) -> str:
    texts = [str(n) for n in numbers]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


def check_layout(rules: Rules, sides: int, teams: Sequence[Sequence[int]], pegs: Mapping[int, object],
                 waiting: Iterable[int] = ()) -> None:
    """RG-N5, section S: the preset's board, seats and teams, and `waiting` only
    where a whole hand is discarded; PositionError names the rule."""
    preset, n = rules.preset, len(pegs)
    if preset in _BOARD:
        boards, board_rule, rule = _BOARD[preset]
        if sides not in boards:
            raise PositionError(f"{preset} is played on a board of {_words(boards)} sides, "
                                f"not {sides} ({board_rule})")
        if n not in SEATS[preset]:
            where = " on sides 0, 1, 2 (side 3 is empty)" if preset == "tock3" else ""
            raise PositionError(f"{preset} is played by {_words(SEATS[preset])} players{where}, "
                                f"not {n} (pegs are given for sides {sorted(pegs)}; {rule})")
    else:
        rule = "RG-N5"
    seats = seat_sections(sides, n) if n else []
    if rules.team_play == "solo":
        want, how = [[s] for s in seats], "each player plays alone"
    elif rules.team_play == "pairs" and n % 2 == 0:
        want = [[seats[i], seats[i + n // 2]] for i in range(n // 2)]
        how = "partners sit opposite"
    elif rules.team_play == "pairs":
        raise PositionError(f"{n} players can't sit in pairs ({rule})")
    else:
        want = None
    try:
        given = sorted(sorted(t) for t in teams)
    except TypeError:
        given = None
    if want is not None and sorted(pegs) == seats and given != sorted(want):
        other = _OTHER_FORM.get(preset)
        hint = f"; {_OTHER_FORM[preset]} is the other form" if other else ""
        raise PositionError(f"{preset}: {how}, so teams are {want}, not {teams} ({rule}{hint})")
    if waiting and rules.stuck != "hand" and not rules.give_up_hand:
        raise PositionError(
            f"waiting names sides out after discarding their whole hand (TK-P3, JR-P10); in "
            f"{preset} a stuck player burns one card instead (CB-P4), so no side waits (RG-N5)")


class TockPosition(PegState):
    """A position of the Tock family (Tock, Carbles, Jackaroo and rule sets using their options).

    Extra state (RG-N4, RG-N5), validated and carried but never applied to
    `to_move`: ``skips`` (per side), ``hand_sizes`` ({side: cards}, only
    read by the forces of JR-P5/P6) and ``waiting`` (sides out until the
    next deal, TK-P3 / JR-P10).
    """

    def __init__(self, rules: Rules, sides: int, teams: Iterable[Iterable[int]], occ: Sequence[int],
                 start: Sequence[int], to_move: int, counting: Sequence[int] | None = None,
                 skips: Sequence[int] | None = None, hand_sizes: Mapping[int, int] | None = None,
                 waiting: Iterable[int] = ()) -> None:
        super().__init__(rules, sides, teams, occ, start, to_move, counting)
        self.ranks = deck_ranks(rules)
        self.rg_powers = powers(rules)
        self.ids = _IDS[family(rules)]
        self.sh = self.geo.come_out  # start hole = in-spot (TK-G3)
        self.home_size = rules.home_size
        self.own_hits = rules.own_pegs == "hit"
        self.start_block = rules.start_block
        self.pair_block = rules.pair_block
        self.skips = list(skips) if skips is not None else [0] * sides
        self.hand_sizes = dict(hand_sizes or {})
        self.waiting = frozenset(waiting)

    # ----------------------------------------------------------- construction
    @classmethod
    def from_pegs(cls, rules: Rules, sides: int, teams: Sequence[Sequence[int]],
                  pegs: Mapping[int, Sequence[int]], to_move: int, counting: Mapping[int, int] | None = None,
                  skips: Mapping[int, int] | None = None, hand_sizes: Mapping[int, int] | None = None,
                  waiting: Iterable[int] = ()) -> TockPosition:
        check_layout(rules, sides, teams, pegs, waiting)
        pos = super().from_pegs(rules, sides, teams, pegs, to_move, counting)
        for name, table in (("skips", skips), ("hand_sizes", hand_sizes)):
            for side, n in (table or {}).items():
                if side not in pegs:
                    raise PositionError(f"{name} names side {side}, which has no pegs")
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise PositionError(f"{name} for side {side} is {n!r}; expected a whole number >= 0")
        for side in waiting:
            if side not in pegs:
                raise PositionError(f"waiting names side {side}, which has no pegs")
            if (hand_sizes or {}).get(side, 0) != 0:
                raise PositionError(f"side {side} is waiting, so it holds no cards: hand_sizes "
                                    f"must be 0 (RG-N5)")
        pos.skips = [int((skips or {}).get(s, 0)) for s in range(sides)]
        pos.hand_sizes = dict(hand_sizes or {})
        pos.waiting = frozenset(waiting)
        return pos

    @staticmethod
    def _check_sides(sides: int, pegs: Mapping[int, object]) -> None:
        if sides not in (4, 6, 8, 10, 12):
            raise PositionError(f"sides is {sides}; a board has 4, 6, 8, 10 or 12 sides (CB-G1)")
        occupied = sorted(pegs)
        if len(occupied) < 2 or occupied != seat_sections(sides, len(occupied)):
            raise PositionError(
                f"pegs are given for sides {occupied}; {len(occupied)} players on {sides} "
                f"sides sit at {seat_sections(sides, max(len(occupied), 1))} (CB-G2, TK-V5)")

    BOARD_SIDES = (4, 6, 8, 10, 12)

    def copy(self) -> "TockPosition":
        return TockPosition(self.rules, self.sides, self.teams, self.occ, self.start,
                               self.to_move, self.counting, self.skips, self.hand_sizes,
                               self.waiting)

    def next_side(self, side: int | None = None) -> int:
        """TK-G6 clockwise, JR-G2 counter-clockwise."""
        side = self.to_move if side is None else side
        order = self.colours
        step = -1 if self.rules.direction == "counter" else 1
        return order[(order.index(side) + step) % len(order)]

    def holds_cards(self, side: int) -> bool:
        return side not in self.waiting and self.hand_sizes.get(side, 1) > 0

    # ------------------------------------------------------------- primitives
    def _at(self, occ: Sequence[int], h: int) -> int | None:
        for v in self.colours:
            if occ[v] >> h & 1:
                return v
        return None

    def _forward(self, c: int, x: int, n: int, turn_in: bool) -> list[Path]:
        """Forward n from x: [(dst, main holes passed in order, home holes mask)]."""
        L, hs = self.L, self.home_size
        if x >= L:  # TK-M6: within home, forward only
            k = x - L
            if k + n >= hs:
                return []
            return [(L + k + n, (), sum(1 << (L + j) for j in range(k + 1, k + n + 1)))]
        out: list[Path] = []
        d = (self.sh[c] - x) % L
        if turn_in and d < n and n - d <= hs:  # TK-M5: turning in passes the start hole
            passed = tuple((x + j) % L for j in range(1, d + 1))
            out.append((L + n - d - 1, passed, sum(1 << (L + j) for j in range(n - d))))
        out.append(((x + n) % L, tuple((x + j) % L for j in range(1, n)), 0))
        return out

    def _backward(self, x: int, n: int) -> tuple[int, tuple[int, ...]]:
        L = self.L
        return ((x - n) % L, tuple((x - j) % L for j in range(1, n)))

    def _blocked(self, occ: Sequence[int], c: int, passed: Iterable[int]) -> str | None:
        """The rule a path breaks (TK-M3, JR-M2, JR-M3), or None."""
        allm = 0
        for v in self.colours:
            allm |= occ[v]
        prev = False
        sh = self.sh
        for h in passed:
            if not allm >> h & 1:
                prev = False
                continue
            at = self._at(occ, h)
            assert at is not None  # a peg stands on h
            if self.start_block and h == sh[at]:
                return "block"
            if at == c and not self.own_hits:
                return "own"
            if prev and self.pair_block:
                return "pair"
            prev = True
        return None

    def _land(self, occ: list[int], start: list[int], c: int, dst: int) -> str | None:
        """Put c's lifted peg on dst with its hit (TK-M2, JR-M5); the broken rule or None."""
        bit = 1 << dst
        if dst >= self.L:
            if occ[c] & bit:
                return "home"
            occ[c] |= bit
            return None
        v = self._at(occ, dst)
        if v is None:
            occ[c] |= bit
            return None
        if self.start_block and dst == self.sh[v]:
            return "block"
        if v == c:
            if not self.own_hits:
                return "own"
            start[c] += 1  # TK-R4: the own peg hit goes to start, the mover stands there
            return None
        occ[v] &= ~bit
        start[v] += 1
        occ[c] |= bit
        return None

    def _clear(self, occ: list[int], start: list[int], c: int, passed: Iterable[int]) -> None:
        """JR-P8: the king sends every other colour's marble it passes to start."""
        for h in passed:
            v = self._at(occ, h)
            if v is not None and v != c:
                occ[v] &= ~(1 << h)
                start[v] += 1

    def _step(self, occ: list[int], start: list[int], c: int, x: int, dst: int, passed: Iterable[int],
              home_mask: int, clears: bool = False) -> tuple[list[int], list[int]] | str:
        """Make one path move on copies; (occ, start) or the broken rule's key."""
        if home_mask & occ[c]:
            return "home"
        why = self._blocked(occ, c, passed)
        if why:
            return why
        o2, s2 = occ[:], start[:]
        if x == START:
            s2[c] -= 1
        else:
            o2[c] &= ~(1 << x)
        if clears:
            self._clear(o2, s2, c, passed)
        why = self._land(o2, s2, c, dst)
        if why:
            return why
        return o2, s2

    # ------------------------------------------------------------- generation
    def _context(self) -> Context:
        side = self.to_move
        return (self.controlled(side), self.team_of[side], 0, False)

    def legal_moves(self, ranks: Iterable[str] | None = None, dedupe: bool = True) -> Iterator[Move]:
        if self.winner() is not None:
            return
        ctx = self._context()
        done = set()
        for rank in (self.ranks if ranks is None else ranks):
            if rank not in done:
                done.add(rank)
                yield from self._rank_moves(rank, dedupe, ctx)

    def hand_moves(self, ranks: Iterable[str]) -> tuple[list[Move], bool]:
        if self.winner() is not None:
            return [], False
        ctx = self._context()
        moves: list[Move] = []
        forced = False
        for rank in dict.fromkeys(ranks):
            n = len(moves)
            moves.extend(self._rank_moves(rank, True, ctx))
            if len(moves) > n and not (rank == "JK" and self.rules.joker_exempt):
                forced = True
        return moves, not forced

    def discard_allowed(self, ranks: Iterable[str] | None = None) -> bool:
        """TK-P3 / CB-P4 / JR-P9: no card of the hand has a legal move (a usable force is one)."""
        if self.winner() is not None:
            return False
        ctx = self._context()
        for rank in set(self.ranks if ranks is None else ranks):
            if rank == "JK" and self.rules.joker_exempt:
                continue
            for _ in self._rank_moves(rank, False, ctx):
                return False
        return True

    def _rank_moves(self, rank: str, dedupe: bool = True, ctx: Context | None = None) -> Iterator[Move]:
        cols, team = (self._context() if ctx is None else ctx)[:2]
        occ, start, L = self.occ, self.start, self.L
        seen: set[int] | None = set() if dedupe else None
        key = self._key
        sh = self.sh
        for kind, n in self.rg_powers.get(rank, ()):
            if kind in (FWD, KING, BACK, OTHER5):
                if kind == OTHER5:  # TK-V3 / JR-P3: other colours' pegs on the main track
                    movers = []
                    for v in self.colours:
                        if v in cols:
                            continue
                        for x in _bits(occ[v] & self.geo.main_mask):
                            if self.rules.five == "others" and self.start_block and x == sh[v]:
                                continue  # JR-M4
                            movers.append((v, x, self.team_of[v] == team and x != sh[v]))
                else:
                    movers = [(c, x, x != sh[c]) for c in cols for x in _bits(occ[c])]
                options: Sequence[Path]
                for c, x, turn_in in movers:
                    if kind == BACK:
                        if x >= L:
                            continue  # TK-M7: main track only
                        dst, passed = self._backward(x, n)
                        options = ((dst, passed, 0),)
                    else:
                        options = self._forward(c, x, n, turn_in)
                    for dst, passed, hm in options:
                        res = self._step(occ, start, c, x, dst, passed, hm, kind == KING)
                        if isinstance(res, str):
                            continue
                        if seen is not None:
                            k = key(*res)
                            if k in seen:
                                continue
                            seen.add(k)
                        yield Move(rank, MOVE, ((c, x, dst),))
            elif kind == OUT:
                outs = list(cols)
                if rank == "JK" and self.rules.partner_joker:  # CB-V1.2
                    outs += [c for c in self.teams[team] if c not in outs]
                for c in outs:
                    if start[c]:
                        res = self._step(occ, start, c, START, sh[c], (), 0)
                        if not isinstance(res, str):
                            if seen is not None:
                                k = key(*res)
                                if k in seen:
                                    continue
                                seen.add(k)
                            yield Move(rank, MOVE, ((c, START, sh[c]),))
            elif kind == SWAPK:
                yield from self._swaps_rg(rank, cols)
            elif kind in (FORCE10, STEAL):
                target = self.next_side()
                if self.holds_cards(target):
                    yield Move(rank, FORCE, (target,))
            elif kind == SPLIT7:
                yield from self._split_any(rank, n, cols, seen if seen is not None else set())
            elif kind == STEPS7:
                yield from self._steps(rank, n, cols, seen)

    def _swaps_rg(self, rank: str, cols: Sequence[int]) -> Iterator[Move]:
        """TK-V2, CB-P3, JR-P7: a controlled peg and another colour's, both on the
        main track, neither on its own start hole."""
        mm, sh, occ = self.geo.main_mask, self.sh, self.occ
        block = self.start_block
        mine = [(x, c) for c in cols for x in _bits(occ[c] & mm) if not (block and x == sh[c])]
        others = [(x, v) for v in self.colours for x in _bits(occ[v] & mm)
                  if not (block and x == sh[v])]
        for a, c in mine:
            for b, v in others:
                if v == c:
                    continue
                if a < b:
                    yield Move(rank, SWAP, ((c, a, b), (v, b, a)))
                else:
                    yield Move(rank, SWAP, ((v, b, a), (c, a, b)))

    def _split_any(self, rank: str, total: int, cols: Sequence[int], seen: set[int]) -> list[Move]:
        """JR-P4: forward `total` over one or more different controlled marbles,
        each part a full move with its hit at its end, in the order chosen."""
        sh, key = self.sh, self._key
        found: list[Move] = []

        def rec(occ: list[int], start: list[int], left: int, used: frozenset[tuple[int, int]],
                restricted: frozenset[tuple[int, int]], steps: list[tuple[int, int, int]]) -> None:
            if left == 0:
                k = key(occ, start)
                if k not in seen:
                    seen.add(k)
                    found.append(Move(rank, MOVE, tuple(steps)))
                return
            for c in cols:
                for x in _bits(occ[c]):
                    if (c, x) in used:
                        continue
                    # TK-M5: the marble that stood on its start hole when the turn began
                    r2 = restricted - {(c, x)}
                    for k in range(1, left + 1):
                        for dst, passed, hm in self._forward(c, x, k, (c, x) not in restricted):
                            res = self._step(occ, start, c, x, dst, passed, hm)
                            if isinstance(res, str):
                                continue
                            rec(res[0], res[1], left - k, used | {(c, dst)}, r2,
                                steps + [(c, x, dst)])

        rec(self.occ, self.start, total, frozenset(),
            frozenset((c, sh[c]) for c in cols if self.occ[c] >> sh[c] & 1), [])
        return found

    def _steps(self, rank: str, total: int, cols: Sequence[int], seen: set[int] | None) -> list[Move]:
        """CB-P2: `total` single steps over the controlled marbles, a hit on each."""
        sh, key = self.sh, self._key
        restricted0 = frozenset((c, sh[c]) for c in cols if self.occ[c] >> sh[c] & 1)
        visited: set[tuple[int, int, frozenset[tuple[int, int]]]] = set()
        found: list[Move] = []

        def rec(occ: list[int], start: list[int], left: int, restricted: frozenset[tuple[int, int]],
                steps: list[tuple[int, int, int]]) -> None:
            state = (key(occ, start), left, restricted)
            if state in visited:
                return
            visited.add(state)
            if left == 0:
                k = state[0]
                if seen is None or k not in seen:
                    if seen is not None:
                        seen.add(k)
                    found.append(Move(rank, MOVE, _merge(steps)))
                return
            for c in cols:
                for x in _bits(occ[c]):
                    for dst, passed, hm in self._forward(c, x, 1, (c, x) not in restricted):
                        res = self._step(occ, start, c, x, dst, passed, hm)
                        if isinstance(res, str):
                            continue
                        # The restriction follows its marble off the hole, where it no
                        # longer matters (a lap is longer than 7).
                        r2 = restricted - {(c, x)} if (c, x) in restricted else restricted
                        rec(res[0], res[1], left - 1, r2, steps + [(c, x, dst)])

        rec(self.occ, self.start, total, restricted0, [])
        return found

    # ------------------------------------------------------------- checking
    def parse_move(self, text: str, ranks: Iterable[str] | None = None) -> Move:
        move = Move.from_text(text, self.geo, self.sides, self.ranks)
        self.check_move(move, ranks)
        return move

    def check_move(self, move: Move, ranks: Iterable[str] | None = None) -> None:
        """Raise IllegalMoveError, citing a TK-/CB-/JR- id, unless `move` is legal."""
        rank, kind = move.rank, move.kind
        ids = self.ids
        if self.winner() is not None:
            raise IllegalMoveError("the game is over: a team has all its pegs home", "TK-P5",
                                   msg("the game is over"))
        if kind == HAND:
            if self.rules.give_up_hand:
                return
            if self.rules.stuck == "hand" and self.discard_allowed(ranks):
                return
            raise IllegalMoveError("you can't discard your hand while a card in it can move",
                                   ids["must"], msg("you can't discard your hand while a card in it can move"))
        if rank not in self.ranks:
            raise IllegalMoveError(f"{rank} is not a card of this game's deck", "RG-N2",
                                   msg("that card is not in this game's deck"))
        if ranks is not None and rank not in ranks:
            raise IllegalMoveError(f"there is no {rank} in the hand", ids["must"],
                                   msg("there is no %(rank)s in your hand", rank=Ref("rank", rank)))
        if kind == DISCARD:
            if self.rules.stuck != "card":
                raise IllegalMoveError("when no card can move, the whole hand is discarded "
                                       "(discard hand)", "TK-P3",
                                       msg("when no card can move, the whole hand is discarded"))
            if not self.discard_allowed(ranks):
                raise IllegalMoveError("you can't burn a card while a card in your hand can move",
                                       ids["must"], msg("you can't discard a card while a card in your hand can move"))
            return
        if kind == FORCE:
            kinds = {k for k, _ in self.rg_powers[rank]}
            if not kinds & {FORCE10, STEAL}:
                raise IllegalMoveError(f"a {rank} can't act on another player's hand", "JR-P5",
                                       msg("%(card)s can't act on another player's hand", card=Ref("a rank", rank)))
            target = self.next_side()
            if move.steps[0] != target:
                raise IllegalMoveError(f"only the next player (side {target}) can be forced",
                                       "JR-P5" if rank == "10" else "JR-P6",
                                       msg("only the next player, %(who)s, can be forced", who=Ref("side", target)))
            if not self.holds_cards(target):
                raise IllegalMoveError(f"side {target} holds no cards", "JR-P5" if rank == "10"
                                       else "JR-P6", msg("%(who)s holds no cards", who=Ref("side", target)))
            return
        for c, _, _ in move.steps:
            if c not in self.colours:
                raise IllegalMoveError(f"side {c} has no pegs in this game", "RG-N5",
                                       msg("that colour has no pegs in this game"))
        kinds = {k for k, _ in self.rg_powers[rank]}
        if kinds & {SPLIT7, STEPS7} and kind == MOVE:
            self._replay_seven(move, kinds)
            return
        for legal in self._rank_moves(rank, False):
            if legal == move:
                return
        raise IllegalMoveError(*self.explain_illegal(move))

    def _replay_seven(self, move: Move, kinds: set[str]) -> None:
        """Play a 7's parts in order with the primitives (CB-P2, JR-P4)."""
        ids, L, sh = self.ids, self.L, self.sh
        cols = self.controlled()
        occ, start = self.occ, self.start
        text = move.text(self.geo)
        used = set()
        left = 7
        steps_mode = STEPS7 in kinds
        restricted = {(c, sh[c]) for c in cols if occ[c] >> sh[c] & 1}
        for c, x, dst in move.steps:
            if c not in cols:
                raise IllegalMoveError(_not_yours(text, c), ids["whose"])
            if x == START or not occ[c] >> x & 1:
                raise IllegalMoveError(_no_peg(text, c, self.geo.token(x)), ids["count"])
            if not steps_mode and (c, x) in used:
                raise IllegalMoveError(f"{text}: each part moves a different marble", "JR-P4",
                                       msg("each part moves a different peg"))
            n = _distance(self, c, x, dst)
            if n is None or n < 1 or n > left:
                raise IllegalMoveError(f"{text}: the parts must move forward and add up to 7",
                                       ids["seven"], msg("the parts must move forward and add up to 7"))
            if steps_mode:  # one step at a time, each a landing (CB-P2)
                cur = x
                for _ in range(n):
                    turn_in = (c, cur) not in restricted
                    opts = self._forward(c, cur, 1, turn_in)
                    want = [o for o in opts if (o[0] >= L) == (dst >= L and cur == sh[c]
                                                                 or cur >= L)]
                    if not want:
                        raise IllegalMoveError(f"{text}: a marble that stood on its home hole "
                                               f"when the turn began can't enter its goal", ids["turn"],
                                               _TURN_IN)
                    nd, passed, hm = want[0]
                    res = self._step(occ, start, c, cur, nd, passed, hm)
                    if isinstance(res, str):
                        raise IllegalMoveError(_why(text, res), ids[res])
                    occ, start = res
                    restricted.discard((c, cur))
                    cur = nd
            else:
                turn_in = (c, x) not in restricted
                opts = [o for o in self._forward(c, x, n, turn_in) if o[0] == dst]
                if not opts:
                    raise IllegalMoveError(f"{text}: a marble that stood on its base hole when "
                                           f"the turn began can't enter its goal", ids["turn"], _TURN_IN)
                res = self._step(occ, start, c, x, *opts[0])
                if isinstance(res, str):
                    raise IllegalMoveError(_why(text, res), ids[res])
                occ, start = res
                used.add((c, dst))
            left -= n
        if left:
            raise IllegalMoveError(f"{text}: all 7 must be used", ids["seven"], msg("all 7 must be used"))

    def explain_illegal(self, move: Move) -> tuple[str, str]:
        """(sentence, rule id) for a well-formed single move that is not legal."""
        ids, L, sh = self.ids, self.L, self.sh
        text = move.text(self.geo)
        rank, kind, steps = move
        acts = dict(self.rg_powers[rank])
        cols = self.controlled()
        if kind == SWAP:
            if SWAPK not in acts:
                return said(f"{text}: a {rank} doesn't swap here",
                            msg("%(card)s doesn't swap here", card=Ref("a rank", rank))), ids["swap"]
            return said(f"{text}: a swap takes one of your pegs and another colour's, both on the "
                        f"main track, neither on its own start hole",
                        msg("a swap takes one of your pegs and another colour's, both on the main track, "
                            "neither on its own start hole")), ids["swap"]
        if len(steps) != 1:
            return said(f"{text}: a {rank} moves one peg", msg("%(card)s moves one peg", card=Ref("a rank", rank))), \
                ids["seven"] if rank == "7" else ids["count"]
        c, x, dst = steps[0]
        if x == START:
            if OUT not in acts:
                outs = [r for r, acts_r in self.rg_powers.items() if any(k == OUT for k, _ in acts_r)]
                return said(f"{text}: only {', '.join(outs)} bring a peg out of start",
                            msg("only %(cards)s bring a peg out of start", cards=Ref("ranks", outs))), ids["out"]
            if dst != sh[c]:
                return said(f"{text}: a peg comes out onto its start hole",
                            msg("a peg comes out onto its start hole")), ids["out"]
            if c not in cols:
                return _not_yours(text, c), ids["whose"]
            if not self.start[c]:
                return said(f"{text}: side {c} has no peg in start",
                            msg("%(who)s has no peg in start", who=Ref("side", c))), ids["out"]
            return said(f"{text}: your own peg stands on your start hole",
                        msg("your own peg stands on your start hole")), ids["out"]
        if not self.occ[c] >> x & 1:
            return _no_peg(text, c, self.geo.token(x)), ids["count"]
        if c not in cols and OTHER5 not in acts:
            return _not_yours(text, c), ids["whose"]
        if c not in cols and x >= L:
            return said(f"{text}: a 5 moves another colour's peg only on the main track",
                        msg("a 5 moves another colour's peg only on the main track")), ids["five"]
        if c not in cols and self.rules.five == "others" and x == sh[c]:
            return said(f"{text}: a marble on its own base hole can't be moved by another's 5",
                        msg("a peg on its own start hole can't be moved by another player's 5")), "JR-M4"
        if BACK in acts:
            if x >= L or dst >= L:
                return said(f"{text}: a backward move stays on the main track",
                            msg("a backward move stays on the main track")), ids["back"]
            n = acts[BACK]
            d, passed = self._backward(x, n)
            if d != dst:
                return said(f"{text}: a {rank} moves backward {n}",
                            nmsg("%(card)s moves %(n)s backward", "%(card)s moves %(n)s backward", n,
                                 card=Ref("a rank", rank))), ids["count"]
            why = self._step(self.occ, self.start, c, x, d, passed, 0)
            broken = why if isinstance(why, str) else ""   # "": the path is clear
            return _why(text, broken), ids.get(broken, ids["count"])
        count = acts.get(FWD) or acts.get(KING) or acts.get(OTHER5)
        if not count:
            return said(f"{text}: a {rank} doesn't move a peg that way",
                        msg("%(card)s doesn't move a peg that way", card=Ref("a rank", rank))), ids["count"]
        if dst >= L and x < L and c not in self.teams[self.team_of[self.to_move]]:
            return said(f"{text}: no peg enters another colour's home", msg("no peg enters another colour's home")), \
                "TK-V3" if ids["five"] == "TK-V3" else "JR-P3"
        if dst >= L and x == sh[c]:
            return said(f"{text}: a peg that stood on its own start hole when the turn began can't "
                        f"turn in this turn", _TURN_IN), ids["turn"]
        for d, passed, hm in self._forward(c, x, count, True):
            if d == dst:
                why = self._step(self.occ, self.start, c, x, d, passed, hm, KING in acts)
                if isinstance(why, str):
                    return _why(text, why), ids[why]
        return said(f"{text}: a {rank} moves {count}, and the count must be used in full",
                    nmsg("%(card)s moves %(n)s, and the count must be used in full",
                         "%(card)s moves %(n)s, and the count must be used in full", count,
                         card=Ref("a rank", rank))), ids["count"]

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        skips = {str(c): self.skips[c] for c in self.colours if self.skips[c]}  # RG-N4, RG-N5:
        if skips:                                                             # only what is set
            out["skips"] = skips
        if self.hand_sizes:
            out["hand_sizes"] = {str(c): n for c, n in sorted(self.hand_sizes.items())}
        if self.waiting:
            out["waiting"] = sorted(self.waiting)
        return out

    # ------------------------------------------------------- save and restore
    def save(self) -> Saved:
        """`PegState.save` with what the forces and the search change here: the
        hand sizes (RG-N5) and the sides waiting for the next deal."""
        return tuple.__new__(Saved, (self.occ, self.start, self.to_move, self.counting,
                                     (self.hand_sizes, self.waiting)))

    def restore(self, saved: Saved) -> None:
        self.occ, self.start, self.to_move, self.counting, extra = saved
        if extra:
            self.hand_sizes, self.waiting = extra

    # ------------------------------------------------------------------ apply
    def apply(self, move: Move, next_to_move: int | None = None) -> None:
        self.occ = self.occ[:]
        self.start = self.start[:]
        kind = move[1]
        if kind == SWAP:
            (c1, a, b), (c2, _, _) = move[2]
            flip = (1 << a) | (1 << b)
            self.occ[c1] ^= flip
            self.occ[c2] ^= flip
        elif kind == MOVE:
            occ, start = self.occ, self.start
            kinds = {k for k, _ in self.rg_powers[move[0]]}
            if STEPS7 in kinds:  # CB-P2: step by step
                for c, x, dst in move[2]:
                    cur = x
                    while cur != dst:
                        nd = (self.L if (cur == self.sh[c] and dst >= self.L) else
                              cur + 1 if cur >= self.L else (cur + 1) % self.L)
                        res = self._step(occ, start, c, cur, nd, (), 0)
                        if isinstance(res, str):  # only legal moves are made (check_move first)
                            raise IllegalMoveError(_why(move.text(self.geo), res), self.ids[res])
                        occ, start = res
                        cur = nd
            else:
                clears = KING in kinds
                for c, x, dst in move[2]:
                    passed = _passed(self, c, x, dst, kinds)
                    res = self._step(occ, start, c, x, dst, passed if clears else (), 0, clears)
                    if isinstance(res, str):  # only legal moves are made (check_move first)
                        raise IllegalMoveError(_why(move.text(self.geo), res), self.ids[res])
                    occ, start = res
            self.occ, self.start = occ, start
        self.to_move = self.next_side() if next_to_move is None else next_to_move


_WHY = {
    "block": "a peg standing on its own start hole can't be passed or landed on",
    "own": "a marble never passes or lands on a marble of its own colour",
    "pair": "a marble can't pass two marbles on neighbouring holes",
    "home": "in home a peg moves forward only, exactly, never passing or landing on a peg",
}
# The same reasons as players read them (each phone in its own language)
_WHY_MSG = {
    "block": msg("a peg standing on its own start hole can't be passed or landed on"),
    "own": msg("a peg can't pass over a peg of its own colour"),
    "pair": msg("a peg can't pass two pegs on neighbouring holes"),
    "home": msg("in home a peg moves forward only, exactly, never passing or landing on a peg"),
}
_TURN_IN = msg("a peg that stood on its start hole when the turn began can't go into home this turn")


def _why(text: str, res: object) -> Said:
    key = res if isinstance(res, str) else ""   # "": the path is clear, the count is wrong
    return said(f"{text}: {_WHY.get(key, 'not legal')}", _WHY_MSG.get(key) or msg("that move is not allowed here"))


def _not_yours(text: str, c: int) -> Said:
    return said(f"{text}: side {c}'s pegs are not yours to move now",
                msg("%(who)s's pegs are not yours to move now", who=Ref("side", c)))


def _no_peg(text: str, c: int, token: str) -> Said:
    return said(f"{text}: side {c} has no peg on {token}",
                msg("%(who)s has no peg on %(hole)s", who=Ref("side", c), hole=Ref("hole", token)))


def _merge(steps: Iterable[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """CB-P2 / RG-N3: a part is one marble's consecutive single steps."""
    parts: list[tuple[int, int, int]] = []
    for c, x, d in steps:
        if parts and parts[-1][0] == c and parts[-1][2] == x:
            parts[-1] = (c, parts[-1][1], d)
        else:
            parts.append((c, x, d))
    return tuple(parts)


def _distance(pos: TockPosition, c: int, x: int, dst: int) -> int | None:
    """Forward steps from x to dst for colour c's peg, or None."""
    L = pos.L
    if x >= L:
        return dst - x if dst > x else None
    if dst >= L:
        return (pos.sh[c] - x) % L + dst - L + 1
    return (dst - x) % L or None


def _passed(pos: TockPosition, c: int, x: int, dst: int, kinds: set[str]) -> tuple[int, ...]:
    """The main-track holes a forward or backward move passes (for the king)."""
    L = pos.L
    if x == START or x >= L:
        return ()
    if BACK in kinds:
        n = (x - dst) % L
        return tuple((x - j) % L for j in range(1, n))
    if dst >= L:
        d = (pos.sh[c] - x) % L
        return tuple((x + j) % L for j in range(1, d + 1))
    n = (dst - x) % L
    return tuple((x + j) % L for j in range(1, n))


def parse_rank(rules: Rules, word: str) -> str:
    """A rank of this game's deck (RG-N2); ValueError names the deck."""
    ranks = deck_ranks(rules)
    rank = canonical_rank(word.strip(), ranks) if isinstance(word, str) else None
    if rank is None:
        raise RulesError(f"{word!r} is not a rank of {rules.preset}'s deck ({' '.join(ranks)})")
    return rank


__all__ = ["TockPosition", "is_carbles_board", "board_sizes", "deck_ranks", "card_rank", "powers", "seat_sections", "parse_rank",
           "check_layout", "SEATS", "SECTIONS"]
