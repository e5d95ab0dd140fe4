"""Reading JSON documents: strict JSON, typed accessors, and the reader of each body.

Loading never executes anything and never trusts its input: every failure raises
`InvalidDocumentError` (a `ValueError`) whose `field` is the JSON path of the problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn, TypeVar

from hatsuden_rules._positions import (
    U64,
    Path,
    Problem,
    StateParts,
    build_observation,
    build_state,
    check_rules,
    make_rules,
)
from hatsuden_rules.core.cards import ROWS, Card, Cell, Energy, Tech
from hatsuden_rules.core.enums import GameEnum
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rules import Overflow, Rules, TechTiming, Tiebreak
from hatsuden_rules.core.scoring import Decision, PlayerScore, Score
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase, Stack
from hatsuden_rules.notation._scan import parse_card, parse_cell, parse_move
from hatsuden_rules.observation._observe import Concealed, Observation, SeenMove, SeenStack

__all__ = ["InvalidDocumentError", "Reader", "json_path", "load_json"]

_T = TypeVar("_T")
_E = TypeVar("_E", bound=GameEnum)


class InvalidDocumentError(InvalidInputError):
    """A malformed or inconsistent JSON document.

    Attributes:
        field: The JSON path of the problem, e.g. ``$.boards[0][3].cards[1]`` (``$`` for the
            document itself).
    """


def load_json(text: str | bytes) -> object:
    """Parse JSON text strictly: no NaN or Infinity, no duplicate keys, bounded nesting.

    Raises:
        InvalidDocumentError: With path ``$``.
    """
    if not isinstance(text, str | bytes):
        raise InvalidDocumentError("$", f"expected JSON text, got {type(text).__name__}")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:
        raise InvalidDocumentError("$", "JSON nested too deeply") from None
    except _DuplicateKeyError as error:
        raise InvalidDocumentError("$", f"duplicate key {error.args[0]!r}") from None
    except ValueError as error:  # JSONDecodeError, bad UTF-8, integers too long to convert
        raise InvalidDocumentError("$", f"not JSON: {error}") from None


class _DuplicateKeyError(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def json_path(base: str, path: Path) -> str:
    """``$`` plus a `Problem` path: ``("hands", 1, 3)`` is ``$.hands[1][3]``."""
    out = base
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


class Reader:
    """Typed accessors over untrusted JSON values; every failure names its JSON path."""

    def fail(self, path: str, message: str) -> NoReturn:
        """Raise `InvalidDocumentError` at `path`."""
        raise InvalidDocumentError(path, message)

    def obj(
        self, value: object, path: str, keys: Sequence[str], optional: Sequence[str] = ()
    ) -> dict[str, Any]:
        """An object with exactly these keys, and perhaps some of the `optional` ones."""
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, got {_kind(value)}")
        for key in keys:
            if key not in value:
                self.fail(path, f"missing key {key!r}")
        for key in value:
            if key not in keys and key not in optional:
                self.fail(f"{path}.{key}", f"unknown key {key!r}")
        return value

    def list_(self, value: object, path: str, length: int | None = None) -> list[Any]:
        """An array, of exactly `length` items if given."""
        if not isinstance(value, list):
            self.fail(path, f"expected an array, got {_kind(value)}")
        if length is not None and len(value) != length:
            self.fail(path, f"expected {length} items, got {len(value)}")
        return value

    def int_(
        self, value: object, path: str, low: int | None = None, high: int | None = None
    ) -> int:
        """An integer (not a boolean, not a float) in ``[low, high]``."""
        if type(value) is not int:
            self.fail(path, f"expected an integer, got {_kind(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"[{'' if low is None else low}, {'' if high is None else high}]"
            self.fail(path, f"{value} is out of range {bounds}")
        return value

    def bool_(self, value: object, path: str) -> bool:
        """A boolean."""
        if type(value) is not bool:
            self.fail(path, f"expected a boolean, got {_kind(value)}")
        return value

    def str_(self, value: object, path: str) -> str:
        """A string."""
        if type(value) is not str:
            self.fail(path, f"expected a string, got {_kind(value)}")
        return value

    def enum(self, value: object, path: str, kind: type[_E]) -> _E:
        """A member of `kind` written by its value."""
        for member in kind:
            if member.value == value:
                return member
        names = ", ".join(str(m.value) for m in kind)
        raise InvalidDocumentError(path, f"expected one of {names}, got {value!r}")

    def optional(self, value: object, read: Callable[[object], _T]) -> _T | None:
        """None for null, else `read(value)`."""
        return None if value is None else read(value)

    def player(self, value: object, path: str) -> int:
        """0 or 1."""
        return self.int_(value, path, 0, ROWS - 1)

    def u64(self, value: object, path: str) -> int:
        """A 64-bit unsigned integer written as a decimal string."""
        text = self.str_(value, path)
        if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
            self.fail(path, f"expected a decimal string without leading zeros, got {text!r}")
        if len(text) > 20 or int(text) >= U64:
            self.fail(path, "must be below 2**64 (R32)")
        return int(text)

    def _notation(self, path: str, parse: Callable[[str], _T], value: object) -> _T:
        text = self.str_(value, path)
        try:
            return parse(text)
        except InvalidInputError as error:
            message = str(error).split(": ", 1)[1]
            self.fail(path, message)

    def card(self, value: object, path: str) -> Card:
        """A card in notation (syntax only: `build_state` checks it is in play)."""
        return self._notation(path, lambda t: parse_card(t, None), value)

    def cell(self, value: object, path: str) -> Cell:
        """A cell in notation (syntax only)."""
        return self._notation(path, lambda t: parse_cell(t, None), value)

    def move(self, value: object, path: str, rules: Rules | None) -> Move:
        """A move in notation, in play under `rules` unless None."""
        return self._notation(path, lambda t: parse_move(t, rules), value)

    def cards(self, value: object, path: str) -> tuple[Card, ...]:
        """An array of cards."""
        items = self.list_(value, path)
        return tuple(self.card(item, f"{path}[{k}]") for k, item in enumerate(items))

    def techs(self, value: object, path: str) -> tuple[Tech, ...]:
        """An array of tech cards (order and duplicates are checked by the caller)."""
        items = self.list_(value, path)
        return tuple(self.enum(item, f"{path}[{k}]", Tech) for k, item in enumerate(items))

    def pair(self, value: object, path: str, read: Callable[[object, str], _T]) -> tuple[_T, _T]:
        """A two-item array, one item per player."""
        items = self.list_(value, path, 2)
        return (read(items[0], f"{path}[0]"), read(items[1], f"{path}[1]"))

    # -- documents ------------------------------------------------------------------------------

    def rules(self, value: object, path: str) -> Rules:
        """A rules body (R31)."""
        o = self.obj(value, path, _RULES_KEYS, _RULES_VARIANT_KEYS)
        techs = self.techs(o["techs"], f"{path}.techs")
        for k in range(1, len(techs)):
            if techs[k].index <= techs[k - 1].index:
                self.fail(f"{path}.techs[{k}]", "tech cards are listed once each, in order (R3)")
        fields = {
            key: self.int_(o[key], f"{path}.{key}", 1, 10**9)
            for key in ("energies", "max_value", "copies", "hand_size", "city_demand")
        }
        # Read these before the try: their own errors already carry their JSON path.
        tiebreak = self.enum(o["tiebreak"], f"{path}.tiebreak", Tiebreak)
        retake = self.bool_(o["allow_retake_discard"], f"{path}.allow_retake_discard")
        stall_limit = self.optional(
            o["stall_limit"], lambda v: self.int_(v, f"{path}.stall_limit", 1, 10**9)
        )
        # R40, R41: absent (every document of earlier versions) means the default.
        tech_timing = self.enum(
            o.get("tech_timing", TechTiming.KEEP.value), f"{path}.tech_timing", TechTiming
        )
        overflow = self.enum(
            o.get("overflow", Overflow.ONE_AT_A_TIME.value), f"{path}.overflow", Overflow
        )
        try:
            rules = make_rules(
                fields["energies"],
                fields["max_value"],
                fields["copies"],
                fields["hand_size"],
                fields["city_demand"],
                frozenset(techs),
                tiebreak,
                retake,
                stall_limit,
                tech_timing,
                overflow,
            )
            return check_rules(rules, ("copies",))
        except InvalidInputError as error:
            self.fail(f"{path}.{error.field}", str(error).split(": ", 1)[1])
        except Problem as problem:
            self.fail(json_path(path, problem.path), problem.message)

    def stack(self, value: object, path: str) -> Stack | None:
        """A stack object or null."""
        if value is None:
            return None
        o = self.obj(value, path, ("cards", "face_down", "flipped", "secret", "downsized"))
        return Stack(
            self.cards(o["cards"], f"{path}.cards"),
            self.bool_(o["face_down"], f"{path}.face_down"),
            self.bool_(o["flipped"], f"{path}.flipped"),
            self.bool_(o["secret"], f"{path}.secret"),
            self.bool_(o["downsized"], f"{path}.downsized"),
        )

    def state(self, value: object, path: str) -> GameState:
        """A state body, checked for consistency (see `hatsuden_rules.notation.parse_state`)."""
        o = self.obj(value, path, _STATE_KEYS)
        rules = self.rules(o["rules"], f"{path}.rules")
        width = len(rules.cells)

        def board(v: object, at: str) -> tuple[Stack | None, ...]:
            cells = self.list_(v, at, width)
            return tuple(self.stack(c, f"{at}[{k}]") for k, c in enumerate(cells))

        def moves(v: object, at: str) -> tuple[Move, ...]:
            items = self.list_(v, at)
            return tuple(self.move(m, f"{at}[{k}]", None) for k, m in enumerate(items))

        def accumulator(v: object) -> tuple[int, int]:
            a = self.obj(v, f"{path}.accumulator", ("player", "row"))
            return (
                self.player(a["player"], f"{path}.accumulator.player"),
                self.player(a["row"], f"{path}.accumulator.row"),
            )

        parts = StateParts(
            rules=rules,
            phase=self.enum(o["phase"], f"{path}.phase", Phase),
            current_player=self.player(o["current_player"], f"{path}.current_player"),
            hands=self.pair(o["hands"], f"{path}.hands", self.cards),
            deck=self.cards(o["deck"], f"{path}.deck"),
            discards=self.cards(o["discards"], f"{path}.discards"),
            boards=self.pair(o["boards"], f"{path}.boards", board),
            tech_deck=self.techs(o["tech_deck"], f"{path}.tech_deck"),
            tech_hands=self.pair(o["tech_hands"], f"{path}.tech_hands", self.techs),
            accumulator=self.optional(o["accumulator"], accumulator),
            smart=self.optional(o["smart"], lambda v: self.enum(v, f"{path}.smart", Energy)),
            played_cell=self.optional(
                o["played_cell"], lambda v: self.cell(v, f"{path}.played_cell")
            ),
            turn_discard=self.optional(
                o["turn_discard"], lambda v: self.card(v, f"{path}.turn_discard")
            ),
            pending_chance=self.optional(
                o["pending_chance"], lambda v: self.enum(v, f"{path}.pending_chance", Chance)
            ),
            stall_count=self.int_(o["stall_count"], f"{path}.stall_count", 0, 10**9),
            end_triggered_by=self.optional(
                o["end_triggered_by"], lambda v: self.player(v, f"{path}.end_triggered_by")
            ),
            end_reason=self.optional(
                o["end_reason"], lambda v: self.enum(v, f"{path}.end_reason", EndReason)
            ),
            rng_state=self.optional(o["rng_state"], lambda v: self.u64(v, f"{path}.rng_state")),
            known_cards=self.pair(o["known_cards"], f"{path}.known_cards", self.cards),
            this_turn=moves(o["this_turn"], f"{path}.this_turn"),
            last_turn=moves(o["last_turn"], f"{path}.last_turn"),
        )
        try:
            return build_state(parts)
        except Problem as problem:
            self.fail(json_path(path, problem.path), problem.message)

    def seen_move(self, value: object, path: str) -> SeenMove:
        """A move as seen, in notation (``?`` for a hidden card)."""
        text = self.str_(value, path)
        if text == "=?":
            return Concealed("Deal")
        if text == "=???":
            return Concealed("DealTech")
        for verb, kind in (("P ? ", "BuildPylon"), ("C* ? ", "Construct")):
            if text.startswith(verb):
                cell = text[len(verb) :]
                return Concealed(kind, self._notation(path, lambda t: parse_cell(t, None), cell))
        return self.move(text, path, None)

    def observation(self, value: object, path: str) -> Observation:
        """An observation body, checked: what its player sees of some consistent state."""
        o = self.obj(value, path, _OBSERVATION_KEYS)
        rules = self.rules(o["rules"], f"{path}.rules")
        width = len(rules.cells)

        def stack(v: object, at: str) -> SeenStack | None:
            if v is None:
                return None
            s = self.obj(v, at, ("cards", "face_down", "flipped", "secret", "downsized"))
            cards = self.list_(s["cards"], f"{at}.cards")
            return SeenStack(
                tuple(
                    None if c is None else self.card(c, f"{at}.cards[{k}]")
                    for k, c in enumerate(cards)
                ),
                self.bool_(s["face_down"], f"{at}.face_down"),
                self.bool_(s["flipped"], f"{at}.flipped"),
                self.bool_(s["secret"], f"{at}.secret"),
                self.bool_(s["downsized"], f"{at}.downsized"),
            )

        def board(v: object, at: str) -> tuple[SeenStack | None, ...]:
            cells = self.list_(v, at, width)
            return tuple(stack(c, f"{at}[{k}]") for k, c in enumerate(cells))

        def moves(v: object, at: str) -> tuple[SeenMove, ...]:
            items = self.list_(v, at)
            return tuple(self.seen_move(m, f"{at}[{k}]") for k, m in enumerate(items))

        def accumulator(v: object) -> tuple[int, int]:
            a = self.obj(v, f"{path}.accumulator", ("player", "row"))
            return (
                self.player(a["player"], f"{path}.accumulator.player"),
                self.player(a["row"], f"{path}.accumulator.row"),
            )

        tech_hand = self.techs(o["tech_hand"], f"{path}.tech_hand")
        for k in range(1, len(tech_hand)):
            if tech_hand[k].index <= tech_hand[k - 1].index:
                self.fail(f"{path}.tech_hand[{k}]", "tech cards are listed once each, in order")
        limit = 10**9
        seen = Observation(
            rules,
            self.player(o["player"], f"{path}.player"),
            self.enum(o["phase"], f"{path}.phase", Phase),
            self.player(o["current_player"], f"{path}.current_player"),
            self.cards(o["hand"], f"{path}.hand"),
            frozenset(tech_hand),
            self.cards(o["known_to_opponent"], f"{path}.known_to_opponent"),
            self.cards(o["opponent_known"], f"{path}.opponent_known"),
            self.int_(o["opponent_hand_size"], f"{path}.opponent_hand_size", 0, limit),
            self.int_(o["opponent_tech_hand_size"], f"{path}.opponent_tech_hand_size", 0, limit),
            self.int_(o["deck_size"], f"{path}.deck_size", 0, limit),
            self.int_(o["tech_deck_size"], f"{path}.tech_deck_size", 0, limit),
            self.cards(o["discards"], f"{path}.discards"),
            self.pair(o["boards"], f"{path}.boards", board),
            self.optional(o["accumulator"], accumulator),
            self.optional(o["smart"], lambda v: self.enum(v, f"{path}.smart", Energy)),
            self.optional(o["played_cell"], lambda v: self.cell(v, f"{path}.played_cell")),
            self.optional(o["turn_discard"], lambda v: self.card(v, f"{path}.turn_discard")),
            self.optional(
                o["pending_chance"], lambda v: self.enum(v, f"{path}.pending_chance", Chance)
            ),
            self.int_(o["stall_count"], f"{path}.stall_count", 0, limit),
            self.optional(
                o["end_triggered_by"], lambda v: self.player(v, f"{path}.end_triggered_by")
            ),
            self.optional(o["end_reason"], lambda v: self.enum(v, f"{path}.end_reason", EndReason)),
            moves(o["this_turn"], f"{path}.this_turn"),
            moves(o["last_turn"], f"{path}.last_turn"),
        )
        try:
            return build_observation(seen)
        except Problem as problem:
            self.fail(json_path(path, problem.path), problem.message)

    def score(self, value: object, path: str) -> Score:
        """A score body, checked for consistency (R27-R29)."""
        o = self.obj(value, path, ("players", "winner", "decided_by", "energy_winners", "smart"))
        winners_raw = self.list_(o["energy_winners"], f"{path}.energy_winners")
        width = len(winners_raw)
        if not 1 <= width <= len(Energy):
            self.fail(f"{path}.energy_winners", f"one item per energy in play (1 to {len(Energy)})")
        energy_winners = tuple(
            None if w is None else self.player(w, f"{path}.energy_winners[{k}]")
            for k, w in enumerate(winners_raw)
        )
        smart = self.optional(o["smart"], lambda v: self.enum(v, f"{path}.smart", Energy))
        if smart is not None and smart.column >= width:
            self.fail(f"{path}.smart", f"{smart.value} is not an energy in play (R20)")

        def sheet(v: object, at: str) -> PlayerScore:
            s = self.obj(
                v, at, ("energy_points", "city_points", "total", "row_supply", "generation")
            )
            supply = self.list_(s["row_supply"], f"{at}.row_supply", 2)
            generation = self.list_(s["generation"], f"{at}.generation", width)
            sheet = PlayerScore(
                energy_points=self.int_(s["energy_points"], f"{at}.energy_points", 0, width + 1),
                city_points=self.int_(s["city_points"], f"{at}.city_points", -ROWS, ROWS),
                total=self.int_(s["total"], f"{at}.total"),
                row_supply=(
                    self.int_(supply[0], f"{at}.row_supply[0]", 0),
                    self.int_(supply[1], f"{at}.row_supply[1]", 0),
                ),
                generation=tuple(
                    self.int_(g, f"{at}.generation[{k}]", 0) for k, g in enumerate(generation)
                ),
            )
            if sheet.total != sheet.energy_points + sheet.city_points:
                self.fail(f"{at}.total", "total = energy_points + city_points (R29)")
            return sheet

        players = self.pair(o["players"], f"{path}.players", sheet)
        for e in range(width):  # R27
            a, b = players[0].generation[e], players[1].generation[e]
            if energy_winners[e] != (None if a == b else (0 if a > b else 1)):
                self.fail(f"{path}.energy_winners[{e}]", "the higher generation wins it (R27)")
        for p in (0, 1):
            points = sum(
                2 if smart is not None and smart.column == e else 1
                for e in range(width)
                if energy_winners[e] == p
            )
            if players[p].energy_points != points:
                self.fail(f"{path}.players[{p}].energy_points", f"is {points} (R20, R27)")
        winner = self.player(o["winner"], f"{path}.winner")
        decided_by = self.enum(o["decided_by"], f"{path}.decided_by", Decision)
        expected = _decide(players, decided_by)
        if expected is None:
            self.fail(f"{path}.decided_by", f"{decided_by.value} did not decide this score (R29)")
        if winner != expected:
            self.fail(f"{path}.winner", f"player {expected} wins this score (R29)")
        return Score(players, winner, decided_by, energy_winners, smart)


def _decide(players: tuple[PlayerScore, PlayerScore], decided_by: Decision) -> int | None:
    """The winner if `decided_by` can have decided these sheets (R29), else None."""
    a, b = players
    totals = (a.total, b.total)
    cities = (a.city_points, b.city_points)
    supplies = (sum(a.row_supply), sum(b.row_supply))
    if decided_by is Decision.TOTAL:
        return None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    if totals[0] != totals[1]:
        return None
    if decided_by is Decision.SECOND_PLAYER:
        return 1 if cities[0] == cities[1] or supplies[0] == supplies[1] else None
    pair = cities if decided_by is Decision.CITY_POINTS else supplies
    return None if pair[0] == pair[1] else (0 if pair[0] > pair[1] else 1)


_RULES_KEYS: Final = (
    "energies",
    "max_value",
    "copies",
    "hand_size",
    "city_demand",
    "techs",
    "tiebreak",
    "allow_retake_discard",
    "stall_limit",
)
#: Rules keys that may be left out (then the option is at its default, R40, R41).
_RULES_VARIANT_KEYS: Final = ("tech_timing", "overflow")
_OBSERVATION_KEYS: Final = (
    "rules",
    "player",
    "phase",
    "current_player",
    "hand",
    "tech_hand",
    "known_to_opponent",
    "opponent_known",
    "opponent_hand_size",
    "opponent_tech_hand_size",
    "deck_size",
    "tech_deck_size",
    "discards",
    "boards",
    "accumulator",
    "smart",
    "played_cell",
    "turn_discard",
    "pending_chance",
    "stall_count",
    "end_triggered_by",
    "end_reason",
    "this_turn",
    "last_turn",
)
_STATE_KEYS: Final = (
    "rules",
    "phase",
    "current_player",
    "hands",
    "deck",
    "discards",
    "boards",
    "tech_deck",
    "tech_hands",
    "accumulator",
    "smart",
    "played_cell",
    "turn_discard",
    "pending_chance",
    "stall_count",
    "end_triggered_by",
    "end_reason",
    "rng_state",
    "known_cards",
    "this_turn",
    "last_turn",
)


# The public error is documented (and pickled) under the module users import it from.
InvalidDocumentError.__module__ = "hatsuden_rules.serialization"
