"""Tech cards: Secret Build, the TECH phase, free placements, Accumulator, Smart (R11, R17-R20)."""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    STANDARD,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawTech,
    Energy,
    Flip,
    GameState,
    HatsudenError,
    IllegalMoveError,
    Improve,
    Move,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    TechTiming,
    apply,
    format_state,
    legal_moves,
    legal_moves_from,
    new_game,
    observe,
    parse_state,
    sample_state,
)
from tests.support.contract import refused
from tests.support.scripting import (
    TECH_ORDER,
    B,
    G,
    H,
    S,
    W,
    assert_conserved,
    card,
    cards,
    cell,
    play,
    script,
)


def _rule_of(state: GameState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


def _holding(*techs: Tech, hold: tuple[str, ...] = (), rules: Rules = STANDARD) -> GameState:
    """Player 0 drew `techs`, one per turn, with a face-up 4 in row 1 (B4, H4, W4, G4)."""
    homes = ["B", "H", "W", "G"]
    turns: list[list[Move]] = [
        [Construct(card(f"{homes[i]}4"), cell(1, homes[i])), DrawTech(), DealTech(tech)]
        for i, tech in enumerate(techs)
    ]
    state = script(turns, [[] for _ in turns], rules=rules, hold0=cards(*hold))
    assert state.tech_hand(0) == frozenset(techs)
    return state


# -- R11 and R17 (b): secret constructs ---------------------------------------------------------


def test_r11_secret_construct_needs_secret_build() -> None:
    state = script([], [], hold0=cards("W3"))
    assert _rule_of(state, Construct(card("W3"), cell(0, "W"), secret=True)) == "R11"
    assert not any(isinstance(m, Construct) and m.secret for m in legal_moves(state))


def test_r11_secret_construct_spends_secret_build_and_builds_a_secret_plant() -> None:
    state = _holding(Tech.SECRET_BUILD, hold=("W3",))
    assert Construct(card("W3"), cell(0, "W"), secret=True) in legal_moves(state)
    after = apply(state, Construct(card("W3"), cell(0, "W"), secret=True))
    stack = after.stack(0, cell(0, "W"))
    assert stack is not None
    assert stack.secret
    assert stack.is_secret_plant
    assert stack.cards == (card("W3"),)
    assert stack.value == 3
    assert after.row_supply(0, 0) == 3  # true value for supply
    assert Tech.SECRET_BUILD not in after.tech_hand(0)
    assert Tech.SECRET_BUILD not in after.tech_deck
    assert_conserved(after)


def test_r17_tech_phase_after_a_secret_1_offers_only_decline() -> None:
    state = _holding(Tech.SECRET_BUILD, hold=("W1",))
    after = apply(state, Construct(card("W1"), cell(0, "W"), secret=True))
    assert after.phase is Phase.TECH
    assert legal_moves(after) == (DeclineTech(),)
    assert _rule_of(after, DrawTech()) == "R17"
    declined = apply(after, DeclineTech())
    assert declined.phase is Phase.DRAW
    assert declined.tech_deck == after.tech_deck


def test_r17_secret_4_may_decline_the_tech_draw_and_stays_hidden() -> None:
    state = _holding(Tech.SECRET_BUILD, hold=("W4",))
    after = apply(state, Construct(card("W4"), cell(0, "W"), secret=True))
    assert after.phase is Phase.TECH
    assert legal_moves(after) == (DrawTech(), DeclineTech())
    declined = apply(after, DeclineTech())
    assert declined.phase is Phase.DRAW
    assert declined.tech_deck == (Tech.ACCUMULATOR, Tech.SMART, Tech.DOWN)
    assert declined.tech_hand(0) == frozenset()
    stack = declined.stack(0, cell(0, "W"))
    assert stack is not None
    assert stack.is_secret_plant
    assert stack.value == 4
    assert declined.row_supply(0, 0) == 4


def test_r17_secret_4_may_draw_a_tech_card() -> None:
    state = _holding(Tech.SECRET_BUILD, hold=("W4",))
    after = play(state, Construct(card("W4"), cell(0, "W"), secret=True), DrawTech())
    assert after.phase is Phase.CHANCE
    after = apply(after, DealTech(Tech.DOWN))
    assert after.tech_hand(0) == frozenset({Tech.DOWN})
    assert after.phase is Phase.DRAW


def test_r17_face_up_4_construct_enters_tech_and_the_draw_is_optional() -> None:
    state = script([], [], hold0=cards("S4"))
    after = apply(state, Construct(card("S4"), cell(0, "S")))
    assert after.phase is Phase.TECH
    assert legal_moves(after) == (DrawTech(), DeclineTech())
    declined = apply(after, DeclineTech())
    assert declined.phase is Phase.DRAW
    assert declined.tech_deck == TECH_ORDER
    assert declined.tech_hand(0) == frozenset()


def test_r17_a_construct_below_max_value_does_not_enter_tech() -> None:
    state = script([], [], hold0=cards("S3"))
    assert apply(state, Construct(card("S3"), cell(0, "S"))).phase is Phase.DRAW


def test_r17_improve_with_a_4_onto_a_secret_plant_enters_tech_with_draw_allowed() -> None:
    state = script(
        [
            [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)],
            [Construct(card("W1"), cell(0, "W"), secret=True)],  # then DeclineTech
        ],
        [[], []],
        hold0=cards("W4"),
    )
    after = apply(state, Improve(card("W4"), cell(0, "W")))
    assert after.phase is Phase.TECH
    assert legal_moves(after) == (DrawTech(), DeclineTech())
    stack = after.stack(0, cell(0, "W"))
    assert stack is not None
    assert stack.cards == (card("W1"), card("W4"))
    assert stack.secret  # Secret Build stays in the stack (C3)
    assert not stack.is_secret_plant  # the top card is face up now (C7)
    assert_conserved(after)


