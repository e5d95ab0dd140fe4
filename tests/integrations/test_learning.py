"""The Python episode behind the learning environments: the seeded game, the counts (R8, R33)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import hatsuden_rules
import hatsuden_rules.openspiel as hos
from hatsuden_rules import (
    STANDARD,
    Deal,
    DealTech,
    Rules,
    apply,
    legal_moves,
    new_game,
)
from hatsuden_rules.actions import chance_moves, player_moves
from hatsuden_rules.integrations._learning import Episode
from hatsuden_rules.modelcheck import CONFIGS

TINY = Rules(energies=2, max_value=2, hand_size=2, techs=())


@pytest.mark.parametrize("rules", [STANDARD, TINY, CONFIGS["small"]], ids=str)
def test_episode_is_the_seeded_library_game(rules: Rules) -> None:
    moves = player_moves(rules)
    ids = {move: a for a, move in enumerate(moves)}
    for seed in range(8):
        episode = Episode(rules, recall=False)
        episode.reset(seed)
        state = new_game(seed=seed, rules=rules)
        rnd = random.Random(seed)
        while not state.is_over:
            assert episode.seeded_state() == state
            legal = sorted(ids[move] for move in legal_moves(state))
            assert episode.legal_ids() == legal
            action = rnd.choice(legal)
            state = apply(state, moves[action])
            episode.step(action)
        assert episode.seeded_state() == state


def _resolve(state: pyspiel.State, rng: hatsuden_rules.SplitMix64, rules: Rules) -> object:
    """Resolve OpenSpiel's chance nodes as seeded mode does (R8)."""
    ids = {move: c for c, move in enumerate(chance_moves(rules))}
    while state.is_chance_node():
        game_state = state.game_state
        value, rng = rng.next()
        if game_state.pending_chance.name == "TECH":
            deck = game_state.tech_deck
            move: Deal | DealTech = DealTech(deck[value % len(deck)])
        else:
            cards = game_state.deck
            move = Deal(cards[value % len(cards)])
        state.apply_action(ids[move])
    return rng


@pytest.mark.parametrize("rules", [STANDARD, TINY], ids=str)
def test_information_state_counts_equal_openspiels(rules: Rules) -> None:
    game = hos.load_game(rules)
    for seed in range(4):
        state = game.new_initial_state()
        rng = _resolve(state, hatsuden_rules.SplitMix64.from_seed(seed), rules)
        episode = Episode(rules, recall=True)
        episode.reset(seed)
        rnd = random.Random(seed)
        while True:
            for player in (0, 1):
                expected = np.array(state.information_state_tensor(player))
                assert (np.array(episode.raw(player)) == expected).all()
            if state.is_terminal():
                break
            action = rnd.choice(state.legal_actions())
            state.apply_action(action)
            episode.step(action)
            rng = _resolve(state, rng, rules)  # type: ignore[arg-type]


def test_an_illegal_step_changes_nothing() -> None:
    episode = Episode(TINY, recall=True)
    episode.reset(3)
    before = (episode.state, episode.seen.copy())  # type: ignore[union-attr]
    illegal = next(a for a in range(len(player_moves(TINY))) if a not in episode.legal_ids())
    with pytest.raises(hatsuden_rules.IllegalMoveError):
        episode.step(illegal)
    assert episode.state == before[0]
    assert (episode.seen == before[1]).all()  # type: ignore[union-attr]
