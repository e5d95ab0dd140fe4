"""The state's updaters (`updater`) and the identity contract the model checker relies on."""

from __future__ import annotations

import random

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    GameState,
    Pass,
    Phase,
    Rules,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
)
from hatsuden_rules.core.encoding import fields
from hatsuden_rules.core.state import from_zones, updater

NAMES = [field.alias for field in attrs.fields(GameState)]
RECOMPUTED = {"known", "this_turn", "last_turn"}


def _transitions(games: int) -> list[tuple[GameState, GameState]]:
    small = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=3)
    out = []
    for seed in range(games):
        choose = random.Random(seed).randrange
        state = new_game(None if seed % 3 == 0 else seed, STANDARD if seed % 2 else small)
        while not state.is_over:
            if state.phase is Phase.CHANCE:
                outcomes = chance_outcomes(state)
                move = outcomes[choose(len(outcomes))][0]
            else:
                moves = legal_moves(state)
                move = moves[choose(len(moves))]
            after = apply(state, move)
            out.append((state, after))
            state = after
    return out


def test_an_updater_keeps_every_other_field_as_the_same_object() -> None:
    state = apply(new_game(seed=3), legal_moves(new_game(seed=3))[0])
    update = updater("phase", "stall", cleared=("played",))
    after = update(state, phase=Phase.DRAW, stall=2)
    assert after == attrs.evolve(state, phase=Phase.DRAW, stall=2, played=None)
    assert hash(after) == hash(attrs.evolve(state, phase=Phase.DRAW, stall=2, played=None))
    assert type(after) is GameState
    for name, old, new in zip(NAMES, fields(state), fields(after), strict=True):
        if name not in {"phase", "stall", "played"}:
            assert new is old, name


def test_an_updater_sets_its_fixed_fields_to_the_very_constant() -> None:
    """`fixed` (as `cleared`) keeps a constant out of every call; R9: the phase of the result."""
    state = apply(new_game(seed=3), legal_moves(new_game(seed=3))[0])
    log = (Pass(),)
    update = updater("stall", cleared=("played",), fixed={"phase": Phase.DRAW, "this_turn": log})
    after = update(state, stall=2)
    expected = attrs.evolve(state, phase=Phase.DRAW, stall=2, played=None, this_turn=log)
    assert after == expected
    assert hash(after) == hash(expected)
    assert after.this_turn is log
    for name, old, new in zip(NAMES, fields(state), fields(after), strict=True):
        if name not in {"phase", "stall", "played", "this_turn"}:
            assert new is old, name
    with pytest.raises(TypeError):
        update(state, stall=2, phase=Phase.ACTION)
    with pytest.raises(TypeError):
        updater("phase", fixed={"phase": Phase.DRAW})
    with pytest.raises(TypeError):
        updater("stall", fixed={"no_such_field": 1})


def test_an_updater_takes_its_fields_by_keyword_only() -> None:
    update = updater("phase")
    state = new_game(seed=1)
    with pytest.raises(TypeError):
        update(state, Phase.DRAW)  # type: ignore[arg-type, call-arg]
    with pytest.raises(TypeError):
        update(state, phase=Phase.DRAW, stall=1)
    with pytest.raises(TypeError):
        updater("phase", "no_such_field")
    with pytest.raises(TypeError):
        updater("phase", cleared=("phase",))


def test_apply_passes_every_unchanged_field_on_as_the_same_object() -> None:
    """The identity contract: equal means identical, but for the recomputed fields."""
    for before, after in _transitions(40):
        for name, old, new in zip(NAMES, fields(before), fields(after), strict=True):
            if name not in RECOMPUTED and old == new and not isinstance(old, int | None):
                assert new is old, name


def test_a_state_rebuilt_from_its_zones_is_equal() -> None:
    for _, state in _transitions(5):
        f = dict(zip(NAMES, fields(state), strict=True))
        cards = (f["hands"], f["deck"], f["discards"], f["known"])
        turn = tuple(f[name] for name in NAMES if name not in {*cards_names(), "rules", "boards"})
        rebuilt = from_zones(state.rules, cards, f["boards"], turn)
        assert rebuilt == state
        assert hash(rebuilt) == hash(state)


def cards_names() -> tuple[str, ...]:
    return ("hands", "deck", "discards", "known")
