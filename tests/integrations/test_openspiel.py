"""The OpenSpiel adapter: action ids, legality, chance, information states, parameters, bounds."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from fractions import Fraction
from typing import Any

import attrs
import pyspiel
import pytest

import hatsuden_rules.openspiel as hos
from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Card,
    Cell,
    Deal,
    Energy,
    IllegalMoveError,
    InvalidInputError,
    InvalidMoveError,
    InvalidRulesError,
    Phase,
    Rules,
    Tech,
    Tiebreak,
    action_to_move,
    apply,
    chance_outcomes,
    legal_moves,
    move_sort_key,
    move_to_action,
    new_game,
    num_chance_outcomes,
    num_distinct_actions,
    observation_tensor,
    observe,
)
from hatsuden_rules.actions import chance_moves, player_moves
from hatsuden_rules.modelcheck import CONFIGS, check
from hatsuden_rules.notation import format_move, format_observation
from hatsuden_rules.openspiel import game_string, max_chance_nodes, max_game_length
from tests.integrations.test_openspiel_suites import SMALLEST
from tests.support.paths import GOLDEN_DIR

SEVERAL = {
    "standard": STANDARD,
    "smallest": SMALLEST,
    **CONFIGS,
    "supply": Rules(
        energies=3,
        max_value=3,
        copies=1,
        hand_size=3,
        city_demand=4,
        techs={Tech.SECRET_BUILD, Tech.DOWN},
        tiebreak=Tiebreak.SUPPLY,
        allow_retake_discard=False,
        stall_limit=5,
    ),
}
GOLDEN = json.loads((GOLDEN_DIR / "modelcheck.json").read_text())


def _random_game(game: Any, seed: int) -> list[Any]:
    """The states of one game played uniformly at random (chance by its probabilities)."""
    import random

    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


# -- action ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SEVERAL))
def test_action_table_is_a_bijection_in_canonical_order(name: str) -> None:
    """Ids 0..n-1 name n distinct moves, in the canonical order (R34); chance ids likewise."""
    rules = SEVERAL[name]
    moves = player_moves(rules)
    assert len(set(moves)) == len(moves) == num_distinct_actions(rules)
    assert list(moves) == sorted(moves, key=move_sort_key)
    for action, move in enumerate(moves):
        assert move_to_action(rules, move) == action
        assert action_to_move(rules, action) == move
    outcomes = chance_moves(rules)
    assert len(outcomes) == num_chance_outcomes(rules) == len(rules.cards) + len(rules.techs)
    assert list(outcomes) == sorted(outcomes, key=move_sort_key)
    for outcome, move in enumerate(outcomes):
        assert move_to_action(rules, move) == outcome
        assert action_to_move(rules, outcome, chance=True) == move


def test_every_reachable_move_has_an_id() -> None:
    """Every legal move of every reachable state of the small configuration has an id."""
    rules = CONFIGS["small"]
    table = set(player_moves(rules)) | set(chance_moves(rules))
    seen: set[Any] = set()
    frontier = [new_game(rules=rules)]
    visited = set(frontier)
    while frontier:
        state = frontier.pop()
        for move in legal_moves(state):
            seen.add(move)
            child = apply(state, move)
            if child not in visited:
                visited.add(child)
                frontier.append(child)
    assert seen <= table
    assert len(visited) == GOLDEN["configs"]["small"]["states"]


def test_moves_without_their_tech_card_have_no_id() -> None:
    rules = Rules(techs=())
    card, cell = Card(Energy.SOLAR, 1), Cell(0, Energy.SOLAR)
    from hatsuden_rules import Construct, DrawTech, PlaceSmart

    for move in (Construct(card, cell, secret=True), DrawTech(), PlaceSmart(Energy.WIND)):
        with pytest.raises(InvalidMoveError, match="no action id"):
            move_to_action(rules, move)
    # No secret Construct (20 cards x 2 rows), Downsize (40), DrawTech/DeclineTech, placements.
    assert num_distinct_actions(rules) == 422 - 40 - 40 - 2 - 2 - 5


def test_bad_ids_and_moves_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="action"):
        action_to_move(STANDARD, num_distinct_actions(STANDARD))
    with pytest.raises(InvalidInputError, match="action"):
        action_to_move(STANDARD, -1)
    with pytest.raises(InvalidInputError, match="action"):
        action_to_move(STANDARD, True)
    with pytest.raises(InvalidInputError, match="chance outcome"):
        action_to_move(STANDARD, 24, chance=True)
    with pytest.raises(InvalidMoveError):
        move_to_action(STANDARD, "DD")  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):  # R1: BIOMASS is not in play with two energies
        move_to_action(Rules(energies=2), Deal(Card(Energy.BIOMASS, 1)))
    with pytest.raises(InvalidInputError, match="rules"):
        num_distinct_actions("STANDARD")  # type: ignore[arg-type]


def test_numpy_integers_are_ids() -> None:
    import numpy as np

    assert action_to_move(STANDARD, np.int64(0)) == player_moves(STANDARD)[0]


# -- legal actions, chance, returns -------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "small", "large"])
def test_legal_actions_are_legal_moves_mapped(name: str) -> None:
    """legal_actions() is legal_moves() through the table, strictly ascending (R34)."""
    rules = SEVERAL[name]
    game = hos.load_game(rules)
    for seed in range(3):
        for state in _random_game(game, seed):
            library = state.game_state
            if state.is_chance_node():
                assert state.current_player() == pyspiel.PlayerId.CHANCE
                expected = [move_to_action(rules, m) for m, _ in chance_outcomes(library)]
                assert state.legal_actions() == expected
                # R6: probabilities are the library's exact fractions.
                outcomes = dict(state.chance_outcomes())
                for move, p in chance_outcomes(library):
                    assert outcomes[move_to_action(rules, move)] == float(p)
                assert sum(Fraction(p) for p in outcomes.values()) == pytest.approx(1)
            elif state.is_terminal():
                assert library.phase is Phase.GAME_OVER
                assert state.legal_actions() == []
                assert sorted(state.returns()) == [-1.0, 1.0]
            else:
                assert state.current_player() == library.current_player
                expected = [move_to_action(rules, m) for m in legal_moves(library)]
                assert state.legal_actions() == expected
                assert expected == sorted(set(expected))
                other = 1 - library.current_player
                assert state.legal_actions(other) == []
                assert state.returns() == [0.0, 0.0]
                for action in expected:
                    text = state.action_to_string(library.current_player, action)
                    assert text == format_move(action_to_move(rules, action))


def test_an_illegal_action_raises_the_library_error() -> None:
    """Python games get no legality check from OpenSpiel: `apply` refuses (R35)."""
    game = hos.load_game(STANDARD)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert move_to_action(STANDARD, player_moves(STANDARD)[-1]) not in state.legal_actions()
    with pytest.raises(IllegalMoveError):
        state.apply_action(num_distinct_actions(STANDARD) - 1)


def test_returns_follow_the_score() -> None:
    from hatsuden_rules import score

    game = hos.load_game(CONFIGS["small"])
    for seed in range(20):
        final = _random_game(game, seed)[-1]
        winner = score(final.game_state).winner
        assert final.returns()[winner] == 1.0
        assert final.returns()[1 - winner] == -1.0


# -- information states -------------------------------------------------------------------------


def _state_after(game: Any, moves: list[Any]) -> Any:
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(move_to_action(game.rules, move))
    return state


def test_twin_histories_that_differ_in_hidden_cards_look_the_same() -> None:
    """R30, R37: the opponent's deal, pylon card and draw are hidden; the owner sees them."""
    rules = Rules(energies=2, max_value=2, copies=2, hand_size=2, techs=())
    game = hos.load_game(rules)
    s1, s2, w1, w2 = (Card(e, v) for e in (Energy.SOLAR, Energy.GEOTHERMAL) for v in (1, 2))
    pylon = Cell(1, Energy.SOLAR)
    from hatsuden_rules import DrawFromDeck, Pass

    del Pass
    one = [Deal(s1), Deal(s2), Deal(w1), Deal(w1), BuildPylon(s1, pylon), DrawFromDeck(), Deal(w2)]
    two = [Deal(s1), Deal(s2), Deal(w1), Deal(w2), BuildPylon(s2, pylon), DrawFromDeck(), Deal(s1)]
    # Player 0 holds (s1, s2) in both: they built s1 or s2 as a pylon and drew w2 or s1: their
    # own view differs. Player 1 received w1+w1 or w1+w2: their view differs too. So build twins
    # for player 1's opponent view instead: the same for player 1, different for player 0.
    a, b = _state_after(game, one), _state_after(game, two)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    three = [
        Deal(s1),
        Deal(s2),
        Deal(w1),
        Deal(w1),
        BuildPylon(s2, pylon),
        DrawFromDeck(),
        Deal(s1),
    ]
    c = _state_after(game, three)
    # `one` and `three` differ only in player 0's pylon card and draw: hidden from player 1.
    assert a.information_state_string(1) == c.information_state_string(1)
    assert list(a.information_state_tensor(1)) == list(c.information_state_tensor(1))
    assert a.information_state_string(0) != c.information_state_string(0)
    assert list(a.information_state_tensor(0)) != list(c.information_state_tensor(0))
    assert a.game_state != c.game_state