def test_r17_tech_is_skipped_when_no_tech_card_is_in_play() -> None:
    rules = Rules(techs=frozenset())
    state = script([], [], hold0=cards("S4"), rules=rules)
    after = apply(state, Construct(card("S4"), cell(0, "S")))
    assert after.phase is Phase.DRAW


def test_r17_tech_is_skipped_once_the_tech_deck_is_empty() -> None:
    rules = Rules(techs=frozenset({Tech.SECRET_BUILD}))
    state = _holding(Tech.SECRET_BUILD, hold=("W4", "G4"), rules=rules)
    assert state.tech_deck == ()
    # A secret Construct would enter TECH only with a tech card left to draw.
    secret = apply(state, Construct(card("W4"), cell(0, "W"), secret=True))
    assert secret.phase is Phase.DRAW
    # A face-up 4 too.
    face_up = apply(state, Construct(card("G4"), cell(0, "G")))
    assert face_up.phase is Phase.DRAW


def test_r17_draw_tech_and_decline_tech_are_only_legal_in_tech() -> None:
    state = script([], [], hold0=cards("S3"))
    assert _rule_of(state, DrawTech()) in {"R9", "R17"}
    assert _rule_of(state, DeclineTech()) in {"R9", "R17"}


# -- R11, R13: Downsize on a secret plant ------------------------------------------------------


