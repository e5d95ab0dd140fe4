"""The vectors of the rule variants (R40, R41) and of the printed rules alone (R25, R31).

They are generated apart from the rest of the suite, from games of their own, and appended at
the end of each group: adding them changed no vector that existed before (the printed game's
vectors are byte for byte those of 0.2.0). The same group builders make them; on top, every
OVERFLOW state met is asked every FlipSet of its row (legal or not, under both options), and
the invalid group gets the notation and JSON of the variant options and of FlipSet.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Sequence
from types import MappingProxyType
from typing import Final

from hatsuden_rules._core.apply import apply
from hatsuden_rules._core.cards import Cell
from hatsuden_rules._core.errors import IllegalMoveError
from hatsuden_rules._core.legal import legal_moves
from hatsuden_rules._core.moves import (
    Discard,
    DrawFromDeck,
    EndTurn,
    Flip,
    FlipSet,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules._core.rules import PRINTED, STANDARD, Overflow, Rules, TechTiming
from hatsuden_rules._core.state import GameState, Phase
from hatsuden_rules.conformance._vectors import Vector
from hatsuden_rules.notation import format_rules
from hatsuden_rules.serialization import to_dict, to_json
from tools.vectors.core import (
    _game_seeds,
    _legal_key,
    _legal_moves_vectors,
    _observation_vectors,
    _path_counts,
    _perft_vector,
    _pick,
    _reason_shape,
    _seeded_game_vectors,
    _shuffled,
    _transition_vector,
)
from tools.vectors.games import Ply, play_game
from tools.vectors.invalid import _dump, _json_vector, _notation_vector

__all__ = ["VARIANT_RULE_SETS", "variant_vectors"]

#: The rule sets of the variant vectors: each option on the printed game, the printed rules
#: alone, and reduced games where overflows and tech draws come often.
VARIANT_RULE_SETS: Final = MappingProxyType(
    {
        "place-at-once": Rules(tech_timing=TechTiming.PLACE_AT_ONCE),
        "any-set": Rules(overflow=Overflow.ANY_SET),
        "printed": PRINTED,
        "mini-any-set": Rules(
            energies=3,
            max_value=3,
            copies=2,
            hand_size=3,
            city_demand=4,
            stall_limit=6,
            overflow=Overflow.ANY_SET,
        ),
        "mini-place-at-once": Rules(
            energies=3,
            max_value=2,
            copies=2,
            hand_size=2,
            city_demand=3,
            stall_limit=6,
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
    }
)

#: The reduced any-set game with the default overflow: FlipSet is illegal there (R41).
_MINI_ONE_AT_A_TIME: Final = Rules(
    energies=3, max_value=3, copies=2, hand_size=3, city_demand=4, stall_limit=6
)


def _games(count: int, seeded: bool, offset: int) -> Iterator[tuple[str, int | None, list[Ply]]]:
    for name, rules in VARIANT_RULE_SETS.items():
        seeds = _game_seeds(name, count)
        for k in range(count):
            seed = seeds[k] if seeded else None
            yield name, seed, list(play_game(rules, seed, policy_seed=offset + 1000 * k))


def _row_cells(state: GameState) -> list[Cell]:
    played = state.played_cell
    assert played is not None
    return [cell for cell in state.rules.cells if cell.row == played.row]


def _flip_set_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Every FlipSet of the overflowing row, in OVERFLOW states of either option (R21, R41)."""
    for state in states:
        cells = _row_cells(state)
        for size in range(1, len(cells) + 1):
            for combo in itertools.combinations(cells, size):
                yield _transition_vector(state, FlipSet(combo))


