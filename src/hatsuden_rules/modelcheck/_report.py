"""Reports of a model check: a summary for humans, a JSON-ready dict, counterexamples as tests."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

import hatsuden_rules
from hatsuden_rules import (
    Decision,
    EndReason,
    Move,
    Overflow,
    Phase,
    Rules,
    Tech,
    TechTiming,
    to_dict,
)
from hatsuden_rules.modelcheck._result import CheckResult, Violation
from hatsuden_rules.notation import TECH_CODES, format_move, format_rules

__all__ = [
    "format_divide",
    "format_moves",
    "format_perft",
    "format_summary",
    "format_violation",
    "json_event",
    "pytest_text",
    "result_dict",
    "rules_dict",
    "rules_expression",
    "rules_json",
    "rules_line",
    "variants_dict",
]

_RULE_FIELDS = tuple(field.name for field in attrs.fields(Rules) if field.init)


def _sorted_techs(techs: Iterable[Tech]) -> list[Tech]:
    return sorted(techs, key=lambda tech: tech.index)


def rules_dict(rules: Rules) -> dict[str, Any]:
    """Every field of `rules` as JSON-ready values: techs as sorted names, enums by name.

    Examples:
        >>> rules_dict(Rules())["techs"]
        ['ACCUMULATOR', 'DOWN', 'SECRET_BUILD', 'SMART']
    """
    fields: dict[str, Any] = {
        "energies": rules.energies,
        "max_value": rules.max_value,
        "copies": rules.copies,
        "hand_size": rules.hand_size,
        "city_demand": rules.city_demand,
        "techs": sorted(tech.name for tech in rules.techs),
        "tiebreak": rules.tiebreak.name,
        "allow_retake_discard": rules.allow_retake_discard,
        "stall_limit": rules.stall_limit,
    }
    return fields | variants_dict(rules)


def variants_dict(rules: Rules) -> dict[str, str]:
    """The variant options of `rules` not at their defaults (R40, R41), enums by name.

    Left out at their defaults, so that the figures of every earlier configuration stand.
    """
    out = {}
    if rules.tech_timing is not TechTiming.KEEP:
        out["tech_timing"] = rules.tech_timing.name
    if rules.overflow is not Overflow.ONE_AT_A_TIME:
        out["overflow"] = rules.overflow.name
    return out


def rules_json(rules: Rules) -> dict[str, Any]:
    """`rules` as the library's JSON document (`to_dict`): what every JSON output carries.

    Examples:
        >>> rules_json(Rules())["tiebreak"], rules_json(Rules())["techs"][:2]
        ('city_points', ['accumulator', 'secret_build'])
    """
    return to_dict(rules)


_ENUMS: dict[str, type[Phase] | type[EndReason] | type[Decision]] = {
    "phase": Phase,
    "end": EndReason,
    "decided": Decision,
}


def json_event(event: str) -> str:
    """An event name with the library's JSON spelling of its enum member (moves keep theirs).

    Examples:
        >>> json_event("end FINAL_TURN"), json_event("move Construct")
        ('end final_turn', 'move Construct')
    """
    kind, _, name = event.partition(" ")
    enum = _ENUMS.get(kind)
    if enum is None or name not in enum.__members__:
        return event
    return f"{kind} {enum[name].value}"


def rules_line(rules: Rules) -> str:
    """`rules` in rules notation, then each field as the command-line rule flag that sets it.

    Spelled as a user writes them (``--rules``, ``--techs ACC``, ``--tiebreak city_points``),
    not as Python names; the field flags are in the fixed order of the fields.

    Examples:
        >>> print(rules_line(Rules(techs=[Tech.DOWN, Tech.SMART])))
        5/4/2/5/10/SMT+DWN/city_points/retake/20 (--energies 5 --max-value 4 --copies 2 \
--hand-size 5 --city-demand 10 --techs SMT,DWN --tiebreak city_points --retake --stall-limit 20)
    """
    techs = ",".join(TECH_CODES[tech] for tech in _sorted_techs(rules.techs)) or "none"
    flags = [
        f"--energies {rules.energies}",
        f"--max-value {rules.max_value}",
        f"--copies {rules.copies}",
        f"--hand-size {rules.hand_size}",
        f"--city-demand {rules.city_demand}",
        f"--techs {techs}",
        f"--tiebreak {rules.tiebreak.value}",
        "--retake" if rules.allow_retake_discard else "--no-retake",
        f"--stall-limit {'none' if rules.stall_limit is None else rules.stall_limit}",
    ]
    defaults = Rules()
    for name in ("tech_timing", "overflow"):  # the variants (R40, R41), when not the default
        value = getattr(rules, name)
        if value != getattr(defaults, name):
            flags.append(f"--{name.replace('_', '-')} {value.value}")
    return f"{format_rules(rules)} ({' '.join(flags)})"


def rules_expression(rules: Rules, indent: str = "") -> str:
    """A `Rules(...)` constructor expression for `rules`, one field per line after `indent`.

    The output does not depend on hash order, so a generated test is reproducible.
    """
    values: dict[str, str] = {}
    for name in _RULE_FIELDS:
        value = getattr(rules, name)
        if name == "techs":
            techs = ", ".join(repr(tech) for tech in _sorted_techs(value))
            values[name] = f"frozenset({{{techs}}})" if techs else "frozenset()"
        else:
            values[name] = repr(value)
    inner = "".join(f"{indent}    {name}={text},\n" for name, text in values.items())
    return f"Rules(\n{inner}{indent})"


def format_moves(path: Sequence[Move]) -> str:
    """The moves of `path`, numbered from 1, one per line (each a constructor expression)."""
    if not path:
        return "  (no move: the initial state)"
    width = len(str(len(path)))
    return "\n".join(f"  {i:>{width}}. {move!r}" for i, move in enumerate(path, 1))


def format_violation(violation: Violation) -> str:
    """A violation for humans: its rule, its message and the numbered shortest move list."""
    return (
        f"{violation.rule}: {violation.message}\n"
        f"shortest path from new_game() ({len(violation.path)} moves):\n"
        f"{format_moves(violation.path)}"
    )


def _split_arguments(call: str) -> tuple[str, list[str]] | None:
    """``Name(a, b(c, d))`` as ``("Name", ["a", "b(c, d)"])``, or None if not a call with args."""
    head, paren, rest = call.partition("(")
    if not paren or not rest.endswith(")") or rest == ")":
        return None
    arguments, depth, start = [], 0, 0
    inner = rest[:-1]
    for i, char in enumerate(inner):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(inner[start:i].strip())
            start = i + 1
    arguments.append(inner[start:].strip())
    return head, arguments


def _item_lines(expression: str, indent: str, width: int = 100) -> str:
    """`expression` as a list item at `indent`, wrapped the way ``ruff format`` would."""
    line = f"{indent}{expression},\n"
    split = _split_arguments(expression)
    if len(line) <= width + 1 or split is None:
        return line
    head, arguments = split
    inner = f"{indent}    {', '.join(arguments)}\n"
    if len(inner) > width + 1:
        inner = "".join(f"{indent}    {argument},\n" for argument in arguments)
    return f"{indent}{head}(\n{inner}{indent}),\n"


_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def pytest_text(violation: Violation, rules: Rules, name: str | None = None) -> str:
    """A ready-to-paste pytest module that replays `violation` and fails while the bug exists.

    The test replays the shortest path from `new_game(rules=Rules(...))` with
    `replay_problems`, which re-runs on every state and every step the very property checks of
    the model checker (and looks for a repeated state, a cycle, R25); it asserts that none
    fails. An `IllegalMoveError` during the replay (a legal move refused, R35) fails it as well.

    Args:
        violation: What the checker found.
        rules: The rules it was found with.
        name: The test function's name; by default derived from the rule.
    """
    name = name or f"test_modelcheck_counterexample_{violation.rule.lower()}"
    rules_text = rules_expression(rules, indent="    ")
    moves = "".join(_item_lines(repr(move), " " * 8) for move in violation.path)
    moves_text = f"[\n{moves}    ]" if moves else "[]"
    public = set(hatsuden_rules.__all__)
    used = {word for word in _IDENTIFIER.findall(rules_text + moves_text) if word in public}
    names = sorted(used, key=lambda s: (s[0].islower(), s))
    imports = f"from hatsuden_rules import {', '.join(names)}"
    if len(imports) > 100:
        imports = "from hatsuden_rules import (\n" + "".join(f"    {n},\n" for n in names) + ")"
    headline = f"hatsuden-check reported {violation.rule}: {violation.message}"
    comment = textwrap.fill(
        headline, width=100, initial_indent="    # ", subsequent_indent="    # "
    )
    failure = json.dumps(f"{violation.rule} is still broken: ")
    return f'''{imports}
from hatsuden_rules.modelcheck import replay_problems


def {name}() -> None:
    """Shortest counterexample found by hatsuden-check: {violation.rule}."""
    rules = {rules_text}
    moves = {moves_text}
    problems = replay_problems(rules, moves)
{comment}
    assert not problems, {failure} + repr(problems)
'''


def _reasons(by_reason: dict[str, int]) -> dict[str, int]:
    return {EndReason[name].value: count for name, count in by_reason.items()}


def result_dict(result: CheckResult) -> dict[str, Any]:
    """`result` as a JSON-ready dict (`json.dumps` takes it as is).

    Enum members use the library's JSON spellings (`to_json`): the rules are a rules document,
    end reasons and the enum in an event name are lower-case values, and the moves of a
    counterexample are in notation (`format_move`).
    """
    return {
        "result": result.result,
        "states": result.states,
        "transitions": result.transitions,
        "terminal_states": result.terminal_states,
        "terminal_by_reason": _reasons(result.terminal_by_reason),
        "chance_nodes": result.chance_nodes,
        "max_depth": result.max_depth,
        "longest_game": result.longest_game,
        "seconds": result.seconds,
        "states_per_second": result.states_per_second,
        "peak_memory_mb": result.peak_memory_mb,
        "rules": rules_json(result.rules),
        "violations": [
            {
                "rule": violation.rule,
                "message": violation.message,
                "path": [format_move(move) for move in violation.path],
            }
            for violation in result.violations
        ],
        "unreached": [json_event(event) for event in result.unreached],
        "coverage_required": result.coverage_required,
        "events": {json_event(event): count for event, count in result.events.items()},
        "exhaustive": result.exhaustive,
        "positions": result.positions,
        "engine": result.engine,
        "workers": result.workers,
        "soundness_checked": result.soundness_checked,
        "collision_probability": result.collision_probability,
        "collision_bound": result.collision_bound,
        "table_bytes": result.table_bytes,
        "stopped_by": result.stopped_by,
    }


def format_summary(result: CheckResult, *, tests: bool = True) -> str:
    """A summary of `result` for humans, ending with the result line.

    Args:
        result: What the check found.
        tests: Also print each violation as a ready-to-paste pytest test.
    """
    by_reason = ", ".join(f"{reason} {n:,}" for reason, n in result.terminal_by_reason.items())
    if result.longest_game is not None:
        longest = f"{result.longest_game:,} plies"
    elif any(v.rule == "R25" and "cycle" in v.message for v in result.violations):
        longest = "none (the graph has a cycle)"
    else:
        longest = "unknown (the run was cut short)"
    lines = [
        f"rules             {rules_line(result.rules)}",
        f"distinct states   {result.states:,}",
        f"transitions       {result.transitions:,}",
        f"terminal states   {result.terminal_states:,}" + (f"  ({by_reason})" if by_reason else ""),
        f"chance nodes      {result.chance_nodes:,}",
        f"max depth         {result.max_depth:,}",
        f"longest game      {longest}",
        f"time              {result.seconds:,.2f} s  ({result.states_per_second:,.0f} states/s)",
        f"peak memory       {result.peak_memory_mb:,.0f} MB",
        "checks            "
        + (
            "every check on every state and transition (--exhaustive)"
            if result.exhaustive
            else "R35 on 1 transition in 16, R29 score() once or more per grids and Smart; "
            "the rest on all"
            if result.engine == "native"
            else "R35 on 1 transition in 16, R29 score() once per grids and Smart; the rest on all"
        ),
    ]
    if result.positions:
        lines.append(
            "identity          positions (turn logs and known cards dropped; soundness checked"
            f" on {result.soundness_checked:,} states, known cards step by step)"
        )
    elif result.soundness_checked:
        lines.append(
            f"soundness         positions checked on {result.soundness_checked:,} full states"
        )
    if result.engine != "memory":
        lines.append(
            f"engine            {result.engine}, {result.workers} worker(s), fingerprint table "
            f"{result.table_bytes / max(result.states, 1):.1f} bytes/state"
        )
    if result.collision_probability is not None:
        lines.append(
            f"fingerprints      {result.fingerprint_bits}-bit; collision probability"
            f" {result.collision_probability:.2g}"
            f" (TLC's estimate), at most {result.collision_bound:.2g} (birthday bound)"
        )
    if result.unreached and result.coverage_required:
        lines.append("never reached (non-vacuity: each must occur at least once):")
        lines += [f"  {event}" for event in result.unreached]
    elif result.unreached:
        lines.append(
            "warning: never reached (not required of this rule set; --require-coverage"
            " makes it fail):"
        )
        lines += [f"  {event}" for event in result.unreached]
    for i, violation in enumerate(result.violations, 1):
        lines += ["", f"violation {i}/{len(result.violations)}  {format_violation(violation)}"]
        if tests:
            lines += ["", "as a pytest test:", "", pytest_text(violation, result.rules).rstrip()]
    lines.append("")
    if result.result == "TRUNCATED":
        limit = result.stopped_by or "a state, depth or time limit"
        lines.append(f"result: TRUNCATED (stopped by {limit}: nothing is proven)")
    elif result.result == "VIOLATION":
        lines.append(f"result: VIOLATION ({len(result.violations)} violation(s))")
    elif result.result == "UNCOVERED":
        lines.append(
            f"result: UNCOVERED (nothing failed, but {len(result.unreached)} required event(s)"
            " never reached)"
        )
    else:
        lines.append(f"result: {result.result}")
    return "\n".join(lines)


def format_perft(counts: Sequence[int]) -> str:
    """Perft counts for humans: one ``depth N: count`` line per depth, from 1."""
    return "\n".join(f"depth {depth}: {count}" for depth, count in enumerate(counts, 1))


def format_divide(counts: Sequence[tuple[Move, int]]) -> str:
    """Divide counts for humans, python-chess style: ``move: count`` lines, then the total.

    Moves are in the library's notation (`format_move`).
    """
    lines = [f"{format_move(move)}: {count}" for move, count in counts]
    lines.append(f"total: {sum(count for _, count in counts)}")
    return "\n".join(lines)


def golden_record(result: CheckResult, perft_counts: list[int]) -> dict[str, Any]:
    """The numbers a golden file pins for a configuration: any rules change shows up in them."""
    return {
        "rules": rules_json(result.rules),
        "positions": result.positions,
        "states": result.states,
        "transitions": result.transitions,
        "terminal_states": result.terminal_states,
        "terminal_by_reason": _reasons(result.terminal_by_reason),
        "chance_nodes": result.chance_nodes,
        "max_depth": result.max_depth,
        "longest_game": result.longest_game,
        "perft": list(perft_counts),
    }
