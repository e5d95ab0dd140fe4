"""``hatsuden demo``: a seeded ISMCTS vs Greedy game, printed turn by turn (god view)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, TextIO

from hatsuden_rules._core.moves import Move
from hatsuden_rules._core.render import render
from hatsuden_rules._core.rules import STANDARD, Rules
from hatsuden_rules._core.scoring import Decision, score
from hatsuden_rules._core.state import GameState
from hatsuden_rules.notation import format_move, format_rules
from hatsuden_rules.players import Player
from hatsuden_rules.simulation import play_game

__all__ = ["run_demo"]

_WHY: Final = MappingProxyType(
    {
        Decision.TOTAL: "the higher total",
        Decision.CITY_POINTS: "tie-break 1, the higher city points",
        Decision.SUPPLY: "tie-break 1, the higher total supply",
        Decision.SECOND_PLAYER: "tie-break 2: player 1, who moved second, wins a full tie",
    }
)


def run_demo(
    players: tuple[Player, Player],
    names: tuple[str, str],
    seed: int,
    out: TextIO,
    rules: Rules = STANDARD,
) -> None:
    """Play one seeded game between `players` and print every turn with the board after it.

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
    out.write("God view: hands and secret values are shown.\n\n")
    turn: list[str] = []
    number = [1]

    def on_move(before: GameState, move: Move, after: GameState) -> None:
        turn.append(format_move(move))
        player = before.current_player
        if after.current_player != player or after.is_over:
            out.write(f"--- turn {number[0]} · player {player} ({names[player]}): ")
            out.write(", ".join(turn) + "\n")
            out.write(render(after) + "\n\n")
            turn.clear()
            number[0] += 1

    game = play_game(players, seed=seed, rules=rules, on_move=on_move)
    sheet = score(game.final)
    out.write("Final score\n")
    for player, sheet_p in enumerate(sheet.players):
        out.write(
            f"  player {player} ({names[player]}): energy {sheet_p.energy_points} + cities "
            f"{sheet_p.city_points:+d} = {sheet_p.total}   (rows {sheet_p.row_supply[0]} and "
            f"{sheet_p.row_supply[1]})\n"
        )
    out.write(
        f"Winner: player {sheet.winner} ({names[sheet.winner]}), by {_WHY[sheet.decided_by]}.\n"
    )
