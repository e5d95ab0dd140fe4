"""``hatsuden demo``: a seeded bot game, one line a turn, the board at a few moments (god view)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, TextIO

from hatsuden_rules.core.cards import Energy
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.render import render
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.core.scoring import Decision, Score, score
from hatsuden_rules.core.state import GameState
from hatsuden_rules.notation import TECH_CODES, format_card, format_move, format_rules
from hatsuden_rules.players import Player
from hatsuden_rules.simulation import play_game

__all__ = ["DEFAULT_EVERY", "DEMO_KEY", "board_picture", "run_demo", "score_sheet"]

#: Boards are printed after every `DEFAULT_EVERY` turns (and at the end) unless ``--every N``.
DEFAULT_EVERY: Final = 10

#: The key printed before the game: the move notation and the board's symbols.
DEMO_KEY: Final = """\
Key to the moves (NOTATION.md), a turn's moves separated by commas:
  C W4 0W  construct: W4 onto city 0's wind cell   C* secret   I / D  improve / downsize
  P W1 1W  a pylon (a face-down card, worth 0)     X W4  discard W4     PASS  pass
  DD draw from the deck   DX S4 take S4 from the discards   DT / NT draw / decline a tech card
  F 1B flip   FS 0S+0W flip a set   A 0 Accumulator on city 0   M G Smart on G   E end the turn
Energies S solar, G geothermal, W wind, H hydro, B biomass; cells: 0S = city 0, solar column.
Techs ACC Accumulator, SEC Secret Build, SMT Smart, DWN Down.
Board: . empty  4 plant  4? secret plant  4v downsized  # pylon  #3 flipped plant (top was 3)."""

_WHY: Final = MappingProxyType(
    {
        Decision.TOTAL: "the higher total",
        Decision.CITY_POINTS: "tie-break 1, the higher city points",
        Decision.SUPPLY: "tie-break 1, the higher total supply",
        Decision.SECOND_PLAYER: "tie-break 2: player 1, who moved second, wins a full tie",
    }
)


def board_picture(state: GameState) -> str:
    """`render`'s god view, with techs and energies spelled as in the notation (``SEC``, ``G``).

    The score line reads ``score E energy + C cities = T`` (the score if the game ended now).
    """
    sheet = score(state)
    lines: list[str] = []
    for text in render(state).splitlines():
        line = text
        if line.startswith("Player ") and ": hand [" in line:
            player = int(line[len("Player ")])
            hand = " ".join(format_card(card) for card in state.hand(player)) or "-"
            techs = " ".join(
                TECH_CODES[t] for t in sorted(state.tech_hand(player), key=lambda t: t.index)
            )
            line = f"Player {player}: hand [{hand}] tech [{techs or '-'}]"
        elif "generation; points" in line:
            # render prints player 1's grid, then player 0's
            player = 0 if any(seen.startswith("Player 0: hand") for seen in lines) else 1
            sheet_p = sheet.players[player]
            line = (
                line[: line.index("generation;")]
                + f"generation · score {_sum(sheet_p.energy_points, sheet_p.city_points)}"
            )
        elif " · Smart on " in line and state.smart is not None:
            line = line.replace(f"Smart on {state.smart.name}", f"Smart on {state.smart.letter}")
        lines.append(line)
    return "\n".join(lines)


def _sum(energy: int, cities: int) -> str:
    sign = "+" if cities >= 0 else "-"
    return f"{energy} energy {sign} {abs(cities)} cities = {energy + cities}"


def score_sheet(sheet: Score, names: tuple[str, str], energies: tuple[Energy, ...]) -> str:
    """The final score as a table a player reads: energy points, city points, total, supplies."""
    width = max(len(f"player {p} ({names[p]})") for p in (0, 1))
    lines = [
        "Final score",
        f"  {'':<{width}}  energy  cities  total   supply city 0  city 1",
    ]
    for player, sheet_p in enumerate(sheet.players):
        who = f"player {player} ({names[player]})"
        lines.append(
            f"  {who:<{width}}  {sheet_p.energy_points:>6}  {sheet_p.city_points:>+6d}  "
            f"{sheet_p.total:>5}   {sheet_p.row_supply[0]:>13}  {sheet_p.row_supply[1]:>6}"
        )
    leaders = " ".join(
        f"{energy.letter}:{'-' if w is None else w}"
        for energy, w in zip(energies, sheet.energy_winners, strict=True)
    )
    lines.append(
        f"  Energy points (R27), the leader of each energy ('-' tied): {leaders}"
        + (f", Smart on {sheet.smart.letter}" if sheet.smart is not None else "")
        + "."
    )
    lines.append(
        "  City points (R28): +1 a city supplied exactly its demand, -1 one 2 or more short."
    )
    lines.append(
        f"Winner: player {sheet.winner} ({names[sheet.winner]}), by {_WHY[sheet.decided_by]}."
    )
    return "\n".join(lines)


def run_demo(
    players: tuple[Player, Player],
    names: tuple[str, str],
    seed: int,
    out: TextIO,
    rules: Rules = STANDARD,
    every: int = DEFAULT_EVERY,
) -> None:
    """Play one seeded game between `players`: a line a turn, the board after every `every` turns.

    The board is also printed at the end, then the final score sheet.

    Examples:
        >>> import io
        >>> from hatsuden_rules.players import GreedyPlayer, RandomPlayer
        >>> out = io.StringIO()
        >>> run_demo((GreedyPlayer(), RandomPlayer()), ("greedy", "random"), 3, out)
        >>> out.getvalue().splitlines()[-1]
        'Winner: player 0 (greedy), by the higher total.'
    """
    out.write(f"HATSUDEN demo · seed {seed} · player 0: {names[0]} · player 1: {names[1]}\n")
    if rules != STANDARD:
        out.write(f"Rules {format_rules(rules)}\n")
    out.write(DEMO_KEY + "\n")
    out.write(
        f"God view: hands and secret values are shown. The board every {every} turns "
        "(--every N) and at the end.\n\n"
    )
    turn: list[str] = []
    number = [1]

    def on_move(before: GameState, move: Move, after: GameState) -> None:
        turn.append(format_move(move))
        player = before.current_player
        if after.current_player != player or after.is_over:
            out.write(f"turn {number[0]:>2} · player {player} ({names[player]}): ")
            out.write(", ".join(turn) + "\n")
            if number[0] % every == 0 and not after.is_over:
                out.write("\n" + board_picture(after) + "\n\n")
            turn.clear()
            number[0] += 1

    game = play_game(players, seed=seed, rules=rules, on_move=on_move)
    out.write("\n" + board_picture(game.final) + "\n\n")
    out.write(score_sheet(score(game.final), names, game.final.rules.energies_in_play) + "\n")
