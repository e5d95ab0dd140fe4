"""End of turn, end trigger, stall rule, game over (R23-R26)."""

from __future__ import annotations

from hatsuden_rules import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawTech,
    EndReason,
    GameState,
    Improve,
    Phase,
    PlaceSmart,
    Rules,
    Tech,
    apply,
    legal_moves,
    score,
)
from tests.support.scripting import S, card, cards, cell, idle, idle_turns, play, script

#: One energy: a grid of two cells, so a grid fills in two turns.
NARROW = Rules(energies=1, max_value=4, copies=4, hand_size=2)


def _c(code: str, row: int) -> list[Construct]:
    return [Construct(card(code), cell(row, code[0]))]


def _p0_full() -> GameState:
    """Player 0 fills its grid on its second turn (player 1 idles once in between)."""
    return script([_c("S1", 0), _c("S2", 1)], [[]], rules=NARROW, hold1=cards("S3"))


def test_r23_per_turn_fields_are_cleared_at_the_end_of_a_turn() -> None:
    state = script([], [], hold0=cards("S1", "G2"))
    state = apply(state, Construct(card("S1"), cell(0, "S")))
    assert state.played_cell == cell(0, "S")
    state = play(state, DrawFromDeck())
    state = apply(state, Deal(state.deck[0]))
    assert state.played_cell is None
    assert state.turn_discard is None
    assert state.current_player == 1


def test_r24_player0_fills_its_grid_and_player1_plays_exactly_one_more_turn() -> None:
    state = _p0_full()
    assert state.occupied(0) == 2
    assert state.end_triggered_by == 0
    assert not state.is_over
    assert state.phase is Phase.ACTION
    assert state.current_player == 1
    # The last turn is a complete normal turn, draw included.
    state = apply(state, Construct(card("S3"), cell(0, "S")))
    assert state.phase is Phase.DRAW
    state = apply(state, DrawFromDeck())
    assert state.phase is Phase.CHANCE
    assert not state.is_over
    state = apply(state, Deal(card("S4")))
    assert card("S4") in state.hand(1)
    assert state.is_over
    assert state.phase is Phase.GAME_OVER
    assert state.end_reason is EndReason.FINAL_TURN
    assert state.current_player == 0  # the player who would have moved next (R26)
    assert legal_moves(state) == ()


def test_r24_player1_triggering_the_end_gives_player0_one_more_turn() -> None:
    state = script([[], []], [_c("S1", 0), _c("S2", 1)], rules=NARROW)
    assert state.end_triggered_by == 1
    assert state.current_player == 0
    assert not state.is_over
    # Player 0 has played 2 turns, player 1 two; player 0 now plays a third.
    state = idle(state)
    assert state.is_over
    assert state.end_reason is EndReason.FINAL_TURN
    assert state.current_player == 1


def test_r24_pylons_count_for_a_full_grid() -> None:
    state = script(
        [[BuildPylon(card("S4"), cell(0, "S"))], [BuildPylon(card("S1"), cell(1, "S"))]],
        [[]],
        rules=NARROW,
    )
    assert state.end_triggered_by == 0
    assert not state.is_over


def test_r24_a_full_grid_of_the_player_taking_the_last_turn_changes_nothing() -> None:
    state = script([_c("S1", 0), _c("S2", 1)], [_c("S1", 0)], rules=NARROW, hold1=cards("S3"))
    assert state.end_triggered_by == 0
    assert state.current_player == 1
    state = play(state, Construct(card("S3"), cell(1, "S")), DrawFromDeck(), Deal(card("S4")))
    assert state.occupied(1) == 2
    assert state.is_over
    assert state.end_reason is EndReason.FINAL_TURN
    assert state.end_triggered_by == 0


def test_r24_the_end_is_checked_when_the_turn_ends_not_mid_turn() -> None:
    state = script([_c("S1", 0)], [[]], rules=NARROW, hold0=cards("S2"))
    state = apply(state, Construct(card("S2"), cell(1, "S")))
    assert state.occupied(0) == 2
    assert state.end_triggered_by is None
    state = play(state, DrawFromDeck(), Deal(card("S4")))
    assert state.end_triggered_by == 0


