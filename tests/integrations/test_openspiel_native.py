"""The OpenSpiel game on the native core (``core=native``): the same game as the Python core.

Same chance outcomes and actions give the same players, legal actions, chance outcomes with
their probabilities (R6), returns (R29), information-state and observation strings and tensors
(R39, raw and normalised), public and private observations and renderings on both cores; and
OpenSpiel's own `random_sim_test` (with serialisation) passes on the native core.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import hatsuden_rules.openspiel as hos
from hatsuden_rules import STANDARD, InvalidInputError, Overflow, Rules, TechTiming
from hatsuden_rules import native as native_core
from hatsuden_rules.modelcheck import CONFIGS

if not native_core.is_available():  # pragma: no cover - the lead's `make test` installs it
    pytest.skip("the native core is not installed", allow_module_level=True)

RULES = {
    "smallest": Rules(
        energies=1, max_value=3, copies=1, hand_size=1, city_demand=2, techs=(), stall_limit=1
    ),
    "small": CONFIGS["small"],
    "variants": Rules(
        energies=2,
        max_value=2,
        hand_size=2,
        techs=STANDARD.techs,
        stall_limit=3,  # OpenSpiel needs a bound on the game's length (R25)
        tech_timing=TechTiming.PLACE_AT_ONCE,
        overflow=Overflow.ANY_SET,
    ),
    "standard": STANDARD,
}
IIG = pyspiel.IIGObservationType


def _load(rules: Rules, core: str, normalize: bool) -> pyspiel.Game:
    params = {**hos.parameters_from_rules(rules), "core": core, "normalize": normalize}
    return pyspiel.load_game("python_hatsuden", params)


def _observers(game: pyspiel.Game) -> list[object]:
    kinds = [
        None,
        IIG(
            perfect_recall=True,
            public_info=True,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
        IIG(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
        IIG(
            perfect_recall=False,
            public_info=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
    ]
    return [make_observation(game, kind) for kind in kinds]


def _same(a: pyspiel.State, b: pyspiel.State, observers: list[list[object]]) -> None:
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.returns() == b.returns()
    assert str(a) == str(b)
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    elif not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
    for player in (0, 1):
        assert a.information_state_string(player) == b.information_state_string(player)
        assert a.observation_string(player) == b.observation_string(player)
        if not a.is_chance_node():
            assert a.information_state_tensor(player) == b.information_state_tensor(player)
            assert a.observation_tensor(player) == b.observation_tensor(player)
        for one, two in zip(*observers, strict=True):
            one.set_from(a, player)
            two.set_from(b, player)
            assert np.array_equal(one.tensor, two.tensor)
            assert one.string_from(a, player) == two.string_from(b, player)


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("name", sorted(RULES))
def test_cores_give_the_same_trajectories(name: str, normalize: bool) -> None:
    rules = RULES[name]
    games = [_load(rules, core, normalize) for core in ("python", "native")]
    observers = [_observers(game) for game in games]
    rng = random.Random(7)
    for _ in range(2 if name == "standard" else 6):
        a, b = (game.new_initial_state() for game in games)
        while True:
            _same(a, b, observers)
            if a.is_terminal():
                break
            if a.is_chance_node():
                outcomes, probs = zip(*a.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        # Cloning and resampling run on the native core too (R38).
        c = b.clone()
        assert c.history() == b.history()


@pytest.mark.parametrize("name", ["smallest", "small", "variants"])
def test_random_sim_test_on_the_native_core(name: str) -> None:
    pyspiel.random_sim_test(
        _load(RULES[name], "native", False), num_sims=10, serialize=True, verbose=False
    )


def test_native_states_pickle_and_resample() -> None:
    game = _load(CONFIGS["small"], "native", False)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)
    sample = state.resample_from_infostate(0, rng.random)
    assert sample.information_state_string(0) == state.information_state_string(0)
    assert sample.legal_actions() == state.legal_actions()


def test_illegal_actions_raise_the_library_error_on_the_native_core() -> None:
    """R35: an illegal action raises `IllegalMoveError` naming the rule, as on the Python core."""
    from hatsuden_rules import IllegalMoveError

    errors = []
    for core in ("python", "native"):
        state = _load(CONFIGS["small"], core, False).new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        illegal = next(
            a for a in range(state.num_distinct_actions()) if a not in state.legal_actions()
        )
        with pytest.raises(IllegalMoveError) as caught:
            state.apply_action(illegal)
        errors.append(caught.value.rule)
    assert errors[0] == errors[1]


def test_core_native_loads() -> None:
    game = pyspiel.load_game("python_hatsuden", {"core": "native"})
    assert game.options.core == "native"
    with pytest.raises(InvalidInputError, match="must be 'python' or 'native'"):
        pyspiel.load_game("python_hatsuden", {"core": "rust"})
