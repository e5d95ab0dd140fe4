"""`make demo`: one seeded game between two simple players, printed turn by turn.

Both players are greedy: each picks the move that most improves its provisional score (ties
broken at random, improvements preferred), always draws a technology card when it may, and takes
a discard of value 3 or more. Every turn shows the moves played and the board afterwards (god
view: hands and secret values are shown); the game ends with the score sheet, the winner and
what decided it.

    python examples/demo.py [--seed N]
"""

from __future__ import annotations

import argparse
import random

from hatsuden_rules import (
    Construct,
    Decision,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    GameState,
    Improve,
    Move,
    Phase,
    Score,
    apply,
    legal_moves,
    render,
    render_card,
    score,
)
from hatsuden_rules import new_game as start

# Moves whose result a lookahead may inspect without learning a hidden chance outcome.
_PEEKS_AT_CHANCE = (DrawFromDeck, DrawTech)


def describe(move: Move) -> str:
    """A short English description of a move."""
    name = type(move).__name__
    card = getattr(move, "card", None)
    cell = getattr(move, "cell", None)
    parts = [name]
    if card is not None:
        parts.append(render_card(card))
    if cell is not None:
        parts.append(f"on city {cell.row} {cell.energy.name.lower()}")
    if isinstance(move, Construct) and move.secret:
        parts.append("(secret)")
    for attribute in ("row", "energy", "tech"):
        value = getattr(move, attribute, None)
        if value is not None and cell is None:
            parts.append(str(getattr(value, "name", value)))
    return " ".join(parts)


def margin(sheet: Score, player: int) -> tuple[int, int]:
    """How far `player` leads, then how many of its cities sit exactly on the demand."""
    me, other = sheet.players[player], sheet.players[1 - player]
    return me.total - other.total, me.city_points


def greedy(state: GameState, moves: tuple[Move, ...], rng: random.Random) -> Move:
    """One-ply lookahead on the provisional score; ties broken at random."""
    player = state.current_player
    if state.phase is Phase.TECH and DrawTech() in moves:
        return DrawTech()  # a tech card is always worth having
    if state.phase is Phase.DRAW:
        takes = [m for m in moves if isinstance(m, DrawFromDiscard)]
        best_take = max(takes, key=lambda m: m.card.value, default=None)
        if best_take is not None and best_take.card.value >= 3:
            return best_take
    candidates = [m for m in moves if not isinstance(m, _PEEKS_AT_CHANCE)]
    if not candidates:
        return moves[0]
    scored = [(margin(score(apply(state, m)), player), rng.random(), m) for m in candidates]
    best = max(scored, key=lambda entry: (entry[0], isinstance(entry[2], Improve), entry[1]))
    return best[2]


def main(seed: int) -> None:
    rng = random.Random(seed)
    state = start(seed=seed)
    print(f"HATSUDEN demo, seed {seed}: two greedy players\n")
    print(render(state))
    turn = 1
    while not state.is_over:
        player = state.current_player
        played = []
        while state.current_player == player and not state.is_over:
            moves = legal_moves(state)
            move = greedy(state, moves, rng)
            played.append(describe(move))
            state = apply(state, move)
        print(f"\n--- turn {turn}: player {player}: {'; '.join(played)}")
        print(render(state))
        turn += 1
    sheet = score(state)
    print("\nFinal score")
    for player, sheet_p in enumerate(sheet.players):
        print(
            f"  player {player}: energy {sheet_p.energy_points} + cities {sheet_p.city_points:+d}"
            f" = {sheet_p.total}   (rows {sheet_p.row_supply[0]} and {sheet_p.row_supply[1]})"
        )
    why = {
        Decision.TOTAL: "the higher total",
        Decision.CITY_POINTS: "tie-break 1, the higher city points",
        Decision.SUPPLY: "tie-break 1, the higher total supply",
        Decision.SECOND_PLAYER: "tie-break 2: player 1, who moved second, wins a full tie",
    }[sheet.decided_by]
    print(f"Winner: player {sheet.winner}, by {why}.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Play one seeded demo game.")
    parser.add_argument("--seed", type=int, default=2017)
    main(parser.parse_args().seed)
