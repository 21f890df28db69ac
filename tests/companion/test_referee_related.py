"""companion.referee on the board of Tock, Carbles and Jackaroo (issue 18; RELATED-GAMES.md).

Pure: no Flask, no threads, no sleeping (`refkit.BoardTable`: a game, a referee and the
pegs a test moves by hand). Plays that move no peg (a card passed to the partner, the whole
hand discarded, a burn, a forced discard, a steal) never wait for the board and hand the turn
on; the LEDs light every destination and the start holes of hit pegs (own colour, passed over
by a king or a 7's steps); a settled board is taken only as a move with that result; and whole
games by bots, every move made by hand exactly as the LEDs say, keep the board equal to the
engine's position at every step."""
from __future__ import annotations

import pytest

from companion.board import START
from companion.game import PLAY
from companion.moves import Move

from tests.companion.refkit import CARD_ONLY, BoardTable, play_on_board


def side_hole(side, offset, sides=4):
    """Main-track hole `offset` holes into `side`'s side (its start hole is offset 17)."""
    return (18 * side + offset) % (18 * sides)


def m(n):
    return f"M{n}"


def lit(tb, role):
    return {h for h, r in tb.roles().items() if r == role}


def choose(tb, card, rank):
    tb.ref.choose(tb.game.actor, card, rank, tb.version, tb.t)


def take(tb, move, card):
    """Make `move` by hand as the LEDs say, let the board settle: the move the referee takes."""
    choose(tb, card, move.rank)
    assert tb.ref.state == "following", tb.ref.message
    tb.make(move)
    commit = tb.settle()
    assert commit is not None, (tb.ref.state, tb.ref.message)
    return commit


# ------------------------------------------------------------------ plays that move no peg

def assert_ready_for_next(tb, before_version):
    ref, g = tb.ref, tb.game
    assert tb.version > before_version
    assert ref.state in ("ready", "waiting"), (ref.state, ref.message)
    assert ref.ready_version == tb.version                 # no board change awaited
    assert ref.leds(tb.t) == {}                            # nothing to move on the board
    assert tb.names[g.actor] in ref.message, (ref.message, g.actor)
    assert tb.board_is_the_game()


def test_passing_a_card_to_the_partner_waits_for_no_board():
    # TK-V4.1: after the deal every player passes one card to his partner, on the phone
    tb = BoardTable("tock_partnership", 4, 2, seed=3, bots=[False, True, False, True])
    g = tb.game
    assert g.phase == "give" and tb.ref.state == "waiting"
    assert "pass to your partner" in tb.ref.message and tb.names[g.actor] in tb.ref.message
    for _ in range(4):
        seat = g.actor
        tb.ref.kick = False
        play = next(p for p in g.legal_plays() if p.move.kind == "give")
        v = tb.version
        tb.push_phone(play)
        assert_ready_for_next(tb, v)
        assert play.card not in str(tb.ref.public()) and play.move.rank not in tb.ref.message
        assert tb.ref.kick == tb.bots[g.actor]             # a computer seat may go on at once
        assert g.actor != seat or g.phase == PLAY
    assert g.phase == PLAY and tb.ref.state == "ready" and "to play" in tb.ref.message


def test_a_forced_discard_and_the_missed_turn_need_no_board():
    # JR-P5: a 10 forces the next player to discard a card of his choice; he then misses a turn
    tb = BoardTable("jackaroo", 4, 2, seed=1)
    g = tb.game
    forcer = g.actor
    me = g.seat_side[forcer]
    tb.arrange({me: ["S", "S", "S", m(side_hole(me, 20))]}, hand=["10H", "2C", "3C"])
    choose(tb, "10H", "10")                                # the phone taps the 10: the board
    assert tb.ref.state == "following"                     # follows its forward 10 ...
    force = next(p for p in g.legal_plays() if p.move.kind == "force" and p.move.rank == "10")
    v = tb.version
    tb.push_phone(force)                                   # ... but the force is made on the phone
    victim = g.actor
    assert g.phase == "forced" and victim != forcer
    assert_ready_for_next(tb, v)
    assert tb.ref.state == "waiting" and "discard a card of your choice" in tb.ref.message
    assert tb.ref.choice is None and tb.ref.follower is None
    v = tb.version
    tb.push_phone(g.legal_plays()[0])                      # his discard of choice
    assert g.phase == PLAY and g.actor not in (forcer, victim)   # he misses his turn (JR-P11)
    assert_ready_for_next(tb, v)
    assert tb.ref.state == "ready"


