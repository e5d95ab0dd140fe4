"""Breadth-first exploration of every reachable state, with shortest counterexamples."""

from __future__ import annotations

import gc
import resource
import time
from array import array
from collections import Counter
from collections.abc import Callable
from typing import Any

from hatsuden_rules import (
    EndReason,
    GameState,
    IllegalMoveError,
    InvalidInputError,
    Move,
    Phase,
    Rules,
    apply,
    legal_moves,
    new_game,
)
from hatsuden_rules.modelcheck._positions import (
    SOUNDNESS_EVERY,
    knowledge_problems,
    position,
    soundness_problems,
)
from hatsuden_rules.modelcheck._properties import Properties, PropertyChecks, Zones
from hatsuden_rules.modelcheck._result import (
    CheckResult,
    Violation,
    coverage_required,
    required_events,
    verdict,
)
from hatsuden_rules.modelcheck._symmetry import canonical, map_move

__all__ = ["CheckResult", "Violation", "check", "divide", "perft", "required_events"]


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pack(z: Zones) -> int:
    """A state's identity as one int (its three group ids, 32 bits each)."""
    return z[0] | z[1] << 32 | z[2] << 64


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
    exhaustive: bool = False,
    on_state: Callable[[GameState], None] | None = None,
    properties: PropertyChecks | None = None,
    positions: bool = False,
    soundness: bool = False,
    require_coverage: bool | None = None,
    engine: str = "memory",
    workers: int = 1,
    max_memory: int | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
    expected_states: int | None = None,
) -> CheckResult:
    """Explore every state reachable from `new_game(rules=rules)` in explicit chance mode.

    Every state is checked against the invariants of RULES.md and every transition against the
    transition properties (see `_properties`); violations come with the shortest path. The graph
    is then checked for cycles (termination), and its longest game is measured.

    States are stored compactly: a state is known by its three group ids packed into one int
    (`Properties.zones`), with its parent, the move from it and its out-edges in flat arrays;
    the breadth-first frontier is kept as group ids too, and each state is rebuilt from them
    when it is expanded. A path is recovered by replaying the stored moves from `new_game()`.

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
        exhaustive: Run the sampled checks on everything (see `_properties`).
        on_state: Called with every state as it is expanded (for tests and statistics).
        properties: The property checks to run (default: `Properties(rules, ...)`); with
            `positions`, they must identify states by position.
        positions: Identify states by position, without their turn logs and known cards (see
            `_positions`): the known-cards invariant (R36) is then proven step by step with
            `knowledge_problems`, and soundness checked on one expanded position in
            `SOUNDNESS_EVERY` (the real state of its shortest path).
        soundness: Without `positions`: check on every state that its position alone gives the
            same legal moves and successor positions (`soundness_problems`), the premise of a
            search by position.
        require_coverage: Whether an event of `required_events` that never occurs fails a
            complete search (UNCOVERED); by default only for the named configurations
            (`coverage_required`). Unreached events are always listed in `unreached`.
        engine: ``"memory"`` (this exact, in-memory search) or ``"disk"``: the fingerprint
            engine (`_disk.check_disk`, the ``check`` extra: numpy), for 10^8 states and more,
            which takes the arguments below and not `symmetry`, `on_state`, `properties` or
            `soundness`.
        workers: With ``engine="disk"``: processes expanding states.
        max_memory: With ``engine="disk"``: bytes all its processes may hold together.
        checkpoint: With ``engine="disk"``: a directory for the run's files and checkpoints.
        resume: With ``engine="disk"``: continue the run checkpointed in `checkpoint`.
        expected_states: With ``engine="disk"``: the states expected (sizes the table, ETA).

    Raises:
        InvalidInputError: An argument the engine does not take, or a bad checkpoint.
        ImportError: ``engine="disk"`` without numpy (one line naming the extra).

    Examples:
        >>> from hatsuden_rules import Rules
        >>> tiny = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1,
        ...              techs=(), stall_limit=1)
        >>> result = check(tiny)
        >>> result.result, result.states, result.violations
        ('OK', 2145, ())
    """
    if engine == "disk":
        if symmetry or on_state is not None or properties is not None or soundness:
            raise InvalidInputError(
                "engine", "the disk engine takes no symmetry, on_state, properties or soundness"
            )
        return _check_disk(
            rules,
            positions=positions,
            exhaustive=exhaustive,
            max_states=max_states,
            max_depth=max_depth,
            max_seconds=max_seconds,
            max_violations=max_violations,
            progress=progress,
            progress_every=progress_every,
            workers=workers,
            max_memory=max_memory,
            checkpoint=checkpoint,
            resume=resume,
            require_coverage=require_coverage,
            expected_states=expected_states,
        )
    if engine != "memory":
        raise InvalidInputError("engine", f"must be 'memory' or 'disk', got {engine!r}")
    if workers != 1 or max_memory is not None or checkpoint is not None or resume:
        raise InvalidInputError(
            "engine", "workers, max_memory, checkpoint and resume need engine='disk'"
        )
    start = time.perf_counter()
    if properties is not None:
        props = properties
    else:
        props = Properties(rules, exhaustive=exhaustive, positions=positions)
    soundness_checked = 0
    zones = props.zones
    move_index = props.move_index
    state_violations = props.state_violations
    transition_violations = props.transition_violations
    root = new_game(rules=rules)
    z_root = zones(root)
    if positions:
        root = position(root)
    index: dict[int, int] = {_pack(z_root): 0}
    parent = array("i", [-1])
    via = array("i", [-1])  # move_index of the move from the parent (in the stored frame)
    masks = bytearray(1)  # row swaps turning the real state into the stored one (symmetry)
    edges = array("i")
    offsets = array("q", [0])
    violations: list[Violation] = []
    per_turn: Counter[int] = Counter()  # states per turn group (phase, end reason, ...)
    turn_info: dict[int, tuple[Phase, EndReason | None]] = {}
    move_sets: dict[tuple[int, ...], tuple[tuple[Move, ...], list[int]]] = {}
    decided: Counter[str] = Counter()
    truncated = False
    # The breadth-first frontier as the zones of its states (three ints each); a state is
    # rebuilt from them when it is expanded (`state_of`).
    frontier = [array("i", [z]) for z in z_root]
    following: list[array[int]] = [array("i"), array("i"), array("i")]
    state_of = props.state_of
    depth = 0
    layer_start = 0  # index of frontier[0]
    n = 1  # states known
    expanded = 0
    next_report = start + progress_every
    gc_was_enabled = gc.isenabled()
    gc.disable()  # nothing here makes reference cycles; the collector only rescans the graph

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
        state = root
        for j in reversed(nodes):
            move = map_move(props.move_of(via[j]), state.current_player, masks[parent[j]])
            moves.append(move)
            state = apply(state, move)
        return tuple(moves)

    try:
        while frontier[0]:
            cards, grids, turns = frontier
            for k in range(len(cards)):
                zb = (cards[k], grids[k], turns[k])
                state = state_of(zb)
                i = layer_start + k
                if max_depth is not None and depth >= max_depth and not state.is_over:
                    truncated = True
                    offsets.append(len(edges))
                    continue
                if on_state is not None:
                    on_state(state)
                expanded += 1
                moves = legal_moves(state)
                per_turn[zb[2]] += 1
                if zb[2] not in turn_info:
                    turn_info[zb[2]] = (state.phase, state.end_reason)
                problems = state_violations(state, moves, zb)
                if soundness and not positions:
                    problems = [*problems, *soundness_problems(state, moves)]
                    soundness_checked += 1
                elif positions and expanded % SOUNDNESS_EVERY == 1:
                    problems = [*problems, *_position_soundness(state, moves, real_path(i), root)]
                    soundness_checked += 1
                if problems:
                    path = real_path(i)
                    for rule, message in problems:
                        found(rule, message, path)
                if state.is_over:
                    decided[props.decision(zb).name] += 1
                mask = masks[i]
                # Move kinds are counted per distinct tuple of legal moves (kept alive, so the ids
                # of its objects name them).
                ids = tuple(map(id, moves))
                entry = move_sets.get(ids)
                if entry is None:
                    move_sets[ids] = (moves, [1])
                else:
                    entry[1][0] += 1
                for move in moves:
                    try:
                        after = apply(state, move)
                    except IllegalMoveError as error:
                        found(
                            "R35",
                            f"a legal move was refused: {error}",
                            (*real_path(i), map_move(move, state.current_player, mask)),
                        )
                        continue
                    za = zones(after, state, zb)
                    problems = transition_violations(state, move, after, zb, za)
                    if positions:
                        problems = [*problems, *knowledge_problems(state, move, after)]
                    if problems:
                        path = (*real_path(i), map_move(move, state.current_player, mask))
                        for rule, message in problems:
                            found(rule, message, path)
                    swaps = 0
                    if symmetry:
                        child, swaps = canonical(after)
                        if swaps:
                            after, za = child, zones(child)
                    key = za[0] | za[1] << 32 | za[2] << 64  # _pack, inlined
                    j = index.get(key)
                    if j is None:
                        j = index[key] = n
                        n += 1
                        parent.append(i)
                        via.append(move_index(move))
                        masks.append(mask ^ swaps)
                        following[0].append(za[0])
                        following[1].append(za[1])
                        following[2].append(za[2])
                    edges.append(j)
                offsets.append(len(edges))
                if max_states is not None and n > max_states:
                    truncated = True
                    break
                if k & 63:  # look at the clock every 64 states
                    continue
                if max_seconds is not None and time.perf_counter() - start > max_seconds:
                    truncated = True
                    break
                if progress is not None and time.perf_counter() > next_report:
                    elapsed = time.perf_counter() - start
                    progress(
                        f"depth {depth:>4}  states {n:>11,}  queue {n - i - 1:>10,}  "
                        f"{expanded / elapsed:>9,.0f} states/s  {_peak_mb():>8,.0f} MB"
                    )
                    next_report = time.perf_counter() + progress_every
            if truncated:
                break
            layer_start += len(cards)
            frontier, following = following, [array("i"), array("i"), array("i")]
            if frontier[0]:
                depth += 1
    finally:
        if gc_was_enabled:
            gc.enable()

    longest: int | None = None
    if not truncated:
        cycle = _find_cycle(n, offsets, edges)
        if isinstance(cycle, list):
            prefix = real_path(cycle[0])
            loop = []
            state = _replay(root, prefix)
            for b in cycle[1:]:
                move = _edge_move(state, real_path(b), root, symmetry, positions)
                loop.append(move)
                state = apply(state, move)
            found(
                "R25", f"a cycle of {len(loop)} moves: the game need not end", prefix + tuple(loop)
            )
        else:
            longest = cycle

    events: Counter[str] = Counter()
    terminal = Counter[str]()
    chance_nodes = 0
    for t, count in per_turn.items():
        phase, reason = turn_info[t]
        events[f"phase {phase.name}"] += count
        if phase is Phase.CHANCE:
            chance_nodes += count
        if reason is not None:
            terminal[reason.name] += count
            events[f"end {reason.name}"] += count
    for name, count in decided.items():
        events[f"decided {name}"] += count
    for moves, (count,) in move_sets.values():
        for move in moves:
            events[f"move {type(move).__name__}"] += count
    unreached = tuple(sorted(required_events(rules) - set(events))) if not truncated else ()
    required = coverage_required(rules, require_coverage)
    result = verdict(violations, truncated, unreached, required)
    seconds = time.perf_counter() - start
    return CheckResult(
        rules=rules,
        result=result,
        states=n,
        transitions=len(edges),
        terminal_states=sum(terminal.values()),
        terminal_by_reason=dict(sorted(terminal.items())),
        chance_nodes=chance_nodes,
        max_depth=depth + 1 if following[0] else depth,
        longest_game=longest,
        seconds=seconds,
        peak_memory_mb=_peak_mb(),
        violations=tuple(violations),
        unreached=unreached,
        events=dict(sorted(events.items())),
        exhaustive=exhaustive,
        coverage_required=required,
        positions=positions,
        soundness_checked=soundness_checked,
    )


