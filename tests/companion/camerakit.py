"""Games replayed through the referee as a camera would see them: after every move the
camera's per-hole readings of the true board, with a noise model, go to `Referee`; counts
what the referee did with each move (taken, taken wrongly, asked the phone, ...).

Shared by tests/companion/test_referee_camera.py and tests/benchmarks/bench_readings.py.
The noise model stands in for a real hard-light set (the vision layer measures its own):
each hole is misread with probability `err` (unsurely: the wrong answer at 0.5-0.85), misread
surely with probability `sure_err` (0.9-0.97), else read right: unsurely (0.6-0.9) with
probability `unsure`, else at 0.9-0.995; a peg's colour
is right at 0.6-0.95, or (probability `colour_err`) another side's at 0.35-0.7.
"""
from __future__ import annotations

import random
from collections import Counter

from companion.families import new_game
from companion.bots import make_bot
from companion.game import PLAY, Game
from companion.matching import all_holes, board_of_pegs
from companion.moves import DISCARD
from companion.referee import GameView, Referee

NAMES = ["Ann", "Bob", "Cy", "Di"]
COLOURS = ["Red", "Blue", "Green", "Yellow"]


def noisy_readings(board: dict, holes, sides, rng: random.Random, *, err=0.0275, sure_err=0.0,
                   colour_err=0.05, unsure=0.1) -> dict:
    out = {}
    for h in holes:
        side = board.get(h)
        filled = side is not None
        r = rng.random()
        if r < sure_err:
            flip, conf = True, rng.uniform(0.9, 0.97)
        elif r < sure_err + err:
            flip, conf = True, rng.uniform(0.5, 0.85)
        elif rng.random() < unsure:
            flip, conf = False, rng.uniform(0.6, 0.9)
        else:
            flip, conf = False, rng.uniform(0.9, 0.995)
        looks_filled = filled != flip
        p = conf if looks_filled else 1 - conf
        if not looks_filled:
            out[h] = (p, None, 0.0)
        elif filled and rng.random() >= colour_err:
            out[h] = (p, side, rng.uniform(0.6, 0.95))
        else:
            out[h] = (p, rng.choice([s for s in sides if s != side]), rng.uniform(0.35, 0.7))
    return out


def replay(preset="basic", seed=0, moves=100, noise_seed=0, margin=None, **noise) -> Counter:
    """Bots play; every move made with pegs is shown to the referee through noisy readings.
    Counts: taken, wrong (a move taken that was not made), asked (the phone asked; the true
    move among the candidates), asked_without (asked, the true move not offered), refused
    (judged wrong), waited (no decision), not_ready (the board not taken as right before)."""
    rng = random.Random(noise_seed)
    game = new_game(preset, 4, seed=seed)
    bots = [make_bot("greedy", random.Random(seed * 10 + i)) for i in range(4)]
    ref = Referee(sensing=True, settle=0.5)
    if margin is not None:
        ref.MARGIN = margin
    geo = game.position.geo
    holes = all_holes(geo, game.seat_side)
    version, t = 1, 0.0
    counts = Counter()

    def view():
        return GameView.of(game, version, names=NAMES, colour_names=COLOURS)

    def show(pegs):
        ref.observe_readings(noisy_readings(board_of_pegs(ref.pos, pegs), holes, game.seat_side, rng, **noise), t)

    ref.update_game(view(), t)
    while counts["moves"] < moves and not game.is_over():
        play = bots[game.actor].choose(game, game.legal_plays())
        if game.phase != PLAY or play.move.kind == DISCARD or not play.move.steps:
            game.push(play.move, play.card)
            version += 1
            ref.update_game(view(), t)
            continue
        counts["moves"] += 1
        pos = game.position.copy()
        t += 1.0
        show(pos.pegs())
        ref.update_game(view(), t)
        if ref.state != "ready":
            counts["not_ready"] += 1
        else:
            ref.choose(game.actor, play.card, play.move.rank, version, t)
            t += 0.3
            truth = pos.result_of(play.move)
            show(truth)
            t += 1.0
            commit = ref.judge(t)
            if commit is not None:
                counts["taken" if pos.result_of(commit.move) == truth else "wrong"] += 1
            elif ref.state == "ambiguous":
                offered = any(c["move"] == play.move.text(geo) for c in ref.candidates)
                counts["asked" if offered else "asked_without"] += 1
                counts["asked_doubtful_named"] += bool(ref.doubtful)
            elif ref.state == "wrong":
                counts["refused"] += 1
            else:
                counts["waited"] += 1
        game.push(play.move, play.card)
        version += 1
        t += 1.0
        ref.update_game(view(), t)
    return counts
