"""Independent reference move generator for Tock, Carbles and Jackaroo.

Written from /work/shared/RELATED-GAMES.md (and NOTATION.md for the position
and move format) alone, without reading the engine (companion/) or the Pegs
and Jokers reference (reference.py), and sharing no code with either, so
that it is a second reading of the rules. Standard library only.

Entry point: ``moves(position, hand=None)`` returns what ``pegs moves``
must print (NOTATION.md `moves`, RG-N6): ``{"to_move", "discard_allowed",
"moves": [{"card", "move", "result"[, "effects"]}]}``. Each distinct end
position (with its effects) of a rank appears once (RULES R4); which of
several texts giving that end position is listed is not fixed by the rules,
so the differential test compares (card, result, effects) only.

Rulings on gaps in the text are listed in docs/related-reference-notes.md.
"""
from __future__ import annotations

import json

HOLES_PER_SIDE = 18
START_OFFSET = 17        # TK-G3: come-out hole = in-spot = seed hole 18
HOME_LEN = 4             # TK-G4
PEGS = 4                 # TK-G5

BASE_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
RANKS = {
    "tock": BASE_RANKS,
    "carbles": BASE_RANKS + ["JK"],                                  # CB-C1
    "jackaroo": ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                 "Jr", "Jb", "Qr", "Qb", "K"],                        # RG-N2
}

# §S presets: game, whether teams of two play, allowed switches.
PRESETS = {
    "tock": ("tock", False, {"reverse_four", "ten_swap", "forced_five"}),
    "tock_partnership": ("tock", True, {"reverse_four", "ten_swap", "forced_five"}),
    "tock3": ("tock", False, {"reverse_four", "ten_swap", "forced_five"}),
    "carbles": ("carbles", False, {"open_hand"}),
    "carbles_partnership": ("carbles", True, {"open_hand"}),
    "jackaroo": ("jackaroo", True, set()),
    "jackaroo_individual": ("jackaroo", False, set()),
}

FORMAT = "pegs-and-jokers/position/1"


class PositionError(ValueError):
    """A malformed or impossible position (the CLI's exit status 2)."""


def start_hole(colour):
    """TK-G3 / CB-G1 / JR-G1: a colour (= its side) comes out and turns in here."""
    return HOLES_PER_SIDE * colour + START_OFFSET


