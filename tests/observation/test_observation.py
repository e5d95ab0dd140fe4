"""Observations (R30, R36-R39): who sees what, legal moves from an observation, sampling.

Every position is played through `apply` in explicit chance mode (scripting.py), and every
expected value is written out by hand from RULES.md, never computed by the code under test. The
exhaustive proofs over reduced configurations are in test_observation_information.py, the
Hypothesis properties over STANDARD in property_tests/test_observation.py.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Card,
    Cell,
    Chance,
    Concealed,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndReason,
    Energy,
    Flip,
    GameState,
    Improve,
    InvalidInputError,
    Move,
    Observation,
    Phase,
    PlaceAccumulator,
    Rules,
    SeenStack,
    SplitMix64,
    Tech,
    apply,
    legal_moves,
    legal_moves_from,
    new_game,
    observation_tensor,
    observation_tensor_layout,
    observe,
    render_observation,
    sample_state,
)
from hatsuden_rules.modelcheck.information import consistency_problems
from tests.support.scripting import card, cards, cell, deal, draw, idle, play

#: 3 energies (S, G, W) x values 1-4 x 2 copies = 24 cards, hands of 2, tolerance 7 (R31).
RULES = Rules(
    energies=3,
    max_value=4,
    copies=2,
    hand_size=2,
    city_demand=6,
    techs=frozenset({Tech.SECRET_BUILD, Tech.DOWN, Tech.ACCUMULATOR}),
)
#: As RULES, ending after 2 turns without a card going into a cell (R25).
SHORT = attrs.evolve(RULES, stall_limit=2)
#: 2 energies, tolerance 5, Secret Build only: the tech deck is empty once it is drawn (R17).
TIGHT = Rules(
    energies=2,
    max_value=4,
    copies=2,
    hand_size=2,
    city_demand=4,
    techs=frozenset({Tech.SECRET_BUILD}),
)
#: The secret card drawn first, with a face-up S4 in row 1 (R11, R17).
SECRET_FIRST: tuple[Move, ...] = (
    Construct(card("S4"), cell(1, "S")),
    DrawTech(),
    DealTech(Tech.SECRET_BUILD),
)


def p0_turns(
    hand0: Sequence[str],
    turns: Sequence[tuple[Sequence[Move], str]],
    rules: Rules = RULES,
    hand1: Sequence[str] = ("G1", "G2"),
) -> GameState:
    """Deal, then player 0 plays each turn (its moves, then draws the card named) while player 1
    idles in between (discarding and taking back its first card). Player 1 is then to move."""
    state = deal(cards(*hand0), cards(*hand1), rules)
    for n, (moves, drawn) in enumerate(turns):
        if n:
            state = idle(state)
        state = draw(play(state, *moves), card(drawn))
    return state


def secret_on_top(rules: Rules = RULES) -> GameState:
    """Player 0's secret G3 on top of a plant at (0, G); player 0 holds W2, W3 (unknown to 1)."""
    return p0_turns(
        ("S4", "G3"),
        [
            (SECRET_FIRST, "W2"),
            ((Construct(card("G3"), cell(0, "G"), secret=True), DeclineTech()), "W3"),
        ],
        rules,
    )


def secret_improved(rules: Rules = RULES) -> GameState:
    """Player 0's secret G2, then improved with a face-up G3 (R12)."""
    return p0_turns(
        ("S4", "G2"),
        [
            (SECRET_FIRST, "G3"),
            ((Construct(card("G2"), cell(0, "G"), secret=True), DeclineTech()), "W1"),
            ((Improve(card("G3"), cell(0, "G")),), "W2"),
        ],
        rules,
    )


def secret_downsized(rules: Rules = RULES) -> GameState:
    """Player 0's secret W3 at (0, W) beside a G4, then downsized with W1 (R13)."""
    return p0_turns(
        ("S4", "G4"),
        [
            (SECRET_FIRST, "W3"),
            ((Construct(card("G4"), cell(0, "G")), DrawTech(), DealTech(Tech.DOWN)), "W1"),
            ((Construct(card("W3"), cell(0, "W"), secret=True), DeclineTech()), "S1"),
            ((Downsize(card("W1"), cell(0, "W")),), "S2"),
        ],
        rules,
    )


def secret_flipped(rules: Rules = RULES) -> GameState:
    """Player 0's secret G3 flipped in the overflow of a W4 in its row (1 + 3 + 4 > 7, R21)."""
    return p0_turns(
        ("S4", "G3"),
        [
            (SECRET_FIRST, "S1"),
            ((Construct(card("G3"), cell(0, "G"), secret=True), DeclineTech()), "W4"),
            ((Construct(card("S1"), cell(0, "S")),), "W2"),
            ((Construct(card("W4"), cell(0, "W")), DeclineTech(), Flip(cell(0, "G"))), "W3"),
        ],
        rules,
    )


