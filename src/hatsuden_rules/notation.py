"""Text notation: one short canonical line per move, rule set and state (see NOTATION.md).

Cards are an energy letter and a value (``S3``), cells a row and an energy letter (``0S``), tech
cards a three-letter code (``ACC``, ``SEC``, ``SMT``, ``DWN``). A move is a verb and its operands:

==========================  ===============  ==========================  ==========
move                        notation         move                        notation
==========================  ===============  ==========================  ==========
Construct(S3, 0S)           ``C S3 0S``      Flip(1W)                    ``F 1W``
Construct(..., secret)      ``C* S3 0S``     DrawFromDeck()              ``DD``
Improve(S3, 0S)             ``I S3 0S``      DrawFromDiscard(S3)         ``DX S3``
Downsize(S3, 0S)            ``D S3 0S``      EndTurn()                   ``E``
BuildPylon(S3, 1W)          ``P S3 1W``      PlaceAccumulator(0)         ``A 0``
Discard(S3)                 ``X S3``         PlaceSmart(WIND)            ``M W``
Pass()                      ``PASS``         Deal(S3)                    ``=S3``
DrawTech() / DeclineTech()  ``DT`` / ``NT``  DealTech(ACCUMULATOR)       ``=ACC``
==========================  ===============  ==========================  ==========

Parsing is strict: the canonical form is the only accepted spelling, so
``format_move(parse_move(text)) == text`` for every accepted text. Malformed text raises
`NotationError` (`MoveNotationError`, an `InvalidMoveError`, for moves) naming the character
position (0-based) of the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Final, NoReturn, TypeVar

from ._build import (
    MAX_CARDS,
    Path,
    Problem,
    StateParts,
    build_observation,
    build_state,
    make_rules,
    state_parts,
)
from ._cards import Card, Cell, Energy, Tech
from ._errors import InvalidInputError, InvalidMoveError, InvalidRulesError
from ._moves import (
    BuildPylon,
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
    Flip,
    Improve,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
)
from ._rules import STANDARD, Rules, Tiebreak
from ._state import Chance, EndReason, GameState, Phase, Stack
from .observation import Concealed, Observation, SeenMove, SeenStack

__all__ = [
    "TECH_CODES",
    "MoveNotationError",
    "NotationError",
    "format_card",
    "format_cell",
    "format_move",
    "format_observation",
    "format_rules",
    "format_seen_move",
    "format_state",
    "parse_card",
    "parse_cell",
    "parse_move",
    "parse_observation",
    "parse_rules",
    "parse_state",
]

#: The three-letter code of each tech card, in canonical order (R3).
TECH_CODES: Final = MappingProxyType(
    {Tech.ACCUMULATOR: "ACC", Tech.SECRET_BUILD: "SEC", Tech.SMART: "SMT", Tech.DOWN: "DWN"}
)
"""The three-letter code of each tech card, in canonical order (R3)."""
_TECH_BY_CODE: Final = MappingProxyType({code: tech for tech, code in TECH_CODES.items()})
_ENERGY_BY_LETTER: Final = MappingProxyType({energy.letter: energy for energy in Energy})
_T = TypeVar("_T")
_MAX_DIGITS: Final = 9  # card values and rule parameters; longer numbers are refused
_U64_DIGITS: Final = 20  # the generator state (R32)


class NotationError(InvalidInputError):
    """Malformed notation: the message and the attributes say where.

    Attributes:
        field: What was being read (``"move"``, ``"rules"``, a state field such as ``"hands"``).
        text: The whole text that was parsed.
        position: The 0-based character position of the problem in `text`.
    """

    def __init__(
        self, field: str, message: str, text: str, position: int, *, quote: bool = True
    ) -> None:
        where = f" of {text!r}" if quote else ""
        super().__init__(field, f"{message} at position {position}{where}")
        self.text = text
        self.position = position


class MoveNotationError(InvalidMoveError, NotationError):
    """Malformed move notation (an `InvalidMoveError`), with the position of the problem."""


# -- formatting -----------------------------------------------------------------------------------


def format_card(card: Card) -> str:
    """The notation of a card: energy letter and value.

    Example:
        >>> format_card(Card(Energy.WIND, 3))
        'W3'
    """
    return f"{card.energy.letter}{card.value}"


def format_cell(cell: Cell) -> str:
    """The notation of a cell: row and energy letter.

    Example:
        >>> format_cell(Cell(1, Energy.HYDRO))
        '1H'
    """
    return f"{cell.row}{cell.energy.letter}"


def format_move(move: Move) -> str:
    """The canonical notation of a move.

    Raises:
        InvalidMoveError: `move` is not a move.

    Example:
        >>> format_move(Construct(Card(Energy.SOLAR, 3), Cell(0, Energy.SOLAR), secret=True))
        'C* S3 0S'
        >>> format_move(DealTech(Tech.ACCUMULATOR)), format_move(DrawFromDeck())
        ('=ACC', 'DD')
    """
    if isinstance(move, Construct):
        verb = "C*" if move.secret else "C"
        return f"{verb} {format_card(move.card)} {format_cell(move.cell)}"
    if isinstance(move, Improve | Downsize | BuildPylon):
        return f"{_CELL_VERBS[type(move)]} {format_card(move.card)} {format_cell(move.cell)}"
    if isinstance(move, Discard):
        return f"X {format_card(move.card)}"
    if isinstance(move, DrawFromDiscard):
        return f"DX {format_card(move.card)}"
    if isinstance(move, Deal):
        return f"={format_card(move.card)}"
    if isinstance(move, DealTech):
        return f"={TECH_CODES[move.tech]}"
    if isinstance(move, Flip):
        return f"F {format_cell(move.cell)}"
    if isinstance(move, PlaceAccumulator):
        return f"A {move.row}"
    if isinstance(move, PlaceSmart):
        return f"M {move.energy.letter}"
    if isinstance(move, Pass | DrawTech | DeclineTech | DrawFromDeck | EndTurn):
        return _BARE_VERBS[type(move)]
    raise InvalidMoveError("move", f"expected a move, got {type(move).__name__} {move!r}")


_CELL_VERBS: Final[dict[type, str]] = {Improve: "I", Downsize: "D", BuildPylon: "P"}
_BARE_VERBS: Final[dict[type, str]] = {
    Pass: "PASS",
    DrawTech: "DT",
    DeclineTech: "NT",
    DrawFromDeck: "DD",
    EndTurn: "E",
}
_BARE_MOVES: Final[dict[str, Move]] = {
    "PASS": Pass(),
    "DT": DrawTech(),
    "NT": DeclineTech(),
    "DD": DrawFromDeck(),
    "E": EndTurn(),
}


def format_rules(rules: Rules) -> str:
    """The notation of a rule set: its nine fields in order, separated by ``/``.

    ``energies/max_value/copies/hand_size/city_demand/techs/tiebreak/retake/stall_limit``, with
    the tech codes joined by ``+`` (``-`` for none), ``retake`` or ``noretake``, and ``off`` for
    no stall limit.

    Example:
        >>> format_rules(STANDARD)
        '5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20'
    """
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    techs = "+".join(TECH_CODES[t] for t in rules._tables.techs) or "-"
    retake = "retake" if rules.allow_retake_discard else "noretake"
    stall = "off" if rules.stall_limit is None else str(rules.stall_limit)
    return (
        f"{rules.energies}/{rules.max_value}/{rules.copies}/{rules.hand_size}/"
        f"{rules.city_demand}/{techs}/{rules.tiebreak.value}/{retake}/{stall}"
    )


def format_state(state: GameState) -> str:
    """The one-line canonical notation of a complete state (god view).

    Fields ``key=value`` in the order of the `GameState` fields, separated by single spaces; see
    NOTATION.md for the grammar.

    Example:
        >>> from hatsuden_rules import new_game
        >>> line = format_state(new_game(seed=1))
        >>> line.split()[:4]
        ['rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20', 'phase=action', \
'current_player=0', 'hands=G4,W2,W4,H1,B4/S2,G1,G1,H2,H4']
        >>> parse_state(line) == new_game(seed=1)
        True
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    p = state_parts(state)
    fields = [
        ("rules", format_rules(p.rules)),
        ("phase", p.phase.value),
        ("current_player", str(p.current_player)),
        ("hands", _pair(p.hands, _cards)),
        ("deck", _cards(p.deck)),
        ("discards", _cards(p.discards)),
        ("boards", _pair(p.boards, lambda board: _board(board, p.rules.energies))),
        ("tech_deck", _techs(p.tech_deck)),
        ("tech_hands", _pair(p.tech_hands, _techs)),
        ("accumulator", _opt(p.accumulator, lambda a: f"{a[0]}:{a[1]}")),
        ("smart", _opt(p.smart, lambda e: e.letter)),
        ("played_cell", _opt(p.played_cell, format_cell)),
        ("turn_discard", _opt(p.turn_discard, format_card)),
        ("pending_chance", _opt(p.pending_chance, lambda c: c.value)),
        ("stall_count", str(p.stall_count)),
        ("end_triggered_by", _opt(p.end_triggered_by, str)),
        ("end_reason", _opt(p.end_reason, lambda r: r.value)),
        ("rng_state", _opt(p.rng_state, str)),
        ("known_cards", _pair(p.known_cards, _cards)),
        ("this_turn", _moves(p.this_turn)),
        ("last_turn", _moves(p.last_turn)),
    ]
    return " ".join(f"{key}={value}" for key, value in fields)


