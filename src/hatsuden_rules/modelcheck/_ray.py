"""The distributed native checker: ``hatsuden-check --core native --backend ray`` (issue 21 §3).

The fingerprint space is partitioned among Ray actors, one per worker: each holds a
``hatsuden_native.CheckShard`` (Rust, crate ``hatsuden-check``, module ``shard``) that owns its
part of the visited set, its part of the frontier and the transitions out of its states. This
driver runs the search layer by layer:

1. every actor checks and expands its frontier in Rust and returns one batch of successor
   records per owner (fingerprint, parent number and move rank, packed state);
2. each actor receives its batches straight from the others (Ray's object store, not through
   the driver), keeps the unvisited fingerprints and returns their codes ``parent << 8 | rank``;
3. the driver merges the codes: their order is the numbering of a sequential breadth-first
   search, so the state numbers, the sampled checks (R35 one transition in 16, R36 one position
   in 256), the counterexamples and every figure are those of the single-process run. It keeps
   the parent records (8 bytes a state) and hands each actor the numbers of its new states.

Then termination (R25) and the longest game: in-degrees sent to the owners, and the graph
peeled from the start a level at a time (Kahn). With ``checkpoint``, every actor saves its part
at the end of each layer and the driver its records; a worker that dies stops the run with a
`CheckBackendError`, and ``resume=True`` continues from the last completed layer. A cycle
(R25) is walked as the single-process search walks it, shown as a path and a loop.

Ray must be initialised by the caller (``ray.init``, or `hatsuden_rules.simulation.ray_session`
as the command line does); its actors need ``hatsuden-native`` installed where they run.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from hatsuden_rules import HatsudenError, Rules
from hatsuden_rules.notation import format_rules

__all__ = ["CheckBackendError", "RayStats", "ray_check"]

NO_PARENT: Final = (1 << 64) - 1
_SOUNDNESS_EVERY: Final = 256  # search.rs SOUNDNESS_EVERY


class CheckBackendError(HatsudenError):
    """The distributed check cannot go on: a Ray worker died, or the checkpoint is another run's."""


class RayStats:
    """What a distributed run sent between its processes (for VERIFICATION.md's estimates)."""

    __slots__ = (
        "bytes_codes",
        "bytes_successors",
        "bytes_termination",
        "cpu_seconds",
        "seconds",
        "seconds_driver",
        "seconds_termination",
        "states",
    )

    def __init__(self) -> None:
        self.bytes_successors = 0
        self.bytes_codes = 0
        self.bytes_termination = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0  # of the workers together (their processes' user and system time)
        self.seconds_driver = 0.0  # merging the codes, the parent records, the sampled paths
        self.seconds_termination = 0.0
        self.states = 0

    @property
    def bytes_sent(self) -> int:
        """Every byte that crossed between processes: successors, codes and numbers, in-degrees."""
        return self.bytes_successors + self.bytes_codes + self.bytes_termination

    def as_dict(self) -> dict[str, float]:
        """The figures, with the bytes and the seconds per state."""
        states = max(self.states, 1)
        return {
            "bytes_sent": self.bytes_sent,
            "bytes_successors": self.bytes_successors,
            "bytes_codes": self.bytes_codes,
            "bytes_termination": self.bytes_termination,
            "bytes_per_state": self.bytes_sent / states,
            "seconds": self.seconds,
            "seconds_driver": self.seconds_driver,
            "seconds_termination": self.seconds_termination,
            "microseconds_per_state": 1e6 * self.seconds / states,
            "cpu_microseconds_per_state": 1e6 * self.cpu_seconds / states,
        }


