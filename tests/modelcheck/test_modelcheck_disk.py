"""The fingerprint engine finds what the exact engine finds (R1-R36), on one core or two.

`hatsuden-check --engine disk` keeps 64-bit fingerprints in a compact table and the frontier and
parent records on disk. These tests compare it with the exact in-memory engine on the small
configuration (counts, events, longest game, counterexamples), check that one and two worker
processes give identical results, that a run stopped by a limit resumes from its checkpoint to
the same result, that the memory limit stops a run, and that a cycle (R25) is found and shown.
The choice configuration (two-card hands, all four tech cards), the same engine by position on
two cores against its golden numbers, is `make verify`'s (a minute); `make test` has it from
the native checker (native/hatsuden-check/tests/golden.rs) and these tests on small.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

from hatsuden_rules import (
    GameState,
    InvalidInputError,
    Move,
    Rules,
    Tech,
    apply,
    legal_moves,
    new_game,
)
from hatsuden_rules.modelcheck import (
    CONFIGS,
    CheckResult,
    Problem,
    Properties,
    _disk,
    _expander,
    _explore,
    _properties,
    check,
)
from hatsuden_rules.modelcheck._fingerprint import (
    CARDS,
    GRIDS,
    TURN,
    collision_bound,
    collision_probability,
    group_hash,
)
from hatsuden_rules.modelcheck._positions import position
from hatsuden_rules.modelcheck._properties import Zones
from hatsuden_rules.modelcheck._table import FingerprintTable, TableFull
from tests.support.paths import GOLDEN_DIR

SMALL = CONFIGS["small"]
GOLDEN = json.loads((GOLDEN_DIR / "modelcheck.json").read_text())["configs"]
SAME = (
    "result",
    "states",
    "transitions",
    "terminal_states",
    "terminal_by_reason",
    "chance_nodes",
    "max_depth",
    "longest_game",
    "unreached",
    "events",
    "positions",
)


def same(a: CheckResult, b: CheckResult) -> None:
    for name in SAME:
        assert getattr(a, name) == getattr(b, name), name


@cache
def memory(positions: bool) -> CheckResult:
    return check(SMALL, positions=positions)


@cache
def disk(positions: bool, workers: int = 1) -> CheckResult:
    return check(SMALL, positions=positions, engine="disk", workers=workers)


# -- the table ---------------------------------------------------------------------------------


def test_the_table_is_a_set_of_fingerprints() -> None:
    rng = np.random.default_rng(7)
    values = rng.integers(0, 2**64 - 1, size=200_000, dtype=np.uint64, endpoint=True)
    values[:50] = 0  # stored as 1
    table, seen = FingerprintTable(), set()
    for start in range(0, len(values), 9_000):
        batch = np.concatenate([values[start : start + 9_000], values[max(0, start - 4_000) :][:7]])
        expected = []
        for value in (int(v) or 1 for v in batch):
            expected.append(value not in seen)
            seen.add(value)
        assert table.insert(batch).tolist() == expected
    assert len(table) == len(seen)
    assert all(int(v) in table for v in values[::997])
    assert 8.0 <= table.nbytes / len(table) <= 16.0  # 10 to 15 bytes a state, 8 a slot
    assert 2**64 - 2 not in table or 2**64 - 2 in seen


def test_the_table_stops_before_passing_its_memory() -> None:
    table = FingerprintTable(max_bytes=1 << 20)
    starts = range(0, 1 << 20, 10_000)
    # Distinct fingerprints spread over the table as real ones are (an odd multiplier is a
    # bijection modulo 2**64); small consecutive numbers would all share bucket 0 and make every
    # insertion a long probe, which tests nothing more and took a minute.
    spread = np.uint64(0x9E3779B97F4A7C15)
    batches = [np.arange(k + 1, k + 10_001, dtype=np.uint64) * spread for k in starts]
    stored = 0
    while len(table) < 2**20 // 8:
        try:
            table.insert(batches[stored])
        except TableFull:
            break
        stored += 1
    else:
        raise AssertionError("the table passed its limit")
    assert len(table) == 10_000 * stored > 0
    assert table.nbytes <= 1 << 20


# -- fingerprints --------------------------------------------------------------------------------


def _group_hashes(states: Sequence[GameState]) -> list[tuple[int, int, int]]:
    props = Properties(SMALL)
    out = []
    for state in states:
        c, g, t = props.zones(state)
        out.append(
            (
                group_hash(CARDS, props._card_values[c]),
                group_hash(GRIDS, props._grid_values[g]),
                group_hash(TURN, props._turn_values[t]),
            )
        )
    return out


def walk(rules: Rules = SMALL, plies: int = 300) -> list[GameState]:
    out, state = [], new_game(rules=rules)
    for ply in range(plies):
        if state.is_over:
            state = new_game(rules=rules)
        out.append(state)
        moves = legal_moves(state)
        state = apply(state, moves[(ply * 3) % len(moves)])
    return out


def test_group_hashes_are_the_same_in_another_process() -> None:
    """Enums hash by identity and sets by it too: the canonical text avoids both."""
    states = walk()
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        theirs = pool.apply(_group_hashes, (states,))
    assert theirs == _group_hashes(states)


def test_fingerprints_tell_the_states_of_small_apart() -> None:
    seen: list[GameState] = []
    check(SMALL, on_state=seen.append)
    fingerprints = {sum(parts) % 2**64 for parts in _group_hashes(seen)}
    assert len(fingerprints) == len(seen) == 44_513


def test_collision_estimates() -> None:
    assert collision_probability(10, 10) == 0.0
    assert collision_probability(2**32, 2**33) == pytest.approx(1.0)
    assert collision_bound(2**32 + 1) == pytest.approx(0.5)


# -- the same results as the exact engine --------------------------------------------------------


@pytest.mark.parametrize("positions", [False, True])
def test_the_disk_engine_finds_what_the_memory_engine_finds(positions: bool) -> None:
    exact, fingerprinted = memory(positions), disk(positions)
    same(exact, fingerprinted)
    assert (fingerprinted.result, fingerprinted.engine) == ("OK", "disk")
    assert fingerprinted.collision_probability is not None
    assert 0 < fingerprinted.collision_probability < 1e-9
    assert 8 * fingerprinted.states <= fingerprinted.table_bytes <= 16 * fingerprinted.states


def test_two_workers_give_the_same_result_as_one() -> None:
    one, two = disk(True), disk(True, 2)
    same(one, two)
    assert two.workers == 2
    assert two.soundness_checked > 0


class RowOfTwo(Properties):
    """The real properties plus a made-up one: no row may supply exactly 2."""

    def state_violations(self, state: GameState, moves: Sequence[Move], z: Zones) -> list[Problem]:
        problems = list(super().state_violations(state, moves, z))
        if any(state.row_supply(p, r) == 2 for p in (0, 1) for r in (0, 1)):
            problems.append(("R99", "a row supplies 2"))
        return problems


TWO_COLUMNS = Rules(
    energies=2,
    max_value=1,
    copies=1,
    hand_size=1,
    city_demand=1,
    techs=frozenset({Tech.ACCUMULATOR}),
    allow_retake_discard=False,
    stall_limit=2,
)


def test_counterexamples_are_rebuilt_from_the_parent_records(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    exact = check(TWO_COLUMNS, properties=RowOfTwo(TWO_COLUMNS), max_violations=5)
    monkeypatch.setattr(_expander, "Properties", RowOfTwo)
    found = check(TWO_COLUMNS, engine="disk", max_violations=5)
    assert found.result == exact.result == "VIOLATION"
    assert [v.rule for v in found.violations] == [v.rule for v in exact.violations]
    assert [len(v.path) for v in found.violations] == [len(v.path) for v in exact.violations]
    for violation in found.violations:  # each is a real game ending in a row of 2
        state = new_game(rules=TWO_COLUMNS)
        for move in violation.path:
            state = apply(state, move)
        assert any(state.row_supply(p, r) == 2 for p in (0, 1) for r in (0, 1))


def test_a_cycle_is_found_and_shown_r25(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that need not end (R25) is a cycle of the state graph: found and shown.

    The engine's stall counter always counts up, so no rule set has a cycle: this one is made
    by an `apply` whose stall counter stops at 1, without a stall limit.
    """
    endless = Rules(
        energies=1,
        max_value=1,
        copies=2,
        hand_size=1,
        city_demand=1,
        techs=frozenset(),
        stall_limit=None,
    )

    def forgetful(state: GameState, move: Move) -> GameState:
        after = apply(state, move)
        return attrs.evolve(after, stall=1) if after.stall_count > 1 else after

    for module in (_explore, _expander, _disk, _properties):
        monkeypatch.setattr(module, "apply", forgetful)
    many = 10_000  # the capped counter also breaks R23 on every stalled turn
    for positions in (False, True):
        for result in (
            check(endless, max_violations=many, positions=positions),
            check(endless, engine="disk", max_violations=many, positions=positions),
        ):
            cycles = [v for v in result.violations if v.rule == "R25"]
            assert result.result == "VIOLATION"
            assert result.longest_game is None
            assert len(cycles) == 1
            loop = int(cycles[0].message.split()[3])
            states = [new_game(rules=endless)]
            for move in cycles[0].path:
                states.append(forgetful(states[-1], move))
            assert loop > 0
            # By position (R36) the loop returns to the position: the turn logs may differ.
            same = position if positions else (lambda s: s)
            assert same(states[-1]) == same(states[-1 - loop])


