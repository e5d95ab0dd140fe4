"""An independent reading of RULES.md, used as the oracle of the property tests.

Nothing here calls the library's own rule logic: legal moves, scores, supplies, tolerances, card
multisets, chance probabilities, the canonical move order, the SplitMix64 sampler and the effect
of each move are recomputed from the rule text, using only the public read accessors of
`GameState`. The library is then compared with this reading on every visited state.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import pytest

from hatsuden_rules import (
    BuildPylon,
    Card,
    Cell,
    Chance,
    Construct,
    Deal,
    DealTech,
    Decision,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndReason,
    EndTurn,
    Energy,
    Flip,
    FlipSet,
    GameState,
    HatsudenError,
    IllegalMoveError,
    Improve,
    Move,
    Overflow,
    Pass,
    Phase,
    PhaseError,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Stack,
    Tech,
    TechTiming,
    Tiebreak,
    apply,
    chance_outcomes,
    is_legal,
    legal_moves,
    move_sort_key,
    render,
    score,
)

ROWS = (0, 1)
PLAYERS = (0, 1)

#: R34: the kinds in canonical order.
KIND_ORDER: tuple[type[Any], ...] = (
    Construct,
    Improve,
    Downsize,
    BuildPylon,
    Discard,
    Pass,
    DrawTech,
    DeclineTech,
    Flip,
    FlipSet,
    DrawFromDeck,
    DrawFromDiscard,
    EndTurn,
    PlaceAccumulator,
    PlaceSmart,
    Deal,
    DealTech,
)
KIND_INDEX = {kind: i for i, kind in enumerate(KIND_ORDER)}
CHANCE_KINDS = (Deal, DealTech)
#: R10-R14, R23: the moves that put a card into a cell (and reset the stall counter).
CARD_INTO_CELL = (Construct, Improve, Downsize, BuildPylon)

# -- components (R1-R4, R31) ----------------------------------------------------------------------


def energies_in_play(rules: Rules) -> tuple[Energy, ...]:
    """R1: the first `energies` energies in column order."""
    order = (Energy.SOLAR, Energy.GEOTHERMAL, Energy.WIND, Energy.HYDRO, Energy.BIOMASS)
    return order[: rules.energies]


_COLUMNS = {
    e: i
    for i, e in enumerate(
        (Energy.SOLAR, Energy.GEOTHERMAL, Energy.WIND, Energy.HYDRO, Energy.BIOMASS)
    )
}
_TECHS = {t: i for i, t in enumerate((Tech.ACCUMULATOR, Tech.SECRET_BUILD, Tech.SMART, Tech.DOWN))}


def column(energy: Energy) -> int:
    """R1: the column index of an energy."""
    return _COLUMNS[energy]


def tech_index(tech: Tech) -> int:
    """R3: the canonical tech order."""
    return _TECHS[tech]


def card_key(card: Card) -> tuple[int, int]:
    """R2: canonical card order, by energy column, then value."""
    return (column(card.energy), card.value)


def cell_key(cell: Cell) -> tuple[int, int]:
    """R34: cells by row, then energy column."""
    return (cell.row, column(cell.energy))


@lru_cache(maxsize=256)
def distinct_cards(rules: Rules) -> tuple[Card, ...]:
    """R2: the distinct plant cards in play, canonical order."""
    return tuple(
        Card(energy, value)
        for energy in energies_in_play(rules)
        for value in range(1, rules.max_value + 1)
    )


@lru_cache(maxsize=256)
def cells_of(rules: Rules) -> tuple[Cell, ...]:
    """R4: the cells of one grid, row 0 first."""
    return tuple(Cell(row, energy) for row in ROWS for energy in energies_in_play(rules))


@lru_cache(maxsize=512)
def row_cells(rules: Rules, row: int) -> tuple[Cell, ...]:
    """R4: the cells of one row (city), in column order."""
    return tuple(Cell(row, energy) for energy in energies_in_play(rules))


def full_deck(rules: Rules) -> Counter[Card]:
    """R2: every plant card of the game, `copies` of each."""
    return Counter(dict.fromkeys(distinct_cards(rules), rules.copies))


def stack_value(stack: Stack | None) -> int:
    """R4, R21, R27: a plant is worth its top card; pylons and empty cells 0."""
    if stack is None or stack.face_down:
        return 0
    return stack.cards[-1].value


@lru_cache(maxsize=128)
def grid(state: GameState, player: int) -> dict[Cell, Stack | None]:
    """`player`'s grid, cell by cell (read once per state through `GameState.board`)."""
    return dict(zip(cells_of(state.rules), state.board(player), strict=True))


def supply(state: GameState, player: int, row: int) -> int:
    """R21: the sum of the values of the plants of a row."""
    cells = grid(state, player)
    return sum(stack_value(cells[cell]) for cell in row_cells(state.rules, row))


def tolerance(state: GameState, player: int, row: int) -> int:
    """R19, R21: city_demand + 1, or + 2 while the Accumulator lies on that city."""
    bonus = 2 if state.accumulator == (player, row) else 1
    return state.rules.city_demand + bonus


def board_cards(state: GameState) -> int:
    """How many plant cards lie on both boards (cards never leave a cell, R4)."""
    return sum(
        len(stack.cards)
        for player in PLAYERS
        for stack in grid(state, player).values()
        if stack is not None
    )


