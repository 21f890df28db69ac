"""Engine benchmark (not a pytest test): python tests/benchmarks/bench_engine.py [--quick]

Prints Markdown the README can include:

(a) legal-move listing for a 6-card hand in mid-game 4-player basic positions
    (turns 100-900 of seeded random games, the player to move holding 6 cards):
    the position-level work ``list(pos.legal_moves(ranks))`` plus
    ``pos.discard_allowed(ranks)``, and ``game.legal_plays()`` as the game
    calls it (which does exactly that and wraps each move in a Play);
(b) complete 4-player basic games between uniform-random bots in one process;
(c) the same for every preset, random bots and greedy bots.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from benchkit import cpu_name  # noqa: E402
from companion.families import new_game
from companion.bots import make_bot  # noqa: E402
from companion.cards import rank_of  # noqa: E402
from companion.game import Game  # noqa: E402
from companion.rules import PRESETS  # noqa: E402
from companion.simulate import simulate  # noqa: E402


def machine() -> str:
    cpu = cpu_name()
    return (f"{cpu}, {os.cpu_count()} logical cores, Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.release()}")


def _time_ns(fn, repeats: int, blocks: int = 3) -> float:
    """Mean ns per call: the best of `blocks` runs of `repeats` calls."""
    best = None
    clock = time.perf_counter_ns
    for _ in range(blocks):
        t0 = clock()
        for _ in range(repeats):
            fn()
        dt = (clock() - t0) / repeats
        best = dt if best is None else min(best, dt)
    return best


def _pct(values, p):
    v = sorted(values)
    k = (len(v) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def bench_listing(positions: int, repeats: int, seed: int = 2024):
    """(a): time legal-move listing at sampled mid-game positions."""
    pos_ns, game_ns, hand_ns, n_plays, n_moves = [], [], [], [], []
    g = 0
    while len(pos_ns) < positions:
        game = new_game("basic", players=4, seed=seed * 1000 + g)
        rng = random.Random(seed * 1000 + g)
        bot = make_bot("random", rng)
        pick = random.Random(-(seed * 1000 + g))
        g += 1
        while not game.is_over() and game.turn <= 900 and len(pos_ns) < positions:
            hand = game.hands[game.actor]
            if game.turn >= 100 and game.phase == "play" and len(hand) == 6 \
                    and pick.random() < 0.03:
                pos = game.position
                ranks = list(dict.fromkeys(rank_of(c) for c in hand))

                def listing():
                    list(pos.legal_moves(ranks))
                    pos.discard_allowed(ranks)

                pos_ns.append(_time_ns(listing, repeats))
                if hasattr(pos, "hand_moves"):  # the one-pass form the game uses, if any
                    hand_ns.append(_time_ns(lambda: pos.hand_moves(ranks), repeats))
                game_ns.append(_time_ns(game.legal_plays, repeats))
                n_plays.append(len(game.legal_plays()))
                n_moves.append(len(list(pos.legal_moves(ranks))))
            game._push(bot.choose(game, game.legal_plays()))
    return {"positions": len(pos_ns), "games": g, "repeats": repeats,
            "pos_us": [x / 1000 for x in pos_ns], "game_us": [x / 1000 for x in game_ns],
            "hand_us": [x / 1000 for x in hand_ns],
            "plays": n_plays, "moves": n_moves}


def bench_games(preset: str, games: int, bots, seed: int = 1):
    return simulate(preset, players=4, games=games, seed=seed, bots=bots)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer positions and games (about 20 s)")
    ap.add_argument("--profile", action="store_true",
                    help="also profile random 4-player basic games (top functions, to stderr)")
    args = ap.parse_args(argv)

    if args.quick:
        n_pos, repeats, n_games, n_preset, n_bluff_random = 60, 30, 12, 4, 1
    else:
        n_pos, repeats, n_games, n_preset, n_bluff_random = 300, 200, 60, 30, 4

    out = []
    p = out.append
    p("### Engine benchmark" + (" (quick)" if args.quick else ""))
    p("")
    p(f"Machine: {machine()}. One process, one core.")
    p("")

    t0 = time.perf_counter()
    a = bench_listing(n_pos, repeats)
    p(f"**(a) Legal-move listing, 6-card hand, 4-player basic.** {a['positions']} positions "
      f"at turns 100-900 of {a['games']} seeded random games, the player to move holding 6 "
      f"cards; each figure is the best of 3 runs of {a['repeats']} calls, per hand.")
    p("")
    p("| what | median µs | p90 µs | mean µs |")
    p("| --- | ---: | ---: | ---: |")
    for label, key in (("`pos.legal_moves(ranks)` + `pos.discard_allowed(ranks)`", "pos_us"),
                       ("`pos.hand_moves(ranks)` (both in one pass)", "hand_us"),
                       ("`game.legal_plays()`", "game_us")):
        v = a[key]
        if not v:
            continue
        p(f"| {label} | {statistics.median(v):.1f} | {_pct(v, 0.9):.1f} | {statistics.fmean(v):.1f} |")
    p("")
    p(f"Legal plays per hand: median {statistics.median(a['plays']):.0f}, "
      f"mean {statistics.fmean(a['plays']):.1f}, max {max(a['plays'])} "
      f"({sum(1 for x in a['moves'] if x == 0)} of {a['positions']} hands could only discard).")
    p("")

    b = bench_games("basic", n_games, ("random",))
    p(f"**(b) Complete games, 4-player basic, uniform-random bots:** {b['games']} games in "
      f"{b['seconds']:.2f} s: **{b['games_per_second']:.1f} games/s**, "
      f"{b['turns_mean']:.0f} turns per game (max {b['turns_max']}), "
      f"{b['games_per_second'] * b['turns_mean']:.0f} turns/s.")
    p("")

    p(f"**(c) Every preset, 4 players** ({n_preset} games each; random bots in Bluffing "
      f"Joker: {n_bluff_random}, they doubt half the time and games run to tens of "
      f"thousands of turns). Greedy: greedy bots in every seat.")
    p("")
    p("| preset | random: turns/game | random: games/s | greedy: turns/game | greedy: games/s |")
    p("| --- | ---: | ---: | ---: | ---: |")
    for preset in PRESETS:
        nr = n_bluff_random if preset == "bluffing_joker" else n_preset
        r = bench_games(preset, nr, ("random",))
        gr = bench_games(preset, n_preset, ("greedy",))
        p(f"| {preset} | {r['turns_mean']:.0f} | {r['games_per_second']:.1f} | "
          f"{gr['turns_mean']:.0f} | {gr['games_per_second']:.1f} |")
    p("")
    p(f"Total benchmark time {time.perf_counter() - t0:.0f} s.")
    print("\n".join(out))

    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        bench_games("basic", 10 if args.quick else 30, ("random",))
        prof.disable()
        pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