def carbles_sections(n, sections):
    """CB-G2: seat i takes section floor(i*S/n)."""
    return [i * sections // n for i in range(n)]


# ------------------------------------------------------------------ board
class Board:
    """Pegs by hole: track hole -> colour, per colour its home holes and start count."""

    def __init__(self, length, colours):
        self.length = length
        self.track = {}
        self.home = {c: set() for c in colours}
        self.start = {c: 0 for c in colours}

    @classmethod
    def from_pegs(cls, length, pegs):
        b = cls(length, list(pegs))
        for c, tokens in pegs.items():
            for t in tokens:
                if t == "S":
                    b.start[c] += 1
                elif t.startswith("M") and t[1:].isdigit():
                    n = int(t[1:])
                    if not 0 <= n < length:
                        raise PositionError(f"side {c}: hole {t} is off the track (M0-M{length - 1})")
                    if n in b.track:
                        raise PositionError(f"two pegs on {t}")
                    b.track[n] = c
                elif t.startswith("H") and t[1:].isdigit() and 1 <= int(t[1:]) <= HOME_LEN:
                    k = int(t[1:])
                    if k in b.home[c]:
                        raise PositionError(f"side {c} has two pegs on {t}")
                    b.home[c].add(k)
                else:
                    raise PositionError(f"side {c}: bad hole token {t!r}")
        return b

    def copy(self):
        b = Board.__new__(Board)
        b.length = self.length
        b.track = dict(self.track)
        b.home = {c: set(s) for c, s in self.home.items()}
        b.start = dict(self.start)
        return b

    def pegs(self):
        """The `result` form: canonical tokens per side (NOTATION.md)."""
        out = {c: ["S"] * self.start[c] for c in self.start}
        for hole in sorted(self.track):
            out[self.track[hole]].append(f"M{hole}")
        for c in self.home:
            out[c].extend(f"H{k}" for k in sorted(self.home[c]))
        return {str(c): out[c] for c in sorted(out)}

    def key(self):
        return (tuple(sorted(self.track.items())),
                tuple(sorted((c, tuple(sorted(s))) for c, s in self.home.items())),
                tuple(sorted(self.start.items())))

    def protected(self, hole):
        """TK-M3 / CB-M3 / JR-M4: a peg on its own start hole."""
        c = self.track.get(hole)
        return c is not None and start_hole(c) == hole

    def send_to_start(self, hole):
        c = self.track.pop(hole)
        self.start[c] += 1

    def all_home(self, c):
        return len(self.home[c]) == PEGS


def token(loc):
    kind, n = loc
    return "S" if kind == "S" else f"{kind}{n}"


# ------------------------------------------------------------------ position
class Position:
    def __init__(self, data):
        if not isinstance(data, dict):
            raise PositionError("a position is a JSON object")
        if data.get("format") != FORMAT:
            raise PositionError(f"format must be {FORMAT!r}")
        rules = data.get("rules")
        options = {}
        if isinstance(rules, dict):
            options = rules.get("options") or {}
            rules = rules.get("preset")
        if rules not in PRESETS:
            raise PositionError(f"unknown preset {rules!r}")
        self.preset = rules
        self.game, self.partnership, switches = PRESETS[rules]
        for name, value in options.items():
            if name not in switches:
                raise PositionError(f"option {name!r} is not a switch of {rules}")
            if not isinstance(value, bool):
                raise PositionError(f"option {name!r} must be true or false")
        self.options = {name for name, on in options.items() if on}
        self.sides = data.get("sides")
        if self.game == "carbles":
            if self.sides not in (4, 6, 8, 12):
                raise PositionError("Carbles has 4, 6, 8 or 12 sections")
        elif self.sides != 4:
            raise PositionError(f"{rules} is played on 4 sides")
        self.length = HOLES_PER_SIDE * self.sides
        try:
            pegs = {int(k): list(v) for k, v in data["pegs"].items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            raise PositionError("pegs must map sides to lists of holes") from None
        occupied = sorted(pegs)
        n = len(occupied)
        if self.preset == "tock3":
            expected = [0, 1, 2]
        elif self.game in ("tock", "jackaroo"):
            expected = [0, 1, 2, 3]
        else:
            ok = (n in (4, 6, 8, 12)) if self.partnership else (2 <= n <= 6)
            if not ok or n > self.sides:
                raise PositionError(f"{rules} can't seat {n} players on {self.sides} sections")
            expected = carbles_sections(n, self.sides)
        if occupied != expected:
            raise PositionError(f"occupied sides must be {expected}, got {occupied}")
        for c, tokens in pegs.items():
            if len(tokens) != PEGS:
                raise PositionError(f"side {c} has {len(tokens)} pegs, expected {PEGS}")
        self.board = Board.from_pegs(self.length, pegs)
        self.colours = occupied
        teams = data.get("teams")
        if self.partnership:
            if self.game == "carbles":
                seats = expected
                want = [[seats[i], seats[i + n // 2]] for i in range(n // 2)]
            else:
                want = [[0, 2], [1, 3]]
        else:
            want = [[c] for c in occupied]
        if not isinstance(teams, list) or sorted(sorted(t) for t in teams) != sorted(sorted(t) for t in want):
            raise PositionError(f"teams must be {want}")
        self.team_of = {}
        for t in want:
            for c in t:
                self.team_of[c] = [x for x in t]
        self.to_move = data.get("to_move")
        if self.to_move not in occupied:
            raise PositionError(f"to_move must be an occupied side {occupied}")
        self.skips = self._side_counts(data, "skips")
        self.hand_sizes = self._side_counts(data, "hand_sizes")
        waiting = data.get("waiting", [])
        if not isinstance(waiting, list) or any(w not in occupied for w in waiting):
            raise PositionError("waiting must list occupied sides")
        if waiting and self.game == "carbles":
            raise PositionError("Carbles has no waiting sides (CB-P4)")
        for w in waiting:
            if self.hand_sizes.get(w, 0) != 0:
                raise PositionError(f"side {w} is waiting, so holds no cards")
        self.waiting = set(waiting)

    def _side_counts(self, data, name):
        raw = data.get(name, {})
        if not isinstance(raw, dict):
            raise PositionError(f"{name} maps sides to counts")
        out = {}
        for k, v in raw.items():
            try:
                side = int(k)
            except ValueError:
                raise PositionError(f"{name}: bad side {k!r}") from None
            if side not in self.colours:
                raise PositionError(f"{name}: side {side} is not occupied")
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise PositionError(f"{name}: side {side} needs a count >= 0")
            out[side] = v
        return out

    # -- who is who
    def partner(self, c):
        others = [x for x in self.team_of[c] if x != c]
        return others[0] if others else None

    def controlled(self):
        """TK-V4.2 / CB-V1.1 / JR-P12: own, or the partner's once own all home."""
        p = self.to_move
        mate = self.partner(p)
        if mate is not None and self.board.all_home(p):
            return mate
        return p

    def team_colours(self):
        return set(self.team_of[self.to_move])

    def next_player(self):
        """JR-G2: play passes counter-clockwise."""
        return (self.to_move - 1) % 4

    def holds_cards(self, side):
        if side in self.waiting:
            return False
        return self.hand_sizes.get(side, 1) > 0


# ------------------------------------------------------------------ walking
def forward_paths(board, colour, loc, n, may_turn_in):
    """Every way a peg of `colour` at `loc` can go forward n, before blocking.

    Yields (dest, passed_track_holes) where dest is ("M", hole) or ("H", k).
    The start hole is a step of the path; turning in passes it (JR-M3).
    """
    kind, where = loc
    if kind == "H":
        k = where + n
        if k <= HOME_LEN and not any(j in board.home[colour] for j in range(where + 1, k + 1)):
            yield ("H", k), []
        return
    L = board.length
    yield ("M", (where + n) % L), [(where + j) % L for j in range(1, n)]
    if not may_turn_in:
        return
    s = start_hole(colour)
    for j in range(0, n):
        if (where + j) % L == s:
            r = n - j
            if r <= HOME_LEN and not any(i in board.home[colour] for i in range(1, r + 1)):
                yield ("H", r), [(where + i) % L for i in range(1, j + 1)]


def backward_path(board, loc, n):
    kind, where = loc
    if kind != "M":
        return None
    L = board.length
    return ("M", (where - n) % L), [(where - j) % L for j in range(1, n)]


class Rules:
    """The blocking and hitting of one game (TK-M / CB-M vs JR-M)."""

    def __init__(self, game):
        self.game = game

    def path_ok(self, board, colour, passed, dest):
        """Is a path legal for a peg of `colour` (its origin already lifted)?"""
        if self.game == "jackaroo":
            for h in passed:
                d = board.track.get(h)
                if d is None:
                    continue
                if d == colour:            # JR-M2
                    return False
                if board.protected(h):     # JR-M4
                    return False
            for a, b in zip(passed, passed[1:]):   # JR-M3: no jumping a pair
                if a in board.track and b in board.track:
                    return False
            if dest[0] == "M":
                d = board.track.get(dest[1])
                if d == colour:            # JR-M2
                    return False
                if d is not None and board.protected(dest[1]):
                    return False
            return True
        # Tock / Carbles: TK-M2 passes anything but TK-M3's protected peg.
        for h in passed:
            if board.protected(h):
                return False
        if dest[0] == "M" and board.protected(dest[1]):
            return False
        return True


def apply_simple(board, colour, loc, dest, king_passed=()):
    """Move one peg; a landing hits (TK-M2 / JR-M5); the King clears what it passed."""
    b = board.copy()
    lift(b, colour, loc)
    for h in king_passed:
        if h in b.track:
            b.send_to_start(h)
    place(b, colour, dest)
    return b


def lift(b, colour, loc):
    kind, where = loc
    if kind == "M":
        del b.track[where]
    elif kind == "H":
        b.home[colour].remove(where)
    else:
        b.start[colour] -= 1


def place(b, colour, dest):
    kind, where = dest
    if kind == "M":
        if where in b.track:
            b.send_to_start(where)
        b.track[where] = colour
    else:
        b.home[colour].add(where)


def peg_locations(board, colour, kinds="MH"):
    locs = []
    if "M" in kinds:
        locs += [("M", h) for h, c in sorted(board.track.items()) if c == colour]
    if "H" in kinds:
        locs += [("H", k) for k in sorted(board.home[colour])]
    return locs


# ------------------------------------------------------------------ generator
class Generator:
    def __init__(self, pos):
        self.pos = pos
        self.board = pos.board
        self.rules = Rules(pos.game)
        self.ctrl = pos.controlled()

    def restricted(self, colour, loc):
        """TK-M5: a peg on its own start hole as the turn begins can't turn in."""
        return loc == ("M", start_hole(colour))

    def single_forward(self, board, colour, loc, n, may_turn_in, king=False):
        """Legal forward moves of one peg: [(dest, board_after)]."""
        out = []
        for dest, passed in forward_paths(board, colour, loc, n, may_turn_in):
            b = board.copy()
            lift(b, colour, loc)
            if not self.rules.path_ok(b, colour, passed, dest):
                continue
            cleared = [h for h in passed if h in b.track] if king else ()
            out.append((dest, apply_simple(board, colour, loc, dest, cleared)))
        return out

    def forward(self, rank, n, king=False):
        c = self.ctrl
        out = []
        for loc in peg_locations(self.board, c):
            for dest, b in self.single_forward(self.board, c, loc, n,
                                               not self.restricted(c, loc), king):
                out.append((f"{rank} {c}:{token(loc)}-{token(dest)}", b, None))
        return out

    def backward(self, rank, n):
        c = self.ctrl
        out = []
        for loc in peg_locations(self.board, c, "M"):
            dest, passed = backward_path(self.board, loc, n)
            b = self.board.copy()
            lift(b, c, loc)
            if not self.rules.path_ok(b, c, passed, dest):
                continue
            out.append((f"{rank} {c}:{token(loc)}-{token(dest)}",
                        apply_simple(self.board, c, loc, dest), None))
        return out

    def come_out(self, rank, colours=None):
        out = []
        for c in colours or [self.ctrl]:
            if self.board.start[c] == 0:
                continue
            s = start_hole(c)
            if self.board.track.get(s) == c:     # TK-M4: own colour there
                continue
            out.append((f"{rank} {c}:S-M{s}",
                        apply_simple(self.board, c, ("S", 0), ("M", s)), None))
        return out

    def swap(self, rank):
        """TK-V2 / CB-P3 / JR-P7: controlled peg <> another colour's, both on the track."""
        c = self.ctrl
        out = []
        for a, ca in sorted(self.board.track.items()):
            if ca != c or self.board.protected(a):
                continue
            for b_hole, cb in sorted(self.board.track.items()):
                if cb == c or self.board.protected(b_hole):
                    continue
                b = self.board.copy()
                b.track[a], b.track[b_hole] = cb, ca
                out.append((f"{rank} {c}:M{a}<>{cb}:M{b_hole}", b, None))
        return out

    def any_five(self, rank, may_turn_in_colours, others_on_start_hole):
        """TK-V3 / JR-P3: a 5 that may move another colour's peg on the track."""
        c = self.ctrl
        out = self.forward(rank, 5)
        for hole, d in sorted(self.board.track.items()):
            if d == c:
                continue
            if not others_on_start_hole and self.board.protected(hole):
                continue
            loc = ("M", hole)
            may = d in may_turn_in_colours and not self.restricted(d, loc)
            for dest, b in self.single_forward(self.board, d, loc, 5, may):
                out.append((f"{rank} {d}:{token(loc)}-{token(dest)}", b, None))
        return out

    def split_seven(self, rank):
        """JR-P4: 7 split among different controlled marbles, each part a full move."""
        c = self.ctrl
        found = []

        def rec(board, left, moved, parts):
            if left == 0:
                found.append((f"{rank} " + " ".join(parts), board, None))
                return
            for loc in peg_locations(board, c):
                if loc in moved:
                    continue
                may = not self.restricted(c, loc)   # unmoved: stood there at the start
                for k in range(1, left + 1):
                    for dest, b in self.single_forward(board, c, loc, k, may):
                        rec(b, left - k, moved | {dest},
                            parts + [f"{c}:{token(loc)}-{token(dest)}"])

        rec(self.board, 7, frozenset(), [])
        return found

    def step_seven(self, rank):
        """CB-P2: seven single steps among controlled marbles, a hit on each."""
        c = self.ctrl
        s = start_hole(c)
        found = {}
        seen = set()

        def rec(board, left, restricted_here, steps):
            k = (board.key(), left, restricted_here)
            if k in seen:
                return
            seen.add(k)
            if left == 0:
                found.setdefault(board.key(), (steps, board))
                return
            for loc, dest in _carbles_steps(board, c, s, restricted_here):
                b = board.copy()
                lift(b, c, loc)
                place(b, c, dest)
                still = restricted_here and loc != ("M", s)
                rec(b, left - 1, still, steps + [(loc, dest)])

        rec(self.board, 7, self.board.track.get(s) == c, [])
        out = []
        for steps, board in found.values():
            parts = []
            for loc, dest in steps:
                if parts and parts[-1][1] == loc:
                    parts[-1][1] = dest
                else:
                    parts.append([loc, dest])
            text = " ".join(f"{c}:{token(a)}-{token(b)}" for a, b in parts)
            out.append((f"{rank} {text}", board, None))
        return out

    def force(self, rank, kind):
        """JR-P5 / JR-P6: needs the next player to hold a card."""
        nxt = self.pos.next_player()
        if not self.pos.holds_cards(nxt):
            return []
        return [(f"{rank} force {nxt}", self.board.copy(), {"skip": nxt, kind: nxt})]

    # -- per rank
    def rank_moves(self, rank):
        g = self.pos.game
        opts = self.pos.options
        if g == "tock":
            if rank in ("A", "K"):
                return self.come_out(rank) + self.forward(rank, 1 if rank == "A" else 13)
            if rank == "4" and "reverse_four" in opts:
                return self.backward(rank, 4)
            if rank == "5" and "forced_five" in opts:
                return self.any_five(rank, self.pos.team_colours() | {self.ctrl}, True)
            if rank == "10" and "ten_swap" in opts:
                return self.swap(rank)
            n = {"J": 11, "Q": 12}.get(rank) or int(rank)
            return self.forward(rank, n)
        if g == "carbles":
            if rank == "JK":
                cols = [self.ctrl]
                mate = self.pos.partner(self.pos.to_move)
                if mate is not None and mate != self.ctrl:
                    cols.append(mate)       # CB-V1.2
                return self.come_out(rank, cols)
            if rank in ("A", "K"):
                return self.come_out(rank) + self.forward(rank, 1 if rank == "A" else 13)
            if rank == "4":
                return self.backward(rank, 4)
            if rank == "7":
                return self.step_seven(rank)
            if rank == "J":
                return self.forward(rank, 11) + self.swap(rank)
            n = {"Q": 12}.get(rank) or int(rank)
            return self.forward(rank, n)
        # jackaroo
        if rank == "A":
            return self.come_out(rank) + self.forward(rank, 1)
        if rank == "K":
            return self.come_out(rank) + self.forward(rank, 13, king=True)
        if rank == "4":
            return self.backward(rank, 4)
        if rank == "5":
            return self.any_five(rank, self.pos.team_colours() | {self.ctrl}, False)
        if rank == "7":
            return self.split_seven(rank)
        if rank == "10":
            return self.forward(rank, 10) + self.force(rank, "discard")
        if rank == "Jr":
            return self.forward(rank, 11)
        if rank == "Jb":
            return self.swap(rank)
        if rank == "Qr":
            return self.force(rank, "steal")
        if rank == "Qb":
            return self.forward(rank, 12)
        return self.forward(rank, int(rank))


class IllegalSeven(ValueError):
    """A 7's text that is not a legal sequence of parts (CB-P2, JR-P4)."""


def _parse_loc(tok):
    if tok == "S":
        return ("S", 0)
    if tok[0] in "MH" and tok[1:].isdigit():
        return (tok[0], int(tok[1:]))
    raise IllegalSeven(f"bad hole {tok!r}")


def _steps(board, colour, frm, to):
    """The single-step path of one part, or IllegalSeven."""
    L = board.length
    s = start_hole(colour)
    path = []
    kind, where = frm
    if kind == "S":
        raise IllegalSeven("a 7 never comes out")
    if kind == "H":
        if to[0] != "H" or to[1] <= where:
            raise IllegalSeven("a goal marble only goes deeper")
        return [("H", k) for k in range(where + 1, to[1] + 1)]
    if to[0] == "M":
        n = (to[1] - where) % L
        return [("M", (where + j) % L) for j in range(1, n + 1)] if n else []
    n = (s - where) % L
    path = [("M", (where + j) % L) for j in range(1, n + 1)]
    return path + [("H", k) for k in range(1, to[1] + 1)]


def play_seven(position, text):
    """Replay a 7's text (Carbles: single steps, CB-P2; Jackaroo: parts, JR-P4).

    Returns the resulting pegs, or raises IllegalSeven: used to check that a
    text the engine prints for an end position is itself a legal 7 giving it.
    """
    pos = Position(position)
    gen = Generator(pos)
    c = gen.ctrl
    words = text.split()
    if not words or words[0] != "7" or len(words) < 2:
        raise IllegalSeven(f"not a 7: {text!r}")
    board = pos.board.copy()
    s = start_hole(c)
    restricted_here = board.track.get(s) == c
    moved = set()
    total = 0
    for part in words[1:]:
        try:
            side, rest = part.split(":")
            frm_t, to_t = rest.split("-")
        except ValueError:
            raise IllegalSeven(f"bad part {part!r}") from None
        if int(side) != c:
            raise IllegalSeven(f"{part}: side {side} is not controlled")
        frm, to = _parse_loc(frm_t), _parse_loc(to_t)
        if frm not in peg_locations(board, c):
            raise IllegalSeven(f"{part}: no peg of {c} on {frm_t}")
        path = _steps(board, c, frm, to)
        if not path:
            raise IllegalSeven(f"{part}: no step")
        total += len(path)
        if pos.game == "jackaroo":
            if frm in moved:
                raise IllegalSeven(f"{part}: a marble moves once in a 7")
            options = dict(gen.single_forward(board, c, frm, len(path),
                                              not gen.restricted(c, frm)))
            if to not in options:
                raise IllegalSeven(f"{part} is not a legal forward {len(path)}")
            board = options[to]
            moved.add(to)
            continue
        here = frm
        for step in path:
            legal = dict.fromkeys(d for loc, d in _carbles_steps(board, c, s, restricted_here) if loc == here)
            if step not in legal:
                raise IllegalSeven(f"{part}: step {token(here)}-{token(step)} is illegal")
            restricted_here = restricted_here and here != ("M", s)
            lift(board, c, here)
            place(board, c, step)
            here = step
    if total != 7:
        raise IllegalSeven(f"{text!r} makes {total} steps, not 7")
    return board.pegs()


def _carbles_steps(board, c, s, restricted_here):
    for loc in peg_locations(board, c):
        kind, where = loc
        if kind == "H":
            if where < HOME_LEN and where + 1 not in board.home[c]:
                yield loc, ("H", where + 1)
            continue
        nxt = (where + 1) % board.length
        if not board.protected(nxt):
            yield loc, ("M", nxt)
        if where == s and not restricted_here and 1 not in board.home[c]:
            yield loc, ("H", 1)


def parse_hand(pos, hand):
    ranks = RANKS[pos.game]
    if hand is None:
        return list(ranks)
    if isinstance(hand, str):
        hand = [h.strip() for h in hand.split(",") if h.strip()]
    out = []
    for r in hand:
        if r not in ranks:
            raise PositionError(f"{r!r} is not a {pos.game} rank")
        if r not in out:
            out.append(r)
    return out


def moves(position, hand=None):
    """What `pegs moves` prints for `position` (a dict) and `hand` (ranks)."""
    pos = Position(position)
    ranks = parse_hand(pos, hand)
    gen = Generator(pos)
    entries = []
    for rank in ranks:
        seen = set()
        for text, board, effects in gen.rank_moves(rank):
            result = board.pegs()
            key = (json.dumps(result, sort_keys=True), json.dumps(effects, sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            entry = {"card": rank, "move": text, "result": result}
            if effects is not None:
                entry["effects"] = effects
            entries.append(entry)
    return {"to_move": pos.to_move, "discard_allowed": not entries, "moves": entries}


def move_set(report):
    """(card, result, effects) triples, the part of a report the rules fix."""
    return {(m["card"], json.dumps(m["result"], sort_keys=True),
             json.dumps(m.get("effects"), sort_keys=True)) for m in report["moves"]}


if __name__ == "__main__":   # python related_reference.py POSITION.json [A,7,K]
    import sys
    with open(sys.argv[1]) as f:
        data = json.load(f)
    print(json.dumps(moves(data, sys.argv[2] if len(sys.argv) > 2 else None), indent=1))
