"""Render the path-traced camera sets (test-only; needs the ``render`` extra, bpy).

    python tests/vision/pathtrace/render_set.py committed      # tests/vision/data/pathtraced/
    python tests/vision/pathtrace/render_set.py bench          # tests/vision/data/pathtraced-bench/ (not committed)
    python tests/vision/pathtrace/render_set.py bench3         # tests/vision/data/pathtraced-bench3/ (not committed)
    python tests/vision/pathtrace/render_set.py bench4         # tests/vision/data/pathtraced-bench4/ (not committed)
    python tests/vision/pathtrace/render_set.py bench5         # tests/vision/data/pathtraced-bench5/ (not committed)
    python tests/vision/pathtrace/render_set.py bench6         # tests/vision/data/pathtraced-bench6/ (not committed)
    python tests/vision/pathtrace/render_set.py bench7         # tests/vision/data/pathtraced-bench7/ (not committed)
    python tests/vision/pathtrace/render_set.py bench8         # tests/vision/data/pathtraced-bench8/ (not committed)
    python tests/vision/pathtrace/render_set.py bench9         # tests/vision/data/pathtraced-bench9/ (not committed)
    python tests/vision/pathtrace/render_set.py bench10        # tests/vision/data/pathtraced-bench10/ (not committed)
    python tests/vision/pathtrace/render_set.py bench11        # tests/vision/data/pathtraced-bench11/ (not committed)
    python tests/vision/pathtrace/render_set.py bench12        # tests/vision/data/pathtraced-bench12/ (games; not committed)
    python tests/vision/pathtrace/render_set.py bench13        # tests/vision/data/pathtraced-bench13/ (not committed)
    python tests/vision/pathtrace/render_set.py bench14        # tests/vision/data/pathtraced-bench14/ (not committed)
    python tests/vision/pathtrace/render_set.py bench15        # tests/vision/data/pathtraced-bench15/ (not committed)
    python tests/vision/pathtrace/render_set.py bench16        # tests/vision/data/pathtraced-bench16/ (not committed)
    python tests/vision/pathtrace/render_set.py bench17        # tests/vision/data/pathtraced-bench17/ (not committed)
    python tests/vision/pathtrace/render_set.py bench18        # tests/vision/data/pathtraced-bench18/ (not committed)
    python tests/vision/pathtrace/render_set.py bench19        # tests/vision/data/pathtraced-bench19/ (not committed)
    python tests/vision/pathtrace/render_set.py bench20        # tests/vision/data/pathtraced-bench20/ (not committed)
    python tests/vision/pathtrace/render_set.py bench21        # tests/vision/data/pathtraced-bench21/ (not committed)
    python tests/vision/pathtrace/render_set.py bench22        # tests/vision/data/pathtraced-bench22/ (not committed)
    python tests/vision/pathtrace/render_set.py bench --only s6-wood --positions 2   # part of a set

Each set-up gets a folder with layout.json and, per picture, a JPEG and its truth JSON:
``calibration`` (every side's pegs in its start holes), ``empty`` (no pegs), ``pos-NN``
(random mid-game positions, vision.render.random_position) and ``hand-NN`` (a random
position with a hand over the board). A set-up whose pictures all exist is skipped, so an
interrupted run picks up where it stopped (``--force`` renders again). Run it under
``nice -n 10``: one picture takes minutes on one thread (see the data README).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))

from hand import HAND_STREAM, place_hand  # noqa: E402
from rig import SetUpSpec, draw_setup, spec_to_json  # noqa: E402  (no Blender: the tests plan with it)

from vision.render import random_position  # noqa: E402

DATA = HERE.parent / "data"
SAMPLES = 12

# The six kinds of set-up, each board and surface, every colour a group owns (black and white
# too); the seeds of the committed set and of the benchmark set are distinct.
KINDS = [
    # name, sides, surface, colours, finish, pitch, camera height range (cm)
    ("s4-wood", 4, "wood", ["red", "blue", "green", "yellow"], "glossy", 25.0, (40, 75)),
    ("s4-paper-bw", 4, "paper", ["black", "white", "red", "blue"], "satin", 25.0, (40, 75)),
    ("s4-wood-bw", 4, "wood", ["white", "green", "black", "yellow"], "satin", 25.0, (40, 75)),
    ("s6-wood", 6, "wood", ["red", "blue", "green", "yellow", "black", "white"], "glossy", 18.0, (55, 75)),
    ("s6-paper", 6, "paper", ["red", "blue", "green", "yellow", "black", "white"], "satin", 18.0, (55, 75)),
    ("s8-wood", 8, "wood", ["red", "blue", "green", "yellow", "black", "white", "orange", "purple"], "glossy",
     16.0, (62, 75)),
]


def _positions(name: str, first_seed: int) -> dict:
    """A set of random positions on the six standard set-ups: 3 positions and a hand each,
    rendered one set-up at a time."""
    return {"dir": DATA / f"pathtraced-{name}", "first_seed": first_seed, "positions": 3, "hands": 1, "steady": True,
            "by_setup": True}


def _games(name: str, first_seed: int, first_game: int, moves: int, hand_after: int) -> dict:
    """A game of greedy bots on each of the six standard set-ups, a picture after every move and a
    hand over the board after move ``hand_after``, and one random position each."""
    return {"dir": DATA / f"pathtraced-{name}", "first_seed": first_seed, "positions": 1, "hands": 1, "steady": True,
            "games": {kind: {"seed": first_game + i, "moves": moves, "hands_after": (hand_after,), "phase": 1}
                      for i, kind in enumerate(["s4-wood", "s4-paper-bw", "s4-wood-bw", "s6-wood", "s6-paper",
                                                "s8-wood"])}}


SETS = {
    "committed": {"dir": DATA / "pathtraced", "first_seed": 2300, "positions": 1, "hands": 1,
                  # a short game, for the test that replays one (its first picture is traced whole)
                  "games": {"s4-wood": {"seed": 4, "moves": 4, "hands_after": (), "phase": 1}}},
    "bench": {"dir": DATA / "pathtraced-bench", "first_seed": 5300, "positions": 3, "hands": 1},
    # fresh seeds, bigger: the set the targets are measured on (not committed)
    "bench2": {"dir": DATA / "pathtraced-bench2", "first_seed": 6300, "positions": 8, "hands": 1, "steady": True,
               # a game of greedy bots (seed, moves with pegs), a picture after every move and a hand
               # over the board after some; ``phase``: when its moves are rendered (see plan())
               "games": {"s4-wood": {"seed": 1, "moves": 16, "hands_after": (4, 11), "phase": 1},
                         "s4-paper-bw": {"seed": 2, "moves": 16, "hands_after": (4, 11), "phase": 1},
                         "s4-wood-bw": {"seed": 3, "moves": 12, "hands_after": (6,), "phase": 1},
                         "s6-paper": {"seed": 5, "moves": 12, "hands_after": (6,), "phase": 1},
                         "s8-wood": {"seed": 6, "moves": 12, "hands_after": (6,), "phase": 1},
                         "s6-wood": {"seed": 7, "moves": 12, "hands_after": (6,), "phase": 1}},
               # the seeds drew s4-wood, s4-paper-bw, s6-paper and s8-wood at 63-74 cm and 3-19 degrees;
               # two set-ups drawn from narrower ranges make the set span the envelope
               # (chosen before anything was read from them)
               "envelope": {"s4-wood-bw": {"height": (40, 46), "tilt": (18, 25)},
                            "s6-wood": {"height": (55, 62), "tilt": (10, 22)}}},
    # fresh seeds at the envelope that bench2 did not reach (its cameras 45-74 cm up,
    # tilt 3-19 degrees, k1 -0.10 to -0.17): its own set-ups, each drawn from a narrow range
    # (chosen before anything was rendered or read); rendered one set-up at a time, so that
    # a run cut short leaves whole set-ups, each with a short game and no hand after a move
    "bench3": {"dir": DATA / "pathtraced-bench3", "first_seed": 6400, "positions": 3, "hands": 1, "steady": True,
               # a fourth position, added when the first run had time left: drawn after the hand, so
               # that no picture rendered before it changed (its pegs nor its render seed)
               "late_positions": 1, "by_setup": True,
               "kinds": [
                   # name, sides, surface, colours, finish, pitch, height (cm), tilt (deg), k1
                   # pitch 22 mm (a home-made board 466 mm across): at 40 cm no lens of 92 degrees or
                   # less sees a 25 mm pitch board straight down with a mild lens
                   ("s4-wood-bw-40cm", 4, "wood", ["white", "green", "black", "yellow"], "satin", 22.0,
                    (40, 42), (5, 15), (-0.14, -0.06)),
                   ("s6-paper-tilt25", 6, "paper", ["red", "blue", "green", "yellow", "black", "white"], "satin",
                    18.0, (55, 65), (22, 25), (-0.14, -0.06)),
                   ("s8-wood-k1-0.2", 8, "wood", ["red", "blue", "green", "yellow", "black", "white", "orange",
                                                  "purple"], "glossy", 16.0, (62, 75), (5, 18), (-0.2, -0.19)),
                   # the corner of the envelope: low and tilted at once
                   ("s4-paper-bw-low-tilted", 4, "paper", ["black", "white", "red", "blue"], "glossy", 25.0,
                    (40, 45), (22, 25), (-0.2, -0.1)),
               ],
               "games": {"s4-wood-bw-40cm": {"seed": 11, "moves": 8, "hands_after": (), "phase": 1},
                         "s6-paper-tilt25": {"seed": 12, "moves": 7, "hands_after": (), "phase": 1},
                         "s8-wood-k1-0.2": {"seed": 13, "moves": 7, "hands_after": (), "phase": 1},
                         "s4-paper-bw-low-tilted": {"seed": 14, "moves": 8, "hands_after": (), "phase": 1}}},
    # fresh seeds again (session 10): the four sets above had been read hole by hole while the
    # detector was tuned; this one is read only to measure, the six standard set-ups each drawn
    # from the standard ranges, rendered one set-up at a time
    "bench4": _positions("bench4", 6500),
    # fresh seeds once more (session 11): bench4 was read hole by hole while the calibration's
    # margins were mended, so this one, drawn the same way, is read only to measure
    "bench5": _positions("bench5", 6600),
    # and again: bench5 was read hole by hole for the wild holes' rule and the deep shadows' threshold,
    # so this one, rendered after those changes, is read only to measure
    "bench6": _positions("bench6", 6700),
    # session 12: bench6 was read hole by hole after it measured session 11, so this one, rendered
    # at the session's start and left unread until the session's changes are done, measures them
    "bench7": _positions("bench7", 6800),
    # and one more at session 12's end, read once by the session's first and last trees: a second
    # measure of where the detector stands (bench7 was then read hole by hole for the report)
    "bench8": _positions("bench8", 6900),
    # session 13: rendered at the session's start and read once by its first tree, left unread
    # hole by hole, then read once more by its last tree
    "bench9": _positions("bench9", 7000),
    # and one more, rendered after session 13's detector changes (made while reading bench9 hole by
    # hole), read once by the session's first and last trees
    "bench10": _positions("bench10", 7100),
    # session 14: rendered at the session's start, read once by its first tree before any change
    "bench11": _positions("bench11", 7200),
    # session 14: fresh games (bench2's were last rendered on another machine, before sessions
    # 12-14's detector changes): a game of greedy bots on each standard set-up, a picture after
    # every move and a hand over the board after the sixth, and one random position
    "bench12": _games("bench12", 7300, first_game=21, moves=12, hand_after=6),
    # and random positions again, rendered after session 14's detector changes (made while reading
    # bench6-bench12 hole by hole), read once by the session's first and last trees
    "bench13": _positions("bench13", 7400),
    # session 15: bench14 read once at the session's start, bench15 held back and read once after
    # six of its commits
    "bench14": _positions("bench14", 7500),
    "bench15": _positions("bench15", 7600),
    # and bench16, held back after bench15 found a hand read as a position
    "bench16": _positions("bench16", 7700),
    # session 16: bench17 and bench18, each read once by the session's first and last trees
    "bench17": _positions("bench17", 7800),
    "bench18": _positions("bench18", 7900),
    # and fresh games (bench12's were read move by move while the detector was tuned): as bench12,
    # ten moves a game, a hand over the board after the fifth
    "bench19": _games("bench19", 8000, first_game=31, moves=10, hand_after=5),
    # and random positions once more, read once by session 16's last tree
    "bench20": _positions("bench20", 8100),
    # session 17: every standard set-up seen nearly straight down (tilt 0-6 degrees), where one
    # picture can't tell the lens's width from the camera's height; drawn before the fit was changed
    "bench21": {**_positions("bench21", 8200),
                "envelope": {kind[0]: {"tilt": (0.0, 6.0)} for kind in KINDS}},
    # and random positions once more, drawn after session 17's changes, read once by its first and
    # last trees
    "bench22": _positions("bench22", 8300),
}


def specs(which: str) -> list[SetUpSpec]:
    first = SETS[which]["first_seed"]
    if "kinds" in SETS[which]:               # a set with set-ups of its own, ranges and all
        return [SetUpSpec(name=name, sides=sides, surface=surface, colours=colours, seed=first + i, pitch=pitch,
                          finish=finish, height=height, tilt=tilt, k1=k1)
                for i, (name, sides, surface, colours, finish, pitch, height, tilt, k1)
                in enumerate(SETS[which]["kinds"])]
    envelope = SETS[which].get("envelope", {})
    return [SetUpSpec(name=name, sides=sides, surface=surface, colours=colours, seed=first + i, pitch=pitch,
                      finish=finish, **{"height": height, **envelope.get(name, {})})
            for i, (name, sides, surface, colours, finish, pitch, height) in enumerate(KINDS)]


@dataclass
class Item:
    """One picture to render."""
    k: int                     # its render seed's index in the set-up (stable whatever is redone)
    kind: str                  # calibration | empty | position | hand | move
    name: str
    pegs: dict
    hand: bool = False
    phase: float = 0.0         # render order: lower first (a run cut short keeps the most useful)
    base: str | None = None    # a game's picture: the picture before the move (only the change is traced)
    extra: dict | None = None  # more truth (a game's move)
    target: str | None = None  # a hand: the hole it puts a peg in (a game's move; else hand.py draws one)


def plan(spec: SetUpSpec, layout, positions: int, hands: int, game: dict | None = None,
         late_positions: int = 0) -> list[Item]:
    """The pictures of one set-up, in the order the old sets had them (their render seeds)."""
    rng = np.random.default_rng(spec.seed)
    # the phases: 0 the calibration of a set-up whose game comes first, 1 those games' moves
    # (a move's picture costs 3-8 % of a whole one), 2 every other calibration and every first
    # position, 3 hands (the slowest pictures), 4 later games, 5 the empty boards, 6... the
    # other positions, two at a time round the set-ups
    out = [Item(0, "calibration", "calibration", {h: s for s in range(layout.sides) for h in layout.start_ids(s)},
                phase=0 if game and game["phase"] <= 1 else 2),
           Item(1, "empty", "empty", {}, phase=5)]
    for i in range(positions):
        out.append(Item(len(out), "position", f"pos-{i + 1:02d}", random_position(layout, rng),
                        phase=2 if i == 0 else 6 + (i - 1) // 2))
    for i in range(hands if not (game and game["hands_after"]) else 0):
        out.append(Item(len(out), "hand", f"hand-{i + 1:02d}", random_position(layout, rng), True,
                        phase=3 if i == 0 else 6 + (i - 1) // 2))
    for i in range(late_positions):          # drawn after the hands: positions added to a set later
        out.append(Item(len(out), "position", f"pos-{positions + i + 1:02d}", random_position(layout, rng),
                        phase=6 + (positions + i - 1) // 2))
    if game:
        from tests.vision.gamekit import game_steps
        base = "calibration"
        for step in game_steps(game["seed"], game["moves"], players=layout.sides):
            if step.index == 0:
                assert step.before == out[0].pegs, "the game starts from the calibration picture's pegs"
            n = step.index + 1
            extra = {"game": {"seed": game["seed"], "move": n, "seat": step.seat, "card": step.card,
                              "text": step.text}}
            out.append(Item(100 + n, "move", f"move-{n:02d}", step.truth, phase=game["phase"], base=base,
                            extra=extra))
            base = f"move-{n:02d}"
            if n in game["hands_after"]:
                # the hand that made the move: over a hole the move put a peg in
                put = sorted(h for h, side in step.truth.items() if step.before.get(h) != side)
                out.append(Item(200 + n, "hand", f"move-{n:02d}-hand", step.truth, True,
                                phase=3 if game["phase"] < 3 else game["phase"], extra=extra,
                                target=put[0] if put else None))
    return out


def game_record(spec: SetUpSpec, game: dict, items: list[Item]) -> dict:
    """game.json: the game as seed + move list, and which picture shows each move."""
    moves = []
    for it in items:
        if it.kind == "move":
            g = it.extra["game"]
            hand = next((h.name + ".jpg" for h in items if h.kind == "hand" and h.extra and h.extra["game"]["move"] == g["move"]),
                        None)
            moves.append({"move": g["move"], "seat": g["seat"], "card": g["card"], "text": g["text"],
                          "picture": f"{it.name}.jpg", "hand_picture": hand})
    return {"format": "pegs-and-jokers/pathtraced-game/1", "setup": spec.name, "preset": "basic",
            "players": spec.sides, "seed": game["seed"], "bots": "greedy (tests/vision/gamekit.py game_steps)",
            "moves_with_pegs": game["moves"], "moves": moves}


def picture_seed(spec: SetUpSpec, item: Item) -> int:
    """A picture's render seed (scene.SetUpRenderer.render: the same whatever else is rendered)."""
    return int(spec.seed * 1000 + item.k)