def _worker_class(ray: Any) -> Any:
    """The Ray actor class holding one shard (defined when Ray is there)."""

    @ray.remote(num_cpus=1, max_restarts=0)
    class ShardWorker:
        def __init__(self, rules: str, positions: bool, index: int, shards: int) -> None:
            from hatsuden_native import CheckShard

            self.shard = CheckShard(rules, positions, index, shards)
            self.shards = shards

        def expand(self, paths: dict[int, list[int]]) -> tuple[Any, ...]:
            batches = self.shard.expand(paths)
            counts, found = self.shard.take_counts()
            return (*batches, (counts, found, sum(len(b) for b in batches)))

        def receive(self, *batches: bytes) -> bytes:
            codes: bytes = self.shard.receive(list(batches))
            return codes

        def number(self, numbers: list[int]) -> None:
            self.shard.number(numbers)

        def _spread(self, batches: list[bytes]) -> Any:
            return batches[0] if self.shards == 1 else tuple(batches)

        def edges_out(self) -> Any:
            return self._spread(self.shard.edges_out())

        def indegrees_in(self, *batches: bytes) -> int:
            level: int = self.shard.indegrees_in(list(batches))
            return level

        def peel_out(self) -> Any:
            return self._spread(self.shard.peel_out())

        def peel_in(self, *batches: bytes) -> int:
            level: int = self.shard.peel_in(list(batches))
            return level

        def peeled(self) -> int:
            count: int = self.shard.peeled()
            return count

        def lowest_left(self) -> tuple[int, bytes] | None:
            found: tuple[int, bytes] | None = self.shard.lowest_left()
            return found

        def left(self, key: bytes) -> bool:
            answer: bool = self.shard.left(key)
            return answer

        def successors(self, key: bytes) -> tuple[int, list[bytes]] | None:
            found: tuple[int, list[bytes]] | None = self.shard.successors(key)
            return found

        def save(self, path: str) -> None:
            self.shard.save(path)

        def load(self, path: str) -> None:
            self.shard.load(path)

        def peak_mb(self) -> float:
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

        def cpu_seconds(self) -> float:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        def states(self) -> int:
            count: int = self.shard.states()
            return count

    return ShardWorker


def _exchange(
    ray: Any, actors: list[Any], method: str, outs: list[Any], args: tuple[Any, ...] = ()
) -> list[Any]:
    """Each actor's `method` called with the j-th output of every actor (its batches)."""
    n = len(actors)
    columns = [[outs[i][j] if n > 1 else outs[i] for i in range(n)] for j in range(n)]
    return [getattr(actors[j], method).remote(*columns[j], *args) for j in range(n)]


def _cycle(
    ray: Any, actors: list[Any], ranks_to: Callable[[int], list[int]]
) -> tuple[list[int], int]:
    """A cycle (R25) among the states left after peeling, found as the single-process search does.

    From the lowest-numbered state left, along the first successor left, to a repeat. Returns
    the move ranks from the start through the loop, and the loop's length.
    """
    n = len(actors)

    def owner(key: bytes) -> Any:
        return actors[(int.from_bytes(key, "little") >> 64) % n]

    lowest = [found for found in ray.get([a.lowest_left.remote() for a in actors]) if found]
    key = min(lowest)[1]
    seen: dict[bytes, int] = {}
    walk: list[tuple[int, int]] = []
    while key not in seen:
        seen[key] = len(walk)
        number, successors = ray.get(owner(key).successors.remote(key))
        rank = next(i for i, t in enumerate(successors) if ray.get(owner(t).left.remote(t)))
        walk.append((number, rank))
        key = successors[rank]
    loop = walk[seen[key] :]
    return ranks_to(loop[0][0]) + [rank for _, rank in loop], len(loop)


