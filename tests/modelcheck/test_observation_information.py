"""Exhaustive hidden-information proofs (R30, R36-R38) over reduced configurations.

`hatsuden_rules.modelcheck.information` visits every reachable state of a configuration and, for
both players, checks non-interference (no change of what a player cannot know changes their
observation), information sets (equal observations, equal legal moves) and sampling (a sample
gives its observation back and is a consistent, reachable state). `make test` runs it on the
small configuration completely and on the states of "small-secret" where a secret card or a tech
card is hidden; `make verify` runs the medium configuration (`python -m
hatsuden_rules.modelcheck.information --config medium --golden tests/golden/information.json`).
The tech-timing variant (R40) has its own file, test_information_place_at_once.py (so that it
runs beside this one on another pytest-xdist worker).

The checker is itself tested: deliberately leaky observers must be caught (non-vacuity), public
information must not be flagged, and `consistency_problems` must reject broken states.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest

from hatsuden_rules import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    Discard,
    DrawFromDeck,
    DrawTech,
    GameState,
    Rules,
    Tech,
    new_game,
    observe,
)
from hatsuden_rules.cli import _information as information_command
from hatsuden_rules.core.encoding import SECRET
from hatsuden_rules.modelcheck import information
from hatsuden_rules.modelcheck.information import (
    INFORMATION_CONFIGS,
    InformationReport,
    check_information,
    consistency_problems,
    explore,
    information_sets,
    non_interference,
    perturbations,
    sampling,
)
from tests.observation.test_observation import (
    RULES,
    SECRET_FIRST,
    secret_flipped,
    secret_improved,
    secret_in_a_full_row,
    secret_on_top,
)
from tests.support.paths import GOLDEN_DIR
from tests.support.scripting import card, cards, cell, deal, draw, idle, play

GOLDEN: dict[str, dict[str, Any]] = json.loads((GOLDEN_DIR / "information.json").read_text())[
    "configs"
]


@cache
def explored(name: str) -> tuple[str, tuple[GameState, ...], frozenset[GameState]]:
    verdict, states = explore(INFORMATION_CONFIGS[name])
    return verdict, tuple(states), frozenset(states)


@cache
def small_report() -> InformationReport:
    verdict, states, _ = explored("small")
    seeds = tuple(GOLDEN["small"]["seeds"])
    return check_information(
        INFORMATION_CONFIGS["small"], seeds=seeds, states=states, verdict=verdict
    )


def secret_or_new_tech(state: GameState) -> bool:
    """A secret card is on a board, or a tech card was just drawn (the last move is a DealTech).

    These are the states where "small-secret" adds to "small" (the secret card, the tech card
    and its logged draw are hidden from the opponent); all its states are checked by `make
    verify`, these 6,604 of 43,141 by `make test`.
    """
    if any(raw and raw[0] & SECRET for board in state._boards for raw in board):
        return True
    return bool(state.this_turn) and isinstance(state.this_turn[-1], DealTech)


@cache
def secret_states() -> tuple[GameState, ...]:
    _, states, _ = explored("small-secret")
    return tuple(state for state in states if secret_or_new_tech(state))


# -- the small configuration, completely -----------------------------------------------------------


def test_r30_r37_r38_every_check_holds_on_every_state_of_the_small_configuration() -> None:
    report = small_report()
    assert report.model_check == "OK"
    assert report.problems == ()
    assert report.problem_count == 0
    assert report.inconsistent_reachable == 0  # every reachable state passes the validator
    assert report.ok


def test_the_small_configuration_matches_its_golden_figures() -> None:
    assert small_report().golden() == GOLDEN["small"]


def test_the_small_check_is_not_vacuous() -> None:
    report = small_report()
    for kind in ("hand-deck", "pylon-deck", "pylon-hand", "pylon-pylon", "generator"):
        assert report.perturbations.get(kind, 0) > 0, kind
    # Every perturbed state of small is itself reachable: the perturbations are realistic.
    assert report.reachable_perturbations == sum(report.perturbations.values())
    # Some states are told apart only by hidden cards: information sets are not all singletons.
    assert min(report.largest_information_set) >= 2
    assert report.information_sets[0] < report.decision_states[0]
    assert report.samples == sum(report.observations) * len(report.seeds)
    assert report.unreachable_samples == 0  # every sample is a reachable state


# -- small-secret: the states where a secret or a tech card is hidden ------------------------------


def test_r30_no_change_of_a_hidden_secret_or_tech_card_changes_an_observation() -> None:
    _, _, reachable = explored("small-secret")
    result = non_interference(secret_states(), reachable=reachable)
    assert result.problems == ()
    for kind in ("secret-deck", "secret-hand", "tech", "dealtech-record", "hand-deck"):
        assert result.checked.get(kind, 0) > 0, kind
    # Some secret changes break a public bound (an Improve, a Downsize, a tech draw): skipped.
    assert result.skipped.get("secret-deck", 0) > 0


def test_r37_r38_information_sets_and_samples_of_hidden_secret_and_tech_cards() -> None:
    _, _, reachable = explored("small-secret")
    sets = information_sets(secret_states())
    assert sets.problems == ()
    assert min(sets.largest) >= 2
    samples = sampling(secret_states(), seeds=(0,), reachable=reachable)
    assert samples.problems == ()
    assert samples.samples > 5_000
    assert samples.unreachable == 0


# -- the checker catches leaks (non-vacuity) and raises no false alarm -----------------------------

Observer = Callable[[GameState, int], Hashable]

LEAKS: dict[str, Observer] = {
    "the opponent's hand": lambda s, p: (observe(s, p), s.hand(1 - p)),
    "one bit of the opponent's hand": lambda s, p: (observe(s, p), card("S2") in s.hand(1 - p)),
    "the deck": lambda s, p: (observe(s, p), s.deck),
    "the opponent's board as stored": lambda s, p: (observe(s, p), s.board(1 - p)),
    "the turn logs unconcealed": lambda s, p: (observe(s, p), s.this_turn, s.last_turn),
    "the generator": lambda s, p: (observe(s, p), s.rng_state),
    "the dealt cards of the logs": lambda s, p: (
        observe(s, p),
        tuple(m for m in (*s.this_turn, *s.last_turn) if isinstance(m, Deal)),
    ),
    "the pylon cards of the logs": lambda s, p: (
        observe(s, p),
        tuple(m for m in (*s.this_turn, *s.last_turn) if isinstance(m, BuildPylon)),
    ),
}

SECRET_LEAKS: dict[str, Observer] = {
    "the opponent's row supplies": lambda s, p: (
        observe(s, p),
        s.row_supply(1 - p, 0),
        s.row_supply(1 - p, 1),
    ),
    "the opponent's tech hand": lambda s, p: (observe(s, p), s.tech_hand(1 - p)),
    "the tech deck": lambda s, p: (observe(s, p), s.tech_deck),
    "the secret cards of the logs": lambda s, p: (
        observe(s, p),
        tuple(m for m in (*s.this_turn, *s.last_turn) if isinstance(m, Construct) and m.secret),
    ),
}

PUBLIC: dict[str, Observer] = {
    "the opponent's hand size": lambda s, p: (observe(s, p), s.hand_size(1 - p)),
    "the deck size": lambda s, p: (observe(s, p), s.deck_size),
    "the own rows": lambda s, p: (observe(s, p), s.row_supply(p, 0), s.row_supply(p, 1)),
    "the own hand": lambda s, p: (observe(s, p), s.hand(p), s.tech_hand(p)),
}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_a_leaky_observer_is_caught_on_the_small_configuration(name: str) -> None:
    _, states, _ = explored("small")
    result = non_interference(states, observer=LEAKS[name], stop_after=1)
    assert result.problem_count == 1
    assert result.problems[0].startswith("R30 leak")


@pytest.mark.parametrize("name", sorted(SECRET_LEAKS))
def test_a_leak_of_secret_or_tech_cards_is_caught(name: str) -> None:
    result = non_interference(secret_states(), observer=SECRET_LEAKS[name], stop_after=1)
    assert result.problem_count == 1
    kind = "tech" if "tech" in name else "secret"
    assert f"a {kind}" in result.problems[0]


def test_a_monkeypatched_leaky_observe_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky(state: GameState, player: int) -> Hashable:
        return attrs.evolve(observe(state, player), opponent_known=state.hand(1 - player))

    monkeypatch.setattr(information, "observe", leaky)
    _, states, _ = explored("small")
    result = non_interference(states, stop_after=3)
    assert result.problem_count == 3
    assert "(fields opponent_known)" in result.problems[0]


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_or_own_information_is_not_flagged(name: str) -> None:
    _, states, _ = explored("small")
    assert non_interference(states[::20], observer=PUBLIC[name]).problem_count == 0
    assert non_interference(secret_states()[::5], observer=PUBLIC[name]).problem_count == 0


def test_an_observer_that_hides_a_legal_move_difference_is_caught() -> None:
    # Grouping states by less than the mover knows merges states with different legal moves.
    _, states, _ = explored("small")
    forgetful = information_sets(states[:3000], observer=lambda s, p: (s.phase, s.current_player))
    assert forgetful.problem_count > 0


# -- the perturbations, by hand --------------------------------------------------------------------

#: 2,145 reachable states (the stall limit of 1 keeps them few).
TINY = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1, techs=(), stall_limit=1)


def test_r30_the_perturbations_of_a_hand_checked_position() -> None:
    state = deal(cards("S1"), cards("S2"), TINY)  # the deck holds S1 and S2
    kinds = [kind for kind, _ in perturbations(state, 0)]
    assert kinds == ["hand-deck", "generator"]
    changed = dict(perturbations(state, 0))["hand-deck"]
    assert (changed.hand(1), changed.deck, changed.hand(0)) == (
        (card("S1"),),
        tuple(cards("S2", "S2")),
        (card("S1"),),
    )
    # Player 0 builds S1 as a pylon and draws S2; player 1 sees neither.
    state = play(state, BuildPylon(card("S1"), cell(0, "S")), DrawFromDeck(), Deal(card("S2")))
    found = list(perturbations(state, 1))
    assert [kind for kind, _ in found] == ["hand-deck", "pylon-hand", "generator"]
    hand_deck, pylon_hand = found[0][1], found[1][1]
    assert pylon_hand.stack(0, cell(0, "S")).cards == (card("S2"),)  # type: ignore[union-attr]
    assert pylon_hand.hand(0) == (card("S1"),)
    assert pylon_hand.last_turn == (
        BuildPylon(card("S2"), cell(0, "S")),
        DrawFromDeck(),
        Deal(card("S1")),  # the dealt card followed the swap
    )
    assert (hand_deck.hand(0), hand_deck.deck) == ((card("S1"),), (card("S2"),))
    assert hand_deck.last_turn == (
        BuildPylon(card("S1"), cell(0, "S")),
        DrawFromDeck(),
        Deal(card("S1")),
    )
    # Player 0 sees player 1's S2 (dealt) and the deck's S1 as one unseen pair.
    assert [kind for kind, _ in perturbations(state, 0)] == ["hand-deck", "generator"]


def test_r36_a_swapped_dealt_card_may_stay_dealt_when_another_copy_is_unknown() -> None:
    rules = Rules(energies=1, max_value=3, copies=2, hand_size=2, city_demand=2, techs=())
    state = deal(cards("S1", "S3"), cards("S2", "S2"), rules)  # the deck: S1, S3
    state = play(state, Discard(card("S3")), DrawFromDeck(), Deal(card("S1")))
    assert (state.hand(0), state.deck) == (tuple(cards("S1", "S1")), (card("S3"),))
    found = list(perturbations(state, 1))
    assert [kind for kind, _ in found] == ["hand-deck", "hand-deck", "generator"]
    logs = {changed.last_turn[-1] for _, changed in found[:2]}
    assert logs == {Deal(card("S3")), Deal(card("S1"))}  # the dealt copy moved, or the other
    for _, changed in found[:2]:
        assert (changed.hand(0), changed.deck) == (tuple(cards("S1", "S3")), (card("S1"),))
        assert consistency_problems(changed) == []


def test_the_perturbed_states_equal_attrs_evolve() -> None:
    state = secret_on_top()
    for kind, changed in perturbations(state, 1):
        rebuilt = attrs.evolve(
            state,
            hands=changed._hands,
            deck=changed._deck,
            boards=changed._boards,
            tech_hands=changed._tech_hands,
            tech_deck=changed._tech_deck,
            rng=changed._rng,
            this_turn=changed._this_turn,
            last_turn=changed._last_turn,
        )
        assert rebuilt == changed, kind
        assert consistency_problems(changed) == [], kind


# -- consistency_problems rejects broken states (the validator is not vacuous) ---------------------


def _rules_of(problems: list[str]) -> set[str]:
    return {problem.split(":")[0] for problem in problems}


def test_consistency_accepts_honest_positions() -> None:
    for state in (secret_on_top(), secret_improved(), secret_flipped(), new_game(seed=4)):
        assert consistency_problems(state) == []


def test_consistency_rejects_a_lost_card_and_a_lost_tech_card() -> None:
    state = secret_on_top()
    assert "R2" in _rules_of(consistency_problems(attrs.evolve(state, deck=state._deck[1:])))
    tech_deck = state._tech_deck[1:]
    assert "R3" in _rules_of(consistency_problems(attrs.evolve(state, tech_deck=tech_deck)))


def test_consistency_rejects_a_known_card_missing_from_the_hand() -> None:
    state = secret_on_top()  # player 1 holds G1, G2 and is known to hold G1
    broken = attrs.evolve(
        state, known=(state._known[0], (state.rules._tables.card_index[card("S3")],))
    )
    assert "R36" in _rules_of(consistency_problems(broken))


def test_consistency_rejects_a_secret_card_that_breaks_a_public_bound() -> None:
    t = secret_improved().rules._tables
    improved = secret_improved()  # secret G2 under G3: a G4 cannot be under it (R12)
    board = list(improved._boards[0])
    board[1] = (board[1][0], t.card_index[card("G4")], *board[1][2:])
    broken = attrs.evolve(improved, boards=(tuple(board), improved._boards[1]))
    assert "R12, R13" in _rules_of(consistency_problems(broken))


def _secret_swapped(state: GameState, cell_index: int, new: str, log: str) -> GameState:
    """`state` with player 0's secret card at `cell_index` exchanged with a deck card `new`,
    its logged Construct (in `log`, "this_turn" or "last_turn") following it."""
    t = state.rules._tables
    board = list(state._boards[0])
    old = board[cell_index][1]
    board[cell_index] = (board[cell_index][0], t.card_index[card(new)], *board[cell_index][2:])
    deck = list(state._deck)
    deck.remove(t.card_index[card(new)])
    moves = tuple(
        Construct(card(new), m.cell, secret=True) if isinstance(m, Construct) and m.secret else m
        for m in getattr(state, log)
    )
    changed = attrs.evolve(
        state, boards=(tuple(board), state._boards[1]), deck=tuple(sorted((*deck, old)))
    )
    if log == "this_turn":
        return attrs.evolve(changed, this_turn=moves)
    return attrs.evolve(changed, last_turn=moves)


def test_consistency_rejects_a_row_over_its_tolerance_outside_tech_and_overflow() -> None:
    state = secret_in_a_full_row()  # row 0: G4 and a secret S1, 5 of 5; DRAW
    assert consistency_problems(state) == []
    assert _rules_of(consistency_problems(_secret_swapped(state, 0, "S2", "this_turn"))) == {"R9"}


def test_consistency_rejects_a_tech_draw_after_a_secret_card_below_the_top() -> None:
    state = play(deal(cards("S4", "G4"), cards("W4", "G1"), RULES), *SECRET_FIRST)
    state = idle(draw(state, card("W2")))
    secret = (Construct(card("G4"), cell(0, "G"), secret=True), DrawTech(), DealTech(Tech.DOWN))
    state = play(state, *secret)
    assert consistency_problems(state) == []
    assert _rules_of(consistency_problems(_secret_swapped(state, 1, "G2", "this_turn"))) == {"R17"}


def test_consistency_rejects_logs_that_disagree_with_the_state() -> None:
    state = secret_on_top()  # player 0's last turn: secret G3, DeclineTech, DrawFromDeck, Deal(W3)
    wrong_card = (Construct(card("G4"), cell(0, "G"), secret=True), *state._last_turn[1:])
    assert "R36" in _rules_of(consistency_problems(attrs.evolve(state, last_turn=wrong_card)))
    wrong_deal = (*state._last_turn[:-1], Deal(card("S3")))
    assert "R36" in _rules_of(consistency_problems(attrs.evolve(state, last_turn=wrong_deal)))
    tech_drawn = (*SECRET_FIRST[:2], DealTech(Tech.DOWN))  # Down is in the tech deck, not held
    early = play(deal(cards("S4", "G3"), cards("W4", "G1"), RULES), *SECRET_FIRST)
    broken = attrs.evolve(early, this_turn=tech_drawn)
    assert "R36" in _rules_of(consistency_problems(broken))
    pylon = deal(cards("W4", "G2"), cards("S1", "S3"), RULES)
    pylon = play(pylon, BuildPylon(card("W4"), cell(0, "S")))
    other = (BuildPylon(card("G2"), cell(0, "S")),)
    assert "R36" in _rules_of(consistency_problems(attrs.evolve(pylon, this_turn=other)))


def test_consistency_rejects_a_flip_that_was_not_needed() -> None:
    state = secret_flipped()  # row 0: S1, secret G3, W4 (8 of 7), then the G3 flipped
    assert consistency_problems(state) == []
    # With a G1 the row would have been 6 of 7: the logged Flip could not have happened.
    broken = _secret_swapped(state, 1, "G1", "last_turn")
    assert _rules_of(consistency_problems(broken)) == {"R21"}


# -- the command line ------------------------------------------------------------------------------


def test_the_command_line_runs_checks_and_compares_golden_figures(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command (`hatsuden_rules.cli._information`) reads the configurations it offers.
    monkeypatch.setattr(information_command, "INFORMATION_CONFIGS", {"tiny": TINY})
    assert information.main(["--config", "tiny", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["ok"] is True
    assert record["seeds"] == [0]
    figures = {key: value for key, value in record.items() if key not in ("ok", "seconds")}
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps({"configs": {"tiny": figures}}))
    assert information.main(["--config", "tiny", "--golden", str(golden)]) == 0
    assert "tiny: matches" in capsys.readouterr().out
    figures["information_sets"] = [0, 0]
    golden.write_text(json.dumps({"configs": {"tiny": figures}}))
    assert information.main(["--config", "tiny", "--golden", str(golden)]) == 1
    assert "information_sets" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        information.main(["--config", "tiny", "--seeds", "0"])
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        information.main(["--config", "nonsense"])