#: The one line a missing numpy gives (``hatsuden-check`` prints it as it is).
DISK_EXTRA_MESSAGE = (
    "the fingerprint engine (--engine disk, --workers, --max-memory, --checkpoint, the choice "
    "and huge configurations) needs the 'check' extra: pip install 'hatsuden-rules[check]'"
)


def _check_disk(rules: Rules, **options: Any) -> CheckResult:
    try:
        from hatsuden_rules.modelcheck._disk import check_disk
    except ModuleNotFoundError as error:
        if error.name != "numpy":
            raise
        raise ImportError(DISK_EXTRA_MESSAGE) from None
    return check_disk(rules, **options)


def _position_soundness(
    state: GameState, moves: tuple[Move, ...], path: tuple[Move, ...], root: GameState
) -> list[tuple[str, str]]:
    """Soundness on the real state of a position: its shortest path replayed with full states."""
    full = new_game(rules=root.rules)
    for move in path:
        full = apply(full, move)
    if position(full) != state:
        return [("R36", "replaying the shortest path does not lead to the position")]
    return soundness_problems(full, moves)


def _replay(root: GameState, path: tuple[Move, ...]) -> GameState:
    state = root
    for move in path:
        state = apply(state, move)
    return state


def _edge_move(
    state: GameState, target: tuple[Move, ...], root: GameState, symmetry: bool, positions: bool
) -> Move:
    """The move from the real `state` to (a real state of the orbit of) the end of `target`.

    By position (R36) states are compared as positions: two paths to one position may leave
    different turn logs.
    """

    def stored(s: GameState) -> GameState:
        s = position(s) if positions else s
        return canonical(s)[0] if symmetry else s

    goal = stored(_replay(root, target))
    for move in legal_moves(state):
        if stored(apply(state, move)) == goal:
            return move
    raise AssertionError("no move joins two consecutive states of a cycle")


def _find_cycle(n: int, offsets: array[int], edges: array[int]) -> int | list[int]:
    """The longest path length from node 0 if the graph is acyclic, else a cycle (node list).

    Kahn's algorithm gives a topological order; nodes left over lie on or behind a cycle, and
    walking forward inside them from any one must repeat a node.
    """
    indegree = array("i", bytes(4 * n))
    for j in edges:
        indegree[j] += 1
    order = array("i", [v for v in range(n) if indegree[v] == 0])  # 4 bytes a state
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
    longest = array("i", bytes(4 * n))
    for v in reversed(order):
        best = 0
        for e in range(offsets[v], offsets[v + 1]):
            best = max(best, longest[edges[e]] + 1)
        longest[v] = best
    return longest[0] if n else 0


def perft(rules: Rules, depth: int) -> list[int]:
    """Number of move paths of each length 1..depth from `new_game(rules=rules)` (R34).

    Chance outcomes count as moves (explicit chance mode), as python-chess counts every ply.

    Examples:
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
