"""Errors (R35): illegal moves name their rule; malformed input never crashes; nothing mutates."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from typing import Any

import attrs
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
    GameState,
    HatsudenError,
    IllegalMoveError,
    Improve,
    InvalidInputError,
    InvalidMoveError,
    InvalidRulesError,
    Move,
    NotationError,
    Pass,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    SplitMix64,
    Tech,
    apply,
    chance_outcomes,
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
    sample,
    score,
)
from hatsuden_rules.observation import SeenStack
from tests.support.contract import refused as illegal
from tests.support.paths import ROOT_DIR
from tests.support.scripting import (
    SMALL,
    B,
    S,
    W,
    card,
    cards,
    cell,
    deal,
    draw,
    idle,
    play,
    script,
    take_tech,
)


def _stable_id(value: object) -> str:
    """A parameter id that every process spells alike (pytest-xdist compares the collections):
    a function by its name, anything else by its repr (a function's repr holds its address)."""
    name = getattr(value, "__name__", None)
    return name if callable(value) and isinstance(name, str) else repr(value)


def _bad(value: object) -> Any:
    """Hide a deliberately ill-typed value from the type checker."""
    return value


# -- states in which the illegal moves are tried (each builder is deterministic) ------------------


def action() -> GameState:
    """Player 0's ACTION: S1 on (0, S), a pylon on (0, H); holds S1 S3 G3 W4 H2."""
    return script(
        [[Construct(card("S1"), cell(0, "S"))], [BuildPylon(card("B1"), cell(0, "H"))]],
        [[], []],
        hold0=cards("S1", "S3", "G3", "W4", "H2"),
    )


def draw_phase() -> GameState:
    """Player 0's DRAW after discarding W4 (the deck is not empty)."""
    return apply(action(), Discard(card("W4")))


def no_retake_draw() -> GameState:
    rules = Rules(allow_retake_discard=False)
    state = deal(cards("S1", "S3", "G3", "W4", "H2"), cards("S2", "G1", "W1", "H1", "B1"), rules)
    return apply(state, Discard(card("W4")))


def empty_deck_draw() -> GameState:
    rules = Rules(energies=1, max_value=2, copies=2, hand_size=2, city_demand=3)
    return apply(deal(cards("S1", "S2"), cards("S1", "S2"), rules), Discard(card("S1")))


def tech_after_secret_1() -> GameState:
    state = script(
        [[Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)]],
        [[]],
        hold0=cards("W1"),
    )
    return apply(state, Construct(card("W1"), cell(0, "W"), secret=True))


def tech_holding_accumulator() -> GameState:
    state = script(
        [[Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.ACCUMULATOR)]],
        [[]],
        hold0=cards("W4"),
    )
    return apply(state, Construct(card("W4"), cell(0, "W")))


def overflow() -> GameState:
    """Row 0: S3 G3 W3 and a pylon on HYDRO, S2 on row 1; B4 makes 13: OVERFLOW."""
    state = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("G3"), cell(0, "G"))],
            [Construct(card("W3"), cell(0, "W"))],
            [BuildPylon(card("H1"), cell(0, "H"))],
            [Construct(card("S2"), cell(1, "S"))],
        ],
        [[], [], [], [], []],
        hold0=cards("B4"),
    )
    return play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())


def setup_chance() -> GameState:
    """Both copies of S1 dealt to player 0."""
    return play(new_game(), Deal(card("S1")), Deal(card("S1")))


def draw_chance() -> GameState:
    return apply(draw_phase(), DrawFromDeck())


def tech_chance() -> GameState:
    return apply(tech_holding_accumulator(), DrawTech())


def game_over() -> GameState:
    return idle(script([], [], rules=Rules(stall_limit=1)))


def small_action() -> GameState:
    return script([], [], rules=SMALL, hold0=cards("S1", "G2"))


def small_overflow() -> GameState:
    rules = Rules(energies=2, max_value=4, copies=4, hand_size=3, city_demand=4)
    state = script([[Construct(card("S2"), cell(0, "S"))]], [[]], rules=rules, hold0=cards("G4"))
    return play(state, Construct(card("G4"), cell(0, "G")), DeclineTech())


PHASE_RULE = "R9"  # a move of another phase: the turn structure (R9) or the move's own rule