def test_a_steal_is_played_on_the_phone_and_the_board_moves_on():
    # JR-P6: a red queen takes a random card from the next player, who misses a turn
    tb = BoardTable("jackaroo", 4, 2, seed=2)
    g = tb.game
    thief = g.actor
    tb.arrange({}, hand=["QH", "2C"])
    choose(tb, "QH", "Qr")                                 # it moves no peg: say so, light nothing
    assert tb.ref.state == "ready" and "play it on the phone" in tb.ref.message
    assert tb.ref.leds(tb.t) == {} and tb.ref.follower is None
    steal = next(p for p in g.legal_plays() if p.move.kind == "force")
    victim = g.side_seat[steal.move.steps[0]]
    v = tb.version
    tb.push_phone(steal)
    assert g.actor not in (thief, victim)
    assert_ready_for_next(tb, v)
    stolen = g.history[-1]["stolen"]
    assert stolen not in str(tb.ref.public()) and stolen not in tb.ref.message   # C5


def test_discarding_the_whole_hand_and_a_burn_hand_the_turn_on():
    # JR-P10: Jackaroo's giving up the hand, at will; CB-P4: Carbles' burn when stuck
    tb = BoardTable("jackaroo_individual", 4, None, seed=4)
    g = tb.game
    seat = g.actor
    give_up = next(p for p in g.legal_plays() if p.move.kind == "hand")
    v = tb.version
    tb.push_phone(give_up)
    assert seat in g.waiting and g.actor != seat
    assert_ready_for_next(tb, v)
    tb = BoardTable("carbles", 4, None, seed=4)
    g = tb.game
    tb.arrange({}, hand=["2C", "3C", "5D", "6S"])          # every peg in start: nothing can move
    choose(tb, "2C", "2")
    assert tb.ref.state == "ready" and "discard it on the phone" in tb.ref.message
    burn = next(p for p in g.legal_plays() if p.move.kind == "discard")
    v = tb.version
    tb.push_phone(burn)
    assert_ready_for_next(tb, v)


# ------------------------------------------------------------------ what the LEDs light

def test_backward_four_lights_its_hole_and_the_hit_pegs_start():
    # CB-M7 / TK-M7: the 4 moves backward; a peg landed on goes to its start area
    tb = BoardTable("carbles", 4, None, seed=5)
    g = tb.game
    me = g.seat_side[g.actor]
    other = g.seat_side[(g.actor + 1) % 4]
    src, dst = side_hole(me, 10), side_hole(me, 6)
    tb.arrange({me: ["S", "S", "S", m(src)], other: ["S", "S", "S", m(dst)]}, hand=["4C", "2C"])
    (move,) = [x for x in g.position.legal_moves(["4"])]
    assert move.steps == ((me, src, dst),)
    choose(tb, "4C", "4")
    assert lit(tb, "can-move") == {m(src)} and lit(tb, "legal") == {m(dst)}
    tb.lift(m(src))
    tb.lift(m(dst))                                        # the hit peg taken off first
    assert tb.role(f"S-s{other}-4") == "hit" and tb.ref.state == "hit"
    commit = take_rest(tb, [("place", m(dst), me), ("place", f"S-s{other}-4", other)])
    assert commit.move == move


def take_rest(tb, steps):
    for _, hole, side in steps:
        tb.place(hole, side)
    commit = tb.settle()
    assert commit is not None, (tb.ref.state, tb.ref.message)
    return commit


