"""The native checker built with the rules crate's test-only feature ``fault-injection``.

One build command for both users, so that their cargo fingerprints agree:

- ``make native-check`` builds it (``python -m tests.native.fault_build``), with the test binary
  of ``hatsuden-check/tests/shard_faults.rs``, into native/target/fault-injection (apart from
  the release build);
- tests/native/test_native_faults.py runs the same command, which cargo then finds up to date
  in about a second instead of compiling for half a minute; run alone (``pytest
  tests/native``) it builds what is missing or stale, as before.

A dev build, lightly optimised (``opt-level=2``, no debug info): it compiles in a fraction of a
release build's time and checks the small rule sets of the tests in seconds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

NATIVE = Path(__file__).resolve().parents[2] / "native"
TARGET = NATIVE / "target" / "fault-injection"
BINARY = TARGET / "debug" / "hatsuden-native-check"
#: The profile settings of every cargo command below (a change of them rebuilds everything).
PROFILE = {"CARGO_PROFILE_DEV_OPT_LEVEL": "2", "CARGO_PROFILE_DEV_DEBUG": "0"}
FEATURE = ["-p", "hatsuden-check", "--features", "fault-injection", "--target-dir", str(TARGET)]


def cargo() -> str | None:
    """The cargo on PATH, or None."""
    return shutil.which("cargo")


def _run(
    arguments: Sequence[str], extra: Mapping[str, str] | None = None, *, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    program = cargo()
    if program is None:
        raise FileNotFoundError("cargo is not installed: the native checker cannot be built")
    env = {k: v for k, v in os.environ.items() if k != "HATSUDEN_FAULT"}
    env.update(PROFILE)
    env.update(extra or {})
    return subprocess.run(
        [program, *arguments],
        cwd=NATIVE,
        env=env,
        capture_output=capture,
        text=True,
        timeout=1800,
        check=False,
    )


def build() -> Path:
    """Build (or find up to date) the faulty checker and the shard-faults test; its path."""
    for arguments in (
        ["build", "--quiet", *FEATURE, "--bin", "hatsuden-native-check"],
        ["test", "--quiet", "--no-run", *FEATURE, "--test", "shard_faults"],
    ):
        done = _run(arguments)
        if done.returncode != 0:
            raise RuntimeError(f"cargo {' '.join(arguments)} failed (exit {done.returncode})")
    return BINARY


def shard_faults(fault: str, rules: str) -> subprocess.CompletedProcess[str]:
    """``shard_faults.rs`` with `fault` planted on the rule set `rules` (notation), captured."""
    return _run(
        ["test", "--quiet", *FEATURE, "--test", "shard_faults"],
        {"HATSUDEN_FAULT": fault, "HATSUDEN_FAULT_RULES": rules},
        capture=True,
    )


def main() -> int:
    """``make native-check``: build both, so that the tests find them up to date."""
    try:
        print(f"fault-injection build: {build().relative_to(NATIVE.parent)}", flush=True)
    except (FileNotFoundError, RuntimeError) as error:
        print(f"fault_build: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
