"""Scoring: energy points, Smart, city points, totals and tie-breaks (R27-R29)."""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    STANDARD,
    Construct,
    DealTech,
    Decision,
    DrawTech,
    GameState,
    Move,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    Tiebreak,
    score,
)
from tests.support.scripting import G, S, card, cell, script

SUPPLY_RULES = Rules(tiebreak=Tiebreak.SUPPLY)


def _builds(*specs: str) -> list[list[Move]]:
    """``_builds("0S4", "1G2")``: one face-up Construct per turn, row then energy then card."""
    return [[Construct(card(spec[1:]), cell(int(spec[0]), spec[1]))] for spec in specs]


# -- R28: city points ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row0", "supply", "row0_points"),
    [
        (("0S4", "0G3", "0W3"), 10, +1),  # exactly city_demand
        (("0S3", "0G3", "0W3"), 9, 0),
        (("0S4", "0G4", "0W3"), 11, 0),
        (("0S4", "0G4"), 8, -1),  # city_demand - 2
        (("0S4", "0G3"), 7, -1),
        ((), 0, -1),  # an empty row
    ],
)
def test_r28_city_points_per_row_supply(
    row0: tuple[str, ...], supply: int, row0_points: int
) -> None:
    state = script(_builds(*row0), [[] for _ in row0])
    sheet = score(state)
    mine = sheet.players[0]
    assert mine.row_supply == (supply, 0)
    # Row 1 is empty: 0 <= 8 costs a point.
    assert mine.city_points == row0_points - 1
    # Player 1 has an empty grid: two cities at 0, no energy.
    assert sheet.players[1].city_points == -2
    assert sheet.players[1].energy_points == 0
    # Each card is alone in its column, against an empty opponent column: one point each.
    assert mine.energy_points == len(row0)
    assert mine.total == mine.energy_points + mine.city_points


def test_r28_r19_a_row_at_12_with_the_accumulator_scores_zero() -> None:
    state = script(
        [
            [
                Construct(card("S4"), cell(0, "S")),
                DrawTech(),
                DealTech(Tech.ACCUMULATOR),
                PlaceAccumulator(0),
            ],
            [Construct(card("G4"), cell(0, "G"))],
            [Construct(card("W4"), cell(0, "W"))],
        ],
        [[], [], []],
    )
    assert state.row_supply(0, 0) == 12
    assert state.accumulator == (0, 0)
    mine = score(state).players[0]
    assert mine.row_supply == (12, 0)
    assert mine.city_points == 0 - 1


def test_r28_city_points_follow_city_demand_under_scaled_rules() -> None:
    # city_demand 5: 5 -> +1, 4 and 6 -> 0, 3 and below -> -1.
    rules = Rules(energies=2, max_value=4, copies=4, hand_size=3, city_demand=5)
    cases = {("0S2", "0G3"): (5, 1), ("0S1", "0G3"): (4, 0), ("0S3",): (3, -1)}
    for row0, (supply, points) in cases.items():
        state = script(_builds(*row0), [[] for _ in row0], rules=rules)
        mine = score(state).players[0]
        assert mine.row_supply == (supply, 0)
        assert mine.city_points == points - 1


# -- R27, R20: energy points ---------------------------------------------------------------------


def test_r27_generation_is_the_column_sum_of_both_rows_and_majority_wins_one_point() -> None:
    state = script(_builds("0S3", "1S2", "0G1"), _builds("0S4", "0G2", "1W1"))
    sheet = score(state)
    assert sheet.players[0].generation == (5, 1, 0, 0, 0)
    assert sheet.players[1].generation == (4, 2, 1, 0, 0)
    # SOLAR: 5 > 4 -> player 0; GEOTHERMAL: 1 < 2 -> player 1; WIND -> player 1.
    assert sheet.energy_winners == (0, 1, 1, None, None)
    assert sheet.players[0].energy_points == 1
    assert sheet.players[1].energy_points == 2


def test_r27_a_tied_energy_scores_for_nobody() -> None:
    state = script(_builds("0S3"), _builds("1S3"))
    sheet = score(state)
    assert sheet.energy_winners[0] is None
    assert sheet.players[0].energy_points == sheet.players[1].energy_points == 0


def _smart_on(energy_code: str, p1_turns: list[list[Move]]) -> GameState:
    """Player 0 builds S4, draws SMART and places it on `energy_code`; player 1 plays its turns."""
    energy = {"S": S, "G": G}[energy_code]
    turns0: list[list[Move]] = [
        [Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.SMART), PlaceSmart(energy)]
    ]
    turns0 += [[] for _ in p1_turns[1:]]
    return script(turns0, p1_turns)


def test_r20_smart_doubles_the_energy_majority() -> None:
    sheet = score(_smart_on("S", [[]]))
    assert sheet.smart is S
    assert sheet.energy_winners[0] == 0
    assert sheet.players[0].energy_points == 2


def test_r20_smart_on_a_tied_energy_gives_nothing() -> None:
    sheet = score(_smart_on("S", _builds("1S4")))
    assert sheet.energy_winners[0] is None
    assert sheet.players[0].energy_points == 0
    assert sheet.players[1].energy_points == 0


