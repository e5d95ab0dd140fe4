"""The model checker's properties catch broken states and steps, each under its rule (R3-R36).

The engine is correct, so these tests break states and steps by hand (`attrs.evolve` on the
stored fields) and check that `Properties` names the right rule; and they check that the
compact identity of a state (`Properties.zones`) is exact.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

from hatsuden_rules import (
    Deal,
    DrawFromDiscard,
    GameState,
    Move,
    Phase,
    Score,
    Tech,
    apply,
    legal_moves,
    new_game,
    score,
)
from hatsuden_rules.modelcheck import CONFIGS, Problem, Properties, check

SMALL = CONFIGS["small"]
MEDIUM = CONFIGS["medium"]


def walk(plies: int = 400) -> Iterator[tuple[GameState, Move, GameState]]:
    """Steps of a few deterministic games of the medium configuration."""
    state = new_game(rules=MEDIUM)
    for ply in range(plies):
        if state.is_over:
            state = new_game(rules=MEDIUM)
        moves = legal_moves(state)
        move = moves[(ply * 7) % len(moves)]
        after = apply(state, move)
        yield state, move, after
        state = after


def rules_of(problems: list[Problem]) -> set[str]:
    return {rule for rule, _ in problems}


def state_problems(state: GameState, exhaustive: bool = True) -> list[Problem]:
    props = Properties(state.rules, exhaustive=exhaustive)
    return list(props.state_violations(state, legal_moves(state), props.zones(state)))


def step_problems(before: GameState, move: Move, after: GameState) -> list[Problem]:
    props = Properties(before.rules, exhaustive=True)
    zb, za = props.zones(before), props.zones(after)
    return list(props.transition_violations(before, move, after, zb, za))


def first(condition: object) -> GameState:
    for before, _, _ in walk():
        if callable(condition) and condition(before):
            return before
    raise AssertionError("no such state in the walk")


def test_a_correct_walk_breaks_nothing() -> None:
    for before, move, after in walk():
        assert state_problems(before) == []
        assert step_problems(before, move, after) == []


def test_a_duplicated_card_breaks_conservation_r4() -> None:
    state = first(lambda s: s.phase is Phase.ACTION and s.hand_size(0) == 1)
    hand = state._hands[0]
    other: tuple[int, ...] = (*state._hands[1], hand[0])
    hands = (hand, other)
    broken = attrs.evolve(state, hands=hands)
    assert "R4" in rules_of(state_problems(broken))


def test_a_lost_tech_card_breaks_conservation_r3() -> None:
    state = first(lambda s: s.tech_deck)
    assert "R3" in rules_of(state_problems(attrs.evolve(state, tech_deck=())))


def test_a_known_card_not_in_the_hand_r36() -> None:
    state = first(lambda s: s.phase is Phase.ACTION and s.hand_size(0) == 1)
    card = state._hands[0][0]
    missing = next(i for i in range(len(SMALL.cards) + 2) if i != card)
    broken = attrs.evolve(state, known=((missing,), state._known[1]))
    assert rules_of(state_problems(broken)) == {"R36"}


def test_a_row_over_its_tolerance_r21() -> None:
    state = first(lambda s: s.phase is Phase.ACTION)
    board = list(state._boards[0])
    top = len(MEDIUM.cards) - 1  # the highest card of the last energy: value 2
    width = MEDIUM.energies
    for c in range(width):  # a row of value-2 plants, over tolerance 3 with two energies
        board[c] = (0, top if c == width - 1 else top - 2)
    broken = attrs.evolve(state, boards=(tuple(board), state._boards[1]))
    assert "R21" in rules_of(state_problems(broken))


def test_the_stall_counter_at_its_limit_r25_and_a_trigger_without_a_full_grid_r24() -> None:
    state = first(lambda s: s.phase is Phase.ACTION)
    assert MEDIUM.stall_limit is not None
    assert "R25" in rules_of(state_problems(attrs.evolve(state, stall=MEDIUM.stall_limit)))
    assert "R24" in rules_of(state_problems(attrs.evolve(state, end_trigger=0)))


def test_a_wrong_score_r29_sampled_and_exhaustive(monkeypatch: pytest.MonkeyPatch) -> None:
    state = first(lambda s: s.phase is Phase.DRAW)
    real = score

    def wrong(s: GameState) -> Score:
        sheet = real(s)
        return attrs.evolve(sheet, winner=1 - sheet.winner)

    monkeypatch.setattr("hatsuden_rules.modelcheck._properties.score", wrong)
    assert "R29" in rules_of(state_problems(state, exhaustive=True))
    assert "R29" in rules_of(state_problems(state, exhaustive=False))  # the first of its grids


def test_a_zombie_and_a_deadlock_r26() -> None:
    state = first(lambda s: s.phase is Phase.ACTION)
    props = Properties(MEDIUM)
    z = props.zones(state)
    assert rules_of(list(props.state_violations(state, (), z))) == {"R26"}
    over = attrs.evolve(state, phase=Phase.GAME_OVER)
    assert "R26" in rules_of(
        list(props.state_violations(over, legal_moves(state), props.zones(over)))
    )


def test_unsorted_moves_r34() -> None:
    state = first(lambda s: len(legal_moves(s)) > 2)
    props = Properties(MEDIUM)
    moves = legal_moves(state)
    assert "R34" in rules_of(list(props.state_violations(state, moves[::-1], props.zones(state))))


def test_a_step_that_changes_the_opponent_r9() -> None:
    before, move, after = next(
        (b, m, a) for b, m, a in walk() if b.phase is Phase.ACTION and b.hand_size(1)
    )
    other = 1 - before.current_player
    empty: tuple[int, ...] = ()
    hands = (after._hands[0], empty) if other == 1 else (empty, after._hands[1])
    broken = attrs.evolve(after, hands=hands)
    assert "R9" in rules_of(step_problems(before, move, broken))
    known = (after._known[0], (0,)) if other == 1 else ((0,), after._known[1])
    assert "R9" in rules_of(step_problems(before, move, attrs.evolve(after, known=known)))


def test_the_turn_log_r36() -> None:
    within = next((b, m, a) for b, m, a in walk() if a.this_turn and b.this_turn == ())
    before, move, after = within
    assert "R36" in rules_of(step_problems(before, move, attrs.evolve(after, this_turn=())))
    assert "R36" in rules_of(step_problems(before, move, attrs.evolve(after, last_turn=(move,))))
    ended = next((b, m, a) for b, m, a in walk() if a.last_turn and a.this_turn == ())
    before, move, after = ended
    assert step_problems(before, move, after) == []
    assert "R36" in rules_of(step_problems(before, move, attrs.evolve(after, last_turn=())))
    setup = new_game(rules=MEDIUM)
    deal = legal_moves(setup)[0]
    assert isinstance(deal, Deal)
    dealt = apply(setup, deal)
    assert "R36" in rules_of(step_problems(setup, deal, attrs.evolve(dealt, this_turn=(deal,))))


def test_knowledge_steps_r36() -> None:
    taken = next((b, m, a) for b, m, a in walk(3000) if isinstance(m, DrawFromDiscard))
    before, move, after = taken
    assert step_problems(before, move, after) == []
    mover = before.current_player
    mine = before._known[mover]  # the taken card is not known
    known = (mine, after._known[1]) if mover == 0 else (after._known[0], mine)
    assert "R36" in rules_of(step_problems(before, move, attrs.evolve(after, known=known)))
    played = next(
        (b, m, a)
        for b, m, a in walk()
        if b.phase is Phase.ACTION
        and not b._known[b.current_player]
        and b.hand_size(b.current_player)
    )
    before, play, after = played
    mover = before.current_player
    mine = before._hands[mover][:1]  # a play made a card known
    known = (mine, after._known[1]) if mover == 0 else (after._known[0], mine)
    assert "R36" in rules_of(step_problems(before, play, attrs.evolve(after, known=known)))


def test_a_changed_stall_counter_and_end_trigger_r23_r24() -> None:
    before, move, after = next((b, m, a) for b, m, a in walk() if b.phase is Phase.ACTION)
    assert "R23" in rules_of(step_problems(before, move, attrs.evolve(after, stall=9)))
    assert "R35" in rules_of(step_problems(before, move, attrs.evolve(after, stall=9)))
    triggered = attrs.evolve(before, end_trigger=1)
    broken = attrs.evolve(apply(triggered, move), end_trigger=None)
    assert "R24" in rules_of(step_problems(triggered, move, broken))


def test_zones_name_states_exactly() -> None:
    """Equal zones iff equal states, with or without the parent's shortcut; and back."""
    seen: list[GameState] = []
    check(SMALL, on_state=seen.append)
    props = Properties(SMALL)
    by_zones: dict[tuple[int, ...], GameState] = {}
    for state in seen:
        z = props.zones(state)
        assert by_zones.setdefault(z, state) == state
        assert props.state_of(z) == state  # the frontier is stored as zones
        for move in legal_moves(state):
            after = apply(state, move)
            assert props.zones(after, state, z) == props.zones(after)
    assert len(by_zones) == len(seen) == len(set(seen))


