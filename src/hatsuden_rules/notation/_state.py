"""Reading the text notation of complete states and observations (see `_notation_scan`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from hatsuden_rules._positions import Path, Problem, StateParts, build_observation, build_state
from hatsuden_rules.core.cards import Card, Cell, Energy, Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase, Stack
from hatsuden_rules.notation._scan import NotationError, _Scanner
from hatsuden_rules.observation._observe import Concealed, Observation, SeenMove, SeenStack

__all__ = ["parse_observation", "parse_state"]

_T = TypeVar("_T")
_C = TypeVar("_C", Card, Card | None)
_U64_DIGITS: Final = 20  # the generator state (R32)


def parse_state(text: str) -> GameState:
    """The state written `text` by `format_state`, after checking it is consistent.

    Raises:
        NotationError: Malformed text, or an inconsistent state (a card too many or missing, an
            impossible phase, ...); `field` names the state field at fault.

    Examples:
        >>> from hatsuden_rules import format_state, new_game
        >>> line = format_state(new_game())
        >>> parse_state(line).phase
        Phase.CHANCE
        >>> parse_state(line.replace("deck=S1,S1,", "deck=S1,"))
        Traceback (most recent call last):
        ...
        hatsuden_rules.notation.NotationError: deck: 1 of 2 S1 missing from deck, hands, \
