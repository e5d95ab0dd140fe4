"""The generator of the conformance suite: every vector, built deterministically by the library.

`generate()` returns the vectors of every group in a fixed order; `generate.write_suite` writes
them as JSON Lines files with a manifest. Each vector's ``input`` is the adapter request to send
(plus ``id``, added by the runner) and ``expected`` the exact response (see CONFORMANCE.md),
except in ``seeded_games``, where the runner drives a whole game with ``new_game``, ``apply``
and ``score``.

The ``rule_refs`` of a vector are derived from what it exercises, never typed by hand: the rule
each move kind implements, the rule an `IllegalMoveError` names, the phases entered, turn and game
ends, the tech cards placed, the decision step of a score, the rules a parse error message cites.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, Final, TypeVar

from hatsuden_rules._core.apply import apply, new_game
from hatsuden_rules._core.cards import Tech
from hatsuden_rules._core.errors import IllegalMoveError
from hatsuden_rules._core.legal import chance_outcomes, legal_moves
from hatsuden_rules._core.moves import (
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
from hatsuden_rules._core.rng import SplitMix64, sample
from hatsuden_rules._core.rules import STANDARD, Rules, Tiebreak
from hatsuden_rules._core.scoring import Decision, score
from hatsuden_rules._core.state import Chance, EndReason, GameState, Phase
from hatsuden_rules.conformance._codec import fraction_text
from hatsuden_rules.conformance._vectors import GROUPS, Vector, make_vector
from hatsuden_rules.notation import format_move, format_observation, format_rules
from hatsuden_rules.notation import format_state as _format_state
from hatsuden_rules.observation import observation_tensor, observe, sample_state
from hatsuden_rules.serialization import to_dict
from tools.vectors.games import RULE_SETS, Ply, play_game
from tools.vectors.invalid import invalid_vectors

__all__ = ["core_vectors"]

_T = TypeVar("_T")
_MASK: Final = (1 << 64) - 1
#: JSON numbers are exact only below 2**53 in many languages; perft counts must stay below.
_MAX_EXACT: Final = 1 << 53

_KIND_RULES: Final[dict[type, tuple[str, ...]]] = {
    Construct: ("R10",),
    Improve: ("R12",),
    Downsize: ("R13",),
    BuildPylon: ("R14",),
    Discard: ("R15",),
    Pass: ("R16",),
    DrawTech: ("R17",),
    DeclineTech: ("R17",),
    Flip: ("R21",),
    FlipSet: ("R21", "R41"),
    DrawFromDeck: ("R22",),
    DrawFromDiscard: ("R22",),
    EndTurn: ("R22",),
    PlaceAccumulator: ("R18", "R19"),
    PlaceSmart: ("R18", "R20"),
    Deal: ("R6",),
    DealTech: ("R6", "R17"),
}
_GRID_MOVES: Final = (Construct, Improve, Downsize, BuildPylon, Flip, FlipSet)
_PHASE_RULES: Final[dict[Phase, tuple[str, ...]]] = {
    Phase.CHANCE: ("R6",),
    Phase.ACTION: ("R9",),
    Phase.TECH: ("R17",),
    Phase.OVERFLOW: ("R21",),
    Phase.DRAW: ("R22",),
    Phase.GAME_OVER: ("R26",),
}


# -- helpers -------------------------------------------------------------------------------------


def _shuffled(items: Sequence[_T], seed: int) -> list[_T]:
    """`items` in a deterministic pseudo-random order (Fisher-Yates over SplitMix64)."""
    out = list(items)
    rng = SplitMix64.from_seed(seed)
    for i in range(len(out) - 1, 0, -1):
        value, rng = rng.next()
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _pick(items: Iterable[_T], key: Callable[[_T], Hashable], per_key: int) -> list[_T]:
    """The first `per_key` items of each key, in the order of `items`."""
    seen: Counter[Hashable] = Counter()
    chosen = []
    for item in items:
        k = key(item)
        if seen[k] < per_key:
            seen[k] += 1
            chosen.append(item)
    return chosen


def _rules_flags(rules: Rules) -> set[str]:
    """``Standard``, ``Variant`` (one option of the printed game changed) or ``Reduced``."""
    if rules == STANDARD:
        return {"Standard"}
    options = set()
    if rules.tech_timing is not STANDARD.tech_timing:
        options.add("PlaceAtOnce")  # R40
    if rules.overflow is not STANDARD.overflow:
        options.add("AnySet")  # R41
    size = (rules.energies, rules.max_value, rules.copies, rules.hand_size, rules.city_demand)
    if size == (5, 4, 2, 5, 10):
        return {"Variant"} | options
    return {"Reduced"} | options


def _rules_refs(rules: Rules) -> set[str]:
    refs = set()
    if rules != STANDARD:
        refs.add("R31")
    if rules.energies < 5:
        refs.add("R1")
    if rules.techs != STANDARD.techs:
        refs.add("R3")
    if rules.tech_timing is not STANDARD.tech_timing:
        refs.add("R40")
    if rules.overflow is not STANDARD.overflow:
        refs.add("R41")
    return refs


def _state_flags(state: GameState) -> set[str]:
    flags = _rules_flags(state.rules)
    flags.add("Seeded" if state.is_seeded else "Explicit")
    if state.is_over:
        flags.add("GameOver")
    if state.phase is Phase.CHANCE:
        flags.add("Chance")
    for player in (0, 1):
        for stack in state.board(player):
            if stack is None:
                continue
            if stack.is_secret_plant:
                flags.add("SecretPlant")
            if stack.flipped:
                flags.add("FlippedStack")
            if stack.downsized:
                flags.add("Downsized")
    if state.accumulator is not None:
        flags.add("Accumulator")
    if state.smart is not None:
        flags.add("Smart")
    if state.end_triggered_by is not None and not state.is_over:
        flags.add("FinalTurn")
    if state.deck_size == 0:
        flags.add("EmptyDeck")
    if state.phase is Phase.ACTION and state.hand_size(state.current_player) == 0:
        flags.add("EmptyHand")
    return flags


def _state_refs(state: GameState, scoring: bool = False) -> set[str]:
    """The rules a state brings into play: its rule set, seeded mode, placed tech cards.

    The generator matters when moves are made (R8), the Smart card when scoring (R20), the
    Accumulator for both (tolerance, R19; and it does not change city points, R28).
    """
    refs = _rules_refs(state.rules)
    if state.is_seeded and not scoring:
        refs.add("R8")
    if state.accumulator is not None:
        refs.add("R19")
    if state.smart is not None and scoring:
        refs.add("R20")
    return refs


def _move_refs(state: GameState, move: Move) -> set[str]:
    refs = set(_KIND_RULES[type(move)])
    if isinstance(move, Construct) and move.secret:
        refs.add("R11")
    if isinstance(move, _GRID_MOVES):
        refs.add("R4")
    if isinstance(move, Improve | Downsize | Flip):
        stack = state.stack(state.current_player, move.cell)
        if stack is not None and stack.is_secret_plant:
            refs.add("R11")
    if isinstance(move, Deal):
        refs.add("R2")
        if state.pending_chance is Chance.SETUP:
            refs.add("R7")
        elif state.pending_chance is Chance.DRAW:
            refs.add("R22")
    if isinstance(move, DealTech):
        refs.add("R3")
    return refs


def _turn_ended(before: GameState, after: GameState) -> bool:
    """A turn has at least two moves (action and draw) and its log empties when it ends (R36)."""
    return bool(before.this_turn) and not after.this_turn


def _transition_refs_flags(
    before: GameState, move: Move, after: GameState
) -> tuple[set[str], set[str]]:
    refs = _state_refs(before) | _move_refs(before, move) | {"R36"}
    flags = _state_flags(before)
    if after.phase is not before.phase:
        refs.add("R9")
    if after.phase is Phase.TECH:
        refs.add("R17")
        flags.add("EntersTech")
    if after.phase is Phase.OVERFLOW and before.phase is not Phase.OVERFLOW:
        refs.add("R21")
        flags.add("EntersOverflow")
    if before.phase is Phase.OVERFLOW and after.phase is Phase.DRAW:
        refs.add("R21")
        flags.add("ResolvesOverflow")
    if before.is_seeded and isinstance(move, DrawFromDeck | DrawTech):
        refs |= {"R8", "R32", "R33"}
        flags.add("SeededChance")
    if _turn_ended(before, after):
        refs.add("R23")
        flags.add("EndsTurn")
        if after.stall_count > before.stall_count:
            refs.add("R25")
    if after.end_triggered_by is not None and before.end_triggered_by is None:
        refs.add("R24")
        flags.add("TriggersEnd")
    if after.is_over:
        refs.add("R26")
        flags.add("EndsGame")
        refs.add("R24" if after.end_reason is EndReason.FINAL_TURN else "R25")
    if after.known_cards(0) != before.known_cards(0) or after.known_cards(1) != before.known_cards(
        1
    ):
        flags.add("KnownCards")
    return refs, flags


def _move_text(move: Move) -> str:
    return format_move(move)


_STATE_TEXT: dict[GameState, str] = {}


def format_state(state: GameState) -> str:
    """`notation.format_state`, memoised: the same states recur across groups."""
    text = _STATE_TEXT.get(state)
    if text is None:
        text = _STATE_TEXT[state] = _format_state(state)
    return text


# -- rng ----------------------------------------------------------------------------------------


_RNG_SEEDS: Final = (
    0,
    1,
    2,
    -1,
    -2,
    42,
    2017,
    2026,
    (1 << 32) - 1,
    1 << 32,
    (1 << 63) - 1,
    1 << 63,
    -(1 << 63),
    _MASK,
    1 << 64,
    (1 << 64) + 5,
    -(1 << 64),
    -((1 << 64) + 3),
    (1 << 100) + 12345,
    -(10**30),
    0x9E3779B97F4A7C15,
    0x0123456789ABCDEF,
)


def _seed_flags(seed: int) -> set[str]:
    if seed < 0:
        return {"NegativeSeed"}
    if seed > _MASK:
        return {"LargeSeed"}
    return set()


def _rng_vectors() -> Iterator[Vector]:
    stream = SplitMix64.from_seed(20170)
    seeds = list(_RNG_SEEDS)
    for _ in range(28):
        value, stream = stream.next()
        seeds.append(value)
    for n, seed in enumerate(seeds):
        count = 1 + n % 12
        rng = SplitMix64.from_seed(seed)
        outputs = []
        for _ in range(count):
            value, rng = rng.next()
            outputs.append(str(value))
        yield make_vector(
            "rng",
            rules=None,
            refs={"R32"} | ({"R8"} if _seed_flags(seed) else set()),
            flags=_seed_flags(seed),
            comment=f"SplitMix64 seeded with {seed}: the first {count} outputs",
            input={"kind": "rng", "seed": str(seed), "count": count},
            expected={"ok": True, "outputs": outputs, "state": str(rng.state)},
        )
    weight_lists: list[list[int]] = [
        [1],
        [1, 1],
        [1, 3],
        [2, 3, 5],
        [0, 4, 0, 1],
        [5, 0],
        [0, 0, 7],
        [1] * 20,
        [2] * 20,
        [1, 2, 1, 2, 2, 1, 1, 2, 2, 2],
        [1, 1, 1, 1],
        [3, 2, 2, 1, 1, 1],
        [1 << 40, 1],
        [1, (1 << 62) - 1],
        [40],
    ]
    stream = SplitMix64.from_seed(33)
    for n in range(60):
        value, stream = stream.next()
        seed = _RNG_SEEDS[n % len(_RNG_SEEDS)] if n % 3 == 0 else value
        chosen = [weight_lists[(n * 7 + k * 3) % len(weight_lists)] for k in range(1 + n % 6)]
        rng = SplitMix64.from_seed(seed)
        picks = []
        for weights in chosen:
            index, rng = sample(weights, rng)
            picks.append(index)
        flags = _seed_flags(seed)
        if any(0 in weights for weights in chosen):
            flags.add("ZeroWeight")
        if any(sum(weights) >= 1 << 32 for weights in chosen):
            flags.add("LargeWeight")
        yield make_vector(
            "rng",
            rules=None,
            refs={"R32", "R33"} | ({"R8"} if _seed_flags(seed) else set()),
            flags=flags,
            comment=f"sampler (R33) from seed {seed}: {len(chosen)} draws, one next() each",
            input={"kind": "sample", "seed": str(seed), "weights": chosen},
            expected={"ok": True, "picks": picks, "state": str(rng.state)},
        )


# -- the games ------------------------------------------------------------------------------------


def _game_seeds(name: str, count: int) -> list[int]:
    digest = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")
    seeds = [digest + k for k in range(count)]
    seeds[0] = -seeds[0]  # one negative seed per rule set (R8: taken mod 2**64)
    return seeds


def _games(
    count: int, seeded: bool, policy_offset: int
) -> Iterator[tuple[str, int | None, list[Ply]]]:
    """`count` games per rule set, seeded or in explicit chance mode."""
    for name, rules in RULE_SETS.items():
        seeds = _game_seeds(name, count)
        for k in range(count):
            seed = seeds[k] if seeded else None
            plies = list(play_game(rules, seed, policy_seed=policy_offset + 1000 * k + len(name)))
            yield name, seed, plies


def _seeded_game_vectors(games: list[tuple[str, int | None, list[Ply]]]) -> Iterator[Vector]:
    for name, seed, plies in games:
        assert seed is not None
        rules = plies[0].before.rules
        first = new_game(seed, rules)
        assert first == plies[0].before
        refs = {"R5", "R7", "R8", "R9", "R23", "R26", "R27", "R28", "R29", "R32", "R33", "R36"}
        refs |= _rules_refs(rules)
        flags = _rules_flags(rules) | _seed_flags(seed)
        for ply in plies:
            r, f = _transition_refs_flags(ply.before, ply.move, ply.after)
            refs |= r
            flags |= f & {"EntersOverflow", "EntersTech", "Accumulator", "Smart", "SecretPlant"}
        last = plies[-1].after
        sheet = score(last)
        flags.add("FinalTurnEnd" if last.end_reason is EndReason.FINAL_TURN else "StallEnd")
        flags.add(_DECISION_FLAGS[sheet.decided_by])
        if sheet.decided_by is Decision.SECOND_PLAYER:
            refs.add("R5")
        yield make_vector(
            "seeded_games",
            rules=rules,
            refs=refs,
            flags=flags,
            comment=(
                f"{name} rules, seed {seed}: {len(plies)} moves, "
                f"{last.end_reason.value if last.end_reason else '?'} end, "
                f"player {sheet.winner} wins ({sheet.decided_by.value})"
            ),
            input={
                "kind": "game",
                "rules": format_rules(rules),
                "seed": str(seed),
                "moves": [_move_text(p.move) for p in plies],
            },
            expected={
                "states": [format_state(first)] + [format_state(p.after) for p in plies],
                "score": to_dict(sheet),
            },
        )


# -- transitions ----------------------------------------------------------------------------------


def _reason_shape(message: str) -> str:
    """An error message without its particulars (cards, cells, numbers): a bucket for variety."""
    shape = re.sub(r"\([^()]*\)", "", message)
    return re.sub(r"\b[A-Z][a-z]+\b|[A-Z]+\d|\d+", "#", shape)


def _candidate_moves(state: GameState) -> list[Move]:
    """Well-formed moves to try in `state`: every kind, the mover's cards and one more card."""
    rules = state.rules
    hand = list(dict.fromkeys(state.hand(state.current_player)))
    others = [card for card in rules.cards if card not in hand]
    cards = hand + others[:1] + others[-1:]
    moves: list[Move] = []
    for card in cards:
        for cell in rules.cells:
            moves += [
                Construct(card, cell),
                Construct(card, cell, secret=True),
                Improve(card, cell),
                Downsize(card, cell),
                BuildPylon(card, cell),
            ]
        moves += [Discard(card), DrawFromDiscard(card), Deal(card)]
    moves += [Flip(cell) for cell in rules.cells]
    moves += [Pass(), DrawTech(), DeclineTech(), DrawFromDeck(), EndTurn()]
    moves += [PlaceAccumulator(0), PlaceAccumulator(1)]
    moves += [PlaceSmart(energy) for energy in rules.energies_in_play]
    moves += [DealTech(tech) for tech in Tech if tech in rules.techs]
    return moves


