"""Bot tournament (not a pytest test):

    nice python tests/benchmarks/bench_bots.py --preset basic --games 400 --think-ms 150

A team of two strong bots against a team of two greedy bots, 4 players.
Games come in pairs dealt from the same shoe seed with the seats swapped
(strong at seats 0 and 2, then at 1 and 3), so both teams get the same cards
and the same first turn over a pair. Prints the strong team's wins with the
95 % Wilson interval, the strong bot's thinking time per decision (median,
95th percentile, max) and deals searched; ``--jsonl FILE`` appends one line
per game so a long run can be watched and resumed figures read early.
``--memory`` measures, with tracemalloc, the peak memory one decision adds
(on a few mid-game positions) instead of playing a tournament.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from benchkit import cpu_name, pct  # noqa: E402
from companion.families import new_game
from companion.bots import make_bot  # noqa: E402
from companion.game import Game  # noqa: E402
from companion.simulate import bot_seed, game_seed, play_game, wilson_interval  # noqa: E402
from companion.strong import StrongBot  # noqa: E402


class Timed:
    """Wraps a bot and records its thinking time per decision."""

    def __init__(self, bot, times, iterations, cpu_times=None):
        self.bot, self.times, self.iterations = bot, times, iterations
        self.cpu_times = cpu_times if cpu_times is not None else []

    def choose(self, game, plays):
        t, c = time.perf_counter(), time.thread_time()
        play = self.bot.choose(game, plays)
        if len(plays) > 1:
            self.times.append(time.perf_counter() - t)
            self.cpu_times.append(time.thread_time() - c)
            if getattr(self.bot, "last", None) is not None:
                self.iterations.append(self.bot.last.iterations)
        return play


def _budget(args):
    return None if args.think_ms <= 0 else args.think_ms


def tournament(args):
    times, iters, cpu = [], [], []
    strong_wins = games = 0
    out = open(args.jsonl, "a") if args.jsonl else None
    t0 = time.perf_counter()
    for i in range(args.first, args.first + args.games):
        pair, swap = divmod(i, 2)
        gs = game_seed(args.seed, pair)
        game = new_game(args.preset, players=4, seed=gs)
        strong_seats = (1, 3) if swap else (0, 2)
        bots = []
        for s in range(4):
            rng = random.Random(bot_seed(args.seed, i, s))
            if s in strong_seats:
                bots.append(Timed(StrongBot(rng, think_ms=_budget(args),
                                            iterations=args.iterations), times, iters, cpu))
            else:
                bots.append(make_bot(args.vs, rng))
        play_game(game, bots)
        winners = [game.side_seat[c] for c in game.position.teams[game.winner]]
        won = winners[0] in strong_seats
        strong_wins += won
        games += 1
        if out:
            out.write(json.dumps({"game": i, "seed": gs, "strong_seats": strong_seats,
                                  "strong_won": won, "turns": game.turn}) + "\n")
            out.flush()
        if args.progress:
            lo, hi = wilson_interval(strong_wins, games)
            print(f"\r{games}/{args.games}: strong {strong_wins} ({100 * strong_wins / games:.1f}%, "
                  f"{100 * lo:.1f}-{100 * hi:.1f}%)", end="", file=sys.stderr, flush=True)
    if args.progress:
        print(file=sys.stderr)
    seconds = time.perf_counter() - t0
    lo, hi = wilson_interval(strong_wins, games)
    print(f"## Strong vs {args.vs}: {args.preset}, 4 players, {games} games "
          f"(seats alternated, same deals), think "
          f"{f'{args.think_ms:g} ms' if _budget(args) else 'no clock'}, at most {args.iterations} deals")
    print(f"CPU: {cpu_name()} ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}); "
          f"{seconds:.0f} s")
    print(f"- strong team won {strong_wins} of {games}: {100 * strong_wins / games:.1f}% "
          f"(95% Wilson interval {100 * lo:.1f}-{100 * hi:.1f}%)")
    if times:
        ms = [1000 * t for t in times]
        print(f"- thinking per decision ({len(ms)} decisions with a choice): median "
              f"{pct(ms, 50):.0f} ms, 95th percentile {pct(ms, 95):.0f} ms, max {max(ms):.0f} ms; "
              f"deals searched: median {pct(iters, 50)}")
        cms = [1000 * t for t in cpu]
        print(f"- CPU time per decision (the budget's clock): median {pct(cms, 50):.0f} ms, "
              f"95th percentile {pct(cms, 95):.0f} ms")


def memory(args):
    import tracemalloc
    game = new_game(args.preset, players=4, seed=args.seed)
    greedy = make_bot("greedy", random.Random(1))
    peaks = []
    for turn in range(400):
        if game.is_over():
            break
        plays = game.legal_plays()
        if turn % 15 == 7 and len(plays) > 1:
            bot = StrongBot(random.Random(turn), think_ms=_budget(args), iterations=args.iterations)
            tracemalloc.start()
            bot.choose(game, plays)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        game._push(greedy.choose(game, plays))
    print(f"peak memory added by one decision ({len(peaks)} positions, {args.preset}, "
          f"think {args.think_ms} ms under tracemalloc): max {max(peaks) / 1e6:.2f} MB, "
          f"median {pct(peaks, 50) / 1e6:.2f} MB")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="basic")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--think-ms", type=float, default=150.0, help="0: no clock, --iterations deals")
    ap.add_argument("--iterations", type=int, default=400, help="cap on deals per decision")
    ap.add_argument("--vs", default="greedy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first game (split a tournament over processes; keep it even)")
    ap.add_argument("--jsonl", help="append one JSON line per game to this file")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--memory", action="store_true")
    args = ap.parse_args()
    if args.memory:
        memory(args)
    else:
        tournament(args)


if __name__ == "__main__":
    main()
