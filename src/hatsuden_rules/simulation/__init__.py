"""Bot games and matches: reproducible for a seed, on one process or many.

`play_game` plays one seeded game between two `Player` values, giving each decision a fresh
generator drawn from a stream seeded by the game. `run_match` plays a match between two players
named by spec (``hatsuden_rules.players.make_player``) with seats alternated: games ``2k`` and
``2k + 1`` share a deal with the seats swapped, which removes most of the luck of the deal from
the comparison. Every game depends only on the match seed, its index and the players, so the
results are the same whatever the number of processes. `summarize` turns the games into the
statistics ``hatsuden simulate`` prints (wins with 95% Wilson intervals, first-player
advantage, scores, cities, energies, end reasons, length).

Examples:
    >>> from hatsuden_rules.players import GreedyPlayer, RandomPlayer
    >>> game = play_game((GreedyPlayer(), RandomPlayer()), seed=4)
    >>> game.final.is_over, game.result.winner
    (True, 0)
    >>> match = run_match(("greedy", "random"), games=4, seed=1, jobs=1)
    >>> [g.names for g in match[:2]], match[0].deal_seed == match[1].deal_seed
    ([('greedy', 'random'), ('random', 'greedy')], True)
    >>> summarize(match).wins
    (4, 0)
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from hatsuden_rules.core import publish
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rng import SplitMix64, splitmix64
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.core.scoring import Decision, Score, score
from hatsuden_rules.core.state import EndReason, GameState
from hatsuden_rules.observation import observe
from hatsuden_rules.players import Player, make_player
from hatsuden_rules.serialization._records import GameRecord, GameResult, format_record
from hatsuden_rules.simulation._ray import BackendError, ray_results, ray_session

__all__ = [
    "BACKENDS",
    "CORES",
    "BackendError",
    "GameSummary",
    "MatchSummary",
    "PlayedGame",
    "deal_seed",
    "game_file_name",
    "play_game",
    "ray_session",
    "run_match",
    "summarize",
    "wilson_interval",
]

publish(__name__, __all__, globals())  # public names, not the private modules defining them

_MASK: Final = (1 << 64) - 1
_DECISIONS: Final = 0xD1B54A32D192ED03  # separates the players' stream from the deal's

#: Where `run_match` plays: this machine's processes, or Ray (the ``ray`` extra).
BACKENDS: Final = ("local", "ray")


def _derive(seed: int, *keys: int) -> int:
    """A 64-bit seed derived from `seed` and `keys` with SplitMix64 mixing."""
    state = seed & _MASK
    for key in keys:
        _, state = splitmix64(state ^ (key & _MASK))
    return state


def deal_seed(seed: int, index: int) -> int:
    """The `new_game` seed of game `index` of a match seeded `seed` (games 2k, 2k+1 share it).

    Examples:
        >>> deal_seed(7, 0) == deal_seed(7, 1) != deal_seed(7, 2)
        True
    """
    return _derive(seed, index // 2)


@attrs.frozen
class PlayedGame:
    """One game played to its end by two players.

    Attributes:
        seed: The `new_game` seed (the deal and every chance event).
        rules: The rule set.
        moves: Every move in order (replays with ``new_game(seed, rules)`` and `apply`).
        final: The final state.
        turns: Turns played.
        decisions: Calls to each seat's `choose` (a single legal move is played without one).
        think_seconds: Time each seat spent in `choose` (not part of equality).
        techs_drawn: The tech cards each seat drew, canonical order.
    """

    seed: int
    rules: Rules
    moves: tuple[Move, ...]
    final: GameState
    turns: int
    decisions: tuple[int, int]
    think_seconds: tuple[float, float] = attrs.field(eq=False)
    techs_drawn: tuple[tuple[Tech, ...], tuple[Tech, ...]]

    @property
    def result(self) -> Score:
        """The final score."""
        return score(self.final)


def play_game(
    players: Sequence[Player],
    *,
    seed: int,
    rules: Rules = STANDARD,
    decision_seed: int | None = None,
    on_move: Callable[[GameState, Move, GameState], None] | None = None,
) -> PlayedGame:
    """Play ``new_game(seed, rules)`` to the end, seat 0 `players[0]`, seat 1 `players[1]`.

    Each player sees only ``observe(state, seat)`` and the legal moves. Decision k of the game
    (either seat) gets ``SplitMix64(x_k)``, x_k the k-th output of a stream seeded with
    `decision_seed` (default: derived from `seed`), so the game replays exactly. A position
    with one legal move is played without asking.

    Args:
        players: The two players, seat 0 first.
        seed: The game's seed (R8).
        rules: The rule set.
        decision_seed: Seeds the players' randomness; default derived from `seed`.
        on_move: Called after every move with the state before, the move and the state after.

    Raises:
        InvalidInputError: Not two players, or a player returned an illegal move.

    Examples:
        >>> from hatsuden_rules.players import RandomPlayer
        >>> a = play_game((RandomPlayer(), RandomPlayer()), seed=3)
        >>> a == play_game((RandomPlayer(), RandomPlayer()), seed=3)
        True
    """
    if len(players) != 2:
        raise InvalidInputError("players", f"a game has two players, got {len(players)}")
    if type(seed) is not int:
        raise InvalidInputError("seed", f"must be an int, got {seed!r}")
    stream = _derive(seed if decision_seed is None else decision_seed, _DECISIONS)
    state = new_game(seed, rules)
    moves: list[Move] = []
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    drawn: list[list[Tech]] = [[], []]
    turns = 0
    while not state.is_over:
        seat = state.current_player
        legal = legal_moves(state)
        if len(legal) == 1:
            move = legal[0]
        else:
            stream, value = splitmix64(stream)
            seen = observe(state, seat)
            start = time.perf_counter()
            move = players[seat].choose(seen, legal, SplitMix64(value))
            seconds[seat] += time.perf_counter() - start
            decisions[seat] += 1
            if move not in legal:
                raise InvalidInputError(
                    "players", f"player {seat} ({players[seat]!r}) chose an illegal move {move!r}"
                )
        after = apply(state, move)
        held = state.tech_hand(seat)
        drawn[seat].extend(tech for tech in after.tech_hand(seat) if tech not in held)
        if on_move is not None:
            on_move(state, move, after)
        if after.current_player != seat or after.is_over:
            turns += 1
        moves.append(move)
        state = after
    return PlayedGame(
        seed=seed,
        rules=rules,
        moves=tuple(moves),
        final=state,
        turns=turns,
        decisions=(decisions[0], decisions[1]),
        think_seconds=(seconds[0], seconds[1]),
        techs_drawn=(_sorted_techs(drawn[0]), _sorted_techs(drawn[1])),
    )


def _sorted_techs(techs: list[Tech]) -> tuple[Tech, ...]:
    return tuple(sorted(techs, key=lambda tech: tech.index))


@attrs.frozen
class GameSummary:
    """The outcome of one game of a match, by seat (seat 0 moved first).

    Attributes:
        index: The game's number in the match, from 0.
        deal_seed: Its `new_game` seed.
        names: The player specs at seat 0 and seat 1.
        swapped: Whether the match's second player sat at seat 0 (odd games).
        winner: The winning seat.
        decided_by: What decided the winner (R29).
        end_reason: Why the game ended (R24, R25).
        totals: Each seat's total.
        energy_points: Each seat's energy points.
        city_points: Each seat's city points.
        row_supply: Each seat's two row supplies.
        energies_won: How many energies each seat won.
        energies_tied: How many energies nobody won.
        cities_on_demand: Each seat's cities exactly on the demand (+1, R28).
        cities_short: Each seat's cities at the demand minus 2 or less (-1, R28).
        turns: Turns played.
        plies: Moves played.
        decisions: Each seat's calls to `choose`.
        think_seconds: Each seat's thinking time (not part of equality).
        techs_drawn: The tech cards each seat drew.
    """

    index: int
    deal_seed: int
    names: tuple[str, str]
    swapped: bool
    winner: int
    decided_by: Decision
    end_reason: EndReason
    totals: tuple[int, int]
    energy_points: tuple[int, int]
    city_points: tuple[int, int]
    row_supply: tuple[tuple[int, int], tuple[int, int]]
    energies_won: tuple[int, int]
    energies_tied: int
    cities_on_demand: tuple[int, int]
    cities_short: tuple[int, int]
    turns: int
    plies: int
    decisions: tuple[int, int]
    think_seconds: tuple[float, float] = attrs.field(eq=False)
    techs_drawn: tuple[tuple[Tech, ...], tuple[Tech, ...]]

    @classmethod
    def of(
        cls, game: PlayedGame, index: int, names: tuple[str, str], *, swapped: bool = False
    ) -> GameSummary:
        """Summarize a played game; `names` by seat."""
        sheet = game.result
        a, b = sheet.players
        end_reason = game.final.end_reason
        assert end_reason is not None
        demand = game.rules.city_demand
        on = tuple(sum(1 for s in p.row_supply if s == demand) for p in (a, b))
        short = tuple(sum(1 for s in p.row_supply if s <= demand - 2) for p in (a, b))
        return cls(
            index=index,
            deal_seed=game.seed,
            names=names,
            swapped=swapped,
            winner=sheet.winner,
            decided_by=sheet.decided_by,
            end_reason=end_reason,
            totals=(a.total, b.total),
            energy_points=(a.energy_points, b.energy_points),
            city_points=(a.city_points, b.city_points),
            row_supply=(a.row_supply, b.row_supply),
            energies_won=(sheet.energy_winners.count(0), sheet.energy_winners.count(1)),
            energies_tied=sheet.energy_winners.count(None),
            cities_on_demand=(on[0], on[1]),
            cities_short=(short[0], short[1]),
            turns=game.turns,
            plies=len(game.moves),
            decisions=game.decisions,
            think_seconds=game.think_seconds,
            techs_drawn=game.techs_drawn,
        )


def _check_names(players: object) -> tuple[str, str]:
    if (
        not isinstance(players, tuple | list)
        or len(players) != 2
        or any(type(p) is not str for p in players)
    ):
        raise InvalidInputError("players", f"expected two player specs, got {players!r}")
    for spec in players:
        make_player(spec)  # eager validation, in the caller's process
    return (players[0], players[1])


@attrs.frozen
class _Match:
    """What every game of a match shares (sent once to each worker)."""

    names: tuple[str, str]
    seed: int
    rules: Rules
    record: bool
    core: str = "python"


#: The engines a match can run on: the reference, or the Rust core (the ``native`` extra).
CORES: Final = ("python", "native")


def _native_games(match: _Match, first: int, count: int) -> list[tuple[GameSummary, str | None]]:
    """Games ``first .. first + count`` of a match, played whole on the native core.

    The same games as `_match_game` plays (the native bots draw from the portable sampler as
    the Python ones do), summarized the same way.
    """
    from hatsuden_rules import native
    from hatsuden_rules.players import native_spec

    names = match.names
    specs = (native_spec(make_player(names[0])), native_spec(make_player(names[1])))
    rows = native.match_games(
        match.rules,
        specs,
        seed=match.seed,
        first=first,
        count=count,
        names=names if match.record else None,
    )
    demand = match.rules.city_demand
    out: list[tuple[GameSummary, str | None]] = []
    for head, sheet, play, text in rows:
        index, deal, winner, decided_by, end_reason = head
        totals, energy, city, supply, energy_winners = sheet
        turns, plies, decisions, seconds, techs = play
        summary = GameSummary(
            index=index,
            deal_seed=deal,
            names=names if index % 2 == 0 else (names[1], names[0]),
            swapped=index % 2 == 1,
            winner=winner,
            decided_by=Decision(decided_by),
            end_reason=EndReason(end_reason),
            totals=totals,
            energy_points=energy,
            city_points=city,
            row_supply=supply,
            energies_won=(energy_winners.count(0), energy_winners.count(1)),
            energies_tied=energy_winners.count(None),
            cities_on_demand=(
                sum(1 for s in supply[0] if s == demand),
                sum(1 for s in supply[1] if s == demand),
            ),
            cities_short=(
                sum(1 for s in supply[0] if s <= demand - 2),
                sum(1 for s in supply[1] if s <= demand - 2),
            ),
            turns=turns,
            plies=plies,
            decisions=decisions,
            think_seconds=seconds,
            techs_drawn=(tuple(map(Tech, techs[0])), tuple(map(Tech, techs[1]))),
        )
        out.append((summary, text))
    return out


def _native_chunk(match: _Match, chunk: tuple[int, int]) -> list[tuple[GameSummary, str | None]]:
    return _native_games(match, chunk[0], chunk[1])


def _match_game(match: _Match, index: int) -> tuple[GameSummary, str | None]:
    """Game `index` of a match, and its record's text if asked.

    A top-level function, so that worker processes and Ray workers can run it.
    """
    if match.core == "native":
        return _native_games(match, index, 1)[0]
    names, seed, rules = match.names, match.seed, match.rules
    seats = names if index % 2 == 0 else (names[1], names[0])
    players = (make_player(seats[0]), make_player(seats[1]))
    game = play_game(
        players, seed=deal_seed(seed, index), rules=rules, decision_seed=_derive(seed, index)
    )
    text = None
    if match.record:
        record = GameRecord(
            rules=rules,
            seed=game.seed,
            moves=game.moves,
            players=seats,
            result=GameResult.of(game.final),
        )
        text = format_record(record)
    return GameSummary.of(game, index, seats, swapped=index % 2 == 1), text


def game_file_name(seed: int, index: int) -> str:
    """The file `run_match` saves game `index` of a match seeded `seed` in (``save_games``).

    Examples:
        >>> game_file_name(2026, 7)
        'seed2026-game000007.txt'
    """
    return f"seed{seed}-game{index:06d}.txt"


def run_match(
    players: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    rules: Rules = STANDARD,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    first: int = 0,
    backend: str = "local",
    address: str | None = None,
    save_games: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
    core: str = "python",
) -> tuple[GameSummary, ...]:
    """Play `games` games between two player specs, seats alternated, on `jobs` processes.

    Game i has seats ``(A, B)`` for even i and ``(B, A)`` for odd i, and the deal of game
    ``i // 2 * 2``. Every game depends only on `seed`, its index and the players, so the games
    are the same whatever `jobs` and `backend`.

    Args:
        players: Two player specs (``make_player``), e.g. ``("ismcts", "greedy")``.
        games: How many games (>= 1).
        seed: The match seed.
        rules: The rule set.
        jobs: Worker processes (default: every core); 1 plays in this process. With the
            ``"ray"`` backend: the CPUs of the local Ray instance it starts (default: every
            core); not allowed with `address`, where the cluster's CPUs are used.
        progress: Called with ``(done, games)`` as games finish.
        first: The index of the first game: a long match can be played in slices
            (``first=0``, then ``first=1000``, ...) with the same games as in one run.
        backend: ``"local"`` (this machine's processes) or ``"ray"`` (a Ray cluster, or a local
            Ray instance; needs the ``ray`` extra). A Ray already initialised in this process
            (``ray.init``) is used as it is.
        address: With ``backend="ray"``: the cluster to connect to (``ray.init(address=...)``,
            e.g. ``"auto"`` or ``"ray://head:10001"``); None starts a local Ray instance.
        save_games: A directory to save each game's record in (the text form of
            ``hatsuden_rules.records``, replayable with ``hatsuden replay``), one file per game
            named by `game_file_name`; created if needed. The records are written by this
            process, whatever the backend.
        overwrite: Replace record files that already exist in `save_games` (otherwise the
            match refuses to start).
        core: ``"python"`` (the reference engine and players) or ``"native"``: every game
            played whole on the Rust core (the ``native`` extra; random, greedy and ISMCTS
            players). Random and greedy matches are the same games on both cores.

    Returns:
        The games in index order.

    Raises:
        InvalidInputError: A bad argument, or record files that already exist.
        ImportError: ``backend="ray"`` without the ``ray`` extra installed.
        BackendError: Ray cannot start or connect, or its workers run another version.
    """
    names = _check_names(tuple(players) if isinstance(players, list) else players)
    if type(games) is not int or games < 1:
        raise InvalidInputError("games", f"must be an int >= 1, got {games!r}")
    if type(seed) is not int:
        raise InvalidInputError("seed", f"must be an int, got {seed!r}")
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    if backend not in BACKENDS:
        raise InvalidInputError(
            "backend", f"expected one of {', '.join(BACKENDS)}, got {backend!r}"
        )
    if address is not None and (backend != "ray" or type(address) is not str or not address):
        raise InvalidInputError("address", "an address is for the ray backend: a non-empty str")
    if jobs is not None and (type(jobs) is not int or jobs < 1):
        raise InvalidInputError("jobs", f"must be an int >= 1, got {jobs!r}")
    if jobs is not None and address is not None:
        raise InvalidInputError("jobs", "a Ray cluster uses its own CPUs: give jobs or address")
    if type(first) is not int or first < 0:
        raise InvalidInputError("first", f"must be an int >= 0, got {first!r}")
    if core not in CORES:
        raise InvalidInputError("core", f"expected one of {', '.join(CORES)}, got {core!r}")
    if core == "native":  # eager: a missing native core or a player without a twin
        from hatsuden_rules import native
        from hatsuden_rules.players import native_spec

        native.load()
        for spec in names:
            native_spec(make_player(spec))
    directory = None if save_games is None else _records_directory(save_games)
    if directory is not None and not overwrite:
        _refuse_existing(directory, seed, range(first, first + games))
    match = _Match(names, seed, rules, directory is not None, core)
    results: list[GameSummary] = []
    for summary, text in _results(match, first, games, jobs, backend, address):
        if directory is not None and text is not None:
            _save(directory / game_file_name(seed, summary.index), text, overwrite)
        results.append(summary)
        if progress is not None:
            progress(len(results), games)
    results.sort(key=lambda game: game.index)
    return tuple(results)


def _records_directory(path: object) -> Path:
    if not isinstance(path, str | os.PathLike) or not str(path):
        raise InvalidInputError("save_games", f"expected a directory path, got {path!r}")
    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidInputError(
            "save_games", f"cannot create the directory {str(directory)!r}: {error.strerror}"
        ) from None
    return directory


def _refuse_existing(directory: Path, seed: int, indexes: range) -> None:
    present = set(os.listdir(directory))
    clashes = [name for i in indexes if (name := game_file_name(seed, i)) in present]
    if clashes:
        raise InvalidInputError(
            "save_games",
            f"{len(clashes)} game record(s) of this match already exist in {str(directory)!r} "
            f"(first: {clashes[0]}); use another directory or overwrite them (overwrite=True, "
            "hatsuden simulate --force)",
        )


def _save(path: Path, text: str, overwrite: bool) -> None:
    try:
        with open(path, "w" if overwrite else "x", encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        raise InvalidInputError(
            "save_games", f"{str(path)!r} appeared during the match: not overwritten"
        ) from None
    except OSError as error:
        raise InvalidInputError(
            "save_games", f"cannot write {str(path)!r}: {error.strerror}"
        ) from None


def _results(
    match: _Match, first: int, games: int, jobs: int | None, backend: str, address: str | None
) -> Iterator[tuple[GameSummary, str | None]]:
    """Every game of the match, in the order the backend finishes them."""
    if backend == "ray":
        for batch in ray_results(_match_game, match, first, games, address=address, jobs=jobs):
            yield from batch
        return
    jobs = min(jobs or os.cpu_count() or 1, games)
    indexes = range(first, first + games)
    if match.core == "native":  # batches of games per call into the native core
        size = max(1, min(256, games // (jobs * 4)))
        spans = [(i, min(size, first + games - i)) for i in range(first, first + games, size)]
        if jobs == 1:
            for span in spans:
                yield from _native_chunk(match, span)
            return
        with multiprocessing.get_context().Pool(jobs) as pool:
            for batch in pool.imap_unordered(functools.partial(_native_chunk, match), spans):
                yield from batch
        return
    if jobs == 1:
        for index in indexes:
            yield _match_game(match, index)
        return
    chunk = max(1, min(16, games // (jobs * 32)))
    with multiprocessing.get_context().Pool(jobs) as pool:
        yield from pool.imap_unordered(
            functools.partial(_match_game, match), indexes, chunksize=chunk
        )


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default z).

    Examples:
        >>> [round(x, 3) for x in wilson_interval(65, 100)]
        [0.553, 0.736]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class MatchSummary:
    """Statistics of a match, per player (the order of `names`) unless said otherwise.

    Attributes:
        names: The two players' labels (the specs; ``#1``/``#2`` appended if they are equal).
        games: Games played.
        wins: Games won.
        first_player_wins: Games won by the seat that moved first.
        first_seat_wins: Games each player won when moving first.
        mean_total: Mean final total.
        mean_energy_points: Mean energy points.
        mean_city_points: Mean city points.
        cities_on_demand: Share of cities ending exactly on the demand (+1).
        cities_short: Share of cities ending at the demand minus 2 or less (-1).
        mean_energies_won: Mean number of energies won.
        mean_energies_tied: Mean number of tied energies per game.
        decided_by: Games per deciding step (R29), by `Decision` value.
        end_reasons: Games per end reason, by `EndReason` value.
        mean_turns: Mean turns per game.
        mean_plies: Mean moves per game.
        seconds_per_decision: Mean thinking time per call to `choose`.
        decisions_per_game: Mean calls to `choose` per game.
    """

    names: tuple[str, str]
    games: int
    wins: tuple[int, int]
    first_player_wins: int
    first_seat_wins: tuple[int, int]
    mean_total: tuple[float, float]
    mean_energy_points: tuple[float, float]
    mean_city_points: tuple[float, float]
    cities_on_demand: tuple[float, float]
    cities_short: tuple[float, float]
    mean_energies_won: tuple[float, float]
    mean_energies_tied: float
    decided_by: tuple[tuple[str, int], ...]
    end_reasons: tuple[tuple[str, int], ...]
    mean_turns: float
    mean_plies: float
    seconds_per_decision: tuple[float, float]
    decisions_per_game: tuple[float, float]

    def win_interval(self, player: int) -> tuple[float, float]:
        """The 95% Wilson interval of `player`'s win rate."""
        return wilson_interval(self.wins[player], self.games)

    def first_player_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the first player's win rate."""
        return wilson_interval(self.first_player_wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``games``, ``wins`` (by name) and every other statistic."""
        names = self.names

        def by_name(values: tuple[Any, Any]) -> dict[str, Any]:
            return {names[0]: values[0], names[1]: values[1]}

        return {
            "players": list(names),
            "games": self.games,
            "wins": by_name(self.wins),
            "win_rate": by_name((self.wins[0] / self.games, self.wins[1] / self.games)),
            "win_rate_ci95": by_name((list(self.win_interval(0)), list(self.win_interval(1)))),
            "first_player_wins": self.first_player_wins,
            "first_player_win_rate": self.first_player_wins / self.games,
            "first_player_win_rate_ci95": list(self.first_player_interval()),
            "wins_moving_first": by_name(self.first_seat_wins),
            "mean_total": by_name(self.mean_total),
            "mean_energy_points": by_name(self.mean_energy_points),
            "mean_city_points": by_name(self.mean_city_points),
            "cities_on_demand": by_name(self.cities_on_demand),
            "cities_short": by_name(self.cities_short),
            "mean_energies_won": by_name(self.mean_energies_won),
            "mean_energies_tied": self.mean_energies_tied,
            "decided_by": dict(self.decided_by),
            "end_reasons": dict(self.end_reasons),
            "mean_turns": self.mean_turns,
            "mean_plies": self.mean_plies,
            "seconds_per_decision": by_name(self.seconds_per_decision),
            "decisions_per_game": by_name(self.decisions_per_game),
        }


def _labels(names: tuple[str, str]) -> tuple[str, str]:
    if names[0] == names[1]:
        return (f"{names[0]}#1", f"{names[1]}#2")
    return names


def summarize(games: Sequence[GameSummary]) -> MatchSummary:
    """The statistics of a match's games (at least one), per player.

    Player 0 is the match's first player (seat 0 in the games that are not `swapped`). Games
    between other players are refused.
    """
    if not games:
        raise InvalidInputError("games", "there is no game to summarize")
    first_game = games[0]
    names = first_game.names[::-1] if first_game.swapped else first_game.names
    n = len(games)
    wins = [0, 0]
    first = [0, 0]
    sums: dict[str, list[float]] = {
        key: [0.0, 0.0]
        for key in ("total", "energy", "city", "demand", "short", "energies", "time", "calls")
    }
    tied = 0
    turns = plies = 0
    decided: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for game in games:
        order = (1, 0) if game.swapped else (0, 1)  # the seat of each player
        if (game.names[order[0]], game.names[order[1]]) != names:
            raise InvalidInputError("games", f"game {game.index} is not between {names}")
        for player, seat in enumerate(order):
            if game.winner == seat:
                wins[player] += 1
                if seat == 0:
                    first[player] += 1
            sums["total"][player] += game.totals[seat]
            sums["energy"][player] += game.energy_points[seat]
            sums["city"][player] += game.city_points[seat]
            sums["energies"][player] += game.energies_won[seat]
            sums["time"][player] += game.think_seconds[seat]
            sums["calls"][player] += game.decisions[seat]
            sums["demand"][player] += game.cities_on_demand[seat]
            sums["short"][player] += game.cities_short[seat]
        tied += game.energies_tied
        turns += game.turns
        plies += game.plies
        decided[game.decided_by.value] += 1
        reasons[game.end_reason.value] += 1

    def mean(key: str, scale: float = 1.0) -> tuple[float, float]:
        return (sums[key][0] / (n * scale), sums[key][1] / (n * scale))

    calls = sums["calls"]
    return MatchSummary(
        names=_labels(names),
        games=n,
        wins=(wins[0], wins[1]),
        first_player_wins=first[0] + first[1],
        first_seat_wins=(first[0], first[1]),
        mean_total=mean("total"),
        mean_energy_points=mean("energy"),
        mean_city_points=mean("city"),
        cities_on_demand=mean("demand", 2.0),
        cities_short=mean("short", 2.0),
        mean_energies_won=mean("energies"),
        mean_energies_tied=tied / n,
        decided_by=tuple(sorted(decided.items())),
        end_reasons=tuple(sorted(reasons.items())),
        mean_turns=turns / n,
        mean_plies=plies / n,
        seconds_per_decision=(
            sums["time"][0] / calls[0] if calls[0] else 0.0,
            sums["time"][1] / calls[1] if calls[1] else 0.0,
        ),
        decisions_per_game=(calls[0] / n, calls[1] / n),
    )