def format_observation(observation: Observation) -> str:
    """The one-line canonical notation of an observation (what one player sees, R36).

    Like `format_state`, with the fields of `Observation` in order. A card the observer has not
    seen is ``?`` (an opponent's built pylon ``#?``, secret card ``*?``); a move whose card was
    hidden keeps its shape with ``?`` for the card: ``P ? 0W``, ``C* ? 0S``, ``=?`` (a card
    dealt), ``=???`` (a tech card dealt).

    Example:
        >>> from hatsuden_rules import new_game, observe
        >>> line = format_observation(observe(new_game(seed=1), 1))
        >>> line.split()[1:6]
        ['player=1', 'phase=action', 'current_player=0', 'hand=S2,G1,G1,H2,H4', 'tech_hand=-']
        >>> parse_observation(line) == observe(new_game(seed=1), 1)
        True
    """
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    o = observation
    techs = o.rules._tables.techs
    fields = [
        ("rules", format_rules(o.rules)),
        ("player", str(o.player)),
        ("phase", o.phase.value),
        ("current_player", str(o.current_player)),
        ("hand", _cards(o.hand)),
        ("tech_hand", _techs(tuple(t for t in techs if t in o.tech_hand))),
        ("known_to_opponent", _cards(o.known_to_opponent)),
        ("opponent_known", _cards(o.opponent_known)),
        ("opponent_hand_size", str(o.opponent_hand_size)),
        ("opponent_tech_hand_size", str(o.opponent_tech_hand_size)),
        ("deck_size", str(o.deck_size)),
        ("tech_deck_size", str(o.tech_deck_size)),
        ("discards", _cards(o.discards)),
        ("boards", _pair(o.boards, lambda board: _board(board, o.rules.energies))),
        ("accumulator", _opt(o.accumulator, lambda a: f"{a[0]}:{a[1]}")),
        ("smart", _opt(o.smart, lambda e: e.letter)),
        ("played_cell", _opt(o.played_cell, format_cell)),
        ("turn_discard", _opt(o.turn_discard, format_card)),
        ("pending_chance", _opt(o.pending_chance, lambda c: c.value)),
        ("stall_count", str(o.stall_count)),
        ("end_triggered_by", _opt(o.end_triggered_by, str)),
        ("end_reason", _opt(o.end_reason, lambda r: r.value)),
        ("this_turn", _moves(o.this_turn)),
        ("last_turn", _moves(o.last_turn)),
    ]
    return " ".join(f"{key}={value}" for key, value in fields)