def game_over(state: GameState) -> GameState:
    """Two idle turns: the stall limit of SHORT ends the game (R25)."""
    state = idle(idle(state))
    assert state.phase is Phase.GAME_OVER
    return state


def stack_of(state: GameState, observer: int, owner: int, where: Cell) -> SeenStack:
    seen = observe(state, observer).stack(owner, where)
    assert seen is not None
    return seen


# -- R37: every field and who sees it --------------------------------------------------------------


def test_r37_own_hand_and_tech_hand_are_seen_the_opponents_are_only_counted() -> None:
    state = deal(cards("S4", "G2"), cards("W1", "W3"), RULES)
    state = play(state, Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.DOWN))
    mine, theirs = observe(state, 0), observe(state, 1)
    assert (mine.player, theirs.player) == (0, 1)
    assert mine.hand == (card("G2"),)
    assert theirs.hand == (card("W1"), card("W3"))
    assert mine.tech_hand == frozenset({Tech.DOWN})
    assert theirs.tech_hand == frozenset()
    assert (mine.opponent_tech_hand_size, theirs.opponent_tech_hand_size) == (0, 1)
    assert (mine.opponent_hand_size, theirs.opponent_hand_size) == (2, 1)
    # 24 cards - 4 dealt = 20 in the deck; 3 - 1 tech cards in the tech deck.
    assert mine.deck_size == theirs.deck_size == 20
    assert mine.tech_deck_size == theirs.tech_deck_size == 2
    for seen in (mine, theirs):
        assert seen.rules == RULES
        assert seen.phase is Phase.DRAW
        assert seen.current_player == 0
        assert seen.played_cell == cell(0, "S")
        assert seen.turn_discard is None
        assert seen.pending_chance is None
        assert (seen.stall_count, seen.end_triggered_by, seen.end_reason) == (0, None, None)
        assert (seen.accumulator, seen.smart, seen.discards) == (None, None, ())
        assert seen.stack(0, cell(0, "S")) == SeenStack((card("S4"),))
    assert mine.is_my_turn
    assert not theirs.is_my_turn


def test_r37_public_fields_are_equal_for_both_players() -> None:
    state = deal(cards("S4", "G2"), cards("W1", "W3"), RULES)
    state = play(state, Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.ACCUMULATOR))
    state = play(state, PlaceAccumulator(1), DrawFromDeck(), Deal(card("G1")), Discard(card("W1")))
    mine, theirs = observe(state, 0), observe(state, 1)
    public = (
        "rules phase current_player deck_size tech_deck_size discards boards accumulator smart "
        "played_cell turn_discard pending_chance stall_count end_triggered_by end_reason"
    )
    for name in public.split():
        assert getattr(mine, name) == getattr(theirs, name), name
    assert mine.accumulator == (0, 1)
    assert mine.discards == (card("W1"),)
    assert mine.turn_discard == card("W1")
    assert (mine.phase, mine.current_player) == (Phase.DRAW, 1)
    assert mine.opponent_known == theirs.known_to_opponent == ()


def test_r14_r37_a_pylon_built_from_hand_is_seen_by_its_owner_only() -> None:
    state = deal(cards("W4", "G2"), cards("S1", "S3"), RULES)
    state = play(state, BuildPylon(card("W4"), cell(0, "S")))
    assert stack_of(state, 0, 0, cell(0, "S")) == SeenStack((card("W4"),), face_down=True)
    assert stack_of(state, 1, 0, cell(0, "S")) == SeenStack((None,), face_down=True)
    assert stack_of(state, 1, 0, cell(0, "S")).value == 0  # a pylon is worth 0 (R14)
    state = idle(draw(state, card("S2")))  # forever (R30)
    assert stack_of(state, 1, 0, cell(0, "S")).cards == (None,)


def test_r21_r37_a_flipped_stack_is_visible_to_both_players() -> None:
    state = p0_turns(
        ("G1", "S3"),
        [
            ((Construct(card("G1"), cell(0, "G")),), "G2"),
            ((Improve(card("G2"), cell(0, "G")),), "W4"),
            ((Construct(card("S3"), cell(0, "S")),), "W3"),
        ],
    )
    state = idle(state)
    state = play(state, Construct(card("W4"), cell(0, "W")), DeclineTech())  # 2+3+4 > 7
    assert state.phase is Phase.OVERFLOW
    state = play(state, Flip(cell(0, "G")))
    flipped = SeenStack((card("G1"), card("G2")), face_down=True, flipped=True)
    assert stack_of(state, 0, 0, cell(0, "G")) == flipped
    assert stack_of(state, 1, 0, cell(0, "G")) == flipped


