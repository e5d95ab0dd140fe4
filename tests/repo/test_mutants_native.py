"""tools/mutants_native.py (``make mutation-native``): the outcomes of the three stages are kept.

cargo-mutants itself is not run here (a shard takes hours); these tests feed the script the
output folders cargo-mutants writes (``mutants.out/caught.txt`` and the like) and check what it
keeps, continues and sums.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tools import mutants_native as mn


def _output(folder: Path, **outcomes: list[str]) -> None:
    """A cargo-mutants output folder with the given ``caught``, ``missed``, ... lists."""
    done = folder / "mutants.out"
    done.mkdir(parents=True)
    for name, mutants in outcomes.items():
        (done / f"{name}.txt").write_text("".join(f"{m}\n" for m in mutants), encoding="utf-8")


def test_misses_are_pending_until_the_checker_has_seen_them(tmp_path: Path) -> None:
    results: dict[str, str] = {}
    _output(tmp_path / "rules", caught=["a", "b"], missed=["c", "d"], timeout=["e"], unviable=["f"])
    assert mn.merge(tmp_path / "rules", 1, results) == 6
    assert results == {
        "a": "caught",
        "b": "caught",
        "c": "pending",
        "d": "pending",
        "e": "timeout",
        "f": "unviable",
    }
    # Stage 2, the crate's unit tests: what they catch is caught by the crate's tests.
    _output(tmp_path / "unit", caught=["c"], missed=["d"])
    assert mn.merge(tmp_path / "unit", 2, results) == 2
    assert (results["c"], results["d"]) == ("caught", "pending")
    _output(tmp_path / "checker", caught=["d"])
    assert mn.merge(tmp_path / "checker", 3, results) == 1
    assert results["d"] == "checker"
    _output(tmp_path / "checker", missed=["d"])
    assert mn.merge(tmp_path / "checker", 3, results) == 1
    assert results["d"] == "missed"


def test_an_output_is_merged_once(tmp_path: Path) -> None:
    """A stopped run's output is folded in by the next run, and never a second time."""
    results: dict[str, str] = {}
    _output(tmp_path / "rules", missed=["c"])
    assert mn.merge(tmp_path / "rules", 1, results) == 1
    results["c"] = "checker"
    assert mn.merge(tmp_path / "rules", 1, results) == 0
    assert results["c"] == "checker"


def test_results_survive_a_save_and_a_load(tmp_path: Path) -> None:
    path = tmp_path / "results.tsv"
    results = {"x.rs:1:2: replace + with -": "missed", "y.rs:3:4: replace f -> bool": "caught"}
    mn.save(path, results)
    assert mn.load(path) == results
    assert mn.load(tmp_path / "absent.tsv") == {}


def test_the_score_leaves_timeouts_and_unviable_mutants_apart() -> None:
    counts = Counter(caught=90, checker=5, missed=5, timeout=3, unviable=20)
    line = mn.summary(counts)
    assert "123 tested" in line
    assert "score caught/(caught+missed) = 95.0%" in line
    assert mn.summary(Counter()).endswith("= n/a")


def test_a_shard_is_k_of_n_from_zero() -> None:
    assert mn.shard_dir("3/64").name == "shard-3-of-64"


def test_a_mutant_judged_in_another_shard_keeps_its_outcome() -> None:
    results = {"a.rs:1:1: x": "caught"}
    others = {"b.rs:2:2: y": "missed", "c.rs:3:3: z": "pending", "a.rs:1:1: x": "missed"}
    mine = ["a.rs:1:1: x", "b.rs:2:2: y", "c.rs:3:3: z", "d.rs:4:4: w"]
    assert mn.adopt(mine, results, others) == 1
    # The shard's own outcome stands; a pending or unknown mutant is still to be tested here.
    assert results == {"a.rs:1:1: x": "caught", "b.rs:2:2: y": "missed"}


