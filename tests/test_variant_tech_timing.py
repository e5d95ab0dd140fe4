"""The tech-timing variant (R40): ``TechTiming.PLACE_AT_ONCE``.

A drawn Accumulator or Smart card is placed as the drawer's very next moves; Secret Build and
Down are kept. The default (``KEEP``, R17, R18) is tested in test_tech.py; here the same
positions are played under both options.
"""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    STANDARD,
    Construct,
    DealTech,
    Discard,
    DrawFromDeck,
    DrawTech,
    Energy,
    Flip,
    GameState,
    IllegalMoveError,
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

from .scripting import card, cards, cell, play, script

AT_ONCE = Rules(tech_timing=TechTiming.PLACE_AT_ONCE)


def _rule_of(state: GameState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


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
