"""Text notation (issue 5 §1): moves, rules, states and observations, strict and canonical."""

from __future__ import annotations

import random
import re

import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Card,
    Cell,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndTurn,
    Energy,
    Flip,
    FlipSet,
    GameState,
    Improve,
    InvalidInputError,
    InvalidMoveError,
    Move,
    MoveNotationError,
    NotationError,
    Pass,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    Tiebreak,
    apply,
    format_move,
    format_observation,
    format_rules,
    format_state,
    legal_moves,
    new_game,
    observe,
    parse_move,
    parse_observation,
    parse_rules,
    parse_state,
)
from hatsuden_rules.notation import TECH_CODES, parse_card, parse_cell

S, G, W, H, B = Energy.SOLAR, Energy.GEOTHERMAL, Energy.WIND, Energy.HYDRO, Energy.BIOMASS

#: Every move kind with its canonical notation (NOTATION.md), written out by hand.
MOVES: list[tuple[Move, str]] = [
    (Construct(Card(S, 3), Cell(0, S)), "C S3 0S"),
    (Construct(Card(B, 4), Cell(1, B), secret=True), "C* B4 1B"),
    (Improve(Card(G, 2), Cell(1, G)), "I G2 1G"),
    (Downsize(Card(W, 1), Cell(0, W)), "D W1 0W"),
    (BuildPylon(Card(H, 4), Cell(1, S)), "P H4 1S"),
    (Discard(Card(W, 2)), "X W2"),
    (Pass(), "PASS"),
    (DrawTech(), "DT"),
    (DeclineTech(), "NT"),
    (Flip(Cell(1, W)), "F 1W"),
    (FlipSet((Cell(0, S), Cell(0, W))), "FS 0S+0W"),  # R41
    (FlipSet((Cell(1, B),)), "FS 1B"),
    (DrawFromDeck(), "DD"),
    (DrawFromDiscard(Card(H, 1)), "DX H1"),
    (EndTurn(), "E"),
    (PlaceAccumulator(1), "A 1"),
    (PlaceSmart(H), "M H"),
    (Deal(Card(G, 4)), "=G4"),
    (DealTech(Tech.ACCUMULATOR), "=ACC"),
    (DealTech(Tech.SECRET_BUILD), "=SEC"),
    (DealTech(Tech.SMART), "=SMT"),
    (DealTech(Tech.DOWN), "=DWN"),
]


@pytest.mark.parametrize(("move", "text"), MOVES, ids=[t for _, t in MOVES])
def test_every_move_kind_has_one_canonical_notation(move: Move, text: str) -> None:
    assert format_move(move) == text
    assert parse_move(text) == move
    assert eval(repr(move)) == move  # repr stays a constructor expression


def test_the_table_covers_every_move_kind() -> None:
    from hatsuden_rules.core.moves import MOVE_TYPES

    assert {type(move) for move, _ in MOVES} == set(MOVE_TYPES)
    assert list(TECH_CODES) == list(Tech)


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("", 0, "expected a move"),
        ("C", 1, "expected a space"),
        ("C S3", 4, "expected a space"),
        ("C S3 0", 6, "energy letter"),
        ("C S3 2S", 5, "row"),
        ("C S0 0S", 3, "at least 1"),
        ("C S03 0S", 3, "leading zero"),
        ("C  S3 0S", 2, "energy letter"),
        ("c S3 0S", 0, "expected a move"),
        ("C S3 0S ", 7, "unexpected"),
        (" C S3 0S", 0, "expected a move"),
        ("=XYZ", 1, "energy letter"),
        ("A 2", 2, "row"),
        ("M Q", 2, "energy letter"),
        ("PASS x", 4, "unexpected"),
        ("DX", 2, "expected a space"),
        ("Z", 0, "expected a move"),
        ("C S1234567890 0S", 3, "at most 9 digits"),
        ("F 1W,", 4, "unexpected"),
        ("X S5", 2, "not a card in play"),
        ("C* S3 0S\n", 8, "unexpected"),
    ],
)
def test_malformed_moves_name_the_position(text: str, position: int, words: str) -> None:
    with pytest.raises(MoveNotationError) as raised:
        parse_move(text)
    error = raised.value
    assert isinstance(error, InvalidMoveError)
    assert isinstance(error, NotationError)
    assert isinstance(error, ValueError)
    assert error.position == position
    assert error.field == "move"
    assert error.text == text
    assert words in str(error)
    assert f"at position {position}" in str(error)