def format_seen_move(move: SeenMove) -> str:
    """The notation of a move as a player saw it: ``?`` for a card they did not see.

    Example:
        >>> from hatsuden_rules import Cell, Energy
        >>> format_seen_move(Concealed("BuildPylon", Cell(0, Energy.WIND)))
        'P ? 0W'
    """
    if not isinstance(move, Concealed):
        return format_move(move)
    if move.move == "Deal":
        return "=?"
    if move.move == "DealTech":
        return "=???"
    assert move.cell is not None
    verb = "P" if move.move == "BuildPylon" else "C*"
    return f"{verb} ? {format_cell(move.cell)}"


def _pair(pair: tuple[_T, _T], each: Callable[[_T], str]) -> str:
    return f"{each(pair[0])}/{each(pair[1])}"


def _opt(value: _T | None, each: Callable[[_T], str]) -> str:
    return "-" if value is None else each(value)


def _cards(cards: tuple[Card, ...]) -> str:
    return ",".join(format_card(card) for card in cards) or "-"


def _techs(techs: tuple[Tech, ...]) -> str:
    return ",".join(TECH_CODES[tech] for tech in techs) or "-"


def _moves(moves: tuple[SeenMove, ...]) -> str:
    return "[" + ", ".join(format_seen_move(move) for move in moves) + "]"


