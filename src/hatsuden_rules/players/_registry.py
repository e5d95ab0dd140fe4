"""Players by name: ``random``, ``greedy``, ``ismcts``, with options (``ismcts:iterations=50``)."""

from __future__ import annotations

import difflib
from types import MappingProxyType
from typing import Any, Final

import attrs

from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.players._greedy import GreedyPlayer
from hatsuden_rules.players._ismcts import ISMCTSPlayer
from hatsuden_rules.players._protocol import Player
from hatsuden_rules.players._random import RandomPlayer

__all__ = ["PLAYERS", "PlayerClass", "make_player"]

#: The class of a named player (the values of `PLAYERS`).
PlayerClass = type[GreedyPlayer] | type[ISMCTSPlayer] | type[RandomPlayer]

PLAYERS: Final[MappingProxyType[str, PlayerClass]] = MappingProxyType(
    {"greedy": GreedyPlayer, "ismcts": ISMCTSPlayer, "random": RandomPlayer}
)
"""The player classes by name."""


def _value(text: str) -> int | float | None:
    if text.lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise InvalidInputError("player", f"{text!r} is not a number or none") from None


def make_player(spec: str) -> Player:
    """The player a spec names: ``NAME`` or ``NAME:FIELD=VALUE[:FIELD=VALUE...]``.

    NAME is one of `PLAYERS`; the fields are the player's configuration (see its class), with
    int, float or ``none`` values, or a word for a text field (``ismcts:core=native``).

    Raises:
        InvalidInputError: An unknown name or field, or a value the player refuses (the field is
            ``"player"`` or the player's own field name).

    Examples:
        >>> make_player("ismcts:iterations=50:rollout_turns=2").iterations
        50
        >>> make_player("greedy")
        GreedyPlayer()
    """
    if type(spec) is not str:
        raise InvalidInputError("player", f"expected a str, got {type(spec).__name__}")
    name, *options = spec.strip().split(":")
    factory = PLAYERS.get(name.strip().lower())
    if factory is None:
        known = ", ".join(sorted(PLAYERS))
        raise InvalidInputError("player", f"unknown player {name!r} (known: {known})")
    attributes = attrs.fields_dict(factory)
    fields = set(attributes)
    kwargs: dict[str, Any] = {}
    for option in options:
        key, equals, text = option.partition("=")
        key = key.strip().replace("-", "_")
        allowed = ", ".join(sorted(fields)) or "none"
        if not equals:
            raise InvalidInputError(
                "player", f"{option!r} is not FIELD=VALUE for {name} (fields: {allowed})"
            )
        if key not in fields:
            close = difflib.get_close_matches(key, sorted(fields), n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise InvalidInputError(
                "player", f"unknown field {key!r} for {name}: {hint}(fields: {allowed})"
            )
        if isinstance(attributes[key].default, str):  # a word: ismcts:core=native
            kwargs[key] = text.strip().lower()
        else:
            kwargs[key] = _value(text.strip())
    return factory(**kwargs)
