"""Exhaustive checks of hidden information (issue 4; RULES.md R30, R36-R39).

`check_information(rules)` explores every reachable state of a reduced `Rules` with the model
checker (`check`, explicit chance mode), then proves on every state, for both players:

- **Non-interference** (R30, R37). Every perturbation of what a player cannot know leaves
  ``observe(state, player)`` unchanged. The perturbations (`perturbations`) exchange two hidden
  cards between two of the opponent's hidden places, keeping the whole state consistent
  (`consistency_problems`), including the hidden cards recorded in the turn logs (R36).
- **Information sets** (R37). The states outside CHANCE and GAME_OVER, grouped by
  ``observe(state, state.current_player)``: within a group `legal_moves` is the same, and
  `legal_moves_from` of the group's observation returns exactly it.
- **Sampling** (R38). For every distinct observation and a few seeds,
  ``observe(sample_state(o, seed), o.player) == o``, the sample is a consistent state, and
  (reported) a reachable one.

The perturbations, for observer p and opponent q (q's "hidden places" are: the unknown part of
q's hand, i.e. the hand minus the cards p knows are there, R36; the deck; the card of each pylon
q built from hand, R14; q's secret card while it is hidden, R11, R26):

=================  ================================================================================
kind               what changes
=================  ================================================================================
hand-deck          an unknown card X of q's hand and a card Y != X of the deck change places
pylon-deck         the card X of a pylon q built from hand and a deck card Y != X change places
pylon-hand         ... and an unknown card Y != X of q's hand
pylon-pylon        the cards of two of q's pylons built from hand
secret-deck        q's hidden secret card X and a deck card Y != X of the same energy (R11)
secret-hand        ... and an unknown hand card; secret-pylon: ... and the card of a pylon
tech               a tech card of q's tech hand and one of the tech deck change places (R30, B6)
deal-record        the card of q's logged `Deal` names another unknown card of q's hand
dealtech-record    q's logged `DealTech` names another tech card q holds or placed after it
generator          the SplitMix64 state (R8): explicit <-> seeded, or another seeded state
=================  ================================================================================

Turn logs follow the cards they name: q's `BuildPylon` and secret `Construct` name the card now
in their cell; a logged ``Deal(X)`` whose X leaves q's hand becomes ``Deal(Y)`` (the dealt copy
was the one that moved), and when another unknown X stays in the hand a second variant keeps
``Deal(X)``; a ``DealTech(T)`` whose T leaves q's tech hand names the tech card that replaced
it. A perturbation of the secret card is checked only if the new state is consistent (its
energy, the Improve/Downsize bounds of the cards on it, the row's tolerance where the phase
requires it, a DrawTech after it only for a `max_value`, the overflows that the logged flips
show); the others are counted as skipped. Every checked perturbation is itself a consistent
state: it is reachable (every reachable state passes `consistency_problems`), or
`consistency_problems` accepts it. Exchanges of two cards generate every arrangement of the
hidden cards: a chain of them joins any two arrangements.

What this does not claim: an `Observation` is not the whole history. It keeps the last two turns
(R36), and a hidden play blurs the cards known to be in a hand (R36), so states with equal
observations may come from histories that a player with a perfect memory could tell apart (a
card taken from the discards and then built as a pylon may, in a sample, be in the deck). The
information sets here are those of `observe`.

The command line: ``python -m hatsuden_rules.modelcheck.information --config medium`` (exit
code 0 when everything holds, 1 on a problem or a golden mismatch, 2 on a usage error).

Example:
    >>> from hatsuden_rules import Rules, Tech
    >>> tiny = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1,
    ...              techs=(), stall_limit=1)
    >>> report = check_information(tiny, seeds=(0,))
    >>> report.ok, report.states, report.information_sets
    (True, 2145, (408, 872))
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs

from .. import (
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
    Observation,
    Overflow,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    TechTiming,
    legal_moves,
    legal_moves_from,
    observe,
    sample_state,
)
from .._state import DOWNSIZED, FACE_DOWN, FLIPPED, SECRET
from . import CONFIGS, check
from ._report import variants_dict

__all__ = [
    "INFORMATION_CONFIGS",
    "KINDS",
    "InformationReport",
    "Observer",
    "check_information",
    "consistency_problems",
    "explore",
    "information_sets",
    "main",
    "non_interference",
    "perturbations",
    "sampling",
]

#: What a player is shown of a state: `observe`, or a stand-in (tests use deliberately leaky ones).
Observer = Callable[[GameState, int], Hashable]

#: The perturbation kinds, in the order `perturbations` generates them (see the module docstring).
KINDS: Final = (
    "hand-deck",
    "pylon-deck",
    "pylon-hand",
    "pylon-pylon",
    "secret-deck",
    "secret-hand",
    "secret-pylon",
    "tech",
    "deal-record",
    "dealtech-record",
    "generator",
)

#: The reduced rule sets this module knows: the model checker's, plus "small-secret". No secret
#: card exists in small or medium (their one tech card is the Accumulator or Smart), and none
#: can be permuted; small-secret has Secret Build and Down and three copies of each card, so that
#: an opponent's secret card can be one of several unseen cards (with two copies the other
#: cards give it away), Downsize bounds occur, and tech cards change places.
INFORMATION_CONFIGS: Final = MappingProxyType(
    {
        "small": CONFIGS["small"],
        "small-secret": Rules(
            energies=1,
            max_value=2,
            copies=3,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.SECRET_BUILD, Tech.DOWN}),
            allow_retake_discard=True,
            stall_limit=1,
        ),
        "medium": CONFIGS["medium"],
        "large": CONFIGS["large"],
        # R40: small-secret's cards with the Accumulator and Down, the Accumulator placed as soon
        # as drawn: an opponent's tech card is Down unless it was drawn this very move.
        "small-place-at-once": Rules(
            energies=1,
            max_value=2,
            copies=3,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.ACCUMULATOR, Tech.DOWN}),
            allow_retake_discard=True,
            stall_limit=1,
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
        # R41: two columns, Secret Build, demand 1: overflows are frequent and FlipSets bound or
        # flip a secret card (R38).
        "secret-any-set": Rules(
            energies=2,
            max_value=2,
            copies=1,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.SECRET_BUILD}),
            allow_retake_discard=False,
            stall_limit=2,
            overflow=Overflow.ANY_SET,
        ),
    }
)

_HIDDEN_PYLON: Final = FACE_DOWN  # flags of a pylon built from hand: face down, not flipped
_SEED_OF_A_SEEDED_COPY: Final = 0x5EED_CAFE_F00D_D00D
_MAX_PROBLEMS: Final = 20

Slot = tuple[str, int]  # ("hand" | "deck", -1) or ("pylon" | "secret", cell index)


# -- consistency -------------------------------------------------------------------------------


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

    Example:
        >>> from hatsuden_rules import new_game
        >>> consistency_problems(new_game(seed=1))
        []
    """
    rules = state.rules
    t = rules._tables
    width = len(t.energies)
    value = t.card_value
    problems: list[str] = []
    boards = state._boards
    cards = [*state._deck, *state._discards, *state._hands[0], *state._hands[1]]
    techs = [*state._tech_deck, *state._tech_hands[0], *state._tech_hands[1]]
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
    if state._accumulator is not None:
        techs.append(Tech.ACCUMULATOR)
    if state._smart is not None:
        techs.append(Tech.SMART)
    if len(techs) != len(rules.techs) or set(techs) != rules.techs:
        problems.append("R3: the tech cards are not each in exactly one place")
    for seat in (0, 1):
        known = state._known[seat]
        if known and Counter(known) - Counter(state._hands[seat]):
            problems.append(f"R36: player {seat} is known to hold a card not in their hand")
    mover, phase, played = state.current_player, state.phase, state._played
    for seat in (0, 1):
        for row in (0, 1):
            supply = sum(_top_value(raw, value) for raw in boards[seat][row * width :][:width])
            tolerance = _tolerance(state, seat, row)
            in_play = seat == mover and played is not None and played // width == row
            if in_play and phase is Phase.OVERFLOW:
                if supply <= tolerance:
                    problems.append(f"R21: OVERFLOW, but player {seat}'s row {row} is within")
            elif in_play and (phase is Phase.TECH or state._chance is Chance.TECH):
                pass  # R9: the played row may exceed its tolerance until the overflow check
            elif supply > tolerance:
                problems.append(f"R9: player {seat}'s row {row} exceeds its tolerance in {phase}")
    for log, owner in ((state._this_turn, mover), (state._last_turn, 1 - mover)):
        problems.extend(_log_problems(state, log, owner))
    if rules.tech_timing is TechTiming.PLACE_AT_ONCE:
        problems.extend(_at_once_problems(state))
    return problems


