"""The OpenSpiel game on the native core (the game parameter ``core=native``).

`NativeHatsudenState` is a `HatsudenState` whose node holds the native core's immutable
``SpielState`` instead of the library's `GameState`: transitions, legal actions, chance
outcomes, returns and the observation and information-state tensors run in Rust; each
player's record (the seen ids and the information-state string) is kept exactly as on the
Python core, so both cores give the same trajectories, tensors and strings. What needs the
library's `GameState` (rendering, the observation string, `resample_from_infostate`, the
public and private observers) converts the native state through its notation.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

import attrs
import pyspiel

from hatsuden_rules.core.render import render
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.state import GameState
from hatsuden_rules.integrations.openspiel import _game, _options
from hatsuden_rules.notation import format_observation, format_rules, format_state, parse_state
from hatsuden_rules.observation import observe, sample_state

__all__ = ["NativeHatsudenState", "initial_node", "native_node"]

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


#: A player's seen ids, newest first, as a chain of pairs ``(id, older)``: appending one is O(1)
#: (the Python core copies a tuple); `_ids` lists them oldest first when a tensor needs them.
_Chain = tuple[int, Any] | None


def _chain(ids: tuple[int, ...] | list[int]) -> _Chain:
    chain: _Chain = None
    for i in ids:
        chain = (i, chain)
    return chain


def _ids(chain: _Chain) -> list[int]:
    out: list[int] = []
    while chain is not None:
        out.append(chain[0])
        chain = chain[1]
    out.reverse()
    return out


class _NativeNode(NamedTuple):
    """A `_game._Node` whose state is the native core's ``SpielState`` (immutable: shared).

    Attributes:
        context: The game's tables.
        state: The native state (explicit chance mode).
        seen: Per player, the seen ids so far (`_Chain`).
        text: Per player, the information-state string so far.
        player: OpenSpiel's current player of `state` (asked several times per step: kept).
    """

    context: Any
    state: Any
    seen: tuple[_Chain, _Chain]
    text: tuple[str, str]
    player: int

    def __copy__(self) -> _NativeNode:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _NativeNode:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        seen = (tuple(_ids(self.seen[0])), tuple(_ids(self.seen[1])))
        return (_rebuild, (self.context, self.state.notation(), seen, self.text))

    def seen_ids(self, player: int) -> tuple[int, ...]:
        """`player`'s seen ids, oldest first (as `_game._Node.seen`)."""
        return tuple(_ids(self.seen[player]))


def _rebuild(
    context: Any,
    notation: str,
    seen: tuple[tuple[int, ...], tuple[int, ...]],
    text: tuple[str, str],
) -> _NativeNode:
    engine = _options.native_engine()
    state = engine.initial(format_rules(context.rules)).with_notation(notation)
    return _NativeNode(
        context, state, (_chain(seen[0]), _chain(seen[1])), text, state.spiel_player()
    )


def initial_node(context: Any) -> _NativeNode:
    """The node before the deal (R7) on the native core."""
    engine = _options.native_engine()
    state = engine.initial(format_rules(context.rules))
    return _NativeNode(context, state, (None, None), ("p0:", "p1:"), state.spiel_player())


def native_node(node: Any, state: GameState) -> _NativeNode:
    """`node`'s record with the native twin of the library state `state`."""
    engine = _options.native_engine()
    native = engine.initial(format_rules(state.rules)).with_notation(format_state(state))
    seen = (_chain(node.seen[0]), _chain(node.seen[1]))
    return _NativeNode(node.context, native, seen, node.text, native.spiel_player())


class NativeHatsudenState(_game.HatsudenState):
    """A state of ``python_hatsuden`` with ``core=native`` (see the module docstring)."""

    _node: Any

    @property
    def game_state(self) -> GameState:
        """The library's `GameState` (explicit chance mode), read from the native notation."""
        return parse_state(self._node.state.notation())

    def current_player(self) -> int:
        """The player to move, `PlayerId.CHANCE` in CHANCE, `PlayerId.TERMINAL` at the end."""
        player: int = self._node.player
        return player

    def _legal_actions(self, player: int) -> list[int]:
        actions: list[int] = self._node.state.legal_actions()
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes with their probabilities (R6)."""
        outcomes: list[tuple[int, float]] = self._node.state.chance_outcomes()
        return outcomes

    def _apply_action(self, action: int) -> None:
        node = self._node
        state = node.state
        codec = node.context.codec
        mine, other = codec.chance[action] if node.player == _CHANCE else codec.player[action]
        actor = state.current_player
        after = state.apply_action(action)  # IllegalMoveError (R-number) for an illegal action
        first, second = (mine, other) if actor == 0 else (other, mine)
        seen, text = node.seen, node.text
        self._node = _NativeNode(
            node.context,
            after,
            ((first[1], seen[0]), (second[1], seen[1])),
            (f"{text[0]} {first[0]},", f"{text[1]} {second[0]},"),
            after.spiel_player(),
        )

    def is_terminal(self) -> bool:
        """True once the game is over (R26)."""
        terminal: bool = self._node.player == _TERMINAL
        return terminal

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for the loser at the end (R29), zeros before."""
        returns: list[float] = list(self._node.state.returns())
        return returns

    def information_state_text(self, player: int) -> str:
        """The information-state string of `player` (also at the end of the game)."""
        node = self._node
        text: str = node.text[player]
        if node.state.is_terminal:  # R26: secret cards on top are revealed
            text = f"{text} [{format_observation(observe(self.game_state, player))}]"
        return text

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> NativeHatsudenState:
        """A state drawn with `sample_state` from what `player_id` observes now (R38).

        As on the Python core: the sampled state keeps `player_id`'s record, the other
        player's record starts at the sample.
        """
        seed = int(float(probability_sampler()) * 2.0**53)
        sample = sample_state(observe(self.game_state, player_id), SplitMix64.from_seed(seed))
        if sample.is_seeded:  # OpenSpiel resolves chance itself: back to explicit chance mode
            sample = attrs.evolve(sample, rng=None)
        fresh = _game._fresh_node(self._node.context, sample)
        seen = list(fresh.seen)
        text = list(fresh.text)
        seen[player_id] = self._node.seen_ids(player_id)
        text[player_id] = self._node.text[player_id]
        node = _game._Node(fresh.context, sample, (seen[0], seen[1]), (text[0], text[1]))
        return NativeHatsudenState(self.get_game(), native_node(node, sample))

    def write_tensor(self, player: int, *, recall: bool, normalize: bool, out: Any) -> None:
        """Fill the float32 array `out` with `player`'s observation or information state."""
        node = self._node
        seen = _ids(node.seen[player]) if recall else []
        node.state.write_tensor(player, seen, recall, normalize, out)

    def __str__(self) -> str:
        return render(self.game_state)


def is_native(state: pyspiel.State) -> bool:
    """Whether `state` runs on the native core."""
    return isinstance(state, NativeHatsudenState)
