"""The properties checked on every reachable state and every transition.

Each check is written against the public API only, from RULES.md, independently of the engine's
internals: a bug in the engine cannot hide in a shared helper. Every failure names its rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import NamedTuple

from .. import (
    Card,
    Chance,
    Deal,
    DealTech,
    Decision,
    Discard,
    DrawFromDiscard,
    EndTurn,
    Energy,
    GameState,
    Move,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Stack,
    Tech,
    Tiebreak,
    apply,
    chance_outcomes,
    move_sort_key,
    score,
)

__all__ = ["Zones", "oracle_score", "state_violations", "transition_violations", "zones"]

Problem = tuple[str, str]  # (rule, message)


class Zones(NamedTuple):
    """A snapshot of every zone of a state (god view), to compare before and after a move."""

    hand0: tuple[Card, ...]
    hand1: tuple[Card, ...]
    deck: tuple[Card, ...]
    discards: tuple[Card, ...]
    board0: tuple[Stack | None, ...]
    board1: tuple[Stack | None, ...]
    tech_deck: tuple[Tech, ...]
    tech_hand0: frozenset[Tech]
    tech_hand1: frozenset[Tech]
    accumulator: tuple[int, int] | None
    smart: Energy | None


def zones(state: GameState) -> Zones:
    """Every zone of `state`."""
    return Zones(
        state.hand(0),
        state.hand(1),
        state.deck,
        state.discards,
        state.board(0),
        state.board(1),
        state.tech_deck,
        state.tech_hand(0),
        state.tech_hand(1),
        state.accumulator,
        state.smart,
    )


def oracle_score(state: GameState) -> tuple[tuple[int, int], int, Decision]:
    """Totals, winner and decision recomputed from RULES.md R27-R29 alone."""
    rules = state.rules
    energies = rules.energies_in_play
    values = []
    for player in (0, 1):
        grid = {
            (cell.row, cell.energy): (0 if s is None or s.face_down else s.cards[-1].value)
            for cell, s in zip(rules.cells, state.board(player), strict=True)
        }
        values.append(grid)
    energy = [0, 0]
    for e in energies:
        g0 = values[0][(0, e)] + values[0][(1, e)]
        g1 = values[1][(0, e)] + values[1][(1, e)]
        if g0 != g1:
            energy[0 if g0 > g1 else 1] += 2 if state.smart is e else 1
    city = [0, 0]
    supply = [0, 0]
    for player in (0, 1):
        for row in (0, 1):
            total = sum(values[player][(row, e)] for e in energies)
            supply[player] += total
            if total == rules.city_demand:
                city[player] += 1
            elif total <= rules.city_demand - 2:
                city[player] -= 1
    totals = (energy[0] + city[0], energy[1] + city[1])
    if totals[0] != totals[1]:
        return totals, (0 if totals[0] > totals[1] else 1), Decision.TOTAL
    if rules.tiebreak is Tiebreak.SUPPLY:
        a, b, decision = supply[0], supply[1], Decision.SUPPLY
    else:
        a, b, decision = city[0], city[1], Decision.CITY_POINTS
    if a != b:
        return totals, (0 if a > b else 1), decision
    return totals, 1, Decision.SECOND_PLAYER


def _full_deck(rules: Rules) -> Counter[Card]:
    return Counter(dict.fromkeys(rules.cards, rules.copies))


def state_violations(state: GameState, moves: tuple[Move, ...], z: Zones) -> Iterator[Problem]:
    """Every invariant of RULES.md that `state` (with its legal `moves`) breaks."""
    rules = state.rules
    # R2-R4: every plant card is in exactly one place; a flipped stack keeps its cards.
    cards: Counter[Card] = Counter()
    for zone in (z.hand0, z.hand1, z.deck, z.discards):
        cards.update(zone)
    techs: list[Tech] = [*z.tech_deck, *z.tech_hand0, *z.tech_hand1]
    for board in (z.board0, z.board1):
        for stack in board:
            if stack is not None:
                cards.update(stack.cards)
                techs += [Tech.SECRET_BUILD] * stack.secret + [Tech.DOWN] * stack.downsized
    if cards != _full_deck(rules):
        yield "R4", f"plant cards are not conserved: {sorted(cards.items(), key=str)}"
    techs += [Tech.ACCUMULATOR] * (z.accumulator is not None) + [Tech.SMART] * (z.smart is not None)
    if sorted(techs, key=lambda t: t.index) != sorted(rules.techs, key=lambda t: t.index):
        yield "R3", f"tech cards are not conserved: {techs}"
    for player in (0, 1):
        if state.hand_size(player) > rules.hand_size:
            yield "R22", f"player {player} holds {state.hand_size(player)} > hand_size cards"
    if state.phase in (Phase.ACTION, Phase.DRAW):
        for player in (0, 1):
            for row in (0, 1):
                if state.row_supply(player, row) > state.tolerance(player, row):
                    yield "R21", f"player {player} row {row} is above tolerance in {state.phase}"
    # R26: legal moves exist iff the game is not over (deadlock / zombie).
    if state.is_over and moves:
        yield "R26", f"zombie: the game is over but {len(moves)} moves are legal"
    if not state.is_over and not moves:
        yield "R26", "deadlock: the game is not over but no move is legal"
    # R34: sorted, duplicate-free.
    keys = [move_sort_key(m) for m in moves]
    if keys != sorted(keys) or len(set(moves)) != len(moves):
        yield "R34", "legal moves are not sorted and duplicate-free"
    if state.phase is Phase.CHANCE:
        outcomes = chance_outcomes(state)
        if (
            sum((p for _, p in outcomes), Fraction(0)) != 1
            or tuple(m for m, _ in outcomes) != moves
        ):
            yield "R6", "chance outcomes do not sum to 1 or differ from the legal moves"
    sheet = score(state)
    totals, winner, decision = oracle_score(state)
    if (sheet.players[0].total, sheet.players[1].total) != totals or (
        sheet.winner,
        sheet.decided_by,
    ) != (winner, decision):
        yield "R29", f"score() {sheet} disagrees with the rules: {totals} {winner} {decision}"
    limit = rules.stall_limit
    if limit is not None and state.stall_count >= limit and not state.is_over:
        yield "R25", f"stall counter {state.stall_count} reached the limit but the game goes on"
    trigger = state.end_triggered_by
    if trigger is not None and state.occupied(trigger) != len(rules.cells):
        yield "R24", f"player {trigger} triggered the end without a full grid"


# Which zones each kind of move may change (R9-R22); anything else must stay as it was.
_MAY_CHANGE: dict[type, tuple[str, ...]] = {
    Discard: ("discards",),
    DrawFromDiscard: ("discards",),
    PlaceAccumulator: ("accumulator",),
    PlaceSmart: ("smart",),
    Deal: ("deck",),
    DealTech: ("tech_deck",),
}


def transition_violations(
    before: GameState, move: Move, after: GameState, zb: Zones, za: Zones
) -> Iterator[Problem]:
    """Every rule that the step `before --move--> after` breaks."""
    if apply(before, move) != after:
        yield "R35", "apply is not deterministic"
    mover = before.current_player
    own = (f"hand{mover}", f"board{mover}", f"tech_hand{mover}")
    allowed = {*own, *_MAY_CHANGE.get(type(move), ())}
    changed = [name for name, b, a in zip(Zones._fields, zb, za, strict=True) if b != a]
    if any(name not in allowed for name in changed):
        yield "R9", f"{type(move).__name__} changed zones it does not name: {changed}"
    ends_turn = isinstance(move, DrawFromDiscard | EndTurn) or (
        isinstance(move, Deal) and before.pending_chance is Chance.DRAW
    )
    if ends_turn:
        if after.current_player != 1 - mover:
            yield "R23", "the turn ended but the other player is not to move"
        placed = before.played_cell is not None
        expected = 0 if placed else before.stall_count + 1
        if after.stall_count != expected:
            yield "R23", f"stall counter {after.stall_count}, expected {expected}"
        if before.end_triggered_by is None and after.end_triggered_by not in (None, mover):
            yield "R24", "the end was triggered by the player who did not move"
    elif before.pending_chance is not Chance.SETUP:
        if after.current_player != mover:
            yield "R9", "the player changed in the middle of a turn"
        if after.stall_count != before.stall_count:
            yield "R23", "the stall counter changed in the middle of a turn"
    if before.end_triggered_by is not None and after.end_triggered_by != before.end_triggered_by:
        yield "R24", "the end trigger changed once set"
