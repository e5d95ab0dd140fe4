"""Fuzzing the loaders (issue 5 §2): untrusted JSON and text never crash.

Mutated valid documents, arbitrary JSON values and arbitrary text either load or raise the
library's ValueError subclass (`InvalidDocumentError`, `NotationError`); never KeyError,
IndexError, TypeError, RecursionError. Whatever loads is a value the engine can use: its legal
moves, every one of them applied, and its score work.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hatsuden_rules import (
    GameState,
    HatsudenError,
    InvalidDocumentError,
    NotationError,
    Rules,
    apply,
    format_observation,
    format_record,
    format_state,
    from_dict,
    from_json,
    legal_moves,
    new_game,
    observe,
    parse_move,
    parse_observation,
    parse_record,
    parse_state,
    record_game,
    score,
    to_dict,
)

from .strategies import budget

MICRO = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)

JSON_LEAVES = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8)
JSON_LEAVES |= st.sampled_from(["S1", "0S", "DD", "=ACC", "smart", "draw", "1", "-", "?"])
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@cache
def _games() -> tuple[tuple[GameState, ...], ...]:
    """The states of a few games (seeded and explicit), as seeds for mutation."""
    games = []
    for seed, rules in ((4, Rules()), (None, MICRO), (9, MICRO)):
        state, states, k = new_game(seed, rules), [], 0
        while not state.is_over:
            states.append(state)
            moves = legal_moves(state)
            state = apply(state, moves[(k * 7919) % len(moves)])
            k += 1
        states.append(state)
        games.append(tuple(states))
    return tuple(games)


def _documents() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for states in _games():
        for state in states[:: max(1, len(states) // 6)]:
            out += [to_dict(state), to_dict(score(state)), to_dict(observe(state, 1))]
    record = record_game([m for s, m in _moves(_games()[1])], rules=MICRO, players=("A", "B"))
    out.append(to_dict(record))
    out.append(to_dict(MICRO))
    return out


def _moves(states: tuple[GameState, ...]) -> list[tuple[GameState, Any]]:
    pairs = []
    for before, after in itertools.pairwise(states):
        for move in legal_moves(before):
            if apply(before, move) == after:
                pairs.append((before, move))
                break
    return pairs


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            out += _paths(item, (*prefix, k))
    return out


def _exercise(value: object) -> None:
    """Whatever loads is usable by the engine (R35: only HatsudenError may come out)."""
    if isinstance(value, GameState):
        moves = legal_moves(value)
        for move in moves:
            try:
                apply(value, move)
            except HatsudenError:
                raise AssertionError(f"a legal move of a loaded state fails: {move}") from None
        score(value)


@settings(max_examples=budget(1.0))
@given(data=st.data())
def test_mutated_documents_load_or_fail_cleanly(data: st.DataObject) -> None:
    documents = _documents()
    document = copy.deepcopy(data.draw(st.sampled_from(documents), label="document"))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = _paths(document)
        path = data.draw(st.sampled_from(paths[1:]), label="path")
        parent: Any = document
        for part in path[:-1]:
            parent = parent[part]
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate"]), label="action")
        if action == "replace":
            parent[path[-1]] = data.draw(JSON_VALUES, label="value")
        elif action == "delete":
            if isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.pop(path[-1])
        elif isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    try:
        value = from_dict(document)
    except InvalidDocumentError as error:
        field = error.field
    else:
        _exercise(value)
        assert from_dict(to_dict(value)) == value
        return
    assert field.startswith("$")


@settings(max_examples=budget(1.0))
@given(value=JSON_VALUES, kind=st.sampled_from(["rules", "move", "state", "score", "record"]))
def test_arbitrary_json_fails_cleanly(value: object, kind: str) -> None:
    document = value
    if isinstance(value, dict):
        document = {"type": kind, "format_version": 1, **value}
    try:
        loaded = from_json(json.dumps(document))
    except InvalidDocumentError:
        return
    _exercise(loaded)


@settings(max_examples=budget(1.0))
@given(text=st.text(max_size=40) | st.binary(max_size=40))
def test_arbitrary_text_fails_cleanly(text: str | bytes) -> None:
    with contextlib.suppress(InvalidDocumentError):
        from_json(text)
    if isinstance(text, str):
        for parse in (parse_move, parse_state, parse_observation, parse_record):
            with contextlib.suppress(NotationError):
                parse(text)


@settings(max_examples=budget(1.0))
@given(data=st.data())
def test_edited_notation_parses_or_fails_cleanly(data: st.DataObject) -> None:
    """Character edits of valid state, observation and record lines."""
    games = _games()
    states = data.draw(st.sampled_from(games), label="game")
    state = data.draw(st.sampled_from(states), label="state")
    kind = data.draw(st.sampled_from(["state", "observation", "record"]), label="kind")
    if kind == "state":
        text = format_state(state)
    elif kind == "observation":
        text = format_observation(observe(state, data.draw(st.integers(0, 1))))
    else:
        text = format_record(record_game([m for _, m in _moves(games[1])], rules=MICRO))
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        k = data.draw(st.integers(0, len(text) - 1), label="at")
        piece = data.draw(st.sampled_from(list("0129SGWHB,;/-.#~*v+?=[] ")) | st.text(max_size=3))
        text = text[:k] + piece + text[k + data.draw(st.integers(0, 2), label="cut") :]
    parser = {"state": parse_state, "observation": parse_observation, "record": parse_record}[kind]
    try:
        value = parser(text)
    except NotationError as error:
        position = error.position
    else:
        _exercise(value)
        return
    assert 0 <= position <= len(text)
