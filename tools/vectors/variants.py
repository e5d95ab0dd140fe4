"""The vectors of the rule variants (R40, R41) and of the printed rules alone (R25, R31).

They are generated apart from the rest of the suite, from games of their own, and appended at
the end of each group: adding them changed no vector that existed before (the printed game's
vectors are byte for byte those of 0.2.0). The same group builders make them; on top, every
OVERFLOW state met is asked every FlipSet of its row (legal or not, under both options), and
the invalid group gets the notation and JSON of the variant options and of FlipSet.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable, Iterator, Sequence
from types import MappingProxyType
from typing import Final

import attrs

from hatsuden_rules._core.apply import apply
from hatsuden_rules._core.cards import Cell, Tech
from hatsuden_rules._core.errors import IllegalMoveError
from hatsuden_rules._core.legal import legal_moves
from hatsuden_rules._core.moves import (
    Construct,
    Deal,
    DealTech,
    Discard,
    DrawFromDeck,
    DrawTech,
    EndTurn,
    Flip,
    FlipSet,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules._core.rng import SplitMix64
from hatsuden_rules._core.rules import PRINTED, STANDARD, Overflow, Rules, TechTiming
from hatsuden_rules._core.state import GameState, Phase
from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.notation import (
    TECH_CODES,
    NotationError,
    format_rules,
    format_seen_move,
    parse_state,
)
from hatsuden_rules.observation import Concealed, observe, sample_state
from hatsuden_rules.serialization import to_dict, to_json
from tools.vectors.core import (
    _game_seeds,
    _legal_key,
    _legal_moves_vector,
    _legal_moves_vectors,
    _observation_vectors,
    _path_counts,
    _perft_vector,
    _pick,
    _reason_shape,
    _seeded_game_vectors,
    _shuffled,
    _state_flags,
    _state_refs,
    _transition_vector,
    format_state,
)
from tools.vectors.games import Ply, play_game
from tools.vectors.invalid import _dump, _json_vector, _notation_vector

__all__ = ["VARIANT_RULE_SETS", "variant_vectors"]

#: The rule sets of the variant vectors: each option on the printed game, the printed rules
#: alone, and reduced games where overflows and tech draws come often.
VARIANT_RULE_SETS: Final = MappingProxyType(
    {
        "place-at-once": Rules(tech_timing=TechTiming.PLACE_AT_ONCE),
        "any-set": Rules(overflow=Overflow.ANY_SET),
        "printed": PRINTED,
        "mini-any-set": Rules(
            energies=3,
            max_value=3,
            copies=2,
            hand_size=3,
            city_demand=4,
            stall_limit=6,
            overflow=Overflow.ANY_SET,
        ),
        "mini-place-at-once": Rules(
            energies=3,
            max_value=2,
            copies=2,
            hand_size=2,
            city_demand=3,
            stall_limit=6,
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
    }
)

#: The reduced any-set game with the default overflow: FlipSet is illegal there (R41).
_MINI_ONE_AT_A_TIME: Final = Rules(
    energies=3, max_value=3, copies=2, hand_size=3, city_demand=4, stall_limit=6
)


def _games(count: int, seeded: bool, offset: int) -> Iterator[tuple[str, int | None, list[Ply]]]:
    for name, rules in VARIANT_RULE_SETS.items():
        seeds = _game_seeds(name, count)
        for k in range(count):
            seed = seeds[k] if seeded else None
            yield name, seed, list(play_game(rules, seed, policy_seed=offset + 1000 * k))


def _row_cells(state: GameState) -> list[Cell]:
    played = state.played_cell
    assert played is not None
    return [cell for cell in state.rules.cells if cell.row == played.row]


def _flip_set_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Every FlipSet of the overflowing row, in OVERFLOW states of either option (R21, R41)."""
    for state in states:
        cells = _row_cells(state)
        for size in range(1, len(cells) + 1):
            for combo in itertools.combinations(cells, size):
                yield _transition_vector(state, FlipSet(combo))


