"""Whether a state could happen: conservation, stacks, tolerances and turn logs (R2-R36).

The consistency predicate of the hidden-information checks (`hatsuden_rules.modelcheck.
information`): every reachable state passes it, and every perturbed or sampled state must.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Final

from hatsuden_rules import (
    BuildPylon,
    Cell,
    Chance,
    Construct,
    Deal,
    DealTech,
    Downsize,
    DrawTech,
    Flip,
    FlipSet,
    GameState,
    Improve,
    Move,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    TechTiming,
)
from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.encoding import DOWNSIZED, FACE_DOWN, FLIPPED, SECRET

__all__ = ["HIDDEN_PYLON", "at_once_problems", "consistency_problems"]

HIDDEN_PYLON: Final = FACE_DOWN  # flags of a pylon built from hand: face down, not flipped


def consistency_problems(state: GameState) -> list[str]:
    """What makes `state` impossible, as a list of messages naming rules (empty: consistent).

    Written from RULES.md, independently of `observation.py`: card conservation (R2, R3); the
    cards a player is known to hold are in their hand (R36); stacks (a pylon built from hand
    holds one card; a plant's cards are of its column, strictly increasing except for the one
    strict descent of a Downsize, R10-R14); tolerances (R9, R21: a row exceeds its tolerance only
    in the mover's played row, in TECH, in the CHANCE of a DealTech, and in OVERFLOW, where it
    must); and the turn logs agree with the state (R36): a logged BuildPylon or Construct names
    the card in its cell, a DrawTech after a secret Construct means a `max_value` (R17), a
    logged Deal is an unknown card of its receiver's hand, a logged DealTech a tech card held or
    placed later in the turn, and before each logged Flip or FlipSet the row exceeded its
    tolerance (R21, R41). With ``tech_timing=PLACE_AT_ONCE`` (R40) an Accumulator or Smart card
    is held only by the mover, in OVERFLOW or DRAW, right after its DealTech, and every logged
    placement comes right after the DealTech of its card.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> consistency_problems(new_game(seed=1))
        []
    """
    rules = state.rules
    t = enc.tables(rules)
    width = len(t.energies)
    problems: list[str] = []
    boards = enc.boards(state)
    cards = [*enc.deck(state), *enc.discards(state), *enc.hands(state)[0], *enc.hands(state)[1]]
    techs = [*state.tech_deck, *enc.tech_hands(state)[0], *enc.tech_hands(state)[1]]
    for seat in (0, 1):
        for c, raw in enumerate(boards[seat]):
            if raw:
                cards.extend(raw[1:])
                if raw[0] & SECRET:
                    techs.append(Tech.SECRET_BUILD)
                if raw[0] & DOWNSIZED:
                    techs.append(Tech.DOWN)
                problems.extend(_stack_problems(rules, seat, c, raw))
    if sorted(cards) != list(t.full_deck):
        problems.append("R2: the plant cards are not each in exactly one place")
    if state.accumulator is not None:
        techs.append(Tech.ACCUMULATOR)
    if state.smart is not None:
        techs.append(Tech.SMART)
    if len(techs) != len(rules.techs) or set(techs) != rules.techs:
        problems.append("R3: the tech cards are not each in exactly one place")
    for seat in (0, 1):
        known = enc.known(state)[seat]
        if known and Counter(known) - Counter(enc.hands(state)[seat]):
            problems.append(f"R36: player {seat} is known to hold a card not in their hand")
    mover, phase, played = state.current_player, state.phase, enc.played(state)
    for seat in (0, 1):
        for row in (0, 1):
            supply = enc.row_supply(boards[seat], row, t)
            tolerance = enc.city_tolerance(t, state.accumulator, seat, row)
            in_play = seat == mover and played is not None and played // width == row
            if in_play and phase is Phase.OVERFLOW:
                if supply <= tolerance:
                    problems.append(f"R21: OVERFLOW, but player {seat}'s row {row} is within")
            elif in_play and (phase is Phase.TECH or state.pending_chance is Chance.TECH):
                pass  # R9: the played row may exceed its tolerance until the overflow check
            elif supply > tolerance:
                problems.append(f"R9: player {seat}'s row {row} exceeds its tolerance in {phase}")
    for log, owner in ((state.this_turn, mover), (state.last_turn, 1 - mover)):
        problems.extend(_log_problems(state, log, owner))
    if rules.tech_timing is TechTiming.PLACE_AT_ONCE:
        problems.extend(at_once_problems(state))
    return problems


_AT_ONCE: Final = {Tech.ACCUMULATOR: PlaceAccumulator, Tech.SMART: PlaceSmart}


def at_once_problems(state: GameState) -> list[str]:
    """R40 with PLACE_AT_ONCE: a drawn Accumulator or Smart card is placed at once."""
    problems: list[str] = []
    mover, log = state.current_player, state.this_turn
    for seat in (0, 1):
        for tech in _AT_ONCE:
            if tech not in enc.tech_hands(state)[seat]:
                continue
            just_drawn = (
                seat == mover
                and state.phase in (Phase.OVERFLOW, Phase.DRAW)
                and bool(log)
                and log[-1] == DealTech(tech)
            )
            if not just_drawn:
                problems.append(f"R40: player {seat} holds {tech.name} after their next move")
    for log, owner in ((state.this_turn, mover), (state.last_turn, 1 - mover)):
        for n, move in enumerate(log):
            if isinstance(move, PlaceAccumulator | PlaceSmart):
                tech = Tech.ACCUMULATOR if isinstance(move, PlaceAccumulator) else Tech.SMART
                if n == 0 or log[n - 1] != DealTech(tech):
                    problems.append(f"R40: player {owner} placed {tech.name} not at once")
            elif (
                isinstance(move, DealTech)
                and move.tech in _AT_ONCE
                and n + 1 < len(log)
                and not isinstance(log[n + 1], _AT_ONCE[move.tech])
            ):
                problems.append(f"R40: player {owner} did not place {move.tech.name} at once")
    return problems


def _stack_problems(rules: Rules, seat: int, c: int, raw: tuple[int, ...]) -> list[str]:
    t = enc.tables(rules)
    flags, cards = raw[0], raw[1:]
    where = f"player {seat}'s {t.cells[c]}"
    if flags & FACE_DOWN and not flags & FLIPPED:
        if len(cards) != 1 or flags & (SECRET | DOWNSIZED):
            return [f"R14: {where} is a pylon built from hand but holds {raw}"]
        return []
    column = c % len(t.energies)
    if not cards or any(t.card_col[i] != column for i in cards):
        return [f"R10: {where} holds a card of another energy"]
    values = [t.card_value[i] for i in cards]
    steps = list(itertools.pairwise(values))
    descents = sum(1 for a, b in steps if b < a)
    if any(a == b for a, b in steps) or descents != (1 if flags & DOWNSIZED else 0):
        return [f"R12, R13: the values {values} on {where} are not Improves and one Downsize"]
    return []


def _log_problems(state: GameState, log: tuple[Move, ...], owner: int) -> list[str]:
    rules = state.rules
    t = enc.tables(rules)
    index = t.card_index
    board = enc.boards(state)[owner]
    problems: list[str] = []
    for n, move in enumerate(log):
        if isinstance(move, BuildPylon | Construct | Improve | Downsize):
            raw = board[t.cell_index[move.cell]]
            card = index[move.card]
            if isinstance(move, BuildPylon):
                ok = raw == (HIDDEN_PYLON, card)
            elif isinstance(move, Construct):
                ok = bool(raw) and raw[1] == card and bool(raw[0] & SECRET) == move.secret
                after = log[n + 1] if n + 1 < len(log) else None
                if (
                    move.secret
                    and isinstance(after, DrawTech)
                    and move.card.value != rules.max_value
                ):
                    problems.append(f"R17: a tech card was drawn after a secret {move.card}")
            else:
                ok = bool(raw) and raw[-1] == card
            if not ok:
                problems.append(f"R36: the log's {move} does not match {move.cell}")
        elif isinstance(move, Deal):
            card = index[move.card]
            if enc.hands(state)[owner].count(card) <= enc.known(state)[owner].count(card):
                problems.append(f"R36: the logged {move} is not an unknown card of the hand")
        elif isinstance(move, DealTech):
            later = {
                Tech.ACCUMULATOR if isinstance(m, PlaceAccumulator) else Tech.SMART
                for m in log[n + 1 :]
                if isinstance(m, PlaceAccumulator | PlaceSmart)
            }
            if move.tech not in enc.tech_hands(state)[owner] and move.tech not in later:
                problems.append(f"R36: the logged {move} is neither held nor placed")
        elif isinstance(move, Flip | FlipSet):
            before = list(board)
            for m in log[n:]:  # undo this flip and the later ones
                for cell in _flipped_cells(m):
                    c = t.cell_index[cell]
                    raw = before[c]
                    before[c] = (raw[0] & ~(FACE_DOWN | FLIPPED), *raw[1:])
            row = _flipped_cells(move)[0].row
            supply = enc.row_supply(tuple(before), row, t)
            placed_later = any(
                isinstance(m, PlaceAccumulator) and m.row == row for m in log[n + 1 :]
            )
            accumulator = None if placed_later else state.accumulator
            tolerance = enc.city_tolerance(t, accumulator, owner, row)
            if supply <= tolerance:
                problems.append(f"R21: {move} was logged, but the row was within its tolerance")
    return problems


def _flipped_cells(move: Move) -> tuple[Cell, ...]:
    if isinstance(move, Flip):
        return (move.cell,)
    if isinstance(move, FlipSet):
        return move.cells
    return ()
