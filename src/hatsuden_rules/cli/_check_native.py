"""``hatsuden-check --core native``: the model check run by the native checker (issue 21).

The options keep their meaning where they apply (``--config``, the rule flags, ``--positions``,
``--workers``, ``--checkpoint``/``--resume``, ``--max-memory``, ``--max-states``,
``--max-violations``, ``--require-coverage``, ``--symmetry``, ``--json``, ``--value``,
``--golden``, ``--no-tests``, ``--quiet``), with the same verdicts, exit codes, reports and
ready-to-paste tests as the Python core; an option of the Python core only is refused with a
one-line error, never ignored. The native package missing is a one-line error naming its
install command.
``--backend ray [--address ADDR]`` runs the search on Ray actors (`modelcheck._ray`), in a Ray
session of ``--workers`` CPUs or on the cluster at ``ADDR``.

``--engine bfs|ranked`` chooses the native engine: ``bfs`` (breadth-first by layers, 84-bit
fingerprints, shortest counterexamples; the default) or ``ranked`` (issue 21 §2: states in the
order of a ranking function that grows on every transition, stored exactly in files on disk,
memory bounded by ``--max-memory``; the default of ``huge``, `RANKED_CONFIGS`). The Python
core's ``memory`` and ``disk`` are refused here, as ``bfs`` and ``ranked`` are there.

``--symmetry`` means what it means on the Python core (one state per orbit of the row swaps,
``states`` counts orbits, counterexamples are real move sequences) and also works by position;
the native core adds the exact figures of the unreduced search, weighted by orbit sizes (the
``unreduced`` lines of the summary, the ``orbits`` and ``unreduced`` keys of ``--json``), which
``--golden`` compares.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import attrs

from hatsuden_rules import HatsudenError, InvalidRulesError, Rules
from hatsuden_rules.cli._check import PROG, rules_from_args
from hatsuden_rules.modelcheck._configs import POSITION_CONFIGS
from hatsuden_rules.modelcheck._native import (
    NATIVE_EXTRAS,
    native_check_document,
    native_game_value,
    result_from_json,
)
from hatsuden_rules.modelcheck._report import format_summary, result_dict, rules_json, rules_line
from hatsuden_rules.modelcheck._result import EXIT_CODES, CheckResult

__all__ = ["PYTHON_ONLY", "RANKED_CONFIGS", "run_native"]

#: The options of the Python core only, with what the native core does instead.
PYTHON_ONLY: dict[str, tuple[str, str]] = {
    "max_depth": ("--max-depth", "the native search has no depth limit: use --max-states"),
    "max_seconds": ("--max-seconds", "the native search has no time limit: use --max-states"),
    "soundness": ("--soundness", "the native core checks soundness on 1 position in 256"),
    "exhaustive": (
        "--exhaustive",
        "the native core checks R29 on every state, R35 on 1 transition in 16",
    ),
    "progress_every": ("--progress-every", "the native core prints a line per layer"),
}


#: The configurations the native core checks with the ranked engine by default (as
#: ``hatsuden-native-check``): their visited set does not fit in memory.
RANKED_CONFIGS = ("huge",)


def _error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def _emit(text: str) -> None:
    try:
        print(text, flush=True)
    except BrokenPipeError:  # a reader that went away (| head) is not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _refused(args: argparse.Namespace) -> list[str]:
    """The options given that only the Python core has."""
    found = []
    for name, (flag, why) in PYTHON_ONLY.items():
        value = getattr(args, name, None)
        if value is not None and value is not False:
            found.append(f"{flag} does not apply to --core native ({why})")
    return found


def run_native(args: argparse.Namespace) -> int:
    """Run the model check (or ``--value``) of the parsed arguments on the native core."""
    refused = _refused(args)
    if refused:
        return _error(refused[0])
    if args.resume and args.checkpoint is None:
        return _error("--resume needs --checkpoint DIR")
    try:
        rules = rules_from_args(args)
    except InvalidRulesError as error:
        return _error(f"invalid rules: {error}")
    positions = args.config in POSITION_CONFIGS if args.positions is None else args.positions
    if args.engine in ("memory", "disk"):
        return _error(
            f"--engine {args.engine} does not apply to --core native (its engines are bfs and"
            " ranked)"
        )
    ranked = args.engine == "ranked" or (
        args.engine is None and args.config in RANKED_CONFIGS and args.backend != "ray"
    )
    if ranked and args.backend == "ray":
        return _error("--engine ranked does not apply to --backend ray (use --engine bfs)")
    if args.address is not None and args.backend != "ray":
        return _error("--address needs --backend ray")
    if args.backend == "ray":
        for flag, given in (
            ("--max-memory", args.max_memory),
            ("--value", args.value or None),
            ("--symmetry", args.symmetry or None),
        ):
            if given is not None:
                return _error(f"{flag} does not apply to --backend ray (it runs on one machine)")
    try:
        if args.value:
            value = native_game_value(rules)
            if args.json:
                _emit(json.dumps({"rules": rules_json(rules), "value": str(value)}))
            else:
                _emit(
                    f"rules {rules_line(rules)}\nvalue for player 0: {value} = {float(value):.6f}"
                )
            return 0
        if args.backend == "ray":
            document = _ray_document(args, rules, positions)
        else:
            document = native_check_document(
                rules,
                positions=positions,
                workers=args.workers or 1,
                max_states=args.max_states,
                max_memory=args.max_memory,
                checkpoint=args.checkpoint,
                resume=args.resume,
                max_violations=args.max_violations,
                progress=not args.quiet,
                require_coverage=True if args.require_coverage else None,
                symmetry=args.symmetry,
                ranked=ranked,
            )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        if args.checkpoint is not None:
            print(
                f"{PROG}: resume from the last layer with --core native --checkpoint"
                f" {args.checkpoint} --resume",
                file=sys.stderr,
            )
        return 130
    except (ImportError, HatsudenError) as error:
        return _error(str(error))
    result = result_from_json(document, rules)
    if args.json:
        data: dict[str, Any] = result_dict(result)
        data.update({key: document[key] for key in NATIVE_EXTRAS if key in document})
        _emit(json.dumps(data, indent=2))
    else:
        _emit(_with_symmetry(format_summary(result, tests=not args.no_tests), document))
    code = EXIT_CODES[result.result]
    if result.result == "TRUNCATED" and args.checkpoint is not None:
        print(
            f"{PROG}: stopped by {result.stopped_by}; continue with --core native --checkpoint "
            f"{args.checkpoint} --resume",
            file=sys.stderr,
        )
    if args.golden is not None and code == 0:
        from hatsuden_rules.cli._check import _compare_golden

        return _compare_golden(_unreduced(result, document), args.golden, args.config)
    return code


def _unreduced(result: CheckResult, document: dict[str, Any]) -> CheckResult:
    """`result` with the unreduced figures of a run with symmetry, else `result` itself.

    A golden entry counts every state or position, not the orbits.
    """
    unreduced = document.get("unreduced")
    if not document.get("symmetry") or not unreduced:
        return result
    return attrs.evolve(
        result,
        states=unreduced["states"],
        transitions=unreduced["transitions"],
        terminal_states=unreduced["terminal_states"],
        terminal_by_reason={k.upper(): n for k, n in unreduced["terminal_by_reason"].items()},
        chance_nodes=unreduced["chance_nodes"],
    )


def _with_symmetry(summary: str, document: dict[str, Any]) -> str:
    """`summary` with the unreduced figures of a run with symmetry, after the longest game."""
    unreduced = document.get("unreduced")
    if not document.get("symmetry") or not unreduced:
        return summary
    identity = "positions" if document["positions"] else "states"
    by_reason = ", ".join(f"{k.upper()} {n:,}" for k, n in unreduced["terminal_by_reason"].items())
    extra = [
        f"symmetry          {document['orbits']:,} orbits of the row swaps (a player's two cities"
        " are interchangeable); the unreduced search, by orbit sizes:",
        f"  {identity:<11} {unreduced['states']:,}",
        f"  transitions {unreduced['transitions']:,}",
        f"  terminal    {unreduced['terminal_states']:,}"
        + (f"  ({by_reason})" if by_reason else ""),
        f"  chance      {unreduced['chance_nodes']:,}",
    ]
    lines = summary.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("longest game")), 0)
    return "\n".join([*lines[:at], *extra, *lines[at:]])


def _ray_document(args: argparse.Namespace, rules: Rules, positions: bool) -> dict[str, Any]:
    """The check on Ray: a local instance of ``--workers`` CPUs, or the cluster ``--address``."""
    from hatsuden_rules.modelcheck._ray import ray_check
    from hatsuden_rules.simulation._ray import ray_session

    workers = args.workers or 1
    with ray_session(args.address, jobs=workers):
        return ray_check(
            rules,
            positions=positions,
            workers=workers,
            checkpoint=args.checkpoint,
            resume=args.resume,
            max_states=args.max_states,
            max_violations=args.max_violations,
            progress=None if args.quiet else _progress,
            require_coverage=True if args.require_coverage else None,
        )


def _progress(line: str) -> None:
    print(f"{PROG}: {line}", file=sys.stderr, flush=True)