def test_moves_are_checked_against_the_rules_unless_none() -> None:
    small = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2)
    with pytest.raises(InvalidMoveError, match="WIND is not an energy in play"):
        parse_move("F 0W", small)
    with pytest.raises(InvalidMoveError, match="S3 is not a card in play"):
        parse_move("=S3", small)
    no_techs = Rules(techs=frozenset())
    with pytest.raises(InvalidMoveError, match="ACCUMULATOR is not a tech card in play"):
        parse_move("=ACC", no_techs)
    assert parse_move("X S9", None) == Discard(Card(S, 9))
    assert parse_move("F 0W", STANDARD) == Flip(Cell(0, W))


def test_non_moves_and_non_strings_are_refused() -> None:
    with pytest.raises(InvalidMoveError):
        format_move(Card(S, 1))  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        parse_move(b"DD")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        parse_move("DD", rules="standard")  # type: ignore[arg-type]


def test_cards_and_cells() -> None:
    assert parse_card("W3") == Card(W, 3)
    assert parse_cell("1H") == Cell(1, H)
    with pytest.raises(MoveNotationError):
        parse_card("W5")
    with pytest.raises(MoveNotationError):
        parse_cell("0X")


@pytest.mark.parametrize(
    "rules",
    [
        STANDARD,
        Rules(techs=frozenset()),
        Rules(
            energies=1,
            max_value=2,
            copies=2,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.SMART, Tech.DOWN}),
            tiebreak=Tiebreak.SUPPLY,
            allow_retake_discard=False,
            stall_limit=None,
        ),
    ],
)
def test_rules_round_trip(rules: Rules) -> None:
    text = format_rules(rules)
    assert parse_rules(text) == rules
    assert format_rules(parse_rules(text)) == text


def test_rules_notation_fields() -> None:
    assert format_rules(STANDARD) == "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"
    assert parse_rules("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20") is STANDARD
    text = "2/3/1/1/4/-/supply/noretake/off"
    assert parse_rules(text) == Rules(
        energies=2,
        max_value=3,
        copies=1,
        hand_size=1,
        city_demand=4,
        techs=frozenset(),
        tiebreak=Tiebreak.SUPPLY,
        allow_retake_discard=False,
        stall_limit=None,
    )


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("5/4/0/5/10/-/supply/retake/20", 4, "copies"),  # R31 refuses, at the copies field
        ("5/12/2/5/10/-/supply/retake/20", 2, "max_value"),
        ("5/4/2/5/10/SMT+ACC/supply/retake/20", 15, "canonical order"),
        ("5/4/2/5/10/-/coin/retake/20", 13, "tiebreak"),
        ("5/4/2/5/10/-/supply/maybe/20", 20, "retake"),
        ("5/4/2/5/10/-/supply/retake/0", 27, "stall_limit"),
        ("5/4/999/5/10/-/supply/retake/20", 4, "more than"),  # a resource limit
    ],
)
def test_bad_rules_name_the_field(text: str, position: int, words: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_rules(text)
    assert raised.value.position == position
    assert words in str(raised.value)


def _game(seed: int | None, rules: Rules, n: int) -> list[GameState]:
    rng = random.Random(n)
    state = new_game(seed, rules)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


MICRO = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)


@pytest.mark.parametrize(("seed", "rules"), [(7, STANDARD), (None, STANDARD), (None, MICRO)])
def test_states_of_a_game_round_trip(seed: int | None, rules: Rules) -> None:
    for state in _game(seed, rules, 3):
        line = format_state(state)
        assert "\n" not in line
        back = parse_state(line)
        assert back == state
        assert hash(back) == hash(state)
        assert format_state(back) == line
        assert legal_moves(back) == legal_moves(state)


def test_state_notation_example() -> None:
    line = format_state(new_game())
    assert line == (
        "rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=chance current_player=0 "
        "hands=-/- deck=S1,S1,S2,S2,S3,S3,S4,S4,G1,G1,G2,G2,G3,G3,G4,G4,W1,W1,W2,W2,W3,W3,W4,"
        "W4,H1,H1,H2,H2,H3,H3,H4,H4,B1,B1,B2,B2,B3,B3,B4,B4 discards=- "
        "boards=.,.,.,.,.;.,.,.,.,./.,.,.,.,.;.,.,.,.,. tech_deck=ACC,SEC,SMT,DWN tech_hands=-/- "
        "accumulator=- smart=- played_cell=- turn_discard=- pending_chance=setup stall_count=0 "
        "end_triggered_by=- end_reason=- rng_state=- known_cards=-/- this_turn=[] last_turn=[]"
    )