def test_r11_r37_a_secret_card_on_top_is_hidden_from_the_opponent_only() -> None:
    state = secret_on_top()
    assert stack_of(state, 0, 0, cell(0, "G")) == SeenStack((card("G3"),), secret=True)
    assert stack_of(state, 1, 0, cell(0, "G")) == SeenStack((None,), secret=True)
    assert stack_of(state, 1, 0, cell(0, "G")).value is None  # its column is public, not its value


def test_r12_r37_a_secret_card_covered_by_an_improve_stays_hidden() -> None:
    state = secret_improved()
    assert stack_of(state, 0, 0, cell(0, "G")).cards == (card("G2"), card("G3"))
    assert stack_of(state, 1, 0, cell(0, "G")) == SeenStack((None, card("G3")), secret=True)
    assert stack_of(state, 1, 0, cell(0, "G")).value == 3  # the face-up top card counts


def test_r13_r37_a_secret_card_covered_by_a_downsize_stays_hidden() -> None:
    state = secret_downsized()
    assert stack_of(state, 0, 0, cell(0, "W")).cards == (card("W3"), card("W1"))
    expected = SeenStack((None, card("W1")), secret=True, downsized=True)
    assert stack_of(state, 1, 0, cell(0, "W")) == expected


def test_r21_r37_a_flipped_secret_card_stays_hidden() -> None:
    state = secret_flipped()
    assert stack_of(state, 0, 0, cell(0, "G")).cards == (card("G3"),)
    expected = SeenStack((None,), face_down=True, flipped=True, secret=True)
    assert stack_of(state, 1, 0, cell(0, "G")) == expected


def test_r26_r37_at_game_over_only_secret_cards_on_top_of_a_plant_are_revealed() -> None:
    on_top = game_over(secret_on_top(SHORT))
    assert stack_of(on_top, 1, 0, cell(0, "G")) == SeenStack((card("G3"),), secret=True)
    improved = game_over(secret_improved(SHORT))
    assert stack_of(improved, 1, 0, cell(0, "G")).cards == (None, card("G3"))
    downsized = game_over(secret_downsized(SHORT))
    assert stack_of(downsized, 1, 0, cell(0, "W")).cards == (None, card("W1"))
    flipped = game_over(secret_flipped(SHORT))
    assert stack_of(flipped, 1, 0, cell(0, "G")).cards == (None,)
    for state in (on_top, improved, downsized, flipped):
        for player in (0, 1):
            seen = observe(state, player)
            assert (seen.phase, seen.end_reason, seen.end_triggered_by) == (
                Phase.GAME_OVER,
                EndReason.STALL,
                None,
            )
            assert seen.stall_count == 2
            assert seen.is_over
        assert observe(state, 1).hand == state.hand(1)
        assert observe(state, 1).opponent_hand_size == 2  # hands are never revealed (R26)


def _taker() -> GameState:
    """Player 1 takes both copies of G1 from the discards (R22), player 0 having discarded them."""
    state = deal(cards("G1", "G1"), cards("S1", "S2"), RULES)
    state = draw(play(state, Discard(card("G1"))), card("W1"))
    state = play(state, Discard(card("S1")), DrawFromDiscard(card("G1")))
    state = draw(play(state, Discard(card("G1"))), card("W2"))
    state = play(state, Discard(card("S2")), DrawFromDiscard(card("G1")))
    return draw(play(state, Discard(card("W1"))), card("W3"))


def test_r36_cards_taken_from_the_discards_are_known_to_the_opponent() -> None:
    state = _taker()
    assert state.hand(1) == cards_t("G1", "G1")
    assert observe(state, 0).opponent_known == cards_t("G1", "G1")
    assert observe(state, 1).known_to_opponent == cards_t("G1", "G1")
    assert observe(state, 1).opponent_known == ()  # player 0 took nothing


def test_r36_a_known_card_played_face_up_is_no_longer_known() -> None:
    state = play(_taker(), Construct(card("G1"), cell(0, "G")))
    assert observe(state, 0).opponent_known == cards_t("G1")
    assert observe(state, 1).known_to_opponent == cards_t("G1")


def test_r36_a_hidden_play_leaves_one_copy_fewer_of_each_known_card() -> None:
    state = play(_taker(), BuildPylon(card("G1"), cell(0, "S")))
    assert observe(state, 0).opponent_known == cards_t("G1")  # (G1, G1) blurred
    state = deal(cards("G1", "W1"), cards("S1", "S2"), RULES)
    state = draw(play(state, Discard(card("G1"))), card("W2"))
    state = play(state, Discard(card("S1")), DrawFromDiscard(card("G1")))  # knows (G1)
    state = idle(state)
    state = play(state, BuildPylon(card("S2"), cell(0, "W")))  # not G1, but who can tell?
    assert observe(state, 0).opponent_known == ()


