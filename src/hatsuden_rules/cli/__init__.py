"""The ``hatsuden`` command (``python -m hatsuden_rules``): play, simulate, replay, check, rules.

- ``hatsuden play [--opponent ismcts|greedy|random] [--seed N] [--first] [--record PATH]``: you
  against a bot; the record goes to a fresh ``hatsuden-game-SEED.txt`` (never overwritten).
- ``hatsuden simulate --players A,B --games N [--jobs J] [--seed S] [--json|--csv]
  [--backend local|ray] [--address ADDR] [--save-games DIR]``: a bot match with seats
  alternated, on every core (or on Ray), the same for a seed whatever J or the backend.
- ``hatsuden demo [--every N]``: a seeded ISMCTS vs Greedy game, a line a turn, the board every
  N turns.
- ``hatsuden rules [R12 ...] [--list]``: the rule text from RULES.md, offline.
- ``hatsuden replay FILE [--html PAGE]``: check a game record and print it, or write it as an
  HTML page to step through (``hatsuden-replay``).
- ``hatsuden check ...``: the exhaustive model checker (``hatsuden-check``, same arguments).

Every command that takes a rule set takes the same rule flags (``--rules NOTATION``,
``--config NAME``, ``--energies``, ``--max-value``, ``--copies``, ``--hand-size``,
``--city-demand``, ``--techs``, ``--tiebreak``, ``--retake/--no-retake``, ``--stall-limit``):
see `hatsuden_rules.cli._flags`.

Exit codes: 0 success, 1 failure (e.g. a record that does not replay, a backend that fails),
2 usage error, 130 interrupted; ``check`` and ``replay`` keep their own commands' codes.

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
from typing import Any

from hatsuden_rules import __version__
from hatsuden_rules.cli._flags import add_rule_flags, rules_from_args
from hatsuden_rules.core.errors import HatsudenError, InvalidInputError, InvalidRulesError
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.players import PLAYERS, Player, make_player

__all__ = ["CommandParser", "build_parser", "did_you_mean", "main", "parse_rules_option"]

PROG = "hatsuden"
_DELEGATED = ("check", "replay")


def _configs() -> dict[str, Rules]:
    from hatsuden_rules.modelcheck._configs import CONFIGS

    return dict(CONFIGS)


def parse_rules_option(text: str) -> Rules:
    """A rule set by name or in notation (``--rules`` and ``--config`` in one).

    ``standard``, a model-checker configuration (``small``, ``medium``, ``large``...) or
    ``notation.format_rules``'s notation. The command line spells these ``--rules NOTATION``
    and ``--config NAME`` (`hatsuden_rules.cli._flags`); this function takes either.

    Examples:
        >>> parse_rules_option("standard") == STANDARD
        True
        >>> parse_rules_option("5/4/2/5/10/SMT/supply/noretake/30").stall_limit
        30
    """
    from hatsuden_rules.cli._flags import parse_rules_text

    configs = _configs()
    key = text.strip().lower()
    if key in configs:
        return configs[key]
    try:
        return parse_rules_text(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error} (or one of: {', '.join(configs)})") from None


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


def _backend(text: str) -> str:
    from hatsuden_rules.simulation import BACKENDS

    key = text.strip().lower()
    if key not in BACKENDS:
        raise argparse.ArgumentTypeError(
            f"unknown backend {text!r}: expected {' or '.join(BACKENDS)}"
        )
    return key


class CommandParser(argparse.ArgumentParser):
    """A subcommand's parser: it refuses an unknown argument itself.

    With its own usage and a did-you-mean (``hatsuden play --opponnent``), rather than leaving
    it to ``hatsuden``'s parser, which prints the top-level usage.
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse like argparse, but exit with a usage error on any argument left over."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}{did_you_mean(self, extras)}")
        return parsed, extras


