"""The properties checked on every reachable state and every transition.

Written against the public API, from RULES.md, independently of the engine's logic; every
failure names its rule. A state is three interned zones (cards, grids, turn: see `Zones`) whose
facts are derived once; how, and what is sampled unless ``exhaustive``: docs/architecture.md.
The invariants of the rule variants (R40, R41) are here too, run when an option is on.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, Final, NamedTuple, Protocol, cast

from hatsuden_rules import (
    Card,
    Chance,
    Deal,
    DealTech,
    Decision,
    Discard,
    DrawFromDiscard,
    EndTurn,
    Flip,
    FlipSet,
    GameState,
    Move,
    Overflow,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    TechTiming,
    Tiebreak,
    apply,
    chance_outcomes,
    legal_moves,
    move_sort_key,
    new_game,
    score,
)
from hatsuden_rules.core.encoding import boards as raw_boards
from hatsuden_rules.core.encoding import card_zone, turn_logs, zone_keys
from hatsuden_rules.core.state import from_zones

__all__ = [
    "DETERMINISM_EVERY",
    "Problem",
    "Properties",
    "PropertyChecks",
    "Zones",
    "replay_problems",
]

Problem = tuple[str, str]  # (rule, message)

#: A state as three group ids: (cards, grids, turn). Equal iff the states are equal.
Zones = tuple[int, int, int]

#: Without ``exhaustive``, R35 determinism re-applies one transition in this many.
DETERMINISM_EVERY: Final = 16

_OVER, _CHANCE = Phase.GAME_OVER, Phase.CHANCE
# Read once: in Python 3.11 an enum member read as `Chance.DRAW` goes through a metaclass hook.
_DRAW_CHANCE, _SETUP_CHANCE = Chance.DRAW, Chance.SETUP
_NO_PROBLEMS: Final[tuple[Problem, ...]] = ()
_NOTHING: Final[tuple[tuple[int, ...], tuple[int, ...]]] = ((), ())  # nothing known
_AT_ONCE: Final = (Tech.ACCUMULATOR, Tech.SMART)  # R40: placed as soon as drawn
_MAX_MOVE_OBJECTS: Final = 1 << 16  # move objects remembered by identity (see _move_index)


class _Grids(NamedTuple):
    """What the oracle derives from the two grids alone (public stacks)."""

    cards: int  # plant cards on the stacks, as a count vector (R4)
    techs: int  # Secret Build and Down spent on stacks, as a count vector (R11, R13)
    supply: tuple[int, int, int, int]  # p0 row 0, p0 row 1, p1 row 0, p1 row 1 (R21)
    generation: tuple[tuple[int, ...], tuple[int, ...]]  # column sums per player (R27)
    full: tuple[bool, bool]  # every cell occupied (R24)


class _Board(NamedTuple):
    """What the oracle derives from one player's grid (public stacks)."""

    cards: int
    techs: int
    supply: tuple[int, int]
    generation: tuple[int, ...]
    full: bool


class _Table(NamedTuple):
    """What the oracle derives from the table group (phase, player, tech cards, counters)."""

    techs: int  # tech deck, tech hands, placed Accumulator and Smart (R3)
    tolerance: tuple[int, int, int, int] | None  # in ACTION and DRAW only (R19, R21)
    problems: tuple[Problem, ...]  # R25
    trigger: int | None
    over: bool
    chance: bool
    smart_column: int  # -1 without Smart


class _Score(NamedTuple):
    """The oracle's score (R27-R29) of a pair (grids, Smart)."""

    totals: tuple[int, int]
    winner: int
    decision: Decision


