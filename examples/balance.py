"""Balance report: the first player's win rate and the win-rate effect of each tech card.

Plays Greedy vs Greedy and ISMCTS vs ISMCTS matches (seats alternated, `hatsuden_rules.simulation`)
and reports, with 95% Wilson intervals, how often the first player wins and, for each tech card,
how often the player who drew it won. `make balance` runs the full report and writes BALANCE.md:

    python examples/balance.py --games 10000 --ismcts-games 10000 --output BALANCE.md

Without options it plays a tiny report (a few seconds; `make test` runs every example) and
prints it. Drawing a tech card is not random (it follows a 4 built or improved, and drawing is a
choice), so a card's figure is the win rate of players who drew it, not a controlled effect.

It takes the rule flags of every hatsuden command (`--rules NOTATION`, `--config NAME`,
`--tiebreak supply`, `--techs smart,down`, ...), runs on this machine's processes or on Ray
(`--backend ray [--address ADDR]`, the 'ray' extra), and `--json` prints the figures as one JSON
document (the library's JSON spellings) instead of Markdown.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hatsuden_rules import STANDARD, InvalidRulesError, Rules, Tech
from hatsuden_rules.cli._flags import add_rule_flags, rules_from_args
from hatsuden_rules.cli._report import Progress
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.notation import format_rules
from hatsuden_rules.serialization import to_json
from hatsuden_rules.simulation import (
    BACKENDS,
    BackendError,
    GameSummary,
    ray_session,
    run_match,
    summarize,
    wilson_interval,
)

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


def holders_of(tech: Tech, games: Sequence[GameSummary]) -> list[tuple[GameSummary, int]]:
    """Every (game, seat) in which that seat drew `tech`."""
    return [(g, seat) for g in games for seat in (0, 1) if tech in g.techs_drawn[seat]]


def section(
    title: str, spec: str, games: Sequence[GameSummary], seconds: float, rules: Rules
) -> list[str]:
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
    for tech in rules._tables.techs:
        holders = holders_of(tech, games)
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
    spec: str,
    count: int,
    *,
    seed: int,
    rules: Rules,
    jobs: int | None,
    backend: str,
    cache: Path | None,
    quiet: bool,
) -> tuple[tuple[GameSummary, ...], float]:
    """`count` self-play games of `spec`, in slices of 500 saved to `cache` (resumable)."""
    games: list[GameSummary] = []
    seconds = 0.0
    # A bar on a terminal; no progress lines in a log (`make test`'s examples run), issue 23.
    progress = None if quiet or not sys.stderr.isatty() else Progress(sys.stderr)
    for first in range(0, count, SLICE):
        size = min(SLICE, count - first)
        path = None
        if cache is not None:
            name = f"{spec}-{seed}-{first}-{size}.pickle"
            if rules != STANDARD:  # the printed game keeps the cache names it always had
                name = f"{format_rules(rules)}-{name}"
            name = name.replace(":", "_").replace("=", "-").replace("/", "_").replace("+", "_")
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
            (spec, spec),
            games=size,
            seed=seed,
            rules=rules,
            jobs=jobs,
            progress=report,
            first=first,
            backend=backend,
        )
        spent = time.perf_counter() - start
        if path is not None:
            path.write_bytes(pickle.dumps((part, spent)))
        games += part
        seconds += spent
    return tuple(games), seconds


def headline(results: list[tuple[str, tuple[GameSummary, ...]]], rules: Rules) -> list[str]:
    parts = []
    for title, games in results:
        n = len(games)
        first = sum(1 for g in games if g.winner == 0)
        best = []
        for tech in rules._tables.techs:
            holders = holders_of(tech, games)
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


def tech_figures(games: Sequence[GameSummary], rules: Rules) -> dict[str, Any]:
    """Per tech card (by its JSON value): how often it was drawn and how its holders did."""
    figures: dict[str, Any] = {}
    for tech in rules._tables.techs:
        holders = holders_of(tech, games)
        won = sum(1 for g, seat in holders if g.winner == seat)
        m = len(holders)
        figures[tech.value] = {
            "holders": m,
            "holder_wins": won,
            "holder_win_rate": won / m if m else None,
            "holder_win_rate_ci95": list(wilson_interval(won, m)) if m else None,
        }
    return figures


def rules_document(rules: Rules) -> dict[str, Any]:
    """The rules in the library's JSON spelling (the body of ``to_json(rules)``)."""
    document: dict[str, Any] = json.loads(to_json(rules))
    return {k: v for k, v in document.items() if k not in ("type", "format_version")}


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, Rules]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="Greedy vs Greedy games (20)")
    parser.add_argument("--ismcts-games", type=int, default=2, help="ISMCTS vs ISMCTS games (2)")
    parser.add_argument(
        "--ismcts",
        default="ismcts:iterations=10",
        help="the ISMCTS spec (default ismcts:iterations=10, a tiny budget for a quick run)",
    )
    parser.add_argument("--seed", type=int, default=2017, help="match seed (2017)")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: processes on this machine (default); ray: a Ray cluster or local instance",
    )
    parser.add_argument("--address", help="with --backend ray: the Ray cluster to connect to")
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes (default: every core); with --backend ray, the local Ray instance's CPUs",
    )
    parser.add_argument("--output", help="write the report here (default: stdout)")
    parser.add_argument("--json", action="store_true", help="a JSON document, not Markdown")
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep finished slices of 500 games in this directory, so an interrupted run resumes",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar on stderr (there is none when stderr is not a terminal)",
    )
    add_rule_flags(parser, configs=CONFIGS)
    args = parser.parse_args(argv)
    if args.address is not None and args.backend != "ray":
        parser.error("--address needs --backend ray")
    if args.address is not None and args.jobs is not None:
        parser.error("--jobs sets a local instance's CPUs: a cluster (--address) uses its own")
    try:
        rules = rules_from_args(args, default=STANDARD, configs=CONFIGS)
    except InvalidRulesError as error:
        parser.exit(2, f"{parser.prog}: error: invalid rules: {error}\n")
    return args, rules


