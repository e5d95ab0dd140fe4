"""The properties checked on every reachable state and every transition.

The checks are written against the public API, from RULES.md, independently of the engine's
logic: a bug in the engine cannot hide in a shared helper. Every failure names its rule.

`Properties` holds what a run over one `Rules` can share: constants, and memos of the work that
depends on the two grids alone (decoding them into `Stack` values, the cards and tech cards on
them, the score recomputed by the oracle). Memo keys are the state's grids as stored; the values
are computed from the public `GameState.board` only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import NamedTuple, Protocol

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
    legal_moves,
    move_sort_key,
    new_game,
    score,
)

__all__ = [
    "Problem",
    "Properties",
    "PropertyChecks",
    "Zones",
    "replay_problems",
]

Problem = tuple[str, str]  # (rule, message)

Board = tuple[Stack | None, ...]


class Zones(NamedTuple):
    """A snapshot of every zone of a state (god view), to compare before and after a move."""

    hand0: tuple[Card, ...]
    hand1: tuple[Card, ...]
    deck: tuple[Card, ...]
    discards: tuple[Card, ...]
    board0: Board
    board1: Board
    tech_deck: tuple[Tech, ...]
    tech_hand0: frozenset[Tech]
    tech_hand1: frozenset[Tech]
    accumulator: tuple[int, int] | None
    smart: Energy | None


class _GridFacts(NamedTuple):
    """What the oracle derives from the two grids and the Smart card alone."""

    cards: Counter[Card]  # plant cards on both grids (R4)
    techs: tuple[Tech, ...]  # tech cards spent on stacks (R11, R13)
    totals: tuple[int, int]  # R29
    winner: int
    decision: Decision
    full: tuple[bool, bool]  # every cell occupied (R24)


# Which zones each kind of move may change, besides the mover's hand, grid and tech hand
# (R9-R22); anything else must stay as it was.
_MAY_CHANGE: dict[type, tuple[str, ...]] = {
    Discard: ("discards",),
    DrawFromDiscard: ("discards",),
    PlaceAccumulator: ("accumulator",),
    PlaceSmart: ("smart",),
    Deal: ("deck",),
    DealTech: ("tech_deck",),
}


class PropertyChecks(Protocol):
    """What `check` runs on every state and transition (`Properties` is the standard one)."""

    def zones(self, state: GameState) -> Zones:
        """Every zone of `state`."""
        ...

    def state_violations(
        self, state: GameState, moves: Sequence[Move], z: Zones
    ) -> Iterator[Problem]:
        """Every invariant `state` breaks."""
        ...

    def transition_violations(
        self, before: GameState, move: Move, after: GameState, zb: Zones, za: Zones
    ) -> Iterator[Problem]:
        """Every rule the step breaks."""
        ...


def _tech_index(tech: Tech) -> int:
    return tech.index


class Properties:
    """The invariants and transition properties of RULES.md, for states of one `Rules`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._full_deck = Counter(dict.fromkeys(rules.cards, rules.copies))
        self._all_techs = sorted(rules.techs, key=_tech_index)
        self._boards: dict[object, Board] = {}
        self._cards: dict[object, tuple[Card, ...]] = {}
        self._facts: dict[tuple[object, object, Energy | None], _GridFacts] = {}
        self._conserved: dict[tuple[object, ...], bool] = {}

    def zones(self, state: GameState) -> Zones:
        """Every zone of `state`."""
        # Memo keys only: the zones as the state stores them, shared by many states.
        boards, hands, memo = state._boards, state._hands, self._cards
        board0 = self._boards.get(boards[0])
        if board0 is None:
            board0 = self._boards[boards[0]] = state.board(0)
        board1 = self._boards.get(boards[1])
        if board1 is None:
            board1 = self._boards[boards[1]] = state.board(1)
        hand0 = memo.get(hands[0])
        if hand0 is None:
            hand0 = memo[hands[0]] = state.hand(0)
        hand1 = memo.get(hands[1])
        if hand1 is None:
            hand1 = memo[hands[1]] = state.hand(1)
        deck = memo.get(state._deck)
        if deck is None:
            deck = memo[state._deck] = state.deck
        discards = memo.get(state._discards)
        if discards is None:
            discards = memo[state._discards] = state.discards
        return Zones(
            hand0,
            hand1,
            deck,
            discards,
            board0,
            board1,
            state.tech_deck,
            state.tech_hand(0),
            state.tech_hand(1),
            state.accumulator,
            state.smart,
        )

    def _grid_facts(self, state: GameState, z: Zones) -> _GridFacts:
        key = (state._boards[0], state._boards[1], z.smart)
        facts = self._facts.get(key)
        if facts is None:
            facts = self._facts[key] = self._derive(z)
        return facts

    def _derive(self, z: Zones) -> _GridFacts:
        """R27-R29 and the contents of both grids, from the public stacks alone."""
        rules = self.rules
        cards: Counter[Card] = Counter()
        techs: list[Tech] = []
        values = []
        for board in (z.board0, z.board1):
            grid = {}
            for cell, stack in zip(rules.cells, board, strict=True):
                grid[cell.row, cell.energy] = (
                    0 if stack is None or stack.face_down else stack.cards[-1].value
                )
                if stack is not None:
                    cards.update(stack.cards)
                    techs += [Tech.SECRET_BUILD] * stack.secret + [Tech.DOWN] * stack.downsized
            values.append(grid)
        energies = rules.energies_in_play
        energy = [0, 0]
        for e in energies:
            g0 = values[0][0, e] + values[0][1, e]
            g1 = values[1][0, e] + values[1][1, e]
            if g0 != g1:
                energy[0 if g0 > g1 else 1] += 2 if z.smart is e else 1
        city = [0, 0]
        supply = [0, 0]
        for player in (0, 1):
            for row in (0, 1):
                total = sum(values[player][row, e] for e in energies)
                supply[player] += total
                if total == rules.city_demand:
                    city[player] += 1
                elif total <= rules.city_demand - 2:
                    city[player] -= 1
        totals = (energy[0] + city[0], energy[1] + city[1])
        if totals[0] != totals[1]:
            winner, decision = (0 if totals[0] > totals[1] else 1), Decision.TOTAL
        else:
            if rules.tiebreak is Tiebreak.SUPPLY:
                a, b, decision = supply[0], supply[1], Decision.SUPPLY
            else:
                a, b, decision = city[0], city[1], Decision.CITY_POINTS
            if a != b:
                winner = 0 if a > b else 1
            else:
                winner, decision = 1, Decision.SECOND_PLAYER
        full = (
            all(s is not None for s in z.board0),
            all(s is not None for s in z.board1),
        )
        return _GridFacts(cards, tuple(techs), totals, winner, decision, full)

    def state_violations(
        self, state: GameState, moves: Sequence[Move], z: Zones
    ) -> Iterator[Problem]:
        """Every invariant of RULES.md that `state` (with its legal `moves`) breaks."""
        rules = self.rules
        facts = self._grid_facts(state, z)
        # R2-R4: every plant card is in exactly one place; a flipped stack keeps its cards.
        key = (state._hands, state._deck, state._discards, state._boards)
        conserved = self._conserved.get(key)
        if conserved is None:
            cards = facts.cards.copy()
            for zone in (z.hand0, z.hand1, z.deck, z.discards):
                cards.update(zone)
            conserved = self._conserved[key] = cards == self._full_deck
        if not conserved:
            yield "R4", f"plant cards are not conserved: {z}"
        techs = [*z.tech_deck, *z.tech_hand0, *z.tech_hand1, *facts.techs]
        techs += [Tech.ACCUMULATOR] * (z.accumulator is not None)
        techs += [Tech.SMART] * (z.smart is not None)
        if sorted(techs, key=_tech_index) != self._all_techs:
            yield "R3", f"tech cards are not conserved: {techs}"
        for player, hand in enumerate((z.hand0, z.hand1)):
            if len(hand) > rules.hand_size or state.hand_size(player) != len(hand):
                yield (
                    "R22",
                    f"player {player} holds {len(hand)} cards (hand_size {rules.hand_size})",
                )
        if state.phase is Phase.ACTION or state.phase is Phase.DRAW:
            for player in (0, 1):
                for row in (0, 1):
                    if state.row_supply(player, row) > state.tolerance(player, row):
                        yield (
                            "R21",
                            f"player {player} row {row} exceeds its tolerance in {state.phase}",
                        )
        # R26: legal moves exist iff the game is not over (deadlock / zombie).
        if state.is_over and moves:
            yield "R26", f"zombie: the game is over but {len(moves)} moves are legal"
        if not state.is_over and not moves:
            yield "R26", "deadlock: the game is not over but no move is legal"
        keys = [move_sort_key(m) for m in moves]  # R34: sorted, duplicate-free
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            yield "R34", "legal moves are not sorted and duplicate-free"
        if state.phase is Phase.CHANCE:
            outcomes = chance_outcomes(state)
            total = sum((p for _, p in outcomes), Fraction(0))
            if total != 1 or tuple(m for m, _ in outcomes) != tuple(moves):
                yield "R6", "chance outcomes do not sum to 1 or differ from the legal moves"
        sheet = score(state)
        if (sheet.players[0].total, sheet.players[1].total) != facts.totals or (
            sheet.winner,
            sheet.decided_by,
        ) != (facts.winner, facts.decision):
            yield "R29", f"score() gives {sheet}; the rules give {facts.totals} {facts.decision}"
        limit = rules.stall_limit
        if limit is not None and state.stall_count >= limit and not state.is_over:
            yield "R25", f"stall counter {state.stall_count} reached the limit, the game goes on"
        trigger = state.end_triggered_by
        if trigger is not None and not facts.full[trigger]:
            yield "R24", f"player {trigger} triggered the end without a full grid"

    def transition_violations(
        self, before: GameState, move: Move, after: GameState, zb: Zones, za: Zones
    ) -> Iterator[Problem]:
        """Every rule that the step `before --move--> after` breaks."""
        if apply(before, move) != after:
            yield "R35", "apply is not deterministic"
        mover = before.current_player
        allowed = {
            f"hand{mover}",
            f"board{mover}",
            f"tech_hand{mover}",
            *_MAY_CHANGE.get(type(move), ()),
        }
        changed = [name for name, b, a in zip(Zones._fields, zb, za, strict=True) if b is not a]
        changed = [name for name in changed if getattr(zb, name) != getattr(za, name)]
        if any(name not in allowed for name in changed):
            yield "R9", f"{type(move).__name__} changed zones it does not name: {changed}"
        chance = before.pending_chance
        ends_turn = isinstance(move, DrawFromDiscard | EndTurn) or (
            isinstance(move, Deal) and chance is Chance.DRAW
        )
        if ends_turn:
            if after.current_player != 1 - mover:
                yield "R23", "the turn ended but the other player is not to move"
            expected = 0 if before.played_cell is not None else before.stall_count + 1
            if after.stall_count != expected:
                yield "R23", f"stall counter {after.stall_count}, expected {expected}"
            if before.end_triggered_by is None and after.end_triggered_by not in (None, mover):
                yield "R24", "the end was triggered by the player who did not move"
        elif chance is not Chance.SETUP:
            if after.current_player != mover:
                yield "R9", "the player changed in the middle of a turn"
            if after.stall_count != before.stall_count:
                yield "R23", "the stall counter changed in the middle of a turn"
        if (
            before.end_triggered_by is not None
            and after.end_triggered_by != before.end_triggered_by
        ):
            yield "R24", "the end trigger changed once set"


def replay_problems(rules: Rules, moves: Sequence[Move]) -> list[Problem]:
    """Replay `moves` from `new_game(rules=rules)` and collect every property they break.

    This is what a counterexample's generated test runs: it is empty once the bug is fixed.

    Example:
        >>> from hatsuden_rules import Deal, Rules, Card, Energy
        >>> rules = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1)
        >>> replay_problems(rules, [Deal(Card(Energy.SOLAR, 1))])
        []
    """
    check = Properties(rules)
    state = new_game(rules=rules)
    seen = {state}
    z = check.zones(state)
    problems = list(check.state_violations(state, legal_moves(state), z))
    for move in moves:
        after = apply(state, move)
        za = check.zones(after)
        problems += check.transition_violations(state, move, after, z, za)
        problems += check.state_violations(after, legal_moves(after), za)
        if after in seen:
            problems.append(("R25", "a state repeats: the game need not end"))
        seen.add(after)
        state, z = after, za
    return problems
