"""The OpenSpiel game's options: players, normalize, core; public and private observations."""

from __future__ import annotations

import random
import subprocess
import sys

import attrs
import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import hatsuden_rules.openspiel as hos
from hatsuden_rules import (
    STANDARD,
    GameState,
    InvalidInputError,
    Rules,
    SplitMix64,
    observation_feature_names,
    observe,
    sample_state,
)
from hatsuden_rules import native as native_core
from hatsuden_rules.cli import main

SMALLEST = (
    "python_hatsuden(energies=1,max_value=3,copies=1,hand_size=1,city_demand=2,techs=none,"
    "stall_limit=1)"
)
TINY = "python_hatsuden(energies=2,max_value=2,hand_size=2,techs=none)"
PUBLIC = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)
PRIVATE = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
)


def test_players_two_is_accepted_and_others_refused() -> None:
    game = pyspiel.load_game("python_hatsuden", {"players": 2})
    assert game.num_players() == 2
    for players in (1, 3):
        with pytest.raises(InvalidInputError) as caught:
            pyspiel.load_game("python_hatsuden", {"players": players})
        assert "players must be 2" in str(caught.value)
        assert "\n" not in str(caught.value)


def test_core_parameter() -> None:
    assert pyspiel.load_game("python_hatsuden", {"core": "python"}).options.core == "python"
    with pytest.raises(InvalidInputError, match="must be 'python' or 'native'"):
        pyspiel.load_game("python_hatsuden", {"core": "rust"})
    if not native_core.is_available():
        with pytest.raises(InvalidInputError, match=r"pip install 'hatsuden-rules\[native\]'"):
            pyspiel.load_game("python_hatsuden", {"core": "native"})


@pytest.mark.parametrize("string", [TINY, "python_hatsuden"])
def test_normalize_gives_named_unit_features(string: str) -> None:
    game = pyspiel.load_game(
        string.replace(")", ",normalize=True)")
        if "(" in string
        else "python_hatsuden(normalize=True)"
    )
    rules = game.rules
    assert game.observation_tensor_size() == len(
        observation_feature_names(rules, "observation", normalize=True)
    )
    assert game.information_state_tensor_size() == len(
        observation_feature_names(rules, "information_state", normalize=True)
    )
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    rnd = random.Random(0)
    while not state.is_terminal():
        for player in (0, 1):
            for tensor in (
                state.observation_tensor(player),
                state.information_state_tensor(player),
            ):
                assert min(tensor) >= 0.0
                assert max(tensor) <= 1.0
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rnd.choices(outcomes, probs)[0])
        else:
            state.apply_action(rnd.choice(state.legal_actions()))


def test_public_and_private_observations_are_tensors() -> None:
    game = pyspiel.load_game(TINY)
    rules = game.rules
    public = make_observation(game, PUBLIC)
    private = make_observation(game, PRIVATE)
    assert public.tensor is not None
    assert private.tensor is not None
    assert "boards" in public.dict
    assert "hand" in private.dict
    state = game.new_initial_state()
    rnd = random.Random(1)
    steps = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            gs = state.game_state
            tensors = []
            for player in (0, 1):
                public.set_from(state, player)
                tensors.append(public.tensor.copy())
            assert np.array_equal(tensors[0], tensors[1])  # public: the same for both players
            for player in (0, 1):
                # A state the player cannot tell apart has the same public and private halves;
                # a state the *other* player cannot tell apart has the same public half.
                other = hos.load_game(rules).state_from(
                    _explicit(sample_state(observe(gs, player), SplitMix64.from_seed(steps)))
                )
                public.set_from(other, 0)
                assert np.array_equal(public.tensor, tensors[0])
                private.set_from(state, player)
                mine = private.tensor.copy()
                private.set_from(other, player)
                assert np.array_equal(private.tensor, mine)
            steps += 1
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rnd.choices(outcomes, probs)[0])
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    assert steps > 5


def test_public_and_private_halves_carry_hidden_information_only_where_due() -> None:
    game = pyspiel.load_game(TINY)
    private = make_observation(game, PRIVATE)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    private.set_from(state, 0)
    hand = private.dict["hand"]
    assert hand.sum() == game.rules.hand_size


def test_other_observation_kinds_are_refused() -> None:
    game = pyspiel.load_game(TINY)
    kind = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(InvalidInputError, match="no observation with perfect_recall=True"):
        game.make_py_observer(kind)


def _explicit(state: GameState) -> GameState:
    return attrs.evolve(state, rng=None) if state.is_seeded else state


def test_cli_runs_an_openspiel_example(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["openspiel", "open_spiel.python.examples.example", f"--game_string={SMALLEST}"])
    assert code == 0
    assert "Utility for player 0 is" in capsys.readouterr().out


def test_cli_merges_a_game_string_with_the_scripts_parameters() -> None:
    """cfr_example calls load_game(FLAGS.game, {"players": 2}): the string's parameters stay."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "hatsuden_rules",
            "openspiel",
            "open_spiel.python.examples.cfr_example",
            f"--game={SMALLEST}",
            "--iterations=2",
            "--print_freq=1",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Iteration 1 exploitability" in result.stdout


def test_cli_usage_errors() -> None:
    assert main(["openspiel"]) == 2
    assert main(["openspiel", "no_such_module_here"]) == 2


def test_standard_is_unchanged_by_default() -> None:
    game = pyspiel.load_game("python_hatsuden")
    assert game.observation_tensor_size() == 323
    assert game.information_state_tensor_size() == 1213
    assert game.rules == STANDARD
    assert hos.load_game(Rules(energies=2, techs=())).rules == Rules(energies=2, techs=())