def _transition_vector(before: GameState, move: Move) -> Vector:
    text = format_state(before)
    try:
        after = apply(before, move)
    except IllegalMoveError as error:
        refs = _state_refs(before) | _move_refs(before, move) | {error.rule, "R35"}
        flags = _state_flags(before) | {"Illegal"}
        if error.rule == "R9":
            flags.add("WrongPhase")
        return make_vector(
            "transitions",
            rules=before.rules,
            refs=refs,
            flags=flags,
            comment=str(error),
            input={"kind": "apply", "state": text, "move": _move_text(move)},
            expected={"ok": False, "error": {"type": "illegal_move", "rule": error.rule}},
        )
    refs, flags = _transition_refs_flags(before, move, after)
    return make_vector(
        "transitions",
        rules=before.rules,
        refs=refs,
        flags=flags,
        comment=f"{before.phase.name} -> {after.phase.name}: {type(move).__name__}",
        input={"kind": "apply", "state": text, "move": _move_text(move)},
        expected={"ok": True, "state": format_state(after)},
    )


def _legal_key(ply: Ply) -> Hashable:
    before, move, after = ply.before, ply.move, ply.after
    secret = isinstance(move, Construct) and move.secret
    return (
        frozenset(_rules_flags(before.rules)),
        before.is_seeded,
        before.phase,
        type(move).__name__,
        secret,
        before.pending_chance,
        after.phase,
        _turn_ended(before, after),
        after.end_reason,
        after.end_triggered_by is not None,
    )


