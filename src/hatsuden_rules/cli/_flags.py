"""The rule-set flags every command shares: one vocabulary, one parser (issue 13).

Every command that takes a rule set adds its rule flags with `add_rule_flags` and reads them
back with `rules_from_args`; the flags, how they combine and how they are spelled: docs/cli.md
("Rule-set flags"). A new `Rules` field is one entry of `RULE_FLAGS` (an enumeration:
`enum_flag`).

Examples:
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> _ = add_rule_flags(parser)
    >>> args = parser.parse_args(["--rules", "2/2/1/1/2/SMT/city_points/noretake/2",
    ...                           "--tiebreak", "SUPPLY", "--stall-limit", "none"])
    >>> rules = rules_from_args(args)
    >>> rules.tiebreak, rules.stall_limit, rules.energies
    (Tiebreak.SUPPLY, None, 2)
    >>> sorted(t.name for t in parse_techs("down+ACC"))
    ['ACCUMULATOR', 'DOWN']
"""

from __future__ import annotations

import argparse
import enum
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, TypeVar

import attrs

from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rules import PRINTED, STANDARD, Overflow, Rules, TechTiming, Tiebreak
from hatsuden_rules.notation import TECH_CODES, format_rules, parse_rules

__all__ = [
    "PRESETS",
    "RULE_FLAGS",
    "RuleFlag",
    "add_rule_flags",
    "apply_overrides",
    "enum_flag",
    "enum_parser",
    "overrides",
    "parse_rules_text",
    "parse_techs",
    "rules_from_args",
]

_E = TypeVar("_E", bound=enum.Enum)

PRESETS: Final[Mapping[str, Rules]] = MappingProxyType({"standard": STANDARD, "printed": PRINTED})
"""The rule sets ``--rules`` also takes by name: ``standard`` and ``printed`` (R31)."""

_NOTATION_FORMAT: Final = (
    "energies/max_value/copies/hand_size/city_demand/techs/tiebreak/retake|noretake/stall_limit|off"
    "[/place_at_once][/any_set]"
)


@attrs.frozen
class RuleFlag:
    """One command-line flag for one `Rules` field.

    Attributes:
        field: The `Rules` field (also the argparse destination).
        option: The flag, e.g. ``--max-value``; a boolean field gets ``--no-...`` too.
        parse: Turns the flag's text into the field's value (raises
            `argparse.ArgumentTypeError` naming the accepted spellings); None for a boolean.
        metavar: How the help shows the value.
        help: The help text.
    """

    field: str
    option: str
    parse: Callable[[str], Any] | None
    metavar: str | None
    help: str


def _int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an int, got {text!r}") from None


def _stall_limit(text: str) -> int | None:
    key = text.strip().lower()
    if key in ("none", "off"):
        return None
    try:
        return int(key)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected an int >= 1 or none (no stall end), got {text!r}"
        ) from None


def _key(text: str) -> str:
    return text.strip().lower().replace("-", "_")


def enum_parser(kind: type[_E], what: str) -> Callable[[str], _E]:
    """A parser of `kind`'s members: the JSON value, the name, any case, ``-`` or ``_``.

    Examples:
        >>> parse = enum_parser(Tiebreak, "tiebreak")
        >>> parse("city-points"), parse("SUPPLY"), parse("City_Points")
        (Tiebreak.CITY_POINTS, Tiebreak.SUPPLY, Tiebreak.CITY_POINTS)
        >>> parse("coin")
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: unknown tiebreak 'coin': expected city_points or supply \
(any case, - or _)
    """
    spellings: dict[str, _E] = {}
    for member in kind:
        spellings[_key(str(member.value))] = member
        spellings[_key(member.name)] = member
    values = [str(member.value) for member in kind]
    accepted = ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else values[0]

    def parse(text: str) -> _E:
        member = spellings.get(_key(text))
        if member is None:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {text!r}: expected {accepted} (any case, - or _)"
            )
        return member

    return parse


_TECH_SPELLINGS: Final = MappingProxyType(
    {
        spelling: tech
        for tech in Tech
        for spelling in (_key(tech.value), _key(tech.name), _key(TECH_CODES[tech]))
    }
)
_TECHS_ACCEPTED: Final = (
    f"{', '.join(t.value for t in Tech)} (or {', '.join(TECH_CODES[t] for t in Tech)}; any "
    "case, - or _), separated by , or +, or none"
)


