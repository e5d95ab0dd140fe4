"""The ``seeded_games`` group: whole seeded games, the state after every move and the score.

The core rule sets' games and the variants' games go through the same builder.
"""

from __future__ import annotations

from collections.abc import Iterator

from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.apply import new_game
from hatsuden_rules.core.scoring import Decision, score
from hatsuden_rules.core.state import EndReason
from hatsuden_rules.notation import (
    format_rules,
)
from hatsuden_rules.serialization import to_dict
from tools.vectors.common import (
    DECISION_FLAGS,
    format_state,
    move_text,
    rules_flags,
    rules_refs,
    seed_flags,
    transition_refs_flags,
)
from tools.vectors.games import Ply

__all__ = ["seeded_game_vectors"]


def seeded_game_vectors(games: list[tuple[str, int | None, list[Ply]]]) -> Iterator[Vector]:
    """One vector per seeded game of `games`: its moves, states and score."""
    for name, seed, plies in games:
        assert seed is not None
        rules = plies[0].before.rules
        first = new_game(seed, rules)
        assert first == plies[0].before
        refs = {"R5", "R7", "R8", "R9", "R23", "R26", "R27", "R28", "R29", "R32", "R33", "R36"}
        refs |= rules_refs(rules)
        flags = rules_flags(rules) | seed_flags(seed)
        for ply in plies:
            r, f = transition_refs_flags(ply.before, ply.move, ply.after)
            refs |= r
            flags |= f & {"EntersOverflow", "EntersTech", "Accumulator", "Smart", "SecretPlant"}
        last = plies[-1].after
        sheet = score(last)
        flags.add("FinalTurnEnd" if last.end_reason is EndReason.FINAL_TURN else "StallEnd")
        flags.add(DECISION_FLAGS[sheet.decided_by])
        if sheet.decided_by is Decision.SECOND_PLAYER:
            refs.add("R5")
        yield make_vector(
            "seeded_games",
            rules=rules,
            refs=refs,
            flags=flags,
            comment=(
                f"{name} rules, seed {seed}: {len(plies)} moves, "
                f"{last.end_reason.value if last.end_reason else '?'} end, "
                f"player {sheet.winner} wins ({sheet.decided_by.value})"
            ),
            input={
                "kind": "game",
                "rules": format_rules(rules),
                "seed": str(seed),
                "moves": [move_text(p.move) for p in plies],
            },
            expected={
                "states": [format_state(first)] + [format_state(p.after) for p in plies],
                "score": to_dict(sheet),
            },
        )
