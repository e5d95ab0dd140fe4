"""Seeded mode (R8), the SplitMix64 generator (R32) and the sampler (R33).

The expected picks are computed here from R32/R33 by `tests.reference`, never read from the
library's generator.
"""

from __future__ import annotations

import random

import pytest

from hatsuden_rules import (
    STANDARD,
    Card,
    Chance,
    Construct,
    Deal,
    DealTech,
    Discard,
    DrawFromDeck,
    DrawTech,
    GameState,
    HatsudenError,
    IllegalMoveError,
    Move,
    Phase,
    Rules,
    SplitMix64,
    Tech,
    apply,
    legal_moves,
    new_game,
    sample,
)
from tests.support.reference import MASK, RefSplitMix64, ref_pick, ref_sample, state_after
from tests.support.scripting import (
    SMALL,
    TECH_ORDER,
    card,
    card_key,
    cards,
    cell,
    full_deck,
    public_view,
)

# -- R32 ------------------------------------------------------------------------------------------


def test_r32_known_answers_for_seed_0() -> None:
    expected = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64.from_seed(0)
    outputs = []
    for _ in range(3):
        value, rng = rng.next()
        outputs.append(value)
    assert outputs == expected
    ref = RefSplitMix64(0)
    assert [ref.next() for _ in range(3)] == expected  # the reference agrees with R32


def test_r32_negative_seed_is_taken_mod_2_to_the_64() -> None:
    assert SplitMix64.from_seed(-1).state == 2**64 - 1
    assert SplitMix64.from_seed(-1).next()[0] == 0xE4D971771B652C20
    assert SplitMix64.from_seed(-12345) == SplitMix64.from_seed(2**64 - 12345)
    assert SplitMix64.from_seed(2**64 + 7) == SplitMix64.from_seed(7)


def test_r32_generator_is_immutable() -> None:
    rng = SplitMix64.from_seed(42)
    first, _ = rng.next()
    again, _ = rng.next()
    assert first == again
    assert rng.state == 42


@pytest.mark.parametrize(("seed", "same"), [(-1, 2**64 - 1), (-999, 2**64 - 999), (2**64, 0)])
def test_r8_seeds_are_taken_mod_2_to_the_64_in_new_game(seed: int, same: int) -> None:
    a, b = new_game(seed=seed), new_game(seed=same)
    assert a == b
    assert hash(a) == hash(b)
    assert a.rng_state == state_after(same, 10)


def test_r8_seed_must_be_an_int() -> None:
    for seed in ("1", 1.5):
        with pytest.raises(HatsudenError) as info:
            new_game(seed=seed)  # type: ignore[arg-type]
        assert isinstance(info.value, ValueError)


# -- R33 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 5, 2**63])
def test_r33_sample_picks_the_first_cumulative_weight_above_r(seed: int) -> None:
    weights = [2, 0, 5, 1, 3]
    index, rng = sample(weights, SplitMix64.from_seed(seed))
    ref = RefSplitMix64(seed)
    expected = ref_sample(list(enumerate(weights)), ref)
    assert index == expected
    assert rng.state == ref.state


def test_r33_documented_example_seed_0_deal() -> None:
    # Computed from R32/R33 with W = cards left, canonical order, r = next() mod W.
    deck = sorted(full_deck(STANDARD).elements(), key=card_key)
    ref = RefSplitMix64(0)
    first = ref.next()
    assert (len(deck), first % len(deck)) == (40, 15)  # "first draw: W = 40, r = 15"
    ref = RefSplitMix64(0)
    dealt = []
    for _ in range(10):
        c = ref_sample(_weights(deck), ref)
        deck.remove(c)
        dealt.append(c)
    assert dealt[:5] == cards("G4", "S1", "W3", "W2", "B2")
    assert dealt[5:] == cards("B2", "G2", "S4", "S3", "G2")
    state = new_game(seed=0)
    assert state.hand(0) == tuple(sorted(dealt[:5], key=card_key))
    assert state.hand(1) == tuple(sorted(dealt[5:], key=card_key))
    assert sorted(state.deck, key=card_key) == deck


def _weights(deck: list[Card]) -> list[tuple[Card, int]]:
    distinct = sorted(set(deck), key=card_key)
    return [(c, deck.count(c)) for c in distinct]


# -- R8: seeded games equal explicit games fed the sampler's picks --------------------------------


def _explicit_twin(rules: Rules, ref: RefSplitMix64) -> GameState:
    """An explicit game whose chance events are resolved by the reference sampler."""
    return _resolve(new_game(rules=rules), ref)


