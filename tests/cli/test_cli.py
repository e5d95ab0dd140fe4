"""The ``hatsuden`` command, driven for real in subprocesses (issue 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hatsuden_rules.cli import main, parse_rules_option
from hatsuden_rules.notation import parse_rules
from hatsuden_rules.serialization import to_json
from tests.support.paths import ROOT_DIR

HATSUDEN = Path(sys.executable).with_name("hatsuden")
ENVELOPE = ("type", "format_version")


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
    assert document["rules_notation"] == "3/3/2/3/5/SMT/city_points/retake/10"
    # The rules in the library's JSON spelling: the body of to_json(rules).
    rules = parse_rules("3/3/2/3/5/SMT/city_points/retake/10")
    body = {k: v for k, v in json.loads(to_json(rules)).items() if k not in ENVELOPE}
    assert document["rules"] == body
    assert document["rules"]["techs"] == ["smart"]
    assert document["rules"]["tiebreak"] == "city_points"
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
    assert "turn  1 · player 0 (greedy): " in result.stdout
    assert "Winner: player" in result.stdout
    assert result.stdout == run("demo", "--players", "greedy,random", "--seed", "3").stdout


def test_demo_is_a_pleasant_first_minute() -> None:
    """Issue 23: a key, a few boards (``--every N``), a score sheet, one spelling."""
    from hatsuden_rules.cli._demo import DEMO_KEY

    text = run("demo", "--players", "greedy,random", "--seed", "3").stdout
    assert DEMO_KEY in text
    turns = sum(line.startswith("turn ") for line in text.splitlines())
    boards = text.count(" · deck ")
    assert turns >= 20
    assert boards == turns // 10 + 1 - (turns % 10 == 0)  # every 10 turns, and the end
    every = run("demo", "--players", "greedy,random", "--seed", "3", "--every", "1").stdout
    assert every.count(" · deck ") == turns
    assert "Final score\n" in text
    assert "energy  cities  total" in text
    assert " energy + " in text
    assert " cities = " in text
    assert " city = " not in text  # not `points 1 energy -2 city = -1`
    for name in ("SOLAR", "GEOTHERMAL", "WIND", "HYDRO", "BIOMASS"):
        assert name not in text  # energies are S G W H B throughout
    for name in ("ACCUMULATOR", "SECRET_BUILD", "SMART", "DOWN"):
        assert name not in text  # techs are ACC SEC SMT DWN throughout


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


# -- issue 13: hatsuden play's legend and records that are never overwritten silently ---------


def test_play_shows_a_legend_line_under_the_board_and_a_legend_command() -> None:
    from hatsuden_rules.cli._board import LEGEND, LEGEND_LINE

    result = run(
        "play", "--opponent", "greedy", "--seed", "5", "--no-record", stdin="legend\nquit\n"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # The key follows the board's last line (the leader row, or the last-turn line after it).
    key = lines.index(LEGEND_LINE)
    assert lines[key + 1].startswith("Your moves (")
    for symbol in (". empty", "3 plant", "3s secret", "3v downsized", "? hidden", "# pylon"):
        assert symbol in LEGEND_LINE
    assert "#3 flipped" in LEGEND_LINE
    assert "=? unseen" in LEGEND_LINE
    assert LEGEND in result.stdout  # the legend command
    for symbol in ("  =S3 ", "=???", "  #3 ", "  3v ", "  3s ", "  ?  ", "  .  ", "+?", "leader"):
        assert symbol in LEGEND, symbol
    assert (
        "legend (what every symbol means)"
        in run(
            "play", "--opponent", "random", "--seed", "5", "--no-record", stdin="help\nquit\n"
        ).stdout
    )


def test_play_refuses_to_overwrite_a_record(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("precious\n")
    result = run("play", "--opponent", "random", "--seed", "3", "--record", str(path), stdin="1\n")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "the file exists; choose another path or add --force to overwrite it" in result.stderr
    assert result.stdout == ""  # refused before the game started
    assert path.read_text() == "precious\n"
    forced = run(
        "play",
        "--opponent",
        "random",
        "--seed",
        "3",
        "--first",
        "--record",
        str(path),
        "--force",
        stdin="1\nquit\n",
    )
    assert forced.returncode == 0, forced.stderr
    assert path.read_text().startswith('[Hatsuden "1"]')
    assert f"Game record saved to {path}" in forced.stdout
    alone = run("play", "--opponent", "random", "--force", stdin="quit\n")
    assert alone.returncode == 2
    assert "--force goes with --record PATH" in alone.stderr


def test_play_picks_a_fresh_default_record_name(tmp_path: Path) -> None:
    taken = tmp_path / "hatsuden-game-3.txt"
    taken.write_text("an older game\n")
    (tmp_path / "hatsuden-game-3-2.txt").write_text("another\n")
    result = run(
        "play", "--opponent", "random", "--seed", "3", "--first", stdin="1\nquit\n", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert taken.read_text() == "an older game\n"
    fresh = tmp_path / "hatsuden-game-3-3.txt"
    assert fresh.read_text().startswith('[Hatsuden "1"]')
    assert "Game record saved to hatsuden-game-3-3.txt" in result.stdout


# -- issue 14 / 12: simulate --save-games and backends ---------------------------------------


def test_simulate_saves_every_game_for_replay(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    args = ["simulate", "--players", "greedy,random", "--games", "5", "--seed", "8"]
    result = run(*args, "--jobs", "2", "--save-games", str(folder), "--csv")
    assert result.returncode == 0, result.stderr
    names = sorted(path.name for path in folder.iterdir())
    assert names == [f"seed8-game{i:06d}.txt" for i in range(5)]
    assert f"5 game records saved in {folder}" in result.stderr
    rows = result.stdout.splitlines()[1:]
    for row, name in zip(rows, names, strict=True):
        replay = run("replay", str(folder / name), "--moves-only")
        assert replay.returncode == 0, replay.stderr
        assert "matches the record" in replay.stdout
        text = (folder / name).read_text()
        _, deal_seed, seat0, seat1 = row.split(",")[:4]
        assert f'[Seed "{deal_seed}"]' in text
        assert f'[Player0 "{seat0}"]' in text
        assert f'[Player1 "{seat1}"]' in text
    # The same match again: the records are there, and are not overwritten silently.
    again = run(*args, "--jobs", "1", "--save-games", str(folder), "--quiet")
    assert again.returncode == 1
    assert again.stderr.count("\n") == 1
    assert "5 game record(s) of this match already exist" in again.stderr
    assert "--force" in again.stderr
    before = (folder / names[0]).read_text()
    (folder / names[0]).write_text("stale\n")
    forced = run(*args, "--jobs", "1", "--save-games", str(folder), "--quiet", "--force")
    assert forced.returncode == 0, forced.stderr
    assert (folder / names[0]).read_text() == before  # the same game, whatever --jobs


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--address", "auto"], "--address needs --backend ray"),
        (["--backend", "spark"], "unknown backend 'spark': expected local or ray"),
        (["--backend", "ray", "--address", "auto", "--jobs", "2"], "a cluster (--address)"),
        (["--force"], "--force goes with --save-games DIR"),
    ],
)
def test_simulate_backend_usage_errors(args: list[str], message: str) -> None:
    result = run("simulate", "--players", "greedy,random", "--games", "2", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_simulate_on_ray_without_the_extra_names_it() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"  # as if the ray extra were not installed
        "from hatsuden_rules.cli import main\n"
        "sys.exit(main(['simulate', '--players', 'greedy,random', '--games', '2', "
        "'--backend', 'ray', '--quiet']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 1
    assert result.stderr == (
        "hatsuden: the Ray backend needs the 'ray' extra: pip install 'hatsuden-rules[ray]'\n"
    )


def test_simulate_on_an_unreachable_ray_cluster_fails_at_once() -> None:
    result = run(
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "2",
        "--backend",
        "ray",
        "--address",
        "127.0.0.1:1",
        "--quiet",
    )
    assert result.returncode == 1
    assert result.stderr.startswith("hatsuden: cannot connect to Ray at 127.0.0.1:1: ")
    assert result.stderr.count("\n") == 1


def test_simulate_json_uses_the_library_spellings() -> None:
    result = run(
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "4",
        "--jobs",
        "1",
        "--json",
        "--quiet",
        "--tiebreak",
        "SUPPLY",
        "--techs",
        "SMART,DOWN",
    )
    document = json.loads(result.stdout)
    assert document["rules"]["tiebreak"] == "supply"
    assert document["rules"]["techs"] == ["smart", "down"]
    assert set(document["end_reasons"]) <= {"final_turn", "stall"}
    assert set(document["decided_by"]) <= {"total", "supply", "second_player"}
    assert document["backend"] == "local"
    csv = run(
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "4",
        "--jobs",
        "1",
        "--csv",
        "--techs",
        "SMART,DOWN",
    ).stdout.splitlines()
    header = csv[0].split(",")
    techs = {
        t
        for row in csv[1:]
        for column in ("techs0", "techs1")
        for t in row.split(",")[header.index(column)].split("+")
        if t
    }
    assert techs
    assert techs <= {"smart", "down"}


# -- issue 13: hatsuden rules ------------------------------------------------------------------


def test_rules_prints_rules_from_rules_md() -> None:
    result = run("rules", "R12", "a5")
    assert result.returncode == 0, result.stderr
    text = (ROOT_DIR / "RULES.md").read_text(encoding="utf-8")
    start = text.index("### R12. Improve")
    assert result.stdout.startswith(text[start : text.index("\n\n", start)])
    assert "\n\n**A5. Secret Build details.**" in result.stdout
    assert "### R13" not in result.stdout
    assert run("rules", "12").stdout == run("rules", "R12").stdout
    whole = run("rules")
    assert whole.returncode == 0
    assert whole.stdout.startswith("# HATSUDEN")
    assert "### R39. Observation tensor" in whole.stdout


def test_rules_list_and_unknown_ids() -> None:
    listing = run("rules", "--list").stdout.splitlines()
    assert [line.split()[0] for line in listing[:41]] == [f"R{n}" for n in range(1, 42)]
    assert "R12   Improve" in listing
    assert "A1    Tie-break 1" in listing
    bad = run("rules", "R12", "R99")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == (
        "hatsuden rules: error: unknown rule 'R99': valid ids are R1-R41, A1-A11, B1-B6, C1-C10\n"
    )


def test_rules_are_read_from_the_installed_package_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.resources

    from hatsuden_rules.cli import _rulebook

    (tmp_path / "RULES.md").write_text(
        '# Rules\n\n## Part\n\n### R12. Improve {#r12}\nShipped text.\n\n<a id="r13"></a>\n\n'
        "### R13. Downsize\nMore.\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(importlib.resources, "files", lambda package: tmp_path)
    assert _rulebook.read_rules_text().startswith("# Rules")
    assert main(["rules", "R12"]) == 0
    assert capsys.readouterr().out == "### R12. Improve\nShipped text.\n"
    assert main(["rules", "--list"]) == 0
    assert capsys.readouterr().out == "R12   Improve\nR13   Downsize\n"
    assert main(["rules", "R12", "R13"]) == 0
    assert (
        capsys.readouterr().out == "### R12. Improve\nShipped text.\n\n### R13. Downsize\nMore.\n"
    )
    assert main(["rules"]) == 0
    whole = capsys.readouterr().out
    assert "{#r1" not in whole
    assert "<a id" not in whole


def test_replay_of_an_illegal_move_shows_the_board_before_it_in_one_numbering(
    tmp_path: Path,
) -> None:
    """Issue 23: `hatsuden replay` errors as `hatsuden replay:`, 1-based ply and turn only, and
    the board the offending move was tried on (not the last finished turn's)."""
    import random
    import re

    from hatsuden_rules import apply, legal_moves, new_game, record_game
    from hatsuden_rules.core.render import render
    from hatsuden_rules.records import format_record

    rng = random.Random(4)
    state, moves = new_game(7), []
    while not state.is_over:
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    text = format_record(record_game(moves, seed=7))
    turn3 = re.search(r"^3\. ([^,\n]+), ", text, flags=re.MULTILINE)
    assert turn3 is not None
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace(turn3.group(0), f"3. {turn3.group(1)}, PASS, ", 1))
    ply = (
        sum(
            len(line.split(". ", 1)[1].split(", "))
            for line in text.splitlines()
            if re.match(r"^[12]\. ", line)
        )
        + 2
    )  # turns 1 and 2, then turn 3's first move; PASS is the next
    before = new_game(7)
    for move in moves[: ply - 1]:
        before = apply(before, move)

    result = run("replay", str(bad))
    assert result.returncode == 1
    assert result.stderr.startswith(f"hatsuden replay: {bad}: invalid record: ply {ply} (turn 3, ")
    assert "moves[" not in result.stderr  # no 0-based path beside the 1-based numbers
    assert f"Turn 3 · player 0: {turn3.group(1)}, ...\n" in result.stdout
    assert result.stdout.endswith(f"The board before ply {ply}:\n{render(before)}\n\n")
    standalone = subprocess.run(
        [sys.executable, "-m", "hatsuden_rules.cli._replay", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert standalone.stderr.startswith("hatsuden-replay: ")


def test_play_echoes_what_the_user_typed() -> None:
    """Issue 23: `foo` is quoted as `'foo'`, not `'FOO'`."""
    result = run(
        "play", "--opponent", "random", "--seed", "1", "--no-record", "--first", stdin="foo\nquit\n"
    )
    assert "I cannot read 'foo': " in result.stdout
    assert "found 'foo' at position 0 of 'foo'" in result.stdout
    assert "FOO" not in result.stdout


def test_a_misspelt_subcommand_option_gets_the_subcommands_usage_and_a_suggestion() -> None:
    """Issue 23: `hatsuden play --opponnent greedy`: play's usage, not the top-level one."""
    result = run("play", "--opponnent", "greedy")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: hatsuden play ")
    assert result.stderr.endswith(
        "hatsuden play: error: unrecognized arguments: --opponnent greedy "
        "(did you mean --opponent?)\n"
    )
    assert "Traceback" not in result.stderr
