"""R30: what a player may not know never changes what that player may do.

The engine decides legality for the mover from the mover's own information only: the opponent's
hand, the card under an opponent's pylon built from hand and the value of an opponent's secret
plant are hidden (R30), so two games that differ only there offer the mover the same moves.
(Observations and the exhaustive non-interference proof come with the hidden-information work.)
"""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    BuildPylon,
    Card,
    Construct,
    GameState,
    Phase,
    Rules,
    Tech,
    legal_moves,
    score,
)
from tests.support.scripting import card, cell, deal, draw, idle, play, take_tech

RULES = Rules(
    energies=2,
    max_value=4,
    copies=2,
    hand_size=2,
    city_demand=10,
    techs=frozenset({Tech.SECRET_BUILD}),
)


@pytest.mark.parametrize(
    ("hand1_a", "hand1_b"),
    [(("G1", "G2"), ("S3", "G4")), (("S1", "S1"), ("G3", "S2"))],
)
def test_r30_the_movers_moves_do_not_depend_on_the_opponents_hand(
    hand1_a: tuple[str, str], hand1_b: tuple[str, str]
) -> None:
    hand0 = [card("S4"), card("G2")]
    a = deal(hand0, [card(c) for c in hand1_a], RULES)
    b = deal(hand0, [card(c) for c in hand1_b], RULES)
    assert legal_moves(a) == legal_moves(b)
    a = play(a, Construct(card("S4"), cell(0, "S")))
    b = play(b, Construct(card("S4"), cell(0, "S")))
    assert legal_moves(a) == legal_moves(b)  # TECH: the same choice


def _after_hidden_pylon(hidden: Card) -> GameState:
    state = deal([hidden, card("G2")], [card("G1"), card("G3")], RULES)
    state = play(state, BuildPylon(hidden, cell(0, "G")))
    return draw(state, card("S4"))  # now player 1 moves


@pytest.mark.parametrize("other", ["S3", "G4", "S1"])
def test_r30_the_card_under_an_opponents_pylon_changes_nothing_for_the_mover(other: str) -> None:
    a, b = _after_hidden_pylon(card("S2")), _after_hidden_pylon(card(other))
    assert a.current_player == b.current_player == 1
    assert legal_moves(a) == legal_moves(b)
    assert score(a) == score(b)  # a pylon is worth 0 (R14)


def _after_secret(hidden: Card) -> GameState:
    state = deal([card("S4"), hidden], [card("G1"), card("G2")], RULES)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.SECRET_BUILD)
    state = draw(state, card("G3"))
    state = idle(state)  # player 1
    state = play(state, Construct(hidden, cell(1, "S"), secret=True))
    assert state.phase is Phase.DRAW  # the tech deck is empty: no TECH phase (R17)
    return draw(state, card("G4"))


@pytest.mark.parametrize("other", ["S2", "S3", "S4"])
def test_r30_the_value_of_an_opponents_secret_plant_changes_nothing_for_the_mover(
    other: str,
) -> None:
    a, b = _after_secret(card("S1")), _after_secret(card(other))
    assert a.current_player == b.current_player == 1
    assert a.stack(0, cell(1, "S")) != b.stack(0, cell(1, "S"))  # the hidden difference
    assert legal_moves(a) == legal_moves(b)
