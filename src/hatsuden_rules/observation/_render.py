"""A text picture of an observation (R37): what one player sees, ``?`` for unseen cards."""

from __future__ import annotations

from hatsuden_rules.core.cards import Card, Tech
from hatsuden_rules.observation._observe import Concealed, Observation, SeenMove, SeenStack

__all__ = ["render_observation"]


def _render_stack(stack: SeenStack | None) -> str:
    if stack is None:
        return "."
    top = stack.top
    if stack.face_down:
        return "#" + ("" if top is None else str(top.value))
    mark = "v" if stack.downsized else ""
    if top is None:
        return "?" + mark  # an opponent's secret plant
    return f"{top.value}{'?' if stack.secret and len(stack.cards) == 1 else mark}"


def render_observation(observation: Observation) -> str:
    """A multi-line picture of what the observer sees; ``?`` marks a card they have not seen.

    Examples:
        >>> from hatsuden_rules import new_game, observe
        >>> print(render_observation(observe(new_game(seed=5), 1)).splitlines()[0])
        Player 1's view · player 0 to play · ACTION · deck 30 · tech deck 4 · stall 0/20
    """
    o = observation
    rules = o.rules
    width = len(rules.energies_in_play)
    limit = "off" if rules.stall_limit is None else str(rules.stall_limit)
    if o.end_reason is not None:
        head = f"game over ({o.end_reason.name.lower().replace('_', ' ')})"
    else:
        head = f"player {o.current_player} to play · {o.phase.name}"
    trigger = "" if o.end_triggered_by is None else f" · end triggered by {o.end_triggered_by}"
    lines = [
        f"Player {o.player}'s view · {head} · deck {o.deck_size} · tech deck {o.tech_deck_size}"
        f" · stall {o.stall_count}/{limit}{trigger}",
        "Discards: " + (" ".join(_card_text(c) for c in o.discards) or "-"),
    ]
    header = "        " + " ".join(f"{e.letter:>3}" for e in rules.energies_in_play)
    for seat in (o.opponent, o.player):
        if seat == o.player:
            hand = " ".join(_card_text(c) for c in o.hand) or "-"
            techs = ", ".join(t.name for t in Tech if t in o.tech_hand) or "-"
            exposed = " ".join(_card_text(c) for c in o.known_to_opponent)
            known = f" (opponent knows {exposed})" if exposed else ""
            lines.append(f"You (player {seat}): hand [{hand}]{known} tech [{techs}]")
        else:
            known = " ".join(_card_text(c) for c in o.opponent_known)
            lines.append(
                f"Opponent (player {seat}): {o.opponent_hand_size} cards"
                + (f" incl. [{known}]" if known else "")
                + f", {o.opponent_tech_hand_size} tech"
            )
        lines.append(header)
        board = o.boards[seat]
        for row in (0, 1):
            stacks = board[row * width : (row + 1) * width]
            cells = " ".join(f"{_render_stack(x):>3}" for x in stacks)
            values = [x.value for x in stacks if x is not None]
            supply = sum(v for v in values if v is not None)
            unknown = "+?" if None in values else ""
            tolerance = rules.city_demand + (2 if o.accumulator == (seat, row) else 1)
            acc = " +Acc" if o.accumulator == (seat, row) else ""
            lines.append(f"  city {row} {cells}   supply {supply}{unknown}/{tolerance}{acc}")
    if o.smart is not None:
        lines.append(f"Smart on {o.smart.name}")
    for label, log in (("Last turn", o.last_turn), ("This turn", o.this_turn)):
        if log:
            lines.append(f"{label}: " + ", ".join(_move_text(m) for m in log))
    return "\n".join(lines)


def _card_text(card: Card) -> str:
    return f"{card.energy.letter}{card.value}"


def _move_text(move: SeenMove) -> str:
    if isinstance(move, Concealed):
        where = "" if move.cell is None else f" {move.cell.row}{move.cell.energy.letter}"
        return f"{move.move}(?){where}"
    return repr(move)
