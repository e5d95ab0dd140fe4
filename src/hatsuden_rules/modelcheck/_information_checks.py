"""Non-interference, information sets and sampling, accumulated state by state (R30, R37, R38)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Final

import attrs

from hatsuden_rules import (
    GameState,
    Observation,
    Phase,
    legal_moves,
    legal_moves_from,
    observe,
    sample_state,
)
from hatsuden_rules.modelcheck._consistency import consistency_problems
from hatsuden_rules.modelcheck._perturbations import (
    KINDS,
    _card_perturbations,
    _evolve,
    _generator_perturbations,
)

__all__ = [
    "MAX_PROBLEMS",
    "InformationSets",
    "NonInterference",
    "Observer",
    "Sampling",
    "information_sets",
    "non_interference",
    "sampling",
]

#: What a player is shown of a state: `observe`, or a stand-in (tests use deliberately leaky ones).
Observer = Callable[[GameState, int], Hashable]

MAX_PROBLEMS: Final = 20


def _observe() -> Observer:
    """`observe` as `hatsuden_rules.modelcheck.information` names it (a test may patch it)."""
    from hatsuden_rules.modelcheck import information

    return information.observe


@attrs.frozen
class NonInterference:
    """What `non_interference` checked: perturbed states by kind, and what went wrong."""

    checked: dict[str, int]
    skipped: dict[str, int]
    reachable: int
    problems: tuple[str, ...]
    problem_count: int


@attrs.frozen
class InformationSets:
    """States outside CHANCE and GAME_OVER grouped by the mover's observation (R37)."""

    sets: tuple[int, int]
    states: tuple[int, int]
    largest: tuple[int, int]
    problems: tuple[str, ...]
    problem_count: int


@attrs.frozen
class Sampling:
    """What `sampling` checked: distinct observations, samples drawn, samples not reachable."""

    observations: tuple[int, int]
    samples: int
    unreachable: int
    problems: tuple[str, ...]
    problem_count: int


class _Checks:
    """The three checks, accumulated state by state (one `observe` per state and player)."""

    def __init__(
        self,
        observer: Observer | None,
        reachable: frozenset[GameState] | None,
        seeds: Sequence[int],
        stop_after: int | None,
    ) -> None:
        self.observer = observer if observer is not None else _observe()  # looked up now
        self.reachable = reachable
        self.seeds = tuple(seeds)
        self.stop_after = stop_after
        self.problems: list[str] = []
        self.problem_count = 0
        self.checked: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.hits = 0
        self.groups: dict[tuple[int, Hashable], list[Any]] = {}
        self.decision_states = [0, 0]
        self.seen: set[Hashable] = set()
        self.observations = [0, 0]
        self.samples = 0
        self.unreachable = 0

    @property
    def done(self) -> bool:
        return self.stop_after is not None and self.problem_count >= self.stop_after

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)

    def perturb(
        self,
        state: GameState,
        player: int,
        seen: Hashable,
        changes: Iterable[tuple[str, GameState]],
    ) -> None:
        observer = self.observer
        for kind, changed in changes:
            if kind.startswith("skipped "):
                self.skipped[kind.removeprefix("skipped ")] += 1
                continue
            self.checked[kind] += 1
            if self.reachable is not None and _explicit(changed) in self.reachable:
                self.hits += 1
            elif kind != "generator" and (wrong := consistency_problems(changed)):
                self.problem(f"{kind} made an inconsistent state: {wrong} from {state}")
            after = observer(changed, player)
            if after != seen:
                self.problem(
                    f"R30 leak: a {kind} perturbation of {state} changes what player {player} "
                    f"observes{_difference(seen, after)}"
                )
                if self.done:
                    return

    def group(self, state: GameState, seen: Hashable) -> None:
        mover = state.current_player
        self.decision_states[mover] += 1
        key = (mover, seen)
        moves = legal_moves(state)
        group = self.groups.get(key)
        if group is None:
            self.groups[key] = [moves, 1]
            if isinstance(seen, Observation) and legal_moves_from(seen) != moves:
                self.problem(f"R37: legal_moves_from differs from legal_moves in {state}")
            return
        group[1] += 1
        if group[0] != moves:
            self.problem(
                f"R30: two states player {mover} cannot tell apart have different legal moves, "
                f"{state}: {moves} against {group[0]}"
            )

    def sample(self, state: GameState, player: int, seen: Observation) -> None:
        if seen in self.seen:
            return
        self.seen.add(seen)
        self.observations[player] += 1
        if not seen.is_my_turn and legal_moves_from(seen) != ():
            self.problem(f"R37: legal_moves_from is not empty without a decision, {state}")
        for seed in self.seeds:
            guess = sample_state(seen, seed)
            self.samples += 1
            if observe(guess, player) != seen:
                self.problem(f"R38: sample_state(o, {seed}) does not give o back: {state} {player}")
            if self.reachable is not None and _explicit(guess) in self.reachable:
                continue  # reachable states are checked for consistency once, by the caller
            if self.reachable is not None:
                self.unreachable += 1
            if wrong := consistency_problems(guess):
                self.problem(f"R38: sample_state(o, {seed}) is inconsistent: {wrong}, {state}")

    def run(self, states: Iterable[GameState], *, perturb: bool, group: bool, sample: bool) -> None:
        observer = self.observer
        for state in states:
            decision = state.phase not in _NO_DECISION
            generator = list(_generator_perturbations(state)) if perturb else []
            for player in (0, 1):
                seen = observer(state, player)
                if perturb:
                    self.perturb(state, player, seen, _card_perturbations(state, player))
                    self.perturb(state, player, seen, generator)
                if group and decision and player == state.current_player:
                    self.group(state, seen)
                if sample:
                    assert isinstance(seen, Observation)
                    self.sample(state, player, seen)
                if self.done:
                    return

    def non_interference(self) -> NonInterference:
        return NonInterference(
            dict(sorted(self.checked.items(), key=lambda item: KINDS.index(item[0]))),
            dict(sorted(self.skipped.items(), key=lambda item: KINDS.index(item[0]))),
            self.hits,
            tuple(self.problems),
            self.problem_count,
        )

    def information_sets(self) -> InformationSets:
        sets = [0, 0]
        largest = [0, 0]
        for (mover, _), (_, size) in self.groups.items():
            sets[mover] += 1
            largest[mover] = max(largest[mover], size)
        return InformationSets(
            (sets[0], sets[1]),
            (self.decision_states[0], self.decision_states[1]),
            (largest[0], largest[1]),
            tuple(self.problems),
            self.problem_count,
        )

    def sampling(self) -> Sampling:
        return Sampling(
            (self.observations[0], self.observations[1]),
            self.samples,
            self.unreachable,
            tuple(self.problems),
            self.problem_count,
        )


