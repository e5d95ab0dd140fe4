"""The ``invalid`` group: malformed notation and JSON that every port must reject, with controls.

Each malformed input is a small change to a valid one (a character, a field, a count). Where the
change breaks the grammar (``Syntax``) the expected error names the field and, for notation, the
0-based position where a left-to-right reader first meets the problem, or, for JSON, the path of
the offending value. Where the text is well formed but describes an impossible value
(``Semantic``: a card too many, an impossible phase, a rule set R31 refuses) only the category is
compared, because which part a port blames first is its own business. Every malformed input comes
with valid ``Control`` inputs of the same type that MUST be accepted, so a port that rejects
everything fails.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from hatsuden_rules.conformance._codec import error_doc
from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rules import STANDARD, Rules, TechTiming
from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.notation import (
    NotationError,
    format_move,
    format_observation,
    format_rules,
    format_state,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.observation import observe
from hatsuden_rules.records import record_game
from hatsuden_rules.serialization import from_json, to_dict, to_json
from tools.vectors.games import RULE_SETS, VARIANT_RULE_SETS

__all__ = ["invalid_vectors", "variant_invalid_vectors"]

_RULE_REF: Final = re.compile(r"\bR(\d+)\b")


def _message_refs(message: str) -> set[str]:
    return {f"R{n}" for n in _RULE_REF.findall(message)}


def _parse_notation(kind: str, text: str, rules: Rules | None) -> str:
    """The canonical form of `text` parsed as a `kind`, or the library's error."""
    if kind == "move":
        return format_move(parse_move(text, rules))
    if kind == "rules":
        return format_rules(parse_rules(text))
    if kind == "observation":
        return format_observation(parse_observation(text))
    return format_state(parse_state(text))


def _notation_vector(
    kind: str, text: str, rules: Rules | None, syntax: bool, note: str
) -> Vector | None:
    """A vector for `text`: a control if the library accepts it, else the expected rejection."""
    request: dict[str, Any] = {"kind": "parse", "format": "notation", "type": kind, "text": text}
    if kind == "move":
        request["rules"] = format_rules(rules or STANDARD)
    refs = {"R35"} | ({"R31"} if kind == "rules" else set())
    try:
        canonical = _parse_notation(kind, text, rules)
    except NotationError as error:
        full = error_doc(error)
        expected_error: dict[str, Any] = {"type": full["type"]}
        if syntax:
            expected_error |= {"field": full["field"], "position": full["position"]}
        return make_vector(
            "invalid",
            rules=rules,
            refs=refs | _message_refs(str(error)),
            flags={"Notation", "Syntax" if syntax else "Semantic"},
            comment=f"{note}: {error}",
            input=request,
            expected={"ok": False, "error": expected_error},
        )
    if canonical != text:  # only canonical spellings are accepted
        return None
    return make_vector(
        "invalid",
        rules=rules,
        refs=refs,
        flags={"Notation", "Control"},
        comment=f"{note}: accepted, canonical",
        input=request,
        expected={"ok": True, "canonical": canonical},
    )


# -- moves --------------------------------------------------------------------------------------