def cards_t(*codes: str) -> tuple[Card, ...]:
    return tuple(cards(*codes))


# -- R36, R37: the turn logs as each player saw them -----------------------------------------------


def test_r36_the_opponents_hidden_cards_are_concealed_in_the_logs() -> None:
    state = deal(cards("S4", "G3"), cards("W4", "G1"), RULES)
    state = play(state, *SECRET_FIRST)
    assert observe(state, 1).this_turn == (
        Construct(card("S4"), cell(1, "S")),
        DrawTech(),
        Concealed("DealTech"),
    )
    assert observe(state, 0).this_turn == SECRET_FIRST  # own moves in full
    state = draw(state, card("W2"))
    assert observe(state, 1).last_turn == (
        *SECRET_FIRST[:2],
        Concealed("DealTech"),
        DrawFromDeck(),
        Concealed("Deal"),
    )
    assert observe(state, 1).this_turn == ()
    state = play(state, BuildPylon(card("W4"), cell(1, "G")))
    assert observe(state, 0).this_turn == (Concealed("BuildPylon", cell(1, "G")),)
    assert observe(state, 1).this_turn == (BuildPylon(card("W4"), cell(1, "G")),)
    state = draw(state, card("S1"))
    state = play(state, Construct(card("G3"), cell(0, "G"), secret=True), DeclineTech())
    assert observe(state, 1).this_turn == (Concealed("Construct", cell(0, "G")), DeclineTech())
    assert observe(state, 0).last_turn == (
        Concealed("BuildPylon", cell(1, "G")),
        DrawFromDeck(),
        Concealed("Deal"),
    )
    assert observe(state, 1).last_turn == (
        BuildPylon(card("W4"), cell(1, "G")),
        DrawFromDeck(),
        Deal(card("S1")),
    )


def test_r36_public_moves_are_shown_to_both_players() -> None:
    state = secret_flipped()
    moves = (
        Construct(card("W4"), cell(0, "W")),
        DeclineTech(),
        Flip(cell(0, "G")),
        DrawFromDeck(),
    )
    assert observe(state, 1).last_turn == (*moves, Concealed("Deal"))
    assert observe(state, 0).last_turn == (*moves, Deal(card("W3")))
    state = play(state, Discard(card("G1")), DrawFromDiscard(card("G1")))
    assert (
        observe(state, 1).last_turn
        == observe(state, 0).last_turn
        == (
            Discard(card("G1")),
            DrawFromDiscard(card("G1")),
        )
    )


# -- R8, R37: seeded and explicit games are seen alike; no generator state -------------------------


def test_r8_r37_a_seeded_game_and_its_explicit_twin_give_equal_observations() -> None:
    compared = 0
    triggered: set[int | None] = set()
    for seed, rules in ((99, RULES), (100, RULES), (101, STANDARD), (102, STANDARD)):
        rng = random.Random(seed)
        seeded = new_game(seed=seed, rules=rules)
        explicit = new_game(rules=rules)
        for c in (*seeded.hand(0), *seeded.hand(1)):
            explicit = apply(explicit, Deal(c))
        while not seeded.is_over:
            for player in (0, 1):
                assert observe(seeded, player) == observe(explicit, player)
            compared += 1
            move = rng.choice(legal_moves(seeded))
            seeded = apply(seeded, move)
            explicit = apply(explicit, move)
            if explicit.phase is Phase.CHANCE:  # feed it the outcome the sampler picked (R8)
                same_turn = seeded.current_player == explicit.current_player
                log = seeded.this_turn if same_turn else seeded.last_turn
                explicit = apply(explicit, log[len(explicit.this_turn)])
            assert attrs.evolve(seeded, rng=None) == explicit
        for player in (0, 1):  # the end: who triggered it and why is public (R24, R37)
            seen = observe(seeded, player)
            assert (seen.end_triggered_by, seen.end_reason) == (
                seeded.end_triggered_by,
                seeded.end_reason,
            )
            triggered.add(seen.end_triggered_by)
    assert compared > 100
    assert triggered & {0, 1}  # some game ended by a full grid


def test_r37_an_observation_holds_no_generator_state() -> None:
    state = new_game(seed=5)
    for move in (Discard(state.hand(0)[0]), DrawFromDeck()):
        state = apply(state, move)
    assert state.rng_state is not None
    names = {field.name for field in attrs.fields(Observation)}
    assert not any("rng" in name or "seed" in name for name in names)
    for other in (None, 0, state.rng_state ^ 1):
        for player in (0, 1):
            assert observe(attrs.evolve(state, rng=other), player) == observe(state, player)