ILLEGAL: list[tuple[str, Callable[[], GameState], Move, set[str]]] = [
    ("construct-not-in-hand", action, Construct(card("B4"), cell(0, "B")), {"R10"}),
    ("construct-occupied", action, Construct(card("S1"), cell(0, "S")), {"R10"}),
    ("construct-wrong-column", action, Construct(card("S3"), cell(0, "G")), {"R10"}),
    ("construct-secret-no-tech", action, Construct(card("S3"), cell(1, "S"), True), {"R11"}),
    ("construct-in-draw", draw_phase, Construct(card("S3"), cell(1, "S")), {PHASE_RULE, "R10"}),
    ("construct-in-chance", draw_chance, Construct(card("S3"), cell(1, "S")), {"R9", "R6", "R10"}),
    ("improve-equal", action, Improve(card("S1"), cell(0, "S")), {"R12"}),
    ("improve-empty", action, Improve(card("G3"), cell(0, "G")), {"R12"}),
    ("improve-pylon", action, Improve(card("H2"), cell(0, "H")), {"R12", "R14"}),
    (
        "improve-in-tech",
        tech_after_secret_1,
        Improve(card("S3"), cell(0, "S")),
        {PHASE_RULE, "R12"},
    ),
    ("downsize-no-down", action, Downsize(card("S1"), cell(0, "S")), {"R13"}),
    ("downsize-in-overflow", overflow, Downsize(card("S1"), cell(0, "S")), {PHASE_RULE, "R13"}),
    ("pylon-occupied", action, BuildPylon(card("G3"), cell(0, "S")), {"R14"}),
    ("pylon-not-in-hand", action, BuildPylon(card("B4"), cell(1, "B")), {"R14"}),
    ("pylon-in-draw", draw_phase, BuildPylon(card("G3"), cell(1, "B")), {PHASE_RULE, "R14"}),
    ("discard-not-in-hand", action, Discard(card("B4")), {"R15"}),
    ("discard-in-tech", tech_after_secret_1, Discard(card("S1")), {PHASE_RULE, "R15"}),
    ("pass-with-cards", action, Pass(), {"R16"}),
    ("pass-in-draw", draw_phase, Pass(), {PHASE_RULE, "R16"}),
    ("draw-tech-after-secret-1", tech_after_secret_1, DrawTech(), {"R17"}),
    ("draw-tech-in-action", action, DrawTech(), {PHASE_RULE, "R17"}),
    ("decline-tech-in-draw", draw_phase, DeclineTech(), {PHASE_RULE, "R17"}),
    ("flip-played", overflow, Flip(cell(0, "B")), {"R21"}),
    ("flip-pylon", overflow, Flip(cell(0, "H")), {"R21"}),
    ("flip-other-row", overflow, Flip(cell(1, "S")), {"R21"}),
    ("flip-in-action", action, Flip(cell(0, "S")), {PHASE_RULE, "R21"}),
    ("draw-deck-empty", empty_deck_draw, DrawFromDeck(), {"R22"}),
    ("draw-deck-in-action", action, DrawFromDeck(), {PHASE_RULE, "R22"}),
    ("take-not-discarded", draw_phase, DrawFromDiscard(card("S3")), {"R22"}),
    ("take-barred-retake", no_retake_draw, DrawFromDiscard(card("W4")), {"R22"}),
    ("take-in-action", action, DrawFromDiscard(card("S1")), {PHASE_RULE, "R22"}),
    ("end-turn-deck-left", draw_phase, EndTurn(), {"R22"}),
    ("end-turn-discard-left", empty_deck_draw, EndTurn(), {"R22"}),
    ("end-turn-in-action", action, EndTurn(), {PHASE_RULE, "R22"}),
    ("accumulator-not-held", action, PlaceAccumulator(0), {"R18"}),
    ("accumulator-in-tech", tech_holding_accumulator, PlaceAccumulator(0), {"R18"}),
    ("accumulator-in-chance", tech_chance, PlaceAccumulator(1), {"R18", "R6"}),
    ("smart-not-held", draw_phase, PlaceSmart(S), {"R18"}),
    ("deal-in-action", action, Deal(card("S2")), {"R6", PHASE_RULE}),
    ("deal-not-in-deck", setup_chance, Deal(card("S1")), {"R6"}),
    ("deal-while-tech-pending", tech_chance, Deal(card("S2")), {"R6"}),
    ("deal-tech-in-action", action, DealTech(Tech.SMART), {"R6", PHASE_RULE}),
    ("deal-tech-while-card-pending", draw_chance, DealTech(Tech.SMART), {"R6"}),
    ("deal-tech-already-drawn", tech_chance, DealTech(Tech.ACCUMULATOR), {"R6", "R17"}),
    ("move-in-game-over", game_over, Discard(card("S1")), {"R26"}),
    ("deal-in-game-over", game_over, Deal(card("S1")), {"R26"}),
]


