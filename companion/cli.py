"""The `pegs` command.

The rules commands live here. `serve`, `hw-test`, `vision` and the other
commands of web/, hardware/ and vision/ are found through the
``pegs.commands`` entry-point group, so companion never imports them.
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, NoReturn

from .errors import PositionError, SetupError
from .moves import RANK_SET, RANKS

if TYPE_CHECKING:
    from collections.abc import Iterable

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, status 2, no usage dump
        self.exit(EXIT_BAD_INPUT, f"pegs: {message}\n")


def _fail(message: str) -> int:
    print(f"pegs: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _read_json(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        raise SetupError(f"can't read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SetupError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SetupError(f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise SetupError(f"{path} is nested too deeply to be a position or a record") from None
    except ValueError as exc:   # e.g. a number of more than 4300 digits
        raise SetupError(f"{path} is not usable JSON: {str(exc).split(';')[0]}") from None


# What a malformed input can still raise deep in the engine once the edge checks pass;
# each becomes one line and exit 2, never a traceback.
_BAD_INPUT = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def _non_negative(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def _words(exc: Exception, what: str) -> str:
    """One line for a bad input: our own ValueErrors say it; anything else is named briefly."""
    text = str(exc).splitlines()[0][:300] if str(exc) else ""
    if isinstance(exc, RecursionError):
        return f"{what}: nested too deeply"
    if isinstance(exc, ValueError):
        return text or what
    return f"{what} ({type(exc).__name__}: {text or 'a value of the wrong type'})"


def _parse_hand(text: str) -> list[str]:
    ranks = [w.strip().upper() for w in text.split(",") if w.strip()]
    if not ranks:
        raise SetupError("--hand is empty; give ranks like A,7,JK")
    bad = [r for r in ranks if r not in RANK_SET]
    if bad:
        raise SetupError(f"--hand has {', '.join(map(repr, bad))}, not a rank ({' '.join(RANKS)})")
    return ranks


def cmd_moves(args: argparse.Namespace) -> int:
    from .families import PEGS, find_family
    from .notation import moves_report, position_from_json
    try:
        pos = position_from_json(_read_json(args.position))
        family = find_family(pos.rules)
        if family is not PEGS:  # RG-N2: the game's own deck
            words = [w for w in (args.hand or "").split(",") if w.strip()]
            if args.hand is not None and not words:
                raise SetupError("--hand is empty; give ranks like A,7,K")
            ranks = [family.parse_rank(pos.rules, w) for w in words] if args.hand is not None else None
        else:
            ranks = _parse_hand(args.hand) if args.hand is not None else None
        report = moves_report(pos, ranks)
    except (PositionError, *_BAD_INPUT) as exc:
        return _fail(_words(exc, f"{args.position} is not a valid position"))
    json.dump(report, sys.stdout, indent=args.indent)
    sys.stdout.write("\n")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .rules import (ALL_PRESETS, DESCRIPTIONS, GENERAL_RULINGS, OPTION_DOCS, RELATED_PRESETS,
                        RULINGS, SWITCH_DOCS, SWITCHES, differences)
    if args.preset_option is not None:
        if args.preset not in (None, args.preset_option):
            return _fail(f"two presets given: {args.preset!r} and --preset {args.preset_option!r}")
        args.preset = args.preset_option
    if args.preset is None:
        if args.json:
            json.dump({p: DESCRIPTIONS[p] for p in ALL_PRESETS}, sys.stdout, indent=2)
            print()
            return 0
        for name in ALL_PRESETS:
            print(f"{name}\n  {DESCRIPTIONS[name]}\n")
        print("Options (combine with a preset in a position's rules field):")
        for name, (_, doc) in OPTION_DOCS.items():
            print(f"  {name}: {doc}")
        return 0
    if args.preset not in ALL_PRESETS:
        return _fail(f"unknown preset {args.preset!r}; known presets: {', '.join(ALL_PRESETS)}")
    if args.preset in RELATED_PRESETS:  # RELATED-GAMES.md S: its switches, not basic's options
        info = {"preset": args.preset, "description": DESCRIPTIONS[args.preset],
                "switches": {k: SWITCH_DOCS[k] for k in SWITCHES[args.preset]},
                "differences": differences(args.preset), "rulings": RULINGS[args.preset]}
        if args.json:
            json.dump(info, sys.stdout, indent=2)
            print()
            return 0
        print(f"{args.preset}\n\n{info['description']}\n\nSwitches (rules options, RG-N5):")
        for name, doc in info["switches"].items() or [("(none)", "")]:
            print(f"  - {name}: {doc}" if doc else f"  - {name}")
        print("\nEngine options it sets (differences from basic):")
        for line in info["differences"]:
            print(f"  - {line}")
        print("\nRulings where RELATED-GAMES.md is silent:")
        for line in info["rulings"]:
            print(f"  - {line}")
        return 0
    info = {"preset": args.preset, "description": DESCRIPTIONS[args.preset],
            "differences": differences(args.preset),
            "rulings": RULINGS.get(args.preset, []) + GENERAL_RULINGS}
    if args.json:
        json.dump(info, sys.stdout, indent=2)
        print()
        return 0
    print(f"{args.preset}\n\n{info['description']}\n\nDifferences from basic:")
    for line in info["differences"] or ["(none: this is the basic game)"]:
        print(f"  - {line}")
    if info["rulings"]:
        print("\nRulings where the texts are silent:")
        for line in info["rulings"]:
            print(f"  - {line}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from .rules import ALL_PRESETS
    from .simulate import format_summary, simulate
    if args.preset not in ALL_PRESETS:
        return _fail(f"unknown preset {args.preset!r}; known presets: {', '.join(ALL_PRESETS)}")
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.think_ms is not None and not 1 <= args.think_ms <= 60_000:
        return _fail("--think-ms must be between 1 and 60000")
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    show = sys.stderr.isatty() or args.progress

    def progress(done: int, total: int) -> None:
        if show and (done == total or done % max(1, total // 100) == 0):
            print(f"\rsimulating: {done}/{total} games", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    try:
        summary = simulate(preset=args.preset, players=args.players, teams=args.teams,
                           games=args.games, seed=args.seed, bots=bots, progress=progress,
                           sides=args.sides,
                           bot_options={} if args.think_ms is None else {"think_ms": args.think_ms})
    except ValueError as exc:
        return _fail(str(exc))
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        print(format_summary(summary))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .families import game_from_record
    from .notation import position_to_json
    try:
        record = _read_json(args.record)
        game = game_from_record(record, upto=args.upto)
        out = {"moves_replayed": len(game.history), "turns": game.turn, "phase": game.phase,
               "winner_seats": game.player_view(None)["winner"],
               "position": position_to_json(game.position)}
        if getattr(game, "drawn", False):  # RG-D1: ended with no winner
            out["drawn"] = True
    except _BAD_INPUT as exc:
        return _fail(_words(exc, f"{args.record} is not a valid game record"))
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        print(f"replayed {out['moves_replayed']} moves, {out['turns']} turns")
        if out["winner_seats"] is not None:
            print(f"winners: seats {', '.join(map(str, out['winner_seats']))}")
        elif out.get("drawn"):
            print("the game is drawn: no peg moved in many deals in a row (RG-D1)")
        else:
            print(f"game not over; seat {game.actor} to act")
        print(json.dumps(out["position"]))
    return 0


@functools.lru_cache(maxsize=None)
def _plugins() -> dict[str, EntryPoint]:
    # read once a process: scanning every installed package's metadata costs more than
    # `pegs moves` itself, and the tests call main() in process thousands of times
    return {ep.name: ep for ep in entry_points(group="pegs.commands")}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegs", description="Pegs and Jokers companion: rules engine and referee.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("moves", help="list the legal moves of a position (NOTATION.md)")
    p.add_argument("position", help="position JSON file, or - for standard input")
    p.add_argument("--hand", help="comma-separated ranks, e.g. A,7,JK")
    p.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("rules", help="describe the presets, or one preset's differences from basic")
    p.add_argument("preset", nargs="?")
    p.add_argument("--preset", dest="preset_option", metavar="PRESET",
                   help="the same as the PRESET argument (as simulate spells it)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("simulate", help="play games between built-in bots and summarise them")
    p.add_argument("--preset", default="basic")
    p.add_argument("--players", type=int, default=4, choices=tuple(range(2, 13)),
                   help="2, 4, 6, 8, 10 (Pegs and Jokers); Tock 4 (tock3: 3), Jackaroo 4, "
                        "Carbles 2-6 or 4, 6, 8, 12 in partnership")
    p.add_argument("--sides", type=int, default=None,
                   help="Carbles board sections: 4, 6, 8 or 12 (default: the smallest that fits)")
    p.add_argument("--teams", type=int, default=None, help="number of teams (T1); default 2")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="random",
                   help="comma-separated bots per seat (seat s plays bots[s %% n]): random, greedy, "
                        "strong, or the levels easy, medium (greedy), hard (strong)")
    p.add_argument("--think-ms", type=float, default=None,
                   help="the strong bot's CPU time per decision in milliseconds (default 140)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true", help="show progress even when not on a terminal")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="replay a game record and show where it ends")
    p.add_argument("record", help="game record JSON file, or - for standard input")
    p.add_argument("--upto", type=_non_negative, default=None, help="replay only the first N moves")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    for name, ep in sorted(_plugins().items()):
        sub.add_parser(name, help=f"(from {ep.value.split(':')[0]})", add_help=False)
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    plugins = _plugins()
    if argv and argv[0] in plugins:
        return int(plugins[argv[0]].load()(argv[1:]) or 0)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
