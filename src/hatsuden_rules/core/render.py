"""A readable, god-view text rendering of a state: both grids, supplies, tech cards, discards."""

from __future__ import annotations

from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import GameState, Stack
from hatsuden_rules.core.text import format_card

__all__ = ["render", "render_card"]


#: Short text for a card: energy letter and value, e.g. ``W3`` (its notation).
render_card = format_card


def _cell(stack: Stack | None) -> str:
    if stack is None:
        return "."
    if stack.face_down:
        return "#" + (str(stack.top.value) if stack.flipped else "")  # flipped plants were seen
    mark = "?" if stack.is_secret_plant else ("v" if stack.downsized else "")
    return f"{stack.top.value}{mark}"


def render(state: GameState) -> str:
    """A multi-line picture of `state` as an all-knowing observer sees it.

    Grid cells show the top value of a plant (``4``), ``?`` after a secret plant's value, ``v``
    after a downsized one, ``#`` for a pylon (``#3``: a flipped plant whose top was 3) and ``.``
    for an empty cell. Each row ends with its supply against its city's tolerance and the city
    points it would score now.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> print(render(new_game(seed=5)).splitlines()[0])
        Player 0 to play · ACTION · deck 30 · tech deck 4 · stall 0/20
    """
    rules = state.rules
    sheet = score(state)
    energies = rules.energies_in_play
    width = len(energies)
    limit = "off" if rules.stall_limit is None else str(rules.stall_limit)
    if state.is_over:
        assert state.end_reason is not None
        head = f"Game over ({state.end_reason.name.lower().replace('_', ' ')})"
    else:
        head = f"Player {state.current_player} to play · {state.phase.name}"
    lines = [
        f"{head} · deck {state.deck_size} · tech deck {len(state.tech_deck)}"
        f" · stall {state.stall_count}/{limit}"
        + (
            f" · end triggered by player {state.end_triggered_by}"
            if state.end_triggered_by is not None
            else ""
        ),
        "Discards: " + (" ".join(render_card(c) for c in state.discards) or "-"),
    ]
    header = "        " + " ".join(f"{e.letter:>3}" for e in energies)
    for player in (1, 0):
        board = state.board(player)
        sheet_p = sheet.players[player]
        hand = " ".join(render_card(c) for c in state.hand(player)) or "-"
        techs = ", ".join(t.name for t in sorted(state.tech_hand(player), key=lambda t: t.index))
        lines.append(f"Player {player}: hand [{hand}] tech [{techs or '-'}]")
        lines.append(header)
        for row in (0, 1):
            cells = " ".join(f"{_cell(s):>3}" for s in board[row * width : (row + 1) * width])
            supply = sheet_p.row_supply[row]
            tol = state.tolerance(player, row)
            acc = " +Acc" if state.accumulator == (player, row) else ""
            lines.append(f"  city {row} {cells}   supply {supply:>2}/{tol}{acc}")
        lines.append(
            f"        {' '.join(f'{g:>3}' for g in sheet_p.generation)}   generation;"
            f" points {sheet_p.energy_points} energy {sheet_p.city_points:+d} city"
            f" = {sheet_p.total}"
        )
    smart = f" · Smart on {state.smart.name}" if state.smart is not None else ""
    winners = " ".join(
        f"{e.letter}:{'-' if w is None else w}"
        for e, w in zip(energies, sheet.energy_winners, strict=True)
    )
    lines.append(f"Energy majorities {winners}{smart}")
    return "\n".join(lines)
