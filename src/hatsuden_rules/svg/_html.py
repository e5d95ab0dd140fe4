"""A game record as one self-contained HTML page (the implementation of `record_to_html`).

The page holds the picture of every position in three views (all cards, player 0's, player
1's: the player views are drawn from `observe`), previous/next buttons and arrow keys, the move
list in notation (as each view saw the moves) with the current move highlighted, a key to the
move notation, and the final score sheet, folded away until the last move (the title and the
header name the players, not the winner). It needs no network and no other file: the SVG, the
CSS and the script are inline, and a Content-Security-Policy forbids every fetch.

Size: the pictures are drawn once per position and view by `board_svg`'s code, then stored as a
table of distinct lines plus, per picture, the list of its line numbers; the script joins them
back. Consecutive positions share most lines (a move changes a few cells), so a whole STANDARD
game stays small, and every picture is rebuilt byte for byte (the tests check it).
"""

from __future__ import annotations

import base64
import html
import json
import zlib
from collections.abc import Iterable
from typing import Final

from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.cards import Cell
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    Downsize,
    Flip,
    Improve,
    Move,
)
from hatsuden_rules.core.scoring import Decision, score
from hatsuden_rules.core.state import Chance, EndReason, GameState
from hatsuden_rules.notation import format_move, format_rules, format_seen_move
from hatsuden_rules.observation import Concealed, Observation, SeenMove, observe
from hatsuden_rules.serialization._records import GameRecord, replay
from hatsuden_rules.svg._board import draw
from hatsuden_rules.svg._page import PAGE
from hatsuden_rules.svg._view import view_of

__all__ = ["VIEWS", "page_data", "page_names", "page_pictures", "record_to_html", "touched_cells"]

#: The views of a page, in toggle order: all cards, then each player's.
VIEWS: Final = ("god", "p0", "p1")

_CELL_MOVES: Final = (Construct, Improve, Downsize, BuildPylon, Flip)


def touched_cells(move: SeenMove, player: int) -> tuple[tuple[int, Cell], ...]:
    """The cells `move`, made by `player`, puts a card on or flips: ``((player, cell),)`` or ``()``.

    Pass the result as `board_svg`'s `highlight` to mark the last move. A `Concealed`
    BuildPylon or secret Construct touches its (public) cell; every other move, placements and
    draws included, touches no cell.

    Examples:
        >>> from hatsuden_rules import Card, Cell, Construct, Energy, Flip, DrawFromDeck
        >>> touched_cells(Flip(Cell(1, Energy.WIND)), 0)
        ((0, Cell(row=1, energy=Energy.WIND)),)
        >>> touched_cells(DrawFromDeck(), 1)
        ()
    """
    if type(player) is not int or player not in (0, 1):
        raise InvalidInputError("player", f"must be 0 or 1, got {player!r}")
    if isinstance(move, _CELL_MOVES) or (isinstance(move, Concealed) and move.cell is not None):
        cell = move.cell
        assert cell is not None
        return ((player, cell),)
    return ()


def page_names(record: GameRecord) -> tuple[str, str]:
    """The players' names on a page: the record's, told apart when equal, or Player 0 and 1."""
    if record.players is None:
        return ("Player 0", "Player 1")
    first, second = record.players
    if first == second:
        return (f"{first} (0)", f"{second} (1)")
    return (first, second)


def _seen(before: GameState, move: Move, after: GameState, player: int) -> SeenMove:
    """`move` (from `before` to `after`) as `player` saw it (R36, R37)."""
    if before.pending_chance is Chance.SETUP:  # the deal is in no log (R36)
        return move if before.current_player == player else Concealed("Deal")
    done = len(before.this_turn)
    seen = observe(after, player)
    log = seen.this_turn if len(after.this_turn) > done else seen.last_turn
    return log[done]


class _Ply:
    """One move of the record with what the page shows about it."""

    __slots__ = ("chance", "number", "player", "texts", "turn")

    def __init__(
        self, number: int, turn: int, player: int, texts: tuple[str, str, str], chance: bool
    ) -> None:
        self.number = number
        self.turn = turn
        self.player = player
        self.texts = texts
        self.chance = chance