def test_a_tock_peg_landing_on_its_own_colour_sends_that_peg_to_start():
    # TK-M2: landing on a peg of one's own colour is a hit too
    tb = BoardTable("tock", 4, None, seed=6)
    g = tb.game
    me = g.seat_side[g.actor]
    a, b = side_hole(me, 20), side_hole(me, 25)
    tb.arrange({me: ["S", "S", m(a), m(b)]}, hand=["5C", "2C"])
    move = next(x for x in g.position.legal_moves(["5"]) if x.steps == ((me, a, b),))
    choose(tb, "5C", "5")
    tb.lift(m(a))
    tb.lift(m(b))
    assert tb.role(f"S-s{me}-3") == "hit"                   # the own peg goes to start
    commit = take_rest(tb, [("place", m(b), me), ("place", f"S-s{me}-3", me)])
    assert commit.move == move and g.position.result_of(move)[me].count(START) == 3


def test_jackaroos_king_sends_every_marble_it_passes_to_start():
    # JR-P8: the king's 13 clears the single marbles it passes over and the one it lands on
    tb = BoardTable("jackaroo_individual", 4, None, seed=7)
    g = tb.game
    me = g.seat_side[g.actor]
    s1, s2, s3 = (g.seat_side[(g.actor + k) % 4] for k in (1, 2, 3))
    src = side_hole(me, 20)
    tb.arrange({me: ["S", "S", "S", m(src)], s1: ["S", "S", "S", m(src + 4)],
                s2: ["S", "S", "S", m(src + 9)], s3: ["S", "S", "S", m(src + 13)]}, hand=["KC", "2C"])
    king = next(x for x in g.position.legal_moves(["K"]) if x.steps[0][1] != START)
    assert king.steps == ((me, src, src + 13),)
    choose(tb, "KC", "K")
    tb.lift(m(src))
    # the marbles passed over blink (take them off), their start holes pulse, all at once
    assert {m(src + 4), m(src + 9)} <= lit(tb, "can-move")
    assert {f"S-s{s}-4" for s in (s1, s2, s3)} <= lit(tb, "hit")
    assert tb.role(m(src + 13)) == "legal" and tb.ref.state == "hit"
    assert len(tb.ref.hits) == 3
    for h in (m(src + 4), m(src + 9), m(src + 13)):
        tb.lift(h)
    commit = take_rest(tb, [("place", m(src + 13), me)] + [("place", f"S-s{s}-4", s) for s in (s1, s2, s3)])
    assert commit.move == king


def test_carbles_seven_as_steps_hits_on_every_step():
    # CB-P2: seven single steps; a marble stepped onto is hit at once, on the way too
    tb = BoardTable("carbles", 4, None, seed=8)
    g = tb.game
    me = g.seat_side[g.actor]
    s1, s2 = g.seat_side[(g.actor + 1) % 4], g.seat_side[(g.actor + 2) % 4]
    src = side_hole(me, 0)
    tb.arrange({me: ["S", "S", "S", m(src)], s1: ["S", "S", "S", m(src + 2)],
                s2: ["S", "S", "S", m(src + 5)]}, hand=["7C", "2C"])
    (seven,) = list(g.position.legal_moves(["7"]))        # one marble out: all 7 steps are its
    assert seven.steps == ((me, src, src + 7),)
    choose(tb, "7C", "7")
    assert lit(tb, "legal") == {m(src + 7)}
    tb.lift(m(src))
    assert {m(src + 2), m(src + 5)} <= lit(tb, "can-move")
    assert {f"S-s{s1}-4", f"S-s{s2}-4"} <= lit(tb, "hit")
    commit = take_rest_by_hand(tb, seven)
    assert commit.move == seven


def take_rest_by_hand(tb, move):
    """Put a move already begun (its peg lifted) right by hand: start again from the board."""
    pos = tb.pos
    mover = move.steps[0][0]
    tb.place(f"M{move.steps[0][1]}", mover)
    tb.make(move)
    commit = tb.settle()
    assert commit is not None, (tb.ref.state, tb.ref.message)
    return commit


