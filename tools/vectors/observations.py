"""The ``observations`` group: a player's observation (R37), its tensor (R39), `sample_state` (R38).

The variants add the states where a tech card may be owed (R38 samples the opponent's tech hand).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from hatsuden_rules._core.rng import SplitMix64
from hatsuden_rules._core.state import GameState
from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.notation import (
    format_observation,
)
from hatsuden_rules.observation import observation_tensor, observe, sample_state
from tools.vectors.common import format_state, pick, rules_flags, state_flags, state_refs

__all__ = ["observation_vectors"]


def observation_vectors(states: list[GameState]) -> Iterator[Vector]:
    """Observation, tensor and sampling vectors of a varied pick of (state, player)."""

    def key(item: tuple[GameState, int]) -> Hashable:
        state, player = item
        flags = state_flags(state)
        opponent = state.board(1 - player)
        return (
            state.phase,
            player == state.current_player,
            bool(state.known_cards(1 - player)),
            bool(state.known_cards(player)),
            any(s is not None and s.face_down and not s.flipped for s in opponent),
            any(s is not None and s.secret for s in opponent),
            "Seeded" in flags,
            frozenset(rules_flags(state.rules)),
        )

    pairs = [(state, player) for state in states[:1200] for player in (0, 1)]
    chosen = pick(pairs, key, 1)
    for state, player in chosen:
        refs = state_refs(state) | {"R30", "R36", "R37"}
        flags = state_flags(state)
        if any(s is not None and s.secret for s in state.board(1 - player)):
            refs.add("R11")
            flags.add("OpponentSecret")
        if any(s is not None and s.face_down and not s.flipped for s in state.board(1 - player)):
            refs.add("R14")
            flags.add("OpponentPylon")
        if state.is_over:
            refs.add("R26")
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=refs,
            flags=flags,
            comment=f"player {player} observes a {state.phase.name} state",
            input={"kind": "observe", "state": format_state(state), "player": player},
            expected={"ok": True, "observation": format_observation(observe(state, player))},
        )
    for n, (state, player) in enumerate(chosen[::5]):
        seen = observe(state, player)
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=state_refs(state) | {"R37", "R39"},
            flags=state_flags(state) | {"Tensor"},
            comment=f"observation tensor of player {player} in a {state.phase.name} state",
            input={"kind": "tensor", "state": format_state(state), "player": player},
            expected={"ok": True, "tensor": list(observation_tensor(seen))},
        )
        seed = n * 7919 + 1
        sampled = sample_state(seen, SplitMix64.from_seed(seed))
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=state_refs(state) | {"R32", "R33", "R37", "R38"},
            flags=state_flags(state) | {"SampleState"},
            comment=f"a state consistent with player {player}'s observation, generator seed {seed}",
            input={
                "kind": "sample_state",
                "state": format_state(state),
                "player": player,
                "seed": str(seed),
            },
            expected={"ok": True, "state": format_state(sampled)},
        )