def _stack(stack: Stack | SeenStack | None) -> str:
    if stack is None:
        return "."
    marks = ("#~" if stack.flipped else "#") if stack.face_down else ""
    marks += ("*" if stack.secret else "") + ("v" if stack.downsized else "")
    return marks + "+".join("?" if card is None else format_card(card) for card in stack.cards)


def _board(board: tuple[Stack | None, ...] | tuple[SeenStack | None, ...], width: int) -> str:
    rows = (board[:width], board[width:])
    return ";".join(",".join(_stack(stack) for stack in row) for row in rows)


# -- parsing --------------------------------------------------------------------------------------


def parse_move(text: str, rules: Rules | None = STANDARD) -> Move:
    """The move written `text` in canonical notation.

    Args:
        text: One move, e.g. ``"C S3 0S"``; no surrounding spaces.
        rules: The cards, cells, energies and tech cards must be in play under these rules
            (R1-R3); None checks the syntax only.

    Raises:
        MoveNotationError: An `InvalidMoveError` naming the position of the problem.

    Example:
        >>> parse_move("C* S3 0S")
        Construct(card=Card(energy=Energy.SOLAR, value=3), cell=Cell(row=0, energy=Energy.SOLAR), \
secret=True)
        >>> parse_move("I S5 0S")
        Traceback (most recent call last):
        ...
        hatsuden_rules.notation.MoveNotationError: move: S5 is not a card in play under these \
rules (R2) at position 2 of 'I S5 0S'
    """
    if type(text) is not str:
        raise InvalidMoveError("move", f"expected a str, got {type(text).__name__}")
    scanner = _Scanner(text, "move", MoveNotationError, _rules_or_none(rules))
    move = scanner.move()
    scanner.end()
    return move


def parse_card(text: str, rules: Rules | None = STANDARD) -> Card:
    """The card written `text` (energy letter and value), in play under `rules` unless None.

    Raises:
        MoveNotationError: An `InvalidMoveError` naming the position of the problem.

    Example:
        >>> parse_card("W3")
        Card(energy=Energy.WIND, value=3)
    """
    if type(text) is not str:
        raise InvalidMoveError("card", f"expected a str, got {type(text).__name__}")
    scanner = _Scanner(text, "card", MoveNotationError, _rules_or_none(rules))
    card = scanner.card()
    scanner.end()
    return card


