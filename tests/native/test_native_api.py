"""The native core's Python API: conversions, errors as the library's own, perft, playouts."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from hatsuden_rules import (
    PRINTED,
    RULES_VERSION,
    STANDARD,
    GameState,
    HatsudenError,
    IllegalMoveError,
    InvalidDocumentError,
    InvalidInputError,
    MoveNotationError,
    NotationError,
    Overflow,
    PhaseError,
    Rules,
    Tech,
    apply,
    format_move,
    format_rules,
    format_state,
    from_json,
    legal_moves,
    new_game,
    parse_move,
    parse_state,
    score,
    to_json,
)
from hatsuden_rules import native as facade
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.modelcheck import divide as python_divide
from hatsuden_rules.modelcheck import perft as python_perft

from .helpers import NOT_INSTALLED, divergence, outcome, play_randomly, same_outcome

try:
    import hatsuden_native
    from hatsuden_native import NativeState
except ImportError:  # pragma: no cover - the lead's `make test` installs it
    pytest.skip(NOT_INSTALLED, allow_module_level=True)

SMALL = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)


def _walk(state: GameState, plies: int, pick: int = 7) -> list[GameState]:
    """`state` and the states of a deterministic walk of `plies` plies from it."""
    states = [state]
    for ply in range(plies):
        if state.is_over:
            break
        moves = legal_moves(state)
        state = apply(state, moves[(ply * pick + 3) % len(moves)])
        states.append(state)
    return states


STATES = [
    *_walk(new_game(), 12),
    *_walk(new_game(seed=2026), 60),
    *_walk(new_game(rules=SMALL), 40),
    *_walk(new_game(rules=SMALL, seed=-(2**70)), 40, pick=5),
]


def test_versions() -> None:
    assert hatsuden_native.RULES_VERSION == RULES_VERSION
    assert hatsuden_native.__version__ == "0.3.0"
    assert facade.is_available()
    # Fixed-size arrays holding every valid rule set (55 cards, stacks of 22: R2, R31).
    assert 0 < hatsuden_native.STATE_SIZE_BYTES <= 1064


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"{s.phase.name}")
def test_round_trip_and_equality(state: GameState) -> None:
    native_state = facade.to_native(state)
    assert facade.from_native(native_state) == state
    assert native_state.notation() == format_state(state)
    assert native_state == NativeState.from_notation(format_state(state))
    assert hash(native_state) == hash(NativeState.from_notation(format_state(state)))
    assert pickle.loads(pickle.dumps(native_state)) == native_state
    assert NativeState.from_json(to_json(state)) == native_state
    assert from_json(native_state.to_json(), "state") == state
    assert native_state.rules == format_rules(state.rules)
    assert native_state.current_player == state.current_player
    assert native_state.is_terminal == state.is_over
    assert native_state.phase == state.phase.name.lower()
    assert native_state.legal_moves() == [format_move(m) for m in legal_moves(state)]
    assert facade.score(native_state) == score(state)


def test_new_game_matches_in_both_modes() -> None:
    for rules in (STANDARD, PRINTED, SMALL):
        assert NativeState.new_game(format_rules(rules)).notation() == format_state(
            new_game(rules=rules)
        )
        for seed in (0, 1, 2026, -1, 2**64 + 5, -(2**90)):
            expected = format_state(new_game(rules=rules, seed=seed))
            assert NativeState.new_game(format_rules(rules), seed).notation() == expected
    assert NativeState.new_game() == facade.to_native(new_game())


def test_an_illegal_move_is_an_illegal_move_error_with_the_rule() -> None:
    state = new_game(seed=1)
    for text in ("E", "PASS", "DD", "F 0S", "D S1 0S"):
        move = parse_move(text, state.rules)
        with pytest.raises(IllegalMoveError) as python_error:
            apply(state, move)
        with pytest.raises(IllegalMoveError) as native_error:
            facade.to_native(state).apply(text)
        assert native_error.value.rule == python_error.value.rule, text
        assert native_error.value.state == state
        assert native_error.value.move == move
        assert str(native_error.value).startswith(f"{python_error.value.rule}: ")
    over = next(s for s in _walk(new_game(rules=SMALL, seed=3), 500) if s.is_over)
    with pytest.raises(IllegalMoveError) as error:
        facade.to_native(over).apply("E")
    assert error.value.rule == outcome(lambda: apply(over, parse_move("E", over.rules)))[1]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "C",
        "C S3",
        "C S3 0",
        "C S3 2S",
        "C S9 0S",
        "C Q3 0S",
        "X",
        "X S3 0S",
        "c S3 0S",
        "C S3 0S ",
        "FS 0S+0S",
        "M SEC",
        "DT extra",
    ],
)
def test_malformed_move_notation_has_the_same_field_and_position(text: str) -> None:
    state = new_game(seed=4)
    native_state = facade.to_native(state)
    expected = outcome(lambda: apply(state, parse_move(text, state.rules)))
    assert expected[0] == "MoveNotationError"
    assert outcome(lambda: native_state.apply(text)) == expected
    with pytest.raises(MoveNotationError) as error:
        native_state.apply(text)
    assert error.value.text == text


def _text_of_state(text: str) -> str:
    return format_state(parse_state(text))


def _native_text_of_state(text: str) -> str:
    return NativeState.from_notation(text).notation()


def _corruptions(text: str) -> list[str]:
    every = max(1, len(text) // 25)
    cut = [text[:i] for i in range(0, len(text), every)]
    swapped = [text[:i] + "?" + text[i + 1 :] for i in range(0, len(text), every)]
    return [*cut, *swapped, text + " x=1", text.replace("rules=", "rule=")]


@pytest.mark.parametrize("state", STATES[::9], ids=lambda s: s.phase.name)
def test_malformed_state_notation_has_the_same_field_and_position(state: GameState) -> None:
    for text in _corruptions(format_state(state)):
        expected = outcome(_text_of_state, text)
        got = outcome(_native_text_of_state, text)
        assert same_outcome(expected, got), (text, expected, got)
    with pytest.raises(NotationError) as error:
        NativeState.from_notation("rules=nonsense")
    assert error.value.text == "rules=nonsense"


_STATE = format_state(new_game())
_TINY = format_state(
    new_game(
        rules=Rules(
            energies=1, max_value=1, copies=2, hand_size=1, city_demand=1, overflow=Overflow.ANY_SET
        )
    )
)


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("next_key", _STATE.replace("S1,S2", "S1?S2", 1)),
        ("position", _STATE.replace("pending_chance=setup", "pending_chance=-x", 1)),
        ("rules_tail", _TINY.replace("any_set ", "any_set-", 1)),
    ],
)
def test_fixed_divergences_stay_fixed(kind: str, text: str) -> None:
    expected = outcome(_text_of_state, text)
    assert expected[0] == "NotationError", kind
    assert outcome(_native_text_of_state, text) == expected


_BIG = (Rules(max_value=7), Rules(max_value=11), Rules(max_value=11, copies=3, hand_size=9))


@pytest.mark.parametrize("rules", _BIG, ids=lambda r: format_rules(r).split("/-")[0][:12])
def test_capacity_every_valid_rule_set_fits(rules: Rules) -> None:
    """R31 bounds max_value by 11 (R2): 55 distinct cards, stacks of 22; all held natively."""
    text = _STATE.replace("rules=5/4/", "rules=5/7/", 1)
    expected = outcome(_text_of_state, text)
    assert expected[0] == "NotationError"  # the deck is STANDARD's: conservation fails (R2)
    assert outcome(_native_text_of_state, text) == expected
    for seed in (None, 5):
        root = new_game(rules=rules, seed=seed)
        start = format_state(root)
        assert outcome(_native_text_of_state, start) == ("ok", start)
        stats = facade.playouts(root, 3, 2026)
        end, plies, _ = play_randomly(root, 2026, 3)
        assert stats.plies == plies
        assert stats.last_state is not None
        assert facade.from_native(stats.last_state) == end


def test_capacity_more_than_255_copies_is_refused_naming_copies() -> None:
    """The only valid rule sets beyond the native state: a card count is one byte (R31)."""
    rules = Rules(energies=1, max_value=1, copies=256, hand_size=1, city_demand=1)
    with pytest.raises(InvalidInputError) as error:
        NativeState.new_game(format_rules(rules))
    assert error.value.field == "copies"
    assert "beyond the native engine's capacity" in str(error.value)
    text = format_state(new_game(rules=rules))
    expected, got = outcome(_text_of_state, text), outcome(_native_text_of_state, text)
    assert expected == ("ok", text)
    assert got == ("capacity", "rules")
    assert divergence(expected, got) == "capacity"


def test_malformed_json_has_the_same_path() -> None:
    document = json.loads(to_json(new_game(seed=5)))
    corrupted = [
        "",
        "[]",
        "{",
        json.dumps({**document, "hands": 3}),
        json.dumps({**document, "phase": "dancing"}),
        json.dumps({**document, "extra": 1}),
        json.dumps({k: v for k, v in document.items() if k != "deck"}),
    ]
    for text in corrupted:
        expected = outcome(from_json, text, "state")
        assert expected[0] == "InvalidDocumentError", text
        got = outcome(NativeState.from_json, text)
        assert got == expected, text
    with pytest.raises(InvalidDocumentError):
        NativeState.from_json("{")


def test_other_refusals_are_the_library_exceptions() -> None:
    seeded = NativeState.new_game(seed=1)
    with pytest.raises(PhaseError, match="R6"):
        seeded.chance_outcomes()
    with pytest.raises(InvalidInputError) as error:
        seeded.observation_tensor(2)
    assert error.value.field == "player"
    with pytest.raises(InvalidInputError) as error:
        hatsuden_native.perft(seeded, -1)
    assert error.value.field == "depth"
    with pytest.raises(InvalidInputError) as error:
        seeded.apply_index(10_000)
    assert error.value.field == "index"
    with pytest.raises(InvalidInputError) as error:
        NativeState.new_game(seed="1")  # type: ignore[arg-type]
    assert error.value.field == "seed"
    with pytest.raises(NotationError) as error:
        NativeState.new_game("5/4/2/5/10/ACC/city_points/retake/20/banana")
    assert error.value.field == "rules"


def test_a_panic_arrives_as_an_internal_hatsuden_error() -> None:
    with pytest.raises(HatsudenError, match="internal error"):
        hatsuden_native._native._panic_for_tests()


def test_tensors_and_observations_match() -> None:
    from hatsuden_rules import format_observation, observation_tensor, observe, sample_state

    for state in STATES[::3]:
        native_state = facade.to_native(state)
        for player in (0, 1):
            observation = observe(state, player)
            assert native_state.observation_tensor(player) == list(observation_tensor(observation))
            assert native_state.observation(player) == format_observation(observation)
            for seed in (0, 2026, -5):
                assert facade.from_native(native_state.sample_state(player, seed)) == (
                    sample_state(observation, seed)
                )


@pytest.mark.parametrize(
    ("rules", "depth"),
    [(STANDARD, 3), (CONFIGS["small"], 8), (CONFIGS["medium"], 7), (SMALL, 6)],
    ids=["standard", "small", "medium", "2x2"],
)
def test_perft_and_divide_equal_the_model_checker(rules: Rules, depth: int) -> None:
    root = new_game(rules=rules)
    assert facade.perft(root, depth) == python_perft(rules, depth)
    assert facade.divide(root, depth) == python_divide(rules, depth)
    assert facade.perft(root, 0) == []


def _python_perft(state: GameState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(_python_perft(apply(state, move), depth - 1) for move in legal_moves(state))


@pytest.mark.parametrize("state", STATES[5::17], ids=lambda s: s.phase.name)
def test_perft_from_any_state(state: GameState) -> None:
    counts = facade.perft(state, 3)
    assert counts == [_python_perft(state, d) for d in (1, 2, 3)]


@pytest.mark.parametrize(
    ("rules", "seed"),
    [(STANDARD, None), (STANDARD, 7), (SMALL, None), (Rules(techs={Tech.SMART}), 11)],
)
def test_playouts_draw_with_the_portable_sampler(rules: Rules, seed: int | None) -> None:
    root = new_game(rules=rules, seed=seed)
    stats = facade.playouts(root, 4, 2026)
    end, plies, wins = play_randomly(root, 2026, 4)
    assert stats.games == 4
    assert stats.plies == plies
    assert stats.wins == (wins, 4 - wins)
    assert stats.truncated == 0
    assert sum(stats.end_reasons.values()) == 4
    assert stats.last_state is not None
    assert facade.from_native(stats.last_state) == end
    short = facade.playouts(root, 3, 1, max_plies=5)
    assert (short.truncated, short.plies) == (3, 15)


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )


def test_importing_the_library_never_imports_the_native_core() -> None:
    done = _run(
        "import sys, hatsuden_rules, hatsuden_rules.native, hatsuden_rules.modelcheck\n"
        "assert 'hatsuden_native' not in sys.modules, 'imported'\n"
    )
    assert done.returncode == 0, done.stderr


def test_without_the_native_core_the_error_names_the_extra() -> None:
    done = _run(
        "import sys; sys.modules['hatsuden_native'] = None\n"
        "from hatsuden_rules import new_game, native\n"
        "assert not native.is_available()\n"
        "native.perft(new_game(), 1)\n"
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("hatsuden_rules.native.NativeUnavailableError: ")
    assert last.endswith(": pip install 'hatsuden-rules[native]'")


def test_another_rules_version_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    facade.load.cache_clear()  # the loader remembers the module it checked
    monkeypatch.setattr(hatsuden_native, "RULES_VERSION", RULES_VERSION + 1)
    try:
        with pytest.raises(
            facade.NativeUnavailableError, match=f"RULES_VERSION {RULES_VERSION + 1}"
        ):
            facade.to_native(new_game())
        assert not facade.is_available()
    finally:
        facade.load.cache_clear()


def test_the_adapter_command_answers() -> None:
    adapter = Path(sys.executable).parent / "hatsuden-native-adapter"
    if not adapter.exists():
        pytest.skip("hatsuden-native-adapter is not beside this Python (installed elsewhere)")
    request = {"id": 1, "kind": "new_game", "rules": format_rules(SMALL), "seed": "3"}
    done = subprocess.run(
        [str(adapter)],
        input=json.dumps({"id": 0, "kind": "hello"}) + "\n" + json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    hello, answer = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["rules_version"] == RULES_VERSION
    assert answer["state"] == format_state(new_game(rules=SMALL, seed=3))


def test_the_stubs_match_the_extension(tmp_path: Path) -> None:
    """mypy's stubtest: hatsuden_native/_native.pyi says what the Rust module really has."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "hatsuden_native"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
