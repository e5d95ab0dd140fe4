"""A game record as one HTML page (issue 14 §2): every position in three views, the move list as
each player saw it, the final score, no network; and ``replay --html`` on the command line.

The page's pictures are unpacked exactly as its script does (`page_pictures`) and compared with
`board_svg`; the browser itself is exercised by ``make browser-check`` (tools/browser_check.py).
"""

from __future__ import annotations

import html
import itertools
import random
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    DrawTech,
    GameRecord,
    GameState,
    Improve,
    InvalidInputError,
    Move,
    Observation,
    Pass,
    ReplayError,
    Rules,
    apply,
    format_move,
    format_record,
    legal_moves,
    new_game,
    observe,
    record_game,
    record_to_html,
    score,
)
from hatsuden_rules import cli as hatsuden_cli
from hatsuden_rules.cli._replay import main as replay_main
from hatsuden_rules.svg import board_svg, touched_cells
from hatsuden_rules.svg import record_to_html as svg_record_to_html
from hatsuden_rules.svg._html import page_pictures
from tests.svg.test_svg import parse

MICRO = Rules(energies=2, max_value=2, copies=2, hand_size=2, city_demand=2, stall_limit=4)


def _moves(seed: int | None, rules: Rules, n: int) -> list[Move]:
    """A whole game whose moves `random.Random(n)` picks, preferring to build (so that games
    last and end with a full grid, as real games do)."""
    rng = random.Random(n)
    state, moves = new_game(seed, rules), []
    while not state.is_over:
        options = legal_moves(state)
        weights = [3.0 if isinstance(m, Construct | Improve | DrawTech) else 1.0 for m in options]
        moves.append(rng.choices(options, weights)[0])
        state = apply(state, moves[-1])
    return moves


def _states(record: GameRecord) -> list[GameState]:
    state = new_game(record.seed, record.rules)
    states = [state]
    for move in record.moves:
        state = apply(state, move)
        states.append(state)
    return states


@cache
def page_of(record: GameRecord) -> str:
    """`record_to_html`, once per record for the whole module (it replays the whole game)."""
    return record_to_html(record)


SEEDED = record_game(_moves(2017, STANDARD, 1), seed=2017, players=("Ann", "Bo <b>"))
EXPLICIT = record_game(_moves(None, MICRO, 2), rules=MICRO)


