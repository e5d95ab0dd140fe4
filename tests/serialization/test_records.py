"""Game records (issue 5 §2): text form, replay with checks, and the hatsuden-replay command."""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    Card,
    Decision,
    Discard,
    DrawFromDeck,
    EndReason,
    Energy,
    GameRecord,
    GameResult,
    InvalidInputError,
    Move,
    NotationError,
    Pass,
    ReplayError,
    Rules,
    apply,
    format_record,
    legal_moves,
    new_game,
    parse_record,
    record_game,
    replay,
    to_json,
)
from hatsuden_rules.cli._replay import main
from hatsuden_rules.core.printable import UNICODE_VERSION, is_printable
from hatsuden_rules.serialization import from_json, to_dict
from tests.support.paths import ROOT_DIR

MICRO = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)


def _play(seed: int | None, rules: Rules, n: int = 0) -> list[Move]:
    rng = random.Random(n)
    state, moves = new_game(seed, rules), []
    while not state.is_over:
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    return moves


@pytest.mark.parametrize(("seed", "rules"), [(2017, STANDARD), (None, STANDARD), (None, MICRO)])
def test_records_round_trip_and_replay(seed: int | None, rules: Rules) -> None:
    for n in range(3):
        moves = _play(seed, rules, n)
        record = record_game(moves, seed=seed, rules=rules, players=('Ann "A"', "Bo\\"))
        assert record.result is not None
        text = format_record(record)
        assert parse_record(text) == record
        assert format_record(parse_record(text)) == text
        final = replay(record)
        assert final.is_over
        assert GameResult.of(final) == record.result


def test_text_form() -> None:
    record = record_game(_play(None, MICRO, 1), rules=MICRO, players=("Ann", "Bo"))
    lines = format_record(record).splitlines()
    assert lines[:5] == [
        '[Hatsuden "1"]',
        '[Rules "2/2/2/2/2/ACC+SEC+SMT+DWN/city_points/retake/4"]',
        '[Seed "-"]',
        '[Player0 "Ann"]',
        '[Player1 "Bo"]',
    ]
    assert lines[5].startswith('[Result "winner=')
    assert lines[6] == ""
    assert lines[7].startswith("0. =")  # the deal: 2 x hand_size Deal moves
    assert lines[7].count("=") == 4
    assert lines[8].startswith("1. ")
    for line in lines[8:-1]:  # every complete turn ends with its draw
        last = line.rsplit(", ", 1)[-1]
        assert last.startswith(("=", "DX ", "E")) or last.split(". ")[-1].startswith(("DX", "E"))


def test_seeded_records_have_no_chance_outcomes() -> None:
    card = new_game(seed=3).hand(0)[0]
    record = GameRecord(seed=3, moves=(Discard(card), DrawFromDeck()))
    assert format_record(record).endswith(f"\n\n1. X {card.energy.letter}{card.value}, DD\n")
    state = replay(record)
    assert state.current_player == 1
    assert state.hand_size(0) == 5


def test_replay_names_the_ply_of_an_illegal_move() -> None:
    moves = _play(5, STANDARD)
    bad = [*moves[:6], Pass(), *moves[7:]]
    with pytest.raises(ReplayError) as raised:
        replay(GameRecord(seed=5, moves=tuple(bad)))
    error = raised.value
    assert error.ply == 7
    assert error.field == "moves[6]"
    assert error.move == Pass()
    assert error.rule in ("R9", "R16")
    assert "ply 7" in str(error)
    assert isinstance(error, ValueError)


def test_replay_checks_the_stated_result() -> None:
    record = record_game(_play(5, STANDARD), seed=5)
    assert record.result is not None
    a, b = record.result.totals
    other = attrs.evolve(
        record,
        result=GameResult(
            winner=record.result.winner,
            decided_by=record.result.decided_by,
            totals=record.result.totals,
            end_reason=EndReason.STALL
            if record.result.end_reason is EndReason.FINAL_TURN
            else EndReason.FINAL_TURN,
        ),
    )
    with pytest.raises(ReplayError, match="the record states") as raised:
        replay(other)
    assert raised.value.field == "result"
    assert raised.value.ply is None
    unfinished = attrs.evolve(record, moves=record.moves[:-3])
    with pytest.raises(ReplayError, match="not over"):
        replay(unfinished)
    assert not replay(attrs.evolve(unfinished, result=None)).is_over
    assert (a, b) == record.result.totals