# -- R37: legal moves from an observation ----------------------------------------------------------


def _positions() -> list[GameState]:
    state = deal(cards("S4", "G3"), cards("W4", "G1"), RULES)
    positions = [new_game(rules=RULES), state]
    for move in (*SECRET_FIRST[:2],):
        state = apply(state, move)
        positions.append(state)
    state = apply(state, DealTech(Tech.SECRET_BUILD))
    positions += [state, apply(state, DrawFromDeck())]
    positions += [secret_on_top(), secret_improved(), secret_downsized(), secret_flipped()]
    positions += [game_over(secret_on_top(SHORT)), new_game(seed=3), new_game(seed=3, rules=RULES)]
    return positions


def test_r37_legal_moves_from_the_movers_observation_equal_legal_moves() -> None:
    deciding = 0
    for state in _positions():
        mover = state.current_player
        for player in (0, 1):
            moves = legal_moves_from(observe(state, player))
            if player == mover and state.phase not in (Phase.CHANCE, Phase.GAME_OVER):
                assert moves == legal_moves(state)
                deciding += 1
            else:
                assert moves == ()  # no decision for the observer: opponent, chance, game over
    assert deciding >= 8


def test_r37_legal_moves_from_include_hidden_own_options() -> None:
    state = idle(secret_improved())  # player 0: secret G2 under G3, holds W1, W2
    moves = legal_moves_from(observe(state, 0))
    assert Discard(card("W1")) in moves
    assert moves == legal_moves(state)


# -- R38: sampling ---------------------------------------------------------------------------------


def test_r38_a_sample_gives_the_observation_back_for_both_players() -> None:
    for state in _positions():
        for player in (0, 1):
            seen = observe(state, player)
            for seed in (0, 1, 2):
                sample = sample_state(seen, seed)
                assert observe(sample, player) == seen
                assert consistency_problems(sample) == []


def test_r38_a_sample_is_reproducible_and_seeded_outside_chance() -> None:
    seen = observe(secret_on_top(), 1)
    first = sample_state(seen, 2026)
    assert sample_state(seen, 2026) == first
    assert sample_state(seen, SplitMix64.from_seed(2026)) == first  # an int seeds the generator
    assert sample_state(seen, 2026 + 2**64) == first  # taken mod 2**64 (R32)
    assert first.rng_state is not None
    chance = apply(deal(cards("S4", "G3"), cards("W4", "G1"), RULES), Discard(card("G3")))
    chance = apply(chance, DrawFromDeck())
    assert chance.phase is Phase.CHANCE
    for player in (0, 1):
        assert observe(chance, player).pending_chance is Chance.DRAW  # public (R37)
        assert observe(chance, player).phase is Phase.CHANCE
    assert sample_state(observe(chance, 1), 7).rng_state is None  # explicit in CHANCE (R8)
    assert sample_state(observe(chance, 1), 7).pending_chance is Chance.DRAW


def test_r38_different_seeds_give_different_samples() -> None:
    seen = observe(new_game(seed=12), 0)  # 35 unseen cards, 5 of them in the opponent's hand
    hands = {sample_state(seen, seed).hand(1) for seed in range(10)}
    assert len(hands) == 10


def _secret_values(state: GameState, where: Cell, seeds: int = 200) -> Counter[Card]:
    seen = observe(state, 1)
    counts: Counter[Card] = Counter()
    for seed in range(seeds):
        sample = sample_state(seen, seed)
        stack = sample.stack(0, where)
        assert stack is not None
        counts[stack.cards[0]] += 1
        assert consistency_problems(sample) == []
    return counts


def test_r38_a_secret_card_is_sampled_from_its_column_only() -> None:
    values = _secret_values(secret_on_top(), cell(0, "G"))
    assert set(values) == set(cards("G1", "G2", "G3", "G4"))  # the row (3 of 7) allows all


def test_r12_r38_a_secret_card_under_an_improve_is_lower() -> None:
    assert set(_secret_values(secret_improved(), cell(0, "G"))) == set(cards("G1", "G2"))


def test_r13_r38_a_secret_card_under_a_downsize_is_higher() -> None:
    # W1 is on it; player 1 sees no other W card, so W2, W3 and W4 remain.
    values = _secret_values(secret_downsized(), cell(0, "W"))
    assert set(values) == set(cards("W2", "W3", "W4"))


def test_r9_r38_a_secret_card_keeps_its_row_within_tolerance() -> None:
    # Row 0: W4 and S2 face up (6 of 7): the secret G can only be a 1.
    state = p0_turns(
        ("S4", "W4"),
        [
            (SECRET_FIRST, "S2"),
            ((Construct(card("W4"), cell(0, "W")), DeclineTech()), "G1"),
            ((Construct(card("S2"), cell(0, "S")),), "W1"),
            ((Construct(card("G1"), cell(0, "G"), secret=True), DeclineTech()), "W2"),
        ],
    )
    assert set(_secret_values(state, cell(0, "G"))) == {card("G1")}


