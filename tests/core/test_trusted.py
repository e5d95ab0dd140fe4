"""The fast construction of values (`_trusted`): `_state.new_state`, `GameState.__init__`, scores.

`apply` and `new_game` build their states with `new_state`, and ``GameState(...)`` runs a
generated ``__init__``; neither goes through attrs' frozen ``__init__``. These tests hold both to
attrs' own ``__init__`` (kept as ``GameState.__init__.__wrapped__``): on every state of random
games (in seeded and explicit chance mode, several rule sets), the value attrs builds from the
same fields is equal, hashes equally, has the same repr and pickles the same way, and both
`attrs.evolve` and pickling still work on the states the engine builds.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    GameState,
    PlayerScore,
    Rules,
    Score,
    Stack,
    Tech,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    score,
)
from hatsuden_rules.core.state import new_state
from hatsuden_rules.core.trusted import trusted_builder, trusted_constructor

RULE_SETS = [
    STANDARD,
    Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=6),
    Rules(energies=2, max_value=2, copies=1, hand_size=1, city_demand=2, stall_limit=2),
    Rules(energies=2, max_value=3, copies=2, hand_size=2, city_demand=4, techs=frozenset()),
    Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1, stall_limit=None),
]


def _random_states(rules: Rules, seed: int, games: int) -> Iterator[GameState]:
    """Every state of `games` random games: seeded, then in explicit chance mode."""
    rng = random.Random(seed)
    for game in range(games):
        state = new_game(seed=seed + game, rules=rules) if game % 2 == 0 else new_game(rules=rules)
        yield state
        while not state.is_over:
            if state.pending_chance is not None:
                outcomes = chance_outcomes(state)
                move = rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                move = rng.choice(legal_moves(state))
            state = apply(state, move)
            yield state


def _fields(state: GameState) -> dict[str, Any]:
    return {str(field.alias): getattr(state, field.name) for field in attrs.fields(GameState)}


def _by_attrs(**fields: Any) -> GameState:
    """The state attrs' own generated ``__init__`` builds from `fields`."""
    state = object.__new__(GameState)
    inspect.unwrap(GameState.__init__)(state, **fields)
    return state


def test_attrs_init_is_kept_and_differs_from_the_fast_one() -> None:
    original = inspect.unwrap(GameState.__init__)
    assert original is not GameState.__init__
    assert "attrs" in (original.__doc__ or "")
    assert inspect.signature(GameState.__init__) == inspect.signature(original)
    assert GameState.__init__.__annotations__ == original.__annotations__


@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
def test_engine_states_equal_those_of_the_public_constructor(rules: Rules) -> None:
    seen = 0
    for state in _random_states(rules, seed=len(repr(rules)), games=12):
        if seen == 600:
            break
        public = _by_attrs(**_fields(state))
        assert GameState(**_fields(state)) == public
        assert GameState(*_fields(state).values()) == public
        assert type(state) is GameState
        assert state == public
        assert public == state
        assert hash(state) == hash(public)
        assert repr(state) == repr(public)
        if seen % 20 == 0:  # both copy the rules' move tables too: slow
            assert pickle.loads(pickle.dumps(state)) == public
            assert copy.deepcopy(state) == public
        seen += 1
    assert seen >= 100


@pytest.mark.parametrize("retag", [True, False], ids=["builder", "descriptors"])
def test_both_ways_of_building_give_the_public_value(retag: bool) -> None:
    build = trusted_constructor(GameState, retag=retag)
    for state in _random_states(STANDARD, seed=3, games=4):
        fields = _fields(state)
        for made in (build(**fields), build(*fields.values())):
            assert type(made) is GameState
            assert made == state
            assert hash(made) == hash(_by_attrs(**fields))
            assert repr(made) == repr(state)
            assert attrs.asdict(made, recurse=False) == attrs.asdict(state, recurse=False)


def test_new_state_has_the_signature_of_the_public_constructor() -> None:
    state = new_game(seed=1)
    assert new_state(**_fields(state)) == state
    with pytest.raises(TypeError):
        new_state(*list(_fields(state).values())[:-1])  # a missing field is still an error


def test_engine_states_stay_frozen_and_evolve() -> None:
    state = apply(new_game(seed=9), legal_moves(new_game(seed=9))[0])
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.current_player = 1  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del state.current_player
    evolved = attrs.evolve(state, current_player=1)
    assert type(evolved) is GameState
    assert evolved.current_player == 1
    assert state.current_player == 0
    assert evolved != state
    assert attrs.evolve(evolved, current_player=0) == state


def test_the_hash_cache_starts_empty_as_with_attrs() -> None:
    state = apply(new_game(seed=4), legal_moves(new_game(seed=4))[0])
    public = _by_attrs(**_fields(state))
    assert hash(state) == hash(public)  # computed from the fields, not left over from anything
    assert hash(new_state(**_fields(state))) == hash(public)
    assert hash(GameState(**_fields(state))) == hash(public)


def test_a_subclass_is_built_by_attrs_init() -> None:
    class Labelled(GameState):
        __slots__ = ("label",)

    state = new_game(seed=2)
    sub = Labelled(**_fields(state))
    assert type(sub) is Labelled
    assert _fields(sub) == _fields(state)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        sub.label = "x"  # type: ignore[attr-defined]