def test_moves_after_the_end_are_refused() -> None:
    moves = _play(5, STANDARD)
    with pytest.raises(ReplayError, match="R26") as raised:
        replay(GameRecord(seed=5, moves=(*moves, Pass())))
    assert raised.value.ply == len(moves) + 1


def test_record_values_are_validated() -> None:
    with pytest.raises(InvalidInputError, match="seed"):
        GameRecord(seed=-1)
    with pytest.raises(InvalidInputError, match="seed"):
        GameRecord(seed=1 << 64)
    with pytest.raises(InvalidInputError, match="moves"):
        GameRecord(moves=("DD",))
    with pytest.raises(InvalidInputError, match="players"):
        GameRecord(players=("Ann",))  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="printable"):
        GameRecord(players=("Ann", "B\no"))
    with pytest.raises(InvalidInputError, match="tie-break"):
        GameRecord(
            result=GameResult(
                winner=0,
                decided_by=Decision.SUPPLY,
                totals=(1, 1),
                end_reason=EndReason.STALL,
            )
        )
    with pytest.raises(InvalidInputError, match="higher total"):
        GameResult(winner=0, decided_by=Decision.TOTAL, totals=(1, 2), end_reason=EndReason.STALL)
    assert record_game([], seed=-1).seed == (1 << 64) - 1  # new_game takes seeds mod 2**64


# NOTATION.md, "Game records": a name's characters are printable as `str.isprintable` says at
# Unicode 14.0.0 (hatsuden_rules.core.printable), whatever the interpreter's own version.
PRINTABLE_NAMES = ["Zo\u00eb", "\u674e \u5c0f\u9f8d", "\U0001f600", "a b", "n" * 100]
NOT_PRINTABLE_NAMES = [
    "a\u0007b",  # a control
    "a\u200bb",  # a format character: the zero-width space
    "a\u00a0b",  # a separator other than the space: no-break
    "\u3000",  # ideographic space
    "a\u2028",  # line separator
    "\ue000",  # private use
    "\u0378",  # unassigned in Unicode 14.0.0
    "\uffff",  # a noncharacter
    "x\ud800",  # a lone surrogate (JSON can escape one)
]


@pytest.mark.parametrize("name", PRINTABLE_NAMES)
def test_a_printable_name_is_kept_in_every_form(name: str) -> None:
    record = record_game([], seed=5, players=(name, "Bo"))
    assert parse_record(format_record(record)) == record
    assert from_json(to_json(record), "record") == record
    assert from_json(json.dumps(to_dict(record), ensure_ascii=True), "record") == record


