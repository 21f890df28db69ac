"""Property tests (hypothesis) of the notation, push/pop and game records.

(a) Notation round trip (NOTATION.md): for positions reached by seeded
    random play and for synthetic positions, position_to_json ->
    position_from_json -> position_to_json is identical, and every legal
    move's text parses back to an equal Move.
(b) push then pop restores the position exactly (pegs, to_move, counting),
    on Position and on Game (hands, stock, discard, phase, pending, turn,
    history), including pushes that reshuffle the discard pile (C4); and a
    move pushed again after its pop gives the same state as the first time.
(c) Replay: Game.from_record(game.record()) reaches an identical state, for
    seeded games and for games shuffled with the system source whose
    shuffles are recorded.
"""
from __future__ import annotations

import json
import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.families import new_game
from companion.game import Game
from companion.moves import Move
from companion.notation import position_from_json, position_to_json

from tests.companion import sampling

# Every preset at every layout is allowed; hypothesis picks.
ALL_CONFIGS = sorted({*sampling.CONFIGS,
                      *((p, n, t) for p in sampling.PRESETS for n, t in sampling.LAYOUTS)})
configs = st.sampled_from(ALL_CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
# the fast suite's examples a property; test_slow_replay_and_push_pop (-m slow) draws 306 games
# longer than these and checks replay, push/pop and the notation round trip on each
PROFILE = settings(max_examples=20, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])
PARSE_ALL_UP_TO = 300   # parse (with its legality check) every move up to this many ...
PARSE_SAMPLE = 120      # ... else this many chosen at random: parse_move re-generates moves


def advance(cfg, seed, n):
    """A seeded game after up to n random actions (stops early when over)."""
    preset, players, teams = cfg
    game = new_game(rules=preset, players=players, teams=teams, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(n):
        if game.is_over():
            break
        game._push(sampling.bot_choice(game, rng))
    return game, rng


def game_state(game):
    """Everything a pop must restore and a replay must reproduce."""
    pos = game.position
    return {
        "position": position_to_json(pos),
        "key": pos.key(),
        "counting": list(pos.counting),
        "hands": [list(h) for h in game.hands],
        "stock": list(game.shoe.stock),
        "discard": list(game.shoe.discard),
        "reshuffles": game.shoe.reshuffles,
        "phase": game.phase,
        "pending": repr(game.pending),
        "turn": game.turn,
        "winner": game.winner,
        "extra_turns": list(game.extra_turns),
        "top_hidden": game.top_hidden,
        "history": json.dumps(game.history, sort_keys=True),
    }


def check_round_trip(pos, rng):
    data = position_to_json(pos)
    again = position_to_json(position_from_json(json.loads(json.dumps(data))))
    assert again == data
    geo = pos.geo
    moves = list(pos.legal_moves())
    for move in moves:  # syntax round trip for every move
        assert Move.from_text(move.text(geo), geo, pos.sides) == move, move.text(geo)
    if len(moves) > PARSE_ALL_UP_TO:
        moves = rng.sample(moves, PARSE_SAMPLE)
    for move in moves:  # with the legality check
        assert pos.parse_move(move.text(geo)) == move, move.text(geo)


# ------------------------------------------------------------ (a) notation
@PROFILE
@given(cfg=configs, seed=seeds, n=st.integers(0, 700))
def test_notation_round_trip_played(cfg, seed, n):
    game, rng = advance(cfg, seed, n)
    check_round_trip(game.position, rng)


@PROFILE
@given(seed=seeds, preset=st.sampled_from(sampling.PRESETS),
       mix=st.sampled_from(sampling.OPTION_MIXES))
def test_notation_round_trip_synthetic(seed, preset, mix):
    rng = random.Random(seed)
    d = sampling.random_position(rng, preset, mix, layouts=((2, None), (4, 2), (6, 3), (8, 4)))
    pos = position_from_json(d)
    assert position_to_json(pos)["pegs"] == d["pegs"]
    check_round_trip(pos, rng)


def test_counting_beyond_ten_round_trips():
    """A legal discard can raise a count past 10 (V-NC7: a player with no peg
    in start keeps counting while stuck), but position_from_json rejects
    counting above 10, so position_to_json's output can't be read back.

    Known engine failure: NOTATION.md sets no upper bound on `counting`.
    """
    d = {"format": "pegs-and-jokers/position/1", "rules": "north_carolina", "sides": 4,
         "teams": [[0, 2], [1, 3]],
         "pegs": {"0": ["M47", "H2", "H3", "H4", "H5"], "1": ["S"] * 5,
                  "2": ["S", "S", "S", "S", "M39"], "3": ["S"] * 5},
         "to_move": 0, "counting": {"0": 10}}
    pos = position_from_json(d)
    # Holding only an 8: backward 8 from M47 would land on partner 2 standing on its
    # in-spot M39 (R8), and no peg is in start, so the discard is legal (P7).
    move = pos.parse_move("8 discard", ["8"])
    pos.push(move)
    out = position_to_json(pos)
    assert out["counting"] == {"0": 11}
    assert position_to_json(position_from_json(out)) == out


# ------------------------------------------------------------ (b) push/pop
@PROFILE
@given(cfg=configs, seed=seeds, n=st.integers(0, 500))
def test_position_push_pop_restores(cfg, seed, n):
    game, rng = advance(cfg, seed, n)
    pos = game.position.copy()
    before = (pos.pegs(), pos.to_move, list(pos.counting), pos.key(), position_to_json(pos))
    moves = list(pos.legal_moves())
    if len(moves) > 200:
        moves = rng.sample(moves, 200)
    for move in moves:
        pos.push(move)
        pushed = pos.key()
        pos.pop()
        assert (pos.pegs(), pos.to_move, list(pos.counting), pos.key(),
                position_to_json(pos)) == before, move.text(pos.geo)
        pos.push(move)  # deterministic: the same move gives the same position again
        assert pos.key() == pushed
        pos.pop()


def _check_game_push_pop(game, rng, limit=40):
    before = game_state(game)
    plays = game.legal_plays()
    if len(plays) > limit:
        plays = rng.sample(plays, limit)
    for play in plays:
        game._push(play)
        after = game_state(game)
        game.pop()
        assert game_state(game) == before, play
        game._push(play)  # a redo after the undo reaches the same state (rng rewound)
        assert game_state(game) == after, play
        game.pop()
        assert game_state(game) == before, play


@PROFILE
@given(cfg=configs, seed=seeds, n=st.integers(0, 500))
def test_game_push_pop_restores(cfg, seed, n):
    game, rng = advance(cfg, seed, n)
    _check_game_push_pop(game, rng)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=st.sampled_from(sampling.CONFIGS), seed=seeds)
