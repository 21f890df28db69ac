"""The camera referee's decisions on noisy readings (not a pytest test):
python tests/benchmarks/bench_readings.py [--moves N] [--margins 1,2,3,4]

Bots play (basic, north_carolina, arizona; 5 games); after each move made with pegs the
referee (`companion.referee.Referee`) gets the camera's per-hole readings of the true board
through the noise model of tests/companion/camerakit.py and judges it. Per margin and noise
level prints the share of moves taken without asking, asked on the phone, refused, the board
not taken as right beforehand, and the wrong moves taken (the goal: 0).
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT)]   # run from a checkout: tests/ is a package

from tests.companion.camerakit import replay  # noqa: E402

NOISE = {"unsure misreads 2.75 %": dict(err=0.0275),
         "unsure 2.75 % + sure 0.2 %": dict(err=0.0275, sure_err=0.002),
         "unsure misreads 0.3 %": dict(err=0.003)}
GAMES = [(1, "basic"), (2, "north_carolina"), (3, "arizona"), (4, "basic"), (5, "north_carolina")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=300, help="moves per game at most")
    ap.add_argument("--margins", default="1,2,3,4")
    a = ap.parse_args(argv)
    try:
        margins = [float(m) for m in a.margins.split(",")]
    except ValueError:
        print("--margins: numbers separated by commas, e.g. 2,3", file=sys.stderr)
        return 2
    print(f"python {platform.python_version()}, {platform.machine()}")
    print(f"{'margin':>6}  {'noise':28} {'moves':>6} {'taken':>7} {'asked':>7} {'refused':>8} "
          f"{'not ready':>9} {'wrong':>5}  time")
    for margin in margins:
        for name, noise in NOISE.items():
            t = time.perf_counter()
            c = Counter()
            for seed, preset in GAMES:
                c += replay(preset, seed=seed, moves=a.moves, noise_seed=seed, margin=margin, **noise)
            n = c["moves"]
            print(f"{margin:>6.1f}  {name:28} {n:>6} {c['taken'] / n:>7.1%} {c['asked'] / n:>7.1%} "
                  f"{c['refused'] / n:>8.1%} {c['not_ready'] / n:>9.1%} {c['wrong']:>5}  "
                  f"{time.perf_counter() - t:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
