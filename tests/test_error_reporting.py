"""The error rules the documents give a port (NOTATION.md "Errors: which one, and where",
RULES.md R35 and R39, PORTING.md): each example written there, checked against the library.

Issue 13, section 5: a port author must be able to predict every expected error from the
documents alone, so each sentence that states a rule is pinned here by its own example.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hatsuden_rules import (
    STANDARD,
    DealTech,
    IllegalMoveError,
    NotationError,
    Phase,
    Rules,
    Tech,
    apply,
    format_observation,
    format_state,
    legal_moves,
    new_game,
    observation_tensor,
    observation_tensor_layout,
    observe,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.observation import SeenStack

ROOT = Path(__file__).resolve().parent.parent
SMALL = Rules(
    energies=1,
    max_value=2,
    copies=2,
    hand_size=1,
    city_demand=1,
    techs={Tech.ACCUMULATOR},
    allow_retake_discard=False,
    stall_limit=2,
)


def error(parse: object, text: str, *args: object) -> NotationError:
    assert callable(parse)
    with pytest.raises(NotationError) as caught:
        parse(text, *args)
    return caught.value


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("C*S3 0S", 0),  # the keyword token is C*S: unknown
        ("PASSX", 0),
        ("c S3 0S", 0),  # an empty keyword token
        ("C\tS3 0S", 1),  # keyword C, then a space expected
        ("C  S3 0S", 2),  # a space where the card's energy letter must be
        ("DD ", 2),  # text after a complete move
        ("=AC", 1),  # not a tech code: a card, whose energy letter A is unknown
        ("C S0 0S", 3),  # a card value of 0: at the value
        ("C S03 0S", 3),  # a leading zero: where the digits start
        ("A 2", 2),  # in a move a row is one character, 0 or 1
        ("C S3 2S", 5),
        ("I S5 0S", 2),  # a card not in play: at its first character (R2)
    ],
)
def test_move_errors_point_where_notation_md_says(text: str, position: int) -> None:
    """Moves: the keyword is read as one token first (`[A-Z*]+`); then each operand."""
    caught = error(parse_move, text)
    assert (caught.field, caught.position) == ("move", position)


@pytest.mark.parametrize(
    ("text", "position"),
    [("C G1 0G", 2), ("M W", 2), ("F 0W", 3), ("=SMT", 1)],
)
def test_atoms_not_in_play_under_rules(text: str, position: int) -> None:
    """R1-R3: a card at its first character, an energy at its letter, a tech at its code."""
    assert error(parse_move, text, SMALL).position == position


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("6/4/2/5/10/-/city_points/retake/20", 0, "energies: must be between 1 and 5"),
        ("5/4/2/50/10/-/city_points/retake/20", 6, "hand_size:"),
        ("5/4/2/5/10/-/supply/retake/0", 27, "stall_limit:"),
        ("5/4/500/5/10/-/supply/retake/off", 4, "plant cards is more than"),
        ("5/4/2/5/10/SEC+ACC/city_points/retake/20", 15, "canonical order (R3)"),
        # read completely before R31: the tie-break, not the six energies
        ("6/4/2/5/10/-/city/retake/20", 13, "expected a tiebreak"),
    ],
)
def test_rule_set_errors_have_field_rules(text: str, position: int, message: str) -> None:
    """R31 refusals point at the field they name, but `field` is always "rules"."""
    caught = error(parse_rules, text)
    assert (caught.field, caught.position) == ("rules", position)
    assert message in str(caught)


START = format_state(new_game(seed=5))


def state_error(old: str, new: str) -> tuple[str, int, str]:
    text = START.replace(old, new, 1)
    assert text != START
    caught = error(parse_state, text)
    return caught.field, caught.position, text


def test_value_out_of_range_points_at_the_key_a_bad_number_at_the_value() -> None:
    key = START.index("current_player=")
    field, position, _ = state_error("current_player=0", "current_player=2")
    assert (field, position) == ("current_player", key)
    for bad in ("current_player=10", "current_player=x"):
        field, position, _ = state_error("current_player=0", bad)
        assert (field, position) == ("current_player", key + len("current_player="))
    field, position, _ = state_error("accumulator=-", "accumulator=0:2")
    assert (field, position) == ("accumulator", START.index("accumulator="))


def test_a_missing_or_misspelt_key_points_where_the_key_should_start() -> None:
    for new in ("curent_player=0", ""):
        old = "current_player=0" if new else " current_player=0"
        field, position, _ = state_error(old, new)
        assert (field, position) == ("current_player", START.index("current_player="))


def test_the_line_is_read_completely_before_consistency_is_checked() -> None:
    hands = START.split(" hands=")[1].split(" ")[0]
    mine, theirs = hands.split("/")
    shuffled = ",".join(reversed(mine.split(","))) + "/" + theirs
    field, position, text = state_error(f"hands={hands}", f"hands={shuffled}")
    assert field == "hands"  # alone: a consistency error at the out-of-order card
    assert position == text.index(shuffled) + len(mine.split(",")[-1]) + 1
    broken = START.replace(f"hands={hands}", f"hands={shuffled}").replace(
        "stall_count=0", "stall_count=x"
    )
    assert error(parse_state, broken).field == "stall_count"  # the reading error wins
    first = START.replace("rules=5/4/2/5/10", "rules=6/4/2/5/10").replace(
        "stall_count=0", "stall_count=x"
    )
    assert error(parse_state, first).field == "rules"  # a rule set is checked when read


def test_consistency_conditions_named_by_issue_13() -> None:
    """NOTATION.md's list: ACTION may have this_turn, not played_cell/turn_discard (R9)."""
    assert parse_state(START.replace("this_turn=[]", "this_turn=[A 0]")).this_turn
    for key, value in (("played_cell", "0S"), ("turn_discard", "S1")):
        field, position, _ = state_error(f"{key}=-", f"{key}={value}")
        assert (field, position) == (key, START.index(f"{key}="))
    field, _, _ = state_error("end_triggered_by=-", "end_triggered_by=0")
    assert field == "end_triggered_by"  # R24: the trigger needs a full grid
    field, _, _ = state_error("stall_count=0", "stall_count=20")
    assert field == "stall_count"  # R25: the game is over at the limit


