"""Players (issue 6): the protocol, legality, reproducibility, no cheating, configuration."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from hatsuden_rules import (
    STANDARD,
    Construct,
    DrawTech,
    GameState,
    InvalidInputError,
    Phase,
    Rules,
    SplitMix64,
    Tech,
    apply,
    legal_moves,
    legal_moves_from,
    new_game,
    observe,
    sample_state,
    score,
)
from hatsuden_rules.players import (
    PLAYERS,
    GreedyPlayer,
    ISMCTSPlayer,
    Player,
    RandomPlayer,
    make_player,
)
from hatsuden_rules.players._heuristics import (
    _OUTLOOK_WEIGHT,
    city_outlook,
    evaluate,
    outlook,
    prices,
    rollout_move,
)

FAST_ISMCTS = ISMCTSPlayer(iterations=12)
BOTS: list[Player] = [RandomPlayer(), GreedyPlayer(), FAST_ISMCTS]


def positions(games: int, *, rules: Rules = STANDARD, every: int = 1) -> Iterator[GameState]:
    """Decision points of random seeded games (never CHANCE, never over)."""
    rng = random.Random(7)
    for seed in range(games):
        state = new_game(seed=seed, rules=rules)
        k = 0
        while not state.is_over:
            if k % every == 0:
                yield state
            k += 1
            state = apply(state, rng.choice(legal_moves(state)))


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: type(b).__name__)
def test_players_follow_the_protocol_and_play_legal_moves(bot: Player) -> None:
    assert isinstance(bot, Player)
    for n, state in enumerate(positions(3, every=3)):
        seen = observe(state, state.current_player)
        moves = legal_moves_from(seen)
        move = bot.choose(seen, moves, SplitMix64.from_seed(n))
        assert move in moves


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: type(b).__name__)
def test_players_are_reproducible_for_a_generator(bot: Player) -> None:
    for n, state in enumerate(positions(2, every=5)):
        seen = observe(state, state.current_player)
        moves = legal_moves_from(seen)
        rng = SplitMix64.from_seed(1000 + n)
        assert bot.choose(seen, moves, rng) == bot.choose(seen, moves, rng)


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: type(b).__name__)
def test_players_cannot_tell_states_with_the_same_observation_apart(bot: Player) -> None:
    # No cheating: a state with other hidden cards but the same observation gets the same move.
    for n, state in enumerate(positions(2, every=4)):
        me = state.current_player
        seen = observe(state, me)
        other = sample_state(seen, SplitMix64.from_seed(n))
        assert observe(other, me) == seen
        rng = SplitMix64.from_seed(n)
        moves = legal_moves(other)
        assert bot.choose(observe(other, me), moves, rng) == bot.choose(seen, moves, rng)


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: type(b).__name__)
def test_players_work_under_reduced_rules(bot: Player) -> None:
    rules = Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=5)
    for n, state in enumerate(positions(2, rules=rules, every=2)):
        seen = observe(state, state.current_player)
        assert bot.choose(seen, legal_moves(state), SplitMix64.from_seed(n)) in legal_moves(state)


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: type(b).__name__)
def test_players_validate_their_arguments(bot: Player) -> None:
    state = new_game(seed=1)
    seen = observe(state, 0)
    moves = legal_moves(state)
    rng = SplitMix64.from_seed(1)
    with pytest.raises(InvalidInputError) as error:
        bot.choose(state, moves, rng)  # type: ignore[arg-type]
    assert error.value.field == "observation"
    with pytest.raises(InvalidInputError) as error:
        bot.choose(seen, (), rng)
    assert error.value.field == "legal_moves"
    with pytest.raises(InvalidInputError) as error:
        bot.choose(seen, "C S1 0S", rng)  # type: ignore[arg-type]
    assert error.value.field == "legal_moves"
    for wrong in (5.0, True, "5", None):  # an int seed is accepted; not these
        with pytest.raises(InvalidInputError) as error:
            bot.choose(seen, moves, wrong)  # type: ignore[arg-type]
        assert error.value.field == "rng"
    with pytest.raises(InvalidInputError) as error:
        bot.choose(observe(state, 1), moves, rng)  # not player 1's turn
    assert error.value.field == "observation"


@pytest.mark.parametrize(
    "bot",
    [RandomPlayer(), GreedyPlayer(), FAST_ISMCTS],
    ids=lambda b: type(b).__name__,
)
def test_an_int_seed_is_the_generator_it_seeds(
    bot: RandomPlayer | GreedyPlayer | ISMCTSPlayer,
) -> None:
    # Issue 13: choose(observation, legal_moves, rng) takes an int seed too.
    for n, state in enumerate(positions(2, every=15)):
        if len(legal_moves(state)) < 2:
            continue
        seen = observe(state, state.current_player)
        moves = legal_moves(state)
        for seed in (n, -n - 1, 2**70 + n):
            assert bot.choose(seen, moves, seed) == bot.choose(
                seen, moves, SplitMix64.from_seed(seed)
            )


def test_a_single_legal_move_is_played_at_once() -> None:
    for state in positions(2):
        moves = legal_moves(state)
        if len(moves) == 1:
            seen = observe(state, state.current_player)
            for bot in BOTS:
                assert bot.choose(seen, moves, SplitMix64.from_seed(0)) == moves[0]
            return
    pytest.fail("no forced move found")  # pragma: no cover


def test_random_player_uses_one_output_of_the_generator() -> None:
    state = new_game(seed=4)
    seen, moves = observe(state, 0), legal_moves(state)
    rng = SplitMix64.from_seed(99)
    assert RandomPlayer().choose(seen, moves, rng) == moves[rng.next()[0] % len(moves)]


def test_greedy_and_ismcts_always_draw_a_tech_card() -> None:
    for state in positions(30):
        if state.phase is Phase.TECH and DrawTech() in legal_moves(state):
            seen = observe(state, state.current_player)
            for bot in (GreedyPlayer(), FAST_ISMCTS):
                assert bot.choose(seen, legal_moves(state), SplitMix64(1)) == DrawTech()
            return
    pytest.fail("no TECH phase found")  # pragma: no cover


def test_bots_never_spend_secret_build() -> None:
    for n, state in enumerate(positions(40)):
        if Tech.SECRET_BUILD in state.tech_hand(state.current_player) and state.phase is (
            Phase.ACTION
        ):
            seen = observe(state, state.current_player)
            for bot in (GreedyPlayer(), FAST_ISMCTS):
                move = bot.choose(seen, legal_moves(state), SplitMix64(n))
                assert not (isinstance(move, Construct) and move.secret)
            return
    pytest.fail("no position with Secret Build found")  # pragma: no cover


def test_ismcts_configuration_is_validated_eagerly() -> None:
    for field, value in [
        ("iterations", 0),
        ("iterations", 1.5),
        ("time_limit", 0),
        ("time_limit", float("nan")),
        ("time_limit", "1"),
        ("exploration", -0.1),
        ("exploration", float("inf")),
        ("rollout_turns", -1),
        ("temperature", 0),
        ("prior_visits", -1),
    ]:
        with pytest.raises(InvalidInputError) as error:
            ISMCTSPlayer(**{field: value})  # type: ignore[arg-type]
        assert error.value.field == field
        assert isinstance(error.value, ValueError)
    with pytest.raises(TypeError):
        ISMCTSPlayer(100)  # type: ignore[call-arg]  # keyword-only options


def test_ismcts_time_limit_bounds_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # A clock that moves 0.01 s at each reading: a limit of 0.05 s ends the search after a few
    # iterations of the 200 allowed, whatever the machine's speed (no wall time is read).
    ticks: list[float] = []

    def clock() -> float:
        ticks.append(0.01 * len(ticks))
        return ticks[-1]

    monkeypatch.setattr("hatsuden_rules.players._ismcts.time.perf_counter", clock)
    state = new_game(seed=2)
    seen = observe(state, 0)
    bot = ISMCTSPlayer(iterations=200, time_limit=0.05)
    assert bot.choose(seen, legal_moves(state), SplitMix64(3)) in legal_moves(state)
    # One reading for the deadline, then one before each iteration after the first: the search
    # stops at the first reading past the deadline (0.06 s), the seventh.
    assert len(ticks) == 7


def test_ismcts_plays_different_moves_for_different_generators() -> None:
    # Seeded, but not constant: over several generators the search does not always agree.
    state = new_game(seed=9)
    seen = observe(state, 0)
    bot = ISMCTSPlayer(iterations=5)
    choices = {bot.choose(seen, legal_moves(state), SplitMix64(k)) for k in range(12)}
    assert len(choices) > 1


def test_make_player_builds_players_from_specs() -> None:
    assert make_player("random") == RandomPlayer()
    assert make_player("Greedy") == GreedyPlayer()
    assert make_player("ismcts") == ISMCTSPlayer()
    bot = make_player("ismcts:iterations=50:time_limit=none:exploration=1:temperature=2.5")
    assert bot == ISMCTSPlayer(iterations=50, exploration=1, temperature=2.5)
    assert sorted(PLAYERS) == ["greedy", "ismcts", "random"]


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ("minimax", "player"),
        ("greedy:depth=2", "player"),
        ("ismcts:iterations", "player"),
        ("ismcts:iterations=lots", "player"),
        ("ismcts:iterations=0", "iterations"),
        ("ismcts:exploration=-1", "exploration"),
    ],
)
def test_make_player_refuses_bad_specs(spec: str, field: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        make_player(spec)
    assert error.value.field == field


def test_an_unknown_player_field_is_named_with_a_suggestion() -> None:
    """Issue 23: not "'iteration=5' is not FIELD=VALUE" (it is; the field is unknown)."""
    with pytest.raises(InvalidInputError) as error:
        make_player("ismcts:iteration=5")
    message = str(error.value)
    assert "unknown field 'iteration' for ismcts: did you mean iterations?" in message
    assert "not FIELD=VALUE" not in message
    with pytest.raises(InvalidInputError, match="'iterations' is not FIELD=VALUE"):
        make_player("ismcts:iterations")


def test_make_player_refuses_a_non_string() -> None:
    with pytest.raises(InvalidInputError):
        make_player(3)  # type: ignore[arg-type]


# -- the heuristics the bots share ---------------------------------------------------------------


def test_city_outlook() -> None:
    assert city_outlook(10, 0, 10, 4) == 1
    assert city_outlook(9, 0, 10, 4) == 0
    assert city_outlook(11, 0, 10, 4) == 0
    assert city_outlook(8, 0, 10, 4) == -1
    assert city_outlook(10, 2, 10, 4) == 0.8
    assert city_outlook(6, 1, 10, 4) == pytest.approx(0.35)  # one card from the demand
    assert city_outlook(2, 2, 10, 4) == pytest.approx(0.15)  # two cards
    assert city_outlook(5, 1, 10, 4) == -0.3  # 9 is still within reach: no penalty
    assert city_outlook(4, 1, 10, 4) == -0.9  # 8 at best


def test_outlook_is_antisymmetric_and_exact_at_the_end() -> None:
    for state in positions(3, every=7):
        assert outlook(state, 0) == pytest.approx(-outlook(state, 1))
    rng = random.Random(1)
    state = new_game(seed=5)
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
    sheet = score(state)
    assert outlook(state, 0) == sheet.players[0].total - sheet.players[1].total


def test_rollout_policy_plays_legal_moves_everywhere() -> None:
    # The policy builds ACTION moves from the hand and the board without legal_moves: check it.
    for rules in (STANDARD, Rules(energies=2, max_value=3, copies=2, hand_size=2, city_demand=4)):
        for n, state in enumerate(positions(25, rules=rules)):
            assert rollout_move(state, n * 0x9E3779B97F4A7C15 & (2**64 - 1)) in legal_moves(state)


def test_evaluate_is_the_provisional_margin_plus_some_outlook() -> None:
    for state in positions(3, every=5):
        for player in (0, 1):
            sheet = score(state)
            margin = sheet.players[player].total - sheet.players[1 - player].total
            expected = margin + _OUTLOOK_WEIGHT * outlook(state, player)
            assert abs(evaluate(state, player) - expected) in (
                pytest.approx(0.2),  # equal city points: ties go to player 1
                pytest.approx(0.4),  # or to the leader of tie-break 1
            )


def test_prices_are_the_change_of_the_evaluation() -> None:
    # Building or improving without a tech draw or an overflow: the price is exact.
    checked = 0
    for state in positions(4, every=2):
        if state.phase is not Phase.ACTION:
            continue
        me = state.current_player

        def value(state: GameState, me: int = me) -> float:
            sheet = score(state)
            margin = sheet.players[me].total - sheet.players[1 - me].total
            return margin + _OUTLOOK_WEIGHT * outlook(state, me)

        before = value(state)
        moves = [
            m
            for m in legal_moves(state)
            if type(m).__name__ in ("Construct", "Improve") and not getattr(m, "secret", False)
        ]
        for move, price in zip(moves, prices(state, moves), strict=True):
            after = apply(state, move)
            if after.phase is Phase.DRAW and after.tech_hand(me) == state.tech_hand(me):
                assert price == pytest.approx(value(after) - before)
                checked += 1
    assert checked > 100
