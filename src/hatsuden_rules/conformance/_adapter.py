"""The bundled adapter: this library behind the conformance protocol.

Run it as ``python -m hatsuden_rules.conformance.adapter`` (the command: `cli._adapter`).

It reads one JSON request per line on standard input and writes one JSON response per line on
standard output, flushing after each, until standard input ends (CONFORMANCE.md, "Protocol").
`handle` answers one request; a port's adapter does the same in its own language.

Examples:
    >>> handle({"id": "x", "kind": "rng", "seed": "0", "count": 1})
    {'id': 'x', 'ok': True, 'outputs': ['16294208416658607535'], 'state': '11400714819323198485'}
    >>> handle({"id": "y", "kind": "apply", "state": "nonsense", "move": "PASS"})["error"]["type"]
    'invalid_notation'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

from hatsuden_rules import __version__
from hatsuden_rules.conformance._codec import error_doc, fraction_text
from hatsuden_rules.conformance._vectors import FORMAT_VERSION
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import chance_outcomes, legal_moves
from hatsuden_rules.core.rng import SplitMix64, sample
from hatsuden_rules.core.rules import RULES_VERSION, Rules
from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.notation import (
    format_move,
    format_observation,
    format_rules,
    format_state,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.observation import observation_tensor, observe, sample_state
from hatsuden_rules.serialization import from_json, to_dict

__all__ = ["handle"]

_INTEGER: Final = re.compile(r"-?(0|[1-9][0-9]*)")
_JSON_TYPES: Final = ("rules", "move", "state", "score", "observation", "record")


class _BadRequest(InvalidInputError):
    """A request the protocol does not define (unknown kind, missing or mistyped field)."""


def _field(request: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = request.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _BadRequest(name, f"the request needs {name!r} of type {kind}, got {value!r}")
    return value


def _integer(request: dict[str, Any], name: str) -> int:
    text = _field(request, name, str)
    if not _INTEGER.fullmatch(text):
        raise _BadRequest(name, f"expected a decimal integer string, got {text!r}")
    return int(text)


@lru_cache(maxsize=8192)
def _state(text: str) -> GameState:
    return parse_state(text)


def _state_text(state: GameState) -> str:
    """Format `state` and remember it, so a state sent back to us is not parsed again."""
    text = format_state(state)
    if len(_STATES) > 100_000:
        _STATES.clear()
    _STATES[text] = state
    return text


_STATES: dict[str, GameState] = {}


def _read_state(request: dict[str, Any]) -> GameState:
    text = _field(request, "state", str)
    known = _STATES.get(text)
    return known if known is not None else _state(text)


def _player(request: dict[str, Any]) -> int:
    player = _field(request, "player", int)
    if player not in (0, 1):
        raise _BadRequest("player", f"must be 0 or 1, got {player}")
    return int(player)


# -- the request kinds ----------------------------------------------------------------------------


def _hello(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "hatsuden_rules (Python reference)",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "format_version": FORMAT_VERSION,
    }


def _rng(request: dict[str, Any]) -> dict[str, Any]:
    rng = SplitMix64.from_seed(_integer(request, "seed"))
    outputs = []
    for _ in range(_field(request, "count", int)):
        value, rng = rng.next()
        outputs.append(str(value))
    return {"outputs": outputs, "state": str(rng.state)}


def _sample(request: dict[str, Any]) -> dict[str, Any]:
    rng = SplitMix64.from_seed(_integer(request, "seed"))
    picks = []
    for weights in _field(request, "weights", list):
        index, rng = sample(weights, rng)
        picks.append(index)
    return {"picks": picks, "state": str(rng.state)}


def _new_game(request: dict[str, Any]) -> dict[str, Any]:
    rules = parse_rules(_field(request, "rules", str))
    seed = None if request.get("seed") is None else _integer(request, "seed")
    return {"state": _state_text(new_game(seed, rules))}


def _apply(request: dict[str, Any]) -> dict[str, Any]:
    state = _read_state(request)
    move = parse_move(_field(request, "move", str), state.rules)
    return {"state": _state_text(apply(state, move))}


def _legal_moves(request: dict[str, Any]) -> dict[str, Any]:
    state = _read_state(request)
    response: dict[str, Any] = {"moves": [format_move(m) for m in legal_moves(state)]}
    if state.phase is Phase.CHANCE:
        response["probabilities"] = [fraction_text(p) for _, p in chance_outcomes(state)]
    return response


def _score(request: dict[str, Any]) -> dict[str, Any]:
    return {"score": to_dict(score(_read_state(request)))}


def _observe(request: dict[str, Any]) -> dict[str, Any]:
    seen = observe(_read_state(request), _player(request))
    return {"observation": format_observation(seen)}


def _tensor(request: dict[str, Any]) -> dict[str, Any]:
    seen = observe(_read_state(request), _player(request))
    return {"tensor": list(observation_tensor(seen))}


def _sample_state(request: dict[str, Any]) -> dict[str, Any]:
    seen = observe(_read_state(request), _player(request))
    rng = SplitMix64.from_seed(_integer(request, "seed"))
    return {"state": _state_text(sample_state(seen, rng))}


def _paths(root: GameState, depth: int) -> list[int]:
    """Move paths of each length 1..depth from `root`, merging equal states layer by layer."""
    counts = []
    layer = {root: 1}
    for _ in range(depth):
        following: dict[GameState, int] = {}
        paths = 0
        for state, n in layer.items():
            for move in legal_moves(state):
                child = apply(state, move)
                following[child] = following.get(child, 0) + n
                paths += n
        counts.append(paths)
        layer = following
    return counts


def _perft(request: dict[str, Any]) -> dict[str, Any]:
    root = _read_state(request)
    depth = _field(request, "depth", int)
    if depth < 1:
        raise _BadRequest("depth", f"must be at least 1, got {depth}")
    response: dict[str, Any] = {"counts": _paths(root, depth)}
    if request.get("divide") is True:
        response["divide"] = [
            [format_move(move), _paths(apply(root, move), depth - 1)[-1] if depth > 1 else 1]
            for move in legal_moves(root)
        ]
    return response


def _parse(request: dict[str, Any]) -> dict[str, Any]:
    kind = _field(request, "type", str)
    text = _field(request, "text", str)
    form = _field(request, "format", str)
    if form == "json":
        if kind not in _JSON_TYPES:
            raise _BadRequest("type", f"no JSON document type {kind!r}")
        return {"canonical": to_dict(from_json(text, kind))}
    if form != "notation":
        raise _BadRequest("format", f"expected 'notation' or 'json', got {form!r}")
    parsers: dict[str, Callable[[], str]] = {
        "move": lambda: format_move(parse_move(text, _rules(request))),
        "rules": lambda: format_rules(parse_rules(text)),
        "state": lambda: format_state(parse_state(text)),
        "observation": lambda: format_observation(parse_observation(text)),
    }
    if kind not in parsers:
        raise _BadRequest("type", f"no notation for {kind!r}")
    return {"canonical": parsers[kind]()}


def _rules(request: dict[str, Any]) -> Rules:
    return parse_rules(_field(request, "rules", str))


_HANDLERS: Final[dict[str, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "hello": _hello,
    "rng": _rng,
    "sample": _sample,
    "new_game": _new_game,
    "apply": _apply,
    "legal_moves": _legal_moves,
    "score": _score,
    "observe": _observe,
    "tensor": _tensor,
    "sample_state": _sample_state,
    "perft": _perft,
    "parse": _parse,
}


def handle(request: object) -> dict[str, Any]:
    """The response to one decoded request; never raises for a bad request or a library error.

    A success is ``{"id", "ok": true, ...}``, a failure ``{"id", "ok": false, "error"}``.
    """
    if not isinstance(request, dict):
        return {
            "id": None,
            "ok": False,
            "error": {"type": "bad_request", "message": "not an object"},
        }
    response: dict[str, Any] = {"id": request.get("id")}
    handler = _HANDLERS.get(request.get("kind"))  # type: ignore[arg-type]
    if handler is None:
        error = {"type": "bad_request", "message": f"unknown kind {request.get('kind')!r}"}
        return response | {"ok": False, "error": error}
    try:
        body = handler(request)
    except _BadRequest as bad:
        return response | {"ok": False, "error": {"type": "bad_request", "message": str(bad)}}
    except ValueError as error:  # every library error is a ValueError (R35)
        return response | {"ok": False, "error": error_doc(error)}
    return response | {"ok": True} | body
