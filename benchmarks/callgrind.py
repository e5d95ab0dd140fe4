"""One workload of `make bench`, for counting instructions with valgrind (callgrind).

``python benchmarks/callgrind.py KIND [TARGET] [GAMES]`` runs, with whatever `hatsuden_rules`
this process imports (set ``PYTHONPATH`` to a tree's ``src``), one of: ``random STANDARD N`` or
``random small N`` (N seeded random games, as `bench.py` plays them), ``check small`` (the model
checker on the named configuration), or ``none`` / ``none-check`` (the imports alone, without and
with the model checker: the baselines to subtract). Instruction counts do not move with the load
of the machine; fix the hash seed so that dicts and sets behave the same in both runs::

    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=new.out \
        python benchmarks/callgrind.py random STANDARD 100

and subtract the ``none`` run's total (``none-check`` for ``check``). benchmarks/README.md.
"""

from __future__ import annotations

import random
import sys

from hatsuden_rules import STANDARD, Rules, apply, legal_moves, new_game

SMALL = Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=6)


def main(argv: list[str]) -> int:
    """Run the workload named by `argv`; print the work done (plies or states)."""
    kind = argv[0] if argv else "none"
    if kind == "random":
        rules = STANDARD if argv[1] == "STANDARD" else SMALL
        choose = random.Random(2017).randrange
        plies = 0
        for game in range(int(argv[2])):
            state = new_game(seed=2017 + game, rules=rules)
            while not state.is_over:
                moves = legal_moves(state)
                state = apply(state, moves[choose(len(moves))])
                plies += 1
        print(plies)
    elif kind == "check":
        from hatsuden_rules.modelcheck import CONFIGS, check

        result = check(CONFIGS[argv[1]])
        print(result.result, result.states)
    elif kind == "none-check":
        import hatsuden_rules.modelcheck  # noqa: F401
    elif kind != "none":
        print(f"callgrind.py: unknown workload {kind!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
