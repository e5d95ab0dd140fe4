"""Termination: whether a rule set admits a game that never ends, and the shortest such game.

`find_endless_game` explores every reachable state of a reduced `Rules` in explicit chance mode,
with the stall counter projected out when there is no stall limit, and returns a shortest cycle
and the path to it. Why the projection is exact: docs/architecture.md ("Termination"). The
command: ``python -m hatsuden_rules.modelcheck.termination --config NAME``.
"""

from __future__ import annotations

import time
from array import array
from collections import deque
from collections.abc import Callable
from typing import Final

import attrs

from hatsuden_rules import GameState, Move, Phase, Rules, apply, legal_moves, new_game
from hatsuden_rules.core.rulesets import TERMINATION_SETS

__all__ = ["TERMINATION_CONFIGS", "TerminationResult", "find_endless_game", "project"]

#: Reduced rule sets for the termination question (`hatsuden_rules.core.rulesets`): the
#: ``printed-*`` ones keep every option of `PRINTED`; ``small-stall`` is the control with the
#: stall rule, where every game ends.
TERMINATION_CONFIGS: Final = TERMINATION_SETS


@attrs.frozen
class TerminationResult:
    """What `find_endless_game` found.

    Attributes:
        rules: The rule set explored.
        states: Reachable states (with the stall counter set to 0 when there is no limit).
        transitions: Moves between them.
        terminal_states: States where the game is over.
        cyclic_states: States from which the game can return to themselves.
        prefix: The shortest path from `new_game()` to the first state of `cycle` (empty when
            there is no cycle).
        cycle: The shortest sequence of moves that returns to the state it starts from, or ()
            when every game ends.
        longest_game: Without a cycle, the most moves a game can last; else None.
        complete: False if `max_states` stopped the exploration (then nothing is proven).
        seconds: Wall time.
    """

    rules: Rules
    states: int
    transitions: int
    terminal_states: int
    cyclic_states: int
    prefix: tuple[Move, ...]
    cycle: tuple[Move, ...]
    longest_game: int | None
    complete: bool
    seconds: float

    @property
    def endless(self) -> bool:
        """True iff a game that never ends exists (a cycle was found)."""
        return bool(self.cycle)

    @property
    def cycle_turns(self) -> int:
        """How many turns the cycle spans (each ends with a draw or EndTurn, R23)."""
        state = _replay(self.rules, self.prefix)
        turns = 0
        for move in self.cycle:
            after = apply(state, move)
            turns += after.current_player != state.current_player
            state = after
        return turns


def project(state: GameState) -> GameState:
    """`state` with its stall counter set to 0 when the rules have no stall limit (R23, R25).

    Without a limit the counter decides nothing, so this identifies states that play alike.
    """
    if state.rules.stall_limit is None and state.stall_count:
        return attrs.evolve(state, stall=0)
    return state


