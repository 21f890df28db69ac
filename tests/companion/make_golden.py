"""Record the engine's behaviour that the issue-24 refactor must not change
(run from the repository root, on the commit to compare against):

    python tests/companion/make_golden.py

Writes tests/companion/data/golden/:

- moves_cases.jsonl.gz: `pegs moves` input and its exact stdout for every perft
  position (no --hand) and for seeded position x hand cases of every preset
  (positions from seeded random games at every seat layout, and synthetic
  positions crowded around the landmarks; hands drawn from the preset's deck);
- decisions.json: the SHA-256 of the easy, medium and hard bots' decisions for
  fixed seeds in every preset (the hard bot with no clock and a fixed number
  of deals, so that it is deterministic).

test_golden.py replays both and compares byte for byte / hash for hash.
"""
from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import random
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))   # the checkout: tests/ is a package

from companion import cli  # noqa: E402
from companion.families import new_game  # noqa: E402
from companion.notation import position_to_json  # noqa: E402
from companion.rules import ALL_PRESETS, PRESETS, RELATED_PRESETS  # noqa: E402

OUT = os.path.join(HERE, "data", "golden")
PEGS_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")


def run_moves(position: dict, hand: str | None) -> tuple[int, str, str]:
    """`pegs moves FILE [--hand H]` in process: (status, stdout, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(position, f)
        path = f.name
    try:
        out, err = io.StringIO(), io.StringIO()
        argv = ["moves", path] + (["--hand", hand] if hand is not None else [])
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
        return code, out.getvalue(), err.getvalue().replace(path, "POSITION")
    finally:
        os.unlink(path)


def layouts(preset: str):
    """(players, teams) the preset's games are played with."""
    if preset in PRESETS:
        return ((2, None), (4, 2), (6, 2), (6, 3), (8, 2), (8, 4), (10, 2))
    return {"tock": ((4, None),), "tock_partnership": ((4, None),), "tock3": ((3, None),),
            "carbles": ((2, None), (3, None), (4, None), (5, None), (6, None)),
            "carbles_partnership": ((4, None), (6, None), (8, None), (12, None)),
            "jackaroo": ((4, None),), "jackaroo_individual": ((4, None),)}[preset]


def deck_words(preset: str) -> tuple[str, ...]:
    if preset in PRESETS:
        return PEGS_RANKS
    from companion.families.tock.position import deck_ranks
    return tuple(deck_ranks(ALL_PRESETS[preset]))


def game_positions(preset, players, teams, seed, every):
    """(position dict, actor's hand words) at play-phase rest points of a seeded random game."""
    game = new_game(preset, players=players, teams=teams, seed=seed)
    rng = random.Random(seed * 31 + players)
    n = 0
    while not game.is_over() and n < 3000:
        if game.phase == "play" and n % every == every - 1:
            pos = game.position
            hand = game.hands[game.actor]
            if preset in PRESETS:
                from companion.cards import rank_of
                words = [rank_of(c) for c in hand]
            else:
                from companion.families.tock.position import card_rank
                words = [card_rank(game.rules, c) for c in hand]
            yield position_to_json(pos), list(dict.fromkeys(words))
        plays = game.legal_plays()
        game._push(rng.choice(plays))
        n += 1


def synthetic(preset, rng):
    if preset in PRESETS:
        from tests.companion import sampling
        return sampling.random_position(rng, preset=preset)
    from tests.companion.families.tock import test_related_differential as trd
    outs = [lay for lay in trd.layouts() if lay[0] == preset]
    _, sections, sides, teams = rng.choice(outs)
    return trd.random_position(rng, preset, sections, sides, teams)