def test_r13_downsize_on_a_secret_plant_uses_its_true_value() -> None:
    state = script(
        [
            [Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.SECRET_BUILD)],
            [Construct(card("G4"), cell(0, "G")), DrawTech(), DealTech(Tech.DOWN)],
            [Construct(card("W3"), cell(1, "W"), secret=True)],  # then DeclineTech
        ],
        [[], [], []],
        hold0=cards("W3", "W4", "W2"),
    )
    assert state.tech_hand(0) == frozenset({Tech.DOWN})
    secret = state.stack(0, cell(1, "W"))
    assert secret is not None
    assert secret.is_secret_plant
    # True value 3: a 3 or a 4 is not strictly lower.
    assert _rule_of(state, Downsize(card("W3"), cell(1, "W"))) == "R13"
    assert _rule_of(state, Downsize(card("W4"), cell(1, "W"))) == "R13"
    after = apply(state, Downsize(card("W2"), cell(1, "W")))
    assert after.phase is Phase.DRAW
    stack = after.stack(0, cell(1, "W"))
    assert stack is not None
    assert stack.cards == (card("W3"), card("W2"))
    assert stack.secret
    assert stack.downsized
    assert not stack.is_secret_plant
    assert stack.value == 2
    assert after.row_supply(0, 1) == 2
    assert after.tech_hand(0) == frozenset()
    assert_conserved(after)


# -- R18: free placements ------------------------------------------------------------------------


def test_r18_placements_are_legal_in_action_while_held_and_stay_in_action() -> None:
    state = _holding(Tech.ACCUMULATOR, Tech.SMART, hold=("S3",))
    moves = legal_moves(state)
    assert PlaceAccumulator(0) in moves
    assert PlaceAccumulator(1) in moves
    assert [m for m in moves if isinstance(m, PlaceSmart)] == [
        PlaceSmart(e) for e in (S, G, W, H, B)
    ]
    state = apply(state, PlaceAccumulator(1))
    assert state.phase is Phase.ACTION
    assert state.accumulator == (0, 1)
    assert state.tech_hand(0) == frozenset({Tech.SMART})
    state = apply(state, PlaceSmart(W))  # any number of placements in a phase
    assert state.phase is Phase.ACTION
    assert state.smart is W
    assert state.tech_hand(0) == frozenset()
    # Once placed, they are no longer held.
    assert _rule_of(state, PlaceAccumulator(0)) == "R18"
    assert _rule_of(state, PlaceSmart(S)) == "R18"
    assert not any(isinstance(m, PlaceAccumulator | PlaceSmart) for m in legal_moves(state))
    assert_conserved(state)


def test_r18_placements_are_legal_in_draw_right_after_the_tech_card_arrives() -> None:
    state = script([], [], hold0=cards("S4"))
    state = play(state, Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.SMART))
    assert state.phase is Phase.DRAW
    assert PlaceSmart(S) in legal_moves(state)
    state = apply(state, PlaceSmart(S))
    assert state.phase is Phase.DRAW
    assert state.smart is S


def test_r18_placements_are_illegal_without_the_tech_card() -> None:
    state = script([], [], hold0=cards("S3"))
    assert _rule_of(state, PlaceAccumulator(0)) == "R18"
    assert _rule_of(state, PlaceSmart(S)) == "R18"


def test_r18_placements_are_illegal_in_tech_and_in_chance() -> None:
    state = _holding(Tech.ACCUMULATOR, hold=("S4",))
    tech = apply(state, Construct(card("S4"), cell(0, "S")))
    assert tech.phase is Phase.TECH
    assert _rule_of(tech, PlaceAccumulator(0)) == "R18"
    assert PlaceAccumulator(0) not in legal_moves(tech)
    chance = apply(tech, DrawTech())
    assert chance.phase is Phase.CHANCE
    assert _rule_of(chance, PlaceAccumulator(0)) in {"R18", "R6"}
    assert all(isinstance(m, DealTech) for m in legal_moves(chance))
    draw_chance = play(chance, DealTech(Tech.SMART), DrawFromDeck())
    assert draw_chance.phase is Phase.CHANCE
    assert _rule_of(draw_chance, PlaceSmart(S)) in {"R18", "R6"}
    assert _rule_of(draw_chance, PlaceAccumulator(0)) in {"R18", "R6"}


