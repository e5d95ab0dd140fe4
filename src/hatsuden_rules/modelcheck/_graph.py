"""Termination and the longest game over the edge records of the fingerprint engine (numpy).

The search writes every transition as (parent number, successor fingerprint). Here the
fingerprints are turned into state numbers (sorting the fingerprints of all states once), and
the graph is peeled from `new_game()` as Kahn's algorithm does, a whole level at a time: a state
joins level k when the last of its predecessors has left, so k is the longest path from the
start to it (every state is reachable from the start, the only state without a predecessor).
If every state is peeled the graph has no cycle (every game ends, R25) and the deepest level is
the longest game; otherwise the states left over lie on or behind a cycle, and walking forward
inside them finds one.

Memory: about 28 bytes per state and 8 per transition at the peak (`bytes_needed`).
"""

from __future__ import annotations

import os
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["bytes_needed", "longest_or_cycle"]

_STEP: Final = 1 << 22


def bytes_needed(states: int, transitions: int) -> int:
    """A bound on the memory `longest_or_cycle` takes for a graph of this size."""
    return 28 * states + 8 * transitions + (64 << 20)


def _edges(
    directory: str, states: int, transitions: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]]:
    """The out-edges as CSR: offsets by state (int64) and successor numbers (uint32)."""
    fps = np.fromfile(os.path.join(directory, "fps.u64"), dtype="<u8", count=states)
    order = np.argsort(fps, kind="stable")
    fps = fps[order]
    targets = np.empty(transitions, dtype=np.uint32)
    with open(os.path.join(directory, "edges_dst.u64"), "rb") as file:
        for start in range(0, transitions, _STEP):
            count = min(_STEP, transitions - start)
            chunk = np.fromfile(file, dtype="<u8", count=count)
            at = np.searchsorted(fps, chunk)
            at[at == states] = 0
            if not np.array_equal(fps[at], chunk):
                raise AssertionError("an edge leads to a fingerprint that was never stored")
            targets[start : start + count] = order[at]
    del fps, order
    sources = np.fromfile(os.path.join(directory, "edges_src.u32"), dtype="<u4", count=transitions)
    offsets = np.zeros(states + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources, minlength=states), out=offsets[1:])
    del sources
    return offsets, targets


def _successors(
    nodes: npt.NDArray[np.integer], offsets: npt.NDArray[np.int64], targets: npt.NDArray[np.uint32]
) -> npt.NDArray[np.uint32]:
    nodes = nodes.astype(np.int64)
    starts = offsets[nodes]
    counts = offsets[nodes + 1] - starts
    total = int(counts.sum())
    if not total:
        return np.empty(0, dtype=np.uint32)
    shift = np.repeat(starts - (np.cumsum(counts) - counts), counts)
    return targets[shift + np.arange(total)]


def longest_or_cycle(directory: str, states: int, transitions: int) -> int | list[int]:
    """The longest path from state 0 if the graph is acyclic, else a cycle (state numbers).

    The graph is read from the engine's files in `directory`: ``fps.u64`` (the fingerprint of
    each state, by number), ``edges_src.u32`` (the parent of each transition, in order) and
    ``edges_dst.u64`` (its successor's fingerprint).
    """
    offsets, targets = _edges(directory, states, transitions)
    indegree = np.bincount(targets, minlength=states).astype(np.int32)
    level: npt.NDArray[np.integer] = np.flatnonzero(indegree == 0)
    peeled, depth = 0, 0
    while level.size:
        peeled += level.size
        following = _successors(level, offsets, targets)
        if not following.size:
            break
        nodes, counts = np.unique(following, return_counts=True)
        indegree[nodes] -= counts.astype(np.int32)
        level = nodes[indegree[nodes] == 0]
        if level.size:
            depth += 1
    if peeled == states:
        return depth
    left = indegree > 0
    v = int(np.flatnonzero(left)[0])
    seen: dict[int, int] = {}
    walk: list[int] = []
    while v not in seen:
        seen[v] = len(walk)
        walk.append(v)
        out = targets[offsets[v] : offsets[v + 1]]
        v = int(out[left[out]][0])
    return [*walk[seen[v] :], v]
