"""Completing an observation (R37, R38): the mover's legal moves, and consistent full states.

`legal_moves_from` gives the mover's moves from their observation alone; `sample_state` draws a
complete state that the player cannot tell apart from the real one (information-set sampling,
for ISMCTS and other search). Both rest on `_complete`, which fills every hidden place.
"""

from __future__ import annotations

import itertools

import attrs

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import Cell, Tech
from hatsuden_rules.core.encoding import DOWNSIZED, FACE_DOWN, FLIPPED, SECRET
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import (
    Downsize,
    DrawTech,
    Flip,
    FlipSet,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.rng import SplitMix64, splitmix64
from hatsuden_rules.core.rules import TechTiming
from hatsuden_rules.core.state import Chance, GameState, Phase
from hatsuden_rules.observation._observe import (
    Concealed,
    Observation,
    SeenMove,
    SeenStack,
    _unseen_counts,
    _unseen_techs,
)

__all__ = ["legal_moves_from", "sample_state"]

_MASK = (1 << 64) - 1
_AT_ONCE = (Tech.ACCUMULATOR, Tech.SMART)  # placed as soon as drawn with PLACE_AT_ONCE (R40)


def legal_moves_from(observation: Observation) -> tuple[Move, ...]:
    """The observer's legal moves, computed from their observation alone (R37).

    Equal to `legal_moves(state)` whenever ``observation == observe(state,
    state.current_player)`` outside CHANCE: what a player may do never depends on what they
    cannot see. Empty when the observer has no decision to make (the opponent's move, a pending
    chance event, or the end of the game).

    Examples:
        >>> from hatsuden_rules import legal_moves, new_game, observe
        >>> state = new_game(seed=4)
        >>> legal_moves_from(observe(state, 0)) == legal_moves(state)
        True
        >>> legal_moves_from(observe(state, 1))  # player 0 is to move
        ()
    """
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    if not observation.is_my_turn:
        return ()
    return legal_moves(_complete(observation, 0)[0])


def sample_state(observation: Observation, rng: SplitMix64 | int) -> GameState:
    """A complete state drawn uniformly among those consistent with `observation` (R38).

    ``observe(sample_state(o, rng), o.player) == o`` always holds. The unseen plant cards are
    dealt uniformly at random (every arrangement of the physical cards equally likely) to the
    deck, the unknown part of the opponent's hand and the opponent's hidden board cards, subject
    to what is public about an opponent's secret card (its energy, and the bounds that the
    cards on it, the row's tolerance, a logged tech draw and the logged flips put on its value,
    R38); the unseen tech cards likewise to the
    opponent's tech hand and the tech deck. The draw is reproducible in any language: R38 lists
    the exact order of the generator calls.

    Args:
        observation: What one player knows.
        rng: The portable generator, or an int seed for one. For several samples use several
            seeds, or continue from ``SplitMix64(sample.rng_state)``.

    Returns:
        A seeded state whose generator continues after the draws (so chance in a rollout is
        reproducible too); in the CHANCE phase, where seeded states never are, an explicit one.

    Examples:
        >>> from hatsuden_rules import new_game, observe
        >>> seen = observe(new_game(seed=8), 1)
        >>> guess = sample_state(seen, 2026)
        >>> observe(guess, 1) == seen, guess.hand(1) == seen.hand
        (True, True)
        >>> sample_state(seen, 2026) == guess  # reproducible
        True
    """
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    if isinstance(rng, SplitMix64):
        state = rng.state
    elif type(rng) is int:
        state = rng & _MASK
    else:
        raise InvalidInputError("rng", f"expected a SplitMix64 or an int seed, got {rng!r}")
    sample, after = _complete(observation, state)
    if observation.phase is Phase.CHANCE:
        return sample
    return attrs.evolve(sample, rng=after)


def _shuffle(items: list[int], rng: int) -> int:
    """Fisher-Yates with the portable generator (R38): one next() per swap, from the end."""
    for i in range(len(items) - 1, 0, -1):
        rng, value = splitmix64(rng)
        j = value % (i + 1)
        items[i], items[j] = items[j], items[i]
    return rng


def _secret_fits(observation: Observation, seat: int, cell: int, stack: SeenStack) -> list[bool]:
    """Which cards (by index) the hidden secret card of `stack` may be (R38)."""
    rules = observation.rules
    t = enc.tables(rules)
    width = len(t.energies)
    column, row = cell % width, cell // width
    above = [card.value for card in stack.cards[1:] if card is not None]
    low, high = 1, rules.max_value
    if above:
        increasing = all(a < b for a, b in itertools.pairwise(above))
        if stack.downsized and increasing:
            low = above[0] + 1  # R13: the first card on it was the Downsize
        else:
            high = above[0] - 1  # R12: the first card on it was an Improve
    elif not stack.face_down:  # the secret card is the top: it counts in its row's supply
        rest = 0
        for other in observation.boards[seat][row * width : row * width + width]:
            if other is not None and other is not stack and not other.face_down:
                rest += other.value or 0
        tolerance = enc.city_tolerance(t, observation.accumulator, seat, row)
        played = observation.played_cell
        in_play = (
            seat == observation.current_player
            and played is not None
            and t.cell_index[played] // width == row
        )
        phase = observation.phase
        if in_play and phase is Phase.OVERFLOW:
            low = max(low, tolerance - rest + 1)  # R21: the played row is over its tolerance
        elif not (in_play and (phase is Phase.TECH or observation.pending_chance is Chance.TECH)):
            high = min(high, tolerance - rest)  # R9: every other row is within tolerance
    for log, mover in (
        (observation.this_turn, observation.current_player),
        (observation.last_turn, 1 - observation.current_player),
    ):
        if mover != seat:
            continue
        for before, after in itertools.pairwise(log):
            if (
                isinstance(before, Concealed)
                and before.move == "Construct"
                and before.cell == t.cells[cell]
                and isinstance(after, DrawTech)
            ):
                low = max(low, rules.max_value)  # R17: a tech card is drawn only for a 4
        if not above:
            low = max(low, _overflow_bound(observation, log, seat, cell))
    return [t.card_col[i] == column and low <= t.card_value[i] <= high for i in range(len(t.cards))]


def _overflow_bound(
    observation: Observation, log: tuple[SeenMove, ...], seat: int, cell: int
) -> int:
    """The lowest value of `seat`'s uncovered secret card at `cell`, from the flips in `log`.

    `log` is a turn log of `seat`. Before each logged Flip or FlipSet the row exceeded its
    tolerance (R21, R41), and the secret card counted in it unless its stack was already face
    down.
    """
    rules = observation.rules
    t = enc.tables(rules)
    width = len(t.energies)
    row = cell // width
    board = observation.boards[seat]
    secret = board[cell]
    assert secret is not None
    low = 1
    for n, move in enumerate(log):
        cells = _flipped(move)
        if not cells or cells[0].row != row:
            continue
        flipped_from_here = {
            t.cell_index[c] for m in log[n:] for c in _flipped(m)
        }  # face up before this flip, face down now
        if secret.face_down and cell not in flipped_from_here:
            continue  # the secret stack was already a pylon: it did not count
        rest = 0
        for other in range(row * width, row * width + width):
            stack = board[other]
            if other == cell or stack is None:
                continue
            top = stack.cards[-1]
            if top is not None and (not stack.face_down or other in flipped_from_here):
                rest += top.value
        placed_later = any(isinstance(m, PlaceAccumulator) and m.row == row for m in log[n + 1 :])
        accumulator = None if placed_later else observation.accumulator
        tolerance = enc.city_tolerance(t, accumulator, seat, row)
        low = max(low, tolerance - rest + 1)
    return low


def _at_once_limit(observation: Observation) -> int | None:
    """How many Accumulator and Smart cards the opponent's tech hand may hold (R40), or None.

    None without a limit (``tech_timing=KEEP``). With PLACE_AT_ONCE these cards are placed as
    the drawer's next moves, so the opponent holds one only right after their own draw: when
    they are to move in OVERFLOW or DRAW and their last move was the (concealed) DealTech.
    """
    if observation.rules.tech_timing is not TechTiming.PLACE_AT_ONCE:
        return None
    log = observation.this_turn
    drawing = (
        observation.current_player != observation.player
        and observation.phase in (Phase.OVERFLOW, Phase.DRAW)
        and bool(log)
        and isinstance(log[-1], Concealed)
        and log[-1].move == "DealTech"
    )
    return 1 if drawing else 0


def _flipped(move: SeenMove) -> tuple[Cell, ...]:
    """The cells a logged move flipped (R21, R41): none unless a Flip or a FlipSet."""
    if isinstance(move, Flip):
        return (move.cell,)
    if isinstance(move, FlipSet):
        return move.cells
    return ()


def _complete(observation: Observation, rng: int) -> tuple[GameState, int]:
    """A full state consistent with `observation`, its unseen cards drawn with `rng` (R38)."""
    rules = observation.rules
    t = enc.tables(rules)
    p = observation.player
    counts = _unseen_counts(observation)
    hidden: list[tuple[int, int, int]] = []  # (seat, cell, position) of each hidden board card
    secret: tuple[int, int, int] | None = None
    for seat, board in enumerate(observation.boards):
        for cell, stack in enumerate(board):
            if stack is None:
                continue
            for position, card in enumerate(stack.cards):
                if card is None:
                    if seat == p:
                        raise InvalidInputError("boards", "a player sees all of their own cards")
                    if stack.secret and position == 0:
                        secret = (seat, cell, position)
                    else:
                        hidden.append((seat, cell, position))
    unknown_hand = observation.opponent_hand_size - len(observation.opponent_known)
    slots = unknown_hand + len(hidden) + (secret is not None) + observation.deck_size
    if unknown_hand < 0 or sum(counts) != slots:
        raise InvalidInputError(
            "observation",
            f"{sum(counts)} unseen cards cannot fill {slots} hidden places (R2: conservation)",
        )
    filled: dict[tuple[int, int, int], int] = {}
    if secret is not None:  # R38: the secret card first, among the cards that fit it
        seat, cell, _ = secret
        stack = observation.boards[seat][cell]
        assert stack is not None
        fits = _secret_fits(observation, seat, cell, stack)
        weights = [n if ok else 0 for n, ok in zip(counts, fits, strict=True)]
        total = sum(weights)
        if total == 0:
            raise InvalidInputError(
                "observation", f"no unseen card fits the secret plant at {t.cells[cell]}"
            )
        rng, value = splitmix64(rng)
        r = value % total
        for i, weight in enumerate(weights):
            if r < weight:
                filled[secret] = i
                counts[i] -= 1
                break
            r -= weight
    pool = [i for i, n in enumerate(counts) for _ in range(n)]
    rng = _shuffle(pool, rng)
    drawn_hand = pool[:unknown_hand]
    for k, place in enumerate(hidden):
        filled[place] = pool[unknown_hand + k]
    deck = tuple(sorted(pool[unknown_hand + len(hidden) :]))
    techs = list(_unseen_techs(observation))
    k = observation.opponent_tech_hand_size
    if len(techs) != k + observation.tech_deck_size:
        raise InvalidInputError(
            "observation",
            f"{len(techs)} unseen tech cards cannot fill the opponent's tech hand ({k}) and the "
            f"tech deck ({observation.tech_deck_size})",
        )
    limit = _at_once_limit(observation)
    at_once = limit is not None
    if limit is not None and k - limit > sum(1 for tech in techs if tech not in _AT_ONCE):
        raise InvalidInputError(
            "observation",
            f"the opponent holds {k} tech cards, but at most {limit} of them may be an "
            "Accumulator or Smart card (tech_timing=PLACE_AT_ONCE, R40)",
        )
    while True:  # R38 step 4; with PLACE_AT_ONCE, again until the tech hand is possible (R40)
        order = list(range(len(techs)))
        rng = _shuffle(order, rng)
        if limit is None or sum(1 for i in order[:k] if techs[i] in _AT_ONCE) <= limit:
            break
    their_techs = frozenset(techs[i] for i in order[:k])
    tech_deck = tuple(techs[i] for i in sorted(order[k:]))

    index = t.card_index
    boards: list[tuple[tuple[int, ...], ...]] = []
    for seat, board in enumerate(observation.boards):
        raws: list[tuple[int, ...]] = []
        for cell, stack in enumerate(board):
            if stack is None:
                raws.append(())
                continue
            flags = (
                (FACE_DOWN if stack.face_down else 0)
                | (FLIPPED if stack.flipped else 0)
                | (SECRET if stack.secret else 0)
                | (DOWNSIZED if stack.downsized else 0)
            )
            raws.append(
                (
                    flags,
                    *(
                        filled[(seat, cell, position)] if card is None else index[card]
                        for position, card in enumerate(stack.cards)
                    ),
                )
            )
        boards.append(tuple(raws))
    own_hand = tuple(index[card] for card in observation.hand)
    their_known = tuple(index[card] for card in observation.opponent_known)
    their_hand = tuple(sorted((*their_known, *drawn_hand)))
    known_mine = tuple(index[card] for card in observation.known_to_opponent)
    played = observation.played_cell
    discarded = observation.turn_discard
    mover = observation.current_player

    def unseal(log: tuple[SeenMove, ...], seat: int) -> tuple[Move, ...]:
        out: list[Move] = []
        for n, move in enumerate(log):
            if not isinstance(move, Concealed):
                out.append(move)
            elif move.move == "Deal":
                if not drawn_hand:
                    raise InvalidInputError("last_turn", "a card was dealt to an empty hand")
                out.append(t.deal[drawn_hand[0]])  # any unknown hand card will do: they are alike
            elif move.move == "DealTech":
                out.append(t.deal_tech[_dealt_tech(their_techs, log[n + 1 :], at_once)])
            else:
                assert move.cell is not None
                cell = t.cell_index[move.cell]
                raw = boards[seat][cell]
                if move.move == "BuildPylon":
                    out.append(t.pylon[raw[1]][cell])
                else:
                    out.append(t.construct_secret[raw[1]][cell // len(t.energies)])
        return tuple(out)

    sample = GameState(
        rules=rules,
        phase=observation.phase,
        current_player=mover,
        hands=(own_hand, their_hand) if p == 0 else (their_hand, own_hand),
        deck=deck,
        discards=tuple(index[card] for card in observation.discards),
        boards=(boards[0], boards[1]),
        tech_deck=tech_deck,
        tech_hands=(observation.tech_hand, their_techs)
        if p == 0
        else (their_techs, observation.tech_hand),
        accumulator=observation.accumulator,
        smart=observation.smart,
        played=None if played is None else t.cell_index[played],
        discarded=None if discarded is None else index[discarded],
        chance=observation.pending_chance,
        stall=observation.stall_count,
        end_trigger=observation.end_triggered_by,
        end_reason=observation.end_reason,
        rng=None,
        known=(known_mine, their_known) if p == 0 else (their_known, known_mine),
        this_turn=unseal(observation.this_turn, mover),
        last_turn=unseal(observation.last_turn, 1 - mover),
    )
    return sample, rng


def _dealt_tech(held: frozenset[Tech], later: tuple[SeenMove, ...], at_once: bool) -> Tech:
    """A tech card the opponent may have drawn: one they hold, or the next one they used.

    With `at_once` (``tech_timing=PLACE_AT_ONCE``, R40) an Accumulator or Smart card is placed
    right after it is drawn and held at no other time: a placement right after the draw names
    the card, and a held one (the draw is the last move) is the card just drawn.
    """
    if at_once:
        if later and isinstance(later[0], PlaceAccumulator | PlaceSmart):
            return Tech.ACCUMULATOR if isinstance(later[0], PlaceAccumulator) else Tech.SMART
        for tech in _AT_ONCE:
            if tech in held:
                return tech
    for tech in Tech:
        if tech in held:
            return tech
    for move in later:
        if isinstance(move, PlaceAccumulator):
            return Tech.ACCUMULATOR
        if isinstance(move, PlaceSmart):
            return Tech.SMART
        if isinstance(move, Downsize):
            return Tech.DOWN
        if isinstance(move, Concealed) and move.move == "Construct":
            return Tech.SECRET_BUILD
    raise InvalidInputError("this_turn", "a tech card was dealt that the opponent cannot hold")