def planned_hands(which: str, names=None) -> list:
    """(spec, its SetUp, the hand picture's Item, the hand's truth) for every hand picture a set
    plans, drawn as the renderer draws them (hand.py, no Blender); ValueError if a hand can't
    be placed over holes."""
    conf = SETS[which]
    out = []
    for spec in specs(which):
        if names and spec.name not in names:
            continue
        setup = draw_setup(spec)
        for it in plan(spec, setup.layout, conf["positions"], conf["hands"], conf.get("games", {}).get(spec.name),
                       conf.get("late_positions", 0)):
            if it.kind == "hand":
                rng = np.random.default_rng([picture_seed(spec, it), HAND_STREAM])
                out.append((spec, setup, it, place_hand(setup.layout, setup.camera_mm, setup.head_height,
                                                        it.pegs, rng, it.target)))
    return out


class Bases:
    """The linear renders a game's next picture starts from: in memory, and on disk (float16,
    git-ignored with the set) so that an interrupted run resumes without tracing them again."""

    def __init__(self, folder: Path):
        self.dir = folder / ".linear"
        self.mem: dict = {}

    def get(self, name: str):
        if name in self.mem:
            return self.mem[name]
        f = self.dir / f"{name}.npy"
        return np.load(f).astype(np.float32) if f.exists() else None

    def put(self, name: str, linear, drop: str | None = None) -> None:
        self.mem = {name: linear}
        self.dir.mkdir(parents=True, exist_ok=True)
        np.save(self.dir / f"{name}.npy", linear.astype(np.float16))
        if drop and drop != "calibration":
            (self.dir / f"{drop}.npy").unlink(missing_ok=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("--only", help="comma-separated set-up names")
    ap.add_argument("--positions", type=int, help="position pictures per set-up (default: the set's)")
    ap.add_argument("--hands", type=int, help="hand pictures per set-up (default: the set's)")
    ap.add_argument("--no-games", action="store_true", help="not the set's games")
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--threads", type=int, default=2,
                    help="Cycles threads (2: uses both cores when they are idle; run it under nice)")
    ap.add_argument("--out", help="folder (default: the set's)")
    ap.add_argument("--force", action="store_true", help="render pictures that exist again")
    ap.add_argument("--skip", default="", help="comma-separated pictures not to render (e.g. empty,hand-01)")
    ap.add_argument("--kinds", help="comma-separated kinds of picture to render, the others left alone "
                                    "(e.g. --kinds hand --force: the hand pictures again)")
    args = ap.parse_args(argv)
    from scene import SetUpRenderer          # Blender (bpy): only to render
    conf = SETS[args.set]
    out = Path(args.out) if args.out else conf["dir"]
    positions = conf["positions"] if args.positions is None else args.positions
    hands = conf["hands"] if args.hands is None else args.hands
    games = {} if args.no_games else conf.get("games", {})
    chosen = specs(args.set)
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {s.name for s in chosen}
        if unknown:
            ap.error(f"unknown set-up(s) {', '.join(sorted(unknown))}; known: {', '.join(s.name for s in chosen)}")
        chosen = [s for s in chosen if s.name in names]
    out.mkdir(parents=True, exist_ok=True)
    t_all = time.perf_counter()
    skip = set(filter(None, args.skip.split(",")))
    kinds = set(filter(None, (args.kinds or "").split(",")))
    planned = {spec.name: plan(spec, draw_setup(spec).layout, positions, hands, games.get(spec.name),
                               conf.get("late_positions", 0) if args.positions is None else 0)
               for spec in chosen}
    for spec in chosen:
        (out / spec.name).mkdir(parents=True, exist_ok=True)
        (out / spec.name / "setup.json").write_text(json.dumps(
            {"spec": spec_to_json(spec), "pictures": [f"{it.name}.jpg" for it in planned[spec.name]]}, indent=1) + "\n")
        if spec.name in games:
            (out / spec.name / "game.json").write_text(json.dumps(
                game_record(spec, games[spec.name], planned[spec.name]), indent=1) + "\n")
    # in phases (see plan()), so that a run cut short still covers every set-up about evenly;
    # or (``by_setup``) one set-up after another, each in its phases, so it leaves whole set-ups
    order = {spec.name: i for i, spec in enumerate(chosen)}
    by_setup = bool(conf.get("by_setup"))
    queue = sorted(((spec, it) for spec in chosen for it in planned[spec.name]
                    if it.name not in skip and (not kinds or it.kind in kinds) and (args.force or not (out / spec.name / f"{it.name}.json").exists())),
                   key=lambda si: ((order[si[0].name] if by_setup else 0), si[1].phase, order[si[0].name],
                                   si[1].kind == "hand", si[1].k))
    # every hand to render is placed over holes before anything is traced (hand.py; seconds)
    drawn = {spec.name: draw_setup(spec) for spec in chosen}
    for spec, it in queue:
        if it.kind == "hand":
            rng = np.random.default_rng([picture_seed(spec, it), HAND_STREAM])
            s = drawn[spec.name]
            try:
                place_hand(s.layout, s.camera_mm, s.head_height, it.pegs, rng, it.target)
            except ValueError as e:
                ap.error(f"{spec.name}/{it.name}: {e}")
    renderer, bases = None, None
    for n, (spec, it) in enumerate(queue):
        if renderer is None or renderer.spec.name != spec.name:
            if renderer is not None:             # one Blender scene at a time
                shutil.rmtree(renderer.tmp, ignore_errors=True)
            renderer = SetUpRenderer(spec, out, args.samples, args.threads)
            # a game's pegs keep their pose while not moved (only the change is traced again)
            renderer.steady_pegs = bool(conf.get("steady")) or spec.name in games
            bases = Bases(out / spec.name)
            cam = renderer.setup
            print(f"{spec.name}: {spec.sides} sides, {spec.surface}, camera {-cam.camera_mm[2] / 10:.0f} cm up, "
                  f"tilt {cam.tilt:.1f} deg, k1 {cam.k1:.3f}, head {cam.head_height:.1f} mm, "
                  f"wide render {cam.wide_size[0]}x{cam.wide_size[1]}", flush=True)
        renderer.count = it.k                    # the same render seed whichever pictures are redone
        base = bases.get(it.base) if it.base else None
        changed = set()
        if base is not None:
            before = next(p.pegs for p in planned[spec.name] if p.name == it.base)
            changed = {h for h in set(before) | set(it.pegs) if before.get(h) != it.pegs.get(h)}
        t0 = time.perf_counter()
        truth = renderer.render(it.kind, it.pegs, it.name, it.hand, base=(it.base, base) if base is not None else None,
                                changed=changed, extra=it.extra, hand_target=it.target)
        if it.kind in ("calibration", "move") and spec.name in games:
            bases.put(it.name, renderer.last_linear, drop=it.base)
        region = truth["render"]["region"]
        again = (f", {len(region['changed_holes'])} holes traced again ({100 * region['fraction']:.0f} % of the picture)"
                 if region else "")
        hand = truth["hand"]
        over = (f" + hand over {hand['over_hole']} hiding {len(hand['covers_holes'])} holes" if hand else "")
        print(f"  [{n + 1}/{len(queue)}] {spec.name}/{it.name}: {len(it.pegs)} pegs{over}"
              f"{again}, render {truth['render']['seconds']:.0f} s, total {time.perf_counter() - t0:.0f} s, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"done in {time.perf_counter() - t_all:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
