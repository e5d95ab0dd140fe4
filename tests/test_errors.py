"""Errors (R35): illegal moves name their rule; malformed input never crashes; nothing mutates."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest

from hatsuden_rules import (
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
    HatsudenError,
    IllegalMoveError,
    Improve,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    score,
)

from .scripting import SMALL, B, S, W, card, cards, cell, deal, idle, play, script


def _bad(value: object) -> Any:
    """Hide a deliberately ill-typed value from the type checker."""
    return value


# -- states in which the illegal moves are tried (each builder is deterministic) ------------------


def action() -> GameState:
    """Player 0's ACTION: S1 on (0, S), a pylon on (0, H); holds S1 S3 G3 W4 H2."""
    return script(
        [[Construct(card("S1"), cell(0, "S"))], [BuildPylon(card("B1"), cell(0, "H"))]],
        [[], []],
        hold0=cards("S1", "S3", "G3", "W4", "H2"),
    )


def draw() -> GameState:
    """Player 0's DRAW after discarding W4 (the deck is not empty)."""
    return apply(action(), Discard(card("W4")))


def no_retake_draw() -> GameState:
    rules = Rules(allow_retake_discard=False)
    state = deal(cards("S1", "S3", "G3", "W4", "H2"), cards("S2", "G1", "W1", "H1", "B1"), rules)
    return apply(state, Discard(card("W4")))


def empty_deck_draw() -> GameState:
    rules = Rules(energies=1, max_value=2, copies=2, hand_size=2, city_demand=3)
    return apply(deal(cards("S1", "S2"), cards("S1", "S2"), rules), Discard(card("S1")))


def tech_after_secret_1() -> GameState:
    state = script(
        [[Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)]],
        [[]],
        hold0=cards("W1"),
    )
    return apply(state, Construct(card("W1"), cell(0, "W"), secret=True))


def tech_holding_accumulator() -> GameState:
    state = script(
        [[Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.ACCUMULATOR)]],
        [[]],
        hold0=cards("W4"),
    )
    return apply(state, Construct(card("W4"), cell(0, "W")))


def overflow() -> GameState:
    """Row 0: S3 G3 W3 and a pylon on HYDRO, S2 on row 1; B4 makes 13: OVERFLOW."""
    state = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("G3"), cell(0, "G"))],
            [Construct(card("W3"), cell(0, "W"))],
            [BuildPylon(card("H1"), cell(0, "H"))],
            [Construct(card("S2"), cell(1, "S"))],
        ],
        [[], [], [], [], []],
        hold0=cards("B4"),
    )
    return play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())


def setup_chance() -> GameState:
    """Both copies of S1 dealt to player 0."""
    return play(new_game(), Deal(card("S1")), Deal(card("S1")))


def draw_chance() -> GameState:
    return apply(draw(), DrawFromDeck())


def tech_chance() -> GameState:
    return apply(tech_holding_accumulator(), DrawTech())


def game_over() -> GameState:
    return idle(script([], [], rules=Rules(stall_limit=1)))


def small_action() -> GameState:
    return script([], [], rules=SMALL, hold0=cards("S1", "G2"))


def small_overflow() -> GameState:
    rules = Rules(energies=2, max_value=4, copies=4, hand_size=3, city_demand=4)
    state = script([[Construct(card("S2"), cell(0, "S"))]], [[]], rules=rules, hold0=cards("G4"))
    return play(state, Construct(card("G4"), cell(0, "G")), DeclineTech())


PHASE_RULE = "R9"  # a move of another phase: the turn structure (R9) or the move's own rule

