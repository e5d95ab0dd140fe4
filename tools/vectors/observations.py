"""The ``observations`` group: a player's observation (R37), its tensor (R39), `sample_state` (R38).

The variants add the states where a tech card may be owed (R38 samples the opponent's tech hand).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Final

from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.moves import PlaceAccumulator, PlaceSmart
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.rules import TechTiming
from hatsuden_rules.core.state import GameState
from hatsuden_rules.notation import format_observation, format_seen_move, parse_state
from hatsuden_rules.observation import Concealed, observation_tensor, observe, sample_state
from tools.vectors.common import format_state, pick, rules_flags, state_flags, state_refs
from tools.vectors.games import Ply

__all__ = ["concealed_tech_vectors", "observation_vectors"]


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


# -- R38: filling a concealed =??? with PLACE_AT_ONCE (issue 23 §4.10) --------------------------


def _fill_case(state: GameState, sampled: GameState, player: int) -> str | None:
    """Which of R38's ways (a)-(d) filled the first concealed DealTech `player` sees, or None."""
    seen = observe(state, player)
    opponent = 1 - player
    at_once = state.rules.tech_timing is TechTiming.PLACE_AT_ONCE
    for seen_log, log in ((seen.this_turn, sampled.this_turn), (seen.last_turn, sampled.last_turn)):
        for k, move in enumerate(seen_log):
            if not (isinstance(move, Concealed) and move.move == "DealTech"):
                continue
            after = log[k + 1] if k + 1 < len(log) else None
            held = sampled.tech_hand(opponent)
            if at_once and isinstance(after, PlaceAccumulator | PlaceSmart):
                return "a"
            if at_once and held & {Tech.ACCUMULATOR, Tech.SMART}:
                # "b2": SMART before a SECRET_BUILD that (c) would take (canonical order)
                return "b2" if Tech.SECRET_BUILD in held and Tech.ACCUMULATOR not in held else "b"
            return "c" if held else "d"
    return None


def concealed_tech_vectors(
    games: Sequence[tuple[str, int | None, list[Ply]]],
) -> Iterator[Vector]:
    """`sample_state` of observations holding a concealed ``=???``, with PLACE_AT_ONCE.

    One vector per way R38 fills it: (a) the placement right after, (b) the owed card of the
    opponent's sampled tech hand, (c) that hand's first card, (d) a later move's card.
    """
    found: dict[str, tuple[GameState, int, int]] = {}
    placed: list[tuple[GameState, int]] = []
    for name, _seed, game in games:
        if name not in {"mini-place-at-once", "place-at-once"}:
            continue
        for ply in game:
            state = ply.after
            for player in (0, 1):
                seen = observe(state, player)
                if "=???" not in {format_seen_move(m) for m in (*seen.this_turn, *seen.last_turn)}:
                    continue
                for seed in range(1, 41):
                    case = _fill_case(state, sample_state(seen, SplitMix64.from_seed(seed)), player)
                    if case == "a":
                        placed.append((state, player))
                    if case is not None and case not in found:
                        found[case] = (state, player, seed)
    # With PLACE_AT_ONCE no game reaches (d): an ACCUMULATOR or SMART card is placed right after
    # its draw (a), and a SECRET_BUILD or DOWN card stays in the tech hand (b or c). The same
    # log under KEEP, where (a) and (b) do not apply, shows (d): the placement's card.
    for state, player in dict.fromkeys(placed):
        if "d" in found:
            break
        if state.tech_hand(1 - player):
            continue
        kept = parse_state(format_state(state).replace("/place_at_once", "", 1))
        for seed in range(1, 41):
            sampled = sample_state(observe(kept, player), SplitMix64.from_seed(seed))
            if _fill_case(kept, sampled, player) == "d":
                found["d"] = (kept, player, seed)
                break
    for case in sorted(found):
        state, player, seed = found[case]
        sampled = sample_state(observe(state, player), SplitMix64.from_seed(seed))
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=state_refs(state) | {"R17", "R32", "R33", "R37", "R38", "R40"},
            flags=state_flags(state) | {"SampleState"},
            comment=(
                f"R38 ({case[0]}): player {player}'s observation holds a concealed =???, filled "
                f"{_FILLED[case]}; generator seed {seed}"
            ),
            input={
                "kind": "sample_state",
                "state": format_state(state),
                "player": player,
                "seed": str(seed),
            },
            expected={"ok": True, "state": format_state(sampled)},
        )


_FILLED: Final = {
    "a": "with the card of the placement right after it",
    "b": "with the ACCUMULATOR (else SMART) card of the opponent's sampled tech hand",
    "b2": "with the SMART card of the opponent's sampled tech hand, not its first (SEC)",
    "c": "with the first card of the opponent's sampled tech hand",
    "d": "with the card of the first later move that uses a tech card (here KEEP: no game with "
    "PLACE_AT_ONCE reaches (d), its placements come right after the draw)",
}
