"""Tests of the strong bot (companion.strong) and hints (companion.hints), issue 17.

It must see only its own seat's view, return a legal play in every phase of
every preset and seat count, keep to its time budget, doubt by an estimate,
and beat greedy in a small fixed-seed match (the full tournament is
tests/benchmarks/bench_bots.py).
"""
import copy
import random
import time

import pytest

from companion.families import new_game
from companion.bots import make_bot
from companion.game import Game
from companion.hints import reason, suggest
from companion.moves import Move
from companion.families.tock.game import SEATS
from companion.rules import ALL_PRESETS, PRESETS
from companion.simulate import bot_seed, game_seed, play_game
from companion.strong import StrongBot


def strong(seed=0, iterations=3):
    return StrongBot(random.Random(seed), think_ms=None, iterations=iterations)


def _reshuffle_unseen(game, seat, rng):
    """A copy of `game` where every card `seat` can't see (other hands, stock) is dealt anew."""
    g = copy.copy(game)  # (a deep copy would also do, but Move does not survive deepcopy)
    g.hands = [list(h) for h in game.hands]
    g.shoe = copy.copy(game.shoe)
    g.shoe.stock = list(game.shoe.stock)
    others = [s for s in range(g.players) if s != seat]
    pool = [c for s in others for c in g.hands[s]] + list(g.shoe.stock)
    rng.shuffle(pool)
    k = 0
    for s in others:
        n = len(g.hands[s])
        g.hands[s] = pool[k:k + n]
        k += n
    g.shoe.stock = pool[k:]
    return g


class _ViewOnly:
    """Offers a bot nothing of the game but the acting seat's view."""

    def __init__(self, game):
        self._game = game

    @property
    def actor(self):
        return self._game.actor

    def player_view(self, seat):
        assert seat == self._game.actor, "the bot asked for another seat's view"
        return self._game.player_view(seat)


@pytest.mark.parametrize("preset", ["basic", "bluffing_joker", "north_carolina",
                                    "tock_partnership", "jackaroo", "carbles"])
def test_never_reads_hidden_state(preset):
    game = new_game(preset, players=4, seed=21)
    driver = [make_bot("greedy", random.Random(s)) for s in range(4)]
    rng = random.Random(5)
    checked = set()
    for turn in range(400):
        if game.is_over():
            break
        plays = game.legal_plays()
        if len(plays) > 1 and (turn % 9 == 0 or game.phase not in checked):
            checked.add(game.phase)
            seat = game.actor
            mine = strong(turn).choose(game, plays)
            # the same choice when the unseen cards are dealt otherwise
            other = _reshuffle_unseen(game, seat, rng)
            assert other.hands[seat] == game.hands[seat]
            assert strong(turn).choose(other, other.legal_plays()) == mine
            # and it works from nothing but the view
            assert strong(turn).choose(_ViewOnly(game), plays) == mine
        game._push(driver[game.actor].choose(game, plays))
    if preset == "bluffing_joker":
        assert {"play", "doubt", "penalty"} <= checked
    if preset == "tock_partnership":
        assert {"play", "give"} <= checked  # TK-V4.1: the card passed to the partner too


def _play_checked(game, bots, max_actions):
    phases = set()
    for _ in range(max_actions):
        if game.is_over():
            break
        plays = game.legal_plays()
        play = bots[game.actor].choose(game, plays)
        assert play in plays
        phases.add(game.phase)
        game.push(play)  # checked again by the game
    return phases


@pytest.mark.parametrize("preset", sorted(ALL_PRESETS))
def test_legal_in_every_preset(preset):
    players = 4 if 4 in SEATS.get(preset, (4,)) else SEATS[preset][0]
    game = new_game(preset, players=players, seed=13)
    bots = [strong(s, iterations=2) if s % 2 == 0 else make_bot("greedy", random.Random(s))
            for s in range(players)]
    phases = _play_checked(game, bots, 3000)
    assert game.is_over()
    if preset == "bluffing_joker":
        assert "doubt" in phases
    if preset == "tock_partnership":
        assert "give" in phases


