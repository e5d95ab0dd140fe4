"""Overflow and flips (R21), and a flipped stack keeping its cards (R4, C4)."""

from __future__ import annotations

import itertools

import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Cell,
    Construct,
    DealTech,
    DeclineTech,
    DrawFromDeck,
    DrawTech,
    Energy,
    Flip,
    FlipSet,
    GameState,
    IllegalMoveError,
    Improve,
    InvalidMoveError,
    Move,
    Overflow,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    apply,
    format_move,
    from_json,
    legal_moves,
    move_sort_key,
    parse_move,
    to_json,
)
from tests.support.contract import refused
from tests.support.scripting import S, assert_conserved, card, cards, cell, play, script


def _rule_of(state: GameState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


def _row0(*turns: list[Move], hold: tuple[str, ...] = ()) -> GameState:
    """Player 0 plays `turns` (player 1 idles between them); player 0 to move."""
    return script(list(turns), [[] for _ in turns], hold0=cards(*hold))


def _c(code: str, row: int = 0) -> list[Move]:
    return [Construct(card(code), cell(row, code[0]))]


def _flips(state: GameState) -> list[Move]:
    return [m for m in legal_moves(state) if isinstance(m, Flip)]


def _two_flip_overflow() -> GameState:
    # Row 0: S3 G3 W3 H2 = 11 (within tolerance); B4 makes 15; TECH declined; OVERFLOW.
    state = _row0(_c("S3"), _c("G3"), _c("W3"), _c("H2"), hold=("B4",))
    assert state.phase is Phase.ACTION
    assert state.row_supply(0, 0) == 11
    state = play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 15
    return state


def test_r21_overflow_needing_two_flips() -> None:
    state = _two_flip_overflow()
    # The played B4 is never a candidate; each flip is one move.
    assert _flips(state) == [Flip(cell(0, e)) for e in "SGWH"]
    state = apply(state, Flip(cell(0, "S")))
    assert state.row_supply(0, 0) == 12
    assert state.phase is Phase.OVERFLOW  # one flip of a 3 is not enough
    assert _flips(state) == [Flip(cell(0, e)) for e in "GWH"]
    state = apply(state, Flip(cell(0, "G")))
    assert state.row_supply(0, 0) == 9
    assert state.phase is Phase.DRAW
    assert_conserved(state)


def test_r21_the_owner_chooses_which_plant_to_flip() -> None:
    state = _two_flip_overflow()
    state = apply(state, Flip(cell(0, "H")))  # flipping the 2 leaves 13
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 13
    state = apply(state, Flip(cell(0, "W")))  # then a 3 leaves 10
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 10


def test_r21_the_phase_ends_as_soon_as_the_row_is_within_tolerance() -> None:
    # Row 0: S3 G3 W3 = 9; H3 makes 12; one flip suffices and no further flip is legal.
    state = _row0(_c("S3"), _c("G3"), _c("W3"), hold=("H3",))
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    state = apply(state, Flip(cell(0, "W")))
    assert state.phase is Phase.DRAW
    assert _flips(state) == []
    assert _rule_of(state, Flip(cell(0, "S"))) in {"R9", "R21"}


def test_r21_a_row_at_exactly_its_tolerance_does_not_overflow() -> None:
    state = _row0(_c("S3"), _c("G3"), _c("W3"), hold=("H2",))
    state = apply(state, Construct(card("H2"), cell(0, "H")))
    assert state.row_supply(0, 0) == 11
    assert state.phase is Phase.DRAW


def test_r21_an_improve_can_overflow() -> None:
    # Row 0: S1 G3 W3 H3 = 10; improving S1 to S3 makes 12.
    state = _row0(_c("S1"), _c("G3"), _c("W3"), _c("H3"), hold=("S3",))
    state = apply(state, Improve(card("S3"), cell(0, "S")))
    assert state.phase is Phase.OVERFLOW
    assert Flip(cell(0, "S")) not in legal_moves(state)  # the improved plant is the played one
    assert _rule_of(state, Flip(cell(0, "S"))) == "R21"
    state = apply(state, Flip(cell(0, "G")))
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 9


def test_r21_the_just_played_plant_a_pylon_another_row_or_an_empty_cell_never_flip() -> None:
    # Row 0: S3 G3 W3 and a pylon on HYDRO; row 1: S2. B4 in row 0 makes 13.
    state = _row0(
        _c("S3"),
        _c("G3"),
        _c("W3"),
        [BuildPylon(card("B1"), cell(0, "H"))],
        _c("S2", row=1),
        hold=("B4",),
    )
    state = play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())
    assert state.phase is Phase.OVERFLOW
    assert _rule_of(state, Flip(cell(0, "B"))) == "R21"  # the card just played
    assert _rule_of(state, Flip(cell(0, "H"))) == "R21"  # a pylon
    assert _rule_of(state, Flip(cell(1, "S"))) == "R21"  # a plant of the other row
    assert _flips(state) == [Flip(cell(0, e)) for e in "SGW"]
    empty = _row0(_c("S3"), _c("G3"), _c("W3"), hold=("H3",))
    empty = apply(empty, Construct(card("H3"), cell(0, "H")))
    assert _rule_of(empty, Flip(cell(0, "B"))) == "R21"  # an empty cell


