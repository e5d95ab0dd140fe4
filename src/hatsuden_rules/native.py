"""The native core (Rust, the ``hatsuden-native`` package) for batch work: perft, playouts.

The native core implements the same rules as this library (the same ``RULES_VERSION``), held to
it by the conformance suite and by differential tests. This module converts states between the
two cores through the state notation and runs the native core's batch work from any
`GameState`. It imports without the native package; using it then raises
`NativeUnavailableError`, which says how to install it::

    pip install 'hatsuden-rules[native]'

Importing `hatsuden_rules` never imports `hatsuden_native`; this module imports it on first use.

Examples:
    >>> from hatsuden_rules import new_game
    >>> from hatsuden_rules import native
    >>> if native.is_available():  # doctest: +SKIP
    ...     native.perft(new_game(), 2)
    [20, 400]
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hatsuden_rules import RULES_VERSION, HatsudenError
from hatsuden_rules.notation import (
    format_observation,
    format_rules,
    format_state,
    parse_move,
    parse_state,
)
from hatsuden_rules.serialization import from_json
from hatsuden_rules.serialization._records import GameRecord, GameResult, format_record

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from types import ModuleType

    from hatsuden_native import NativeState, PlayoutStats

    from hatsuden_rules import GameState, Move, Observation, Rules, Score, SplitMix64

__all__ = [
    "INSTALL_HINT",
    "NativeGameRow",
    "NativeSpec",
    "NativeUnavailableError",
    "bot_choose",
    "divide",
    "from_native",
    "is_available",
    "ismcts_search",
    "load",
    "match_games",
    "perft",
    "playouts",
    "score",
    "to_native",
]

#: The command that installs the native core.
INSTALL_HINT = "pip install 'hatsuden-rules[native]'"


class NativeUnavailableError(HatsudenError, ImportError):
    """The native core is not installed, or implements another `RULES_VERSION`."""


@functools.cache
def load() -> ModuleType:
    """The `hatsuden_native` module, checked to implement this library's `RULES_VERSION`.

    Imported and checked once (a failure is not remembered: installing the package later in the
    same process works).

    Raises:
        NativeUnavailableError: It is not installed (the message names the install command), or
            it implements another version of the rules.
    """
    try:
        module = importlib.import_module("hatsuden_native")
    except ImportError as error:
        raise NativeUnavailableError(
            f"the native core is not installed ({error}): {INSTALL_HINT}"
        ) from None
    version = getattr(module, "RULES_VERSION", None)
    if version != RULES_VERSION:
        found = getattr(module, "__version__", "?")
        raise NativeUnavailableError(
            f"hatsuden-native {found} implements RULES_VERSION {version}, but hatsuden-rules "
            f"implements RULES_VERSION {RULES_VERSION}: install the matching native core "
            f"({INSTALL_HINT})"
        )
    return module


def is_available() -> bool:
    """Whether the native core is installed and implements this library's `RULES_VERSION`."""
    try:
        load()
    except NativeUnavailableError:
        return False
    return True


def to_native(state: GameState) -> NativeState:
    """The native state equal to `state` (through the state notation).

    Raises:
        NativeUnavailableError: See `load`.
    """
    load()
    from hatsuden_native import NativeState

    return NativeState.from_notation(format_state(state))


def from_native(state: NativeState) -> GameState:
    """The `GameState` equal to the native state `state` (through the state notation)."""
    return parse_state(state.notation())


def _native_state(state: GameState | NativeState) -> NativeState:
    load()
    from hatsuden_native import NativeState

    return state if isinstance(state, NativeState) else to_native(state)


def perft(state: GameState | NativeState, depth: int) -> list[int]:
    """The number of move paths of each length 1..`depth` from `state` (R34), natively.

    Chance outcomes count as moves, as in `hatsuden_rules.modelcheck.perft`.

    Raises:
        NativeUnavailableError: See `load`.
        InvalidInputError: `depth` is negative or above 64.
    """
    root = _native_state(state)
    from hatsuden_native import perft as native_perft

    return native_perft(root, depth)


def divide(state: GameState | NativeState, depth: int) -> list[tuple[Move, int]]:
    """For each legal move of `state`, the number of move paths of length `depth` it starts.

    Raises:
        NativeUnavailableError: See `load`.
        InvalidInputError: `depth` is below 1 or above 64.
    """
    root = _native_state(state)
    from hatsuden_native import divide as native_divide

    rules = from_native(root).rules
    return [(parse_move(text, rules), paths) for text, paths in native_divide(root, depth)]