def ray_check(
    rules: Rules,
    *,
    positions: bool = False,
    workers: int = 1,
    checkpoint: str | None = None,
    resume: bool = False,
    max_states: int | None = None,
    max_violations: int = 10,
    progress: Callable[[str], None] | None = None,
    require_coverage: bool | None = None,
    on_layer: Callable[[int, list[Any]], None] | None = None,
    stats: RayStats | None = None,
) -> dict[str, Any]:
    """Check `rules` with `workers` Ray actors; the JSON document of `native_check_document`.

    `on_layer(depth, actors)` is called after each completed layer (tests kill an actor there).
    `stats`, if given, receives the bytes sent and the time.

    Raises:
        CheckBackendError: A worker died (the message says how to resume), or the checkpoint
            directory holds another run, or none to resume.
        NativeUnavailableError: ``hatsuden-native`` is not installed here.
    """
    import numpy as np
    import ray

    from hatsuden_rules.native import load

    module = load()
    started = time.monotonic()
    stats = stats if stats is not None else RayStats()
    text = format_rules(rules)
    n = workers
    identity = {"rules": text, "positions": positions, "workers": n, "format": 1}
    where = Path(checkpoint) if checkpoint is not None else None
    meta_path = where / "meta.json" if where is not None else None
    if resume and (meta_path is None or not meta_path.exists()):
        raise CheckBackendError(f"no checkpoint to resume in {checkpoint}")
    if not resume and meta_path is not None and meta_path.exists():
        raise CheckBackendError(
            f"{checkpoint} holds a checkpoint: resume it, or use another directory"
        )
    worker = _worker_class(ray)
    actors = [worker.remote(text, positions, i, n) for i in range(n)]
    counters = np.zeros(33, dtype=np.uint64)
    found: list[tuple[int, int, str, str]] = []
    parents = np.array([NO_PARENT], dtype=np.uint64)
    owners = np.zeros(0, dtype=np.int64)  # the shard of each state of the frontier
    depth, states, layer_start, layer_sizes, elapsed, max_depth = 0, 1, 0, [], 0.0, 0
    try:
        if resume and where is not None and meta_path is not None:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if meta["identity"] != identity:
                raise CheckBackendError(
                    f"{checkpoint} holds a run of other rules or another worker count"
                )
            depth, states, layer_start = meta["depth"], meta["states"], meta["layer_start"]
            layer_sizes, elapsed = meta["layer_sizes"], meta["seconds"]
            max_depth = meta["max_depth"]
            counters = np.array(meta["counters"], dtype=np.uint64)
            found = [tuple(f) for f in meta["found"]]
            parents = np.load(where / "parents.npy")
            owners = np.load(where / "owners.npy")
            ray.get(
                [a.load.remote(str(where / f"shard-{i}-{depth}.bin")) for i, a in enumerate(actors)]
            )
        elif where is not None:
            where.mkdir(parents=True, exist_ok=True)
        if not resume:
            # The start state (number 0) is on the shard that owns its fingerprint.
            fronts = ray.get([a.states.remote() for a in actors])
            owners = np.array([fronts.index(1)], dtype=np.int64)

        def ranks_to(number: int) -> list[int]:
            ranks = []
            while int(parents[number]) != NO_PARENT:
                code = int(parents[number])
                ranks.append(code & 255)
                number = code >> 8
            return ranks[::-1]

        stopped_by = None
        max_depth = depth if not resume else max_depth
        while states > layer_start:
            size = states - layer_start
            max_depth = depth
            clock = time.monotonic()
            driver = time.monotonic()
            paths: list[dict[int, list[int]]] = [{} for _ in range(n)]
            if positions:
                first = -(-layer_start // _SOUNDNESS_EVERY) * _SOUNDNESS_EVERY
                for number in range(first, states, _SOUNDNESS_EVERY):
                    paths[int(owners[number - layer_start])][number] = ranks_to(number)
            stats.seconds_driver += time.monotonic() - driver
            outs = [
                a.expand.options(num_returns=n + 1).remote(paths[i]) for i, a in enumerate(actors)
            ]
            codes_refs = _exchange(ray, actors, "receive", [o[:n] if n > 1 else o[0] for o in outs])
            infos = ray.get([o[n] for o in outs])
            codes = ray.get(codes_refs)
            layer_found: list[tuple[int, int, str, str]] = []
            for counts, problems, sent in infos:
                counters += np.array(counts, dtype=np.uint64)
                stats.bytes_successors += sent
                layer_found += [
                    (number, rank, rule, message) for rule, message, number, rank in problems
                ]
            layer_found.sort(key=lambda f: (f[0], f[1]))  # stable: a state's problems in order
            found += layer_found[: max(0, max_violations - len(found))]
            layer_sizes.append(size)
            driver = time.monotonic()
            arrays = [np.frombuffer(c, dtype="<u8") for c in codes]
            every = np.concatenate(arrays)
            order = np.argsort(every, kind="stable")
            new = len(every)
            numbers = np.empty(new, dtype=np.uint64)
            numbers[order] = np.arange(states, states + new, dtype=np.uint64)
            bounds = np.cumsum([0] + [len(a) for a in arrays])
            parents = np.concatenate([parents, every[order]])
            owners = np.repeat(np.arange(n), [len(a) for a in arrays])[order]
            stats.seconds_driver += time.monotonic() - driver
            ray.get(
                [
                    a.number.remote(numbers[bounds[j] : bounds[j + 1]].tolist())
                    for j, a in enumerate(actors)
                ]
            )
            stats.bytes_codes += 16 * new  # each code to the driver, each number back
            layer_start, states, depth = states, states + new, depth + 1
            if where is not None and meta_path is not None:
                ray.get(
                    [
                        a.save.remote(str(where / f"shard-{i}-{depth}.bin"))
                        for i, a in enumerate(actors)
                    ]
                )
                np.save(where / "parents.npy", parents)
                np.save(where / "owners.npy", owners)
                meta = {
                    "identity": identity,
                    "depth": depth,
                    "states": states,
                    "layer_start": layer_start,
                    "layer_sizes": layer_sizes,
                    "max_depth": max_depth,
                    "seconds": elapsed + time.monotonic() - started,
                    "counters": [int(x) for x in counters],
                    "found": found,
                }
                temporary = meta_path.with_suffix(".tmp")
                temporary.write_text(json.dumps(meta), encoding="utf-8")
                os.replace(temporary, meta_path)
                for i in range(n):
                    (where / f"shard-{i}-{depth - 1}.bin").unlink(missing_ok=True)
            if progress is not None:
                seconds = time.monotonic() - clock
                progress(
                    f"depth {depth - 1:>3}  layer {size:>12,}  new {new:>12,}  states {states:>14,}"
                    f"  {size / max(seconds, 1e-9):>9,.0f} states/s  {n} worker(s)"
                )
            if on_layer is not None:
                on_layer(depth, actors)
            if max_states is not None and states > max_states:
                stopped_by = "the state limit"
                break
        longest = None
        cycle: tuple[list[int], int] | None = None
        if stopped_by is None:
            clock = time.monotonic()
            outs = [a.edges_out.options(num_returns=n).remote() for a in actors]
            ray.get(_exchange(ray, actors, "indegrees_in", outs))
            stats.bytes_termination += 16 * int(counters[31])
            levels = 1
            while True:
                outs = [a.peel_out.options(num_returns=n).remote() for a in actors]
                if sum(ray.get(_exchange(ray, actors, "peel_in", outs))) == 0:
                    break
                levels += 1
            stats.bytes_termination += 16 * int(counters[31])
            peeled = sum(ray.get([a.peeled.remote() for a in actors]))
            stats.seconds_termination = time.monotonic() - clock
            if peeled == states:
                longest = levels - 1
            elif len(found) < max_violations:
                cycle = _cycle(ray, actors, ranks_to)
        peak = max(ray.get([a.peak_mb.remote() for a in actors]))
        stats.cpu_seconds = sum(ray.get([a.cpu_seconds.remote() for a in actors]))
    except ray.exceptions.RayTaskError as error:
        reason = " ".join(str(error).split())[:200]
        raise CheckBackendError(f"a Ray worker failed during layer {depth}: {reason}") from None
    except ray.exceptions.RayError as error:
        reason = type(error).__name__
        hint = (
            f"; resume from the last completed layer with --checkpoint {checkpoint} --resume"
            if checkpoint is not None
            else "; give --checkpoint DIR to be able to resume"
        )
        raise CheckBackendError(
            f"a Ray worker died during layer {depth} ({reason}){hint}"
        ) from None
    finally:
        for actor in actors:
            ray.kill(actor)
    violations = []
    for number, rank, rule, message in found:
        ranks = ranks_to(number) + ([rank] if rank >= 0 else [])
        violations.append((rule, message, module.replay_ranks(text, positions, ranks)))
    if cycle is not None:
        ranks, length = cycle
        message = f"a cycle of {length} moves: the game need not end"
        violations.append(("R25", message, module.replay_ranks(text, positions, ranks)))
    seconds = elapsed + time.monotonic() - started
    stats.seconds, stats.states = seconds, states
    document: dict[str, Any] = json.loads(
        module.shard_result(
            text,
            positions=positions,
            workers=n,
            counters=[int(x) for x in counters],
            states=states,
            max_depth=max_depth,
            longest_game=longest,
            violations=violations,
            layer_sizes=layer_sizes,
            seconds=seconds,
            peak_memory_mb=peak,
            require_coverage=require_coverage,
            stopped_by=stopped_by,
            table_bytes=24 * states,
        )
    )
    document["engine"] = "native-ray"
    document["bytes_sent"] = stats.bytes_sent
    return document
