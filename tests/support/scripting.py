"""Typed helpers to script HATSUDEN games in explicit chance mode (R6, R7).

Positions are always built honestly through `apply`: hands come from `Deal` outcomes, tech cards
from `DrawTech` + `DealTech` after a face-up `max_value` card, boards from actions.

Low level: `deal` (the setup), `play` (a sequence of moves), `draw` (DrawFromDeck answered by a
chosen Deal), `take_tech` (DrawTech answered by a chosen DealTech), `idle` (a turn that changes
nothing but the stall counter). High level: `script`, which plays whole turns for both players
and works out which cards to deal so that every scripted action has its card in hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Card,
    Cell,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndTurn,
    Energy,
    GameState,
    Improve,
    Move,
    Pass,
    Phase,
    Rules,
    Stack,
    Tech,
    apply,
    legal_moves,
    new_game,
)

S, G, W, H, B = Energy.SOLAR, Energy.GEOTHERMAL, Energy.WIND, Energy.HYDRO, Energy.BIOMASS

#: R1 column order and R3 tech order, written out from RULES.md (not read from the library).
ENERGY_ORDER: tuple[Energy, ...] = (S, G, W, H, B)
TECH_ORDER: tuple[Tech, ...] = (Tech.ACCUMULATOR, Tech.SECRET_BUILD, Tech.SMART, Tech.DOWN)

_LETTERS = {"S": S, "G": G, "W": W, "H": H, "B": B}

#: A small rule set: 2 energies, values 1..4, 4 copies, hands of 3 (R31).
SMALL = Rules(energies=2, max_value=4, copies=4, hand_size=3, city_demand=10)


def card(code: str) -> Card:
    """``card("W3")`` is Card(WIND, 3)."""
    return Card(_LETTERS[code[0]], int(code[1:]))


def cards(*codes: str) -> list[Card]:
    """``cards("S1", "G4")``."""
    return [card(code) for code in codes]


def cell(row: int, letter: str) -> Cell:
    """``cell(0, "W")`` is Cell(0, WIND)."""
    return Cell(row, _LETTERS[letter])


def card_key(c: Card) -> tuple[int, int]:
    """Canonical card order (R2): energy column (R1), then value."""
    return (ENERGY_ORDER.index(c.energy), c.value)


def cell_key(c: Cell) -> tuple[int, int]:
    """Cell order (R34): row, then energy column."""
    return (c.row, ENERGY_ORDER.index(c.energy))


def full_deck(rules: Rules) -> Counter[Card]:
    """Every plant card of the game (R2): energies in play x values x copies."""
    energies = ENERGY_ORDER[: rules.energies]
    return Counter(
        {Card(e, v): rules.copies for e in energies for v in range(1, rules.max_value + 1)}
    )


# -- low level ------------------------------------------------------------------------------------


def play(state: GameState, *moves: Move) -> GameState:
    """Apply `moves` in order."""
    for move in moves:
        state = apply(state, move)
    return state


def deal(hand0: Sequence[Card], hand1: Sequence[Card], rules: Rules = STANDARD) -> GameState:
    """An explicit-mode game after the setup deal (R7): player 0's ACTION."""
    assert len(hand0) == len(hand1) == rules.hand_size
    state = new_game(rules=rules)
    for c in [*hand0, *hand1]:
        state = apply(state, Deal(c))
    assert state.phase is Phase.ACTION
    assert state.current_player == 0
    return state


def draw(state: GameState, c: Card) -> GameState:
    """DRAW: DrawFromDeck answered by Deal(c); the turn ends (R22, R23)."""
    return play(state, DrawFromDeck(), Deal(c))


def draw_any(state: GameState) -> GameState:
    """DRAW: DrawFromDeck answered by a Deal of the first card left in the deck."""
    return play(state, DrawFromDeck(), Deal(state.deck[0]))


def take_tech(state: GameState, tech: Tech) -> GameState:
    """TECH: DrawTech answered by DealTech(tech) (R17)."""
    return play(state, DrawTech(), DealTech(tech))


def idle(state: GameState) -> GameState:
    """A whole turn that changes nothing but the stall counter: discard a card and take it back.

    Needs ``allow_retake_discard`` (the default, R22). With an empty hand: Pass, then draw from
    the discards if possible, else EndTurn.
    """
    assert state.phase is Phase.ACTION
    hand = state.hand(state.current_player)
    if hand:
        return play(state, Discard(hand[0]), DrawFromDiscard(hand[0]))
    state = apply(state, Pass())
    if state.discards:
        return apply(state, DrawFromDiscard(state.discards[0]))
    return apply(state, EndTurn())


def idle_turns(state: GameState, count: int) -> GameState:
    """`count` idle turns in a row (alternating players)."""
    for _ in range(count):
        state = idle(state)
    return state


# -- high level -----------------------------------------------------------------------------------


Turn = Sequence[Move]

_CARD_MOVES = (Construct, Improve, Downsize, BuildPylon, Discard)


def _used_cards(turns: Sequence[Turn]) -> list[Card]:
    used: list[Card] = []
    for turn in turns:
        for move in turn:
            if isinstance(move, _CARD_MOVES):
                used.append(move.card)
    return used


class _Dealer:
    """Chooses the Deal outcomes: the cards a player will need, in order, else a filler."""

    def __init__(self, rules: Rules, needs: tuple[list[Card], list[Card]]) -> None:
        self.queues = (list(needs[0]), list(needs[1]))
        self.deck = full_deck(rules)
        for queue in self.queues:
            for c in queue:
                assert self.deck[c] > 0, f"the script needs more copies of {c} than exist"
                self.deck[c] -= 1
        self.free = self.deck  # copies nobody's script needs

    def next_for(self, player: int) -> Card:
        queue = self.queues[player]
        if queue:
            return queue.pop(0)
        fillers = sorted((c for c, n in self.free.items() if n > 0), key=card_key)
        assert fillers, "no filler card left in the deck"
        filler = fillers[-1]
        self.free[filler] -= 1
        return filler


