"""The layer rules of docs/architecture.md, read from the imports of every module (ast).

Each unit of the package (a subpackage, or a top-level module) may import only the units below
it; `core` imports nothing outside itself. The exceptions are entry points: the facades, the
``__main__`` modules, a command's ``main`` that imports its implementation from `cli`, and the
Jupyter hooks (``_repr_svg_``) that import `svg` when a picture is asked for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support.paths import ROOT_DIR

PACKAGE = ROOT_DIR / "src" / "hatsuden_rules"

#: What each unit may import, besides itself (docs/architecture.md, "Layers").
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "actions": frozenset({"core"}),
    "observation": frozenset({"core", "actions"}),
    "_positions": frozenset({"core", "observation"}),
    "notation": frozenset({"core", "observation", "_positions"}),
    "serialization": frozenset({"core", "observation", "_positions", "notation"}),
    "svg": frozenset({"core", "observation", "notation", "serialization"}),
    "players": frozenset({"core", "observation", "native"}),
    "simulation": frozenset(
        {"core", "observation", "players", "serialization", "native", "facade"}
    ),
    "native": frozenset({"notation", "serialization", "facade"}),
    "integrations": frozenset({"core", "actions", "observation", "notation", "native"}),
    "modelcheck": frozenset({"core", "notation", "facade", "native"}),
    "conformance": frozenset({"core", "observation", "notation", "serialization", "facade"}),
}
ALLOWED["cli"] = frozenset(ALLOWED) | {"facade"}  # the top: every command
#: Modules that re-export a unit under its public name (they may import anything).
FACADES = frozenset({"__init__", "__main__", "openspiel", "pettingzoo", "records", "vector"})


def _unit(module: str) -> str:
    """``hatsuden_rules.core.apply`` -> ``core``; the package itself -> ``facade``."""
    parts = module.split(".")
    return "facade" if len(parts) == 1 else parts[1]


def _imports(path: Path) -> list[tuple[str, str | None]]:
    """Every import of a hatsuden_rules module in `path`: (module, enclosing function or None)."""
    found: list[tuple[str, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.ImportFrom) and child.module:
                if child.level:
                    raise AssertionError(f"{path}: relative import (imports are absolute)")
                found.append((child.module, function))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, function) for alias in child.names)
            visit(child, function)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return [(m, f) for m, f in found if m == "hatsuden_rules" or m.startswith("hatsuden_rules.")]


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out.append((".".join(parts), path))
    return out


def _violations(module: str, path: Path) -> list[str]:
    parts = module.split(".")
    if (len(parts) <= 2 and parts[-1] in FACADES) or parts[-1] == "__main__":
        return []
    unit = _unit(module)
    allowed = ALLOWED[unit]
    problems = []
    for target, function in _imports(path):
        other = _unit(target)
        if other == unit or other in allowed:
            continue
        if function == "_repr_svg_" and other == "svg":
            continue  # the Jupyter hook, imported when a picture is asked for
        if function == "main" and other == "cli":
            continue  # a `python -m` module's command, implemented in cli
        problems.append(f"{module} imports {target} ({unit} may not import {other})")
    return problems


def test_every_unit_has_its_rule() -> None:
    units = {_unit(m) for m, p in _modules() if not (p.parent == PACKAGE and p.stem in FACADES)}
    units -= {"facade"}
    assert units == set(ALLOWED)


@pytest.mark.parametrize("module", [module for module, _ in _modules()])
def test_imports_follow_the_layers(module: str) -> None:
    assert _violations(module, dict(_modules())[module]) == []


def test_the_core_imports_nothing_above_it() -> None:
    """The rule a port mirrors: `core` is the rules and nothing else."""
    core = [(m, p) for m, p in _modules() if _unit(m) == "core"]
    assert len(core) >= 10
    for module, path in core:
        above = [t for t, f in _imports(path) if _unit(t) != "core" and f != "_repr_svg_"]
        assert above == [], module


def test_a_violation_is_caught(tmp_path: Path) -> None:
    """Non-vacuity: a core module importing the notation, even lazily, is reported."""
    path = tmp_path / "apply.py"
    path.write_text("def f():\n    from hatsuden_rules.notation import format_move\n")
    assert _violations("hatsuden_rules.core.apply", path) == [
        "hatsuden_rules.core.apply imports hatsuden_rules.notation (core may not import notation)"
    ]
    assert _violations("hatsuden_rules.cli._play", path) == []


def test_nothing_in_the_package_imports_the_repository() -> None:
    """The vector generator and the tests live outside the wheel; the package never needs them."""
    for module, path in _modules():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import) (tools|tests)\b", text, re.MULTILINE), module


def test_states_are_derived_by_keyword_outside_their_module() -> None:
    """Outside `core/state.py` no code builds a `GameState` from positional fields."""
    builders = {"GameState", "new_state"}
    for path in [*PACKAGE.rglob("*.py"), *(ROOT_DIR / "tools").rglob("*.py")]:
        if path == PACKAGE / "core" / "state.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in builders:
                assert not node.args, f"{path}:{node.lineno}: positional state fields"
