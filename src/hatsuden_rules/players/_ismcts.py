"""`ISMCTSPlayer`: single-observer information-set Monte Carlo tree search (Cowling et al. 2012).

One tree over the moves of both players, from the searcher's information set. Every iteration
draws a determinization (`sample_state`: a full state consistent with the searcher's
observation, its hidden cards and future deck order drawn uniformly), descends the tree through
the moves legal in that determinization (UCB1 on availability counts: a move's exploration term
counts the iterations in which it was available, not its parent's visits), adds one node (the
most promising untried move by its cheap price), plays a short rollout with a cheap policy
(`_heuristics.rollout_move`, about as strong as `GreedyPlayer` at a tenth of its cost) and
scores the position it reaches: 1 or 0 at the end of the game, else the logistic of the
heuristic evaluation (provisional margin plus some outlook). The root's moves start with a few
virtual visits at their one-ply evaluation (progressive bias), so a small budget does not
squander itself on obviously bad moves.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.apply import apply
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    DeclineTech,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.rng import SplitMix64, splitmix64
from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.observation import Observation, sample_state
from hatsuden_rules.players._heuristics import evaluate, prices, rollout_move
from hatsuden_rules.players._protocol import check_decision

__all__ = ["ISMCTSPlayer"]

_DRAW_TECH = DrawTech()
_DECLINE = DeclineTech()


_Validator = Callable[[object, "attrs.Attribute[Any]", object], None]


def _int_from(low: int) -> _Validator:
    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) is not int or value < low:
            raise InvalidInputError(attribute.name, f"must be an int >= {low}, got {value!r}")

    return check


def _number_above(low: float, *, strict: bool, optional: bool = False) -> _Validator:
    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if optional and value is None:
            return
        if (
            type(value) not in (int, float)
            or not math.isfinite(value)  # type: ignore[arg-type]
            or (value <= low if strict else value < low)  # type: ignore[operator]
        ):
            bound = f"> {low}" if strict else f">= {low}"
            allowed = "None or a number" if optional else "a number"
            raise InvalidInputError(attribute.name, f"must be {allowed} {bound}, got {value!r}")

    return check


_CORES = ("python", "native")


def _one_of(choices: tuple[str, ...]) -> _Validator:
    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in choices or type(value) is not str:
            raise InvalidInputError(
                attribute.name, f"must be one of {', '.join(choices)}, got {value!r}"
            )

    return check


@attrs.frozen(kw_only=True)
class ISMCTSPlayer:
    """Information-set MCTS over `sample_state` determinizations; seeded and reproducible.

    Decisions with one legal move are answered at once, and a tech card is always drawn when
    it may be; every other decision is searched. Secret Build is never spent (hiding a value
    is worth nothing against determinizations of one's own information set).

    Attributes:
        iterations: Search iterations per decision (each: one determinization, one descent,
            one rollout). The default, 200, takes about 0.08 s of CPU a decision on one core of
            the project machine and wins about 75% of games against `GreedyPlayer`.
        time_limit: Optional cap in seconds per decision. With it, the number of iterations
            depends on the machine's speed, so games are reproducible only without it.
        exploration: The UCB1 exploration constant (rewards are win probabilities in [0, 1]).
        rollout_turns: Turns a rollout plays before the position is scored by the heuristic
            evaluation; 0 scores the new node at once. A rollout that reaches the end of the
            game scores the winner.
        temperature: Points of evaluation per unit of log-odds when a position is scored.
        prior_visits: Virtual visits given to each root move at its one-ply evaluation.
        rollout_randomness: One rollout action in this many is uniformly random (0: none; the
            rollout policy breaks its ties at random anyway).
        core: ``"python"`` (this module) or ``"native"``: the same search on the Rust core
            (the ``native`` extra), many times faster. The native search makes the same
            floating-point operations in the same order, so with the same seed and no
            `time_limit` it chooses the same move wherever the platform's ``exp`` and ``log``
            agree with Python's (tested on the project machine; not promised elsewhere).

    Examples:
        >>> from hatsuden_rules import SplitMix64, new_game, observe, legal_moves_from
        >>> seen = observe(new_game(seed=1), 0)
        >>> bot = ISMCTSPlayer(iterations=20)
        >>> move = bot.choose(seen, legal_moves_from(seen), SplitMix64.from_seed(3))
        >>> move == bot.choose(seen, legal_moves_from(seen), SplitMix64.from_seed(3))
        True
    """

    iterations: int = attrs.field(default=300, validator=_int_from(1))
    time_limit: float | None = attrs.field(
        default=None, validator=_number_above(0, strict=True, optional=True)
    )
    exploration: float = attrs.field(default=0.2, validator=_number_above(0, strict=False))
    rollout_turns: int = attrs.field(default=4, validator=_int_from(0))
    temperature: float = attrs.field(default=1.5, validator=_number_above(0, strict=True))
    prior_visits: int = attrs.field(default=5, validator=_int_from(0))
    rollout_randomness: int = attrs.field(default=0, validator=_int_from(0))
    core: str = attrs.field(default="python", validator=_one_of(_CORES))

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64 | int
    ) -> Move:
        """The most visited move after the search (reproducible for a given `rng`).

        `rng` is a `SplitMix64`, or an int seed (``SplitMix64.from_seed``).
        """
        observation, moves, rng = check_decision(observation, legal_moves, rng)
        if len(moves) == 1:
            return moves[0]
        if observation.phase is Phase.TECH:
            return _DRAW_TECH if _DRAW_TECH in moves else moves[0]
        if self.core == "native":
            from hatsuden_rules.native import ismcts_search

            options = attrs.asdict(self)
            options.pop("core")
            move, _ = ismcts_search(observation, rng.next()[0], options)
            if move not in moves:
                raise InvalidInputError(
                    "legal_moves", f"the native search chose {move}, not listed"
                )
            return move
        return _search(self, observation, moves, rng.next()[0])


class _Node:
    """Statistics of the move that leads here, made by `mover`; children by move."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[Move, _Node] = {}


def _search(
    player: ISMCTSPlayer, observation: Observation, moves: tuple[Move, ...], seed: int
) -> Move:
    root_moves, root = _tree(player, observation, moves, seed)
    children = root.children
    return max(
        root_moves,
        key=lambda m: (children[m].visits, children[m].reward) if m in children else (0, 0.0),
    )


def _tree(
    player: ISMCTSPlayer, observation: Observation, moves: tuple[Move, ...], seed: int
) -> tuple[tuple[Move, ...], _Node]:
    """Search from `observation`; return the root's candidate moves and the root node."""
    me = observation.player
    root = _Node(1 - me)
    c = player.exploration
    turns = player.rollout_turns
    temperature = player.temperature
    deadline = None if player.time_limit is None else time.perf_counter() + player.time_limit
    root_moves: tuple[Move, ...] | None = None
    for iteration in range(player.iterations):
        if iteration and deadline is not None and time.perf_counter() > deadline:
            break
        seed, sample_seed = splitmix64(seed)
        state = sample_state(observation, sample_seed)
        noise = sample_seed ^ 0x2545F4914F6CDD1D
        node = root
        path = [root]
        if root_moves is None:
            root_moves = _prune(state, moves)
            if len(root_moves) == 1:
                return root_moves, root
            if player.prior_visits:
                _seed_root(root, state, root_moves, player.prior_visits, temperature, noise)
        while not state.is_over:
            options = root_moves if node is root else _prune(state, legal_moves(state))
            mover = state.current_player
            children = node.children
            untried = []
            for move in options:
                child = children.get(move)
                if child is None:
                    untried.append(move)
                else:
                    child.available += 1
            if untried:
                if len(untried) == 1:
                    fresh = untried[0]
                else:
                    _, _, fresh = max(
                        zip(
                            prices(state, untried),
                            range(0, -len(untried), -1),
                            untried,
                            strict=True,
                        )
                    )
                child = _Node(mover)
                child.available = 1
                children[fresh] = child
                state = apply(state, fresh)
                path.append(child)
                break
            best_value = -1.0
            best_move = options[0]
            for move in options:
                child = children[move]
                value = child.reward / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_value:
                    best_value, best_move = value, move
            node = children[best_move]
            state = apply(state, best_move)
            path.append(node)
        value = _rollout(state, turns, temperature, noise, player.rollout_randomness)
        for node in path:
            node.visits += 1
            node.reward += value if node.mover == 0 else 1.0 - value
    assert root_moves is not None
    return root_moves, root


def _seed_root(
    root: _Node,
    state: GameState,
    moves: tuple[Move, ...],
    visits: int,
    temperature: float,
    noise: int,
) -> None:
    """Give each root move `visits` virtual visits at its one-ply evaluation (progressive bias)."""
    me = state.current_player
    for move in moves:
        after = apply(state, move)
        while after.current_player == me and after.phase in (Phase.TECH, Phase.OVERFLOW):
            noise, r = splitmix64(noise)
            after = apply(after, _DECLINE if after.phase is Phase.TECH else rollout_move(after, r))
        child = _Node(me)
        child.visits = child.available = visits
        child.reward = visits / (1.0 + math.exp(-evaluate(after, me) / temperature))
        root.children[move] = child


def _rollout(
    state: GameState, turns: int, temperature: float, noise: int, randomness: int
) -> float:
    """Player 0's chance of winning from `state`, after a short rollout."""
    ended = 0
    while not state.is_over and ended < turns:
        noise, r = splitmix64(noise)
        mover = state.current_player
        state = apply(state, rollout_move(state, r, randomness))
        if state.current_player != mover:
            ended += 1
    if state.is_over:
        return 1.0 if score(state).winner == 0 else 0.0
    margin = evaluate(state, 0)
    return 1.0 / (1.0 + math.exp(-margin / temperature))


def _prune(state: GameState, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """The moves the tree considers.

    No Secret Build (hiding a value is worth nothing against determinizations), pylons of the
    weakest card only, the two most useful discards, Smart on the best energy only if it pays
    now, the Accumulator in ACTION and on an overflowing row.
    """
    if len(moves) <= 2:
        return moves
    phase = state.phase
    pylon_card = None
    for move in moves:
        if isinstance(move, BuildPylon) and (
            pylon_card is None or move.card.value < pylon_card.value
        ):
            pylon_card = move.card
    out: list[Move] = []
    takes: list[DrawFromDiscard] = []
    smart: list[PlaceSmart] = []
    for move in moves:
        if isinstance(move, Construct):
            if not move.secret:
                out.append(move)
        elif isinstance(move, BuildPylon):
            if move.card == pylon_card:
                out.append(move)
        elif isinstance(move, DrawFromDiscard):
            takes.append(move)
        elif isinstance(move, PlaceSmart):
            smart.append(move)
        elif isinstance(move, PlaceAccumulator):
            if phase is Phase.ACTION or (
                phase is Phase.OVERFLOW
                and (cell := enc.played(state)) is not None
                and cell // len(enc.tables(state.rules).energies) == move.row
            ):
                out.append(move)
        else:
            out.append(move)
    if takes:
        ranked = sorted(zip(prices(state, takes), range(len(takes)), takes, strict=True))
        can_draw = any(isinstance(m, DrawFromDeck) for m in moves)
        out.extend(m for v, _, m in ranked[-2:] if v > 0 or not can_draw)
    if smart:
        value, _, best = max(zip(prices(state, smart), range(len(smart)), smart, strict=True))
        if value > 0:
            out.append(best)
    return tuple(out) if out else moves