class PropertyChecks(Protocol):
    """What `check` runs on every state and transition (`Properties` is the standard one)."""

    def zones(
        self, state: GameState, parent: GameState | None = None, zp: Zones | None = None
    ) -> Zones:
        """The group ids of `state`; the checker also uses them as the state's identity."""
        ...

    def state_of(self, z: Zones) -> GameState:
        """The state whose zones are `z`."""
        ...

    def move_index(self, move: Move) -> int:
        """A small int naming `move` (by value) during this run."""
        ...

    def move_of(self, index: int) -> Move:
        """The move named `index` by `move_index`."""
        ...

    def decision(self, z: Zones) -> Decision:
        """What decides the winner of the state `z` if the game ends there (R29)."""
        ...

    def state_violations(
        self, state: GameState, moves: Sequence[Move], z: Zones
    ) -> Iterable[Problem]:
        """Every invariant `state` (with its legal `moves`) breaks."""
        ...

    def transition_violations(
        self, before: GameState, move: Move, after: GameState, zb: Zones, za: Zones
    ) -> Iterable[Problem]:
        """Every rule the step `before --move--> after` breaks."""
        ...


# Which zones each kind of move may change, besides the mover's hand, grid, tech hand and what
# the opponent knows of the mover's hand (R9-R22, R36); anything else must stay as it was.
_MAY_CHANGE: dict[type, frozenset[str]] = {
    Discard: frozenset({"discards"}),
    DrawFromDiscard: frozenset({"discards"}),
    PlaceAccumulator: frozenset({"accumulator"}),
    PlaceSmart: frozenset({"smart"}),
    Deal: frozenset({"deck"}),
    DealTech: frozenset({"tech_deck"}),
}