def _illegal_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Moves the variants forbid, two per phase, kind and reason (R40, R41).

    Anything but an owed placement (R40), Flip under ANY_SET, FlipSet under ONE_AT_A_TIME and
    a FlipSet that does not suffice (R41).
    """
    tried: list[tuple[Hashable, GameState, Move]] = []
    for state in states[:400]:
        if state.phase is Phase.OVERFLOW:
            candidates: list[Move] = [Flip(cell) for cell in _row_cells(state)]
            candidates += [FlipSet((cell,)) for cell in _row_cells(state)]
        elif state.phase in (Phase.ACTION, Phase.DRAW):
            hand = state.hand(state.current_player)
            candidates = [DrawFromDeck(), EndTurn(), *(Discard(card) for card in hand[:1])]
        else:
            continue
        legal = set(legal_moves(state))
        for move in candidates:
            if move in legal:
                continue
            try:
                apply(state, move)
            except IllegalMoveError as error:
                if error.rule in ("R40", "R41"):
                    key = (
                        state.phase,
                        type(move).__name__,
                        error.rule,
                        _reason_shape(error.reason),
                    )
                    tried.append((key, state, move))
    for _, state, move in _pick(tried, lambda item: item[0], 2):
        yield _transition_vector(state, move)


def _overflow_states(rules: Rules, count: int) -> list[GameState]:
    """The first OVERFLOW state of each of the first `count` seeded games that reach one."""
    found: list[GameState] = []
    for seed in range(10_000):
        if len(found) >= count:
            break
        for ply in play_game(rules, seed, policy_seed=seed):
            if ply.before.phase is Phase.OVERFLOW:
                found.append(ply.before)
                break
    return found


def variant_vectors() -> list[Vector]:
    """The variant vectors of every group, in a fixed order (see the module docstring)."""
    seeded = list(_games(2, seeded=True, offset=41))
    explicit = list(_games(2, seeded=False, offset=42))
    plies = _shuffled([ply for _, _, game in seeded + explicit for ply in game], 7)
    finals = [game[-1].after for _, _, game in seeded + explicit]
    states = list(dict.fromkeys(_shuffled([ply.before for ply in plies[:2000]] + finals, 8)))
    # Scoring is the same under every option: the score group needs no variant states. The
    # observations matter where a tech card may be owed (R38 samples the opponent's tech hand).
    owing = [s for s in states if s.rules.tech_timing is TechTiming.PLACE_AT_ONCE]

    vectors: list[Vector] = []
    vectors += _seeded_game_vectors(seeded)
    vectors += [_transition_vector(p.before, p.move) for p in _pick(plies, _legal_key, 3)]
    vectors += _illegal_vectors(states)
    overflows = _overflow_states(VARIANT_RULE_SETS["mini-any-set"], 3)
    overflows += _overflow_states(VARIANT_RULE_SETS["any-set"], 1)
    overflows += _overflow_states(_MINI_ONE_AT_A_TIME, 1)
    vectors += _flip_set_vectors(overflows)
    vectors += _legal_moves_vectors(states)
    vectors += _observation_vectors(owing)
    vectors += _perft_vectors(states)
    vectors += _invalid_vectors(states)
    # Issue 23 §4.1 and §4.10; a vector already made above is kept as it was.
    made = {v.id for v in vectors}
    later = [*_r40_order_vectors(seeded + explicit), *_concealed_tech_vectors(seeded + explicit)]
    vectors += [v for v in later if v.id not in made]
    return list({v.id: v for v in vectors}.values())


def _perft_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Move paths from states where a variant decides the next moves (R40, R41)."""
    owed = [
        s
        for s in states
        if s.phase in (Phase.OVERFLOW, Phase.DRAW)
        and s.rules.tech_timing is TechTiming.PLACE_AT_ONCE
        and legal_moves(s)
        and all(isinstance(m, PlaceAccumulator | PlaceSmart) for m in legal_moves(s))
    ][:2]
    sets = [
        s for s in states if s.phase is Phase.OVERFLOW and s.rules.overflow is Overflow.ANY_SET
    ][:2]
    for state in owed + sets:
        depth = 2 if state.rules.energies * state.rules.copies > 8 else 3
        yield _perft_vector(state, _path_counts(state, depth), True, f"{state.phase.name} state")


