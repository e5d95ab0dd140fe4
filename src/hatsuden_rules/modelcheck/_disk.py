"""The fingerprint engine: breadth-first search of 10^8 states and more on one machine (numpy).

Visited states are 64-bit fingerprints (`_fingerprint`) in a compact table (`_table`);
everything else is on disk, in one directory, checkpointed at every layer. The files, the
workers and the memory bound: docs/architecture.md ("The fingerprint engine").
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import pickle
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, BinaryIO, Final

import numpy as np
import numpy.typing as npt

from hatsuden_rules import InvalidInputError, Move, Rules, apply, legal_moves, to_dict
from hatsuden_rules.modelcheck._expander import (
    ChunkResult,
    Expander,
    Group,
    LayerStats,
    current_rss,
    serve,
)
from hatsuden_rules.modelcheck._fingerprint import collision_bound, collision_probability
from hatsuden_rules.modelcheck._graph import bytes_needed, longest_or_cycle
from hatsuden_rules.modelcheck._positions import position
from hatsuden_rules.modelcheck._result import (
    CheckResult,
    Violation,
    coverage_required,
    required_events,
    verdict,
)
from hatsuden_rules.modelcheck._table import FingerprintTable

__all__ = ["CHUNK", "check_disk"]

#: Frontier states per chunk of work.
CHUNK: Final = 4096
FORMAT: Final = 1
_LAYER: Final = np.dtype([("c", "<u8"), ("g", "<u8"), ("t", "<u8"), ("n", "<i8")])
_MEMORY_MARGIN: Final = 0.95  # stop before the measured memory passes this share of the limit
_FILES: Final = {
    "fps": ("fps.u64", 8),
    "parents": ("parents.i64", 8),
    "ranks": ("ranks.u16", 2),
    "src": ("edges_src.u32", 4),
    "dst": ("edges_dst.u64", 8),
}


class _Stop(Exception):
    """A limit stopped the search; the message says which."""


class _Workers:
    """The expanding processes (or the coordinator's own `Expander` when there is one)."""

    def __init__(self, rules: Rules, settings: dict[str, Any], count: int) -> None:
        self.local: Expander | None = None
        self.connections: list[Connection] = []
        self.processes: list[BaseProcess] = []
        self.rss = [0] * count
        if count == 1:
            self.local = Expander(rules, **settings)
            return
        context = multiprocessing.get_context("spawn")
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=serve, args=(theirs, rules, settings), daemon=True)
            process.start()
            theirs.close()
            self.connections.append(mine)
            self.processes.append(process)

    def learn(self, groups: list[Group], skip: int | None = None) -> None:
        if self.local is not None:
            self.local.learn(groups)
        for k, connection in enumerate(self.connections):
            if k != skip:
                connection.send(("learn", groups))

    def run(
        self,
        chunks: _Chunks,
        at_limit: bool,
        absorb: Callable[[ChunkResult], None],
    ) -> None:
        """Expand `chunks`, giving each result to `absorb` in chunk order."""
        if self.local is not None:
            for cards, grids, turns, numbers in chunks:
                result = self.local.expand(
                    np.frombuffer(cards, dtype="<u8").tolist(),
                    np.frombuffer(grids, dtype="<u8").tolist(),
                    np.frombuffer(turns, dtype="<u8").tolist(),
                    np.frombuffer(numbers, dtype="<i8").tolist(),
                    at_limit,
                )
                self.rss[0] = 0  # the coordinator's own memory is measured by the caller
                absorb(result)
            return
        done: dict[int, ChunkResult] = {}
        busy = [0] * len(self.connections)
        sent = absorbed = 0
        while absorbed < len(chunks):
            for k, connection in enumerate(self.connections):
                while busy[k] < 2 and sent < len(chunks):
                    connection.send(("expand", sent, chunks[sent], at_limit))
                    busy[k] += 1
                    sent += 1
            for ready in wait(self.connections):
                assert isinstance(ready, Connection)
                _, chunk, result = ready.recv()
                k = self.connections.index(ready)
                busy[k] -= 1
                self.rss[k] = result.rss
                done[chunk] = result
            while absorbed in done:
                absorb(done.pop(absorbed))
                absorbed += 1

    def end_layer(self) -> tuple[list[LayerStats], list[list[Group]]]:
        if self.local is not None:
            return [self.local.layer_stats()], [self.local.fresh_groups()]
        for connection in self.connections:
            connection.send(("layer",))
        replies = [connection.recv() for connection in self.connections]
        return [stats for _, stats, _ in replies], [fresh for _, _, fresh in replies]

    def close(self) -> None:
        for connection in self.connections:
            with contextlib.suppress(OSError):
                connection.send(("stop",))
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()


