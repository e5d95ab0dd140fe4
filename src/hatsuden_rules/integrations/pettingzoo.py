"""HATSUDEN as a PettingZoo AEC environment (agents ``player_0`` and ``player_1``).

`env` returns the environment wrapped as PettingZoo's classic games are (an illegal action ends
the game with -1 for the offender, out-of-range actions are refused, the call order is
enforced); `raw_env` is the unwrapped class. Each observation is a dict:

- ``"observation"``: the observer's `observation_tensor` (R39) as float32, or with
  ``observation="information_state"`` the information-state tensor (the observation then the
  perfect-recall counts, as OpenSpiel's), raw ints or with ``normalize=True`` features in
  [0, 1] (`observation_feature_names` names every entry), in a Box whose bounds are each
  entry's least and greatest value where the environment is observed (never in CHANCE);
- ``"action_mask"``: int8, 1 for each legal action id (the ids of `hatsuden_rules.actions`,
  the same as OpenSpiel's), all zeros for the agent who is not to move.

``reset(seed=N)`` starts the game of ``new_game(seed=N)``: chance is resolved by the portable
generator (R8), so an episode is reproducible bit for bit; a later ``reset()`` without a seed
continues from a generator seeded with N. One agent makes several steps in a row (a turn has several
decisions). Rewards are +1 and -1 when the game ends (a stall is a termination too, R25).
Needs the ``pettingzoo`` extra: ``pip install 'hatsuden-rules[pettingzoo]'``.

Examples:
    >>> from hatsuden_rules import STANDARD, Rules
    >>> game = env(rules=Rules(energies=2, max_value=2, hand_size=2, techs=()))
    >>> game.reset(seed=7)
    >>> game.agent_selection
    'player_0'
    >>> for agent in game.agent_iter():
    ...     observation, reward, termination, truncation, info = game.last()
    ...     if termination or truncation:
    ...         action = None
    ...     else:
    ...         mask = observation["action_mask"]
    ...         action = int(mask.nonzero()[0][0])  # the first legal action
    ...     game.step(action)
    >>> sorted(game.unwrapped.final_rewards().values())
    [-1, 1]
"""

from __future__ import annotations

import secrets
from typing import Any, Final

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:
    raise ImportError(
        "hatsuden_rules.pettingzoo needs the 'pettingzoo' extra: "
        "pip install 'hatsuden-rules[pettingzoo]'"
    ) from None

from hatsuden_rules.actions import (
    action_to_move,
    move_to_action,
    num_distinct_actions,
)
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.core.state import GameState
from hatsuden_rules.integrations._learning import check_options, encoder, make_episode
from hatsuden_rules.observation import (
    Observation,
    observation_tensor_layout,
    observe,
    render_observation,
)
from hatsuden_rules.observation._features import FeatureKind

__all__ = [
    "AGENTS",
    "action_to_move",
    "env",
    "move_to_action",
    "num_distinct_actions",
    "observation_bounds",
    "raw_env",
]

#: The agents, by seat.
AGENTS: Final = ("player_0", "player_1")
_CELL_FEATURES: Final = 8  # occupied, face_down, flipped, secret, downsized, value, top, height


def env(
    rules: Rules = STANDARD,
    render_mode: str | None = None,
    observation: FeatureKind = "observation",
    normalize: bool = False,
    core: str = "python",
) -> AECEnv:
    """The HATSUDEN environment under `rules`, with PettingZoo's usual wrappers.

    Args:
        rules: The rule set; the printed game by default.
        render_mode: None, or ``"ansi"``: `render` returns the acting player's view as text.
        observation: ``"observation"`` or ``"information_state"`` (see the module docstring).
        normalize: Features in [0, 1] rather than the raw ints.
        core: ``"python"``, or ``"native"`` (needs ``pip install 'hatsuden-rules[native]'``).
    """
    game: AECEnv = raw_env(
        rules=rules,
        render_mode=render_mode,
        observation=observation,
        normalize=normalize,
        core=core,
    )
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