def test_r17_r38_a_tech_draw_after_a_secret_construct_means_a_4() -> None:
    state = p0_turns(
        ("S4", "G4"),
        [
            (SECRET_FIRST, "W2"),
            (
                (Construct(card("G4"), cell(0, "G"), secret=True), DrawTech(), DealTech(Tech.DOWN)),
                "W3",
            ),
        ],
    )
    assert set(_secret_values(state, cell(0, "G"))) == {card("G4")}


def secret_in_a_full_row() -> GameState:
    """TIGHT: player 0's G4 in row 0 brings Secret Build; then a secret S1 fills row 0 to 5 of 5."""
    state = deal(cards("G4", "S1"), cards("G1", "G2"), TIGHT)
    state = play(
        state, Construct(card("G4"), cell(0, "G")), DrawTech(), DealTech(Tech.SECRET_BUILD)
    )
    state = idle(draw(state, card("G3")))
    return play(state, Construct(card("S1"), cell(0, "S"), secret=True))


def test_r9_r38_regression_a_secret_card_in_the_chance_of_a_draw_is_within_tolerance() -> None:
    """Found by the consistency check of samples: in the CHANCE of a DrawFromDeck the played row
    is within its tolerance (R9), and so must be a sampled secret card. The first version allowed
    S2-S4 there (rows of 6-8 against 5); only a DealTech's CHANCE may follow an excess."""
    state = apply(secret_in_a_full_row(), DrawFromDeck())
    assert (state.phase, state.pending_chance) == (Phase.CHANCE, Chance.DRAW)
    assert set(_secret_values(state, cell(0, "S"))) == {card("S1")}


def test_r9_r38_in_tech_a_secret_card_may_exceed_the_tolerance() -> None:
    rules = attrs.evolve(TIGHT, techs=frozenset({Tech.SECRET_BUILD, Tech.DOWN}))
    state = deal(cards("G4", "S1"), cards("G1", "G2"), rules)
    state = play(
        state, Construct(card("G4"), cell(0, "G")), DrawTech(), DealTech(Tech.SECRET_BUILD)
    )
    state = idle(draw(state, card("G3")))
    state = play(state, Construct(card("S1"), cell(0, "S"), secret=True))
    assert state.phase is Phase.TECH  # the overflow check comes after TECH (R17, R21)
    assert set(_secret_values(state, cell(0, "S"))) == set(cards("S1", "S2", "S3", "S4"))


def test_r21_r38_regression_a_logged_flip_bounds_the_secret_card_from_below() -> None:
    """Found by the consistency check of samples: before a logged Flip the row exceeded its
    tolerance (R21). Row 0: secret G, W1; S2 played: over 5 only if G >= 3; the flip of W1
    brings it to G + 2 <= 5: so G = 3. The first version sampled G1 and G2 too."""
    rules = attrs.evolve(TIGHT, energies=3)
    state = deal(cards("S4", "G3"), cards("S1", "G1"), rules)
    state = draw(play(state, *SECRET_FIRST), card("W1"))
    state = idle(state)
    state = draw(play(state, Construct(card("G3"), cell(0, "G"), secret=True)), card("S2"))
    state = idle(state)
    state = draw(play(state, Construct(card("W1"), cell(0, "W"))), card("G2"))
    state = idle(state)
    state = play(state, Construct(card("S2"), cell(0, "S")), Flip(cell(0, "W")))
    assert state.phase is Phase.DRAW
    assert set(_secret_values(state, cell(0, "G"))) == {card("G3")}
    assert set(_secret_values(draw(state, card("W4")), cell(0, "G"))) == {card("G3")}  # last turn


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda o: attrs.evolve(o, deck_size=o.deck_size + 1), "observation"),
        (lambda o: attrs.evolve(o, tech_deck_size=o.tech_deck_size + 1), "observation"),
        (lambda o: attrs.evolve(o, hand=(*o.hand, Card(Energy.HYDRO, 1))), "hand"),
        (lambda o: attrs.evolve(o, discards=cards_t("S1", "S1", "S1")), "discards"),
        (lambda o: attrs.evolve(o, opponent_known=cards_t("G4", "G4", "G4")), "opponent_known"),
        (
            lambda o: attrs.evolve(o, opponent_hand_size=0, opponent_known=cards_t("G4")),
            "observation",
        ),
    ],
)
def test_r38_an_inconsistent_observation_is_refused_naming_the_field(
    change: object, field: str
) -> None:
    seen = observe(secret_on_top(), 1)
    assert callable(change)
    with pytest.raises(InvalidInputError) as info:
        sample_state(change(seen), 1)
    assert info.value.field == field


