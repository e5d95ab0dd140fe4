"""The runner: ``hatsuden-conformance --adapter "CMD"`` puts a port through every vector.

It starts the adapter command as a subprocess, says ``hello``, sends each vector's request as one
line of JSON on the adapter's standard input, reads one line of JSON back from its standard
output, compares it with the expected response, prints pass and fail counts per group with the
first failures, and exits 0 only if every vector passed (CONFORMANCE.md, "Protocol").
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Final

import attrs

from hatsuden_rules.conformance._vectors import Vector

__all__ = [
    "Adapter",
    "AdapterError",
    "check_response",
    "default_vectors_dir",
    "main",
    "run",
]

#: How long an adapter may take to start and answer ``hello`` (at least).
_STARTUP_SECONDS: Final = 60.0
#: Error keys compared when the expected response is an error; ``message`` never is.
_ERROR_KEYS: Final = ("type", "rule", "field", "position", "path")


class AdapterError(Exception):
    """The adapter died, timed out or answered something that is not one JSON object."""


class Adapter:
    """A running adapter subprocess, spoken to one JSON line at a time."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as error:
            raise AdapterError(f"cannot start {command!r}: {error}") from error
        self.lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def ask(self, request: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request, return the decoded response (within `timeout`, default the adapter's).

        Raises:
            AdapterError: The adapter exited, took longer than the timeout, or its answer is not
                a JSON object.
        """
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(request, separators=(",", ":"), ensure_ascii=False) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise AdapterError(f"the adapter no longer reads its input ({error})") from error
        try:
            line = self.lines.get(timeout=timeout or self.timeout)
        except queue.Empty:
            raise AdapterError(f"no response within {timeout or self.timeout:g} s") from None
        if line is None:
            try:
                status: int | None = self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                status = None
            raise AdapterError(f"the adapter exited (status {status})")
        try:
            response = json.loads(line)
        except ValueError:
            raise AdapterError(f"the response is not JSON: {line.strip()[:200]!r}") from None
        if not isinstance(response, dict):
            raise AdapterError(f"the response is not a JSON object: {line.strip()[:200]!r}")
        return response

    def close(self) -> None:
        """Close the adapter's input and wait for it (kill it if it does not exit)."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# -- comparing ------------------------------------------------------------------------------------


def _same(a: object, b: object) -> bool:
    """JSON equality that keeps booleans, integers and floats apart (``1 != true != 1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _short(value: object, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_response(
    expected: Mapping[str, Any], response: Mapping[str, Any], ignore_positions: bool = False
) -> str | None:
    """Why `response` does not match `expected`, or None if it does.

    A success must carry every expected key with an equal JSON value (extra keys are allowed); an
    error must have the expected ``type`` and, where the vector states them, the same ``rule``,
    ``field``, ``position`` and ``path``.

    Examples:
        >>> check_response({"ok": True, "moves": ["DD"]}, {"id": "a", "ok": True, "moves": ["DD"]})
        >>> check_response({"ok": True, "moves": ["DD"]}, {"ok": True, "moves": ["E"]})
        'moves: expected ["DD"], got ["E"]'
        >>> check_response({"ok": False, "error": {"type": "illegal_move", "rule": "R12"}},
        ...                {"ok": False, "error": {"type": "illegal_move", "rule": "R10"}})
        'error.rule: expected "R12", got "R10"'
    """
    if response.get("ok") is not expected["ok"]:
        if response.get("ok") is False:
            return f"expected success, got error {_short(response.get('error'))}"
        if response.get("ok") is True:
            return f"expected error {_short(expected['error'])}, got success"
        return f"the response has no boolean 'ok': {_short(response)}"
    if expected["ok"]:
        for key, value in expected.items():
            if key == "ok":
                continue
            if key not in response:
                return f"{key}: missing from the response"
            if not _same(value, response[key]):
                return f"{key}: expected {_short(value)}, got {_short(response[key])}"
        return None
    error = response.get("error")
    if not isinstance(error, dict):
        return f"an error response needs an 'error' object, got {_short(error)}"
    for key in _ERROR_KEYS:
        if key not in expected["error"] or (key == "position" and ignore_positions):
            continue
        if not _same(expected["error"][key], error.get(key)):
            return (
                f"error.{key}: expected {_short(expected['error'][key])}, "
                f"got {_short(error.get(key))}"
            )
    return None


# -- running --------------------------------------------------------------------------------------


@attrs.frozen
class Outcome:
    """The result of one vector: None for a pass, else the reason it failed."""

    vector: Vector
    failure: str | None
    seconds: float


def _game_steps(vector: Vector) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The requests of a ``seeded_games`` vector, with the expected responses.

    The ``state`` of each ``apply`` is left as None: the runner fills in the state the adapter
    returned at the previous step, so the port carries its own game.
    """
    data, expected = vector.input, vector.expected
    states = expected["states"]
    yield (
        "new_game",
        {"kind": "new_game", "rules": data["rules"], "seed": data["seed"]},
        {"ok": True, "state": states[0]},
    )
    for n, move in enumerate(data["moves"]):
        yield (
            f"{n + 1}",
            {"kind": "apply", "state": None, "move": move},
            {"ok": True, "state": states[n + 1]},
        )
    yield "score", {"kind": "score", "state": None}, {"ok": True, "score": expected["score"]}


def _run_game(adapter: Adapter, vector: Vector, ignore_positions: bool) -> str | None:
    state: str | None = None
    for step, request, expected in _game_steps(vector):
        if request.get("state", "") is None:
            request["state"] = state
        response = adapter.ask({"id": f"{vector.id}#{step}", **request})
        failure = check_response(expected, response, ignore_positions)
        if failure is not None:
            where = "new_game" if step == "new_game" else ("score" if step == "score" else "move")
            detail = "" if where != "move" else f" {vector.input['moves'][int(step) - 1]!r}"
            return f"step {step} ({where}{detail}): {failure}"
        state = response.get("state", state)
    return None


def _run_one(adapter: Adapter, vector: Vector, ignore_positions: bool) -> str | None:
    if vector.group == "seeded_games":
        return _run_game(adapter, vector, ignore_positions)
    response = adapter.ask({"id": vector.id, **vector.input})
    return check_response(vector.expected, response, ignore_positions)


def run(
    command: str,
    vectors: Sequence[Vector],
    rules_version: int,
    timeout: float = 60.0,
    ignore_positions: bool = False,
) -> list[Outcome]:
    """Every vector through a fresh adapter; a crashed adapter is restarted for the next vector.

    Raises:
        AdapterError: The adapter cannot be started, or its ``hello`` is wrong.
    """
    adapter = _start(command, timeout, rules_version)
    outcomes = []
    try:
        for vector in vectors:
            start = time.perf_counter()
            try:
                failure = _run_one(adapter, vector, ignore_positions)
            except AdapterError as error:
                failure = f"adapter failure: {error}"
                adapter.close()
                adapter = _start(command, timeout, rules_version)
            outcomes.append(Outcome(vector, failure, time.perf_counter() - start))
    finally:
        adapter.close()
    return outcomes


def _start(command: str, timeout: float, rules_version: int) -> Adapter:
    adapter = Adapter(command, timeout)
    try:
        hello = adapter.ask({"id": "hello", "kind": "hello"}, max(timeout, _STARTUP_SECONDS))
    except AdapterError:
        adapter.close()
        raise
    if hello.get("ok") is not True or hello.get("rules_version") != rules_version:
        adapter.close()
        raise AdapterError(
            f"hello: expected ok and rules_version {rules_version}, got {_short(hello)}"
        )
    return adapter


def default_vectors_dir() -> Path:
    """The suite shipped with the package, else the ``conformance/`` of a source checkout.

    Examples:
        >>> (default_vectors_dir() / "manifest.json").name
        'manifest.json'
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "vectors", here.parents[2] / "conformance", Path("conformance")):
        if (candidate / "manifest.json").is_file():
            return candidate
    return Path("conformance")


def main(argv: Sequence[str] | None = None) -> int:
    """The ``hatsuden-conformance`` command (`hatsuden_rules.cli`).

    Returns 0 when every vector passed, 1 when one failed, 2 on a setup error.
    """
    from hatsuden_rules.cli._conformance import main as command

    return command(argv)