def test_jackaroo_seven_split_hits_at_each_parts_end():
    # JR-P4: a split 7, each part a full move with its hit at its end
    tb = BoardTable("jackaroo_individual", 4, None, seed=9)
    g = tb.game
    me = g.seat_side[g.actor]
    s1, s2 = g.seat_side[(g.actor + 1) % 4], g.seat_side[(g.actor + 2) % 4]
    a, b = side_hole(me, 1), side_hole(me, 10)
    tb.arrange({me: ["S", "S", m(a), m(b)], s1: ["S", "S", "S", m(a + 3)],
                s2: ["S", "S", "S", m(b + 4)]}, hand=["7C", "2C"])
    split = next(x for x in g.position.legal_moves(["7"])
                 if sorted(x.steps) == sorted(((me, a, a + 3), (me, b, b + 4))))
    stats = {}
    choose(tb, "7C", "7")
    stats = tb.make(split)                                 # asserts every light on the way
    assert stats["hits"] == 2 and stats["hit_lit"] == 2
    commit = tb.settle()
    assert commit is not None and g.position.result_of(commit.move) == g.position.result_of(split)


def test_a_peg_on_its_own_start_hole_blocks_and_the_referee_says_why():
    # TK-M3: a peg standing on its own start hole can't be passed or landed on
    tb = BoardTable("tock", 4, None, seed=10)
    g = tb.game
    me = g.seat_side[g.actor]
    nxt = g.seat_side[(g.actor + 1) % 4]
    block = side_hole(nxt, 17)                             # the next player's own start hole
    src = (block - 3) % 72
    other = (block + 20) % 72                              # a peg the 8 can move
    tb.arrange({me: ["S", "S", m(other), m(src)], nxt: ["S", "S", "S", m(block)]}, hand=["8C", "2C"])
    choose(tb, "8C", "8")
    assert tb.ref.state == "following" and m(src) not in tb.roles()   # the blocked peg doesn't blink
    assert m((src + 8) % 72) not in tb.roles()             # never lit: it would pass the block
    tb.lift(m(src))
    tb.place(m((src + 8) % 72), me)
    assert tb.settle() is None
    assert tb.ref.state == "wrong" and "TK-M3" in tb.ref.message
    assert tb.role(m((src + 8) % 72)) == "wrong"


# ------------------------------------------------------------------ never a wrong move taken

@pytest.mark.parametrize("preset,players,teams,colours", [
    ("tock", 4, None, False), ("jackaroo", 4, 2, False), ("carbles", 6, None, True),
    ("carbles_partnership", 8, 4, False)])
def test_every_legal_move_made_by_hand_is_taken_as_itself(preset, players, teams, colours):
    """For positions along a game, every peg move of the acting seat's hand, made by hand as
    the LEDs say, is taken as that move or one with the same result, or put to the phone
    with the candidates, never as a move with another result; occupancy alone (reed
    switches) or with the colours (the simulated board)."""
    import random

    from companion.bots import make_bot
    tb0 = BoardTable(preset, players, teams, seed=11)
    g = tb0.game
    bot = make_bot("greedy", random.Random(11))
    tried = asked = 0
    while not g.is_over() and g.turn < 240:
        if g.phase == PLAY and g.turn % 12 == 0:
            hand = g.hands[g.actor]
            cards = {g.rank_of(c): c for c in hand}
            pos = g.position
            for rank, card in cards.items():
                moves = [x for x in pos.legal_moves([rank]) if x.kind not in CARD_ONLY]
                for move in moves[:6]:
                    tb = _copy_table(tb0, colours)
                    take_or_ask(tb, move, card)
                    tried += 1
                    asked += tb.ref.state == "ambiguous"
        g.push(*bot.choose(g, g.legal_plays()))
        tb0.version += 1
    assert tried > 30 and asked < tried, (tried, asked)