def _resolve(state: GameState, ref: RefSplitMix64) -> GameState:
    while state.phase is Phase.CHANCE:
        move: Move
        if state.pending_chance is Chance.TECH:
            techs = sorted(state.tech_deck, key=TECH_ORDER.index)
            move = DealTech(ref_sample([(t, 1) for t in techs], ref))
        else:
            move = Deal(ref_sample(_weights(list(state.deck)), ref))
        state = apply(state, move)
    return state


def _play_twins(
    rules: Rules, seed: int, policy_seed: int, prefer_tech: bool = False
) -> tuple[GameState, int, int]:
    """Play a seeded game with random moves next to its explicit twin, comparing each step.

    With `prefer_tech`, DrawTech is always chosen when it is legal.
    """
    policy = random.Random(policy_seed)
    ref = RefSplitMix64(seed)
    seeded = new_game(seed=seed, rules=rules)
    explicit = _explicit_twin(rules, ref)
    tech_draws = 0
    while True:
        assert seeded.phase is not Phase.CHANCE
        assert public_view(seeded) == public_view(explicit)
        assert seeded.rng_state == ref.state == state_after(seed, ref.calls)
        assert explicit.rng_state is None
        assert seeded.is_seeded
        assert not explicit.is_seeded
        if seeded.is_over:
            return seeded, ref.calls, tech_draws
        moves = legal_moves(seeded)
        move = DrawTech() if prefer_tech and DrawTech() in moves else policy.choice(moves)
        tech_draws += isinstance(move, DrawTech)
        seeded = apply(seeded, move)
        explicit = _resolve(apply(explicit, move), ref)


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        (STANDARD, 0),
        (STANDARD, 1),
        (STANDARD, -7),
        (STANDARD, 2026),
        (SMALL, 3),
        (SMALL, 2**64 - 1),
        (Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2), 11),
    ],
)
def test_r8_seeded_game_equals_the_explicit_game_fed_the_sampler_picks(
    rules: Rules, seed: int
) -> None:
    final, events, _ = _play_twins(rules, seed, policy_seed=seed % 1000)
    assert final.is_over
    assert events >= 2 * rules.hand_size


def test_r8_the_twin_games_include_tech_draws() -> None:
    # Several games with a policy that favours DrawTech, so the DealTech path is compared too.
    draws = 0
    for seed in range(4):
        _, _, n = _play_twins(SMALL, seed, policy_seed=100 + seed, prefer_tech=True)
        draws += n
    assert draws > 0


def test_r8_seeded_games_are_deterministic() -> None:
    def run() -> list[GameState]:
        policy = random.Random(5)
        state = new_game(seed=77)
        states = [state]
        while not state.is_over:
            state = apply(state, policy.choice(legal_moves(state)))
            states.append(state)
        return states

    a, b = run(), run()
    assert a == b
    assert [hash(s) for s in a] == [hash(s) for s in b]


def test_r8_every_chance_event_consumes_one_next_even_with_a_single_outcome() -> None:
    # Only S1 cards (3 copies) and one tech card: every chance event has one outcome.
    rules = Rules(
        energies=1,
        max_value=1,
        copies=3,
        hand_size=1,
        city_demand=1,
        techs=frozenset({Tech.ACCUMULATOR}),
    )
    state = new_game(seed=9, rules=rules)
    assert state.rng_state == state_after(9, 2)  # two setup deals
    drawn = apply(apply(state, Discard(card("S1"))), DrawFromDeck())
    assert drawn.rng_state == state_after(9, 3)
    assert drawn.hand(0) == (card("S1"),)
    # Player 1: a face-up S1 is a max_value card: TECH; the tech draw is one more event.
    teched = apply(apply(drawn, Construct(card("S1"), cell(0, "S"))), DrawTech())
    assert teched.rng_state == state_after(9, 4)
    assert teched.tech_hand(1) == frozenset({Tech.ACCUMULATOR})
    assert teched.phase is Phase.DRAW


def test_r8_a_seeded_state_is_never_in_chance_and_deal_is_never_legal() -> None:
    state = new_game(seed=3)
    assert state.phase is Phase.ACTION
    assert not any(isinstance(m, Deal | DealTech) for m in legal_moves(state))
    with pytest.raises(IllegalMoveError):
        apply(state, Deal(state.deck[0]))
    after = apply(state, Discard(state.hand(0)[0]))
    with pytest.raises(IllegalMoveError):
        apply(after, Deal(state.deck[0]))
    assert apply(after, DrawFromDeck()).phase is Phase.ACTION


def test_r32_reference_mask_is_64_bits() -> None:
    assert MASK == 2**64 - 1
    assert ref_pick([("a", 1), ("b", 0), ("c", 2)], 1) == "c"