@pytest.mark.parametrize(
    ("build", "move", "rules"),
    [(b, m, r) for _, b, m, r in ILLEGAL],
    ids=[name for name, *_ in ILLEGAL],
)
def test_r35_illegal_move_raises_naming_its_rule_and_leaves_the_state_unchanged(
    build: Callable[[], GameState], move: Move, rules: set[str]
) -> None:
    state, twin = build(), build()
    assert state == twin
    assert move not in legal_moves(state)
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, HatsudenError)
    assert error.rule in rules
    assert str(error).startswith(f"{error.rule}: ")
    assert len(str(error)) > len(error.rule) + 5  # and says why
    assert error.state == twin
    assert error.move == move
    assert state == twin
    assert hash(state) == hash(twin)


def test_r35_setup_deal_not_in_deck_is_illegal() -> None:
    rules = Rules(energies=2, max_value=1, copies=1, hand_size=1, city_demand=1)
    state = apply(new_game(rules=rules), Deal(card("S1")))
    with pytest.raises(IllegalMoveError) as info:
        apply(state, Deal(card("S1")))
    assert info.value.rule == "R6"


# -- malformed input ------------------------------------------------------------------------------


def _assert_rejected(call: Callable[[], object]) -> None:
    with pytest.raises(HatsudenError) as info:
        call()
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("move", ["Pass", None, 42, Pass, (), card("S1"), cell(0, "S")], ids=repr)
def test_r35_a_move_of_the_wrong_type_raises_a_hatsuden_value_error(move: object) -> None:
    state, twin = action(), action()
    _assert_rejected(lambda: apply(state, _bad(move)))
    assert state == twin
    assert hash(state) == hash(twin)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Cell(row=2, energy=S),
        lambda: Cell(row=-1, energy=S),
        lambda: Cell(row=_bad("0"), energy=S),
        lambda: Cell(row=0, energy=_bad("solar")),
        lambda: Card(S, 0),
        lambda: Card(S, -1),
        lambda: Card(S, _bad("1")),
        lambda: Card(_bad("S"), 1),
        lambda: PlaceAccumulator(2),
        lambda: PlaceAccumulator(-1),
        lambda: PlaceAccumulator(_bad("0")),
        lambda: PlaceSmart(_bad("solar")),
        lambda: Construct(_bad("S1"), cell(0, "S")),
        lambda: Construct(card("S1"), _bad((0, "S"))),
        lambda: Construct(card("S1"), cell(0, "S"), _bad("yes")),
        lambda: Discard(_bad(None)),
        lambda: Flip(_bad(None)),
        lambda: Deal(_bad("S1")),
        lambda: DealTech(_bad("accumulator")),
    ],
)
def test_r35_malformed_values_raise_a_hatsuden_value_error(make: Callable[[], object]) -> None:
    _assert_rejected(make)


@pytest.mark.parametrize(
    ("build", "move"),
    [
        (small_action, Discard(Card(W, 1))),  # WIND is not in play with 2 energies
        (small_action, Construct(card("S1"), Cell(0, W))),
        (small_action, BuildPylon(card("S1"), Cell(1, B))),
        (small_action, Discard(Card(S, 5))),  # max_value 4
        (action, Discard(Card(S, 5))),
        (small_overflow, Flip(Cell(0, W))),
        (lambda: apply(new_game(rules=SMALL), Deal(card("S1"))), Deal(Card(W, 1))),
    ],
    ids=_stable_id,
)
def test_r35_a_card_or_energy_not_in_play_raises_a_hatsuden_value_error(
    build: Callable[[], GameState], move: Move
) -> None:
    state, twin = build(), build()
    _assert_rejected(lambda: apply(state, move))
    assert state == twin
    assert hash(state) == hash(twin)


@pytest.mark.parametrize(
    "move",
    [
        Discard(card("S1")),
        Pass(),
        DrawFromDeck(),
        PlaceAccumulator(0),
        Deal(card("S2")),
        Flip(cell(0, "S")),
    ],
    ids=repr,
)
def test_r35_any_move_in_game_over_raises_a_hatsuden_value_error(move: Move) -> None:
    state, twin = game_over(), game_over()
    assert state.is_over
    _assert_rejected(lambda: apply(state, move))
    assert state == twin


