"""The exact value of a reduced game under perfect information (backward induction)."""

from __future__ import annotations

from fractions import Fraction

from hatsuden_rules import (
    GameState,
    InvalidInputError,
    Phase,
    Rules,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    score,
)

__all__ = ["game_value"]


def game_value(rules: Rules) -> Fraction:
    """The probability that player 0 wins when both players play perfectly and see everything.

    Backward induction over the (acyclic, R25) state graph of the perfect-information relaxation:
    at a chance node the exact expectation over `chance_outcomes`, at a decision node the best
    value for the player to move (player 0 maximises its winning probability, player 1
    minimises it), at the end 1 if player 0 wins (R29), else 0. Hidden information is ignored:
    both players know every hand and the deck's contents, not the order of future draws.

    Raises:
        InvalidInputError: `rules.stall_limit` is None (the game need not end).

    Examples:
        >>> from hatsuden_rules import Rules
        >>> tiny = Rules(energies=1, max_value=1, copies=2, hand_size=1, city_demand=1,
        ...              techs=(), stall_limit=1)
        >>> game_value(tiny)
        Fraction(0, 1)
    """
    if rules.stall_limit is None:
        raise InvalidInputError("rules", "stall_limit=None: without the stall rule no value exists")
    values: dict[GameState, Fraction] = {}
    # Children of the states whose value waits for theirs (each state is expanded once).
    waiting: dict[GameState, list[tuple[GameState, Fraction]]] = {}
    stack = [new_game(rules=rules)]  # an explicit stack instead of recursion
    while stack:
        state = stack.pop()
        if state in values:
            continue
        if state.phase is Phase.GAME_OVER:
            values[state] = Fraction(1 if score(state).winner == 0 else 0)
            continue
        children = waiting.pop(state, None)
        if children is None:
            if state.phase is Phase.CHANCE:
                children = [(apply(state, move), p) for move, p in chance_outcomes(state)]
            else:
                children = [(apply(state, move), Fraction(1)) for move in legal_moves(state)]
            waiting[state] = children
            stack.append(state)  # again, once its children have values
            stack.extend(child for child, _ in children if child not in values)
            continue
        if state.phase is Phase.CHANCE:
            values[state] = sum((p * values[child] for child, p in children), Fraction(0))
        elif state.current_player == 0:
            values[state] = max(values[child] for child, _ in children)
        else:
            values[state] = min(values[child] for child, _ in children)
    return values[new_game(rules=rules)]