def test_r18_placements_are_only_for_the_holder_on_its_own_turn() -> None:
    state = _holding(Tech.SMART, hold=("S1",))
    state = play(state, Discard(card("S1")), DrawFromDeck())
    state = apply(state, state_deal(state))
    assert state.current_player == 1
    assert state.tech_hand(0) == frozenset({Tech.SMART})
    assert _rule_of(state, PlaceSmart(S)) == "R18"
    assert not any(isinstance(m, PlaceSmart) for m in legal_moves(state))


def state_deal(state: GameState) -> Move:
    """Any Deal outcome of a CHANCE state: the first card of the deck."""
    return Deal(state.deck[0])


def test_r18_smart_on_an_energy_not_in_play_is_rejected() -> None:
    rules = Rules(energies=2, max_value=4, copies=4, hand_size=3)
    state = script(
        [[Construct(card("G4"), cell(1, "G")), DrawTech(), DealTech(Tech.SMART)]],
        [[]],
        rules=rules,
    )
    with pytest.raises(HatsudenError) as info:
        apply(state, PlaceSmart(W))
    assert isinstance(info.value, ValueError)
    assert PlaceSmart(W) not in legal_moves(state)
    assert [m for m in legal_moves(state) if isinstance(m, PlaceSmart)] == [
        PlaceSmart(S),
        PlaceSmart(G),
    ]


# -- R19: Accumulator ----------------------------------------------------------------------------


def _row0_built(*codes: str, techs: tuple[Tech, ...] = (), hold: tuple[str, ...] = ()) -> GameState:
    """Player 0 first draws `techs` (4s in row 1), then builds `codes` in row 0; 0 to move."""
    homes = ["B", "H", "W", "G"]
    turns: list[list[Move]] = [
        [Construct(card(f"{homes[i]}4"), cell(1, homes[i])), DrawTech(), DealTech(tech)]
        for i, tech in enumerate(techs)
    ]
    turns += [[Construct(card(code), cell(0, code[0]))] for code in codes]
    return script(turns, [[] for _ in turns], hold0=cards(*hold))


def test_r19_accumulator_raises_the_tolerance_of_its_city_only() -> None:
    state = _row0_built(techs=(Tech.ACCUMULATOR,), hold=("S1",))
    assert state.tolerance(0, 0) == state.tolerance(0, 1) == 11
    state = apply(state, PlaceAccumulator(0))
    assert state.tolerance(0, 0) == 12
    assert state.tolerance(0, 1) == 11
    assert state.tolerance(1, 0) == state.tolerance(1, 1) == 11


def test_r19_accumulator_held_before_absorbs_an_overflow() -> None:
    # Row 0: S3 G3 W3 = 9; H3 makes 12 > 11; the Accumulator on row 0 makes 12 tolerable.
    state = _row0_built("S3", "G3", "W3", techs=(Tech.ACCUMULATOR,), hold=("H3",))
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 12
    moves = legal_moves(state)
    assert PlaceAccumulator(0) in moves
    assert PlaceAccumulator(1) in moves
    # On the other city it changes nothing for this overflow.
    other = apply(state, PlaceAccumulator(1))
    assert other.phase is Phase.OVERFLOW
    absorbed = apply(state, PlaceAccumulator(0))
    assert absorbed.phase is Phase.DRAW
    assert absorbed.accumulator == (0, 0)
    assert absorbed.row_supply(0, 0) == 12
    assert all(s is None or not s.face_down for s in absorbed.board(0))  # nothing flipped


def test_r19_accumulator_drawn_by_the_very_4_that_overflows_absorbs_it() -> None:
    # Row 0: S3 G3 W2 = 8; a face-up H4 makes 12 > 11 and triggers TECH first.
    state = _row0_built("S3", "G3", "W2", hold=("H4",))
    state = apply(state, Construct(card("H4"), cell(0, "H")))
    assert state.phase is Phase.TECH
    assert state.row_supply(0, 0) == 12  # may exceed the tolerance in TECH (R9)
    state = apply(state, DrawTech())
    assert state.phase is Phase.CHANCE
    state = apply(state, DealTech(Tech.ACCUMULATOR))
    assert state.phase is Phase.OVERFLOW  # the overflow check comes after the DealTech
    assert PlaceAccumulator(0) in legal_moves(state)
    state = apply(state, PlaceAccumulator(0))
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 12
    assert state.tolerance(0, 0) == 12
    assert_conserved(state)


