"""hatsuden-rules: the rules of HATSUDEN (itten, 2017) as an immutable, fully typed library.

The core is four pure functions over frozen values: `new_game`, `legal_moves`, `apply` and
`score`. RULES.md is the specification; code and tests cite its rule numbers (R1-R41).

Examples:
    >>> import random
    >>> from hatsuden_rules import new_game, legal_moves, apply, score
    >>> state, rng = new_game(seed=2026), random.Random(0)
    >>> while not state.is_over:
    ...     state = apply(state, rng.choice(legal_moves(state)))
    >>> score(state).winner in (0, 1)
    True
"""

from typing import TYPE_CHECKING, Any

from hatsuden_rules.actions import (
    action_to_move,
    move_to_action,
    num_chance_outcomes,
    num_distinct_actions,
)
from hatsuden_rules.core import publish
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.cards import Card, Cell, Energy, Tech
from hatsuden_rules.core.errors import (
    HatsudenError,
    IllegalMoveError,
    InvalidInputError,
    InvalidMoveError,
    InvalidRulesError,
    PhaseError,
)
from hatsuden_rules.core.legal import chance_outcomes, is_legal, legal_moves
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndTurn,
    Flip,
    FlipSet,
    Improve,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
    move_sort_key,
)
from hatsuden_rules.core.render import render, render_card
from hatsuden_rules.core.rng import SplitMix64, sample
from hatsuden_rules.core.rules import (
    PRINTED,
    RULES_VERSION,
    STANDARD,
    Overflow,
    Rules,
    TechTiming,
    Tiebreak,
)
from hatsuden_rules.core.scoring import Decision, PlayerScore, Score, score
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase, Stack
from hatsuden_rules.notation import (
    MoveNotationError,
    NotationError,
    format_move,
    format_observation,
    format_rules,
    format_state,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.observation import (
    Concealed,
    Observation,
    SeenMove,
    SeenStack,
    legal_moves_from,
    observation_feature_names,
    observation_tensor,
    observation_tensor_layout,
    observe,
    render_observation,
    sample_state,
)
from hatsuden_rules.serialization import (
    FORMAT_VERSION,
    InvalidDocumentError,
    from_dict,
    from_json,
    to_dict,
    to_json,
)
from hatsuden_rules.serialization._records import (
    GameRecord,
    GameResult,
    ReplayError,
    format_record,
    parse_record,
    record_game,
    replay,
)

if TYPE_CHECKING:
    from hatsuden_rules.svg import record_to_html

__version__ = "0.3.0"

__all__ = [
    "FORMAT_VERSION",
    "PRINTED",
    "RULES_VERSION",
    "STANDARD",
    "BuildPylon",
    "Card",
    "Cell",
    "Chance",
    "Concealed",
    "Construct",
    "Deal",
    "DealTech",
    "Decision",
    "DeclineTech",
    "Discard",
    "Downsize",
    "DrawFromDeck",
    "DrawFromDiscard",
    "DrawTech",
    "EndReason",
    "EndTurn",
    "Energy",
    "Flip",
    "FlipSet",
    "GameRecord",
    "GameResult",
    "GameState",
    "HatsudenError",
    "IllegalMoveError",
    "Improve",
    "InvalidDocumentError",
    "InvalidInputError",
    "InvalidMoveError",
    "InvalidRulesError",
    "Move",
    "MoveNotationError",
    "NotationError",
    "Observation",
    "Overflow",
    "Pass",
    "Phase",
    "PhaseError",
    "PlaceAccumulator",
    "PlaceSmart",
    "PlayerScore",
    "ReplayError",
    "Rules",
    "Score",
    "SeenMove",
    "SeenStack",
    "SplitMix64",
    "Stack",
    "Tech",
    "TechTiming",
    "Tiebreak",
    "__version__",
    "action_to_move",
    "apply",
    "chance_outcomes",
    "format_move",
    "format_observation",
    "format_record",
    "format_rules",
    "format_state",
    "from_dict",
    "from_json",
    "is_legal",
    "legal_moves",
    "legal_moves_from",
    "move_sort_key",
    "move_to_action",
    "new_game",
    "num_chance_outcomes",
    "num_distinct_actions",
    "observation_feature_names",
    "observation_tensor",
    "observation_tensor_layout",
    "observe",
    "parse_move",
    "parse_observation",
    "parse_record",
    "parse_rules",
    "parse_state",
    "record_game",
    "record_to_html",
    "render",
    "render_card",
    "render_observation",
    "replay",
    "sample",
    "sample_state",
    "score",
    "to_dict",
    "to_json",
]

publish(__name__, __all__, globals())  # public names, not the private modules defining them


def __getattr__(name: str) -> Any:
    """`record_to_html` on first use: ``import hatsuden_rules`` loads no SVG or HTML code."""
    if name == "record_to_html":
        from hatsuden_rules.svg import record_to_html

        return record_to_html
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