def test_r20_smart_on_an_energy_its_holder_is_losing_doubles_for_the_opponent() -> None:
    sheet = score(_smart_on("G", _builds("0G2")))
    # SOLAR: player 0 (1 point); GEOTHERMAL under Smart: player 1 (2 points).
    assert sheet.players[0].energy_points == 1
    assert sheet.players[1].energy_points == 2


def test_r27_secret_plants_count_at_true_value_and_pylons_count_zero() -> None:
    from hatsuden_rules import BuildPylon

    state = script(
        [
            [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)],
            [Construct(card("W3"), cell(0, "W"), secret=True)],
            [BuildPylon(card("H4"), cell(0, "H"))],
        ],
        [[], [], []],
    )
    sheet = score(state)
    assert sheet.players[0].generation == (0, 0, 3, 0, 4)
    assert sheet.players[0].row_supply == (3, 4)


def test_r29_score_does_not_change_the_state_and_works_mid_game() -> None:
    state = script(_builds("0S4"), [[]], then=[Construct(card("G3"), cell(0, "G"))])
    before = (state, hash(state))
    score(state)
    assert (state, hash(state)) == before


# -- R29: winner and tie-breaks ------------------------------------------------------------------


def test_r29_higher_total_wins() -> None:
    sheet = score(script(_builds("0S4", "0G3", "0W3"), [[], [], []]))
    # Player 0: 3 energies + (+1 - 1) = 3; player 1: 0 - 2 = -2.
    assert [p.total for p in sheet.players] == [3, -2]
    assert sheet.winner == 0
    assert sheet.decided_by is Decision.TOTAL


#: Player A: row 0 S4 G2 W4 = 10 (+1), row 1 H3 B4 S2 = 9 (0): city 1, supply 19.
A = ("0S4", "0G2", "0W4", "1H3", "1B4", "1S2")
#: Player B: row 0 S3 G4 W4 = 11 (0), row 1 H4 B4 G3 = 11 (0): city 0, supply 22.
B_ = ("0S3", "0G4", "0W4", "1H4", "1B4", "1G3")
# Generation A: S6 G2 W4 H3 B4; B: S3 G7 W4 H4 B4. A wins SOLAR, B wins GEOTHERMAL and HYDRO,
# WIND and BIOMASS tie: A 1 + 1 = 2, B 2 + 0 = 2. Equal totals.


@pytest.mark.parametrize(
    ("rules", "a_is_player", "winner", "decided_by"),
    [
        (STANDARD, 0, 0, Decision.CITY_POINTS),  # A has more city points
        (STANDARD, 1, 1, Decision.CITY_POINTS),
        (SUPPLY_RULES, 0, 1, Decision.SUPPLY),  # B has more supply
        (SUPPLY_RULES, 1, 0, Decision.SUPPLY),
    ],
)
def test_r29_tie_break_1_city_points_or_supply(
    rules: Rules, a_is_player: int, winner: int, decided_by: Decision
) -> None:
    boards = (_builds(*A), _builds(*B_)) if a_is_player == 0 else (_builds(*B_), _builds(*A))
    sheet = score(script(boards[0], boards[1], rules=rules))
    a, b = sheet.players[a_is_player], sheet.players[1 - a_is_player]
    assert (a.energy_points, a.city_points, a.total, sum(a.row_supply)) == (1, 1, 2, 19)
    assert (b.energy_points, b.city_points, b.total, sum(b.row_supply)) == (2, 0, 2, 22)
    assert sheet.winner == winner
    assert sheet.decided_by is decided_by


@pytest.mark.parametrize("rules", [STANDARD, SUPPLY_RULES])
def test_r29_tie_break_2_player1_wins_a_complete_tie(rules: Rules) -> None:
    board = ("0S4", "0G3", "0W3", "1H2")
    sheet = score(script(_builds(*board), _builds(*board), rules=rules))
    assert sheet.players[0] == sheet.players[1]
    assert sheet.players[0].total == 0  # all energies tied; cities +1 and -1
    assert sheet.winner == 1
    assert sheet.decided_by is Decision.SECOND_PLAYER


def test_r29_supply_is_ignored_by_the_city_points_tie_break() -> None:
    # Player 0: S4 G4 W3 = 11 (0) and an empty row (-1); player 1: H3 B3 W3 = 9 (0), empty (-1).
    # SOLAR, GEOTHERMAL -> 0; HYDRO, BIOMASS -> 1; WIND tied. Totals 1 and 1, city -1 and -1.
    turns0 = _builds("0S4", "0G4", "0W3")
    turns1 = _builds("0H3", "0B3", "0W3")
    city = score(script(turns0, turns1))
    assert [p.total for p in city.players] == [1, 1]
    assert city.winner == 1
    assert city.decided_by is Decision.SECOND_PLAYER
    supply = score(script(turns0, turns1, rules=SUPPLY_RULES))
    assert supply.winner == 0  # 11 > 9
    assert supply.decided_by is Decision.SUPPLY


def test_r29_empty_grids_player1_wins_by_tie_break_2() -> None:
    sheet = score(script([], []))
    assert [p.total for p in sheet.players] == [-2, -2]
    assert sheet.winner == 1
    assert sheet.decided_by is Decision.SECOND_PLAYER
