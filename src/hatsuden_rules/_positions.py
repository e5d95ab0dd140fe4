"""Untrusted input to `GameState`: decoded parts, checked for consistency, then built.

The text notation and the JSON format both decode a state into `StateParts` (plain values:
`Card`, `Cell`, `Stack`, `Tech`, moves) and call `build_state`, which checks everything the
engine relies on and raises `Problem` with the path of the offending part, e.g.
``("hands", 1, 3)``. Each format turns the path into its own error (a character position, a JSON
path). `state_parts` is the inverse, used to format a state.

What is checked is consistency, not reachability: card and tech conservation (R2, R3), canonical
order of every multiset, hand sizes, stack shapes (R4, R10-R14, R21), the phase against the
pending chance, the played cell, the turn's discard, supplies against tolerances (R9, R21), the
end of the game (R23-R26) and the known cards (R36). A state that passes can be given to
`legal_moves`, `apply` and `score` like any other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

import attrs

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import ROWS, Card, Cell, Energy, Tech
from hatsuden_rules.core.encoding import DOWNSIZED, FACE_DOWN, FLIPPED, SECRET
from hatsuden_rules.core.errors import HatsudenError
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    Discard,
    Downsize,
    DrawFromDiscard,
    Flip,
    FlipSet,
    Improve,
    Move,
    PlaceSmart,
)
from hatsuden_rules.core.rules import STANDARD, Overflow, Rules, TechTiming, Tiebreak
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase, Stack
from hatsuden_rules.observation._observe import Concealed, Observation, SeenStack, observe
from hatsuden_rules.observation._sampling import _complete

__all__ = [
    "MAX_CARDS",
    "Path",
    "Problem",
    "StateParts",
    "build_observation",
    "build_state",
    "check_rules",
    "state_parts",
]

#: Untrusted documents may describe at most this many plant cards (a resource limit: the tables
#: of a `Rules` grow with the number of cards).
MAX_CARDS: Final = 4096
#: The generator state is an unsigned 64-bit integer (R32).
U64: Final = 1 << 64

Path = tuple[str | int, ...]


class Problem(Exception):
    """An inconsistency found at `path`; each format turns it into its own public error."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


@attrs.frozen
class StateParts:
    """Every field of a `GameState`, decoded into plain values (god view)."""

    rules: Rules
    phase: Phase
    current_player: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deck: tuple[Card, ...]
    discards: tuple[Card, ...]
    boards: tuple[tuple[Stack | None, ...], tuple[Stack | None, ...]]
    tech_deck: tuple[Tech, ...]
    tech_hands: tuple[tuple[Tech, ...], tuple[Tech, ...]]
    accumulator: tuple[int, int] | None
    smart: Energy | None
    played_cell: Cell | None
    turn_discard: Card | None
    pending_chance: Chance | None
    stall_count: int
    end_triggered_by: int | None
    end_reason: EndReason | None
    rng_state: int | None
    known_cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    this_turn: tuple[Move, ...]
    last_turn: tuple[Move, ...]


def make_rules(
    energies: int,
    max_value: int,
    copies: int,
    hand_size: int,
    city_demand: int,
    techs: frozenset[Tech],
    tiebreak: Tiebreak,
    allow_retake_discard: bool,
    stall_limit: int | None,
    tech_timing: TechTiming = TechTiming.KEEP,
    overflow: Overflow = Overflow.ONE_AT_A_TIME,
) -> Rules:
    """`Rules` of these fields; `STANDARD` itself when they are its fields (its tables are built).

    Raises:
        InvalidRulesError: As `Rules` does (R31).
    """
    fields = (
        energies,
        max_value,
        copies,
        hand_size,
        city_demand,
        techs,
        tiebreak,
        allow_retake_discard,
        stall_limit,
        tech_timing,
        overflow,
    )
    if all(type(a) is type(b) and a == b for a, b in zip(fields, _STANDARD_FIELDS, strict=True)):
        return STANDARD
    return Rules(*fields)


_STANDARD_FIELDS: Final = (
    STANDARD.energies,
    STANDARD.max_value,
    STANDARD.copies,
    STANDARD.hand_size,
    STANDARD.city_demand,
    STANDARD.techs,
    STANDARD.tiebreak,
    STANDARD.allow_retake_discard,
    STANDARD.stall_limit,
    STANDARD.tech_timing,
    STANDARD.overflow,
)