_VARIANT_RULES_TEXT: Final = (
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/keep", True, "the default keep written"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/one_at_a_time", True, "default overflow"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set/place_at_once", True, "order"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set/any_set", True, "twice"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/anyset", True, "misspelt variant"),
    ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off/ANY_SET", True, "upper case"),
)

_FLIP_SET_TEXT: Final = (
    ("FS 0S+0G", "canonical"),
    ("FS 1B", "one cell"),
    ("FS 0G+0S", "cells out of order"),
    ("FS 0S+0S", "a cell twice"),
    ("FS", "no cell"),
    ("FS 0S+", "a trailing +"),
    ("FS 0S 0G", "a space between cells"),
    ("FS 0S,0G", "a comma between cells"),
    ("fs 0S", "lower-case verb"),
)


def _invalid_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    produced: list[Vector | None] = []
    for rules in VARIANT_RULE_SETS.values():
        produced.append(_notation_vector("rules", format_rules(rules), None, True, "variant"))
        produced.append(_json_vector("rules", to_json(rules), True, "variant rules"))
    for text, syntax, note in _VARIANT_RULES_TEXT:
        produced.append(_notation_vector("rules", text, None, syntax, f"rules, {note}"))
    for text, note in _FLIP_SET_TEXT:
        for rules in (VARIANT_RULE_SETS["any-set"], STANDARD):
            produced.append(_notation_vector("move", text, rules, True, f"FlipSet, {note}"))
    document = to_dict(VARIANT_RULE_SETS["any-set"])
    for key, value, note in (
        ("overflow", "any", "unknown overflow"),
        ("overflow", "ANY_SET", "overflow in upper case"),
        ("tech_timing", True, "tech_timing as a boolean"),
        ("tech_timing", "keep", "the default written out"),
        ("overflow", None, "null overflow"),
    ):
        produced.append(_json_vector("rules", _dump(document | {key: value}), True, note))
    owed = [s for s in states if s.rules.tech_timing is TechTiming.PLACE_AT_ONCE][:2]
    for state in owed:
        produced.append(_json_vector("state", to_json(state), True, "state", state.rules))
    yield from (v for v in produced if v is not None)


# -- R40's place in the order of checks (R35), phase by phase (issue 23 §4.1) ------------------


def _holding(state: GameState, tech: Tech) -> GameState:
    """`state` with `tech` moved from the tech deck into the mover's tech hand (hand-written)."""
    text = format_state(state)
    deck = re.search(r" tech_deck=(\S+)", text)
    hands = re.search(r" tech_hands=(\S+)", text)
    assert deck is not None
    assert hands is not None
    code = TECH_CODES[tech]
    left = [c for c in deck[1].split(",") if c != code]
    assert len(left) < len(deck[1].split(",")), f"{code} is not in the tech deck"
    seats = [[c for c in h.split(",") if c != "-"] for h in hands[1].split("/")]
    seats[state.current_player] = sorted(
        [*seats[state.current_player], code], key=list(TECH_CODES.values()).index
    )
    text = text.replace(deck[0], f" tech_deck={','.join(left) or '-'}", 1)
    text = text.replace(hands[0], " tech_hands=" + "/".join(",".join(h) or "-" for h in seats), 1)
    return parse_state(text)


#: Per phase, the moves tried with an ACCUMULATOR held under PLACE_AT_ONCE, and why each
#: (RULES.md R35: R26, then R40 in ACTION, OVERFLOW and DRAW only, then the phase, then the
#: move's own conditions).
_R40_WHY: Final = {
    Phase.ACTION: "R40 applies in ACTION, before the phase check",
    Phase.OVERFLOW: "R40 applies in OVERFLOW, before the phase check",
    Phase.DRAW: "R40 applies in DRAW, before the phase check",
    Phase.TECH: "R40 is not checked in TECH: the phase check decides",
    Phase.CHANCE: "R40 is not checked in CHANCE: the phase check decides",
    Phase.GAME_OVER: "R26 comes before R40",
}


