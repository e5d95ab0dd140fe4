"""Feature names, bounds and normalisation of the observation and information-state tensors.

Pure Python (no numpy): `observation_feature_names` names every index of the two tensors, and
`normalize_tensor` maps a raw tensor to floats in [0, 1], both from one plan of `_Feature` rows
per ``(rules, kind, normalize)``, so they cannot disagree. The two tensors and the
normalisation: docs/architecture.md ("Tensor features"); every name: docs/features.md.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, Literal

import attrs

from hatsuden_rules.actions import chance_moves, player_moves
from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    Downsize,
    Improve,
    Move,
)
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.state import Chance, EndReason, Phase
from hatsuden_rules.core.text import format_card, format_cell, format_move
from hatsuden_rules.observation._tensor import observation_tensor_layout

__all__ = [
    "KINDS",
    "FeatureKind",
    "RecallCodec",
    "feature_plan",
    "max_game_length",
    "normalize_tensor",
    "observation_feature_names",
]

FeatureKind = Literal["observation", "information_state"]

#: The two tensors that have feature names.
KINDS: Final = ("observation", "information_state")

_CELL_FEATURES: Final = (
    "occupied",
    "face_down",
    "flipped",
    "secret",
    "downsized",
    "value",
    "top",
    "height",
)
_PLACEABLE: Final = (Tech.ACCUMULATOR, Tech.SMART)
#: Moves that put a card from the hand on a cell for good: at most `copies` of each.
_CARD_ON_CELL: Final = (Construct, Improve, Downsize, BuildPylon)


@attrs.frozen(slots=True)
class _Feature:
    """One entry of a raw tensor and how it is normalised.

    Attributes:
        name: The raw entry's name.
        low: Its least value.
        bound: Its greatest value (None: no bound, normalised as n / (n + 1)).
        categories: For a categorical entry normalised one-hot: ``(raw value, name suffix)``
            per output; empty for an entry normalised by scaling.
        segment: The segment of the tensor the entry belongs to (`observation_tensor_layout`).
    """

    name: str
    low: int
    bound: int | None
    categories: tuple[tuple[int, str], ...] = ()
    segment: str = ""


def max_game_length(rules: Rules) -> int | None:
    """The bound on a game's player moves that OpenSpiel uses (None without the stall rule)."""
    limit = rules.stall_limit
    if limit is None:
        return None
    deck = rules.deck_size
    placements = sum(1 for tech in _PLACEABLE if tech in rules.techs)
    return 2 * limit * (deck + 1) + deck + 4 * rules.energies + placements


def _check(rules: object, kind: object) -> None:
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    if kind not in KINDS:
        raise InvalidInputError(
            "kind", f"must be 'observation' or 'information_state', got {kind!r}"
        )


# Names in the text notation (NOTATION.md), which lies above this layer: a card is its energy
# letter and value, a cell its row and energy letter, a move `notation.format_move`'s text
# (tests/observation/test_features.py checks that the two agree on every move).
def _card_names(rules: Rules) -> tuple[str, ...]:
    return tuple(format_card(card) for card in rules.cards)


def _cell_names(rules: Rules) -> tuple[str, ...]:
    return tuple(format_cell(cell) for cell in rules.cells)


