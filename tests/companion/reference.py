"""An independent, deliberately simple reference move generator.

Written straight from /work/shared/RULES.md and NOTATION.md, without looking
at the engine's move generation (companion/position.py). It is slow and
plain on purpose: pegs are a list of hole tokens ("S", "M12", "H3"), a peg
moves hole by hole, and every landing is resolved with the M7 chain.

Entry points:

* ``results(position_dict, rank)`` -> frozenset of the distinct result
  positions of that rank, each a hashable canonical pegs value (see
  ``freeze``);
* ``all_results(position_dict)`` -> {rank: frozenset};
* ``discard_allowed(position_dict, ranks)`` -> bool (P7, R12).

Implemented: geometry (G1-G6), teams (T1, T2), M1-M10, P1-P8, R1-R4,
R7-R17 and the variant options nine (split), team_pegs, ace
(north_carolina), two_swap, ten (split, forward_or_back1), court (11-13),
joker (arizona, pegoo), start_jokers, counting's free come-out,
must_turn_in and split_hand_over.
"""
from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
HOME = 5  # G4

# RULES.md section V, written out here rather than imported from the engine,
# so that a wrong preset in companion/rules.py shows up as a disagreement.
_BASIC = dict(holes_per_side=18, in_spot_offset=3, come_out_offset=8, pegs_per_side=5,
              team_pegs=False, nine="forward", ace="basic", two_swap=False, ten="forward",
              court="10", joker="basic", start_jokers=False, counting=0,
              split_hand_over=False, must_turn_in=False, forfeit=False)
_ARIZONA = {**_BASIC, "team_pegs": True, "nine": "split", "joker": "arizona"}   # V-AZ
PRESETS = {
    "basic": _BASIC,
    "arizona": _ARIZONA,
    # V-NC: ace, 2 swap, 9 split, 10 must split, counting 3rd turn, split hand-over (R11)
    "north_carolina": {**_BASIC, "ace": "north_carolina", "two_swap": True, "nine": "split",
                       "ten": "split", "counting": 3, "split_hand_over": True},
    # V-PG: 20 holes, pegoo joker, 2 swap, 9 split, counting 3rd turn
    "pegoo": {**_BASIC, "holes_per_side": 20, "joker": "pegoo", "two_swap": True,
              "nine": "split", "counting": 3},
    # V-WW: 2 swap, 9 split (own pegs); draw after does not change move generation
    "wizard_woodworks": {**_BASIC, "two_swap": True, "nine": "split"},
    # V-AK: 10 forward 10 or backward 1; counting, free come-out on the 4th turn
    "alaska": {**_BASIC, "ten": "forward_or_back1", "counting": 4},
    # V-KP: Arizona plus must turn in (hand size does not change move generation)
    "kilpatrick": {**_ARIZONA, "must_turn_in": True},
    # V-SS: 9 split, J Q K forward 11 12 13
    "social_security": {**_BASIC, "nine": "split", "court": "11-13"},
    # V-BJ: the declared move is a basic move
    "bluffing_joker": dict(_BASIC),
}


def rules_of(value) -> dict:
    if isinstance(value, str):
        return dict(PRESETS[value])
    opts = dict(PRESETS[value.get("preset", "basic")])
    opts.update(value.get("options", {}))
    return opts


# ---------------------------------------------------------------- tokens
class _TokKeys(dict):
    """Canonical order (NOTATION.md): S, then M by number, then H by number."""

    def __missing__(self, tok):
        key = self[tok] = (0, 0) if tok == "S" else (1 if tok[0] == "M" else 2, int(tok[1:]))
        return key


# a token's key is worked out once: freeze() sorts millions of tokens in the differential tests
tok_key = _TokKeys().__getitem__


def canonical(pegs: dict) -> dict:
    """{"side": [tokens]} in canonical order, keys sorted by side number."""
    return {str(c): sorted(pegs[c], key=tok_key) for c in sorted(pegs, key=int)}


def freeze(pegs: dict):
    """A hashable form of a pegs dict (keys may be str or int)."""
    return tuple((int(c), tuple(sorted(toks, key=tok_key)))
                 for c, toks in sorted(pegs.items(), key=lambda kv: int(kv[0])))


def thaw(frozen) -> dict:
    return {str(c): list(toks) for c, toks in frozen}