def _transition_vectors(plies: list[Ply]) -> Iterator[Vector]:
    for ply in _pick(plies, _legal_key, 3):
        yield _transition_vector(ply.before, ply.move)
    # Illegal moves: every kind in every phase, bucketed by the rule and the kind of reason.
    states = list(dict.fromkeys(ply.before for ply in plies))[:160]
    tried: list[tuple[Hashable, GameState, Move]] = []
    for state in states:
        legal = set(legal_moves(state))
        for move in _candidate_moves(state):
            if move in legal:
                continue
            try:
                apply(state, move)
            except IllegalMoveError as error:
                key = (
                    state.phase,
                    state.is_seeded,
                    type(move).__name__,
                    error.rule,
                    _reason_shape(error.reason),
                )
                tried.append((key, state, move))
            else:  # pragma: no cover - legal_moves and apply disagree
                raise AssertionError(f"{move} is not in legal_moves but apply accepts it")
    for _, state, move in _pick(tried, lambda item: item[0], 2):
        yield _transition_vector(state, move)
    # A move in a finished game.
    over = [ply.after for ply in plies if ply.after.is_over][:6]
    for state in over:
        yield _transition_vector(state, Discard(state.rules.cards[0]))


# -- legal moves --------------------------------------------------------------------------------


def _legal_moves_vector(state: GameState) -> Vector:
    moves = legal_moves(state)
    expected: dict[str, Any] = {"ok": True, "moves": [_move_text(m) for m in moves]}
    refs = _state_refs(state) | set(_PHASE_RULES[state.phase]) | {"R34"}
    flags = _state_flags(state)
    if state.phase is Phase.CHANCE:
        outcomes = chance_outcomes(state)
        assert sum(p for _, p in outcomes) == Fraction(1)
        expected["probabilities"] = [fraction_text(p) for _, p in outcomes]
        refs.add("R2" if state.pending_chance is not Chance.TECH else "R3")
        if state.pending_chance is Chance.SETUP:
            refs.add("R7")
    for move in moves:
        refs.update(_KIND_RULES[type(move)])
    if state.phase is Phase.ACTION:
        refs |= {"R10", "R12", "R14", "R15", "R16"}  # present or absent, each is decided
        if Tech.SECRET_BUILD in state.tech_hand(state.current_player):
            refs.add("R11")
        if Tech.DOWN in state.tech_hand(state.current_player):
            refs.add("R13")
    if any(isinstance(m, PlaceAccumulator | PlaceSmart) for m in moves):
        refs.add("R18")
    if not moves:
        flags.add("NoMoves")
    return make_vector(
        "legal_moves",
        rules=state.rules,
        refs=refs,
        flags=flags,
        comment=f"{state.phase.name}: {len(moves)} legal moves",
        input={"kind": "legal_moves", "state": format_state(state)},
        expected=expected,
    )


