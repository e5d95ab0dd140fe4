"""Public types carry public names (issue 23): `repr`, tracebacks, pickles and the
API pages say ``hatsuden_rules.PlayerScore``, not ``hatsuden_rules.core.scoring.PlayerScore``."""

from __future__ import annotations

import importlib
import inspect
import pickle
import re
import subprocess
import sys
from pathlib import Path

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


def _revealed(tmp_path: Path, module: str, names: list[str]) -> dict[str, str]:
    """What mypy (``--strict``, this interpreter's installed package) reveals of each name."""
    lines = [f"import {module}", *(f"reveal_type({module}.{name})" for name in names)]
    (tmp_path / "snippet.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "snippet.py"],
        cwd=tmp_path,  # not the checkout: the installed package, as a user's mypy finds it
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    found = re.findall(r'^snippet\.py:(\d+): note: Revealed type is "(.*)"$', done.stdout, re.M)
    revealed = {names[int(line) - 2]: text for line, text in found}
    assert len(revealed) == len(names), done.stdout + done.stderr
    return revealed


def test_mypy_names_the_core_types_by_a_public_path(tmp_path: Path) -> None:
    """``reveal_type(hatsuden_rules.new_game)`` and the types of `GameState`, `Move`, `Card`,
    ... name public modules (issue 23 §2): mypy names a class by its defining module, so the
    core's is public (`hatsuden_rules.core`); repr and pickles say `hatsuden_rules.GameState`."""
    names = [name for name in hatsuden_rules.__all__ if name != "__version__"]
    revealed = _revealed(tmp_path, "hatsuden_rules", names)
    assert "Rules" in revealed["new_game"]  # the revealed signature is the real one, typed
    paths = {
        name: set(re.findall(r"hatsuden_rules[\w.]*", text)) for name, text in revealed.items()
    }
    core_private = {
        name: found for name, found in paths.items() if any("._core" in p for p in found)
    }
    assert core_private == {}
    assert revealed["GameState"].endswith("-> hatsuden_rules.core.state.GameState")
    assert revealed["PlayerScore"].endswith("-> hatsuden_rules.core.scoring.PlayerScore")
    # The other subpackages define their types in private modules (docs/architecture.md, "Type
    # names"): each such type is re-exported under its name by a published module.
    exported = {item for module in PUBLISHED for item in importlib.import_module(module).__all__}
    hidden = {path for found in paths.values() for path in found if _private(path)}
    assert {path for path in hidden if path.rsplit(".", 1)[1] not in exported} == set()
