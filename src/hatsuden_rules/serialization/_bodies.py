"""Writing JSON documents: the body (the fields after ``type`` and ``format_version``) of each type.

See `hatsuden_rules.serialization` for the format; `_json_reader` reads the same bodies back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from hatsuden_rules._positions import state_parts
from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import Card, Tech
from hatsuden_rules.core.rules import Overflow, Rules, TechTiming
from hatsuden_rules.core.scoring import Score
from hatsuden_rules.core.state import GameState, Stack
from hatsuden_rules.notation._format import format_card, format_cell, format_move, format_seen_move
from hatsuden_rules.observation._observe import Observation, SeenStack

__all__ = [
    "FORMAT_VERSION",
    "cards_json",
    "observation_body",
    "rules_body",
    "score_body",
    "state_body",
]

#: The version of the JSON formats (and of the text notation); bumped on any incompatible change.
FORMAT_VERSION: Final = 1
"""The version of the JSON formats (and of the text notation); bumped on any incompatible change."""

_T = TypeVar("_T")


def _techs(techs: Sequence[Tech]) -> list[str]:
    return [tech.value for tech in sorted(techs, key=lambda t: t.index)]


def rules_body(rules: Rules) -> dict[str, Any]:
    """The fields of a rules document.

    The variant options (R40, R41) are written only when not at their defaults, so that the
    documents of every rule set of earlier versions are unchanged.
    """
    body: dict[str, Any] = {
        "energies": rules.energies,
        "max_value": rules.max_value,
        "copies": rules.copies,
        "hand_size": rules.hand_size,
        "city_demand": rules.city_demand,
        "techs": _techs(tuple(rules.techs)),
        "tiebreak": rules.tiebreak.value,
        "allow_retake_discard": rules.allow_retake_discard,
        "stall_limit": rules.stall_limit,
    }
    if rules.tech_timing is not TechTiming.KEEP:
        body["tech_timing"] = rules.tech_timing.value
    if rules.overflow is not Overflow.ONE_AT_A_TIME:
        body["overflow"] = rules.overflow.value
    return body


def _stack(stack: Stack | None) -> dict[str, Any] | None:
    if stack is None:
        return None
    return {
        "cards": [format_card(card) for card in stack.cards],
        "face_down": stack.face_down,
        "flipped": stack.flipped,
        "secret": stack.secret,
        "downsized": stack.downsized,
    }


def _opt(value: _T | None, each: Callable[[_T], Any]) -> Any:
    return None if value is None else each(value)


def cards_json(cards: Sequence[Card]) -> list[str]:
    """Cards in notation."""
    return [format_card(card) for card in cards]


def state_body(state: GameState) -> dict[str, Any]:
    """The fields of a state document."""
    p = state_parts(state)
    return {
        "rules": rules_body(p.rules),
        "phase": p.phase.value,
        "current_player": p.current_player,
        "hands": [cards_json(hand) for hand in p.hands],
        "deck": cards_json(p.deck),
        "discards": cards_json(p.discards),
        "boards": [[_stack(stack) for stack in board] for board in p.boards],
        "tech_deck": _techs(p.tech_deck),
        "tech_hands": [_techs(techs) for techs in p.tech_hands],
        "accumulator": _opt(p.accumulator, lambda a: {"player": a[0], "row": a[1]}),
        "smart": _opt(p.smart, lambda e: e.value),
        "played_cell": _opt(p.played_cell, format_cell),
        "turn_discard": _opt(p.turn_discard, format_card),
        "pending_chance": _opt(p.pending_chance, lambda c: c.value),
        "stall_count": p.stall_count,
        "end_triggered_by": p.end_triggered_by,
        "end_reason": _opt(p.end_reason, lambda r: r.value),
        "rng_state": _opt(p.rng_state, str),
        "known_cards": [cards_json(known) for known in p.known_cards],
        "this_turn": [format_move(move) for move in p.this_turn],
        "last_turn": [format_move(move) for move in p.last_turn],
    }


def observation_body(seen: Observation) -> dict[str, Any]:
    """The fields of an observation document."""
    techs = enc.tables(seen.rules).techs
    return {
        "rules": rules_body(seen.rules),
        "player": seen.player,
        "phase": seen.phase.value,
        "current_player": seen.current_player,
        "hand": cards_json(seen.hand),
        "tech_hand": [t.value for t in techs if t in seen.tech_hand],
        "known_to_opponent": cards_json(seen.known_to_opponent),
        "opponent_known": cards_json(seen.opponent_known),
        "opponent_hand_size": seen.opponent_hand_size,
        "opponent_tech_hand_size": seen.opponent_tech_hand_size,
        "deck_size": seen.deck_size,
        "tech_deck_size": seen.tech_deck_size,
        "discards": cards_json(seen.discards),
        "boards": [[_seen_stack(stack) for stack in board] for board in seen.boards],
        "accumulator": _opt(seen.accumulator, lambda a: {"player": a[0], "row": a[1]}),
        "smart": _opt(seen.smart, lambda e: e.value),
        "played_cell": _opt(seen.played_cell, format_cell),
        "turn_discard": _opt(seen.turn_discard, format_card),
        "pending_chance": _opt(seen.pending_chance, lambda c: c.value),
        "stall_count": seen.stall_count,
        "end_triggered_by": seen.end_triggered_by,
        "end_reason": _opt(seen.end_reason, lambda r: r.value),
        "this_turn": [format_seen_move(move) for move in seen.this_turn],
        "last_turn": [format_seen_move(move) for move in seen.last_turn],
    }


def _seen_stack(stack: SeenStack | None) -> dict[str, Any] | None:
    if stack is None:
        return None
    return {
        "cards": [None if card is None else format_card(card) for card in stack.cards],
        "face_down": stack.face_down,
        "flipped": stack.flipped,
        "secret": stack.secret,
        "downsized": stack.downsized,
    }


def score_body(sheet: Score) -> dict[str, Any]:
    """The fields of a score document."""
    return {
        "players": [
            {
                "energy_points": player.energy_points,
                "city_points": player.city_points,
                "total": player.total,
                "row_supply": list(player.row_supply),
                "generation": list(player.generation),
            }
            for player in sheet.players
        ],
        "winner": sheet.winner,
        "decided_by": sheet.decided_by.value,
        "energy_winners": list(sheet.energy_winners),
        "smart": _opt(sheet.smart, lambda e: e.value),
    }