def test_r21_flip_is_illegal_outside_overflow() -> None:
    state = _row0(_c("S3"))
    assert _rule_of(state, Flip(cell(0, "S"))) in {"R9", "R21"}


def test_r4_a_flipped_stack_keeps_all_its_cards() -> None:
    # Row 0: S1 improved to S3, G3, W3 = 9; H3 makes 12; the SOLAR stack is flipped.
    state = _row0(_c("S1"), [Improve(card("S3"), cell(0, "S"))], _c("G3"), _c("W3"), hold=("H3",))
    state = play(state, Construct(card("H3"), cell(0, "H")), Flip(cell(0, "S")))
    stack = state.stack(0, cell(0, "S"))
    assert stack is not None
    assert stack.cards == (card("S1"), card("S3"))
    assert stack.face_down
    assert stack.flipped
    assert stack.value == 0
    assert not stack.is_plant
    assert state.occupied(0) == 4
    assert_conserved(state)


def test_r21_a_secret_plant_can_be_flipped_and_keeps_secret_build() -> None:
    state = _row0(
        [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)],
        [Construct(card("W3"), cell(0, "W"), secret=True)],  # then DeclineTech
        _c("S3"),
        _c("G3"),
        hold=("H3",),
    )
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    assert Flip(cell(0, "W")) in legal_moves(state)
    state = apply(state, Flip(cell(0, "W")))
    assert state.phase is Phase.DRAW
    stack = state.stack(0, cell(0, "W"))
    assert stack is not None
    assert stack.face_down
    assert stack.secret
    assert stack.cards == (card("W3"),)
    assert not stack.is_secret_plant
    assert_conserved(state)


def test_r21_free_placements_are_legal_in_overflow_and_keep_it() -> None:
    state = _row0(
        [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SMART)],
        _c("S3"),
        _c("G3"),
        _c("W3"),
        hold=("H3",),
    )
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    assert PlaceSmart(S) in legal_moves(state)
    state = apply(state, PlaceSmart(S))
    assert state.phase is Phase.OVERFLOW
    assert state.smart is S


# -------------------------------------------------------------------------------------------------
# The overflow variant (R41): ``Overflow.ANY_SET`` chooses the plants to flip at once (FlipSet).
#
# The default (``ONE_AT_A_TIME``, R21) is tested in test_overflow.py; here the same positions are
# played under both options, so each test shows what the option changes.


def any_set() -> Rules:
    """The standard rules with ``overflow=ANY_SET``, built afresh in each test.

    A rule set builds its tables (the sets of cells a FlipSet may flip, R41) when it is made, so
    each test that needs them makes its own: mutation testing switches mutants on only while a
    test runs, and tables built when this module was imported would never see one.
    """
    return Rules(overflow=Overflow.ANY_SET)