def find_endless_game(
    rules: Rules,
    *,
    max_states: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> TerminationResult:
    """Explore every reachable state of `rules`; return the shortest never-ending game, if any.

    Explicit chance mode: chance outcomes are moves, so a cycle may need particular cards to
    be dealt (it is a game the rules admit, not one that chance forces).

    Examples:
        >>> result = find_endless_game(TERMINATION_CONFIGS["printed-small"])
        >>> result.endless, len(result.cycle), result.cycle_turns
        (True, 4, 2)
        >>> find_endless_game(TERMINATION_CONFIGS["small-stall"]).endless
        False
    """
    start = time.perf_counter()
    root = new_game(rules=rules)
    index: dict[GameState, int] = {root: 0}
    states: list[GameState] = [root]
    parent = array("q", [-1])
    via: list[Move | None] = [None]
    edges = array("q")
    edge_moves: list[Move] = []
    offsets = array("q", [0])
    terminal = 0
    complete = True
    next_report = start + 5.0
    k = 0
    while k < len(states):
        state = states[k]
        moves = legal_moves(state)
        if not moves:
            terminal += 1
        for move in moves:
            after = project(apply(state, move))
            j = index.get(after)
            if j is None:
                j = index[after] = len(states)
                states.append(after)
                parent.append(k)
                via.append(move)
            edges.append(j)
            edge_moves.append(move)
        offsets.append(len(edges))
        k += 1
        if max_states is not None and len(states) > max_states:
            complete = False
            break
        if progress is not None and time.perf_counter() > next_report:
            progress(f"states {len(states):>11,}  expanded {k:>11,}")
            next_report = time.perf_counter() + 5.0
    n = k  # expanded states; the others (if truncated) have no edges
    component = _components(n, offsets, edges)
    sizes: dict[int, int] = {}
    for v in range(n):
        sizes[component[v]] = sizes.get(component[v], 0) + 1
    on_cycle = [
        v
        for v in range(n)
        if sizes[component[v]] > 1 or any(edges[e] == v for e in range(offsets[v], offsets[v + 1]))
    ]
    prefix: tuple[Move, ...] = ()
    cycle: tuple[Move, ...] = ()
    longest: int | None = None
    if on_cycle:
        best: list[int] | None = None
        best_node = -1
        # Every cycle spans whole turns (R23), so it passes through the start of a turn: the
        # entries tried are those, in BFS order, so the first shortest cycle found is one
        # that starts with a turn and is reached by the shortest path among such.
        for v in on_cycle:
            if states[v].phase is not Phase.ACTION or states[v].this_turn:
                continue
            found = _shortest_return(v, offsets, edges, component, len(best) if best else None)
            if found is not None and (best is None or len(found) < len(best)):
                best, best_node = found, v
        assert best is not None
        prefix = _path(best_node, parent, via)
        cycle = tuple(edge_moves[e] for e in best)
    elif complete:
        longest = _longest(n, offsets, edges)
    return TerminationResult(
        rules=rules,
        states=len(states),
        transitions=len(edges),
        terminal_states=terminal,
        cyclic_states=len(on_cycle),
        prefix=prefix,
        cycle=cycle,
        longest_game=longest,
        complete=complete,
        seconds=time.perf_counter() - start,
    )


def _replay(rules: Rules, moves: tuple[Move, ...]) -> GameState:
    state = new_game(rules=rules)
    for move in moves:
        state = apply(state, move)
    return state


def _path(node: int, parent: array[int], via: list[Move | None]) -> tuple[Move, ...]:
    moves: list[Move] = []
    while node > 0:
        move = via[node]
        assert move is not None
        moves.append(move)
        node = parent[node]
    return tuple(reversed(moves))


def _components(n: int, offsets: array[int], edges: array[int]) -> array[int]:
    """Strongly connected components (Tarjan, iterative): a component id per state."""
    order = array("q", [-1]) * n
    low = array("q", [0]) * n
    component = array("q", [-1]) * n
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        work = [(root, offsets[root])]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        while work:
            v, e = work[-1]
            if e < offsets[v + 1]:
                work[-1] = (v, e + 1)
                w = edges[e]
                if w >= n:
                    continue  # an unexpanded state (truncated run)
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    work.append((w, offsets[w]))
                elif component[w] < 0:
                    low[v] = min(low[v], order[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == order[v]:
                while True:
                    w = stack.pop()
                    component[w] = v
                    if w == v:
                        break
    return component


def _shortest_return(
    v: int, offsets: array[int], edges: array[int], component: array[int], limit: int | None
) -> list[int] | None:
    """The edges of a shortest cycle through `v` shorter than `limit`, or None (BFS)."""
    back: dict[int, tuple[int, int]] = {}  # state -> (the edge that reached it first, its source)
    frontier = deque([(v, 0)])
    seen = {v}
    while frontier:
        u, depth = frontier.popleft()
        if limit is not None and depth + 1 >= limit:
            return None
        for e in range(offsets[u], offsets[u + 1]):
            w = edges[e]
            if w == v:
                path = [e]
                while u != v:
                    edge, u = back[u]
                    path.append(edge)
                return list(reversed(path))
            if w not in seen and w < len(component) and component[w] == component[v]:
                seen.add(w)
                back[w] = (e, u)
                frontier.append((w, depth + 1))
    return None


def _longest(n: int, offsets: array[int], edges: array[int]) -> int:
    """The longest path from state 0 in an acyclic graph (reverse topological order)."""
    indegree = array("q", [0]) * n
    for w in edges:
        indegree[w] += 1
    order = [v for v in range(n) if indegree[v] == 0]
    k = 0
    while k < len(order):
        v = order[k]
        k += 1
        for e in range(offsets[v], offsets[v + 1]):
            w = edges[e]
            indegree[w] -= 1
            if indegree[w] == 0:
                order.append(w)
    longest = array("q", [0]) * n
    for v in reversed(order):
        best = 0
        for e in range(offsets[v], offsets[v + 1]):
            best = max(best, longest[edges[e]] + 1)
        longest[v] = best
    return longest[0] if n else 0