def cases():
    out = []
    for path in sorted(os.listdir(os.path.join(HERE, "data", "perft"))):
        with open(os.path.join(HERE, "data", "perft", path)) as f:
            for entry in json.load(f):
                out.append({"source": f"perft/{path}/{entry['name']}", "position": entry["position"],
                            "hand": None})
    for preset in ALL_PRESETS:
        rng = random.Random(f"golden-{preset}")
        words = deck_words(preset)
        n_game = 0
        for k, (players, teams) in enumerate(layouts(preset)):
            want = max(12, 100 // len(layouts(preset)))
            got = 0
            seed = 1000 + k
            while got < want:
                for position, hand in game_positions(preset, players, teams, seed, every=37):
                    if got >= want:
                        break
                    out.append({"source": f"game/{preset}/{players}x{teams}/{seed}",
                                "position": position, "hand": ",".join(hand)})
                    extra = rng.sample(words, rng.randint(1, min(6, len(words))))
                    out.append({"source": f"game/{preset}/{players}x{teams}/{seed}/drawn",
                                "position": position, "hand": ",".join(extra)})
                    got += 1
                    n_game += 1
                seed += 100
        for i in range(60):
            position = synthetic(preset, rng)
            hand = rng.sample(words, rng.randint(1, min(7, len(words))))
            out.append({"source": f"synthetic/{preset}/{i}", "position": position,
                        "hand": ",".join(hand)})
        out.append({"source": f"synthetic/{preset}/all", "position": synthetic(preset, rng),
                    "hand": None})
    out += error_cases()
    return out


def error_cases():
    """Bad input: the one-line message and exit status must not change either."""
    four = {str(k): ["S"] * 5 for k in range(4)}
    base = {"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4,
            "teams": [[0, 2], [1, 3]], "pegs": four, "to_move": 0}
    tock = {**base, "rules": "tock", "teams": [[0], [1], [2], [3]],
            "pegs": {str(k): ["S"] * 4 for k in range(4)}}
    jack = {**tock, "rules": "jackaroo", "teams": [[0, 2], [1, 3]]}
    bad = [
        (base, "Z"), (base, ","), (base, "A,7,XX"), (tock, "JK"), (tock, ""), (jack, "J"),
        (jack, "Jr,Qb,Q"), ({**base, "sides": 5}, None), ({**base, "sides": 12}, None),
        ({**base, "pegs": {**four, "0": ["M3", "M3", "S", "S", "S"]}}, None),
        ({**base, "pegs": {**four, "0": ["S"] * 4}}, None), ({**base, "to_move": 7}, None),
        ({**base, "rules": "nosuch"}, None), ({**base, "rules": {"preset": "basic", "options": {"ten": 3}}}, None),
        ({**base, "format": "x"}, None), ({**base, "teams": [[0, 1, 2, 3]]}, "A"),
        ({**tock, "sides": 6}, None), ({**tock, "pegs": {**tock["pegs"], "1": ["H9", "S", "S", "S"]}}, None),
        ({**tock, "rules": {"preset": "tock", "options": {"open_hand": True}}}, None),
        ({**base, "rules": {"preset": "basic", "options": {"deal": [4], "seven": "split"}}}, None),
        ({**base, "counting": {"0": -1}}, None), ({**tock, "skips": {"9": 1}}, None),
        ([1, 2], None), ("text", None), ({}, None),
    ]
    return [{"source": f"error/{i}", "position": pos, "hand": hand} for i, (pos, hand) in enumerate(bad)]


# ------------------------------------------------------------------ decisions
DECISION_SEEDS = (11, 12)


def decision_trace(preset: str, level: str, seed: int, max_actions: int) -> list[str]:
    """Every decision of `level` bots in all seats of a seeded 4-seat game (3 for tock3)."""
    from companion.bots import make_bot
    players = 3 if preset == "tock3" else 4
    game = new_game(preset, players=players, seed=seed)
    opts = {"think_ms": None, "iterations": 6} if level == "hard" else {}
    bots = [make_bot(level, random.Random(seed * 100 + s), **opts) for s in range(players)]
    trace = []
    n = 0
    while not game.is_over() and n < max_actions:
        plays = game.legal_plays()
        play = bots[game.actor].choose(game, plays)
        trace.append(f"{game.actor}:{play.card}:{play.move.kind}:{play.move.rank}:"
                     f"{play.move.steps!r}:{getattr(play, 'declared', None)!r}")
        game._push(play)
        n += 1
    trace.append(f"over={game.is_over()} turn={game.turn}")
    return trace


def decision_hashes() -> dict:
    out = {}
    for preset in ALL_PRESETS:
        for level, max_actions in (("easy", 400), ("medium", 400), ("hard", 40)):
            for seed in DECISION_SEEDS:
                trace = decision_trace(preset, level, seed, max_actions)
                h = hashlib.sha256("\n".join(trace).encode()).hexdigest()
                out[f"{preset}/{level}/{seed}"] = {"actions": len(trace) - 1, "sha256": h}
    return out


def main() -> int:
    os.makedirs(OUT, exist_ok=True)
    all_cases = cases()
    with gzip.open(os.path.join(OUT, "moves_cases.jsonl.gz"), "wt", compresslevel=9) as f:
        for case in all_cases:
            code, stdout, stderr = run_moves(case["position"], case["hand"])
            case.update(status=code, stdout=stdout, stderr=stderr)
            f.write(json.dumps(case, sort_keys=True) + "\n")
    print(f"{len(all_cases)} moves cases", file=sys.stderr)
    with open(os.path.join(OUT, "decisions.json"), "w") as f:
        json.dump(decision_hashes(), f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
