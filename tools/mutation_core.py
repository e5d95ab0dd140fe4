"""Mutation testing of the rules core in two stages (``make mutation``): its score, every survivor.

``make mutation`` runs ``python3 -m tools.mutation_core run``; MUTATION.md says what is mutated
and which tests judge a mutant. mutmut (configured by ``[tool.mutmut]`` in ``pyproject.toml``)
does the mutating and testing; this script decides which tests each stage runs and keeps the
outcomes.

A mutant that a test kills costs that test (mutmut stops at the first failure); one that
survives costs every test that covers its function: about 85 s of the whole selection for a move
handler, about 9 minutes for `Rules` or the state constructors. So:

- **Stage 1, the fast tests** (every mutant): the rules' own tests, ``FAST`` below (about 90 s in
  all). Most mutants die here within a second or two.
- **Stage 2, the whole selection** of ``[tool.mutmut]`` (``pytest_add_cli_args_test_selection``)
  for the mutants stage 1 did not kill only. The whole selection contains the fast tests, so a
  mutant killed in stage 1 is killed by it too: the two stages give the outcomes one run of the
  whole selection would, in a fraction of its time.

Each stage works in its own copy of the committed tree (``git archive HEAD``: commit first),
``build/mutation/fast`` and ``build/mutation/full``, with its own git repository (mutmut asks git
what changed); the copies are refreshed and kept (mutmut's ``mutants/`` folder in them holds
every outcome), so running again continues a stopped run, and after a new commit tests again
only the functions that changed.

    python3 -m tools.mutation_core run [--stage fast|full] [--retest]
    python3 -m tools.mutation_core results
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mutation"
# Stage 1's tests: the rules' own (R1-R41 cited), the conformance vectors, the observations,
# notation and documents; none starts a process, a cluster or a long search.
FAST = (
    "tests/core",
    "tests/conformance",
    "tests/test_actions.py",
    "tests/observation",
    "tests/notation",
    "tests/serialization",
)
SELECTION = re.compile(r"^pytest_add_cli_args_test_selection = \[\n.*?^\]\n", re.M | re.S)
# mutmut's statuses that are not a kill (``mutmut results``).
KILLED = ("killed", "caught by type check")


def copy(stage: str) -> Path:
    """The stage's copy of the committed tree, refreshed, with its own repository."""
    work = BUILD / stage
    work.mkdir(parents=True, exist_ok=True)
    for old in work.iterdir():  # a file deleted since the last run must not linger
        if old.name in (".git", "mutants"):
            continue
        if old.is_dir():
            shutil.rmtree(old)
        else:
            old.unlink()
    archive = subprocess.run(
        ["git", "archive", "--format=tar", "HEAD"], cwd=ROOT, capture_output=True, check=True
    )
    # Every file newer than mutmut's copy of the last run, so that mutmut mutates what changed.
    subprocess.run(["tar", "-x", "--touch", "-C", str(work)], input=archive.stdout, check=True)
    if stage == "fast":
        pyproject = work / "pyproject.toml"
        pyproject.write_text(fast_config(pyproject.read_text(encoding="utf-8")), encoding="utf-8")
    git = ["git", "-c", "user.name=mutation", "-c", "user.email=mutation@localhost"]
    if not (work / ".git").is_dir():
        subprocess.run([*git, "init", "-q"], cwd=work, check=True)
    subprocess.run([*git, "add", "-A"], cwd=work, check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "copy"], cwd=work, check=True)
    return work


def fast_selection(selection: Sequence[str]) -> list[str]:
    """The fast tests, with the whole selection's options (its ``--ignore``s and ``-k``)."""
    options = [
        a for i, a in enumerate(selection) if a.startswith("-") or (i and selection[i - 1] == "-k")
    ]
    return [*FAST, *options]


def fast_config(text: str) -> str:
    """`pyproject.toml`'s text with the fast selection in ``[tool.mutmut]``."""
    selection = tomllib.loads(text)["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
    listed = "".join(f"    {json.dumps(a)},\n" for a in fast_selection(selection))
    new, count = SELECTION.subn(f"pytest_add_cli_args_test_selection = [\n{listed}]\n", text)
    if count != 1:
        sys.exit("pyproject.toml: no pytest_add_cli_args_test_selection list in [tool.mutmut]")
    return new


def mutmut(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``mutmut ARGS`` in `work` (its output shown unless captured by the caller)."""
    return subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=work, check=False, text=True)


def outcomes(work: Path) -> dict[str, str]:
    """Every mutant of the stage's copy and its status (``mutmut results --all``)."""
    if not (work / "mutants").is_dir():
        return {}
    done = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, str] = {}
    for line in done.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status
    return found


def run(stages: Sequence[str], retest: bool = False) -> int:
    """The stages asked for, in order; then the results.

    With `retest`, stage 2 tests again every mutant stage 1 did not kill, even those it has judged
    (after a change to the tests or to how they run, which mutmut cannot see).
    """
    if "fast" in stages:
        mutmut(copy("fast"), "run", "--max-children", "2")
    if "full" in stages:
        left = [m for m, s in outcomes(BUILD / "fast").items() if s not in KILLED]
        work = copy("full")
        done = outcomes(work)  # mutmut forgets the outcomes of a function that changed
        todo = sorted(m for m in left if retest or done.get(m, "not checked") == "not checked")
        print(f"stage 2: {len(left)} mutants not killed by the fast tests, {len(todo)} to test")
        if todo:
            mutmut(work, "run", "--max-children", "2", *todo)
    return results()


def combine(fast: dict[str, str], full: dict[str, str]) -> dict[str, str]:
    """Each mutant's outcome: stage 1's kill, else stage 2's outcome (else stage 1's)."""
    return {m: s if s in KILLED else full.get(m, s) for m, s in fast.items()}


def results() -> int:
    """Both stages' outcomes combined: the score and every survivor."""
    final = combine(outcomes(BUILD / "fast"), outcomes(BUILD / "full"))
    counts = Counter("killed" if s in KILLED else s for s in final.values())
    for name, status in sorted(final.items()):
        if status not in KILLED:
            print(f"{status}\t{name}")
    killed = counts["killed"]
    total = sum(counts.values())
    score = f"{100 * killed / total:.1f}%" if total else "n/a"
    parts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    print(f"{total} mutants: {parts}; score killed/all = {score}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.mutation_core", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("run", help="both stages (or one), continuing a stopped run")
    one.add_argument("--stage", choices=("fast", "full"), help="only this stage")
    one.add_argument(
        "--retest",
        action="store_true",
        help="stage 2: test again the mutants it has judged (after a change to the tests)",
    )
    commands.add_parser("results", help="both stages' outcomes: the score and every survivor")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run((args.stage,) if args.stage else ("fast", "full"), args.retest)
    return results()


if __name__ == "__main__":
    sys.exit(main())
