"""Positions, not histories: a state without its turn logs and known cards (R36), and why it may.

`soundness_problems` and `knowledge_problems` check, rather than assume, that dropping them
changes neither the legal moves nor the positions that follow; the argument:
docs/architecture.md ("Positions, not histories").
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Final

import attrs

from hatsuden_rules import DrawFromDiscard, GameState, IllegalMoveError, Move, apply, legal_moves
from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.state import updater

__all__ = [
    "HISTORY_FIELDS",
    "SOUNDNESS_EVERY",
    "knowledge_problems",
    "position",
    "position_key",
    "soundness_problems",
]

Problem = tuple[str, str]

#: The fields a position leaves out: what each player knows of the other's hand and the logs.
HISTORY_FIELDS: Final = ("_known", "_this_turn", "_last_turn")

#: The position search checks soundness on one expanded position in this many.
SOUNDNESS_EVERY: Final = 256

_NOTHING: Final[tuple[tuple[int, ...], tuple[int, ...]]] = ((), ())
_EMPTY: Final[tuple[tuple[int, ...], ...]] = ((),)
_with_known: Final = updater("known")
_without_history: Final = updater("known", "this_turn", "last_turn")
#: Every field of a position, in attrs order.
position_key = attrgetter(
    *(field.name for field in attrs.fields(GameState) if field.name not in HISTORY_FIELDS)
)


def position(state: GameState) -> GameState:
    """`state` without its turn logs and known cards: the state a position search stores.

    Examples:
        >>> from hatsuden_rules import apply, legal_moves, new_game
        >>> state = new_game(seed=3)
        >>> state = apply(state, legal_moves(state)[0])
        >>> state.this_turn != (), position(state).this_turn
        (True, ())
    """
    if enc.known(state) == _NOTHING and not state.this_turn and not state.last_turn:
        return state
    return _without_history(state, known=_NOTHING, this_turn=(), last_turn=())


def soundness_problems(state: GameState, moves: Sequence[Move]) -> list[Problem]:
    """Whether dropping the history of `state` (with its legal `moves`) changes anything.

    The legal moves of `position(state)` must be `moves`, and each move must lead to the same
    position from both. The rule named is R36: the logs and known cards are its fields.
    """
    bare = position(state)
    if bare is state:
        return []
    problems: list[Problem] = []
    if legal_moves(bare) != tuple(moves):
        problems.append(("R36", "the legal moves depend on the turn logs or known cards"))
        return problems
    for move in moves:
        if position_key(apply(state, move)) != position_key(apply(bare, move)):
            problems.append(
                ("R36", f"{type(move).__name__} leads to a position that depends on the history")
            )
    return problems


@lru_cache(maxsize=1 << 12)
def sub_multisets(cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every non-empty sub-multiset of the sorted `cards`, each once, sorted (memoised).

    Examples:
        >>> sub_multisets((3, 3, 5))
        ((5,), (3,), (3, 5), (3, 3), (3, 3, 5))
    """
    counts = Counter(cards)
    distinct = sorted(counts)
    out = []
    for picks in itertools.product(*(range(counts[c] + 1) for c in distinct)):
        chosen = tuple(c for c, n in zip(distinct, picks, strict=True) for _ in range(n))
        if chosen:
            out.append(chosen)
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _within(part: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    """Whether the multiset `part` is contained in the multiset `whole`."""
    return not Counter(part) - Counter(whole)


@lru_cache(maxsize=1 << 16)
def _learnt(
    was: tuple[int, ...], now: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...]
) -> bool:
    """R36 for taking a card: what is known grew by exactly the card the hand grew by."""
    return Counter(now) == Counter(was) + (Counter(after) - Counter(before))


def knowledge_problems(before: GameState, move: Move, after: GameState) -> list[Problem]:
    """The step `before --move--> after` of a position search, replayed with known cards.

    `before` is a position (nothing known, no logs). The move is applied again with the mover
    known to hold each non-empty sub-multiset of their hand in turn, and the other player known
    to hold a sub-multiset of theirs (taken in turn, the last one repeated), and must lead to the
    position of `after`; the mover's known cards must change only as R36 says (a card taken
    from the discards becomes known, nothing else does) and stay in the hand; the other's must
    not change. Steps where the mover neither holds nor takes a card are left out.
    """
    mover = before.current_player
    hands = enc.hands(before)
    mine = hands[mover]
    taking = type(move) is DrawFromDiscard
    if not mine and not taking:
        return []
    ours = sub_multisets(mine) or _EMPTY
    theirs = sub_multisets(hands[1 - mover]) or _EMPTY
    target = position_key(after)
    problems: list[Problem] = []
    for k in range(max(len(ours), len(theirs))):
        known_mover, known_other = ours[min(k, len(ours) - 1)], theirs[min(k, len(theirs) - 1)]
        known = (known_mover, known_other) if mover == 0 else (known_other, known_mover)
        try:
            end = apply(_with_known(before, known=known), move)
        except IllegalMoveError as error:
            return [("R36", f"{type(move).__name__} is refused with known cards: {error}")]
        if position_key(end) != target:
            problems.append(("R36", f"{type(move).__name__} leads elsewhere when cards are known"))
        now = enc.known(end)[mover]
        if taking:
            if not _learnt(known_mover, now, mine, enc.hands(end)[mover]):
                problems.append(("R36", f"taking {move} from the discards did not make it known"))
        elif not _within(now, known_mover):
            problems.append(("R36", f"{type(move).__name__} made cards known"))
        if not _within(now, enc.hands(end)[mover]):
            problems.append(("R36", "a known card is no longer in the hand"))
        if enc.known(end)[1 - mover] != known_other:
            problems.append(("R36", f"{type(move).__name__} changed what the mover knows"))
        if problems:
            break
    return problems
