"""The Ray backend of `hatsuden_rules.simulation.run_match` (the ``ray`` extra).

Games are sent to Ray in batches of consecutive indexes (one task per batch, so the per-task
overhead stays small next to the games) and come back as each batch finishes; every game
depends only on the match seed, its index and the players, so the results are those of the
local backend. Ray is imported only here, and only when the backend is used.
"""

from __future__ import annotations

import contextlib
import logging
import math
import socket
from collections.abc import Callable, Iterator
from typing import Any, Final, TypeVar

from hatsuden_rules.core.errors import HatsudenError

__all__ = ["BackendError", "batches", "import_ray", "ray_results", "ray_session"]

_T = TypeVar("_T")
_R = TypeVar("_R")

MISSING: Final = "the Ray backend needs the 'ray' extra: pip install 'hatsuden-rules[ray]'"
_TASKS_PER_CPU: Final = 4  # batches per CPU: enough to balance uneven games
_MAX_BATCH: Final = 100  # games per task at most, so progress is reported often enough
_IN_FLIGHT_PER_CPU: Final = 8  # tasks submitted ahead of the results, per CPU
_PROBE_SECONDS: Final = 10.0


class BackendError(HatsudenError):
    """A simulation backend failed: Ray cannot start or connect, or runs another version."""


def import_ray() -> Any:
    """The ``ray`` module, or an ImportError naming the extra to install."""
    try:
        import ray  # an optional extra, imported only when used
    except ImportError:
        raise ImportError(MISSING) from None
    return ray


@contextlib.contextmanager
def ray_session(address: str | None = None, *, jobs: int | None = None) -> Iterator[None]:
    """Run the body with Ray initialised: connect to `address`, or start a local instance.

    A Ray already initialised in this process (``ray.init`` called by the user) is used as it
    is and left running; otherwise Ray is started (with `jobs` CPUs for a local instance,
    default every core) and shut down at the end.

    Raises:
        ImportError: The ``ray`` extra is not installed.
        BackendError: Ray cannot start or connect to `address`.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield
        return
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address is None:
        options["num_cpus"] = jobs
    else:
        _probe(address)
        options["address"] = address
    try:
        ray.init(**options)
    except Exception as error:  # Ray raises many types (ConnectionError, ValueError, ...)
        where = f"connect to Ray at {address}" if address else "start a local Ray instance"
        message = " ".join(str(error).split()) or type(error).__name__
        raise BackendError(f"cannot {where}: {message}") from None
    try:
        yield
    finally:
        ray.shutdown()


def _probe(address: str) -> None:
    """Fail fast on a ``host:port`` (or ``ray://host:port``) nobody listens on.

    Ray itself retries an unreachable address for minutes; a plain TCP connection tells at once.
    Other forms (``auto``, a host without a port) are left to Ray.
    """
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=_PROBE_SECONDS):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise BackendError(f"cannot connect to Ray at {address}: {reason}") from None


def batches(first: int, count: int, cpus: int) -> list[range]:
    """Consecutive index ranges covering ``first`` to ``first + count - 1``.

    About four batches per CPU (enough to balance uneven games), at most 100 games each.

    Examples:
        >>> batches(0, 10, 2)
        [range(0, 2), range(2, 4), range(4, 6), range(6, 8), range(8, 10)]
        >>> [len(b) for b in batches(5, 1000, 2)][:2], len(batches(5, 1000, 2))
        ([100, 100], 10)
    """
    size = max(1, min(_MAX_BATCH, math.ceil(count / (cpus * _TASKS_PER_CPU))))
    return [
        range(start, min(start + size, first + count))
        for start in range(first, first + count, size)
    ]


def _run_batch(play: Callable[[_T, int], _R], context: _T, indexes: range) -> tuple[str, list[_R]]:
    """On a Ray worker: ``play(context, i)`` for each index, with the worker's version."""
    from hatsuden_rules import RULES_VERSION, __version__  # the worker's own package

    return f"{__version__} (RULES_VERSION {RULES_VERSION})", [play(context, i) for i in indexes]


def _get(ray: Any, ref: Any) -> Any:
    """``ray.get(ref)``; a failed task raises its HatsudenError (they pickle), or BackendError."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, HatsudenError):
            raise cause from None
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = lines[-1] if lines else type(error).__name__
        raise BackendError(f"a Ray task failed: {reason}") from error


def ray_results(
    play: Callable[[_T, int], _R],
    context: _T,
    first: int,
    count: int,
    *,
    address: str | None = None,
    jobs: int | None = None,
) -> Iterator[list[_R]]:
    """``play(context, i)`` for every index, on Ray, one list per finished batch.

    `play` must be a module-level function (workers import it by name) and `context` picklable.
    Batches come back in the order they finish; each result carries its index.

    Raises:
        ImportError: The ``ray`` extra is not installed.
        BackendError: Ray cannot start or connect, or its workers run another version of
            hatsuden-rules (their games could differ).
    """
    from hatsuden_rules import RULES_VERSION, __version__

    mine = f"{__version__} (RULES_VERSION {RULES_VERSION})"
    with ray_session(address, jobs=jobs):
        ray = import_ray()
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(_run_batch)
        context_ref = ray.put(context)
        todo = batches(first, count, cpus)
        todo.reverse()
        pending: list[Any] = []
        try:
            while todo or pending:
                while todo and len(pending) < cpus * _IN_FLIGHT_PER_CPU:
                    pending.append(remote.remote(play, context_ref, todo.pop()))
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    version, results = _get(ray, ref)
                    if version != mine:
                        raise BackendError(
                            f"the Ray workers run hatsuden-rules {version}, this process {mine}: "
                            "install the same version on every node"
                        )
                    yield results
        finally:
            for ref in pending:
                ray.cancel(ref)