def test_a_mutant_counts_with_its_strongest_outcome() -> None:
    # A shard keeps outcomes of mutants it judged or adopted under an older list of mutants, and
    # the committed outcomes are another source: for one mutant on the same sources the tests
    # only grow, so the strongest outcome is the newest, whatever the sources' order.
    stale = {"m1": "missed", "m2": "missed", "m4": "caught", "m6": "timeout"}
    zero = {"m0": "caught", "m1": "missed", "m2": "checker", "m4": "pending", "m6": "missed"}
    one = {"m1": "caught", "m3": "missed", "m5": "pending", "m7": "unviable"}
    expected = {
        "m0": "caught",
        "m1": "caught",  # a stale or adopted `missed` does not hide it
        "m2": "checker",
        "m3": "missed",
        "m4": "caught",  # a pending one is not yet judged
        "m5": "pending",
        "m6": "timeout",
        "m7": "unviable",
    }
    assert mn.strongest(stale, zero, one) == expected
    assert mn.strongest(one, zero, stale) == expected
    assert mn.strongest() == {}
    assert set(mn.STRENGTH) == set(mn.OUTCOMES)


def test_saved_outcomes_count_only_for_the_files_they_were_judged_on(tmp_path: Path) -> None:
    path = tmp_path / "mutants-outcomes.tsv"
    outcomes = {
        "hatsuden/src/a.rs:1:1: x": "caught",
        "hatsuden/src/b.rs:2:2: y": "missed",
        "hatsuden/src/b.rs:3:3: z": "pending",
    }
    blobs = {"hatsuden/src/a.rs": "aaa1", "hatsuden/src/b.rs": "bbb1"}
    assert mn.save_outcomes(outcomes, path, blobs=blobs) == 2
    assert path.read_text(encoding="utf-8").startswith("# cargo-mutants outcomes of ")
    assert mn.saved(path, blobs=blobs) == {
        "hatsuden/src/a.rs:1:1: x": "caught",
        "hatsuden/src/b.rs:2:2: y": "missed",
    }
    # b.rs changed since: its mutants' names may now be other mutants, so they are left out.
    changed = {**blobs, "hatsuden/src/b.rs": "bbb2"}
    assert mn.saved(path, blobs=changed) == {"hatsuden/src/a.rs:1:1: x": "caught"}
    assert mn.saved(path, blobs={}) == {}
    assert mn.saved(tmp_path / "absent.tsv", blobs=blobs) == {}


def test_shard_results_count_only_for_the_files_they_were_judged_on(tmp_path: Path) -> None:
    """A shard's results carry the blobs they were judged on, like the committed outcomes."""
    path = tmp_path / "results.tsv"
    results = {"hatsuden/src/a.rs:1:1: x": "caught", "hatsuden/src/b.rs:2:2: y": "missed"}
    blobs = {"hatsuden/src/a.rs": "aaa1", "hatsuden/src/b.rs": "bbb1"}
    mn.save(path, results, blobs)
    assert mn.load(path) == results
    assert mn.load(path, blobs) == results
    changed = {**blobs, "hatsuden/src/b.rs": "bbb2"}
    assert mn.load(path, changed) == {"hatsuden/src/a.rs:1:1: x": "caught"}
    # A file written before results carried blobs is taken whole.
    mn.save(path, results)
    assert mn.load(path, changed) == results


def test_the_committed_outcomes_are_well_formed() -> None:
    """native/mutants-outcomes.tsv (when committed): a header, each file's blob, the outcomes.

    Whether they still apply (the sources unchanged since) is for `score` and `run` to say: a
    change to the crate does not wait for a new mutation run.
    """
    if not mn.SAVED.is_file():
        return
    header, *lines = mn.SAVED.read_text(encoding="utf-8").splitlines()
    assert header.startswith("# cargo-mutants outcomes of native/hatsuden/src, ")
    blobs = [line for line in lines if line.startswith("# blob ")]
    assert blobs
    for line in blobs:
        _, _, blob, file = line.split(" ", 3)
        assert len(blob) == 40
        assert file.startswith("hatsuden/src/")
    for line in lines[len(blobs) :]:
        outcome, _, name = line.partition("\t")
        assert outcome in mn.OUTCOMES
        assert outcome != "pending"
        assert name.startswith("hatsuden/src/")
