"""The state's updaters (`updater`) and the identity contract the model checker relies on."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    Chance,
    GameState,
    Pass,
    Phase,
    Rules,
    Tech,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
)
from hatsuden_rules.core.encoding import fields
from hatsuden_rules.core.state import builder, from_zones, updater

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


def test_a_builder_makes_a_state_of_its_fields_and_constants() -> None:
    """R5-R8: the state before the deal, built from its variable fields; the rest constant."""
    state = new_game(seed=None, rules=STANDARD)
    values: dict[str, Any] = {str(k): v for k, v in zip(NAMES, fields(state), strict=True)}
    constant = {name: values.pop(name) for name in ("current_player", "stall", "this_turn")}
    cleared = tuple(name for name in list(values) if values[name] is None)
    for name in cleared:
        del values[name]
    build = builder(*values, cleared=cleared, fixed=constant)
    built = build(**values)
    assert built == state
    assert hash(built) == hash(state)
    assert type(built) is GameState
    assert built._this_turn is constant["this_turn"]
    for field, old, new in zip(NAMES, fields(state), fields(built), strict=True):
        assert new is old, field
    with pytest.raises(TypeError):
        builder(*values)  # the constants are named nowhere
    with pytest.raises(TypeError):
        build(**values, stall=1)  # a fixed field cannot be given


def test_new_game_builds_the_state_before_the_deal_or_after_it() -> None:
    """R5-R8: every field of a new game, seeded (dealt at once) and in explicit chance mode."""
    rules = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=3)
    for seed in (None, 0, 5):
        state = new_game(seed=seed, rules=rules)
        values: dict[str, Any] = {str(k): v for k, v in zip(NAMES, fields(state), strict=True)}
        dealt = seed is not None
        assert values["phase"] is (Phase.ACTION if dealt else Phase.CHANCE)
        assert len(values["hands"][0]) == len(values["hands"][1]) == (2 if dealt else 0)
        assert len(values["deck"]) == 8 - (4 if dealt else 0)
        assert values["chance"] is (None if dealt else Chance.SETUP)
        assert (values["rng"] is not None) is dealt
        assert values["boards"] == (((),) * 4, ((),) * 4)
        assert values["tech_deck"] == tuple(sorted(rules.techs, key=list(Tech).index))
        assert values["tech_hands"] == (frozenset(), frozenset())
        assert values["known"] == ((), ())
        assert values["current_player"] == values["stall"] == 0
        assert values["discards"] == values["this_turn"] == values["last_turn"] == ()
        for name in ("accumulator", "smart", "played", "discarded", "end_trigger", "end_reason"):
            assert values[name] is None, name


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