@pytest.mark.parametrize("thing", [None, "state", 3, new_game], ids=_stable_id)
def test_r35_functions_reject_a_non_state(thing: object) -> None:
    _assert_rejected(lambda: apply(_bad(thing), Pass()))
    _assert_rejected(lambda: legal_moves(_bad(thing)))
    _assert_rejected(lambda: chance_outcomes(_bad(thing)))
    _assert_rejected(lambda: score(_bad(thing)))


def test_r35_new_game_rejects_rules_of_the_wrong_type() -> None:
    _assert_rejected(lambda: new_game(rules=_bad("STANDARD")))
    _assert_rejected(lambda: new_game(rules=_bad(None)))


def test_r35_accessor_errors_are_hatsuden_errors() -> None:
    # R35: HatsudenError is the root of all library errors, accessors included.
    state = small_action()
    _assert_rejected(lambda: state.hand(2))
    _assert_rejected(lambda: state.tech_hand(-1))
    _assert_rejected(lambda: state.row_supply(0, 2))
    _assert_rejected(lambda: state.stack(0, Cell(0, W)))


def _library_errors() -> list[Exception]:
    """One instance of every exception class a user can receive, with its attributes set."""
    import hatsuden_rules as h
    from hatsuden_rules.simulation import BackendError

    state = h.new_game(seed=1)
    errors: list[Exception] = [
        h.InvalidInputError("seed", "must be an int"),
        h.InvalidRulesError("energies", "must be between 1 and 5"),
        h.InvalidMoveError("move", "not a move"),
        h.PhaseError("no chance outcomes in ACTION"),
        BackendError("the Ray backend failed"),
    ]
    with pytest.raises(h.IllegalMoveError) as illegal:  # R22: no draw in ACTION
        h.apply(state, h.DrawFromDeck())
    with pytest.raises(h.MoveNotationError) as notation:
        h.parse_move("C* S9 0S")
    with pytest.raises(h.NotationError) as line:
        h.parse_state("not a state")
    with pytest.raises(h.InvalidDocumentError) as document:
        h.from_json('{"format_version": 1, "type": "move"}')
    with pytest.raises(h.ReplayError) as replayed:
        h.record_game([h.DrawFromDeck()], seed=1)
    return [*errors, illegal.value, notation.value, line.value, document.value, replayed.value]


def test_every_library_error_pickles() -> None:
    """A worker process or a Ray task sends errors back pickled: class, message, attributes."""
    for error in _library_errors():
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert str(copy) == str(error)
        assert copy.__dict__.keys() == error.__dict__.keys()
        for name, value in vars(error).items():
            assert getattr(copy, name) == value, (type(error).__name__, name)


# -------------------------------------------------------------------------------------------------
# The error rules the documents give a port (NOTATION.md "Errors: which one, and where",
# RULES.md R35 and R39, PORTING.md): each example written there, checked against the library.
#
# Issue 13, section 5: a port author must be able to predict every expected error from the
# documents alone, so each sentence that states a rule is pinned here by its own example.


ROOT = ROOT_DIR
SMALL_RULES = Rules(
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
    assert error(parse_move, text, SMALL_RULES).position == position


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


# -------------------------------------------------------------------------------------------------
# R35: the exact contract of every error: type, rule, field, state, move and message.
#
# Messages are part of the interface (a UI shows them to players; ports mirror them), so each
# illegal situation is pinned with its full text, and each malformed input with its field.


W = Energy.WIND
TWO = Rules(energies=2, max_value=4, copies=2, hand_size=2, city_demand=10)


def start(*hand0: str, rules: Rules = TWO) -> GameState:
    return deal([card(c) for c in hand0], [card("G1"), card("G2")], rules)


def next_turn(state: GameState, *moves: Move, draw0: str = "S3") -> GameState:
    """Player 0 plays `moves` and draws `draw0`; player 1 idles; player 0 is to move again."""
    state = draw(play(state, *moves), card(draw0))
    return play(state, Discard(card("G1")), DrawFromDiscard(card("G1")))


def holding(tech: Tech, first: str, second: str) -> GameState:
    """Player 0 holds `tech` (drawn for an S4 on row 0) and the cards `first` and `second`."""
    rules = attrs.evolve(TWO, techs=frozenset({tech}))
    state = deal([card("S4"), card(first)], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), tech)
    return next_turn(state, draw0=second)


