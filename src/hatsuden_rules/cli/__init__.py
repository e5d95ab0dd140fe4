"""The ``hatsuden`` command (``python -m hatsuden_rules``): play, simulate, replay, check, demo.

- ``hatsuden play [--opponent ismcts|greedy|random] [--seed N] [--first]``: you against a bot.
- ``hatsuden simulate --players A,B --games N [--jobs J] [--seed S] [--rules R] [--json|--csv]``:
  a bot match with seats alternated, on every core by default, the same for a seed whatever J.
- ``hatsuden replay FILE [--html PAGE]``: check a game record and print it, or write it as an
  HTML page to step through (``hatsuden-replay``).
- ``hatsuden check ...``: the exhaustive model checker (``hatsuden-check``, same arguments).
- ``hatsuden demo``: a seeded ISMCTS vs Greedy game printed turn by turn.

Exit codes: 0 success, 1 failure (e.g. a record that does not replay), 2 usage error, 130
interrupted; ``check`` and ``replay`` keep their own commands' codes.

Examples:
    >>> main(["simulate", "--players", "greedy,random", "--games", "2", "--jobs", "1",
    ...       "--json", "--quiet"])  # doctest: +ELLIPSIS
    {"players": ["greedy", "random"], "games": 2, "wins": {"greedy": 2, "random": 0}, ...}
    0
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from collections.abc import Sequence

from .. import __version__
from .._errors import HatsudenError, InvalidInputError
from .._rules import STANDARD, Rules
from ..players import PLAYERS, make_player

__all__ = ["build_parser", "main", "parse_rules_option"]

PROG = "hatsuden"
_DELEGATED = ("check", "replay")


def parse_rules_option(text: str) -> Rules:
    """The rule set of ``--rules``: a name, or rules notation.

    The names are ``standard`` and the model checker's configurations (``small``, ``medium``,
    ``large``); the notation is ``notation.format_rules``'s, e.g.
    ``5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20``.

    Examples:
        >>> parse_rules_option("standard") == STANDARD
        True
        >>> parse_rules_option("5/4/2/5/10/SMT/supply/noretake/30").stall_limit
        30
    """
    from ..modelcheck import CONFIGS
    from ..notation import parse_rules

    key = text.strip().lower()
    if key == "standard":
        return STANDARD
    if key in CONFIGS:
        return CONFIGS[key]
    try:
        return parse_rules(text.strip())
    except InvalidInputError as error:
        names = ", ".join(["standard", *CONFIGS])
        raise argparse.ArgumentTypeError(f"{error} (or one of: {names})") from None


def _players(text: str) -> tuple[str, str]:
    specs = [spec.strip() for spec in text.split(",")]
    if len(specs) != 2 or not all(specs):
        raise argparse.ArgumentTypeError(f"expected two players A,B, got {text!r}")
    for spec in specs:
        try:
            make_player(spec)
        except InvalidInputError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return (specs[0], specs[1])


def _player(text: str) -> str:
    try:
        make_player(text)
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an int >= 1, got {text!r}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an int, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hatsuden``."""
    names = ", ".join(sorted(PLAYERS))
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="HATSUDEN in the terminal: play against a bot, run bot matches, replay "
        "records, model-check the rules.",
        epilog=f"Players are named {names}, with options as NAME:FIELD=VALUE "
        "(e.g. ismcts:iterations=50).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    play = commands.add_parser("play", help="play against a bot in the terminal")
    play.add_argument(
        "--opponent",
        type=_player,
        default="ismcts",
        metavar="PLAYER",
        help=f"{names} (default ismcts)",
    )
    play.add_argument("--seed", type=_int, help="the game's seed (default: a random one, shown)")
    play.add_argument("--first", action="store_true", help="you move first (default: second)")
    play.add_argument(
        "--rules", type=parse_rules_option, default=STANDARD, metavar="RULES", help="rule set"
    )
    where = play.add_mutually_exclusive_group()
    where.add_argument(
        "--record",
        metavar="FILE",
        help="where to save the game record (default hatsuden-game-SEED.txt)",
    )
    where.add_argument("--no-record", action="store_true", help="do not save a game record")

    simulate = commands.add_parser("simulate", help="a match between two bots")
    simulate.add_argument(
        "--players", type=_players, required=True, metavar="A,B", help="the two players"
    )
    simulate.add_argument("--games", type=_positive, required=True, metavar="N")
    simulate.add_argument(
        "--jobs", type=_positive, metavar="J", help="processes (default: every core)"
    )
    simulate.add_argument("--seed", type=_int, default=0, metavar="S", help="match seed (0)")
    simulate.add_argument(
        "--rules",
        type=parse_rules_option,
        default=STANDARD,
        metavar="RULES",
        help="standard (default), small, medium, large, or rules notation "
        "energies/max_value/copies/hand_size/city_demand/techs/tiebreak/retake/stall_limit",
    )
    output = simulate.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object on stdout")
    output.add_argument("--csv", action="store_true", help="one CSV row per game on stdout")
    simulate.add_argument("--quiet", action="store_true", help="no progress on stderr")

    demo = commands.add_parser("demo", help="a seeded ISMCTS vs Greedy game, turn by turn")
    demo.add_argument("--seed", type=_int, default=2, help="the game's seed (2)")
    demo.add_argument(
        "--players",
        type=_players,
        default=("ismcts", "greedy"),
        metavar="A,B",
        help="player 0 and player 1 (default ismcts,greedy)",
    )

    commands.add_parser(
        "replay",
        help="check a game record and print it, or --html PAGE (hatsuden-replay)",
    )
    commands.add_parser("check", help="exhaustive model check (hatsuden-check; same arguments)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hatsuden`` with `argv` (default: the process arguments); return the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in _DELEGATED:
        if args_list[0] == "check":
            from ..modelcheck._cli import main as check_main

            return check_main(args_list[1:])
        from ..replay_cli import main as replay_main

        return replay_main(args_list[1:])
    args = build_parser().parse_args(args_list)
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "simulate":
            return _simulate(args)
        return _demo(args)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0
    except HatsudenError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1


def _play(args: argparse.Namespace) -> int:
    from ._play import play_session

    seed = secrets.randbelow(1_000_000) if args.seed is None else args.seed
    record = None if args.no_record else (args.record or f"hatsuden-game-{seed}.txt")
    return play_session(
        make_player(args.opponent),
        bot_name=args.opponent,
        seed=seed,
        human_first=args.first,
        rules=args.rules,
        record_path=record,
        stdin=sys.stdin,
        stdout=sys.stdout,
    )


def _simulate(args: argparse.Namespace) -> int:
    from ..simulation import run_match, summarize
    from ._report import Progress, format_csv, format_table

    jobs = args.jobs or os.cpu_count() or 1
    progress = None if args.quiet else Progress(sys.stderr)
    start = time.perf_counter()
    games = run_match(
        args.players,
        games=args.games,
        seed=args.seed,
        rules=args.rules,
        jobs=jobs,
        progress=progress,
    )
    seconds = time.perf_counter() - start
    summary = summarize(games)
    if args.json:
        document = summary.to_dict()
        document.update(
            seed=args.seed,
            rules=_rules_text(args.rules),
            jobs=jobs,
            seconds=seconds,
            games_per_second=len(games) / max(seconds, 1e-9),
        )
        print(json.dumps(document))
    elif args.csv:
        sys.stdout.write(format_csv(games))
    else:
        print(format_table(summary, rules=args.rules, seed=args.seed, seconds=seconds, jobs=jobs))
    return 0


def _rules_text(rules: Rules) -> str:
    from ..notation import format_rules

    return format_rules(rules)


def _demo(args: argparse.Namespace) -> int:
    from ._demo import run_demo

    names = args.players
    run_demo((make_player(names[0]), make_player(names[1])), names, args.seed, sys.stdout)
    return 0
