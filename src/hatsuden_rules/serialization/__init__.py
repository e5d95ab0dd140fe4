"""JSON documents for rule sets, moves, states, scores, observations and game records.

Every document is a JSON object whose first two keys are ``"type"`` (``"rules"``, ``"move"``,
``"state"``, ``"score"``, ``"observation"`` or ``"record"``) and ``"format_version"``
(`FORMAT_VERSION`); the other keys are the value's fields. Inside a document, cards, cells and
moves are written in the text notation (``"S3"``, ``"0S"``, ``"C S3 0S"``, see
`hatsuden_rules.notation`), enumerations by their lower-case value (``"wind"``,
``"city_points"``) and the 64-bit generator state and seed as decimal strings. The JSON Schema
(2020-12) of each type is shipped in ``hatsuden_rules/schema/``; see NOTATION.md.

Loading never executes anything and never trusts its input: a malformed or inconsistent document
raises `InvalidDocumentError` (a `ValueError`) whose `field` is the JSON path of the problem,
e.g. ``$.hands[1][3]``.

Examples:
    >>> from hatsuden_rules import new_game
    >>> state = new_game(seed=7)
    >>> text = to_json(state)
    >>> text[:45]
    '{"type":"state","format_version":1,"rules":{"'
    >>> from_json(text) == state
    True
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final, Literal, TypeAlias, overload

from hatsuden_rules.core import publish
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import MOVE_TYPES, Move
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.scoring import Score
from hatsuden_rules.core.state import GameState
from hatsuden_rules.notation._format import format_move
from hatsuden_rules.observation._observe import Observation
from hatsuden_rules.serialization._bodies import (
    FORMAT_VERSION,
    observation_body,
    rules_body,
    score_body,
    state_body,
)
from hatsuden_rules.serialization._reader import InvalidDocumentError, Reader, _kind, load_json
from hatsuden_rules.serialization._records import GameRecord, read_record, record_body

__all__ = [
    "DOCUMENT_TYPES",
    "FORMAT_VERSION",
    "Document",
    "InvalidDocumentError",
    "from_dict",
    "from_json",
    "load_schema",
    "to_dict",
    "to_json",
]

publish(__name__, __all__, globals())  # public names, not the private modules defining them

#: The document types, in the order of NOTATION.md.
DOCUMENT_TYPES: Final = ("rules", "move", "state", "score", "observation", "record")
"""The document types, in the order of NOTATION.md."""

#: A value that has a JSON document.
Document: TypeAlias = Any  # Rules | Move | GameState | Score | Observation | GameRecord
"""A value that has a JSON document."""


# -- encoding -------------------------------------------------------------------------------------


def to_dict(value: Document) -> dict[str, Any]:
    """The JSON document of `value` as a dict (with ``type`` and ``format_version``).

    Raises:
        InvalidInputError: `value` has no JSON document.

    Examples:
        >>> from hatsuden_rules import Card, Discard, Energy
        >>> to_dict(Discard(Card(Energy.WIND, 2)))
        {'type': 'move', 'format_version': 1, 'move': 'X W2'}
    """
    kind, body = _encode(value)
    return {"type": kind, "format_version": FORMAT_VERSION, **body}


def to_json(value: Document, *, indent: int | None = None) -> str:
    """The JSON document of `value`: compact (canonical) by default, or indented.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> print(to_json(STANDARD, indent=1))
        {
         "type": "rules",
         "format_version": 1,
         "energies": 5,
         "max_value": 4,
         "copies": 2,
         "hand_size": 5,
         "city_demand": 10,
         "techs": [
          "accumulator",
          "secret_build",
          "smart",
          "down"
         ],
         "tiebreak": "city_points",
         "allow_retake_discard": true,
         "stall_limit": 20
        }
    """
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(to_dict(value), indent=indent, separators=separators, ensure_ascii=False)


def _encode(value: object) -> tuple[str, dict[str, Any]]:
    if type(value) is Rules:
        return "rules", rules_body(value)
    if type(value) in MOVE_TYPES:
        assert isinstance(value, MOVE_TYPES)
        return "move", {"move": format_move(value)}
    if type(value) is GameState:
        return "state", state_body(value)
    if type(value) is Score:
        return "score", score_body(value)
    if type(value) is Observation:
        return "observation", observation_body(value)
    if type(value) is GameRecord:
        return "record", record_body(value)
    raise InvalidInputError(
        "value", f"no JSON document for {type(value).__name__} (one of {DOCUMENT_TYPES})"
    )


# -- decoding -------------------------------------------------------------------------------------


@overload
def from_json(text: str | bytes, expected: Literal["rules"]) -> Rules: ...
@overload
def from_json(text: str | bytes, expected: Literal["move"]) -> Move: ...
@overload
def from_json(text: str | bytes, expected: Literal["state"]) -> GameState: ...
@overload
def from_json(text: str | bytes, expected: Literal["score"]) -> Score: ...
@overload
def from_json(text: str | bytes, expected: Literal["observation"]) -> Observation: ...
@overload
def from_json(text: str | bytes, expected: Literal["record"]) -> GameRecord: ...
@overload
def from_json(text: str | bytes, expected: str | None = None) -> Document: ...
def from_json(text: str | bytes, expected: str | None = None) -> Document:
    """The value of a JSON document (any type, or the `expected` one).

    Raises:
        InvalidDocumentError: Not JSON, not a document, not of the expected type, malformed or
            inconsistent; `field` is the JSON path of the problem.

    Examples:
        >>> from_json('{"type": "move", "format_version": 1, "move": "F 1W"}')
        Flip(cell=Cell(row=1, energy=Energy.WIND))
        >>> from_json('{"type": "move", "format_version": 1, "move": "F 2W"}')
        Traceback (most recent call last):
        ...
        hatsuden_rules.serialization.InvalidDocumentError: $.move: expected a row (0 or 1), \