def test_r19_accumulator_placed_in_action_prevents_the_overflow() -> None:
    state = _row0_built("S3", "G3", "W3", techs=(Tech.ACCUMULATOR,), hold=("H3",))
    state = play(state, PlaceAccumulator(0), Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 12


def test_r19_accumulator_does_not_absorb_more_than_one() -> None:
    # Row 0: S3 G3 W3 = 9; H4 makes 13 > 12.
    state = _row0_built("S3", "G3", "W3", hold=("H4",))
    state = play(state, Construct(card("H4"), cell(0, "H")), DrawTech(), DealTech(Tech.ACCUMULATOR))
    assert state.phase is Phase.OVERFLOW
    state = apply(state, PlaceAccumulator(0))
    assert state.phase is Phase.OVERFLOW
    state = apply(state, Flip(cell(0, "S")))
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 10


# -- R20: Smart ----------------------------------------------------------------------------------


def test_r20_smart_may_be_placed_on_any_energy_in_play_and_stays() -> None:
    state = _holding(Tech.SMART, hold=("S1",))
    state = apply(state, PlaceSmart(H))
    assert state.smart is H
    state = play(state, Discard(card("S1")), DrawFromDeck())
    state = apply(state, state_deal(state))
    assert state.smart is H
    assert state.current_player == 1


def test_r19_the_opponents_accumulator_does_not_raise_the_movers_tolerance() -> None:
    # Player 0 puts the Accumulator on its row 0; player 1 then overflows its own row 0 at 12.
    state = script(
        [
            [
                Construct(card("B4"), cell(1, "B")),
                DrawTech(),
                DealTech(Tech.ACCUMULATOR),
                PlaceAccumulator(0),
            ],
            [],
            [],
            [],
        ],
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("G3"), cell(0, "G"))],
            [Construct(card("W3"), cell(0, "W"))],
        ],
        hold1=cards("H3"),
    )
    assert state.accumulator == (0, 0)
    assert state.current_player == 1
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.row_supply(1, 0) == 12
    assert state.phase is Phase.OVERFLOW


def test_r12_improve_on_a_secret_plant_is_judged_by_its_true_value() -> None:
    state = script(
        [
            [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)],
            [Construct(card("W3"), cell(0, "W"), secret=True)],  # then DeclineTech
        ],
        [[], []],
        hold0=cards("W2", "W3"),
    )
    for code in ("W2", "W3"):
        assert _rule_of(state, Improve(card(code), cell(0, "W"))) == "R12"
    assert not any(isinstance(m, Improve) for m in legal_moves(state))


# -------------------------------------------------------------------------------------------------
# The tech-timing variant (R40): ``TechTiming.PLACE_AT_ONCE``.
#
# A drawn Accumulator or Smart card is placed as the drawer's very next moves; Secret Build and
# Down are kept. The default (``KEEP``, R17, R18) is tested in test_tech.py; here the same
# positions are played under both options.


AT_ONCE = Rules(tech_timing=TechTiming.PLACE_AT_ONCE)


def _drew(tech: Tech, rules: Rules) -> GameState:
    """Player 0 builds S4 (R17: TECH), draws a tech card and is dealt `tech`."""
    state = script([], [], rules, then=[Construct(card("S4"), cell(0, "S"))])
    assert state.phase is Phase.TECH
    return play(state, DrawTech(), DealTech(tech))