def main(argv: Sequence[str] | None = None) -> int:
    args, rules = parse_args(argv)
    if args.backend == "local":
        jobs: int | None = args.jobs or os.cpu_count() or 1
        where = f"{jobs} processes"
    else:
        jobs = args.jobs
        where = "Ray" + (f" at {args.address}" if args.address else "")
    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    command = (
        f"python examples/balance.py --games {args.games} --ismcts-games {args.ismcts_games} "
        f"--ismcts {args.ismcts} --seed {args.seed}"
    )
    if rules != STANDARD:
        command += f" --rules {format_rules(rules)}"
    body: list[str] = []
    results: list[tuple[str, tuple[GameSummary, ...]]] = []
    matches: list[dict[str, Any]] = []
    session = (
        ray_session(args.address, jobs=jobs) if args.backend == "ray" else contextlib.nullcontext()
    )
    try:
        with session:
            for title, spec, count in (
                ("Greedy vs Greedy", "greedy", args.games),
                ("ISMCTS vs ISMCTS", args.ismcts, args.ismcts_games),
            ):
                if count < 1:
                    continue
                if not args.quiet:
                    print(f"{title}: {count} games on {where}", file=sys.stderr)
                games, seconds = play(
                    spec,
                    count,
                    seed=args.seed,
                    rules=rules,
                    jobs=jobs,
                    backend=args.backend,
                    cache=args.cache,
                    quiet=args.quiet,
                )
                body += section(title, spec, games, seconds, rules)
                results.append((title, games))
                matches.append(
                    {
                        "title": title,
                        "player": spec,
                        "seconds": seconds,
                        "summary": summarize(games).to_dict(),
                        "techs": tech_figures(games, rules),
                    }
                )
    except (ImportError, BackendError) as error:
        print(f"balance: {error}", file=sys.stderr)
        return 1
    if args.json:
        document = {
            "rules": rules_document(rules),
            "rules_notation": format_rules(rules),
            "seed": args.seed,
            "backend": args.backend,
            "matches": matches,
        }
        text = json.dumps(document, indent=2) + "\n"
    else:
        printed = " (the printed game)" if rules == STANDARD else ""
        lines = [
            "# HATSUDEN balance report",
            "",
            f"Rules {format_rules(rules)}{printed}. Reproduce with `{command}` "
            "(the same figures whatever `--jobs` or `--backend`; `make balance` runs the full "
            "report).",
            "",
            *headline(results, rules),
            *body,
            "## Method",
            "",
            "Each match is bot self-play with the seats alternated: games 2k and 2k + 1 share a "
            "deal (`new_game` seed) with the seats swapped, and each decision gets its own "
            "generator derived from the match seed, so every figure is reproducible. Intervals "
            "are 95% Wilson score intervals. A tech card's figure is the win rate of the player "
            "who drew it: drawing one follows a 4 built or improved (or a secret build) and is a "
            "choice, so it is an association, not a controlled effect.",
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