def grid_full(state: GameState, player: int) -> bool:
    """R24: every cell occupied (pylons count)."""
    return all(stack is not None for stack in grid(state, player).values())


# -- the move universe (R34, R35) -----------------------------------------------------------------


@lru_cache(maxsize=256)
def move_universe(rules: Rules) -> tuple[Move, ...]:
    """Every well-formed move naming only cards, cells and energies in play under `rules`."""
    cards = distinct_cards(rules)
    cells = cells_of(rules)
    moves: list[Move] = []
    moves += [Construct(k, c, secret) for k in cards for c in cells for secret in (False, True)]
    moves += [kind(k, c) for kind in (Improve, Downsize, BuildPylon) for k in cards for c in cells]
    moves += [kind(k) for kind in (Discard, DrawFromDiscard, Deal) for k in cards]
    moves += [Pass(), DrawTech(), DeclineTech(), DrawFromDeck(), EndTurn()]
    moves += [Flip(c) for c in cells]
    moves += [FlipSet(cells) for cells in flip_sets(rules)]
    moves += [PlaceAccumulator(row) for row in ROWS]
    moves += [PlaceSmart(e) for e in energies_in_play(rules)]
    moves += [DealTech(t) for t in Tech]  # techs not in play are well formed too
    return tuple(moves)


@lru_cache(maxsize=256)
def out_of_play_moves(rules: Rules) -> tuple[Move, ...]:
    """Well-typed moves naming a card, cell or energy that is not in play (R1, R2, R35)."""
    in_play = energies_in_play(rules)
    missing = [e for e in Energy if e not in in_play]
    high = [Card(e, rules.max_value + 1) for e in in_play]
    foreign_cards = [Card(e, 1) for e in missing] + high
    foreign_cells = [Cell(row, e) for e in missing for row in ROWS]
    some_card = Card(in_play[0], 1)
    moves: list[Move] = []
    for card in foreign_cards:
        cell = Cell(0, card.energy)
        moves += [Construct(card, cell), Improve(card, cell), Downsize(card, cell)]
        moves += [BuildPylon(card, Cell(0, in_play[0])), Discard(card), DrawFromDiscard(card)]
        moves += [Deal(card)]
    for cell in foreign_cells:
        moves += [Flip(cell), BuildPylon(some_card, cell), Construct(some_card, cell)]
        moves += [FlipSet((Cell(0, in_play[0]), cell))]
    moves += [PlaceSmart(e) for e in missing]
    return tuple(moves)


def canonical_key(move: Move) -> tuple[int, ...]:
    """R34, re-derived: kind, then card, then cell, then secret (False first)."""
    key: tuple[int, ...] = (KIND_INDEX[type(move)],)
    if isinstance(move, Construct):
        return key + card_key(move.card) + cell_key(move.cell) + (int(move.secret),)
    if isinstance(move, Improve | Downsize | BuildPylon):
        return key + card_key(move.card) + cell_key(move.cell)
    if isinstance(move, Discard | DrawFromDiscard | Deal):
        return key + card_key(move.card)
    if isinstance(move, Flip):
        return key + cell_key(move.cell)
    if isinstance(move, FlipSet):  # R34: by its cells in cell order
        return key + tuple(n for cell in move.cells for n in cell_key(cell))
    if isinstance(move, PlaceAccumulator):
        return (*key, move.row)
    if isinstance(move, PlaceSmart):
        return (*key, column(move.energy))
    if isinstance(move, DealTech):
        return (*key, tech_index(move.tech))
    return key


@lru_cache(maxsize=256)
def flip_sets(rules: Rules) -> tuple[tuple[Cell, ...], ...]:
    """R41: every non-empty set of cells of one row, cells in cell order."""
    out: list[tuple[Cell, ...]] = []
    for row in ROWS:
        cells = row_cells(rules, row)
        for size in range(1, len(cells) + 1):
            out += itertools.combinations(cells, size)
    return tuple(out)


# -- legal moves and chance, re-derived (R6, R10-R22, R40, R41) -----------------------------------


def takeable(state: GameState) -> Counter[Card]:
    """R22: the discards, minus one copy of this turn's discard when retaking is off."""
    cards = Counter(state.discards)
    if not state.rules.allow_retake_discard and state.turn_discard is not None:
        cards[state.turn_discard] -= 1
    return +cards


def expected_chance(state: GameState) -> list[tuple[Move, Fraction]]:
    """R6: one outcome per distinct card (count/size) or per tech (1/size), canonical order."""
    if state.pending_chance is Chance.TECH:
        techs = sorted(state.tech_deck, key=tech_index)
        return [(DealTech(t), Fraction(1, len(techs))) for t in techs]
    deck = Counter(state.deck)
    size = sum(deck.values())
    return [(Deal(k), Fraction(deck[k], size)) for k in sorted(deck, key=card_key)]


