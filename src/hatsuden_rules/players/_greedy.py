"""`GreedyPlayer`: one-ply lookahead on the provisional score, with row-target tie-breaks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.apply import apply
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import (
    Construct,
    DeclineTech,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    Flip,
    FlipSet,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.rng import SplitMix64, splitmix64
from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.observation import Observation, sample_state
from hatsuden_rules.players._heuristics import outlook, placement_gain
from hatsuden_rules.players._protocol import check_decision

__all__ = ["GreedyPlayer"]

_DRAW_TECH = DrawTech()
_DECLINE_TECH = DeclineTech()


@attrs.frozen
class GreedyPlayer:
    """One-ply lookahead on the provisional score (R27-R29), from its own observation.

    The player completes its observation into one full state (`sample_state`, so the
    opponent's hidden cards are a guess drawn with the generator), applies each legal move,
    finishes its own turn's forced follow-ups (declines the tech draw, resolves an overflow with
    its best flips) and keeps the move with the best key:

    1. the provisional margin, its total minus the opponent's (`score`);
    2. the outlook: rows heading for exactly the city demand, no row left at the demand minus 2
       or less, energy majorities weighted by how settled they are;
    3. a random tie-break drawn from the generator.

    It always draws a tech card when it may. In DRAW it takes a discard when the card is worth
    more on its board than a card drawn from the deck is on average (prices over the unseen
    cards), else it draws from the deck. It never spends Secret Build (hiding a value is worth
    nothing to a one-ply search).

    Examples:
        >>> from hatsuden_rules import SplitMix64, new_game, observe, legal_moves_from
        >>> seen = observe(new_game(seed=1), 0)
        >>> move = GreedyPlayer().choose(seen, legal_moves_from(seen), SplitMix64.from_seed(3))
        >>> move in legal_moves_from(seen)
        True
    """

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64 | int
    ) -> Move:
        """The greedy move among `legal_moves` (reproducible for a given `rng`).

        `rng` is a `SplitMix64`, or an int seed (``SplitMix64.from_seed``).
        """
        observation, moves, rng = check_decision(observation, legal_moves, rng)
        if len(moves) == 1:
            return moves[0]
        if observation.phase is Phase.TECH:
            return _DRAW_TECH if _DRAW_TECH in moves else moves[0]
        state = sample_state(observation, rng)
        noise = rng.next()[0] ^ 0x5DEECE66D
        if all(isinstance(m, PlaceAccumulator | PlaceSmart) for m in moves):
            return _best(state, moves, observation.player, noise)  # R40: owed placements
        if observation.phase is Phase.DRAW:
            return _draw(observation, state, moves)
        return _best(state, moves, observation.player, noise)


def _key(state: GameState, player: int) -> tuple[int, float]:
    sheet = score(state)
    margin = sheet.players[player].total - sheet.players[1 - player].total
    return margin, outlook(state, player)


def _finish(state: GameState, player: int, noise: int) -> GameState:
    """Play out the forced rest of the action: decline a tech draw, resolve an overflow."""
    while state.current_player == player:
        if state.phase is Phase.TECH:
            state = apply(state, _DECLINE_TECH)
        elif state.phase is Phase.OVERFLOW:
            moves: list[Move] = [
                m for m in legal_moves(state) if isinstance(m, Flip | FlipSet | PlaceAccumulator)
            ]  # placements of Smart do not resolve an overflow
            if not moves:  # R40: a Smart card drawn at once is placed first
                moves = list(legal_moves(state))
            state = apply(state, _best(state, tuple(moves), player, noise, finish=False))
        else:
            break
    return state


def _best(
    state: GameState, moves: tuple[Move, ...], player: int, noise: int, *, finish: bool = True
) -> Move:
    best_move = moves[0]
    best_key: tuple[int, float, int] | None = None
    for move in moves:
        if isinstance(move, Construct) and move.secret:
            continue
        after = apply(state, move)
        if finish:
            after = _finish(after, player, noise)
        noise, jitter = splitmix64(noise)
        key = (*_key(after, player), jitter)
        if best_key is None or key > best_key:
            best_move, best_key = move, key
    return best_move


def _draw(observation: Observation, state: GameState, moves: tuple[Move, ...]) -> Move:
    player = observation.player
    smart = [m for m in moves if isinstance(m, PlaceSmart)]
    if smart:
        now = _key(state, player)[0]
        best = max(smart, key=lambda m: _key(apply(state, m), player)[0])
        if _key(apply(state, best), player)[0] > now:
            return best
    index = enc.tables(observation.rules).card_index
    takes = [m for m in moves if isinstance(m, DrawFromDiscard)]
    best_take: Move | None = None
    best_gain = 0.0
    for move in takes:
        gain = placement_gain(state, index[move.card])
        if best_take is None or gain > best_gain:
            best_take, best_gain = move, gain
    can_draw = DrawFromDeck() in moves
    if best_take is not None and can_draw:
        unseen = Counter(observation.unseen_cards())
        total = sum(unseen.values())
        expected = 0.0  # a plain left-to-right sum, as the native core's (no compensation)
        for card, n in unseen.items():
            expected += n * placement_gain(state, index[card])
        expected = expected / total if total else 0.0
        if best_gain > expected + 0.1:
            return best_take
        return DrawFromDeck()
    if can_draw:
        return DrawFromDeck()
    if best_take is not None:
        return best_take
    return moves[0]
