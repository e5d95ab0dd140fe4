"""The work of one process of the fingerprint engine: expand a chunk of the frontier.

An `Expander` rebuilds each frontier state from its three group hashes (`_fingerprint`),
checks it and every transition out of it with `Properties` (and, by position, the knowledge and
sampled soundness checks of `_positions`), and returns the successors as records: the parent's
number, the move's rank in `legal_moves(parent)`, and the successor's three group hashes. It
uses no numpy: the records are `array` buffers that the coordinator reads without a copy.

Group hashes are the same in every process, group ids are not: each process interns the groups
it meets, remembers their hashes, and hands the contents of the new ones to the coordinator at
the end of a layer (`fresh_groups`), which passes them on to the other processes (`learn`)
before the next layer, whose states may be made of them.
"""

from __future__ import annotations

import os
import resource
import signal
import struct
from array import array
from collections import Counter
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any, Final

import attrs

from hatsuden_rules import (
    GameState,
    IllegalMoveError,
    Move,
    Phase,
    Rules,
    apply,
    legal_moves,
    new_game,
)
from hatsuden_rules.modelcheck._fingerprint import CARDS, GRIDS, TURN, group_hash
from hatsuden_rules.modelcheck._positions import (
    SOUNDNESS_EVERY,
    knowledge_problems,
    position,
    soundness_problems,
)
from hatsuden_rules.modelcheck._properties import Properties

__all__ = ["ChunkResult", "Expander", "LayerStats", "serve"]

Group = tuple[int, int, Any]  # (kind, hash, content)
#: A problem found while expanding: (rule, message, state number, move rank or -1).
Found = tuple[str, str, int, int]

_PARENT: Final = struct.Struct("<q")
_RANK: Final = struct.Struct("<H")


@attrs.frozen
class ChunkResult:
    """The successors of a chunk of frontier states, as flat little-endian buffers."""

    parents: bytes  # int64: the number of the state each successor comes from
    ranks: bytes  # uint16: the rank of the move in legal_moves(parent)
    cards: bytes  # uint64: the successors' three group hashes
    grids: bytes
    turns: bytes
    found: tuple[Found, ...]
    truncated: bool  # a state at max_depth was left unexpanded
    rss: int  # this process's resident memory (bytes) after the chunk


@attrs.frozen
class LayerStats:
    """What a process counted since the last layer's end (summed by the coordinator)."""

    events: dict[str, int]
    terminal: dict[str, int]
    chance_nodes: int
    expanded: int
    soundness_checked: int
    peak_rss: int