def reference_legal_moves(state: GameState) -> set[Move]:
    """The legal moves of `state`, computed from RULES.md R6, R10-R22, R40 and R41 alone."""
    rules = state.rules
    phase = state.phase
    if phase is Phase.GAME_OVER:
        return set()
    if phase is Phase.CHANCE:
        return {move for move, _ in expected_chance(state)}
    player = state.current_player
    techs = state.tech_hand(player)
    cells = cells_of(rules)
    moves: set[Move] = set()
    if Tech.ACCUMULATOR in techs and phase is not Phase.TECH:  # R18
        moves |= {PlaceAccumulator(row) for row in ROWS}
    if Tech.SMART in techs and phase is not Phase.TECH:
        moves |= {PlaceSmart(e) for e in energies_in_play(rules)}
    at_once = rules.tech_timing is TechTiming.PLACE_AT_ONCE
    if at_once and moves and phase is not Phase.TECH:  # R40: the drawn card goes first
        return moves
    if phase is Phase.ACTION:
        hand = set(state.hand(player))
        for card in hand:
            moves.add(Discard(card))  # R15
            for cell in cells:
                stack = grid(state, player)[cell]
                same_column = cell.energy is card.energy
                if stack is None:
                    moves.add(BuildPylon(card, cell))  # R14: any column
                    if same_column:  # R10, R11
                        moves.add(Construct(card, cell))
                        if Tech.SECRET_BUILD in techs:
                            moves.add(Construct(card, cell, secret=True))
                elif same_column and not stack.face_down:
                    if card.value > stack.cards[-1].value:  # R12
                        moves.add(Improve(card, cell))
                    if Tech.DOWN in techs and card.value < stack.cards[-1].value:  # R13
                        moves.add(Downsize(card, cell))
        if not hand:
            moves.add(Pass())  # R16
    elif phase is Phase.TECH:  # R17
        played = state.played_cell
        assert played is not None, "R17: TECH follows a card played this turn"
        stack = grid(state, player)[played]
        assert stack is not None
        moves = {DeclineTech()}
        if stack.cards[-1].value == rules.max_value:
            moves.add(DrawTech())
    elif phase is Phase.OVERFLOW:  # R21
        played = state.played_cell
        assert played is not None, "R21: OVERFLOW follows a card played this turn"
        plants = []
        for cell in cells:
            stack = grid(state, player)[cell]
            if cell.row == played.row and cell != played and stack and not stack.face_down:
                plants.append((cell, stack_value(stack)))
        if rules.overflow is Overflow.ANY_SET:  # R41: every set that suffices, at once
            excess = supply(state, player, played.row) - tolerance(state, player, played.row)
            for size in range(1, len(plants) + 1):
                for combo in itertools.combinations(plants, size):
                    if sum(value for _, value in combo) >= excess:
                        moves.add(FlipSet(tuple(cell for cell, _ in combo)))
        else:
            moves |= {Flip(cell) for cell, _ in plants}
    elif phase is Phase.DRAW:  # R22
        if state.deck_size:
            moves.add(DrawFromDeck())
        moves |= {DrawFromDiscard(card) for card in takeable(state)}
        if not state.deck_size and not takeable(state):
            moves.add(EndTurn())
    return moves


# -- scoring, re-derived (R27-R29) ----------------------------------------------------------------


def reference_score_check(state: GameState) -> None:
    """Recompute the score sheet from R27-R29 and compare it with `score(state)`."""
    rules = state.rules
    energies = energies_in_play(rules)
    generation = [
        tuple(
            stack_value(grid(state, p)[top]) + stack_value(grid(state, p)[bottom])
            for top, bottom in zip(row_cells(rules, 0), row_cells(rules, 1), strict=True)
        )
        for p in PLAYERS
    ]
    supplies = [(supply(state, p, 0), supply(state, p, 1)) for p in PLAYERS]
    energy_points = [0, 0]
    energy_winners: list[int | None] = []
    for i, energy in enumerate(energies):  # R27, R20
        g0, g1 = generation[0][i], generation[1][i]
        winner = None if g0 == g1 else (0 if g0 > g1 else 1)
        energy_winners.append(winner)
        if winner is not None:
            energy_points[winner] += 2 if state.smart == energy else 1

    def city(points: int) -> int:  # R28
        if points == rules.city_demand:
            return 1
        return -1 if points <= rules.city_demand - 2 else 0

    city_points = [city(supplies[p][0]) + city(supplies[p][1]) for p in PLAYERS]
    totals = [energy_points[p] + city_points[p] for p in PLAYERS]
    if totals[0] != totals[1]:  # R29
        winner, decided = (0 if totals[0] > totals[1] else 1), Decision.TOTAL
    else:
        if rules.tiebreak is Tiebreak.SUPPLY:
            a, b, decided = sum(supplies[0]), sum(supplies[1]), Decision.SUPPLY
        else:
            a, b, decided = city_points[0], city_points[1], Decision.CITY_POINTS
        if a != b:
            winner = 0 if a > b else 1
        else:
            winner, decided = 1, Decision.SECOND_PLAYER

    sheet = score(state)
    for p in PLAYERS:
        got = sheet.players[p]
        assert got.generation == generation[p], ("R27 generation", p, got, generation[p])
        assert got.row_supply == supplies[p], ("R21/R28 row supply", p, got, supplies[p])
        assert got.energy_points == energy_points[p], ("R27 energy points", p, got)
        assert got.city_points == city_points[p], ("R28 city points", p, got)
        assert got.total == totals[p], ("R29 total", p, got)
    assert sheet.energy_winners == tuple(energy_winners), "R27 energy winners"
    assert sheet.smart == state.smart, "R20 smart"
    assert (sheet.winner, sheet.decided_by) == (winner, decided), (
        "R29 winner",
        sheet.winner,
        sheet.decided_by,
        winner,
        decided,
    )