def _legal_moves_vectors(states: list[GameState]) -> Iterator[Vector]:
    def key(state: GameState) -> Hashable:
        mover = state.current_player
        return (
            frozenset(_rules_flags(state.rules)),
            state.is_seeded,
            state.phase,
            state.pending_chance,
            frozenset(state.tech_hand(mover)),
            state.deck_size == 0,
            state.hand_size(mover) == 0,
        )

    for state in _pick(states, key, 3):
        yield _legal_moves_vector(state)


# -- scores ---------------------------------------------------------------------------------------

_DECISION_FLAGS: Final = {
    Decision.TOTAL: "DecidedByTotal",
    Decision.CITY_POINTS: "DecidedByCityPoints",
    Decision.SUPPLY: "DecidedBySupply",
    Decision.SECOND_PLAYER: "DecidedBySecondPlayer",
}


def _score_vectors(states: list[GameState]) -> Iterator[Vector]:
    def key(state: GameState) -> Hashable:
        sheet = score(state)
        totals = tuple(p.total for p in sheet.players)
        return (
            state.rules.tiebreak,
            sheet.decided_by,
            state.is_over,
            state.smart is not None,
            state.accumulator is not None,
            "SecretPlant" in _state_flags(state),
            totals[0] == totals[1],
            frozenset(_rules_flags(state.rules)),
        )

    for state in _pick(states, key, 4):
        sheet = score(state)
        refs = _state_refs(state, scoring=True) | {"R27", "R28", "R29"}
        flags = _state_flags(state) | {_DECISION_FLAGS[sheet.decided_by]}
        if state.rules.tiebreak is Tiebreak.SUPPLY:
            flags.add("TiebreakSupply")
        if sheet.decided_by is Decision.SECOND_PLAYER:
            refs.add("R5")
        if state.is_over:
            refs.add("R26")
        if "SecretPlant" in flags:
            refs.add("R11")
        if not state.is_over:
            flags.add("Unfinished")
        yield make_vector(
            "scores",
            rules=state.rules,
            refs=refs,
            flags=flags,
            comment=(
                f"totals {sheet.players[0].total}:{sheet.players[1].total}, player "
                f"{sheet.winner} wins ({sheet.decided_by.value})"
            ),
            input={"kind": "score", "state": format_state(state)},
            expected={"ok": True, "score": to_dict(sheet)},
        )