_AT_ONCE: Final = {Tech.ACCUMULATOR: PlaceAccumulator, Tech.SMART: PlaceSmart}


def _at_once_problems(state: GameState) -> list[str]:
    """R40 with PLACE_AT_ONCE: a drawn Accumulator or Smart card is placed at once."""
    problems: list[str] = []
    mover, log = state.current_player, state._this_turn
    for seat in (0, 1):
        for tech in _AT_ONCE:
            if tech not in state._tech_hands[seat]:
                continue
            just_drawn = (
                seat == mover
                and state.phase in (Phase.OVERFLOW, Phase.DRAW)
                and bool(log)
                and log[-1] == DealTech(tech)
            )
            if not just_drawn:
                problems.append(f"R40: player {seat} holds {tech.name} after their next move")
    for log, owner in ((state._this_turn, mover), (state._last_turn, 1 - mover)):
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


def _top_value(raw: tuple[int, ...], value: tuple[int, ...]) -> int:
    return value[raw[-1]] if raw and not raw[0] & FACE_DOWN else 0


def _tolerance(state: GameState, seat: int, row: int) -> int:
    rules = state.rules
    return rules.accumulator_tolerance if state._accumulator == (seat, row) else rules.tolerance


def _stack_problems(rules: Rules, seat: int, c: int, raw: tuple[int, ...]) -> list[str]:
    t = rules._tables
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
    t = rules._tables
    width = len(t.energies)
    index = t.card_index
    board = state._boards[owner]
    problems: list[str] = []
    for n, move in enumerate(log):
        if isinstance(move, BuildPylon | Construct | Improve | Downsize):
            raw = board[t.cell_index[move.cell]]
            card = index[move.card]
            if isinstance(move, BuildPylon):
                ok = raw == (_HIDDEN_PYLON, card)
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
            if state._hands[owner].count(card) <= state._known[owner].count(card):
                problems.append(f"R36: the logged {move} is not an unknown card of the hand")
        elif isinstance(move, DealTech):
            later = {
                Tech.ACCUMULATOR if isinstance(m, PlaceAccumulator) else Tech.SMART
                for m in log[n + 1 :]
                if isinstance(m, PlaceAccumulator | PlaceSmart)
            }
            if move.tech not in state._tech_hands[owner] and move.tech not in later:
                problems.append(f"R36: the logged {move} is neither held nor placed")
        elif isinstance(move, Flip | FlipSet):
            before = list(board)
            for m in log[n:]:  # undo this flip and the later ones
                for cell in _flipped_cells(m):
                    c = t.cell_index[cell]
                    raw = before[c]
                    before[c] = (raw[0] & ~(FACE_DOWN | FLIPPED), *raw[1:])
            row = _flipped_cells(move)[0].row
            supply = sum(_top_value(raw, t.card_value) for raw in before[row * width :][:width])
            placed_later = any(
                isinstance(m, PlaceAccumulator) and m.row == row for m in log[n + 1 :]
            )
            tolerance = rules.tolerance
            if state._accumulator == (owner, row) and not placed_later:
                tolerance = rules.accumulator_tolerance
            if supply <= tolerance:
                problems.append(f"R21: {move} was logged, but the row was within its tolerance")
    return problems


