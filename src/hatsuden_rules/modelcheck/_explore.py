"""Breadth-first exploration of every reachable state, with shortest counterexamples."""

from __future__ import annotations

import itertools
import resource
import time
from array import array
from collections import Counter
from collections.abc import Callable

import attrs

from .. import (
    Decision,
    EndReason,
    GameState,
    IllegalMoveError,
    Move,
    Phase,
    Rules,
    Tech,
    Tiebreak,
    apply,
    legal_moves,
    new_game,
    score,
)
from ._properties import Properties, PropertyChecks, Zones
from ._symmetry import canonical, map_move

__all__ = ["CheckResult", "Violation", "check", "divide", "perft", "required_events"]


@attrs.frozen
class Violation:
    """A broken property, with the shortest move sequence from `new_game()` that shows it."""

    rule: str
    message: str
    path: tuple[Move, ...]


@attrs.frozen
class CheckResult:
    """What an exhaustive check found. `result` is OK, VIOLATION or TRUNCATED."""

    rules: Rules
    result: str
    states: int
    transitions: int
    terminal_states: int
    terminal_by_reason: dict[str, int]
    chance_nodes: int
    max_depth: int
    longest_game: int | None
    seconds: float
    peak_memory_mb: float
    violations: tuple[Violation, ...]
    unreached: tuple[str, ...]
    events: dict[str, int]

    @property
    def states_per_second(self) -> float:
        """Distinct states explored per second."""
        return self.states / self.seconds if self.seconds else 0.0