def _observation_plan(rules: Rules) -> list[_Feature]:
    cards = _card_names(rules)
    cells = _cell_names(rules)
    copies = min(rules.copies, rules.hand_size)
    techs = len(rules.techs)
    f = _Feature
    plan: list[_Feature] = [f(f"phase={phase.value}", 0, 1) for phase in Phase]
    plan += [f("to_move", 0, 1), f("seat", 0, 1)]
    plan += [f(f"hand[{c}]", 0, copies) for c in cards]
    plan += [f(f"tech_hand[{tech.name}]", 0, 1) for tech in Tech]
    plan += [f(f"known_to_opponent[{c}]", 0, copies) for c in cards]
    plan += [f(f"opponent_known[{c}]", 0, copies) for c in cards]
    plan += [
        f("opponent_hand_size", 0, rules.hand_size),
        f("opponent_tech_hand_size", 0, techs),
        f("deck_size", 0, rules.deck_size),
        f("tech_deck_size", 0, techs),
    ]
    plan += [f(f"discards[{c}]", 0, rules.copies) for c in cards]
    plan += [f(f"unseen[{c}]", 0, rules.copies) for c in cards]
    values = ((-1, "hidden"), *((v, str(v)) for v in range(rules.max_value + 1)))
    tops = tuple((i + 1, c) for i, c in enumerate(cards))
    # Values rise on a plant (R12) except once with DOWN (R13), which only goes down: at most
    # max_value cards, or twice that with DOWN when there are two copies to climb again.
    down = Tech.DOWN in rules.techs
    height = rules.max_value * (min(rules.copies, 2) if down else 1)
    for side in ("my_board", "opponent_board"):
        for cell, cell_name in zip(rules.cells, cells, strict=True):
            base = f"{side}[{cell_name}]"
            plan += [f(f"{base}.{name}", 0, 1) for name in _CELL_FEATURES[:5]]
            plan.append(f(f"{base}.value", -1, rules.max_value, values))
            # The other player sees the top card of a plant only, which has the cell's energy
            # (R10); my own pylons may hold any card (R14).
            seen = tops
            if side == "opponent_board":
                seen = tuple(
                    (i + 1, c)
                    for i, (c, card) in enumerate(zip(cards, rules.cards, strict=True))
                    if card.energy is cell.energy
                )
            plan.append(f(f"{base}.top", 0, max(i for i, _ in seen), seen))
            plan.append(f(f"{base}.height", 0, height))
    plan += [
        f("accumulator.my_row_0", 0, 1),
        f("accumulator.my_row_1", 0, 1),
        f("accumulator.opponent_row_0", 0, 1),
        f("accumulator.opponent_row_1", 0, 1),
    ]
    plan += [f(f"smart[{energy.name}]", 0, 1) for energy in rules.energies_in_play]
    plan += [f(f"played_cell[{c}]", 0, 1) for c in cells]
    plan += [f(f"turn_discard[{c}]", 0, 1) for c in cards]
    plan += [f(f"pending_chance={chance.value}", 0, 1) for chance in Chance]
    plan.append(f("stall", 0, rules.stall_limit))
    plan += [f("end_trigger.me", 0, 1), f("end_trigger.opponent", 0, 1)]
    plan += [f(f"end_reason={reason.value}", 0, 1) for reason in EndReason]
    return plan


class RecallCodec:
    """The seen ids of the information-state counts (as OpenSpiel's ``_record.Codec``, ids only).

    ``player[a] == (id as the mover sees it, id as the other player sees it)`` for action id
    ``a``; ``chance[c]`` likewise for chance id ``c`` (the receiver, the other player). Ids fall
    in four ranges, in this order: my moves by action id, the opponent's open moves by action
    id, the opponent's concealed moves (BuildPylon by cell, secret Construct by cell, Deal,
    DealTech), the chance outcomes received by chance id.
    """

    __slots__ = ("chance", "chance_moves", "moves", "player", "segments", "size")

    def __init__(self, rules: Rules) -> None:
        moves = player_moves(rules)
        outcomes = chance_moves(rules)
        n, k, cells = len(moves), len(outcomes), len(rules.cells)
        cell_index = {cell: i for i, cell in enumerate(rules.cells)}
        hidden = 2 * n
        received = hidden + 2 * cells + 2
        self.moves: tuple[Move, ...] = moves
        self.chance_moves: tuple[Move, ...] = outcomes
        self.segments: tuple[tuple[str, int], ...] = (
            ("my_moves", n),
            ("opponent_moves", n),
            ("opponent_concealed", 2 * cells + 2),
            ("my_chance", k),
        )
        self.size: int = received + k

        def other(move: Move, action: int) -> int:
            if isinstance(move, BuildPylon):
                return hidden + cell_index[move.cell]
            if isinstance(move, Construct) and move.secret:
                return hidden + cells + cell_index[move.cell]
            return n + action

        self.player: tuple[tuple[int, int], ...] = tuple(
            (a, other(move, a)) for a, move in enumerate(moves)
        )
        deal, deal_tech = hidden + 2 * cells, hidden + 2 * cells + 1
        self.chance: tuple[tuple[int, int], ...] = tuple(
            (received + c, deal if isinstance(move, Deal) else deal_tech)
            for c, move in enumerate(outcomes)
        )