def playouts(
    state: GameState | NativeState, games: int, seed: int, *, max_plies: int = 100_000
) -> PlayoutStats:
    """`games` random games from `state` on the native core.

    Every choice comes from the portable sampler (R32, R33), one SplitMix64 seeded with `seed`
    shared by the games in turn: a legal move with ``sample([1] * len(moves), rng)``, a chance
    outcome of explicit mode with ``sample(weights, rng)`` (copies left of each card). A game
    stops at its end or after `max_plies` plies.

    Raises:
        NativeUnavailableError: See `load`.
    """
    root = _native_state(state)
    from hatsuden_native import playouts as native_playouts

    return native_playouts(root, games, seed, max_plies)


def score(state: NativeState) -> Score:
    """The score sheet of a native state (R27-R29), as the library's `Score`."""
    return from_json(state.score_json(), "score")


#: A native player: its kind (``random``, ``greedy``, ``ismcts``) and its options (the fields
#: of its Python class, e.g. ``{"iterations": 200}``).
NativeSpec = tuple[str, Mapping[str, "int | float | None"]]


def bot_choose(spec: NativeSpec, observation: Observation, rng: SplitMix64) -> Move:
    """The move the native player `spec` chooses from `observation` with the generator `rng`.

    The same move as the Python player's ``choose(observation, legal_moves_from(observation),
    rng)`` for ``random`` and ``greedy``; ``ismcts`` runs the same search natively.

    Raises:
        NativeUnavailableError: See `load`.
        InvalidInputError: An unknown player or option, or no decision to make.
    """
    module = load()
    kind, options = spec
    text = module.bot_choose(kind, dict(options), format_observation(observation), rng.state)
    return parse_move(text, observation.rules)


def ismcts_search(
    observation: Observation, seed: int, options: Mapping[str, int | float | None]
) -> tuple[Move, int]:
    """One native ISMCTS search from `observation`: the move and the iterations run.

    `seed` seeds the determinizations (R38), as ``ISMCTSPlayer`` seeds them from its
    generator's first output; `options` are the player's fields. With a ``time_limit``, the
    number of iterations depends on the machine's speed.

    Raises:
        NativeUnavailableError: See `load`.
    """
    module = load()
    text, iterations = module.ismcts_search(format_observation(observation), seed, dict(options))
    return parse_move(text, observation.rules), iterations


#: One game of `match_games`: ``((index, deal_seed, winner, decided_by, end_reason), (totals,
#: energy_points, city_points, row_supply, energy_winners), (turns, plies, decisions,
#: think_seconds, techs_drawn), record_text)``, by seat.
NativeGameRow = tuple[Any, Any, Any, "str | None"]


def match_games(
    rules: Rules,
    players: tuple[NativeSpec, NativeSpec],
    *,
    seed: int,
    first: int,
    count: int,
    names: tuple[str, str] | None = None,
) -> list[NativeGameRow]:
    """Games ``first .. first + count`` of a match seeded `seed`, played on the native core.

    The games of `hatsuden_rules.simulation.run_match` (seats alternated, deals shared by
    pairs, every decision seeded per game), the whole game in Rust. With `names` (the specs at
    the match's seats A and B), each game's record text is built too (``format_record``).

    Raises:
        NativeUnavailableError: See `load`.
        InvalidInputError: A rule set beyond the native core's capacity, or a bad option.
    """
    module = load()
    specs = tuple((kind, dict(options)) for kind, options in players)
    rows = module.play_match(
        format_rules(rules), specs, seed, first, count, record=names is not None
    )
    out: list[NativeGameRow] = []
    for head, sheet, play, record in rows:
        text = None
        if record is not None and names is not None:
            final_text, moves = record
            index = head[0]
            seats = names if index % 2 == 0 else (names[1], names[0])
            final = parse_state(final_text)
            text = format_record(
                GameRecord(
                    rules=rules,
                    seed=head[1],
                    moves=tuple(parse_move(m, rules) for m in moves),
                    players=seats,
                    result=GameResult.of(final),
                )
            )
        out.append((head, sheet, play, text))
    return out
