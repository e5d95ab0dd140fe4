"""Game records behind the `hatsuden_rules.records` facade.

`GameRecord`, `record_game`, `replay` and the text reader and writer; the facade's docstring
has the text form and an example.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final

import attrs

from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.errors import IllegalMoveError, InvalidInputError
from hatsuden_rules.core.moves import (
    MOVE_TYPES,
    Deal,
    DrawFromDeck,
    DrawFromDiscard,
    EndTurn,
    Move,
)
from hatsuden_rules.core.printable import UNICODE_VERSION, is_printable
from hatsuden_rules.core.rules import STANDARD, Rules, Tiebreak
from hatsuden_rules.core.scoring import Decision, score
from hatsuden_rules.core.state import Chance, EndReason, GameState
from hatsuden_rules.notation._format import format_move, format_rules
from hatsuden_rules.notation._scan import NotationError, parse_move, parse_rules
from hatsuden_rules.serialization._bodies import FORMAT_VERSION, rules_body
from hatsuden_rules.serialization._reader import Reader, json_path

__all__ = [
    "GameRecord",
    "GameResult",
    "ReplayError",
    "format_record",
    "parse_record",
    "record_game",
    "replay",
]

_U64: Final = 1 << 64
_MAX_NAME: Final = 100


class ReplayError(InvalidInputError):
    """A record whose moves or result do not replay.

    Attributes:
        field: ``moves[i]`` (0-based) for a move that is not legal, ``result`` for a result that
            does not match the game.
        ply: The 1-based number of the move at fault, or None for the result.
        move: The move at fault, or None.
        rule: The RULES.md rule the move breaks, or None.
    """

    def __init__(
        self, field: str, message: str, ply: int | None, move: Move | None, rule: str | None
    ) -> None:
        super().__init__(field, message)
        self.ply = ply
        self.move = move
        self.rule = rule


def _player(_: Any, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or value not in (0, 1):
        raise InvalidInputError(attribute.name, f"must be 0 or 1, got {value!r}")


def _totals(_: Any, attribute: attrs.Attribute[tuple[int, int]], value: object) -> None:
    if (
        type(value) is not tuple
        or len(value) != 2
        or any(type(v) is not int or abs(v) > 10**9 for v in value)
    ):
        raise InvalidInputError("totals", f"must be a pair of ints, got {value!r}")


def _instance(kind: type) -> Any:
    def check(_: Any, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) is not kind:
            raise InvalidInputError(attribute.name, f"expected {kind.__name__}, got {value!r}")

    return check


@attrs.frozen(slots=True, kw_only=True)
class GameResult:
    """How a game ended: the winner, what decided it, the totals and the end reason (R26, R29).

    Examples:
        >>> from hatsuden_rules import Decision, EndReason
        >>> GameResult(winner=1, decided_by=Decision.TOTAL, totals=(3, 5),
        ...            end_reason=EndReason.STALL).totals
        (3, 5)
    """

    winner: int = attrs.field(validator=_player)
    decided_by: Decision = attrs.field(validator=_instance(Decision))
    totals: tuple[int, int] = attrs.field(validator=_totals)
    end_reason: EndReason = attrs.field(validator=_instance(EndReason))

    def __attrs_post_init__(self) -> None:
        a, b = self.totals
        if self.decided_by is Decision.TOTAL:
            if a == b or self.winner != (0 if a > b else 1):
                raise InvalidInputError("winner", "a decision by total goes to the higher total")
        elif a != b:
            raise InvalidInputError("decided_by", "a tie-break decides equal totals only (R29)")
        elif self.decided_by is Decision.SECOND_PLAYER and self.winner != 1:
            raise InvalidInputError("winner", "the second-player rule makes player 1 win (R29)")

    @classmethod
    def of(cls, state: GameState) -> GameResult:
        """The result of a finished game.

        Raises:
            InvalidInputError: The game is not over.
        """
        if type(state) is not GameState:
            raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
        if state.end_reason is None:
            raise InvalidInputError("state", "the game is not over: it has no result")
        sheet = score(state)
        totals = (sheet.players[0].total, sheet.players[1].total)
        return cls(
            winner=sheet.winner,
            decided_by=sheet.decided_by,
            totals=totals,
            end_reason=state.end_reason,
        )


def _seed(_: Any, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is not None and (type(value) is not int or not 0 <= value < _U64):
        raise InvalidInputError(
            "seed", f"must be None or an int in [0, 2**64) (new_game takes it mod 2**64): {value!r}"
        )


def _moves(value: object) -> tuple[Move, ...]:
    if not isinstance(value, Iterable) or isinstance(value, str | bytes):
        raise InvalidInputError("moves", f"expected a sequence of moves, got {value!r}")
    moves = tuple(value)
    for k, move in enumerate(moves):
        if type(move) not in MOVE_TYPES:
            raise InvalidInputError(f"moves[{k}]", f"expected a move, got {move!r}")
    return moves


def _is_name(name: str) -> bool:
    """A player name: 1 to `_MAX_NAME` characters, each printable (NOTATION.md, "Game records")."""
    return 0 < len(name) <= _MAX_NAME and is_printable(name)


def _players(_: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None:
        return
    if type(value) is not tuple or len(value) != 2:
        raise InvalidInputError("players", f"must be None or two names, got {value!r}")
    for k, name in enumerate(value):
        if type(name) is not str or not 0 < len(name) <= _MAX_NAME:
            raise InvalidInputError(
                f"players[{k}]", f"a name is a str of 1 to {_MAX_NAME} characters"
            )
        if not is_printable(name):
            raise InvalidInputError(
                f"players[{k}]", f"a name has printable characters only (Unicode {UNICODE_VERSION})"
            )


@attrs.frozen(slots=True, kw_only=True)
class GameRecord:
    """A game as it was played (see the module docstring).

    Attributes:
        rules: The rule set.
        seed: The seed of a seeded game (R8), in [0, 2**64); None in explicit chance mode,
            where the chance outcomes (`Deal`, `DealTech`) are among the moves.
        moves: Every move, in order (chance outcomes included in explicit mode).
        players: The names of players 0 and 1, or None.
        result: The stated result, or None (unfinished, or not stated).
    """

    rules: Rules = attrs.field(default=STANDARD, validator=_instance(Rules))
    seed: int | None = attrs.field(default=None, validator=_seed)
    moves: tuple[Move, ...] = attrs.field(default=(), converter=_moves)
    players: tuple[str, str] | None = attrs.field(default=None, validator=_players)
    result: GameResult | None = attrs.field(default=None)

    def __attrs_post_init__(self) -> None:
        result = self.result
        if result is None:
            return
        if type(result) is not GameResult:
            raise InvalidInputError("result", f"expected a GameResult or None, got {result!r}")
        tiebreak = {Tiebreak.CITY_POINTS: Decision.CITY_POINTS, Tiebreak.SUPPLY: Decision.SUPPLY}
        allowed = (Decision.TOTAL, Decision.SECOND_PLAYER, tiebreak[self.rules.tiebreak])
        if result.decided_by not in allowed:
            raise InvalidInputError(
                "result", f"{result.decided_by.value} is not a tie-break of these rules (R29)"
            )
        if result.end_reason is EndReason.STALL and self.rules.stall_limit is None:
            raise InvalidInputError("result", "no stall end without a stall limit (R25)")


def record_game(
    moves: Iterable[Move],
    *,
    seed: int | None = None,
    rules: Rules = STANDARD,
    players: tuple[str, str] | None = None,
) -> GameRecord:
    """The record of a game played from ``new_game(seed, rules)``, with its result if it is over.

    A negative or large seed is stored mod 2**64, which plays the same game (R8).

    Raises:
        ReplayError: A move is not legal.

    Examples:
        >>> from hatsuden_rules import Deal, Card, Energy
        >>> record = record_game([Deal(Card(Energy.SOLAR, 1))])
        >>> record.seed, record.result, len(record.moves)
        (None, None, 1)
    """
    if seed is not None and type(seed) is not int:
        raise InvalidInputError("seed", f"must be an int or None, got {seed!r}")
    record = GameRecord(
        rules=rules, seed=None if seed is None else seed % _U64, moves=moves, players=players
    )
    final = replay(record)
    if final.is_over:
        record = attrs.evolve(record, result=GameResult.of(final))
    return record


def replay(record: GameRecord) -> GameState:
    """Play `record` again and return the final state, checking every move and the result.

    Raises:
        ReplayError: A move is not legal (`ply`, `move` and `rule` say which and why), or the
            stated result is not the game's.

    Examples:
        >>> from hatsuden_rules import Pass
        >>> replay(GameRecord(seed=1, moves=(Pass(),)))
        Traceback (most recent call last):
        ...
        hatsuden_rules.records.ReplayError: moves[0]: ply 1 (turn 1, player 0) PASS: R16: Pass \
