"""Differential tests of the native core's learning tensors and episodes (issue 22).

Hypothesis draws a rule set (every option and variant), a seed and a random walk; the library's
`Episode` and the native core's (``hatsuden_native.Episode`` and ``VectorBatch``) are stepped in
lock step by action id. After every step they agree on the legal action ids (R34), the player
to act, the end (R26), the state as seeded mode holds it (R8, R33: chance resolved by the
portable sampler), and for both players the observation tensor (R39) and the
information-state tensor (the observation then the perfect-recall counts), raw and normalised
(`observation_feature_names(..., normalize=True)`), bit for bit in float32.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hatsuden_rules import STANDARD, Rules, format_rules, observation_feature_names
from hatsuden_rules.integrations._learning import Episode, NativeBatch, NativeEpisode, encoder
from hatsuden_rules.modelcheck import CONFIGS

from .helpers import NOT_INSTALLED
from .test_differential import RULES

try:
    import hatsuden_native
except ImportError:  # pragma: no cover - the lead's `make test` installs it
    pytest.skip(NOT_INSTALLED, allow_module_level=True)


def _budget(fraction: float, at_least: int = 5) -> int:
    return max(at_least, int(settings().max_examples * fraction))


def _walk(rules: Rules, seed: int, choices: list[int], *, recall: bool) -> int:
    """Step both episodes along `choices`; compare everything after each step. Plies made."""
    python = Episode(rules, recall=recall)
    native = NativeEpisode(rules, recall=recall)
    kind = "information_state" if recall else "observation"
    batch = NativeBatch(rules, 1, encoder(rules, kind, True))
    raw_batch = NativeBatch(rules, 1, encoder(rules, kind, False))
    normalise = encoder(rules, kind, True).features
    python.reset(seed)
    native.reset(seed)
    batch.reset([seed], [0])
    raw_batch.reset([seed], [0])
    plies = 0
    for choice in [*choices, None]:
        assert native.seeded_state() == python.seeded_state()
        assert native.is_over == python.is_over
        assert native.legal_ids() == python.legal_ids()
        mask, players = batch.legal()
        assert np.flatnonzero(mask[0]).tolist() == python.legal_ids()
        assert players[0] == (-1 if python.is_over else python.current_player)
        for player in (0, 1):
            raw = python.raw(player)
            assert native.raw(player) == raw
            seat = np.array([player])
            expected = np.array([raw], dtype=np.float32)
            assert np.array_equal(raw_batch.observations(seat), expected)
            assert np.array_equal(batch.observations(seat), normalise(expected))
        if python.is_over or choice is None:
            break
        assert native.current_player == python.current_player
        ids = python.legal_ids()
        action = ids[choice % len(ids)]
        python.step(action)
        native.step(action)
        batch.step(np.array([action]), np.array([0]))
        raw_batch.step(np.array([action]), np.array([0]))
        plies += 1
    if python.is_over:
        assert native.winner() == python.winner()
        assert batch.winners(np.array([0])).tolist() == [python.winner()]
    return plies


@given(
    rules=RULES,
    seed=st.integers(0, 2**64 - 1),
    choices=st.lists(st.integers(0, 10**6), max_size=60),
    recall=st.booleans(),
)
@settings(max_examples=_budget(0.5), deadline=None)
@example(  # 3 energies x values 1..11 = 33 card kinds: the native id of `X W11` was Pass's (R34)
    rules=Rules(
        energies=3,
        max_value=11,
        copies=1,
        hand_size=1,
        city_demand=10,
        techs=(),
        allow_retake_discard=False,
        stall_limit=None,
    ),
    seed=18446744073709551614,
    choices=[],
    recall=False,
)
def test_native_episodes_and_tensors_match_the_library(
    rules: Rules, seed: int, choices: list[int], recall: bool
) -> None:
    _walk(rules, seed, choices, recall=recall)


@pytest.mark.parametrize("name", ["tiny", "small", "standard"])
def test_whole_games_match(name: str) -> None:
    """Whole games to the end (R26) on the configurations the environments are tested on."""
    rules = {
        "tiny": Rules(energies=2, max_value=2, hand_size=2, techs=()),
        "small": CONFIGS["small"],
        "standard": STANDARD,
    }[name]
    rng = np.random.default_rng(11)
    for seed in range(3):
        choices = rng.integers(0, 10**6, size=2000).tolist()
        assert _walk(rules, seed, choices, recall=seed % 2 == 0) > 0


def test_sizes_and_names_agree() -> None:
    """The native feature widths are the widths of `observation_feature_names` (R39)."""
    for rules in (STANDARD, CONFIGS["small"]):
        for kind in ("observation", "information_state"):
            for normalize in (False, True):
                batch = hatsuden_native.VectorBatch(format_rules(rules), 2, kind, normalize)
                names = observation_feature_names(rules, kind, normalize=normalize)
                assert batch.observation_size == len(names)


def test_batch_refuses_bad_input_in_one_line() -> None:
    """Bad arguments are the library's `InvalidInputError`, never a panic."""
    from hatsuden_rules import InvalidInputError, NotationError

    with pytest.raises(NotationError):
        hatsuden_native.VectorBatch("nonsense", 2)
    with pytest.raises(InvalidInputError, match="num_envs"):
        hatsuden_native.VectorBatch(format_rules(STANDARD), 0)
    with pytest.raises(InvalidInputError, match="observation"):
        hatsuden_native.VectorBatch(format_rules(STANDARD), 2, "state")
    batch = hatsuden_native.VectorBatch(format_rules(STANDARD), 2)
    with pytest.raises(InvalidInputError, match="environment 5"):
        batch.reset([1], [5])
    batch.reset([1, 2], [0, 1])
    with pytest.raises(InvalidInputError, match="writable C-contiguous"):
        batch.legal(np.zeros(3, dtype=np.uint8), np.zeros(2, dtype=np.int64))
    mask = np.zeros((2, 422), dtype=bool)
    batch.legal(mask.view(np.uint8), np.zeros(2, dtype=np.int64))
    first = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(InvalidInputError, match="environment 1: action 9999 is out of range"):
        batch.step(np.array([first, 9999]), np.array([0, 1]))
    with pytest.raises(InvalidInputError, match=r"environment 0: action 0 is illegal: .*\(R10"):
        batch.step(np.array([0, first]), np.array([0, 1]))
    after = np.zeros((2, 422), dtype=bool)
    batch.legal(after.view(np.uint8), np.zeros(2, dtype=np.int64))
    assert np.array_equal(after, mask)  # R35: a refused batch moved no environment
    seats, rows = np.zeros(2, dtype=np.int64), np.arange(2, dtype=np.int64)
    size = batch.observation_size
    for bad in (
        np.zeros((2, size), dtype=np.float32)[:, ::1][::-1],  # not C-contiguous
        np.zeros((2, size + 1), dtype=np.float32),  # wrong size
        np.zeros((2, size), dtype=np.float32).copy(),  # made read-only below
    ):
        if bad.flags.c_contiguous and bad.shape == (2, size):
            bad.flags.writeable = False
        with pytest.raises(InvalidInputError, match="writable C-contiguous"):
            batch.observations(seats, rows, bad)
    out = np.full((2, size), 7.0, dtype=np.float32)
    with pytest.raises(InvalidInputError, match="player"):
        batch.observations(np.array([0, 2]), rows, out)
    assert (out == 7.0).all()  # every seat is checked before a row is written
    batch.observations(seats, rows, out)
    assert (out != 7.0).any()
    episode = hatsuden_native.Episode(format_rules(STANDARD))
    episode.reset(0)
    with pytest.raises(InvalidInputError, match="action"):
        episode.step(-1)
