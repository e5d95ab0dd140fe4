"""Balance report: the first player's win rate and the win-rate effect of each tech card.

Plays Greedy vs Greedy and ISMCTS vs ISMCTS matches (seats alternated, `hatsuden_rules.simulation`)
and reports, with 95% Wilson intervals, how often the first player wins and, for each tech card,
how often the player who drew it won. `make balance` runs the full report and writes BALANCE.md:

    python examples/balance.py --games 10000 --ismcts-games 10000 --output BALANCE.md

Without options it plays a tiny report (a few seconds; `make test` runs every example) and
prints it. Drawing a tech card is not random (it follows a 4 built or improved, and drawing is a
choice), so a card's figure is the win rate of players who drew it, not a controlled effect.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from hatsuden_rules import STANDARD, Tech
from hatsuden_rules.cli._report import Progress
from hatsuden_rules.notation import format_rules
from hatsuden_rules.simulation import GameSummary, run_match, summarize, wilson_interval

SLICE = 500  # games per saved slice

TECH_NAMES = {
    Tech.ACCUMULATOR: "Accumulator (city tolerance 12)",
    Tech.SECRET_BUILD: "Secret Build",
    Tech.SMART: "Smart (x2 on an energy)",
    Tech.DOWN: "Down",
}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson_interval(k, n)
    return f"{pct(k / n)} ({pct(lo)}-{pct(hi)})"


def counts(pairs: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in pairs)


def section(title: str, spec: str, games: Sequence[GameSummary], seconds: float) -> list[str]:
    n = len(games)
    summary = summarize(games)
    first = summary.first_player_wins
    lines = [
        f"## {title}",
        "",
        f"`{spec}` against itself: {n:,} games (seats alternated, each deal played twice with the "
        f"seats swapped), {seconds / 60:.1f} min.",
        "",
        f"- **First player win rate: {interval(first, n)}** "
        f"({100 * (first / n - 0.5):+.1f} points from 50%).",
        f"- Decided by: {counts(summary.decided_by)}; end reasons: {counts(summary.end_reasons)}.",
        f"- Mean total {summary.mean_total[0]:.2f}, energies tied per game "
        f"{summary.mean_energies_tied:.2f}, cities on the demand "
        f"{pct((summary.cities_on_demand[0] + summary.cities_on_demand[1]) / 2)}, "
        f"mean length {summary.mean_turns:.1f} turns.",
        "",
        "| tech card | drawn in | holder wins (95% CI) | effect vs 50% | holder moving first"
        " wins | holder moving second wins |",
        "|---|---|---|---|---|---|",
    ]
    for tech in Tech:
        holders = [(g, seat) for g in games for seat in (0, 1) if tech in g.techs_drawn[seat]]
        won = sum(1 for g, seat in holders if g.winner == seat)
        firsts = [(g, s) for g, s in holders if s == 0]
        seconds_ = [(g, s) for g, s in holders if s == 1]
        m = len(holders)
        effect = f"{100 * (won / m - 0.5):+.1f} points" if m else "-"
        lines.append(
            f"| {TECH_NAMES[tech]} | {pct(m / n)} of games | {interval(won, m)} | {effect} | "
            f"{interval(sum(1 for g, s in firsts if g.winner == s), len(firsts))} | "
            f"{interval(sum(1 for g, s in seconds_ if g.winner == s), len(seconds_))} |"
        )
    none = [g for g in games if not g.techs_drawn[0] and not g.techs_drawn[1]]
    if none:
        first_won = interval(sum(1 for g in none if g.winner == 0), len(none))
        tail = (
            f"Games in which no tech card was drawn: {len(none):,} ({pct(len(none) / n)}); the "
            f"first player won {first_won} of them."
        )
    else:
        tail = "A tech card was drawn in every game."
    lines += ["", tail, ""]
    return lines


def play(
    spec: str, count: int, *, seed: int, jobs: int, cache: Path | None, quiet: bool
) -> tuple[tuple[GameSummary, ...], float]:
    """`count` self-play games of `spec`, in slices of 500 saved to `cache` (resumable)."""
    games: list[GameSummary] = []
    seconds = 0.0
    progress = None if quiet else Progress(sys.stderr)
    for first in range(0, count, SLICE):
        size = min(SLICE, count - first)
        path = None
        if cache is not None:
            name = f"{spec}-{seed}-{first}-{size}.pickle".replace(":", "_").replace("=", "-")
            path = cache / name
            if path.exists():
                part, spent = pickle.loads(path.read_bytes())
                games += part
                seconds += spent
                continue
        start = time.perf_counter()

        def report(done: int, _: int, first: int = first) -> None:
            if progress is not None:
                progress(first + done, count)

        part = run_match(
            (spec, spec), games=size, seed=seed, jobs=jobs, progress=report, first=first
        )
        spent = time.perf_counter() - start
        if path is not None:
            path.write_bytes(pickle.dumps((part, spent)))
        games += part
        seconds += spent
    return tuple(games), seconds


def headline(results: list[tuple[str, tuple[GameSummary, ...]]]) -> list[str]:
    parts = []
    for title, games in results:
        n = len(games)
        first = sum(1 for g in games if g.winner == 0)
        best = []
        for tech in Tech:
            holders = [(g, s) for g in games for s in (0, 1) if tech in g.techs_drawn[s]]
            if holders:
                won = sum(1 for g, s in holders if g.winner == s)
                best.append((won / len(holders), tech, won, len(holders)))
        text = f"**{title}** ({n:,} games): the first player wins {interval(first, n)}"
        if best:
            _, tech, won, m = max(best, key=lambda x: x[0])
            _, low_tech, low_won, low_m = min(best, key=lambda x: x[0])
            text += (
                f"; the player who draws {TECH_NAMES[tech]} wins {interval(won, m)}, "
                f"{TECH_NAMES[low_tech]} {interval(low_won, low_m)}"
            )
        parts.append(text + ".")
    return ["## Headline", "", *[f"- {part}" for part in parts], ""]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="Greedy vs Greedy games (20)")
    parser.add_argument("--ismcts-games", type=int, default=2, help="ISMCTS vs ISMCTS games (2)")
    parser.add_argument(
        "--ismcts",
        default="ismcts:iterations=10",
        help="the ISMCTS spec (default ismcts:iterations=10, a tiny budget for a quick run)",
    )
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--seed", type=int, default=2017, help="match seed (2017)")
    parser.add_argument("--output", help="write the Markdown report here (default: stdout)")
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep finished slices of 500 games in this directory, so an interrupted run resumes",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    jobs = args.jobs or os.cpu_count() or 1
    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    command = (
        f"python examples/balance.py --games {args.games} --ismcts-games {args.ismcts_games} "
        f"--ismcts {args.ismcts} --seed {args.seed}"
    )
    body: list[str] = []
    results: list[tuple[str, tuple[GameSummary, ...]]] = []
    for title, spec, count in (
        ("Greedy vs Greedy", "greedy", args.games),
        ("ISMCTS vs ISMCTS", args.ismcts, args.ismcts_games),
    ):
        if count < 1:
            continue
        if not args.quiet:
            print(f"{title}: {count} games on {jobs} processes", file=sys.stderr)
        games, seconds = play(
            spec, count, seed=args.seed, jobs=jobs, cache=args.cache, quiet=args.quiet
        )
        body += section(title, spec, games, seconds)
        results.append((title, games))
    lines = [
        "# HATSUDEN balance report",
        "",
        f"Rules {format_rules(STANDARD)} (the printed game). Reproduce with `{command}` "
        "(the same figures whatever `--jobs`; `make balance` runs the full report).",
        "",
        *headline(results),
        *body,
        "## Method",
        "",
        "Each match is bot self-play with the seats alternated: games 2k and 2k + 1 share a deal "
        "(`new_game` seed) with the seats swapped, and each decision gets its own generator "
        "derived from the match seed, so every figure is reproducible. Intervals are 95% Wilson "
        "score intervals. A tech card's figure is the win rate of the player who drew it: "
        "drawing one follows a 4 built or improved (or a secret build) and is a choice, so it is "
        "an association, not a controlled effect.",
    ]
    text = "\n".join(lines).rstrip() + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
