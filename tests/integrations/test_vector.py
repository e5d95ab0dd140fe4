"""VectorEnv: Gymnasium-style batches, seeds, automatic reset, illegal actions, the cores."""

from __future__ import annotations

import itertools
import sys
from typing import Any

import numpy as np
import pytest

from hatsuden_rules import (
    STANDARD,
    InvalidInputError,
    Overflow,
    Rules,
    TechTiming,
    observation_feature_names,
)
from hatsuden_rules import native as native_core
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.observation._features import FeatureKind
from hatsuden_rules.pettingzoo import env
from hatsuden_rules.vector import VectorEnv

TINY = Rules(energies=2, max_value=2, hand_size=2, techs=())
KINDS: list[tuple[FeatureKind, bool]] = [
    ("observation", False),
    ("observation", True),
    ("information_state", False),
    ("information_state", True),
]


def _random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    mask = info["action_mask"]
    actions: np.ndarray[Any, Any] = (rng.random(mask.shape) * mask).argmax(axis=1)
    return actions


def _run(envs: VectorEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    trace: list[tuple[Any, ...]] = [(obs, info["action_mask"], info["current_player"])]
    for _ in range(steps):
        obs, rewards, terminations, truncations, info = envs.step(_random_actions(info, rng))
        trace.append(
            (
                obs,
                rewards,
                terminations,
                truncations,
                info["action_mask"],
                info["current_player"],
                info["final_obs"],
            )
        )
    return trace


@pytest.mark.parametrize(("kind", "normalize"), KINDS)
def test_shapes_types_and_bounds(kind: str, normalize: bool) -> None:
    envs = VectorEnv(TINY, num_envs=5, seed=0, observation=kind, normalize=normalize)  # type: ignore[arg-type]
    names = observation_feature_names(TINY, kind, normalize=normalize)  # type: ignore[arg-type]
    assert envs.feature_names == names
    assert envs.metadata["autoreset_mode"] == "SameStep"
    rng = np.random.default_rng(1)
    obs, info = envs.reset()
    assert obs.shape == (5, len(names))
    assert obs.dtype == np.float32
    assert info["action_mask"].dtype == bool
    assert info["action_mask"].shape == (5, envs.num_actions)
    ended = 0
    for _ in range(300):
        assert (obs >= envs.low).all()
        assert (obs <= envs.high).all()
        assert info["action_mask"].any(axis=1).all()
        assert set(info["current_player"].tolist()) <= {0, 1}
        obs, rewards, terminations, truncations, info = envs.step(_random_actions(info, rng))
        assert rewards.shape == (5, 2)
        assert rewards.dtype == np.float32
        assert not truncations.any()
        assert (rewards.sum(axis=1) == 0).all()
        assert (np.abs(rewards).sum(axis=1)[terminations] == 2).all()
        assert (rewards[~terminations] == 0).all()
        assert (info["_final_obs"] == terminations).all()
        final = info["final_obs"][terminations]
        assert (info["final_obs"][~terminations] == 0).all()
        assert not np.shares_memory(obs, info["final_obs"])  # two halves of one block
        assert (final >= envs.low).all()
        assert (final <= envs.high).all()
        ended += int(terminations.sum())
    assert ended > 0
    if normalize:
        assert envs.low.min() >= 0
        assert envs.high.max() <= 1


def test_same_seed_same_trajectories() -> None:
    for kind, normalize in KINDS:
        a = _run(VectorEnv(TINY, num_envs=4, observation=kind, normalize=normalize), 200, 7)
        b = _run(VectorEnv(TINY, num_envs=4, observation=kind, normalize=normalize), 200, 7)
        for x, y in zip(a, b, strict=True):
            for u, v in zip(x, y, strict=True):
                assert np.array_equal(u, v)


def test_rows_are_the_pettingzoo_games() -> None:
    """Environment i after reset(seed=S) plays the games of the PettingZoo env reset with S + i."""
    for kind in ("observation", "information_state"):
        envs = VectorEnv(TINY, num_envs=3, observation=kind)
        games = [env(TINY, observation=kind) for _ in range(3)]
        for i, game in enumerate(games):
            game.reset(seed=40 + i)
        obs, info = envs.reset(seed=40)
        rng = np.random.default_rng(0)
        games_done = 0
        for _ in range(150):
            for i, game in enumerate(games):
                agent = game.agent_selection
                seen = game.observe(agent)
                assert int(agent[-1]) == info["current_player"][i]
                assert np.array_equal(seen["observation"], obs[i])
                assert np.array_equal(seen["action_mask"].astype(bool), info["action_mask"][i])
            actions = _random_actions(info, rng)
            obs, rewards, terminations, _, info = envs.step(actions)
            for i, game in enumerate(games):
                game.step(int(actions[i]))
                if terminations[i]:
                    rewards_pz = game.unwrapped.final_rewards()
                    assert rewards[i].tolist() == [rewards_pz["player_0"], rewards_pz["player_1"]]
                    games_done += 1
                    game.reset()  # the next seed of the env's generator, as VectorEnv does
        assert games_done > 0


def test_illegal_action_raises_before_any_env_moves() -> None:
    envs = VectorEnv(TINY, num_envs=3, seed=5)
    obs, info = envs.reset()
    actions = info["action_mask"].argmax(axis=1)
    illegal = int(np.flatnonzero(~info["action_mask"][2])[0])
    bad = actions.copy()
    bad[2] = illegal
    with pytest.raises(InvalidInputError) as caught:
        envs.step(bad)
    message = str(caught.value)
    assert "environment 2" in message
    assert f"action {illegal}" in message
    assert "\n" not in message
    out = actions.copy()
    out[1] = envs.num_actions + 3
    with pytest.raises(
        InvalidInputError, match=f"environment 1: action {envs.num_actions + 3} is out of range"
    ):
        envs.step(out)
    with pytest.raises(InvalidInputError, match="environment 0: action -1"):
        envs.step(np.array([-1, *actions[1:]]))
    with pytest.raises(InvalidInputError, match="must be 3 integer action ids"):
        envs.step(actions[:2])
    # Nothing moved: the same step now gives what a fresh env gives.
    fresh = VectorEnv(TINY, num_envs=3, seed=5)
    fresh_obs, _ = fresh.reset()
    assert np.array_equal(obs, fresh_obs)
    assert np.array_equal(envs.step(actions)[0], fresh.step(actions)[0])


def test_illegal_lose_ends_the_offenders_game() -> None:
    envs = VectorEnv(TINY, num_envs=2, seed=9, illegal="lose")
    _, info = envs.reset()
    actions = info["action_mask"].argmax(axis=1)
    offender = int(info["current_player"][1])
    actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    _, rewards, terminations, _, info = envs.step(actions)
    assert terminations.tolist() == [False, True]
    assert rewards[1, offender] == -1
    assert rewards[1, 1 - offender] == 0
    assert rewards[0].tolist() == [0, 0]
    assert info["final_player"][1] == offender


def test_bad_options_raise_one_line() -> None:
    for kwargs in (
        {"num_envs": 0},
        {"observation": "state"},
        {"normalize": "yes"},
        {"core": "rust"},
        {"illegal": "ignore"},
        {"seed": 1.5},
        {"rules": "STANDARD"},
    ):
        with pytest.raises(InvalidInputError) as caught:
            VectorEnv(**kwargs)
        assert "\n" not in str(caught.value)
    with pytest.raises(InvalidInputError, match="call reset"):
        VectorEnv(TINY).step(np.zeros(1, dtype=int))


def test_native_core_names_the_extra_when_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    # As if the extra were not installed (in dev it is). The loader remembers only a success, so
    # once its cache is cleared the failure is not kept past this test.
    monkeypatch.setitem(sys.modules, "hatsuden_native", None)
    native_core.load.cache_clear()
    assert not native_core.is_available()
    with pytest.raises(InvalidInputError, match=r"pip install 'hatsuden-rules\[native\]'"):
        VectorEnv(TINY, core="native")
    with pytest.raises(InvalidInputError, match=r"pip install 'hatsuden-rules\[native\]'"):
        env(TINY, core="native")


def test_standard_runs() -> None:
    envs = VectorEnv(STANDARD, num_envs=2, seed=0, observation="information_state", normalize=True)
    trace = _run(envs, 50, 3)
    assert trace[-1][0].shape == (
        2,
        len(observation_feature_names(STANDARD, "information_state", normalize=True)),
    )


def test_small_config_plays_to_the_end() -> None:
    envs = VectorEnv(CONFIGS["small"], num_envs=8, seed=0)
    trace = _run(envs, 200, 1)
    assert sum(int(step[2].sum()) for step in trace[1:]) > 8


def _need_native() -> None:
    if not native_core.is_available():
        pytest.skip("the native core is not installed (pip install 'hatsuden-rules[native]')")


# Rule sets for the cross-core tests: the smallest (games that end before player 1 acts), the
# reduced ones, every tech card with R40 placement and R41 overflow and no stall rule, STANDARD.
CROSS_RULES = {
    "tiny": TINY,
    "smallest": Rules(  # frameworks.md's SMALLEST: games that end before player 1 acts
        energies=1, max_value=3, copies=1, hand_size=1, city_demand=2, techs=(), stall_limit=1
    ),
    "small": CONFIGS["small"],
    "variants": Rules(
        energies=2,
        max_value=2,
        hand_size=2,
        techs=STANDARD.techs,
        stall_limit=None,
        tech_timing=TechTiming.PLACE_AT_ONCE,
        overflow=Overflow.ANY_SET,
    ),
    "standard": STANDARD,
}


@pytest.mark.parametrize("name", sorted(CROSS_RULES))
def test_cores_give_identical_trajectories(name: str) -> None:
    """Same seed and actions: identical observations, rewards, masks, players, terminations
    and final observations on both cores, for both kinds, raw and normalised (R8, R33, R39),
    through automatic resets."""
    _need_native()
    rules = CROSS_RULES[name]
    steps = 60 if name == "standard" else 300
    for kind, normalize in KINDS:
        runs = [
            _run(
                VectorEnv(rules, num_envs=16, observation=kind, normalize=normalize, core=core),
                steps,
                5,
            )
            for core in ("python", "native")
        ]
        for x, y in zip(*runs, strict=True):
            for u, v in zip(x, y, strict=True):
                assert u.dtype == v.dtype
                assert np.array_equal(u, v)
        if name != "standard":  # automatic resets happened (R26)
            assert sum(int(step[2].sum()) for step in runs[0][1:]) > 0


def test_cross_core_games_include_early_ends() -> None:
    """Games where player 1 never acts (the smallest configuration) are in the cross-core runs,
    and both cores end them at the same step."""
    _need_native()
    rules = CROSS_RULES["smallest"]
    traces = [
        _run(VectorEnv(rules, num_envs=32, core=core), 200, 3) for core in ("python", "native")
    ]
    trace = traces[0]
    acted = np.zeros(32, dtype=bool)
    early = 0
    for before, after in itertools.pairwise(trace):
        players = before[-1] if len(before) == 3 else before[5]
        acted |= players == 1
        ended = after[2]
        early += int((ended & ~acted).sum())
        acted[ended] = False
    assert early > 0
    for x, y in zip(*traces, strict=True):
        for u, v in zip(x, y, strict=True):
            assert np.array_equal(u, v)


@pytest.mark.parametrize("core", ["python", "native"])
def test_illegal_actions_on_each_core(core: str) -> None:
    """R35: an illegal or out-of-range action raises naming the environment and the action
    before any environment moved; with illegal="lose" that game ends with -1 for the offender."""
    if core == "native":
        _need_native()
    envs = VectorEnv(TINY, num_envs=3, seed=2, core=core)  # type: ignore[arg-type]
    _, info = envs.reset()
    good = info["action_mask"].argmax(axis=1)
    bad = good.copy()
    bad[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    with pytest.raises(InvalidInputError, match=rf"environment 2: action {bad[2]} is illegal"):
        envs.step(bad)
    bad[2] = 10_000
    with pytest.raises(InvalidInputError, match="environment 2: action 10000 is out of range"):
        envs.step(bad)
    moved = envs.step(good)  # nothing moved: the same step as a fresh batch's
    fresh = VectorEnv(TINY, num_envs=3, seed=2, core=core)  # type: ignore[arg-type]
    fresh.reset()
    expected = fresh.step(good)
    assert np.array_equal(moved[0], expected[0])
    assert np.array_equal(moved[4]["action_mask"], expected[4]["action_mask"])
    losing = VectorEnv(TINY, num_envs=3, seed=2, core=core, illegal="lose")  # type: ignore[arg-type]
    _, info = losing.reset()
    players = info["current_player"].copy()
    bad = info["action_mask"].argmax(axis=1)
    bad[1] = 10_000
    _, rewards, terminations, _, _ = losing.step(bad)
    assert terminations.tolist() == [False, True, False]
    assert rewards[1, players[1]] == -1.0
    assert rewards[1, 1 - players[1]] == 0.0


def test_gymnasium_spaces() -> None:
    envs = VectorEnv(TINY, num_envs=3, seed=0, normalize=True)
    obs, info = envs.reset()
    assert envs.observation_space.contains(obs)
    assert all(envs.single_observation_space.contains(row) for row in obs)
    actions = info["action_mask"].argmax(axis=1)
    assert envs.action_space.contains(actions)
    assert envs.single_action_space.n == envs.num_actions
