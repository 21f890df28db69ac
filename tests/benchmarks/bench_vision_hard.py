"""Hard-set benchmark (not a pytest test): python tests/benchmarks/bench_vision_hard.py

Issue 16.2/16.3 on photo-like pictures (vision/render_hard.py, preset ``hard`` unless
--level): for each camera set-up (seeds --first .. --first+--setups-1), calibrate once from
its set-up picture with the table's colours (a refused calibration is used anyway and
counted), then

* ``positions``: --pictures random mid-game positions (vision.render.random_position):
  per-hole error (an unreadable hole counts), positions read (every hole read with
  confidence >= 0.8), false positions;
* ``games``: a bot game replayed, a picture after every move with pegs and a hand
  picture every 4th move (tests/vision/gamekit.py): moves taken without asking, asked,
  wrong.

Prints one line per set-up and a total, Markdown.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))

import numpy as np  # noqa: E402

from tests.vision.gamekit import CameraSetUp, position_counted, position_read, replay, summary  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.detect import EMPTY, UNKNOWN  # noqa: E402
from vision.render import random_position  # noqa: E402


def positions(su: CameraSetUp, pictures: int, c: Counter, confusions: Counter) -> None:
    for i in range(pictures):
        pos = random_position(su.layout, np.random.default_rng(100 * su.seed + i))
        reading = su.read(pos)
        c["pictures"] += 1
        for h in su.layout.holes:
            want, got = pos.get(h, EMPTY), reading.labels[h]
            c["holes"] += 1
            if want != got:
                c["hole_errors"] += 1
                c["unreadable"] += got == UNKNOWN
                confusions[("empty" if want == EMPTY else f"side {want}") + " -> " +
                           ("unreadable" if got == UNKNOWN else "empty" if got == EMPTY else f"side {got}")] += 1
        got = position_read(reading)
        if got is not None:
            c["positions_read"] += 1
            c["false_positions"] += got != pos
        counted = position_counted(reading, su.layout, range(su.layout.sides))
        if counted is not None:
            c["positions_counted"] += 1
            c["false_counted"] += counted != pos


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=("positions", "games"), default="positions")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--setups", type=int, default=12)
    ap.add_argument("--pictures", type=int, default=6, help="random positions per set-up")
    ap.add_argument("--moves", type=int, default=30, help="moves per game")
    ap.add_argument("--empty", action="store_true", help="calibrate with an empty-board picture too")
    ap.add_argument("--sides", type=int, default=4,
                    help="board sides (6: 1920x1080 pictures, 8: 3840x2160; positions mode)")
    args = ap.parse_args()
    with_empty = " with empty-board pictures" if args.empty else ""
    print(f"# {args.mode} on `{args.level}`{with_empty}, {args.sides}-sided board, set-ups {args.first}-{args.first + args.setups - 1}; "
          f"load average {' '.join(f'{v:.1f}' for v in os.getloadavg())}\n")
    total, confusions = Counter(), Counter()
    refused = []
    t0 = time.perf_counter()
    if args.mode == "positions":
        print("| set-up | refused calibration | wrong holes | unreadable | positions read (with the peg count) "
              "| false (with the count) |")
        print("| --- | --- | --- | --- | --- | --- |")
    else:
        print("| set-up | refused calibration | per-hole error | positions read | false | taken | asked | wrong "
              "| hand: read / wrong |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for k in range(args.setups):
        seed = args.first + k
        su = CameraSetUp(seed, level=args.level, empty_picture=args.empty, layout=standard_layout(args.sides))
        weak = "; ".join(f"side {w['side']} ({w['colour']}) like {w['like']} {w['distance']}/{w['needed']}"
                         for w in su.calibration.weak) or "-"
        if su.calibration.weak:
            refused.append(seed)
        c = Counter()
        if args.mode == "positions":
            positions(su, args.pictures, c, confusions)
            print(f"| {seed} | {weak} | {c['hole_errors']} | {c['unreadable']} | {c['positions_read']} of "
                  f"{c['pictures']} ({c['positions_counted']}) | {c['false_positions']} ({c['false_counted']}) |",
                  flush=True)
        else:
            replay(su, game_seed=k + 1, moves=args.moves, hands_every=4, stats=c)
            s = summary(c)
            print(f"| {seed} | {weak} | {100 * s['hole_error']:.2f} % | {100 * s['positions_read']:.0f} % | "
                  f"{s['false_positions']} | {100 * s['taken']:.1f} % | {100 * s['asked']:.1f} % | {s['wrong']} | "
                  f"{s['hand_positions_read']} / {s['hand_wrong']} of {s['hand_pictures']} |", flush=True)
        total.update(c)
    s = summary(total)
    unreadable = f", {total['unreadable']} unreadable" if args.mode == "positions" else ""
    print(f"\nAll {args.setups} set-ups ({len(refused)} calibrations refused: {refused or 'none'}): "
          f"{total['pictures']} pictures, per-hole error {100 * s['hole_error']:.2f} % "
          f"({total['hole_errors']}{unreadable}), positions read "
          f"{total['positions_read']} of {total['pictures']} ({100 * s['positions_read']:.1f} %), "
          f"false positions {s['false_positions']}; with the peg count {total['positions_counted']} "
          f"({100 * s['positions_counted']:.1f} %), false {s['false_counted']}", end="")
    if args.mode == "games":
        print(f", taken without asking {100 * s['taken']:.1f} %, asked {100 * s['asked']:.1f} %, wrong {s['wrong']}, "
              f"hand pictures read {s['hand_positions_read']} (with the count {s['hand_positions_counted']}) / wrong {s['hand_wrong']} of {s['hand_pictures']}", end="")
    print(f". {time.perf_counter() - t0:.0f} s")
    if confusions:
        print("Mistakes: " + ", ".join(f"{k} x{v}" for k, v in confusions.most_common()))


if __name__ == "__main__":
    main()