def _illegal_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Moves the variants forbid, two per phase, kind and reason (R40, R41).

    Anything but an owed placement (R40), Flip under ANY_SET, FlipSet under ONE_AT_A_TIME and
    a FlipSet that does not suffice (R41).
    """
    tried: list[tuple[Hashable, GameState, Move]] = []
    for state in states[:400]:
        if state.phase is Phase.OVERFLOW:
            candidates: list[Move] = [Flip(cell) for cell in _row_cells(state)]
            candidates += [FlipSet((cell,)) for cell in _row_cells(state)]
        elif state.phase in (Phase.ACTION, Phase.DRAW):
            hand = state.hand(state.current_player)
            candidates = [DrawFromDeck(), EndTurn(), *(Discard(card) for card in hand[:1])]
        else:
            continue
        legal = set(legal_moves(state))
        for move in candidates:
            if move in legal:
                continue
            try:
                apply(state, move)
            except IllegalMoveError as error:
                if error.rule in ("R40", "R41"):
                    key = (
                        state.phase,
                        type(move).__name__,
                        error.rule,
                        _reason_shape(error.reason),
                    )
                    tried.append((key, state, move))
    for _, state, move in _pick(tried, lambda item: item[0], 2):
        yield _transition_vector(state, move)


def _overflow_states(rules: Rules, count: int) -> list[GameState]:
    """The first OVERFLOW state of each of the first `count` seeded games that reach one."""
    found: list[GameState] = []
    for seed in range(10_000):
        if len(found) >= count:
            break
        for ply in play_game(rules, seed, policy_seed=seed):
            if ply.before.phase is Phase.OVERFLOW:
                found.append(ply.before)
                break
    return found


def variant_vectors() -> list[Vector]:
    """The variant vectors of every group, in a fixed order (see the module docstring)."""
    seeded = list(_games(2, seeded=True, offset=41))
    explicit = list(_games(2, seeded=False, offset=42))
    plies = _shuffled([ply for _, _, game in seeded + explicit for ply in game], 7)
    finals = [game[-1].after for _, _, game in seeded + explicit]
    states = list(dict.fromkeys(_shuffled([ply.before for ply in plies[:2000]] + finals, 8)))
    # Scoring is the same under every option: the score group needs no variant states. The
    # observations matter where a tech card may be owed (R38 samples the opponent's tech hand).
    owing = [s for s in states if s.rules.tech_timing is TechTiming.PLACE_AT_ONCE]

    vectors: list[Vector] = []
    vectors += _seeded_game_vectors(seeded)
    vectors += [_transition_vector(p.before, p.move) for p in _pick(plies, _legal_key, 3)]
    vectors += _illegal_vectors(states)
    overflows = _overflow_states(VARIANT_RULE_SETS["mini-any-set"], 3)
    overflows += _overflow_states(VARIANT_RULE_SETS["any-set"], 1)
    overflows += _overflow_states(_MINI_ONE_AT_A_TIME, 1)
    vectors += _flip_set_vectors(overflows)
    vectors += _legal_moves_vectors(states)
    vectors += _observation_vectors(owing)
    vectors += _perft_vectors(states)
    vectors += _invalid_vectors(states)
    return list({v.id: v for v in vectors}.values())


def _perft_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Move paths from states where a variant decides the next moves (R40, R41)."""
    owed = [
        s
        for s in states
        if s.phase in (Phase.OVERFLOW, Phase.DRAW)
        and s.rules.tech_timing is TechTiming.PLACE_AT_ONCE
        and legal_moves(s)
        and all(isinstance(m, PlaceAccumulator | PlaceSmart) for m in legal_moves(s))
    ][:2]
    sets = [
        s for s in states if s.phase is Phase.OVERFLOW and s.rules.overflow is Overflow.ANY_SET
    ][:2]
    for state in owed + sets:
        depth = 2 if state.rules.energies * state.rules.copies > 8 else 3
        yield _perft_vector(state, _path_counts(state, depth), True, f"{state.phase.name} state")


_VARIANT_RULES_TEXT: Final = (
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/keep", True, "the default keep written"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/one_at_a_time", True, "default overflow"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set/place_at_once", True, "order"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set/any_set", True, "twice"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/anyset", True, "misspelt variant"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off/ANY_SET", True, "upper case"),
)

_FLIP_SET_TEXT: Final = (
    ("FS 0S+0G", "canonical"),
    ("FS 1B", "one cell"),
    ("FS 0G+0S", "cells out of order"),
    ("FS 0S+0S", "a cell twice"),
    ("FS", "no cell"),
    ("FS 0S+", "a trailing +"),
    ("FS 0S 0G", "a space between cells"),
    ("FS 0S,0G", "a comma between cells"),
    ("fs 0S", "lower-case verb"),
)


def _invalid_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    produced: list[Vector | None] = []
    for rules in VARIANT_RULE_SETS.values():
        produced.append(_notation_vector("rules", format_rules(rules), None, True, "variant"))
        produced.append(_json_vector("rules", to_json(rules), True, "variant rules"))
    for text, syntax, note in _VARIANT_RULES_TEXT:
        produced.append(_notation_vector("rules", text, None, syntax, f"rules, {note}"))
    for text, note in _FLIP_SET_TEXT:
        for rules in (VARIANT_RULE_SETS["any-set"], STANDARD):
            produced.append(_notation_vector("move", text, rules, True, f"FlipSet, {note}"))
    document = to_dict(VARIANT_RULE_SETS["any-set"])
    for key, value, note in (
        ("overflow", "any", "unknown overflow"),
        ("overflow", "ANY_SET", "overflow in upper case"),
        ("tech_timing", True, "tech_timing as a boolean"),
        ("tech_timing", "keep", "the default written out"),
        ("overflow", None, "null overflow"),
    ):
        produced.append(_json_vector("rules", _dump(document | {key: value}), True, note))
    owed = [s for s in states if s.rules.tech_timing is TechTiming.PLACE_AT_ONCE][:2]
    for state in owed:
        produced.append(_json_vector("state", to_json(state), True, "state", state.rules))
    yield from (v for v in produced if v is not None)
