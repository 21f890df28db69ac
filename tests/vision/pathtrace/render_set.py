"""Render the path-traced camera sets (test-only; needs the ``render`` extra, bpy).

    python tests/vision/pathtrace/render_set.py committed      # tests/vision/data/pathtraced/
    python tests/vision/pathtrace/render_set.py bench          # tests/vision/data/pathtraced-bench/ (not committed)
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
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))

from scene import SetUpRenderer, SetUpSpec, spec_to_json  # noqa: E402

from vision.render import random_position, setup_pegs  # noqa: E402

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
SETS = {
    "committed": {"dir": DATA / "pathtraced", "first_seed": 2300, "positions": 1, "hands": 1},
    "bench": {"dir": DATA / "pathtraced-bench", "first_seed": 5300, "positions": 3, "hands": 1},
}


def specs(which: str) -> list[SetUpSpec]:
    first = SETS[which]["first_seed"]
    return [SetUpSpec(name=name, sides=sides, surface=surface, colours=colours, seed=first + i, pitch=pitch,
                      finish=finish, height=height)
            for i, (name, sides, surface, colours, finish, pitch, height) in enumerate(KINDS)]


def plan(spec: SetUpSpec, layout, positions: int, hands: int) -> list:
    """[(kind, picture name, pegs hole -> side, hand?)] of one set-up."""
    rng = np.random.default_rng(spec.seed)
    out = [("calibration", "calibration", {h: s for s in range(layout.sides) for h in layout.start_ids(s)}, False),
           ("empty", "empty", {}, False)]
    for i in range(positions):
        out.append(("position", f"pos-{i + 1:02d}", random_position(layout, rng), False))
    for i in range(hands):
        out.append(("hand", f"hand-{i + 1:02d}", random_position(layout, rng), True))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("--only", help="comma-separated set-up names")
    ap.add_argument("--positions", type=int, help="position pictures per set-up (default: the set's)")
    ap.add_argument("--hands", type=int, help="hand pictures per set-up (default: the set's)")
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", help="folder (default: the set's)")
    ap.add_argument("--force", action="store_true", help="render pictures that exist again")
    ap.add_argument("--skip", default="", help="comma-separated pictures not to render (e.g. empty,hand-01)")
    args = ap.parse_args(argv)
    conf = SETS[args.set]
    out = Path(args.out) if args.out else conf["dir"]
    positions = conf["positions"] if args.positions is None else args.positions
    hands = conf["hands"] if args.hands is None else args.hands
    chosen = specs(args.set)
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {s.name for s in chosen}
        if unknown:
            ap.error(f"unknown set-up(s) {', '.join(sorted(unknown))}; known: {', '.join(s.name for s in chosen)}")
        chosen = [s for s in chosen if s.name in names]
    out.mkdir(parents=True, exist_ok=True)
    t_all = time.perf_counter()
    from scene import draw_setup
    # two passes: first every set-up's calibration, empty board, first position and first hand,
    # then the other positions, so that a run cut short still covers every set-up
    for first_pass in (True, False):
        for spec in chosen:
            pictures = plan(spec, draw_setup(spec).layout, positions, hands)
            early = {"calibration", "empty", "pos-01", "hand-01"}
            skip = set(filter(None, args.skip.split(",")))
            todo = [p for p in pictures if (p[1] in early) == first_pass and p[1] not in skip
                    and (args.force or not (out / spec.name / f"{p[1]}.json").exists())]
            if not todo:
                continue
            r = SetUpRenderer(spec, out, args.samples, args.threads)
            (out / spec.name / "setup.json").write_text(json.dumps(
                {"spec": spec_to_json(spec), "pictures": [f"{p[1]}.jpg" for p in pictures]}, indent=1) + "\n")
            cam = r.setup
            print(f"{spec.name}: {spec.sides} sides, {spec.surface}, camera {-cam.camera_mm[2] / 10:.0f} cm up, "
                  f"tilt {cam.tilt:.1f} deg, k1 {cam.k1:.3f}, head {cam.head_height:.1f} mm, "
                  f"wide render {cam.wide_size[0]}x{cam.wide_size[1]}", flush=True)
            for k, (kind, name, pegs, hand) in enumerate(pictures):
                if (kind, name, pegs, hand) not in todo:
                    continue
                r.count = k            # the same render seed whichever pictures are redone
                t0 = time.perf_counter()
                truth = r.render(kind, pegs, name, hand)
                print(f"  [{k + 1}/{len(pictures)}] {name}: {len(pegs)} pegs{' + hand' if hand else ''}, "
                      f"render {truth['render']['seconds']:.0f} s, total {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"done in {time.perf_counter() - t_all:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