# -- the portable generator, re-derived (R32, R33) ------------------------------------------------

MASK = (1 << 64) - 1


def splitmix64(s: int) -> tuple[int, int]:
    """R32: one step; returns (new state, output)."""
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def sampler_outcome(state: GameState, rng: int) -> tuple[Move, int]:
    """R33: the chance outcome the sampler picks in a CHANCE state, and the next generator."""
    if state.pending_chance is Chance.TECH:
        weighted: list[tuple[Move, int]] = [
            (DealTech(t), 1) for t in sorted(state.tech_deck, key=tech_index)
        ]
    else:
        deck = Counter(state.deck)
        weighted = [(Deal(k), deck[k]) for k in sorted(deck, key=card_key)]
    rng, value = splitmix64(rng)
    r = value % sum(w for _, w in weighted)
    total = 0
    for move, weight in weighted:
        total += weight
        if total > r:
            return move, rng
    raise AssertionError("R33: r is below the total weight")  # pragma: no cover


def resolve_with_sampler(state: GameState, rng: int) -> tuple[GameState, int]:
    """R8, R33: resolve the pending chance events of an explicit-mode state with the sampler."""
    while state.phase is Phase.CHANCE:
        outcome, rng = sampler_outcome(state, rng)
        state = apply(state, outcome)
    return state, rng


# -- public views ---------------------------------------------------------------------------------


def public_view(state: GameState) -> tuple[object, ...]:
    """Everything the public accessors report (god view), apart from the generator."""
    return (
        state.rules,
        state.phase,
        state.current_player,
        tuple(state.hand(p) for p in PLAYERS),
        tuple(state.hand_size(p) for p in PLAYERS),
        tuple(state.tech_hand(p) for p in PLAYERS),
        tuple(state.board(p) for p in PLAYERS),
        state.deck,
        state.deck_size,
        state.discards,
        state.tech_deck,
        state.accumulator,
        state.smart,
        state.is_over,
        state.end_reason,
        state.end_triggered_by,
        state.stall_count,
        state.played_cell,
        state.turn_discard,
        state.pending_chance,
    )


@lru_cache(maxsize=16)
def zones(state: GameState) -> dict[str, object]:
    """The card zones of a state, by name, for frame checks."""
    out: dict[str, object] = {
        "deck": Counter(state.deck),
        "discards": Counter(state.discards),
        "tech_deck": frozenset(state.tech_deck),
        "accumulator": state.accumulator,
        "smart": state.smart,
    }
    for p in PLAYERS:
        out[f"hand{p}"] = Counter(state.hand(p))
        out[f"tech_hand{p}"] = state.tech_hand(p)
        out[f"board{p}"] = state.board(p)
    return out


# -- per-state invariants -------------------------------------------------------------------------


def check_conservation(state: GameState) -> None:
    """R2, R3, R4, C3, C4: every plant card and every tech card is in exactly one place."""
    rules = state.rules
    cards: Counter[Card] = Counter(state.deck) + Counter(state.discards)
    techs: Counter[Tech] = Counter(state.tech_deck)
    for p in PLAYERS:
        cards += Counter(state.hand(p))
        techs += Counter(state.tech_hand(p))
        for stack in grid(state, p).values():
            if stack is None:
                continue
            assert stack.cards, "R4: a stack holds at least one card"
            cards += Counter(stack.cards)
            techs += Counter([Tech.SECRET_BUILD] if stack.secret else [])
            techs += Counter([Tech.DOWN] if stack.downsized else [])
    if state.accumulator is not None:
        techs[Tech.ACCUMULATOR] += 1
    if state.smart is not None:
        techs[Tech.SMART] += 1
    assert cards == full_deck(rules), ("R2 card conservation", cards - full_deck(rules))
    assert techs == Counter(rules.techs), ("R3 tech conservation", techs)


def check_stack(cell: Cell, stack: Stack) -> None:
    """R4, R11-R14, R21, C4: what a stack can look like, and its derived properties."""
    assert stack.cards, "R4 a stack holds at least one card"
    assert stack.top == stack.cards[-1]
    assert stack.is_plant == (not stack.face_down)
    assert stack.value == stack_value(stack), "R4, R27 plant value = top card, pylon 0"
    secret_plant = stack.secret and not stack.face_down and len(stack.cards) == 1
    assert stack.is_secret_plant == secret_plant, "R4 secret plant"
    if stack.face_down and not stack.flipped:  # R14: a pylon built from hand, any card
        assert len(stack.cards) == 1, "R14 a built pylon is one card"
        assert not stack.secret, "R14"
        assert not stack.downsized, "R14"
    else:  # R10-R13, R21: plants (and flipped plants) hold cards of their column only
        assert all(card.energy is cell.energy for card in stack.cards), ("R10 column", cell)
        assert not stack.flipped or stack.face_down, "R21 a flipped stack is a pylon"
        if stack.downsized:
            assert len(stack.cards) >= 2, "R13 Down goes on an existing plant"


