"""The game parameters of ``python_hatsuden``: one row per `Rules` field (no pyspiel needed).

OpenSpiel parameters are scalars (int, float, str, bool) written in game strings such as
``python_hatsuden(energies=2,techs=ACCUMULATOR+SMART)``. Each row of `PARAMETERS` names a
`Rules` field and says how its value is written as a parameter and read back; a new `Rules`
field is one more row. The defaults are the `Rules` defaults, written the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, TypeAlias

import attrs

from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.errors import InvalidRulesError
from hatsuden_rules.core.rules import Overflow, Rules, TechTiming, Tiebreak

__all__ = [
    "GAME_NAME",
    "PARAMETERS",
    "Parameter",
    "ParameterValue",
    "game_string",
    "parameters_from_rules",
    "rules_from_parameters",
]

#: The short name the game is registered under.
GAME_NAME: Final = "python_hatsuden"

ParameterValue: TypeAlias = int | str | bool


def _int(name: str) -> Callable[[object], object]:
    def decode(value: object) -> object:
        if type(value) is not int:
            raise InvalidRulesError(name, f"must be an int, got {value!r}")
        return value

    return decode


def _encode_int(value: object) -> ParameterValue:
    assert type(value) is int
    return value


def _encode_techs(value: object) -> ParameterValue:
    assert isinstance(value, frozenset)
    return "+".join(tech.name for tech in Tech if tech in value) or "none"


def _decode_techs(value: object) -> object:
    if type(value) is not str:
        raise InvalidRulesError(
            "techs", f"must be a string such as 'ACCUMULATOR+SMART', got {value!r}"
        )
    if value == "none":
        return frozenset()
    names = value.split("+")
    known = {tech.name: tech for tech in Tech}
    for name in names:
        if name not in known:
            raise InvalidRulesError(
                "techs",
                f"unknown tech card {name!r} in {value!r}: use '+'-separated names among "
                f"{', '.join(known)}, or 'none' (R3)",
            )
    if len(set(names)) != len(names):
        raise InvalidRulesError("techs", f"names a tech card twice: {value!r} (R3)")
    return frozenset(known[name] for name in names)


def _encode_enum(value: object) -> ParameterValue:
    assert isinstance(value, Tiebreak | TechTiming | Overflow)
    return value.name


def _decode_enum(
    name: str, kind: type[Tiebreak | TechTiming | Overflow], rule: str
) -> Callable[[object], object]:
    def decode(value: object) -> object:
        names = {member.name: member for member in kind}
        if type(value) is not str or value not in names:
            raise InvalidRulesError(
                name, f"must be one of {', '.join(names)}, got {value!r} ({rule})"
            )
        return names[value]

    return decode


def _encode_bool(value: object) -> ParameterValue:
    assert type(value) is bool
    return value


def _decode_bool(name: str) -> Callable[[object], object]:
    def decode(value: object) -> object:
        if type(value) is not bool:
            raise InvalidRulesError(name, f"must be a bool, got {value!r}")
        return value

    return decode


def _encode_stall(value: object) -> ParameterValue:
    assert value is None or type(value) is int
    return 0 if value is None else value


def _decode_stall(value: object) -> object:
    if type(value) is not int or value < 0:
        raise InvalidRulesError(
            "stall_limit", f"must be 0 (no stall rule) or an int >= 1, got {value!r} (R25)"
        )
    return None if value == 0 else value


@attrs.frozen
class Parameter:
    """One game parameter: the `Rules` field of the same name and how its value is written.

    Attributes:
        name: The parameter name, which is the `Rules` field name.
        encode: The parameter value (int, str or bool) of a field value.
        decode: The field value of a parameter value; raises `InvalidRulesError` naming the
            field when the value is malformed.
    """

    name: str
    encode: Callable[[object], ParameterValue]
    decode: Callable[[object], object]


#: One row per `Rules` field, in the order of the fields.
PARAMETERS: Final = (
    Parameter("energies", _encode_int, _int("energies")),
    Parameter("max_value", _encode_int, _int("max_value")),
    Parameter("copies", _encode_int, _int("copies")),
    Parameter("hand_size", _encode_int, _int("hand_size")),
    Parameter("city_demand", _encode_int, _int("city_demand")),
    Parameter("techs", _encode_techs, _decode_techs),
    Parameter("tiebreak", _encode_enum, _decode_enum("tiebreak", Tiebreak, "R29")),
    Parameter("allow_retake_discard", _encode_bool, _decode_bool("allow_retake_discard")),
    Parameter("stall_limit", _encode_stall, _decode_stall),
    Parameter("tech_timing", _encode_enum, _decode_enum("tech_timing", TechTiming, "R40")),
    Parameter("overflow", _encode_enum, _decode_enum("overflow", Overflow, "R41")),
)

_BY_NAME: Final = {parameter.name: parameter for parameter in PARAMETERS}


def parameters_from_rules(rules: Rules) -> dict[str, ParameterValue]:
    """The game parameters of `rules`, every field included, in field order.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> parameters_from_rules(STANDARD)["techs"]
        'ACCUMULATOR+SECRET_BUILD+SMART+DOWN'
    """
    if type(rules) is not Rules:
        raise InvalidRulesError("rules", f"expected Rules, got {type(rules).__name__}")
    return {p.name: p.encode(getattr(rules, p.name)) for p in PARAMETERS}


def rules_from_parameters(parameters: Mapping[str, object]) -> Rules:
    """The `Rules` that game parameters describe; a missing parameter takes the `Rules` default.

    Raises:
        InvalidRulesError: An unknown parameter, a malformed value or an invalid rule set; the
            message names the field.

    Examples:
        >>> rules_from_parameters({"energies": 2, "techs": "none", "stall_limit": 0}).stall_limit
        >>> rules_from_parameters({"tiebreak": "SUPPLY"}).tiebreak
        Tiebreak.SUPPLY
    """
    fields: dict[str, object] = {}
    for name, value in parameters.items():
        parameter = _BY_NAME.get(name)
        if parameter is None:
            raise InvalidRulesError(
                name, f"unknown parameter of {GAME_NAME}; the parameters are {', '.join(_BY_NAME)}"
            )
        fields[name] = parameter.decode(value)
    return Rules(**fields)  # type: ignore[arg-type]


def game_string(rules: Rules) -> str:
    """The OpenSpiel game string of `rules`: ``pyspiel.load_game(game_string(rules))``.

    Parameters equal to their default are left out, so `STANDARD` is plain ``python_hatsuden``.

    Examples:
        >>> from hatsuden_rules import STANDARD, Rules
        >>> game_string(STANDARD)
        'python_hatsuden'
        >>> game_string(Rules(energies=2, techs=(), stall_limit=None))
        'python_hatsuden(energies=2,techs=none,stall_limit=0)'
    """
    defaults = parameters_from_rules(Rules())
    given = {
        name: value
        for name, value in parameters_from_rules(rules).items()
        if value != defaults[name] or type(value) is not type(defaults[name])
    }
    if not given:
        return GAME_NAME
    return f"{GAME_NAME}({','.join(f'{name}={value}' for name, value in given.items())})"