def test_legal_in_the_forced_discard_phase():
    # JR-P5: a 10 makes the next player discard a card of his choice; the strong
    # bot at every seat, so it both forces and is forced
    forced = 0
    for seed in range(6):
        game = new_game("jackaroo", players=4, seed=seed)
        bots = [strong(s, iterations=1) for s in range(4)]
        for _ in range(400):
            if game.is_over() or forced >= 2:
                break
            plays = game.legal_plays()
            forced += game.phase == "forced"
            play = bots[game.actor].choose(game, plays)
            assert play in plays
            game.push(play)
        if forced >= 2:
            break
    assert forced >= 2


@pytest.mark.parametrize("players", [2, 6, 8, 10])
def test_legal_at_every_seat_count(players):
    game = new_game("basic", players=players, seed=3)
    bots = [strong(s, iterations=1) if s % 2 == 0 else make_bot("greedy", random.Random(s))
            for s in range(players)]
    _play_checked(game, bots, 150)


@pytest.mark.parametrize("preset,players", [("carbles", 2), ("carbles", 3), ("carbles", 6),
                                            ("carbles_partnership", 6),
                                            ("carbles_partnership", 8), ("tock3", 3)])
def test_legal_at_every_related_seat_layout(preset, players):
    game = new_game(preset, players=players, seed=3)
    bots = [strong(s, iterations=1) if s % 2 == 0 else make_bot("greedy", random.Random(s))
            for s in range(players)]
    _play_checked(game, bots, 150)


def test_discards_without_searching_when_nothing_moves():
    game = new_game("basic", players=4, seed=1)
    game.hands[game.seat] = ["8D", "3C", "9S", "JK", "10C", "7H"]
    bot = strong()
    play = bot.choose(game, game.legal_plays())
    assert play.move.kind == "discard" and play.card == "3C"
    assert bot.last.iterations == 0


def _midgame(preset="basic", turns=120, seed=4):
    game = new_game(preset, players=4, seed=seed)
    bot = make_bot("greedy", random.Random(0))
    for _ in range(turns):
        game._push(bot.choose(game, game.legal_plays()))
    while len(game.legal_plays()) < 3:
        game._push(bot.choose(game, game.legal_plays()))
    return game


def test_thinks_within_its_time_budget():
    game = _midgame()
    bot = StrongBot(random.Random(0), think_ms=60, iterations=100_000)
    view = game.player_view(game.actor)
    t = time.thread_time()   # the bot's own work: CPU time, which a loaded machine doesn't stretch
    d = bot.decide(view)
    took = time.thread_time() - t
    assert d.iterations >= 1
    assert d.iterations < 100_000  # the clock stopped it, not the cap
    assert took < 1.0, took        # 60 ms plus one deal's work


def test_doubts_when_the_declared_card_cannot_be_real():
    # one deck: four kings; this seat holds all four, so a declared king is a bluff
    rules = {"preset": "bluffing_joker", "options": {"decks": 1}}
    game = new_game(rules, players=4, seed=2)
    bot = make_bot("greedy", random.Random(0))
    while True:
        while game.phase != "play":
            game._push(bot.choose(game, game.legal_plays()))
        declarer = game.seat
        doubter = (declarer + 1) % 4
        kings = [p for p in game.legal_plays() if p.move.rank == "K" and p.move.kind == "move"]
        if kings:
            break
        game._push(bot.choose(game, game.legal_plays()))
    # give the doubter every king (swapping cards with the stock keeps the shoe whole)
    hand = list(game.hands[doubter])
    for i, k in enumerate(("KS", "KH", "KD", "KC")):
        for holder in range(4):
            if k in game.hands[holder] and holder != doubter:
                game.hands[holder] = [c for c in game.hands[holder] if c != k] + [hand[i]]
        if k in game.shoe.stock:
            game.shoe.stock[game.shoe.stock.index(k)] = hand[i]
        hand[i] = k
    game.hands[doubter] = hand
    card = next(c for c in game.hands[declarer] if c != "JK")
    game._push(type(kings[0])(kings[0].move, card))
    assert game.phase == "doubt" and game.actor == doubter
    plays = game.legal_plays()
    b = strong()
    assert b.choose(game, plays).move.kind == "doubt"
    assert b.last.p_real == 0.0