def current_rss() -> int:
    """This process's resident memory in bytes (from /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def peak_rss() -> int:
    """This process's peak resident memory in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Expander:
    """Expands frontier states given as group hashes, in any process.

    Args:
        rules: The rule set.
        positions: Identify states by position (`_positions`).
        exhaustive: Run the sampled property checks on everything.
        records: The directory of the parent records (``parents.i64``, ``ranks.u16``), read to
            rebuild a position's real state for the sampled soundness check.
    """

    def __init__(
        self, rules: Rules, *, positions: bool, exhaustive: bool, records: str | None
    ) -> None:
        self.rules = rules
        self.positions = positions
        self.records = records
        self.props = Properties(rules, exhaustive=exhaustive, positions=positions)
        root = new_game(rules=rules)
        self.root = position(root) if positions else root
        self.hashes: tuple[list[int], list[int], list[int]] = ([], [], [])
        self.local: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
        self._received: set[tuple[int, int]] = set()
        self._fresh: list[Group] = []
        self.root_zones = self.props.zones(self.root)
        self._sync()
        self._turn_info: dict[int, tuple[Phase, str | None]] = {}
        self._reset()

    def _reset(self) -> None:
        self._per_turn: Counter[int] = Counter()
        self._move_sets: dict[tuple[int, ...], tuple[tuple[Move, ...], list[int]]] = {}
        self._decided: Counter[str] = Counter()
        self._expanded = 0
        self._soundness = 0

    # -- groups -----------------------------------------------------------------------------------

    def _sync(self) -> None:
        """Give every group interned since the last call its hash (and remember new ones)."""
        props = self.props
        for kind, values in (
            (CARDS, props._card_values),
            (GRIDS, props._grid_values),
            (TURN, props._turn_values),
        ):
            hashes, local = self.hashes[kind], self.local[kind]
            for k in range(len(hashes), len(values)):
                h = group_hash(kind, values[k])
                hashes.append(h)
                local[h] = k
                if (kind, h) not in self._received:
                    self._fresh.append((kind, h, values[k]))

    def fresh_groups(self) -> list[Group]:
        """The groups this process met first since the last call (for the other processes)."""
        fresh, self._fresh = self._fresh, []
        return fresh

    def learn(self, groups: Sequence[Group]) -> None:
        """Intern groups met by other processes, so that states made of them can be rebuilt."""
        root = self.root
        for kind, h, content in groups:
            if h in self.local[kind]:
                continue
            self._received.add((kind, h))
            if kind == CARDS:
                hands, deck, discards, known = content
                state = attrs.evolve(root, hands=hands, deck=deck, discards=discards, known=known)
            elif kind == GRIDS:
                state = attrs.evolve(root, boards=content)
            else:
                fields = dict(zip(_TURN_FIELDS, content, strict=True))
                state = attrs.evolve(root, **fields)
            self.props.zones(state)
            self._sync()
            if h not in self.local[kind]:
                raise AssertionError(f"group {kind} {h:#x} does not hash the same here")

    def zones_of(self, cards: int, grids: int, turn: int) -> tuple[int, int, int]:
        """The local zones of the state with these group hashes."""
        return (self.local[CARDS][cards], self.local[GRIDS][grids], self.local[TURN][turn])

    def fingerprint_parts(self, state: GameState) -> tuple[int, int, int]:
        """The three group hashes of `state` (its stored form: by position if so)."""
        z = self.props.zones(state)
        self._sync()
        return (self.hashes[CARDS][z[0]], self.hashes[GRIDS][z[1]], self.hashes[TURN][z[2]])

    # -- paths ------------------------------------------------------------------------------------

    def ranks_to(self, number: int) -> list[int]:
        """The move ranks from `new_game()` to the state `number`, from the parent records."""
        assert self.records is not None
        ranks: list[int] = []
        with (
            open(os.path.join(self.records, "parents.i64"), "rb") as parents,
            open(os.path.join(self.records, "ranks.u16"), "rb") as moves,
        ):
            while number > 0:
                ranks.append(_RANK.unpack(os.pread(moves.fileno(), 2, 2 * number))[0])
                number = _PARENT.unpack(os.pread(parents.fileno(), 8, 8 * number))[0]
        ranks.reverse()
        return ranks

    def replay(self, ranks: Sequence[int]) -> tuple[list[Move], GameState, GameState]:
        """The moves of `ranks`, the stored state they reach and the real (full) state."""
        stored, full = self.root, new_game(rules=self.rules)
        moves = []
        for rank in ranks:
            move = legal_moves(stored)[rank]
            moves.append(move)
            full = apply(full, move)
            stored = apply(stored, move)
            if self.positions:
                stored = position(stored)
        return moves, stored, full

    # -- expansion --------------------------------------------------------------------------------

    def expand(
        self,
        cards: Sequence[int],
        grids: Sequence[int],
        turns: Sequence[int],
        numbers: Sequence[int],
        at_depth_limit: bool,
    ) -> ChunkResult:
        """Check and expand the states given by their group hashes and numbers."""
        props = self.props
        zones, state_of = props.zones, props.state_of
        state_violations = props.state_violations
        transition_violations = props.transition_violations
        positions = self.positions
        h0, h1, h2 = self.hashes
        l0, l1, l2 = self.local
        out_parent, out_rank = array("q"), array("H")
        out_c, out_g, out_t = array("Q"), array("Q"), array("Q")
        found: list[Found] = []
        truncated = False
        per_turn, turn_info, move_sets = self._per_turn, self._turn_info, self._move_sets
        for k in range(len(numbers)):
            zb = (l0[cards[k]], l1[grids[k]], l2[turns[k]])
            number = numbers[k]
            state = state_of(zb)
            if at_depth_limit and not state.is_over:
                truncated = True
                continue
            self._expanded += 1
            moves = legal_moves(state)
            per_turn[zb[2]] += 1
            if zb[2] not in turn_info:
                reason = state.end_reason
                turn_info[zb[2]] = (state.phase, None if reason is None else reason.name)
            problems = state_violations(state, moves, zb)
            if positions and self._expanded % SOUNDNESS_EVERY == 1 and self.records:
                problems = [*problems, *self._soundness_of(number, state, moves)]
            for rule, message in problems:
                found.append((rule, message, number, -1))
            if state.is_over:
                self._decided[props.decision(zb).name] += 1
            ids = tuple(map(id, moves))
            entry = move_sets.get(ids)
            if entry is None:
                move_sets[ids] = (moves, [1])
            else:
                entry[1][0] += 1
            for rank, move in enumerate(moves):
                try:
                    after = apply(state, move)
                except IllegalMoveError as error:
                    found.append(("R35", f"a legal move was refused: {error}", number, rank))
                    continue
                za = zones(after, state, zb)
                problems = transition_violations(state, move, after, zb, za)
                if positions:
                    problems = [*problems, *knowledge_problems(state, move, after)]
                for rule, message in problems:
                    found.append((rule, message, number, rank))
                if za[0] >= len(h0) or za[1] >= len(h1) or za[2] >= len(h2):
                    self._sync()
                out_parent.append(number)
                out_rank.append(rank)
                out_c.append(h0[za[0]])
                out_g.append(h1[za[1]])
                out_t.append(h2[za[2]])
        return ChunkResult(
            out_parent.tobytes(),
            out_rank.tobytes(),
            out_c.tobytes(),
            out_g.tobytes(),
            out_t.tobytes(),
            tuple(found),
            truncated,
            current_rss(),
        )

    def _soundness_of(
        self, number: int, state: GameState, moves: tuple[Move, ...]
    ) -> list[tuple[str, str]]:
        """Soundness on the real state of a position, rebuilt from its shortest path."""
        self._soundness += 1
        _, stored, full = self.replay(self.ranks_to(number))
        if stored != state or position(full) != state:
            return [("R36", "replaying the shortest path does not lead to the position")]
        return soundness_problems(full, moves)

    def layer_stats(self) -> LayerStats:
        """What was counted since the last call, then start counting afresh."""
        events: Counter[str] = Counter()
        terminal: Counter[str] = Counter()
        chance_nodes = 0
        for t, count in self._per_turn.items():
            phase, reason = self._turn_info[t]
            events[f"phase {phase.name}"] += count
            if phase is Phase.CHANCE:
                chance_nodes += count
            if reason is not None:
                terminal[reason] += count
                events[f"end {reason}"] += count
        for name, count in self._decided.items():
            events[f"decided {name}"] += count
        for moves, (count,) in self._move_sets.values():
            for move in moves:
                events[f"move {type(move).__name__}"] += count
        stats = LayerStats(
            dict(events), dict(terminal), chance_nodes, self._expanded, self._soundness, peak_rss()
        )
        self._reset()
        return stats


