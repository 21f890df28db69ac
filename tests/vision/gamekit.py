"""Games replayed on photo-like pictures (vision/render_hard.py): the camera side of issue 16.3.

Bots play a game on a standard 4-sided board; after every move made with pegs the board
is rendered under one camera set-up (calibrated once, from its set-up picture, with the
table's colour names) and read. Two ways of using a picture are counted:

* the position alone (``pegs vision detect``'s way): every hole read with confidence >= 0.8;
  a position read that is not the true board is a *false position*;
* the referee's way: the readings (p_peg, side, p_side) scored by
  ``companion.readings.decide`` against the candidate boards: the board as it was and the
  result of each legal move of the card played. ``taken``: decide chose the true result;
  ``wrong``: it chose another board; ``asked``: no board won by the margin (the phone asks).

Pictures with a hand over the board are read too: a position must not be read from them,
and decide must not take a wrong move from them.

Shared by tests/vision/test_vision_hard.py (a small fixed-seed set) and
tests/benchmarks/bench_vision.py (the big one).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from companion.families import new_game
from companion.bots import make_bot
from companion.game import PLAY, Game
from companion.matching import board_of_pegs
from companion.moves import DISCARD
from companion.readings import decide
from vision.calibration import calibrate
from vision.detect import EMPTY, UNKNOWN, Classifier, HoleSampler, read_holes
from vision.layout import standard_layout
from vision.position import settle_by_count
from vision.render import LEVELS, coloured, make_scene, render_scene, setup_pegs
from vision.render_hard import TABLE_COLOURS, TABLE_NAMES, hand_over_board, make_hard_scene, render_hard


def _key(board: dict):
    return frozenset(board.items())


def position_read(reading, min_confidence: float = 0.8):
    """{hole: side} if every hole was read surely (the stable tracker's rule), else None."""
    if any(v == UNKNOWN or reading.confidence[h] < min_confidence for h, v in reading.labels.items()):
        return None
    return {h: int(v) for h, v in reading.labels.items() if v != EMPTY}


def position_counted(reading, layout, sides, min_confidence: float = 0.8, pegs_per_side: int | None = None):
    """{hole: side} as ``pegs vision detect`` reads it: every hole read surely, or the few that
    aren't settled by the peg count (vision.position.settle_by_count); else None."""
    labels, settled = settle_by_count(reading, layout, sides, pegs_per_side, min_confidence=min_confidence)
    if any(h not in settled and (v == UNKNOWN or reading.confidence[h] < min_confidence)
           for h, v in labels.items()):
        return None
    return {h: int(v) for h, v in labels.items() if v != EMPTY}


# issue 23's room set-ups: every colour a group owns, black and white included
ROOM_SETS = [(["black", "white", "red", "#1a3a8c", "green", "yellow", "orange", "teal"],
              ["black", "white", "red", "blue", "green", "yellow", "orange", "teal"]),
             (["yellow", "black", "green", "white", "teal", "#1a3a8c", "red", "orange"],
              ["yellow", "black", "green", "white", "teal", "blue", "red", "orange"])]
# the picture a board of n sides needs (docs/CAMERA.md: about 1 px/mm or more)
ROOM_SIZES = {4: (1280, 720), 6: (1920, 1080), 8: (3840, 2160)}


class CameraSetUp:
    """One camera set-up of the hard set: scene, calibration, sampler and classifier."""

    def __init__(self, seed: int, level="hard", layout=None, empty_picture: bool = False, size=None):
        """``empty_picture``: calibrate with a second picture, of the empty board (``--empty``)."""
        self.layout = layout or standard_layout(4)
        self.flat = level in LEVELS          # render.py's flat-board levels (clean ... strong)
        size = size or ROOM_SIZES.get(self.layout.sides, (1280, 720))
        self.scene = (make_scene if self.flat else make_hard_scene)(self.layout, level, seed, size)
        self.seed = seed
        self.colours, self.names = ([c[:self.layout.sides] for c in ROOM_SETS[seed % len(ROOM_SETS)]]
                                    if str(level).startswith("room") else (TABLE_COLOURS, TABLE_NAMES))
        setup = self.render(setup_pegs(self.layout, colours=self.colours), seed)
        self.calibration = calibrate(setup, self.layout, names=dict(enumerate(self.names)),
                                     empty_image=self.render({}, seed + 1) if empty_picture else None)
        self.sampler = self.calibration.sampler(self.layout)
        self.classifier = Classifier(self.calibration.colours, self.sampler.holes)
        self.frames = 0

    def render(self, pegs: dict, seed: int, hands=()):
        return (render_scene if self.flat else render_hard)(self.scene, pegs, seed, hands)

    def hand(self, rng) -> list:
        if not self.flat:
            return hand_over_board(self.scene, rng)
        holes = list(self.layout.holes)
        x, y = self.layout.holes[holes[int(rng.integers(len(holes)))]]
        px = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), self.scene.homography)[0, 0]
        w, h = self.scene.size
        angle = float(np.degrees(np.arctan2(h / 2 - px[1], w / 2 - px[0])))
        reach = rng.uniform(10, 60) * self.scene.px_per_mm
        a = np.radians(angle)
        return [((px[0] + reach * np.cos(a), px[1] + reach * np.sin(a)), angle)]

    def read(self, board: dict, hands=()):
        img = self.render(coloured(board, self.colours), 7919 * self.seed + self.frames, hands)
        self.frames += 1
        return read_holes(img, self.sampler, self.classifier)


