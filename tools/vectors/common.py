"""Helpers of every group's generator: sampling, and the flags and rule references of vectors.

The ``rule_refs`` of a vector are derived from what it exercises, never typed by hand: the rule
each move kind implements, the rule an `IllegalMoveError` names, the phases entered, turn and game
ends, the tech cards placed, the decision step of a score, the rules a parse error message cites.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Final, TypeVar

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
)
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.core.scoring import Decision
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase
from hatsuden_rules.notation import format_move
from hatsuden_rules.notation import format_state as _format_state

__all__ = [
    "DECISION_FLAGS",
    "KIND_RULES",
    "PHASE_RULES",
    "format_state",
    "game_seeds",
    "move_refs",
    "move_text",
    "pick",
    "reason_shape",
    "rules_flags",
    "rules_refs",
    "seed_flags",
    "shuffled",
    "state_flags",
    "state_refs",
    "transition_refs_flags",
    "turn_ended",
]

_T = TypeVar("_T")
#: The SplitMix64 state is a 64-bit unsigned integer (R32).
MASK64: Final = (1 << 64) - 1

KIND_RULES: Final[dict[type, tuple[str, ...]]] = {
    Construct: ("R10",),
    Improve: ("R12",),
    Downsize: ("R13",),
    BuildPylon: ("R14",),
    Discard: ("R15",),
    Pass: ("R16",),
    DrawTech: ("R17",),
    DeclineTech: ("R17",),
    Flip: ("R21",),
    FlipSet: ("R21", "R41"),
    DrawFromDeck: ("R22",),
    DrawFromDiscard: ("R22",),
    EndTurn: ("R22",),
    PlaceAccumulator: ("R18", "R19"),
    PlaceSmart: ("R18", "R20"),
    Deal: ("R6",),
    DealTech: ("R6", "R17"),
}


_GRID_MOVES: Final = (Construct, Improve, Downsize, BuildPylon, Flip, FlipSet)
PHASE_RULES: Final[dict[Phase, tuple[str, ...]]] = {
    Phase.CHANCE: ("R6",),
    Phase.ACTION: ("R9",),
    Phase.TECH: ("R17",),
    Phase.OVERFLOW: ("R21",),
    Phase.DRAW: ("R22",),
    Phase.GAME_OVER: ("R26",),
}


DECISION_FLAGS: Final = {
    Decision.TOTAL: "DecidedByTotal",
    Decision.CITY_POINTS: "DecidedByCityPoints",
    Decision.SUPPLY: "DecidedBySupply",
    Decision.SECOND_PLAYER: "DecidedBySecondPlayer",
}


def shuffled(items: Sequence[_T], seed: int) -> list[_T]:
    """`items` in a deterministic pseudo-random order (Fisher-Yates over SplitMix64)."""
    out = list(items)
    rng = SplitMix64.from_seed(seed)
    for i in range(len(out) - 1, 0, -1):
        value, rng = rng.next()
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def pick(items: Iterable[_T], key: Callable[[_T], Hashable], per_key: int) -> list[_T]:
    """The first `per_key` items of each key, in the order of `items`."""
    seen: Counter[Hashable] = Counter()
    chosen = []
    for item in items:
        k = key(item)
        if seen[k] < per_key:
            seen[k] += 1
            chosen.append(item)
    return chosen


def rules_flags(rules: Rules) -> set[str]:
    """``Standard``, ``Variant`` (one option of the printed game changed) or ``Reduced``."""
    if rules == STANDARD:
        return {"Standard"}
    options = set()
    if rules.tech_timing is not STANDARD.tech_timing:
        options.add("PlaceAtOnce")  # R40
    if rules.overflow is not STANDARD.overflow:
        options.add("AnySet")  # R41
    size = (rules.energies, rules.max_value, rules.copies, rules.hand_size, rules.city_demand)
    if size == (5, 4, 2, 5, 10):
        return {"Variant"} | options
    return {"Reduced"} | options


def rules_refs(rules: Rules) -> set[str]:
    """The rules a rule set's options exercise (R31, R40, R41, ...)."""
    refs = set()
    if rules != STANDARD:
        refs.add("R31")
    if rules.energies < 5:
        refs.add("R1")
    if rules.techs != STANDARD.techs:
        refs.add("R3")
    if rules.tech_timing is not STANDARD.tech_timing:
        refs.add("R40")
    if rules.overflow is not STANDARD.overflow:
        refs.add("R41")
    return refs


