"""Reading the path-traced sets (tests/vision/data/pathtraced*/, made by
tests/vision/pathtrace/render_set.py) with the detector: NumPy and OpenCV only, no Blender.

A set-up folder holds layout.json and, per picture, ``NAME.jpg`` with its truth ``NAME.json``
(format in tests/vision/data/pathtraced/README.md). ``PathTracedSetUp`` calibrates from the
``calibration`` picture (with the truth's colour names, and the ``empty`` picture when asked),
as a user would with ``pegs vision calibrate``; a refused calibration (``weak``) is used anyway
and counted, as tests/benchmarks/bench_vision_hard.py does. ``evaluate`` reads every
position and hand picture and counts what bench_vision_real.py reports and
test_vision_pathtraced.py asserts.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .gamekit import game_steps, position_counted, position_read, score_hand, score_move
from vision.calibration import CalibrationError, calibrate
from vision.detect import EMPTY, UNKNOWN, Classifier, HoleSampler, read_holes, start_holes_empty
from vision.layout import load_layout

DATA = Path(__file__).resolve().parent / "data"
COMMITTED = DATA / "pathtraced"
BENCH = DATA / "pathtraced-bench"
BENCH2 = DATA / "pathtraced-bench2"      # fresh seeds, with games (render_set.py bench2)


@dataclass
class Picture:
    name: str
    kind: str                 # calibration | empty | position | hand
    path: Path
    truth: dict

    @property
    def pegs(self) -> dict:
        return dict(self.truth["pegs"])

    def image(self) -> np.ndarray:
        img = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(self.path)
        return img


def set_ups(root: Path = COMMITTED) -> list[Path]:
    """The set-up folders of a set, in name order."""
    return sorted(p for p in Path(root).iterdir() if (p / "layout.json").exists() and (p / "calibration.json").exists())


def pictures(folder: Path) -> list[Picture]:
    out = []
    for js in sorted(Path(folder).glob("*.json")):
        if js.name in ("layout.json", "setup.json", "game.json"):
            continue
        truth = json.loads(js.read_text(encoding="utf-8"))
        if (js.with_suffix(".jpg")).exists():
            out.append(Picture(js.stem, truth["kind"], js.with_suffix(".jpg"), truth))
    return out


class PathTracedSetUp:
    """One camera set-up: layout, pictures with truth, the calibration made from them."""

    def __init__(self, folder: Path, empty_picture: bool = False):
        self.folder = Path(folder)
        self.name = self.folder.name
        self.layout = load_layout(self.folder / "layout.json")
        self.pictures = pictures(self.folder)
        by_kind = {p.kind: p for p in self.pictures if p.kind in ("calibration", "empty")}
        truth = by_kind["calibration"].truth
        self.truth = truth
        self.colours = {int(k): v for k, v in truth["colours"].items()}
        self.camera = truth["camera"]
        self.head_height = truth["peg"]["head_height_mm"]
        self.error = None                # why calibration failed outright (no markers, ...)
        self.hand_log: list = []         # log_hand
        self.calibration = None
        t0 = time.perf_counter()
        try:
            empty = by_kind["empty"].image() if empty_picture and "empty" in by_kind else None
            self.calibration = calibrate(by_kind["calibration"].image(), self.layout, names=self.colours,
                                         empty_image=empty)
        except CalibrationError as exc:
            self.error = str(exc)
        self.calibration_seconds = time.perf_counter() - t0
        if self.calibration is not None:
            if hasattr(self.calibration, "sampler"):        # a calibration that knows the camera's pose
                self.sampler = self.calibration.sampler(self.layout)
            else:
                self.sampler = HoleSampler(self.layout, self.calibration.homography, self.calibration.image_size)
            self.classifier = Classifier(self.calibration.colours, self.sampler.holes)

    @property
    def refused(self) -> str | None:
        """None if calibration was accepted, else why (as the CLI would print it)."""
        if self.error:
            return self.error
        if self.calibration.weak:
            return "; ".join(w["message"] for w in self.calibration.weak)
        return None

    def learn(self, picture: Picture, reading, counts: dict) -> list:
        """Learn the empty looks of the start holes the referee's ``counts`` (side -> pegs in its
        start area) and this picture's sure readings say are empty; the holes learnt."""
        empties = start_holes_empty(self.layout, reading, counts)
        if not empties:
            return []
        self.classifier, took = self.classifier.learned_empty(self.sampler.sample(picture.image()), empties)
        return took

    def log_hand(self, picture: Picture, read: bool) -> None:
        """Note a hand picture in ``hand_log``: (name, the holes its truth says the hand hides
        from the camera, or None if its truth predates that record, read as a position)."""
        covers = picture.truth["hand"].get("covers_holes")
        self.hand_log.append((picture.name, covers, read))

    def read(self, picture: Picture):
        """(BoardReading, seconds the detector took on the decoded frame)."""
        img = picture.image()
        t0 = time.perf_counter()
        reading = read_holes(img, self.sampler, self.classifier)
        return reading, time.perf_counter() - t0


def side_kind(colour: str) -> str:
    return colour if colour in ("black", "white") else "other"


