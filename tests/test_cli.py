"""The ``hatsuden`` command, driven for real in subprocesses (issue 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hatsuden_rules.cli import main, parse_rules_option

HATSUDEN = Path(sys.executable).with_name("hatsuden")


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hatsuden_rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        check=False,
    )


def test_simulate_json_has_games_and_wins_by_name() -> None:
    result = run("simulate", "--players", "greedy,random", "--games", "6", "--jobs", "2", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["games"] == 6
    assert set(document["wins"]) == {"greedy", "random"}
    assert sum(document["wins"].values()) == 6
    assert document["wins"]["greedy"] >= 5
    assert "progress:" in result.stderr  # not a terminal: plain progress lines


def test_simulate_is_the_same_whatever_the_number_of_jobs() -> None:
    def outcome(jobs: str) -> dict[str, object]:
        result = run(
            "simulate",
            "--players",
            "random,greedy",
            "--games",
            "5",
            "--seed",
            "42",
            "--jobs",
            jobs,
            "--json",
            "--quiet",
        )
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""
        document = json.loads(result.stdout)
        for timing in ("seconds", "games_per_second", "seconds_per_decision", "jobs"):
            document.pop(timing)
        return dict(document)

    assert outcome("1") == outcome("2")


def test_simulate_table_and_csv() -> None:
    table = run("simulate", "--players", "greedy,random", "--games", "4", "--jobs", "1")
    assert table.returncode == 0, table.stderr
    for text in (
        "95% CI",
        "First player wins",
        "mean total",
        "cities on demand",
        "End reasons",
        "Mean length",
        "games/s",
    ):
        assert text in table.stdout
    csv = run("simulate", "--players", "greedy,random", "--games", "4", "--jobs", "1", "--csv")
    lines = csv.stdout.splitlines()
    assert lines[0].startswith("game,deal_seed,seat0,seat1,winner_seat,winner,")
    assert len(lines) == 5


def test_simulate_with_other_rules() -> None:
    result = run(
        "simulate",
        "--players",
        "greedy,ismcts:iterations=5",
        "--games",
        "2",
        "--jobs",
        "1",
        "--rules",
        "3/3/2/3/5/SMT/city_points/retake/10",
        "--json",
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["rules"] == "3/3/2/3/5/SMT/city_points/retake/10"
    assert set(document["wins"]) == {"greedy", "ismcts:iterations=5"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--players", "greedy", "--games", "2"], "expected two players"),
        (["simulate", "--players", "greedy,deep-blue", "--games", "2"], "unknown player"),
        (["simulate", "--players", "greedy,random", "--games", "0"], "must be an int >= 1"),
        (["simulate", "--players", "greedy,random", "--games", "2", "--rules", "vast"], "rules"),
        (["play", "--opponent", "ismcts:iterations=0"], "iterations"),
        (["bogus"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2_without_a_traceback(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_demo_prints_a_seeded_game_turn_by_turn() -> None:
    result = run("demo", "--players", "greedy,random", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("HATSUDEN demo · seed 3 · player 0: greedy · player 1: random")
    assert "--- turn 1 · player 0 (greedy): " in result.stdout
    assert "Winner: player" in result.stdout
    assert result.stdout == run("demo", "--players", "greedy,random", "--seed", "3").stdout


def test_check_and_replay_delegate(tmp_path: Path) -> None:
    check = run("check", "--config", "small", "--perft", "3", "--json")
    assert check.returncode == 0, check.stderr
    assert "perft" in json.loads(check.stdout)
    missing = run("replay", str(tmp_path / "missing.txt"))
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr


def test_play_a_whole_game_against_a_bot_and_replay_its_record(tmp_path: Path) -> None:
    script = "help\nboard\n" + "1\n" * 400
    result = run(
        "play", "--opponent", "random", "--seed", "7", "--first", stdin=script, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "you are player 0 (first) against random · seed 7" in out
    assert "Type the number of a move" in out  # help
    assert "Final score" in out
    assert "You win" in out or "random wins" in out
    record = tmp_path / "hatsuden-game-7.txt"
    assert record.exists()
    assert '[Player0 "You"]' in record.read_text()
    replay = run("replay", str(record), "--moves-only")
    assert replay.returncode == 0, replay.stderr
    assert "matches the record" in replay.stdout


def test_play_explains_bad_input_and_never_shows_a_traceback(tmp_path: Path) -> None:
    script = "\nfoo\n999\n0\nI S1 0S\nDD\nundo\n1\nundo\nundo\nquit\n"
    path = tmp_path / "game.txt"
    result = run("play", "--opponent", "greedy", "--seed", "5", "--record", str(path), stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "greedy played: " in out  # the bot moved first
    assert "I cannot read 'foo'" in out
    assert "There is no move 999: choose 1 to" in out
    assert "There is no move 0" in out
    assert "I S1 0S is not legal now: R12" in out
    assert "DD is not legal now: R9: DrawFromDeck is a DRAW move" in out
    assert "Nothing to undo: this is your first turn." in out
    assert "You play DD, the only legal move." in out
    assert "Back to the start of your previous turn." in out
    assert "Game stopped." in out
    assert "Traceback" not in out + result.stderr
    assert path.exists()  # the game so far is saved


def test_play_hides_the_bots_secrets() -> None:
    result = run("play", "--opponent", "greedy", "--seed", "5", "--no-record", stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "5 cards in hand" in result.stdout  # the bot's hand size, never its cards
    assert "Game record saved" not in result.stdout


def test_play_undo_inside_a_turn_goes_back_to_its_start() -> None:
    # Seed 5, second seat: after building, the tech card drawn leaves a choice in DRAW.
    script = "4\n1\nundo\nquit\n"
    result = run("play", "--opponent", "greedy", "--seed", "5", "--no-record", stdin=script)
    assert "Back to the start of this turn." in result.stdout


def test_play_end_of_input_stops_the_game(tmp_path: Path) -> None:
    result = run(
        "play", "--opponent", "random", "--seed", "3", "--first", stdin="1\n", cwd=tmp_path
    )
    assert result.returncode == 0
    assert "(end of input)" in result.stdout
    assert (tmp_path / "hatsuden-game-3.txt").exists()


@pytest.mark.skipif(not HATSUDEN.exists(), reason="the console script is not installed")
def test_the_console_script() -> None:
    result = subprocess.run(
        [
            str(HATSUDEN),
            "simulate",
            "--players",
            "random,greedy",
            "--games",
            "2",
            "--jobs",
            "1",
            "--json",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2


def test_main_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--players", "greedy,random", "--games", "2", "--jobs", "1", "--quiet"])
        == 0
    )
    assert "greedy vs random" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])


def test_rules_option_names() -> None:
    from hatsuden_rules.modelcheck import CONFIGS

    assert parse_rules_option("medium") == CONFIGS["medium"]
    assert parse_rules_option(" Standard ").stall_limit == 20


def test_progress_bar_on_a_terminal_and_plain_lines_otherwise() -> None:
    import io

    from hatsuden_rules.cli._report import Progress

    screen = io.StringIO()
    bar = Progress(screen, tty=True)
    for done in range(1, 5):
        bar(done, 4)
    text = screen.getvalue()
    assert text.startswith("\r[")
    assert "100% 4/4 games" in text
    assert "games/s" in text
    assert "ETA" in text
    assert text.endswith("\n")
    log = io.StringIO()
    lines = Progress(log, tty=False)
    for done in range(1, 101):
        lines(done, 100)
    rows = log.getvalue().splitlines()
    assert 10 <= len(rows) <= 12
    assert all(row.startswith("progress: ") for row in rows)
    assert rows[-1].startswith("progress: 100/100 games")