def test_r38_hidden_own_cards_and_impossible_secrets_are_refused() -> None:
    seen = observe(secret_on_top(), 0)
    board = list(seen.boards[0])
    board[3] = SeenStack((None,))  # player 0's own S4 at (1, S), hidden from player 0 itself
    with pytest.raises(InvalidInputError) as info:
        sample_state(attrs.evolve(seen, boards=(tuple(board), seen.boards[1])), 1)
    assert info.value.field == "boards"
    other = observe(secret_improved(), 1)  # secret G under G3: make it "under G1" instead
    board = list(other.boards[0])
    board[1] = SeenStack((None, card("G1")), secret=True)
    with pytest.raises(InvalidInputError) as info:
        sample_state(attrs.evolve(other, boards=(tuple(board), other.boards[1])), 1)
    assert info.value.field == "observation"
    with pytest.raises(InvalidInputError) as info:
        sample_state(other, "seed")  # type: ignore[arg-type]
    assert info.value.field == "rng"
    with pytest.raises(InvalidInputError) as info:
        sample_state(secret_on_top(), 1)  # type: ignore[arg-type]
    assert info.value.field == "observation"


# -- R38: the distribution of samples (chi-square goodness of fit, fixed seeds) -------------------

#: Upper 0.1% points of the chi-square distribution (df: value), from standard tables
#: (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.4); cross-checked below with Wilson-Hilferty.
CHI2_999 = {1: 10.828, 3: 16.266, 7: 24.322, 18: 42.312}


def wilson_hilferty(df: int, z: float = 3.090232) -> float:
    """The chi-square quantile for df degrees of freedom at the normal quantile z (z(0.999)):
    df * (1 - 2/(9 df) + z sqrt(2/(9 df)))**3 (Wilson and Hilferty, 1931)."""
    a = 2 / (9 * df)
    return float(df * (1 - a + z * a**0.5) ** 3)


def test_the_critical_values_agree_with_wilson_hilferty() -> None:
    for df, table in CHI2_999.items():
        assert abs(wilson_hilferty(df) - table) / table < 0.04, df  # 3% at df = 1, else < 1%


def chi_square(observed: Counter[Card], expected: dict[Card, float]) -> float:
    assert set(observed) <= set(expected)
    return sum((observed[c] - e) ** 2 / e for c, e in expected.items())


def test_r38_the_opponents_single_hand_card_is_uniform_over_unseen_copies() -> None:
    rules = Rules(energies=2, max_value=4, copies=2, hand_size=1, city_demand=10, techs=())
    seen = observe(deal(cards("S1"), cards("G4"), rules), 0)
    # 16 cards; player 0 sees its S1 only: 15 unseen, S1 once and the 7 others twice.
    n = 3000
    weights = {c: (1 if c == card("S1") else 2) for c in rules.cards}
    expected = {c: n * w / 15 for c, w in weights.items()}
    observed = Counter(sample_state(seen, seed).hand(1)[0] for seed in range(n))
    assert chi_square(observed, expected) < CHI2_999[len(expected) - 1]


def test_r38_the_opponents_five_hand_cards_are_uniform_over_unseen_copies() -> None:
    """STANDARD: player 0 holds both S1 and G2, W3, H4: 35 unseen cards (S1 none, G2, W3, H4
    once, 16 cards twice), 5 in player 1's hand. Counts over the 5 slots of n samples are sums
    of multivariate hypergeometric draws: their covariance is the multinomial one times
    f = (35 - 5) / (35 - 1), so X^2 / f follows chi-square with 18 degrees of freedom."""
    seen = observe(
        deal(cards("S1", "S1", "G2", "W3", "H4"), cards("B1", "B2", "B3", "B4", "H1")), 0
    )
    n = 2000
    weights = dict.fromkeys(STANDARD.cards, 2)
    weights[card("S1")] = 0
    for code in ("G2", "W3", "H4"):
        weights[card(code)] = 1
    expected = {c: 5 * n * w / 35 for c, w in weights.items() if w}
    observed: Counter[Card] = Counter()
    for seed in range(n):
        observed.update(sample_state(seen, seed).hand(1))
    f = (35 - 5) / (35 - 1)
    assert len(expected) == 19
    assert chi_square(observed, expected) / f < CHI2_999[18]