is legal only with an empty hand
    """
    state = new_game(record.seed, record.rules)
    for _, _, _, after in _steps(record, state):
        state = after
    _check_result(record, state)
    return state


def _steps(record: GameRecord, state: GameState) -> Iterator[tuple[int, int, Move, GameState]]:
    """Yield ``(ply, turn, move, state after)``, turn 0 being the initial deal."""
    if type(record) is not GameRecord:
        raise InvalidInputError("record", f"expected a GameRecord, got {type(record).__name__}")
    turn = 0 if state.pending_chance is Chance.SETUP else 1
    for ply, move in enumerate(record.moves, 1):
        try:
            after = apply(state, move)
        except IllegalMoveError as error:
            where = "the deal" if turn == 0 else f"turn {turn}, player {state.current_player}"
            raise ReplayError(
                f"moves[{ply - 1}]",
                f"ply {ply} ({where}) {format_move(move)}: {error}",
                ply,
                move,
                error.rule,
            ) from None
        except InvalidInputError as error:  # a card or cell not in play under the rules
            raise ReplayError(
                f"moves[{ply - 1}]", f"ply {ply} {format_move(move)}: {error}", ply, move, None
            ) from None
        yield ply, turn, move, after
        if (
            after.current_player != state.current_player
            and state.pending_chance is not Chance.SETUP
        ):
            turn += 1
        elif state.pending_chance is Chance.SETUP and after.pending_chance is not Chance.SETUP:
            turn = 1
        state = after


def _check_result(record: GameRecord, state: GameState) -> None:
    stated = record.result
    if stated is None:
        return
    if not state.is_over:
        raise ReplayError(
            "result",
            "a result is stated but the game is not over after the last move",
            None,
            None,
            None,
        )
    actual = GameResult.of(state)
    if actual != stated:
        raise ReplayError(
            "result",
            f"the record states {_result_text(stated)}, the game gives {_result_text(actual)}",
            None,
            None,
            None,
        )


# -- text form ------------------------------------------------------------------------------------


def _result_text(result: GameResult | None) -> str:
    if result is None:
        return "*"
    a, b = result.totals
    return (
        f"winner={result.winner} decided_by={result.decided_by.value} totals={a}:{b} "
        f"end_reason={result.end_reason.value}"
    )


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ends_turn(move: Move, previous: Move | None, seeded: bool) -> bool:
    """Whether `move` ends a turn, known from the moves alone (R22, R23)."""
    if isinstance(move, DrawFromDiscard | EndTurn):
        return True
    if isinstance(move, DrawFromDeck):
        return seeded
    return isinstance(move, Deal) and isinstance(previous, DrawFromDeck)


def _lines(record: GameRecord) -> list[tuple[int, list[Move]]]:
    """The moves grouped one turn a line: ``(number, moves)``; number 0 is the deal."""
    moves = list(record.moves)
    lines: list[tuple[int, list[Move]]] = []
    start = 0
    if record.seed is None:
        deal = 2 * record.rules.hand_size
        while start < min(deal, len(moves)) and isinstance(moves[start], Deal):
            start += 1
        if start:
            lines.append((0, moves[:start]))
    current: list[Move] = []
    previous: Move | None = None
    for move in moves[start:]:
        current.append(move)
        if _ends_turn(move, previous, record.seed is not None):
            lines.append((len(lines) + (0 if lines and lines[0][0] == 0 else 1), current))
            current = []
        previous = move
    if current:
        lines.append((len(lines) + (0 if lines and lines[0][0] == 0 else 1), current))
    return lines


def format_record(record: GameRecord) -> str:
    """The canonical text form of a record (see the module docstring and NOTATION.md).

    Examples:
        >>> from hatsuden_rules import DrawFromDeck, Discard, Card, Energy, new_game
        >>> card = new_game(seed=3).hand(0)[0]
        >>> print(format_record(GameRecord(seed=3, moves=(Discard(card), DrawFromDeck()))))
        [Hatsuden "1"]
        [Rules "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"]
        [Seed "3"]
        [Result "*"]
        <BLANKLINE>
        1. X S2, DD
        <BLANKLINE>
    """
    if type(record) is not GameRecord:
        raise InvalidInputError("record", f"expected a GameRecord, got {type(record).__name__}")
    head = [
        f"[Hatsuden {_quote(str(FORMAT_VERSION))}]",
        f"[Rules {_quote(format_rules(record.rules))}]",
        f"[Seed {_quote('-' if record.seed is None else str(record.seed))}]",
    ]
    if record.players is not None:
        head += [f"[Player0 {_quote(record.players[0])}]", f"[Player1 {_quote(record.players[1])}]"]
    head.append(f"[Result {_quote(_result_text(record.result))}]")
    body = [f"{n}. " + ", ".join(format_move(m) for m in moves) for n, moves in _lines(record)]
    return "\n".join(head) + "\n" + "".join(f"\n{line}" for line in body) + ("\n" if body else "")


class _TextReader:
    """The record text parser; errors name the line and column (and the 0-based position)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str, at: int | None = None) -> NotationError:
        at = self.pos if at is None else at
        line = self.text.count("\n", 0, at) + 1
        column = at - (self.text.rfind("\n", 0, at) + 1) + 1
        return NotationError(
            "record", f"line {line}, column {column}: {message}", self.text, at, quote=False
        )

    def expect(self, literal: str, what: str) -> None:
        if not self.text.startswith(literal, self.pos):
            found = (
                repr(self.text[self.pos : self.pos + len(literal)])
                if self.pos < len(self.text)
                else "the end"
            )
            raise self.error(f"expected {what}, found {found}")
        self.pos += len(literal)

    def tag(self, name: str) -> tuple[str, int]:
        """``[Name "value"]`` and its newline; returns the value and where it starts."""
        self.expect(f"[{name} ", f"the tag [{name} ...]")
        self.expect('"', "a quoted value")
        start = self.pos
        out: list[str] = []
        while True:
            if self.pos >= len(self.text) or self.text[self.pos] == "\n":
                raise self.error("unterminated quoted value")
            ch = self.text[self.pos]
            if ch == '"':
                break
            if ch == "\\":
                nxt = self.text[self.pos + 1 : self.pos + 2]
                if nxt not in ('"', "\\"):
                    raise self.error('only \\" and \\\\ are escapes')
                out.append(nxt)
                self.pos += 2
                continue
            out.append(ch)
            self.pos += 1
        self.pos += 1
        self.expect("]\n", "']' and the end of the line")
        return "".join(out), start

    def inner(self, error: NotationError, start: int) -> NotationError:
        """An error from a value parser, placed in the record."""
        message = str(error).split(": ", 1)[1].rsplit(" at position ", 1)[0]
        return self.error(message, start + error.position)

    def record(self) -> GameRecord:
        version, at = self.tag("Hatsuden")
        if version != str(FORMAT_VERSION):
            raise self.error(f"this library reads version {FORMAT_VERSION}, got {version!r}", at)
        text, at = self.tag("Rules")
        try:
            rules = parse_rules(text)
        except NotationError as error:
            raise self.inner(error, at) from None
        text, at = self.tag("Seed")
        seed: int | None = None
        if text != "-":
            if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
                raise self.error("expected '-' or a decimal seed in [0, 2**64)", at)
            if len(text) > 20 or int(text) >= _U64:
                raise self.error("a seed is below 2**64", at)
            seed = int(text)
        players: tuple[str, str] | None = None
        if self.text.startswith("[Player0 ", self.pos):
            first, first_at = self.tag("Player0")
            second, second_at = self.tag("Player1")
            for name, name_at in ((first, first_at), (second, second_at)):
                if not _is_name(name):
                    raise self.error(f"a name has 1 to {_MAX_NAME} printable characters", name_at)
            players = (first, second)
        text, at = self.tag("Result")
        result = self.result(text, at, rules)
        moves = self.moves(rules, seed)
        try:
            return GameRecord(rules=rules, seed=seed, moves=moves, players=players, result=result)
        except InvalidInputError as error:
            raise self.error(str(error), at) from None

    def result(self, text: str, at: int, rules: Rules) -> GameResult | None:
        if text == "*":
            return None
        words = text.split(" ")
        keys = ("winner", "decided_by", "totals", "end_reason")
        if len(words) != len(keys) or any(
            not w.startswith(f"{k}=") for w, k in zip(words, keys, strict=True)
        ):
            raise self.error("expected '*' or 'winner=W decided_by=D totals=A:B end_reason=R'", at)
        values = [w.split("=", 1)[1] for w in words]
        decisions = {d.value: d for d in Decision}
        reasons = {r.value: r for r in EndReason}
        totals = values[2].split(":")
        if (
            values[0] not in ("0", "1")
            or values[1] not in decisions
            or values[3] not in reasons
            or len(totals) != 2
            or not all(_is_int(t) for t in totals)
        ):
            raise self.error(f"malformed result {text!r}", at)
        try:
            return GameResult(
                winner=int(values[0]),
                decided_by=decisions[values[1]],
                totals=(int(totals[0]), int(totals[1])),
                end_reason=reasons[values[3]],
            )
        except InvalidInputError as error:
            raise self.error(str(error), at) from None

    def moves(self, rules: Rules, seed: int | None) -> tuple[Move, ...]:
        moves: list[Move] = []
        if self.pos == len(self.text):
            return ()
        self.expect("\n", "a blank line after the tags")
        expected_number = 0 if seed is None else 1
        previous: Move | None = None
        first_line = True
        while self.pos < len(self.text):
            line_start = self.pos
            number = self.number()
            if first_line and seed is None and number == 1:
                expected_number = 1  # a record without the deal cannot replay, but it parses
            if number != expected_number:
                raise self.error(f"expected turn {expected_number}", line_start)
            self.expect(". ", "'. '")
            line: list[tuple[Move, int]] = []
            while True:
                at = self.pos
                end = self.text.find("\n", at)
                end = len(self.text) if end < 0 else end
                stop = min(i for i in (self.text.find(", ", at, end), end) if i >= 0)
                try:
                    move = parse_move(self.text[at:stop], rules)
                except NotationError as error:
                    raise self.inner(error, at) from None
                line.append((move, at))
                self.pos = stop
                if self.text.startswith(", ", self.pos):
                    self.pos += 2
                    continue
                self.expect("\n", "', ' or the end of the line")
                break
            previous = self.check_line(line, number, previous, seed, rules)
            moves += [move for move, _ in line]
            expected_number += 1
            first_line = False
        return tuple(moves)

    def number(self) -> int:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":  # ASCII only
            self.pos += 1
        token = self.text[start : self.pos]
        if not token or (len(token) > 1 and token[0] == "0"):
            raise self.error("expected a turn number", start)
        if len(token) > 9:
            raise self.error("a turn number has at most 9 digits", start)
        return int(token)

    def check_line(
        self,
        line: list[tuple[Move, int]],
        number: int,
        previous: Move | None,
        seed: int | None,
        rules: Rules,
    ) -> Move | None:
        """A line holds one turn: it ends where the turn ends, and nowhere before."""
        last_line = self.pos == len(self.text)
        if number == 0:
            for move, at in line:
                if not isinstance(move, Deal):
                    raise self.error("line 0 holds the deal: Deal moves only", at)
            if len(line) > 2 * rules.hand_size or (
                len(line) < 2 * rules.hand_size and not last_line
            ):
                raise self.error(f"the deal is {2 * rules.hand_size} Deal moves", line[0][1])
            return line[-1][0]
        for k, (move, at) in enumerate(line):
            ends = _ends_turn(move, previous, seed is not None)
            if ends and k < len(line) - 1:
                raise self.error(
                    "the turn ends here: the next move starts a new line", line[k + 1][1]
                )
            if not ends and k == len(line) - 1 and not last_line:
                raise self.error("a turn ends with its draw (DX, E, DD or the Deal after DD)", at)
            previous = move
        return previous