def test_r26_game_over() -> None:
    state = play(start("S1", "S2", rules=attrs.evolve(TWO, stall_limit=1)), Discard(card("S1")))
    state = apply(state, DrawFromDiscard(card("S1")))
    illegal(state, Pass(), "R26", "the game is over: no move is legal")


def test_r9_wrong_phase() -> None:
    illegal(
        start("S1", "S2"),
        DrawFromDeck(),
        "R9",
        "DrawFromDeck is a DRAW move, but the phase is ACTION",
    )
    state = play(start("S1", "S2"), Discard(card("S1")))
    illegal(state, Flip(cell(0, "S")), "R9", "Flip is a OVERFLOW move, but the phase is DRAW")
    illegal(state, DrawTech(), "R9", "DrawTech is a TECH move, but the phase is DRAW")


def test_r1_r2_not_in_play() -> None:
    state = start("S1", "S2")
    illegal(
        state,
        Discard(Card(W, 1)),
        "R2",
        "Card(energy=Energy.WIND, value=1) is not a card in play under these rules: there is no "
        "W1 (values 1 to 4, energies S G)",
    )
    illegal(
        state,
        BuildPylon(card("S1"), Cell(0, W)),
        "R1",
        "Cell(row=0, energy=Energy.WIND) is in a column of an energy not in play",
    )
    illegal(
        state,
        BuildPylon(Card(W, 2), cell(0, "S")),
        "R2",
        "Card(energy=Energy.WIND, value=2) is not a card in play under these rules: there is no "
        "W2 (values 1 to 4, energies S G)",
    )
    illegal(state, PlaceSmart(W), "R1", "WIND is not in play under these rules")
    illegal(
        state,
        DrawFromDiscard(Card(W, 3)),
        "R9",
        "DrawFromDiscard is a DRAW move, but the phase is ACTION",
    )
    discarded = play(state, Discard(card("S1")))
    illegal(
        discarded,
        DrawFromDiscard(Card(W, 3)),
        "R2",
        "Card(energy=Energy.WIND, value=3) is not a card in play under these rules: there is no "
        "W3 (values 1 to 4, energies S G)",
    )


def test_r10_r11_construct() -> None:
    state = start("S1", "S2")
    illegal(
        state,
        Construct(card("S3"), cell(0, "S")),
        "R10",
        "Card(energy=Energy.SOLAR, value=3) is not in the hand",
    )
    illegal(
        state,
        Construct(card("S1"), cell(1, "G")),
        "R10",
        "a SOLAR card is built only in the SOLAR column, not in GEOTHERMAL",
    )
    illegal(
        state,
        Construct(card("S1"), cell(0, "S"), secret=True),
        "R11",
        "a secret Construct needs Secret Build in the tech hand",
    )
    built = next_turn(state, Construct(card("S1"), cell(0, "S")))
    illegal(
        built,
        Construct(card("S2"), cell(0, "S")),
        "R10",
        "Cell(row=0, energy=Energy.SOLAR) is occupied: Construct needs an empty cell",
    )


def test_r12_improve() -> None:
    state = start("S1", "S2")
    illegal(
        state,
        Improve(card("S2"), cell(0, "S")),
        "R12",
        "Improve needs a plant, and Cell(row=0, energy=Energy.SOLAR) is empty",
    )
    illegal(
        state,
        Improve(card("S4"), cell(0, "S")),
        "R12",
        "Card(energy=Energy.SOLAR, value=4) is not in the hand",
    )
    pylon = next_turn(state, BuildPylon(card("S1"), cell(0, "S")))
    illegal(
        pylon,
        Improve(card("S2"), cell(0, "S")),
        "R12",
        "Improve needs a plant, and Cell(row=0, energy=Energy.SOLAR) is a pylon",
    )
    plant = next_turn(state, Construct(card("S1"), cell(0, "S")), draw0="G3")
    illegal(
        plant,
        Improve(card("G3"), cell(0, "S")),
        "R12",
        "Improve needs a card of the plant's energy: a GEOTHERMAL card on a SOLAR plant",
    )
    improved = next_turn(plant, Improve(card("S2"), cell(0, "S")), draw0="S2")
    # Only the top card counts: S2 on S1-then-S2 is not higher (the bottom S1 would be).
    illegal(
        improved,
        Improve(card("S2"), cell(0, "S")),
        "R12",
        "Improve needs a strictly higher value than the top card (2 on 2)",
    )