# -- observations -------------------------------------------------------------------------------


def _observation_vectors(states: list[GameState]) -> Iterator[Vector]:
    def key(item: tuple[GameState, int]) -> Hashable:
        state, player = item
        flags = _state_flags(state)
        opponent = state.board(1 - player)
        return (
            state.phase,
            player == state.current_player,
            bool(state.known_cards(1 - player)),
            bool(state.known_cards(player)),
            any(s is not None and s.face_down and not s.flipped for s in opponent),
            any(s is not None and s.secret for s in opponent),
            "Seeded" in flags,
            frozenset(_rules_flags(state.rules)),
        )

    pairs = [(state, player) for state in states[:1200] for player in (0, 1)]
    chosen = _pick(pairs, key, 1)
    for state, player in chosen:
        refs = _state_refs(state) | {"R30", "R36", "R37"}
        flags = _state_flags(state)
        if any(s is not None and s.secret for s in state.board(1 - player)):
            refs.add("R11")
            flags.add("OpponentSecret")
        if any(s is not None and s.face_down and not s.flipped for s in state.board(1 - player)):
            refs.add("R14")
            flags.add("OpponentPylon")
        if state.is_over:
            refs.add("R26")
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=refs,
            flags=flags,
            comment=f"player {player} observes a {state.phase.name} state",
            input={"kind": "observe", "state": format_state(state), "player": player},
            expected={"ok": True, "observation": format_observation(observe(state, player))},
        )
    for n, (state, player) in enumerate(chosen[::5]):
        seen = observe(state, player)
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=_state_refs(state) | {"R37", "R39"},
            flags=_state_flags(state) | {"Tensor"},
            comment=f"observation tensor of player {player} in a {state.phase.name} state",
            input={"kind": "tensor", "state": format_state(state), "player": player},
            expected={"ok": True, "tensor": list(observation_tensor(seen))},
        )
        seed = n * 7919 + 1
        sampled = sample_state(seen, SplitMix64.from_seed(seed))
        yield make_vector(
            "observations",
            rules=state.rules,
            refs=_state_refs(state) | {"R32", "R33", "R37", "R38"},
            flags=_state_flags(state) | {"SampleState"},
            comment=f"a state consistent with player {player}'s observation, generator seed {seed}",
            input={
                "kind": "sample_state",
                "state": format_state(state),
                "player": player,
                "seed": str(seed),
            },
            expected={"ok": True, "state": format_state(sampled)},
        )


