"""Feature names, normalisation, and the Python episode behind the learning environments."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import hatsuden_rules
import hatsuden_rules.openspiel as hos
from hatsuden_rules import (
    STANDARD,
    Deal,
    DealTech,
    GameState,
    InvalidInputError,
    Rules,
    apply,
    legal_moves,
    new_game,
    observation_feature_names,
    observation_tensor,
    observation_tensor_layout,
    observe,
)
from hatsuden_rules._features import RecallCodec, feature_names_markdown, max_game_length
from hatsuden_rules._learning import Episode
from hatsuden_rules.actions import chance_moves, player_moves
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.openspiel._record import Codec

ROOT = Path(__file__).resolve().parents[2]
TINY = Rules(energies=2, max_value=2, hand_size=2, techs=())
RULES = [STANDARD, TINY, CONFIGS["small"], Rules(energies=3, max_value=3, hand_size=3)]


def _random_states(rules: Rules, games: int, seed: int) -> list[GameState]:
    rnd = random.Random(seed)
    states = []
    for game in range(games):
        state = new_game(seed=seed * 1000 + game, rules=rules)
        states.append(state)
        while not state.is_over:
            state = apply(state, rnd.choice(legal_moves(state)))
            states.append(state)
    return states


def test_reexported_and_sorted() -> None:
    assert hatsuden_rules.observation_feature_names is observation_feature_names
    assert "observation_feature_names" in hatsuden_rules.__all__
    assert hatsuden_rules.observation.observation_feature_names is observation_feature_names


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_one_unique_name_per_index(rules: Rules) -> None:
    names = observation_feature_names(rules, "observation")
    assert len(names) == sum(n for _, n in observation_tensor_layout(rules))
    assert len(set(names)) == len(names)
    info = observation_feature_names(rules, "information_state")
    assert info[: len(names)] == names
    assert len(info) == len(names) + RecallCodec(rules).size
    assert len(set(info)) == len(info)
    game = hos.load_game(rules)
    assert len(info) == game.information_state_tensor_size()
    assert len(names) == game.observation_tensor_size()
    for kind in ("observation", "information_state"):
        normal = observation_feature_names(rules, kind, normalize=True)
        assert len(set(normal)) == len(normal)


def test_names_follow_the_layout() -> None:
    names = observation_feature_names(STANDARD, "observation")
    start = 0
    for segment, size in observation_tensor_layout(STANDARD):
        chunk = names[start : start + size]
        start += size
        prefixes = {
            "sizes": ("opponent_hand_size", "opponent_tech_hand_size", "deck_size", "tech_"),
            "end_trigger": ("end_trigger.",),
        }.get(segment, (segment,))
        assert all(name.startswith(prefixes) for name in chunk), (segment, chunk)
    assert names[8] == "hand[S1]"
    assert "my_board[1S].value" in names
    assert "my_board[1S].value=hidden" in observation_feature_names(
        STANDARD, "observation", normalize=True
    )


def test_bad_arguments_raise_one_line() -> None:
    for call in (
        lambda: observation_feature_names(STANDARD, "obs"),  # type: ignore[arg-type]
        lambda: observation_feature_names("STANDARD", "observation"),  # type: ignore[arg-type]
        lambda: observation_feature_names(STANDARD, "observation", normalize=1),  # type: ignore[arg-type]
        lambda: observation_tensor(observe(new_game(seed=1), 0), normalize="yes"),  # type: ignore[call-overload]
    ):
        with pytest.raises(InvalidInputError) as caught:
            call()
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("rules", RULES[:3], ids=str)
def test_normalised_tensor_is_in_unit_interval_and_named(rules: Rules) -> None:
    names = observation_feature_names(rules, "observation", normalize=True)
    raw_names = observation_feature_names(rules, "observation")
    for state in _random_states(rules, 5, 3)[::3]:
        for player in (0, 1):
            raw = observation_tensor(observe(state, player))
            features = observation_tensor(observe(state, player), normalize=True)
            assert len(features) == len(names)
            assert all(0.0 <= x <= 1.0 for x in features)
            by_name = dict(zip(names, features, strict=True))
            for name, x in zip(raw_names, raw, strict=True):
                if name.endswith((".value", ".top")):
                    suffix = "hidden" if x == -1 else str(x)
                    if name.endswith(".top"):
                        if x == 0:
                            assert not any(by_name[k] for k in by_name if k.startswith(name + "="))
                            continue
                        suffix = str(rules.cards[x - 1].energy.letter) + str(
                            rules.cards[x - 1].value
                        )
                    assert by_name[f"{name}={suffix}"] == 1.0
                elif name in by_name and x in (0, 1) and name.startswith(("phase=", "to_move")):
                    assert by_name[name] == x


def test_recall_codec_matches_openspiel() -> None:
    for rules in RULES:
        ours, theirs = RecallCodec(rules), Codec(rules)
        assert ours.size == theirs.size
        assert ours.segments == theirs.segments
        assert list(ours.player) == [(a[1], b[1]) for a, b in theirs.player]
        assert list(ours.chance) == [(a[1], b[1]) for a, b in theirs.chance]
        if rules.stall_limit is not None:
            assert max_game_length(rules) == hos.max_game_length(rules)


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


def test_docs_page_is_current() -> None:
    page = ROOT / "docs" / "features.md"
    assert page.read_text(encoding="utf-8") == feature_names_markdown(), (
        "regenerate: python -m hatsuden_rules._features > docs/features.md"
    )