def _check_information_states(rules: Rules) -> int:
    """Walk every history; equal strings must have equal tensors and observations."""
    game = hos.load_game(rules)
    by_string: dict[tuple[int, str], tuple[Any, Any]] = {}
    histories = 0

    def walk(state: Any) -> None:
        nonlocal histories
        histories += 1
        if not state.is_chance_node():
            for player in (0, 1):
                key = (player, state.information_state_string(player))
                seen = (
                    observe(state.game_state, player),
                    tuple(state.information_state_tensor(player)),
                )
                assert by_string.setdefault(key, seen) == seen, key
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    return histories


@pytest.mark.parametrize(
    "rules",
    [
        SMALLEST,
        Rules(
            energies=1,
            max_value=2,
            copies=2,
            hand_size=1,
            city_demand=1,
            techs={Tech.SECRET_BUILD, Tech.DOWN},
            stall_limit=1,
        ),
    ],
    ids=["smallest", "secret-build"],
)
def test_information_state_is_exactly_what_the_player_saw(rules: Rules) -> None:
    """Over every history of small configurations (R36, R37): histories with equal information
    strings have equal tensors and equal current observations (`observe`)."""
    assert _check_information_states(rules) > 1000


def test_information_state_strings_read_as_moves() -> None:
    game = hos.load_game(SMALLEST)
    state = _state_after(game, [Deal(Card(Energy.SOLAR, 1)), Deal(Card(Energy.SOLAR, 3))])
    assert state.information_state_string(0) == "p0: =S1, =?,"
    assert state.information_state_string(1) == "p1: =?, =S3,"
    assert state.observation_string(0) == format_observation(observe(state.game_state, 0))
    assert list(state.observation_tensor(1)) == list(
        observation_tensor(observe(state.game_state, 1))
    )


