"""Hidden information under the tech-timing variant (R37, R38, R40), on a reduced configuration.

With ``tech_timing=PLACE_AT_ONCE`` an opponent's unknown tech card is Down unless they drew it
this very move (R40), and `sample_state` must say so (R38). `make verify-variants` runs every
check on every state of "small-place-at-once" and "secret-any-set" (tests/golden/
information.json); `make test` runs them on the states where an opponent holds a tech card.

Apart from tests/modelcheck/test_observation_information.py (the small and small-secret
configurations), whose explorations these tests do not share: a file runs on one pytest-xdist
worker (tests/README.md), so the two run side by side.
"""

from __future__ import annotations

from functools import cache

import attrs

from hatsuden_rules import GameState, Tech, TechTiming
from hatsuden_rules.modelcheck.information import (
    INFORMATION_CONFIGS,
    consistency_problems,
    explore,
    non_interference,
    sampling,
)


@cache
def explored_place_at_once() -> tuple[tuple[GameState, ...], frozenset[GameState]]:
    verdict, states = explore(INFORMATION_CONFIGS["small-place-at-once"])
    assert verdict == "OK"
    return tuple(states), frozenset(states)


@cache
def tech_states() -> tuple[GameState, ...]:
    """The states where a player holds a tech card: what the opponent must guess (R30)."""
    states, _ = explored_place_at_once()
    return tuple(s for s in states if s.tech_hand(0) or s.tech_hand(1))


def test_r40_the_configuration_places_at_once() -> None:
    assert INFORMATION_CONFIGS["small-place-at-once"].tech_timing is TechTiming.PLACE_AT_ONCE
    states, _ = explored_place_at_once()
    held = [s for s in states if s.tech_hand(0) & {Tech.ACCUMULATOR}]
    assert held, "the Accumulator is drawn"
    assert all(consistency_problems(s) == [] for s in held)  # R40: only right after its draw
    assert any(s.tech_hand(1) == {Tech.DOWN} for s in states), "Down is kept"


def test_r38_r40_every_sample_is_a_reachable_state() -> None:
    _, reachable = explored_place_at_once()
    result = sampling(tech_states(), seeds=(0, 1), reachable=reachable)
    assert result.problems == ()
    assert result.samples > 1000
    assert result.unreachable == 0  # R40: no sample holds an Accumulator it would have placed


def test_r30_r40_changing_a_hidden_tech_card_changes_no_observation() -> None:
    _, reachable = explored_place_at_once()
    result = non_interference(tech_states(), reachable=reachable)
    assert result.problems == ()
    assert result.checked.get("tech", 0) > 0
    # Exchanges that would leave an Accumulator held after its draw are impossible: skipped.
    assert result.skipped.get("tech", 0) > 0


def test_r40_consistency_rejects_an_accumulator_kept_past_its_draw() -> None:
    states, _ = explored_place_at_once()
    kept = next(s for s in states if s.tech_hand(1) == {Tech.DOWN} and s.current_player == 0)
    broken = attrs.evolve(kept, tech_hands=(frozenset(), frozenset({Tech.ACCUMULATOR})))
    deck = tuple(t for t in (Tech.ACCUMULATOR, Tech.DOWN) if t not in broken.tech_hand(1))
    broken = attrs.evolve(broken, tech_deck=deck)
    assert any(p.startswith("R40") for p in consistency_problems(broken))