ILLEGAL: list[tuple[str, Callable[[], GameState], Move, set[str]]] = [
    ("construct-not-in-hand", action, Construct(card("B4"), cell(0, "B")), {"R10"}),
    ("construct-occupied", action, Construct(card("S1"), cell(0, "S")), {"R10"}),
    ("construct-wrong-column", action, Construct(card("S3"), cell(0, "G")), {"R10"}),
    ("construct-secret-no-tech", action, Construct(card("S3"), cell(1, "S"), True), {"R11"}),
    ("construct-in-draw", draw, Construct(card("S3"), cell(1, "S")), {PHASE_RULE, "R10"}),
    ("construct-in-chance", draw_chance, Construct(card("S3"), cell(1, "S")), {"R9", "R6", "R10"}),
    ("improve-equal", action, Improve(card("S1"), cell(0, "S")), {"R12"}),
    ("improve-empty", action, Improve(card("G3"), cell(0, "G")), {"R12"}),
    ("improve-pylon", action, Improve(card("H2"), cell(0, "H")), {"R12", "R14"}),
    (
        "improve-in-tech",
        tech_after_secret_1,
        Improve(card("S3"), cell(0, "S")),
        {PHASE_RULE, "R12"},
    ),
    ("downsize-no-down", action, Downsize(card("S1"), cell(0, "S")), {"R13"}),
    ("downsize-in-overflow", overflow, Downsize(card("S1"), cell(0, "S")), {PHASE_RULE, "R13"}),
    ("pylon-occupied", action, BuildPylon(card("G3"), cell(0, "S")), {"R14"}),
    ("pylon-not-in-hand", action, BuildPylon(card("B4"), cell(1, "B")), {"R14"}),
    ("pylon-in-draw", draw, BuildPylon(card("G3"), cell(1, "B")), {PHASE_RULE, "R14"}),
    ("discard-not-in-hand", action, Discard(card("B4")), {"R15"}),
    ("discard-in-tech", tech_after_secret_1, Discard(card("S1")), {PHASE_RULE, "R15"}),
    ("pass-with-cards", action, Pass(), {"R16"}),
    ("pass-in-draw", draw, Pass(), {PHASE_RULE, "R16"}),
    ("draw-tech-after-secret-1", tech_after_secret_1, DrawTech(), {"R17"}),
    ("draw-tech-in-action", action, DrawTech(), {PHASE_RULE, "R17"}),
    ("decline-tech-in-draw", draw, DeclineTech(), {PHASE_RULE, "R17"}),
    ("flip-played", overflow, Flip(cell(0, "B")), {"R21"}),
    ("flip-pylon", overflow, Flip(cell(0, "H")), {"R21"}),
    ("flip-other-row", overflow, Flip(cell(1, "S")), {"R21"}),
    ("flip-in-action", action, Flip(cell(0, "S")), {PHASE_RULE, "R21"}),
    ("draw-deck-empty", empty_deck_draw, DrawFromDeck(), {"R22"}),
    ("draw-deck-in-action", action, DrawFromDeck(), {PHASE_RULE, "R22"}),
    ("take-not-discarded", draw, DrawFromDiscard(card("S3")), {"R22"}),
    ("take-barred-retake", no_retake_draw, DrawFromDiscard(card("W4")), {"R22"}),
    ("take-in-action", action, DrawFromDiscard(card("S1")), {PHASE_RULE, "R22"}),
    ("end-turn-deck-left", draw, EndTurn(), {"R22"}),
    ("end-turn-discard-left", empty_deck_draw, EndTurn(), {"R22"}),
    ("end-turn-in-action", action, EndTurn(), {PHASE_RULE, "R22"}),
    ("accumulator-not-held", action, PlaceAccumulator(0), {"R18"}),
    ("accumulator-in-tech", tech_holding_accumulator, PlaceAccumulator(0), {"R18"}),
    ("accumulator-in-chance", tech_chance, PlaceAccumulator(1), {"R18", "R6"}),
    ("smart-not-held", draw, PlaceSmart(S), {"R18"}),
    ("deal-in-action", action, Deal(card("S2")), {"R6", PHASE_RULE}),
    ("deal-not-in-deck", setup_chance, Deal(card("S1")), {"R6"}),
    ("deal-while-tech-pending", tech_chance, Deal(card("S2")), {"R6"}),
    ("deal-tech-in-action", action, DealTech(Tech.SMART), {"R6", PHASE_RULE}),
    ("deal-tech-while-card-pending", draw_chance, DealTech(Tech.SMART), {"R6"}),
    ("deal-tech-already-drawn", tech_chance, DealTech(Tech.ACCUMULATOR), {"R6", "R17"}),
    ("move-in-game-over", game_over, Discard(card("S1")), {"R26"}),
    ("deal-in-game-over", game_over, Deal(card("S1")), {"R26"}),
]


@pytest.mark.parametrize(
    ("build", "move", "rules"),
    [(b, m, r) for _, b, m, r in ILLEGAL],
    ids=[name for name, *_ in ILLEGAL],
)
def test_r35_illegal_move_raises_naming_its_rule_and_leaves_the_state_unchanged(
    build: Callable[[], GameState], move: Move, rules: set[str]
) -> None:
    state, twin = build(), build()
    assert state == twin
    assert move not in legal_moves(state)
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, HatsudenError)
    assert error.rule in rules
    assert str(error).startswith(f"{error.rule}: ")
    assert len(str(error)) > len(error.rule) + 5  # and says why
    assert error.state == twin
    assert error.move == move
    assert state == twin
    assert hash(state) == hash(twin)


def test_r35_setup_deal_not_in_deck_is_illegal() -> None:
    rules = Rules(energies=2, max_value=1, copies=1, hand_size=1, city_demand=1)
    state = apply(new_game(rules=rules), Deal(card("S1")))
    with pytest.raises(IllegalMoveError) as info:
        apply(state, Deal(card("S1")))
    assert info.value.rule == "R6"


# -- malformed input ------------------------------------------------------------------------------