def _issue_row(rules: Rules) -> GameState:
    """Row 0 holds S4 G4 W1 H1 (10); B2 makes 12, over the tolerance 11: OVERFLOW."""
    turns = [[Construct(card(code), cell(0, code[0]))] for code in ("S4", "G4", "W1", "H1")]
    state = script(turns, [[] for _ in turns], rules, hold0=cards("B2"))
    state = apply(state, Construct(card("B2"), cell(0, "B")))
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 12
    return state


def _final_supplies(state: GameState) -> set[int]:
    """Every supply of the overflowing row that some way of resolving the overflow reaches."""
    if state.phase is not Phase.OVERFLOW:
        return {state.row_supply(0, 0)}
    out: set[int] = set()
    for move in legal_moves(state):
        if isinstance(move, Flip | FlipSet):
            out |= _final_supplies(apply(state, move))
    return out


def test_r41_only_a_rule_set_with_any_set_builds_the_sets_of_cells() -> None:
    """The sets of cells a FlipSet may flip (R41) are built for ``overflow=ANY_SET`` only.

    Under ``ONE_AT_A_TIME`` (R21) no FlipSet is ever legal, so its rule set holds no sets (a
    rule set is built once per game and its tables are kept as long as a state of it exists).
    """
    assert Rules()._tables.flip_sets == ()
    assert Rules(energies=3, overflow=Overflow.ONE_AT_A_TIME)._tables.flip_sets == ()
    sets = any_set()._tables.flip_sets
    assert len(sets) == 2  # one tuple a row
    assert all(len(row) == 2**5 - 1 for row in sets)  # every non-empty set of the row's columns


def test_r41_the_issue_example_one_at_a_time_never_reaches_10() -> None:
    # R21: one flip at a time, stopping as soon as the row is within tolerance: flipping a 1
    # stops at 11, flipping a 4 at 8; both 1s can never be flipped, so 10 is out of reach.
    assert _final_supplies(_issue_row(STANDARD)) == {11, 8}


def test_r41_the_issue_example_any_set_reaches_10() -> None:
    # R41: any set of the other plants whose flipping brings the row to 11 or less.
    assert _final_supplies(_issue_row(any_set())) == {11, 10, 8, 7, 6, 4, 3, 2}


def test_r41_every_sufficient_set_is_legal_once_in_canonical_order() -> None:
    state = _issue_row(any_set())
    moves = legal_moves(state)
    others = [cell(0, e) for e in "SGWH"]  # the played B2 is never in a set (R21)
    expected = [
        FlipSet(combo)
        for size in range(1, 5)
        for combo in itertools.combinations(others, size)  # every sum >= 1 suffices here
    ]
    assert sorted(moves, key=move_sort_key) == list(moves)  # R34
    assert set(moves) == set(expected)
    assert len(moves) == len(expected) == 15
    assert not any(isinstance(move, Flip) for move in moves)


def test_r41_a_set_that_does_not_suffice_is_not_legal() -> None:
    # Row 0: S3 G3 W3 H2 (11); B4 makes 15: at least 4 must go, so no single 3 or 2 is enough.
    turns = [[Construct(card(c), cell(0, c[0]))] for c in ("S3", "G3", "W3", "H2")]
    state = script(turns, [[] for _ in turns], any_set(), hold0=cards("B4"))
    state = play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())
    assert state.phase is Phase.OVERFLOW
    moves = legal_moves(state)
    assert FlipSet((cell(0, "S"),)) not in moves
    assert FlipSet((cell(0, "H"),)) not in moves
    assert FlipSet((cell(0, "S"), cell(0, "H"))) in moves  # 3 + 2 = 5 >= 4
    assert _rule_of(state, FlipSet((cell(0, "W"),))) == "R41"
    with pytest.raises(IllegalMoveError, match="R41: flipping these plants leaves row 0 at 12"):
        apply(state, FlipSet((cell(0, "S"),)))


def test_r41_a_flip_set_ends_overflow_and_keeps_every_card() -> None:
    state = _issue_row(any_set())
    after = apply(state, FlipSet((cell(0, "W"), cell(0, "H"))))
    assert after.phase is Phase.DRAW  # the choice is made: OVERFLOW ends (R41)
    assert after.row_supply(0, 0) == 10
    for letter in "WH":
        stack = after.stack(0, cell(0, letter))
        assert stack is not None
        assert stack.face_down
        assert stack.flipped
        assert stack.cards == (card(f"{letter}1"),)  # R4, C4: the flipped stack keeps its card
    assert after.this_turn[-1] == FlipSet((cell(0, "W"), cell(0, "H")))  # R36: logged
    assert_conserved(after)