def check_rules(rules: Rules, path: Path) -> Rules:
    """Refuse rule sets larger than untrusted input may describe (`MAX_CARDS`)."""
    cards = rules.energies * rules.max_value * rules.copies
    if cards > MAX_CARDS:
        raise Problem(
            path, f"{cards} plant cards is more than a document may describe ({MAX_CARDS})"
        )
    return rules


def state_parts(state: GameState) -> StateParts:
    """The parts of `state`, in the order of the `GameState` fields."""
    techs = enc.tables(state.rules).techs
    return StateParts(
        rules=state.rules,
        phase=state.phase,
        current_player=state.current_player,
        hands=(state.hand(0), state.hand(1)),
        deck=state.deck,
        discards=state.discards,
        boards=(state.board(0), state.board(1)),
        tech_deck=state.tech_deck,
        tech_hands=(
            tuple(t for t in techs if t in state.tech_hand(0)),
            tuple(t for t in techs if t in state.tech_hand(1)),
        ),
        accumulator=state.accumulator,
        smart=state.smart,
        played_cell=state.played_cell,
        turn_discard=state.turn_discard,
        pending_chance=state.pending_chance,
        stall_count=state.stall_count,
        end_triggered_by=state.end_triggered_by,
        end_reason=state.end_reason,
        rng_state=state.rng_state,
        known_cards=(state.known_cards(0), state.known_cards(1)),
        this_turn=state.this_turn,
        last_turn=state.last_turn,
    )


def build_state(parts: StateParts) -> GameState:
    """The `GameState` of `parts`, after checking that they are consistent.

    Raises:
        Problem: The first inconsistency found, with the path of the part at fault.
    """
    return _Builder(parts).build()


def _card_key(card: Card) -> tuple[int, int]:
    return (card.energy.column, card.value)


