"""``make verify-native``: many seeded random games on both cores, over every named rule set.

``python -m tests.native.verify_native [--games N] [--explicit N]`` plays, for STANDARD,
PRINTED, the tie-break-by-supply and overflow variants of the printed game and every
configuration of the model checker (``hatsuden_rules.modelcheck.CONFIGS``), N seeded games
``new_game(rules, seed=k)`` (k < N) on both cores with every choice drawn by the portable
sampler from ``SplitMix64(k)``, plus N explicit-chance games (``new_game(rules)``, the deals drawn
by the same sampler); the cores must play the same plies and end in the same state (compared
through the notation): any difference in the legal moves, their order, the chance weights or
a transition changes the game. Exits 1 on the first difference, naming the rule set and seed.
"""

from __future__ import annotations

import argparse
import sys
import time

from hatsuden_rules import (
    PRINTED,
    STANDARD,
    Overflow,
    Rules,
    SplitMix64,
    TechTiming,
    Tiebreak,
    format_rules,
    format_state,
    new_game,
)
from hatsuden_rules import native as facade
from hatsuden_rules.modelcheck import CONFIGS

from .helpers import random_game

NAMED: dict[str, Rules] = {
    "STANDARD": STANDARD,
    "PRINTED": PRINTED,
    "supply-any-set-place-at-once": Rules(
        tiebreak=Tiebreak.SUPPLY,
        allow_retake_discard=False,
        overflow=Overflow.ANY_SET,
        tech_timing=TechTiming.PLACE_AT_ONCE,
    ),
    **CONFIGS,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="seeded games per rule set")
    parser.add_argument("--explicit", type=int, default=1_000, help="explicit-chance games")
    args = parser.parse_args(argv)
    facade.load()
    from hatsuden_native import NativeState, playouts

    total = 0
    for name, rules in NAMED.items():
        start, plies = time.perf_counter(), 0
        # PRINTED has no stall limit (R25): a random game may go on for long; cap it.
        cap = 5_000
        for seeded, count in ((True, args.games), (False, args.explicit)):
            for k in range(count):
                seed = k if seeded else None
                state = new_game(rules=rules, seed=seed)
                end, n, _ = random_game(state, SplitMix64.from_seed(k), cap)
                stats = playouts(NativeState.new_game(format_rules(rules), seed), 1, k, cap)
                native_end = stats.last_state
                if (
                    stats.plies != n
                    or native_end is None
                    or native_end.notation() != (format_state(end))
                ):
                    mode = f"seed={k}" if seeded else f"explicit, sampler seed {k}"
                    print(f"DIFFERENT: {name} ({format_rules(rules)}), {mode}: {n} / {stats.plies}")
                    return 1
                plies += n
        games = args.games + args.explicit
        total += games
        print(
            f"{name:30} {games:>7} games {plies:>10} plies identical "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    print(f"all {total} games identical on both cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