@pytest.mark.parametrize("name", NOT_PRINTABLE_NAMES)
def test_a_name_that_is_not_printable_is_refused_in_every_form(name: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        record_game([], seed=5, players=(name, "Bo"))
    assert raised.value.field == "players[0]"
    text = format_record(record_game([], seed=5, players=("Ann", "Bo"))).replace("Ann", name)
    with pytest.raises(NotationError) as unreadable:
        parse_record(text)
    assert unreadable.value.position == text.index(name)
    document = to_dict(record_game([], seed=5, players=("Ann", "Bo")))
    document["players"] = [name, "Bo"]
    with pytest.raises(InvalidInputError) as malformed:
        from_json(json.dumps(document), "record")
    assert malformed.value.field == "$.players[0]"


def test_the_name_table_is_python_3_11s_isprintable() -> None:
    assert UNICODE_VERSION == "14.0.0"
    for name in PRINTABLE_NAMES:
        assert is_printable(name)
    for name in NOT_PRINTABLE_NAMES:
        assert not is_printable(name)
    if unicodedata.unidata_version == UNICODE_VERSION:
        for cp in range(0x110000):
            assert is_printable(chr(cp)) == chr(cp).isprintable(), hex(cp)


HEAD = '[Hatsuden "1"]\n[Rules "5/4/2/5/10/-/supply/retake/off"]\n[Seed "9"]\n[Result "*"]\n'


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (HEAD.replace('"1"', '"2"'), 1, "version"),
        (HEAD.replace("[Seed", "[Sed"), 3, "[Seed"),
        (HEAD.replace('"9"', '"09"'), 3, "decimal seed"),
        (HEAD + "\n1. X S5, DD\n", 6, "not a card in play"),
        (HEAD + "\n1. X S1, DD, X S2\n", 6, "starts a new line"),
        (HEAD + "\n1. X S1\n2. DD\n", 6, "ends with its draw"),
        (HEAD + "\n2. X S1, DD\n", 6, "expected turn 1"),
        (HEAD + "\n1. X S1,DD\n", 6, "unexpected ',DD'"),
        (HEAD + "1. X S1, DD\n", 5, "blank line"),
        (HEAD + "\n1. X S1, DD", 6, "', ' or the end"),
        (HEAD.replace('"*"', '"winner=0"'), 4, "expected '*'"),
        (HEAD.replace('[Result "*"]', '[Player0 "A"]\n[Result "*"]'), 5, "[Player1"),
    ],
)
def test_malformed_record_text_names_line_and_column(text: str, line: int, words: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_record(text)
    assert f"line {line}," in str(raised.value)
    assert words in str(raised.value)
    assert text[: raised.value.position].count("\n") + 1 == line


def test_an_unfinished_last_turn_parses() -> None:
    record = parse_record(HEAD + "\n1. X S1, DD\n2. X S2\n")
    assert len(record.moves) == 3
    assert record.rules.tiebreak.value == "supply"


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_game(_play(7, STANDARD), seed=7, players=("Ann", "Bo"))
    text_file = tmp_path / "game.txt"
    text_file.write_text(format_record(record))
    assert main([str(text_file)]) == 0
    out = capsys.readouterr().out
    assert "Turn 1 · Ann: " in out
    assert "Player 0 to play" in out or "Player 1 to play" in out  # boards are drawn
    assert "matches the record" in out

    json_file = tmp_path / "game.json"
    json_file.write_text(to_json(record))
    assert main([str(json_file), "--moves-only"]) == 0
    out = capsys.readouterr().out
    assert "Turn 2 · Bo: " in out
    assert "supply" not in out

    bad = tmp_path / "bad.txt"
    bad.write_text(format_record(record).replace("1. ", "1. PASS, ", 1))
    assert main([str(bad)]) == 1
    captured = capsys.readouterr()
    assert "invalid record" in captured.err
    assert "Traceback" not in captured.err

    assert main([str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_explicit_record_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_game(_play(None, MICRO, 2), rules=MICRO)
    path = tmp_path / "micro.txt"
    path.write_text(format_record(record))
    assert main([str(path), "--moves-only"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("Deal: =")
    assert "Game over" in out

    mismatch = format_record(record).replace("winner=0", "winner=X").replace("winner=1", "winner=X")
    path.write_text(mismatch)
    assert main([str(path)]) == 1
    assert "line 4, column 10: malformed result" in capsys.readouterr().err
    assert isinstance(Card(Energy.SOLAR, 1), Card)


def test_the_example_in_notation_md_replays() -> None:
    text = (ROOT_DIR / "NOTATION.md").read_text()
    start = text.index(
        '[Hatsuden "1"]\n[Rules "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"]\n[Seed'
    )
    example = text[start : text.index("```", start)]
    record = parse_record(example)
    assert format_record(record) == example
    assert not replay(record).is_over


def test_a_turn_number_is_read_in_ascii_digits_only() -> None:
    """A non-ASCII digit ends the turn number and is refused where it stands (NOTATION.md,
    "Letters of a token"; issue 23 §4.7): `2².` at the `²`, a full-width two at its place."""
    state, rng, moves = new_game(seed=3), random.Random(1), []
    for _ in range(12):
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    text = format_record(record_game(moves, seed=3))
    assert "\n2. " in text
    for digit, shift in (("2\u00b2", 1), ("\uff12", 0)):
        bad = text.replace("\n2. ", f"\n{digit}. ", 1)
        with pytest.raises(NotationError) as caught:
            parse_record(bad)
        assert caught.value.position == bad.index("\n" + digit) + 1 + shift
