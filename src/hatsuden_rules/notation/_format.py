"""Formatting the text notation: cards, cells, moves, rule sets, states and observations."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from hatsuden_rules._positions import state_parts
from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import Card, Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rules import Overflow, Rules, TechTiming
from hatsuden_rules.core.state import GameState, Stack
from hatsuden_rules.core.text import TECH_CODES, format_card, format_cell, format_move
from hatsuden_rules.observation._observe import Concealed, Observation, SeenMove, SeenStack

__all__ = [
    "TECH_CODES",
    "format_card",
    "format_cell",
    "format_move",
    "format_observation",
    "format_rules",
    "format_seen_move",
    "format_state",
]

_T = TypeVar("_T")


def format_rules(rules: Rules) -> str:
    """The notation of a rule set: its nine fields in order, separated by ``/``, then variants.

    ``energies/max_value/copies/hand_size/city_demand/techs/tiebreak/retake/stall_limit``, with
    the tech codes joined by ``+`` (``-`` for none), ``retake`` or ``noretake``, and ``off`` for
    no stall limit. A variant option that is not at its default follows as one more field:
    ``/place_at_once`` (`tech_timing`, R40), then ``/any_set`` (`overflow`, R41); at their
    defaults they are not written, so every rule set of earlier versions keeps its notation.

    Examples:
        >>> from hatsuden_rules import STANDARD, Overflow, Rules
        >>> format_rules(STANDARD)
        '5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20'
        >>> format_rules(Rules(stall_limit=None, overflow=Overflow.ANY_SET))
        '5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off/any_set'
    """
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    techs = "+".join(TECH_CODES[t] for t in enc.tables(rules).techs) or "-"
    retake = "retake" if rules.allow_retake_discard else "noretake"
    stall = "off" if rules.stall_limit is None else str(rules.stall_limit)
    variants = ""
    if rules.tech_timing is not TechTiming.KEEP:
        variants += f"/{rules.tech_timing.value}"
    if rules.overflow is not Overflow.ONE_AT_A_TIME:
        variants += f"/{rules.overflow.value}"
    return (
        f"{rules.energies}/{rules.max_value}/{rules.copies}/{rules.hand_size}/"
        f"{rules.city_demand}/{techs}/{rules.tiebreak.value}/{retake}/{stall}{variants}"
    )


def format_state(state: GameState) -> str:
    """The one-line canonical notation of a complete state (god view).

    Fields ``key=value`` in the order of the `GameState` fields, separated by single spaces; see
    NOTATION.md for the grammar.

    Examples:
        >>> from hatsuden_rules import new_game, parse_state
        >>> line = format_state(new_game(seed=1))
        >>> line.split()[:4]
        ['rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20', 'phase=action', \
'current_player=0', 'hands=G4,W2,W4,H1,B4/S2,G1,G1,H2,H4']
        >>> parse_state(line) == new_game(seed=1)
        True
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    p = state_parts(state)
    fields = [
        ("rules", format_rules(p.rules)),
        ("phase", p.phase.value),
        ("current_player", str(p.current_player)),
        ("hands", _pair(p.hands, _cards)),
        ("deck", _cards(p.deck)),
        ("discards", _cards(p.discards)),
        ("boards", _pair(p.boards, lambda board: _board(board, p.rules.energies))),
        ("tech_deck", _techs(p.tech_deck)),
        ("tech_hands", _pair(p.tech_hands, _techs)),
        ("accumulator", _opt(p.accumulator, lambda a: f"{a[0]}:{a[1]}")),
        ("smart", _opt(p.smart, lambda e: e.letter)),
        ("played_cell", _opt(p.played_cell, format_cell)),
        ("turn_discard", _opt(p.turn_discard, format_card)),
        ("pending_chance", _opt(p.pending_chance, lambda c: c.value)),
        ("stall_count", str(p.stall_count)),
        ("end_triggered_by", _opt(p.end_triggered_by, str)),
        ("end_reason", _opt(p.end_reason, lambda r: r.value)),
        ("rng_state", _opt(p.rng_state, str)),
        ("known_cards", _pair(p.known_cards, _cards)),
        ("this_turn", _moves(p.this_turn)),
        ("last_turn", _moves(p.last_turn)),
    ]
    return " ".join(f"{key}={value}" for key, value in fields)


