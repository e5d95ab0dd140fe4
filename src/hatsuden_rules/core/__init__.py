"""The rules core: cards, moves, rules, the state and its encoding, legal moves, apply, score.

Nothing here imports from the rest of the package (see docs/architecture.md). This is where the
core types are defined, under a public path so that type checkers name them without a private
part (``hatsuden_rules.core.state.GameState``); import them from `hatsuden_rules`, which
re-exports every public name: the rest of these modules is internal and may change.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping

__all__ = ["publish"]


def publish(module: str, names: Iterable[str], namespace: Mapping[str, object]) -> None:
    """Give each class `module` re-exports from the core or a private module its public home.

    Classes defined in this package or in a private module get `module` as their
    ``__module__``, so ``repr``, tracebacks, pickles and the API pages name
    ``hatsuden_rules.PlayerScore``, not ``hatsuden_rules.core.scoring.PlayerScore``. A class
    already published by a more specific public module (``hatsuden_rules.notation``) keeps
    that home. Names `namespace` does not hold yet (loaded lazily) are left alone.
    Functions keep their defining module: doctest runs their examples in its namespace.
    """
    for name in names:
        obj = namespace.get(name)
        if not inspect.isclass(obj):
            continue
        home = obj.__module__
        if home.startswith(f"{__name__}.") or any(part.startswith("_") for part in home.split(".")):
            obj.__module__ = module