# -- checkpoints, limits ---------------------------------------------------------------------------


def test_a_stopped_run_resumes_to_the_same_result(tmp_path: Path) -> None:
    where = str(tmp_path / "run")
    stopped = check(SMALL, positions=True, engine="disk", checkpoint=where, max_states=9_000)
    assert (stopped.result, stopped.stopped_by) == ("TRUNCATED", "the state limit")
    with pytest.raises(InvalidInputError, match="holds a checkpoint"):
        check(SMALL, positions=True, engine="disk", checkpoint=where)
    with pytest.raises(InvalidInputError, match="other rules"):
        check(SMALL, engine="disk", checkpoint=where, resume=True)
    resumed = check(SMALL, positions=True, engine="disk", checkpoint=where, resume=True)
    same(resumed, disk(True))
    again = check(SMALL, positions=True, engine="disk", checkpoint=where, resume=True, workers=2)
    same(again, resumed)  # a finished checkpoint gives its result again
    with pytest.raises(InvalidInputError, match="no checkpoint"):
        check(SMALL, engine="disk", checkpoint=str(tmp_path / "none"), resume=True)


def test_the_memory_limit_stops_the_run() -> None:
    result = check(SMALL, engine="disk", max_memory=1 << 20)
    assert result.result == "TRUNCATED"
    assert result.stopped_by is not None
    assert "memory limit" in result.stopped_by


