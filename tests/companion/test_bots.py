"""Tests of companion.bots: random and greedy bots choose legal plays."""

import random

import pytest

from companion.families import new_game
from companion.board import START
from companion.bots import BOTS, GreedyBot, RandomBot, evaluate, make_bot
from companion.game import Game
from companion.families.pegs.position import Position
from companion.rules import PRESETS, Rules


def _play_checked(game, bots, max_actions=4000):
    """Play with checked pushes; every chosen play must be one of the legal plays."""
    phases = set()
    for _ in range(max_actions):
        if game.is_over():
            break
        plays = game.legal_plays()
        assert plays, f"no legal plays in phase {game.phase}"
        play = bots[game.actor].choose(game, plays)
        assert play in plays
        phases.add(game.phase)
        game.push(play)  # re-checks legality (IllegalMoveError otherwise)
    return phases


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("names", [("random",), ("greedy",), ("greedy", "random")])
def test_bots_only_return_legal_plays(preset, names):
    game = new_game(preset, players=4, seed=11)
    bots = [make_bot(names[s % len(names)], random.Random(100 + s)) for s in range(4)]
    _play_checked(game, bots, max_actions=600 if names == ("random",) else 4000)
    if names != ("random",) and preset != "bluffing_joker":
        assert game.is_over()


def test_bots_handle_bluffing_doubt_and_penalty_phases():
    game = new_game("bluffing_joker", players=4, seed=3)
    bots = [make_bot(n, random.Random(s)) for s, n in enumerate(("greedy", "random") * 2)]
    phases = _play_checked(game, bots, max_actions=3000)
    assert {"play", "doubt", "penalty"} <= phases


@pytest.mark.parametrize("players", [2, 6, 8, 10])
def test_bots_legal_at_other_seat_counts(players):
    game = new_game("basic", players=players, seed=5)
    bots = [make_bot(("greedy", "random")[s % 2], random.Random(s)) for s in range(players)]
    _play_checked(game, bots, max_actions=1500)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_deterministic_for_a_seed(name):
    def run():
        game = new_game("basic", players=4, seed=7)
        bots = [make_bot(name, random.Random(42 + s), think_ms=None, iterations=3)
                for s in range(4)]
        chosen = []
        for _ in range(300 if name != "strong" else 60):
            if game.is_over():
                break
            play = bots[game.actor].choose(game, game.legal_plays())
            chosen.append(play)
            game._push(play)
        return chosen

    assert run() == run()


def test_make_bot():
    assert isinstance(make_bot("random", random.Random(0)), RandomBot)
    assert isinstance(make_bot("greedy", random.Random(0)), GreedyBot)
    assert make_bot("greedy", random.Random(0)).name == "greedy"
    assert make_bot("random").name == "random"
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever", random.Random(0))


def test_random_bot_is_uniform_over_plays():
    bot = RandomBot(random.Random(1))
    plays = list(range(5))
    counts = [0] * 5
    for _ in range(5000):
        counts[bot.choose(None, plays)] += 1
    assert all(850 < n < 1150 for n in counts)


def test_greedy_discards_least_useful_card_when_only_discards_are_legal():
    game = new_game("basic", players=4, seed=1)
    seat = game.seat
    # all pegs in start, no come-out card: nothing moves; the joker has no target
    game.hands[seat] = ["8D", "3C", "9S", "JK", "10C", "7H"]
    plays = game.legal_plays()
    assert {p.move.kind for p in plays} == {"discard"}
    play = GreedyBot(random.Random(0)).choose(game, plays)
    assert play.card == "3C"


def test_greedy_prefers_coming_out_and_keeps_the_joker():
    game = new_game("basic", players=4, seed=1)
    seat = game.seat
    game.hands[seat] = ["KD", "3C", "9S", "JK", "10C", "AH"]
    play = GreedyBot(random.Random(0)).choose(game, game.legal_plays())
    assert play.move.kind == "move" and play.move.steps[0][1] == START
    assert play.card in ("KD", "AH")


def _pos(pegs, teams=((0, 2), (1, 3)), to_move=0):
    return Position.from_pegs(Rules(), 4, teams, pegs, to_move)


def test_evaluate_orders_simple_positions():
    S = START
    L = 72
    base = {0: [S] * 5, 1: [S] * 5, 2: [S] * 5, 3: [S] * 5}
    start = evaluate(_pos(base), 0)
    out = evaluate(_pos({**base, 0: [8, S, S, S, S]}), 0)          # own come-out hole
    far = evaluate(_pos({**base, 0: [60, S, S, S, S]}), 0)         # further round
    home = evaluate(_pos({**base, 0: [L + 4, S, S, S, S]}), 0)     # deepest home hole
    assert start == 0 and out > start and far > out and home > far
    # the opponents' progress counts against
    assert evaluate(_pos({**base, 1: [26, S, S, S, S]}), 0) < 0
    # an own peg with an opponent's peg 1-13 holes behind it is worth less
    safe = evaluate(_pos({**base, 0: [30, S, S, S, S], 1: [50, S, S, S, S]}), 0)
    threatened = evaluate(_pos({**base, 0: [30, S, S, S, S], 1: [20, S, S, S, S]}), 0)
    opp_value_shift = evaluate(_pos({**base, 1: [50, S, S, S, S]}), 0) - \
        evaluate(_pos({**base, 1: [20, S, S, S, S]}), 0)
    assert threatened + opp_value_shift < safe


def test_greedy_hits_an_opponent():
    game = new_game("basic", players=4, seed=2)
    seat = game.seat
    side = game.seat_side[seat]
    opp = game.seat_side[(seat + 1) % 4]
    pos = game.position
    # own peg at 20, an opponent 5 ahead: a 5 hits it; a 4 just moves on
    pos.occ[side] = 1 << 20
    pos.start[side] = 4
    pos.occ[opp] = 1 << 25
    pos.start[opp] = 4
    game.hands[seat] = ["5C", "4D", "2S", "3H", "6D", "9C"]
    play = GreedyBot(random.Random(0)).choose(game, game.legal_plays())
    assert play.move.steps == ((side, 20, 25),)
    game.push(play)
    assert game.position.start[opp] == 5


def test_greedy_penalty_sends_back_the_most_advanced_peg():
    game = new_game("bluffing_joker", players=4, seed=3)
    bots = [make_bot("random", random.Random(s)) for s in range(4)]
    for _ in range(20000):
        if game.phase == "penalty" and len(game.legal_plays()) >= 2:
            break
        game._push(bots[game.actor].choose(game, game.legal_plays()))
    else:
        pytest.fail("no penalty choice with two pegs came up")
    plays = game.legal_plays()
    geo = game.position.geo
    L = geo.length

    def travelled(p):
        c, src, _ = p.move.steps[0]
        return L - (geo.in_spot[c] - src) % L

    play = GreedyBot(random.Random(0)).choose(game, plays)
    assert travelled(play) == max(travelled(p) for p in plays)


def test_greedy_doubts_sometimes():
    game = new_game("bluffing_joker", players=4, seed=4)
    bot = GreedyBot(random.Random(0))
    while game.phase != "doubt":
        game._push(bot.choose(game, game.legal_plays()))
    kinds = [GreedyBot(random.Random(i)).choose(game, game.legal_plays()).move.kind
             for i in range(400)]
    assert 0 < kinds.count("doubt") < 100
    assert GreedyBot(random.Random(0), doubt_rate=0.0).choose(
        game, game.legal_plays()).move.kind == "pass"