def parse_techs(text: str) -> frozenset[Tech]:
    """The tech cards of ``--techs``: names or notation codes separated by ``,`` or ``+``.

    Examples:
        >>> parse_techs("none"), parse_techs("-")
        (frozenset(), frozenset())
        >>> sorted(t.value for t in parse_techs("Secret-Build,SMT"))
        ['secret_build', 'smart']
        >>> parse_techs("down,nuclear")
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: unknown tech card 'nuclear': expected accumulator, \
secret_build, smart, down (or ACC, SEC, SMT, DWN; any case, - or _), separated by , or +, or none
    """
    if text.strip().lower() in ("none", "-"):
        return frozenset()
    words = [word.strip() for word in text.replace("+", ",").split(",")]
    techs: set[Tech] = set()
    for word in words:
        tech = _TECH_SPELLINGS.get(_key(word))
        if tech is None:
            shown = word if word else text
            raise argparse.ArgumentTypeError(
                f"unknown tech card {shown!r}: expected {_TECHS_ACCEPTED}"
            )
        techs.add(tech)
    return frozenset(techs)


def parse_rules_text(text: str) -> Rules:
    """The rule set of ``--rules``: rules notation or a preset name (`PRESETS`).

    Examples:
        >>> parse_rules_text(" Standard ") == STANDARD
        True
        >>> parse_rules_text("5/4/2/5/10/SMT/supply/noretake/off").stall_limit is None
        True
    """
    key = text.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    try:
        return parse_rules(text.strip())
    except InvalidInputError as error:
        presets = ", ".join(PRESETS)
        raise argparse.ArgumentTypeError(
            f"{error}; expected rules notation {_NOTATION_FORMAT} such as "
            f"{format_rules(STANDARD)}, or {presets}"
        ) from None


def enum_flag(field: str, kind: type[enum.Enum], help: str) -> RuleFlag:
    """The flag of an enumeration field: ``--field-name VALUE``, every spelling accepted.

    Examples:
        >>> enum_flag("tiebreak", Tiebreak, "first tie-break").metavar
        'city_points|supply'
    """
    return RuleFlag(
        field=field,
        option="--" + field.replace("_", "-"),
        parse=enum_parser(kind, field.replace("_", " ")),
        metavar="|".join(str(member.value) for member in kind),
        help=help,
    )


#: The flag of every `Rules` field, in the order of the fields (a new field: one entry here).
RULE_FLAGS: Final[tuple[RuleFlag, ...]] = (
    RuleFlag("energies", "--energies", _int, "N", "energies in play (1-5; R1)"),
    RuleFlag("max_value", "--max-value", _int, "N", "highest card value, 1 to 11 (R2, R31)"),
    RuleFlag("copies", "--copies", _int, "N", "copies of each plant card (R2)"),
    RuleFlag("hand_size", "--hand-size", _int, "N", "cards in a hand (R7)"),
    RuleFlag("city_demand", "--city-demand", _int, "N", "a city's demand (R28)"),
    RuleFlag(
        "techs",
        "--techs",
        parse_techs,
        "A,B|none",
        "tech cards in play, e.g. down,accumulator (names or ACC, SEC, SMT, DWN) or none (R3)",
    ),
    enum_flag("tiebreak", Tiebreak, "first tie-break on equal totals (R29)"),
    RuleFlag(
        "allow_retake_discard",
        "--retake",
        None,
        None,
        "whether a player may take back the card they discarded this turn (R22)",
    ),
    RuleFlag(
        "stall_limit",
        "--stall-limit",
        _stall_limit,
        "N|none",
        "turns in a row without a placement that end the game, or none (R25)",
    ),
    enum_flag(
        "tech_timing",
        TechTiming,
        "when a drawn Accumulator or Smart card is used: kept, or placed at once (R40)",
    ),
    enum_flag(
        "overflow", Overflow, "how an overflow's flips are chosen: one at a time, or a set (R41)"
    ),
)


