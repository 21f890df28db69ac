"""Path-traced benchmark (not a pytest test): python tests/benchmarks/bench_vision_real.py

Issue 23 on the path-traced pictures of tests/vision/pathtrace/ (Blender Cycles: the printed
template on a plank with real holes, pegs with a shaft and a head above the board, lamp and
window light, a tilted camera with a barrel lens, depth of field, noise, JPEG). The big set is
not committed; make it first (it takes hours on one thread, see
tests/vision/data/pathtraced/README.md):

    nice -n 15 .venv-render/bin/python tests/vision/pathtrace/render_set.py bench2

then ``python tests/benchmarks/bench_vision_real.py`` (``--data`` another set, e.g. the small
committed one: ``--data tests/vision/data/pathtraced``, or the envelope's corners, 40 cm, tilt 25
degrees, k1 -0.2: ``--data tests/vision/data/pathtraced-bench3`` after ``render_set.py bench3``;
``--games``: the set's games, replayed). Per set-up: calibrated from its
calibration picture with the truth's colour names (``--empty``: with its empty-board picture
too); a refused calibration is used anyway and counted, and why it was refused is printed;
then every position picture (per-hole error: an unreadable hole counts as wrong; positions
read: every hole read with confidence >= 0.8, and with the peg count as ``pegs vision detect``
reads them, the few holes not read surely settled where only one way gives every side its pegs;
false positions) and every hand picture (read as a position: must be 0; listed with the holes its truth says the hand hides), peg holes of
black, white and other colours read right, and the detector's time per frame (median, the
decoded frame to the reading).

With ``--games``, each game set-up's moves (game.json: the game's seed and move list) are
replayed from their pictures as the referee matches them (tests/vision/gamekit.py: the
readings scored against the board before the move and each legal move's result): moves
taken without asking, asked, wrong; hand pictures read as a position or taken as a wrong
move.

Prints Markdown: one line per set-up and a total.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))

from tests.vision.gamekit import summary  # noqa: E402
from tests.vision.pathtracekit import BENCH2, PathTracedSetUp, evaluate, games, rates, replay_game, set_ups  # noqa: E402


def pct(v, digits=1) -> str:
    return "-" if v is None else f"{100 * v:.{digits}f} %"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(BENCH2),
                    help="a folder of set-up folders (default: the fresh-seed bench2 set; the older one: "
                         "tests/vision/data/pathtraced-bench)")
    ap.add_argument("--empty", action="store_true", help="calibrate with the empty-board picture too")
    ap.add_argument("--games", action="store_true", help="replay the set's games (set-ups with a game.json)")
    ap.add_argument("--no-learn", action="store_true",
                    help="games: don't let the camera learn the empty looks of start holes the referee's "
                         "start counts say are empty (as web/board_table.py does after a move)")
    ap.add_argument("--offsets", action="store_true",
                    help="per-hole results against the truth's head offset (how far from its hole a head is "
                         "seen, on the board, by the true camera): what the working envelope rests on; --data "
                         "may name several sets, comma-separated")
    ap.add_argument("--rows", help="--offsets: also write every hole's row (CSV) to this file")
    args = ap.parse_args(argv)
    if args.offsets:
        return main_offsets([Path(d) for d in args.data.split(",")], args.empty, args.rows)
    root = Path(args.data)
    if not root.is_dir() or not set_ups(root) or (args.games and not games(root)):
        print(f"{root}: no rendered set-ups{' with a game' if args.games else ''}; render them first: "
              f"nice -n 15 .venv-render/bin/python tests/vision/pathtrace/render_set.py bench2", file=sys.stderr)
        return 2
    if args.games:
        return main_games(root, args.empty, learn=not args.no_learn)
    import vision
    print(f"# path-traced set {root.name}{' with empty-board pictures' if args.empty else ''}; detector "
          f"{Path(vision.__file__).resolve().parent}; load average {' '.join(f'{v:.1f}' for v in os.getloadavg())}\n")
    print("| set-up | board | camera | calibration | per-hole error | positions read (with the peg count) | "
          "false (with the count) | hands read (with the count) | "
          "black | white | other colours | frame ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total, confusions = Counter(), Counter()
    refused, times, hands = [], [], []
    for folder in set_ups(root):
        su = PathTracedSetUp(folder, empty_picture=args.empty)
        c = evaluate(su, confusions=confusions)
        hands += [(su.name, *h) for h in su.hand_log]
        r = rates(c)
        why = su.refused
        if why:
            refused.append(su.name)
        cam = su.camera
        times += su.frame_ms
        t = su.truth
        print(f"| {su.name} | {t['board']['sides']} sides, {t['board']['surface']}, "
              f"{', '.join(su.colours.values())}, {t['peg']['finish']}, head {su.head_height:.1f} mm | "
              f"{cam['height_mm'] / 10:.0f} cm, tilt {cam['tilt_deg']:.0f}°, k1 {cam['k1']:.2f} | "
              f"{'refused: ' + why if why else 'accepted'} | {pct(r['hole_error'], 2)} ({c['hole_errors']}, "
              f"{c['unreadable']} unreadable) | {c['positions_read']} of {c['pictures']} ({c['positions_counted']}) | "
              f"{c['false_positions']} ({c['false_counted']}) | "
              f"{c['hand_positions_read']} of {c['hand_pictures']} ({c['hand_positions_counted']}) | {pct(r['black'])} | {pct(r['white'])} | "
              f"{pct(r['other'])} | {statistics.median(su.frame_ms):.1f} |" if su.frame_ms else
              f"| {su.name} | - | - | {'refused: ' + why if why else 'accepted'} (no position or hand picture) "
              f"| - | - | - | - | - | - | - | - |", flush=True)
        total.update(c)
    r = rates(total)
    n = len(set_ups(root))
    print(f"\nAll {n} set-ups ({len(refused)} calibrations refused: {', '.join(refused) or 'none'}): "
          f"{total['pictures']} position pictures, {total['holes']} holes, per-hole error {pct(r['hole_error'], 2)} "
          f"({total['hole_errors']}, {total['unreadable']} unreadable), positions read {total['positions_read']} of "
          f"{total['pictures']} ({pct(r['positions_read'])}), false positions {total['false_positions']}, "
          f"hand pictures read as a position {total['hand_positions_read']} of {total['hand_pictures']}; "
          f"with the peg count (pegs vision detect: the few holes not read surely settled where only one way "
          f"gives every side its pegs) positions read {total['positions_counted']} ({pct(r['positions_counted'])}), "
          f"false {total['false_counted']}, hand pictures read {total['hand_positions_counted']}; "
          f"peg holes read right: black {pct(r['black'])} ({total['pegs_black']}), white {pct(r['white'])} "
          f"({total['pegs_white']}), other colours {pct(r['other'])} ({total['pegs_other']}); "
          f"frame median {statistics.median(times):.1f} ms" if times else "")
    if confusions:
        print("Mistakes: " + ", ".join(f"{k} x{v}" for k, v in confusions.most_common()))
    print_hands(hands)
    return 0


OFFSET_BINS = (0, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 100)   # mm of head offset
PITCH_BINS = (0, .2, .3, .4, .5, .6, .65, .7, .75, .8, 1.0, 5)   # head offset / the board's pitch


def head_offsets(su, holes) -> dict:
    """{hole: mm} how far from its hole a head standing in it is seen, on the board, by the truth's
    camera: the line of sight through the head's centre (the truth's head height) meets the board
    that far out, (distance from the point under the camera) x h / (camera height - h)."""
    import numpy as np
    cam = su.truth["camera"]
    foot = np.array(cam["position_mm"][:2], float)
    h, H = su.head_height, cam["height_mm"]
    return {k: float(np.linalg.norm(np.array(su.layout.holes[k], float) - foot)) * h / (H - h) for k in holes}


def main_offsets(roots: list, empty: bool, rows_csv: str | None = None) -> int:
    """Every position and game-move picture of the sets, each hole read (no learning) against the truth
    and binned by its head offset (`head_offsets`): how far off its hole a head may be seen and the
    hole still read right (the label the truth's, confidence >= 0.8). Peg holes and all holes."""
    from vision.detect import EMPTY
    from vision.calibration import working_envelope
    rows = []                           # (offset mm, offset / pitch, peg in it, read right, set-up, seen / pitch)
    per_setup = []
    for root in roots:
        for folder in set_ups(root):
            su = PathTracedSetUp(folder, empty_picture=empty)
            if su.calibration is None:
                continue
            off = head_offsets(su, su.layout.holes)
            pitch = su.layout.pitch
            cam = su.calibration.camera      # the offsets as the calibration sees them (its camera, its head height)
            seen = dict(zip(su.layout.holes, cam.parallax_mm(list(su.layout.holes.values()),
                                                            su.calibration.head_height).tolist())) \
                if cam is not None else {k: float("nan") for k in su.layout.holes}
            for p in su.pictures:
                if p.kind not in ("position", "move"):
                    continue
                reading, _ = su.read(p)
                truth = p.pegs
                for k in su.layout.holes:
                    want = truth.get(k, EMPTY)
                    right = reading.labels[k] == want and reading.confidence[k] >= 0.8
                    rows.append((off[k], off[k] / pitch, want != EMPTY, right, f"{root.name}/{su.name}",
                                 seen[k] / pitch))
            mine = [r for r in rows if r[4] == f"{root.name}/{su.name}"]
            tilt = su.camera["tilt_deg"]
            (_, lowest), = working_envelope(su.layout, su.calibration.head_height, tilts=(tilt,))
            per_setup.append(
                f"| {root.name}/{su.name} | {su.camera['height_mm'] / 10:.0f} cm, {tilt:.1f}° | pitch {pitch:g} | "
                f"{su.head_height:.1f} / {su.calibration.head_height:.1f} mm | "
                f"{min(off.values()):.1f}-{max(off.values()):.1f} mm | "
                f"{envelope_words(lowest, su.camera['height_mm']) if cam is not None else 'none (no camera model)'} | "
                f"{sum(not r[3] for r in mine if r[2])} of {sum(r[2] for r in mine)} | "
                f"{sum(not r[3] for r in mine)} of {len(mine)} |")
            print(per_setup[-1], file=sys.stderr, flush=True)
    if rows_csv:
        with open(rows_csv, "w", encoding="utf-8") as fh:
            fh.write("offset_mm,offset_pitch,peg,right,setup,calibrated_offset_pitch\n")
            fh.writelines(f"{a:.3f},{b:.4f},{int(c)},{int(d)},{e},{f:.4f}\n" for a, b, c, d, e, f in rows)
    print(f"# per-hole results against the head's offset; sets {', '.join(r.name for r in roots)}"
          f"{' with empty-board pictures' if empty else ''}; load average "
          f"{' '.join(f'{v:.1f}' for v in os.getloadavg())}\n")
    print("| set-up | camera (truth) | board | head height (truth / measured) | head offsets (truth) | "
          "envelope's lowest camera at this tilt | peg holes not read right | holes not read right |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(per_setup) + "\n")
    print("| head offset (mm) | peg holes | peg holes not read right | all holes | all holes not read right |")
    print("| --- | --- | --- | --- | --- |")
    for lo, hi in zip(OFFSET_BINS, OFFSET_BINS[1:]):
        b = [r for r in rows if lo <= r[0] < hi]
        pegs = [r for r in b if r[2]]
        if not b:
            continue
        print(f"| {lo}-{hi} | {len(pegs)} | {sum(not r[3] for r in pegs)} ({pct(_frac(pegs), 2)}) | {len(b)} | "
              f"{sum(not r[3] for r in b)} ({pct(_frac(b), 2)}) |")
    print("\nCumulative, holes with a head offset under X mm:\n")
    print("| under (mm) | peg holes | not read right | all holes | not read right |")
    print("| --- | --- | --- | --- | --- |")
    for x in OFFSET_BINS[1:]:
        b = [r for r in rows if r[0] < x]
        pegs = [r for r in b if r[2]]
        print(f"| {x} | {len(pegs)} | {pct(_frac(pegs), 2)} | {len(b)} | {pct(_frac(b), 2)} |")
    for col, what in ((1, "the truth's offset"), (5, "the offset as calibration sees it (its camera and head "
                                                        "height: what the working envelope is computed from)")):
        print(f"\nBy {what}, as a share of the pitch:\n")
        print("| offset / pitch | peg holes | not read right | all holes | not read right |")
        print("| --- | --- | --- | --- | --- |")
        for lo, hi in zip(PITCH_BINS, PITCH_BINS[1:]):
            b = [r for r in rows if lo <= r[col] < hi]
            pegs = [r for r in b if r[2]]
            if b:
                print(f"| {lo:g}-{hi:g} | {len(pegs)} | {sum(not r[3] for r in pegs)} ({pct(_frac(pegs), 2)}) | "
                      f"{len(b)} | {sum(not r[3] for r in b)} ({pct(_frac(b), 2)}) |")
    return 0


def envelope_words(lowest, height_mm) -> str:
    if lowest is None:
        return "not at any height (outside)"
    return f"{lowest / 10:.0f} cm ({'inside' if height_mm >= lowest else 'outside'})"


def _frac(rows):
    return sum(not r[3] for r in rows) / len(rows) if rows else None


def print_hands(hands: list) -> None:
    """Each hand picture: the holes its hand hides from the camera (the truth's record, from
    tests/vision/pathtrace/hand.py) and whether it was read as a position."""
    if not hands:
        return
    old = [f"{s}/{n}" for s, n, covers, _ in hands if covers is None]
    sizes = [len(covers) for _, _, covers, _ in hands if covers is not None]
    print(f"Hand pictures: {len(hands)}; the hand hides {min(sizes)}-{max(sizes)} holes from the camera "
          f"(median {statistics.median(sizes):g})" if sizes else f"Hand pictures: {len(hands)}", end="")
    print(f"; rendered before the truth recorded the holes a hand hides: {', '.join(old)}" if old else "")
    for s, n, covers, read in hands:
        if read:
            print(f"  READ AS A POSITION: {s}/{n}, the hand hiding "
                  f"{'(not recorded)' if covers is None else ', '.join(covers) or 'no hole'}")


def main_games(root: Path, empty: bool, learn: bool = True) -> int:
    """Games: each game set-up's moves replayed from its pictures as the referee matches them."""
    import vision
    print(f"# games of the path-traced set {root.name}{' with empty-board pictures' if empty else ''}; detector "
          f"{Path(vision.__file__).resolve().parent}; {'start holes learnt when known empty' if learn else 'no learning'}; "
          f"load average {' '.join(f'{v:.1f}' for v in os.getloadavg())}\n")
    print("| set-up | game | camera | calibration | moves | per-hole error | positions read | false | "
          "taken without asking | asked | wrong | hands: read / wrong move |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total, hands = Counter(), []
    for folder in games(root):
        su = PathTracedSetUp(folder, empty_picture=empty)
        c = Counter()
        record = replay_game(su, c, learn=learn)
        hands += [(su.name, *h) for h in su.hand_log]
        s = summary(c)
        cam, t, why = su.camera, su.truth, su.refused
        print(f"| {su.name} | seed {record['seed']}, {c['pictures']} of {record['moves_with_pegs']} moves rendered | "
              f"{cam['height_mm'] / 10:.0f} cm, tilt {cam['tilt_deg']:.0f}°, k1 {cam['k1']:.2f}; "
              f"{', '.join(su.colours.values())}, {t['peg']['finish']} | {'refused: ' + why if why else 'accepted'} | "
              f"{c['pictures']} | {pct(s['hole_error'], 2)} | {c['positions_read']} of {c['pictures']} | "
              f"{c['false_positions']} | {c['taken']} ({pct(s['taken'])}) | {c['asked']} | {c['wrong']} | "
              f"{c['hand_positions_read']} / {c['hand_wrong']} of {c['hand_pictures']} |", flush=True)
        total.update(c)
    s = summary(total)
    print(f"\nAll {len(games(root))} games: {total['pictures']} moves, taken without asking {total['taken']} "
          f"({pct(s['taken'])}), asked {total['asked']}, wrong {total['wrong']}; per-hole error {pct(s['hole_error'], 2)}, "
          f"positions read {total['positions_read']}, false positions {total['false_positions']}; hand pictures "
          f"read as a position {total['hand_positions_read']}, a wrong move taken from them {total['hand_wrong']} "
          f"of {total['hand_pictures']}; {total['moves_missing']} moves not rendered; start holes' empty looks learnt "
          f"{total['learnt']}")
    print_hands(hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