def _assert_rejected(call: Callable[[], object]) -> None:
    with pytest.raises(HatsudenError) as info:
        call()
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("move", ["Pass", None, 42, Pass, (), card("S1"), cell(0, "S")], ids=repr)
def test_r35_a_move_of_the_wrong_type_raises_a_hatsuden_value_error(move: object) -> None:
    state, twin = action(), action()
    _assert_rejected(lambda: apply(state, _bad(move)))
    assert state == twin
    assert hash(state) == hash(twin)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Cell(row=2, energy=S),
        lambda: Cell(row=-1, energy=S),
        lambda: Cell(row=_bad("0"), energy=S),
        lambda: Cell(row=0, energy=_bad("solar")),
        lambda: Card(S, 0),
        lambda: Card(S, -1),
        lambda: Card(S, _bad("1")),
        lambda: Card(_bad("S"), 1),
        lambda: PlaceAccumulator(2),
        lambda: PlaceAccumulator(-1),
        lambda: PlaceAccumulator(_bad("0")),
        lambda: PlaceSmart(_bad("solar")),
        lambda: Construct(_bad("S1"), cell(0, "S")),
        lambda: Construct(card("S1"), _bad((0, "S"))),
        lambda: Construct(card("S1"), cell(0, "S"), _bad("yes")),
        lambda: Discard(_bad(None)),
        lambda: Flip(_bad(None)),
        lambda: Deal(_bad("S1")),
        lambda: DealTech(_bad("accumulator")),
    ],
)
def test_r35_malformed_values_raise_a_hatsuden_value_error(make: Callable[[], object]) -> None:
    _assert_rejected(make)


@pytest.mark.parametrize(
    ("build", "move"),
    [
        (small_action, Discard(Card(W, 1))),  # WIND is not in play with 2 energies
        (small_action, Construct(card("S1"), Cell(0, W))),
        (small_action, BuildPylon(card("S1"), Cell(1, B))),
        (small_action, Discard(Card(S, 5))),  # max_value 4
        (action, Discard(Card(S, 5))),
        (small_overflow, Flip(Cell(0, W))),
        (lambda: apply(new_game(rules=SMALL), Deal(card("S1"))), Deal(Card(W, 1))),
    ],
    ids=repr,
)
def test_r35_a_card_or_energy_not_in_play_raises_a_hatsuden_value_error(
    build: Callable[[], GameState], move: Move
) -> None:
    state, twin = build(), build()
    _assert_rejected(lambda: apply(state, move))
    assert state == twin
    assert hash(state) == hash(twin)


@pytest.mark.parametrize(
    "move",
    [
        Discard(card("S1")),
        Pass(),
        DrawFromDeck(),
        PlaceAccumulator(0),
        Deal(card("S2")),
        Flip(cell(0, "S")),
    ],
    ids=repr,
)
def test_r35_any_move_in_game_over_raises_a_hatsuden_value_error(move: Move) -> None:
    state, twin = game_over(), game_over()
    assert state.is_over
    _assert_rejected(lambda: apply(state, move))
    assert state == twin


@pytest.mark.parametrize("thing", [None, "state", 3, new_game], ids=repr)
def test_r35_functions_reject_a_non_state(thing: object) -> None:
    _assert_rejected(lambda: apply(_bad(thing), Pass()))
    _assert_rejected(lambda: legal_moves(_bad(thing)))
    _assert_rejected(lambda: chance_outcomes(_bad(thing)))
    _assert_rejected(lambda: score(_bad(thing)))


def test_r35_new_game_rejects_rules_of_the_wrong_type() -> None:
    _assert_rejected(lambda: new_game(rules=_bad("STANDARD")))
    _assert_rejected(lambda: new_game(rules=_bad(None)))


def test_r35_accessor_errors_are_hatsuden_errors() -> None:
    # R35: HatsudenError is the root of all library errors, accessors included.
    state = small_action()
    _assert_rejected(lambda: state.hand(2))
    _assert_rejected(lambda: state.tech_hand(-1))
    _assert_rejected(lambda: state.row_supply(0, 2))
    _assert_rejected(lambda: state.stack(0, Cell(0, W)))


def _library_errors() -> list[Exception]:
    """One instance of every exception class a user can receive, with its attributes set."""
    import hatsuden_rules as h
    from hatsuden_rules.simulation import BackendError

    state = h.new_game(seed=1)
    errors: list[Exception] = [
        h.InvalidInputError("seed", "must be an int"),
        h.InvalidRulesError("energies", "must be between 1 and 5"),
        h.InvalidMoveError("move", "not a move"),
        h.PhaseError("no chance outcomes in ACTION"),
        BackendError("the Ray backend failed"),
    ]
    with pytest.raises(h.IllegalMoveError) as illegal:  # R22: no draw in ACTION
        h.apply(state, h.DrawFromDeck())
    with pytest.raises(h.MoveNotationError) as notation:
        h.parse_move("C* S9 0S")
    with pytest.raises(h.NotationError) as line:
        h.parse_state("not a state")
    with pytest.raises(h.InvalidDocumentError) as document:
        h.from_json('{"format_version": 1, "type": "move"}')
    with pytest.raises(h.ReplayError) as replayed:
        h.record_game([h.DrawFromDeck()], seed=1)
    return [*errors, illegal.value, notation.value, line.value, document.value, replayed.value]


def test_every_library_error_pickles() -> None:
    """A worker process or a Ray task sends errors back pickled: class, message, attributes."""
    for error in _library_errors():
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert str(copy) == str(error)
        assert copy.__dict__.keys() == error.__dict__.keys()
        for name, value in vars(error).items():
            assert getattr(copy, name) == value, (type(error).__name__, name)