_BAD_MOVES: Final = (
    ("", "empty"),
    (" C S3 0S", "leading space"),
    ("C S3 0S ", "trailing space"),
    ("C  S3 0S", "two spaces"),
    ("C\tS3 0S", "a tab"),
    ("c S3 0S", "lower-case verb"),
    ("C s3 0S", "lower-case energy"),
    ("C S0 0S", "value 0"),
    ("C S5 0S", "value above max_value"),
    ("C S12 0S", "value 12, no card under any rules (R2)"),
    ("C S03 0S", "leading zero"),
    ("C S-1 0S", "negative value"),
    ("C S3 2S", "row 2"),
    ("C S3 0X", "unknown energy letter"),
    ("C X3 0S", "unknown card energy"),
    ("C S3", "missing cell"),
    ("C S3 0S 0G", "extra operand"),
    ("C*S3 0S", "no space after C*"),
    ("C * S3 0S", "space inside C*"),
    ("I* S3 0S", "secret Improve"),
    ("Q S3", "unknown verb"),
    ("X", "Discard without card"),
    ("DX", "DrawFromDiscard without card"),
    ("DX S3 S4", "two cards"),
    ("=", "bare ="),
    ("= S3", "space after ="),
    ("=ABC", "unknown tech code"),
    ("=acc", "lower-case tech code"),
    ("A 2", "row 2 for the Accumulator"),
    ("A -1", "negative row"),
    ("A", "Accumulator without row"),
    ("M Z", "unknown energy for Smart"),
    ("M 1", "Smart on a number"),
    ("F 1", "Flip without energy"),
    ("F S3", "Flip of a card, not a cell"),
    ("PASS PASS", "two moves"),
    ("pass", "lower-case PASS"),
    ("DD ", "trailing space after DD"),
    ("C S3 0S\n", "newline"),
    ("C \uff333 0S", "full-width letter"),
    ("P S3 10S", "row 10"),
    ("C S99999999999 0S", "a very long number"),
)

_REDUCED_MOVES: Final = (
    ("small", "C G1 0G", "energy not in play (R1)"),
    ("small", "X S3", "value not in play (R2)"),
    ("small", "=SMT", "tech not in play (R3)"),
    ("small", "M W", "Smart on an energy not in play (R1)"),
    ("medium", "F 1W", "cell not in play (R1)"),
    ("medium", "=ACC", "tech not in play (R3)"),
    ("medium-alltech", "C H1 0H", "energy not in play (R1)"),
    ("mini", "P H1 0S", "card of an energy not in play (R1)"),
    ("quad", "DX B1", "card of an energy not in play (R1)"),
)

_GOOD_MOVES: Final = (
    "C S3 0S",
    "C* B4 1B",
    "C S3 0G",  # well formed; the wrong column is illegal, not malformed (R10)
    "I W2 1W",
    "D H1 0H",
    "P G4 1W",
    "X S1",
    "PASS",
    "DT",
    "NT",
    "F 1W",
    "DD",
    "DX B4",
    "E",
    "A 0",
    "A 1",
    "M B",
    "=S1",
    "=ACC",
    "=SEC",
    "=SMT",
    "=DWN",
)


def _move_vectors() -> Iterator[Vector | None]:
    for text, note in _BAD_MOVES:
        yield _notation_vector("move", text, STANDARD, True, f"move, {note}")
    for name, text, note in _REDUCED_MOVES:
        yield _notation_vector("move", text, RULE_SETS[name], True, f"move under {name}, {note}")
    for text in _GOOD_MOVES:
        yield _notation_vector("move", text, STANDARD, True, "move")
    yield _notation_vector("move", "C S1 0S", RULE_SETS["small"], True, "move under small")


# -- rule sets ----------------------------------------------------------------------------------

