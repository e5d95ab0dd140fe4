"""``hatsuden openspiel MODULE [ARGS...]``: run an OpenSpiel script with ``python_hatsuden`` known.

OpenSpiel's example scripts load games by name (``--game=python_hatsuden``) but cannot import
the module that registers a Python game. This command imports `hatsuden_rules.openspiel` (which
registers the game), then runs MODULE as ``__main__`` with ``sys.argv = [MODULE, *ARGS]``, as
``python -m MODULE ARGS...`` would.

Many scripts call ``pyspiel.load_game(FLAGS.game, {"players": FLAGS.players})``, which takes
its first argument as a bare name. While MODULE runs, ``pyspiel.load_game`` also accepts a full
game string there: ``--game="python_hatsuden(energies=1,max_value=2,...)"`` loads that
configuration, the parameters of the dictionary added to those of the string.
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["run_openspiel"]

PROG = "hatsuden openspiel"
USAGE = (
    f"usage: {PROG} MODULE [ARGS...]"
    "  (e.g. open_spiel.python.examples.cfr_example --game=python_hatsuden)"
)


def run_openspiel(argv: Sequence[str]) -> int:
    """Run module ``argv[0]`` as a script with the other arguments; return its exit code."""
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    module, args = argv[0], list(argv[1:])
    try:
        import hatsuden_rules.integrations.openspiel  # noqa: F401  (registers python_hatsuden)
    except ImportError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    import pyspiel

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        print(f"{PROG}: error: no module named {module!r}", file=sys.stderr)
        return 2
    saved = sys.argv
    original = pyspiel.load_game
    sys.argv = [module, *args]
    pyspiel.load_game = _load_game(original)
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = stop.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved
        pyspiel.load_game = original
    return 0


def _load_game(original: Callable[..., Any]) -> Callable[..., Any]:
    """``pyspiel.load_game`` that reads a full game string given with a parameter dict."""
    import pyspiel

    def load_game(game: Any, params: Any = None) -> Any:
        if params is None:
            return original(game)
        if isinstance(game, str) and "(" in game:
            parsed = dict(pyspiel.game_parameters_from_string(game))
            name = parsed.pop("name")
            return original(name, {**parsed, **dict(params)})
        return original(game, params)

    return load_game