def _copy_table(tb0, colours):
    """A fresh referee on the same game and board (a new one per trial)."""
    from companion.referee import Referee
    tb = BoardTable.__new__(BoardTable)
    tb.__dict__.update(tb0.__dict__)
    tb.sees_colours = colours
    tb.pegs = board_of(tb0.game)
    tb.hand = []
    tb.ref = Referee(sensing=True, start_holes=tb.start_holes, settle=0.8, filled=set(tb.pegs))
    tb.update()
    if colours:
        tb.ref.see_colours(dict(tb.pegs), tb.t)
    assert tb.ref.state == "ready", (tb.ref.state, tb.ref.message)
    return tb


def board_of(game):
    from companion.matching import colours_of_pegs
    pos = game.position
    out = dict(colours_of_pegs(pos, pos.pegs()))
    for side, locs in pos.pegs().items():
        for i in range(1, locs.count(START) + 1):
            out[f"S-s{side}-{i}"] = side
    return out


def take_or_ask(tb, move, card):
    pos = tb.pos
    choose(tb, card, move.rank)
    tb.make(move)
    commit = tb.settle()
    if commit is not None:
        assert pos.result_of(commit.move) == pos.result_of(move), (move, commit.move)
        return
    assert tb.ref.state == "ambiguous", (tb.ref.state, tb.ref.message, move.text(pos.geo))
    ranks = pos.ranks
    cands = [Move.from_text(c["move"], pos.geo, pos.sides, ranks) for c in tb.ref.candidates]
    assert any(pos.result_of(c) == pos.result_of(move) for c in cands)


# ------------------------------------------------------------------ whole games on the board

@pytest.mark.parametrize("preset,players,teams,colours,seed", [
    ("tock", 4, None, False, 1),
    ("tock3", 3, None, True, 1),
    ("tock_partnership", 4, 2, False, 2),
    ("jackaroo", 4, 2, True, 1),
    ("jackaroo_individual", 4, None, False, 1),
    ("carbles", 4, None, True, 1),
    ("carbles", 6, None, False, 1),
    pytest.param("carbles_partnership", 8, 4, True, 1, marks=pytest.mark.slow),    # the bigger boards:
    pytest.param("carbles_partnership", 12, 6, False, 1, marks=pytest.mark.slow),  # .ci/run's slow part
])
def test_bots_play_a_whole_game_moving_pegs_only_as_the_leds_say(preset, players, teams, colours, seed):
    tb = BoardTable(preset, players, teams, seed=seed, colours=colours)
    stats = play_on_board(tb, seed=seed)
    assert tb.game.is_over(), stats
    kinds = stats["kinds"]
    assert stats["moves"] > 100 and stats["dests"] + kinds.get("swap", 0) >= stats["moves"]
    assert stats["hits"] > 5 and stats["hit_lit"] == stats["hits"], stats
    if preset.startswith("jackaroo"):
        assert kinds.get("force", 0) and kinds.get("forced", 0) and kinds.get("hand", 0), kinds
        assert stats["hit_from_lit"] > 0                   # a king's marbles passed over
    if preset == "tock_partnership":
        assert kinds.get("give", 0) >= 4 * 3, kinds        # a pass after every deal
    if preset.startswith("carbles"):
        assert kinds.get("discard", 0) and kinds.get("swap", 0), kinds