def test_observation_errors() -> None:
    text = format_observation(observe(new_game(seed=5), 1))
    caught = error(parse_observation, text.replace("player=1", "player=2", 1))
    assert (caught.field, caught.position) == ("player", text.index("player="))
    caught = error(parse_observation, text.replace("deck_size=30", "deck_size=99"))
    assert (caught.field, caught.position) == ("deck_size", text.index("deck_size="))
    caught = error(parse_observation, text.replace("deck_size=30", "deck_size=29"))
    assert caught.position == 0  # no state gives it: the whole observation


def test_deal_names_r6_and_dealtech_names_r17() -> None:
    """R35: an outcome of the right kind that is not available: R6 for a Deal, R17 a DealTech."""
    vectors = [
        json.loads(line)
        for line in (ROOT / "conformance" / "transitions.jsonl").read_text("utf-8").splitlines()
    ]
    named = {
        (v["input"]["move"][:1], v["expected"]["error"]["rule"], v["comment"].split(":")[1])
        for v in vectors
        if not v["expected"]["ok"] and v["input"]["move"].startswith("=")
    }
    assert ("=", "R17", " SMART is not in the tech deck") in named
    assert any(rule == "R6" and "left in the deck" in text for _, rule, text in named)
    state = new_game()  # explicit chance: the deal is pending
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, DealTech(Tech.SMART))
    assert caught.value.rule == "R6"  # no tech card is being drawn now
    assert state.phase is Phase.CHANCE


def test_tensor_value_of_a_hidden_pylon_is_zero_of_a_hidden_secret_plant_minus_one() -> None:
    """R39: value is 0 for any face-down stack, -1 only for an unseen secret card on top."""
    layout = observation_tensor_layout(STANDARD)
    start = 0
    for name, size in layout:
        if name == "opponent_board":
            break
        start += size
    found: dict[str, tuple[int, ...]] = {}
    for seed in range(60):
        state = new_game(seed=seed)
        moves = 0
        while not state.is_over and len(found) < 2 and moves < 400:
            state = apply(state, legal_moves(state)[(seed * 7 + moves) % len(legal_moves(state))])
            moves += 1
            seen = observe(state, 0)
            for c, stack in enumerate(seen.boards[1]):
                if isinstance(stack, SeenStack) and stack.cards[-1] is None:
                    kind = "pylon" if stack.face_down else "secret"
                    entries = observation_tensor(seen)[start + 8 * c : start + 8 * c + 8]
                    found.setdefault(kind, tuple(entries))
        if len(found) == 2:
            break
    assert set(found) == {"pylon", "secret"}
    # (occupied, face_down, flipped, secret, downsized, value, top, number of cards)
    assert found["pylon"][:2] == (1, 1)
    assert found["pylon"][5:7] == (0, 0)
    assert found["secret"][3] == 1
    assert found["secret"][5:7] == (-1, 0)