class Properties:
    """The invariants and transition properties of RULES.md, for states of one `Rules`.

    Args:
        rules: The rule set of every state checked.
        exhaustive: Re-apply every transition (R35) and call `score()` on every state (R29)
            instead of sampling them (see the module docstring).
        positions: Identify states by position (`_positions`): the zones leave out the turn
            logs and the known cards, `state_of` rebuilds a state without them, and what the
            known cards must satisfy (R36) is left to `_positions.knowledge_problems`.
    """

    def __init__(self, rules: Rules, *, exhaustive: bool = False, positions: bool = False) -> None:
        self.rules = rules
        self.exhaustive = exhaustive
        self.positions = positions
        cards = rules.cards
        # Count vectors: 8 bits per distinct card (copies <= 255 hold no carries) or tech card.
        self._card_weight = {card: 1 << 8 * k for k, card in enumerate(cards)}
        self._full_cards = sum(rules.copies << 8 * k for k in range(len(cards)))
        self._tech_weight = {tech: 1 << 8 * tech.index for tech in Tech}
        self._full_techs = sum(self._tech_weight[tech] for tech in rules.techs)
        self._columns = {energy: k for k, energy in enumerate(rules.energies_in_play)}
        # Group interning: the stored fields -> id, and the facts of each id.
        self._card_ids: dict[object, int] = {}
        self._card_vec: list[int] = []
        self._card_problems: list[tuple[Problem, ...]] = []
        self._grid_ids: dict[object, int] = {}
        self._grids: list[_Grids] = []
        self._boards: dict[object, _Board] = {}
        self._table_ids: dict[object, int] = {}
        self._tables: list[_Table] = []
        self._turn_ids: dict[object, int] = {}  # (table id, logs) -> turn group id
        self._turn_by_id: dict[object, int] = {}  # the same, keyed by the logs' object ids
        self._turns: list[_Table] = []  # the table facts of each turn group
        # The fields of each group, to rebuild a state from its zones (`state_of`).
        self._card_values: list[tuple[Any, ...]] = []
        self._grid_values: list[Any] = []
        self._turn_values: list[tuple[Any, ...]] = []
        # Moves: by identity (fast) and by value; index -> move and its sort key.
        self._move_ids: dict[int, int] = {}
        self._move_values: dict[Move, int] = {}
        self._moves: list[Move] = []
        self._move_objects: list[Move] = []  # keeps the objects in _move_ids alive
        self._sort_keys: list[tuple[int, ...]] = []
        self._sorted_ok: dict[tuple[int, ...], bool] = {}
        self._sorted_by_id: dict[tuple[int, ...], bool] = {}
        self._knowledge_ok: dict[object, Problem | None] = {}
        self._scores: dict[tuple[int, int], _Score] = {}
        self._scored: set[tuple[int, int]] = set()
        self._transitions = 0
        # R40, R41: the variants' own invariants, run only when an option is on.
        self._variants = (
            rules.tech_timing is not TechTiming.KEEP or rules.overflow is not Overflow.ONE_AT_A_TIME
        )
        # R40 by position (R36): whether a held card was just drawn is checked on the steps.
        self._fresh_by_step = positions and rules.tech_timing is TechTiming.PLACE_AT_ONCE

    # -- identity -------------------------------------------------------------------------------

    def zones(
        self, state: GameState, parent: GameState | None = None, zp: Zones | None = None
    ) -> Zones:
        """The group ids of `state`: (cards, grids, turn). Equal iff the states are equal.

        Every field of `GameState` is in exactly one group (the `Rules` are fixed for a run).
        With `parent` and its zones `zp`, a group whose fields are the very objects of the
        parent's keeps the parent's id without being looked up (identical, hence equal).
        """
        positions = self.positions
        cards, grids, key = zone_keys(state, None if zp is None else parent, positions)
        if cards is None:
            assert zp is not None
            c = zp[0]
        else:
            known = self._card_ids.get(cards)
            c = self._new_cards(cards, state) if known is None else known
        if grids is None:
            assert zp is not None
            g = zp[1]
        else:
            known = self._grid_ids.get(grids)
            g = self._new_grids(state) if known is None else known
        t = self._turn_by_id.get(key)
        if t is None:
            t = self._new_turn(key, state)
        return (c, g, t)

    def _known_objects(self, moves: Sequence[Move]) -> bool:
        """Whether every object of `moves` is remembered, so that its `id` names it.

        A remembered move is kept alive by the checker, so no other object can have its id: a
        tuple of such ids names a tuple of moves exactly. Keys made of ids are stored only then.
        """
        return all(map(self._move_ids.__contains__, map(id, moves)))  # no generator frames

    def _new_turn(self, key: tuple[object, ...], state: GameState) -> int:
        """The turn group of `state`: its table (by value) and its two logs (by move index)."""
        table = self._table_ids.get(key[:-2])
        if table is None:
            table = self._new_table(key[:-2], state)
        if self.positions:
            value: tuple[object, ...] = (table, ((), ()))
            this_turn: tuple[Move, ...] = ()
            last_turn: tuple[Move, ...] = ()
        else:
            this_turn, last_turn = turn_logs(state)
            value = (table, (self._move_key(this_turn), self._move_key(last_turn)))
        t = self._turn_ids.get(value)
        if t is None:
            t = self._turn_ids[value] = len(self._turns)
            self._turns.append(self._tables[table])
            self._turn_values.append((*key[:-2], this_turn, last_turn))
        if self.positions or self._known_objects((*this_turn, *last_turn)):
            self._turn_by_id[key] = t
        return t

    def state_of(self, z: Zones) -> GameState:
        """The state whose zones are `z` (equal to the one `zones` was given)."""
        return from_zones(
            self.rules, self._card_values[z[0]], self._grid_values[z[1]], self._turn_values[z[2]]
        )

    def move_index(self, move: Move) -> int:
        """A small int naming `move` by value (equal moves, one index)."""
        index = self._move_ids.get(id(move))
        if index is not None:
            return index
        index = self._move_values.get(move)
        if index is None:
            index = self._move_values[move] = len(self._moves)
            self._moves.append(move)
            self._sort_keys.append(move_sort_key(move))
        if len(self._move_objects) < _MAX_MOVE_OBJECTS:  # the prebuilt moves of the engine
            self._move_ids[id(move)] = index
            self._move_objects.append(move)
        return index

    def _move_key(self, moves: Sequence[Move]) -> tuple[int, ...]:
        """The indices of `moves`, by identity when the objects are known (the common case)."""
        ids = self._move_ids.get
        key = tuple([ids(id(m)) for m in moves])
        if None in key:
            return tuple(map(self.move_index, moves))
        return cast("tuple[int, ...]", key)  # no None in it

    def move_of(self, index: int) -> Move:
        """The move named `index`."""
        return self._moves[index]

    # -- the facts of each group, from the public API -------------------------------------------

    def _new_cards(self, key: object, state: GameState) -> int:
        rules = self.rules
        weight = self._card_weight
        hands = (state.hand(0), state.hand(1))
        vec = sum(weight[card] for zone in (*hands, state.deck, state.discards) for card in zone)
        problems: list[Problem] = []
        for player, hand in enumerate(hands):
            if len(hand) > rules.hand_size or state.hand_size(player) != len(hand):
                problems.append(
                    (
                        "R22",
                        f"player {player} holds {len(hand)} cards (hand_size {rules.hand_size})",
                    )
                )
            unknown = Counter(state.known_cards(player)) - Counter(hand)
            if unknown and not self.positions:  # by position: `knowledge_problems`
                problems.append(
                    ("R36", f"player {player}'s known cards {sorted(unknown)} are not in the hand")
                )
        c = self._card_ids[key] = len(self._card_vec)
        raw_hands, deck, discards, known = card_zone(state)
        self._card_values.append((raw_hands, deck, discards, _NOTHING if self.positions else known))
        self._card_vec.append(vec)
        self._card_problems.append(tuple(problems))
        return c

    def _new_grids(self, state: GameState) -> int:
        grids = raw_boards(state)
        boards = []
        for player, raw in enumerate(grids):
            board = self._boards.get(raw)
            if board is None:
                board = self._boards[raw] = self._board(state, player)
            boards.append(board)
        (cards0, techs0, supply0, generation0, full0) = boards[0]
        (cards1, techs1, supply1, generation1, full1) = boards[1]
        g = self._grid_ids[grids] = len(self._grids)
        self._grid_values.append(grids)
        self._grids.append(
            _Grids(
                cards0 + cards1,
                techs0 + techs1,
                (*supply0, *supply1),
                (generation0, generation1),
                (full0, full1),
            )
        )
        return g

    def _board(self, state: GameState, player: int) -> _Board:
        """The facts of one player's grid, from its public stacks."""
        rules = self.rules
        weight, tech_weight = self._card_weight, self._tech_weight
        cards = techs = 0
        board = state.board(player)
        value = {}
        for cell, stack in zip(rules.cells, board, strict=True):
            value[cell.row, cell.energy] = (
                0 if stack is None or stack.face_down else stack.cards[-1].value
            )
            if stack is not None:
                cards += sum(weight[card] for card in stack.cards)
                techs += tech_weight[Tech.SECRET_BUILD] * stack.secret
                techs += tech_weight[Tech.DOWN] * stack.downsized
        energies = rules.energies_in_play
        supply = (sum(value[0, e] for e in energies), sum(value[1, e] for e in energies))
        generation = tuple(value[0, e] + value[1, e] for e in energies)
        return _Board(cards, techs, supply, generation, all(s is not None for s in board))

    def _new_table(self, key: object, state: GameState) -> int:
        rules = self.rules
        tech_weight = self._tech_weight
        techs = sum(tech_weight[tech] for tech in state.tech_deck)
        techs += sum(tech_weight[tech] for p in (0, 1) for tech in state.tech_hand(p))
        techs += tech_weight[Tech.ACCUMULATOR] * (state.accumulator is not None)
        techs += tech_weight[Tech.SMART] * (state.smart is not None)
        tolerance = None
        if state.phase is Phase.ACTION or state.phase is Phase.DRAW:  # R19, R21
            base = rules.city_demand + 1
            t = [base + (state.accumulator == (p, row)) for p in (0, 1) for row in (0, 1)]
            tolerance = (t[0], t[1], t[2], t[3])
        problems: list[Problem] = []
        limit = rules.stall_limit
        if limit is not None and state.stall_count >= limit and not state.is_over:
            problems.append(
                ("R25", f"stall counter {state.stall_count} reached the limit, the game goes on")
            )
        smart = -1 if state.smart is None else self._columns[state.smart]
        t_id = self._table_ids[key] = len(self._tables)
        self._tables.append(
            _Table(
                techs,
                tolerance,
                tuple(problems),
                state.end_triggered_by,
                state.is_over,
                state.phase is _CHANCE,
                smart,
            )
        )
        return t_id

    def _score(self, g: int, smart: int) -> _Score:
        """R27-R29 from the grids' generations and supplies and the Smart card's column."""
        key = (g, smart)
        sheet = self._scores.get(key)
        if sheet is not None:
            return sheet
        rules = self.rules
        grids = self._grids[g]
        energy = [0, 0]
        for column, (g0, g1) in enumerate(zip(*grids.generation, strict=True)):
            if g0 != g1:
                energy[0 if g0 > g1 else 1] += 2 if column == smart else 1
        city = [0, 0]
        supply = [0, 0]
        for player in (0, 1):
            for total in grids.supply[2 * player : 2 * player + 2]:
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
        sheet = self._scores[key] = _Score(totals, winner, decision)
        return sheet

    def decision(self, z: Zones) -> Decision:
        """What decides the winner of the state `z` (R29), by the oracle."""
        return self._score(z[1], self._turns[z[2]].smart_column).decision

    # -- state invariants -----------------------------------------------------------------------

    def state_violations(
        self, state: GameState, moves: Sequence[Move], z: Zones
    ) -> tuple[Problem, ...] | list[Problem]:
        """Every invariant of RULES.md that `state` (with its legal `moves`) breaks."""
        c, g, t = z
        grids = self._grids[g]
        table = self._turns[t]
        problems: tuple[Problem, ...] | list[Problem] = _NO_PROBLEMS
        # R2-R4: every plant card is in exactly one place; a flipped stack keeps its cards.
        # R3: every tech card likewise, on a stack, placed, in a tech hand or in the tech deck.
        if (
            self._card_vec[c] + grids.cards != self._full_cards
            or table.techs + grids.techs != self._full_techs
            or self._card_problems[c]
            or table.problems
        ):
            problems = self._conservation(state, c, g, t)
        tolerance = table.tolerance  # R21, in ACTION and DRAW
        if tolerance is not None:
            supply = grids.supply
            if (
                supply[0] > tolerance[0]
                or supply[1] > tolerance[1]
                or supply[2] > tolerance[2]
                or supply[3] > tolerance[3]
            ):
                problems = [*problems, *self._tolerance(state, supply, tolerance)]
        if table.over == (not moves):  # R26: legal moves exist iff the game is not over
            pass
        elif table.over:
            problems = [
                *problems,
                ("R26", f"zombie: the game is over but {len(moves)} moves are legal"),
            ]
        else:
            problems = [*problems, ("R26", "deadlock: the game is not over but no move is legal")]
        ordered = self._sorted_by_id.get(tuple(map(id, moves)))
        if ordered is None:
            ordered = self._sorted(moves)
        if not ordered:  # R34: sorted and duplicate-free
            problems = [*problems, ("R34", "legal moves are not sorted and duplicate-free")]
        if table.chance:
            outcomes = chance_outcomes(state)
            total = sum((p for _, p in outcomes), Fraction(0))
            if total != 1 or tuple(m for m, _ in outcomes) != tuple(moves):
                problems = [
                    *problems,
                    ("R6", "chance outcomes do not sum to 1 or differ from the legal moves"),
                ]
        pair = (g, table.smart_column)
        oracle = self._score(g, table.smart_column)
        if self.exhaustive or pair not in self._scored:
            self._scored.add(pair)
            sheet = score(state)
            if (sheet.players[0].total, sheet.players[1].total) != oracle.totals or (
                sheet.winner,
                sheet.decided_by,
            ) != (oracle.winner, oracle.decision):
                message = f"score() gives {sheet}; the rules give {oracle.totals} {oracle.decision}"
                problems = [*problems, ("R29", message)]
        if self._variants:
            extra = _variant_problems(state, moves, by_position=self.positions)
            if extra:
                problems = [*problems, *extra]
        trigger = table.trigger
        if trigger is not None and not grids.full[trigger]:
            problems = [
                *problems,
                ("R24", f"player {trigger} triggered the end without a full grid"),
            ]
        return problems

    def _sorted(self, moves: Sequence[Move]) -> bool:
        """R34: `moves` sorted by `move_sort_key` and duplicate-free (memoised)."""
        key = self._move_key(moves)
        ordered = self._sorted_ok.get(key)
        if ordered is None:
            keys = [self._sort_keys[i] for i in key]
            ordered = self._sorted_ok[key] = keys == sorted(keys) and len(set(keys)) == len(keys)
        if self._known_objects(moves):
            self._sorted_by_id[tuple(map(id, moves))] = ordered
        return ordered

    def _conservation(self, state: GameState, c: int, g: int, t: int) -> list[Problem]:
        """The messages of R3, R4, R22, R25 and R36 (the rare path: something is broken)."""
        problems: list[Problem] = []
        if self._card_vec[c] + self._grids[g].cards != self._full_cards:
            cards: Counter[Card] = Counter()
            for zone in (state.hand(0), state.hand(1), state.deck, state.discards):
                cards.update(zone)
            for player in (0, 1):
                for stack in state.board(player):
                    if stack is not None:
                        cards.update(stack.cards)
            full = Counter(dict.fromkeys(self.rules.cards, self.rules.copies))
            problems.append(
                (
                    "R4",
                    f"plant cards are not conserved: {cards - full} extra, {full - cards} missing",
                )
            )
        if self._turns[t].techs + self._grids[g].techs != self._full_techs:
            problems.append(("R3", "tech cards are not conserved"))
        return [*problems, *self._card_problems[c], *self._turns[t].problems]

    @staticmethod
    def _tolerance(
        state: GameState, supply: tuple[int, ...], tolerance: tuple[int, ...]
    ) -> Iterator[Problem]:
        for k in range(4):
            if supply[k] > tolerance[k]:
                player, row = divmod(k, 2)
                yield (
                    "R21",
                    f"player {player} row {row} supplies {supply[k]}, over its tolerance "
                    f"{tolerance[k]}, in {state.phase}",
                )

    # -- transitions ----------------------------------------------------------------------------

    def transition_violations(
        self, before: GameState, move: Move, after: GameState, zb: Zones, za: Zones
    ) -> tuple[Problem, ...] | list[Problem]:
        """Every rule that the step `before --move--> after` breaks."""
        problems: tuple[Problem, ...] | list[Problem] = _NO_PROBLEMS
        self._transitions += 1
        sampled = self.exhaustive or self._transitions % DETERMINISM_EVERY == 1
        if sampled and apply(before, move) != after:
            problems = [("R35", "apply is not deterministic")]
        mover = before.current_player
        kind = type(move)
        # R9: only the zones the move names change (the fields as stored, see the docstring).
        # The engine passes unchanged fields on as the same objects: `is` settles most of them.
        # The one place above the core that reads a state's slots directly: through `encoding`
        # this hot check cost 5% of the whole check (docs/architecture.md).
        other = 1 - mover
        changed = []
        if zb[0] != za[0]:
            if before._hands[other] is not after._hands[other] and (
                before._hands[other] != after._hands[other]
            ):
                changed.append(f"hand{other}")
            if before._known[other] is not after._known[other] and (
                before._known[other] != after._known[other]
            ):
                changed.append(f"known{other}")
            if before._deck is not after._deck and before._deck != after._deck:
                changed.append("deck")
            if before._discards is not after._discards and before._discards != after._discards:
                changed.append("discards")
        if zb[1] != za[1] and before._boards[other] != after._boards[other]:
            changed.append(f"board{other}")
        if before._tech_hands[other] is not after._tech_hands[other] and (
            before._tech_hands[other] != after._tech_hands[other]
        ):
            changed.append(f"tech_hand{other}")
        if before._tech_deck is not after._tech_deck and before._tech_deck != after._tech_deck:
            changed.append("tech_deck")
        if before._accumulator != after._accumulator:
            changed.append("accumulator")
        if before._smart is not after._smart:
            changed.append("smart")
        if changed:
            may = _MAY_CHANGE.get(kind, frozenset())
            changed = [name for name in changed if name not in may]
            if changed:
                problems = [
                    *problems,
                    ("R9", f"{kind.__name__} changed zones it does not name: {changed}"),
                ]
        chance = before._chance
        ends_turn = (
            kind is DrawFromDiscard or kind is EndTurn or (kind is Deal and chance is _DRAW_CHANCE)
        )
        logged = before._this_turn + (move,)
        if ends_turn:
            if after.current_player != other:
                problems = [
                    *problems,
                    ("R23", "the turn ended but the other player is not to move"),
                ]
            expected = 0 if before._played is not None else before._stall + 1
            if after._stall != expected:
                problems = [
                    *problems,
                    ("R23", f"stall counter {after._stall}, expected {expected}"),
                ]
            if before._end_trigger is None and after._end_trigger not in (None, mover):
                problems = [
                    *problems,
                    ("R24", "the end was triggered by the player who did not move"),
                ]
            if after._this_turn != () or after._last_turn != logged:
                problems = [
                    *problems,
                    ("R36", "at the end of a turn its moves are not the last turn's log"),
                ]
        elif chance is _SETUP_CHANCE:
            if after._this_turn != () or after._last_turn != ():
                problems = [*problems, ("R36", "a setup deal was logged in a turn")]
        else:
            if after.current_player != mover:
                problems = [*problems, ("R9", "the player changed in the middle of a turn")]
            if after._stall != before._stall:
                problems = [
                    *problems,
                    ("R23", "the stall counter changed in the middle of a turn"),
                ]
            if after._this_turn != logged or after._last_turn != before._last_turn:
                problems = [
                    *problems,
                    ("R36", f"the turn's log did not grow by exactly {kind.__name__}"),
                ]
        if before._end_trigger is not None and after._end_trigger != before._end_trigger:
            problems = [*problems, ("R24", "the end trigger changed once set")]
        known_before, known_after = before._known[mover], after._known[mover]
        if known_before is not known_after or kind is DrawFromDiscard:
            key = (known_before, known_after, self.move_index(move))
            if key in self._knowledge_ok:
                problem = self._knowledge_ok[key]
            else:
                problem = self._knowledge_ok[key] = self._knowledge(before, move, after, mover)
            if problem is not None:
                problems = [*problems, problem]
        if self._fresh_by_step:
            fresh = _fresh_problems(move, after)
            if fresh:
                problems = [*problems, *fresh]
        return problems

    @staticmethod
    def _knowledge(before: GameState, move: Move, after: GameState, mover: int) -> Problem | None:
        """R36: only a card taken from the discards becomes known; plays only forget."""
        was = Counter(before.known_cards(mover))
        now = Counter(after.known_cards(mover))
        if isinstance(move, DrawFromDiscard):
            if now != was + Counter([move.card]):
                return ("R36", f"taking {move.card} from the discards did not make it known")
        elif now - was:
            return ("R36", f"{type(move).__name__} made {sorted(now - was)} known")
        return None