def test_r13_downsize() -> None:
    illegal(
        start("S1", "S2"),
        Downsize(card("S1"), cell(0, "S")),
        "R13",
        "Downsize needs Down in the tech hand",
    )
    state = holding(Tech.DOWN, "S4", "S1")
    illegal(
        state,
        Downsize(card("S1"), cell(1, "S")),
        "R13",
        "Downsize needs a plant, and Cell(row=1, energy=Energy.SOLAR) is empty",
    )
    illegal(
        state,
        Downsize(card("S4"), cell(0, "S")),
        "R13",
        "Downsize needs a strictly lower value than the top card (4 on 4)",
    )
    illegal(
        state,
        Downsize(card("S2"), cell(0, "S")),
        "R13",
        "Card(energy=Energy.SOLAR, value=2) is not in the hand",
    )


def test_r13_downsize_judges_the_top_card_of_an_improved_plant() -> None:
    state = holding(Tech.DOWN, "G1", "G3")
    state = next_turn(state, Construct(card("G1"), cell(1, "G")), draw0="G4")
    state = next_turn(state, Improve(card("G3"), cell(1, "G")), draw0="G2")
    after = apply(state, Downsize(card("G2"), cell(1, "G")))  # 2 under the top 3, over the 1
    stack = after.stack(0, cell(1, "G"))
    assert stack is not None
    assert [c.value for c in stack.cards] == [1, 3, 2]


def test_r14_r15_r16() -> None:
    state = start("S1", "S2")
    built = next_turn(state, Construct(card("S1"), cell(0, "S")))
    illegal(
        built,
        BuildPylon(card("S2"), cell(0, "S")),
        "R14",
        "Cell(row=0, energy=Energy.SOLAR) is occupied: a pylon needs an empty cell",
    )
    illegal(
        state,
        BuildPylon(card("G4"), cell(0, "S")),
        "R14",
        "Card(energy=Energy.GEOTHERMAL, value=4) is not in the hand",
    )
    illegal(
        state,
        Discard(card("G4")),
        "R15",
        "Card(energy=Energy.GEOTHERMAL, value=4) is not in the hand",
    )
    illegal(state, Pass(), "R16", "Pass is legal only with an empty hand")


def test_r17_tech() -> None:
    rules = attrs.evolve(TWO, techs=frozenset({Tech.SECRET_BUILD, Tech.SMART}))
    state = deal([card("S4"), card("S1")], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.SECRET_BUILD)
    state = next_turn(state, draw0="S2")
    secret = apply(state, Construct(card("S1"), cell(1, "S"), secret=True))
    illegal(
        secret,
        DrawTech(),
        "R17",
        "a tech card is drawn only for a 4; "
        "after this secret Construct the only choice is DeclineTech",
    )
    drawing = play(start("S4", "S2", rules=rules), Construct(card("S4"), cell(0, "S")), DrawTech())
    illegal(drawing, Deal(card("S1")), "R6", "no plant card is being dealt now")
    illegal(drawing, DealTech(Tech.ACCUMULATOR), "R17", "ACCUMULATOR is not in the tech deck")
    illegal(start("S1", "S2"), DealTech(Tech.SMART), "R6", "no tech card is being drawn now")


def test_r18_r19_r21_placements_and_flips() -> None:
    illegal(start("S1", "S2"), PlaceSmart(Energy.SOLAR), "R18", "SMART is not in the tech hand")
    teching = play(
        start("S4", "S2", rules=attrs.evolve(TWO, techs=frozenset({Tech.SMART}))),
        Construct(card("S4"), cell(0, "S")),
    )
    illegal(
        teching,
        PlaceSmart(Energy.SOLAR),
        "R18",
        "tech cards are placed in ACTION, OVERFLOW or DRAW, not TECH",
    )
    # Row 0 of a 2-column game with demand 3 (tolerance 4): S4 then G4 overflows it.
    small = Rules(energies=2, max_value=4, copies=2, hand_size=2, city_demand=3, techs=())
    state = deal([card("S4"), card("G4")], [card("G1"), card("G2")], small)
    state = next_turn(state, Construct(card("S4"), cell(0, "S")), draw0="S1")
    over = apply(state, Construct(card("G4"), cell(0, "G")))
    illegal(over, Flip(cell(0, "G")), "R21", "the plant just played can never be the one flipped")
    illegal(over, Flip(cell(1, "S")), "R21", "only a plant in the overflowing row 0 flips")
    assert legal_moves(over) == (Flip(cell(0, "S")),)


