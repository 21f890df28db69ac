"""Bot-versus-bot simulations: many complete games, summarised.

``simulate(...)`` plays complete games between bots (`companion.bots`); seat
``s`` is played by ``bots[s % len(bots)]``. Everything random comes from the
master ``seed``: game ``i`` is dealt from a shoe seeded with
``game_seed(seed, i)`` and each seat's bot gets an rng seeded with
``bot_seed(seed, i, seat)``, so a run is repeatable and any single game can
be replayed on its own (``Game(preset, players, teams, seed=game_seed(...))``
with the same bots). A game that has not ended after ``max_turns`` turns
raises `SimulationError` naming its seed.
"""
from __future__ import annotations

import hashlib
import math
import random
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple

from .bots import make_bot
from .errors import CompanionError, SetupError
from .families import new_game
from .families.tock.game import STILL_DEALS_TO_DRAW
from .rules import rules_from_json

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from .bots import Bot
    from .game import Game
    from .rules import Rules

# Random bots in Bluffing Joker doubt half the time and take ~10^4-10^5 turns;
# everything else ends in a few thousand at most.
DEFAULT_MAX_TURNS = 200_000


class SimulationError(CompanionError, RuntimeError):
    """A simulated game did not end within the turn cap."""


class GameResult(NamedTuple):
    index: int  # type: ignore[assignment]  # game number in the run, from 0 (shadows tuple.index)
    seed: int         # the shoe seed (Game(..., seed=seed) replays the deal)
    turns: int        # completed turns
    actions: int      # plays made (more than turns with Bluffing Joker doubts)
    winner: int | None  # winning team index; None for a drawn related game (RG-D1)