def test_r41_flip_set_needs_plants_of_the_overflowing_row_other_than_the_played_one() -> None:
    state = _issue_row(any_set())
    assert _rule_of(state, FlipSet((cell(0, "B"),))) == "R41"  # the card just played
    assert _rule_of(state, FlipSet((cell(1, "S"),))) == "R41"  # another row (empty)
    assert _rule_of(state, FlipSet((cell(0, "S"), cell(1, "S")))) == "R41"


def test_r41_flip_set_never_turns_a_pylon() -> None:
    # Row 0: a pylon at S, G4 W4 H2 (10); B3 makes 13: the pylon cannot be part of the set.
    turns: list[list[Move]] = [
        [BuildPylon(card("S1"), cell(0, "S"))],
        [Construct(card("G4"), cell(0, "G"))],
        [Construct(card("W4"), cell(0, "W"))],
        [Construct(card("H2"), cell(0, "H"))],
    ]
    state = script(turns, [[] for _ in turns], any_set(), hold0=cards("B3"))
    state = apply(state, Construct(card("B3"), cell(0, "B")))
    assert state.phase is Phase.OVERFLOW
    assert _rule_of(state, FlipSet((cell(0, "S"), cell(0, "G")))) == "R41"
    sets = [move for move in legal_moves(state) if isinstance(move, FlipSet)]
    assert sets
    assert all(cell(0, "S") not in move.cells for move in sets)


def test_r41_the_two_overflow_moves_belong_to_their_own_option() -> None:
    assert _rule_of(_issue_row(any_set()), Flip(cell(0, "W"))) == "R41"
    assert _rule_of(_issue_row(STANDARD), FlipSet((cell(0, "W"),))) == "R41"
    with pytest.raises(IllegalMoveError, match="R41: a FlipSet is the overflow move of"):
        apply(_issue_row(STANDARD), FlipSet((cell(0, "W"),)))


def test_r9_a_flip_set_outside_overflow_is_refused() -> None:
    state = apply(_issue_row(any_set()), FlipSet((cell(0, "W"),)))
    assert state.phase is Phase.DRAW
    assert _rule_of(state, FlipSet((cell(0, "H"),))) == "R9"


def test_r41_r19_the_accumulator_still_absorbs_an_overflow() -> None:
    # The Accumulator (R19) placed in OVERFLOW on the overflowing row makes its tolerance 12:
    # the row at 12 is within it, and OVERFLOW ends with no flip (R18, R41).
    state = _accumulator_overflow(any_set())
    after = apply(state, PlaceAccumulator(0))
    assert after.phase is Phase.DRAW
    assert after.row_supply(0, 0) == 12


def test_r41_r19_a_flip_set_is_judged_against_the_tolerance_of_the_moment() -> None:
    state = _accumulator_overflow(any_set())
    assert FlipSet((cell(0, "W"),)) in legal_moves(state)  # 12 - 1 = 11: enough
    # The Accumulator on the other city leaves this row's tolerance at 11: still OVERFLOW.
    other = apply(state, PlaceAccumulator(1))
    assert other.phase is Phase.OVERFLOW
    assert FlipSet((cell(0, "W"),)) in legal_moves(other)


