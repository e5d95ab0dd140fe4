"""The board as the human player sees it: both grids, cities, majorities, tech cards, hands."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from hatsuden_rules.core.cards import Tech
from hatsuden_rules.notation import format_card, format_seen_move
from hatsuden_rules.observation import Observation, SeenStack

__all__ = ["LEGEND", "LEGEND_LINE", "render_board"]

_TECH_NAMES: Final = MappingProxyType(
    {
        Tech.ACCUMULATOR: "Accumulator",
        Tech.SECRET_BUILD: "Secret Build",
        Tech.SMART: "Smart",
        Tech.DOWN: "Down",
    }
)


#: The key printed under the board: every symbol of the board and of the move lines.
LEGEND_LINE: Final = (
    "Key: . empty  3 plant  3s secret  3v downsized  ? hidden  # pylon  #3 flipped  =? unseen"
    "  (legend)"
)

#: The full legend (the ``legend`` command of ``hatsuden play``).
LEGEND: Final = """\
Grid cells (columns are energies, rows are your two cities 0 and 1):
  .     an empty cell
  3     a plant: only its top card counts (3)
  3s    your secret plant (Secret Build): the opponent sees ?
  3v    a plant downsized with Down
  ?     the opponent's secret plant: its value is hidden (the row's supply then shows +?)
  #     a pylon: a face-down card, worth 0
  #3    a flipped plant (after an overflow): now a pylon, its top card was 3
Each city: supply S/T is the row's supply against its tolerance (the demand + 1, + 2 with the
  Accumulator); city +1, 0 or -1 is what it scores now ("so far" while the row is not full).
Generation per energy: each column's sum for you and the opponent; leader: you, opp, or - (tied).
Moves (the "Last turn" and "This turn" lines, and the move list):
  =S3   a card dealt to you (a draw from the deck); =? a card dealt that you cannot see
  =SMT  a tech card dealt: ACC Accumulator, SEC Secret Build, SMT Smart, DWN Down; =??? unseen
  C* ? 0W  a secret construct by the opponent (card hidden);  P ? 1S  a pylon built from hand
  C construct, I improve, D downsize, P pylon, X discard, DT/NT draw/decline a tech card,
  F flip, DD draw from the deck, DX take a discard, E end the turn, A Accumulator, M Smart