def check_board_and_hands(state: GameState) -> None:
    """R2, R4, R15, R22, R24: grids, canonical multisets, hand sizes within `hand_size`."""
    rules = state.rules
    assert state.current_player in PLAYERS
    assert rules.cells == cells_of(rules), "R4 cells, row 0 first, in column order"
    assert len(state.board(0)) == len(state.board(1)) == 2 * rules.energies, "R4 grid size"
    for p in PLAYERS:
        hand = state.hand(p)
        assert list(hand) == sorted(hand, key=card_key), "R2 canonical hand order"
        assert state.hand_size(p) == len(hand) <= rules.hand_size, ("R22 hand size", p, hand)
        cells = grid(state, p)
        assert state.occupied(p) == sum(s is not None for s in cells.values()), "R24 occupied"
        for cell, stack in cells.items():
            assert state.stack(p, cell) == stack, "R4 stack"
            if stack is not None:
                check_stack(cell, stack)
    assert list(state.deck) == sorted(state.deck, key=card_key), "R6 deck order"
    assert state.deck_size == len(state.deck)
    assert list(state.discards) == sorted(state.discards, key=card_key), "R15 discard order"
    if state.accumulator is not None:
        assert state.accumulator in {(p, row) for p in PLAYERS for row in ROWS}, "R19"
    if state.smart is not None:
        assert state.smart in energies_in_play(rules), "R20 smart on an energy in play"


def check_supply_within_tolerance(state: GameState) -> None:
    """R9, R19, R21: supplies and tolerances. Every row is within its tolerance in ACTION and
    DRAW, and everywhere else except TECH, its DealTech and OVERFLOW, where only the row of
    this turn's played cell may exceed it."""
    phase = state.phase
    played = state.played_cell
    may_exceed = phase in (Phase.TECH, Phase.OVERFLOW) or state.pending_chance is Chance.TECH
    for p in PLAYERS:
        for row in ROWS:
            assert state.row_supply(p, row) == supply(state, p, row), ("R21 supply", p, row)
            assert state.tolerance(p, row) == tolerance(state, p, row), ("R19 tolerance", p, row)
            exempt = may_exceed and p == state.current_player and played and played.row == row
            if not exempt:
                assert supply(state, p, row) <= tolerance(state, p, row), ("R9 overflow", p, row)
    if phase in (Phase.TECH, Phase.OVERFLOW):
        assert state.played_cell is not None, "R17, R21 a card was played this turn"
    if phase is Phase.OVERFLOW:
        played = state.played_cell
        assert played is not None
        player = state.current_player
        assert supply(state, player, played.row) > tolerance(state, player, played.row), "R21"


def check_end_state(state: GameState) -> None:
    """R23-R26: over iff GAME_OVER; end reason, end trigger and stall counter consistent."""
    assert state.is_over == (state.phase is Phase.GAME_OVER)
    assert (state.end_reason is not None) == state.is_over, "R26 end reason iff over"
    if state.end_triggered_by is not None:
        assert grid_full(state, state.end_triggered_by), "R24 trigger needs a full grid"
    if state.end_reason is EndReason.FINAL_TURN:
        assert state.end_triggered_by is not None, "R24 final turn after a trigger"
    limit = state.rules.stall_limit
    if limit is not None:
        assert state.stall_count <= limit, "R25 stall counter never passes the limit"
        if not state.is_over:
            assert state.stall_count < limit, "R25 the game ends at the stall limit"
        if state.end_reason is EndReason.STALL:
            assert state.stall_count == limit
    else:
        assert state.end_reason is not EndReason.STALL, "R25 no stall end without a limit"


def check_chance(state: GameState) -> None:
    """R6, R8: chance outcomes in CHANCE only, exact probabilities summing to exactly 1."""
    phase = state.phase
    assert (phase is Phase.CHANCE) == (state.pending_chance is not None)
    if state.is_seeded:
        assert phase is not Phase.CHANCE, "R8 a seeded state is never in CHANCE"
    if phase is Phase.CHANCE:
        outcomes = chance_outcomes(state)
        assert all(type(p) is Fraction for _, p in outcomes), "R6 exact fractions"
        assert sum(p for _, p in outcomes) == 1, "R6 probabilities sum to exactly 1"
        assert list(outcomes) == expected_chance(state), "R6 outcomes and probabilities"
        assert [m for m, _ in outcomes] == list(legal_moves(state)), "R6 legal == outcomes"
    else:
        with pytest.raises(PhaseError) as error:
            chance_outcomes(state)
        assert isinstance(error.value, HatsudenError)
        assert isinstance(error.value, ValueError)


def check_legal_moves(state: GameState) -> tuple[Move, ...]:
    """R26, R34, R6-R22: legal moves sorted, duplicate-free, empty iff over, and exactly
    the moves RULES.md allows (`reference_legal_moves`). Returns them."""
    moves = legal_moves(state)
    assert type(moves) is tuple
    assert (not moves) == state.is_over, "R26 legal moves empty iff over"
    keys = [move_sort_key(m) for m in moves]
    assert keys == sorted(keys), "R34 sorted by move_sort_key"
    own = [canonical_key(m) for m in moves]
    assert all(a < b for a, b in itertools.pairwise(own)), "R34 canonical, no duplicates"
    assert len(set(moves)) == len(moves), "R34 duplicate-free"
    expected = reference_legal_moves(state)
    assert set(moves) == expected, (
        "legal moves differ from RULES.md",
        sorted(set(moves) - expected, key=canonical_key),
        sorted(expected - set(moves), key=canonical_key),
    )
    return moves


