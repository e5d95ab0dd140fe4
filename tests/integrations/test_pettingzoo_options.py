"""The PettingZoo environment's options: observation kind, normalisation, core; exact bounds."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, performance_benchmark, seed_test
from pettingzoo.utils.wrappers import BaseWrapper

from hatsuden_rules import STANDARD, Rules, observation_feature_names
from hatsuden_rules import native as native_core
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.pettingzoo import env, raw_env
from hatsuden_rules.vector import VectorEnv

TINY = Rules(energies=2, max_value=2, hand_size=2, techs=())
COMBINATIONS = [
    (kind, normalize)
    for kind in ("observation", "information_state")
    for normalize in (False, True)
]
CORES = ["python", "native"]


def _need(core: str) -> None:
    if core == "native" and not native_core.is_available():
        pytest.skip("the native core is not installed (pip install 'hatsuden-rules[native]')")


class _SeedOffset(BaseWrapper):  # type: ignore[misc]
    def __init__(self, game: AECEnv, offset: int) -> None:
        super().__init__(game)
        self._offset = offset

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=None if seed is None else seed + self._offset, options=options)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(("kind", "normalize"), COMBINATIONS)
@pytest.mark.parametrize(
    "rules", [TINY, CONFIGS["small"], STANDARD], ids=["tiny", "small", "standard"]
)
def test_pettingzoo_suites_in_every_combination(
    rules: Rules, kind: str, normalize: bool, core: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _need(core)
    offsets = range(3) if rules is STANDARD else range(10)
    for offset in offsets:
        game = env(rules=rules, observation=kind, normalize=normalize, core=core)  # type: ignore[arg-type]
        api_test(_SeedOffset(game, offset * 1000), num_cycles=2000)
        seed_test(
            lambda k=offset: _SeedOffset(
                env(rules=rules, observation=kind, normalize=normalize, core=core),  # type: ignore[arg-type]
                k * 1000,
            ),
            num_cycles=2000,
        )
    assert capsys.readouterr().out.count("Passed API test") == len(offsets)
    space = env(rules=rules, observation=kind, normalize=normalize).observation_space("player_0")  # type: ignore[arg-type]
    assert space["observation"].shape == (
        len(observation_feature_names(rules, kind, normalize=normalize)),  # type: ignore[arg-type]
    )
    if normalize:
        assert space["observation"].low.min() >= 0
        assert space["observation"].high.max() <= 1


# PettingZoo's benchmark steps the environment for five seconds whatever it is given: once per
# core, the two runs between them covering both observation kinds and both normalisations (the
# API and seed tests above step every combination on every core).
@pytest.mark.parametrize(
    ("kind", "normalize", "core"),
    [("observation", False, "python"), ("information_state", True, "native")],
)
def test_performance_benchmark_runs(
    kind: str, normalize: bool, core: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _need(core)
    performance_benchmark(env(rules=TINY, observation=kind, normalize=normalize, core=core))  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert "Finished performance benchmark" in out
    turns = float(out.split(" turns per second")[0].split()[-1])
    assert turns > 0


def test_raw_env_takes_the_options() -> None:
    game = raw_env(rules=TINY, observation="information_state", normalize=True)
    game.reset(seed=3)
    observation = game.observe("player_0")["observation"]
    assert observation.dtype == np.float32
    assert len(observation) == len(
        observation_feature_names(TINY, "information_state", normalize=True)
    )


# Entries whose bounds are claimed attained (the test finds both ends in sampled play). The
# others are bounds from the rules that random play reaches rarely or never in a short sample:
# flipped stacks, stack heights, top cards, known and discarded copies beyond 1, the opponent's
# tech hand size above 2, the end trigger.
_EXACT_PREFIXES = (
    "phase=action",
    "phase=tech",
    "phase=draw",
    "phase=game_over",
    "to_move",
    "seat",
    "hand[",
    "tech_hand[",
    "opponent_hand_size",
    "deck_size",
    "tech_deck_size",
    "unseen[",
    "accumulator.",
    "smart[",
    "played_cell[",
    "turn_discard[",
    "end_reason=final_turn",
)
_EXACT_SUFFIXES = (".occupied", ".face_down", ".secret", ".downsized", ".value")


def test_sampled_observations_are_within_bounds_and_reach_them() -> None:
    envs = VectorEnv(STANDARD, num_envs=16, seed=0)
    obs, info = envs.reset()
    rng = np.random.default_rng(0)
    low, high = obs.min(axis=0), obs.max(axis=0)
    for _ in range(1500):
        mask = info["action_mask"]
        obs, _, terminations, _, info = envs.step((rng.random(mask.shape) * mask).argmax(axis=1))
        rows = np.vstack((obs, info["final_obs"][terminations]))
        low, high = np.minimum(low, rows.min(axis=0)), np.maximum(high, rows.max(axis=0))
    space = env(STANDARD).observation_space("player_0")["observation"]
    assert (space.low == envs.low).all()
    assert (space.high == envs.high).all()
    assert (low >= envs.low).all()
    assert (high <= envs.high).all()
    groups: dict[str, list[tuple[float, float, float, float]]] = {}
    for name, lo, hi, lo_bound, hi_bound in zip(
        envs.feature_names, low, high, envs.low, envs.high, strict=True
    ):
        if name.endswith(_EXACT_SUFFIXES):  # a stack's entry: reached on some cell
            key = re.sub(r"\[[^\]]*\]", "[*]", name)
        elif name.startswith(_EXACT_PREFIXES):
            key = name
        else:
            continue
        groups.setdefault(key, []).append((lo, hi, lo_bound, hi_bound))
    for key, entries in groups.items():
        reached = (min(r[0] for r in entries), max(r[1] for r in entries))
        bounds = (min(r[2] for r in entries), max(r[3] for r in entries))
        if key in ("opponent_hand_size", "deck_size", "tech_deck_size"):  # low: emptied decks
            assert reached[1] == bounds[1], key
        else:
            assert reached == bounds, key
    # The stall counter reaches its limit where games stall (the small configuration).
    small = VectorEnv(CONFIGS["small"], num_envs=8, seed=0)
    _, info = small.reset()
    stall = small.feature_names.index("stall")
    stalled = 0.0
    for _ in range(300):
        mask = info["action_mask"]
        obs, _, terminations, _, info = small.step((rng.random(mask.shape) * mask).argmax(axis=1))
        stalled = max(stalled, float(info["final_obs"][terminations, stall].max(initial=0)))
    assert stalled == small.high[stall] == CONFIGS["small"].stall_limit
    assert small.high[small.feature_names.index("end_reason=stall")] == 1
    # Never observed in CHANCE: those entries' bounds are 0.
    for name in ("phase=chance", "pending_chance=setup", "pending_chance=draw"):
        i = envs.feature_names.index(name)
        assert envs.high[i] == 0
        assert high[i] == 0


@pytest.mark.parametrize(("kind", "normalize"), COMBINATIONS)
def test_cores_play_the_same_games(kind: str, normalize: bool) -> None:
    """Same seed, same actions: the same observations, masks, rewards and ends on both cores
    (R8, R33: chance by the portable sampler; R39 tensors)."""
    _need("native")
    for rules in (TINY, CONFIGS["small"], STANDARD):
        games = [
            env(rules=rules, observation=kind, normalize=normalize, core=core)  # type: ignore[arg-type]
            for core in CORES
        ]
        rng = np.random.default_rng(5)
        for seed in range(3):
            for game in games:
                game.reset(seed=seed)
            for agent in games[0].agent_iter():
                lasts = [game.last() for game in games]
                assert games[1].agent_selection == agent
                first = lasts[0]
                for other in lasts[1:]:
                    assert np.array_equal(first[0]["observation"], other[0]["observation"])
                    assert np.array_equal(first[0]["action_mask"], other[0]["action_mask"])
                    assert first[1:4] == other[1:4]
                if first[2] or first[3]:
                    action = None
                else:
                    action = int(rng.choice(np.flatnonzero(first[0]["action_mask"])))
                for game in games:
                    game.step(action)
            assert games[0].unwrapped.final_rewards() == games[1].unwrapped.final_rewards()
            assert games[0].unwrapped.game_state == games[1].unwrapped.game_state


def test_native_illegal_actions_behave_as_on_the_python_core() -> None:
    """An illegal action ends the game with -1 for the offender under `env()` (the wrapper),
    and raises `IllegalMoveError` naming the rule (R35) under `raw_env()`, on both cores."""
    _need("native")
    from hatsuden_rules import IllegalMoveError

    for core in CORES:
        game = env(rules=TINY, core=core)
        game.reset(seed=1)
        mask = game.last()[0]["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            game.step(illegal)
        assert sorted(game.rewards.values()) == [-1, 0]
        raw = raw_env(rules=TINY, core=core)
        raw.reset(seed=1)
        with pytest.raises(IllegalMoveError) as caught:
            raw.step(illegal)
        assert caught.value.rule.startswith("R")