# -- perft --------------------------------------------------------------------------------------


def _path_counts(root: GameState, depth: int) -> tuple[list[int], list[set[type]]]:
    """Move paths of each length 1..depth from `root`, and the move kinds met at each length."""
    counts: list[int] = []
    kinds: list[set[type]] = []
    layer: dict[GameState, int] = {root: 1}
    for _ in range(depth):
        following: dict[GameState, int] = {}
        paths = 0
        met: set[type] = set()
        for state, n in layer.items():
            for move in legal_moves(state):
                met.add(type(move))
                child = apply(state, move)
                following[child] = following.get(child, 0) + n
                paths += n
        counts.append(paths)
        kinds.append(met)
        layer = following
    assert all(count < _MAX_EXACT for count in counts)
    return counts, kinds


def _perft_vector(
    root: GameState,
    counted: tuple[list[int], list[set[type]]],
    divide: bool,
    label: str,
) -> Vector:
    counts, kinds = counted
    depth = len(counts)
    expected: dict[str, Any] = {"ok": True, "counts": counts}
    if divide:
        expected["divide"] = [
            [
                _move_text(move),
                _path_counts(apply(root, move), depth - 1)[0][-1] if depth > 1 else 1,
            ]
            for move in legal_moves(root)
        ]
        assert sum(n for _, n in expected["divide"]) == counts[-1]
    refs = _state_refs(root) | {"R9", "R34"}
    for met in kinds:
        for kind in met:
            refs.update(_KIND_RULES[kind])
    flags = _state_flags(root) | ({"Divide"} if divide else set())
    return make_vector(
        "perft",
        rules=root.rules,
        refs=refs,
        flags=flags,
        comment=f"{label}: move paths of length 1..{depth}" + (", divided" if divide else ""),
        input={"kind": "perft", "state": format_state(root), "depth": depth, "divide": divide},
        expected=expected,
    )