def page_data(record: GameRecord) -> tuple[list[GameState], list[_Ply], list[list[str]]]:
    """Replay `record`: every state, every ply, and per state the SVG text of each view.

    Raises:
        ReplayError: A move is not legal or the stated result does not match.
    """
    if type(record) is not GameRecord:
        raise InvalidInputError("record", f"expected a GameRecord, got {type(record).__name__}")
    replay(record)  # checks every move and the stated result, with the record's error messages
    names = page_names(record)
    state = new_game(record.seed, record.rules)
    states = [state]
    plies: list[_Ply] = []
    highlights: list[tuple[tuple[int, Cell], ...]] = [()]
    turn = 0 if state.pending_chance is Chance.SETUP else 1
    for number, move in enumerate(record.moves, 1):
        after = apply(state, move)
        player = state.current_player
        texts = (
            format_move(move),
            format_seen_move(_seen(state, move, after, 0)),
            format_seen_move(_seen(state, move, after, 1)),
        )
        plies.append(_Ply(number, turn, player, texts, isinstance(move, Deal | DealTech)))
        highlights.append(touched_cells(move, player))
        if state.pending_chance is Chance.SETUP:
            if after.pending_chance is not Chance.SETUP:
                turn = 1
        elif not after.this_turn:
            turn += 1
        states.append(after)
        state = after
    pictures = []
    for state, marked in zip(states, highlights, strict=True):
        subjects: tuple[GameState | Observation, ...] = (
            state,
            observe(state, 0),
            observe(state, 1),
        )
        pictures.append(
            [
                draw(
                    view_of(subject),
                    bottom=bottom,
                    size=None,
                    marked=frozenset(marked),
                    names=names,
                    colors=None,
                    standalone=False,
                )
                for subject, bottom in zip(subjects, (0, 0, 1), strict=True)
            ]
        )
    return states, plies, pictures


def _pack(pictures: list[list[str]]) -> tuple[list[str], list[list[list[int]]]]:
    """The distinct lines of all pictures, and each picture as a list of line numbers."""
    table: dict[str, int] = {}
    frames = []
    for views in pictures:
        frame = []
        for text in views:
            lines = text.split("\n")
            frame.append([table.setdefault(line, len(table)) for line in lines])
        frames.append(frame)
    return list(table), frames


