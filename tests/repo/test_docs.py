"""The documentation runs: README.md's examples, every docstring example in the package and in
the repository's tools (the vector generator)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import hatsuden_rules
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

MODULES = sorted(
    [hatsuden_rules.__name__]
    + [
        info.name
        for info in pkgutil.walk_packages(hatsuden_rules.__path__, f"{hatsuden_rules.__name__}.")
        if not info.name.endswith("__main__")
    ]
    # The conformance vector generator, outside the package since it reads the checkout.
    + [f"tools.vectors.{path.stem}" for path in (ROOT_DIR / "tools" / "vectors").glob("[!_]*.py")]
)


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted >= 10, "README.md lost its usage example"
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0


def test_key_functions_have_runnable_examples() -> None:
    for function in (
        hatsuden_rules.new_game,
        hatsuden_rules.legal_moves,
        hatsuden_rules.apply,
        hatsuden_rules.score,
        hatsuden_rules.chance_outcomes,
    ):
        assert ">>>" in (function.__doc__ or ""), function.__name__


def _isort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then functions: the order ruff's RUF022 keeps."""
    if name.isupper():
        return (0, name)
    return (1, name) if name[0].isupper() else (2, name)


def test_public_api_is_sorted_and_complete() -> None:
    names = hatsuden_rules.__all__
    assert list(names) == sorted(names, key=_isort_key)
    for name in names:
        assert hasattr(hatsuden_rules, name), name
