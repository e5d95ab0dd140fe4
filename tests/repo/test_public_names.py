"""Public types carry public names (issue 23): `repr`, tracebacks, pickles and the
API pages say ``hatsuden_rules.PlayerScore``, not ``hatsuden_rules._core.scoring.PlayerScore``."""

from __future__ import annotations

import importlib
import inspect
import pickle

import pytest

import hatsuden_rules
from tests.support.paths import ROOT_DIR

PUBLISHED = (
    "hatsuden_rules",
    "hatsuden_rules.notation",
    "hatsuden_rules.players",
    "hatsuden_rules.records",
    "hatsuden_rules.serialization",
    "hatsuden_rules.simulation",
    "hatsuden_rules.svg",
)


def _private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


@pytest.mark.parametrize("name", PUBLISHED)
def test_every_exported_class_has_a_public_module(name: str) -> None:
    module = importlib.import_module(name)
    private = [
        f"{item}: {obj.__module__}"
        for item in module.__all__
        if inspect.isclass(obj := getattr(module, item)) and _private(obj.__module__)
    ]
    assert private == []


def test_the_score_type_is_public_and_still_pickles() -> None:
    assert repr(hatsuden_rules.PlayerScore) == "<class 'hatsuden_rules.PlayerScore'>"
    sheet = hatsuden_rules.score(hatsuden_rules.new_game(1))
    assert pickle.loads(pickle.dumps(sheet)) == sheet
    card = hatsuden_rules.Card(hatsuden_rules.Energy.WIND, 2)
    assert pickle.loads(pickle.dumps(card)) == card


def test_public_signatures_use_no_private_alias() -> None:
    """The API pages showed ``_PlayerClass``: a type in a public signature has a public name."""
    from hatsuden_rules.players import _registry

    assert not [name for name in vars(_registry) if name.startswith("_") and name[1].isupper()]
    source = (ROOT_DIR / "src" / "hatsuden_rules" / "players" / "_registry.py").read_text()
    assert "_PlayerClass" not in source
