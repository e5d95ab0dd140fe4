"""The observation tensor (R39): an observation as a flat tuple of ints, with its layout."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, overload

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import Card, Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.state import Chance, EndReason, Phase
from hatsuden_rules.observation._observe import Observation, _unseen_counts

__all__ = ["observation_tensor", "observation_tensor_layout"]

_PHASES = tuple(Phase)
_CHANCES = tuple(Chance)
_REASONS = tuple(EndReason)
_CELL_FEATURES = (
    "occupied",
    "face_down",
    "flipped",
    "secret",
    "downsized",
    "value",
    "top",
    "height",
)


def observation_tensor_layout(rules: Rules) -> tuple[tuple[str, int], ...]:
    """The segments of `observation_tensor` for `rules`, in order: ``(name, length)`` (R39).

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> layout = observation_tensor_layout(STANDARD)
        >>> layout[:3], sum(n for _, n in layout)
        ((('phase', 6), ('to_move', 1), ('seat', 1)), 323)
    """
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    c = len(enc.tables(rules).cards)
    e = rules.energies
    cells = 2 * e
    return (
        ("phase", len(_PHASES)),
        ("to_move", 1),
        ("seat", 1),
        ("hand", c),
        ("tech_hand", len(Tech)),
        ("known_to_opponent", c),
        ("opponent_known", c),
        ("sizes", 4),
        ("discards", c),
        ("unseen", c),
        ("my_board", cells * len(_CELL_FEATURES)),
        ("opponent_board", cells * len(_CELL_FEATURES)),
        ("accumulator", 4),
        ("smart", e),
        ("played_cell", cells),
        ("turn_discard", c),
        ("pending_chance", len(_CHANCES)),
        ("stall", 1),
        ("end_trigger", 2),
        ("end_reason", len(_REASONS)),
    )


@overload
def observation_tensor(
    observation: Observation, *, normalize: Literal[False] = False
) -> tuple[int, ...]: ...


@overload
def observation_tensor(
    observation: Observation, *, normalize: Literal[True]
) -> tuple[float, ...]: ...


def observation_tensor(
    observation: Observation, *, normalize: bool = False
) -> tuple[int, ...] | tuple[float, ...]:
    """The observation as a flat tuple of ints, from the observer's side (R39).

    With ``normalize=True``: floats in [0, 1] instead, each count divided by its bound and a
    stack's value and top card one-hot (`observation_feature_names` with ``normalize=True``
    names them; docs/features.md).

    The layout is fixed for a `Rules` (see `observation_tensor_layout` and RULES.md R39): card
    segments count copies per card in `Rules.cards` order, cell segments follow `Rules.cells`,
    one-hot segments follow the enumerations' canonical order, and "my" comes before "the
    opponent's". The turn logs are not included.

    Examples:
        >>> from hatsuden_rules import STANDARD, new_game, observe
        >>> tensor = observation_tensor(observe(new_game(seed=5), 0))
        >>> len(tensor) == sum(n for _, n in observation_tensor_layout(STANDARD))
        True
        >>> features = observation_tensor(observe(new_game(seed=5), 0), normalize=True)
        >>> len(features), min(features) >= 0.0, max(features) <= 1.0
        (643, True, True)
    """
    o = observation
    if type(o) is not Observation:
        raise InvalidInputError("observation", f"expected an Observation, got {type(o).__name__}")
    if type(normalize) is not bool:
        raise InvalidInputError("normalize", f"must be a bool, got {normalize!r}")
    t = enc.tables(o.rules)
    index = t.card_index
    c = len(t.cards)

    def counts(cards: Iterable[Card]) -> list[int]:
        out = [0] * c
        for card in cards:
            out[index[card]] += 1
        return out

    def one_hot(n: int, k: int | None) -> list[int]:
        out = [0] * n
        if k is not None:
            out[k] = 1
        return out

    def board(seat: int) -> list[int]:
        out: list[int] = []
        for stack in o.boards[seat]:
            if stack is None:
                out += [0] * len(_CELL_FEATURES)
                continue
            value = stack.value
            top = stack.top
            out += [
                1,
                int(stack.face_down),
                int(stack.flipped),
                int(stack.secret),
                int(stack.downsized),
                -1 if value is None else value,
                0 if top is None else index[top] + 1,
                len(stack.cards),
            ]
        return out

    me, them = o.player, o.opponent
    acc = o.accumulator
    tensor = [
        *one_hot(len(_PHASES), _PHASES.index(o.phase)),
        int(o.current_player == me),
        me,
        *counts(o.hand),
        *(int(tech in o.tech_hand) for tech in Tech),
        *counts(o.known_to_opponent),
        *counts(o.opponent_known),
        o.opponent_hand_size,
        o.opponent_tech_hand_size,
        o.deck_size,
        o.tech_deck_size,
        *counts(o.discards),
        *_unseen_counts(o),
        *board(me),
        *board(them),
        int(acc == (me, 0)),
        int(acc == (me, 1)),
        int(acc == (them, 0)),
        int(acc == (them, 1)),
        *one_hot(len(t.energies), None if o.smart is None else t.energy_index[o.smart]),
        *one_hot(len(t.cells), None if o.played_cell is None else t.cell_index[o.played_cell]),
        *one_hot(c, None if o.turn_discard is None else index[o.turn_discard]),
        *one_hot(
            len(_CHANCES), None if o.pending_chance is None else _CHANCES.index(o.pending_chance)
        ),
        o.stall_count,
        int(o.end_triggered_by == me),
        int(o.end_triggered_by == them),
        *one_hot(len(_REASONS), None if o.end_reason is None else _REASONS.index(o.end_reason)),
    ]
    if normalize:
        from hatsuden_rules.observation._features import normalize_tensor

        return normalize_tensor(o.rules, "observation", tensor)
    return tuple(tensor)
