"""The layout figures of issue 19 for one source tree: modules, state reads, positional builds.

``python -m tools.layout_figures [SRC ...]`` prints, for each tree (a directory holding the
``hatsuden_rules`` package; default ``src``), measured by reading its files (and, for the import,
by running a fresh interpreter with that tree first on ``sys.path``):

- the modules of the package: how many, how many lie flat at the top as private ``_x.py``
  modules, their lines and bytes;
- the positional state constructions outside the module that defines `GameState`: calls of
  ``GameState``, ``new_state`` or ``_new_state`` with a positional argument;
- the reads of a state's private fields (``x._boards``, ``x._hands``, ... : the fields of
  `GameState` whose names start with ``_``, on any receiver but ``self``) and of ``._tables``
  outside the core (``core/``;
  for a tree before it, the flat modules that moved into it: `CORE_BEFORE`);
- ``import hatsuden_rules``: the modules it adds to a bare interpreter (all, and its own), and
  its time (the best
  of `--rounds` fresh interpreters per tree, the trees taking turns, in milliseconds: compare
  the trees of one run, never figures of two runs).

To measure another revision, extract its ``src`` first, e.g.
``git archive bd4c86a src | tar -x -C /tmp/before`` and pass ``/tmp/before/src``.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

__all__ = ["CORE_BEFORE", "import_figures", "main", "measure"]

# The flat modules of the tree before issue 19 whose code is now `core/` (the rules).
CORE_BEFORE = frozenset(
    {
        "_apply.py",
        "_cards.py",
        "_enums.py",
        "_errors.py",
        "_legal.py",
        "_moves.py",
        "_render.py",
        "_rng.py",
        "_rules.py",
        "_scoring.py",
        "_state.py",
        "_trusted.py",
    }
)
_BUILDERS = frozenset({"GameState", "new_state", "_new_state"})
_IMPORT_PROBE = """
import sys, time
before = set(sys.modules)
start = time.perf_counter()
import hatsuden_rules
took = time.perf_counter() - start
added = set(sys.modules) - before
print(len(added), sum(m.split(".")[0] == "hatsuden_rules" for m in added), took)
"""


def _state_module(package: Path) -> Path:
    for candidate in (package / "core" / "state.py", package / "_state.py"):
        if candidate.exists():
            return candidate
    raise SystemExit(f"layout_figures: no state module under {package}")


def _private_fields(state_module: Path) -> frozenset[str]:
    """The `GameState` fields whose names start with ``_``, read from its class body."""
    tree = ast.parse(state_module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "GameState":
            return frozenset(
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)
                and item.target.id.startswith("_")
            )
    raise SystemExit(f"layout_figures: no class GameState in {state_module}")


def _in_core(package: Path, path: Path) -> bool:
    relative = path.relative_to(package)
    if relative.parts[0] == "core":
        return True
    return len(relative.parts) == 1 and relative.name in CORE_BEFORE


def import_figures(sources: list[Path], rounds: int) -> list[dict[str, object]]:
    """Modules and best time of ``import hatsuden_rules`` per tree, the trees interleaved."""
    best = [float("inf")] * len(sources)
    counts = [("", "")] * len(sources)
    for _ in range(rounds):
        for k, src in enumerate(sources):
            out = subprocess.run(
                [sys.executable, "-c", _IMPORT_PROBE],
                env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            counts[k] = (out[0], out[1])
            best[k] = min(best[k], float(out[2]))
    return [
        {
            "modules loaded by import hatsuden_rules": int(modules),
            "of which hatsuden_rules modules": int(own),
            "import hatsuden_rules, best ms": round(seconds * 1000, 1),
        }
        for (modules, own), seconds in zip(counts, best, strict=True)
    ]


def measure(src: Path) -> dict[str, object]:
    """The figures of the tree whose package is ``src/hatsuden_rules``."""
    package = src / "hatsuden_rules"
    state_module = _state_module(package)
    fields = _private_fields(state_module)
    modules = sorted(package.rglob("*.py"))
    lines = size = positional = field_reads = table_reads = 0
    for path in modules:
        text = path.read_text(encoding="utf-8")
        lines += text.count("\n")
        size += len(text.encode("utf-8"))
        core = _in_core(package, path)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and path != state_module:
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in _BUILDERS and node.args:
                    positional += 1
            elif (
                isinstance(node, ast.Attribute)
                and not core
                and not (isinstance(node.value, ast.Name) and node.value.id == "self")
            ):  # ``self._x`` is a class's own attribute
                field_reads += node.attr in fields
                table_reads += node.attr == "_tables"
    flat_private = [
        p for p in package.glob("_*.py") if p.name not in {"__init__.py", "__main__.py"}
    ]
    return {
        "modules": len(modules),
        "flat private modules": len(flat_private),
        "lines": lines,
        "bytes": size,
        "positional state constructions outside the state module": positional,
        "private state field reads outside the core": field_reads,
        "._tables reads outside the core": table_reads,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures of each tree, one column per tree."""
    parser = argparse.ArgumentParser(prog="python -m tools.layout_figures", description=__doc__)
    parser.add_argument("src", nargs="*", type=Path, default=[Path("src")])
    parser.add_argument("--rounds", type=int, default=9, help="fresh interpreters per import")
    args = parser.parse_args(argv)
    columns = [
        {**measure(src), **imports}
        for src, imports in zip(args.src, import_figures(args.src, args.rounds), strict=True)
    ]
    print("| figure | " + " | ".join(str(src) for src in args.src) + " |")
    print("|---|" + "---:|" * len(columns))
    for key in columns[0]:
        print(f"| {key} | " + " | ".join(f"{c[key]:,}" for c in columns) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
