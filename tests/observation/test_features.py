"""Feature names and normalisation of the observation and information-state tensors (R39)."""

from __future__ import annotations

import random

import pytest
from tools.features import feature_names_markdown

import hatsuden_rules
import hatsuden_rules.openspiel as hos
from hatsuden_rules import (
    STANDARD,
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
from hatsuden_rules.actions import chance_moves, player_moves
from hatsuden_rules.integrations.openspiel._record import Codec
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.notation import format_move
from hatsuden_rules.observation._features import RecallCodec, max_game_length
from tests.support.paths import ROOT_DIR

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


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_move_names_are_the_notations(rules: Rules) -> None:
    """The names of the recall counts spell moves as `format_move` does (NOTATION.md)."""
    names = set(observation_feature_names(rules, "information_state"))
    for move in player_moves(rules):
        assert f"my_moves[{format_move(move)}]" in names
        assert f"opponent_moves[{format_move(move)}]" in names
    for move in chance_moves(rules):
        assert f"my_chance[{format_move(move)}]" in names


def test_docs_page_is_current() -> None:
    page = ROOT_DIR / "docs" / "features.md"
    assert page.read_text(encoding="utf-8") == feature_names_markdown(), (
        "regenerate: python -m tools.features > docs/features.md"
    )