def test_r41_r19_an_accumulator_placed_earlier_sets_the_tolerance_sets_are_offered_for() -> None:
    # The Accumulator lies on city 0 (tolerance 12); row 0: S4 G4 W2 H1 (11), B3 makes 14.
    # Flipping W2 leaves 12: enough here, where the tolerance 11 of the other city would need 3.
    turns: list[list[Move]] = [
        [Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.ACCUMULATOR)],
        [PlaceAccumulator(0), Construct(card("G4"), cell(0, "G"))],
        [Construct(card("W2"), cell(0, "W"))],
        [Construct(card("H1"), cell(0, "H"))],
    ]
    state = script(turns, [[] for _ in turns], any_set(), hold0=cards("B3"))
    state = apply(state, Construct(card("B3"), cell(0, "B")))
    assert state.phase is Phase.OVERFLOW
    assert state.accumulator == (0, 0)
    assert state.tolerance(0, 0) == 12
    moves = legal_moves(state)
    assert FlipSet((cell(0, "W"),)) in moves  # 14 - 2 = 12
    assert FlipSet((cell(0, "H"),)) not in moves  # 14 - 1 = 13
    assert apply(state, FlipSet((cell(0, "W"),))).phase is Phase.DRAW


def test_r41_r12_an_improved_plant_counts_with_its_top_card_in_the_sets_offered() -> None:
    # Row 0: S3 improved over S1, G4 W2 H1 (10); B3 makes 13: flipping S (3) leaves 10, enough;
    # the S1 beneath does not count (R12, R27), or S alone would not suffice.
    turns: list[list[Move]] = [
        [Construct(card("S1"), cell(0, "S"))],
        [Improve(card("S3"), cell(0, "S"))],
        [Construct(card("G4"), cell(0, "G"))],
        [Construct(card("W2"), cell(0, "W"))],
        [Construct(card("H1"), cell(0, "H"))],
    ]
    state = script(turns, [[] for _ in turns], any_set(), hold0=cards("B3"))
    state = apply(state, Construct(card("B3"), cell(0, "B")))
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 13
    moves = legal_moves(state)
    assert FlipSet((cell(0, "S"),)) in moves
    assert FlipSet((cell(0, "H"),)) not in moves  # 13 - 1 = 12


def test_r35_r41_every_refusal_of_a_flip_set_names_its_rule_state_and_move() -> None:
    state = _issue_row(any_set())  # row 0: S4 G4 W1 H1, then B2 played at B
    refused(
        state,
        FlipSet((cell(0, "B"),)),
        "R41",
        "the plant just played can never be one of those flipped",
    )
    refused(state, FlipSet((cell(1, "S"),)), "R41", "only plants of the overflowing row 0 flip")
    refused(
        _issue_row(STANDARD),
        FlipSet((cell(0, "W"),)),
        "R41",
        "a FlipSet is the overflow move of overflow=ANY_SET; flip one plant at a time (Flip)",
    )
    after = apply(state, FlipSet((cell(0, "W"),)))
    refused(
        after, FlipSet((cell(0, "H"),)), "R9", "FlipSet is a OVERFLOW move, but the phase is DRAW"
    )
    refused(
        state,
        Flip(cell(0, "W")),
        "R41",
        "with overflow=ANY_SET the plants to flip are chosen at once: play a FlipSet",
    )
    # Row 1: S3 G3 W3 H2 (11); B4 makes 15: a single plant is not enough.
    turns = [[Construct(card(c), cell(1, c[0]))] for c in ("S3", "G3", "W3", "H2")]
    row1 = script(turns, [[] for _ in turns], any_set(), hold0=cards("B4"))
    row1 = play(row1, Construct(card("B4"), cell(1, "B")), DeclineTech())
    refused(
        row1,
        FlipSet((cell(1, "S"),)),
        "R41",
        "flipping these plants leaves row 1 at 12, over its tolerance 11",
    )
    refused(row1, FlipSet((cell(0, "S"),)), "R41", "only plants of the overflowing row 1 flip")


def test_r35_r41_r1_a_flip_set_names_cells_in_play_that_hold_plants() -> None:
    # Three energies, demand 3: S4 (tolerance 4), then G1 makes 5 and overflows.
    rules = Rules(energies=3, max_value=4, city_demand=3, overflow=Overflow.ANY_SET)
    turns: list[list[Move]] = [[Construct(card("S4"), cell(0, "S"))]]
    state = script(turns, [[]], rules, hold0=cards("G1"))
    state = apply(state, Construct(card("G1"), cell(0, "G")))
    assert state.phase is Phase.OVERFLOW
    refused(
        state,
        FlipSet((Cell(0, Energy.HYDRO),)),
        "R1",
        "Cell(row=0, energy=Energy.HYDRO) is in a column of an energy not in play",
    )
    refused(
        state,
        FlipSet((cell(0, "W"),)),
        "R41",
        "FlipSet needs a plant, and Cell(row=0, energy=Energy.WIND) is empty",
    )


