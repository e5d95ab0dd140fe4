"""Fast judgement of full states for the bots: the outlook of a position and cheap move values.

The bots only ever apply these to states they built themselves from their own observation (the
greedy player's completion, the search's determinizations), never to the real game state. They
read the state's internal encoding directly (see `_state`): this is the hot path of the search.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Final

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.encoding import FACE_DOWN
from hatsuden_rules.core.legal import due_placements, legal_moves
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Discard,
    Downsize,
    DrawFromDiscard,
    Flip,
    FlipSet,
    Improve,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.rng import splitmix64
from hatsuden_rules.core.rules import TechTiming, Tiebreak
from hatsuden_rules.core.state import GameState, Phase

__all__ = ["city_outlook", "evaluate", "outlook", "placement_gain", "prices", "rollout_move"]

# Weights of the outlook (estimated final margin, in points). Held tech cards are worth a little:
# Smart can double an energy already won, Down and the Accumulator are flexible.
_HELD: Final = MappingProxyType(
    {Tech.SMART: 0.6, Tech.DOWN: 0.15, Tech.ACCUMULATOR: 0.15, Tech.SECRET_BUILD: 0.0}
)
_OVERFLOW_COST = 0.6  # playing over the tolerance costs a flip
_CARD_COST = 0.03  # per value point of a card given away (discard, pylon)
_CELL_COST = 0.1  # a pylon closes a cell for good
_DISCARD_COST = 0.15  # a discard offers the opponent a card
_DISCARD_MARGIN = 0.1  # take a discard only if it beats a card from the deck by this much
_PLACE_AT_ONCE = TechTiming.PLACE_AT_ONCE


# The evaluation of a position is its provisional margin (what `score` says now) plus this
# much of the outlook: the provisional score is the stronger signal, the outlook breaks its ties
# and looks ahead (measured: one-ply play on this mix is as strong as `GreedyPlayer`).
_OUTLOOK_WEIGHT = 0.35
# Equal totals go to the leader of tie-break 1, then to player 1 (R29): a small shift of the
# evaluation towards them (27% of ISMCTS vs Greedy games end with equal totals).
_TIEBREAK_WEIGHT = 0.4
_SEAT_WEIGHT = 0.2


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _city_points(supply: int, demand: int) -> int:
    return 1 if supply == demand else (-1 if supply <= demand - 2 else 0)


def city_outlook(supply: int, free: int, demand: int, max_value: int) -> float:
    """Expected city points of a row with `supply` and `free` empty cells (R28).

    A full row scores exactly; an open row at the demand can be closed with pylons; below it,
    the fewer cards needed to reach the demand, the better.

    Examples:
        >>> city_outlook(10, 0, 10, 4), city_outlook(8, 0, 10, 4), city_outlook(7, 1, 10, 4)
        (1, -1, 0.35)
    """
    if free == 0:
        return 1 if supply == demand else (-1 if supply <= demand - 2 else 0)
    if supply == demand:
        return 0.8
    if supply > demand:
        return 0.0
    missing = demand - supply
    need = -(-missing // max_value)
    if need <= free:
        return 0.35 - 0.2 * (need - 1)
    if -(-(missing - 1) // max_value) <= free:
        return -0.3  # 9 is within reach: no penalty
    return -0.9


def _values(state: GameState) -> tuple[list[int], list[int], list[bool], list[bool]]:
    value = enc.tables(state.rules).card_value
    b0, b1 = enc.boards(state)
    v0 = [0 if not raw or raw[0] & FACE_DOWN else value[raw[-1]] for raw in b0]
    v1 = [0 if not raw or raw[0] & FACE_DOWN else value[raw[-1]] for raw in b1]
    return v0, v1, [not raw for raw in b0], [not raw for raw in b1]


def outlook(state: GameState, player: int) -> float:
    """The estimated final margin of `player` (their total minus the opponent's, R29).

    Settled parts count exactly (a full row, a column with no empty cell left); open ones are
    weighted by how likely they are to end well. At GAME_OVER this is the exact margin.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> outlook(new_game(seed=1), 0)  # empty boards: a symmetric position
        0.0
    """
    return _judge(state, player)[1]


def evaluate(state: GameState, player: int) -> float:
    """How good `state` is for `player`, in points: the provisional margin plus some outlook.

    The provisional margin (`score` now) is the stronger signal; the outlook adds what is
    still open; a small shift goes to whoever would win equal totals (tie-break 1, else
    player 1, R29).

    Examples:
        >>> from hatsuden_rules import new_game
        >>> evaluate(new_game(seed=1), 1), evaluate(new_game(seed=1), 0)  # ties favour player 1
        (0.2, -0.2)
    """
    margin, ahead, tiebreak = _judge(state, player)
    if tiebreak:
        tie = _TIEBREAK_WEIGHT * tiebreak
    else:
        tie = _SEAT_WEIGHT if player == 1 else -_SEAT_WEIGHT
    return margin + _OUTLOOK_WEIGHT * ahead + tie


def _judge(state: GameState, player: int) -> tuple[int, float, int]:
    """The provisional margin (R27-R29 totals), the outlook, and who leads tie-break 1 (+1/-1/0).

    Tie-break 1 is the city points or the total supply, as the rules say (R29).
    """
    rules = state.rules
    t = enc.tables(rules)
    width = len(t.energies)
    demand = rules.city_demand
    top = rules.max_value
    final = state.phase is Phase.GAME_OVER
    v0, v1, f0, f1 = _values(state)
    mine, theirs = (v0, v1) if player == 0 else (v1, v0)
    my_free, their_free = (f0, f1) if player == 0 else (f1, f0)
    smart = state.smart
    energies = t.energies
    total = 0.0
    margin = 0
    cities = 0
    supplies = 0
    for e in range(width):
        diff = mine[e] + mine[width + e] - theirs[e] - theirs[width + e]
        if not diff:
            continue
        points = 2 if smart is energies[e] else 1
        won = points if diff > 0 else -points
        margin += won
        if final or not (
            my_free[e] or my_free[width + e] or their_free[e] or their_free[width + e]
        ):
            total += won
        else:
            total += points * max(-1.0, min(1.0, diff / 4))
    for row in (0, 1):
        cells = range(row * width, row * width + width)
        my_supply = sum(mine[c] for c in cells)
        their_supply = sum(theirs[c] for c in cells)
        city = _city_points(my_supply, demand) - _city_points(their_supply, demand)
        margin += city
        cities += city
        supplies += my_supply - their_supply
        my_open = 0 if final else sum(1 for c in cells if my_free[c])
        their_open = 0 if final else sum(1 for c in cells if their_free[c])
        total += city_outlook(my_supply, my_open, demand, top)
        total -= city_outlook(their_supply, their_open, demand, top)
    if not final:  # canonical order (R3), not the set's: the same sum in every process
        mine_held, theirs_held = enc.tech_hands(state)[player], enc.tech_hands(state)[1 - player]
        for tech in Tech:
            if tech in mine_held:
                total += _HELD[tech]
        for tech in Tech:
            if tech in theirs_held:
                total -= _HELD[tech]
    lead = supplies if rules.tiebreak is Tiebreak.SUPPLY else cities
    return margin, total, (lead > 0) - (lead < 0)


class _Context:
    """The mover's view of a determinized state, for pricing many moves at little cost."""

    __slots__ = (
        "city_now",
        "column_free",
        "demand",
        "diff",
        "energy_now",
        "free",
        "mine",
        "points",
        "points_now",
        "row_free",
        "supply",
        "t",
        "tolerance",
        "top",
        "width",
    )

    def __init__(self, state: GameState) -> None:
        rules = state.rules
        t = enc.tables(rules)
        self.t = t
        width = self.width = len(t.energies)
        demand = self.demand = rules.city_demand
        top = self.top = rules.max_value
        p = state.current_player
        v0, v1, f0, f1 = _values(state)
        mine, theirs = (v0, v1) if p == 0 else (v1, v0)
        free, their_free = (f0, f1) if p == 0 else (f1, f0)
        self.mine = mine
        self.free = free
        diff = self.diff = [
            mine[e] + mine[width + e] - theirs[e] - theirs[width + e] for e in range(width)
        ]
        column_free = self.column_free = [
            free[e] + free[width + e] + their_free[e] + their_free[width + e] for e in range(width)
        ]
        smart = state.smart
        self.points = [2 if smart is energy else 1 for energy in t.energies]
        supply = self.supply = [sum(mine[:width]), sum(mine[width:])]
        row_free = self.row_free = [sum(free[:width]), sum(free[width:])]
        acc = state.accumulator
        self.tolerance = [enc.city_tolerance(t, acc, p, row) for row in (0, 1)]
        # What `put` compares against: each row's city outlook and city points, each energy's
        # outlook term and provisional points, as they are now.
        self.city_now = [city_outlook(supply[r], row_free[r], demand, top) for r in (0, 1)]
        self.energy_now = [self.energy(e, diff[e], column_free[e]) for e in range(width)]
        self.points_now = [
            _city_points(supply[0], demand) + _city_points(supply[1], demand),
            *(self.points[e] * _sign(diff[e]) for e in range(width)),
        ]

    def energy(self, e: int, diff: int, column_free: int) -> float:
        """The outlook term of energy `e` at generation difference `diff`."""
        if not diff:
            return 0.0
        points = self.points[e]
        if not column_free:
            return points if diff > 0 else -points
        x = diff / 4
        return points * (1.0 if x > 1.0 else (-1.0 if x < -1.0 else x))

    def put(self, cell: int, value: int) -> float:
        """The gain of `value` on `cell`: margin change plus the weighted outlook change.

        `value` is a card put on a plant or in an empty cell, or 0 for a pylon or a flip.
        """
        row, e = divmod(cell, self.width)
        old = self.mine[cell]
        empty = self.free[cell]
        supply = self.supply[row] - old + value
        diff = self.diff[e] - old + value
        points = self.points[e]
        demand = self.demand
        gain = (
            city_outlook(supply, self.row_free[row] - empty, demand, self.top)
            - self.city_now[row]
            + self.energy(e, diff, self.column_free[e] - empty)
            - self.energy_now[e]
        )
        other = self.supply[1 - row]
        margin: float = (
            _city_points(supply, demand)
            + _city_points(other, demand)
            - self.points_now[0]
            + points * ((diff > 0) - (diff < 0))
            - self.points_now[1 + e]
        )
        if supply > self.tolerance[row]:
            margin -= _OVERFLOW_COST
        return margin + _OUTLOOK_WEIGHT * gain

    def smart(self, e: int) -> float:
        """The gain of placing Smart on energy `e` (R20): its majority scores double."""
        diff = self.diff[e]
        gain = self.energy(e, diff, self.column_free[e]) - _HELD[Tech.SMART]
        return _sign(diff) + _OUTLOOK_WEIGHT * gain

    def flip(self, cell: int) -> float:
        """The outlook gain of flipping the plant on `cell` (R21)."""
        return self.put(cell, 0)

    def flip_set(self, cells: Sequence[int]) -> float:
        """The outlook gain of flipping the plants on `cells`, all in one row, at once (R41).

        Like `put` for each cell with the value 0, the row's supply counted once.
        """
        row = cells[0] // self.width
        supply = self.supply[row] - sum(self.mine[cell] for cell in cells)
        demand = self.demand
        gain = city_outlook(supply, self.row_free[row], demand, self.top) - self.city_now[row]
        margin: float = (
            _city_points(supply, demand)
            + _city_points(self.supply[1 - row], demand)
            - self.points_now[0]
        )
        for cell in cells:
            e = cell % self.width
            diff = self.diff[e] - self.mine[cell]
            gain += self.energy(e, diff, self.column_free[e]) - self.energy_now[e]
            margin += self.points[e] * ((diff > 0) - (diff < 0)) - self.points_now[1 + e]
        if supply > self.tolerance[row]:
            margin -= _OVERFLOW_COST
        return margin + _OUTLOOK_WEIGHT * gain

    def mean_placement(self, cards: Sequence[int]) -> float:
        """The mean `best_placement` of `cards` (a multiset of card indices, e.g. the deck)."""
        counts: dict[int, int] = {}
        for card in cards:
            counts[card] = counts.get(card, 0) + 1
        total = 0.0  # a plain left-to-right sum (sum() of floats is compensated from 3.12 on)
        for card, n in counts.items():
            total += n * self.best_placement(card)
        return total / len(cards)

    def best_placement(self, card: int) -> float:
        """The best gain of building or improving with `card` now (0 if it has no use)."""
        t = self.t
        value = t.card_value[card]
        e = t.card_col[card]
        best = 0.0
        for cell in (e, self.width + e):
            if self.free[cell] or 0 < self.mine[cell] < value:
                best = max(best, self.put(cell, value))
        return best


def placement_gain(state: GameState, card: int) -> float:
    """The best outlook gain the mover of `state` gets by building or improving with `card`.

    `card` is a card index (`Rules.cards` order). Used to price a card on offer in the discards.
    """
    return _Context(state).best_placement(card)


def prices(state: GameState, moves: Sequence[Move]) -> list[float]:
    """The outlook gain of each of the mover's `moves` in `state`, priced without applying them.

    A `DrawFromDiscard` is priced by the best use of the card taken; moves with no direct
    effect on the board (draws, single flips, tech decisions) are priced 0; a `FlipSet` (R41) by
    its effect on the board, as its cells differ in what they cost.
    """
    ctx = _Context(state)
    index = ctx.t.card_index
    return [
        ctx.best_placement(index[m.card]) if isinstance(m, DrawFromDiscard) else _move_gain(ctx, m)
        for m in moves
    ]


def _move_gain(ctx: _Context, move: Move) -> float:
    t = ctx.t
    if isinstance(move, Construct | Improve | Downsize):
        return ctx.put(t.cell_index[move.cell], move.card.value)
    if isinstance(move, BuildPylon):
        cost = _CELL_COST + _CARD_COST * move.card.value
        return ctx.put(t.cell_index[move.cell], 0) - _OUTLOOK_WEIGHT * cost
    if isinstance(move, Discard):
        return -_OUTLOOK_WEIGHT * (_DISCARD_COST + _CARD_COST * move.card.value)
    if isinstance(move, PlaceSmart):
        return ctx.smart(t.energy_index[move.energy])
    if isinstance(move, PlaceAccumulator):
        return -_OUTLOOK_WEIGHT * _HELD[Tech.ACCUMULATOR]
    if isinstance(move, FlipSet):
        return ctx.flip_set([t.cell_index[cell] for cell in move.cells])
    return 0.0


def rollout_move(state: GameState, noise: int, explore: int = 0) -> Move:
    """A cheap, sensible move for the mover of `state` in a rollout, randomised by `noise`.

    In ACTION the candidates are built straight from the hand and the board (each card's
    Construct, Improve or Downsize, a pylon or a discard of the weakest card, Smart on the best
    energy) and priced like `prices`; the best one is played, ties broken at random (with
    `explore` > 0, one decision in `explore` is a random candidate instead). The tech draw is
    always taken; an overflow is absorbed by the Accumulator when it can be, else by the least
    costly flip; a discard is taken when its card is worth more on the board than the deck's
    cards are on average. `noise` is any 64-bit int. One-ply play with this policy is about as
    strong as `GreedyPlayer` (46% of 300 games) at a tenth of its cost.
    """
    phase = state.phase
    due = due_placements(state) if state.rules.tech_timing is _PLACE_AT_ONCE else ()
    if due:  # R40: a drawn Accumulator or Smart card is placed at once
        return _owed_placement(state, due)
    if phase is Phase.ACTION:
        return _rollout_action(state, noise, explore)
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    if phase is Phase.TECH:
        return moves[0]  # DrawTech when legal (R34 order), else the only move, DeclineTech
    ctx = _Context(state)
    t = ctx.t
    if phase is Phase.OVERFLOW:
        played = enc.played(state)
        assert played is not None
        row = played // ctx.width
        if t.place_accumulator[row] in moves and ctx.supply[row] <= t.accumulator_tolerance:
            return t.place_accumulator[row]
        sets = [m for m in moves if isinstance(m, FlipSet)]
        if sets:  # R41
            return max(sets, key=lambda m: ctx.flip_set([t.cell_index[c] for c in m.cells]))
        flips = [m for m in moves if isinstance(m, Flip)]
        return max(flips, key=lambda m: ctx.flip(t.cell_index[m.cell]))
    best: Move | None = None
    best_gain = 0.0
    for move in moves:
        if isinstance(move, DrawFromDiscard):
            gain = ctx.best_placement(t.card_index[move.card])
            if best is None or gain > best_gain:
                best, best_gain = move, gain
        elif isinstance(move, PlaceSmart) and _move_gain(ctx, move) > 0:
            return move
    if best is None:
        return moves[0]  # DrawFromDeck, or EndTurn
    deck = enc.deck(state)
    if deck and best_gain <= _DISCARD_MARGIN + ctx.mean_placement(deck):
        return moves[0]  # DrawFromDeck comes first (R34)
    return best


def _owed_placement(state: GameState, due: Sequence[Move]) -> Move:
    """The placement to make of an Accumulator or Smart card drawn at once (R40).

    Smart goes on the energy where it pays most; the Accumulator on the overflowing city in
    OVERFLOW, else on the city with the higher supply (the likelier to need 12).
    """
    ctx = _Context(state)
    t = ctx.t
    smart = [m for m in due if isinstance(m, PlaceSmart)]
    if smart:
        return max(smart, key=lambda m: ctx.smart(t.energy_index[m.energy]))
    played = enc.played(state)
    if state.phase is Phase.OVERFLOW and played is not None:
        return t.place_accumulator[played // ctx.width]
    return t.place_accumulator[0 if ctx.supply[0] >= ctx.supply[1] else 1]


def _rollout_action(state: GameState, noise: int, explore: int) -> Move:
    ctx = _Context(state)
    t = ctx.t
    p = state.current_player
    hand = enc.hands(state)[p]
    if not hand:
        return t.pass_
    value = t.card_value
    column = t.card_col
    width = ctx.width
    mine, free = ctx.mine, ctx.free
    techs = enc.tech_hands(state)[p]
    down = Tech.DOWN in techs
    gains: list[float] = []
    moves: list[Move] = []
    weakest = hand[0]
    for i in dict.fromkeys(hand):
        v = value[i]
        if v < value[weakest]:
            weakest = i
        e = column[i]
        for row in (0, 1):
            cell = row * width + e
            if free[cell]:
                moves.append(t.construct[i][row])
            elif 0 < mine[cell] < v:
                moves.append(t.improve[i][row])
            elif down and mine[cell] > v:
                moves.append(t.downsize[i][row])
            else:
                continue
            gains.append(ctx.put(cell, v))
    v = value[weakest]
    pylon_cost = _OUTLOOK_WEIGHT * (_CELL_COST + _CARD_COST * v)
    for cell in range(2 * width):
        if free[cell]:
            moves.append(t.pylon[weakest][cell])
            gains.append(ctx.put(cell, 0) - pylon_cost)
    moves.append(t.discard[weakest])
    gains.append(-_OUTLOOK_WEIGHT * (_DISCARD_COST + _CARD_COST * v))
    if Tech.SMART in techs:
        smart = max(range(width), key=ctx.smart)
        moves.append(t.place_smart[smart])
        gains.append(ctx.smart(smart))
    noise, draw = splitmix64(noise)
    if explore and draw % explore == 0:
        return moves[(draw >> 3) % len(moves)]
    top = max(gains)
    best = [m for m, g in zip(moves, gains, strict=True) if g >= top - 1e-9]
    return best[(draw >> 3) % len(best)]