def _is_int(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return (
        digits.isascii()
        and digits.isdigit()
        and (digits == "0" or digits[0] != "0")
        and len(digits) <= 9
    )


def parse_record(text: str) -> GameRecord:
    r"""The record written `text` by `format_record` (strict: the canonical form only).

    The moves are checked for form (and cards in play), not for legality: `replay` does that.

    Raises:
        NotationError: Malformed text; the message gives the line and column.

    Examples:
        >>> record = parse_record('[Hatsuden "1"]\n[Rules "5/4/2/5/10/-/supply/retake/off"]\n'
        ...                       '[Seed "9"]\n[Result "*"]\n\n1. X S1, DD\n')
        >>> record.seed, [format_move(m) for m in record.moves]
        (9, ['X S1', 'DD'])
    """
    if type(text) is not str:
        raise InvalidInputError("record", f"expected a str, got {type(text).__name__}")
    return _TextReader(text).record()


# -- JSON -----------------------------------------------------------------------------------------


def record_body(record: GameRecord) -> dict[str, Any]:
    """The fields of a record document (see `hatsuden_rules.serialization`)."""
    result = record.result
    return {
        "rules": rules_body(record.rules),
        "seed": None if record.seed is None else str(record.seed),
        "players": None if record.players is None else list(record.players),
        "moves": [format_move(move) for move in record.moves],
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "decided_by": result.decided_by.value,
            "totals": list(result.totals),
            "end_reason": result.end_reason.value,
        },
    }