def check_every_legal_move_applies(state: GameState, moves: Sequence[Move]) -> None:
    """R35: every legal move applies and gives a state of the same rules."""
    for move in moves:
        try:
            after = apply(state, move)
        except Exception as error:  # pragma: no cover - a failure report
            raise AssertionError(f"legal move {move!r} does not apply: {error!r}") from error
        assert type(after) is GameState
        assert after.rules == state.rules
    if moves:  # is_legal agrees with legal_moves (a sample: is_legal lists the moves itself)
        assert is_legal(state, moves[0])
        assert is_legal(state, moves[-1])


def check_state(state: GameState) -> tuple[Move, ...]:
    """Check every per-state invariant of RULES.md; return `legal_moves(state)`."""
    check_board_and_hands(state)
    check_conservation(state)
    check_supply_within_tolerance(state)
    check_end_state(state)
    check_chance(state)
    moves = check_legal_moves(state)
    check_every_legal_move_applies(state, moves)
    reference_score_check(state)
    assert isinstance(render(state), str), "render works on every state"
    return moves


# -- moves: applying, rejecting, transitions ------------------------------------------------------


def check_apply(state: GameState, move: Move, twin: GameState) -> tuple[GameState, GameState]:
    """R35: `apply` is deterministic and leaves its input unchanged; returns two equal results.

    `twin` is a state equal to `state` but built separately.
    """
    view, digest = public_view(state), hash(state)
    first = apply(state, move)
    second = apply(state, move)
    assert type(first) is GameState
    assert type(second) is GameState
    assert first == second, ("R35 deterministic", move)
    assert hash(first) == hash(second), ("R35 deterministic", move)
    assert state == twin, ("R35 input unchanged", move)
    assert hash(state) == digest == hash(twin), ("R35 input unchanged", move)
    assert public_view(state) == view, ("R35 input unchanged", move)
    return first, second


RULE_PREFIX = re.compile(r"^R([1-9]|[12][0-9]|3[0-5]|4[01]): \S")


def check_rejected(state: GameState, move: Move, twin: GameState) -> None:
    """R35: a well-formed move that is not legal raises IllegalMoveError and changes nothing.

    `twin` is a state equal to `state` but built separately.
    """
    digest = hash(state)
    assert not is_legal(state, move)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, move)
    exc = error.value
    assert isinstance(exc, HatsudenError)
    assert isinstance(exc, ValueError)
    assert RULE_PREFIX.match(str(exc)), ("R35 message starts with the rule", str(exc))
    if state.is_over:
        assert str(exc).startswith("R26: "), ("R26 no move after the game is over", str(exc))
    assert exc.state == state, "R35 the error carries the state"
    assert exc.move == move, "R35 the error carries the move"
    assert state == twin, ("R35 unchanged", move)
    assert hash(state) == digest == hash(twin), ("R35 unchanged", move)


def check_malformed(state: GameState, move: Move, twin: GameState) -> None:
    """R35: a card, cell or energy not in play raises a HatsudenError that is a ValueError."""
    digest = hash(state)
    with pytest.raises(HatsudenError) as error:
        apply(state, move)
    assert isinstance(error.value, ValueError), ("R35 a ValueError", move)
    assert state == twin, ("R35 unchanged", move)
    assert hash(state) == digest, ("R35 unchanged", move)


def _changed(before: dict[str, object], after: dict[str, object]) -> set[str]:
    return {name for name, value in before.items() if after[name] != value}


def _within(changed: Iterable[str], allowed: Iterable[str], move: Move) -> None:
    extra = set(changed) - set(allowed)
    assert not extra, ("a move changed zones it does not name", move, sorted(extra))