@pytest.mark.parametrize(
    ("position", "where", "weights"),
    [
        # Player 1 holds G1 and G2: unseen G1 once, G2 once, G3 and G4 twice; all fit.
        (secret_on_top, cell(0, "G"), {"G1": 1, "G2": 1, "G3": 2, "G4": 2}),
        # Under a G3 (R12): G1 or G2, one unseen copy each.
        (secret_improved, cell(0, "G"), {"G1": 1, "G2": 1}),
    ],
)
def test_r38_a_secret_card_is_drawn_in_proportion_to_the_unseen_copies_that_fit(
    position: object, where: Cell, weights: dict[str, int]
) -> None:
    assert callable(position)
    n = 1200
    total = sum(weights.values())
    expected = {card(code): n * w / total for code, w in weights.items()}
    observed = _secret_values(position(), where, seeds=n)
    assert chi_square(observed, expected) < CHI2_999[len(expected) - 1]


# -- rendering and tensor (R39) --------------------------------------------------------------------


def test_r37_the_rendering_marks_hidden_cards_and_never_prints_them() -> None:
    state = secret_on_top()  # player 0: secret G3, hand W2 W3; player 1: G1 G2 (G1 known)
    theirs = render_observation(observe(state, 1))
    mine = render_observation(observe(state, 0))
    for hidden in ("G3", "W2", "W3", "3?"):
        assert hidden not in theirs
    assert "?" in theirs
    assert "Opponent (player 0): 2 cards" in theirs
    assert "Construct(?) 0G" in theirs  # the concealed secret Construct in the last turn
    assert "W2 W3" in mine
    assert "3?" in mine  # an own secret value is shown, marked secret
    assert "incl. [G1]" in mine  # player 1 took G1 back from the discards (R36)


def test_r37_the_rendering_hides_an_opponents_pylon() -> None:
    state = play(
        deal(cards("W4", "G2"), cards("S1", "S3"), RULES), BuildPylon(card("W4"), cell(0, "S"))
    )
    assert "#4" in render_observation(observe(state, 0))
    theirs = render_observation(observe(state, 1))
    assert "#4" not in theirs
    assert "W4" not in theirs
    assert "BuildPylon(?) 0S" in theirs


def test_r39_the_tensor_of_a_hand_checked_position() -> None:
    """Energies 1, values 1-2, one copy: S1 and S2, one in each hand; player 0 builds S1 as a
    pylon. Player 1's view, segment by segment, from the layout of R39."""
    rules = Rules(
        energies=1, max_value=2, copies=1, hand_size=1, city_demand=1, techs={Tech.ACCUMULATOR}
    )
    state = play(deal(cards("S1"), cards("S2"), rules), BuildPylon(card("S1"), cell(0, "S")))
    assert state.phase is Phase.DRAW
    layout = observation_tensor_layout(rules)
    assert [name for name, _ in layout] == [
        "phase", "to_move", "seat", "hand", "tech_hand", "known_to_opponent", "opponent_known",
        "sizes", "discards", "unseen", "my_board", "opponent_board", "accumulator", "smart",
        "played_cell", "turn_discard", "pending_chance", "stall", "end_trigger", "end_reason",
    ]  # fmt: skip
    expected = [
        [0, 0, 0, 0, 1, 0],  # phase: CHANCE ACTION TECH OVERFLOW DRAW GAME_OVER
        [0],  # to_move: player 0 moves, not the observer
        [1],  # seat
        [0, 1],  # hand: S1, S2 counts
        [0, 0, 0, 0],  # tech hand
        [0, 0],  # known to the opponent
        [0, 0],  # known in the opponent's hand
        [0, 0, 0, 1],  # opponent's hand, opponent's tech hand, deck, tech deck
        [0, 0],  # discards
        [1, 0],  # unseen: S1 is under the pylon
        [0] * 16,  # my board: 2 cells x 8 features
        [1, 1, 0, 0, 0, 0, 0, 1] + [0] * 8,  # (0, S): occupied face-down pylon, value 0, top unseen
        [0, 0, 0, 0],  # accumulator
        [0],  # smart
        [1, 0],  # played cell (0, S)
        [0, 0],  # turn discard
        [0, 0, 0],  # pending chance
        [0],  # stall
        [0, 0],  # end trigger
        [0, 0],  # end reason
    ]
    assert [n for _, n in layout] == [len(part) for part in expected]
    tensor = observation_tensor(observe(state, 1))
    assert tensor == tuple(x for part in expected for x in part)
    mine = observation_tensor(observe(state, 0))
    assert len(mine) == sum(n for _, n in layout) == 75
    assert mine[26:34] == (1, 1, 0, 0, 0, 0, 1, 1)  # own pylon: top card S1 (index 0 + 1)


def test_r39_the_tensor_has_the_layouts_length() -> None:
    for state in _positions():
        for player in (0, 1):
            tensor = observation_tensor(observe(state, player))
            assert len(tensor) == sum(n for _, n in observation_tensor_layout(state.rules))
            assert all(type(x) is int for x in tensor)