def state_flags(state: GameState) -> set[str]:
    """The flags of a state: its rules, mode, phase and what lies on the table."""
    flags = rules_flags(state.rules)
    flags.add("Seeded" if state.is_seeded else "Explicit")
    if state.is_over:
        flags.add("GameOver")
    if state.phase is Phase.CHANCE:
        flags.add("Chance")
    for player in (0, 1):
        for stack in state.board(player):
            if stack is None:
                continue
            if stack.is_secret_plant:
                flags.add("SecretPlant")
            if stack.flipped:
                flags.add("FlippedStack")
            if stack.downsized:
                flags.add("Downsized")
    if state.accumulator is not None:
        flags.add("Accumulator")
    if state.smart is not None:
        flags.add("Smart")
    if state.end_triggered_by is not None and not state.is_over:
        flags.add("FinalTurn")
    if state.deck_size == 0:
        flags.add("EmptyDeck")
    if state.phase is Phase.ACTION and state.hand_size(state.current_player) == 0:
        flags.add("EmptyHand")
    return flags


def state_refs(state: GameState, scoring: bool = False) -> set[str]:
    """The rules a state brings into play: its rule set, seeded mode, placed tech cards.

    The generator matters when moves are made (R8), the Smart card when scoring (R20), the
    Accumulator for both (tolerance, R19; and it does not change city points, R28).
    """
    refs = rules_refs(state.rules)
    if state.is_seeded and not scoring:
        refs.add("R8")
    if state.accumulator is not None:
        refs.add("R19")
    if state.smart is not None and scoring:
        refs.add("R20")
    return refs


def move_refs(state: GameState, move: Move) -> set[str]:
    """The rules `move` exercises from `state` (its kind's rule, tech cards spent, ...)."""
    refs = set(KIND_RULES[type(move)])
    if isinstance(move, Construct) and move.secret:
        refs.add("R11")
    if isinstance(move, _GRID_MOVES):
        refs.add("R4")
    if isinstance(move, Improve | Downsize | Flip):
        stack = state.stack(state.current_player, move.cell)
        if stack is not None and stack.is_secret_plant:
            refs.add("R11")
    if isinstance(move, Deal):
        refs.add("R2")
        if state.pending_chance is Chance.SETUP:
            refs.add("R7")
        elif state.pending_chance is Chance.DRAW:
            refs.add("R22")
    if isinstance(move, DealTech):
        refs.add("R3")
    return refs


def turn_ended(before: GameState, after: GameState) -> bool:
    """A turn has at least two moves (action and draw) and its log empties when it ends (R36)."""
    return bool(before.this_turn) and not after.this_turn


def transition_refs_flags(
    before: GameState, move: Move, after: GameState
) -> tuple[set[str], set[str]]:
    """The rules and flags of the step `before --move--> after` (turn and game ends, ...)."""
    refs = state_refs(before) | move_refs(before, move) | {"R36"}
    flags = state_flags(before)
    if after.phase is not before.phase:
        refs.add("R9")
    if after.phase is Phase.TECH:
        refs.add("R17")
        flags.add("EntersTech")
    if after.phase is Phase.OVERFLOW and before.phase is not Phase.OVERFLOW:
        refs.add("R21")
        flags.add("EntersOverflow")
    if before.phase is Phase.OVERFLOW and after.phase is Phase.DRAW:
        refs.add("R21")
        flags.add("ResolvesOverflow")
    if before.is_seeded and isinstance(move, DrawFromDeck | DrawTech):
        refs |= {"R8", "R32", "R33"}
        flags.add("SeededChance")
    if turn_ended(before, after):
        refs.add("R23")
        flags.add("EndsTurn")
        if after.stall_count > before.stall_count:
            refs.add("R25")
    if after.end_triggered_by is not None and before.end_triggered_by is None:
        refs.add("R24")
        flags.add("TriggersEnd")
    if after.is_over:
        refs.add("R26")
        flags.add("EndsGame")
        refs.add("R24" if after.end_reason is EndReason.FINAL_TURN else "R25")
    if after.known_cards(0) != before.known_cards(0) or after.known_cards(1) != before.known_cards(
        1
    ):
        flags.add("KnownCards")
    return refs, flags


def move_text(move: Move) -> str:
    """The notation of `move`."""
    return format_move(move)


_STATE_TEXT: dict[GameState, str] = {}


def format_state(state: GameState) -> str:
    """`notation.format_state`, memoised: the same states recur across groups."""
    text = _STATE_TEXT.get(state)
    if text is None:
        text = _STATE_TEXT[state] = _format_state(state)
    return text


def game_seeds(name: str, count: int) -> list[int]:
    """`count` game seeds derived from the name of a rule set, the first one negative."""
    digest = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")
    seeds = [digest + k for k in range(count)]
    seeds[0] = -seeds[0]  # one negative seed per rule set (R8: taken mod 2**64)
    return seeds


def reason_shape(message: str) -> str:
    """An error message without its particulars (cards, cells, numbers): a bucket for variety."""
    shape = re.sub(r"\([^()]*\)", "", message)
    return re.sub(r"\b[A-Z][a-z]+\b|[A-Z]+\d|\d+", "#", shape)


def seed_flags(seed: int) -> set[str]:
    """The flags of a seed outside 0 .. 2**64 - 1 (taken mod 2**64, R8)."""
    if seed < 0:
        return {"NegativeSeed"}
    if seed > MASK64:
        return {"LargeSeed"}
    return set()