def _recall_plan(rules: Rules) -> list[_Feature]:
    moves = player_moves(rules)
    length = max_game_length(rules)
    deck = rules.deck_size
    techs = len(rules.techs)

    def move_bound(move: Move) -> int | None:
        return rules.copies if isinstance(move, _CARD_ON_CELL) else length

    f = _Feature
    names = tuple(format_move(move) for move in moves)
    plan = [f(f"my_moves[{name}]", 0, move_bound(m)) for name, m in zip(names, moves, strict=True)]
    plan += [
        f(f"opponent_moves[{name}]", 0, move_bound(m)) for name, m in zip(names, moves, strict=True)
    ]
    cells = _cell_names(rules)
    plan += [f(f"opponent_concealed[pylon {c}]", 0, deck) for c in cells]
    plan += [f(f"opponent_concealed[secret_construct {c}]", 0, deck) for c in cells]
    plan += [f("opponent_concealed[deal]", 0, deck), f("opponent_concealed[deal_tech]", 0, techs)]
    for move in chance_moves(rules):
        bound = rules.copies if isinstance(move, Deal) else 1
        assert isinstance(move, Deal | DealTech)
        plan.append(f(f"my_chance[{format_move(move)}]", 0, bound))
    return plan


def _segmented(plan: list[_Feature], layout: Sequence[tuple[str, int]]) -> list[_Feature]:
    out: list[_Feature] = []
    rows = iter(plan)
    for segment, size in layout:
        out += [attrs.evolve(next(rows), segment=segment) for _ in range(size)]
    assert next(rows, None) is None
    return out


#: The two halves of an observation (OpenSpiel's ``IIGObservationType``): ``public`` is what
#: both players know, the same for both (by seat: ``p0``, ``p1``), ``private`` what only the
#: observer knows.
SPLITS: Final = ("public", "private")

#: A source of an entry of a split observation: ``("p0", i)`` or ``("p1", i)`` entry i of that
#: seat's observation tensor, ``("me", i)`` entry i of the observer's, ``("hidden_top", i)``
#: the observer's top card at entry i of their tensor where the other player sees none.
Source = tuple[str, int]


def _public_plan(rules: Rules) -> list[tuple[_Feature, Source]]:
    plan = feature_plan(rules, "observation")
    index = {feature.name: i for i, feature in enumerate(plan)}
    out: list[tuple[_Feature, Source]] = []

    def add(name: str, seat: str, source: str, segment: str) -> None:
        i = index[source]
        out.append((attrs.evolve(plan[i], name=name, segment=segment), (seat, i)))

    def segment(name: str) -> list[_Feature]:
        return [f for f in plan if f.segment == name]

    for f in segment("phase"):
        add(f.name, "p0", f.name, "phase")
    add("to_move.p0", "p0", "to_move", "to_move")
    add("to_move.p1", "p1", "to_move", "to_move")
    for seat in ("p0", "p1"):  # a seat's cards that the other player knows (R36): public
        for f in segment("known_to_opponent"):
            add(f.name.replace("known_to_opponent", f"known_{seat}"), seat, f.name, "known")
    for seat, other in (("p0", "p1"), ("p1", "p0")):
        add(f"hand_size.{seat}", other, "opponent_hand_size", "sizes")
        add(f"tech_hand_size.{seat}", other, "opponent_tech_hand_size", "sizes")
    add("deck_size", "p0", "deck_size", "sizes")
    add("tech_deck_size", "p0", "tech_deck_size", "sizes")
    for f in segment("discards"):
        add(f.name, "p0", f.name, "discards")
    for seat, other in (("p0", "p1"), ("p1", "p0")):  # a board as the other player sees it
        for f in segment("opponent_board"):
            add(f.name.replace("opponent_board", f"board_{seat}"), other, f.name, "boards")
    for row in (0, 1):
        add(f"accumulator.p0_row_{row}", "p0", f"accumulator.my_row_{row}", "accumulator")
    for row in (0, 1):
        add(f"accumulator.p1_row_{row}", "p0", f"accumulator.opponent_row_{row}", "accumulator")
    for name in ("smart", "played_cell", "turn_discard", "pending_chance", "stall"):
        for f in segment(name):
            add(f.name, "p0", f.name, name)
    add("end_trigger.p0", "p0", "end_trigger.me", "end_trigger")
    add("end_trigger.p1", "p0", "end_trigger.opponent", "end_trigger")
    for f in segment("end_reason"):
        add(f.name, "p0", f.name, "end_reason")
    return out


@functools.lru_cache(maxsize=64)
def split_plan(rules: Rules, split: str) -> tuple[tuple[_Feature, Source], ...]:
    """The entries of the public or private observation, each with its source (cached)."""
    if split not in SPLITS:
        raise InvalidInputError("split", f"must be 'public' or 'private', got {split!r}")
    if split == "public":
        return tuple(_public_plan(rules))
    plan = feature_plan(rules, "observation")
    out: list[tuple[_Feature, Source]] = [
        (f, ("me", i)) for i, f in enumerate(plan) if f.segment in ("hand", "tech_hand")
    ]
    tops = tuple((i + 1, c) for i, c in enumerate(_card_names(rules)))
    index = {feature.name: i for i, feature in enumerate(plan)}
    for cell in _cell_names(rules):
        feature = _Feature(f"my_hidden_top[{cell}]", 0, len(rules.cards), tops, "my_hidden_top")
        out.append((feature, ("hidden_top", index[f"my_board[{cell}].top"])))
    return tuple(out)


