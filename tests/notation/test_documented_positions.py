"""Every error position the port documents promise is what the library reports (issue 23 §4).

NOTATION.md and PORTING.md give examples of where a notation error points (``C*S3 0S`` at 0,
``R/keep`` at 35, ``current_player=2`` at its key, ...). Each is a case here, read by the library
and compared with the document's field and position; a last test finds the examples in the
documents' text, so that an example added there without a case here fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
import pytest

from hatsuden_rules import STANDARD, GameState, _positions, apply, legal_moves, native, new_game
from hatsuden_rules.notation import (
    NotationError,
    format_observation,
    format_state,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.observation import Observation, observe, sample_state
from hatsuden_rules.observation._sampling import _complete
from tests.support.paths import ROOT_DIR

#: NOTATION.md's shorthand in "Reading the options" (34 characters).
R = "5/4/2/5/10/-/city_points/retake/20"
ONE_ENERGY = "1/4/2/2/10/-/city_points/retake/20"

# (the example as the document writes it, the text read, field, position)
MOVES: list[tuple[str, str, str, int]] = [
    ("=AC", "=AC", "move", 1),  # A is not an energy letter
    ("C*S3 0S", "C*S3 0S", "move", 0),  # the keyword token C*S
    ("PASSX", "PASSX", "move", 0),
    ("c S3 0S", "c S3 0S", "move", 0),  # an empty token
    ("C\\tS3 0S", "C\tS3 0S", "move", 1),  # a tab where the space must be
    ("C  S3 0S", "C  S3 0S", "move", 2),
    ("DD ", "DD ", "move", 2),  # text after the end
    ("C S3 2S", "C S3 2S", "move", 5),  # a row
    ("I S5 0S", "I S5 0S", "move", 2),  # not a card of STANDARD
    ("C S0 0S", "C S0 0S", "move", 3),  # a value of 0
    ("C S12 0S", "C S12 0S", "move", 3),  # a value above 11 (R2): at its first digit
    ("A 2", "A 2", "move", 2),  # a row is 0 or 1
    ("FS 0W+0S", "FS 0W+0S", "move", 6),  # the second cell, out of order
    ("FS 0S+0S", "FS 0S+0S", "move", 6),  # the second cell, twice
    # Letters of a token: ASCII only.
    ("C\uff333 0S", "C\uff333 0S", "move", 1),  # a full-width S
    ("\uff23 S3 0S", "\uff23 S3 0S", "move", 0),  # a full-width C
    ("C S\uff13 0S", "C S\uff13 0S", "move", 3),  # a full-width 3
    ("PASSÉ", "PASSÉ", "move", 4),
]

RULES: list[tuple[str, str, int]] = [
    ("R/anyset", R + "/anyset", 34),  # an unknown option: at the /
    ("R/any-set", R + "/any-set", 34),
    ("R/Any_set", R + "/Any_set", 34),
    ("R/place_at_oncex", R + "/place_at_oncex", 34),
    ("R/", R + "/", 34),
    ("R/keep", R + "/keep", 35),  # a default written out: at the word
    ("R/one_at_a_time", R + "/one_at_a_time", 35),
    ("R/any_set/place_at_once", R + "/any_set/place_at_once", 43),  # out of order
    ("R/any_set/any_set", R + "/any_set/any_set", 43),  # repeated
    ("R/any_set-x", R + "/any_set-x", 35),  # a word that continues with -
    ("6/4/2/5/10/-/city/retake/20", "6/4/2/5/10/-/city/retake/20", 13),  # read before R31
    ("1/3/1/1/1/…", "1/3/1/1/1/-/city_points/retake/20", 2),  # R31: max_value
    ("1/2/1/2/1/…", "1/2/1/2/1/-/city_points/retake/20", 6),  # R31: hand_size
    ("5/12/2/5/20/…", "5/12/2/5/20/-/city_points/retake/20", 2),  # R31: max_value > 11
]


def _error(read: Callable[[], object]) -> NotationError:
    with pytest.raises(NotationError) as caught:
        read()
    return caught.value


@pytest.mark.parametrize(("shown", "text", "field", "position"), MOVES, ids=[m[0] for m in MOVES])
def test_a_documented_move_error_points_where_the_document_says(
    shown: str, text: str, field: str, position: int
) -> None:
    error = _error(lambda: parse_move(text, STANDARD))
    assert (error.field, error.position) == (field, position), f"{shown}: {error}"


def test_a_card_out_of_play_points_at_its_first_character() -> None:
    """R1, R2: `C G1 0G` under a one-energy rule set, at 2 (even for the energy alone)."""
    error = _error(lambda: parse_move("C G1 0G", parse_rules(ONE_ENERGY)))
    assert (error.field, error.position) == ("move", 2)


@pytest.mark.parametrize(("shown", "text", "position"), RULES, ids=[r[0] for r in RULES])
def test_a_documented_rules_error_points_where_the_document_says(
    shown: str, text: str, position: int
) -> None:
    error = _error(lambda: parse_rules(text))
    assert (error.field, error.position) == ("rules", position), f"{shown}: {error}"


STATE = format_state(new_game(seed=1))
OBSERVATION = format_observation(observe(new_game(seed=1), 0))


def _key(text: str, key: str) -> int:
    return text.index(f" {key}=") + 1


@pytest.mark.parametrize(
    ("replace", "by", "field", "where"),
    [
        # A consistency condition points at the key (R30's conditions, NOTATION.md).
        ("current_player=0", "current_player=2", "current_player", "key"),
        ("accumulator=-", "accumulator=0:2", "accumulator", "key"),
        # A reading error points at the value.
        ("current_player=0", "current_player=10", "current_player", "value"),
        ("current_player=0", "current_player=x", "current_player", "value"),
        # A misspelt key: where the expected key should start, named after it.
        ("current_player=0", "curent_player=0", "current_player", "key"),
    ],
)
def test_a_documented_state_error_points_where_the_document_says(
    replace: str, by: str, field: str, where: str
) -> None:
    text = STATE.replace(replace, by, 1)
    error = _error(lambda: parse_state(text))
    key = by.split("=", maxsplit=1)[0]
    at = _key(text, key) if where == "key" else _key(text, key) + len(key) + 1
    assert (error.field, error.position) == (field, at), str(error)


def test_a_card_of_a_card_list_is_pointed_at() -> None:
    """The `S9` of `hands=…,S9/…`: the most specific part at fault (NOTATION.md)."""
    hands = re.search(r"hands=([^/]+)/", STATE)
    assert hands is not None
    text = STATE.replace(hands[0], f"hands={hands[1]},S9/", 1)
    error = _error(lambda: parse_state(text))
    assert (error.field, error.position) == ("hands", text.index(",S9/") + 1)


# Consistency condition 5 (NOTATION.md): the first stack of player 0's board, in the SOLAR
# column, as written; where the error points, from the stack's first character; what it says.
# (b), (e), (f) point at the card, (d), (g) at the cell; a stack failing two sub-conditions is
# refused for the first of them in the order (b), (d), (e), (f), (g).
CONDITION_5: list[tuple[str, int, str]] = [
    ("S5", 0, "S5 is not a card in play"),  # (b)
    ("G5", 0, "G5 is not a card in play"),  # (b) before (e)
    ("#S1+S2", 0, "a pylon built from hand is one card"),  # (d)
    ("#vS1", 0, "a pylon built from hand is one card"),  # (d) before (g)
    ("G1", 0, "G1 cannot be in the SOLAR column"),  # (e)
    ("S1+G2", 3, "G2 cannot be in the SOLAR column"),  # (e), at the card
    ("vG1", 1, "G1 cannot be in the SOLAR column"),  # (e) before (g): the card after the mark
    ("S1+S1+G1", 6, "G1 cannot be in the SOLAR column"),  # (e) on every card before (f)
    ("S2+S2", 3, "a card never goes on an equal value"),  # (f), at the second card
    ("S3+S1", 0, "a downsized stack has exactly one lower card"),  # (g): not marked
    ("vS1+S2", 0, "a downsized stack has exactly one lower card"),  # (g): marked, none lower
]


@pytest.mark.parametrize("core", ["python", "native"])
@pytest.mark.parametrize(("stack", "offset", "says"), CONDITION_5, ids=[c[0] for c in CONDITION_5])
def test_condition_5_points_at_the_card_or_the_cell_in_its_order(
    stack: str, offset: int, says: str, core: str
) -> None:
    """The sub-conditions of condition 5, one by one and in pairs (issue 23 §4.7)."""
    at = STATE.index(" boards=") + len(" boards=")
    assert STATE[at : at + 2] == ".,"  # an empty first cell to fill
    text = STATE[:at] + stack + STATE[at + 1 :]
    if core == "native":  # the field and the position are the contract; the words may differ
        if not native.is_available():
            pytest.skip("the native core is not installed (pip install 'hatsuden-rules[native]')")
        error = _error(lambda: native.load().NativeState.from_notation(text))
    else:
        error = _error(lambda: parse_state(text))
        assert says in str(error)
    assert (error.field, error.position) == ("boards", at + offset), str(error)


def test_an_observation_is_completed_with_the_generator_state_0(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An observation read is completed as `sample_state(o, 0)` is, explicit (issue 23 §4.8)."""
    seeds: list[int] = []
    completed: list[GameState] = []

    def spy(seen: Observation, rng: int) -> tuple[GameState, int]:
        state, after = _complete(seen, rng)
        seeds.append(rng)
        completed.append(state)
        return state, after

    monkeypatch.setattr(_positions, "_complete", spy)
    for seed in (1, 5, 8):
        state = new_game(seed=seed)
        for _ in range(6):
            state = apply(state, legal_moves(state)[0])
        seen = observe(state, 1)
        assert parse_observation(format_observation(seen)) == seen
        assert seeds[-1] == 0
        assert completed[-1] == attrs.evolve(sample_state(seen, 0), rng=None)


