"""tools/mutation_core.py (``make mutation``): the two stages' outcomes and the fast selection.

mutmut itself is not run here (the fast stage alone takes minutes); these tests feed the script
outcomes as mutmut reports them and read the repository's own configuration.
"""

from __future__ import annotations

import tomllib

from tools import mutation_core as mc

from tests.support.paths import ROOT_DIR


def test_a_mutant_killed_by_the_fast_tests_is_killed_whatever_stage_2_says() -> None:
    fast = {"a": "killed", "b": "survived", "c": "no tests", "d": "survived", "e": "timeout"}
    full = {"a": "survived", "b": "killed", "c": "survived"}
    assert mc.combine(fast, full) == {
        "a": "killed",
        "b": "killed",  # killed by a test only the whole selection has
        "c": "survived",
        "d": "survived",  # not yet through stage 2: its stage 1 outcome stands
        "e": "timeout",
    }


def test_the_fast_stage_keeps_the_whole_selections_options_and_nothing_else() -> None:
    text = (ROOT_DIR / "pyproject.toml").read_text(encoding="utf-8")
    before = tomllib.loads(text)["tool"]["mutmut"]
    after = tomllib.loads(mc.fast_config(text))["tool"]["mutmut"]
    selection = before["pytest_add_cli_args_test_selection"]
    fast = after.pop("pytest_add_cli_args_test_selection")
    assert after == {k: v for k, v in before.items() if k != "pytest_add_cli_args_test_selection"}
    # The fast tests, then every option of the whole selection (the same -k, the same ignores),
    # so that every test the fast stage runs, the whole selection runs too.
    assert fast[: len(mc.FAST)] == list(mc.FAST)
    assert fast[len(mc.FAST) :] == [a for a in selection if a != "tests/"]
    assert selection[0] == "tests/"
    ignored = [a.split("=", 1)[1] for a in selection if a.startswith("--ignore=")]
    for test in mc.FAST:
        assert (ROOT_DIR / test).exists(), test
        assert not any(test.startswith(i) or i.startswith(test) for i in ignored), test