def add_rule_flags(
    parser: argparse.ArgumentParser,
    *,
    configs: Mapping[str, Rules] | None = None,
    repeat_config: bool = False,
    default: str = "standard (the printed game with the library's rulings)",
) -> argparse._ArgumentGroup:
    """Add ``--rules``, ``--config`` (if `configs`) and every `RULE_FLAGS` flag to `parser`.

    Args:
        parser: The command's parser.
        configs: Named configurations ``--config`` chooses from (omit: no ``--config``).
        repeat_config: ``--config`` may be given several times (a list in ``args.config``).
        default: What the command uses when neither ``--rules`` nor ``--config`` is given.

    Returns:
        The argument group (titled "rules").

    Destinations: ``args.base_rules`` (a `Rules` or None), ``args.config`` (a name, a list of
    names, or None), and one attribute per given field flag, named after the field (absent
    when the flag is not given, so that ``--stall-limit none`` is told from no flag).
    """
    group = parser.add_argument_group(
        "rules",
        f"The base rule set is --rules{', else --config' if configs else ''}, else {default}; "
        "each field flag then replaces that one field.",
    )
    base = group.add_mutually_exclusive_group() if configs else group
    base.add_argument(
        "--rules",
        dest="base_rules",
        type=_rules_parser(configs),
        default=None,
        metavar="NOTATION",
        help="a whole rule set in rules notation (NOTATION.md), e.g. "
        f"{format_rules(STANDARD)}, or {', '.join(PRESETS)}",
    )
    if configs:
        names = list(configs)
        base.add_argument(
            "--config",
            type=_config_parser(names),
            action="append" if repeat_config else "store",
            default=None,
            metavar="NAME",
            help=f"a named configuration: {', '.join(names)}"
            + (" (repeatable)" if repeat_config else ""),
        )
    for flag in RULE_FLAGS:
        if flag.parse is None:
            group.add_argument(
                flag.option,
                dest=flag.field,
                action=argparse.BooleanOptionalAction,
                default=argparse.SUPPRESS,
                help=flag.help,
            )
        else:
            group.add_argument(
                flag.option,
                dest=flag.field,
                type=flag.parse,
                default=argparse.SUPPRESS,
                metavar=flag.metavar,
                help=flag.help,
            )
    return group


def _rules_parser(configs: Mapping[str, Rules] | None) -> Callable[[str], Rules]:
    """`parse_rules_text`, pointing a configuration's name at ``--config``."""

    def rules(text: str) -> Rules:
        key = text.strip().lower()
        if configs and key in configs and key not in PRESETS:
            raise argparse.ArgumentTypeError(
                f"{text!r} is a named configuration: use --config {key} (--rules takes rules "
                f"notation or {', '.join(PRESETS)})"
            )
        return parse_rules_text(text)

    return rules


def _config_parser(names: Sequence[str]) -> Callable[[str], str]:
    def config(text: str) -> str:
        key = text.strip().lower()
        if key not in names:
            raise argparse.ArgumentTypeError(
                f"unknown configuration {text!r}: expected {', '.join(names)}"
            )
        return key

    return config


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The fields given by individual flags, by `Rules` field name.

    Examples:
        >>> overrides(argparse.Namespace(stall_limit=None, base_rules=None, copies=3))
        {'copies': 3, 'stall_limit': None}
    """
    return {
        flag.field: getattr(args, flag.field) for flag in RULE_FLAGS if hasattr(args, flag.field)
    }


def apply_overrides(base: Rules, args: argparse.Namespace) -> Rules:
    """`base` with each field given by an individual flag replaced.

    Raises:
        InvalidRulesError: The result is not a playable rule set (the message names the field).
    """
    fields = overrides(args)
    return attrs.evolve(base, **fields) if fields else base


def rules_from_args(
    args: argparse.Namespace,
    *,
    default: Rules = STANDARD,
    configs: Mapping[str, Rules] | None = None,
) -> Rules:
    """The rule set the flags describe: the base, then each individual flag.

    The base is ``--rules``, else ``--config`` (looked up in `configs`), else `default`.

    Raises:
        InvalidRulesError: The result is not a playable rule set (the message names the field).
    """
    base: Rules = default
    config = getattr(args, "config", None)
    if args.base_rules is not None:
        base = args.base_rules
    elif config is not None and configs is not None:
        base = configs[config]
    return apply_overrides(base, args)