@pytest.mark.parametrize("field", ["deck", "discards", "known"])
def test_the_parents_shortcut_sees_a_faulty_step_that_changes_one_card_zone_r4_r36(
    field: str,
) -> None:
    """A step that changes the deck, the discards or the known cards and not the hands.

    No rule does that (every move of a card goes into or out of a hand), but the checker must not
    rely on the rules it checks: the parent's shortcut of `Properties.zones` keeps the parent's
    card group only when all four card fields are the parent's very objects, so such a faulty
    step still gets the group of the cards it holds, where R4 or R36 can see them.
    """
    before = first(
        lambda s: s.phase is Phase.ACTION and len(s._deck) > 1 and s._hands[0] and not s._known[0]
    )
    if field == "deck":  # a card lost (R4)
        after = attrs.evolve(before, deck=before._deck[1:])
    elif field == "discards":  # a card doubled (R4)
        after = attrs.evolve(before, discards=tuple(sorted((*before._discards, before._deck[0]))))
    else:  # a card the opponent never saw (R36)
        after = attrs.evolve(before, known=((before._hands[0][0],), before._known[1]))
    assert after._hands is before._hands
    props = Properties(before.rules)
    zb = props.zones(before)
    za = props.zones(after, before, zb)
    assert za == props.zones(after)
    assert za[0] != zb[0]
    assert props.state_of(za) == after


def test_sampled_and_exhaustive_checks_agree() -> None:
    sampled, exhaustive = check(SMALL), check(SMALL, exhaustive=True)
    assert (
        (sampled.result, sampled.states)
        == (exhaustive.result, exhaustive.states)
        == (
            "OK",
            sampled.states,
        )
    )
    assert sampled.events == exhaustive.events
    assert exhaustive.exhaustive
    assert not sampled.exhaustive
    assert Tech.ACCUMULATOR in SMALL.techs