def _r40_moves(state: GameState) -> list[Move]:
    """A move of every other phase, a chance outcome, the owed placement and the one not held."""
    rules = state.rules
    hand = state.hand(state.current_player)
    card = hand[0] if hand else rules.cards[0]
    # A cell of the overflowing row that holds a plant (a Flip R21 allows there), if any.
    board = state.board(state.current_player)
    row = state.played_cell.row if state.played_cell is not None else 0
    plants = [
        c
        for c, stack in zip(rules.cells, board, strict=True)
        if c.row == row and stack is not None and not stack.face_down
    ]
    cell = plants[0] if plants else rules.cells[0]
    return [
        DrawFromDeck(),  # a DRAW move
        Discard(card),  # a DRAW move
        Flip(cell),  # an OVERFLOW move
        DrawTech(),  # a TECH move
        Construct(card, cell),  # an ACTION move
        Pass(),  # an ACTION move
        EndTurn(),  # a DRAW move
        Deal(card),  # a chance outcome
        DealTech(Tech.SMART),  # a chance outcome
        PlaceAccumulator(0),  # the owed placement: never refused by R40 (R18 decides)
        PlaceSmart(rules.energies_in_play[0]),  # not held: R18
    ]


def _r40_order_vectors(games: Sequence[tuple[str, int | None, list[Ply]]]) -> Iterator[Vector]:
    """R40 in R35's order of checks, in every phase: ACCUMULATOR held under PLACE_AT_ONCE.

    In OVERFLOW and DRAW the card is held after a real DealTech; in ACTION, TECH, CHANCE and
    GAME_OVER only a hand-written state holds it (the card moved from the tech deck). Each state
    is asked a move of every phase and both placements, and its legal moves.
    """
    wanted = [Phase.ACTION, Phase.OVERFLOW, Phase.DRAW, Phase.TECH, Phase.CHANCE, Phase.GAME_OVER]
    natural: dict[tuple[Phase, bool], GameState] = {}
    written: dict[tuple[Phase, bool], GameState] = {}
    for name, seed, game in games:
        if name not in {"mini-place-at-once", "place-at-once"}:
            continue
        for ply in game:
            for state in (ply.before, ply.after):
                key = (state.phase, seed is None)
                if Tech.ACCUMULATOR in state.tech_hand(state.current_player):
                    if state.phase in (Phase.OVERFLOW, Phase.DRAW):
                        natural.setdefault(key, state)
                elif key not in written and Tech.ACCUMULATOR in state.tech_deck:
                    try:  # the consistency conditions refuse some (a tech card in the deal)
                        written[key] = _holding(state, Tech.ACCUMULATOR)
                    except NotationError:
                        continue
    for phase in wanted:
        for explicit in (False, True):
            # OVERFLOW and DRAW hold it after a real DealTech where the games met one.
            chosen = natural.get((phase, explicit)) or written.get((phase, explicit))
            if chosen is None or (phase is Phase.GAME_OVER and explicit):
                continue
            state = chosen
            moves = _r40_moves(state)
            if phase is Phase.GAME_OVER:
                moves = [moves[0], moves[7], moves[9]]  # a draw, a deal, the placement: R26
            for move in moves:
                vector = _transition_vector(state, move)
                yield attrs.evolve(vector, comment=f"{_R40_WHY[phase]}: {vector.comment}")
            if phase is not Phase.GAME_OVER:
                yield _legal_moves_vector(state)


# -- R38: filling a concealed =??? with PLACE_AT_ONCE (issue 23 §4.10) --------------------------