def test_terminal_information_state_shows_the_final_observation() -> None:
    """R26: at the end, the observation (with revealed secret cards) joins the record."""
    game = hos.load_game(SMALLEST)
    final = _random_game(game, 3)[-1]
    for player in (0, 1):
        text = final.information_state_string(player)
        assert text.endswith(f"[{format_observation(observe(final.game_state, player))}]")


# -- cloning, serialisation, resampling ---------------------------------------------------------


def test_clone_shares_the_immutable_state() -> None:
    game = hos.load_game(STANDARD)
    state = _random_game(game, 1)[40]
    clone = state.clone()
    assert clone.game_state is state.game_state
    assert clone.history() == state.history()
    assert clone.information_state_string(0) == state.information_state_string(0)
    action = (
        clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0]
    )
    clone.apply_action(action)
    assert clone.game_state is not state.game_state  # the original is untouched


def test_serialisation_and_pickling_round_trip() -> None:
    game = hos.load_game(SEVERAL["supply"])
    state = _random_game(game, 2)[25]
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.game_state == state.game_state
    assert state2.history() == state.history()
    assert state2.information_state_string(1) == state.information_state_string(1)
    game3 = pickle.loads(pickle.dumps(game))
    assert game3.rules == game.rules
    state3 = pickle.loads(pickle.dumps(state))
    assert state3.game_state == state.game_state
    assert state3.information_state_string(0) == state.information_state_string(0)