_STANDARD_RULES: Final = format_rules(STANDARD)
_BAD_RULES: Final = (
    ("", True, "empty"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake", True, "eight fields"),
    (_STANDARD_RULES + "/", True, "trailing slash"),
    (_STANDARD_RULES + "/20", True, "ten fields"),
    ("5/4/2/5/10//city_points/retake/20", True, "empty techs instead of -"),
    ("5/4/2/5/10/ACC,SEC/city_points/retake/20", True, "comma between techs"),
    ("5/4/2/5/10/SEC+ACC/city_points/retake/20", True, "techs out of canonical order"),
    ("5/4/2/5/10/ACC+ACC/city_points/retake/20", True, "a tech twice"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/citypoints/retake/20", True, "misspelt tiebreak"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/yes/20", True, "retake as yes"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/none", True, "stall none, not off"),
    ("05/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20", True, "leading zero"),
    ("5/4/2/5/-10/ACC+SEC+SMT+DWN/city_points/retake/20", True, "negative demand"),
    ("5/4/2/5/1000000000/-/city_points/retake/20", True, "ten-digit number"),
    ("5 /4/2/5/10/-/city_points/retake/20", True, "space"),
    ("0/4/2/5/10/-/city_points/retake/20", False, "no energy (R31)"),
    ("6/4/2/5/10/-/city_points/retake/20", False, "six energies (R1, R31)"),
    ("5/0/2/5/10/-/city_points/retake/20", False, "max_value 0 (R31)"),
    ("5/4/0/5/10/-/city_points/retake/20", False, "no copies (R31)"),
    ("5/4/2/0/10/-/city_points/retake/20", False, "empty hands (R31)"),
    ("5/4/2/5/0/-/city_points/retake/20", False, "city_demand 0 (R31)"),
    ("5/4/2/21/10/-/city_points/retake/20", False, "hands too big for the deck (R31)"),
    ("1/4/1/3/10/-/city_points/retake/20", False, "deck of 4 for two hands of 3 (R31)"),
    ("5/5/2/5/3/-/city_points/retake/20", False, "max_value above city_demand + 1 (R21, R31)"),
    ("5/12/2/5/20/-/city_points/retake/20", False, "max_value above 11 (R2, R31)"),
    ("5/4/2/5/10/-/city_points/retake/0", False, "stall_limit 0 (R31)"),
    ("5/100/100/5/100/-/city_points/retake/20", False, "more cards than a document may hold"),
)


def _rules_vectors() -> Iterator[Vector | None]:
    for text, syntax, note in _BAD_RULES:
        yield _notation_vector("rules", text, None, syntax, f"rules, {note}")
    for name, rules in RULE_SETS.items():
        yield _notation_vector("rules", format_rules(rules), None, True, f"rules {name}")
    yield _notation_vector("rules", "1/1/2/1/1/-/supply/noretake/off", None, True, "tiny rules")


# -- states -------------------------------------------------------------------------------------

_Mutation = Callable[[str], str]


def _replace_field(name: str, value: str) -> _Mutation:
    def mutate(text: str) -> str:
        return re.sub(rf"(^| ){name}=[^ ]*", rf"\g<1>{name}={value}", text, count=1)

    return mutate


def _field(text: str, name: str) -> str:
    match = re.search(rf"(?:^| ){name}=([^ ]*)", text)
    return match.group(1) if match else ""


def _drop_first_card(name: str) -> _Mutation:
    def mutate(text: str) -> str:
        cards = _field(text, name)
        if cards in ("-", ""):
            return text
        rest = cards.split(",")[1:]
        return _replace_field(name, ",".join(rest) or "-")(text)

    return mutate


def _add_card(name: str, card: str) -> _Mutation:
    def mutate(text: str) -> str:
        cards = _field(text, name)
        listed = [] if cards in ("-", "") else cards.split(",")
        return _replace_field(name, ",".join([card, *listed]))(text)

    return mutate


def _swap_first_cards(name: str) -> _Mutation:
    def mutate(text: str) -> str:
        listed = _field(text, name).split(",")
        if len(listed) < 2 or listed[0] == listed[1]:
            return text
        listed[0], listed[1] = listed[1], listed[0]
        return _replace_field(name, ",".join(listed))(text)

    return mutate


def _drop_field(name: str) -> _Mutation:
    def mutate(text: str) -> str:
        return re.sub(rf"(^| ){name}=[^ ]*", "", text, count=1).lstrip()

    return mutate


def _swap_fields(a: str, b: str) -> _Mutation:
    def mutate(text: str) -> str:
        parts = text.split(" ")
        i = next(k for k, p in enumerate(parts) if p.startswith(f"{a}="))
        j = next(k for k, p in enumerate(parts) if p.startswith(f"{b}="))
        parts[i], parts[j] = parts[j], parts[i]
        return " ".join(parts)

    return mutate


_STATE_SYNTAX: Final[tuple[tuple[str, _Mutation], ...]] = (
    ("truncated in the middle", lambda t: t[: len(t) // 2]),
    ("truncated by one character", lambda t: t[:-1]),
    ("trailing space", lambda t: t + " "),
    ("leading space", lambda t: " " + t),
    ("two spaces between fields", lambda t: t.replace(" phase=", "  phase=", 1)),
    ("unknown phase", _replace_field("phase", "setup")),
    ("upper-case phase", lambda t: re.sub(r"phase=(\w+)", lambda m: "phase=" + m[1].upper(), t)),
    ("player 2", _replace_field("current_player", "2")),
    ("leading zero in stall_count", _replace_field("stall_count", "00")),
    ("a 21-digit generator state", _replace_field("rng_state", "1" * 21)),
    ("generator state with a leading zero", _replace_field("rng_state", "01")),
    ("field missing", _drop_field("tech_deck")),
    ("fields swapped", _swap_fields("deck", "discards")),
    ("unknown card in the deck", _replace_field("deck", "Z9")),
    ("board with one row", _replace_field("boards", ".,.,.,.,./.,.,.,.,.")),
    ("board row too short", _replace_field("boards", ".,.,.,.;.,.,.,.,./.,.,.,.,.;.,.,.,.,.")),
    ("unknown tech code", _replace_field("tech_deck", "ACC,XYZ")),
    ("accumulator without row", _replace_field("accumulator", "0")),
    ("this_turn without brackets", _replace_field("this_turn", "DD")),
    ("hands without the slash", lambda t: re.sub(r"hands=([^ /]*)/", r"hands=\1,", t, count=1)),
    ("renamed field", lambda t: t.replace(" deck=", " stock=", 1)),
)

_STATE_SEMANTIC: Final[tuple[tuple[str, _Mutation], ...]] = (
    ("a deck card missing (R2)", _drop_first_card("deck")),
    ("a deck card too many (R2)", _add_card("deck", "S1")),
    ("deck out of canonical order (R2)", _swap_first_cards("deck")),
    ("a discard too many (R2)", _add_card("discards", "B4")),
    ("the tech deck holds a tech twice (R3)", _replace_field("tech_deck", "ACC,ACC")),
    ("stall counter at the stall limit (R25)", _replace_field("stall_count", "999")),
    ("GAME_OVER without an end reason (R26)", _replace_field("phase", "game_over")),
    ("an end reason while the game goes on (R26)", _replace_field("end_reason", "stall")),
    ("a pending chance outside CHANCE (R6)", _replace_field("pending_chance", "draw")),
    ("a generator state in CHANCE or explicit mode (R8)", _replace_field("rng_state", "5")),
    ("a played cell in ACTION (R9)", _replace_field("played_cell", "0S")),
    ("end triggered by player 1 with an empty grid (R24)", _replace_field("end_triggered_by", "1")),
)


def _state_vectors(states: Sequence[GameState]) -> Iterator[Vector | None]:
    texts = [format_state(state) for state in states]
    for k, (note, mutate) in enumerate(_STATE_SYNTAX):
        text = texts[k % len(texts)]
        yield _notation_vector("state", mutate(text), None, True, f"state, {note}")
    for k, (note, mutate) in enumerate(_STATE_SEMANTIC):
        for text in (texts[k % len(texts)], texts[(k + 3) % len(texts)]):
            mutated = mutate(text)
            if mutated != text:
                yield _notation_vector("state", mutated, None, False, f"state, {note}")
    for text in texts:
        yield _notation_vector("state", text, None, True, "state")


_OBSERVATION_SYNTAX: Final[tuple[tuple[str, _Mutation], ...]] = (
    ("truncated", lambda t: t[: len(t) // 3]),
    ("player 2", _replace_field("player", "2")),
    ("unknown field", lambda t: t.replace(" deck_size=", " stock=", 1)),
    ("negative deck size", _replace_field("deck_size", "-1")),
    ("hand with an unknown card", _replace_field("hand", "S0")),
    ("trailing space", lambda t: t + " "),
    ("a state, not an observation", lambda t: t.replace(" player=", " current_player=", 1)),
)


def _observation_notation_vectors(states: Sequence[GameState]) -> Iterator[Vector | None]:
    texts = [format_observation(observe(state, k % 2)) for k, state in enumerate(states)]
    for k, (note, mutate) in enumerate(_OBSERVATION_SYNTAX):
        text = texts[k % len(texts)]
        yield _notation_vector("observation", mutate(text), None, True, f"observation, {note}")
    for text in texts:
        yield _notation_vector("observation", text, None, True, "observation")


# -- JSON ---------------------------------------------------------------------------------------


def _json_vector(
    kind: str, text: str, syntax: bool, note: str, rules: Rules | None = None
) -> Vector | None:
    request: dict[str, Any] = {"kind": "parse", "format": "json", "type": kind, "text": text}
    refs = {"R35"} | ({"R31"} if kind == "rules" else set())
    try:
        value = from_json(text, kind)
    except InvalidInputError as error:
        full = error_doc(error)
        expected_error: dict[str, Any] = {"type": full["type"]}
        if syntax:
            expected_error["path"] = full["path"]
        return make_vector(
            "invalid",
            rules=rules,
            refs=refs | _message_refs(str(error)),
            flags={"JSON", "Syntax" if syntax else "Semantic"},
            comment=f"{kind} JSON, {note}: {error}",
            input=request,
            expected={"ok": False, "error": expected_error},
        )
    return make_vector(
        "invalid",
        rules=rules,
        refs=refs,
        flags={"JSON", "Control"},
        comment=f"{kind} JSON, {note}: accepted",
        input=request,
        expected={"ok": True, "canonical": to_dict(value)},
    )


def _dump(document: Any) -> str:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def _json_vectors(states: Sequence[GameState]) -> Iterator[Vector | None]:
    rules_doc = to_dict(STANDARD)
    for note, text in (
        ("not JSON", "energies=5"),
        ("empty text", ""),
        ("an array", "[]"),
        ("truncated", to_json(STANDARD)[:-1]),
        ("NaN", _dump(rules_doc).replace('"stall_limit":20', '"stall_limit":NaN')),
        ("duplicate key", _dump(rules_doc)[:-1] + ',"copies":2}'),
    ):
        yield _json_vector("rules", text, True, note)
    for key, value, note in (
        ("type", "state", "wrong document type"),
        ("format_version", 99, "unknown format version"),
        ("energies", "5", "energies as a string"),
        ("energies", 5.0, "energies as a float"),
        ("energies", True, "energies as a boolean"),
        ("techs", ["accumulator", "accumulator"], "a tech twice"),
        ("techs", ["ACC"], "tech in notation, not JSON"),
        ("tiebreak", "tie", "unknown tiebreak"),
        ("allow_retake_discard", 1, "retake as a number"),
        ("stall_limit", -1, "negative stall limit"),
        ("extra", 1, "unknown key"),
    ):
        yield _json_vector("rules", _dump(rules_doc | {key: value}), True, note)
    for key in ("energies", "techs", "type"):
        yield _json_vector(
            "rules", _dump({k: v for k, v in rules_doc.items() if k != key}), True, f"no {key}"
        )
    for key, value, note in (
        ("energies", 0, "no energy (R31)"),
        ("energies", 6, "six energies (R31)"),
        ("hand_size", 21, "hands too big for the deck (R31)"),
        ("max_value", 12, "max_value above city_demand + 1 (R31)"),
        ("stall_limit", 0, "stall limit 0 (R31)"),
    ):
        yield _json_vector("rules", _dump(rules_doc | {key: value}), False, note)
    big = rules_doc | {"max_value": 12, "city_demand": 20}
    yield _json_vector("rules", _dump(big), False, "max_value above 11 (R2, R31)")
    for name, rules in RULE_SETS.items():
        yield _json_vector("rules", to_json(rules), True, f"{name} rules")

    move_doc: dict[str, object] = to_dict(parse_move("C S3 0S"))
    move_values: tuple[tuple[str, object], ...] = (
        ("malformed move notation", "C S3  0S"),
        ("value above max_value", "C S5 0S"),
        ("value 12, no card under any rules (R2)", "C S12 0S"),
        ("a number, not a string", 3),
        ("null", None),
    )
    for note, bad in move_values:
        yield _json_vector("move", _dump(move_doc | {"move": bad}), True, note)
    yield _json_vector("move", _dump({"type": "move", "format_version": 1}), True, "no move")
    for text in ("C S3 0S", "C* B4 1B", "PASS", "=ACC", "DX W2"):
        yield _json_vector("move", to_json(parse_move(text)), True, "move")

    for k, state in enumerate(states[:6]):
        doc = to_dict(state)
        yield _json_vector("state", to_json(state), True, "state", state.rules)
        syntax_mutations: list[tuple[str, dict[str, Any]]] = [
            ("player as a string", doc | {"current_player": str(doc["current_player"])}),
            ("unknown phase", doc | {"phase": "setup"}),
            ("unknown card in the deck", doc | {"deck": ["Z9", *doc["deck"]]}),
            ("deck as a string", doc | {"deck": ",".join(doc["deck"])}),
            ("unknown key", doc | {"seed": "1"}),
            ("hands of one player", doc | {"hands": doc["hands"][:1]}),
            ("generator state as a number", doc | {"rng_state": 5}),
        ]
        missing = {key: value for key, value in doc.items() if key != "boards"}
        syntax_mutations.append(("no boards", missing))
        for note, mutated in syntax_mutations[k::2]:
            yield _json_vector("state", _dump(mutated), True, note, state.rules)
        semantic_mutations: list[tuple[str, dict[str, Any]]] = [
            ("a deck card missing (R2)", doc | {"deck": doc["deck"][1:]}),
            ("a deck card too many (R2)", doc | {"deck": [*doc["deck"], "B4"]}),
            ("GAME_OVER without an end reason (R26)", doc | {"phase": "game_over"}),
            ("a pending chance outside CHANCE (R6)", doc | {"pending_chance": "tech"}),
        ]
        for note, mutated in semantic_mutations[k % 2 :: 2]:
            if mutated != doc:
                yield _json_vector("state", _dump(mutated), False, note, state.rules)


def _more_json_vectors(states: Sequence[GameState]) -> Iterator[Vector | None]:
    for k, state in enumerate(states[:4]):
        seen = observe(state, k % 2)
        doc = to_dict(seen)
        yield _json_vector("observation", to_json(seen), True, "observation", state.rules)
        yield _json_vector("observation", _dump(doc | {"player": 2}), True, "player 2", state.rules)
        sheet = score(state)
        sheet_doc = to_dict(sheet)
        yield _json_vector("score", to_json(sheet), True, "score", state.rules)
        yield _json_vector(
            "score", _dump(sheet_doc | {"decided_by": "coin"}), True, "unknown decision"
        )


# -- letters of a token: ASCII only (issue 23 §4.7) ---------------------------------------------

#: Non-ASCII letters and digits (full-width, accented) where a keyword, a word or a number is
#: read: each is refused where it stands (NOTATION.md, "Letters of a token").
_NON_ASCII_MOVES: Final = (
    ("C\uff333 0S", "a full-width letter after the keyword"),
    ("\uff23 S3 0S", "a full-width keyword"),
    ("C\u00e9 S3 0S", "an accented letter after the keyword"),
    ("C S3 0\uff33", "a full-width energy letter"),
    ("C S\uff13 0S", "a full-width digit"),
    ("PASS\u00c9", "an accented capital after PASS"),
    ("=\uff33" + "3", "a full-width letter after ="),
)
_NON_ASCII_RULES: Final = (
    (_STANDARD_RULES.replace("city_points", "city_points\u00e9"), "an accented word letter"),
    (_STANDARD_RULES.replace("retake", "retak\u00e9"), "an accented letter in retake"),
    ("\uff15" + _STANDARD_RULES[1:], "a full-width digit"),
    (_STANDARD_RULES + "/any_s\u00e9t", "an accented letter in a variant word"),
)
_NON_ASCII_STATE: Final[tuple[tuple[str, _Mutation], ...]] = (
    ("an accented word", lambda t: re.sub(r"phase=(\w+)", "phase=\\1\u00e9", t, count=1)),
    ("a full-width digit", _replace_field("stall_count", "\uff10")),
    ("a full-width card letter", lambda t: re.sub(r"( hands?=)[SGWHB]", "\\1\uff33", t, count=1)),
)


def _non_ascii_vectors(states: Sequence[GameState]) -> Iterator[Vector | None]:
    for text, note in _NON_ASCII_MOVES:
        yield _notation_vector("move", text, STANDARD, True, f"move, {note}")
    for text, note in _NON_ASCII_RULES:
        yield _notation_vector("rules", text, None, True, f"rules, {note}")
    state = format_state(states[0])
    seen = format_observation(observe(states[0], 0))
    for note, mutate in _NON_ASCII_STATE:
        yield _notation_vector("state", mutate(state), None, True, f"state, {note}")
        yield _notation_vector("observation", mutate(seen), None, True, f"observation, {note}")


# -- game records: JSON documents, their names (NOTATION.md, "Game records") -------------------

#: Player names: printable as `str.isprintable` says at Unicode 14.0.0
#: (`hatsuden_rules.core.printable`), the same on every interpreter and in every port.
_RECORD_NAMES: Final = (
    ("Zo\u00eb", "an accented name"),
    ("\u674e \u5c0f\u9f8d", "a name in CJK with a space"),
    ("\U0001f600", "a name outside the BMP (a surrogate pair when escaped)"),
    ("n" * 100, "a name of 100 characters"),
    ("n" * 101, "a name of 101 characters"),
    ("", "an empty name"),
    ("a\u0007b", "a control character in a name"),
    ("a\u200bb", "a zero-width space (a format character) in a name"),
    ("a\u00a0b", "a no-break space in a name"),
    ("\u3000", "an ideographic space as a name"),
    ("a\u2028", "a line separator in a name"),
    ("\ue000", "a private-use character as a name"),
    ("\u0378", "a code point unassigned in Unicode 14.0.0 as a name"),
    ("\uffff", "a noncharacter as a name"),
    ("x\ud800", "a lone high surrogate in a name"),
    ("\udc00y", "a lone low surrogate in a name"),
    ("x\ud800A", "a lone high surrogate before a letter in a name"),
)


def _record_vectors() -> Iterator[Vector | None]:
    state = new_game(seed=2017)
    moves: list[Move] = []
    for _ in range(6):
        move = legal_moves(state)[0]
        moves.append(move)
        state = apply(state, move)
    document = to_dict(record_game(moves, seed=2017, players=("Ann", "Bo")))
    unnamed = to_dict(record_game(moves, seed=2017))
    # ASCII JSON: a non-ASCII name is escaped, a character outside the BMP as a surrogate pair.
    ascii_json = functools.partial(json.dumps, separators=(",", ":"), ensure_ascii=True)
    yield _json_vector("record", ascii_json(document), True, "named record")
    yield _json_vector("record", ascii_json(unnamed), True, "record without names")
    for name, note in _RECORD_NAMES:
        for k in (0, 1):
            players = [name, "Bo"] if k == 0 else ["Ann", name]
            yield _json_vector("record", ascii_json(document | {"players": players}), True, note)
    malformed: tuple[tuple[object, str], ...] = (
        (["Ann"], "one name"),
        (["Ann", "Bo", "Cy"], "three names"),
        ("Ann", "names as a string"),
        ([1, "Bo"], "a name that is a number"),
    )
    for value, note in malformed:
        yield _json_vector("record", ascii_json(document | {"players": value}), True, note)


def invalid_vectors(states: Sequence[GameState]) -> list[Vector]:
    """The ``invalid`` group, built around a few states of `states` (any phase, both modes).

    Examples:
        >>> from hatsuden_rules import new_game
        >>> vectors = invalid_vectors([new_game(seed=1), new_game()])
        >>> any("Control" in v.flags for v in vectors), any("Syntax" in v.flags for v in vectors)
        (True, True)
    """
    chosen = [s for s in states if s.phase is not Phase.GAME_OVER][:6]
    chosen += [s for s in states if s.phase is Phase.GAME_OVER][:2]
    produced: list[Vector | None] = []
    produced += _move_vectors()
    produced += _rules_vectors()
    produced += _state_vectors(chosen)
    produced += _observation_notation_vectors(chosen)
    produced += _json_vectors(chosen)
    produced += _more_json_vectors(chosen)
    produced += _non_ascii_vectors(chosen)  # issue 23 §4.7
    produced += _record_vectors()
    vectors = [v for v in produced if v is not None]
    return list({v.id: v for v in vectors}.values())


# -- the variants (R40, R41) ---------------------------------------------------------------------

_VARIANT_RULES_TEXT: Final = (
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/keep", True, "the default keep written"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/one_at_a_time", True, "default overflow"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set/place_at_once", True, "order"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set/any_set", True, "twice"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/anyset", True, "misspelt variant"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off/ANY_SET", True, "upper case"),
)

_FLIP_SET_TEXT: Final = (
    ("FS 0S+0G", "canonical"),
    ("FS 1B", "one cell"),
    ("FS 0G+0S", "cells out of order"),
    ("FS 0S+0S", "a cell twice"),
    ("FS", "no cell"),
    ("FS 0S+", "a trailing +"),
    ("FS 0S 0G", "a space between cells"),
    ("FS 0S,0G", "a comma between cells"),
    ("fs 0S", "lower-case verb"),
)


def variant_invalid_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """The notation and JSON of the variant options and of FlipSet, valid or not (R40, R41)."""
    produced: list[Vector | None] = []
    for rules in VARIANT_RULE_SETS.values():
        produced.append(_notation_vector("rules", format_rules(rules), None, True, "variant"))
        produced.append(_json_vector("rules", to_json(rules), True, "variant rules"))
    for text, syntax, note in _VARIANT_RULES_TEXT:
        produced.append(_notation_vector("rules", text, None, syntax, f"rules, {note}"))
    for text, note in _FLIP_SET_TEXT:
        for rules in (VARIANT_RULE_SETS["any-set"], STANDARD):
            produced.append(_notation_vector("move", text, rules, True, f"FlipSet, {note}"))
    document = to_dict(VARIANT_RULE_SETS["any-set"])
    for key, value, note in (
        ("overflow", "any", "unknown overflow"),
        ("overflow", "ANY_SET", "overflow in upper case"),
        ("tech_timing", True, "tech_timing as a boolean"),
        ("tech_timing", "keep", "the default written out"),
        ("overflow", None, "null overflow"),
    ):
        produced.append(_json_vector("rules", _dump(document | {key: value}), True, note))
    owed = [s for s in states if s.rules.tech_timing is TechTiming.PLACE_AT_ONCE][:2]
    for state in owed:
        produced.append(_json_vector("state", to_json(state), True, "state", state.rules))
    yield from (v for v in produced if v is not None)
