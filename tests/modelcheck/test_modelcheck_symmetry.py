"""Symmetry reduction: one state per orbit of the row swaps, and the same verdicts (R4, R21)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache

from hatsuden_rules import GameState, Move, Rules, Tech, apply, legal_moves, new_game, score
from hatsuden_rules.modelcheck import CONFIGS, CheckResult, Problem, Properties, check
from hatsuden_rules.modelcheck._properties import Zones
from hatsuden_rules.modelcheck._symmetry import canonical, map_move, swap_rows

SMALL = CONFIGS["small"]
TWO_COLUMNS = Rules(  # every Construct draws a tech card: the Accumulator sits on a city
    energies=2,
    max_value=1,
    copies=1,
    hand_size=1,
    city_demand=1,
    techs=frozenset({Tech.ACCUMULATOR}),
    allow_retake_discard=False,
    stall_limit=2,
)


@cache
def reachable(rules: Rules) -> tuple[list[GameState], CheckResult]:
    seen: list[GameState] = []
    result = check(rules, on_state=seen.append)
    assert result.violations == ()
    return seen, result


def test_reduced_states_are_exactly_the_canonical_images_of_all_states() -> None:
    for rules in (SMALL, TWO_COLUMNS):
        full, full_result = reachable(rules)
        reduced: list[GameState] = []
        result = check(rules, symmetry=True, on_state=reduced.append)
        assert result.violations == ()
        assert set(reduced) == {canonical(state)[0] for state in full}
        assert len(reduced) == len(set(reduced)) < len(full)
        assert result.longest_game == full_result.longest_game


def random_states(count: int) -> Iterator[GameState]:  # STANDARD, seeded random games
    choose = random.Random(11)
    for seed in range(count):
        state = new_game(seed=seed)
        while not state.is_over:
            yield state
            state = apply(state, choose.choice(legal_moves(state)))


def test_a_row_swap_is_a_symmetry_of_the_rules() -> None:
    for state in random_states(6):
        player = state.current_player
        swapped = swap_rows(state, player)
        assert swap_rows(swapped, player) == state
        assert canonical(swapped)[0] == canonical(state)[0]
        mapped = {map_move(move, player, 1 << player) for move in legal_moves(state)}
        assert mapped == set(legal_moves(swapped))
        assert score(swapped) == score(state) or (
            score(swapped).players[player].row_supply
            == score(state).players[player].row_supply[::-1]
        )
        assert score(swapped).winner == score(state).winner


def test_a_row_swap_commutes_with_every_move_turn_logs_included() -> None:
    """Swap then play the mapped move == play then swap, for the mover and the other (R36)."""
    for state in random_states(4):
        mover = state.current_player
        for player in (0, 1):
            swapped = swap_rows(state, player)
            for move in legal_moves(state):
                mapped = map_move(move, mover, 1 << player)
                assert apply(swapped, mapped) == swap_rows(apply(state, move), player)
        if state.this_turn:  # the logged moves of the mover are mapped too
            assert swap_rows(state, mover).this_turn == tuple(
                map_move(move, mover, 1 << mover) for move in state.this_turn
            )


class RowOfTwo(Properties):
    """The real properties plus a made-up, symmetric one: no row may supply exactly 2."""

    def state_violations(self, state: GameState, moves: Sequence[Move], z: Zones) -> list[Problem]:
        problems = list(super().state_violations(state, moves, z))
        if any(state.row_supply(p, r) == 2 for p in (0, 1) for r in (0, 1)):
            problems.append(("R99", "a row supplies 2"))
        return problems


def test_the_reduced_run_finds_the_same_violations_with_real_paths() -> None:
    full = check(TWO_COLUMNS, properties=RowOfTwo(TWO_COLUMNS), max_violations=50)
    reduced = check(TWO_COLUMNS, symmetry=True, properties=RowOfTwo(TWO_COLUMNS), max_violations=50)
    assert full.result == reduced.result == "VIOLATION"
    assert any(s.accumulator is not None for s in reachable(TWO_COLUMNS)[0])
    assert {v.rule for v in full.violations} == {v.rule for v in reduced.violations} == {"R99"}
    assert len(full.violations[0].path) == len(reduced.violations[0].path)  # both shortest
    for violation in reduced.violations:  # each path replays in a real game to a violation
        state = new_game(rules=TWO_COLUMNS)
        for move in violation.path:
            state = apply(state, move)
        assert any(state.row_supply(p, r) == 2 for p in (0, 1) for r in (0, 1))