_NO_DECISION: Final = frozenset({Phase.CHANCE, Phase.GAME_OVER})


def _explicit(state: GameState) -> GameState:
    return state if state.rng_state is None else _evolve(state, rng=None)


def _difference(a: object, b: object) -> str:
    if not isinstance(a, Observation) or not isinstance(b, Observation):
        return ""
    fields = attrs.fields(Observation)
    names = [f.name for f in fields if getattr(a, f.name) != getattr(b, f.name)]
    return f" (fields {', '.join(names)})"


def non_interference(
    states: Iterable[GameState],
    *,
    observer: Observer | None = None,
    reachable: frozenset[GameState] | None = None,
    stop_after: int | None = None,
) -> NonInterference:
    """Check that no perturbation of `states` changes what either player observes (R30, R37).

    Every perturbed state that is not in `reachable` is also checked to be consistent
    (`consistency_problems`): a check of the generator itself.

    Args:
        states: The states to perturb (all reachable states, for a proof).
        observer: The function under test; by default `observe` (this module's name for it,
            looked up at each call, so a test may also monkeypatch it).
        reachable: If given, count the perturbed states that are in it (a measure of how
            realistic the perturbations are; not a requirement).
        stop_after: Stop after this many problems (a leak test needs only one).
    """
    checks = _Checks(observer, reachable, (), stop_after)
    checks.run(states, perturb=True, group=False, sample=False)
    return checks.non_interference()


def information_sets(
    states: Iterable[GameState], *, observer: Observer | None = None
) -> InformationSets:
    """Group the decision states by the mover's observation; moves must agree in each group.

    Within a group `legal_moves` must be identical (R30: what a player may do depends only on
    what they know), and `legal_moves_from` of the group's observation must return exactly
    those moves (R37).
    """
    checks = _Checks(observer, None, (), None)
    checks.run(states, perturb=False, group=True, sample=False)
    return checks.information_sets()


def sampling(
    states: Iterable[GameState],
    *,
    seeds: Sequence[int] = (0, 1),
    reachable: frozenset[GameState] | None = None,
) -> Sampling:
    """For every distinct observation of `states` (both players), sample with each seed (R38).

    Each sample must give back the observation and be consistent (`consistency_problems`; a
    sample in `reachable` is consistent since every reachable state is); with `reachable`,
    samples outside it are counted. Without a decision to make, `legal_moves_from` must be
    empty (R37).
    """
    checks = _Checks(None, reachable, seeds, None)
    checks.run(states, perturb=False, group=False, sample=True)
    return checks.sampling()