def parse_cell(text: str, rules: Rules | None = STANDARD) -> Cell:
    """The cell written `text` (row and energy letter), in play under `rules` unless None.

    Raises:
        MoveNotationError: An `InvalidMoveError` naming the position of the problem.

    Example:
        >>> parse_cell("1H")
        Cell(row=1, energy=Energy.HYDRO)
    """
    if type(text) is not str:
        raise InvalidMoveError("cell", f"expected a str, got {type(text).__name__}")
    scanner = _Scanner(text, "cell", MoveNotationError, _rules_or_none(rules))
    cell = scanner.cell()
    scanner.end()
    return cell


def _rules_or_none(rules: object) -> Rules | None:
    if rules is not None and type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules or None, got {type(rules).__name__}")
    return rules


def parse_rules(text: str) -> Rules:
    """The rule set written `text` (see `format_rules`).

    Raises:
        NotationError: Malformed text, or a rule set that `Rules` refuses (R31).

    Example:
        >>> parse_rules("1/2/2/1/1/ACC/city_points/noretake/2") == Rules(energies=1, max_value=2,
        ...     copies=2, hand_size=1, city_demand=1, techs={Tech.ACCUMULATOR},
        ...     allow_retake_discard=False, stall_limit=2)
        True
    """
    if type(text) is not str:
        raise InvalidInputError("rules", f"expected a str, got {type(text).__name__}")
    scanner = _Scanner(text, "rules", NotationError, None)
    rules = scanner.rule_set()
    scanner.end()
    return rules