def test_the_chance_a_declared_card_is_real_follows_the_unseen_cards():
    game = _midgame("bluffing_joker", turns=0)
    from companion.strong import _Seen
    bot = strong()
    seen = _Seen(game.player_view(game.seat))
    other = (game.seat + 1) % 4
    p_joker = bot._p_real(seen, other, "JK")   # 8 jokers in the shoe
    p_seven = bot._p_real(seen, other, "7")    # 16 sevens
    assert 0 < p_joker < p_seven < 1


def test_small_match_against_random():
    # a broken planner (a random choice, a wrong sign) would lose some of these
    wins = 0
    for i in range(4):
        game = new_game("basic", players=4, seed=game_seed(5, i))
        seats = (1, 3) if i % 2 else (0, 2)
        bots = [strong(bot_seed(5, i, s), iterations=2) if s in seats
                else make_bot("random", random.Random(bot_seed(5, i, s))) for s in range(4)]
        play_game(game, bots)
        wins += game.side_seat[game.position.teams[game.winner][0]] in seats
    assert wins == 4


def _match_vs_greedy(make_side, games, seed=0, preset="basic"):
    """Wins of the side made by `make_side(rng)` against greedy, seats alternated over the
    same deals as tests/benchmarks/bench_bots.py (game i: deal of pair i // 2)."""
    wins = 0
    for i in range(games):
        pair, swap = divmod(i, 2)
        game = new_game(preset, players=4, seed=game_seed(seed, pair))
        seats = (1, 3) if swap else (0, 2)
        bots = [make_side(random.Random(bot_seed(seed, i, s))) if s in seats
                else make_bot("greedy", random.Random(bot_seed(seed, i, s))) for s in range(4)]
        play_game(game, bots)
        wins += game.side_seat[game.position.teams[game.winner][0]] in seats
    return wins


@pytest.mark.slow   # a strength match, not a rule (about 10 s of CPU): .ci/run's slow part
def test_small_match_against_greedy():
    # 16 basic games at 4 deals a decision (about 10 s of CPU): the strong team
    # won 12 on these seeds; its one-ply screen alone (1 deal) won 9, and greedy
    # in its seats 6, so a search that stops helping fails this
    wins = _match_vs_greedy(lambda rng: StrongBot(rng, think_ms=None, iterations=4), 16)
    assert wins >= 11, wins
    # the seeds are not an easy draw for whoever sits there
    assert _match_vs_greedy(lambda rng: make_bot("greedy", rng), 16) < 11


def test_hint_reasons_in_words():
    game = new_game("basic", players=4, seed=2)
    seat = game.seat
    side = game.seat_side[seat]
    opp = game.seat_side[(seat + 1) % 4]
    pos = game.position
    pos.occ[side] = 1 << 20
    pos.start[side] = 4
    pos.occ[opp] = 1 << 25
    pos.start[opp] = 4
    game.hands[seat] = ["5C", "4D", "2S", "3H", "6D", "9C"]
    names = {side: "Red", opp: "Blue"}
    view = game.player_view(seat)
    move = Move("5", "move", ((side, 20, 25),))
    text = reason(view, move, "5C", names=names)
    assert text.startswith("hits Blue's peg") and "holes from home" in text
    s = suggest(view, random.Random(0), names, think_ms=None, iterations=4)
    assert s["move"] == "5 %d:M20-M25" % side and s["card"] == "5C"
    assert "Blue" in s["reason"]


