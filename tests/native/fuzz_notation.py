"""Both cores' notation readers on corrupted text: where do their errors differ?

``python -m tests.native.fuzz_notation [--seed S] [--per-text N]`` corrupts (replaces, inserts,
removes one character, or cuts short) the state, observation, move and rules notation of the
positions of a few random games, reads every text with both cores, and prints the differences
grouped by (reference error, native error, known divergence name or None), with one example
each. Not a test: a tool for fixing the native crate's readers (helpers.KNOWN_DIVERGENCES).
"""

from __future__ import annotations

import argparse
import collections
import random
from collections.abc import Callable

from hatsuden_rules import (
    STANDARD,
    Overflow,
    Rules,
    TechTiming,
    apply,
    format_move,
    format_observation,
    format_rules,
    format_state,
    legal_moves,
    new_game,
    observe,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.actions import chance_moves, player_moves

from .helpers import Outcome, divergence, outcome

CHARS = " =,;/.-+#*[]?0123456789SGWHBxCIDPXFAMETN_abcdefghijklmnopqrstuvwxyz"
RULE_SETS = (
    STANDARD,
    Rules(energies=1, max_value=1, copies=2, hand_size=1, city_demand=1, overflow=Overflow.ANY_SET),
    Rules(
        energies=2,
        max_value=2,
        copies=2,
        hand_size=2,
        city_demand=2,
        stall_limit=4,
        tech_timing=TechTiming.PLACE_AT_ONCE,
    ),
)

Reader = Callable[[str], str]
Key = tuple[str, Outcome, Outcome, str | None]


def corrupt(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    char = rng.choice(CHARS)
    how = rng.choice("rric")
    if how == "r":
        return text[:at] + char + text[at + 1 :]
    if how == "i":
        return text[:at] + char + text[at:]
    return text[:at]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-text", type=int, default=30, help="corruptions per text (30)")
    args = parser.parse_args(argv)
    from hatsuden_native import NativeState, canonical  # a script: no import at collection

    rng = random.Random(args.seed)
    groups: dict[Key, list[str]] = collections.defaultdict(list)
    tried = 0

    def compare(kind: str, text: str, reference: Reader, native: Reader) -> None:
        nonlocal tried
        for _ in range(args.per_text):
            corrupted = corrupt(rng, text)
            expected, got = outcome(reference, corrupted), outcome(native, corrupted)
            tried += 1
            if expected != got:
                key = (kind, expected[:2], got[:2], divergence(expected, got))
                groups[key].append(f"{corrupted!r}: {expected} / {got}")

    for rules in RULE_SETS:
        notation = format_rules(rules)
        compare(
            "rules",
            notation,
            lambda t: format_rules(parse_rules(t)),
            lambda t: canonical("rules", t),
        )
        for move in (*player_moves(rules), *chance_moves(rules))[::7]:
            compare(
                "move",
                format_move(move),
                lambda t, r=rules: format_move(parse_move(t, r)),  # type: ignore[misc]
                lambda t, n=notation: canonical("move", t, n),  # type: ignore[misc]
            )
        for seed in (None, rng.randrange(2**64)):
            state = new_game(rules=rules, seed=seed)
            for _ in range(40):
                compare(
                    "state",
                    format_state(state),
                    lambda t: format_state(parse_state(t)),
                    lambda t: NativeState.from_notation(t).notation(),
                )
                for player in (0, 1):
                    compare(
                        "observation",
                        format_observation(observe(state, player)),
                        lambda t: format_observation(parse_observation(t)),
                        lambda t: canonical("observation", t),
                    )
                if state.is_over:
                    break
                state = apply(state, rng.choice(legal_moves(state)))
    print(f"{tried} corrupted texts, {sum(map(len, groups.values()))} differences")
    for (kind, expected, got, known), examples in sorted(
        groups.items(), key=lambda kv: -len(kv[1])
    ):
        print(f"{len(examples):5} {kind:11} reference {expected} native {got} known: {known}")
        print(f"      e.g. {examples[0][-200:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
