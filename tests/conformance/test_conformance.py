"""The conformance suite itself: format, schema, determinism, coverage and traceability.

The suite in ``conformance/`` is checked here without an adapter; test_conformance_runner.py runs
it through the subprocess protocol.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
import pytest
from tools.vectors.generate import render_doc, suite_files
from tools.vectors.suite import generate
from tools.vectors.trace import table_vector_rows, trace

from hatsuden_rules import RULES_VERSION, Decision, Phase, Rules, Tiebreak, new_game
from hatsuden_rules.conformance import (
    FORMAT_VERSION,
    GROUPS,
    NOTES,
    Vector,
    check_response,
    handle,
    load_vectors,
)
from hatsuden_rules.modelcheck import perft
from hatsuden_rules.notation import parse_rules, parse_state
from tests.support.paths import ROOT_DIR
from tests.support.reference import RefSplitMix64, ref_pick

ROOT = ROOT_DIR
SUITE = ROOT / "conformance"


@cache
def vectors() -> tuple[Vector, ...]:
    return tuple(load_vectors(SUITE))


def of(group: str) -> list[Vector]:
    return [v for v in vectors() if v.group == group]


@cache
def cached_rules(text: str) -> Rules:
    return parse_rules(text)


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SUITE / "manifest.json").read_text(encoding="utf-8"))
    return data


# -- format -------------------------------------------------------------------------------------


def test_suite_has_at_least_2000_vectors_in_every_group() -> None:
    counts = Counter(v.group for v in vectors())
    assert sum(counts.values()) >= 2000
    assert set(counts) == set(GROUPS)
    assert all(counts[g] >= 10 for g in GROUPS), counts


def test_manifest_describes_the_files() -> None:
    data = manifest()
    assert data["rules_version"] == RULES_VERSION
    assert data["format_version"] == FORMAT_VERSION
    assert data["notes"] == dict(NOTES)
    assert data["vector_count"] == len(vectors())
    assert list(data["groups"]) == list(GROUPS)
    for group, entry in data["groups"].items():
        content = (SUITE / entry["file"]).read_bytes()
        assert hashlib.sha256(content).hexdigest() == entry["sha256"]
        assert entry["count"] == len(of(group))
    assert sorted(p.name for p in SUITE.iterdir()) == sorted(
        ["README.md", "manifest.json", "schema", *(f"{g}.jsonl" for g in GROUPS)]
    )


def test_the_schemas_beside_the_vectors_are_the_packages() -> None:
    """Issue 23 §4.4: a port finds the JSON Schemas in conformance/schema/, byte for byte the
    package's (hatsuden_rules/schema/*.json and the vector schema), each listed in the manifest
    with its $id and SHA-256."""
    package = resources.files("hatsuden_rules").joinpath("schema")
    expected = {
        item.name: item.read_bytes() for item in package.iterdir() if item.name.endswith(".json")
    }
    vector = resources.files("hatsuden_rules.conformance").joinpath("vector.schema.json")
    expected["vector.schema.json"] = vector.read_bytes()
    assert {"common.json", "document.json", "state.json", "observation.json"} <= set(expected)
    shipped = {path.name: path.read_bytes() for path in (SUITE / "schema").iterdir()}
    assert shipped == expected
    listed = manifest()["schemas"]
    assert set(listed) == {f"schema/{name}" for name in expected}
    for name, entry in listed.items():
        content = (SUITE / name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == entry["sha256"], name
        assert entry["id"] == json.loads(content)["$id"], name
        jsonschema.Draft202012Validator.check_schema(json.loads(content))


def test_every_vector_validates_against_the_vector_schema() -> None:
    schema = json.loads(
        resources.files("hatsuden_rules.conformance").joinpath("vector.schema.json").read_text()
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for group in GROUPS:
        for line in (SUITE / f"{group}.jsonl").read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
            assert not errors, (data["id"], errors[0].message)
            assert data["group"] == group


def test_the_schema_rejects_a_broken_vector() -> None:
    schema = json.loads(
        resources.files("hatsuden_rules.conformance").joinpath("vector.schema.json").read_text()
    )
    good = of("transitions")[0].to_dict()
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid(good)
    for broken in (
        good | {"rule_refs": ["12"]},
        good | {"group": "nonsense"},
        good | {"input": {"kind": "legal_moves", "state": good["input"]["state"]}},
        {k: v for k, v in good.items() if k != "flags"},
    ):
        assert not validator.is_valid(broken)


def test_ids_are_unique_and_flags_have_notes() -> None:
    ids = [v.id for v in vectors()]
    assert len(ids) == len(set(ids))
    for vector in vectors():
        assert set(vector.flags) <= set(NOTES), vector.id
        assert vector.id.startswith(vector.group + "-")


def test_rules_of_every_vector_parse_and_match_its_states() -> None:
    for vector in vectors():
        if vector.rules is None:
            assert vector.group in {"rng", "invalid"}
            continue
        rules = cached_rules(vector.rules)
        if "state" in vector.input:
            assert vector.input["state"].startswith(f"rules={vector.rules} ")
        if vector.group == "seeded_games":
            assert vector.input["rules"] == vector.rules
            assert rules == parse_state(vector.expected["states"][-1]).rules


def test_checked_in_suite_is_exactly_what_the_generator_builds() -> None:
    """`make vectors` is deterministic and has been run: every file matches byte for byte."""
    fresh = suite_files(generate())
    for name, content in fresh.items():
        on_disk = (SUITE / name).read_text(encoding="utf-8")
        assert on_disk == content, f"conformance/{name} is out of date: run `make vectors`"


# -- what the vectors cover -----------------------------------------------------------------------


def test_rng_vectors_agree_with_the_independent_reference() -> None:
    """R32, R33: outputs and picks recomputed by tests/support/reference.py, not by the library."""
    for vector in of("rng"):
        rng = RefSplitMix64(int(vector.input["seed"]))
        if vector.input["kind"] == "rng":
            outputs = [str(rng.next()) for _ in range(vector.input["count"])]
            assert outputs == vector.expected["outputs"], vector.id
        else:
            picks = []
            for weights in vector.input["weights"]:
                r = rng.next() % sum(weights)
                picks.append(ref_pick(list(enumerate(weights)), r))
            assert picks == vector.expected["picks"], vector.id
        assert str(rng.state) == vector.expected["state"]


def test_perft_from_the_start_agrees_with_the_model_checker() -> None:
    for vector in of("perft"):
        state = parse_state(vector.input["state"])
        if state == new_game(rules=state.rules):
            assert perft(state.rules, vector.input["depth"]) == vector.expected["counts"]


def test_every_illegal_move_rule_of_apply_is_exercised() -> None:
    """Transitions hold an illegal move for each rule apply can name on a well-formed move."""
    rules = Counter(v.expected["error"]["rule"] for v in of("transitions") if not v.expected["ok"])
    expected = {"R6", "R9", "R10", "R11", "R12", "R13", "R14", "R15", "R16", "R17", "R18"}
    expected |= {"R21", "R22", "R26"}
    assert expected <= set(rules), expected - set(rules)
    assert sum(1 for v in of("transitions") if v.expected["ok"]) >= 300


def test_every_move_kind_and_phase_is_covered() -> None:
    verbs = Counter(v.input["move"].split(" ")[0] for v in of("transitions"))
    for verb in ("C", "C*", "I", "D", "P", "X", "PASS", "DT", "NT", "F", "DD", "DX", "E", "A", "M"):
        assert verbs[verb] > 0, verb
    assert any(v.input["move"].startswith("=") for v in of("transitions"))
    phases = Counter(parse_state(v.input["state"]).phase for v in of("legal_moves"))
    assert set(phases) == set(Phase)
    flags = Counter(f for v in of("legal_moves") for f in v.flags)
    assert flags["Seeded"]
    assert flags["Explicit"]
    assert flags["Chance"]
    assert flags["NoMoves"]


def test_every_step_of_the_winner_decision_is_scored() -> None:
    """R29: each decision under each tie-break option, in the scores group."""
    seen = {
        (parse_state(v.input["state"]).rules.tiebreak, v.expected["score"]["decided_by"])
        for v in of("scores")
    }
    for tiebreak in Tiebreak:
        assert (tiebreak, Decision.TOTAL.value) in seen
        assert (tiebreak, Decision.SECOND_PLAYER.value) in seen
    assert (Tiebreak.CITY_POINTS, Decision.CITY_POINTS.value) in seen
    assert (Tiebreak.SUPPLY, Decision.SUPPLY.value) in seen


def test_seeded_games_cover_both_ends_and_every_rule_set() -> None:
    flags = Counter(f for v in of("seeded_games") for f in v.flags)
    assert flags["FinalTurnEnd"]
    assert flags["StallEnd"]
    assert flags["NegativeSeed"]
    assert len({v.rules for v in of("seeded_games")}) >= 8
    for vector in of("seeded_games"):
        assert len(vector.expected["states"]) == len(vector.input["moves"]) + 1
        assert " phase=game_over " in vector.expected["states"][-1]


def test_observation_vectors_cover_observe_tensor_and_sampling() -> None:
    kinds = Counter(v.input["kind"] for v in of("observations"))
    assert kinds["observe"] >= 100
    assert kinds["tensor"] >= 10
    assert kinds["sample_state"] >= 10
    flags = Counter(f for v in of("observations") for f in v.flags)
    assert flags["OpponentSecret"]
    assert flags["OpponentPylon"]
    assert flags["GameOver"]


def test_invalid_group_has_rejections_and_controls_in_both_formats() -> None:
    cases = Counter(
        (v.input["format"], v.input["type"], "Control" in v.flags) for v in of("invalid")
    )
    for form, kinds in (
        ("notation", ("move", "rules", "state", "observation")),
        ("json", ("rules", "move", "state", "observation", "score")),
    ):
        for kind in kinds:
            assert cases[(form, kind, True)] > 0, (form, kind)
            assert cases[(form, kind, False)] > 0, (form, kind)


# -- traceability ---------------------------------------------------------------------------------


def test_every_rule_has_a_vector_and_a_test() -> None:
    """Every numbered rule of RULES.md is exercised by at least one vector and one test."""
    traced = trace((ROOT / "RULES.md").read_text(encoding="utf-8"), vectors(), ROOT)
    assert len(traced.titles) >= 35
    assert traced.unknown_refs == ()
    assert traced.gaps() == []


def test_conformance_md_generated_sections_are_current() -> None:
    """Counts, notes and the rule/vector columns of the table match the suite (`make vectors`).

    The test columns record the tests as of the last `make vectors` and are not compared, so a
    new test citing a rule does not break this check.
    """
    doc = (ROOT / "CONFORMANCE.md").read_text(encoding="utf-8")
    rules_md = (ROOT / "RULES.md").read_text(encoding="utf-8")
    fresh = render_doc(doc, vectors(), rules_md, ROOT)
    assert table_vector_rows(doc) == table_vector_rows(fresh)
    for section in ("counts", "notes"):
        marker = f"<!-- BEGIN GENERATED: {section} -->"
        assert (
            doc.split(marker)[1].split("<!-- END")[0] == fresh.split(marker)[1].split("<!-- END")[0]
        ), f"CONFORMANCE.md section {section} is out of date: run `make vectors`"


# -- protocol pieces ------------------------------------------------------------------------------


def test_check_response_compares_json_values_strictly() -> None:
    assert check_response({"ok": True, "n": [1]}, {"ok": True, "n": [1], "extra": 0}) is None
    assert check_response({"ok": True, "n": [1]}, {"ok": True, "n": [True]}) is not None
    assert check_response({"ok": True, "n": [1]}, {"ok": True, "n": [1.0]}) is not None
    assert check_response({"ok": True, "n": 1}, {"ok": True}) == "n: missing from the response"
    assert check_response({"ok": True, "n": 1}, {"ok": "yes"}) is not None
    error: dict[str, object] = {"type": "invalid_notation", "field": "move", "position": 2}
    failure = {"ok": False, "error": error}
    found = {"ok": False, "error": {"type": "invalid_notation", "field": "move", "position": 3}}
    assert check_response(failure, found) == "error.position: expected 2, got 3"
    assert check_response(failure, found, ignore_positions=True) is None
    message = {"ok": False, "error": error | {"message": "anything"}}
    assert check_response(failure, message) is None
    assert check_response(failure, {"ok": True}) is not None


@pytest.mark.parametrize(
    "request_",
    [
        "not an object",
        {"id": 1},
        {"id": 1, "kind": "fly"},
        {"id": 1, "kind": "rng", "seed": 5, "count": 1},
        {"id": 1, "kind": "rng", "seed": "05", "count": 1},
        {"id": 1, "kind": "observe", "state": "x", "player": True},
        {"id": 1, "kind": "perft", "state": "x", "depth": 0},
        {"id": 1, "kind": "parse", "format": "yaml", "type": "move", "text": "DD"},
    ],
)
def test_the_adapter_answers_bad_requests_without_raising(request_: object) -> None:
    response = handle(request_)
    assert response["ok"] is False
    assert response["error"]["type"] in {"bad_request", "invalid_notation"}