class Referee:
    """Follows a game move by move and checks each transition against R6-R26.

    It remembers what it needs across moves: the number of board cards and the stall counter at
    the start of the current turn (R23).
    """

    def __init__(self, state: GameState) -> None:
        assert state.phase is (Phase.ACTION if state.is_seeded else Phase.CHANCE), "R7, R8"
        assert (state.current_player, state.stall_count) == (0, 0), "R7"
        assert (state.end_triggered_by, state.is_over) == (None, False), "R7"
        if not state.is_seeded:  # R7: nothing dealt yet
            assert Counter(state.deck) == full_deck(state.rules), "R7 full deck"
            assert state.pending_chance is Chance.SETUP
        else:  # R7, R8: both hands dealt
            assert all(state.hand_size(p) == state.rules.hand_size for p in PLAYERS), "R7"
        assert set(state.tech_deck) == set(state.rules.techs), "R7 full tech deck"
        assert all(s is None for p in PLAYERS for s in state.board(p)), "R7 empty grids"
        self.turn_cards = board_cards(state)
        self.turns = 0

    def step(self, before: GameState, move: Move, after: GameState) -> None:
        """Check the transition `before` --move--> `after`."""
        rules = before.rules
        p = before.current_player
        assert after.rules == rules
        changed = _changed(zones(before), zones(after))
        seeded = before.is_seeded
        assert after.is_seeded == seeded, "R8 the mode never changes"
        phase_after_play = self._phase_after_play(after, p)
        hand_lost = Counter(before.hand(p)) - Counter(after.hand(p))
        hand_won = Counter(after.hand(p)) - Counter(before.hand(p))

        if isinstance(move, CARD_INTO_CELL):
            stack_before = before.stack(p, move.cell)
            stack_after = after.stack(p, move.cell)
            assert stack_after is not None
            assert stack_after.cards[-1] == move.card
            old_cards = () if stack_before is None else stack_before.cards
            assert stack_after.cards == (*old_cards, move.card), "R4 cards never leave a cell"
            assert hand_lost == Counter([move.card]), "R10-R14 from the hand"
            assert not hand_won
            assert after.played_cell == move.cell
            spent: set[str] = set()
            if isinstance(move, Construct):
                assert stack_after.secret == move.secret
                assert not stack_after.face_down
                if move.secret:  # R11
                    assert before.tech_hand(p) - after.tech_hand(p) == {Tech.SECRET_BUILD}
                    spent = {f"tech_hand{p}"}
            elif isinstance(move, Downsize):  # R13
                assert before.tech_hand(p) - after.tech_hand(p) == {Tech.DOWN}
                assert stack_after.downsized
                assert not stack_after.face_down
                spent = {f"tech_hand{p}"}
            elif isinstance(move, BuildPylon):  # R14
                assert stack_after.face_down
                assert not stack_after.flipped
            _within(changed, {f"hand{p}", f"board{p}", *spent}, move)
            if isinstance(move, Construct | Improve):  # R17 tech check, else R21
                triggered = move.card.value == rules.max_value or (
                    isinstance(move, Construct) and move.secret
                )
                if triggered and before.tech_deck:
                    assert after.phase is Phase.TECH, ("R17 TECH entered", move)
                else:
                    assert after.phase is phase_after_play, ("R17/R21", move, after.phase)
            else:  # R13, R14: straight to DRAW
                assert after.phase is Phase.DRAW, ("R13/R14 next phase DRAW", move)
        elif isinstance(move, Discard):  # R15
            assert hand_lost == Counter([move.card])
            assert not hand_won
            assert Counter(after.discards) == Counter(before.discards) + Counter([move.card])
            assert after.turn_discard == move.card
            assert after.phase is Phase.DRAW
            _within(changed, {f"hand{p}", "discards"}, move)
        elif isinstance(move, Pass):  # R16
            assert before.hand_size(p) == 0
            assert after.phase is Phase.DRAW
            _within(changed, (), move)
        elif isinstance(move, DrawTech):  # R17
            if seeded:
                gained = after.tech_hand(p) - before.tech_hand(p)
                assert len(gained) == 1, "R8, R17 one tech card"
                assert gained <= set(before.tech_deck), "R8, R17 from the tech deck"
                assert after.phase is phase_after_play, "R17 overflow check after the card"
                _within(changed, {"tech_deck", f"tech_hand{p}"}, move)
            else:
                assert after.phase is Phase.CHANCE
                assert after.pending_chance is Chance.TECH
                assert after.current_player == p, "R6 the receiver is the mover"
                _within(changed, (), move)
        elif isinstance(move, DeclineTech):
            assert after.phase is phase_after_play, "R17 overflow check after DeclineTech"
            _within(changed, (), move)
        elif isinstance(move, DealTech):
            assert after.tech_hand(p) - before.tech_hand(p) == {move.tech}, "R6 DealTech"
            assert set(before.tech_deck) - set(after.tech_deck) == {move.tech}
            assert after.phase is phase_after_play, "R17 overflow check after DealTech"
            _within(changed, {"tech_deck", f"tech_hand{p}"}, move)
        elif isinstance(move, Flip):  # R21, C4
            old, new = before.stack(p, move.cell), after.stack(p, move.cell)
            assert old is not None
            assert new is not None
            assert new.cards == old.cards
            turned = (new.face_down, new.flipped, new.secret, new.downsized)
            assert turned == (True, True, old.secret, old.downsized), "C4 the whole stack turns"
            assert after.phase is phase_after_play, "R21 flip until within tolerance"
            _within(changed, {f"board{p}"}, move)
        elif isinstance(move, FlipSet):  # R41, C4: every plant of the set turns, then DRAW
            for cell in move.cells:
                old, new = before.stack(p, cell), after.stack(p, cell)
                assert old is not None
                assert new is not None
                assert new.cards == old.cards
                turned = (new.face_down, new.flipped, new.secret, new.downsized)
                assert turned == (True, True, old.secret, old.downsized), "C4 the whole stack"
            assert after.phase is Phase.DRAW, "R41 the choice ends OVERFLOW"
            assert phase_after_play is Phase.DRAW, "R41 the row is within its tolerance"
            _within(changed, {f"board{p}"}, move)
        elif isinstance(move, PlaceAccumulator | PlaceSmart):  # R18-R20
            tech = Tech.ACCUMULATOR if isinstance(move, PlaceAccumulator) else Tech.SMART
            assert before.tech_hand(p) - after.tech_hand(p) == {tech}, "R18"
            if isinstance(move, PlaceAccumulator):
                assert after.accumulator == (p, move.row), "R19"
            else:
                assert after.smart == move.energy, "R20"
            if before.phase is Phase.OVERFLOW:
                assert after.phase is phase_after_play, "R18 the Accumulator may end OVERFLOW"
            else:
                assert after.phase is before.phase, "R18 a placement does not end its phase"
            zone = "accumulator" if tech is Tech.ACCUMULATOR else "smart"
            _within(changed, {f"tech_hand{p}", zone}, move)
        elif isinstance(move, Deal):  # R6, R7, R22
            assert hand_won == Counter([move.card]), "R6 Deal"
            assert not hand_lost
            assert Counter(before.deck) - Counter(after.deck) == Counter([move.card])
            _within(changed, {"deck", f"hand{p}"}, move)
            if before.pending_chance is Chance.SETUP:  # R7
                self._check_setup(before, after)
        elif isinstance(move, DrawFromDeck):  # R22
            if seeded:
                assert sum(hand_won.values()) == 1, "R8, R22"
                assert not hand_lost
                assert Counter(before.deck) - Counter(after.deck) == hand_won
                _within(changed, {"deck", f"hand{p}"}, move)
            else:
                assert after.phase is Phase.CHANCE
                assert after.pending_chance is Chance.DRAW
                assert after.current_player == p, "R6 the receiver is the mover"
                _within(changed, (), move)
        elif isinstance(move, DrawFromDiscard):  # R22
            assert hand_won == Counter([move.card])
            assert not hand_lost
            assert Counter(before.discards) - Counter(after.discards) == Counter([move.card])
            _within(changed, {"discards", f"hand{p}"}, move)
        elif isinstance(move, EndTurn):
            _within(changed, (), move)
        else:  # pragma: no cover
            raise AssertionError(f"unknown move {move!r}")

        if self._ends_turn(before, move):
            self._check_end_of_turn(before, after)
        elif not (isinstance(move, Deal) and before.pending_chance is Chance.SETUP):
            assert after.current_player == p, ("R9 the mover keeps the turn", move)
            assert after.stall_count == before.stall_count, "R23 counted at the end of a turn"
            assert after.end_triggered_by == before.end_triggered_by, "R24 only at turn end"
            assert not after.is_over

    @staticmethod
    def _phase_after_play(after: GameState, player: int) -> Phase:
        """R21: OVERFLOW while the played row exceeds its tolerance, else DRAW."""
        played = after.played_cell
        if played is None:
            return Phase.DRAW
        over = supply(after, player, played.row) > tolerance(after, player, played.row)
        return Phase.OVERFLOW if over else Phase.DRAW

    @staticmethod
    def _ends_turn(before: GameState, move: Move) -> bool:
        """R23: a turn ends after the DRAW move, or after the Deal answering DrawFromDeck."""
        if isinstance(move, DrawFromDiscard | EndTurn):
            return True
        if isinstance(move, DrawFromDeck):
            return before.is_seeded
        return isinstance(move, Deal) and before.pending_chance is Chance.DRAW

    def _check_setup(self, before: GameState, after: GameState) -> None:
        """R7: hand_size Deals to player 0, then to player 1, then player 0's ACTION."""
        size = before.rules.hand_size
        receiver = before.current_player
        if after.hand_size(receiver) < size:
            assert (after.phase, after.current_player) == (Phase.CHANCE, receiver), "R7"
            assert after.pending_chance is Chance.SETUP
        elif receiver == 0:
            assert (after.phase, after.current_player) == (Phase.CHANCE, 1), "R7"
            assert after.pending_chance is Chance.SETUP
        else:
            assert (after.phase, after.current_player) == (Phase.ACTION, 0), "R7"
            assert (after.stall_count, after.end_triggered_by) == (0, None), "R7 not a turn"
            self.turn_cards = board_cards(after)

    def _check_end_of_turn(self, before: GameState, after: GameState) -> None:
        """R23-R26: stall counter, end trigger, game over, change of player."""
        rules = before.rules
        p = before.current_player
        placed = board_cards(after) > self.turn_cards
        stall = 0 if placed else before.stall_count + 1
        assert after.stall_count == stall, ("R23 stall counter", before.stall_count, placed)
        trigger, reason = before.end_triggered_by, None
        if trigger is not None:
            reason = EndReason.FINAL_TURN  # R23 step 2, R24
        elif grid_full(after, p):
            trigger = p  # R23 step 3, R24
        if reason is None and rules.stall_limit is not None and stall >= rules.stall_limit:
            reason = EndReason.STALL  # R23 step 4, R25
        assert after.end_triggered_by == trigger, ("R24 end trigger", trigger)
        assert after.end_reason is reason, ("R23 end reason", reason, after.end_reason)
        assert after.phase is (Phase.GAME_OVER if reason else Phase.ACTION), "R23 step 5"
        assert after.current_player == 1 - p, "R23, R26 the opponent moves next"
        assert (after.played_cell, after.turn_discard) == (None, None), "R23 per-turn fields"
        self.turn_cards = board_cards(after)
        self.turns += 1
