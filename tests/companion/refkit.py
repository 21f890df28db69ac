"""A pure harness for the board referee (companion.referee) in any preset: a game, a board
of pegs the test moves by hand (occupancy events, and the colours when the board sees them,
as the simulated board does), and players who move pegs only where the referee's LEDs say.

No Flask, no threads, no sleeping: time is a number the harness advances."""
from __future__ import annotations

import random

from companion.families import new_game
from companion.board import START
from companion.bots import make_bot
from companion.game import Game
from companion.matching import colours_of_pegs, hole_id
from companion.moves import SWAP, Move
from companion.notation import position_from_json, position_to_json
from companion.referee import GameView, Referee, canonical_holes

CARD_ONLY = ("give", "discard", "hand", "force")   # plays that move no peg


class Desync(AssertionError):
    """The referee's lights or verdict disagree with the move being made."""


class BoardTable:
    """A game of `preset`, its version, a referee, and the pegs on the board (hole -> side)."""

    def __init__(self, preset, players=4, teams=None, seed=0, colours=True, settle=0.8, bots=None):
        self.game = new_game(preset, players, teams=teams, seed=seed)
        self.players = players
        self.names = [f"P{i}" for i in range(players)]
        self.colour_names = [f"C{i}" for i in range(players)]
        self.bots = bots or [False] * players
        self.version = 1
        self.t = 100.0
        self.sees_colours = colours
        self.start_holes = self.game.rules.pegs_per_side
        self.ref = Referee(sensing=True, start_holes=self.start_holes, settle=settle)
        self.pegs: dict[str, int] = {}
        self.hand: list[int] = []
        self.update()
        for side in self.game.seat_side:           # every peg in its start area
            for i in range(1, self.start_holes + 1):
                self.hand.append(side)
                self.place(f"S-s{side}-{i}", side, dt=0.01)
        assert self.ref.state in ("ready", "waiting"), (self.ref.state, self.ref.message)

    # -------------------------------------------------------------- the game side
    @property
    def pos(self):
        return self.game.position

    def view(self) -> GameView:
        return GameView.of(self.game, self.version, names=self.names, colour_names=self.colour_names,
                           bots=self.bots)

    def update(self):
        return self.ref.update_game(self.view(), self.t)

    def push_phone(self, play):
        """A play entered on the phone (the path `TableService.act_as` takes)."""
        self.game.push(play.move, play.card)
        self.version += 1
        self.update()

    def arrange(self, pegs_by_side: dict, hand=None):
        """Set the pegs ({side: ["S", "M20", "H1", ...]}, as NOTATION.md) and the actor's hand,
        then put the board right by hand (as after a restart) until the referee is ready."""
        g = self.game
        data = position_to_json(g.position)
        for side, locs in pegs_by_side.items():
            data["pegs"][str(side)] = locs
        new = position_from_json(data)
        g.position.occ, g.position.start = new.occ, new.start
        if hand is not None:
            g.hands[g.actor] = list(hand)
        self.version += 1
        self.update()
        want = dict(colours_of_pegs(self.pos, self.pos.pegs()))
        for side, locs in self.pos.pegs().items():
            for i in range(1, locs.count(START) + 1):
                want[f"S-s{side}-{i}"] = side
        for hole in [h for h, s in self.pegs.items() if want.get(h) != s]:
            self.lift(hole, dt=0.01)
        for hole, side in sorted(want.items()):
            if hole not in self.pegs:
                if side not in self.hand:
                    self.hand.append(side)
                self.place(hole, side, dt=0.01)
        self.hand.clear()
        assert self.ref.state in ("ready", "waiting"), (self.ref.state, self.ref.message)

    # -------------------------------------------------------------- hands on the board
    def _colours(self):
        if self.sees_colours:
            self.ref.see_colours(dict(self.pegs), self.t)

    def lift(self, hole, dt=0.1):
        side = self.pegs.pop(hole)
        self.hand.append(side)
        self.t += dt
        self.ref.on_event(hole, False, self.t)
        self._colours()
        return side

    def place(self, hole, side, dt=0.1):
        assert hole not in self.pegs, hole
        self.hand.remove(side)
        self.pegs[hole] = side
        self.t += dt
        self.ref.on_event(hole, True, self.t)
        self._colours()

    def role(self, hole):
        return self.ref.leds(self.t).get(hole)

    def roles(self):
        return self.ref.leds(self.t)

    def board_is_the_game(self) -> bool:
        """The pegs on the board are the engine's position (holes and colours)."""
        pos = self.pos
        want = colours_of_pegs(pos, pos.pegs())
        track = {h: s for h, s in self.pegs.items() if not h.startswith("S-")}
        start = {}
        for h, s in self.pegs.items():
            if h.startswith("S-"):
                assert int(h[3:].split("-")[0]) == s, f"{h} holds a peg of side {s}"
                start[s] = start.get(s, 0) + 1
        return track == want and start == {s: n for s, locs in pos.pegs().items()
                                            if (n := locs.count(START))} and \
            canonical_holes(self.ref.expected) == self.ref.filled

    # -------------------------------------------------------------- a move made by hand
    def make(self, move, check=True) -> dict:
        """Make `move` on the board as a person following the LEDs does: lift the peg that
        blinks, take off the pegs it hits, put it in its green hole, put each hit peg in its
        start area where the LEDs pulse. Asserts the lights at every touch (check). Returns
        counts of what was checked."""
        pos = self.pos
        geo = pos.geo
        stats = {"lifts": 0, "dests": 0, "hits": 0, "hit_lit": 0, "hit_from_lit": 0}

        def expect(hole, roles, what):
            got = self.role(hole)
            if check and got not in roles:
                raise Desync(f"{what}: {hole} is lit {got!r}, not {roles} ({move.text(geo)}); "
                             f"lights {self.roles()}; {self.ref.state}: {self.ref.message}")
            return got

        if move.kind == SWAP:
            (c1, a, _), (c2, b, _) = move.steps
            ha, hb = hole_id(geo, c1, a), hole_id(geo, c2, b)
            expect(ha, ("can-move",), "a swapped peg")
            expect(hb, ("can-move",), "a swapped peg")
            self.lift(ha)
            self.lift(hb)
            expect(ha, ("legal",), "a swap's hole")
            self.place(ha, c2)
            expect(hb, ("legal",), "a swap's hole")
            self.place(hb, c1)
            stats["lifts"] += 2
            return stats
        q = pos.copy()
        for c, s, d in move.steps:
            before = q.pegs()
            q.apply(Move(move.rank, move.kind, ((c, s, d),)), pos.to_move)
            after = q.pegs()
            track0 = colours_of_pegs(q, before)
            track1 = colours_of_pegs(q, after)
            src = (max((h for h, side in self.pegs.items() if h.startswith(f"S-s{c}-")),
                       key=lambda h: int(h.rsplit("-", 1)[1])) if s == START else hole_id(geo, c, s))
            dst = hole_id(geo, c, d)
            # the engine's result says which pegs go: every peg landed on, and every peg whose
            # hole is emptied or changes colour (a king's or a 7's pegs passed over)
            hit = [h for h in track0 if h != src and (h == dst or track1.get(h) != track0[h])]
            gone = {}
            for h in hit:
                gone[track0[h]] = gone.get(track0[h], 0) + 1
            for side in before:
                grew = after[side].count(START) - before[side].count(START) + (side == c and s == START)
                assert grew == gone.get(side, 0), (move, side, grew, gone)
            expect(src, ("can-move",), "the peg to move")
            self.lift(src)
            stats["lifts"] += 1
            for h in hit:
                if h != dst:   # a peg passed over and hit: the LEDs show which one
                    got = expect(h, ("can-move", "legal", "selected", "hit", None), "a peg passed over")
                    stats["hit_from_lit"] += got == "can-move"
                self.lift(h)
            expect(dst, ("legal",), "where the peg goes")
            self.place(dst, c)
            stats["dests"] += 1
            for h in hit:
                side = track0[h]
                free = min((x for x in (f"S-s{side}-{i}" for i in range(1, self.start_holes + 1))
                            if x not in self.pegs), key=lambda x: int(x.rsplit("-", 1)[1]))
                got = expect(free, ("hit", "legal"), "where a hit peg goes")
                stats["hits"] += 1
                stats["hit_lit"] += got == "hit"
                self.place(free, side)
        return stats

    def settle(self):
        self.t += self.ref.settle + 0.05
        return self.ref.judge(self.t)


