"""Reading the text notation: the scanner, its errors, and the parsers of moves and rule sets.

`_Scanner` is a recursive-descent reader over one line; every error it raises names the
character position of the problem. `_notation_state` extends it to states and observations.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, NoReturn

from hatsuden_rules._positions import MAX_CARDS, Path, Problem, make_rules
from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import MAX_CARD_VALUE, Card, Cell, Energy, Tech
from hatsuden_rules.core.errors import InvalidInputError, InvalidMoveError, InvalidRulesError
from hatsuden_rules.core.moves import (
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
    FlipSet,
    Improve,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.rules import STANDARD, Overflow, Rules, TechTiming, Tiebreak
from hatsuden_rules.notation._format import TECH_CODES, format_card

__all__ = [
    "MoveNotationError",
    "NotationError",
    "parse_card",
    "parse_cell",
    "parse_move",
    "parse_rules",
]

#: The words of the variant options (R40, R41); rules notation writes only those not at default.
_VARIANT_WORDS: Final[dict[str, object]] = {
    **{option.value: option for option in TechTiming},
    **{option.value: option for option in Overflow},
}
#: The move verbs, for error messages; FlipSet's only where it may be played (R41).
_VERBS: Final = "C, C*, I, D, P, X, PASS, DT, NT, F, DD, DX, E, A, M, ="
_VERBS_WITH_FS: Final = "C, C*, I, D, P, X, PASS, DT, NT, F, FS, DD, DX, E, A, M, ="
_TECH_BY_CODE: Final = MappingProxyType({code: tech for tech, code in TECH_CODES.items()})
_ENERGY_BY_LETTER: Final = MappingProxyType({energy.letter: energy for energy in Energy})
_MAX_DIGITS: Final = 9  # card values and rule parameters; longer numbers are refused
# The letters of a token are ASCII only (NOTATION.md, "Letters of a token"): a non-ASCII letter
# (a full-width or accented one) ends a keyword or a word, and is refused where it stands.
_UPPER: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER: Final = frozenset("abcdefghijklmnopqrstuvwxyz")


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


#: A move's name written as a word, and its notation (for the error that says how to write it).
_WORD_EXAMPLES: Final[dict[str, str]] = {
    "construct": "C S3 0S (C* S3 0S secret)",
    "improve": "I S3 0S",
    "downsize": "D S3 0S",
    "buildpylon": "P S3 1W",
    "pylon": "P S3 1W",
    "discard": "X S3",
    "pass": "PASS",
    "drawtech": "DT",
    "declinetech": "NT",
    "flip": "F 1W",
    "flipset": "FS 0S+0W",
    "drawfromdeck": "DD",
    "draw": "DD (from the deck) or DX S3 (from the discards)",
    "drawfromdiscard": "DX S3",
    "endturn": "E",
    "end": "E",
    "placeaccumulator": "A 0",
    "accumulator": "A 0",
    "placesmart": "M W",
    "smart": "M W",
}

#: The verbs followed by a space and operands.
_SPACED_VERBS: Final = frozenset({"C", "C*", "I", "D", "P", "X", "DX", "F", "FS", "A", "M"})

_BARE_MOVES: Final[dict[str, Move]] = {
    "PASS": Pass(),
    "DT": DrawTech(),
    "NT": DeclineTech(),
    "DD": DrawFromDeck(),
    "E": EndTurn(),
}


def parse_move(text: str, rules: Rules | None = STANDARD) -> Move:
    """The move written `text` in canonical notation.

    Args:
        text: One move, e.g. ``"C S3 0S"``; no surrounding spaces.
        rules: The cards, cells, energies and tech cards must be in play under these rules
            (R1-R3); None checks the syntax only.

    Raises:
        MoveNotationError: An `InvalidMoveError` naming the position of the problem.

    Examples:
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

    Examples:
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

    Examples:
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

    Examples:
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
            self.text[self.pos] in _LOWER or self.text[self.pos] in "_-"
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
        if self.rules is not None and energy not in enc.tables(self.rules).energy_index:
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
        if value > MAX_CARD_VALUE:
            self.fail(f"a card value is at most {MAX_CARD_VALUE} (R2)", start + 1)
        card = Card(energy, value)
        if rules is not None and card not in enc.tables(rules).card_index:
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
        while self.pos < len(self.text) and (self.text[self.pos] in _UPPER or self.peek() == "*"):
            self.pos += 1
        verb = self.text[start : self.pos]
        if verb in _SPACED_VERBS and self.peek() in _LOWER:
            self.word_instead_of_notation(start)  # where "expected a space" would be reported
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
        if verb == "FS":
            self.expect(" ", "a space")
            cells = [self.cell()]
            while self.peek() == "+":
                self.pos += 1
                at = self.pos
                cells.append(self.cell())
                if (cells[-1].row, cells[-1].energy.column) <= (
                    cells[-2].row,
                    cells[-2].energy.column,
                ):
                    self.fail("the cells of a FlipSet are listed once each, in cell order", at)
            return FlipSet(tuple(cells))
        if verb == "A":
            self.expect(" ", "a space")
            return PlaceAccumulator(self.row())
        if verb == "M":
            self.expect(" ", "a space")
            return PlaceSmart(self.energy())
        found = repr(verb or self.peek()) if (verb or self.peek()) else "nothing"
        raise self.error(
            self.field,
            f"expected a move ({self.verbs()}), found {found}",
            self.text,
            start,
        )

    def word_instead_of_notation(self, start: int) -> NoReturn:
        """A move written as a word (``Construct S3 0S``): say how moves are written.

        Reported where reading stops, as any character that does not fit (NOTATION.md, "Where an
        error points"): the first lowercase letter, right after the verb.
        """
        end = self.pos
        while end < len(self.text) and self.text[end] in _UPPER | _LOWER:
            end += 1
        word = self.text[start:end]
        example = _WORD_EXAMPLES.get(word.lower())
        hint = f"{word} is written {example}" if example else f"found {word!r}"
        self.fail(
            "expected a space: moves are written in notation, a verb and its operands such as "
            f"C S3 0S (construct S3 on city 0's solar cell; NOTATION.md); {hint}"
        )

    def verbs(self) -> str:
        """The move verbs to name in an error: FlipSet's with no rules or with ANY_SET (R41)."""
        if self.rules is None or self.rules.overflow is Overflow.ANY_SET:
            return _VERBS_WITH_FS
        return _VERBS

    def variant_follows(self) -> bool:
        """Whether ``/`` and a variant option's word come next (anything else is left unread)."""
        if self.peek() != "/":
            return False
        end = self.pos + 1
        while end < len(self.text) and (self.text[end] in _LOWER or self.text[end] == "_"):
            end += 1
        return self.text[self.pos + 1 : end] in _VARIANT_WORDS

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
        tech_timing, overflow = TechTiming.KEEP, Overflow.ONE_AT_A_TIME
        last = ""
        while self.variant_follows():  # R40, R41: options not at their defaults, in order
            self.pos += 1
            at = self.pos
            option = self.word(_VARIANT_WORDS, "a rule variant")
            if option is TechTiming.KEEP or option is Overflow.ONE_AT_A_TIME:
                self.fail(f"{option.value} is a default: it is not written", at)
            if isinstance(option, TechTiming) and not last:
                tech_timing, last = option, "tech_timing"
            elif isinstance(option, Overflow) and last != "overflow":
                overflow, last = option, "overflow"
            else:
                self.fail("variant options are written once each, tech_timing first", at)
            starts[last] = at
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
                tech_timing,
                overflow,
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


# The public errors are documented (and pickled) under the module users import them from.
NotationError.__module__ = MoveNotationError.__module__ = "hatsuden_rules.notation"
