"""The perturbations of what a player cannot know (R30), turn logs following the cards (R36).

See the table of kinds in `hatsuden_rules.modelcheck.information`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from types import MappingProxyType
from typing import Any, Final

from hatsuden_rules import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    GameState,
    Move,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Tech,
    TechTiming,
)
from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.encoding import FACE_DOWN, FLIPPED, SECRET
from hatsuden_rules.core.state import updater
from hatsuden_rules.modelcheck._consistency import at_once_problems, consistency_problems

__all__ = ["KINDS", "Slot", "perturbations"]

#: The perturbation kinds, in the order `perturbations` generates them.
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

_SEED_OF_A_SEEDED_COPY: Final = 0x5EED_CAFE_F00D_D00D

Slot = tuple[str, int]  # ("hand" | "deck", -1) or ("pylon" | "secret", cell index)


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
    for c, raw in enumerate(enc.boards(state)[q]):
        if not raw:
            continue
        flags = raw[0]
        if flags & SECRET and not (over and not flags & FACE_DOWN and len(raw) == 2):
            slots["secret"].append((("secret", c), (raw[1],)))  # R26: revealed only on top
        elif flags & FACE_DOWN and not flags & FLIPPED:
            slots["pylon"].append((("pylon", c), (raw[1],)))
    hand = enc.hands(state)[q]
    for known in enc.known(state)[q]:
        hand = _remove(hand, known)
    slots["hand"] = [(("hand", -1), hand)]
    slots["deck"] = [(("deck", -1), enc.deck(state))]
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
        return "this_turn", state.this_turn
    return "last_turn", state.last_turn


def _exchange(
    state: GameState, q: int, a: Slot, x: int, b: Slot, y: int, deal_follows: bool
) -> GameState:
    """`state` with card x of slot a and card y of slot b exchanged, q's log following them."""
    t = enc.tables(state.rules)
    hand, deck = enc.hands(state)[q], enc.deck(state)
    board = list(enc.boards(state)[q])
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
        "hands": _pair(enc.hands(state), q, hand),
        "deck": deck,
        "boards": _pair(enc.boards(state), q, tuple(board)),
        name: tuple(rewritten),
    }
    return _evolve(state, **changes)


# The updaters of the changes made here, by the set of fields changed (see `state.updater`).
_UPDATERS: Final = MappingProxyType(
    {
        frozenset(fields): updater(*fields)
        for fields in (
            ("hands", "deck", "boards", "this_turn"),
            ("hands", "deck", "boards", "last_turn"),
            ("tech_hands", "tech_deck", "this_turn"),
            ("tech_hands", "tech_deck", "last_turn"),
            ("rng",),
            ("this_turn",),
            ("last_turn",),
        )
    }
)


def _evolve(state: GameState, **changes: Any) -> GameState:
    """``attrs.evolve(state, **changes)``, through the core's updater of these fields."""
    return _UPDATERS[frozenset(changes)](state, **changes)


def perturbations(state: GameState, player: int) -> Iterator[tuple[str, GameState]]:
    """Every single change of what `player` cannot know in `state`, as ``(kind, state)`` (R30).

    The kinds and how the turn logs follow the cards are listed in the module docstring. Each
    state yielded is consistent (`consistency_problems` is empty) when `state` is; changes of
    the secret card that would not be are left out.

    Examples:
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
    t = enc.tables(state.rules)
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
    held, tech_deck = enc.tech_hands(state)[q], state.tech_deck
    at_once = state.rules.tech_timing is TechTiming.PLACE_AT_ONCE
    for out in sorted(held, key=lambda tech: tech.index):
        for into in tech_deck:
            deck_set = (set(tech_deck) - {into}) | {out}
            changes: dict[str, Any] = {
                "tech_hands": _pair(enc.tech_hands(state), q, (held - {out}) | {into}),
                "tech_deck": tuple(tech for tech in Tech if tech in deck_set),
                name: tuple(
                    DealTech(into) if isinstance(m, DealTech) and m.tech is out else m for m in log
                ),
            }
            changed = _evolve(state, **changes)
            if at_once and at_once_problems(changed):
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
                    if at_once and at_once_problems(changed):
                        yield "skipped dealtech-record", changed  # R40: impossible log
                        continue
                    yield "dealtech-record", changed


def _generator_perturbations(state: GameState) -> Iterator[tuple[str, GameState]]:
    if state.phase is not Phase.CHANCE:  # R8: a seeded state is never in CHANCE
        rng = state.rng_state
        for other_rng in (
            (_SEED_OF_A_SEEDED_COPY,) if rng is None else (None, rng ^ _SEED_OF_A_SEEDED_COPY)
        ):
            yield "generator", _evolve(state, rng=other_rng)


def _with_log(state: GameState, name: str, log: tuple[Move, ...]) -> GameState:
    if name == "this_turn":
        return _evolve(state, this_turn=log)
    return _evolve(state, last_turn=log)