def play_on_board(tb: BoardTable, seed=1, max_turns=4000, bot="greedy") -> dict:
    """Bots choose every play; the test's hands make each move on the board exactly as the
    LEDs say (`BoardTable.make`), plays that move no peg go through the phone. After every play
    the referee's board must be the engine's position and the referee ready for the next actor.
    Returns counts; raises at the first disagreement."""
    rng = random.Random(seed)
    bots = [make_bot(bot, random.Random(rng.random())) for _ in range(tb.players)]
    game, ref = tb.game, tb.ref
    stats = {"moves": 0, "card_only": 0, "kinds": {}, "ambiguous": 0, "hits": 0, "hit_lit": 0,
             "hit_from_lit": 0, "dests": 0}
    while not game.is_over() and game.turn < max_turns:
        seat = game.actor
        assert ref.ready_version == tb.version, (ref.state, ref.message)
        play = bots[seat].choose(game, game.legal_plays())
        move, card = play
        kind = move.kind if game.phase == "play" else game.phase
        stats["kinds"][kind] = stats["kinds"].get(kind, 0) + 1
        pos = game.position
        if move.kind in CARD_ONLY:
            if game.phase == "play" and card is not None:
                # the phone taps the card first: the board follows what it can move (a 10's
                # forward move), or says the play is made on the phone
                tb.ref.choose(seat, card, move.rank, tb.version, tb.t)
                assert ref.state in ("following", "ready"), (ref.state, ref.message)
            tb.push_phone(play)
            stats["card_only"] += 1
        else:
            expected = pos.result_of(move)
            ref.choose(seat, card, move.rank, tb.version, tb.t)
            assert ref.state == "following", (ref.state, ref.message, move.text(pos.geo))
            s = tb.make(move)
            for k in ("hits", "hit_lit", "hit_from_lit", "dests"):
                stats[k] += s[k]
            commit = tb.settle()
            if commit is None:
                assert ref.state == "ambiguous", (ref.state, ref.message, move.text(pos.geo))
                stats["ambiguous"] += 1
                # the board fits several moves: never one whose result differs from the board
                cands = [Move.from_text(c["move"], pos.geo, pos.sides, getattr(pos, "ranks", None))
                         if hasattr(pos, "ranks") else Move.from_text(c["move"], pos.geo)
                         for c in ref.candidates]
                assert all(pos.result_of(m) == expected for m in cands), (move, cands)
                tb.push_phone(play)                 # the phone's candidate button
            else:
                assert pos.result_of(commit.move) == expected, ("a wrong move taken", move, commit.move)
                assert commit.card == card
                game.push(commit.move, commit.card)
                tb.version += 1
                ref.committed(commit, tb.version, tb.t)
                tb.update()
            stats["moves"] += 1
        assert tb.board_is_the_game(), "desync: the board is not the game"
        assert ref.state in ("ready", "waiting"), (ref.state, ref.message)
        assert ref.ready_version == tb.version
        if not game.is_over():
            assert "hit" not in ref.leds(tb.t + 2).values() and "can-move" not in ref.leds(tb.t + 2).values()
            assert tb.names[game.actor] in ref.message, (ref.message, game.actor, game.phase)
    return stats