# ---------------------------------------------------------------- the board
class Board:
    """One position: geometry, teams and a list of pegs with identities."""

    def __init__(self, pos: dict):
        self.r = r = rules_of(pos["rules"])
        self.sides = pos["sides"]
        self.h = r["holes_per_side"]
        self.L = self.sides * self.h                                       # G2
        self.in_spot = [k * self.h + r["in_spot_offset"] for k in range(self.sides)]   # G3
        self.come_out = [k * self.h + r["come_out_offset"] for k in range(self.sides)]
        self.team_of = {}
        self.teams = [list(t) for t in pos["teams"]]
        for i, team in enumerate(self.teams):
            for c in team:
                self.team_of[c] = i
        self.colours = sorted(int(c) for c in pos["pegs"])
        # pegs: peg id -> colour (fixed) ; state: peg id -> token (changes)
        self.colour = []
        self.start_state = []
        for c in self.colours:
            for tok in pos["pegs"][str(c)]:
                self.colour.append(c)
                self.start_state.append(tok)
        self.to_move = pos["to_move"]
        self.mover_team = self.team_of[self.to_move]
        self.counting = {int(k): v for k, v in (pos.get("counting") or {}).items()}

    # --- helpers over a state (list of tokens indexed by peg id)
    def main_occ(self, st):
        occ = {}
        for pid, tok in enumerate(st):
            if tok[0] == "M":
                occ[int(tok[1:])] = pid
        return occ

    def all_home(self, st, c):
        return all(st[p][0] == "H" for p in range(len(st)) if self.colour[p] == c)

    def own_home_holes(self, st, c):
        return {int(st[p][1:]) for p in range(len(st)) if self.colour[p] == c and st[p][0] == "H"}

    def teammates_in_turn_order(self, side):
        """T2: the teammates after `side` in turn (clockwise) order."""
        team = [c for c in self.teams[self.team_of[side]] if c != side and c in self.colours]
        return sorted(team, key=lambda c: (c - side) % self.sides)

    def controlled(self, st):
        """P8 / V-AZ2: the colours the player to move may move now."""
        me = self.to_move
        for t in self.teams:  # M10: once any team has every peg home the game is over
            if all(self.all_home(st, c) for c in t if c in self.colours):
                return []
        team = [c for c in self.teams[self.mover_team] if c in self.colours]
        if self.r["team_pegs"]:
            return team
        if not self.all_home(st, me):
            return [me]
        for c in self.teammates_in_turn_order(me):
            if not self.all_home(st, c):
                return [c]
        return []

    # --- M7: landing on a main-track hole, with the hit chain
    def land(self, st, occ, pid, x):
        """Put peg `pid` (already lifted off the board) on main hole x.

        Mutates st/occ; False if the landing is illegal (M2, R1, M7, R8).
        """
        o = occ.get(x)
        if o is not None and self.colour[o] == self.colour[pid]:
            return False  # M2 / R1; in a chain: the in-spot holds the same colour (M7)
        st[pid] = "M%d" % x
        occ[x] = pid
        if o is None:
            return True
        d = self.colour[o]
        if self.team_of[d] != self.mover_team:
            st[o] = "S"  # M7: opponent goes back to start
            return True
        t = self.in_spot[d]
        if t == x:
            return False  # R8: its in-spot already holds a peg of its colour (itself)
        return self.land(st, occ, o, t)  # M7 chain, R9

    def lift(self, st, occ, pid):
        tok = st[pid]
        if tok[0] == "M":
            del occ[int(tok[1:])]

    # --- paths
    def forward_dests(self, st, occ, pid, n):
        """M3/M4/M2 (+ R7, V-KP2/R17): destination tokens of peg pid moving forward n."""
        c = self.colour[pid]
        tok = st[pid]
        if tok == "S" or n <= 0:
            return []
        if tok[0] == "H":  # M4
            k = int(tok[1:])
            if k + n > HOME:
                return []
            own = self.own_home_holes(st, c)
            if any(j in own for j in range(k + 1, k + n + 1)):
                return []
            return ["H%d" % (k + n)]
        may_turn_in = self.team_of[c] == self.mover_team       # R7
        must = self.r["must_turn_in"] and may_turn_in          # V-KP2
        own_home = self.own_home_holes(st, c)
        out = []
        p = int(tok[1:])
        for i in range(n + 1):
            if i > 0:
                p = (p + 1) % self.L
                o = occ.get(p)
                if o is not None and self.colour[o] == c:
                    break  # M2: may not land on / pass own colour
            left = n - i
            if left == 0:
                out.append("M%d" % p)
                break
            if may_turn_in and p == self.in_spot[c]:
                if left <= HOME and not any(j in own_home for j in range(1, left + 1)):
                    out.append("H%d" % left)
                if must:
                    break  # R17: standing on the in-spot with steps left: must turn in
        return out

    def backward_dest(self, st, occ, pid, n):
        """M5: backward on the main track only."""
        tok = st[pid]
        if tok[0] != "M" or n <= 0:
            return []
        c = self.colour[pid]
        p = int(tok[1:])
        for _ in range(n):
            p = (p - 1) % self.L
            o = occ.get(p)
            if o is not None and self.colour[o] == c:
                return []
        return ["M%d" % p]

    # --- one step of a move: returns new (st, occ) or None
    def step(self, st, occ, pid, dest):
        st = list(st)
        occ = dict(occ)
        self.lift(st, occ, pid)
        if dest[0] == "H":
            st[pid] = dest
            return st, occ
        if dest == "S":
            st[pid] = "S"
            return st, occ
        if not self.land(st, occ, pid, int(dest[1:])):
            return None
        return st, occ

    def moves_dir(self, st, occ, pid, n, direction):
        if direction == "f":
            dests = self.forward_dests(st, occ, pid, n)
        else:
            dests = self.backward_dest(st, occ, pid, n)
        out = []
        for d in dests:
            r = self.step(st, occ, pid, d)
            if r is not None:
                out.append(r)
        return out

    # --- card powers
    def pegs_of(self, st, colours):
        return [p for p in range(len(st)) if self.colour[p] in colours]

    def come_outs(self, st, occ, colours):
        """M6/R2: a peg of each colour with one in start goes to its come-out hole."""
        out = []
        for c in colours:
            starters = [p for p in range(len(st)) if self.colour[p] == c and st[p] == "S"]
            if starters:
                r = self.step(st, occ, starters[0], "M%d" % self.come_out[c])
                if r is not None:
                    out.append(r)
        return out

    def singles(self, st, occ, pegs, n, direction):
        out = []
        for pid in pegs:
            out.extend(self.moves_dir(st, occ, pid, n, direction))
        return out

    def splits(self, st, occ, total, dir_pairs, first_pegs, second_pegs_fn):
        """M9: two parts over two different pegs, each at least 1, in either order."""
        out = []
        for n1 in range(1, total):
            n2 = total - n1
            for d1, d2 in dir_pairs:
                for p1 in first_pegs(st):
                    for st1, occ1 in self.moves_dir(st, occ, p1, n1, d1):
                        for p2 in second_pegs_fn(st1):
                            if p2 == p1:
                                continue
                            out.extend(self.moves_dir(st1, occ1, p2, n2, d2))
        return out

    def joker(self, st, occ, colours):
        out = []
        kind = self.r["joker"]
        pegs = self.pegs_of(st, colours)
        if kind == "pegoo":  # V-PG, R14
            for pid in pegs:
                tok = st[pid]
                if tok[0] == "H":
                    continue
                t = self.in_spot[self.colour[pid]]
                if tok == "M%d" % t:
                    continue
                r = self.step(st, occ, pid, "M%d" % t)
                if r is not None:
                    out.append(r)
            for x, o in occ.items():
                if self.team_of[self.colour[o]] != self.mover_team:
                    s2 = list(st)
                    s2[o] = "S"
                    out.append((s2, None))
        else:
            movable = [p for p in pegs if st[p] == "S" or st[p][0] == "M"]   # P6
            if kind == "arizona":  # V-AZ5, R15
                team = self.teams[self.mover_team]
                if any(st[p] == "S" for p in range(len(st)) if self.colour[p] in team):
                    movable = [p for p in movable if st[p] == "S"]
                else:
                    movable = [p for p in movable if st[p][0] == "M"]
            for pid in movable:
                c = self.colour[pid]
                for x, o in occ.items():
                    if self.colour[o] == c:
                        continue
                    r = self.step(st, occ, pid, "M%d" % x)
                    if r is not None:
                        out.append(r)
        if self.r["start_jokers"]:  # V-OPT start jokers
            out.extend(self.come_outs(st, occ, colours))
        return out

    def swaps(self, st):
        """V-NC4 / R16: any two pegs of different colours on the main track."""
        out = []
        mains = [p for p in range(len(st)) if st[p][0] == "M"]
        for i, a in enumerate(mains):
            for b in mains[i + 1:]:
                if self.colour[a] != self.colour[b]:
                    s2 = list(st)
                    s2[a], s2[b] = st[b], st[a]
                    out.append((s2, None))
        return out

    def free_come_out_offered(self):
        """V-NC7 / R12: counted on the turns before (2, or 3 for the 4th-turn option)."""
        k = self.r["counting"]
        return bool(k) and self.counting.get(self.to_move, 0) >= k - 1

    # --- the whole rank
    def rank_states(self, rank):
        r = self.r
        st = list(self.start_state)
        occ = self.main_occ(st)
        colours = self.controlled(st)
        if not colours:
            return []
        pegs = self.pegs_of(st, colours)
        ctrl = lambda s: self.pegs_of(s, colours)  # noqa: E731
        out = []
        if rank in ("A", "J", "Q", "K"):
            out.extend(self.come_outs(st, occ, colours))               # P1, P5
        if rank == "A":
            out.extend(self.singles(st, occ, pegs, 1, "f"))
            if r["ace"] == "north_carolina":                           # V-NC3
                out.extend(self.singles(st, occ, pegs, 1, "b"))
                out.extend(self.singles(st, occ, pegs, 11, "f"))
        elif rank in ("2", "3", "4", "5", "6"):
            out.extend(self.singles(st, occ, pegs, int(rank), "f"))   # P2
            if rank == "2" and r["two_swap"]:
                out.extend(self.swaps(st))                             # V-NC4
        elif rank == "7":                                              # P3, M9
            out.extend(self.singles(st, occ, pegs, 7, "f"))
            second = ctrl
            if r["split_hand_over"]:                                   # V-NC1, R11
                second = lambda s: self.pegs_of(s, self.controlled(s))  # noqa: E731
            out.extend(self.splits(st, occ, 7, [("f", "f")], ctrl, second))
        elif rank == "8":
            out.extend(self.singles(st, occ, pegs, 8, "b"))           # P4
        elif rank == "9":
            out.extend(self.singles(st, occ, pegs, 9, "f"))           # P2, R13
            if r["nine"] == "split":                                   # V-AZ3, V-NC5, V-SS
                second = ctrl
                if r["split_hand_over"]:
                    second = lambda s: self.pegs_of(s, self.controlled(s))  # noqa: E731
                out.extend(self.splits(st, occ, 9, [("f", "b"), ("b", "f")], ctrl, second))
        elif rank == "10":
            if r["ten"] == "split":                                    # V-NC6, R16
                def any_peg(s):
                    res = []
                    for p, tok in enumerate(s):
                        if self.team_of[self.colour[p]] == self.mover_team:
                            if tok != "S":
                                res.append(p)
                        elif tok[0] == "M":
                            res.append(p)
                    return res
                dirs = [("f", "f"), ("f", "b"), ("b", "f"), ("b", "b")]
                out.extend(self.splits(st, occ, 10, dirs, any_peg, any_peg))
            else:
                out.extend(self.singles(st, occ, pegs, 10, "f"))
                if r["ten"] == "forward_or_back1":                    # V-AK
                    out.extend(self.singles(st, occ, pegs, 1, "b"))
        elif rank in ("J", "Q", "K"):
            n = 10 if r["court"] == "10" else {"J": 11, "Q": 12, "K": 13}[rank]   # P5, V-SS
            out.extend(self.singles(st, occ, pegs, n, "f"))
        elif rank == "JK":
            out.extend(self.joker(st, occ, colours))                   # P6, V-AZ5, V-PG
        if self.free_come_out_offered():                               # V-NC7, R12
            out.extend(self.come_outs(st, occ, colours))
        return out

    def freeze_state(self, st):
        pegs = {c: [] for c in self.colours}
        for pid, tok in enumerate(st):
            pegs[self.colour[pid]].append(tok)
        return freeze(pegs)


def results(pos: dict, rank: str) -> frozenset:
    """The set of distinct result positions (frozen pegs) of `rank` (R4)."""
    b = Board(pos)
    return frozenset(b.freeze_state(s) for s, _ in b.rank_states(rank))


def all_results(pos: dict, ranks=RANKS) -> dict:
    return {rk: results(pos, rk) for rk in ranks}


def discard_allowed(pos: dict, ranks) -> bool:
    """P7 (+R12): a discard only if no non-joker card of the hand can move and
    counting's free come-out is not possible."""
    b = Board(pos)
    if b.r["forfeit"]:
        return True
    if b.free_come_out_offered():
        st = list(b.start_state)
        if b.come_outs(st, b.main_occ(st), b.controlled(st)):
            return False
    return not any(results(pos, rk) for rk in set(ranks) if rk != "JK")
