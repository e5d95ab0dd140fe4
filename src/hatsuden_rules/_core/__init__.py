"""The rules core: cards, moves, rules, the state and its encoding, legal moves, apply, score.

Nothing here imports from the rest of the package (see docs/architecture.md); the public names
are re-exported by `hatsuden_rules`.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping

__all__ = ["publish"]


def publish(module: str, names: Iterable[str], namespace: Mapping[str, object]) -> None:
    """Give each class `module` re-exports from a private module its public home.

    Their ``__module__`` becomes `module`, so ``repr``, tracebacks, pickles and the API pages
    name ``hatsuden_rules.PlayerScore``, not ``hatsuden_rules._core.scoring.PlayerScore``. A
    class already published by a more specific public module (``hatsuden_rules.notation``)
    keeps that home. Names `namespace` does not hold yet (loaded lazily) are left alone.
    Functions keep their defining module: doctest runs their examples in its namespace.
    """
    for name in names:
        obj = namespace.get(name)
        if not inspect.isclass(obj):
            continue
        if any(part.startswith("_") for part in obj.__module__.split(".")):
            obj.__module__ = module