def replay_problems(rules: Rules, moves: Sequence[Move]) -> list[Problem]:
    """Replay `moves` from `new_game(rules=rules)` and collect every property they break.

    This is what a counterexample's generated test runs: it is empty once the bug is fixed.
    Every check runs on every step (``exhaustive=True``).

    Examples:
        >>> from hatsuden_rules import Deal, Rules, Card, Energy
        >>> rules = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1)
        >>> replay_problems(rules, [Deal(Card(Energy.SOLAR, 1))])
        []
    """
    check = Properties(rules, exhaustive=True)
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


# -- the rule variants (R40, R41), run only when an option is on ----------------------------------
#
# R40 (``tech_timing=PLACE_AT_ONCE``): a player holds an Accumulator or Smart card only as the
# mover, in OVERFLOW or DRAW, right after the DealTech that brought it; and then the legal moves
# are exactly its placements (each own city, each energy in play).
# R41 (``overflow=ANY_SET``): in OVERFLOW (nothing owed), the legal overflow moves are exactly the
# FlipSets of the sets of the row's other plants whose values sum to at least the excess of the
# row over its tolerance, and no Flip is legal.
#
# "Right after the DealTech" is read from the turn log (R36), which a position does not hold: by
# position the state check keeps what the position determines (the mover, in OVERFLOW or DRAW)
# and the log's part moves to the transitions (`_fresh_problems`): every step into a state where
# a card is held must be that card's DealTech. Every reachable position is entered by a checked
# step, so the two halves together are the by-state check, no weaker.


