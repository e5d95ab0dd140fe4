"""A vectorised HATSUDEN environment for learning agents: N games stepped as numpy arrays.

`VectorEnv` follows Gymnasium's vector API and EnvPool: ``reset(seed=...)`` returns
``(obs, info)`` and ``step(actions)`` returns ``(obs, rewards, terminations, truncations,
info)``, one row per environment.

- ``obs``: N x F float32, each row from the view of the player to act in that environment
  (`observation_feature_names` names the F columns; ``observation="information_state"`` adds
  the perfect-recall counts, ``normalize=True`` gives features in [0, 1]).
- ``rewards``: N x 2 float32, per seat: +1 for the winner and -1 for the loser on the step that
  ends a game, 0 otherwise.
- ``terminations``: N bool, True on the step that ended a game (a stall too, R25);
  ``truncations`` is always False (no game is cut short).
- ``info["action_mask"]``: N x A bool, the legal action ids (`hatsuden_rules.actions`, the same
  ids as OpenSpiel's and PettingZoo's); ``info["current_player"]``: N ints, the seat to act.

**Automatic reset, same step** (Gymnasium's ``AutoresetMode.SAME_STEP``): when an action ends a
game, that environment starts its next game at once; the returned row of ``obs`` (and the mask
and player) belong to the new game, ``terminations[i]`` and ``rewards[i]`` to the finished one,
and ``info["final_obs"][i]`` holds the finished game's last observation from the view of the
player who made the last move (``info["final_player"][i]``), with ``info["_final_obs"][i]``
True (its other rows are zeros). So every row of ``obs`` always has a player to act and at
least one legal action. ``obs`` and ``info["final_obs"]`` of one step are the two halves of one
2 x N x F array (one large allocation per step: see docs/learning.md, Speed).

**Seeds and chance.** ``reset(seed=S)`` seeds environment i with S + i: its first game is
``new_game(seed=S + i)`` and its later games take the next outputs of ``SplitMix64(S + i)``,
exactly as the PettingZoo environment does after ``reset(seed=S + i)``. Chance is resolved by
the portable sampler (R8, R33), so the same seed and the same actions give the same
trajectories, on any core.

**Illegal actions.** With ``illegal="raise"`` (the default) an out-of-range or illegal action
raises `InvalidInputError` naming the environment and the action before any environment has
moved. With ``illegal="lose"`` the offender's game ends with -1 for the offender and 0 for the
other seat (as PettingZoo's ``TerminateIllegalWrapper``), and that environment resets.

**Cores.** ``core="python"`` steps the library's engine in a loop; ``core="native"`` needs the
native core (``pip install 'hatsuden-rules[native]'``) and steps the batch in one call.

Needs numpy (the ``pettingzoo`` or ``openspiel`` extra installs it).

Examples:
    >>> import numpy as np
    >>> from hatsuden_rules import Rules
    >>> envs = VectorEnv(Rules(energies=2, max_value=2, hand_size=2, techs=()), num_envs=4, seed=1)
    >>> obs, info = envs.reset()
    >>> obs.shape, info["action_mask"].shape, info["current_player"].tolist()
    ((4, 122), (4, 47), [0, 0, 0, 0])
    >>> actions = info["action_mask"].argmax(axis=1)  # the first legal action of each game
    >>> obs, rewards, terminations, truncations, info = envs.step(actions)
    >>> rewards.shape, terminations.tolist()
    ((4, 2), [False, False, False, False])
"""

from __future__ import annotations

import secrets
from typing import Any, Final, Literal

try:
    import numpy as np
except ImportError:
    raise ImportError(
        "hatsuden_rules.vector needs numpy: pip install 'hatsuden-rules[pettingzoo]'"
    ) from None

from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.integrations._learning import (
    Encoder,
    NativeBatch,
    PythonBatch,
    check_options,
    encoder,
)
from hatsuden_rules.observation._features import FeatureKind

__all__ = ["AUTORESET_MODE", "VectorEnv"]