def observation_bounds(rules: Rules) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The lowest and highest value of each entry of `observation_tensor` under `rules` (R39).

    The stall counter has no upper bound without the stall rule (``stall_limit=None``): its
    bound is then infinity.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> low, high = observation_bounds(STANDARD)
        >>> len(low), low.min(), high.max()  # -1: a hidden value; 30: the deck after the deal
        (323, np.float32(-1.0), np.float32(40.0))
    """
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    cards = len(rules.cards)
    copies = min(rules.copies, rules.hand_size)
    techs = len(rules.techs)
    stall = np.inf if rules.stall_limit is None else rules.stall_limit
    # Per cell: occupied, face_down, flipped, secret, downsized, value (-1 hidden), top card
    # index + 1, number of cards (all the cards of one energy at most).
    cell_low = [0, 0, 0, 0, 0, -1, 0, 0]
    cell_high = [1, 1, 1, 1, 1, rules.max_value, cards, rules.max_value * rules.copies]
    highs: dict[str, list[float]] = {
        "hand": [copies] * cards,
        "known_to_opponent": [copies] * cards,
        "opponent_known": [copies] * cards,
        "sizes": [rules.hand_size, techs, rules.deck_size, techs],
        "discards": [rules.copies] * cards,
        "unseen": [rules.copies] * cards,
        "stall": [stall],
    }
    low: list[float] = []
    high: list[float] = []
    for name, size in observation_tensor_layout(rules):
        if name in ("my_board", "opponent_board"):
            assert size % _CELL_FEATURES == 0
            low += cell_low * (size // _CELL_FEATURES)
            high += cell_high * (size // _CELL_FEATURES)
        else:
            low += [0] * size
            high += highs.get(name, [1] * size)
    assert len(low) == len(high)
    return np.array(low, dtype=np.float32), np.array(high, dtype=np.float32)


class raw_env(AECEnv, EzPickle):
    """The unwrapped HATSUDEN environment (see the module docstring).

    Attributes:
        rules: The rule set.
        possible_agents: ``["player_0", "player_1"]``.
    """

    metadata: Final = {"render_modes": ["ansi"], "name": "hatsuden_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules = STANDARD,
        render_mode: str | None = None,
        observation: FeatureKind = "observation",
        normalize: bool = False,
        core: str = "python",
    ) -> None:
        if type(rules) is not Rules:
            raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
        if render_mode not in (None, "ansi"):
            raise InvalidInputError("render_mode", f"must be None or 'ansi', got {render_mode!r}")
        check_options(observation, normalize, core)
        EzPickle.__init__(
            self,
            rules=rules,
            render_mode=render_mode,
            observation=observation,
            normalize=normalize,
            core=core,
        )
        super().__init__()
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = num_distinct_actions(rules)
        self._encoder = encoder(rules, observation, normalize)
        self._episode = make_episode(rules, recall=observation == "information_state", core=core)
        low, high = self._encoder.bounds()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in AGENTS}
        self._seeds: SplitMix64 | None = None
        self._reset_done = False

    # -- the library's view ------------------------------------------------------------------

    @property
    def game_state(self) -> GameState:
        """The current `GameState` (god view; seeded mode)."""
        self._started()
        return self._episode.seeded_state()

    def _started(self) -> None:
        if not self._reset_done:
            raise InvalidInputError("state", "call reset() first")

    def game_observation(self, agent: str) -> Observation:
        """What `agent` knows now, as the library's `Observation` (for `Player` bots)."""
        return observe(self.game_state, _seat(agent))

    def final_rewards(self) -> dict[str, int]:
        """+1 for the winner and -1 for the loser of the finished game (R29)."""
        self._started()
        if not self._episode.is_over:
            raise InvalidInputError("state", "the game is not over")
        winner = self._episode.winner()
        return {agent: 1 if seat == winner else -1 for seat, agent in enumerate(AGENTS)}

    # -- PettingZoo --------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of `agent` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of `agent`: one id per player move of the rules."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """`agent`'s observation tensor and action mask."""
        self._started()
        seat = _seat(agent)
        episode = self._episode
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if not episode.is_over and episode.current_player == seat:
            mask[episode.legal_ids()] = 1
        raw = np.array([self._episode.raw(seat)], dtype=np.float32)
        return {"observation": self._encoder.features(raw)[0], "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``new_game(seed=seed)``, or the next seed of the env's generator."""
        if seed is not None:
            game_seed = seed
            self._seeds = SplitMix64.from_seed(seed)
        else:
            if self._seeds is None:
                self._seeds = SplitMix64.from_seed(secrets.randbits(64))
            game_seed, self._seeds = self._seeds.next()
        self._episode.reset(game_seed)
        self._reset_done = True
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._episode.current_player]

    def step(self, action: int | None) -> None:
        """Apply the acting agent's action id (None for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action_to_move(self.rules, action)  # type: ignore[arg-type]  # refuses a bad id
        self._cumulative_rewards[agent] = 0
        self._episode.step(action)  # type: ignore[arg-type]  # IllegalMoveError names the rule
        if self._episode.is_over:
            self.rewards = dict(self.final_rewards())
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.rewards = dict.fromkeys(AGENTS, 0)
        self.agent_selection = AGENTS[self._episode.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The acting player's view (``render_mode="ansi"``), or None with a warning."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        return render_observation(observe(self.game_state, self.game_state.current_player))

    def close(self) -> None:
        """Nothing to release."""


def _seat(agent: str) -> int:
    try:
        return AGENTS.index(agent)
    except ValueError:
        raise InvalidInputError("agent", f"must be one of {AGENTS}, got {agent!r}") from None