#: Deepest perft from the start of each rule set's game (explicit chance mode), and the depth
#: divided there: a fraction of a second each.
_PERFT_DEPTHS: Final = {
    "small": (11, 10),
    "medium": (8, 7),
    "medium-alltech": (8, 7),
    "mini": (4, 4),
    "quad": (4, 3),
    "nostall": (5, 4),
    "standard": (3, 2),
}


def _perft_vectors(mid_states: list[GameState]) -> Iterator[Vector]:
    for name, (deepest, divided) in _PERFT_DEPTHS.items():
        root = new_game(None, RULE_SETS[name])
        counts, kinds = _path_counts(root, deepest)
        for depth in range(1, deepest + 1):
            counted = (counts[:depth], kinds[:depth])
            yield _perft_vector(root, counted, depth == divided, f"{name} start")
    for state in mid_states:
        depth = 2 if state.rules.energies * state.rules.copies > 8 else 3
        yield _perft_vector(state, _path_counts(state, depth), True, f"{state.phase.name} state")


# -- everything ---------------------------------------------------------------------------------


def core_vectors() -> list[Vector]:
    """The vectors of the rule sets of `RULE_SETS`, group by group, in a fixed order.

    `_suite.generate` appends the variants' vectors (`_variants`) to each group.
    """
    seeded = list(_games(6, seeded=True, policy_offset=1))
    explicit = list(_games(10, seeded=False, policy_offset=2))
    extra = list(_games(10, seeded=True, policy_offset=3))
    seeded_plies = [ply for _, _, plies in seeded + extra for ply in plies]
    explicit_plies = [ply for _, _, plies in explicit for ply in plies]
    plies = _shuffled(seeded_plies + explicit_plies, 5)
    finals = [game[-1].after for _, _, game in seeded + explicit + extra]
    states = list(dict.fromkeys(_shuffled([ply.before for ply in plies[:5000]] + finals, 6)))

    vectors: list[Vector] = []
    vectors += _rng_vectors()
    vectors += _seeded_game_vectors(seeded)
    vectors += _transition_vectors(plies)
    vectors += _legal_moves_vectors(states)
    vectors += _score_vectors(states)
    vectors += _observation_vectors(states)
    mid = [
        s
        for s in _pick(
            states,
            lambda s: (frozenset(_rules_flags(s.rules)), s.phase, s.is_seeded),
            1,
        )
        if not s.is_over
    ]
    vectors += _perft_vectors(mid)
    vectors += invalid_vectors(states)
    ids = Counter(v.id for v in vectors)
    duplicates = [i for i, n in ids.items() if n > 1]
    assert not duplicates, duplicates
    assert {v.group for v in vectors} == set(GROUPS)
    return sorted(vectors, key=lambda v: GROUPS.index(v.group))