def test_resample_from_infostate_keeps_the_player_s_view() -> None:
    """R38: sample_state as OpenSpiel's resampler; the sample is in explicit chance mode."""
    game = hos.load_game(STANDARD)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in _random_game(game, 5)[12::17]:
        if state.is_chance_node() or state.is_terminal():
            continue
        for player in (0, 1):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert observe(other.game_state, player) == observe(state.game_state, player)
            assert other.current_player() == state.current_player()
            assert not other.game_state.is_seeded


# -- parameters ---------------------------------------------------------------------------------


def test_every_rules_field_is_a_parameter_with_its_default() -> None:
    fields = [f.name for f in attrs.fields(Rules) if f.init]
    assert [p.name for p in hos.PARAMETERS] == fields
    spec = pyspiel.load_game("python_hatsuden").get_type().parameter_specification
    defaults = hos.parameters_from_rules(Rules())
    assert {name: spec[name] for name in fields} == defaults
    assert hos.rules_from_parameters({}) == Rules()


@pytest.mark.parametrize("name", sorted(SEVERAL))
def test_game_strings_round_trip(name: str) -> None:
    rules = SEVERAL[name]
    game = pyspiel.load_game(game_string(rules))
    assert game.rules == rules
    assert pyspiel.load_game(str(game)).rules == rules
    assert game.num_distinct_actions() == num_distinct_actions(rules)
    assert game.max_chance_outcomes() == num_chance_outcomes(rules)
    assert game.max_game_length() == max_game_length(rules)


def test_the_issue_s_game_string_loads() -> None:
    game = pyspiel.load_game(
        "python_hatsuden(energies=2,max_value=2,copies=1,hand_size=1,city_demand=2,"
        "techs=ACCUMULATOR+SMART,tiebreak=SUPPLY,allow_retake_discard=False,stall_limit=3)"
    )
    assert game.rules == Rules(
        energies=2,
        max_value=2,
        copies=1,
        hand_size=1,
        city_demand=2,
        techs={Tech.ACCUMULATOR, Tech.SMART},
        tiebreak=Tiebreak.SUPPLY,
        allow_retake_discard=False,
        stall_limit=3,
    )


@pytest.mark.parametrize(
    ("parameters", "field"),
    [
        ("energies=6", "energies"),
        ("max_value=12", "max_value"),
        ("hand_size=30", "hand_size"),
        ("techs=FOO", "techs"),
        ("techs=SMART+SMART", "techs"),
        ("tiebreak=city_points", "tiebreak"),
        ("stall_limit=-1", "stall_limit"),
        ("stall_limit=0", "stall_limit"),
    ],
)
def test_bad_parameter_values_raise_the_library_error(parameters: str, field: str) -> None:
    with pytest.raises(InvalidRulesError, match=f"^{field}: "):
        pyspiel.load_game(f"python_hatsuden({parameters})")


def test_no_stall_rule_is_refused_naming_r25() -> None:
    with pytest.raises(InvalidRulesError, match="R25"):
        pyspiel.load_game("python_hatsuden(stall_limit=0)")