Energies: S solar, G geothermal, W wind, H hydro, B biomass. Cells: 0S is city 0, solar column."""


def _cell(stack: SeenStack | None) -> str:
    if stack is None:
        return "."
    top = stack.top
    if stack.face_down:
        return "#" if top is None or not stack.flipped else f"#{top.value}"
    if top is None:
        return "?"  # the opponent's secret plant
    mark = "s" if stack.secret and len(stack.cards) == 1 else ("v" if stack.downsized else "")
    return f"{top.value}{mark}"


def _city(supply: int, unknown: bool, demand: int, full: bool) -> str:
    if unknown:
        return "city ?"
    if supply == demand:
        return "city +1" + ("" if full else " (so far)")
    if supply <= demand - 2:
        return "city -1" + ("" if full else " (so far)")
    return "city  0" + ("" if full else " (so far)")


def render_board(observation: Observation, names: tuple[str, str]) -> str:
    """The human player's picture of the game, with everything they may know and nothing else.

    Grid cells show a plant's value (``3``; ``3s`` your secret plant, ``3v`` downsized), ``?``
    the opponent's secret plant, ``#`` a pylon (``#3`` a flipped plant whose top was 3) and ``.``
    an empty cell. Each row shows its supply against its tolerance and the city points it would
    score now; the generation table shows each energy's sums and who leads it. `LEGEND_LINE`
    (printed under the board) and `LEGEND` explain every symbol.

    Examples:
        >>> from hatsuden_rules import new_game, observe
        >>> print(render_board(observe(new_game(seed=5), 1), ("bot", "you")).splitlines()[0])
        bot (player 0) to play · ACTION · deck 30 · tech deck 4 · stall 0/20
    """
    o = observation
    rules = o.rules
    energies = rules.energies_in_play
    width = len(energies)
    demand = rules.city_demand
    me, them = o.player, o.opponent
    limit = "off" if rules.stall_limit is None else str(rules.stall_limit)
    if o.end_reason is not None:
        head = f"Game over ({o.end_reason.value.replace('_', ' ')})"
    else:
        head = f"{names[o.current_player]} (player {o.current_player}) to play · {o.phase.name}"
    trigger = (
        ""
        if o.end_triggered_by is None
        else f" · end triggered by {names[o.end_triggered_by]}: one last turn"
    )
    lines = [
        f"{head} · deck {o.deck_size} · tech deck {o.tech_deck_size} · stall "
        f"{o.stall_count}/{limit}{trigger}",
        "Discards: " + (" ".join(format_card(c) for c in o.discards) or "-"),
    ]
    header = "            " + " ".join(f"{e.letter:>3}" for e in energies)
    generation: dict[int, list[int | None]] = {}
    for seat in (them, me):
        if seat == me:
            hand = " ".join(format_card(c) for c in o.hand) or "-"
            techs = ", ".join(_TECH_NAMES[t] for t in Tech if t in o.tech_hand) or "-"
            lines.append(f"{names[seat]} (player {seat}): hand {hand} · tech cards {techs}")
        else:
            known = " ".join(format_card(c) for c in o.opponent_known)
            lines.append(
                f"{names[seat]} (player {seat}): {o.opponent_hand_size} "
                f"card{'' if o.opponent_hand_size == 1 else 's'} in hand"
                + (f" (known: {known})" if known else "")
                + f" · {o.opponent_tech_hand_size} tech card"
                + ("" if o.opponent_tech_hand_size == 1 else "s")
            )
        lines.append(header)
        board = o.boards[seat]
        columns: list[int | None] = [0] * width
        for row in (0, 1):
            stacks = board[row * width : (row + 1) * width]
            values = [None if s is None else s.value for s in stacks]
            supply = sum(v for v in values if v is not None)
            unknown = any(s is not None and v is None for s, v in zip(stacks, values, strict=True))
            for e, v in enumerate(values):
                if v is None and stacks[e] is not None:
                    columns[e] = None
                elif columns[e] is not None:
                    columns[e] = (columns[e] or 0) + (v or 0)
            accumulator = o.accumulator == (seat, row)
            tolerance = demand + (2 if accumulator else 1)
            cells = " ".join(f"{_cell(s):>3}" for s in stacks)
            full = all(s is not None for s in stacks) or o.end_reason is not None
            lines.append(
                f"  city {row}   {cells}   supply {supply}{'+?' if unknown else ''}/{tolerance}"
                f"  {_city(supply, unknown, demand, full)}"
                + ("  [Accumulator]" if accumulator else "")
            )
        generation[seat] = columns
    lines.append(header)
    for label, seat in (("you", me), ("opponent", them)):
        sums = " ".join(f"{'?' if g is None else g:>3}" for g in generation[seat])
        lines.append(f"  {label:<9} {sums}   generation per energy")
    leads = []
    for e in range(width):
        mine, theirs = generation[me][e], generation[them][e]
        if mine is None or theirs is None:
            leads.append("?")
        else:
            leads.append("you" if mine > theirs else ("opp" if theirs > mine else "-"))
    lines.append("  leader    " + " ".join(f"{x:>3}" for x in leads))
    if o.smart is not None:
        lines.append(f"Smart on {o.smart.name.lower()}: its majority scores 2")
    if o.last_turn:
        mover = 1 - o.current_player  # also at GAME_OVER (R26)
        shown = ", ".join(format_seen_move(m) for m in o.last_turn)
        lines.append(f"Last turn ({names[mover]}): {shown}")
    if o.this_turn:
        lines.append(f"This turn: {', '.join(format_seen_move(m) for m in o.this_turn)}")
    return "\n".join(lines)