def _variant_problems(
    state: GameState, moves: Sequence[Move], *, by_position: bool = False
) -> list[tuple[str, str]]:
    """Every invariant of R40 and R41 that `state` (with its legal `moves`) breaks.

    `by_position`: `state` is a position (R36, no turn log): whether a held card was just drawn
    is left to `_fresh_problems` on the step that entered it.
    """
    problems: list[tuple[str, str]] = []
    rules = state.rules
    owed: list[Move] = []
    if rules.tech_timing is TechTiming.PLACE_AT_ONCE:
        mover = state.current_player
        for seat in (0, 1):
            for tech in _AT_ONCE:
                if tech not in state.tech_hand(seat):
                    continue
                log = state.this_turn
                if not (
                    seat == mover
                    and state.phase in (Phase.OVERFLOW, Phase.DRAW)
                    and (by_position or (log and log[-1] == DealTech(tech)))
                ):
                    problems.append(("R40", f"player {seat} holds {tech.name} after drawing it"))
                if tech is Tech.ACCUMULATOR:
                    owed += [PlaceAccumulator(0), PlaceAccumulator(1)]
                else:
                    owed += [PlaceSmart(energy) for energy in rules.energies_in_play]
        if owed and set(moves) != set(owed):
            problems.append(("R40", f"the legal moves are {list(moves)}, not the owed placements"))
    if rules.overflow is Overflow.ANY_SET and state.phase is Phase.OVERFLOW and not owed:
        if any(isinstance(move, Flip) for move in moves):
            problems.append(("R41", "a Flip is legal with overflow=ANY_SET"))
        expected = _sufficient_sets(state)
        actual = {move for move in moves if isinstance(move, FlipSet)}
        if actual != expected:
            problems.append(
                ("R41", f"FlipSets {sorted(map(repr, actual))}, the rules give {len(expected)}")
            )
    return problems


def _fresh_problems(move: Move, after: GameState) -> list[tuple[str, str]]:
    """R40 by position (R36): a card is held after a step only if the step was its DealTech.

    The by-state check reads this from the turn log (its last move is the card's DealTech); a
    position has no log, so it is checked on every step into the position instead.
    """
    return [
        ("R40", f"player {seat} holds {tech.name} after {type(move).__name__}, not its DealTech")
        for seat in (0, 1)
        for tech in _AT_ONCE
        if tech in after.tech_hand(seat) and move != DealTech(tech)
    ]


def _sufficient_sets(state: GameState) -> set[Move]:
    played = state.played_cell
    assert played is not None  # OVERFLOW follows a card played this turn (R21)
    player, row = state.current_player, played.row
    plants = []
    for cell in state.rules.cells:
        stack = state.stack(player, cell)
        if cell.row == row and cell != played and stack is not None and not stack.face_down:
            plants.append((cell, stack.value))
    excess = state.row_supply(player, row) - state.tolerance(player, row)
    return {
        FlipSet(tuple(cell for cell, _ in combo))
        for size in range(1, len(plants) + 1)
        for combo in itertools.combinations(plants, size)
        if sum(value for _, value in combo) >= excess
    }
