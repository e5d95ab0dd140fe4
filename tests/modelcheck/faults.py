"""Wrong rules planted in the Python engine as the model checker sees it (issue 21).

Each fault wraps one of the functions the checker calls (`apply`, `legal_moves`, `score`) in
every module of `hatsuden_rules.modelcheck` that imported it, as the checker's own tests do
(tests/modelcheck/test_modelcheck_disk.py's forgetful `apply`). The native rules crate plants
the same faults under the same names with its test-only feature ``fault-injection``
(native/hatsuden/src/fault.rs, chosen by ``HATSUDEN_FAULT``): both checkers must then report the
same verdict and the same shortest counterexamples (tests/native/test_native_faults.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import hatsuden_rules
from hatsuden_rules import (
    Decision,
    Discard,
    GameState,
    Move,
    Phase,
    Rules,
    Score,
    apply,
    legal_moves,
    score,
)
from hatsuden_rules.core import encoding as enc

__all__ = ["CARDS", "ENDLESS", "FAULTS", "plant"]

#: The rule set without a stall limit of the cycle test (R25): with the stall counter capped,
#: its state graph has a cycle.
ENDLESS = Rules(
    energies=1,
    max_value=1,
    copies=2,
    hand_size=1,
    city_demand=1,
    techs=frozenset(),
    stall_limit=None,
)

#: A rule set of about 2,000 states, no tech cards: a card created by a Discard (R4) makes hands
#: overflow (R22) without the state space growing past seconds.
CARDS = Rules(
    energies=1,
    max_value=2,
    copies=2,
    hand_size=1,
    city_demand=1,
    techs=frozenset(),
    stall_limit=1,
    allow_retake_discard=False,
)


def _stall_capped(state: GameState, move: Move) -> GameState:
    """R23 broken: the stall counter stops at 1."""
    after = apply(state, move)
    return attrs.evolve(after, stall=1) if after.stall_count > 1 else after


def _discard_keeps_card(state: GameState, move: Move) -> GameState:
    """R4 broken: a discarded card stays in the hand too."""
    after = apply(state, move)
    if not isinstance(move, Discard):
        return after
    mover = state.current_player
    card = enc.tables(state.rules).card_index[move.card]
    hands = list(after._hands)
    hands[mover] = tuple(sorted((*hands[mover], card)))
    return attrs.evolve(after, hands=(hands[0], hands[1]))


def _score_second_player(state: GameState) -> Score:
    """R29 broken: a tie decided for the second player goes to player 0."""
    sheet = score(state)
    if sheet.decided_by is Decision.SECOND_PLAYER:
        return attrs.evolve(sheet, winner=0)
    return sheet


def _moves_reversed(state: GameState) -> tuple[Move, ...]:
    """R34 broken: in DRAW the legal moves come in reverse canonical order."""
    moves = legal_moves(state)
    if state.phase is Phase.DRAW and len(moves) > 1:
        return tuple(reversed(moves))
    return moves


#: Each fault by its name in ``HATSUDEN_FAULT``: the function it replaces and its replacement.
FAULTS: dict[str, tuple[str, Callable[..., Any]]] = {
    "stall-capped": ("apply", _stall_capped),
    "discard-keeps-card": ("apply", _discard_keeps_card),
    "score-second-player": ("score", _score_second_player),
    "moves-reversed": ("legal_moves", _moves_reversed),
}


def plant(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Plant the fault `name` in every checker module that calls the function it replaces."""
    attribute, replacement = FAULTS[name]
    original = getattr(hatsuden_rules, attribute)
    planted = 0
    for module_name, module in list(sys.modules.items()):
        checker = module_name.startswith("hatsuden_rules.modelcheck") and module is not None
        if checker and getattr(module, attribute, None) is original:
            monkeypatch.setattr(module, attribute, replacement)
            planted += 1
    assert planted, f"no checker module calls {attribute}"
