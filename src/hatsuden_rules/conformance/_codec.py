"""How values travel in vectors and over the adapter protocol (see CONFORMANCE.md).

Rule sets, moves and states travel in the text notation (`hatsuden_rules.notation`): one
canonical string each, compared exactly. Score sheets and observations travel as the JSON
documents of `hatsuden_rules.serialization`, compared as JSON values. Exact probabilities are
reduced fractions ``"p/q"``; 64-bit numbers (seeds, generator states and outputs) are decimal
strings, because many languages' JSON numbers cannot hold them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hatsuden_rules.core.errors import (
    HatsudenError,
    IllegalMoveError,
    InvalidInputError,
    PhaseError,
)
from hatsuden_rules.notation import NotationError
from hatsuden_rules.serialization import InvalidDocumentError

__all__ = ["error_doc", "fraction_text"]


def fraction_text(value: Fraction) -> str:
    """An exact probability as a reduced fraction ``"p/q"`` (``"1/1"`` for certainty).

    Examples:
        >>> fraction_text(Fraction(2, 40)), fraction_text(Fraction(1))
        ('1/20', '1/1')
    """
    return f"{value.numerator}/{value.denominator}"


def error_doc(error: Exception) -> dict[str, Any]:
    """The protocol's ``error`` object for an exception of the library.

    ``type`` is the language-neutral category; ``rule`` (for an illegal move), ``field`` and
    ``position`` (for notation) or ``path`` (for JSON) say where; ``message`` is free text that
    the runner never compares.

    Examples:
        >>> from hatsuden_rules.notation import parse_move
        >>> try:
        ...     parse_move("C S9 0S")
        ... except ValueError as error:
        ...     doc = error_doc(error)
        >>> doc["type"], doc["field"], doc["position"]
        ('invalid_notation', 'move', 2)
    """
    doc: dict[str, Any]
    if isinstance(error, IllegalMoveError):
        doc = {"type": "illegal_move", "rule": error.rule}
    elif isinstance(error, NotationError):
        doc = {"type": "invalid_notation", "field": error.field, "position": error.position}
    elif isinstance(error, InvalidDocumentError):
        doc = {"type": "invalid_json", "path": error.field}
    elif isinstance(error, InvalidInputError):
        doc = {"type": "invalid_input", "field": error.field}
    elif isinstance(error, PhaseError):
        doc = {"type": "phase_error"}
    elif isinstance(error, HatsudenError):
        doc = {"type": "error"}
    else:
        doc = {"type": "internal_error"}
    doc["message"] = str(error)
    return doc
