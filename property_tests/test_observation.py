"""Hypothesis properties of observations over random STANDARD games (R30, R36-R38).

Each example plays a random game (explicit or seeded, the printed rules or a variant of their
options) for a drawn number of plies, then checks on its states, for both players:

- R30, R37 non-interference: every perturbation of what the player cannot know
  (`hatsuden_rules.modelcheck.information.perturbations`: hand and deck, pylon and secret cards,
  tech cards, the hidden records of the turn logs, the generator) leaves the observation
  unchanged, and is itself a consistent state;
- R38 sampling: a sample gives the observation back, is consistent, and offers the mover the same
  legal moves;
- R37 `legal_moves_from` equals `legal_moves` for the mover, and is empty for anyone else.

The exhaustive versions over reduced configurations are in
tests/modelcheck/test_observation_information.py.
"""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Construct,
    Downsize,
    DrawTech,
    GameState,
    Improve,
    Move,
    Phase,
    Rules,
    apply,
    legal_moves,
    legal_moves_from,
    new_game,
    observe,
    sample_state,
)
from hatsuden_rules.modelcheck.information import consistency_problems, perturbations

from .games import draw_move
from .strategies import budget, standard_variants

standard_rules = st.just(STANDARD) | standard_variants()
chance_modes = st.none() | st.integers(0, 2**64 - 1)


def _secretive(moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """The moves a tech-hungry player prefers: draw tech cards, build secretly, build 4s."""
    draws = tuple(m for m in moves if isinstance(m, DrawTech))
    secret = tuple(m for m in moves if isinstance(m, Construct) and m.secret)
    fours = tuple(
        m for m in moves if isinstance(m, Construct | Improve | Downsize) and m.card.value == 4
    )
    return draws or secret or fours or moves


def play_prefix(data: st.DataObject, rules: Rules, seed: int | None, plies: int) -> list[GameState]:
    """The states of a random game of at most `plies` moves (chance outcomes included).

    Half the games are played by tech-hungry players, so that secret cards, tech draws and
    Downsizes occur often (only a face-up 4 draws a tech card, R17).
    """
    secretive = data.draw(st.booleans(), label="tech-hungry players")
    state = new_game(seed, rules)
    states = [state]
    while not state.is_over and len(states) <= plies:
        moves = legal_moves(state)
        if secretive and state.phase is not Phase.CHANCE:
            moves = _secretive(moves)
        state = apply(state, draw_move(data, state, moves))
        states.append(state)
    return states


def _events(states: list[GameState]) -> None:
    last = states[-1]
    secret = any(isinstance(m, Construct) and m.secret for s in states for m in s.this_turn)
    pylon = any(isinstance(move, BuildPylon) for s in states for move in s.this_turn)
    event("secret construct", str(secret))
    event("pylon from hand", str(pylon))
    event("game over", str(last.is_over))


@settings(max_examples=budget(0.3))
@given(
    data=st.data(),
    rules=standard_rules,
    seed=chance_modes,
    plies=st.integers(0, 200),
)
def test_r30_no_perturbation_of_hidden_information_changes_an_observation(
    data: st.DataObject, rules: Rules, seed: int | None, plies: int
) -> None:
    states = play_prefix(data, rules, seed, plies)
    _events(states)
    picks = data.draw(
        st.lists(st.integers(0, len(states) - 1), min_size=1, max_size=3, unique=True),
        label="states checked",
    )
    checked = 0
    kinds: set[str] = set()
    for index in sorted(picks):
        state = states[index]
        for player in (0, 1):
            seen = observe(state, player)
            for kind, changed in perturbations(state, player):
                if kind.startswith("skipped "):
                    continue  # a secret card that would break a public bound (R38)
                assert observe(changed, player) == seen, (kind, state, player)
                assert consistency_problems(changed) == [], (kind, state)
                checked += 1
                kinds.add(kind)
    event("perturbations checked", "0" if checked == 0 else "1-99" if checked < 100 else "100+")
    for kind in sorted(kinds):
        event(f"kind {kind}")


@settings(max_examples=budget(0.3))
@given(
    data=st.data(),
    rules=standard_rules,
    seed=chance_modes,
    plies=st.integers(0, 200),
    sample_seed=st.integers(0, 2**64 - 1),
)
def test_r37_r38_samples_give_their_observation_back_with_the_same_legal_moves(
    data: st.DataObject, rules: Rules, seed: int | None, plies: int, sample_seed: int
) -> None:
    states = play_prefix(data, rules, seed, plies)
    _events(states)
    for state in states:
        assert consistency_problems(state) == []  # the validator accepts every real state
        deciding = state.phase not in (Phase.CHANCE, Phase.GAME_OVER)
        for player in (0, 1):
            seen = observe(state, player)
            sample = sample_state(seen, sample_seed)
            assert observe(sample, player) == seen, (state, player)
            assert consistency_problems(sample) == [], (state, player)
            assert sample_state(seen, sample_seed) == sample  # reproducible (R38)
            if deciding and player == state.current_player:
                assert legal_moves_from(seen) == legal_moves(state)
                assert legal_moves(sample) == legal_moves(state)
            else:
                assert legal_moves_from(seen) == ()
