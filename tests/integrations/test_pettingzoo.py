"""The PettingZoo environment: PettingZoo's own api_test and seed_test, and our checks."""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import BaseWrapper

from hatsuden_rules import (
    STANDARD,
    FlipSet,
    InvalidInputError,
    Overflow,
    Rules,
    Tech,
    TechTiming,
    action_to_move,
    apply,
    legal_moves,
    move_to_action,
    new_game,
    observation_tensor,
    observation_tensor_layout,
    observe,
    render_observation,
)
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.pettingzoo import env, observation_bounds, raw_env

SEEDS = range(100)
CONFIGURATIONS = {"standard": STANDARD, "small": CONFIGS["small"]}


class _SeedOffset(BaseWrapper):  # type: ignore[misc]
    """Adds `offset` to every seed given to `reset`, so PettingZoo's tests, which always use the
    same seeds (0 and 42), run on other games. Nothing else changes."""

    def __init__(self, env: AECEnv, offset: int) -> None:
        super().__init__(env)
        self._offset = offset

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=None if seed is None else seed + self._offset, options=options)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo warns that a Dict observation space is not a Box (as for its own classic
    # games, whose observations are dicts with an action mask too).
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_pettingzoo_api_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = CONFIGURATIONS[name]
    for offset in SEEDS:
        api_test(_SeedOffset(env(rules), offset * 1000), num_cycles=10_000)
    assert capsys.readouterr().out.count("Passed API test") == len(SEEDS)


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_pettingzoo_seed_test(name: str) -> None:
    rules = CONFIGURATIONS[name]
    for offset in SEEDS:
        seed_test(lambda k=offset: _SeedOffset(env(rules), k * 1000), num_cycles=10_000)


# R40, R41: both rule variants on, in a game where overflows are frequent (three columns, demand 3).
VARIANTS = Rules(
    energies=3,
    max_value=3,
    copies=2,
    hand_size=3,
    city_demand=3,
    tech_timing=TechTiming.PLACE_AT_ONCE,
    overflow=Overflow.ANY_SET,
)


def test_pettingzoo_suites_on_the_rule_variants(capsys: pytest.CaptureFixture[str]) -> None:
    """The masks carry FlipSet ids and the forced placements (R40, R41) as legal_moves says."""
    for offset in range(10):
        api_test(_SeedOffset(env(VARIANTS), offset * 1000), num_cycles=10_000)
        seed_test(lambda k=offset: _SeedOffset(env(VARIANTS), k * 1000), num_cycles=10_000)
    assert capsys.readouterr().out.count("Passed API test") == 10
    # And the variants' own moves do occur through the environment.
    rng, kinds = np.random.default_rng(0), set()
    for seed in range(10):
        game = env(VARIANTS)
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            action = None
            if not (termination or truncation):
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                kinds.add(type(action_to_move(VARIANTS, action)))
            game.step(action)
    assert FlipSet in kinds


def _play(game: AECEnv, pick: Callable[[np.ndarray[Any, Any]], int]) -> list[Any]:
    """Play to the end; return (agent, observation, reward, termination) at every step."""
    trace = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        trace.append((agent, observation, reward, termination, truncation))
        game.step(None if termination or truncation else pick(observation["action_mask"]))
    return trace


def test_an_episode_is_the_seeded_library_game() -> None:
    """reset(seed=N) is new_game(seed=N) (R8); masks are the legal moves; rewards are +-1."""
    rules = CONFIGS["large"]
    for seed in range(20):
        game = env(rules)
        game.reset(seed=seed)
        state = new_game(seed=seed, rules=rules)
        steps = 0
        for agent in game.agent_iter():
            observation, reward, termination, truncation, _ = game.last()
            assert not truncation
            if termination:
                assert state.is_over
                assert reward in (-1, 1)
                game.step(None)
                continue
            seat = int(agent[-1])
            assert seat == state.current_player
            assert observation["observation"].tolist() == list(
                observation_tensor(observe(state, seat))
            )
            legal = [move_to_action(rules, m) for m in legal_moves(state)]
            assert np.flatnonzero(observation["action_mask"]).tolist() == legal
            assert observation in game.observation_space(agent)
            other = game.observe(f"player_{1 - seat}")
            assert not other["action_mask"].any()
            action = legal[(seed + steps) % len(legal)]
            game.step(action)
            state = apply(state, legal_moves(state)[legal.index(action)])
            steps += 1
        assert game.unwrapped.game_state == state


def test_reset_without_seed_continues_reproducibly() -> None:
    one, two = raw_env(CONFIGS["small"]), raw_env(CONFIGS["small"])
    one.reset(seed=5)
    two.reset(seed=5)
    assert one.game_state == two.game_state
    one.reset()
    two.reset()
    assert one.game_state == two.game_state
    assert one.game_state.rng_state != new_game(seed=5, rules=CONFIGS["small"]).rng_state


def test_observation_bounds_hold_every_value() -> None:
    """Bounds contain every tensor value, -1 (hidden, R39) included, along many games."""
    for rules in (
        STANDARD,
        CONFIGS["large"],
        Rules(energies=2, copies=3, hand_size=4, techs={Tech.SECRET_BUILD}),
    ):
        low, high = observation_bounds(rules)
        game = env(rules)
        for seed in range(30):
            game.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for _agent in game.agent_iter():
                observation, _, termination, truncation, _ = game.last()
                tensor = observation["observation"]
                assert (low <= tensor).all()
                assert (tensor <= high).all()
                mask = observation["action_mask"]
                game.step(
                    None if termination or truncation else int(rng.choice(np.flatnonzero(mask)))
                )
        # -1 only for a hidden value: the value feature of each cell of both boards (R39).
        assert (low == -1).sum() == 2 * len(rules.cells)


def test_illegal_actions_end_the_game_with_a_penalty(caplog: pytest.LogCaptureFixture) -> None:
    game = env(CONFIGS["small"])
    game.reset(seed=1)
    agent = game.agent_selection
    observation, *_ = game.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    game.step(illegal)
    assert "Illegal move made" in caplog.text
    assert game.rewards[agent] == -1
    assert all(game.terminations.values())


def test_render_is_the_acting_player_s_view() -> None:
    game = env(STANDARD, render_mode="ansi")
    game.reset(seed=3)
    state = game.unwrapped.game_state
    assert game.render() == render_observation(observe(state, state.current_player))
    game.close()
    with pytest.raises(InvalidInputError, match="render_mode"):
        raw_env(STANDARD, render_mode="human")
    with pytest.raises(InvalidInputError, match="rules"):
        raw_env("STANDARD")  # type: ignore[arg-type]


def test_the_environment_pickles() -> None:
    game = raw_env(CONFIGS["small"])
    copy = pickle.loads(pickle.dumps(game))
    assert copy.rules == CONFIGS["small"]


def test_no_stall_rule_gives_an_unbounded_stall_counter() -> None:
    """R25 off: the stall counter has no bound, so its Box bound is infinite; play still works."""
    rules = Rules(stall_limit=None)
    _, high = observation_bounds(rules)
    layout = [name for name, size in observation_tensor_layout(rules) for _ in range(size)]
    stall = layout.index("stall")
    assert high[stall] == np.inf
    assert np.isfinite(np.delete(high, stall)).all()
    game = env(rules)
    game.reset(seed=4)
    trace = _play(game, lambda mask: int(np.flatnonzero(mask)[0]))
    assert trace[-1][3]  # the game ended (a full grid), as a termination