def _accumulator_overflow(rules: Rules) -> GameState:
    """Player 0 holds the Accumulator; row 0 at S4 G4 W1 H1 + B2 = 12: OVERFLOW."""
    turns: list[list[Move]] = [
        [Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.ACCUMULATOR)],
        [Construct(card("G4"), cell(0, "G"))],
        [Construct(card("W1"), cell(0, "W"))],
        [Construct(card("H1"), cell(0, "H"))],
    ]
    state = script(turns, [[] for _ in turns], rules, hold0=cards("B2"))
    state = apply(state, Construct(card("B2"), cell(0, "B")))
    assert state.phase is Phase.OVERFLOW
    assert Tech.ACCUMULATOR in state.tech_hand(0)
    return state


def test_r41_flip_set_values_are_sets_of_cells() -> None:
    s, w = Cell(0, Energy.SOLAR), Cell(0, Energy.WIND)
    assert FlipSet((w, s)) == FlipSet([s, w]) == FlipSet({s, w})
    assert FlipSet((w, s)).cells == (s, w)  # canonical order (R34)
    assert hash(FlipSet((w, s))) == hash(FlipSet((s, w)))
    for bad in ((), (s, s), ("0S",), s, "0S"):
        with pytest.raises(InvalidMoveError):
            FlipSet(bad)


def test_r34_a_flip_set_sorts_after_flip_and_before_the_draws() -> None:
    s, g = Cell(0, Energy.SOLAR), Cell(0, Energy.GEOTHERMAL)
    moves: list[Move] = [DrawFromDeck(), FlipSet((g,)), FlipSet((s, g)), Flip(s), FlipSet((s,))]
    assert sorted(moves, key=move_sort_key) == [
        Flip(s),
        FlipSet((s,)),
        FlipSet((s, g)),
        FlipSet((g,)),
        DrawFromDeck(),
    ]


def test_r41_notation_and_json_of_a_flip_set() -> None:
    move = FlipSet((Cell(0, Energy.WIND), Cell(0, Energy.SOLAR)))
    assert format_move(move) == "FS 0S+0W"
    assert parse_move("FS 0S+0W") == move
    assert from_json(to_json(move)) == move
    for bad, position in (("FS 0W+0S", 6), ("FS 0S+0S", 6), ("FS ", 3), ("FS 0S+", 6)):
        with pytest.raises(InvalidMoveError) as info:
            parse_move(bad)
        assert f"at position {position}" in str(info.value)


def test_r35_r41_a_malformed_flip_set_names_its_cells() -> None:
    # NOTATION.md "Moves": a FlipSet's cells are a non-empty collection of distinct Cell values,
    # kept in canonical order (row, then column); anything else is refused naming `cells`.
    cells = [Cell(1, Energy.SOLAR), Cell(0, Energy.BIOMASS), Cell(0, Energy.SOLAR)]
    canonical = (Cell(0, Energy.SOLAR), Cell(0, Energy.BIOMASS), Cell(1, Energy.SOLAR))
    for collection in (tuple(cells), cells, set(cells), frozenset(cells)):
        assert FlipSet(collection).cells == canonical
    duplicate = (Cell(0, Energy.WIND), Cell(0, Energy.WIND))
    for value, message in (
        ("0S", "expected a tuple of Cell, got '0S'"),
        (b"0S", "expected a tuple of Cell, got b'0S'"),
        (5, "expected a tuple of Cell, got 5"),
        ((Cell(0, Energy.SOLAR), "0G"), "expected Cell values, got str"),
        ((), "a FlipSet flips at least one plant"),
        (duplicate, f"each cell appears once, got {duplicate!r}"),
    ):
        with pytest.raises(InvalidMoveError) as caught:
            FlipSet(value)
        assert (caught.value.field, str(caught.value)) == ("cells", f"cells: {message}")