def _flipped_cells(move: Move) -> tuple[Cell, ...]:
    if isinstance(move, Flip):
        return (move.cell,)
    if isinstance(move, FlipSet):
        return move.cells
    return ()


# -- perturbations -----------------------------------------------------------------------------


def _insert(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*cards, card)))


def _remove(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    k = cards.index(card)
    return cards[:k] + cards[k + 1 :]


def _pair(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _hidden_slots(state: GameState, q: int) -> dict[str, list[tuple[Slot, tuple[int, ...]]]]:
    """The places of q's cards that q's opponent cannot see, by zone, with their cards (R30).

    Hand and deck hold sorted multisets (the hand without the cards known to be there, R36).
    """
    over = state.phase is Phase.GAME_OVER
    slots: dict[str, list[tuple[Slot, tuple[int, ...]]]] = {"secret": [], "pylon": []}
    for c, raw in enumerate(state._boards[q]):
        if not raw:
            continue
        flags = raw[0]
        if flags & SECRET and not (over and not flags & FACE_DOWN and len(raw) == 2):
            slots["secret"].append((("secret", c), (raw[1],)))  # R26: revealed only on top
        elif flags & FACE_DOWN and not flags & FLIPPED:
            slots["pylon"].append((("pylon", c), (raw[1],)))
    hand = state._hands[q]
    for known in state._known[q]:
        hand = _remove(hand, known)
    slots["hand"] = [(("hand", -1), hand)]
    slots["deck"] = [(("deck", -1), state._deck)]
    return slots


#: The pairs of zones whose cards `perturbations` exchanges, in the order of `KINDS`.
_ZONE_PAIRS: Final = (
    ("hand", "deck"),
    ("pylon", "deck"),
    ("pylon", "hand"),
    ("pylon", "pylon"),
    ("secret", "deck"),
    ("secret", "hand"),
    ("secret", "pylon"),
)


def _log_of(state: GameState, q: int) -> tuple[str, tuple[Move, ...]]:
    """The attrs init name and contents of q's turn log in `state` (R36)."""
    if state.current_player == q:
        return "this_turn", state._this_turn
    return "last_turn", state._last_turn


def _exchange(
    state: GameState, q: int, a: Slot, x: int, b: Slot, y: int, deal_follows: bool
) -> GameState:
    """`state` with card x of slot a and card y of slot b exchanged, q's log following them."""
    t = state.rules._tables
    hand, deck = state._hands[q], state._deck
    board = list(state._boards[q])
    hand_gives: int | None = None
    hand_gets = -1
    for (zone, c), out, into in ((a, x, y), (b, y, x)):
        if zone == "hand":
            hand = _insert(_remove(hand, out), into)
            hand_gives, hand_gets = out, into
        elif zone == "deck":
            deck = _insert(_remove(deck, out), into)
        else:
            raw = board[c]
            board[c] = (raw[0], into, *raw[2:])  # the hidden card is the bottom one
    name, log = _log_of(state, q)
    rewritten: list[Move] = []
    for move in log:
        if isinstance(move, BuildPylon):
            card = t.cards[board[t.cell_index[move.cell]][1]]
            rewritten.append(BuildPylon(card, move.cell))
        elif isinstance(move, Construct) and move.secret:
            card = t.cards[board[t.cell_index[move.cell]][1]]
            rewritten.append(Construct(card, move.cell, secret=True))
        elif (
            isinstance(move, Deal)
            and deal_follows
            and hand_gives is not None
            and t.card_index[move.card] == hand_gives
        ):
            rewritten.append(Deal(t.cards[hand_gets]))
        else:
            rewritten.append(move)
    changes: dict[str, Any] = {
        "hands": _pair(state._hands, q, hand),
        "deck": deck,
        "boards": _pair(state._boards, q, tuple(board)),
        name: tuple(rewritten),
    }
    return _evolve(state, **changes)


_STATE_FIELDS: Final = tuple((field.name, field.alias) for field in attrs.fields(GameState))


def _evolve(state: GameState, **changes: Any) -> GameState:
    """``attrs.evolve(state, **changes)``, about three times as fast (the hot path)."""
    return GameState(
        *[
            changes[alias] if alias in changes else getattr(state, name)
            for name, alias in _STATE_FIELDS
        ]
    )


def perturbations(state: GameState, player: int) -> Iterator[tuple[str, GameState]]:
    """Every single change of what `player` cannot know in `state`, as ``(kind, state)`` (R30).

    The kinds and how the turn logs follow the cards are listed in the module docstring. Each
    state yielded is consistent (`consistency_problems` is empty) when `state` is; changes of
    the secret card that would not be are left out.

    Example:
        >>> from hatsuden_rules import new_game
        >>> state = new_game(seed=1)
        >>> changed = [s for kind, s in perturbations(state, 0) if kind == "hand-deck"]
        >>> len(changed) > 0, all(s.hand(0) == state.hand(0) for s in changed)
        (True, True)
        >>> all(s.hand(1) != state.hand(1) for s in changed)
        True
    """
    yield from _card_perturbations(state, player)
    yield from _generator_perturbations(state)


def _card_perturbations(state: GameState, player: int) -> Iterator[tuple[str, GameState]]:
    q = 1 - player
    t = state.rules._tables
    width = len(t.energies)
    slots = _hidden_slots(state, q)
    name, log = _log_of(state, q)
    dealt = {t.card_index[m.card] for m in log if isinstance(m, Deal)}
    unknown = slots["hand"][0][1]
    for zone_a, zone_b in _ZONE_PAIRS:
        if zone_a == zone_b:
            pairs: Iterable[tuple[Any, Any]] = itertools.combinations(slots[zone_a], 2)
        else:
            pairs = itertools.product(slots[zone_a], slots[zone_b])
        kind = f"{zone_a}-{zone_b}"
        for (a, cards_a), (b, cards_b) in pairs:
            for x in dict.fromkeys(cards_a):
                for y in dict.fromkeys(cards_b):
                    if x == y:
                        continue
                    if zone_a == "secret" and t.card_col[y] != a[1] % width:
                        continue  # R11: a secret card is of its column's energy (public)
                    gives = x if zone_a == "hand" else y if zone_b == "hand" else None
                    variants = [True]
                    if gives is not None and gives in dealt and unknown.count(gives) >= 2:
                        variants.append(False)  # another unknown copy may be the dealt one
                    for follows in variants:
                        changed = _exchange(state, q, a, x, b, y, follows)
                        if zone_a == "secret" and consistency_problems(changed):
                            yield "skipped " + kind, changed
                            continue
                        yield kind, changed
    held, tech_deck = state._tech_hands[q], state._tech_deck
    at_once = state.rules.tech_timing is TechTiming.PLACE_AT_ONCE
    for out in sorted(held, key=lambda tech: tech.index):
        for into in tech_deck:
            deck_set = (set(tech_deck) - {into}) | {out}
            changes: dict[str, Any] = {
                "tech_hands": _pair(state._tech_hands, q, (held - {out}) | {into}),
                "tech_deck": tuple(tech for tech in Tech if tech in deck_set),
                name: tuple(
                    DealTech(into) if isinstance(m, DealTech) and m.tech is out else m for m in log
                ),
            }
            changed = _evolve(state, **changes)
            if at_once and _at_once_problems(changed):
                yield "skipped tech", changed  # R40: this tech hand is impossible
                continue
            yield "tech", changed
    for n, move in enumerate(log):
        if isinstance(move, Deal):
            for z in dict.fromkeys(unknown):
                if t.cards[z] != move.card:
                    other = (*log[:n], Deal(t.cards[z]), *log[n + 1 :])
                    yield "deal-record", _with_log(state, name, other)
        elif isinstance(move, DealTech):
            placed = {
                Tech.ACCUMULATOR if isinstance(m, PlaceAccumulator) else Tech.SMART
                for m in log[n + 1 :]
                if isinstance(m, PlaceAccumulator | PlaceSmart)
            }
            for tech in Tech:
                if tech is not move.tech and (tech in held or tech in placed):
                    other = (*log[:n], DealTech(tech), *log[n + 1 :])
                    changed = _with_log(state, name, other)
                    if at_once and _at_once_problems(changed):
                        yield "skipped dealtech-record", changed  # R40: impossible log
                        continue
                    yield "dealtech-record", changed


def _generator_perturbations(state: GameState) -> Iterator[tuple[str, GameState]]:
    if state.phase is not Phase.CHANCE:  # R8: a seeded state is never in CHANCE
        rng = state._rng
        for other_rng in (
            (_SEED_OF_A_SEEDED_COPY,) if rng is None else (None, rng ^ _SEED_OF_A_SEEDED_COPY)
        ):
            yield "generator", _evolve(state, rng=other_rng)


def _with_log(state: GameState, name: str, log: tuple[Move, ...]) -> GameState:
    if name == "this_turn":
        return _evolve(state, this_turn=log)
    return _evolve(state, last_turn=log)


# -- the three checks --------------------------------------------------------------------------


@attrs.frozen
class NonInterference:
    """What `non_interference` checked: perturbed states by kind, and what went wrong."""

    checked: dict[str, int]
    skipped: dict[str, int]
    reachable: int
    problems: tuple[str, ...]
    problem_count: int


@attrs.frozen
class InformationSets:
    """States outside CHANCE and GAME_OVER grouped by the mover's observation (R37)."""

    sets: tuple[int, int]
    states: tuple[int, int]
    largest: tuple[int, int]
    problems: tuple[str, ...]
    problem_count: int


@attrs.frozen
class Sampling:
    """What `sampling` checked: distinct observations, samples drawn, samples not reachable."""

    observations: tuple[int, int]
    samples: int
    unreachable: int
    problems: tuple[str, ...]
    problem_count: int


class _Checks:
    """The three checks, accumulated state by state (one `observe` per state and player)."""

    def __init__(
        self,
        observer: Observer | None,
        reachable: frozenset[GameState] | None,
        seeds: Sequence[int],
        stop_after: int | None,
    ) -> None:
        self.observer = observer if observer is not None else observe  # looked up now
        self.reachable = reachable
        self.seeds = tuple(seeds)
        self.stop_after = stop_after
        self.problems: list[str] = []
        self.problem_count = 0
        self.checked: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.hits = 0
        self.groups: dict[tuple[int, Hashable], list[Any]] = {}
        self.decision_states = [0, 0]
        self.seen: set[Hashable] = set()
        self.observations = [0, 0]
        self.samples = 0
        self.unreachable = 0

    @property
    def done(self) -> bool:
        return self.stop_after is not None and self.problem_count >= self.stop_after

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < _MAX_PROBLEMS:
            self.problems.append(text)

    def perturb(
        self,
        state: GameState,
        player: int,
        seen: Hashable,
        changes: Iterable[tuple[str, GameState]],
    ) -> None:
        observer = self.observer
        for kind, changed in changes:
            if kind.startswith("skipped "):
                self.skipped[kind.removeprefix("skipped ")] += 1
                continue
            self.checked[kind] += 1
            if self.reachable is not None and _explicit(changed) in self.reachable:
                self.hits += 1
            elif kind != "generator" and (wrong := consistency_problems(changed)):
                self.problem(f"{kind} made an inconsistent state: {wrong} from {state}")
            after = observer(changed, player)
            if after != seen:
                self.problem(
                    f"R30 leak: a {kind} perturbation of {state} changes what player {player} "
                    f"observes{_difference(seen, after)}"
                )
                if self.done:
                    return

    def group(self, state: GameState, seen: Hashable) -> None:
        mover = state.current_player
        self.decision_states[mover] += 1
        key = (mover, seen)
        moves = legal_moves(state)
        group = self.groups.get(key)
        if group is None:
            self.groups[key] = [moves, 1]
            if isinstance(seen, Observation) and legal_moves_from(seen) != moves:
                self.problem(f"R37: legal_moves_from differs from legal_moves in {state}")
            return
        group[1] += 1
        if group[0] != moves:
            self.problem(
                f"R30: two states player {mover} cannot tell apart have different legal moves, "
                f"{state}: {moves} against {group[0]}"
            )

    def sample(self, state: GameState, player: int, seen: Observation) -> None:
        if seen in self.seen:
            return
        self.seen.add(seen)
        self.observations[player] += 1
        if not seen.is_my_turn and legal_moves_from(seen) != ():
            self.problem(f"R37: legal_moves_from is not empty without a decision, {state}")
        for seed in self.seeds:
            guess = sample_state(seen, seed)
            self.samples += 1
            if observe(guess, player) != seen:
                self.problem(f"R38: sample_state(o, {seed}) does not give o back: {state} {player}")
            if self.reachable is not None and _explicit(guess) in self.reachable:
                continue  # reachable states are checked for consistency once, by the caller
            if self.reachable is not None:
                self.unreachable += 1
            if wrong := consistency_problems(guess):
                self.problem(f"R38: sample_state(o, {seed}) is inconsistent: {wrong}, {state}")

    def run(self, states: Iterable[GameState], *, perturb: bool, group: bool, sample: bool) -> None:
        observer = self.observer
        for state in states:
            decision = state.phase not in _NO_DECISION
            generator = list(_generator_perturbations(state)) if perturb else []
            for player in (0, 1):
                seen = observer(state, player)
                if perturb:
                    self.perturb(state, player, seen, _card_perturbations(state, player))
                    self.perturb(state, player, seen, generator)
                if group and decision and player == state.current_player:
                    self.group(state, seen)
                if sample:
                    assert isinstance(seen, Observation)
                    self.sample(state, player, seen)
                if self.done:
                    return

    def non_interference(self) -> NonInterference:
        return NonInterference(
            dict(sorted(self.checked.items(), key=lambda item: KINDS.index(item[0]))),
            dict(sorted(self.skipped.items(), key=lambda item: KINDS.index(item[0]))),
            self.hits,
            tuple(self.problems),
            self.problem_count,
        )

    def information_sets(self) -> InformationSets:
        sets = [0, 0]
        largest = [0, 0]
        for (mover, _), (_, size) in self.groups.items():
            sets[mover] += 1
            largest[mover] = max(largest[mover], size)
        return InformationSets(
            (sets[0], sets[1]),
            (self.decision_states[0], self.decision_states[1]),
            (largest[0], largest[1]),
            tuple(self.problems),
            self.problem_count,
        )

    def sampling(self) -> Sampling:
        return Sampling(
            (self.observations[0], self.observations[1]),
            self.samples,
            self.unreachable,
            tuple(self.problems),
            self.problem_count,
        )


_NO_DECISION: Final = frozenset({Phase.CHANCE, Phase.GAME_OVER})


def _explicit(state: GameState) -> GameState:
    return state if state._rng is None else _evolve(state, rng=None)


def _difference(a: object, b: object) -> str:
    if not isinstance(a, Observation) or not isinstance(b, Observation):
        return ""
    fields = attrs.fields(Observation)
    names = [f.name for f in fields if getattr(a, f.name) != getattr(b, f.name)]
    return f" (fields {', '.join(names)})"


def non_interference(
    states: Iterable[GameState],
    *,
    observer: Observer | None = None,
    reachable: frozenset[GameState] | None = None,
    stop_after: int | None = None,
) -> NonInterference:
    """Check that no perturbation of `states` changes what either player observes (R30, R37).

    Every perturbed state that is not in `reachable` is also checked to be consistent
    (`consistency_problems`): a check of the generator itself.

    Args:
        states: The states to perturb (all reachable states, for a proof).
        observer: The function under test; by default `observe` (this module's name for it,
            looked up at each call, so a test may also monkeypatch it).
        reachable: If given, count the perturbed states that are in it (a measure of how
            realistic the perturbations are; not a requirement).
        stop_after: Stop after this many problems (a leak test needs only one).
    """
    checks = _Checks(observer, reachable, (), stop_after)
    checks.run(states, perturb=True, group=False, sample=False)
    return checks.non_interference()


def information_sets(
    states: Iterable[GameState], *, observer: Observer | None = None
) -> InformationSets:
    """Group the decision states by the mover's observation; moves must agree in each group.

    Within a group `legal_moves` must be identical (R30: what a player may do depends only on
    what they know), and `legal_moves_from` of the group's observation must return exactly
    those moves (R37).
    """
    checks = _Checks(observer, None, (), None)
    checks.run(states, perturb=False, group=True, sample=False)
    return checks.information_sets()


def sampling(
    states: Iterable[GameState],
    *,
    seeds: Sequence[int] = (0, 1),
    reachable: frozenset[GameState] | None = None,
) -> Sampling:
    """For every distinct observation of `states` (both players), sample with each seed (R38).

    Each sample must give back the observation and be consistent (`consistency_problems`; a
    sample in `reachable` is consistent since every reachable state is); with `reachable`,
    samples outside it are counted. Without a decision to make, `legal_moves_from` must be
    empty (R37).
    """
    checks = _Checks(None, reachable, seeds, None)
    checks.run(states, perturb=False, group=False, sample=True)
    return checks.sampling()


# -- everything at once ------------------------------------------------------------------------


@attrs.frozen
class InformationReport:
    """The result of `check_information` on one `Rules`."""

    rules: Rules
    seeds: tuple[int, ...]
    model_check: str
    states: int
    inconsistent_reachable: int
    observations: tuple[int, int]
    decision_states: tuple[int, int]
    information_sets: tuple[int, int]
    largest_information_set: tuple[int, int]
    perturbations: dict[str, int]
    skipped_perturbations: dict[str, int]
    reachable_perturbations: int
    samples: int
    unreachable_samples: int
    problems: tuple[str, ...]
    problem_count: int
    seconds: dict[str, float]

    @property
    def ok(self) -> bool:
        """True when the model check completed and no information property failed."""
        return self.model_check == "OK" and self.problem_count == 0

    def golden(self) -> dict[str, Any]:
        """The deterministic figures, as stored in tests/golden/information.json."""
        return {
            "rules": _rules_dict(self.rules),
            "seeds": list(self.seeds),
            "states": self.states,
            "decision_states": list(self.decision_states),
            "information_sets": list(self.information_sets),
            "largest_information_set": list(self.largest_information_set),
            "observations": list(self.observations),
            "perturbations": self.perturbations,
            "skipped_perturbations": self.skipped_perturbations,
            "reachable_perturbations": self.reachable_perturbations,
            "samples": self.samples,
            "unreachable_samples": self.unreachable_samples,
        }


def _rules_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in attrs.fields(Rules):
        if not field.init or field.name in _VARIANT_FIELDS:
            continue
        value = getattr(rules, field.name)
        if field.name == "techs":
            value = [tech.name for tech in Tech if tech in value]
        elif hasattr(value, "name"):
            value = value.name
        out[field.name] = value
    return out | variants_dict(rules)


#: Written only when not at their defaults (R40, R41): see `_report.variants_dict`.
_VARIANT_FIELDS: Final = frozenset({"tech_timing", "overflow"})


def explore(
    rules: Rules, progress: Callable[[str], None] | None = None
) -> tuple[str, list[GameState]]:
    """Every reachable state of `rules` (explicit chance mode), with the model check's verdict."""
    states: list[GameState] = []
    result = check(rules, on_state=states.append, progress=progress)
    return result.result, states


def check_information(
    rules: Rules,
    *,
    seeds: Sequence[int] = (0, 1),
    states: Sequence[GameState] | None = None,
    verdict: str = "OK",
    progress: Callable[[str], None] | None = None,
) -> InformationReport:
    """Run the three information checks on every reachable state of `rules`.

    Args:
        rules: The rule set.
        seeds: The seeds `sample_state` is called with, for each distinct observation.
        states: Every reachable state, if already explored (with the model check's `verdict`);
            else `rules` is explored now with `check`.
        verdict: The model check's result for `states`.
        progress: Called with a line after each stage.
    """
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    if states is None:
        verdict, states = explore(rules, progress)
    reachable = frozenset(states)
    inconsistent = [state for state in states if consistency_problems(state)]
    seconds["explore"] = time.perf_counter() - start
    if progress is not None:
        progress(f"{len(states):,} states, {len(inconsistent)} inconsistent")
    lap = time.perf_counter()
    checks = _Checks(None, reachable, seeds, None)
    for state in inconsistent[:_MAX_PROBLEMS]:
        checks.problem(f"a reachable state fails consistency: {consistency_problems(state)}")
    checks.problem_count += max(0, len(inconsistent) - _MAX_PROBLEMS)
    checks.run(states, perturb=True, group=True, sample=True)
    seconds["checks"] = time.perf_counter() - lap
    seconds["total"] = time.perf_counter() - start
    ni, sets, samples = checks.non_interference(), checks.information_sets(), checks.sampling()
    return InformationReport(
        rules=rules,
        seeds=tuple(seeds),
        model_check=verdict,
        states=len(states),
        inconsistent_reachable=len(inconsistent),
        observations=samples.observations,
        decision_states=sets.states,
        information_sets=sets.sets,
        largest_information_set=sets.largest,
        perturbations=ni.checked,
        skipped_perturbations=ni.skipped,
        reachable_perturbations=ni.reachable,
        samples=samples.samples,
        unreachable_samples=samples.unreachable,
        problems=tuple(checks.problems),
        problem_count=checks.problem_count,
        seconds={name: round(value, 2) for name, value in seconds.items()},
    )


# -- command line ------------------------------------------------------------------------------


def format_report(name: str, report: InformationReport) -> str:
    """A human-readable summary of `report`."""
    checked = sum(report.perturbations.values())
    lines = [
        f"information check of {name}: {'OK' if report.ok else 'PROBLEM'} "
        f"(model check {report.model_check}, {report.seconds['total']:.1f} s)",
        f"  reachable states        {report.states:,} "
        f"(inconsistent: {report.inconsistent_reachable})",
        f"  information sets        player 0: {report.information_sets[0]:,} from "
        f"{report.decision_states[0]:,} states (largest {report.largest_information_set[0]}); "
        f"player 1: {report.information_sets[1]:,} from {report.decision_states[1]:,} states "
        f"(largest {report.largest_information_set[1]})",
        f"  distinct observations   player 0: {report.observations[0]:,}; "
        f"player 1: {report.observations[1]:,}",
        f"  non-interference        {checked:,} perturbed states over {report.states:,} states x "
        f"2 players, {report.reachable_perturbations:,} of them reachable "
        f"",
    ]
    for kind, n in report.perturbations.items():
        lines.append(f"    {kind:<18} {n:>12,}")
    for kind, n in report.skipped_perturbations.items():
        why = "the new secret card" if kind.startswith("secret") else "R40: the tech hand or log"
        lines.append(f"    skipped {kind:<10} {n:>12,} ({why} would be inconsistent)")
    lines.append(
        f"  sampling                {report.samples:,} samples, "
        f"{report.unreachable_samples:,} not reachable"
    )
    lines.extend(f"  PROBLEM: {text}" for text in report.problems)
    if report.problem_count > len(report.problems):
        lines.append(f"  ... {report.problem_count - len(report.problems)} more problems")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hatsuden_rules.modelcheck.information --config NAME [--golden FILE]``.

    Exit code 0 when every check holds (and the figures match the golden file, if given), 1 on
    a problem or a mismatch, 2 on a usage error.
    """
    parser = argparse.ArgumentParser(
        prog="python -m hatsuden_rules.modelcheck.information",
        description="Exhaustive hidden-information checks: non-interference, information sets "
        "and sampling over every reachable state of a reduced configuration (RULES.md R30, "
        "R36-R38).",
    )
    parser.add_argument(
        "--config",
        action="append",
        choices=sorted(INFORMATION_CONFIGS),
        help="a configuration to check (repeatable; default small)",
    )
    parser.add_argument(
        "--seeds",
        type=int,
        help="sample every distinct observation with seeds 0..N-1 (default: as in the golden "
        "file, else 1)",
    )
    parser.add_argument("--golden", type=Path, help="compare the figures with this golden file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--progress", action="store_true", help="progress lines on stderr")
    args = parser.parse_args(argv)
    if args.seeds is not None and args.seeds < 1:
        parser.error("--seeds must be at least 1")
    goldens: dict[str, Any] = {}
    if args.golden is not None:
        goldens = json.loads(args.golden.read_text())["configs"]

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    status = 0
    for name in args.config or ["small"]:
        golden = goldens.get(name)
        if args.seeds is not None:
            seeds: tuple[int, ...] = tuple(range(args.seeds))
        elif golden is not None:
            seeds = tuple(golden["seeds"])
        else:
            seeds = (0,)
        report = check_information(
            INFORMATION_CONFIGS[name],
            seeds=seeds,
            progress=progress if args.progress else None,
        )
        record = report.golden()
        if args.json:
            print(json.dumps({**record, "seconds": report.seconds, "ok": report.ok}, indent=2))
        else:
            print(format_report(name, report))
        if not report.ok:
            status = 1
        if args.golden is None:
            continue
        if golden is None:
            print(f"no golden figures for {name} in {args.golden}", file=sys.stderr)
            status = 1
        elif golden != record:
            print(f"{name}: MISMATCH with {args.golden}:", file=sys.stderr)
            for key in sorted(set(golden) | set(record)):
                if golden.get(key) != record.get(key):
                    print(
                        f"  {key}: golden {golden.get(key)} != {record.get(key)}", file=sys.stderr
                    )
            status = 1
        else:
            print(f"{name}: matches {args.golden}")
    return status


if __name__ == "__main__":
    sys.exit(main())