def test_r40_a_drawn_accumulator_is_placed_before_anything_else() -> None:
    state = _drew(Tech.ACCUMULATOR, AT_ONCE)
    assert state.phase is Phase.DRAW
    assert legal_moves(state) == (PlaceAccumulator(0), PlaceAccumulator(1))
    assert _rule_of(state, DrawFromDeck()) == "R40"
    with pytest.raises(IllegalMoveError, match="R40: ACCUMULATOR must be placed before"):
        apply(state, DrawFromDeck())
    placed = apply(state, PlaceAccumulator(1))
    assert placed.accumulator == (0, 1)
    assert placed.phase is Phase.DRAW
    assert DrawFromDeck() in legal_moves(placed)


def test_r40_a_drawn_smart_card_is_placed_before_anything_else() -> None:
    state = _drew(Tech.SMART, AT_ONCE)
    assert legal_moves(state) == tuple(PlaceSmart(e) for e in Energy)
    assert _rule_of(state, DrawFromDeck()) == "R40"
    assert apply(state, PlaceSmart(Energy.HYDRO)).smart is Energy.HYDRO


def test_r35_r40_the_refusal_names_every_card_that_is_due() -> None:
    state = _drew(Tech.ACCUMULATOR, AT_ONCE)
    due = "must be placed before any other move (tech_timing=PLACE_AT_ONCE)"
    refused(state, DrawFromDeck(), "R40", f"ACCUMULATOR {due}")
    # Play never holds both at once, but a position given as text (NOTATION.md) may: both are named.
    text = format_state(state)
    assert "tech_deck=SEC,SMT,DWN tech_hands=ACC/-" in text
    both = parse_state(text.replace("SEC,SMT,DWN tech_hands=ACC/-", "SEC,DWN tech_hands=ACC,SMT/-"))
    refused(both, DrawFromDeck(), "R40", f"ACCUMULATOR and SMART {due}")


@pytest.mark.parametrize("tech", [Tech.SECRET_BUILD, Tech.DOWN])
def test_r40_secret_build_and_down_are_kept(tech: Tech) -> None:
    state = _drew(tech, AT_ONCE)
    assert tech in state.tech_hand(0)
    assert legal_moves(state) == legal_moves(_drew(tech, STANDARD))  # as with KEEP
    assert legal_moves(state) == (DrawFromDeck(),)


def test_r40_with_keep_the_accumulator_may_wait() -> None:
    state = _drew(Tech.ACCUMULATOR, STANDARD)
    assert DrawFromDeck() in legal_moves(state)
    assert PlaceAccumulator(0) in legal_moves(state)
    after = apply(state, DrawFromDeck())
    assert after.phase is Phase.CHANCE
    assert Tech.ACCUMULATOR in after.tech_hand(0)


def test_r40_r21_the_accumulator_drawn_by_the_overflowing_4_goes_first() -> None:
    # Row 0: S3 G3 W3 H1 (10); B4 makes 14: DrawTech, the Accumulator arrives, OVERFLOW.
    turns: list[list[Move]] = [
        [Construct(card(c), cell(0, c[0]))] for c in ("S3", "G3", "W3", "H1")
    ]
    state = script(turns, [[] for _ in turns], AT_ONCE, hold0=cards("B4"))
    state = play(state, Construct(card("B4"), cell(0, "B")), DrawTech(), DealTech(Tech.ACCUMULATOR))
    assert state.phase is Phase.OVERFLOW
    assert legal_moves(state) == (PlaceAccumulator(0), PlaceAccumulator(1))  # no Flip first
    assert _rule_of(state, Flip(cell(0, "S"))) == "R40"
    # On the other city: still OVERFLOW, and now the flips.
    elsewhere = apply(state, PlaceAccumulator(1))
    assert elsewhere.phase is Phase.OVERFLOW
    assert Flip(cell(0, "S")) in legal_moves(elsewhere)
    # On the overflowing city: tolerance 12, 14 still over; then one flip of a 3 ends it.
    here = apply(state, PlaceAccumulator(0))
    assert here.phase is Phase.OVERFLOW
    here = apply(here, Flip(cell(0, "S")))
    assert here.phase is Phase.DRAW
    assert here.row_supply(0, 0) == 11