def format_observation(observation: Observation) -> str:
    """The one-line canonical notation of an observation (what one player sees, R36).

    Like `format_state`, with the fields of `Observation` in order. A card the observer has not
    seen is ``?`` (an opponent's built pylon ``#?``, secret card ``*?``); a move whose card was
    hidden keeps its shape with ``?`` for the card: ``P ? 0W``, ``C* ? 0S``, ``=?`` (a card
    dealt), ``=???`` (a tech card dealt).

    Examples:
        >>> from hatsuden_rules import new_game, observe, parse_observation
        >>> line = format_observation(observe(new_game(seed=1), 1))
        >>> line.split()[1:6]
        ['player=1', 'phase=action', 'current_player=0', 'hand=S2,G1,G1,H2,H4', 'tech_hand=-']
        >>> parse_observation(line) == observe(new_game(seed=1), 1)
        True
    """
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    o = observation
    techs = enc.tables(o.rules).techs
    fields = [
        ("rules", format_rules(o.rules)),
        ("player", str(o.player)),
        ("phase", o.phase.value),
        ("current_player", str(o.current_player)),
        ("hand", _cards(o.hand)),
        ("tech_hand", _techs(tuple(t for t in techs if t in o.tech_hand))),
        ("known_to_opponent", _cards(o.known_to_opponent)),
        ("opponent_known", _cards(o.opponent_known)),
        ("opponent_hand_size", str(o.opponent_hand_size)),
        ("opponent_tech_hand_size", str(o.opponent_tech_hand_size)),
        ("deck_size", str(o.deck_size)),
        ("tech_deck_size", str(o.tech_deck_size)),
        ("discards", _cards(o.discards)),
        ("boards", _pair(o.boards, lambda board: _board(board, o.rules.energies))),
        ("accumulator", _opt(o.accumulator, lambda a: f"{a[0]}:{a[1]}")),
        ("smart", _opt(o.smart, lambda e: e.letter)),
        ("played_cell", _opt(o.played_cell, format_cell)),
        ("turn_discard", _opt(o.turn_discard, format_card)),
        ("pending_chance", _opt(o.pending_chance, lambda c: c.value)),
        ("stall_count", str(o.stall_count)),
        ("end_triggered_by", _opt(o.end_triggered_by, str)),
        ("end_reason", _opt(o.end_reason, lambda r: r.value)),
        ("this_turn", _moves(o.this_turn)),
        ("last_turn", _moves(o.last_turn)),
    ]
    return " ".join(f"{key}={value}" for key, value in fields)


def format_seen_move(move: SeenMove) -> str:
    """The notation of a move as a player saw it: ``?`` for a card they did not see.

    Examples:
        >>> from hatsuden_rules import Cell, Energy
        >>> format_seen_move(Concealed("BuildPylon", Cell(0, Energy.WIND)))
        'P ? 0W'
    """
    if not isinstance(move, Concealed):
        return format_move(move)
    if move.move == "Deal":
        return "=?"
    if move.move == "DealTech":
        return "=???"
    assert move.cell is not None
    verb = "P" if move.move == "BuildPylon" else "C*"
    return f"{verb} ? {format_cell(move.cell)}"


def _pair(pair: tuple[_T, _T], each: Callable[[_T], str]) -> str:
    return f"{each(pair[0])}/{each(pair[1])}"


def _opt(value: _T | None, each: Callable[[_T], str]) -> str:
    return "-" if value is None else each(value)


def _cards(cards: tuple[Card, ...]) -> str:
    return ",".join(format_card(card) for card in cards) or "-"


def _techs(techs: tuple[Tech, ...]) -> str:
    return ",".join(TECH_CODES[tech] for tech in techs) or "-"


def _moves(moves: tuple[SeenMove, ...]) -> str:
    return "[" + ", ".join(format_seen_move(move) for move in moves) + "]"


def _stack(stack: Stack | SeenStack | None) -> str:
    if stack is None:
        return "."
    marks = ("#~" if stack.flipped else "#") if stack.face_down else ""
    marks += ("*" if stack.secret else "") + ("v" if stack.downsized else "")
    return marks + "+".join("?" if card is None else format_card(card) for card in stack.cards)


def _board(board: tuple[Stack | None, ...] | tuple[SeenStack | None, ...], width: int) -> str:
    rows = (board[:width], board[width:])
    return ";".join(",".join(_stack(stack) for stack in row) for row in rows)
