"""``hatsuden simulate`` output: the progress bar, the result table, JSON and CSV."""

from __future__ import annotations

import csv
import io
import time
from typing import TextIO

from hatsuden_rules.core.rules import Rules
from hatsuden_rules.notation import format_rules
from hatsuden_rules.simulation import GameSummary, MatchSummary

__all__ = ["Progress", "format_csv", "format_table"]


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Reports games done on `stream`: a redrawn bar on a terminal, else a line per 10%."""

    def __init__(self, stream: TextIO, *, tty: bool | None = None, width: int = 30) -> None:
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self.width = width
        self.start = time.perf_counter()
        self.last_draw = 0.0
        self.next_line = 0

    def __call__(self, done: int, total: int) -> None:
        """Report `done` of `total` games."""
        now = time.perf_counter()
        elapsed = max(now - self.start, 1e-9)
        rate = done / elapsed
        eta = (total - done) / rate if rate > 0 else 0.0
        text = f"{done}/{total} games · {rate:.1f} games/s · ETA {_duration(eta)}"
        if self.tty:
            if done < total and now - self.last_draw < 0.1:
                return
            self.last_draw = now
            filled = self.width * done // total
            bar = "#" * filled + "-" * (self.width - filled)
            end = "\n" if done == total else ""
            self.stream.write(f"\r[{bar}] {100 * done // total:3d}% {text}   {end}")
        else:
            if done < total and done * 10 < self.next_line * total:
                return
            self.next_line = done * 10 // total + 1
            self.stream.write(f"progress: {text}\n")
        self.stream.flush()


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_table(
    summary: MatchSummary,
    *,
    rules: Rules,
    seed: int,
    seconds: float,
    jobs: int | None,
    backend: str = "local",
) -> str:
    """The human-readable result of a match (`jobs` None: the Ray cluster's CPUs).

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> from hatsuden_rules.simulation import run_match, summarize
        >>> summary = summarize(run_match(("greedy", "random"), games=2, jobs=1))
        >>> text = format_table(summary, rules=STANDARD, seed=0, seconds=1.0, jobs=1)
        >>> text.splitlines()[2].split()
        ['wins', '2', '(100.0%)', '0', '(0.0%)']
    """
    s = summary
    a, b = s.names
    n = s.games

    def row(label: str, x: str, y: str) -> str:
        return f"{label:<30}{x:>14}{y:>18}"

    def pair(label: str, values: tuple[float, float], fmt: str = "{:.2f}") -> str:
        return row(label, fmt.format(values[0]), fmt.format(values[1]))

    ci = [s.win_interval(0), s.win_interval(1)]
    moving_first = [(s.first_seat_wins[i], (n + (1 - i)) // 2) for i in (0, 1)]
    lines = [
        f"HATSUDEN · {a} vs {b} · {n} games, seats alternated · seed {seed} · rules "
        f"{format_rules(rules)}",
        row("", a, b),
        row("wins", f"{s.wins[0]} ({_pct(s.wins[0] / n)})", f"{s.wins[1]} ({_pct(s.wins[1] / n)})"),
        row("  95% CI (Wilson)", *(f"{_pct(lo)}-{_pct(hi)}" for lo, hi in ci)),
        row(
            "  wins moving first",
            *(f"{w}/{g}" if g else "-" for w, g in moving_first),
        ),
        pair("mean total", s.mean_total),
        pair("mean energy points", s.mean_energy_points),
        pair("mean city points", s.mean_city_points),
        pair("energies won per game", s.mean_energies_won),
        row("cities on demand (+1)", _pct(s.cities_on_demand[0]), _pct(s.cities_on_demand[1])),
        row("cities short (-1)", _pct(s.cities_short[0]), _pct(s.cities_short[1])),
        pair("seconds per decision", s.seconds_per_decision, "{:.4f}"),
        pair("decisions per game", s.decisions_per_game, "{:.1f}"),
    ]
    lo, hi = s.first_player_interval()
    lines += [
        f"First player wins {s.first_player_wins}/{n} = {_pct(s.first_player_wins / n)} "
        f"(95% CI {_pct(lo)}-{_pct(hi)}): advantage {100 * (s.first_player_wins / n - 0.5):+.1f}"
        " points over 50%",
        f"Energies tied per game: {s.mean_energies_tied:.2f}",
        "Decided by: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s.decided_by),
        "End reasons: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s.end_reasons),
        f"Mean length: {s.mean_turns:.1f} turns, {s.mean_plies:.1f} moves",
        f"Speed: {n} games in {seconds:.1f} s = {n / max(seconds, 1e-9):.2f} games/s "
        + _where(jobs, backend),
    ]
    return "\n".join(lines)


def _where(jobs: int | None, backend: str) -> str:
    if backend == "ray":
        return "on Ray" + ("" if jobs is None else f" ({jobs} CPUs)")
    count = jobs or 1
    return f"on {count} process{'es' if count > 1 else ''}"


def format_csv(games: tuple[GameSummary, ...]) -> str:
    """One CSV row per game (seat 0 moved first), with a header row.

    Enumerations use the library's JSON spellings (``city_points``, ``final_turn``,
    ``secret_build``), tech cards joined by ``+``.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "game",
            "deal_seed",
            "seat0",
            "seat1",
            "winner_seat",
            "winner",
            "decided_by",
            "end_reason",
            "total0",
            "total1",
            "energy0",
            "energy1",
            "city0",
            "city1",
            "rows0",
            "rows1",
            "turns",
            "moves",
            "techs0",
            "techs1",
        ]
    )
    for g in games:
        writer.writerow(
            [
                g.index,
                g.deal_seed,
                g.names[0],
                g.names[1],
                g.winner,
                g.names[g.winner],
                g.decided_by.value,
                g.end_reason.value,
                *g.totals,
                *g.energy_points,
                *g.city_points,
                f"{g.row_supply[0][0]}:{g.row_supply[0][1]}",
                f"{g.row_supply[1][0]}:{g.row_supply[1][1]}",
                g.turns,
                g.plies,
                "+".join(t.value for t in g.techs_drawn[0]),
                "+".join(t.value for t in g.techs_drawn[1]),
            ]
        )
    return out.getvalue()
