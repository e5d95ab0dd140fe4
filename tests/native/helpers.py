"""Shared by the native core's tests: both cores' outcomes, comparable."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from hatsuden_rules import (
    Deal,
    GameState,
    HatsudenError,
    IllegalMoveError,
    InvalidInputError,
    NotationError,
    SplitMix64,
    apply,
    chance_outcomes,
    legal_moves,
    sample,
    score,
)

NOT_INSTALLED = "hatsuden-native is not installed (make native builds and installs it)"

Outcome = tuple[str, ...]


def outcome(call: Callable[[], object]) -> Outcome:
    """What `call` did, comparable across cores: its result's text, or its error's kind and where.

    An illegal move compares by rule, malformed notation by class, field and position, another
    refusal by class and field. Any other exception (not a HatsudenError) propagates.
    """
    try:
        result = call()
    except IllegalMoveError as error:
        return ("IllegalMoveError", error.rule)
    except NotationError as error:
        return (type(error).__name__, error.field, str(error.position))
    except InvalidInputError as error:
        return (type(error).__name__, error.field)
    except HatsudenError as error:
        return (type(error).__name__,)
    return ("ok", str(result))


def random_game(
    state: GameState, rng: SplitMix64, max_plies: int
) -> tuple[GameState, int, SplitMix64]:
    """A random game as `hatsuden_native.playouts` plays it, in Python (R32, R33).

    A legal move with ``sample([1] * len(moves))``; a chance outcome of explicit mode with
    ``sample(weights)``, the weights being the copies left of each card (1 per tech card).
    Returns the end, the number of plies and the generator after the game.
    """
    plies = 0
    while not state.is_over and plies < max_plies:
        outcomes = chance_outcomes(state) if state.phase.name == "CHANCE" else None
        if outcomes:
            total = state.deck_size if isinstance(outcomes[0][0], Deal) else len(outcomes)
            weights = [int(p * total) for _, p in outcomes]
            assert sum(Fraction(w, total) for w in weights) == 1
            index, rng = sample(weights, rng)
            move = outcomes[index][0]
        else:
            moves = legal_moves(state)
            index, rng = sample([1] * len(moves), rng)
            move = moves[index]
        state = apply(state, move)
        plies += 1
    return state, plies, rng


def play_randomly(state: GameState, seed: int, games: int) -> tuple[GameState, int, int]:
    """`games` random games from `state`, one generator shared: (last end, plies, player 0 wins)."""
    rng = SplitMix64.from_seed(seed)
    plies = wins = 0
    end = state
    for _ in range(games):
        end, n, rng = random_game(state, rng, 100_000)
        plies += n
        wins += score(end).winner == 0
    return end, plies, wins


#: The keys of the state notation, in order (NOTATION.md).
STATE_KEYS = (
    "rules",
    "phase",
    "current_player",
    "hands",
    "deck",
    "discards",
    "boards",
    "tech_deck",
    "tech_hands",
    "accumulator",
    "smart",
    "played_cell",
    "turn_discard",
    "pending_chance",
    "stall_count",
    "end_triggered_by",
    "end_reason",
    "rng_state",
    "known_cards",
    "this_turn",
    "last_turn",
)

#: Known divergence of the native crate (reported in issue 20's work): where a state field's
#: value is followed by a character that neither continues it nor is the space before the next
#: key (``deck=S1,S3?S3 ...``, or the text ends there), the reference names the field being read
#: (``deck``) and the native core the next key (``discards``); the position is the same. While
#: this is True the comparisons accept exactly that difference; `test_known_divergence` (strict
#: xfail) fails as soon as the crate is fixed, to set it to False.
TOLERATE_NEXT_KEY = True


def same_outcome(expected: Outcome, got: Outcome) -> bool:
    """Whether the native outcome `got` is the reference's `expected` (see TOLERATE_NEXT_KEY)."""
    if got == expected:
        return True
    if not TOLERATE_NEXT_KEY or len(expected) != 3 or len(got) != 3:
        return False
    (kind, field, position), (got_kind, got_field, got_position) = expected, got
    return (
        kind == got_kind == "NotationError"
        and position == got_position
        and field in STATE_KEYS[:-1]
        and got_field == STATE_KEYS[STATE_KEYS.index(field) + 1]
    )