def test_r25_stall_rule_default_ends_the_game_after_20_turns_without_a_card_placed() -> None:
    state = script([], [])
    assert state.rules.stall_limit == 20
    state = idle_turns(state, 19)
    assert state.stall_count == 19
    assert not state.is_over
    state = idle(state)
    assert state.stall_count == 20
    assert state.is_over
    assert state.end_reason is EndReason.STALL
    assert state.current_player == 0  # 20 turns: player 1 moved last
    assert state.end_triggered_by is None


def test_r25_stall_rule_with_a_custom_limit() -> None:
    state = script([], [], rules=Rules(stall_limit=3))
    state = idle_turns(state, 2)
    assert not state.is_over
    state = idle(state)
    assert state.is_over
    assert state.end_reason is EndReason.STALL
    assert state.current_player == 1


def test_r25_stall_rule_off_with_none() -> None:
    state = idle_turns(script([], [], rules=Rules(stall_limit=None)), 120)
    assert not state.is_over
    assert state.stall_count == 120
    assert state.phase is Phase.ACTION


def test_r23_stall_counter_counts_both_players_turns_and_resets_on_each_card_placed() -> None:
    state = idle_turns(script([], [], hold0=cards("S1", "S2", "G4")), 4)
    assert state.stall_count == 4
    state = play(state, BuildPylon(card("G4"), cell(1, "B")), DrawFromDeck())
    state = apply(state, Deal(state.deck[0]))
    assert state.stall_count == 0  # BuildPylon
    state = idle_turns(state, 3)
    assert state.stall_count == 3
    state = play(state, Construct(card("S1"), cell(0, "S")), DrawFromDeck())
    state = apply(state, Deal(state.deck[0]))
    assert state.stall_count == 0  # Construct
    state = idle_turns(state, 3)
    state = play(state, Improve(card("S2"), cell(0, "S")), DrawFromDeck())
    state = apply(state, Deal(state.deck[0]))
    assert state.stall_count == 0  # Improve


def test_r23_stall_counter_is_not_reset_by_a_free_placement() -> None:
    state = script(
        [[Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SMART)]],
        [[]],
        hold0=cards("S1"),
    )
    assert state.stall_count == 1
    state = play(state, PlaceSmart(S), Discard(card("S1")), DrawFromDeck())
    state = apply(state, Deal(state.deck[0]))
    assert state.smart is S
    assert state.stall_count == 2


def test_r23_stall_counter_is_reset_by_a_downsize() -> None:
    state = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.DOWN)],
        ],
        [[], []],
        hold0=cards("S1"),
    )
    assert state.stall_count == 1
    state = idle_turns(state, 2)
    assert state.stall_count == 3
    state = play(state, Downsize(card("S1"), cell(0, "S")), DrawFromDeck())
    state = apply(state, Deal(state.deck[0]))
    assert state.stall_count == 0


def test_r23_final_turn_is_reported_when_the_stall_limit_is_reached_at_the_same_time() -> None:
    rules = Rules(energies=1, max_value=4, copies=4, hand_size=2, stall_limit=1)
    # Every turn but the last places a card: player 0 S1, player 1 S1, player 0 S2 (full).
    state = script([_c("S1", 0), _c("S2", 1)], [_c("S1", 0)], rules=rules)
    assert state.end_triggered_by == 0
    assert state.stall_count == 0
    state = idle(state)  # the last turn places nothing: stall counter 1 = stall_limit
    assert state.is_over
    assert state.stall_count == 1
    assert state.end_reason is EndReason.FINAL_TURN


def test_r26_game_over_has_no_legal_moves_and_still_scores() -> None:
    state = idle_turns(script([], [], rules=Rules(stall_limit=1)), 1)
    assert state.is_over
    assert legal_moves(state) == ()
    sheet = score(state)
    assert sheet.winner in (0, 1)