def _derive(*parts: object) -> int:
    """A 63-bit seed from the parts (stable across runs and Python versions)."""
    text = "pegs-simulate/" + "/".join(map(str, parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seed(seed: int | str, index: int) -> int:
    """The shoe seed of game `index` of a run with master seed `seed`."""
    return _derive(seed, index, "shoe")


def bot_seed(seed: int | str, index: int, seat: int) -> int:
    """The rng seed of the bot at `seat` in game `index`."""
    return _derive(seed, index, "seat", seat)


def _board(sides: int | None) -> dict[str, int]:
    """Carbles' sections (CB-G1) go to the game only when given."""
    return {} if sides is None else {"sides": sides}


def _check_bots(bots: str | Iterable[str]) -> tuple[str, ...]:
    if isinstance(bots, str):
        bots = (bots,)
    names = tuple(bots)
    if not names:
        raise SetupError("bots must name at least one bot")
    for name in names:
        make_bot(name, random.Random(0))  # ValueError for an unknown name
    return names


def play_game(game: Game, bots: Sequence[Bot], max_turns: int = DEFAULT_MAX_TURNS) -> int:
    """Play `game` to the end with one bot per seat; returns the actions made.

    Raises SimulationError if it has not ended after `max_turns` turns.
    """
    actions = 0
    max_actions = 20 * max_turns + 100  # doubt/pass/penalty steps are not turns
    while not game.is_over():
        if game.turn >= max_turns or actions >= max_actions:
            raise SimulationError(
                f"game did not end within {max_turns} turns (seed {game.seed}, "
                f"{game.turn} turns, {actions} plays made); raise max_turns or check the bots")
        actor = game.actor
        assert actor is not None  # a game not over has a seat to act
        bot = bots[actor]
        play = bot.choose(game, game.legal_plays())
        game._push(play)
        actions += 1
    return actions


def iter_games(preset: str | Rules = "basic", players: int = 4, teams: int | None = None, games: int = 100,
               seed: int | str = 0, bots: str | Iterable[str] = ("random",), max_turns: int = DEFAULT_MAX_TURNS,
               sides: int | None = None, bot_options: dict[str, Any] | None = None) -> Iterator[GameResult]:
    """Play the games of a run one by one, yielding each result.

    ``bot_options`` go to every strong bot (e.g. ``{"think_ms": 50}``).
    """
    bot_options = bot_options or {}
    bots = _check_bots(bots)
    rules = rules_from_json(preset)
    if not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a whole number >= 0, not {games!r}")
    for i in range(games):
        gs = game_seed(seed, i)
        game = new_game(rules, players=players, teams=teams, seed=gs, **_board(sides))
        seat_bots = [make_bot(bots[s % len(bots)], random.Random(bot_seed(seed, i, s)),
                              **bot_options) for s in range(players)]
        try:
            actions = play_game(game, seat_bots, max_turns)
        except SimulationError as exc:
            raise SimulationError(f"game {i} of the run (master seed {seed!r}): {exc}") from None
        yield GameResult(i, gs, game.turn, actions, game.winner)


def simulate(preset: str | Rules = "basic", players: int = 4, teams: int | None = None, games: int = 100,
             seed: int | str = 0, bots: str | Iterable[str] = ("random",), progress: Callable[[int, int], None] | None = None,
             max_turns: int = DEFAULT_MAX_TURNS, sides: int | None = None,
             bot_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play `games` complete games between bots and summarise them.

    Seat ``s`` is played by ``bots[s % len(bots)]`` ("random" or "greedy").
    Deterministic for a given seed (apart from the timings). ``progress``,
    if given, is called as ``progress(done, total)`` after each game.

    Returns a JSON-ready dict: ``games``, ``turns_mean``, ``turns_max``,
    ``turns_min``, ``actions_mean``, ``wins`` (per team index), ``draws`` (related
    games ended by RG-D1), ``team_seats``
    and ``team_bots`` (per team), ``games_per_second``, ``seconds``,
    ``preset``, ``players``, ``teams`` (the number of teams), ``bots``,
    ``seed``.
    """
    bots = _check_bots(bots)
    rules = rules_from_json(preset)
    probe = new_game(rules, players=players, teams=teams, seed=0, **_board(sides))  # checks players/teams
    n_teams = len(probe.position.teams)
    team_seats = [[probe.side_seat[c] for c in team] for team in probe.position.teams]
    wins = [0] * n_teams
    draws = 0
    turns_total = actions_total = 0
    turns_max = 0
    turns_min = None
    done = 0
    t0 = time.perf_counter()
    for result in iter_games(rules, players, teams, games, seed, bots, max_turns, sides, bot_options):
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
        turns_total += result.turns
        actions_total += result.actions
        turns_max = max(turns_max, result.turns)
        turns_min = result.turns if turns_min is None else min(turns_min, result.turns)
        done += 1
        if progress is not None:
            progress(done, games)
    seconds = time.perf_counter() - t0
    return {
        "preset": preset if isinstance(preset, str) else rules.to_json(),
        "players": players,
        "teams": n_teams,
        "bots": list(bots),
        "seed": seed,
        "games": done,
        "turns_mean": turns_total / done if done else 0.0,
        "turns_max": turns_max,
        "turns_min": turns_min or 0,
        "actions_mean": actions_total / done if done else 0.0,
        "wins": wins,
        "draws": draws,
        "win_interval": [list(wilson_interval(n, done)) for n in wins],
        "team_seats": team_seats,
        "team_bots": [sorted({bots[s % len(bots)] for s in seats}) for seats in team_seats],
        "games_per_second": done / seconds if seconds > 0 else float("inf"),
        "seconds": seconds,
    }


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share (0-1); (0, 1) with no games."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a few lines of text for people."""
    s = summary
    preset = s["preset"] if isinstance(s["preset"], str) else str(s["preset"])
    lines = [
        f"{preset}, {s['players']} players in {s['teams']} teams; bots by seat: "
        f"{', '.join(s['bots'])} (seed {s['seed']})",
        f"{s['games']} games in {s['seconds']:.2f} s ({s['games_per_second']:.1f} games/s); "
        f"turns per game: mean {s['turns_mean']:.1f}, min {s['turns_min']}, max {s['turns_max']}",
    ]
    games = s["games"] or 1
    for t, n in enumerate(s["wins"]):
        seats = ", ".join(map(str, s["team_seats"][t]))
        who = "/".join(s["team_bots"][t])
        lo, hi = wilson_interval(n, s["games"])
        lines.append(f"team {t} (seats {seats}; {who}): {n} wins ({100.0 * n / games:.1f}%, "
                     f"95% interval {100 * lo:.1f}-{100 * hi:.1f}%)")
    if s.get("draws"):
        lines.append(f"drawn (no peg moved in {STILL_DEALS_TO_DRAW} deals): {s['draws']} games")
    return "\n".join(lines)


__all__ = ["simulate", "format_summary", "iter_games", "play_game", "game_seed", "bot_seed",
           "GameResult", "SimulationError", "wilson_interval", "DEFAULT_MAX_TURNS"]