def test_game_push_pop_across_reshuffle(cfg, seed):
    """Play on while the stock is empty, so that the next draw reshuffles the
    discard pile (C4): every action there undoes exactly, the reshuffle
    included, until a reshuffle has really happened twice."""
    game, rng = advance(cfg, seed, 0)
    seen = 0
    while not game.is_over() and seen < 2:
        if not game.shoe.stock:
            reshuffles = game.shoe.reshuffles
            _check_game_push_pop(game, rng, limit=25)
            game._push(sampling.bot_choice(game, rng))
            seen += game.shoe.reshuffles - reshuffles
        else:
            game._push(sampling.bot_choice(game, rng))
    assert seen == 2 or game.is_over()


# ------------------------------------------------------------- (c) replay
@PROFILE
@given(cfg=configs, seed=seeds, n=st.integers(0, 900))
def test_replay_from_record(cfg, seed, n):
    game, _ = advance(cfg, seed, n)
    record = json.loads(json.dumps(game.record()))
    replay = Game.from_record(record)
    assert game_state(replay) == game_state(game)
    assert replay.record() == game.record()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, seed=seeds, n=st.integers(0, 900))
def test_replay_from_recorded_shuffles(cfg, seed, n):
    """A game dealt from the system random source (C5) records its shuffles;
    replaying them reaches the same state (the source is seeded here only to
    make a failure reproducible)."""
    with mock.patch("companion.game.secrets.SystemRandom", lambda: random.Random(seed)):
        preset, players, teams = cfg
        game = new_game(rules=preset, players=players, teams=teams)
    rng = random.Random(seed)
    for _ in range(n):
        if game.is_over():
            break
        game._push(sampling.bot_choice(game, rng))
    record = json.loads(json.dumps(game.record()))
    assert "shuffles" in record and "seed" not in record
    replay = Game.from_record(record)
    state, want = game_state(replay), game_state(game)
    assert state == want


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=st.sampled_from(sampling.CONFIGS), seed=seeds, extra=st.integers(0, 60))
def test_replay_after_undoing_a_reshuffle(cfg, seed, extra):
    """Undo (pop) a push that reshuffled the discard pile, play on, and the
    record still replays to the same state: with recorded shuffles (C5) and
    with a seed."""
    for system in (True, False):
        preset, players, teams = cfg
        if system:
            with mock.patch("companion.game.secrets.SystemRandom",
                            lambda: random.Random(seed)):
                game = new_game(rules=preset, players=players, teams=teams)
        else:
            game = new_game(rules=preset, players=players, teams=teams, seed=seed)
        rng = random.Random(seed)
        undone = False
        while not game.is_over() and not undone:
            if not game.shoe.stock:
                reshuffles = game.shoe.reshuffles
                game._push(sampling.bot_choice(game, rng))
                if game.shoe.reshuffles > reshuffles:
                    game.pop()
                    undone = True
                    continue
            game._push(sampling.bot_choice(game, rng))
        for _ in range(extra):
            if game.is_over():
                break
            game._push(sampling.bot_choice(game, rng))
        replay = Game.from_record(json.loads(json.dumps(game.record())))
        assert game_state(replay) == game_state(game), "system" if system else "seeded"