def _mid_game() -> GameState:
    """A seeded state in DRAW with a board, discards and a turn log."""
    state = new_game(seed=11)
    card = state.hand(0)[0]
    state = apply(state, Construct(card, Cell(0, card.energy)))
    assert state.phase is Phase.DRAW
    return state


def _refused(line: str, field: str, words: str) -> NotationError:
    with pytest.raises(NotationError) as raised:
        parse_state(line)
    assert raised.value.field == field, str(raised.value)
    assert words in str(raised.value)
    assert isinstance(raised.value, InvalidInputError)
    return raised.value


def test_inconsistent_states_are_refused_naming_the_field() -> None:
    line = format_state(new_game())
    # R2 conservation: a card missing, a copy too many
    _refused(line.replace("deck=S1,S1,", "deck=S1,"), "deck", "missing")
    _refused(line.replace("deck=S1,S1,", "deck=S1,S1,S1,"), "deck", "a copy too many")
    # canonical order
    _refused(line.replace("deck=S1,S1,S2,S2,", "deck=S2,S2,S1,S1,"), "deck", "canonical order")
    # the phase against the pending chance, the seeded flag, the setup hands
    _refused(line.replace("phase=chance", "phase=action"), "pending_chance", "iff")
    _refused(line.replace("rng_state=-", "rng_state=5"), "pending_chance", "seeded")
    _refused(line.replace("current_player=0", "current_player=1"), "current_player", "R7")
    # tech conservation
    _refused(line.replace("tech_deck=ACC,SEC,SMT,DWN", "tech_deck=ACC,SEC,SMT"), "tech_deck", "")
    _refused(line.replace("smart=-", "smart=W"), "smart", "two places")


def test_inconsistent_mid_game_states_are_refused() -> None:
    state = _mid_game()
    line = format_state(state)
    hand = ",".join(f"{c.energy.letter}{c.value}" for c in state.hand(0))
    _refused(line.replace("phase=draw", "phase=action"), "played_cell", "ACTION")
    _refused(line.replace("stall_count=0", "stall_count=20"), "stall_count", "R25")
    _refused(line.replace("end_reason=-", "end_reason=stall"), "end_reason", "R26")
    first = hand.split(",")[0]
    known = line.replace("known_cards=-/-", "known_cards=-/" + first)
    _refused(known, "known_cards", "not in the hand")
    big = re.sub(r"rng_state=\d+", "rng_state=99999999999999999999", line)
    _refused(big, "rng_state", "2**64")


def test_state_errors_point_into_the_text() -> None:
    line = format_state(new_game())
    bad = line.replace("deck=S1,S1,S2,S2,", "deck=S2,S2,S1,S1,")
    error = _refused(bad, "deck", "canonical order")
    assert bad[error.position : error.position + 2] == "S1"  # the first card out of order
    with pytest.raises(NotationError) as raised:
        parse_state(line + " ")
    assert raised.value.position == len(line)


def test_observations_round_trip_and_forgeries_are_refused() -> None:
    for state in _game(None, MICRO, 5) + _game(3, STANDARD, 2):
        for player in (0, 1):
            seen = observe(state, player)
            line = format_observation(seen)
            assert parse_observation(line) == seen
            assert format_observation(parse_observation(line)) == line
    seen = observe(new_game(seed=1), 1)
    line = format_observation(seen)
    assert "opponent_hand_size=5" in line
    with pytest.raises(NotationError, match="no game state gives this observation"):
        parse_observation(line.replace("opponent_hand_size=5", "opponent_hand_size=4"))
    with pytest.raises(NotationError, match="R30"):  # a player sees their own cards
        parse_observation(line.replace("boards=.", "boards=?", 1))


@pytest.mark.parametrize(
    ("text", "position", "hint"),
    [
        ("Construct S3 0S", 1, "Construct is written C S3 0S"),
        ("Flip 1W", 1, "Flip is written F 1W"),
        ("Pass", 1, "Pass is written PASS"),
        ("Cx S3 0S", 1, "found 'Cx'"),
    ],
)
def test_a_move_written_as_a_word_is_told_the_notation(text: str, position: int, hint: str) -> None:
    """Issue 23: not "expected a space, found 'o' at position 1"; field and position as before."""
    with pytest.raises(MoveNotationError) as raised:
        parse_move(text)
    error = raised.value
    assert (error.field, error.position) == (
        "move",
        position,
    )  # NOTATION.md "Where an error points"
    assert "moves are written in notation" in str(error)
    assert "C S3 0S" in str(error)
    assert hint in str(error)