def test_r19_r21_an_accumulator_placed_earlier_sets_the_tolerance_of_later_flips() -> None:
    # Demand 4: tolerance 5, with the Accumulator 6. Row 0 gets S4, G2, then W4 (10).
    rules = Rules(
        energies=3, max_value=4, copies=2, hand_size=2, city_demand=4, techs={Tech.ACCUMULATOR}
    )
    state = deal([card("S4"), card("G2")], [card("W1"), card("W2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.ACCUMULATOR)
    state = play(state, PlaceAccumulator(0))
    state = draw(state, card("W4"))
    state = play(state, Discard(card("W1")), DrawFromDiscard(card("W1")))
    state = draw(play(state, Construct(card("G2"), cell(0, "G"))), card("W3"))  # row 0: 6 of 6
    state = play(state, Discard(card("W1")), DrawFromDiscard(card("W1")))
    over = apply(state, Construct(card("W4"), cell(0, "W")))  # 10 > 6
    assert over.row_supply(0, 0) == 10
    assert over.tolerance(0, 0) == 6
    after = apply(over, Flip(cell(0, "S")))  # 6: over 5, but within 6 with the Accumulator
    assert after.row_supply(0, 0) == 6
    assert after.phase.name == "DRAW"


def test_r22_draw() -> None:
    discarded = play(start("S1", "S2"), Discard(card("S1")))
    illegal(
        discarded,
        DrawFromDiscard(card("S2")),
        "R22",
        "Card(energy=Energy.SOLAR, value=2) is not in the discards",
    )
    illegal(discarded, EndTurn(), "R22", "EndTurn only when no card can be drawn; draw one")
    barred = play(
        start("S1", "S2", rules=attrs.evolve(TWO, allow_retake_discard=False)), Discard(card("S1"))
    )
    illegal(
        barred,
        DrawFromDiscard(card("S1")),
        "R22",
        "the card discarded this turn cannot be taken back (allow_retake_discard=False)",
    )
    tiny = Rules(energies=1, max_value=1, copies=2, hand_size=1, city_demand=1, techs=())
    empty = play(deal([card("S1")], [card("S1")], tiny), Discard(card("S1")))
    illegal(empty, DrawFromDeck(), "R22", "the deck is empty (there is no reshuffle)")


def test_r6_deal() -> None:
    state = new_game(rules=Rules(energies=1, max_value=2, copies=1, hand_size=1, city_demand=1))
    state = apply(state, Deal(card("S1")))
    illegal(
        state, Deal(card("S1")), "R6", "no Card(energy=Energy.SOLAR, value=1) is left in the deck"
    )
    illegal(
        state,
        Deal(Card(W, 1)),
        "R2",
        "Card(energy=Energy.WIND, value=1) is not a card in play under these rules: there is no "
        "W1 (values 1 to 2, energies S)",
    )


MALFORMED: list[tuple[Callable[[], object], type[InvalidInputError], str, str]] = [
    (
        lambda: new_game(rules=_bad("STANDARD")),
        InvalidInputError,
        "rules",
        "expected Rules, got str",
    ),
    (
        lambda: new_game(seed=_bad("1")),
        InvalidInputError,
        "seed",
        "must be an int or None, got '1'",
    ),
    (
        lambda: apply(_bad("state"), Pass()),
        InvalidInputError,
        "state",
        "expected a GameState, got str",
    ),
    (
        lambda: apply(new_game(seed=1), _bad("Pass")),
        InvalidMoveError,
        "move",
        "expected a move, got str 'Pass'",
    ),
    (
        lambda: legal_moves(_bad("x")),
        InvalidInputError,
        "state",
        "expected a GameState, got str",
    ),
    (lambda: chance_outcomes(_bad(1)), InvalidInputError, "state", "expected a GameState, got int"),
    (lambda: score(_bad(())), InvalidInputError, "state", "expected a GameState, got tuple"),
    (lambda: SplitMix64.from_seed(_bad(1.5)), InvalidInputError, "seed", "must be an int, got 1.5"),
    (lambda: SplitMix64(-1), InvalidInputError, "state", "must be an int in [0, 2**64), got -1"),
    (
        lambda: sample([0, 0], SplitMix64(0)),
        InvalidInputError,
        "weights",
        "must be non-negative ints with a positive sum: [0, 0]",
    ),
    (
        lambda: Card(Energy.SOLAR, 0),
        InvalidMoveError,
        "value",
        "a card value is an int from 1 to 11 (R2), got 0",
    ),
    (
        lambda: Card(Energy.SOLAR, 12),
        InvalidMoveError,
        "value",
        "a card value is an int from 1 to 11 (R2), got 12",
    ),
    (lambda: Card(_bad("SOLAR"), 1), InvalidMoveError, "energy", "expected an Energy, got 'SOLAR'"),
    (lambda: Cell(2, Energy.SOLAR), InvalidMoveError, "row", "a row is 0 or 1, got 2"),
    (lambda: PlaceAccumulator(True), InvalidMoveError, "row", "a row is 0 or 1, got True"),
    (lambda: Discard(_bad("S1")), InvalidMoveError, "card", "expected Card, got str 'S1'"),
    (lambda: new_game(seed=1).hand(2), InvalidInputError, "player", "must be 0 or 1, got 2"),
    (
        lambda: new_game(seed=1).row_supply(0, -1),
        InvalidInputError,
        "row",
        "must be 0 or 1, got -1",
    ),
    (
        lambda: new_game(seed=1, rules=TWO).stack(0, Cell(0, W)),
        InvalidInputError,
        "cell",
        "Cell(row=0, energy=Energy.WIND) is not in play under these rules",
    ),
]


@pytest.mark.parametrize(("call", "error", "field", "message"), MALFORMED)
def test_r35_malformed_input_names_its_field(
    call: Callable[[], object], error: type[InvalidInputError], field: str, message: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert caught.value.field == field
    assert str(caught.value) == f"{field}: {message}"
    assert isinstance(caught.value, ValueError)


def test_r35_a_phase_error_outside_chance() -> None:
    with pytest.raises(
        ValueError, match=r"^R6: chance outcomes exist only in the CHANCE phase, not ACTION$"
    ):
        chance_outcomes(new_game(seed=1))


@pytest.mark.parametrize(
    "make",
    [
        lambda c: Construct(c, Cell(0, Energy.SOLAR)),
        lambda c: Improve(c, Cell(0, Energy.SOLAR)),
        lambda c: Downsize(c, Cell(0, Energy.SOLAR)),
        lambda c: BuildPylon(c, Cell(0, Energy.SOLAR)),
        Discard,
    ],
)
def test_a_card_that_does_not_exist_under_the_rules_is_named_so(make: Any) -> None:
    """Issue 23: `Card(Energy.SOLAR, 9)` under the standard rules (values 1-4): the move is
    refused under R2 as before, saying the card does not exist, not that it is not in the hand."""
    with pytest.raises(IllegalMoveError) as raised:
        apply(new_game(1), make(Card(Energy.SOLAR, 9)))
    assert raised.value.rule == "R2"
    message = str(raised.value)
    assert "there is no S9 (values 1 to 4, energies S G W H B)" in message
    assert "in the hand" not in message


@pytest.mark.parametrize("value", [0, -1, True, 2.0, 12, 10**9])
def test_an_impossible_card_value_is_refused_when_the_card_is_made(value: object) -> None:
    """Issue 23 §2: a value outside 1..11 is no card under any rule set (R2, R31)."""
    with pytest.raises(InvalidMoveError) as raised:
        Card(Energy.SOLAR, value)  # type: ignore[arg-type]
    assert raised.value.field == "value"


def test_card_values_end_at_eleven_under_every_rule_set() -> None:
    """R31: max_value <= 11, checked after max_value <= city_demand + 1 (RULES_VERSION 4)."""
    rules = Rules(energies=1, max_value=11, copies=1, hand_size=5, city_demand=10)
    assert Card(Energy.SOLAR, 11) in rules.cards
    with pytest.raises(InvalidRulesError, match=r"must be <= 11, got 12") as raised:
        Rules(energies=1, max_value=12, copies=1, hand_size=6, city_demand=11)
    assert raised.value.field == "max_value"
    with pytest.raises(InvalidRulesError, match=r"city_demand \+ 1 = 11, got 12"):
        Rules(max_value=12, city_demand=10)