def test_a_seven_made_marble_by_marble_in_another_order_is_followed_without_a_wrong():
    # CB-P2 / JR-P4: the player chooses the order of the parts; three marbles moved one after
    # another in an order the move doesn't write, with pauses longer than the settle time, are
    # a board part of the way there (never "wrong"), and the next marble's lights show
    for preset in ("carbles", "jackaroo_individual"):
        tb = BoardTable(preset, 4, None, seed=12)
        g = tb.game
        me = g.seat_side[g.actor]
        holes = [side_hole(me, 1), side_hole(me, 20), side_hole(me, 40)]
        tb.arrange({me: ["S"] + [m(h) for h in holes]}, hand=["7C", "2C"])

        def walks(move):
            """({start hole: end hole} of each marble, the marbles in the order written)."""
            where, seen = {}, []
            for _, s, d in move.steps:
                start = where.pop(s, s)
                where[d] = start
                if start not in seen:
                    seen.append(start)
            return {start: hole for hole, start in where.items()}, seen
        split = next(x for x in g.position.legal_moves(["7"]) if len(walks(x)[0]) == 3)
        ends, written = walks(split)
        order = written[1:] + written[:1]          # neither the written order nor its reverse
        choose(tb, "7C", "7")
        for k, start in enumerate(order):
            assert tb.role(m(start)) == "can-move", (k, split, tb.roles())
            tb.lift(m(start))
            assert tb.role(m(ends[start])) == "legal", (k, split, tb.roles())
            tb.place(m(ends[start]), me)
            if k < 2:
                tb.t += 1.0
                assert tb.ref.judge(tb.t) is None and tb.ref.state == "following", (
                    preset, split, tb.ref.state, tb.ref.message)
        commit = tb.settle()
        assert commit is not None and g.position.result_of(commit.move) == g.position.result_of(split)


@pytest.mark.parametrize("colours", [False, True])
def test_swaps_that_leave_the_same_holes_filled_are_told_apart(colours):
    # CB-P3: every swap leaves the occupancy as it was; the lifts (reed switches) or the
    # colours (the simulated board) say which pegs changed places, never a guess
    tb = BoardTable("carbles", 4, None, seed=13, colours=colours)
    g = tb.game
    me = g.seat_side[g.actor]
    s1, s2 = g.seat_side[(g.actor + 1) % 4], g.seat_side[(g.actor + 2) % 4]
    a, b, c = side_hole(me, 2), side_hole(me, 22), side_hole(me, 42)
    tb.arrange({me: ["S", "S", "S", m(a)], s1: ["S", "S", "S", m(b)], s2: ["S", "S", "S", m(c)]},
               hand=["JC", "2C"])
    swaps = [x for x in g.position.legal_moves(["J"]) if x.kind == "swap"]
    assert len(swaps) == 2                                 # mine with each of the others
    for swap in swaps:
        trial = _copy_table(tb, colours)
        choose(trial, "JC", "J")
        trial.make(swap)
        commit = trial.settle()
        assert commit is not None and commit.move == swap, (swap, trial.ref.state, trial.ref.message)


def test_jumping_a_pair_is_refused_with_the_rule_and_reverse_four_is_followed():
    # JR-M3: no marble passes two marbles on neighbouring holes; TK-V1: Tock's Reverse Four
    tb = BoardTable("jackaroo_individual", 4, None, seed=14)
    g = tb.game
    me = g.seat_side[g.actor]
    s1, s2 = g.seat_side[(g.actor + 1) % 4], g.seat_side[(g.actor + 2) % 4]
    src = side_hole(me, 2)
    tb.arrange({me: ["S", "S", m(src), m(side_hole(me, 40))], s1: ["S", "S", "S", m(src + 2)],
                s2: ["S", "S", "S", m(src + 3)]}, hand=["6C", "2C"])
    choose(tb, "6C", "6")
    assert tb.ref.state == "following" and m(src) not in tb.roles()   # it can't get past the pair
    tb.lift(m(src))
    tb.place(m(src + 6), me)
    assert tb.settle() is None and tb.ref.state == "wrong" and "JR-M3" in tb.ref.message
    tb = BoardTable({"preset": "tock", "options": {"reverse_four": True}}, 4, None, seed=14)
    g = tb.game
    me = g.seat_side[g.actor]
    src = side_hole(me, 30)
    tb.arrange({me: ["S", "S", "S", m(src)]}, hand=["4C", "2C"])
    (back,) = list(g.position.legal_moves(["4"]))
    assert back.steps == ((me, src, src - 4),)
    commit = take(tb, back, "4C")
    assert commit.move == back
