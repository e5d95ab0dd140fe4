"""JSON documents (issue 5 §2): round trips, the envelope, strict loading with JSON paths."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hatsuden_rules import (
    FORMAT_VERSION,
    STANDARD,
    Card,
    Cell,
    Construct,
    Discard,
    Energy,
    GameState,
    InvalidDocumentError,
    Rules,
    Tech,
    Tiebreak,
    apply,
    from_dict,
    from_json,
    legal_moves,
    new_game,
    observe,
    record_game,
    score,
    to_dict,
    to_json,
)

MICRO = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)


def _states(seed: int | None, rules: Rules) -> list[GameState]:
    rng = random.Random(1)
    state = new_game(seed, rules)
    out = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        out.append(state)
    return out


@pytest.mark.parametrize(("seed", "rules"), [(5, STANDARD), (None, MICRO)])
def test_every_document_type_round_trips(seed: int | None, rules: Rules) -> None:
    for state in _states(seed, rules):
        values: list[Any] = [
            state,
            score(state),
            observe(state, 0),
            observe(state, 1),
            *legal_moves(state),
        ]
        for value in values:
            text = to_json(value)
            assert from_json(text) == value
            assert to_json(from_json(text)) == text  # canonical
            assert from_json(to_json(value, indent=2)) == value


def test_rules_documents() -> None:
    for rules in (
        STANDARD,
        MICRO,
        Rules(techs=frozenset(), tiebreak=Tiebreak.SUPPLY, stall_limit=None),
    ):
        assert from_json(to_json(rules), "rules") == rules
    assert from_dict(to_dict(STANDARD)) is STANDARD


def test_the_envelope_comes_first() -> None:
    document = to_dict(new_game(seed=1))
    assert list(document)[:2] == ["type", "format_version"]
    assert document["type"] == "state"
    assert document["format_version"] == FORMAT_VERSION == 1
    assert to_dict(Discard(Card(Energy.WIND, 2))) == {
        "type": "move",
        "format_version": 1,
        "move": "X W2",
    }


def test_state_document_fields() -> None:
    state = new_game(seed=2)
    card = state.hand(0)[0]
    state = apply(state, Construct(card, Cell(1, card.energy)))
    document = to_dict(state)
    assert document["phase"] == "draw"
    assert document["played_cell"] == f"1{card.energy.letter}"
    assert document["this_turn"] == [f"C {card.energy.letter}{card.value} 1{card.energy.letter}"]
    assert document["rng_state"] == str(state.rng_state)  # 64 bits: a decimal string
    board = document["boards"][0]
    assert board[5 + card.energy.column] == {
        "cards": [f"{card.energy.letter}{card.value}"],
        "face_down": False,
        "flipped": False,
        "secret": False,
        "downsized": False,
    }
    assert document["tech_deck"] == ["accumulator", "secret_build", "smart", "down"]


def _error(document: object, expected: str | None = None) -> InvalidDocumentError:
    text = json.dumps(document)
    with pytest.raises(InvalidDocumentError) as raised:
        from_json(text, expected)
    assert isinstance(raised.value, ValueError)
    return raised.value


def _state_doc() -> dict[str, Any]:
    return to_dict(new_game(seed=4))


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (lambda d: d["hands"][1].__setitem__(3, "Q1"), "$.hands[1][3]", "energy letter"),
        (lambda d: d["hands"][1].__setitem__(3, "S9"), "$.hands[1][3]", "not a card in play"),
        (lambda d: d["hands"][1].__setitem__(3, 7), "$.hands[1][3]", "expected a string"),
        (lambda d: d["hands"][0].append(d["deck"].pop()), "$.hands[0]", "hand_size"),
        (lambda d: d["deck"].pop(), "$.deck", "missing"),
        (lambda d: d["deck"].append("S1"), "$.deck[30]", "canonical order"),
        (lambda d: d.__setitem__("phase", "chance"), "$.pending_chance", "CHANCE"),
        (lambda d: d.__setitem__("phase", "lunch"), "$.phase", "expected one of"),
        (lambda d: d.__setitem__("current_player", True), "$.current_player", "integer"),
        (lambda d: d.__setitem__("stall_count", 1.0), "$.stall_count", "integer"),
        (lambda d: d.__setitem__("rng_state", 5), "$.rng_state", "string"),
        (lambda d: d.__setitem__("rng_state", "18446744073709551616"), "$.rng_state", "2**64"),
        (lambda d: d.pop("deck"), "$", "missing key 'deck'"),
        (lambda d: d.__setitem__("extra", 1), "$.extra", "unknown key"),
        (lambda d: d["boards"][0].pop(), "$.boards[0]", "expected 10 items"),
        (lambda d: d["rules"].__setitem__("copies", 0), "$.rules.copies", "out of range"),
        (lambda d: d["rules"].__setitem__("max_value", 12), "$.rules.max_value", "R31"),
        (lambda d: d["rules"].__setitem__("copies", 10**6), "$.rules.copies", "more than"),
        (lambda d: d["tech_hands"][0].append("smart"), "$.tech_hands[0][0]", "two places"),
        (lambda d: d.__setitem__("this_turn", ["C S1 2S"]), "$.this_turn[0]", "row"),
        (lambda d: d.__setitem__("format_version", 2), "$.format_version", "version 1"),
        (lambda d: d.__setitem__("type", "game"), "$.type", "must be one of"),
    ],
)
def test_bad_state_documents_name_the_json_path(mutate: Any, path: str, words: str) -> None:
    document = _state_doc()
    mutate(document)
    error = _error(document)
    assert error.field == path, str(error)
    assert words in str(error)


def test_a_placed_card_in_the_wrong_column_is_refused() -> None:
    document = _state_doc()
    card = document["hands"][0].pop()
    document["boards"][0][0] = {
        "cards": [card],
        "face_down": False,
        "flipped": False,
        "secret": False,
        "downsized": False,
    }
    document["phase"] = "action"
    error = _error(document)
    assert error.field.startswith("$.boards[0][0]") or error.field == "$.hands[0]", str(error)


def test_json_text_is_parsed_strictly() -> None:
    cases: list[tuple[str | bytes, str]] = [
        ("", "not JSON"),
        ("{", "not JSON"),
        ('{"type": "move", "type": "move"}', "duplicate key"),
        ('{"type": "move", "format_version": NaN}', "not JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ("1" * 5000, "not JSON"),
        ('"state"', "a document is a JSON object"),
        (b"\xff\xfe", "not JSON"),
    ]
    for text, words in cases:
        with pytest.raises(InvalidDocumentError, match=words):
            from_json(text)
    with pytest.raises(InvalidDocumentError, match="expected JSON text"):
        from_json(None)  # type: ignore[call-overload]


def test_expected_type_is_enforced() -> None:
    text = to_json(STANDARD)
    assert from_json(text, "rules") == STANDARD
    with pytest.raises(InvalidDocumentError, match="expected a state document"):
        from_json(text, "state")
    with pytest.raises(ValueError, match="must be one of"):
        from_json(text, "game")


def test_inconsistent_scores_are_refused() -> None:
    sheet = to_dict(score(_states(3, STANDARD)[-1]))
    assert from_dict(sheet) == score(_states(3, STANDARD)[-1])
    bad = json.loads(json.dumps(sheet))
    bad["players"][0]["total"] += 1
    assert _error(bad).field == "$.players[0].total"
    bad = json.loads(json.dumps(sheet))
    bad["winner"] = 1 - bad["winner"]
    assert _error(bad).field in ("$.winner", "$.decided_by")
    bad = json.loads(json.dumps(sheet))
    bad["energy_winners"][0] = 1 if bad["energy_winners"][0] != 1 else 0
    assert _error(bad).field == "$.energy_winners[0]"


def test_forged_observations_are_refused() -> None:
    document = to_dict(observe(new_game(seed=9), 0))
    document["deck_size"] -= 1
    assert "no game state gives this observation" in str(_error(document))
    document = to_dict(observe(new_game(seed=9), 0))
    document["boards"][0][0] = {
        "cards": [None],
        "face_down": True,
        "flipped": False,
        "secret": False,
        "downsized": False,
    }
    assert _error(document).field == "$.boards[0][0].cards[0]"


def test_records_round_trip_as_json() -> None:
    rng = random.Random(2)
    state, moves = new_game(rules=MICRO), []
    while not state.is_over:
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    record = record_game(moves, rules=MICRO, players=("Ann", "Bo"))
    document = to_dict(record)
    assert document["seed"] is None
    assert document["moves"][0].startswith("=")
    assert from_dict(document, "record") == record
    document["moves"][3] = "=S3"  # not a card under MICRO
    assert _error(document).field == "$.moves[3]"


def test_tech_cards_are_listed_in_canonical_order() -> None:
    document = to_dict(STANDARD)
    document["techs"] = ["smart", "accumulator", "secret_build", "down"]
    assert _error(document).field == "$.techs[1]"
    document["techs"] = [t.value for t in Tech][:2] * 2
    assert _error(document).field == "$.techs[2]"


@pytest.mark.parametrize(
    ("key", "bad"),
    [("tiebreak", "coin"), ("allow_retake_discard", 1), ("stall_limit", 0)],
)
def test_bad_rules_options_name_their_own_json_path(key: str, bad: object) -> None:
    # Regression: these three were once reported at "$.$.<key>" (the path wrapped twice).
    document = to_dict(STANDARD)
    document[key] = bad
    with pytest.raises(InvalidDocumentError) as caught:
        from_dict(document)
    assert caught.value.field == f"$.{key}"