def test_r40_r8_seeded_games_owe_the_placement_too() -> None:
    for seed in range(400):
        state = new_game(seed=seed, rules=AT_ONCE)
        while not state.is_over:
            moves = legal_moves(state)
            if any(isinstance(m, PlaceAccumulator | PlaceSmart) for m in moves):
                held = state.tech_hand(state.current_player)
                assert held & {Tech.ACCUMULATOR, Tech.SMART}
                assert all(isinstance(m, PlaceAccumulator | PlaceSmart) for m in moves)
                assert state.this_turn[-2:] in (
                    (DrawTech(), DealTech(Tech.ACCUMULATOR)),
                    (DrawTech(), DealTech(Tech.SMART)),
                )
                return
            move: Move | None = next((m for m in moves if isinstance(m, DrawTech)), None)
            if move is None:
                builds = [m for m in moves if isinstance(m, Construct) and not m.secret]
                move = max(builds, key=lambda m: m.card.value) if builds else moves[0]
            state = apply(state, move)
    raise AssertionError("no seeded game drew an Accumulator or Smart card")


def test_r40_an_owed_placement_can_always_be_made() -> None:
    # The obligation holds in any phase where a placement is legal (R18): a hand-written state
    # in ACTION whose mover holds the Accumulator offers exactly its placements, so no state is
    # ever stuck (R26: there are legal moves until the game is over).
    state = script([], [], AT_ONCE)
    line = format_state(state).replace("tech_deck=ACC,SEC,SMT,DWN", "tech_deck=SEC,SMT,DWN")
    line = line.replace("tech_hands=-/-", "tech_hands=ACC/-")
    held = parse_state(line)
    assert held.phase is Phase.ACTION
    assert legal_moves(held) == (PlaceAccumulator(0), PlaceAccumulator(1))
    assert _rule_of(held, Discard(held.hand(0)[0])) == "R40"
    assert legal_moves(apply(held, PlaceAccumulator(0)))  # then the turn goes on


def test_r37_r40_the_mover_computes_the_owed_placement_from_the_observation() -> None:
    state = _drew(Tech.SMART, AT_ONCE)
    assert legal_moves_from(observe(state, 0)) == legal_moves(state)
    assert legal_moves_from(observe(state, 1)) == ()


def test_r38_r40_samples_give_the_opponent_an_at_once_card_only_just_after_its_draw() -> None:
    # Player 0 just drew (concealed from player 1): the card may be any unseen tech card, so
    # samples put the Accumulator or Smart in player 0's tech hand sometimes...
    state = _drew(Tech.SMART, AT_ONCE)
    seen = observe(state, 1)
    held = {next(iter(sample_state(seen, seed).tech_hand(0))) for seed in range(60)}
    assert held == set(Tech)


def test_r38_r40_a_kept_card_is_never_sampled_as_an_accumulator_or_smart() -> None:
    # Player 0 drew Down in an earlier turn and keeps it (R40): player 1 sees one unknown tech
    # card in player 0's hand. With KEEP it may be any unseen tech card; with PLACE_AT_ONCE an
    # Accumulator or Smart card would have been placed at once, so it is Secret Build or Down.
    turn: list[Move] = [Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.DOWN)]
    for rules, expected in (
        (STANDARD, set(Tech)),
        (AT_ONCE, {Tech.SECRET_BUILD, Tech.DOWN}),
    ):
        state = script([turn], [[]], rules)
        assert state.current_player == 0
        seen = observe(state, 1)
        assert seen.opponent_tech_hand_size == 1
        held: set[Tech] = set()
        for seed in range(80):
            sample = sample_state(seen, seed)
            assert observe(sample, 1) == seen
            held |= sample.tech_hand(0)
        assert held == expected
