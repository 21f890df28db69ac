"""Random playouts: seeded random games over every seat count and team
layout (RULES G1, T1) and every preset at 4 players, checking invariants
after EVERY action:

* pegs conserved: each side has pegs_per_side pegs (G5);
* at most one peg per main-track hole (M7), no two pegs of one colour in
  one home hole (M2, G4), every location on the board;
* cards conserved: stock + hands + discard pile + a card awaiting doubts
  (V-BJ) is exactly the shoe (C1, C4);
* hand sizes: at rest the player to act holds hand_size + 1 when drawing
  first, hand_size when drawing after, every other player hand_size (C2, C3,
  R3); while a Bluffing Joker card awaits doubts its player holds one less;
* there is always a legal action, and a discard is offered only when P7/R12
  allow it;
* counting (V-NC7): a discard adds one to the player's count, any move resets it;
* M10: the game ends exactly when a team has every peg home, with that team
  the winner; every game ends within 50,000 turns.

Bluffing Joker bots play honestly most of the time and doubt at random.
The fast suite plays one whole game a configuration (about 20 s of CPU in all); `-m slow`
plays twenty more of each.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.families import new_game
from companion.board import START
from companion.cards import make_shoe, rank_of
from companion.moves import DISCARD, FREE, MOVE, SWAP

from tests.companion import sampling

MAX_TURNS = 50_000


def full_shoe(rules, players):
    no_jokers = players == 2 and rules.two_players_no_jokers
    return Counter(make_shoe(rules.decks, 0 if no_jokers else rules.jokers_per_deck,
                             0 if no_jokers else rules.extra_jokers))


def check_pegs(game):
    pos, rules = game.position, game.rules
    L = pos.geo.length
    pegs = pos.pegs()
    assert sorted(pegs) == sorted(game.seat_side), "G1: one colour per seat"
    main = Counter()
    for side, locs in pegs.items():
        assert len(locs) == rules.pegs_per_side, f"G5: side {side} has {len(locs)} pegs"
        home = [loc for loc in locs if loc >= L]
        assert len(home) == len(set(home)), f"M2: side {side} doubles a home hole: {locs}"
        assert all(loc == START or 0 <= loc < L + 5 for loc in locs), locs
        main.update(loc for loc in locs if 0 <= loc < L)
    doubled = [h for h, n in main.items() if n > 1]
    assert not doubled, f"M7: main-track holes with two pegs: {doubled}"


def check_cards(game, shoe):
    cards = Counter(game.shoe.stock)   # (update, not +: checked after every action)
    cards.update(game.shoe.discard)
    for hand in game.hands:
        cards.update(hand)
    if game.pending and "card" in game.pending:
        cards[game.pending["card"]] += 1
    assert cards == shoe, f"C1/C4: cards not conserved: {(cards - shoe) or -(shoe - cards)}"


def check_hands(game):
    h = game.rules.hand_size
    first = game.rules.draw == "first"
    if game.is_over():  # M10: no card is drawn after the winning move
        sizes = sorted(len(hand) for hand in game.hands)
        want = [h] * game.players if first else [h - 1] + [h] * (game.players - 1)
        assert sizes == want, f"M10/C3: hand sizes at the end {sizes}, expected {want}"
        return
    if game.phase == "play":
        turn_seat, turn_size = game.seat, h + 1 if first else h
    else:  # V-BJ: the declared card lies face down; its player holds one less
        turn_seat = game.pending["seat"] if game.phase == "doubt" else game.pending["turn_seat"]
        turn_size = h if first else h - 1
    sizes = [len(hand) for hand in game.hands]
    want = [turn_size if s == turn_seat else h for s in range(game.players)]
    assert sizes == want, f"C2/C3/R3: hand sizes {sizes}, expected {want} ({game.phase})"


def check_win(game):
    pos = game.position
    done = [i for i, team in enumerate(pos.teams) if all(pos.all_home(c) for c in team)]
    if game.is_over():
        assert done == [game.winner], f"M10: over with winner {game.winner}, teams home {done}"
    else:
        assert not done, f"M10: team {done} has all pegs home but the game goes on"


def check_play_choice(game, plays):
    assert plays, "there must always be a legal action (a move or a discard, P7)"
    if game.phase != "play":
        return
    ranks = sorted({rank_of(c) for c in game.hands[game.seat]})
    discards = [p for p in plays if p.move.kind == DISCARD]
    allowed = game.position.discard_allowed(ranks)
    assert bool(discards) == allowed, f"P7/R12: discards offered {bool(discards)}, allowed {allowed}"
    if discards and not game.rules.forfeit and not game.rules.bluffing:
        non_joker = [p for p in plays if p.move.kind != DISCARD and p.move.rank != "JK"]
        assert not non_joker, "P7: a discard is offered although a non-joker card can move"


def play_checked(preset, players, teams, seed, doubt_rate=0.15):
    """Play a whole seeded game, checking every invariant after every action."""
    from companion.game import Game
    game = new_game(rules=preset, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    shoe = full_shoe(game.rules, players)
    counting = bool(game.rules.counting)
    check_pegs(game), check_cards(game, shoe), check_hands(game), check_win(game)
    actions = 0
    while not game.is_over():
        assert game.turn < MAX_TURNS, f"no winner after {MAX_TURNS} turns"
        plays = game.legal_plays()
        check_play_choice(game, plays)
        play = sampling.bot_choice(game, rng, doubt_rate=doubt_rate)
        before = list(game.position.counting)
        side, phase = game.position.to_move, game.phase
        game._push(play)
        actions += 1
        check_pegs(game)
        check_cards(game, shoe)
        check_hands(game)
        check_win(game)
        if counting and phase == "play" and not game.rules.bluffing:
            after = game.position.counting
            kind = play.move.kind
            want = list(before)
            if kind == DISCARD:
                want[side] += 1
            elif kind in (MOVE, SWAP, FREE):
                want[side] = 0
            assert list(after) == want, f"V-NC7: counting {before} -> {list(after)} after {kind}"
    return game, actions


# players x teams layouts for the basic game, and every preset at 4 players.
CONFIGS = sampling.CONFIGS


@pytest.mark.parametrize("cfg", CONFIGS, ids=sampling.config_id)
def test_playout_invariants(cfg):
    preset, players, teams = cfg
    # one whole game a configuration; test_slow_playout_invariants plays seeds 10-29 of each
    game, actions = play_checked(preset, players, teams, 1)
    assert game.is_over() and game.winner is not None


def test_bluffing_joker_doubts_happen():
    """The V-BJ bots doubt: both caught bluffs and wrong doubts occur."""
    seen = Counter()
    for seed in (4,):
        game, _ = play_checked("bluffing_joker", 4, 2, seed, doubt_rate=0.3)
        for entry in game.history:
            if entry["move"] == "doubt" or "revealed" in entry:
                seen["doubt"] += 1
            if "revealed" in entry:
                seen["revealed"] += 1
    assert seen["doubt"] > 0 and seen["revealed"] > 0, seen


@sampling.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=sampling.config_id)
def test_slow_playout_invariants(cfg):
    preset, players, teams = cfg
    for seed in range(10, 30 if players <= 4 else 18):
        game, _ = play_checked(preset, players, teams, seed)
        assert game.is_over()


@pytest.mark.slow   # 39 whole games per preset and layout: .ci/run's slow part
@pytest.mark.parametrize("players, teams", sampling.LAYOUTS)
@pytest.mark.parametrize("preset", [p for p in sampling.PRESETS if p != "basic"])
def test_playout_presets_every_layout(preset, players, teams):
    """Every preset at every seat count and team layout (issue: variants), every
    invariant after every action; about two minutes in all on this machine."""
    for seed in (1, 2):
        game, _ = play_checked(preset, players, teams, seed)
        assert game.is_over()


# ------------------------------------------------------- the related games
# Tock, Carbles and Jackaroo (RELATED-GAMES.md S): every preset and seat
# layout, with the switches, played to the end by a seeded random chooser,
# every invariant after every action: pegs and cards conserved, no two pegs
# in a hole, hands within the deal, a legal action always, the burn / discard
# hand offered exactly when no card can move, the win at once.
RELATED_LAYOUTS = (
    ("tock", 4, None), ("tock_partnership", 4, None), ("tock3", 3, None),
    ({"preset": "tock", "options": {"reverse_four": True, "ten_swap": True,
                                    "forced_five": True}}, 4, None),
    ({"preset": "tock_partnership", "options": {"ten_swap": True}}, 4, None),
    ("jackaroo", 4, None), ("jackaroo_individual", 4, None),
    ("carbles", 2, None), ("carbles", 2, 8), ("carbles", 3, None), ("carbles", 4, None),
    ("carbles", 3, 8), ("carbles", 5, None), ("carbles", 6, None), ("carbles", 4, 12),
    ({"preset": "carbles", "options": {"open_hand": True}}, 3, None),
    ("carbles_partnership", 4, None), ("carbles_partnership", 4, 6), ("carbles_partnership", 6, None),
    ("carbles_partnership", 8, None), ("carbles_partnership", 12, None),
)


def _related_id(cfg):
    rules, players, sides = cfg
    name = rules if isinstance(rules, str) else rules["preset"] + "+" + "+".join(rules["options"])
    return f"{name}-{players}p" + (f"-{sides}s" if sides else "")


def play_checked_related(rules, players, seed, sides=None):
    from companion.game import Game
    from companion.moves import HAND
    game = new_game(rules=rules, players=players, seed=seed, sides=sides)
    r = game.rules
    shoe = Counter(make_shoe(r.decks, r.jokers_per_deck, r.extra_jokers))
    rng = random.Random(seed)
    L = game.position.L
    while not game.is_over():
        assert game.turn < MAX_TURNS, f"no winner after {MAX_TURNS} turns"
        pos = game.position
        pegs = pos.pegs()
        main = Counter()
        for side, locs in pegs.items():
            assert len(locs) == r.pegs_per_side, f"TK-G5: side {side} has {locs}"
            assert all(loc == START or 0 <= loc < L + r.home_size for loc in locs), locs
            home = [loc for loc in locs if loc >= L]
            assert len(home) == len(set(home)), f"TK-M6: side {side} doubles a home hole"
            main.update(loc for loc in locs if 0 <= loc < L)
        assert not [h for h, n in main.items() if n > 1], "TK-M2: two pegs in one hole"
        cards = Counter(game.shoe.stock)
        cards.update(game.shoe.discard)
        for hand in game.hands:
            cards.update(hand)
        assert cards == shoe, "TK-C2/CB-C2: cards not conserved"
        assert max(len(h) for h in game.hands) <= max(r.deal) + r.pass_card
        assert any(game.hands), "a deal ends when every hand is empty"
        plays = game.legal_plays()
        assert plays, "there is always a legal action"
        if game.phase == "play":
            assert game.hands[game.seat], "a player with no cards is passed over (JR-P11)"
            ranks = {game.rank_of(c) for c in game.hands[game.seat]}
            game._sync()
            stuck = pos.discard_allowed(ranks)
            fallback = [p for p in plays if p.move.kind == (HAND if r.stuck == "hand" else DISCARD)]
            assert bool(fallback) == stuck, "TK-P2/CB-P4/JR-P9: fallback offered iff stuck"
            if stuck:
                assert all(p.move.kind in (HAND, DISCARD) for p in plays)
        game._push(rng.choice(plays))
    assert game.winner is not None
    team = game.position.teams[game.winner]
    assert all(game.position.all_home(c) for c in team), "TK-P5: the winners are all home"
    return game


def _replays(game):
    again = type(game).from_record(game.record())  # a game is a seed plus its moves
    assert again.position.pegs() == game.position.pegs() and again.is_over()


# the fast suite replays the record of the first layout of each preset and option set (a
# quarter of a layout's time is its replay); the slow part replays one game of every layout
FIRST_OF_ITS_RULES = {_related_id(cfg) for cfg in RELATED_LAYOUTS
                      if next(c for c in RELATED_LAYOUTS if c[0] == cfg[0]) == cfg}


@pytest.mark.parametrize("cfg", RELATED_LAYOUTS, ids=_related_id)
def test_related_playout_invariants(cfg):
    rules, players, sides = cfg
    for seed in (1,):   # one whole game a layout; test_slow_related_playout_invariants plays seeds 10-29
        game = play_checked_related(rules, players, seed, sides)
        if _related_id(cfg) in FIRST_OF_ITS_RULES:
            _replays(game)


@sampling.slow   # seeds 10-29 in two tests, which .ci/run's workers share (--dist load): as one,
@pytest.mark.parametrize("seeds", [range(10, 20), range(20, 30)], ids=["10-19", "20-29"])
@pytest.mark.parametrize("cfg", RELATED_LAYOUTS, ids=_related_id)   # the 12 players took 407 s
def test_slow_related_playout_invariants(cfg, seeds):
    rules, players, sides = cfg
    for seed in seeds:
        game = play_checked_related(rules, players, seed, sides)
        if seed == 10:
            _replays(game)
