"""Legal moves (R34), apply on every legal move, immutability and invariants over random games."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Card,
    Cell,
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
    GameState,
    IllegalMoveError,
    Improve,
    Move,
    Pass,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    apply,
    chance_outcomes,
    legal_moves,
    move_sort_key,
    new_game,
)
from tests.support.scripting import (
    ENERGY_ORDER,
    SMALL,
    TECH_ORDER,
    assert_conserved,
    card_key,
    cell_key,
    public_view,
    random_explicit_states,
)

#: Values 1..2 with 2 energies: tolerance 3, so two plants in a row overflow; all four techs.
MICRO = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2)

KIND_ORDER: tuple[type, ...] = (
    Construct,
    Improve,
    Downsize,
    BuildPylon,
    Discard,
    Pass,
    DrawTech,
    DeclineTech,
    Flip,
    DrawFromDeck,
    DrawFromDiscard,
    EndTurn,
    PlaceAccumulator,
    PlaceSmart,
    Deal,
    DealTech,
)


def r34_key(move: Move) -> tuple[int, ...]:
    """R34 written out independently: kind, then card, then cell, then secret, etc."""
    key: tuple[int, ...] = (KIND_ORDER.index(type(move)),)
    if isinstance(move, Construct):
        return key + card_key(move.card) + cell_key(move.cell) + (int(move.secret),)
    if isinstance(move, Improve | Downsize | BuildPylon):
        return key + card_key(move.card) + cell_key(move.cell)
    if isinstance(move, Discard | DrawFromDiscard | Deal):
        return key + card_key(move.card)
    if isinstance(move, Flip):
        return key + cell_key(move.cell)
    if isinstance(move, PlaceAccumulator):
        return (*key, move.row)
    if isinstance(move, PlaceSmart):
        return (*key, ENERGY_ORDER.index(move.energy))
    if isinstance(move, DealTech):
        return (*key, TECH_ORDER.index(move.tech))
    return key


#: Random explicit games: (rules, policy seeds).
GAMES: tuple[tuple[Rules, tuple[int, ...]], ...] = (
    (STANDARD, (1, 2, 3)),
    (SMALL, (3, 4, 5)),
    (MICRO, tuple(range(5, 25))),
)


@cache
def _games(rules: Rules, seeds: tuple[int, ...]) -> tuple[tuple[GameState, ...], ...]:
    return tuple(tuple(random_explicit_states(rules, seed, limit=5000)) for seed in seeds)


def _all_states() -> list[GameState]:
    states: list[GameState] = []
    for rules, seeds in GAMES:
        for game in _games(rules, seeds):
            states.extend(game)
    return states


def test_random_games_end() -> None:
    for rules, seeds in GAMES:
        for game in _games(rules, seeds):
            assert game[-1].is_over
            assert game[-1].end_reason is not None


def test_r34_legal_moves_are_duplicate_free_and_in_canonical_order() -> None:
    for state in _all_states():
        moves = legal_moves(state)
        assert len(set(moves)) == len(moves)
        assert list(moves) == sorted(moves, key=r34_key)
        assert list(moves) == sorted(moves, key=move_sort_key)
        assert bool(moves) != state.is_over


def test_r34_construct_order_card_then_cell_then_secret() -> None:
    moves: list[Move] = [
        Construct(Card(ENERGY_ORDER[1], 1), Cell(0, ENERGY_ORDER[1]), secret=True),
        Construct(Card(ENERGY_ORDER[0], 2), Cell(1, ENERGY_ORDER[0])),
        Construct(Card(ENERGY_ORDER[0], 2), Cell(0, ENERGY_ORDER[0]), secret=True),
        Construct(Card(ENERGY_ORDER[0], 2), Cell(0, ENERGY_ORDER[0])),
        Pass(),
        Discard(Card(ENERGY_ORDER[0], 1)),
        DealTech(TECH_ORDER[0]),
        Deal(Card(ENERGY_ORDER[4], 4)),
    ]
    expected = [moves[3], moves[2], moves[1], moves[0], moves[5], moves[4], moves[7], moves[6]]
    assert sorted(moves, key=move_sort_key) == expected
    assert sorted(moves, key=r34_key) == expected


def test_r6_chance_outcomes_sum_to_one_in_every_chance_state() -> None:
    seen = 0
    for state in _all_states():
        if state.phase is Phase.CHANCE:
            seen += 1
            outcomes = chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1
            assert tuple(m for m, _ in outcomes) == legal_moves(state)
            assert all(p > 0 for _, p in outcomes)
    assert seen > 0


def test_r35_every_legal_move_applies_and_apply_never_mutates_its_input() -> None:
    rng = random.Random(0)
    for rules, seeds in ((STANDARD, (1, 2)), (SMALL, (3,)), (MICRO, (5, 6, 7))):
        for seed, game in zip(seeds, _games(rules, seeds), strict=True):
            twins = random_explicit_states(rules, seed, limit=5000)
            for state, twin in zip(game, twins, strict=True):
                moves = legal_moves(state)
                for move in rng.sample(moves, min(len(moves), 12)):
                    after = apply(state, move)
                    assert isinstance(after, GameState)
                assert state == twin
                assert hash(state) == hash(twin)


def _universe(rules: Rules) -> list[Move]:
    cards = rules.cards
    cells = rules.cells
    moves: list[Move] = []
    for c, cell in itertools.product(cards, cells):
        moves += [Construct(c, cell), Construct(c, cell, secret=True)]
        moves += [Improve(c, cell), Downsize(c, cell), BuildPylon(c, cell)]
    for c in cards:
        moves += [Discard(c), DrawFromDiscard(c), Deal(c)]
    moves += [Pass(), DrawTech(), DeclineTech(), DrawFromDeck(), EndTurn()]
    moves += [Flip(cell) for cell in cells]
    moves += [PlaceAccumulator(0), PlaceAccumulator(1)]
    moves += [PlaceSmart(e) for e in rules.energies_in_play]
    moves += [DealTech(t) for t in TECH_ORDER]
    return moves


@pytest.mark.parametrize("seed", range(5, 15))
def test_r35_legal_moves_are_exactly_the_moves_apply_accepts(seed: int) -> None:
    universe = _universe(MICRO)
    for state in _games(MICRO, (seed,))[0]:
        legal = set(legal_moves(state))
        view = public_view(state)
        for move in universe:
            if move in legal:
                apply(state, move)
            else:
                with pytest.raises(IllegalMoveError) as info:
                    apply(state, move)
                assert info.value.move == move
                assert info.value.rule.startswith("R")
                assert str(info.value).startswith(f"{info.value.rule}: ")
        assert public_view(state) == view


def test_r9_rows_are_within_tolerance_at_the_start_of_every_action_and_draw() -> None:
    for state in _all_states():
        if state.phase in (Phase.ACTION, Phase.DRAW):
            for player, row in itertools.product((0, 1), (0, 1)):
                assert state.row_supply(player, row) <= state.tolerance(player, row)


def test_r22_a_hand_never_exceeds_hand_size() -> None:
    for state in _all_states():
        assert state.hand_size(0) <= state.rules.hand_size
        assert state.hand_size(1) <= state.rules.hand_size


def test_r3_r4_cards_are_conserved_in_random_games() -> None:
    for state in _all_states():
        assert_conserved(state)


def test_game_states_are_hashable_and_equal_by_value() -> None:
    a = random_explicit_states(SMALL, 9, limit=60)
    b = random_explicit_states(SMALL, 9, limit=60)
    assert a == b
    assert [hash(s) for s in a] == [hash(s) for s in b]
    assert all(x is not y for x, y in zip(a, b, strict=True))
    assert len(set(a) | set(b)) == len(set(a))
    assert a[0] != a[1]
    assert new_game() == new_game()
    assert new_game() != new_game(rules=SMALL)
    assert {new_game(), new_game()} == {new_game()}


def test_repr_of_every_move_evaluates_back_to_it() -> None:
    """python-chess style: repr(move) is a constructor expression of an equal move."""
    import hatsuden_rules

    namespace = {name: getattr(hatsuden_rules, name) for name in hatsuden_rules.__all__}
    moves = _universe(STANDARD)
    assert len(moves) > 400
    for move in moves:
        assert eval(repr(move), namespace) == move


def test_moves_hash_by_value_and_survive_pickling_and_evolve() -> None:
    """Moves cache their hash (the engine's prebuilt moves are hashed in every state's hash).

    The cached hash is the hash of the value: an equal move built anew, unpickled or evolved has
    the same hash and compares equal (R34: moves are values).
    """
    import pickle

    import attrs

    import hatsuden_rules

    namespace = {name: getattr(hatsuden_rules, name) for name in hatsuden_rules.__all__}
    for move in _universe(STANDARD):
        first = hash(move)  # computed, then cached on the object
        rebuilt = eval(repr(move), namespace)
        assert rebuilt is not move
        assert hash(rebuilt) == first == hash(move)
        copy = pickle.loads(pickle.dumps(move))
        assert copy == move
        assert hash(copy) == first
        assert attrs.evolve(move) == move
        assert hash(attrs.evolve(move)) == first