class _Builder:
    """One check per method; `build` runs them in order and assembles the state."""

    def __init__(self, parts: StateParts) -> None:
        self.p = parts
        self.rules = check_rules(parts.rules, ("rules",))
        self.t = enc.tables(self.rules)

    # -- atoms ----------------------------------------------------------------------------------

    def card(self, card: Card, path: Path) -> int:
        index = self.t.card_index.get(card)
        if index is None:
            raise Problem(path, f"{_name(card)} is not a card in play under these rules (R2)")
        return index

    def cell(self, cell: Cell, path: Path) -> int:
        index = self.t.cell_index.get(cell)
        if index is None:
            raise Problem(path, f"{cell.energy.name} is not an energy in play (R1)")
        return index

    def cards(self, cards: Sequence[Card], path: Path) -> tuple[int, ...]:
        """Card indices of a multiset, which must be listed in canonical order (R2)."""
        out = tuple(self.card(card, (*path, k)) for k, card in enumerate(cards))
        for k in range(1, len(out)):
            if out[k] < out[k - 1]:
                raise Problem(
                    (*path, k),
                    f"cards are listed in canonical order (R2): {_name(cards[k])} "
                    f"after {_name(cards[k - 1])}",
                )
        return out

    def techs(self, techs: Sequence[Tech], path: Path) -> tuple[Tech, ...]:
        for k, tech in enumerate(techs):
            if tech not in self.rules.techs:
                raise Problem((*path, k), f"{tech.name} is not a tech card in play (R3)")
            if k and tech.index <= techs[k - 1].index:
                raise Problem(
                    (*path, k), "tech cards are listed once each, in canonical order (R3)"
                )
        return tuple(techs)

    def move(self, move: Move, path: Path) -> Move:
        """A move of a turn log: its cards, cells, energy and tech must be in play."""
        if isinstance(move, Construct | Improve | Downsize | BuildPylon):
            self.card(move.card, path)
            self.cell(move.cell, path)
        elif isinstance(move, Discard | DrawFromDiscard | Deal):
            self.card(move.card, path)
        elif isinstance(move, Flip):
            self.cell(move.cell, path)
        elif isinstance(move, FlipSet):
            for cell in move.cells:
                self.cell(cell, path)
        elif isinstance(move, PlaceSmart):
            if move.energy not in self.t.energy_index:
                raise Problem(path, f"{move.energy.name} is not an energy in play (R1)")
        elif isinstance(move, DealTech) and move.tech not in self.rules.techs:
            raise Problem(path, f"{move.tech.name} is not a tech card in play (R3)")
        return move

    # -- stacks and boards ----------------------------------------------------------------------

    def stack(self, stack: Stack | None, cell: Cell, path: Path) -> tuple[int, ...]:
        """The raw stack ``(flags, card...)`` of a cell (R4, R10-R14, R21, C4)."""
        if stack is None:
            return ()
        if not stack.cards:
            raise Problem((*path, "cards"), "a stack holds at least one card (R4)")
        cards = tuple(self.card(card, (*path, "cards", k)) for k, card in enumerate(stack.cards))
        if stack.flipped and not stack.face_down:
            raise Problem((*path, "flipped"), "a flipped stack is face down (R21)")
        flags = (
            (FACE_DOWN if stack.face_down else 0)
            | (FLIPPED if stack.flipped else 0)
            | (SECRET if stack.secret else 0)
            | (DOWNSIZED if stack.downsized else 0)
        )
        if stack.face_down and not stack.flipped:  # R14: a pylon built from hand, any card
            if len(cards) != 1 or stack.secret or stack.downsized:
                raise Problem(path, "a pylon built from hand is one card, not secret or downsized")
            return (flags, *cards)
        for k, card in enumerate(stack.cards):  # R10-R13: a plant holds its column's energy only
            if card.energy is not cell.energy:
                raise Problem(
                    (*path, "cards", k), f"{_name(card)} cannot be in the {cell.energy.name} column"
                )
        value = self.t.card_value
        drops = 0
        for k in range(1, len(cards)):
            before, after = value[cards[k - 1]], value[cards[k]]
            if after == before:
                raise Problem((*path, "cards", k), "a card never goes on an equal value (R12, R13)")
            if after < before:
                drops += 1
        if drops != int(stack.downsized):
            raise Problem(
                (*path, "downsized"),
                "a downsized stack has exactly one lower card on a higher one, others none (R13)",
            )
        return (flags, *cards)

    def boards(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        cells = self.t.cells
        out: list[tuple[tuple[int, ...], ...]] = []
        for player, board in enumerate(self.p.boards):
            if len(board) != len(cells):
                raise Problem(("boards", player), f"a grid has {len(cells)} cells (R4)")
            out.append(
                tuple(
                    self.stack(stack, cells[c], ("boards", player, c))
                    for c, stack in enumerate(board)
                )
            )
        return (out[0], out[1])

    # -- conservation ---------------------------------------------------------------------------

    def conservation(
        self,
        hands: Sequence[tuple[int, ...]],
        deck: tuple[int, ...],
        discards: tuple[int, ...],
        boards: Sequence[tuple[tuple[int, ...], ...]],
    ) -> None:
        """R2: every plant card is in exactly one place."""
        places: list[tuple[Path, int]] = []
        for player in (0, 1):
            places += [(("hands", player, k), i) for k, i in enumerate(hands[player])]
        places += [(("deck", k), i) for k, i in enumerate(deck)]
        places += [(("discards", k), i) for k, i in enumerate(discards)]
        for player in (0, 1):
            for c, raw in enumerate(boards[player]):
                places += [(("boards", player, c, "cards", k), i) for k, i in enumerate(raw[1:])]
        seen: Counter[int] = Counter()
        copies = self.rules.copies
        for path, i in places:
            seen[i] += 1
            if seen[i] > copies:
                raise Problem(
                    path, f"a copy too many of {_name(self.t.cards[i])}: {copies} in the game (R2)"
                )
        for i, card in enumerate(self.t.cards):
            if seen[i] < copies:
                raise Problem(
                    ("deck",),
                    f"{copies - seen[i]} of {copies} {_name(card)} missing from deck, hands, "
                    "discards and grids (R2)",
                )

    def tech_conservation(
        self,
        tech_deck: tuple[Tech, ...],
        tech_hands: Sequence[tuple[Tech, ...]],
        boards: Sequence[tuple[tuple[int, ...], ...]],
    ) -> None:
        """R3, C3: every tech card in play is in exactly one place."""
        p = self.p
        places: list[tuple[Path, Tech]] = [(("tech_deck", k), t) for k, t in enumerate(tech_deck)]
        for player in (0, 1):
            places += [(("tech_hands", player, k), t) for k, t in enumerate(tech_hands[player])]
        if p.accumulator is not None:
            places.append((("accumulator",), Tech.ACCUMULATOR))
        if p.smart is not None:
            places.append((("smart",), Tech.SMART))
        for player in (0, 1):
            for c, raw in enumerate(boards[player]):
                if raw and raw[0] & SECRET:
                    places.append((("boards", player, c, "secret"), Tech.SECRET_BUILD))
                if raw and raw[0] & DOWNSIZED:
                    places.append((("boards", player, c, "downsized"), Tech.DOWN))
        seen: set[Tech] = set()
        for path, tech in places:
            if tech not in self.rules.techs:
                raise Problem(path, f"{tech.name} is not a tech card in play (R3)")
            if tech in seen:
                raise Problem(path, f"{tech.name} is in two places; there is one (R3)")
            seen.add(tech)
        for tech in self.t.techs:
            if tech not in seen:
                raise Problem(("tech_deck",), f"{tech.name} is nowhere (R3)")

    # -- the whole state ------------------------------------------------------------------------

    def build(self) -> GameState:
        p = self.p
        player = _player(p.current_player, ("current_player",))
        hands = (self.cards(p.hands[0], ("hands", 0)), self.cards(p.hands[1], ("hands", 1)))
        for k in (0, 1):
            if len(hands[k]) > self.rules.hand_size:
                raise Problem(("hands", k), f"more than hand_size={self.rules.hand_size} cards")
        deck = self.cards(p.deck, ("deck",))
        discards = self.cards(p.discards, ("discards",))
        boards = self.boards()
        self.conservation(hands, deck, discards, boards)
        tech_deck = self.techs(p.tech_deck, ("tech_deck",))
        tech_hands = (
            self.techs(p.tech_hands[0], ("tech_hands", 0)),
            self.techs(p.tech_hands[1], ("tech_hands", 1)),
        )
        if p.accumulator is not None:
            _player(p.accumulator[0], ("accumulator",))
            _player(p.accumulator[1], ("accumulator",))
        if p.smart is not None and p.smart not in self.t.energy_index:
            raise Problem(("smart",), f"{p.smart.name} is not an energy in play (R1, R20)")
        self.tech_conservation(tech_deck, tech_hands, boards)
        known = (self.known(0, hands[0]), self.known(1, hands[1]))
        played = None if p.played_cell is None else self.cell(p.played_cell, ("played_cell",))
        discarded = None if p.turn_discard is None else self.card(p.turn_discard, ("turn_discard",))
        this_turn = tuple(self.move(m, ("this_turn", k)) for k, m in enumerate(p.this_turn))
        last_turn = tuple(self.move(m, ("last_turn", k)) for k, m in enumerate(p.last_turn))
        if p.rng_state is not None and not 0 <= p.rng_state < U64:
            raise Problem(("rng_state",), "the generator state is in [0, 2**64) (R32)")
        if type(p.stall_count) is not int or p.stall_count < 0:
            raise Problem(("stall_count",), "the stall counter is an int >= 0 (R23)")
        trigger = p.end_triggered_by
        if trigger is not None:
            _player(trigger, ("end_triggered_by",))
        state = GameState(
            rules=self.rules,
            phase=p.phase,
            current_player=player,
            hands=hands,
            deck=deck,
            discards=discards,
            boards=boards,
            tech_deck=tech_deck,
            tech_hands=(frozenset(tech_hands[0]), frozenset(tech_hands[1])),
            accumulator=p.accumulator,
            smart=p.smart,
            played=played,
            discarded=discarded,
            chance=p.pending_chance,
            stall=p.stall_count,
            end_trigger=trigger,
            end_reason=p.end_reason,
            rng=p.rng_state,
            known=known,
            this_turn=this_turn,
            last_turn=last_turn,
        )
        self.phase(state)
        self.supplies(state)
        self.end(state)
        return state

    def known(self, player: int, hand: tuple[int, ...]) -> tuple[int, ...]:
        """R36: the known cards are a sub-multiset of the hand, in canonical order."""
        path: Path = ("known_cards", player)
        known = self.cards(self.p.known_cards[player], path)
        left = Counter(hand)
        for k, i in enumerate(known):
            if left[i] == 0:
                raise Problem((*path, k), f"{_name(self.t.cards[i])} is not in the hand (R36)")
            left[i] -= 1
        return known

    def phase(self, s: GameState) -> None:
        """The phase against the pending chance and the per-turn fields (R6-R9, R17, R21, R22)."""
        phase, chance, player = s.phase, s.pending_chance, s.current_player
        if (phase is Phase.CHANCE) != (chance is not None):
            raise Problem(("pending_chance",), "a chance event is pending iff the phase is CHANCE")
        if chance is not None and s.rng_state is not None:
            raise Problem(("pending_chance",), "a seeded state is never in CHANCE (R8)")
        played, discarded = enc.played(s), enc.discarded(s)
        if played is not None:
            if phase not in (Phase.TECH, Phase.OVERFLOW, Phase.DRAW, Phase.CHANCE):
                raise Problem(("played_cell",), f"no card is played this turn in {phase.name}")
            if chance is Chance.SETUP:
                raise Problem(("played_cell",), "no card is played during the deal (R7)")
            raw = enc.boards(s)[player][played]
            if not raw:
                raise Problem(("played_cell",), "the played cell is empty")
        if discarded is not None:
            if phase is not Phase.DRAW and chance is not Chance.DRAW:
                raise Problem(("turn_discard",), f"no card is discarded this turn in {phase.name}")
            if played is not None:
                raise Problem(
                    ("turn_discard",), "a turn has one action: a card played or discarded"
                )
            if discarded not in enc.discards(s):
                raise Problem(("turn_discard",), "the card discarded this turn is in the discards")
        after_action = phase in (Phase.TECH, Phase.OVERFLOW, Phase.DRAW) or chance in (
            Chance.DRAW,
            Chance.TECH,
        )
        if after_action and len(enc.hands(s)[player]) >= self.rules.hand_size:
            raise Problem(
                ("hands", player),
                "after the action the mover holds fewer than hand_size cards (R9, R22)",
            )
        if phase in (Phase.TECH, Phase.OVERFLOW) or chance is Chance.TECH:
            if played is None:
                raise Problem(("played_cell",), f"{phase.name} follows a card played this turn")
            raw = enc.boards(s)[player][played]
            if raw[0] & FACE_DOWN:
                raise Problem(("played_cell",), "the played cell holds a pylon (R17, R21)")
            if phase is Phase.TECH and not s.tech_deck:
                raise Problem(("tech_deck",), "TECH needs a tech card to draw (R17)")
        if chance is Chance.TECH:
            if not s.tech_deck:
                raise Problem(("tech_deck",), "a tech card is dealt from an empty tech deck (R6)")
            assert played is not None
            if self.t.card_value[enc.boards(s)[player][played][-1]] != self.rules.max_value:
                raise Problem(
                    ("played_cell",), f"a tech card is drawn for a {self.rules.max_value}"
                )
        if chance in (Chance.DRAW, Chance.SETUP) and not enc.deck(s):
            raise Problem(("deck",), "a card is dealt from an empty deck (R6)")
        if chance is Chance.SETUP:
            self.setup(s)
        if phase is Phase.GAME_OVER and s.this_turn:
            raise Problem(("this_turn",), "no turn is in progress once the game is over")

    def setup(self, s: GameState) -> None:
        """R7: during the deal nothing but the hands and the deck has changed."""
        size = self.rules.hand_size
        first, second = len(enc.hands(s)[0]), len(enc.hands(s)[1])
        receiver = 0 if first < size else 1
        if second and first < size:
            raise Problem(("hands", 1), "player 1 is dealt to after player 0's hand is full (R7)")
        if second >= size:
            raise Problem(("pending_chance",), "both hands are complete: the deal is over (R7)")
        if s.current_player != receiver:
            raise Problem(("current_player",), f"player {receiver} receives the next Deal (R7)")
        if enc.discards(s) or any(any(b) for b in enc.boards(s)):
            raise Problem(("pending_chance",), "nothing is played during the deal (R7)")
        if enc.tech_hands(s)[0] or enc.tech_hands(s)[1] or s.accumulator or s.smart:
            raise Problem(("pending_chance",), "no tech card is drawn during the deal (R7)")
        if s.stall_count or s.end_triggered_by is not None or enc.known(s) != ((), ()):
            raise Problem(("pending_chance",), "the deal comes before any turn (R7)")
        if s.this_turn or s.last_turn:
            raise Problem(("this_turn",), "the deal is not part of any turn (R7)")

    def supplies(self, s: GameState) -> None:
        """R9, R19, R21: rows within tolerance, except the played row in TECH and OVERFLOW."""
        width = len(self.t.energies)
        played = enc.played(s)
        player = s.current_player
        exceeding = s.phase in (Phase.TECH, Phase.OVERFLOW) or s.pending_chance is Chance.TECH
        for p in (0, 1):
            for row in range(ROWS):
                over = s.row_supply(p, row) > s.tolerance(p, row)
                mine = exceeding and p == player and played is not None and played // width == row
                if over and not mine:
                    raise Problem(
                        ("boards", p), f"row {row} supplies more than its tolerance (R21)"
                    )
                if s.phase is Phase.OVERFLOW and mine and not over:
                    raise Problem(("phase",), "OVERFLOW needs the played row over tolerance (R21)")

    def end(self, s: GameState) -> None:
        """R23-R26: the end reason, the trigger and the stall counter."""
        over = s.phase is Phase.GAME_OVER
        if over != (s.end_reason is not None):
            raise Problem(("end_reason",), "the game has an end reason iff it is over (R26)")
        trigger = s.end_triggered_by
        if trigger is not None:
            if not all(enc.boards(s)[trigger]):
                raise Problem(("end_triggered_by",), "only a full grid triggers the end (R24)")
            if not over and s.current_player == trigger:
                raise Problem(("end_triggered_by",), "the opponent plays the last turn (R24)")
        if s.end_reason is EndReason.FINAL_TURN and (
            trigger is None or s.current_player != trigger
        ):
            raise Problem(("end_reason",), "a final turn follows the other player's trigger (R24)")
        limit = self.rules.stall_limit
        stall = s.stall_count
        if limit is None:
            if s.end_reason is EndReason.STALL:
                raise Problem(("end_reason",), "no stall end without a stall limit (R25)")
        elif stall > limit or (not over and stall == limit):
            raise Problem(("stall_count",), f"the game ends when the counter reaches {limit} (R25)")
        elif s.end_reason is EndReason.STALL and stall != limit:
            raise Problem(("stall_count",), f"a stall end comes at {limit} (R25)")


def _player(value: int, path: Path) -> int:
    if type(value) is not int or not 0 <= value < ROWS:
        raise Problem(path, f"must be 0 or 1, got {value!r}")
    return value


def _name(card: Card) -> str:
    return f"{card.energy.letter}{card.value}"


# -- observations ---------------------------------------------------------------------------------


def build_observation(seen: Observation) -> Observation:
    """Check a decoded `Observation`: well formed, and what its player sees of some real state.

    The structure is checked first (cards, cells and tech cards in play, canonical order, sizes,
    hidden cards only where the observer cannot see, R30, R36); then a state consistent with it
    is completed (`observation.sample_state`'s completion), checked with `build_state`, and
    observed again: the result must be `seen` itself.

    Raises:
        Problem: With the path of the observation field at fault (``()`` for the whole).
    """
    _ObservationChecker(seen).check()
    try:
        sample, _ = _complete(seen, 0)
    except HatsudenError as error:
        raise Problem((), f"no game state gives this observation: {error}") from None
    try:
        build_state(state_parts(sample))
    except Problem as problem:
        name = problem.path[0] if problem.path else None
        path: Path = problem.path if name in _SHARED_FIELDS else ()
        raise Problem(path, f"no game state gives this observation: {problem.message}") from None
    again = observe(sample, seen.player)
    if again != seen:
        for field in attrs.fields(Observation):
            if getattr(again, field.name) != getattr(seen, field.name):
                raise Problem(
                    (field.name,), "no game state gives this observation (R36): this field differs"
                )
    return seen


_SHARED_FIELDS: Final = frozenset(
    {"phase", "current_player", "discards", "boards", "accumulator", "smart", "played_cell"}
    | {"turn_discard", "pending_chance", "stall_count", "end_triggered_by", "end_reason"}
    | {"this_turn", "last_turn"}
)


class _ObservationChecker(_Builder):
    """The structural checks of an observation, reusing the state checks of single parts."""

    def __init__(self, seen: Observation) -> None:
        self.seen = seen
        self.rules = check_rules(seen.rules, ("rules",))
        self.t = enc.tables(self.rules)

    def check(self) -> None:
        o = self.seen
        _player(o.player, ("player",))
        _player(o.current_player, ("current_player",))
        hand = self.cards(o.hand, ("hand",))
        size = self.rules.hand_size
        if len(hand) > size:
            raise Problem(("hand",), f"more than hand_size={size} cards")
        self.techs(tuple(t for t in self.t.techs if t in o.tech_hand), ("tech_hand",))
        if any(t not in self.rules.techs for t in o.tech_hand):
            raise Problem(("tech_hand",), "a tech card not in play (R3)")
        left = Counter(hand)
        for k, i in enumerate(self.cards(o.known_to_opponent, ("known_to_opponent",))):
            if left[i] == 0:
                raise Problem(("known_to_opponent", k), "not in the hand (R36)")
            left[i] -= 1
        self.cards(o.opponent_known, ("opponent_known",))
        for name, value, high in (
            ("opponent_hand_size", o.opponent_hand_size, size),
            ("opponent_tech_hand_size", o.opponent_tech_hand_size, len(self.t.techs)),
            ("deck_size", o.deck_size, len(self.t.full_deck)),
            ("tech_deck_size", o.tech_deck_size, len(self.t.techs)),
            ("stall_count", o.stall_count, 10**9),
        ):
            if type(value) is not int or not 0 <= value <= high:
                raise Problem((name,), f"must be an int in [0, {high}]")
        if len(o.opponent_known) > o.opponent_hand_size:
            raise Problem(("opponent_known",), "more known cards than the opponent holds")
        self.cards(o.discards, ("discards",))
        for seat, board in enumerate(o.boards):
            if len(board) != len(self.t.cells):
                raise Problem(("boards", seat), f"a grid has {len(self.t.cells)} cells (R4)")
            for c, stack in enumerate(board):
                if stack is not None:
                    self.seen_stack(stack, seat, c)
        if o.accumulator is not None:
            _player(o.accumulator[0], ("accumulator",))
            _player(o.accumulator[1], ("accumulator",))
        if o.smart is not None and o.smart not in self.t.energy_index:
            raise Problem(("smart",), f"{o.smart.name} is not an energy in play (R1)")
        if o.played_cell is not None:
            self.cell(o.played_cell, ("played_cell",))
        if o.turn_discard is not None:
            self.card(o.turn_discard, ("turn_discard",))
        if o.end_triggered_by is not None:
            _player(o.end_triggered_by, ("end_triggered_by",))
        mover = o.current_player
        for name, log, seat in (
            ("this_turn", o.this_turn, mover),
            ("last_turn", o.last_turn, 1 - mover),
        ):
            for k, move in enumerate(log):
                if isinstance(move, Concealed):
                    self.concealed(move, seat, (name, k))
                else:
                    self.move(move, (name, k))

    def seen_stack(self, stack: SeenStack, seat: int, c: int) -> None:
        path: Path = ("boards", seat, c)
        if not stack.cards:
            raise Problem((*path, "cards"), "a stack holds at least one card (R4)")
        for k, card in enumerate(stack.cards):
            if card is None:
                hidden_place = k == 0 and (stack.secret or (stack.face_down and not stack.flipped))
                if seat == self.seen.player or not hidden_place:
                    raise Problem(
                        (*path, "cards", k),
                        "only an opponent's built pylon card or secret card is hidden (R30)",
                    )
            else:
                self.card(card, (*path, "cards", k))
        if stack.flipped and not stack.face_down:
            raise Problem((*path, "flipped"), "a flipped stack is face down (R21)")

    def concealed(self, move: Concealed, seat: int, path: Path) -> None:
        if seat == self.seen.player:
            raise Problem(path, "a player sees their own moves (R36)")
        if move.move in ("Deal", "DealTech"):
            if move.cell is not None:
                raise Problem(path, "a concealed deal has no cell")
            return
        if move.cell is None:
            raise Problem(path, "a concealed pylon or secret Construct names its cell")
        c = self.cell(move.cell, path)
        stack = self.seen.boards[seat][c]
        if stack is None or stack.cards[0] is not None:
            raise Problem(path, "the cell of a concealed move holds a hidden card (R30)")