@dataclass
class GameStep:
    """One move made with pegs, and what the referee matches its picture against."""
    index: int               # among the moves made with pegs, from 0
    seat: int
    card: str | None
    text: str                # the move in the companion's notation
    before: dict             # {hole id: side} before the move
    truth: dict              # ... after it
    boards: list             # the candidates: ``before`` and each distinct result of the card's legal moves


def game_steps(game_seed: int, moves: int, preset: str = "basic", players: int = 4):
    """The first ``moves`` moves made with pegs of a game of greedy bots (seed ``game_seed``),
    as GameSteps; the renderers of pictures (2D and path-traced) and the replays share it."""
    game = new_game(preset, players, seed=game_seed)
    bots = [make_bot("greedy", random.Random(game_seed * 10 + i)) for i in range(players)]
    done = 0
    while done < moves and not game.is_over():
        plays = game.legal_plays()
        play = bots[game.actor].choose(game, plays)
        if game.phase != PLAY or play.move.kind == DISCARD or not play.move.steps:
            game.push(play.move, play.card)
            continue
        pos = game.position
        before = board_of_pegs(pos, pos.pegs())
        truth = board_of_pegs(pos, pos.result_of(play.move))
        boards, seen = [before], {_key(before)}
        for p in plays:
            if p.card == play.card and p.move.kind != DISCARD:
                b = board_of_pegs(pos, pos.result_of(p.move))
                if _key(b) not in seen:
                    seen.add(_key(b))
                    boards.append(b)
        step = GameStep(done, game.actor, play.card, play.move.text(pos.geo), before, truth, boards)
        game.push(play.move, play.card)
        done += 1
        yield step


def _counted(reading, truth: dict, layout):
    """position_counted for a board whose sides in play and pegs per side are the truth's (a game's
    players know both)."""
    sides = sorted(set(truth.values()))
    return position_counted(reading, layout, sides, pegs_per_side=sum(1 for v in truth.values() if v == sides[0]))


def score_move(reading, step: GameStep, holes, c: Counter, margin: float | None = None, layout=None) -> dict:
    """Count one move's picture: per-hole errors, the position alone, and the referee's
    decision among the step's candidates (taken, asked or wrong). Returns the board the referee
    goes on with: the one it took, or the truth when it asked (the phone says)."""
    truth, boards = step.truth, step.boards
    c["pictures"] += 1
    c["candidates"] += len(boards)
    for h in holes:
        c["holes"] += 1
        c["hole_errors"] += reading.labels[h] != truth.get(h, EMPTY)
    got = position_read(reading)
    if got is not None:
        c["positions_read"] += 1
        c["false_positions"] += got != truth
    counted = _counted(reading, truth, layout)
    if counted is not None:
        c["positions_counted"] += 1
        c["false_counted"] += counted != truth
    idx, _ = decide(reading.readings, boards, **({} if margin is None else {"margin": margin}))
    if idx is None:
        c["asked"] += 1
        return truth
    elif _key(boards[idx]) == _key(truth):
        c["taken"] += 1
    else:
        c["wrong"] += 1
    return boards[idx]


def score_hand(reading, step: GameStep, c: Counter, margin: float | None = None, layout=None) -> None:
    """Count a picture with a hand over the board after ``step``: no position may be read
    from it, and the referee must not take a wrong move from it."""
    truth, boards = step.truth, step.boards
    c["hand_pictures"] += 1
    got = position_read(reading)
    c["hand_positions_read"] += got is not None
    c["hand_false_positions"] += got is not None and got != truth
    c["hand_positions_counted"] += _counted(reading, truth, layout) is not None
    idx, _ = decide(reading.readings, boards, **({} if margin is None else {"margin": margin}))
    c["hand_wrong"] += idx is not None and _key(boards[idx]) != _key(truth)


def replay(setup: CameraSetUp, game_seed: int, moves: int, preset: str = "basic", hands_every: int = 0,
           margin: float | None = None, stats: Counter | None = None) -> Counter:
    """Play ``moves`` moves with pegs; count per-hole errors, positions and decisions."""
    c = stats if stats is not None else Counter()
    rng = np.random.default_rng(game_seed)
    holes = list(setup.layout.holes)
    for step in game_steps(game_seed, moves, preset):
        score_move(setup.read(step.truth), step, holes, c, margin, setup.layout)
        if hands_every and step.index % hands_every == 0:
            score_hand(setup.read(step.truth, setup.hand(rng)), step, c, margin, setup.layout)
    return c


def summary(c: Counter) -> dict:
    n = max(c["pictures"], 1)
    return {"pictures": c["pictures"], "hole_error": c["hole_errors"] / max(c["holes"], 1),
            "positions_read": c["positions_read"] / n, "false_positions": c["false_positions"],
            "positions_counted": c["positions_counted"] / n, "false_counted": c["false_counted"],
            "hand_positions_counted": c["hand_positions_counted"],
            "taken": c["taken"] / n, "asked": c["asked"] / n, "wrong": c["wrong"],
            "hand_pictures": c["hand_pictures"], "hand_positions_read": c["hand_positions_read"],
            "hand_false_positions": c["hand_false_positions"],
            "hand_wrong": c["hand_wrong"], "candidates": c["candidates"] / n}