Array = np.ndarray[Any, Any]

#: The automatic reset mode, as Gymnasium names it (``gymnasium.vector.AutoresetMode``).
AUTORESET_MODE: Final = "SameStep"
_MASK64: Final = (1 << 64) - 1


class VectorEnv:
    """N HATSUDEN games stepped together on numpy arrays (see the module docstring).

    Args:
        rules: The rule set of every game.
        num_envs: How many games.
        seed: The seed of the first `reset` without one (None: a random seed).
        observation: ``"observation"`` or ``"information_state"``.
        normalize: Features in [0, 1] (`observation_feature_names` with ``normalize=True``).
        core: ``"python"`` or ``"native"``.
        illegal: ``"raise"`` or ``"lose"`` (what an illegal action does).

    Attributes:
        num_envs: How many games.
        num_actions: The number of action ids (the width of the mask).
        observation_size: F, the width of an observation.
        feature_names: The name of each of the F columns.
        low: The least value of each column (where the environment observes a game).
        high: The greatest value of each column (infinity for a count without bound).
        metadata: ``{"autoreset_mode": "SameStep"}``.
    """

    metadata: Final = {"autoreset_mode": AUTORESET_MODE}

    def __init__(
        self,
        rules: Rules = STANDARD,
        num_envs: int = 1,
        seed: int | None = None,
        observation: FeatureKind = "observation",
        normalize: bool = False,
        core: Literal["python", "native"] = "python",
        illegal: Literal["raise", "lose"] = "raise",
    ) -> None:
        if type(rules) is not Rules:
            raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidInputError("num_envs", f"must be an int >= 1, got {num_envs!r}")
        if seed is not None and type(seed) is not int:
            raise InvalidInputError("seed", f"must be an int or None, got {seed!r}")
        check_options(observation, normalize, core)
        if illegal not in ("raise", "lose"):
            raise InvalidInputError("illegal", f"must be 'raise' or 'lose', got {illegal!r}")
        self.rules = rules
        self.num_envs = num_envs
        self.core = core
        self.illegal = illegal
        enc: Encoder = encoder(rules, observation, normalize)
        self.feature_names: tuple[str, ...] = enc.names
        self.observation_size: int = enc.size
        self.low, self.high = enc.bounds()
        self._core = _make_core(core, rules, num_envs, enc)
        self.num_actions: int = self._core.num_actions
        self._seed = seed
        self._streams: list[SplitMix64] = []
        self._mask: Array | None = None
        self._players: Array | None = None

    # -- Gymnasium's vector API ----------------------------------------------------------------

    @property
    def single_observation_space(self) -> Any:
        """One row of ``obs`` as a ``gymnasium.spaces.Box`` (needs gymnasium)."""
        from gymnasium import spaces

        return spaces.Box(low=self.low, high=self.high, dtype=np.float32)

    @property
    def single_action_space(self) -> Any:
        """One action as a ``gymnasium.spaces.Discrete`` (needs gymnasium)."""
        from gymnasium import spaces

        return spaces.Discrete(self.num_actions)

    @property
    def observation_space(self) -> Any:
        """The batch of observations as a ``gymnasium.spaces.Box`` (needs gymnasium)."""
        from gymnasium import spaces

        low = np.broadcast_to(self.low, (self.num_envs, self.observation_size))
        high = np.broadcast_to(self.high, (self.num_envs, self.observation_size))
        return spaces.Box(low=low, high=high, dtype=np.float32)

    @property
    def action_space(self) -> Any:
        """The batch of actions as a ``gymnasium.spaces.MultiDiscrete`` (needs gymnasium)."""
        from gymnasium import spaces

        return spaces.MultiDiscrete(np.full(self.num_envs, self.num_actions))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Start a new game in every environment; environment i takes seed ``seed + i``."""
        if seed is not None and type(seed) is not int:
            raise InvalidInputError("seed", f"must be an int or None, got {seed!r}")
        if seed is None:
            seed = self._seed if self._seed is not None else secrets.randbits(63)
        self._seed = None  # later resets without a seed draw a fresh one
        seeds = [(seed + i) & _MASK64 for i in range(self.num_envs)]
        self._streams = [SplitMix64.from_seed(s) for s in seeds]
        self._core.reset(seeds, list(range(self.num_envs)))
        mask, players = self._core.legal()
        self._mask, self._players = mask, players
        obs = self._core.observations(players)
        return obs, {"action_mask": mask, "current_player": players}

    def step(self, actions: Any) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """Apply one action per environment; see the module docstring for the results."""
        mask, players = self._mask, self._players
        if mask is None or players is None:
            raise InvalidInputError("state", "call reset() first")
        n = self.num_envs
        acts = _actions(actions, n)
        in_range = (acts >= 0) & (acts < self.num_actions)
        legal = in_range.copy()
        legal[in_range] = mask[np.nonzero(in_range)[0], acts[in_range]]
        rewards = np.zeros((n, 2), dtype=np.float32)
        terminations = np.zeros(n, dtype=bool)
        if not legal.all():
            bad = int(np.nonzero(~legal)[0][0])
            if self.illegal == "raise":
                what = "out of range" if not in_range[bad] else "illegal"
                raise InvalidInputError(
                    "actions",
                    f"environment {bad}: action {int(acts[bad])} is {what} "
                    f"(legal: {np.nonzero(mask[bad])[0].tolist()}); no environment moved",
                )
            offenders = np.nonzero(~legal)[0]
            rewards[offenders, players[offenders]] = -1.0
            terminations[offenders] = True
        movers = np.nonzero(legal)[0]
        self._core.step(acts, movers)
        after_mask, after_players = self._core.legal()
        ended = terminations | (after_players < 0)
        finished = np.nonzero(ended & ~terminations)[0]
        if len(finished):
            winners = self._core.winners(finished)
            rewards[finished, winners] = 1.0
            rewards[finished, 1 - winners] = -1.0
        terminations |= ended
        final_players = np.where(ended, players, -1)
        # One allocation for both N x F arrays: with two, the C allocator gives its heap back
        # to the system at the end of each step and the kernel faults the pages in again on
        # the next (about 200 page faults and a third of the time per step of 256 games with
        # the information state, measured); with one, the heap stays under its trim threshold.
        block = np.empty((2, n, self.observation_size), dtype=np.float32)
        obs, final_obs = block[0], block[1]
        final_obs.fill(0.0)
        done = np.nonzero(ended)[0]
        if len(done):
            final_obs[done] = self._core.observations(players, done)
            seeds = []
            for i in done:
                value, self._streams[i] = self._streams[i].next()
                seeds.append(value)
            self._core.reset(seeds, done.tolist())
            after_mask[done], after_players[done] = self._core.legal(done)
        self._mask, self._players = after_mask, after_players
        self._core.observations(after_players, out=obs)
        info = {
            "action_mask": after_mask,
            "current_player": after_players,
            "final_obs": final_obs,
            "_final_obs": ended,
            "final_player": final_players,
        }
        return obs, rewards, terminations, np.zeros(n, dtype=bool), info

    def close(self) -> None:
        """Nothing to release."""


def _actions(actions: Any, n: int) -> Array:
    acts = np.asarray(actions)
    if acts.shape != (n,) or not (
        np.issubdtype(acts.dtype, np.integer) or np.issubdtype(acts.dtype, np.bool_)
    ):
        raise InvalidInputError(
            "actions", f"must be {n} integer action ids, got shape {acts.shape} of {acts.dtype}"
        )
    return acts.astype(np.int64)


def _make_core(core: str, rules: Rules, num_envs: int, enc: Encoder) -> PythonBatch | NativeBatch:
    """The batch that steps the games: the library's engine, or the native core's batch."""
    if core == "python":
        return PythonBatch(rules, num_envs, enc)
    return NativeBatch(rules, num_envs, enc)
