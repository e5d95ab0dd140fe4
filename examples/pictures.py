"""Pictures of a game: an SVG of a position, and the whole game as a web page to step through.

Plays a seeded Greedy-against-Random game, then writes:

- ``position.svg``: the middle of the game as player 1 saw it (player 0's hand face down), with
  the cells of the last move ringed;
- ``game.html``: the whole game (open it in a browser; arrow keys to step, V to switch views).

    python examples/pictures.py [FOLDER]

Without FOLDER the files go to a temporary folder that is removed at the end (a smoke test).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

from hatsuden_rules import apply, new_game, observe, record_game, record_to_html
from hatsuden_rules.players import GreedyPlayer, RandomPlayer
from hatsuden_rules.simulation import play_game
from hatsuden_rules.svg import board_svg, touched_cells

SEED = 7


def write(folder: Path) -> None:
    game = play_game((GreedyPlayer(), RandomPlayer()), seed=SEED)
    record = record_game(game.moves, seed=SEED, players=("Greedy", "Random"))
    middle = len(game.moves) // 2
    state = new_game(seed=SEED)
    for move in game.moves[: middle - 1]:
        state = apply(state, move)
    last, mover = game.moves[middle - 1], state.current_player
    state = apply(state, last)
    picture = board_svg(
        observe(state, 1), highlight=touched_cells(last, mover), names=("Greedy", "Random")
    )
    (folder / "position.svg").write_text(picture, encoding="utf-8")
    (folder / "game.html").write_text(record_to_html(record), encoding="utf-8")
    for name in ("position.svg", "game.html"):
        print(f"{folder / name}: {(folder / name).stat().st_size:,} bytes")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", nargs="?", type=Path, help="where to write (default: temporary)")
    args = parser.parse_args(argv)
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
        write(args.folder)
        return
    with tempfile.TemporaryDirectory(prefix="hatsuden-pictures-") as folder:
        write(Path(folder))
        print("(a temporary folder, now removed: pass a folder to keep the files)")


if __name__ == "__main__":
    main()