found '2' at position 2 of 'F 2W'
    """
    return from_dict(load_json(text), expected)


@overload
def from_dict(document: object, expected: Literal["rules"]) -> Rules: ...
@overload
def from_dict(document: object, expected: Literal["move"]) -> Move: ...
@overload
def from_dict(document: object, expected: Literal["state"]) -> GameState: ...
@overload
def from_dict(document: object, expected: Literal["score"]) -> Score: ...
@overload
def from_dict(document: object, expected: Literal["observation"]) -> Observation: ...
@overload
def from_dict(document: object, expected: Literal["record"]) -> GameRecord: ...
@overload
def from_dict(document: object, expected: str | None = None) -> Document: ...
def from_dict(document: object, expected: str | None = None) -> Document:
    """The value of a parsed JSON document (see `from_json`).

    Examples:
        >>> from_dict({"type": "move", "format_version": 1, "move": "DD"})
        DrawFromDeck()
    """
    if expected is not None and expected not in DOCUMENT_TYPES:
        raise InvalidInputError("expected", f"must be one of {DOCUMENT_TYPES}, got {expected!r}")
    r = Reader()
    if not isinstance(document, dict):
        r.fail("$", f"a document is a JSON object, got {_kind(document)}")
    kind = document.get("type")
    if kind not in DOCUMENT_TYPES:
        r.fail("$.type", f"must be one of {', '.join(DOCUMENT_TYPES)}, got {kind!r}")
    assert isinstance(kind, str)
    if expected is not None and kind != expected:
        r.fail("$.type", f"expected a {expected} document, got {kind!r}")
    version = document.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        r.fail("$.format_version", f"this library reads version {FORMAT_VERSION}, got {version!r}")
    body = {k: v for k, v in document.items() if k not in ("type", "format_version")}
    if kind == "rules":
        return r.rules(body, "$")
    if kind == "move":
        fields = r.obj(body, "$", ("move",))
        return r.move(fields["move"], "$.move", None)
    if kind == "state":
        return r.state(body, "$")
    if kind == "score":
        return r.score(body, "$")
    if kind == "observation":
        return r.observation(body, "$")
    return read_record(r, body, "$")


def load_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (2020-12) shipped for a document type, or ``"common"`` (shared defs).

    Examples:
        >>> load_schema("state")["$id"]
        'urn:hatsuden-rules:schema:state'
    """
    if kind not in (*DOCUMENT_TYPES, "common", "document"):
        raise InvalidInputError("kind", f"no schema named {kind!r}")
    text = resources.files("hatsuden_rules").joinpath("schema", f"{kind}.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
