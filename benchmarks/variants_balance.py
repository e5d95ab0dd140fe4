"""What the rule variants (R40, R41) change in Greedy self-play: first-player advantage, tech value.

For the default rules and each variant option it plays the same match (same seed, so the same
deals in the same order), Greedy against itself with the seats alternated, and prints a
Markdown table with 95% Wilson intervals: the first player's win rate, and for each tech card
the win rate of the player who drew it (the card's "value"), with the change from the default
and a 95% interval for that change (Newcombe's hybrid score interval; the matches share their
deals, which makes it conservative). It also counts, under ANY_SET, how many overflows were
resolved with more than one plant at once.

    python benchmarks/variants_balance.py --games 2000 --jobs 2

`docs/variants.md` quotes its output (the machine, and so the minutes, vary; the games do not).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Sequence

from hatsuden_rules import STANDARD, FlipSet, Overflow, Rules, Tech, TechTiming
from hatsuden_rules.players import make_player
from hatsuden_rules.simulation import GameSummary, deal_seed, play_game, run_match, wilson_interval

VARIANTS: dict[str, Rules] = {
    "default (KEEP, ONE_AT_A_TIME)": STANDARD,
    "tech_timing=PLACE_AT_ONCE": Rules(tech_timing=TechTiming.PLACE_AT_ONCE),
    "overflow=ANY_SET": Rules(overflow=Overflow.ANY_SET),
}

_Z = 1.959963984540054


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(k: int, n: int) -> str:
    if n == 0:
        return "-"
    low, high = wilson_interval(k, n)
    return f"{_pct(k / n)} ({_pct(low)}-{_pct(high)})"


def _difference(k1: int, n1: int, k0: int, n0: int) -> str:
    """p1 - p0 in points with Newcombe's hybrid score 95% interval (method 10)."""
    if not n0 or not n1:
        return "-"
    p1, p0 = k1 / n1, k0 / n0
    l1, u1 = wilson_interval(k1, n1)
    l0, u0 = wilson_interval(k0, n0)
    d = p1 - p0
    low = d - math.sqrt((p1 - l1) ** 2 + (u0 - p0) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p0 - l0) ** 2)
    return f"{100 * d:+.1f} ({100 * low:+.1f} to {100 * high:+.1f})"


def _tech_rows(games: Sequence[GameSummary]) -> dict[Tech, tuple[int, int]]:
    rows = {}
    for tech in Tech:
        holders = [(g, seat) for g in games for seat in (0, 1) if tech in g.techs_drawn[seat]]
        rows[tech] = (sum(1 for g, seat in holders if g.winner == seat), len(holders))
    return rows


def _multi_flips(rules: Rules, count: int, seed: int) -> tuple[int, int]:
    """FlipSets of more than one plant, and all FlipSets, in the first `count` games."""
    multi = total = 0
    player = make_player("greedy")
    for index in range(count):
        game = play_game((player, player), seed=deal_seed(seed, index), rules=rules)
        for move in game.moves:
            if isinstance(move, FlipSet):
                total += 1
                multi += len(move.cells) > 1
    return multi, total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per variant (default 40)")
    parser.add_argument("--seed", type=int, default=2017, help="match seed (default 2017)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--flip-games", type=int, default=10, help="ANY_SET games replayed to count FlipSets"
    )
    args = parser.parse_args(argv)
    results: dict[str, tuple[GameSummary, ...]] = {}
    for name, rules in VARIANTS.items():
        start = time.perf_counter()
        results[name] = run_match(
            ("greedy", "greedy"), games=args.games, seed=args.seed, rules=rules, jobs=args.jobs
        )
        minutes = (time.perf_counter() - start) / 60
        print(f"{name}: {args.games} games in {minutes:.1f} min", file=sys.stderr, flush=True)
    base = results[next(iter(VARIANTS))]
    base_first = sum(1 for g in base if g.winner == 0)
    base_tech = _tech_rows(base)
    print(f"Greedy self-play, {args.games:,} games per rule set, match seed {args.seed}.\n")
    print("| rules | first player wins (95% CI) | change from default, points (95% CI) |")
    print("|---|---|---|")
    for name, games in results.items():
        first = sum(1 for g in games if g.winner == 0)
        change = "—" if games is base else _difference(first, len(games), base_first, len(base))
        print(f"| {name} | {_interval(first, len(games))} | {change} |")
    print("\nThe win rate of the player who drew each tech card (its value), 95% CI:\n")
    print("| tech card | " + " | ".join(VARIANTS) + " |")
    print("|---|" + "---|" * len(VARIANTS))
    for tech in Tech:
        cells = []
        for games in results.values():
            won, held = _tech_rows(games)[tech]
            text = _interval(won, held) + f", n={held}"
            if games is not base:
                text += "; " + _difference(won, held, *base_tech[tech])
            cells.append(text)
        print(f"| {tech.name} | " + " | ".join(cells) + " |")
    ends = {name: Counter(g.end_reason.name for g in games) for name, games in results.items()}
    print("\nEnd reasons: " + "; ".join(f"{n}: {dict(c)}" for n, c in ends.items()))
    multi, total = _multi_flips(VARIANTS["overflow=ANY_SET"], args.flip_games, args.seed)
    print(
        f"\nUnder ANY_SET, in the first {args.flip_games} games: {total} FlipSets, {multi} of "
        "more than one plant."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