def _fill_case(state: GameState, sampled: GameState, player: int) -> str | None:
    """Which of R38's ways (a)-(d) filled the first concealed DealTech `player` sees, or None."""
    seen = observe(state, player)
    opponent = 1 - player
    at_once = state.rules.tech_timing is TechTiming.PLACE_AT_ONCE
    for seen_log, log in ((seen.this_turn, sampled.this_turn), (seen.last_turn, sampled.last_turn)):
        for k, move in enumerate(seen_log):
            if not (isinstance(move, Concealed) and move.move == "DealTech"):
                continue
            after = log[k + 1] if k + 1 < len(log) else None
            held = sampled.tech_hand(opponent)
            if at_once and isinstance(after, PlaceAccumulator | PlaceSmart):
                return "a"
            if at_once and held & {Tech.ACCUMULATOR, Tech.SMART}:
                # "b2": SMART before a SECRET_BUILD that (c) would take (canonical order)
                return "b2" if Tech.SECRET_BUILD in held and Tech.ACCUMULATOR not in held else "b"
            return "c" if held else "d"
    return None


def _concealed_tech_vectors(
    games: Sequence[tuple[str, int | None, list[Ply]]],
) -> Iterator[Vector]:
    """`sample_state` of observations holding a concealed ``=???``, with PLACE_AT_ONCE.

    One vector per way R38 fills it: (a) the placement right after, (b) the owed card of the
    opponent's sampled tech hand, (c) that hand's first card, (d) a later move's card.
    """
    found: dict[str, tuple[GameState, int, int]] = {}
    placed: list[tuple[GameState, int]] = []
    for name, _seed, game in games:
        if name not in {"mini-place-at-once", "place-at-once"}:
            continue
        for ply in game:
            state = ply.after
            for player in (0, 1):
                seen = observe(state, player)
                if "=???" not in {format_seen_move(m) for m in (*seen.this_turn, *seen.last_turn)}:
                    continue
                for seed in range(1, 41):
                    case = _fill_case(state, sample_state(seen, SplitMix64.from_seed(seed)), player)
                    if case == "a":
                        placed.append((state, player))
                    if case is not None and case not in found:
                        found[case] = (state, player, seed)
    # With PLACE_AT_ONCE no game reaches (d): an ACCUMULATOR or SMART card is placed right after
    # its draw (a), and a SECRET_BUILD or DOWN card stays in the tech hand (b or c). The same
    # log under KEEP, where (a) and (b) do not apply, shows (d): the placement's card.
    for state, player in dict.fromkeys(placed):
        if "d" in found:
            break
        if state.tech_hand(1 - player):
            continue
        kept = parse_state(format_state(state).replace("/place_at_once", "", 1))
        for seed in range(1, 41):
            sampled = sample_state(observe(kept, player), SplitMix64.from_seed(seed))
            if _fill_case(kept, sampled, player) == "d":
                found["d"] = (kept, player, seed)
                break
    for case in sorted(found):
        state, player, seed = found[case]
        sampled = sample_state(observe(state, player), SplitMix64.from_seed(seed))
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=_state_refs(state) | {"R17", "R32", "R33", "R37", "R38", "R40"},
            flags=_state_flags(state) | {"SampleState"},
            comment=(
                f"R38 ({case[0]}): player {player}'s observation holds a concealed =???, filled "
                f"{_FILLED[case]}; generator seed {seed}"
            ),
            input={
                "kind": "sample_state",
                "state": format_state(state),
                "player": player,
                "seed": str(seed),
            },
            expected={"ok": True, "state": format_state(sampled)},
        )


_FILLED: Final = {
    "a": "with the card of the placement right after it",
    "b": "with the ACCUMULATOR (else SMART) card of the opponent's sampled tech hand",
    "b2": "with the SMART card of the opponent's sampled tech hand, not its first (SEC)",
    "c": "with the first card of the opponent's sampled tech hand",
    "d": "with the card of the first later move that uses a tech card (here KEEP: no game with "
    "PLACE_AT_ONCE reaches (d), its placements come right after the draw)",
}
