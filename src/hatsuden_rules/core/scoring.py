"""Scoring (R27-R29): energy majorities, city points, the winner and the tie-break that decided.

The model checker scores every distinct pair of grids, so `score` is kept cheap: its sheets are
built by trusted constructors (`_trusted`: the same values, without attrs' slow frozen
``__init__``), and enum members are read from module constants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from hatsuden_rules.core.cards import Energy
from hatsuden_rules.core.encoding import FACE_DOWN
from hatsuden_rules.core.enums import GameEnum
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rules import Tiebreak
from hatsuden_rules.core.state import GameState
from hatsuden_rules.core.trusted import trusted_constructor

__all__ = ["Decision", "PlayerScore", "Score", "score"]


class Decision(GameEnum):
    """What decided the winner (R29)."""

    TOTAL = "total"  # a higher total
    CITY_POINTS = "city_points"  # tie-break 1 under Tiebreak.CITY_POINTS
    SUPPLY = "supply"  # tie-break 1 under Tiebreak.SUPPLY
    SECOND_PLAYER = "second_player"  # tie-break 2: player 1, who moved second, wins


@attrs.frozen(slots=True)
class PlayerScore:
    """One player's score sheet.

    Attributes:
        energy_points: Points from energy majorities (R27), Smart doubling included (R20).
        city_points: +1 per city at exactly city_demand, -1 per city at city_demand - 2 or less
            (R28).
        total: energy_points + city_points (R29).
        row_supply: The supply of each row (city), row 0 first.
        generation: The column sum per energy in play, in column order (R27).
    """

    energy_points: int
    city_points: int
    total: int
    row_supply: tuple[int, int]
    generation: tuple[int, ...]


@attrs.frozen(slots=True)
class Score:
    """The score of a state as if the game ended now (R26-R29).

    Attributes:
        players: Player 0's sheet, then player 1's.
        winner: 0 or 1; there are no draws (R29).
        decided_by: The comparison that decided the winner.
        energy_winners: Per energy in play, the player with the strictly higher generation, or
            None on a tie.
        smart: The energy the Smart card lies on, if placed.
    """

    players: tuple[PlayerScore, PlayerScore]
    winner: int
    decided_by: Decision
    energy_winners: tuple[int | None, ...]
    smart: Energy | None


# Built from values `score` derives itself; mypy checks the calls against the classes.
if TYPE_CHECKING:
    _player_score, _score = PlayerScore, Score
else:
    _player_score, _score = trusted_constructor(PlayerScore), trusted_constructor(Score)
# Read once: in Python 3.11 `Decision.TOTAL` goes through the enum metaclass's __getattr__ hook.
_TOTAL, _CITY_POINTS, _SUPPLY, _SECOND_PLAYER = (
    Decision.TOTAL,
    Decision.CITY_POINTS,
    Decision.SUPPLY,
    Decision.SECOND_PLAYER,
)
_BY_SUPPLY = Tiebreak.SUPPLY


def score(state: GameState) -> Score:
    """Score `state` as if the game ended now (R26-R29).

    Empty cells and pylons count 0; secret plants count at their true value.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> sheet = score(new_game(seed=3))  # empty grids: every city at 0 costs a point
        >>> [p.total for p in sheet.players], sheet.winner, sheet.decided_by
        ([-2, -2], 1, Decision.SECOND_PLAYER)
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    rules = state.rules
    t = rules._tables
    width = len(t.energies)
    value = t.card_value
    columns = range(width)
    generation = []
    supplies = []
    for board in state._boards:
        top = [0 if not raw or raw[0] & FACE_DOWN else value[raw[-1]] for raw in board]  # R27
        generation.append(tuple([top[e] + top[width + e] for e in columns]))
        supplies.append((sum(top[:width]), sum(top[width:])))

    energy_winners: list[int | None] = []
    energy_points = [0, 0]
    for e, energy in enumerate(t.energies):  # R27
        g0, g1 = generation[0][e], generation[1][e]
        winner = 0 if g0 > g1 else 1 if g1 > g0 else None  # the higher sum; a tie: nobody
        energy_winners.append(winner)
        if winner is not None:
            energy_points[winner] += 2 if state._smart is energy else 1  # R20

    demand = rules.city_demand
    penalty = demand - 2
    sheets = []
    for player in (0, 1):
        cities = 0
        for row_supply in supplies[player]:  # R28
            if row_supply == demand:
                cities += 1
            elif row_supply <= penalty:
                cities -= 1
        sheets.append(
            _player_score(
                energy_points=energy_points[player],
                city_points=cities,
                total=energy_points[player] + cities,
                row_supply=supplies[player],
                generation=generation[player],
            )
        )
    first, second = sheets
    if first.total > second.total:  # R29: the higher total wins
        winner, decided_by = 0, _TOTAL
    elif second.total > first.total:
        winner, decided_by = 1, _TOTAL
    else:
        if rules.tiebreak is _BY_SUPPLY:
            a, b, decided_by = sum(first.row_supply), sum(second.row_supply), _SUPPLY
        else:
            a, b, decided_by = first.city_points, second.city_points, _CITY_POINTS
        if a > b:
            winner = 0
        elif b > a:
            winner = 1
        else:
            winner, decided_by = 1, _SECOND_PLAYER
    return _score(
        players=(first, second),
        winner=winner,
        decided_by=decided_by,
        energy_winners=tuple(energy_winners),
        smart=state._smart,
    )
