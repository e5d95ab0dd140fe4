"""Mutation testing of the native rules crate in two stages, and the score of every shard.

``make mutation-native MUTANTS_SHARD=k/n`` runs ``python3 -m tools.mutants_native run k/n``;
``make mutation-native-score`` runs ``python3 -m tools.mutants_native score`` (MUTATION.md, "Rust
rules crate"). cargo-mutants (https://mutants.rs, configured by ``native/.cargo/mutants.toml``)
does the mutating and testing; this script decides what each stage tests and keeps the outcomes.

- **Stage 1, the rules crate's integration tests** (every mutant of the shard): ``cargo test -p
  hatsuden --test rules``, the one integration-test binary (every conformance vector, the golden
  perft and state counts of ``small``, the robustness and API tests). Only the rules crate is
  rebuilt per mutant, once (its unit tests would compile it a second time, with ``cfg(test)``).
- **Stage 2, the rules crate's unit tests** (only the mutants stage 1 missed): ``cargo test -p
  hatsuden --lib``.
- **Stage 3, the native model checker** (only the mutants stages 1 and 2 missed): ``cargo test
  -p hatsuden-check --test golden``, every invariant of the checker on ``small`` against its
  golden counts (one thread and two, a checkpointed run, the exact value of ``small``).

A shard works in a disposable copy of the committed sources (``git archive HEAD``: commit
first), ``build/mutation-native/work-I/src`` (the
crate's tests read ``../../conformance`` and ``../../tests/golden``, which cargo-mutants' own copy
of ``native/`` would not have), mutated in place there and never in this tree, and builds into
``work-I/target``: the first work folder no other run holds (a lock), so two shards run side by
side and the next shard in the same folder rebuilds only what changed. A shard's outcomes
accumulate in ``build/mutation-native/shard-K-of-N/results.tsv``, one ``outcome<TAB>mutant``
line per mutant tested, the outcome one of ``caught`` (by the rules
crate's tests), ``checker`` (caught by the checker), ``missed``, ``timeout``, ``unviable`` or
``pending`` (missed by the crate's tests so far, not yet through stage 3). The unmutated tree is
built and tested once per work folder and commit (``work-I/baseline.txt`` names the commit),
not once per shard. Running a shard again continues it:
only its mutants without an outcome (and those pending) are tested; ``--retest-missed`` tests
the missed and pending ones again from stage 1 (after a new test). A mutant is known by its
name (file, line, column and mutation): outcomes of mutants whose name no longer exists are
dropped, and a mutant already judged in another shard (the round-robin shards move when a commit
adds or removes mutants) keeps that outcome instead of being tested again; judged in several
(or committed), it counts with its strongest outcome (``STRENGTH``: the tests only grow, so the
strongest is the newest). A ``results.tsv``
names the git blob of each source file its outcomes were judged on (``# blob`` lines), and the
outcomes of a file changed since are dropped too (in it, a name may now be another mutant); the
output of a stopped run, merged by the next, counts as judged on the sources of that next run,
so continue a stopped shard before changing the crate.

The outcomes can travel with the repository: ``save`` writes every judged outcome to
``native/mutants-outcomes.tsv`` with the git blob of each mutated source file
(``native/hatsuden/src``) as it was judged. A run on another machine adopts them as if another
shard had judged them, and ``score`` counts them, for the files still the same blob; the
mutants of a file changed since are tested again (``score`` and ``run`` say how many).

    python3 -m tools.mutants_native run 0/64 [--retest-missed]
    python3 -m tools.mutants_native score [--missed]
    python3 -m tools.mutants_native save
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mutation-native"
# What the crates' tests read, copied beside the mutated copy of native/.
COPIED = ("native", "conformance", "tests/golden", "src/hatsuden_rules/modelcheck")
OUTCOMES = ("caught", "checker", "missed", "timeout", "unviable", "pending")
STAGE_1 = ("--test-package=hatsuden", "--cargo-arg=--test=rules")
# cargo-mutants' exit code when the unmutated tree fails to build or to pass its tests.
BASELINE_FAILED = 4
# Stage 1's test timeout when its baseline is skipped (the work folder already passed it for this
# commit): the integration tests take about a second; mutants.toml's minimum is a minute.
STAGE_1_TIMEOUT = "--timeout=60"
# Stages 2 and 3 skip cargo-mutants' unmutated run ("baseline"): it tests the mutated package
# (hatsuden) whatever --test-package says, so it could not run the checker's `--test golden`, and
# stage 1 has built and tested the unmutated tree. They set the test timeout themselves (their
# tests take a few seconds).
STAGE_2 = (
    "--test-package=hatsuden",
    "--cargo-arg=--lib",
    "--baseline=skip",
    "--timeout=120",
)
STAGE_3 = (
    "--test-package=hatsuden-check",
    "--cargo-arg=--test=golden",
    "--baseline=skip",
    "--timeout=120",
)
# The outcomes committed with the blobs of the source files they were judged on (`save`).
SAVED = ROOT / "native" / "mutants-outcomes.tsv"
# The mutated sources (native/.cargo/mutants.toml, examine_globs); `save` names each by its blob.
SOURCES = "native/hatsuden/src"
# The stages' output folders in a shard's folder, by stage number.
STAGE_DIRS = {1: "rules", 2: "unit", 3: "checker"}


def shard_dir(shard: str) -> Path:
    """The folder of shard ``k/n``."""
    k, n = shard.split("/")
    return BUILD / f"shard-{k}-of-{n}"


def load(path: Path, blobs: dict[str, str] | None = None) -> dict[str, str]:
    """A shard's ``results.tsv``: mutant name -> outcome.

    With `blobs` (the source files' blobs now), only the outcomes of files that are still the
    blob the file's ``# blob`` lines name (`save`): in a file changed since, a name may now be
    another mutant. A file written before results carried blobs has none, and is taken whole.
    """
    results: dict[str, str] = {}
    judged_on: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# blob "):
                _, _, blob, file = line.split(" ", 3)
                judged_on[file] = blob
                continue
            outcome, _, name = line.partition("\t")
            if outcome in OUTCOMES and name:
                results[name] = outcome
    if blobs is not None and judged_on:
        results = {
            m: o
            for m, o in results.items()
            if judged_on.get(m.split(":", 1)[0], "?") == blobs.get(m.split(":", 1)[0])
        }
    return results


def save(path: Path, results: dict[str, str], blobs: dict[str, str] | None = None) -> None:
    """Write ``results.tsv`` (sorted by name), atomically.

    With `blobs`, first a ``# blob`` line for each source file: the blobs the outcomes were
    judged on, read back by `load`.
    """
    tmp = path.with_suffix(".tmp")
    header = "".join(f"# blob {blob} {file}\n" for file, blob in sorted((blobs or {}).items()))
    lines = "".join(f"{o}\t{m}\n" for m, o in sorted(results.items()))
    tmp.write_text(header + lines, encoding="utf-8")
    tmp.replace(path)


def read_output(out: Path, stage: int) -> dict[str, str]:
    """The outcomes in one cargo-mutants output folder (``out/mutants.out``), if any."""
    done = out / "mutants.out"
    missed = "pending" if stage < 3 else "missed"
    caught = "caught" if stage < 3 else "checker"
    outcomes: dict[str, str] = {}
    for name, outcome in (
        ("caught.txt", caught),
        ("missed.txt", missed),
        ("timeout.txt", "timeout"),
        ("unviable.txt", "unviable"),
    ):
        file = done / name
        if file.is_file():
            for mutant in file.read_text(encoding="utf-8").splitlines():
                if mutant:
                    outcomes[mutant] = outcome
    return outcomes


def merge(out: Path, stage: int, results: dict[str, str]) -> int:
    """Fold one cargo-mutants output folder into `results`; the number of outcomes read.

    The folder is renamed afterwards, so that an output is merged once even if a later run is
    stopped before it writes its own.
    """
    done = out / "mutants.out"
    if not done.is_dir():
        return 0
    outcomes = read_output(out, stage)
    results.update(outcomes)
    merged = out / "mutants.out.merged"
    shutil.rmtree(merged, ignore_errors=True)
    done.rename(merged)
    return len(outcomes)


def busy(folder: Path) -> bool:
    """Whether a process (a cargo or rustc left by a killed run) works in `folder`."""
    inside = str(folder.resolve()) + os.sep
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if (os.readlink(proc / "cwd") + os.sep).startswith(inside):
                return True
        except OSError:
            continue
    return False


@contextlib.contextmanager
def work_folder() -> Iterator[Path]:
    """The first ``work-I`` folder no other run holds, held until the run ends."""
    BUILD.mkdir(parents=True, exist_ok=True)
    for i in range(64):
        lock = (BUILD / f"work-{i}.lock").open("w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        if busy(BUILD / f"work-{i}"):
            lock.close()  # a build of a run that was killed still works there
            continue
        try:
            yield BUILD / f"work-{i}"
        finally:
            lock.close()
        return
    sys.exit("no free work folder in build/mutation-native (64 runs at once?)")


def copy_sources(src: Path) -> None:
    """A fresh copy of what the tests need, as committed (``git archive HEAD``).

    The outcomes then belong to a commit, and an edit in progress in the tree never leaks into
    a run; outside a git checkout, the files as they are (never the build outputs).
    """
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", "HEAD", "--", *COPIED],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if archive.returncode == 0:
        # --touch: every file is newer than the work folder's last build, so Cargo rebuilds
        # from these sources (with their commit's times it could take a newer build of other
        # sources for up to date).
        subprocess.run(["tar", "-x", "--touch", "-C", str(src)], input=archive.stdout, check=True)
        return
    ignore = shutil.ignore_patterns("target", "__pycache__", "*.pyc")
    for part in COPIED:
        shutil.copytree(ROOT / part, src / part, ignore=ignore, copy_function=shutil.copy)


def cargo_mutants(native: Path, target: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cargo mutants ARGS`` in the copy, at the lowest priority, its output shown."""
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    command = ["nice", "-n", "19", "cargo", "mutants", *args]
    return subprocess.run(command, cwd=native, env=env, text=True, check=False)


def listed(native: Path, *args: str) -> list[str]:
    """The mutants' names (``cargo mutants --list``)."""
    done = subprocess.run(
        ["cargo", "mutants", "--list", *args],
        cwd=native,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"cargo mutants --list failed: {done.stderr.strip()}")
    return [line for line in done.stdout.splitlines() if line]


def stage(
    native: Path,
    target: Path,
    out: Path,
    everything: list[str],
    todo: list[str],
    args: Sequence[str],
) -> tuple[float, int]:
    """Test exactly `todo` (everything else is marked previously caught); seconds, exit code."""
    wanted = set(todo)
    skipped = "".join(f"{m}\n" for m in everything if m not in wanted)

    def attempt() -> int:
        shutil.rmtree(out / "mutants.out", ignore_errors=True)
        (out / "mutants.out").mkdir(parents=True)
        (out / "mutants.out" / "previously_caught.txt").write_text(skipped, encoding="utf-8")
        argv = ("--in-place", "--iterate", f"--output={out}", *args)
        return cargo_mutants(native, target, *argv).returncode

    start = time.monotonic()
    code = attempt()
    if code == BASELINE_FAILED and "--baseline=skip" not in args:
        # The unmutated tree did not build or pass: most often a build folder left damaged by a
        # run that was killed mid-build (an incremental cache with missing symbols). Once more
        # from a clean build folder; a real failure fails again and is shown.
        print(f"the unmutated tree failed: once more after removing {target / 'mutants'}")
        shutil.rmtree(target / "mutants", ignore_errors=True)
        code = attempt()
    return time.monotonic() - start, code


def run(shard: str, retest_missed: bool) -> int:
    """Every stage of shard ``k/n``, in a free work folder; its summary."""
    with work_folder() as work:
        copy_sources(work / "src")
        return run_in(shard, retest_missed, work / "src" / "native", work / "target")


def commit() -> str:
    """The commit the copied sources belong to ("" outside a git checkout: never trusted)."""
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return done.stdout.strip() if done.returncode == 0 else ""


def run_in(shard: str, retest_missed: bool, native: Path, target: Path) -> int:
    """Every stage of shard ``k/n`` in the copy `native`, building into `target`."""
    directory = shard_dir(shard)
    directory.mkdir(parents=True, exist_ok=True)
    results_path = directory / "results.tsv"
    # The outcomes of this shard and of the others, for the source files as they are now.
    blobs = source_blobs()
    results = load(results_path, blobs)
    # Outputs of a run that was stopped before merging them.
    for number, name in STAGE_DIRS.items():
        merge(directory / name, number, results)
    everything = listed(native)
    mine = listed(native, f"--shard={shard}")
    known = set(everything)
    results = {m: o for m, o in results.items() if m in known}
    adopted = adopt(mine, results, strongest(saved(), elsewhere(directory, blobs)))
    if adopted:
        print(f"shard {shard}: {adopted} mutants already judged in another shard")
    save(results_path, results, blobs)
    if retest_missed:
        for m in mine:
            if results.get(m) in ("missed", "pending"):
                del results[m]  # tested again from stage 1 (a new test may catch it)
    log = directory / "runs.tsv"
    # The unmutated tree passed stage 1 in this work folder at this commit: no second baseline.
    # The mark is taken away while the stages run and put back when they end, so that a run
    # killed mid-build (its build folder possibly damaged) is followed by a baseline, which
    # finds the damage and rebuilds, instead of mutants that fail to build for that reason.
    baseline = target.parent / "baseline.txt"
    head = commit()
    trusted = bool(head) and baseline.is_file() and baseline.read_text().strip() == head
    baseline.unlink(missing_ok=True)
    passed = trusted
    stage_args = {
        1: (*STAGE_1, "--baseline=skip", STAGE_1_TIMEOUT) if trusted else STAGE_1,
        2: STAGE_2,
        3: STAGE_3,
    }
    try:
        for number, name in STAGE_DIRS.items():
            waiting = None if number == 1 else "pending"  # stage 1: not yet tested at all
            todo = [m for m in mine if results.get(m) == waiting]
            what = "for the rules crate's tests" if number == 1 else "still missed"
            print(f"shard {shard}, stage {number} ({name}): {len(todo)} mutants {what}")
            if not todo:
                continue
            if number > 1 and not passed:
                # No baseline has vouched for this build folder (a killed run may have damaged
                # it), and stages 2 and 3 run none: start them from a clean build.
                shutil.rmtree(target / "mutants", ignore_errors=True)
                passed = True
            out = directory / name
            seconds, code = stage(native, target, out, everything, todo, stage_args[number])
            if number == 1:
                passed = code != BASELINE_FAILED
                if not passed:
                    print(f"shard {shard}: the unmutated tree fails its tests; nothing judged")
                    break
            n = merge(out, number, results)
            save(results_path, results, blobs)
            with log.open("a", encoding="utf-8") as f:
                f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')}\t{name}\t{n}\t{seconds:.0f}\n")
        if passed and head:
            baseline.write_text(head + "\n", encoding="utf-8")
    finally:
        for number, name in STAGE_DIRS.items():
            merge(directory / name, number, results)
        save(results_path, results, blobs)
        (directory / "mutants.txt").write_text(
            "".join(f"{m}\n" for m in everything), encoding="utf-8"
        )
    counts = Counter(results[m] for m in mine if m in results)
    print(f"shard {shard}: {summary(counts)}; outcomes in {results_path.relative_to(ROOT)}")
    return 0


def source_blobs() -> dict[str, str]:
    """Each committed mutated source file's git blob, by its mutants' path (``hatsuden/src/...``).

    Empty outside a git checkout.
    """
    done = subprocess.run(
        ["git", "ls-tree", "-r", "HEAD", "--", SOURCES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    blobs: dict[str, str] = {}
    for line in done.stdout.splitlines() if done.returncode == 0 else []:
        meta, _, path = line.partition("\t")
        blobs[path.removeprefix("native/")] = meta.split()[-1]
    return blobs


def saved(path: Path = SAVED, blobs: dict[str, str] | None = None) -> dict[str, str]:
    """The committed outcomes (`save`) of the mutants whose file is as it was when judged.

    A mutant is known by its file, line, column and mutation: in a file changed since, the same
    name may be another mutant, so those outcomes are left out (and the mutants tested again).
    """
    if not path.is_file():
        return {}
    judged_on: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# blob "):
            _, _, blob, file = line.split(" ", 3)
            judged_on[file] = blob
    blobs = source_blobs() if blobs is None else blobs
    kept: dict[str, str] = {}
    left = 0
    for mutant, outcome in load(path).items():
        file = mutant.split(":", 1)[0]
        if file in judged_on and blobs.get(file) == judged_on[file]:
            kept[mutant] = outcome
        else:
            left += 1
    if left:
        print(f"{path.name}: {left} outcomes of files changed since they were judged: left out")
    return kept


def save_outcomes(
    outcomes: dict[str, str], path: Path = SAVED, blobs: dict[str, str] | None = None
) -> int:
    """Write the judged `outcomes` (not the pending ones) with each source file's blob; how many."""
    blobs = source_blobs() if blobs is None else blobs
    if not blobs:
        sys.exit(f"save: {SOURCES} is not in a git checkout's HEAD")
    judged = {m: o for m, o in outcomes.items() if o != "pending"}
    header = (
        f"# cargo-mutants outcomes of {SOURCES}, each valid while its file is the blob named "
        "here (python3 -m tools.mutants_native save; MUTATION.md, Rust rules crate)\n"
    )
    files = "".join(f"# blob {blob} {file}\n" for file, blob in sorted(blobs.items()))
    body = "".join(f"{o}\t{m}\n" for m, o in sorted(judged.items()))
    path.write_text(header + files + body, encoding="utf-8")
    return len(judged)


def newest_listing() -> list[str]:
    """The newest list of the crate's mutants, in cargo-mutants' order (a shard's run writes it)."""
    listings = sorted(BUILD.glob("shard-*-of-*/mutants.txt"), key=lambda p: p.stat().st_mtime)
    return listings[-1].read_text(encoding="utf-8").splitlines() if listings else []


# How far a mutant's judgement got. For one mutant on the same sources (outcomes are kept per
# source blob) the tests only grow, so a later judgement is never weaker than an earlier one: of
# two outcomes the stronger is the newer. Shards keep the outcomes of mutants they judged or
# adopted under older lists of mutants, and a commit that adds or removes mutants moves the
# round-robin shards, so which shard judged a mutant last is not known; its strongest outcome is.
STRENGTH = {"pending": 0, "missed": 1, "timeout": 2, "checker": 3, "caught": 4, "unviable": 5}


def strongest(*sources: dict[str, str]) -> dict[str, str]:
    """Every source's outcomes in one: each mutant's strongest (`STRENGTH`), whatever the order."""
    outcomes: dict[str, str] = {}
    for results in sources:
        for m, o in results.items():
            if m not in outcomes or STRENGTH[o] > STRENGTH[outcomes[m]]:
                outcomes[m] = o
    return outcomes


def elsewhere(directory: Path, blobs: dict[str, str] | None = None) -> dict[str, str]:
    """The outcomes in every other shard's ``results.tsv`` (of any ``n``), each mutant's strongest.

    Only the outcomes judged on `blobs` (`load`).
    """
    others = [
        load(other / "results.tsv", blobs)
        for other in sorted(BUILD.glob("shard-*-of-*"))
        if other != directory
    ]
    return strongest(*others)


def adopt(mine: Sequence[str], results: dict[str, str], others: dict[str, str]) -> int:
    """Give the shard's untested mutants the outcome another shard found; how many.

    Round-robin shards move when the list of mutants changes (a commit adds or removes one), so
    a mutant judged in one shard may fall into another: it is known by its name (file, line,
    column, mutation), and its outcome is kept rather than found again. A ``pending`` one (not
    yet through every stage) is tested here.
    """
    count = 0
    for m in mine:
        if m not in results and others.get(m, "pending") != "pending":
            results[m] = others[m]
            count += 1
    return count


def summary(counts: Counter[str]) -> str:
    """One line: the outcomes and the score."""
    caught = counts["caught"] + counts["checker"]
    judged = caught + counts["missed"]
    score = f"{100 * caught / judged:.1f}%" if judged else "n/a"
    parts = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES)
    return f"{sum(counts.values())} tested ({parts}); score caught/(caught+missed) = {score}"


def gathered() -> tuple[dict[str, str], int, dict[str, int], dict[str, float]]:
    """Every outcome, the number of mutants, the mutants tested and seconds spent per stage.

    The shards' outcomes and the committed ones (`saved`): each mutant's strongest (`strongest`).
    """
    total = 0
    seconds = dict.fromkeys(STAGE_DIRS.values(), 0.0)
    tested = dict.fromkeys(STAGE_DIRS.values(), 0)
    shards = sorted(BUILD.glob("shard-*-of-*"))
    blobs = source_blobs()
    listing = newest_listing()
    every: list[dict[str, str]] = []
    for directory in shards:
        results = load(directory / "results.tsv", blobs)
        # A run still going (or stopped) has outcomes not yet merged: count them too.
        for number, name in STAGE_DIRS.items():
            results.update(read_output(directory / name, number))
        every.append(results)
        runs = directory / "runs.tsv"
        if runs.is_file():
            for line in runs.read_text(encoding="utf-8").splitlines():
                _, what, n, s = line.split("\t")
                tested[what] += int(n)
                seconds[what] += float(s)
    # By name, a mutant judged in two shards (or committed) counts once: its strongest outcome.
    outcomes = strongest(*every, saved())
    # The newest list of mutants: outcomes of mutants no longer in it (code changed since) are
    # left out.
    if listing:
        current = set(listing)
        total = len(current)
        outcomes = {m: o for m, o in outcomes.items() if m in current}
    return outcomes, total, tested, seconds


def score(show_missed: bool) -> int:
    """Every shard's outcomes, summed."""
    outcomes, total, tested, seconds = gathered()
    shards = sorted(BUILD.glob("shard-*-of-*"))
    counts = Counter(outcomes.values())
    missed = [m for m, o in outcomes.items() if o == "missed"]
    print(f"{len(shards)} shards: {summary(counts)}")
    if total:
        print(f"{sum(counts.values())} of the crate's {total} mutants tested")
    for what in STAGE_DIRS.values():
        if tested[what]:
            each = seconds[what] / tested[what]
            print(
                f"stage {what}: {tested[what]} mutants in {seconds[what]:.0f} s, {each:.1f} s each"
            )
    if show_missed:
        for m in sorted(missed):
            print(f"missed\t{m}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.mutants_native", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("run", help="test (or continue) one shard, both stages")
    one.add_argument("shard", help="k/n: every n-th mutant from the k-th (k from 0)")
    one.add_argument(
        "--retest-missed", action="store_true", help="test the missed and pending ones again"
    )
    total = commands.add_parser("score", help="every shard's outcomes summed")
    total.add_argument("--missed", action="store_true", help="list every missed mutant")
    commands.add_parser("save", help=f"write every judged outcome to {SAVED.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    if args.command == "save":
        n = save_outcomes(gathered()[0])
        print(f"{n} outcomes written to {SAVED.relative_to(ROOT)}: commit it")
        return 0
    if args.command == "run":
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
            parser.error(f"shard: expected k/n with 0 <= k < n, got {args.shard!r}")
        return run(args.shard, args.retest_missed)
    return score(args.missed)


if __name__ == "__main__":
    sys.exit(main())