def _packed(value: object) -> str:
    """`value` as JSON, deflated (zlib) and in base64, wrapped at 100 characters a line."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    encoded = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    return "\n".join(encoded[k : k + 100] for k in range(0, len(encoded), 100))


_REASONS: Final = {EndReason.FINAL_TURN: "final turn", EndReason.STALL: "stall"}
_DECIDED: Final = {
    Decision.TOTAL: "the higher total",
    Decision.CITY_POINTS: "tie-break 1, the higher city points",
    Decision.SUPPLY: "tie-break 1, the higher total supply",
    Decision.SECOND_PLAYER: "tie-break 2: the second player wins a full tie",
}


def _score_sheet(final: GameState, names: tuple[str, str]) -> str:
    """The final score as an HTML table (everything that scores is public at the end, R26)."""
    if not final.is_over:
        return (
            '<p class="unfinished">The game is not over after the last move of the record; '
            "the board shows the score as if it ended there.</p>"
        )
    sheet = score(final)
    esc = html.escape
    head = "".join(
        f'<th scope="col"><abbr title="{e.name.capitalize()}">{e.letter}</abbr>'
        + ("\N{MULTIPLICATION SIGN}2" if sheet.smart is e else "")
        + "</th>"
        for e in final.rules.energies_in_play
    )
    rows = []
    for seat, sheet_p in enumerate(sheet.players):
        cells = "".join(
            f'<td class="won">{value}</td>'
            if sheet.energy_winners[e] == seat
            else f"<td>{value}</td>"
            for e, value in enumerate(sheet_p.generation)
        )
        rows.append(
            ('<tr class="winner">' if sheet.winner == seat else "<tr>")
            + f'<th scope="row">{esc(names[seat])}</th>{cells}'
            f"<td>{sheet_p.energy_points}</td><td>{sheet_p.row_supply[0]}</td>"
            f"<td>{sheet_p.row_supply[1]}</td><td>{sheet_p.city_points:+d}</td>"
            f"<td><strong>{sheet_p.total}</strong></td></tr>"
        )
    assert final.end_reason is not None
    verdict = (
        f"<strong>{esc(names[sheet.winner])} wins</strong>, decided by "
        f"{_DECIDED[sheet.decided_by]} (game over: {_REASONS[final.end_reason]})."
    )
    return (
        '<table class="sheet"><caption>Generation per energy (shaded: wins the majority, '
        "R27), energy points, supply of city 0 and city 1, city points (R28), total</caption>"
        f'<thead><tr><th scope="col">Player</th>{head}<th scope="col">pts</th>'
        '<th scope="col">city 0</th><th scope="col">city 1</th><th scope="col">pts</th>'
        '<th scope="col">total</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
        f'<p class="verdict">{verdict}</p>'
    )


def _move_list(plies: list[_Ply], names: tuple[str, str]) -> str:
    """The moves grouped by turn, as buttons; a concealed move has one text per view."""
    esc = html.escape
    out: list[str] = []
    current: int | None = None
    for ply in plies:
        if ply.turn != current:
            if current is not None:
                out.append("</li>")
            current = ply.turn
            who = "Deal" if ply.turn == 0 else f"{ply.turn}. {names[ply.player]}"
            out.append(f'<li><span class="turn">{esc(who)}</span> ')
        god, zero, one = ply.texts
        if god == zero == one:
            text = esc(god)
        else:
            text = "".join(
                f'<span class="only-{view}">{esc(t)}</span>'
                for view, t in zip(VIEWS, ply.texts, strict=True)
            )
        kind = " chance" if ply.chance else ""
        if not out[-1].startswith("<li>"):
            out.append('<span class="sep">,</span> ')  # as the board's "Last turn" writes them
        out.append(
            f'<button type="button" class="move{kind}" data-ply="{ply.number}">{text}</button>'
        )
    if current is not None:
        out.append("</li>")
    return '<ol class="moves">' + "".join(out) + "</ol>" if out else "<p>No moves.</p>"


def record_to_html(record: GameRecord) -> str:
    """One self-contained HTML page to step through `record`.

    The page shows the board after every move (the pictures of `board_svg`, the last move's
    cells highlighted) in three views: all cards, player 0's and player 1's (drawn from
    `observe`, so each shows only what that player saw, and the move list shows their moves
    as they saw them). Previous/next buttons, the arrow keys, Home/End and a click on a move
    step through the game; ``V``, ``G``, ``0`` and ``1`` switch the view. The move list is in
    notation (NOTATION.md), a turn's moves separated by commas as on the board, with the
    current move highlighted and a key to the move letters below it. The result is not given
    away: the title and the header name the players only, and the final score sheet stays
    folded ("Show the result") until the last position is reached or the reader opens it.
    The page needs no network and no other file: the CSS and script are inline, the
    pictures are stored once per distinct line, deflated, and unpacked by the browser
    (``DecompressionStream``); a Content-Security-Policy forbids any fetch. Until the script
    runs, the page shows the start position.

    Args:
        record: A game record; it is replayed and checked first.

    Returns:
        The HTML document.

    Raises:
        ReplayError: A move is not legal, or the stated result does not match the game.
        InvalidInputError: `record` is not a `GameRecord`.

    Examples:
        >>> import random
        >>> from hatsuden_rules import apply, legal_moves, new_game, record_game
        >>> state, rng, moves = new_game(seed=4), random.Random(4), []
        >>> while not state.is_over:
        ...     moves.append(rng.choice(legal_moves(state)))
        ...     state = apply(state, moves[-1])
        >>> page = record_to_html(record_game(moves, seed=4, players=("Ann", "Bo")))
        >>> page.startswith("<!DOCTYPE html>"), "http:" in page or "https:" in page
        (True, False)
        >>> len(page_pictures(page)) == len(moves) + 1  # every position, three views each
        True
    """
    states, plies, pictures = page_data(record)
    names = page_names(record)
    lines, frames = _pack(pictures)
    meta = [[p.turn, p.player, *p.texts] for p in plies]
    data = {"lines": lines, "frames": frames, "moves": meta, "names": list(names)}
    esc = html.escape
    final = states[-1]
    mode = "explicit chance" if record.seed is None else f"seed {record.seed}"
    # No result in the title or the header: the page is for watching the game unfold.
    heading = f"HATSUDEN · {names[0]} vs {names[1]}"
    subtitle = f"rules {format_rules(record.rules)} · {mode} · {len(record.moves)} moves"
    return PAGE.format(
        title=esc(heading),
        heading=esc(heading),
        subtitle=esc(subtitle),
        name0=esc(names[0]),
        name1=esc(names[1]),
        positions=len(states),
        moves=_move_list(plies, names),
        sheet=_score_sheet(final, names),
        fallback=pictures[0][0],
        data=_packed(data),
    )


def page_pictures(page: str) -> list[list[str]]:
    """The pictures a page holds, per position and view (god, player 0, player 1).

    They are unpacked as the page's script does; the tests compare them with `board_svg`.
    """
    start = page.index('<script type="application/octet-stream" id="hatsuden-data">')
    start = page.index(">", start) + 1
    packed = "".join(page[start : page.index("</script>", start)].split())
    data = json.loads(zlib.decompress(base64.b64decode(packed, validate=True)).decode("utf-8"))
    lines: list[str] = data["lines"]
    frames: Iterable[list[list[int]]] = data["frames"]
    return [["\n".join(lines[i] for i in view) for view in frame] for frame in frames]