def test_wrong_parameter_types_and_names_are_refused_by_openspiel() -> None:
    with pytest.raises(pyspiel.SpielError, match="Expected type: kInt"):
        pyspiel.load_game("python_hatsuden(energies=two)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colours'"):
        pyspiel.load_game("python_hatsuden(colours=2)")
    with pytest.raises(InvalidRulesError, match=r"^colours: unknown parameter"):
        hos.HatsudenGame({"colours": 2})
    with pytest.raises(InvalidRulesError, match=r"^energies: must be an int"):
        hos.HatsudenGame({"energies": "2"})


# -- the length bound ---------------------------------------------------------------------------


def _longest_player_moves(rules: Rules) -> int:
    """The most player moves of any game (longest path of the state graph, chance not counted)."""
    memo: dict[Any, int] = {}

    def longest(state: Any) -> int:
        if state in memo:
            return memo[state]
        step = 0 if state.phase is Phase.CHANCE else 1
        best = max((longest(apply(state, m)) + step for m in legal_moves(state)), default=0)
        memo[state] = best
        return best

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    return longest(new_game(rules=rules))


def test_max_game_length_bounds_the_longest_games() -> None:
    """The derived bound covers the model checker's longest games (R25)."""
    small = CONFIGS["small"]
    result = check(small)
    assert result.longest_game is not None
    assert result.longest_game == GOLDEN["configs"]["small"]["longest_game"]
    assert result.longest_game <= max_game_length(small) + max_chance_nodes(small)
    for name in ("medium", "large"):
        rules = CONFIGS[name]
        longest = GOLDEN["configs"][name]["longest_game"]  # chance outcomes included
        assert longest <= max_game_length(rules) + max_chance_nodes(rules)
    for rules in (SMALLEST, small):
        assert _longest_player_moves(rules) <= max_game_length(rules)
    assert max_game_length(STANDARD) == 2 * 20 * 41 + 40 + 20 + 2
    assert max_chance_nodes(STANDARD) == 44


def test_max_game_length_needs_a_stall_rule() -> None:
    with pytest.raises(InvalidRulesError, match="R25"):
        max_game_length(Rules(stall_limit=None))


# -- packaging ----------------------------------------------------------------------------------


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_the_core_imports_no_framework() -> None:
    done = _run(
        "import sys, hatsuden_rules\n"
        "bad = {'pyspiel', 'numpy', 'pettingzoo', 'gymnasium', 'open_spiel'} & set(sys.modules)\n"
        "print(sorted(bad))"
    )
    assert done.stdout.strip() == "[]", done.stderr


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("hatsuden_rules.openspiel", "pyspiel", "openspiel"),
        ("hatsuden_rules.openspiel", "numpy", "openspiel"),
        ("hatsuden_rules.pettingzoo", "pettingzoo", "pettingzoo"),
        ("hatsuden_rules.pettingzoo", "gymnasium", "pettingzoo"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(module: str, blocked: str, extra: str) -> None:
    done = _run(f"import sys; sys.modules[{blocked!r}] = None; import {module}")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        f"ImportError: {module} needs the '{extra}' extra: pip install 'hatsuden-rules[{extra}]'"
    )


def test_rl_environment_plays_a_game() -> None:
    """OpenSpiel's rl_environment (what its RL agents use) runs on the game as it is."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment(hos.load_game(CONFIGS["small"]), seed=3)
    step = environment.reset()
    size = len(step.observations["info_state"][0])
    assert size == environment.game.information_state_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        step = environment.step([step.observations["legal_actions"][player][0]])
    assert sorted(step.rewards) == [-1.0, 1.0]


def test_cpp_and_python_nash_conv_agree() -> None:
    """A C++ algorithm reads the Python game through the API: the same NashConv as Python's."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game = hos.load_game(SMALLEST)
    cpp = pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game))
    python = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert cpp == pytest.approx(python)
    assert python > 1  # the uniform policy is far from an equilibrium