def script(
    turns0: Sequence[Turn],
    turns1: Sequence[Turn] = (),
    rules: Rules = STANDARD,
    *,
    then: Turn = (),
    hold0: Sequence[Card] = (),
    hold1: Sequence[Card] = (),
) -> GameState:
    """Deal, then play player 0's and player 1's turns alternately, from a fresh explicit game.

    Each turn lists its moves up to (not including) the draw; an empty turn is an `idle` turn.
    A turn left in TECH is finished with DeclineTech; every other turn must reach DRAW, and is
    finished with DrawFromDeck answered by the next card its player needs (else a filler card
    nobody needs). The setup deals each player the first `hand_size` cards it needs. The script
    stops after the last scripted turn (so a player with fewer turns idles in between), then
    applies the moves of `then` (a partial turn of the player to move; its cards are dealt too).
    `hold0` and `hold1` are cards (at most `hand_size`) the players must hold at the end, before
    `then`; they are dealt after the cards the turns use.
    """
    last = 1 if len(turns0) > len(turns1) else 0  # the player to move after the turns
    needs = (_used_cards(turns0), _used_cards(turns1))
    needs[last].extend(_used_cards([then]))
    needs[0].extend(hold0)
    needs[1].extend(hold1)
    dealer = _Dealer(rules, needs)
    state = new_game(rules=rules)
    for player in (0, 1):
        for _ in range(rules.hand_size):
            state = apply(state, Deal(dealer.next_for(player)))
    plan: list[tuple[int, Turn]] = []
    rounds = max(len(turns0), len(turns1))
    for i in range(rounds):
        plan.append((0, turns0[i] if i < len(turns0) else ()))
        if i < rounds - 1 or i < len(turns1):
            plan.append((1, turns1[i] if i < len(turns1) else ()))
    for player, turn in plan:
        assert state.phase is Phase.ACTION, state
        assert state.current_player == player
        if not turn:
            state = idle(state)
            continue
        state = play(state, *turn)
        if state.phase is Phase.TECH:
            state = apply(state, DeclineTech())
        assert state.phase is Phase.DRAW, f"turn {turn} ended in {state.phase}"
        state = draw(state, dealer.next_for(player))
    if then:
        assert state.current_player == last
        state = play(state, *then)
    return state


def build(*placements: tuple[int, str, str]) -> list[Turn]:
    """One Construct per turn: ``build((0, "S", "S4"), ...)`` = Construct(S4, Cell(0, SOLAR))."""
    return [[Construct(card(code), cell(row, letter))] for row, letter, code in placements]


# -- checks ---------------------------------------------------------------------------------------


def stacks(state: GameState, player: int) -> Iterator[Stack]:
    for stack in state.board(player):
        if stack is not None:
            yield stack


def assert_conserved(state: GameState) -> None:
    """Card conservation (R3, R4, C3, C4): every plant and tech card is in exactly one place."""
    rules = state.rules
    places: Counter[Card] = Counter()
    for player in (0, 1):
        places.update(state.hand(player))
        for stack in stacks(state, player):
            places.update(stack.cards)
    places.update(state.deck)
    places.update(state.discards)
    assert places == full_deck(rules)
    techs: Counter[Tech] = Counter(state.tech_deck)
    techs.update(state.tech_hand(0))
    techs.update(state.tech_hand(1))
    if state.accumulator is not None:
        techs[Tech.ACCUMULATOR] += 1
    if state.smart is not None:
        techs[Tech.SMART] += 1
    for player in (0, 1):
        for stack in stacks(state, player):
            if stack.secret:
                techs[Tech.SECRET_BUILD] += 1
            if stack.downsized:
                techs[Tech.DOWN] += 1
    assert techs == Counter(rules.techs)


def public_view(state: GameState) -> tuple[object, ...]:
    """Everything the accessors show, except the generator state (for R8 comparisons)."""
    return (
        state.rules,
        state.phase,
        state.current_player,
        state.hand(0),
        state.hand(1),
        state.tech_hand(0),
        state.tech_hand(1),
        state.deck,
        state.discards,
        state.tech_deck,
        state.board(0),
        state.board(1),
        state.accumulator,
        state.smart,
        state.played_cell,
        state.turn_discard,
        state.pending_chance,
        state.stall_count,
        state.end_triggered_by,
        state.end_reason,
        state.is_over,
    )


_WEIGHTS: dict[type, float] = {
    Construct: 3.0,
    Improve: 3.0,
    Downsize: 3.0,
    DrawTech: 3.0,
    BuildPylon: 0.15,
}


def random_explicit_states(rules: Rules, seed: int, limit: int = 400) -> list[GameState]:
    """The states of one random explicit-mode game (chance outcomes picked at random too).

    The player policy favours plant cards on the board and tech draws (and rarely builds
    pylons), so that games last and reach TECH, OVERFLOW and the tech cards often.
    """
    rng = random.Random(seed)
    state = new_game(rules=rules)
    states = [state]
    while not state.is_over and len(states) < limit:
        moves = legal_moves(state)
        weights = [_WEIGHTS.get(type(move), 1.0) for move in moves]
        state = apply(state, rng.choices(moves, weights)[0])
        states.append(state)
    return states
