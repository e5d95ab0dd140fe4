"""The OpenSpiel game ``python_hatsuden``: game, state and observer over the immutable library.

A `HatsudenState` holds one frozen `_Node`: the library's `GameState` (explicit chance mode) and
what each player has seen so far (`_record`). Applying an action replaces the node; cloning a
state shares it (``copy.deepcopy`` of a node returns the node itself), so a clone costs one new
Python object and no copy of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from hatsuden_rules.actions import (
    chance_moves,
    num_chance_outcomes,
    num_distinct_actions,
    player_moves,
)
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import chance_outcomes, legal_moves
from hatsuden_rules.core.render import render
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.integrations.openspiel import _options
from hatsuden_rules.integrations.openspiel._length import max_chance_nodes, max_game_length
from hatsuden_rules.integrations.openspiel._params import (
    GAME_NAME,
    PARAMETERS,
    parameters_from_rules,
    rules_from_parameters,
)
from hatsuden_rules.integrations.openspiel._record import Codec
from hatsuden_rules.notation import format_move, format_observation
from hatsuden_rules.observation import (
    observation_tensor,
    observation_tensor_layout,
    observe,
    sample_state,
)

__all__ = ["GAME_TYPE", "HatsudenGame", "HatsudenObserver", "HatsudenState"]

_DEFAULTS: Final = parameters_from_rules(Rules())

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="HATSUDEN (hatsuden-rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        **{p.name: _DEFAULTS[p.name] for p in PARAMETERS},
        **_options.DEFAULTS,
    },
)


class _Context:
    """The tables of one game (moves by id, ids by move, what each player sees of each).

    Built once per game and never mutated; every node of the game refers to it.
    """

    __slots__ = ("chance_ids", "codec", "ids", "moves", "outcomes", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.codec = Codec(rules)
        self.moves = player_moves(rules)
        self.outcomes = chance_moves(rules)
        self.ids = {move: a for a, move in enumerate(self.moves)}
        self.chance_ids = {move: c for c, move in enumerate(self.outcomes)}

    def __reduce__(self) -> tuple[type[_Context], tuple[Rules]]:
        return (_Context, (self.rules,))


@attrs.frozen(slots=True)
class _Node:
    """Everything a state holds: immutable, so clones share it.

    Attributes:
        context: The game's tables.
        state: The library state (explicit chance mode).
        seen: Per player, the seen ids of every move so far (`_record`).
        text: Per player, the information-state string so far.
    """

    context: _Context = attrs.field(eq=False, repr=False)
    state: GameState
    seen: tuple[tuple[int, ...], tuple[int, ...]]
    text: tuple[str, str]

    def __copy__(self) -> _Node:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self


class HatsudenGame(pyspiel.Game):
    """``python_hatsuden``: HATSUDEN under the `Rules` its parameters describe.

    Load it with ``pyspiel.load_game("python_hatsuden(energies=2,...)")`` once
    `hatsuden_rules.openspiel` is imported. Bad parameter values raise `InvalidRulesError` naming
    the field; a value of the wrong type is refused by OpenSpiel's own parameter check.

    Attributes:
        rules: The rule set.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = _options.read(params)  # players, normalize, core: not rules fields
        rules = rules_from_parameters(
            {name: value for name, value in params.items() if name not in _options.DEFAULTS}
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=num_distinct_actions(rules),
            max_chance_outcomes=num_chance_outcomes(rules),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(rules),
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules: Rules = rules
        self.options = options
        self._context = _Context(rules)
        self._max_chance_nodes = max_chance_nodes(rules)
        self._initial: Any = _Node(self._context, new_game(rules=rules), ((), ()), ("p0:", "p1:"))
        self._state_class: type[HatsudenState] = HatsudenState
        if options.core == "native":  # the same game, stepped by the native core
            from hatsuden_rules.integrations.openspiel import _native

            self._initial = _native.initial_node(self._context)
            self._state_class = _native.NativeHatsudenState

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # OpenSpiel's own pickling rebuilds the C++ game without running `__init__`.
        return (_load, (str(self),))

    def new_initial_state(self) -> HatsudenState:
        """The state before the deal (R7): a chance node."""
        return self._state_class(self, self._initial)

    def max_chance_nodes_in_history(self) -> int:
        """At most one chance event per card and per tech card (see `max_chance_nodes`)."""
        return self._max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> HatsudenObserver | _options.SplitObserver:
        """The observer for `iig_obs_type` (None: the observation).

        - ``public_info=True, private_info=SINGLE_PLAYER``: the observation, or with
          ``perfect_recall=True`` the information state (the observation then the recall
          counts);
        - ``public_info=True, private_info=NONE, perfect_recall=False``: the public half of the
          observation (what both players know);
        - ``public_info=False, private_info=SINGLE_PLAYER, perfect_recall=False``: the private
          half (the hand, the tech hand, the top cards of my stacks that only I have seen).

        With the game parameter ``normalize=true`` every tensor holds features in [0, 1]
        (`observation_feature_names`). Other kinds raise `InvalidInputError`.
        """
        if params:
            raise InvalidInputError("params", f"{GAME_NAME} observers take no parameters")
        normalize = self.options.normalize
        if iig_obs_type is None:
            return HatsudenObserver(self, perfect_recall=False, normalize=normalize)
        split = _options.split_of(iig_obs_type)
        if split is None:
            return HatsudenObserver(
                self, perfect_recall=bool(iig_obs_type.perfect_recall), normalize=normalize
            )
        return _options.SplitObserver(self.rules, split, normalize=normalize)

    def state_from(self, state: GameState) -> HatsudenState:
        """An OpenSpiel state at the library state `state` (explicit chance mode, these rules).

        OpenSpiel's history of the new state is empty and each player's record starts at
        `state` (their current observation stands for everything seen before), so its
        information states are not those of a game played from the start.

        Raises:
            InvalidInputError: `state` is seeded or has other rules.
        """
        if type(state) is not GameState or state.rules != self.rules or state.is_seeded:
            raise InvalidInputError(
                "state", "expected an explicit-chance GameState under the game's rules"
            )
        node = _fresh_node(self._context, state)
        if self.options.core == "native":
            from hatsuden_rules.integrations.openspiel import _native

            return _native.NativeHatsudenState(self, _native.native_node(node, state))
        return HatsudenState(self, node)


class HatsudenState(pyspiel.State):
    """A state of ``python_hatsuden``: the library's `GameState` plus what each player saw."""

    def __init__(self, game: HatsudenGame, node: Any = None) -> None:
        super().__init__(game)
        # The only attribute: OpenSpiel's clone deep-copies every attribute, and a node copies
        # as itself.
        self._node: _Node = game._initial if node is None else node

    @property
    def game_state(self) -> GameState:
        """The library's `GameState` (explicit chance mode)."""
        return self._node.state

    def current_player(self) -> int:
        """The player to move, `PlayerId.CHANCE` in CHANCE, `PlayerId.TERMINAL` at the end."""
        state = self._node.state
        phase = state.phase
        if phase is Phase.GAME_OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if phase is Phase.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        ids = node.context.ids
        return [ids[move] for move in legal_moves(node.state)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes with their probabilities (R6)."""
        node = self._node
        ids = node.context.chance_ids
        return [(ids[move], float(p)) for move, p in chance_outcomes(node.state)]

    def _apply_action(self, action: int) -> None:
        node = self._node
        state = node.state
        context = node.context
        if state.phase is Phase.CHANCE:
            move = context.outcomes[action]
            mine, other = context.codec.chance[action]
        else:
            move = context.moves[action]
            mine, other = context.codec.player[action]
        actor = state.current_player
        after = apply(state, move)  # raises IllegalMoveError (R-number) for an illegal action
        first, second = (mine, other) if actor == 0 else (other, mine)
        seen, text = node.seen, node.text
        self._node = _Node(
            context,
            after,
            ((*seen[0], first[1]), (*seen[1], second[1])),
            (f"{text[0]} {first[0]},", f"{text[1]} {second[0]},"),
        )

    def _action_to_string(self, player: int, action: int) -> str:
        context = self._node.context
        if player == pyspiel.PlayerId.CHANCE:
            return format_move(context.outcomes[action])
        return format_move(context.moves[action])

    def is_terminal(self) -> bool:
        """True once the game is over (R26)."""
        return self._node.state.phase is Phase.GAME_OVER

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for the loser at the end (R29), zeros before."""
        state = self._node.state
        if state.phase is not Phase.GAME_OVER:
            return [0.0, 0.0]
        return [1.0, -1.0] if score(state).winner == 0 else [-1.0, 1.0]

    def information_state_text(self, player: int) -> str:
        """The information-state string of `player` (also at the end of the game)."""
        node = self._node
        text = node.text[player]
        if node.state.phase is Phase.GAME_OVER:  # R26: secret cards on top are revealed
            text = f"{text} [{format_observation(observe(node.state, player))}]"
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HatsudenState:
        """A state drawn with `sample_state` from what `player_id` observes now (R38).

        The sampled state keeps `player_id`'s record, so its information state for that player
        is this one's; the other player's record starts at the sample. `probability_sampler` is
        OpenSpiel's: a callable giving a float in [0, 1), used to seed the portable generator.
        """
        state = self._node.state
        seed = int(float(probability_sampler()) * 2.0**53)
        sample = sample_state(observe(state, player_id), SplitMix64.from_seed(seed))
        if sample.is_seeded:  # OpenSpiel resolves chance itself: back to explicit chance mode
            sample = attrs.evolve(sample, rng=None)
        fresh = _fresh_node(self._node.context, sample)
        seen = list(fresh.seen)
        text = list(fresh.text)
        seen[player_id] = self._node.seen[player_id]
        text[player_id] = self._node.text[player_id]
        node = _Node(fresh.context, sample, (seen[0], seen[1]), (text[0], text[1]))
        return HatsudenState(self.get_game(), node)

    def __str__(self) -> str:
        return render(self._node.state)


class HatsudenObserver:
    """OpenSpiel's Python observer: the observation tensor (R39), with the recall counts.

    Attributes:
        tensor: The flat float32 tensor, updated in place by `set_from`.
        dict: Named views into `tensor`, one per segment.
    """

    def __init__(
        self, game: HatsudenGame, *, perfect_recall: bool, normalize: bool = False
    ) -> None:
        self._perfect_recall = perfect_recall
        layout = observation_tensor_layout(game.rules)
        self._observation_size = sum(size for _, size in layout)
        segments = list(layout)
        self._recall_size = game._context.codec.size
        if perfect_recall:
            segments += game._context.codec.segments
        self._encoder = (
            _options.encoder_of(game.rules, perfect_recall=perfect_recall) if normalize else None
        )
        if self._encoder is not None:
            segments = _options.normalized_segments(self._encoder)
        size = sum(n for _, n in segments)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        start = 0
        for name, n in segments:
            self.dict[name] = self.tensor[start : start + n]
            start += n

    def set_from(self, state: HatsudenState, player: int) -> None:
        """Fill `tensor` with what `player` knows in `state`."""
        node: Any = state._node
        if not isinstance(node, _Node):  # the native core writes the tensor itself
            state.write_tensor(
                player,
                recall=self._perfect_recall,
                normalize=self._encoder is not None,
                out=self.tensor,
            )
            return
        if self._encoder is not None:
            raw = list(observation_tensor(observe(node.state, player)))
            if self._perfect_recall:
                raw += _counts(node.seen[player], self._recall_size).tolist()
            self.tensor[:] = self._encoder.features(np.array([raw], dtype=np.float32))[0]
            return
        self.tensor[: self._observation_size] = observation_tensor(observe(node.state, player))
        if self._perfect_recall:
            self.tensor[self._observation_size :] = _counts(node.seen[player], self._recall_size)

    def string_from(self, state: HatsudenState, player: int) -> str:
        """The information-state string, or the observation in the library's notation."""
        if self._perfect_recall:
            return state.information_state_text(player)
        return format_observation(observe(state.game_state, player))


def _load(game_string: str) -> HatsudenGame:
    """The game of `game_string` (unpickling); importing this module registered the game."""
    game: HatsudenGame = pyspiel.load_game(game_string)
    return game


def _fresh_node(context: _Context, state: GameState) -> _Node:
    """A node at `state` whose records start with each player's current observation."""
    text = tuple(f"p{p}: [{format_observation(observe(state, p))}]," for p in (0, 1))
    return _Node(context, state, ((), ()), (text[0], text[1]))


def _counts(seen: Sequence[int], size: int) -> np.ndarray[Any, Any]:
    return np.bincount(np.asarray(seen, dtype=np.int64), minlength=size)