def required_events(rules: Rules) -> set[str]:
    """What a complete check of `rules` must reach at least once (non-vacuity).

    Every move kind the rules make possible, every phase, both end conditions, and each step of
    the winner decision (R29): a higher total, tie-break 1 and tie-break 2.
    """
    kinds = {
        "Construct",
        "BuildPylon",
        "Discard",
        "Pass",
        "DrawFromDeck",
        "DrawFromDiscard",
        "EndTurn",
        "Deal",
    }
    techs = rules.techs
    if techs:
        kinds |= {"DrawTech", "DeclineTech", "DealTech"}
    if rules.max_value >= 2:  # a strictly higher (or, with Down, lower) card exists
        kinds.add("Improve")
        if Tech.DOWN in techs:
            kinds.add("Downsize")
    for tech, kind in (
        (Tech.ACCUMULATOR, "PlaceAccumulator"),
        (Tech.SMART, "PlaceSmart"),
    ):
        if tech in techs:
            kinds.add(kind)
    if rules.energies >= 2 and rules.energies * rules.max_value > rules.tolerance:
        kinds.add("Flip")
    phases = {f"phase {p.name}" for p in Phase}
    if "Flip" not in kinds:
        phases.discard("phase OVERFLOW")
    if not techs:
        phases.discard("phase TECH")
    ends = {f"end {r.name}" for r in EndReason}
    if rules.stall_limit is None:
        ends.discard("end STALL")
    first = Decision.SUPPLY if rules.tiebreak is Tiebreak.SUPPLY else Decision.CITY_POINTS
    decisions = {f"decided {d.name}" for d in (Decision.TOTAL, first, Decision.SECOND_PLAYER)}
    return {f"move {k}" for k in kinds} | phases | ends | decisions


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check(
    rules: Rules,
    *,
    max_states: int | None = None,
    max_depth: int | None = None,
    max_seconds: float | None = None,
    max_violations: int = 10,
    progress: Callable[[str], None] | None = None,
    progress_every: float = 5.0,
    symmetry: bool = False,
    on_state: Callable[[GameState], None] | None = None,
    properties: PropertyChecks | None = None,
) -> CheckResult:
    """Explore every state reachable from `new_game(rules=rules)` in explicit chance mode.

    Every state is checked against the invariants of RULES.md and every transition against the
    transition properties (see `_properties`); violations come with the shortest path. The graph
    is then checked for cycles (termination), and its longest game is measured.

    Args:
        rules: The rule set to explore.
        max_states: Stop (TRUNCATED) once this many states are known.
        max_depth: Do not expand states at this depth (TRUNCATED if any is left unexpanded).
        max_seconds: Stop (TRUNCATED) after this long.
        max_violations: Keep at most this many violations.
        progress: Called with a progress line every `progress_every` seconds.
        progress_every: Seconds between progress lines.
        symmetry: Explore one state per orbit of the row swaps (see `_symmetry`); paths of
            violations are mapped back to real move sequences.
        on_state: Called with every state as it is expanded (for tests and statistics).
        properties: The property checks to run (default: `Properties(rules)`).

    Example:
        >>> from hatsuden_rules import Rules
        >>> tiny = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1,
        ...              techs=(), stall_limit=1)
        >>> result = check(tiny)
        >>> result.result, result.states, result.violations
        ('OK', 1617, ())
    """
    start = time.perf_counter()
    properties = properties if properties is not None else Properties(rules)
    zones = properties.zones
    state_violations = properties.state_violations
    transition_violations = properties.transition_violations
    root = new_game(rules=rules)
    index: dict[GameState, int] = {root: 0}
    states: list[GameState] = [root]
    parent = array("q", [-1])
    masks = bytearray(1)  # row swaps turning the real state into the stored one (symmetry)
    via: list[Move | None] = [None]
    depth = array("l", [0])
    edges = array("q")
    offsets = array("q", [0])
    violations: list[Violation] = []
    events: Counter[str] = Counter()
    terminal = Counter[str]()
    chance_nodes = 0
    truncated = False
    fresh: dict[int, Zones] = {}  # zones of discovered, not yet expanded states
    next_report = start + progress_every

    def found(rule: str, message: str, path: tuple[Move, ...]) -> None:
        if len(violations) < max_violations:
            violations.append(Violation(rule, message, path))

    def real_path(node: int) -> tuple[Move, ...]:
        """The moves from `new_game()` to `node`, as a real game plays them."""
        nodes = []
        while node > 0:
            nodes.append(node)
            node = parent[node]
        moves = []
        for j in reversed(nodes):
            move = via[j]
            assert move is not None
            p = parent[j]
            moves.append(map_move(move, states[p].current_player, masks[p]))
        return tuple(moves)

    def real_move(node: int, move: Move) -> Move:
        return map_move(move, states[node].current_player, masks[node])

    i = 0
    while i < len(states):
        state = states[i]
        d = depth[i]
        if max_depth is not None and d >= max_depth and not state.is_over:
            truncated = True
            offsets.append(len(edges))
            i += 1
            continue
        if on_state is not None:
            on_state(state)
        moves = legal_moves(state)
        zb = fresh.pop(i, None) or zones(state)
        events[f"phase {state.phase.name}"] += 1
        if state.phase is Phase.CHANCE:
            chance_nodes += 1
        for rule, message in state_violations(state, moves, zb):
            found(rule, message, real_path(i))
        if state.is_over:
            assert state.end_reason is not None
            terminal[state.end_reason.name] += 1
            events[f"end {state.end_reason.name}"] += 1
            events[f"decided {score(state).decided_by.name}"] += 1
        for move in moves:
            events[f"move {type(move).__name__}"] += 1
            try:
                after = apply(state, move)
            except IllegalMoveError as error:
                found(
                    "R35",
                    f"a legal move was refused: {error}",
                    (*real_path(i), real_move(i, move)),
                )
                continue
            child, swaps = canonical(after) if symmetry else (after, 0)
            j = index.get(child)
            za = fresh.get(j) if j is not None and not swaps else None
            if za is None:
                za = zones(after)
            if j is None:
                j = len(states)
                index[child] = j
                states.append(child)
                parent.append(i)
                masks.append(masks[i] ^ swaps)
                via.append(move)
                depth.append(d + 1)
                if not swaps:
                    fresh[j] = za  # reused when `child` is expanded
            edges.append(j)
            for rule, message in transition_violations(state, move, after, zb, za):
                found(rule, message, (*real_path(i), real_move(i, move)))
        offsets.append(len(edges))
        i += 1
        if max_states is not None and len(states) > max_states:
            truncated = True
            break
        if max_seconds is not None and time.perf_counter() - start > max_seconds:
            truncated = True
            break
        if progress is not None and time.perf_counter() > next_report:
            elapsed = time.perf_counter() - start
            progress(
                f"depth {d:>4}  states {len(states):>11,}  queue {len(states) - i:>10,}  "
                f"{i / elapsed:>9,.0f} states/s  {_peak_mb():>8,.0f} MB"
            )
            next_report = time.perf_counter() + progress_every

    longest: int | None = None
    if not truncated:
        cycle = _find_cycle(len(states), offsets, edges)
        if isinstance(cycle, list):
            prefix = real_path(cycle[0])
            loop = tuple(
                real_move(a, _edge_move(states, a, b, symmetry))
                for a, b in itertools.pairwise(cycle)
            )
            found("R25", f"a cycle of {len(loop)} moves: the game need not end", prefix + loop)
        else:
            longest = cycle

    unreached = tuple(sorted(required_events(rules) - set(events))) if not truncated else ()
    if violations or unreached:
        result = "VIOLATION"
    elif truncated:
        result = "TRUNCATED"
    else:
        result = "OK"
    return CheckResult(
        rules=rules,
        result=result,
        states=len(states),
        transitions=len(edges),
        terminal_states=sum(terminal.values()),
        terminal_by_reason=dict(sorted(terminal.items())),
        chance_nodes=chance_nodes,
        max_depth=max(depth),
        longest_game=longest,
        seconds=time.perf_counter() - start,
        peak_memory_mb=_peak_mb(),
        violations=tuple(violations),
        unreached=unreached,
        events=dict(sorted(events.items())),
    )