@pytest.mark.parametrize(("value", "where"), [("99", "key"), ("-1", "value")])
def test_an_observation_count_points_at_key_or_value(value: str, where: str) -> None:
    """`deck_size=99` at its key (a consistency condition), `deck_size=-1` at the value."""
    text = re.sub(r"deck_size=\d+", f"deck_size={value}", OBSERVATION, count=1)
    error = _error(lambda: parse_observation(text))
    at = _key(text, "deck_size") + (0 if where == "key" else len("deck_size="))
    assert (error.field, error.position) == ("deck_size", at), str(error)


def test_a_non_ascii_letter_in_a_word_is_refused_where_it_stands() -> None:
    """`phase=actioné …` at the `é` (NOTATION.md, "Letters of a token")."""
    text = STATE.replace("phase=action", "phase=actioné", 1)
    error = _error(lambda: parse_state(text))
    assert (error.field, error.position) == ("phase", text.index("é"))


_EXAMPLE = re.compile(r"`([^`]+)`[^`.;]{0,40}?\b(?:error )?at (?:position )?(\d+)\b")


def test_every_position_example_of_the_documents_has_a_case() -> None:
    """An example ``TEXT`` ... at N in NOTATION.md or PORTING.md is one of the cases above."""
    cases = {(shown, position) for shown, _, _, position in MOVES}
    cases |= {(shown, position) for shown, _, position in RULES}
    cases |= {("C G1 0G", 2), ("R/one_at_a_time", 35)}
    found = set()
    for name in ("NOTATION.md", "PORTING.md"):
        text = " ".join((ROOT_DIR / name).read_text(encoding="utf-8").split())
        for example, position in _EXAMPLE.findall(text):
            found.add((example, int(position)))
    assert len(found) >= 12
    # The example may be a token named inside a case ("reads the keyword `C` ... at 1").
    missing = {
        (example, position)
        for example, position in found
        if not any(example in shown and position == at for shown, at in cases)
    }
    assert missing == set()
