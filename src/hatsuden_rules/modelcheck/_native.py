"""The native model checker (``hatsuden-check --core native``), read back as a `CheckResult`.

The search runs in Rust (the crate ``hatsuden-check``, reached through the binding of the
``hatsuden-native`` package, the ``native`` extra): the same properties under the same rule
numbers, the same non-vacuity events, the same figures and verdicts as `check`, with 84-bit
fingerprints, the frontier and the parent records on disk, and every check on every state and
transition. Its result arrives as the JSON document of ``hatsuden-native-check --json`` and
becomes the `CheckResult` the reports of this package print, so a counterexample comes with
the same ready-to-paste pytest test.

The search runs in a thread of its own while this thread waits for it, so that Ctrl-C
(``KeyboardInterrupt``) reaches the caller at once; the native run then stops with the process,
and its last completed layer stays resumable in its checkpoint directory.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from hatsuden_rules import InvalidInputError, Rules
from hatsuden_rules.modelcheck._result import CheckResult, Violation
from hatsuden_rules.notation import format_rules, parse_move

__all__ = [
    "NATIVE_EXTRAS",
    "native_check",
    "native_check_document",
    "native_game_value",
    "result_from_json",
]

#: The keys of the native checker's JSON document that `result_dict` does not have.
NATIVE_EXTRAS = (
    "fingerprint_bits",
    "layer_sizes",
    "packed_words",
    "bytes_sent",
    "symmetry",
    "orbits",
    "unreduced",
    "layered",
    "native_engine",
)

#: How often the waiting thread wakes up to let a Ctrl-C through (seconds).
_POLL = 0.2


def _event(name: str) -> str:
    """An event name from its JSON spelling back to `required_events`' (end stall: end STALL)."""
    kind, _, rest = name.partition(" ")
    if kind in ("phase", "end", "decided"):
        return f"{kind} {rest.upper()}"
    return name


def result_from_json(data: Mapping[str, Any], rules: Rules) -> CheckResult:
    """The `CheckResult` of the native checker's JSON document `data` for `rules`.

    Moves are read back from their notation (`parse_move`), events and end reasons from their
    JSON spellings.
    """
    violations = tuple(
        Violation(
            rule=item["rule"],
            message=item["message"],
            path=tuple(parse_move(text, rules) for text in item["path"]),
        )
        for item in data["violations"]
    )
    return CheckResult(
        rules=rules,
        result=data["result"],
        states=data["states"],
        transitions=data["transitions"],
        terminal_states=data["terminal_states"],
        terminal_by_reason={
            reason.upper(): count for reason, count in data["terminal_by_reason"].items()
        },
        chance_nodes=data["chance_nodes"],
        max_depth=data["max_depth"],
        longest_game=data["longest_game"],
        seconds=float(data["seconds"]),
        peak_memory_mb=float(data["peak_memory_mb"]),
        violations=violations,
        unreached=tuple(_event(event) for event in data["unreached"]),
        events={_event(event): count for event, count in data["events"].items()},
        exhaustive=False,  # R35 is re-applied on 1 transition in 16, as by default in Python
        coverage_required=bool(data["coverage_required"]),
        positions=bool(data["positions"]),
        engine=str(data.get("engine", "native")),
        workers=int(data["workers"]),
        soundness_checked=int(data["soundness_checked"]),
        collision_probability=data["collision_probability"],
        collision_bound=data["collision_bound"],
        table_bytes=int(data["table_bytes"]),
        stopped_by=data["stopped_by"],
        fingerprint_bits=int(data.get("fingerprint_bits", 64)),
    )


def _wait(work: Any, *args: Any, **kwargs: Any) -> Any:
    """``work(*args, **kwargs)`` run in a daemon thread; this thread waits, Ctrl-C reaches it."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work(*args, **kwargs)
        except BaseException as error:  # handed to the waiting thread as is
            outcome["error"] = error

    thread = threading.Thread(target=run, name="hatsuden-native-check", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(_POLL)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def native_check(
    rules: Rules,
    *,
    positions: bool = False,
    workers: int = 1,
    max_states: int | None = None,
    max_memory: int | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
    max_violations: int = 10,
    progress: bool = False,
    require_coverage: bool | None = None,
    symmetry: bool = False,
    ranked: bool = False,
) -> CheckResult:
    """Check `rules` with the native model checker; the arguments are those of `check`.

    R29 (`score()`) is checked on every state, R35 (determinism) re-applies 1 transition in
    16, every other check runs on every state and transition. Without `checkpoint` the run's
    files go into a temporary directory, removed at the end. `progress` prints a line per layer
    on stderr (from Rust). `symmetry` stores one state (or position) per orbit of the row swaps:
    the result's `states` then counts orbits, as `check(..., symmetry=True)` does (the unreduced
    figures are in the JSON document of `native_check_document`). `ranked` runs the ranked
    engine (issue 21 §2): states processed in the order of a ranking function that grows on
    every transition, stored exactly (packed words, no fingerprints) in files on disk, the same
    figures as the breadth-first engine.

    Raises:
        NativeUnavailableError: The native package is not installed (the message names
            ``pip install 'hatsuden-rules[native]'``).
        InvalidInputError: The checkpoint directory holds another run, or none to resume.
    """
    document = native_check_document(
        rules,
        positions=positions,
        workers=workers,
        max_states=max_states,
        max_memory=max_memory,
        checkpoint=checkpoint,
        resume=resume,
        max_violations=max_violations,
        progress=progress,
        require_coverage=require_coverage,
        symmetry=symmetry,
        ranked=ranked,
    )
    return result_from_json(document, rules)


def native_check_document(rules: Rules, **options: Any) -> dict[str, Any]:
    """`native_check`'s result as the JSON document of ``hatsuden-native-check --json``.

    The keys of `result_dict`, plus the native engine's ``fingerprint_bits``, ``layer_sizes``
    (the states of each breadth-first layer) and ``packed_words`` (64-bit words a packed state).
    """
    from hatsuden_rules.native import load

    module = load()
    if options.get("resume") and options.get("checkpoint") is None:
        raise InvalidInputError("resume", "--resume needs --checkpoint DIR")
    text = _wait(module.model_check, format_rules(rules), **options)
    document: dict[str, Any] = json.loads(text)
    return document


def native_game_value(rules: Rules) -> Fraction:
    """The exact value of `rules` for player 0 (perfect play, perfect information), natively.

    The same number as `game_value` (backward induction in Rust, exact rationals).

    Raises:
        NativeUnavailableError: The native package is not installed.
        InvalidInputError: `rules.stall_limit` is None (the game need not end).
    """
    from hatsuden_rules.native import load

    if rules.stall_limit is None:
        raise InvalidInputError("rules", "stall_limit=None: without the stall rule no value exists")
    value, _ = _wait(load().game_value, format_rules(rules))
    return Fraction(value)