class _Chunks:
    """The frontier of one layer, read from its file a chunk at a time (never held whole).

    A layer of 10^8 states is 3.2 GB on disk; read a chunk at a time (plain reads, not a memory
    map, whose pages would count as the coordinator's resident memory), the coordinator's memory
    does not grow with the frontier.
    """

    def __init__(self, path: str) -> None:
        self.size = os.path.getsize(path) // _LAYER.itemsize
        self.file: BinaryIO | None = open(path, "rb")  # noqa: SIM115 (closed by `close`)
        self.sizes = [min(CHUNK, self.size - begin) for begin in range(0, self.size, CHUNK)]

    def __len__(self) -> int:
        return len(self.sizes)

    def __iter__(self) -> Iterator[tuple[bytes, bytes, bytes, bytes]]:
        return (self[k] for k in range(len(self.sizes)))

    def __getitem__(self, k: int) -> tuple[bytes, bytes, bytes, bytes]:
        """Chunk `k`: the cards, grids and turn hashes and the numbers of its states."""
        assert self.file is not None
        self.file.seek(k * CHUNK * _LAYER.itemsize)
        part = np.fromfile(self.file, dtype=_LAYER, count=self.sizes[k])
        return (
            part["c"].tobytes(),
            part["g"].tobytes(),
            part["t"].tobytes(),
            part["n"].tobytes(),
        )

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class _Store:
    """The files of a run: append-only records, the layers, the groups, the checkpoint."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.files: dict[str, BinaryIO] = {}

    def path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def open(self, lengths: dict[str, int]) -> None:
        """Open the record files for appending, cut to `lengths` records (the checkpoint's)."""
        for key, (name, size) in _FILES.items():
            file = open(self.path(name), "ab")  # noqa: SIM115 (closed by `close`)
            file.truncate(lengths.get(key, 0) * size)
            self.files[key] = file

    def append(self, key: str, values: npt.NDArray[Any]) -> None:
        self.files[key].write(values.tobytes())

    def flush(self) -> None:
        for file in self.files.values():
            file.flush()

    def close(self) -> None:
        for file in self.files.values():
            file.close()
        self.files.clear()

    def layer(self, depth: int) -> str:
        return self.path(f"layer_{depth}.bin")

    def write_meta(self, meta: dict[str, Any]) -> None:
        temporary = self.path("meta.json.new")
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(meta, file)
        os.replace(temporary, self.path("meta.json"))

    def read_meta(self) -> dict[str, Any] | None:
        try:
            with open(self.path("meta.json"), encoding="utf-8") as file:
                data = json.load(file)
        except FileNotFoundError:
            return None
        assert isinstance(data, dict)
        return data

    def add_groups(self, groups: list[Group]) -> None:
        with open(self.path("groups.pkl"), "ab") as file:
            pickle.dump(groups, file, protocol=pickle.HIGHEST_PROTOCOL)

    def groups(self, records: int) -> list[Group]:
        """The groups of the first `records` records (those of the checkpoint; later ones go)."""
        out: list[Group] = []
        with open(self.path("groups.pkl"), "r+b") as file:
            for _ in range(records):
                out.extend(pickle.load(file))
            file.truncate(file.tell())
        return out


def _format_eta(seconds: float | None) -> str:
    if seconds is None:
        return "ETA unknown"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"ETA {hours}:{rest // 60:02}:{rest % 60:02}"


def check_disk(
    rules: Rules,
    *,
    positions: bool = False,
    exhaustive: bool = False,
    max_states: int | None = None,
    max_depth: int | None = None,
    max_seconds: float | None = None,
    max_violations: int = 10,
    progress: Callable[[str], None] | None = None,
    progress_every: float = 5.0,
    workers: int = 1,
    max_memory: int | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
    require_coverage: bool | None = None,
    expected_states: int | None = None,
) -> CheckResult:
    """Search every state reachable from `new_game(rules=rules)` with the fingerprint engine.

    The checks, the result and its verdict are those of `check` (see there for the arguments
    they share); the state identity is a 64-bit fingerprint, so a collision could hide a state
    with the probability the result reports.

    Args:
        rules: The rule set.
        positions: Identify states by position (`_positions`).
        exhaustive: Run the sampled property checks on everything.
        max_states: Stop (TRUNCATED) once this many states are known.
        max_depth: Do not expand states at this depth.
        max_seconds: Stop (TRUNCATED) after this long (this session).
        max_violations: Keep at most this many violations.
        progress: Called with a progress line (with an ETA) every `progress_every` seconds.
        progress_every: Seconds between progress lines.
        workers: Processes expanding states (1: the calling process alone).
        max_memory: Bytes the processes may hold together; the run stops before passing it.
        checkpoint: A directory for the run's files, kept afterwards: a checkpoint is written
            there at the end of every layer. None: a temporary directory, removed at the end.
        resume: Continue the run checkpointed in `checkpoint` (same rules and identity).
        require_coverage: As for `check`.
        expected_states: The number of states expected (a golden count): sizes the table
            and gives the ETA.

    Raises:
        InvalidInputError: A checkpoint is missing, or present without `resume`, or made with
            other rules.
    """
    start = time.perf_counter()
    if workers < 1:
        raise InvalidInputError("workers", f"must be >= 1, got {workers}")
    owned = checkpoint is None
    directory = tempfile.mkdtemp(prefix="hatsuden-check-") if checkpoint is None else checkpoint
    os.makedirs(directory, exist_ok=True)
    store = _Store(directory)
    settings: dict[str, Any] = {"positions": positions, "exhaustive": exhaustive}
    identity = {"format": FORMAT, "rules": to_dict(rules), **settings}
    meta = store.read_meta()
    if meta is not None and not resume:
        raise InvalidInputError(
            "checkpoint", f"{directory} holds a checkpoint: resume it, or use another directory"
        )
    if meta is None and resume:
        raise InvalidInputError("checkpoint", f"no checkpoint to resume in {directory}")
    if meta is not None and {key: meta.get(key) for key in identity} != identity:
        raise InvalidInputError(
            "checkpoint", f"{directory} holds a run of other rules or another identity"
        )
    group = _Workers(rules, {**settings, "records": directory}, workers)
    limits = {
        "max_states": max_states,
        "max_depth": max_depth,
        "max_seconds": max_seconds,
        "max_violations": max_violations,
        "max_memory": max_memory,
        "progress": progress,
        "progress_every": progress_every,
        "expected_states": expected_states,
    }
    try:
        search = _Search(
            rules,
            store,
            group,
            limits,
            positions=positions,
            exhaustive=exhaustive,
            workers=workers,
            start=start,
        )
        search.begin(meta, identity)
        search.run()
        return search.result(require_coverage)
    finally:
        group.close()
        store.close()
        if owned:
            shutil.rmtree(directory, ignore_errors=True)


class _Search:
    """One run of the fingerprint engine: the layer loop, its checkpoints, and the result."""

    def __init__(
        self,
        rules: Rules,
        store: _Store,
        group: _Workers,
        limits: dict[str, Any],
        *,
        positions: bool,
        exhaustive: bool,
        workers: int,
        start: float,
    ) -> None:
        self.rules, self.store, self.group = rules, store, group
        self.limits = limits
        self.positions, self.exhaustive, self.workers = positions, exhaustive, workers
        self.start = start
        self.helper = group.local or Expander(
            rules, positions=positions, exhaustive=exhaustive, records=store.directory
        )
        expected = limits["expected_states"]
        self.table = FingerprintTable(capacity=expected or 0)
        self.stopped_by: str | None = None
        self.next_report = start + limits["progress_every"]
        self.session_expanded = 0
        self.meta: dict[str, Any] = {}
        # The layer in progress.
        self.depth = 0
        self.size = 0
        self.done = 0
        self.absorbed = 0
        self.chunk_sizes: list[int] = []
        self.following: BinaryIO | None = None

    # -- start or resume --------------------------------------------------------------------------

    def begin(self, meta: dict[str, Any] | None, identity: dict[str, Any]) -> None:
        """Start afresh (write the start state) or resume from the checkpoint `meta`."""
        store, helper, group = self.store, self.helper, self.group
        if meta is None:
            self.meta = {
                **identity,
                "depth": 0,
                "states": 1,
                "transitions": 0,
                "group_records": 0,
                "events": {},
                "terminal": {},
                "chance_nodes": 0,
                "expanded": 0,
                "soundness_checked": 0,
                "violations": [],
                "truncated": False,
                "seconds": 0.0,
                "peak_rss": 0,
                "layer_sizes": [],
            }
            store.open({})
            parts = helper.fingerprint_parts(helper.root)
            fp = np.array([parts], dtype="<u8").sum(axis=1, dtype=np.uint64)
            self.table.insert(fp)
            store.append("fps", fp)
            store.append("parents", np.array([-1], dtype="<i8"))
            store.append("ranks", np.array([0], dtype="<u2"))
            layer = np.zeros(1, dtype=_LAYER)
            layer["c"], layer["g"], layer["t"] = parts
            layer.tofile(store.layer(0))
            store.flush()
            if group.local is None:
                fresh = helper.fresh_groups()
                store.add_groups(fresh)
                group.learn(fresh)
                self.meta["group_records"] = 1
            store.write_meta(self.meta)
        else:
            self.meta = meta
            states, transitions = meta["states"], meta["transitions"]
            store.open(
                {"fps": states, "parents": states, "ranks": states}
                | {"src": transitions, "dst": transitions}
            )
            groups = store.groups(meta["group_records"])
            group.learn(groups)
            if group.local is None:
                helper.learn(groups)
            fps = np.memmap(store.path("fps.u64"), dtype="<u8", mode="r")
            for begin in range(0, states, 1 << 22):
                self.table.insert(np.array(fps[begin : begin + (1 << 22)]))
            del fps
        self.depth = int(self.meta["depth"])
        self.violations: list[tuple[str, str, int, int]] = [
            (str(rule), str(message), int(number), int(rank))
            for rule, message, number, rank in self.meta["violations"]
        ]
        self.events: Counter[str] = Counter(self.meta["events"])
        self.terminal: Counter[str] = Counter(self.meta["terminal"])
        self.peak = int(self.meta["peak_rss"])

    # -- the layer loop ---------------------------------------------------------------------------

    def memory_now(self) -> int:
        total = current_rss() + sum(self.group.rss)
        self.peak = max(self.peak, total)
        return total

    def run(self) -> None:
        """Expand layer after layer until none is left or a limit stops the search."""
        store = self.store
        while True:
            chunks = _Chunks(store.layer(self.depth))
            self.size = chunks.size
            if not self.size:
                chunks.close()
                return
            max_depth = self.limits["max_depth"]
            at_limit = max_depth is not None and self.depth >= max_depth
            self.chunk_sizes = chunks.sizes
            self.done = self.absorbed = 0
            with open(store.layer(self.depth + 1), "wb") as self.following:
                try:
                    self.group.run(chunks, at_limit, self.absorb)
                except _Stop as stop:
                    self.stopped_by = str(stop)
                    return
                finally:
                    chunks.close()
            self.end_layer()

    def absorb(self, result: ChunkResult) -> None:
        """Keep the new successors of one chunk (in chunk order) and check the limits."""
        meta, store, limits = self.meta, self.store, self.limits
        parents = np.frombuffer(result.parents, dtype="<i8")
        ranks = np.frombuffer(result.ranks, dtype="<u2")
        cards = np.frombuffer(result.cards, dtype="<u8")
        grids = np.frombuffer(result.grids, dtype="<u8")
        turns = np.frombuffer(result.turns, dtype="<u8")
        fps = cards + grids + turns  # modulo 2**64
        max_memory = limits["max_memory"]
        if max_memory is not None:
            grown = self.table.grown_bytes(len(fps))
            if grown > self.table.nbytes and self.memory_now() + grown > max_memory:
                raise _Stop("the memory limit (the fingerprint table must grow)")
        new = self.table.insert(fps)
        count = int(np.count_nonzero(new))
        n = meta["states"]
        store.append("fps", fps[new])
        store.append("parents", parents[new])
        store.append("ranks", ranks[new])
        store.append("src", parents.astype("<u4"))
        store.append("dst", fps)
        records = np.empty(count, dtype=_LAYER)
        records["c"], records["g"], records["t"] = cards[new], grids[new], turns[new]
        records["n"] = np.arange(n, n + count, dtype=np.int64)
        assert self.following is not None
        records.tofile(self.following)
        meta["states"] = n + count
        meta["transitions"] += len(fps)
        meta["truncated"] = meta["truncated"] or result.truncated
        for found in result.found:
            if len(self.violations) < limits["max_violations"]:
                self.violations.append(found)
        size = self.chunk_sizes[self.absorbed]
        self.absorbed += 1
        self.done += size
        self.session_expanded += size
        if max_memory is not None and self.memory_now() > _MEMORY_MARGIN * max_memory:
            raise _Stop("the memory limit (--max-memory)")
        if limits["max_states"] is not None and meta["states"] > limits["max_states"]:
            raise _Stop("the state limit")
        elapsed = time.perf_counter() - self.start
        if limits["max_seconds"] is not None and elapsed > limits["max_seconds"]:
            raise _Stop("the time limit")
        if limits["progress"] is not None and time.perf_counter() > self.next_report:
            self.report(elapsed)

    def report(self, elapsed: float) -> None:
        """A progress line: depth, states, the layer's progress, rate, memory, ETAs."""
        memory = self.memory_now()
        rate = self.session_expanded / elapsed if elapsed else 0.0
        expected = self.limits["expected_states"]
        eta: float | None = None
        if expected and rate:
            expanded = self.meta["expanded"] + self.session_expanded
            eta = max(expected - expanded, 0) / rate
        layer_eta = (self.size - self.done) / rate if rate else None
        self.limits["progress"](
            f"depth {self.depth:>3}  states {self.meta['states']:>13,}  "
            f"layer {self.done:>11,}/{self.size:,}  {rate:>8,.0f} states/s  "
            f"{memory / 2**20:>8,.0f} MB  layer {_format_eta(layer_eta)}  "
            f"total {_format_eta(eta)}"
        )
        self.next_report = time.perf_counter() + self.limits["progress_every"]

    def end_layer(self) -> None:
        """Sum the counts, share the new groups, and write the checkpoint."""
        store, group, helper, meta = self.store, self.group, self.helper, self.meta
        store.flush()
        stats, fresh = group.end_layer()
        for one in stats:
            self.events.update(one.events)
            self.terminal.update(one.terminal)
            meta["chance_nodes"] += one.chance_nodes
            meta["expanded"] += one.expanded
            meta["soundness_checked"] += one.soundness_checked
            self.peak = max(self.peak, one.peak_rss)
        if group.local is None:
            shared: list[Group] = []
            for k, groups in enumerate(fresh):
                if groups:
                    group.learn(groups, skip=k)
                    helper.learn(groups)
                    shared.extend(groups)
        else:
            shared = fresh[0]
        store.add_groups(shared)
        self.depth += 1
        meta.update(
            depth=self.depth,
            group_records=meta["group_records"] + 1,
            events=dict(self.events),
            terminal=dict(self.terminal),
            violations=[list(v) for v in self.violations],
            seconds=meta["seconds"] + time.perf_counter() - self.start,
            peak_rss=self.peak,
            layer_sizes=[*meta["layer_sizes"], self.size],
        )
        store.write_meta(meta)
        meta["seconds"] -= time.perf_counter() - self.start  # counted again at the end
        os.remove(store.layer(self.depth - 1))

    # -- the result -------------------------------------------------------------------------------

    def result(self, require_coverage: bool | None) -> CheckResult:
        """Termination, the counterexamples' paths, and the verdict."""
        meta, store, helper = self.meta, self.store, self.helper
        store.flush()
        n, e = meta["states"], meta["transitions"]
        truncated = meta["truncated"] or self.stopped_by is not None
        violations = [_violation(helper, *found) for found in self.violations]
        longest: int | None = None
        max_memory, max_violations = self.limits["max_memory"], self.limits["max_violations"]
        if not truncated:
            if max_memory is not None and self.memory_now() + bytes_needed(n, e) > max_memory:
                self.stopped_by = "the memory limit (the termination pass)"
                truncated = True
            else:
                cycle = longest_or_cycle(store.directory, n, e)
                if isinstance(cycle, list):
                    if len(violations) < max_violations:
                        violations.append(_cycle_violation(helper, store, cycle))
                else:
                    longest = cycle
        events = self.events
        unreached: tuple[str, ...] = ()
        if not truncated:
            unreached = tuple(sorted(required_events(self.rules) - set(events)))
        required = coverage_required(self.rules, require_coverage)
        return CheckResult(
            rules=self.rules,
            result=verdict(violations, truncated, unreached, required),
            states=n,
            transitions=e,
            terminal_states=sum(self.terminal.values()),
            terminal_by_reason=dict(sorted(self.terminal.items())),
            chance_nodes=meta["chance_nodes"],
            max_depth=_max_depth(store, self.depth),
            longest_game=longest,
            seconds=meta["seconds"] + time.perf_counter() - self.start,
            peak_memory_mb=max(self.peak, self.memory_now()) / 2**20,
            violations=tuple(violations),
            unreached=unreached,
            events=dict(sorted(events.items())),
            exhaustive=self.exhaustive,
            coverage_required=required,
            positions=self.positions,
            engine="disk",
            workers=self.workers,
            soundness_checked=meta["soundness_checked"],
            collision_probability=collision_probability(n, e + 1),
            collision_bound=collision_bound(n),
            table_bytes=self.table.nbytes,
            stopped_by=self.stopped_by,
        )


def _max_depth(store: _Store, depth: int) -> int:
    """The depth of the deepest state found (the layers expanded, and one more if it has any)."""
    path = store.layer(depth)
    pending = os.path.exists(path) and os.path.getsize(path) > 0
    return depth if pending else max(depth - 1, 0)


def _violation(helper: Expander, rule: str, message: str, number: int, rank: int) -> Violation:
    ranks = helper.ranks_to(number) + ([rank] if rank >= 0 else [])
    moves, _, _ = helper.replay(ranks)
    return Violation(rule, message, tuple(moves))


def _cycle_violation(helper: Expander, store: _Store, cycle: list[int]) -> Violation:
    """A cycle as the shortest path to its first state, then the loop back to it (R25)."""
    fps = np.memmap(store.path("fps.u64"), dtype="<u8", mode="r")
    prefix, stored, _ = helper.replay(helper.ranks_to(cycle[0]))
    loop: list[Move] = []
    for target in cycle[1:]:
        for move in legal_moves(stored):
            after = apply(stored, move)
            if helper.positions:
                after = position(after)
            if sum(helper.fingerprint_parts(after)) % 2**64 == int(fps[target]):
                loop.append(move)
                stored = after
                break
        else:
            raise AssertionError("no move joins two consecutive states of a cycle")
    return Violation(
        "R25", f"a cycle of {len(loop)} moves: the game need not end", (*prefix, *loop)
    )