def read_record(r: Reader, value: object, path: str) -> GameRecord:
    """A record body (see `hatsuden_rules.serialization.from_json`)."""
    o = r.obj(value, path, ("rules", "seed", "players", "moves", "result"))
    rules = r.rules(o["rules"], f"{path}.rules")
    seed = r.optional(o["seed"], lambda v: r.u64(v, f"{path}.seed"))

    def names(v: object) -> tuple[str, str]:
        first, second = r.pair(v, f"{path}.players", r.str_)
        for k, name in enumerate((first, second)):
            if not _is_name(name):
                r.fail(f"{path}.players[{k}]", f"a name has 1 to {_MAX_NAME} printable characters")
        return (first, second)

    def result(v: object) -> GameResult:
        at = f"{path}.result"
        o = r.obj(v, at, ("winner", "decided_by", "totals", "end_reason"))
        totals = r.pair(o["totals"], f"{at}.totals", lambda t, a: r.int_(t, a, -(10**9), 10**9))
        try:
            return GameResult(
                winner=r.player(o["winner"], f"{at}.winner"),
                decided_by=r.enum(o["decided_by"], f"{at}.decided_by", Decision),
                totals=totals,
                end_reason=r.enum(o["end_reason"], f"{at}.end_reason", EndReason),
            )
        except InvalidInputError as error:
            r.fail(f"{at}.{error.field}", str(error).split(": ", 1)[1])

    players = r.optional(o["players"], names)
    moves_raw = r.list_(o["moves"], f"{path}.moves")
    moves = tuple(r.move(m, f"{path}.moves[{k}]", rules) for k, m in enumerate(moves_raw))
    stated = r.optional(o["result"], result)
    try:
        return GameRecord(rules=rules, seed=seed, moves=moves, players=players, result=stated)
    except InvalidInputError as error:
        r.fail(json_path(path, (error.field,)), str(error).split(": ", 1)[1])


# Their public home (pickles and the API docs name it).
ReplayError.__module__ = GameResult.__module__ = GameRecord.__module__ = "hatsuden_rules.records"