def test_pegs_simulate_with_levels_prints_intervals(capsys):
    from companion.cli import main
    assert main(["simulate", "--bots", "hard,medium", "--games", "2", "--think-ms", "5"]) == 0
    out = capsys.readouterr().out
    assert "bots by seat: hard, medium" in out
    assert out.count("95% interval") == 2
    assert main(["simulate", "--bots", "hard,clever", "--games", "1"]) == 2
    assert "unknown bot 'clever'" in capsys.readouterr().err


def test_levels():
    from companion.bots import EasyBot, GreedyBot
    assert isinstance(make_bot("hard", random.Random(0)), StrongBot)
    assert type(make_bot("medium", random.Random(0))) is GreedyBot
    assert isinstance(make_bot("easy", random.Random(0)), EasyBot)
    assert make_bot("hard", random.Random(0), think_ms=40).think_ms == 40


# The strong bot's Pegs and Jokers decisions, hashed: the related games' code
# (companion/strong_related.py) must not change them (taken at fc2b8f1). A deliberate change of
# the Pegs and Jokers strong bot updates these figures (and says so).
PEGS_DECISIONS = {
    ("alaska", 4): "c3ef003aa7610018",
    ("arizona", 4): "e04edafd0d987cb0",
    ("basic", 4): "1d9ba9728f107d10",
    ("bluffing_joker", 4): "68a95a28f9873f79",
    ("kilpatrick", 4): "f71c1e0db6b6c925",
    ("north_carolina", 4): "f293feebbd1eeac7",
    ("pegoo", 4): "6ecb1287b3b3178c",
    ("social_security", 4): "3a97c0bcdf5d4cdc",
    ("wizard_woodworks", 4): "c8349f38fec9e4ef",
    ("basic", 2): "2b4f6fff36267e91",
    ("basic", 6): "3872fe1bd1ea7fc8",
}


def _decisions_digest(preset, players, plies=40, seed=7):
    import hashlib
    game = new_game(preset, players=players, seed=seed)
    bots = [StrongBot(random.Random(s), think_ms=None, iterations=3) if s % 2 == 0
            else make_bot("greedy", random.Random(s)) for s in range(players)]
    h = hashlib.sha256()
    for _ in range(plies):
        if game.is_over():
            break
        play = bots[game.actor].choose(game, game.legal_plays())
        h.update(f"{play.move.text(game.position.geo)}|{play.card};".encode())
        game.push(play)
    return h.hexdigest()[:16]


def test_pegs_and_jokers_decisions_unchanged():
    assert set(p for p, _ in PEGS_DECISIONS) == set(PRESETS)
    got = {key: _decisions_digest(*key) for key in PEGS_DECISIONS}
    assert got == PEGS_DECISIONS


def _related_view(preset, hand, pegs=None, phase=None):
    """The acting seat's view of a fresh related game, with `hand` and the pegs set."""
    game = new_game(preset, players=4, seed=5)
    seat = game.actor
    old = game.hands[seat]
    game.hands = [list(h) for h in game.hands]
    game.hands[seat] = list(hand) + old[len(hand):len(old)] if len(hand) < len(old) else list(hand)
    if pegs:
        pos = game.position
        for side, (holes, in_start) in pegs.items():
            pos.occ[side] = sum(1 << h for h in holes)
            pos.start[side] = in_start
    view = game.player_view(seat)
    if phase:
        view["phase"] = phase
    return game, seat, view


def test_passes_the_partner_the_card_that_brings_its_pegs_out():
    # TK-V4.1: its own pegs are all out, the partner's all in start: the king
    # brings one of the partner's out, and the low cards are worth more to itself
    game, seat, _ = _related_view("tock_partnership", ["2H", "KS", "3C", "5D", "9S"])
    assert game.phase == "give"
    me, partner = game.seat_side[seat], game.seat_side[game.partner(seat)]
    pos = game.position
    pos.occ[me] = (1 << 3) | (1 << 20) | (1 << 30) | (1 << 40)
    pos.start[me] = 0
    play = strong().choose(game, game.legal_plays())
    assert play.move.kind == "give" and play.move.steps == (partner,)
    assert play.card == "KS"