discards and grids (R2) at position ...
    """
    if type(text) is not str:
        raise InvalidInputError("state", f"expected a str, got {type(text).__name__}")
    scanner = _StateScanner(text, "state", NotationError, None)
    parts = scanner.state()
    scanner.end()
    try:
        return build_state(parts)
    except Problem as problem:
        scanner.problem(problem)


def parse_observation(text: str) -> Observation:
    """The observation written `text` by `format_observation`, after checking it.

    The observation must be what its player sees of some consistent state (R36).

    Raises:
        NotationError: Malformed text, or no state gives this observation.
    """
    if type(text) is not str:
        raise InvalidInputError("observation", f"expected a str, got {type(text).__name__}")
    scanner = _StateScanner(text, "observation", NotationError, None)
    seen = scanner.observation()
    scanner.end()
    try:
        return build_observation(seen)
    except Problem as problem:
        scanner.problem(problem)


class _StateScanner(_Scanner):
    """The scanner, extended to the fields of states and observations."""

    def key(self, name: str, first: bool = False) -> None:
        if not first:
            self.expect(" ", "a space")
        self.field = name
        self.mark((name,))
        self.expect(f"{name}=", f"{name}=")

    def card_list(self, path: Path) -> tuple[Card, ...]:
        if self.accept("-"):
            return ()
        cards: list[Card] = []
        while True:
            self.mark((*path, len(cards)))
            cards.append(self.card())
            if not self.accept(","):
                return tuple(cards)

    def tech_list(self, path: Path) -> tuple[Tech, ...]:
        if self.accept("-"):
            return ()
        techs: list[Tech] = []
        while True:
            self.mark((*path, len(techs)))
            techs.append(self.tech())
            if not self.accept(","):
                return tuple(techs)

    def stack(self, path: Path) -> Stack | None:
        parts = self.stack_parts(path, self.card)
        return None if parts is None else Stack(*parts)

    def stack_parts(
        self, path: Path, card: Callable[[], _C]
    ) -> tuple[tuple[_C, ...], bool, bool, bool, bool] | None:
        """A cell: ``.`` (None), or its flags then its cards read by `card`, bottom first."""
        self.mark(path)
        if self.accept("."):
            return None
        face_down = self.accept("#")
        flipped = face_down and self.accept("~")
        secret = self.accept("*")
        downsized = self.accept("v")
        cards: list[_C] = []
        while True:
            self.mark((*path, "cards", len(cards)))
            cards.append(card())
            if not self.accept("+"):
                break
        return tuple(cards), face_down, flipped, secret, downsized

    def board(self, path: Path, width: int) -> tuple[Stack | None, ...]:
        return self.grid(path, width, self.stack)

    def grid(self, path: Path, width: int, cell: Callable[[Path], _T]) -> tuple[_T, ...]:
        """A grid: two rows of `width` cells, each read by `cell` at `path` + its index."""
        cells: list[_T] = []
        for row in (0, 1):
            if row:
                self.expect(";", "';' between the two rows")
            for column in range(width):
                if column:
                    self.expect(",", f"',' ({width} cells a row)")
                cells.append(cell((*path, len(cells))))
        return tuple(cells)

    def optional(self, parse: Callable[[], _T]) -> _T | None:
        return None if self.accept("-") else parse()

    def move_list(self, path: Path) -> tuple[Move, ...]:
        return self.bracketed(path, self.move)

    def bracketed(self, path: Path, item: Callable[[], _T]) -> tuple[_T, ...]:
        """``[a, b, ...]``: the items read by `item`, each error marked at `path` + its index."""
        self.expect("[")
        items: list[_T] = []
        if self.accept("]"):
            return ()
        while True:
            self.mark((*path, len(items)))
            items.append(item())
            if self.accept("]"):
                return tuple(items)
            self.expect(", ", "', ' or ']'")

    def state(self) -> StateParts:
        self.key("rules", first=True)
        rules = self.rule_set()
        self.key("phase")
        phase = self.word({p.value: p for p in Phase}, "a phase")
        assert isinstance(phase, Phase)
        self.key("current_player")
        player = self.integer(1)
        self.key("hands")
        hands = self.card_pair("hands")
        self.key("deck")
        deck = self.card_list(("deck",))
        self.key("discards")
        discards = self.card_list(("discards",))
        self.key("boards")
        width = rules.energies
        board0 = self.board(("boards", 0), width)
        self.pair_sep()
        board1 = self.board(("boards", 1), width)
        self.key("tech_deck")
        tech_deck = self.tech_list(("tech_deck",))
        self.key("tech_hands")
        tech0 = self.tech_list(("tech_hands", 0))
        self.pair_sep()
        tech1 = self.tech_list(("tech_hands", 1))
        accumulator, smart, played, discarded, chance, stall, trigger, reason = self.table_fields()
        self.key("rng_state")
        rng = self.optional(lambda: self.integer(_U64_DIGITS))
        self.key("known_cards")
        known = self.card_pair("known_cards")
        self.key("this_turn")
        this_turn = self.move_list(("this_turn",))
        self.key("last_turn")
        last_turn = self.move_list(("last_turn",))
        return StateParts(
            rules=rules,
            phase=phase,
            current_player=player,
            hands=hands,
            deck=deck,
            discards=discards,
            boards=(board0, board1),
            tech_deck=tech_deck,
            tech_hands=(tech0, tech1),
            accumulator=accumulator,
            smart=smart,
            played_cell=played,
            turn_discard=discarded,
            pending_chance=chance,
            stall_count=stall,
            end_triggered_by=trigger,
            end_reason=reason,
            rng_state=rng,
            known_cards=known,
            this_turn=this_turn,
            last_turn=last_turn,
        )

    def observation(self) -> Observation:
        self.key("rules", first=True)
        rules = self.rule_set()
        self.key("player")
        player = self.integer(1)
        self.key("phase")
        phase = self.word({p.value: p for p in Phase}, "a phase")
        assert isinstance(phase, Phase)
        self.key("current_player")
        current = self.integer(1)
        self.key("hand")
        hand = self.card_list(("hand",))
        self.key("tech_hand")
        start = self.pos
        tech_hand = self.tech_list(("tech_hand",))
        if list(tech_hand) != sorted(set(tech_hand), key=lambda t: t.index):
            self.fail("tech cards are listed once each, in canonical order (R3)", start)
        self.key("known_to_opponent")
        known_to_opponent = self.card_list(("known_to_opponent",))
        self.key("opponent_known")
        opponent_known = self.card_list(("opponent_known",))
        sizes = []
        for name in ("opponent_hand_size", "opponent_tech_hand_size", "deck_size"):
            self.key(name)
            sizes.append(self.integer())
        self.key("tech_deck_size")
        tech_deck_size = self.integer()
        self.key("discards")
        discards = self.card_list(("discards",))
        self.key("boards")
        board0 = self.seen_board(("boards", 0), rules.energies)
        self.pair_sep()
        board1 = self.seen_board(("boards", 1), rules.energies)
        accumulator, smart, played, discarded, chance, stall, trigger, reason = self.table_fields()
        self.key("this_turn")
        this_turn = self.seen_move_list(("this_turn",))
        self.key("last_turn")
        last_turn = self.seen_move_list(("last_turn",))
        return Observation(
            rules,
            player,
            phase,
            current,
            hand,
            frozenset(tech_hand),
            known_to_opponent,
            opponent_known,
            sizes[0],
            sizes[1],
            sizes[2],
            tech_deck_size,
            discards,
            (board0, board1),
            accumulator,
            smart,
            played,
            discarded,
            chance,
            stall,
            trigger,
            reason,
            this_turn,
            last_turn,
        )

    def table_fields(
        self,
    ) -> tuple[
        tuple[int, int] | None,
        Energy | None,
        Cell | None,
        Card | None,
        Chance | None,
        int,
        int | None,
        EndReason | None,
    ]:
        """The fields a state and an observation share, from accumulator to end_reason."""
        self.key("accumulator")
        accumulator = self.optional(self.accumulator)
        self.key("smart")
        smart = self.optional(self.energy)
        self.key("played_cell")
        played = self.optional(self.cell)
        self.key("turn_discard")
        discarded = self.optional(self.card)
        self.key("pending_chance")
        chance = self.optional(lambda: self.word({c.value: c for c in Chance}, "a chance event"))
        assert chance is None or isinstance(chance, Chance)
        self.key("stall_count")
        stall = self.integer()
        self.key("end_triggered_by")
        trigger = self.optional(lambda: self.integer(1))
        self.key("end_reason")
        reason = self.optional(lambda: self.word({r.value: r for r in EndReason}, "an end reason"))
        assert reason is None or isinstance(reason, EndReason)
        return accumulator, smart, played, discarded, chance, stall, trigger, reason

    def seen_board(self, path: Path, width: int) -> tuple[SeenStack | None, ...]:
        return self.grid(path, width, self.seen_stack)

    def seen_stack(self, path: Path) -> SeenStack | None:
        parts = self.stack_parts(path, self.seen_card)
        return None if parts is None else SeenStack(*parts)

    def seen_card(self) -> Card | None:
        """A card of an observed stack: ``?`` for one the player has not seen."""
        return None if self.accept("?") else self.card()

    def seen_move(self) -> SeenMove:
        if self.accept("=???"):
            return Concealed("DealTech")
        if self.accept("=?"):
            return Concealed("Deal")
        for verb, kind in (("P ? ", "BuildPylon"), ("C* ? ", "Construct")):
            if self.accept(verb):
                return Concealed(kind, self.cell())
        return self.move()

    def seen_move_list(self, path: Path) -> tuple[SeenMove, ...]:
        return self.bracketed(path, self.seen_move)

    def pair_sep(self) -> None:
        self.expect("/", "'/' between the two players")

    def card_pair(self, name: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        first = self.card_list((name, 0))
        self.pair_sep()
        return (first, self.card_list((name, 1)))

    def accumulator(self) -> tuple[int, int]:
        player = self.integer(1)
        self.expect(":")
        row = self.integer(1)
        return (player, row)