def test_the_memory_engine_refuses_disk_options() -> None:
    with pytest.raises(InvalidInputError, match="engine='disk'"):
        check(SMALL, workers=2)
    with pytest.raises(InvalidInputError, match="disk engine takes no"):
        check(SMALL, engine="disk", symmetry=True)


# -- the command line ---------------------------------------------------------------------------


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hatsuden_rules.modelcheck", "--quiet", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_the_command_line_engine_options(tmp_path: Path) -> None:
    done = run_cli("--config", "small", "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert (data["engine"], data["workers"], data["positions"]) == ("disk", 2, False)
    assert data["states"] == GOLDEN["small"]["states"]
    for flags, message in (
        (["--engine", "memory", "--workers", "2"], "--workers need --engine disk"),
        (["--resume"], "--resume needs --checkpoint DIR"),
        (["--engine", "disk", "--symmetry"], "need --engine memory"),
        (["--max-memory", "lots"], "must be a size"),
    ):
        failed = run_cli("--config", "small", *flags)
        assert failed.returncode == 2
        assert message in failed.stderr
        assert "Traceback" not in failed.stderr
    stopped = run_cli("--config", "small", "--checkpoint", str(tmp_path / "c"), "--max-depth", "4")
    assert stopped.returncode == 2
    assert "--resume" in stopped.stderr.splitlines()[-1]


def test_without_numpy_the_disk_engine_names_the_extra() -> None:
    script = (
        "import sys; sys.modules['numpy'] = None\n"
        "from hatsuden_rules.cli._check import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    base = [sys.executable, "-c", script, "--quiet", "--config", "small"]
    exact = subprocess.run(base, capture_output=True, text=True, timeout=120, check=False)
    assert exact.returncode == 0, exact.stderr  # the in-memory engine needs no numpy
    done = subprocess.run(
        [*base, "--engine", "disk"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "hatsuden-check: error: the fingerprint engine (--engine disk, --workers, --max-memory,"
        " --checkpoint, the choice and huge configurations) needs the 'check' extra: pip install"
        " 'hatsuden-rules[check]'"
    ]


def test_the_frontier_is_read_a_chunk_at_a_time(tmp_path: Path) -> None:
    """A layer file is served chunk by chunk, in order, and the chunks make up the whole file."""
    from hatsuden_rules.modelcheck import _disk

    size = 2 * _disk.CHUNK + 5
    layer = np.zeros(size, dtype=_disk._LAYER)
    layer["c"] = np.arange(size, dtype=np.uint64) * 3
    layer["g"] = np.arange(size, dtype=np.uint64) * 5
    layer["t"] = np.arange(size, dtype=np.uint64) * 7
    layer["n"] = np.arange(size, dtype=np.int64)
    path = tmp_path / "layer_0.bin"
    layer.tofile(path)
    chunks = _disk._Chunks(str(path))
    assert (chunks.size, len(chunks), chunks.sizes) == (size, 3, [_disk.CHUNK, _disk.CHUNK, 5])
    for key, column in zip("cgtn", zip(*chunks, strict=True), strict=True):
        dtype = "<i8" if key == "n" else "<u8"
        whole = np.concatenate([np.frombuffer(part, dtype=dtype) for part in column])
        assert np.array_equal(whole, layer[key])
    assert chunks[2][3] == layer["n"][-5:].tobytes()  # any chunk, in any order
    chunks.close()
    empty = tmp_path / "layer_1.bin"
    empty.write_bytes(b"")
    nothing = _disk._Chunks(str(empty))
    assert (nothing.size, len(nothing), list(nothing)) == (0, 0, [])
    nothing.close()