def _edge_move(states: list[GameState], a: int, b: int, symmetry: bool) -> Move:
    for move in legal_moves(states[a]):
        after = apply(states[a], move)
        if (canonical(after)[0] if symmetry else after) == states[b]:
            return move
    raise AssertionError("no move joins two consecutive states of a cycle")


def _find_cycle(n: int, offsets: array[int], edges: array[int]) -> int | list[int]:
    """The longest path length from node 0 if the graph is acyclic, else a cycle (node list).

    Kahn's algorithm gives a topological order; nodes left over lie on or behind a cycle, and
    walking forward inside them from any one must repeat a node.
    """
    indegree = array("l", bytes(8 * n)) if n else array("l")
    for j in edges:
        indegree[j] += 1
    order = [v for v in range(n) if indegree[v] == 0]
    k = 0
    while k < len(order):
        v = order[k]
        k += 1
        for e in range(offsets[v], offsets[v + 1]):
            j = edges[e]
            indegree[j] -= 1
            if indegree[j] == 0:
                order.append(j)
    if len(order) < n:
        left = {v for v in range(n) if indegree[v] > 0}
        v = min(left)
        seen: dict[int, int] = {}
        walk: list[int] = []
        while v not in seen:
            seen[v] = len(walk)
            walk.append(v)
            v = next(edges[e] for e in range(offsets[v], offsets[v + 1]) if edges[e] in left)
        return [*walk[seen[v] :], v]
    longest = array("l", bytes(8 * n)) if n else array("l")
    for v in reversed(order):
        best = 0
        for e in range(offsets[v], offsets[v + 1]):
            best = max(best, longest[edges[e]] + 1)
        longest[v] = best
    return longest[0] if n else 0


def perft(rules: Rules, depth: int) -> list[int]:
    """Number of move paths of each length 1..depth from `new_game(rules=rules)` (R34).

    Chance outcomes count as moves (explicit chance mode), as python-chess counts every ply.

    Example:
        >>> from hatsuden_rules import Rules
        >>> perft(Rules(), 2)  # 20 distinct cards, still 20 after one copy of any is dealt
        [20, 400]
    """
    return _path_counts(new_game(rules=rules), depth)


def divide(rules: Rules, depth: int) -> list[tuple[Move, int]]:
    """For each first move, the number of move paths of length `depth` that start with it."""
    root = new_game(rules=rules)
    return [
        (move, _path_counts(apply(root, move), depth - 1)[-1] if depth > 1 else 1)
        for move in legal_moves(root)
    ]


def _path_counts(root: GameState, depth: int) -> list[int]:
    """Paths of each length 1..depth from `root`, merging transpositions layer by layer."""
    counts: list[int] = []
    layer: dict[GameState, int] = {root: 1}
    for _ in range(depth):
        following: dict[GameState, int] = {}
        paths = 0
        for state, n in layer.items():
            for move in legal_moves(state):
                child = apply(state, move)
                following[child] = following.get(child, 0) + n
                paths += n
        counts.append(paths)
        layer = following
    return counts
