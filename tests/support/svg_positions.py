"""Positions for the SVG tests and the golden pictures in tests/golden/svg/ (issue 14).

Every position is played through `apply` (scripting.py, explicit chance mode, or a seeded game
with moves picked by `random.Random`), so the pictures show real, reachable positions.
``make svg-golden`` (``python -m tests.support.svg_positions``) rewrites the golden files;
review the change (open the files in a browser) before committing it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Cell,
    Construct,
    DealTech,
    Downsize,
    DrawTech,
    Energy,
    Flip,
    GameState,
    Improve,
    Move,
    Observation,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    apply,
    legal_moves,
    new_game,
    observe,
)
from hatsuden_rules.svg import board_svg, touched_cells
from tests.support.paths import GOLDEN_DIR
from tests.support.scripting import card, cell, draw, idle_turns, script

GOLDEN = GOLDEN_DIR / "svg"

#: Player 0's turns of `rich` (the draw that ends each turn is added by `script`).
RICH_0: tuple[tuple[Move, ...], ...] = (
    (Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.ACCUMULATOR)),
    (Construct(card("W3"), cell(0, "W")), PlaceAccumulator(0)),
    (Construct(card("H4"), cell(0, "H")), DrawTech(), DealTech(Tech.SECRET_BUILD)),
    (Construct(card("G2"), cell(1, "G"), secret=True),),
    (BuildPylon(card("B1"), cell(1, "B")),),
    (Construct(card("S1"), cell(1, "S")),),
    (Construct(card("G1"), cell(0, "G")),),  # 4 + 1 + 3 + 4 = 12: the Accumulator's tolerance
)
#: Player 1's turns of `rich`: Smart, an Improve (a stack of two) and a Downsize.
RICH_1: tuple[tuple[Move, ...], ...] = (
    (Construct(card("G4"), cell(0, "G")), DrawTech(), DealTech(Tech.SMART)),
    (Construct(card("H2"), cell(1, "H")), PlaceSmart(Energy.GEOTHERMAL)),
    (Construct(card("B4"), cell(0, "B")), DrawTech(), DealTech(Tech.DOWN)),
    (Improve(card("H3"), cell(1, "H")),),
    (Downsize(card("B2"), cell(0, "B")),),
    (Construct(card("S3"), cell(0, "S")),),
)
#: Player 1's seventh turn, up to its draw: a W4 overflows city 0 (3 + 4 + 4 + 2 = 13 > 11) and
#: the downsized stack is flipped (R21).
RICH_LAST: tuple[Move, ...] = (Construct(card("W4"), cell(0, "W")), Flip(cell(0, "B")))


def rich() -> GameState:
    """A STANDARD position with every feature, player 1 about to draw.

    The Accumulator lies on player 0's city 0 (supply 12 of 12), Smart on Geothermal; player 0
    has a secret G2 and a pylon built from B1; player 1 has an improved H stack and has just
    flipped its downsized B stack in an overflow.
    """
    return script(RICH_0, RICH_1, STANDARD, then=RICH_LAST)


def rich_over() -> GameState:
    """`rich` played on by idle turns until the stall rule ends the game (R25).

    Player 0's secret G2, still on top of a plant, is then revealed to player 1 (R26).
    """
    state = draw(rich(), card("W1"))
    return idle_turns(state, STANDARD.stall_limit or 0)


def seeded_midgame(seed: int = 2026) -> tuple[GameState, Move, int]:
    """The middle position of a seeded STANDARD game whose moves `random.Random(seed)` picks.

    Returns the state, its last move and the player who made it.
    """
    rng = random.Random(seed)
    state = new_game(seed=seed)
    history: list[tuple[GameState, Move, int]] = []
    while not state.is_over:
        mover = state.current_player
        move = rng.choice(legal_moves(state))
        state = apply(state, move)
        history.append((state, move, mover))
    return history[len(history) // 2]


SMALL = Rules(energies=3, max_value=4, copies=2, hand_size=3, city_demand=6)


def small_rules() -> GameState:
    """Three energies, hands of 3, cities of demand 6: the picture follows the rules (R31)."""
    return script(
        [[Construct(card("S4"), cell(0, "S")), DrawTech(), DealTech(Tech.SMART)]],
        [[Construct(card("W2"), cell(1, "W"))]],
        SMALL,
    )


def pictures() -> dict[str, Callable[[], str]]:
    """The golden pictures, by file name."""

    def flip_mark(state: GameState) -> Sequence[tuple[int, Cell]]:
        return touched_cells(RICH_LAST[1], 1) if state.current_player == 1 else ()

    def seeded(view: int | None) -> str:
        state, move, mover = seeded_midgame()
        subject: GameState | Observation = state if view is None else observe(state, view)
        return board_svg(subject, highlight=touched_cells(move, mover), names=("Ann", "Bo"))

    return {
        "rich-god.svg": lambda: board_svg(rich(), highlight=flip_mark(rich())),
        "rich-player-0.svg": lambda: board_svg(observe(rich(), 0), highlight=flip_mark(rich())),
        "rich-player-1.svg": lambda: board_svg(observe(rich(), 1), highlight=flip_mark(rich())),
        "game-over-player-1.svg": lambda: board_svg(observe(rich_over(), 1)),
        "seeded-god.svg": lambda: seeded(None),
        "seeded-player-1.svg": lambda: seeded(1),
        "small-rules.svg": lambda: board_svg(small_rules(), size=500),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rewrite the golden SVG pictures.")
    parser.add_argument("--out", type=Path, default=GOLDEN, help=f"folder (default {GOLDEN})")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, make in pictures().items():
        path = args.out / name
        new = make()
        old = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(new, encoding="utf-8")
        print(f"{path}: {'unchanged' if old == new else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