def split_tensor(
    rules: Rules, split: str, player: int, tensors: Sequence[Sequence[int]]
) -> list[int]:
    """The public or private raw observation of `player` from both seats' observation tensors."""
    board = len(rules.cells) * len(_CELL_FEATURES)  # from "my_board" to "opponent_board"
    mine, theirs = tensors[player], tensors[1 - player]
    out: list[int] = []
    for _, (where, i) in split_plan(rules, split):
        if where == "p0":
            out.append(tensors[0][i])
        elif where == "p1":
            out.append(tensors[1][i])
        elif where == "me":
            out.append(mine[i])
        else:  # my top card where the other player sees none (their view of my board)
            out.append(mine[i] if theirs[i + board] == 0 else 0)
    return out


@functools.lru_cache(maxsize=64)
def feature_plan(rules: Rules, kind: str) -> tuple[_Feature, ...]:
    """The rows of the raw tensor `kind` under `rules`, one per index (cached).

    Besides the two kinds, ``"public"`` and ``"private"`` give the halves of the observation
    (`split_plan`).
    """
    if kind in SPLITS:
        return tuple(feature for feature, _ in split_plan(rules, kind))
    _check(rules, kind)
    plan = _segmented(_observation_plan(rules), observation_tensor_layout(rules))
    if kind == "information_state":
        plan += _segmented(_recall_plan(rules), RecallCodec(rules).segments)
    return tuple(plan)


def normalized_names(plan: Sequence[_Feature]) -> tuple[str, ...]:
    """The names of the normalised tensor of `plan`: one-hot fields expanded."""
    out: list[str] = []
    for feature in plan:
        if feature.categories:
            out += [f"{feature.name}={suffix}" for _, suffix in feature.categories]
        else:
            out.append(feature.name)
    return tuple(out)


def observation_feature_names(
    rules: Rules, kind: FeatureKind = "observation", *, normalize: bool = False
) -> tuple[str, ...]:
    """The name of every index of the observation or information-state tensor (R39).

    ``kind`` is ``"observation"`` (`observation_tensor`, the observation of PettingZoo and of
    OpenSpiel) or ``"information_state"`` (OpenSpiel's information-state tensor: the observation
    then the perfect-recall counts). With ``normalize=True`` the names are those of the
    normalised tensor, where a stack's ``value`` and ``top`` are one-hot
    (``my_board[1S].value=hidden``, ``my_board[1S].top=S2``, ...). docs/features.md lists them
    all.

    Raises:
        InvalidInputError: `rules` is not a `Rules`, or `kind` is not one of the two kinds.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> names = observation_feature_names(STANDARD, "observation")
        >>> len(names), names[:3], names[14]
        (323, ('phase=chance', 'phase=action', 'phase=tech'), 'hand[G3]')
        >>> len(observation_feature_names(STANDARD, "information_state"))
        1213
        >>> len(observation_feature_names(STANDARD, "observation", normalize=True))
        643
    """
    _check(rules, kind)
    if type(normalize) is not bool:
        raise InvalidInputError("normalize", f"must be a bool, got {normalize!r}")
    plan = feature_plan(rules, kind)
    if normalize:
        return normalized_names(plan)
    return tuple(feature.name for feature in plan)


def normalize_tensor(rules: Rules, kind: FeatureKind, tensor: Sequence[int]) -> tuple[float, ...]:
    """The normalised features (floats in [0, 1]) of a raw tensor of `kind` under `rules`."""
    plan = feature_plan(rules, kind)
    if len(tensor) != len(plan):
        raise InvalidInputError(
            "tensor", f"has {len(tensor)} entries; a {kind} tensor here has {len(plan)}"
        )
    out: list[float] = []
    for feature, x in zip(plan, tensor, strict=True):
        if feature.categories:
            out += [1.0 if x == value else 0.0 for value, _ in feature.categories]
        elif feature.bound is None:
            out.append(x / (x + 1))
        elif feature.bound == 0:
            out.append(0.0)
        else:
            out.append(x / feature.bound)
    return tuple(out)
