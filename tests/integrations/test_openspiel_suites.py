"""OpenSpiel's own test suites on python_hatsuden (issue 11).

`pyspiel.random_sim_test` (with serialisation), the checks of OpenSpiel's
`integration_tests/api_test.py` (called, not copied: the test classes here subclass OpenSpiel's)
on sampled states of the printed game and of reduced configurations and on the complete game
tree of the smallest configuration, and the replay of the committed playthrough.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar
from unittest import mock

import pyspiel
import pytest
from absl import flags
from open_spiel.integration_tests import api_test
from open_spiel.python.algorithms import generate_playthrough

import hatsuden_rules.openspiel
from hatsuden_rules import Phase, Rules, apply, legal_moves, new_game
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.openspiel import game_string
from tests.support.paths import GOLDEN_DIR

# The smallest configuration with hidden information: one energy, the cards 1, 2 and 3 once each,
# hands of one card (so the third card is the deck), no tech cards, stall limit 1.
SMALLEST = Rules(
    energies=1, max_value=3, copies=1, hand_size=1, city_demand=2, techs=(), stall_limit=1
)
REDUCED = {"smallest": SMALLEST, **CONFIGS}
PLAYTHROUGH = GOLDEN_DIR / "playthrough_python_hatsuden.txt"


def _tree(rules: Rules) -> tuple[int, int, int]:
    """(chance, decision, terminal) nodes of the game tree, counted with the library alone."""
    counts: dict[Any, tuple[int, int, int]] = {}

    def walk(state: Any) -> tuple[int, int, int]:
        known = counts.get(state)
        if known is not None:
            return known
        if state.is_over:
            result = (0, 0, 1)
        else:
            chance = int(state.phase is Phase.CHANCE)
            result = (chance, 1 - chance, 0)
            for move in legal_moves(state):
                below = walk(apply(state, move))
                result = (result[0] + below[0], result[1] + below[1], result[2] + below[2])
        counts[state] = result
        return result

    return walk(new_game(rules=rules))


def _infosets(rules: Rules) -> int:
    """Distinct (player, moves as that player saw them) at decision nodes: the library alone.

    A player's moves as seen (R37): their own moves and deals, the opponent's moves except a
    BuildPylon, a secret Construct, a Deal or a DealTech, whose card stays hidden.
    """
    from hatsuden_rules import BuildPylon, Construct, Deal, DealTech

    def seen(actor: int, viewer: int, move: Any) -> Any:
        if actor == viewer:
            return move
        if isinstance(move, BuildPylon):
            return ("pylon", move.cell)
        if isinstance(move, Construct) and move.secret:
            return ("secret", move.cell)
        if isinstance(move, Deal | DealTech):
            return type(move).__name__
        return move

    found: set[Any] = set()

    def walk(state: Any, logs: tuple[tuple[Any, ...], tuple[Any, ...]]) -> None:
        if state.is_over:
            return
        if state.phase is not Phase.CHANCE:
            found.add((state.current_player, logs[state.current_player]))
        actor = state.current_player
        for move in legal_moves(state):
            walk(
                apply(state, move),
                (logs[0] + (seen(actor, 0, move),), logs[1] + (seen(actor, 1, move),)),
            )

    walk(new_game(rules=rules), ((), ()))
    return len(found)


# -- random_sim_test ----------------------------------------------------------------------------


def test_random_sim_test_standard() -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game("python_hatsuden"), num_sims=4, serialize=True, verbose=False
    )


@pytest.mark.parametrize("name", sorted(REDUCED))
def test_random_sim_test_reduced(name: str) -> None:
    game = pyspiel.load_game(game_string(REDUCED[name]))
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


# -- api_test: the complete tree of the smallest configuration ----------------------------------

SMALLEST_NODES = (34, 1020, 348)  # chance, decision, terminal: checked against `_tree` below
SMALLEST_INFOSETS = 918  # (information state, player) pairs: checked against `_infosets` below


def test_pinned_counts_are_the_library_s() -> None:
    assert _tree(SMALLEST) == SMALLEST_NODES
    assert _infosets(SMALLEST) == SMALLEST_INFOSETS


@mock.patch.dict(api_test.TOTAL_NUM_STATES, {"hatsuden_smallest": SMALLEST_NODES})
@mock.patch.dict(api_test.PERFECT_RECALL_NUM_STATES, {"hatsuden_smallest": SMALLEST_INFOSETS})
class TestFullTreeSmallest(api_test.EnforceAPIOnFullTreeBase):  # type: ignore[misc]
    game_name = "hatsuden_smallest"
    game = pyspiel.load_game(game_string(SMALLEST))


# -- api_test: sampled states -------------------------------------------------------------------


class _Sampled(api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc]
    """OpenSpiel's checks on 400 states sampled with a fixed seed (reproducible)."""

    __test__ = False
    rules: ClassVar[Rules]

    @classmethod
    def setUpClass(cls) -> None:
        cls.game_name = "python_hatsuden"
        cls.game = pyspiel.load_game(game_string(cls.rules))
        saved = random.getstate()  # sample_some_states draws from the `random` module
        random.seed(2026)
        try:
            super().setUpClass()
        finally:
            random.setstate(saved)


class TestSampledStandard(_Sampled):
    __test__ = True
    rules = Rules()


class TestSampledSmall(_Sampled):
    __test__ = True
    rules = CONFIGS["small"]


class TestSampledLarge(_Sampled):
    __test__ = True
    rules = CONFIGS["large"]


# -- the playthrough ----------------------------------------------------------------------------


@pytest.fixture
def _absl_flags() -> None:
    """generate_playthrough reads an absl flag; parse the flags (defaults) if nobody has."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


@pytest.mark.usefixtures("_absl_flags")
def test_playthrough_replays() -> None:
    """`make playthrough` wrote the file with OpenSpiel's tool; replaying it gives it back."""
    original, replayed = generate_playthrough.replay(str(PLAYTHROUGH))
    assert replayed == original


def test_module_registered_the_game() -> None:
    assert hatsuden_rules.openspiel.GAME_NAME in pyspiel.registered_names()