def did_you_mean(parser: argparse.ArgumentParser, extras: Sequence[str]) -> str:
    """`` (did you mean --opponent?)`` for the first unknown option close to one of `parser`'s.

    Examples:
        >>> parser = argparse.ArgumentParser()
        >>> _ = parser.add_argument("--opponent")
        >>> did_you_mean(parser, ["--opponnent", "greedy"])
        ' (did you mean --opponent?)'
        >>> did_you_mean(parser, ["--colour"])
        ''
    """
    import difflib

    options = [
        option
        for action in parser._actions  # argparse has no public list of the options
        for option in action.option_strings
    ]
    for extra in extras:
        if extra.startswith("-"):
            close = difflib.get_close_matches(extra.partition("=")[0], options, n=1)
            if close:
                return f" (did you mean {close[0]}?)"
    return ""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hatsuden``."""
    names = ", ".join(sorted(PLAYERS))
    configs = _configs()
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="HATSUDEN in the terminal: play against a bot, run bot matches, replay "
        "records, read the rules, model-check them.",
        epilog=f"Players are named {names}, with options as NAME:FIELD=VALUE "
        "(e.g. ismcts:iterations=50).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=CommandParser
    )

    play = commands.add_parser(
        "play",
        help="play against a bot in the terminal",
        description="Play against a bot in the terminal (type help, legend, undo or quit).",
    )
    play.add_argument(
        "--opponent",
        type=_player,
        default="ismcts",
        metavar="PLAYER",
        help=f"{names} (default ismcts)",
    )
    play.add_argument("--seed", type=_int, help="the game's seed (default: a random one, shown)")
    play.add_argument("--first", action="store_true", help="you move first (default: second)")
    where = play.add_argument_group("game record")
    target = where.add_mutually_exclusive_group()
    target.add_argument(
        "--record",
        metavar="PATH",
        help="save the game record here; an existing file is refused unless --force "
        "(default: hatsuden-game-SEED.txt, or -2, -3... if taken)",
    )
    target.add_argument("--no-record", action="store_true", help="do not save a game record")
    where.add_argument("--force", action="store_true", help="with --record: overwrite PATH")
    play.add_argument(
        "--core",
        choices=("python", "native"),
        default="python",
        help="where the bot thinks: python (default) or native (the Rust core, the 'native' "
        "extra: the same moves for random and greedy, a faster ismcts)",
    )
    add_rule_flags(play, configs=configs)

    simulate = commands.add_parser(
        "simulate",
        help="a match between two bots",
        description="A match between two bots, seats alternated (games 2k and 2k+1 share a "
        "deal): the same games for a seed whatever --jobs or --backend.",
    )
    simulate.add_argument(
        "--players", type=_players, required=True, metavar="A,B", help="the two players"
    )
    simulate.add_argument(
        "--games", type=_positive, required=True, metavar="N", help="how many games"
    )
    simulate.add_argument("--seed", type=_int, default=0, metavar="S", help="match seed (0)")
    simulate.add_argument(
        "--core",
        choices=("python", "native"),
        default="python",
        help="python: the reference engine and bots (default); native: every game on the Rust "
        "core (the 'native' extra), the same games for random and greedy players",
    )
    run = simulate.add_argument_group("where the games run")
    run.add_argument(
        "--backend",
        type=_backend,
        default="local",
        metavar="local|ray",
        help="local: processes on this machine (default); ray: a Ray cluster (--address) or a "
        "local Ray instance (needs the 'ray' extra)",
    )
    run.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the cluster to connect to (e.g. auto, ray://head:10001)",
    )
    run.add_argument(
        "--jobs",
        type=_positive,
        metavar="J",
        help="processes (default: every core); with --backend ray, the CPUs of the local Ray "
        "instance",
    )
    output = simulate.add_argument_group("output")
    form = output.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON object on stdout")
    form.add_argument("--csv", action="store_true", help="one CSV row per game on stdout")
    output.add_argument("--quiet", action="store_true", help="no progress on stderr")
    output.add_argument(
        "--save-games",
        metavar="DIR",
        help="save each game's record in DIR as seedS-gameNNNNNN.txt (hatsuden replay opens it)",
    )
    output.add_argument(
        "--force", action="store_true", help="with --save-games: overwrite existing records"
    )
    add_rule_flags(simulate, configs=configs)

    demo = commands.add_parser(
        "demo",
        help="a seeded ISMCTS vs Greedy game, turn by turn",
        description="A seeded game between two bots: one line a turn with a key to the move "
        "notation, the board at a few moments (god view), and the final score sheet.",
    )
    demo.add_argument("--seed", type=_int, default=2, help="the game's seed (2)")
    demo.add_argument(
        "--players",
        type=_players,
        default=("ismcts", "greedy"),
        metavar="A,B",
        help="player 0 and player 1 (default ismcts,greedy)",
    )
    demo.add_argument(
        "--every",
        type=_positive,
        default=10,
        metavar="N",
        help="print the board after every N turns, and at the end (default 10; 1: every turn)",
    )
    add_rule_flags(demo, configs=configs)

    rules = commands.add_parser(
        "rules",
        help="print rules of RULES.md (the specification), offline",
        description="Print rules of RULES.md, the specification errors cite (R12...): "
        "all of it without an id.",
    )
    rules.add_argument("ids", nargs="*", metavar="ID", help="rule ids: R12 (or 12), A5 ...")
    rules.add_argument("--list", action="store_true", help="list every rule: id and title")

    commands.add_parser(
        "replay",
        help="check a game record and print it, or --html PAGE (hatsuden-replay)",
    )
    commands.add_parser("check", help="exhaustive model check (hatsuden-check; same arguments)")
    commands.add_parser(
        "openspiel",
        help="run an OpenSpiel script (MODULE [ARGS...]) with python_hatsuden registered",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hatsuden`` with `argv` (default: the process arguments); return the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "openspiel":
        from hatsuden_rules.cli._openspiel import run_openspiel

        return run_openspiel(args_list[1:])
    if args_list and args_list[0] in _DELEGATED:
        if args_list[0] == "check":
            from hatsuden_rules.cli._check import main as check_main

            return check_main(args_list[1:])
        from hatsuden_rules.cli._replay import main as replay_main

        return replay_main(args_list[1:], prog=f"{PROG} replay")
    parser = build_parser()
    args = parser.parse_args(args_list)
    try:
        if args.command == "rules":
            return _rules(args)
        try:
            args.rules = rules_from_args(args, default=STANDARD, configs=_configs())
        except InvalidRulesError as error:
            print(f"{PROG} {args.command}: error: invalid rules: {error}", file=sys.stderr)
            return 2
        if args.command == "play":
            return _play_command(args)
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


def _usage_error(command: str, message: str) -> int:
    print(f"{PROG} {command}: error: {message}", file=sys.stderr)
    return 2


def _play_command(args: argparse.Namespace) -> int:  # not _play: the submodule cli._play
    from hatsuden_rules.cli._play import fresh_path, play_session

    if args.force and args.record is None:
        return _usage_error("play", "--force goes with --record PATH")
    seed = secrets.randbelow(1_000_000) if args.seed is None else args.seed
    if args.no_record:
        record = None
    elif args.record is not None:
        record = args.record
        if os.path.isdir(record):
            return _usage_error("play", f"--record {record}: is a directory")
        if os.path.lexists(record) and not args.force:
            return _usage_error(
                "play",
                f"--record {record}: the file exists; choose another path or add --force to "
                "overwrite it",
            )
    else:
        record = fresh_path(f"hatsuden-game-{seed}.txt")
    bot: Player = make_player(args.opponent)
    if args.core == "native":
        from hatsuden_rules import native
        from hatsuden_rules.players import NativePlayer

        native.load()  # a missing native core: one line, before the game starts
        bot = NativePlayer(bot)
    return play_session(
        bot,
        bot_name=args.opponent,
        seed=seed,
        human_first=args.first,
        rules=args.rules,
        record_path=record,
        stdin=sys.stdin,
        stdout=sys.stdout,
        overwrite=args.force,
    )


def _simulate(args: argparse.Namespace) -> int:
    from hatsuden_rules.cli._report import Progress, format_csv, format_table
    from hatsuden_rules.simulation import run_match, summarize

    if args.address is not None and args.backend != "ray":
        return _usage_error("simulate", "--address needs --backend ray")
    if args.address is not None and args.jobs is not None:
        return _usage_error(
            "simulate",
            "--jobs sets the CPUs of a local Ray instance: a cluster (--address) uses its own",
        )
    if args.force and args.save_games is None:
        return _usage_error("simulate", "--force goes with --save-games DIR")
    if args.backend == "local":
        jobs: int | None = args.jobs or os.cpu_count() or 1
    else:
        jobs = args.jobs
    progress = None if args.quiet else Progress(sys.stderr)
    start = time.perf_counter()
    try:
        games = run_match(
            args.players,
            games=args.games,
            seed=args.seed,
            rules=args.rules,
            jobs=jobs,
            progress=progress,
            backend=args.backend,
            address=args.address,
            save_games=args.save_games,
            overwrite=args.force,
            core=args.core,
        )
    except ImportError as error:  # the ray or native extra is missing
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - start
    summary = summarize(games)
    if args.json:
        document: dict[str, Any] = summary.to_dict()
        document.update(
            seed=args.seed,
            rules=_rules_json(args.rules),
            rules_notation=_rules_text(args.rules),
            backend=args.backend,
            jobs=jobs,
            seconds=seconds,
            games_per_second=len(games) / max(seconds, 1e-9),
        )
        if args.save_games is not None:
            document["save_games"] = args.save_games
        print(json.dumps(document))
    elif args.csv:
        sys.stdout.write(format_csv(games))
    else:
        print(
            format_table(
                summary,
                rules=args.rules,
                seed=args.seed,
                seconds=seconds,
                jobs=jobs,
                backend=args.backend,
            )
        )
    if args.save_games is not None and not args.quiet:
        from hatsuden_rules.simulation import game_file_name

        example = os.path.join(args.save_games, game_file_name(args.seed, games[0].index))
        print(
            f"{len(games)} game records saved in {args.save_games} "
            f"(open one: hatsuden replay {example})",
            file=sys.stderr,
        )
    return 0


def _rules_text(rules: Rules) -> str:
    from hatsuden_rules.notation import format_rules

    return format_rules(rules)


def _rules_json(rules: Rules) -> dict[str, Any]:
    """The rules as in the library's JSON documents (``to_json``), without the envelope."""
    from hatsuden_rules.serialization import to_json

    document: dict[str, Any] = json.loads(to_json(rules))
    document.pop("type", None)
    document.pop("format_version", None)
    return document


def _demo(args: argparse.Namespace) -> int:
    from hatsuden_rules.cli._demo import run_demo

    names = args.players
    players = (make_player(names[0]), make_player(names[1]))
    run_demo(players, names, args.seed, sys.stdout, rules=args.rules, every=args.every)
    return 0


def _rules(args: argparse.Namespace) -> int:
    from hatsuden_rules.cli._rulebook import UnknownRuleError, load_rulebook, show

    try:
        book = load_rulebook()
    except (FileNotFoundError, OSError) as error:
        print(f"{PROG} rules: {error}", file=sys.stderr)
        return 1
    if args.list:
        if args.ids:
            return _usage_error("rules", "--list takes no rule ids")
        print(book.listing())
        return 0
    try:
        text = show(book, args.ids)
    except UnknownRuleError as error:
        return _usage_error("rules", str(error))
    print(text)
    return 0