_TURN_FIELDS: Final = (
    "phase",
    "current_player",
    "tech_deck",
    "tech_hands",
    "accumulator",
    "smart",
    "played",
    "discarded",
    "chance",
    "stall",
    "end_trigger",
    "end_reason",
    "rng",
    "this_turn",
    "last_turn",
)


def serve(connection: Connection, rules: Rules, settings: dict[str, Any]) -> None:
    """A worker process: answer the coordinator's requests on `connection` until ``stop``.

    Requests: ``("learn", groups)``; ``("expand", chunk, buffers, at_limit)`` with the
    little-endian buffers of the chunk's group hashes (uint64 x 3) and numbers (int64),
    answered by ``("chunk", chunk, ChunkResult)``; ``("layer",)`` answered by
    ``("layer", LayerStats, fresh groups)``; ``("stop",)``.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the coordinator handles Ctrl-C
    expander = Expander(rules, **settings)
    while True:
        request = connection.recv()
        if request[0] == "expand":
            _, chunk, buffers, at_limit = request
            cards, grids, turns, numbers = array("Q"), array("Q"), array("Q"), array("q")
            for values, data in zip((cards, grids, turns, numbers), buffers, strict=True):
                values.frombytes(data)
            result = expander.expand(cards, grids, turns, numbers, at_limit)
            connection.send(("chunk", chunk, result))
        elif request[0] == "learn":
            expander.learn(request[1])
        elif request[0] == "layer":
            connection.send(("layer", expander.layer_stats(), expander.fresh_groups()))
        else:
            return