def evaluate(su: PathTracedSetUp, stats: Counter | None = None, confusions: Counter | None = None) -> Counter:
    """Read every position and hand picture of a set-up; count per-hole errors (an unreadable
    hole counts as wrong), positions read (every hole read with confidence >= 0.8) and false,
    hand pictures read as a position, and per peg colour kind (black, white, other) the peg
    holes read right. Frame times go to ``stats['frame_ms']`` as a list under ``su.frame_ms``."""
    c = stats if stats is not None else Counter()
    su.frame_ms = []
    if su.calibration is None:
        for p in su.pictures:
            if p.kind == "position":
                c["pictures"] += 1
                c["holes"] += len(su.layout.holes)
                c["hole_errors"] += len(su.layout.holes)
                c["unreadable"] += len(su.layout.holes)
            elif p.kind == "hand":
                c["hand_pictures"] += 1
        return c
    for p in su.pictures:
        if p.kind not in ("position", "hand"):
            continue
        reading, seconds = su.read(p)
        su.frame_ms.append(1000 * seconds)
        truth = p.pegs
        got = position_read(reading)
        counted = position_counted(reading, su.layout, sorted(su.colours))
        if p.kind == "hand":
            c["hand_pictures"] += 1
            c["hand_positions_read"] += got is not None
            c["hand_false_positions"] += got is not None and got != truth
            c["hand_positions_counted"] += counted is not None
            su.log_hand(p, got is not None or counted is not None)
            continue
        c["pictures"] += 1
        for h in su.layout.holes:
            want, label = truth.get(h, EMPTY), reading.labels[h]
            c["holes"] += 1
            wrong = want != label
            c["hole_errors"] += wrong
            c["unreadable"] += wrong and label == UNKNOWN
            if want != EMPTY:
                kind = side_kind(su.colours[want])
                c[f"pegs_{kind}"] += 1
                c[f"pegs_{kind}_right"] += not wrong
            if wrong and confusions is not None:
                name = "empty" if want == EMPTY else su.colours[want]
                seen = "unreadable" if label == UNKNOWN else "empty" if label == EMPTY else su.colours[label]
                confusions[f"{name} -> {seen}"] += 1
        if got is not None:
            c["positions_read"] += 1
            c["false_positions"] += got != truth
        if counted is not None:
            c["positions_counted"] += 1
            c["false_counted"] += counted != truth
    return c


def games(root: Path) -> list[Path]:
    """The set-up folders of a set that hold a game (game.json), in name order."""
    return [p for p in set_ups(root) if (p / "game.json").exists()]


def start_counts(board: dict, layout) -> dict:
    """side -> pegs in its start area, of a board {hole: side}: all the referee knows of the start
    holes (not which ones hold the pegs)."""
    return {s: sum(1 for h, v in board.items() if h.startswith(f"S-s{s}-") and v == s) for s in range(layout.sides)}


def replay_game(su: PathTracedSetUp, c: Counter, margin: float | None = None, learn: bool = True) -> dict:
    """Replay a set-up's game (game.json: seed + move list) from its move pictures the way the
    referee does (gamekit.score_move: the readings scored by companion.readings.decide against
    the board before the move and each legal move's result; taken, asked or wrong) and its hand
    pictures (gamekit.score_hand). Moves whose picture is not rendered are skipped and counted
    in ``moves_missing``. ``learn``: after each move the camera is told the referee's start counts
    (as web/board_table.py does after a move it took) and learns the empty looks of start holes
    that must be empty (``vision.detect.start_holes_empty``); counted in ``learnt``. Returns the
    game record."""
    record = json.loads((su.folder / "game.json").read_text(encoding="utf-8"))
    steps = list(game_steps(record["seed"], record["moves_with_pegs"], record["preset"], record["players"]))
    if [s.text for s in steps] != [m["text"] for m in record["moves"]]:
        raise ValueError(f"{su.name}: the engine plays another game than game.json records; render it again")
    by_name = {p.name: p for p in su.pictures}
    holes = list(su.layout.holes)
    for step, move in zip(steps, record["moves"]):
        pic = by_name.get(Path(move["picture"]).stem)
        if pic is None:
            c["moves_missing"] += 1
            continue
        if pic.pegs != step.truth:
            raise ValueError(f"{su.name}/{pic.name}: its truth is not the game's board after move {move['move']}")
        if su.calibration is None:          # nothing can be read: the phone asks every time
            c["pictures"] += 1
            c["holes"] += len(holes)
            c["hole_errors"] += len(holes)
            c["asked"] += 1
            continue
        reading, seconds = su.read(pic)
        board = score_move(reading, step, holes, c, margin, su.layout)
        if learn:
            c["learnt"] += len(su.learn(pic, reading, start_counts(board, su.layout)))
        hand = by_name.get(Path(move["hand_picture"]).stem) if move["hand_picture"] else None
        if hand is not None:
            reading, seconds = su.read(hand)
            before = c["hand_positions_read"]
            score_hand(reading, step, c, margin, su.layout)
            su.log_hand(hand, c["hand_positions_read"] > before)
    return record


def rates(c: Counter) -> dict:
    def frac(a, b):
        return c[a] / c[b] if c[b] else None
    return {"pictures": c["pictures"], "hole_error": frac("hole_errors", "holes"),
            "positions_read": frac("positions_read", "pictures"), "false_positions": c["false_positions"],
            "positions_counted": frac("positions_counted", "pictures"), "false_counted": c["false_counted"],
            "hand_pictures": c["hand_pictures"], "hand_positions_read": c["hand_positions_read"],
            "hand_positions_counted": c["hand_positions_counted"],
            "black": frac("pegs_black_right", "pegs_black"), "white": frac("pegs_white_right", "pegs_white"),
            "other": frac("pegs_other_right", "pegs_other")}
