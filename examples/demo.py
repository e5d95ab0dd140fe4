"""`make demo`: one seeded ISMCTS vs Greedy game, printed turn by turn (`hatsuden demo`).

Every turn shows the moves played (in notation) and the board afterwards (god view: hands and
secret values are shown); the game ends with the score sheet, the winner and what decided it.

    python examples/demo.py [--seed N] [--players A,B]
"""

from __future__ import annotations

import sys

from hatsuden_rules.cli import main

if __name__ == "__main__":
    sys.exit(main(["demo", *sys.argv[1:]]))