class _Nesting(HTMLParser):
    """Checks that every element is closed, in order (void and self-closed ones excepted)."""

    VOID = frozenset({"meta", "link", "br", "hr", "img", "input", "area", "base", "col", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.seen: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append(tag)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()


@pytest.mark.parametrize("record", [SEEDED, EXPLICIT], ids=["seeded", "explicit"])
def test_the_page_parses_and_names_no_external_resource(record: GameRecord) -> None:
    page = page_of(record)
    checker = _Nesting()
    checker.feed(page)
    checker.close()
    assert checker.problems == []
    assert checker.open == []
    assert page.startswith("<!DOCTYPE html>")
    assert {"html", "head", "body", "script", "style", "svg", "button", "table"} <= set(
        checker.seen
    )
    assert not {"img", "link", "iframe", "object", "embed", "audio", "video"} & set(checker.seen)
    # The data block is base64 (which may hold "//" by chance): look at the page around it and
    # at the pictures it unpacks to.
    start = page.index('id="hatsuden-data">')
    end = page.index("</script>", start)
    pictures = "\n".join(svg for views in page_pictures(page) for svg in views)
    for text in (page[:start] + page[end:], pictures):
        lowered = text.lower()
        for word in ("http:", "https:", "//", "src=", "href=", "url(", "@import", "@font-face"):
            assert word not in lowered, word
    assert re.fullmatch(r"[A-Za-z0-9+/=\n]+", page[page.index(">", start) + 1 : end].strip())
    assert "default-src 'none'" in page  # the browser refuses any fetch (CSP)


@pytest.mark.parametrize("record", [SEEDED, EXPLICIT], ids=["seeded", "explicit"])
def test_the_page_holds_every_position_in_every_view_as_board_svg_draws_it(
    record: GameRecord,
) -> None:
    """R37: the player views are the pictures of `observe`; the last move's cells are marked."""
    page = page_of(record)
    pictures = page_pictures(page)
    states = _states(record)
    assert len(pictures) == len(record.moves) + 1
    names = record.players or ("Player 0", "Player 1")
    for k, (state, views) in enumerate(zip(states, pictures, strict=True)):
        marked = () if k == 0 else touched_cells(record.moves[k - 1], states[k - 1].current_player)
        subjects: tuple[GameState | Observation, ...] = (
            state,
            observe(state, 0),
            observe(state, 1),
        )
        for subject, shown in zip(subjects, views, strict=True):
            expected = board_svg(subject, highlight=marked, names=names)
            assert shown == expected.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
    parse(board_svg(states[-1]))


def test_the_page_is_small_for_a_whole_standard_game() -> None:
    """Each distinct line of all the pictures is stored once and the whole is deflated: a full
    STANDARD game of three views per position stays far under a megabyte (measured: 96 kB for
    the 80 moves of `hatsuden demo`'s game)."""
    page = page_of(SEEDED)
    assert len(SEEDED.moves) > 40
    assert len(page.encode()) < 150_000
    raw = sum(len(svg) for views in page_pictures(page) for svg in views)
    assert raw > 10 * len(page)  # what the pictures would weigh one by one


def _move_buttons(page: str) -> dict[int, str]:
    found = re.findall(
        r'<button type="button" class="move[^"]*" data-ply="(\d+)">(.*?)</button>', page
    )
    return {int(ply): inner for ply, inner in found}


def test_the_move_list_has_every_move_in_notation() -> None:
    page = page_of(SEEDED)
    buttons = _move_buttons(page)
    assert set(buttons) == set(range(len(SEEDED.moves) + 1))
    for ply, move in enumerate(SEEDED.moves, 1):
        assert format_move(move).replace("<", "&lt;") in buttons[ply]
    turns = re.findall(r'<span class="turn">([^<]*)</span>', page)
    assert turns[:2] == ["1. Ann", "2. Bo &lt;b&gt;"]  # player 0 plays the odd turns


def test_r37_the_player_views_of_the_move_list_conceal_what_they_did_not_see() -> None:
    """The deal before the first turn: each player sees their own cards only (R36, R37)."""
    page = page_of(EXPLICIT)
    buttons = _move_buttons(page)
    first_to_1 = MICRO.hand_size + 1  # the deals go to player 0 first (R7)
    card = format_move(EXPLICIT.moves[first_to_1 - 1])
    assert buttons[1] == (
        f'<span class="only-god">{format_move(EXPLICIT.moves[0])}</span>'
        f'<span class="only-p0">{format_move(EXPLICIT.moves[0])}</span>'
        '<span class="only-p1">=?</span>'
    )
    assert buttons[first_to_1] == (
        f'<span class="only-god">{card}</span><span class="only-p0">=?</span>'
        f'<span class="only-p1">{card}</span>'
    )


def _as_seen(move: Move, mover: int, viewer: int) -> str:
    """R37, written out: the opponent's pylon card, secret card and dealt cards are hidden."""
    if mover == viewer:
        return format_move(move)
    if isinstance(move, BuildPylon):
        return f"P ? {move.cell.row}{move.cell.energy.letter}"
    if isinstance(move, Construct) and move.secret:
        return f"C* ? {move.cell.row}{move.cell.energy.letter}"
    if isinstance(move, Deal):
        return "=?"
    if isinstance(move, DealTech):
        return "=???"
    return format_move(move)


@pytest.mark.parametrize("record", [SEEDED, EXPLICIT], ids=["seeded", "explicit"])
def test_r37_every_move_reads_in_each_view_as_that_player_saw_it(record: GameRecord) -> None:
    buttons = _move_buttons(page_of(record))
    states = _states(record)
    concealed = 0
    for ply, move in enumerate(record.moves, 1):
        mover = states[ply - 1].current_player
        texts = [format_move(move), _as_seen(move, mover, 0), _as_seen(move, mover, 1)]
        if len(set(texts)) == 1:
            assert buttons[ply] == texts[0].replace("<", "&lt;")
        else:
            concealed += 1
            assert buttons[ply] == "".join(
                f'<span class="only-{view}">{text}</span>'
                for view, text in zip(("god", "p0", "p1"), texts, strict=True)
            )
    assert concealed > 0


def test_r14_r37_an_opponents_pylon_card_is_concealed_in_their_view_of_the_moves() -> None:
    state = new_game(seed=3)
    pylon = next(m for m in legal_moves(state) if isinstance(m, BuildPylon) and m.cell.row == 0)
    page = record_to_html(record_game([pylon], seed=3))
    where = f"0{pylon.cell.energy.letter}"
    assert (
        f'<span class="only-god">{format_move(pylon)}</span>'
        f'<span class="only-p0">{format_move(pylon)}</span>'
        f'<span class="only-p1">P ? {where}</span>'
    ) in page


def test_the_final_score_sheet_is_the_score_of_the_last_position() -> None:
    page = page_of(SEEDED)
    sheet = score(_states(SEEDED)[-1])
    rows = re.findall(r"<tr(?: class=\"winner\")?><th scope=\"row\">([^<]*)</th>(.*?)</tr>", page)
    assert [name for name, _ in rows] == ["Ann", "Bo &lt;b&gt;"]
    for (_, cells), sheet_p in zip(rows, sheet.players, strict=True):
        values = re.findall(r"<td[^>]*>(?:<strong>)?(-?\+?\d+)", cells)
        assert values == [
            *(str(g) for g in sheet_p.generation),
            str(sheet_p.energy_points),
            *(str(s) for s in sheet_p.row_supply),
            f"{sheet_p.city_points:+d}",
            str(sheet_p.total),
        ]
    winner = ("Ann", "Bo &lt;b&gt;")[sheet.winner]
    assert f"<strong>{winner} wins</strong>" in page


def _outside_the_data(page: str) -> str:
    start = page.index('id="hatsuden-data">')
    return page[:start] + page[page.index("</script>", start) :]


@pytest.mark.parametrize("record", [SEEDED, EXPLICIT], ids=["seeded", "explicit"])
def test_the_page_does_not_give_the_result_away(record: GameRecord) -> None:
    """Issue 23 §3: no winner or final total in the title or header; the score sheet folded
    until the last move; the picture shown before the script runs is the start position."""
    page = page_of(record)
    final = _states(record)[-1]
    sheet = score(final)
    names = record.players or ("Player 0", "Player 1")
    title = re.search(r"<title>(.*?)</title>", page)
    heading = re.search(r"<header>(.*?)</header>", page, flags=re.DOTALL)
    assert title is not None
    assert heading is not None
    assert sheet.winner in (0, 1)
    for text in (title[1], heading[1]):
        assert "wins" not in text
        assert "won" not in text
        assert not re.search(r"-?\d+ to -?\d+", text)  # no final score
    assert title[1] == f"HATSUDEN · {names[0]} vs {names[1]}".replace("<", "&lt;").replace(
        ">", "&gt;"
    )
    folded = re.search(r'<details class="result" id="result">(.*?)</details>', page, re.DOTALL)
    assert folded is not None  # closed: no `open` attribute
    assert '<table class="sheet">' in folded[1]
    assert "wins</strong>" in folded[1]
    visible = _outside_the_data(page).replace(folded[0], "")
    assert "wins" not in visible
    assert "Game over" not in visible
    board = re.search(r'<div id="board">\n(.*?)</div>\n<p class="keys">', page, re.DOTALL)
    assert board is not None
    assert board[1] == page_pictures(page)[0][0]  # the start position, all cards
    assert "if (ply === last) { result.open = true; }" in page  # unfolded at the end


def _turns_in_the_list(page: str) -> list[str]:
    """Each turn of the move list as it reads on the page (god view): moves and separators."""
    items = re.findall(r'<li><span class="turn">[^<]*</span> (.*?)</li>', page)
    out = []
    for item in items:
        text = re.sub(r'<span class="only-p[01]">.*?</span>', "", item)
        out.append(html.unescape(re.sub(r"<[^>]+>", "", text)))
    return out


@pytest.mark.parametrize("record", [SEEDED, EXPLICIT], ids=["seeded", "explicit"])
def test_the_move_list_spells_a_turn_as_the_board_does(record: GameRecord) -> None:
    """A turn's moves separated by ", ", as the board's "Last turn" line writes them (R36)."""
    states = _states(record)
    # A seeded game deals by itself: its logs hold deals the record (and the list) do not.
    dealt = Deal | DealTech if record.seed is not None else ()
    seen = [
        ", ".join(format_move(m) for m in state.last_turn if not isinstance(m, dealt))
        for before, state in itertools.pairwise(states)
        if before.this_turn and not state.this_turn and state.last_turn
    ]
    turns = _turns_in_the_list(page_of(record))
    deal = 1 if record.seed is None else 0  # the explicit record's deal is a turn of its own
    assert turns[deal : deal + len(seen)] == seen
    assert len(seen) >= 8
    assert all(", " in turn for turn in turns[deal:])


def test_the_page_has_a_key_to_every_move_letter() -> None:
    """Issue 23 §3: the letters of every move kind (NOTATION.md) are in the page's key."""
    page = page_of(SEEDED)
    key = re.search(r'<dl class="legend">(.*?)</dl>', page, re.DOTALL)
    assert key is not None
    words = set(re.split(r"[\s/(),:]+", re.sub(r"<[^>]+>", " ", key[1])))
    verbs = {"C", "C*", "I", "D", "P", "X", "PASS", "DT", "NT", "F", "FS", "A", "M", "DD", "DX"}
    assert verbs | {"E"} <= words
    assert {"=?", "=???", "ACC", "SEC", "SMT", "DWN", "S", "G", "W", "H", "B"} <= words
    assert {"=S4", "=ACC"} <= words  # a dealt card and a dealt tech card


def test_an_unfinished_record_makes_a_page_without_a_final_score() -> None:
    record = record_game(SEEDED.moves[:7], seed=2017)
    page = record_to_html(record)
    assert "The game is not over" in page
    assert len(page_pictures(page)) == 8


def test_equal_names_are_told_apart() -> None:
    page = record_to_html(record_game(SEEDED.moves[:6], seed=2017, players=("bot", "bot")))
    assert "bot (0)'s view" in page
    assert "bot (1)'s view" in page


def test_a_record_that_does_not_replay_is_refused_like_replay_does() -> None:
    with pytest.raises(ReplayError, match=r"^moves\[0\]: ply 1 .*R16"):
        record_to_html(GameRecord(seed=1, moves=(Pass(),)))
    with pytest.raises(InvalidInputError, match=r"^record: expected a GameRecord"):
        record_to_html("1. X S1, DD")  # type: ignore[arg-type]


def test_record_to_html_is_exported_at_the_top_level() -> None:
    assert record_to_html is svg_record_to_html


# -- the command line ----------------------------------------------------------------------------


def _write(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(format_record(record), encoding="utf-8")
    return path


def test_replay_html_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write(tmp_path, EXPLICIT)
    page = tmp_path / "game.html"
    assert replay_main([str(source), "--html", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == page_of(EXPLICIT)
    out = capsys.readouterr().out
    assert out.startswith(f"{page}: {len(EXPLICIT.moves) + 1} positions in 3 views")
    assert "Turn 1" not in out  # the text replay is not printed


def test_hatsuden_replay_html_is_the_same_command(tmp_path: Path) -> None:
    record = record_game(SEEDED.moves[:12], seed=2017)
    source = _write(tmp_path, record)
    page = tmp_path / "start.html"
    assert hatsuden_cli.main(["replay", str(source), "--html", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == record_to_html(record)


def test_replay_html_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write(tmp_path, EXPLICIT)
    assert replay_main([str(source), "--html", "-"]) == 0
    assert capsys.readouterr().out == page_of(EXPLICIT)


def test_replay_html_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path, EXPLICIT)
    assert replay_main([str(source), "--html", str(tmp_path / "no" / "such" / "dir.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hatsuden-replay: cannot write ")
    assert err.count("\n") == 1
    bad = tmp_path / "bad.txt"
    bad.write_text(format_record(GameRecord(seed=1, moves=(Pass(),))), encoding="utf-8")
    assert replay_main([str(bad), "--html", str(tmp_path / "bad.html")]) == 1
    err = capsys.readouterr().err
    assert "invalid record: ply 1 " in err
    assert err.count("\n") == 1
    assert not (tmp_path / "bad.html").exists()


def test_the_explicit_record_starts_with_the_deal() -> None:
    """A check of the test's own record: MICRO deals 2 + 2 cards before the first turn (R7)."""
    assert all(isinstance(m, Deal) for m in EXPLICIT.moves[:4])
    assert not isinstance(EXPLICIT.moves[4], Deal)