def test_a_forced_discard_gives_up_the_least_useful_card():
    # JR-P5: pegs in start, so the ace (comes out) and the king are kept
    game, seat, view = _related_view("jackaroo", ["AS", "KH", "2C", "AD"], phase="forced")
    view["actor"] = seat
    d = strong().decide(view)
    assert d.move.kind == "discard" and d.card == "2C"


def test_hints_for_the_related_phases_in_words():
    game, seat, _ = _related_view("tock_partnership", ["2H", "KS", "3C", "5D", "9S"])
    me, partner = game.seat_side[seat], game.seat_side[game.partner(seat)]
    game.position.occ[me] = (1 << 3) | (1 << 20) | (1 << 30) | (1 << 40)
    game.position.start[me] = 0
    s = suggest(game.player_view(seat), random.Random(0), {partner: "Green"}, think_ms=None,
                iterations=2)
    assert s["kind"] == "give" and s["card"] == "KS"
    assert s["reason"].startswith("pass the king to your partner Green")
    _, seat, view = _related_view("jackaroo", ["AS", "KH", "2C", "AD"], phase="forced")
    view["actor"] = seat
    s = suggest(view, random.Random(0), None, think_ms=None, iterations=2)
    assert s["reason"] == "a 10 makes you discard: let go of the 2, the least useful to your pegs"


@pytest.mark.parametrize("preset", ["tock", "tock_partnership", "jackaroo", "carbles"])
def test_decide_is_legal_in_every_turn_of_the_related_games(preset):
    # the server asks decide(view) even when there is one play (the whole hand
    # given up when stuck, TK-P3): it must be a legal play every time
    game = new_game(preset, players=4, seed=9)
    driver = make_bot("greedy", random.Random(1))
    kinds = set()
    for turn in range(300):
        if game.is_over():
            break
        plays = game.legal_plays()
        d = strong(turn, iterations=1).decide(game.player_view(game.actor))
        assert (d.move, d.card) in [(p.move, p.card) for p in plays], (game.phase, d)
        kinds.add(d.move.kind)
        game._push(driver.choose(game, plays))
    assert "move" in kinds


def test_keeps_to_its_time_budget_in_the_related_games():
    game = _midgame("jackaroo", turns=60)
    bot = StrongBot(random.Random(0), think_ms=60, iterations=100_000)
    while True:
        view = game.player_view(game.actor)
        t = time.thread_time()   # CPU time of the decision, not the loaded machine's wall clock
        d = bot.decide(view)
        took = time.thread_time() - t
        if d.iterations:
            break
        game._push(make_bot("greedy", random.Random(0)).choose(game, game.legal_plays()))
    assert d.iterations < 100_000  # the clock stopped it, not the cap
    assert took < 1.0, took


@pytest.mark.parametrize("preset", ["tock_partnership", "jackaroo"])
def test_the_unseen_cards_hold_every_other_hand(preset):
    # the cards played this deal cycle are left out of the deals it samples
    # (TK-C2); never one that another hand really holds
    from collections import Counter
    from companion.families.tock.position import card_rank
    from companion.strong import _Seen
    game = new_game(preset, players=4, seed=11)
    driver = make_bot("greedy", random.Random(0))
    fewer = 0
    for _ in range(300):
        if game.is_over():
            break
        if game.phase == "play":
            seen = _Seen(game.player_view(game.actor))
            pool = Counter(seen.pool)
            others = Counter(card_rank(game.rules, c) for s, h in enumerate(game.hands)
                             if s != game.actor for c in h)
            assert not others - pool
            fewer += len(seen.pool) < 52 - len(game.hands[game.actor])
        game._push(driver.choose(game, game.legal_plays()))
    assert fewer > 50
