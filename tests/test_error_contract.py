"""R35: the exact contract of every error: type, rule, field, state, move and message.

Messages are part of the interface (a UI shows them to players; ports mirror them), so each
illegal situation is pinned with its full text, and each malformed input with its field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from hatsuden_rules import (
    BuildPylon,
    Card,
    Cell,
    Construct,
    Deal,
    DealTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndTurn,
    Energy,
    Flip,
    GameState,
    IllegalMoveError,
    Improve,
    InvalidInputError,
    InvalidMoveError,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    SplitMix64,
    Tech,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    sample,
    score,
)

from .scripting import card, cell, deal, draw, play, take_tech

W = Energy.WIND
TWO = Rules(energies=2, max_value=4, copies=2, hand_size=2, city_demand=10)


def illegal(state: GameState, move: Move, rule: str, reason: str) -> None:
    """`move` is refused with exactly this rule and reason, naming the state and the move."""
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, move)
    error = caught.value
    assert (error.rule, error.reason) == (rule, reason)
    assert str(error) == f"{rule}: {reason}"
    assert error.state is state
    assert error.move is move


def start(*hand0: str, rules: Rules = TWO) -> GameState:
    return deal([card(c) for c in hand0], [card("G1"), card("G2")], rules)


def next_turn(state: GameState, *moves: Move, draw0: str = "S3") -> GameState:
    """Player 0 plays `moves` and draws `draw0`; player 1 idles; player 0 is to move again."""
    state = draw(play(state, *moves), card(draw0))
    return play(state, Discard(card("G1")), DrawFromDiscard(card("G1")))


def holding(tech: Tech, first: str, second: str) -> GameState:
    """Player 0 holds `tech` (drawn for an S4 on row 0) and the cards `first` and `second`."""
    rules = attrs.evolve(TWO, techs=frozenset({tech}))
    state = deal([card("S4"), card(first)], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), tech)
    return next_turn(state, draw0=second)


def test_r26_game_over() -> None:
    state = play(start("S1", "S2", rules=attrs.evolve(TWO, stall_limit=1)), Discard(card("S1")))
    state = apply(state, DrawFromDiscard(card("S1")))
    illegal(state, Pass(), "R26", "the game is over: no move is legal")


def test_r9_wrong_phase() -> None:
    illegal(
        start("S1", "S2"),
        DrawFromDeck(),
        "R9",
        "DrawFromDeck is a DRAW move, but the phase is ACTION",
    )
    state = play(start("S1", "S2"), Discard(card("S1")))
    illegal(state, Flip(cell(0, "S")), "R9", "Flip is a OVERFLOW move, but the phase is DRAW")
    illegal(state, DrawTech(), "R9", "DrawTech is a TECH move, but the phase is DRAW")


def test_r1_r2_not_in_play() -> None:
    state = start("S1", "S2")
    illegal(
        state,
        Discard(Card(W, 1)),
        "R2",
        "Card(energy=Energy.WIND, value=1) is not a card in play under these rules",
    )
    illegal(
        state,
        BuildPylon(card("S1"), Cell(0, W)),
        "R1",
        "Cell(row=0, energy=Energy.WIND) is in a column of an energy not in play",
    )
    illegal(
        state,
        BuildPylon(Card(W, 2), cell(0, "S")),
        "R2",
        "Card(energy=Energy.WIND, value=2) is not a card in play under these rules",
    )
    illegal(state, PlaceSmart(W), "R1", "WIND is not in play under these rules")
    illegal(
        state,
        DrawFromDiscard(Card(W, 3)),
        "R9",
        "DrawFromDiscard is a DRAW move, but the phase is ACTION",
    )
    discarded = play(state, Discard(card("S1")))
    illegal(
        discarded,
        DrawFromDiscard(Card(W, 3)),
        "R2",
        "Card(energy=Energy.WIND, value=3) is not a card in play under these rules",
    )


def test_r10_r11_construct() -> None:
    state = start("S1", "S2")
    illegal(
        state,
        Construct(card("S3"), cell(0, "S")),
        "R10",
        "Card(energy=Energy.SOLAR, value=3) is not in the hand",
    )
    illegal(
        state,
        Construct(card("S1"), cell(1, "G")),
        "R10",
        "a SOLAR card is built only in the SOLAR column, not in GEOTHERMAL",
    )
    illegal(
        state,
        Construct(card("S1"), cell(0, "S"), secret=True),
        "R11",
        "a secret Construct needs Secret Build in the tech hand",
    )
    built = next_turn(state, Construct(card("S1"), cell(0, "S")))
    illegal(
        built,
        Construct(card("S2"), cell(0, "S")),
        "R10",
        "Cell(row=0, energy=Energy.SOLAR) is occupied: Construct needs an empty cell",
    )


def test_r12_improve() -> None:
    state = start("S1", "S2")
    illegal(
        state,
        Improve(card("S2"), cell(0, "S")),
        "R12",
        "Improve needs a plant, and Cell(row=0, energy=Energy.SOLAR) is empty",
    )
    illegal(
        state,
        Improve(card("S4"), cell(0, "S")),
        "R12",
        "Card(energy=Energy.SOLAR, value=4) is not in the hand",
    )
    pylon = next_turn(state, BuildPylon(card("S1"), cell(0, "S")))
    illegal(
        pylon,
        Improve(card("S2"), cell(0, "S")),
        "R12",
        "Improve needs a plant, and Cell(row=0, energy=Energy.SOLAR) is a pylon",
    )
    plant = next_turn(state, Construct(card("S1"), cell(0, "S")), draw0="G3")
    illegal(
        plant,
        Improve(card("G3"), cell(0, "S")),
        "R12",
        "Improve needs a card of the plant's energy: a GEOTHERMAL card on a SOLAR plant",
    )
    improved = next_turn(plant, Improve(card("S2"), cell(0, "S")), draw0="S2")
    # Only the top card counts: S2 on S1-then-S2 is not higher (the bottom S1 would be).
    illegal(
        improved,
        Improve(card("S2"), cell(0, "S")),
        "R12",
        "Improve needs a strictly higher value than the top card (2 on 2)",
    )


def test_r13_downsize() -> None:
    illegal(
        start("S1", "S2"),
        Downsize(card("S1"), cell(0, "S")),
        "R13",
        "Downsize needs Down in the tech hand",
    )
    state = holding(Tech.DOWN, "S4", "S1")
    illegal(
        state,
        Downsize(card("S1"), cell(1, "S")),
        "R13",
        "Downsize needs a plant, and Cell(row=1, energy=Energy.SOLAR) is empty",
    )
    illegal(
        state,
        Downsize(card("S4"), cell(0, "S")),
        "R13",
        "Downsize needs a strictly lower value than the top card (4 on 4)",
    )
    illegal(
        state,
        Downsize(card("S2"), cell(0, "S")),
        "R13",
        "Card(energy=Energy.SOLAR, value=2) is not in the hand",
    )


def test_r13_downsize_judges_the_top_card_of_an_improved_plant() -> None:
    state = holding(Tech.DOWN, "G1", "G3")
    state = next_turn(state, Construct(card("G1"), cell(1, "G")), draw0="G4")
    state = next_turn(state, Improve(card("G3"), cell(1, "G")), draw0="G2")
    after = apply(state, Downsize(card("G2"), cell(1, "G")))  # 2 under the top 3, over the 1
    stack = after.stack(0, cell(1, "G"))
    assert stack is not None
    assert [c.value for c in stack.cards] == [1, 3, 2]


def test_r14_r15_r16() -> None:
    state = start("S1", "S2")
    built = next_turn(state, Construct(card("S1"), cell(0, "S")))
    illegal(
        built,
        BuildPylon(card("S2"), cell(0, "S")),
        "R14",
        "Cell(row=0, energy=Energy.SOLAR) is occupied: a pylon needs an empty cell",
    )
    illegal(
        state,
        BuildPylon(card("G4"), cell(0, "S")),
        "R14",
        "Card(energy=Energy.GEOTHERMAL, value=4) is not in the hand",
    )
    illegal(
        state,
        Discard(card("G4")),
        "R15",
        "Card(energy=Energy.GEOTHERMAL, value=4) is not in the hand",
    )
    illegal(state, Pass(), "R16", "Pass is legal only with an empty hand")


def test_r17_tech() -> None:
    rules = attrs.evolve(TWO, techs=frozenset({Tech.SECRET_BUILD, Tech.SMART}))
    state = deal([card("S4"), card("S1")], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.SECRET_BUILD)
    state = next_turn(state, draw0="S2")
    secret = apply(state, Construct(card("S1"), cell(1, "S"), secret=True))
    illegal(
        secret,
        DrawTech(),
        "R17",
        "a tech card is drawn only for a 4; "
        "after this secret Construct the only choice is DeclineTech",
    )
    drawing = play(start("S4", "S2", rules=rules), Construct(card("S4"), cell(0, "S")), DrawTech())
    illegal(drawing, Deal(card("S1")), "R6", "no plant card is being dealt now")
    illegal(drawing, DealTech(Tech.ACCUMULATOR), "R17", "ACCUMULATOR is not in the tech deck")
    illegal(start("S1", "S2"), DealTech(Tech.SMART), "R6", "no tech card is being drawn now")


def test_r18_r19_r21_placements_and_flips() -> None:
    illegal(start("S1", "S2"), PlaceSmart(Energy.SOLAR), "R18", "SMART is not in the tech hand")
    teching = play(
        start("S4", "S2", rules=attrs.evolve(TWO, techs=frozenset({Tech.SMART}))),
        Construct(card("S4"), cell(0, "S")),
    )
    illegal(
        teching,
        PlaceSmart(Energy.SOLAR),
        "R18",
        "tech cards are placed in ACTION, OVERFLOW or DRAW, not TECH",
    )
    # Row 0 of a 2-column game with demand 3 (tolerance 4): S4 then G4 overflows it.
    small = Rules(energies=2, max_value=4, copies=2, hand_size=2, city_demand=3, techs=())
    state = deal([card("S4"), card("G4")], [card("G1"), card("G2")], small)
    state = next_turn(state, Construct(card("S4"), cell(0, "S")), draw0="S1")
    over = apply(state, Construct(card("G4"), cell(0, "G")))
    illegal(over, Flip(cell(0, "G")), "R21", "the plant just played can never be the one flipped")
    illegal(over, Flip(cell(1, "S")), "R21", "only a plant in the overflowing row 0 flips")
    assert legal_moves(over) == (Flip(cell(0, "S")),)


def test_r19_r21_an_accumulator_placed_earlier_sets_the_tolerance_of_later_flips() -> None:
    # Demand 4: tolerance 5, with the Accumulator 6. Row 0 gets S4, G2, then W4 (10).
    rules = Rules(
        energies=3, max_value=4, copies=2, hand_size=2, city_demand=4, techs={Tech.ACCUMULATOR}
    )
    state = deal([card("S4"), card("G2")], [card("W1"), card("W2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.ACCUMULATOR)
    state = play(state, PlaceAccumulator(0))
    state = draw(state, card("W4"))
    state = play(state, Discard(card("W1")), DrawFromDiscard(card("W1")))
    state = draw(play(state, Construct(card("G2"), cell(0, "G"))), card("W3"))  # row 0: 6 of 6
    state = play(state, Discard(card("W1")), DrawFromDiscard(card("W1")))
    over = apply(state, Construct(card("W4"), cell(0, "W")))  # 10 > 6
    assert over.row_supply(0, 0) == 10
    assert over.tolerance(0, 0) == 6
    after = apply(over, Flip(cell(0, "S")))  # 6: over 5, but within 6 with the Accumulator
    assert after.row_supply(0, 0) == 6
    assert after.phase.name == "DRAW"


def test_r22_draw() -> None:
    discarded = play(start("S1", "S2"), Discard(card("S1")))
    illegal(
        discarded,
        DrawFromDiscard(card("S2")),
        "R22",
        "Card(energy=Energy.SOLAR, value=2) is not in the discards",
    )
    illegal(discarded, EndTurn(), "R22", "EndTurn only when no card can be drawn; draw one")
    barred = play(
        start("S1", "S2", rules=attrs.evolve(TWO, allow_retake_discard=False)), Discard(card("S1"))
    )
    illegal(
        barred,
        DrawFromDiscard(card("S1")),
        "R22",
        "the card discarded this turn cannot be taken back (allow_retake_discard=False)",
    )
    tiny = Rules(energies=1, max_value=1, copies=2, hand_size=1, city_demand=1, techs=())
    empty = play(deal([card("S1")], [card("S1")], tiny), Discard(card("S1")))
    illegal(empty, DrawFromDeck(), "R22", "the deck is empty (there is no reshuffle)")


def test_r6_deal() -> None:
    state = new_game(rules=Rules(energies=1, max_value=2, copies=1, hand_size=1, city_demand=1))
    state = apply(state, Deal(card("S1")))
    illegal(
        state, Deal(card("S1")), "R6", "no Card(energy=Energy.SOLAR, value=1) is left in the deck"
    )
    illegal(
        state,
        Deal(Card(W, 1)),
        "R2",
        "Card(energy=Energy.WIND, value=1) is not a card in play under these rules",
    )


def _bad(value: object) -> Any:
    """A value of the wrong type, on purpose (typed Any so the checker lets it through)."""
    return value


MALFORMED: list[tuple[Callable[[], object], type[InvalidInputError], str, str]] = [
    (
        lambda: new_game(rules=_bad("STANDARD")),
        InvalidInputError,
        "rules",
        "expected Rules, got str",
    ),
    (
        lambda: new_game(seed=_bad("1")),
        InvalidInputError,
        "seed",
        "must be an int or None, got '1'",
    ),
    (
        lambda: apply(_bad("state"), Pass()),
        InvalidInputError,
        "state",
        "expected a GameState, got str",
    ),
    (
        lambda: apply(new_game(seed=1), _bad("Pass")),
        InvalidMoveError,
        "move",
        "expected a move, got str 'Pass'",
    ),
    (
        lambda: legal_moves(_bad("x")),
        InvalidInputError,
        "state",
        "expected a GameState, got str",
    ),
    (lambda: chance_outcomes(_bad(1)), InvalidInputError, "state", "expected a GameState, got int"),
    (lambda: score(_bad(())), InvalidInputError, "state", "expected a GameState, got tuple"),
    (lambda: SplitMix64.from_seed(_bad(1.5)), InvalidInputError, "seed", "must be an int, got 1.5"),
    (lambda: SplitMix64(-1), InvalidInputError, "state", "must be an int in [0, 2**64), got -1"),
    (
        lambda: sample([0, 0], SplitMix64(0)),
        InvalidInputError,
        "weights",
        "must be non-negative ints with a positive sum: [0, 0]",
    ),
    (
        lambda: Card(Energy.SOLAR, 0),
        InvalidMoveError,
        "value",
        "a card value is an int >= 1, got 0",
    ),
    (lambda: Card(_bad("SOLAR"), 1), InvalidMoveError, "energy", "expected an Energy, got 'SOLAR'"),
    (lambda: Cell(2, Energy.SOLAR), InvalidMoveError, "row", "a row is 0 or 1, got 2"),
    (lambda: PlaceAccumulator(True), InvalidMoveError, "row", "a row is 0 or 1, got True"),
    (lambda: Discard(_bad("S1")), InvalidMoveError, "card", "expected Card, got str 'S1'"),
    (lambda: new_game(seed=1).hand(2), InvalidInputError, "player", "must be 0 or 1, got 2"),
    (
        lambda: new_game(seed=1).row_supply(0, -1),
        InvalidInputError,
        "row",
        "must be 0 or 1, got -1",
    ),
    (
        lambda: new_game(seed=1, rules=TWO).stack(0, Cell(0, W)),
        InvalidInputError,
        "cell",
        "Cell(row=0, energy=Energy.WIND) is not in play under these rules",
    ),
]


@pytest.mark.parametrize(("call", "error", "field", "message"), MALFORMED)
def test_r35_malformed_input_names_its_field(
    call: Callable[[], object], error: type[InvalidInputError], field: str, message: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert caught.value.field == field
    assert str(caught.value) == f"{field}: {message}"
    assert isinstance(caught.value, ValueError)


def test_r35_a_phase_error_outside_chance() -> None:
    with pytest.raises(
        ValueError, match=r"^R6: chance outcomes exist only in the CHANCE phase, not ACTION$"
    ):
        chance_outcomes(new_game(seed=1))