def parse_state(text: str) -> GameState:
    """The state written `text` by `format_state`, after checking it is consistent.

    Raises:
        NotationError: Malformed text, or an inconsistent state (a card too many or missing, an
            impossible phase, ...); `field` names the state field at fault.

    Example:
        >>> from hatsuden_rules import new_game
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
    scanner = _Scanner(text, "state", NotationError, None)
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
    scanner = _Scanner(text, "observation", NotationError, None)
    seen = scanner.observation()
    scanner.end()
    try:
        return build_observation(seen)
    except Problem as problem:
        scanner.problem(problem)


class _Scanner:
    """A cursor over `text` for the recursive-descent parsers; every error names a position."""

    def __init__(
        self,
        text: str,
        field: str,
        error: type[NotationError],
        rules: Rules | None,
    ) -> None:
        self.text = text
        self.pos = 0
        self.field = field
        self.error = error
        self.rules = rules
        self.spans: dict[Path, int] = {}  # where each part of a state starts, for `problem`

    # -- primitives -----------------------------------------------------------------------------

    def fail(self, message: str, at: int | None = None) -> NoReturn:
        raise self.error(self.field, message, self.text, self.pos if at is None else at)

    def problem(self, problem: Problem) -> NoReturn:
        """Report a consistency problem at the longest recorded prefix of its path."""
        path = problem.path
        while path and path not in self.spans:
            path = path[:-1]
        self.field = str(problem.path[0]) if problem.path else self.field
        self.fail(problem.message, self.spans.get(path, 0))

    def mark(self, path: Path) -> None:
        self.spans[path] = self.pos

    def peek(self, size: int = 1) -> str:
        return self.text[self.pos : self.pos + size]

    def expect(self, literal: str, what: str | None = None) -> None:
        if not self.text.startswith(literal, self.pos):
            found = repr(self.peek(len(literal))) if self.pos < len(self.text) else "the end"
            self.fail(f"expected {what or repr(literal)}, found {found}")
        self.pos += len(literal)

    def accept(self, literal: str) -> bool:
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def end(self) -> None:
        if self.pos != len(self.text):
            self.fail(f"unexpected {self.text[self.pos :]!r} after the end")

    def integer(self, digits: int = _MAX_DIGITS) -> int:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        token = self.text[start : self.pos]
        if not token:
            self.fail("expected a number", start)
        if len(token) > 1 and token[0] == "0":
            self.fail("a number has no leading zero", start)
        if len(token) > digits:
            self.fail(f"a number has at most {digits} digits here", start)
        return int(token)

    def word(self, choices: dict[str, object], what: str) -> object:
        start = self.pos
        while self.pos < len(self.text) and (
            self.text[self.pos].islower() or self.text[self.pos] in "_-"
        ):
            self.pos += 1
        token = self.text[start : self.pos]
        if token not in choices:
            self.fail(f"expected {what} ({', '.join(choices)}), found {token!r}", start)
        return choices[token]

    # -- atoms ----------------------------------------------------------------------------------

    def energy(self) -> Energy:
        letter = self.peek()
        energy = _ENERGY_BY_LETTER.get(letter)
        if energy is None:
            found = repr(letter) if letter else "the end"
            self.fail(f"expected an energy letter (S, G, W, H, B), found {found}")
        if self.rules is not None and energy not in self.rules._tables.energy_index:
            self.fail(f"{energy.name} is not an energy in play under these rules (R1)")
        self.pos += 1
        return energy

    def card(self) -> Card:
        start = self.pos
        rules, self.rules = self.rules, None  # the whole card is checked below
        try:
            energy = self.energy()
            value = self.integer()
        finally:
            self.rules = rules
        if value < 1:
            self.fail("a card value is at least 1", start + 1)
        card = Card(energy, value)
        if rules is not None and card not in rules._tables.card_index:
            self.fail(f"{format_card(card)} is not a card in play under these rules (R2)", start)
        return card

    def row(self) -> int:
        row = self.peek()
        if row not in ("0", "1"):
            self.fail(f"expected a row (0 or 1), found {row!r}" if row else "expected a row")
        self.pos += 1
        return int(row)

    def cell(self) -> Cell:
        return Cell(self.row(), self.energy())

    def tech(self) -> Tech:
        code = self.peek(3)
        tech = _TECH_BY_CODE.get(code)
        if tech is None:
            self.fail(f"expected a tech code ({', '.join(_TECH_BY_CODE)}), found {code!r}")
        if self.rules is not None and tech not in self.rules.techs:
            self.fail(f"{tech.name} is not a tech card in play under these rules (R3)")
        self.pos += 3
        return tech

    def move(self) -> Move:
        start = self.pos
        if self.accept("="):
            if self.peek(3) in _TECH_BY_CODE:
                return DealTech(self.tech())
            return Deal(self.card())
        while self.pos < len(self.text) and (self.text[self.pos].isupper() or self.peek() == "*"):
            self.pos += 1
        verb = self.text[start : self.pos]
        bare = _BARE_MOVES.get(verb)
        if bare is not None:
            return bare
        if verb in ("C", "C*", "I", "D", "P"):
            self.expect(" ", "a space")
            card = self.card()
            self.expect(" ", "a space")
            cell = self.cell()
            if verb == "I":
                return Improve(card, cell)
            if verb == "D":
                return Downsize(card, cell)
            if verb == "P":
                return BuildPylon(card, cell)
            return Construct(card, cell, secret=verb == "C*")
        if verb in ("X", "DX"):
            self.expect(" ", "a space")
            card = self.card()
            return Discard(card) if verb == "X" else DrawFromDiscard(card)
        if verb == "F":
            self.expect(" ", "a space")
            return Flip(self.cell())
        if verb == "A":
            self.expect(" ", "a space")
            return PlaceAccumulator(self.row())
        if verb == "M":
            self.expect(" ", "a space")
            return PlaceSmart(self.energy())
        found = repr(verb or self.peek()) if (verb or self.peek()) else "nothing"
        raise self.error(
            self.field,
            f"expected a move (C, C*, I, D, P, X, PASS, DT, NT, F, DD, DX, E, A, M, =), "
            f"found {found}",
            self.text,
            start,
        )

    # -- rules ----------------------------------------------------------------------------------

    def rule_set(self) -> Rules:
        starts: dict[str, int] = {}
        values: dict[str, int] = {}
        for k, name in enumerate(("energies", "max_value", "copies", "hand_size", "city_demand")):
            if k:
                self.expect("/")
            starts[name] = self.pos
            values[name] = self.integer()
        self.expect("/")
        starts["techs"] = self.pos
        techs: list[Tech] = []
        if not self.accept("-"):
            techs.append(self.tech())
            while self.accept("+"):
                at = self.pos
                techs.append(self.tech())
                if techs[-1].index <= techs[-2].index:
                    self.fail("tech codes are listed once each, in canonical order (R3)", at)
        self.expect("/")
        starts["tiebreak"] = self.pos
        tiebreak = self.word({t.value: t for t in Tiebreak}, "a tiebreak")
        assert isinstance(tiebreak, Tiebreak)
        self.expect("/")
        retake = self.word({"retake": True, "noretake": False}, "retake or noretake")
        assert isinstance(retake, bool)
        self.expect("/")
        starts["stall_limit"] = self.pos
        stall: int | None = None if self.accept("off") else self.integer()
        try:
            rules = make_rules(
                values["energies"],
                values["max_value"],
                values["copies"],
                values["hand_size"],
                values["city_demand"],
                frozenset(techs),
                tiebreak,
                retake,
                stall,
            )
        except InvalidRulesError as error:
            self.fail(str(error), starts.get(error.field, starts["energies"]))
        cards = rules.energies * rules.max_value * rules.copies
        if cards > MAX_CARDS:
            self.fail(
                f"{cards} plant cards is more than notation may describe ({MAX_CARDS})",
                starts["copies"],
            )
        return rules

    # -- states ---------------------------------------------------------------------------------

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
        self.mark(path)
        if self.accept("."):
            return None
        face_down = self.accept("#")
        flipped = face_down and self.accept("~")
        secret = self.accept("*")
        downsized = self.accept("v")
        cards: list[Card] = []
        while True:
            self.mark((*path, "cards", len(cards)))
            cards.append(self.card())
            if not self.accept("+"):
                break
        return Stack(tuple(cards), face_down, flipped, secret, downsized)

    def board(self, path: Path, width: int) -> tuple[Stack | None, ...]:
        cells: list[Stack | None] = []
        for row in (0, 1):
            if row:
                self.expect(";", "';' between the two rows")
            for column in range(width):
                if column:
                    self.expect(",", f"',' ({width} cells a row)")
                cells.append(self.stack((*path, len(cells))))
        return tuple(cells)

    def optional(self, parse: Callable[[], _T]) -> _T | None:
        return None if self.accept("-") else parse()

    def move_list(self, path: Path) -> tuple[Move, ...]:
        self.expect("[")
        moves: list[Move] = []
        if self.accept("]"):
            return ()
        while True:
            self.mark((*path, len(moves)))
            moves.append(self.move())
            if self.accept("]"):
                return tuple(moves)
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
        cells: list[SeenStack | None] = []
        for row in (0, 1):
            if row:
                self.expect(";", "';' between the two rows")
            for column in range(width):
                if column:
                    self.expect(",", f"',' ({width} cells a row)")
                cells.append(self.seen_stack((*path, len(cells))))
        return tuple(cells)

    def seen_stack(self, path: Path) -> SeenStack | None:
        self.mark(path)
        if self.accept("."):
            return None
        face_down = self.accept("#")
        flipped = face_down and self.accept("~")
        secret = self.accept("*")
        downsized = self.accept("v")
        cards: list[Card | None] = []
        while True:
            self.mark((*path, "cards", len(cards)))
            cards.append(None if self.accept("?") else self.card())
            if not self.accept("+"):
                break
        return SeenStack(tuple(cards), face_down, flipped, secret, downsized)

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
        self.expect("[")
        moves: list[SeenMove] = []
        if self.accept("]"):
            return ()
        while True:
            self.mark((*path, len(moves)))
            moves.append(self.seen_move())
            if self.accept("]"):
                return tuple(moves)
            self.expect(", ", "', ' or ']'")

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