class _Unrewindable:
    """Like secrets.SystemRandom: shuffles, but has no state to save or restore
    (so an undone reshuffle is followed by a different one); seeded here only
    to make a failure reproducible."""

    def __init__(self, seed):
        self._rng = random.Random(seed)

    def shuffle(self, cards):
        self._rng.shuffle(cards)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=st.sampled_from(sampling.CONFIGS), seed=seeds, extra=st.integers(0, 40))
def test_new_shuffles_logged_live_replay_the_game(cfg, seed, extra):
    """A live store's way of keeping a game dealt from the system source: after
    every change append `take_new_shuffles()` and the action. A game built with
    ``shuffles=`` the stored ones and given the stored actions (undo included,
    across a reshuffle and the different one after it) is the same game, and
    makes no fresh shuffle of its own."""
    preset, players, teams = cfg
    with mock.patch("companion.game.secrets.SystemRandom", lambda: _Unrewindable(seed)):
        game = new_game(rules=preset, players=players, teams=teams, shuffles=())
    assert game.seed is None and "shuffles" in game.record()
    stored = game.take_new_shuffles()
    assert len(stored) == 1 and game.take_new_shuffles() == []
    actions = []
    rng = random.Random(seed)

    def act():
        play = sampling.bot_choice(game, rng)
        game._push(play)
        actions.append((play.move.text(game.position.geo), play.card))
        stored.extend(game.take_new_shuffles())

    undone = reshuffles_after = 0
    while not game.is_over() and reshuffles_after < 1:
        before = game.shoe.reshuffles
        act()
        if game.shoe.reshuffles > before:
            if not undone:
                game.pop()
                actions.append(None)
                stored.extend(game.take_new_shuffles())
                undone = len(stored)
            else:
                reshuffles_after += 1
    for _ in range(extra):
        if game.is_over():
            break
        act()
    if undone:  # the undone reshuffle stays logged (play-back never rewinds); not in the record
        assert len(game.record()["shuffles"]) == len(stored) - 1
    else:
        assert game.record()["shuffles"] == stored
    again = new_game(rules=preset, players=players, teams=teams, shuffles=stored)
    for entry in actions:
        if entry is None:
            again.pop()
        else:
            again.push_text(*entry)
    assert again.take_new_shuffles() == []
    assert game_state(again) == game_state(game)
    assert again.record() == game.record()


# one test a preset, 34 games each (306 in all, every preset as many), so that .ci/run's
# workers share them: as one test of 300 games it held one worker for minutes
@sampling.slow
@pytest.mark.parametrize("preset", sampling.PRESETS)
@settings(max_examples=34, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds, n=st.integers(0, 3000))
def test_slow_replay_and_push_pop(preset, data, seed, n):
    cfg = data.draw(st.sampled_from([c for c in ALL_CONFIGS if c[0] == preset]), label="cfg")
    game, rng = advance(cfg, seed, n)
    assert game_state(Game.from_record(game.record())) == game_state(game)
    _check_game_push_pop(game, rng, limit=10)
    check_round_trip(game.position, rng)