def test_a_new_plain_field_is_picked_up() -> None:
    @attrs.frozen(slots=True, cache_hash=True)
    class Value:
        a: int
        b: tuple[int, ...]
        c: str = "x"
        d: int = attrs.field(default=4, kw_only=True)

    make = trusted_constructor(Value)
    assert make(1, (2,)) == Value(1, (2,))
    assert make(1, (2,), "y", d=5) == Value(1, (2,), "y", d=5)
    assert repr(make(a=1, b=())) == repr(Value(1, ()))
    assert make.__doc__ is not None


def test_a_builder_sets_its_fields_and_the_very_constants() -> None:
    @attrs.frozen(slots=True, cache_hash=True)
    class Value:
        a: int
        b: tuple[int, ...]
        c: str | None
        d: int = attrs.field(default=4, kw_only=True)

    tail = (7, 8)
    build = trusted_builder(Value, ("a", "d"), cleared=("c",), fixed={"b": tail})
    value = build(a=1, d=2)
    assert value == Value(1, tail, None, d=2)
    assert hash(value) == hash(Value(1, tail, None, d=2))
    assert type(value) is Value
    assert value.b is tail
    assert build.__doc__ is not None
    with pytest.raises(TypeError):
        build(1, 2)  # keyword only
    with pytest.raises(TypeError):
        build(a=1)  # every given field is required
    with pytest.raises(TypeError):
        build(a=1, d=2, b=())  # a fixed field cannot be given


@pytest.mark.parametrize(
    ("fields", "cleared", "fixed"),
    [
        (("a", "b"), ("c",), {}),  # d named nowhere
        (("a", "b", "d"), ("c", "a"), {}),  # a named twice
        (("a", "b", "d"), ("c",), {"b": 1}),  # b given and fixed
        (("a", "b", "c", "d", "e"), (), {}),  # no such field
    ],
    ids=["missing", "repeated", "given-and-fixed", "unknown"],
)
def test_a_builder_names_every_field_exactly_once(
    fields: tuple[str, ...], cleared: tuple[str, ...], fixed: dict[str, object]
) -> None:
    @attrs.frozen(slots=True)
    class Value:
        a: int
        b: int
        c: int | None
        d: int = attrs.field(default=4, kw_only=True)

    with pytest.raises(TypeError, match="Value"):
        trusted_builder(Value, fields, cleared, fixed)


def _validated(_: object, __: object, value: object) -> None:
    if value is None:
        raise ValueError("None")


@pytest.mark.parametrize(
    "field",
    [
        attrs.field(validator=_validated),
        attrs.field(converter=int),
        attrs.field(factory=list),
        attrs.field(init=False, default=0),
    ],
    ids=["validator", "converter", "factory", "no-init"],
)
def test_a_field_the_constructor_would_skip_fails_loudly(field: Any) -> None:
    cls = attrs.make_class("Checked", {"a": attrs.field(), "b": field}, slots=True, frozen=True)
    with pytest.raises(TypeError, match=r"Checked\.b"):
        trusted_constructor(cls)


@pytest.mark.parametrize(
    "make",
    [
        lambda: attrs.make_class("Dicted", ["a"], slots=False, frozen=True),
        lambda: type("Plain", (), {"__slots__": ("a",)}),
    ],
    ids=["not-slotted", "not-attrs"],
)
def test_a_class_that_is_not_slotted_attrs_fails_loudly(make: Callable[[], type]) -> None:
    with pytest.raises(TypeError, match="slotted attrs"):
        trusted_constructor(make())


def test_an_init_hook_fails_loudly() -> None:
    @attrs.frozen(slots=True)
    class Hooked:
        a: int

        def __attrs_post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="__attrs_post_init__"):
        trusted_constructor(Hooked)


def test_every_tech_card_state_survives_pickling() -> None:
    """A state with tech cards in hands and on the table, built by the engine (R17-R20)."""
    rules = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2)
    assert rules.techs == frozenset(Tech)
    techs_seen = False
    for state in _random_states(rules, seed=11, games=30):
        techs_seen |= bool(state.tech_hand(0) or state.tech_hand(1))
        assert pickle.loads(pickle.dumps(state)) == state
    assert techs_seen


@pytest.mark.parametrize("rules", RULE_SETS[:3], ids=range(3))
def test_score_sheets_equal_those_attrs_builds(rules: Rules) -> None:
    """`score` builds its sheets with trusted constructors: the same values (R27-R29)."""
    for k, state in enumerate(_random_states(rules, seed=5, games=6)):
        if k % 7:
            continue
        sheet = score(state)
        players = tuple(PlayerScore(**attrs.asdict(p, recurse=False)) for p in sheet.players)
        fields = attrs.asdict(sheet, recurse=False)
        rebuilt = Score(**{**fields, "players": players})
        assert type(sheet) is Score
        assert all(type(p) is PlayerScore for p in sheet.players)
        assert sheet == rebuilt
        assert hash(sheet) == hash(rebuilt)
        assert repr(sheet) == repr(rebuilt)


def test_decoded_stacks_equal_those_attrs_builds() -> None:
    """`board` and `stack` decode with a trusted constructor: the same `Stack` values (R4)."""
    rules = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2)
    stacks = 0
    for state in _random_states(rules, seed=8, games=10):
        for player in (0, 1):
            for cell, stack in zip(rules.cells, state.board(player), strict=True):
                assert state.stack(player, cell) == stack
                if stack is None:
                    continue
                rebuilt = Stack(**attrs.asdict(stack, recurse=False))
                assert type(stack) is Stack
                assert stack == rebuilt
                assert hash(stack) == hash(rebuilt)
                assert repr(stack) == repr(rebuilt)
                stacks += 1
    assert stacks > 100
