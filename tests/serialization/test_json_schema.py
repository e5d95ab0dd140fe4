"""Everything the library emits validates against the shipped JSON Schemas (2020-12)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from hatsuden_rules import (
    STANDARD,
    Rules,
    apply,
    legal_moves,
    new_game,
    observe,
    record_game,
    score,
    to_dict,
)
from hatsuden_rules.serialization import DOCUMENT_TYPES, load_schema

NAMES = (*DOCUMENT_TYPES, "common", "document")


def _validator(kind: str) -> Draft202012Validator:
    resources = [Resource.from_contents(load_schema(name)) for name in NAMES]
    registry: Registry[Any] = Registry().with_resources(
        (f"urn:hatsuden-rules:schema:{name}", resource)
        for name, resource in zip(NAMES, resources, strict=True)
    )
    return Draft202012Validator(load_schema(kind), registry=registry)


@pytest.mark.parametrize("name", NAMES)
def test_schemas_are_valid_2020_12_schemas(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:hatsuden-rules:schema:{name}"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    ("seed", "rules"),
    [
        (3, STANDARD),
        (None, Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)),
    ],
)
def test_everything_emitted_validates(seed: int | None, rules: Rules) -> None:
    any_document = _validator("document")
    by_type = {kind: _validator(kind) for kind in DOCUMENT_TYPES}
    rng = random.Random(seed)
    state, moves = new_game(seed, rules), []
    count = 0
    while True:
        values: list[Any] = [state, score(state), observe(state, 0), observe(state, 1), rules]
        values += legal_moves(state)
        for value in values:
            document = to_dict(value)
            any_document.validate(document)
            by_type[document["type"]].validate(document)
            count += 1
        if state.is_over:
            break
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    record = to_dict(record_game(moves, seed=seed, rules=rules, players=("A", "B")))
    by_type["record"].validate(record)
    any_document.validate(record)
    assert count > 100


def test_the_schemas_reject_what_the_loader_rejects() -> None:
    validator = _validator("state")
    document = to_dict(new_game(seed=1))
    document["hands"][0][0] = "Q1"
    assert not validator.is_valid(document)
    document = to_dict(new_game(seed=1))
    document["surprise"] = True
    assert not validator.is_valid(document)
    move = _validator("move")
    assert move.is_valid({"type": "move", "format_version": 1, "move": "C* S3 0S"})
    assert not move.is_valid({"type": "move", "format_version": 1, "move": "C* S3 2S"})
    assert not move.is_valid({"type": "move", "format_version": 1, "move": "P ? 0S"})
