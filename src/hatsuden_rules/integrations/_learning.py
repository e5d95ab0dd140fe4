"""The engine behind the learning environments: encoders on numpy arrays and one Python game.

`Encoder` turns raw tensors into the features an agent sees (raw or normalised, observation or
information state) and gives their exact bounds where the environments observe a game: after
chance has been resolved, so never in CHANCE (see `Encoder.bounds`). `Episode` plays one game in
explicit chance mode and resolves every chance event with the portable sampler exactly as
seeded mode does (R8, R33: one ``next()`` per event, ``value % len(deck)`` into the sorted deck,
or into the tech deck), so an `Episode` reset with seed S makes the same game as
``new_game(seed=S)`` under the same actions, and it can count what each player has seen (the
information-state counts, as OpenSpiel's information state). `PythonBatch` steps N episodes:
the one interface the vectorised environment uses, arrays in and arrays out, which a native
batch replaces.

Needs numpy (the ``pettingzoo`` and ``openspiel`` extras install it).
"""

from __future__ import annotations

import functools
from typing import Any, Final

import attrs
import numpy as np

from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import Deal, DealTech
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.scoring import score
from hatsuden_rules.core.state import Chance, GameState, Phase
from hatsuden_rules.notation import format_rules, parse_state
from hatsuden_rules.observation import observation_tensor, observe
from hatsuden_rules.observation._features import (
    KINDS,
    RecallCodec,
    feature_plan,
    normalized_names,
)

__all__ = [
    "Encoder",
    "Episode",
    "NativeBatch",
    "NativeEpisode",
    "PythonBatch",
    "check_options",
    "encoder",
    "make_episode",
    "require_native",
]

Array = np.ndarray[Any, Any]

_CHANCE: Final = Phase.CHANCE
_TECH_CHANCE: Final = Chance.TECH


def check_options(observation: object, normalize: object, core: object) -> None:
    """Raise `InvalidInputError` (one line) for a bad observation kind, normalize or core."""
    if observation not in KINDS:
        raise InvalidInputError(
            "observation", f"must be 'observation' or 'information_state', got {observation!r}"
        )
    if type(normalize) is not bool:
        raise InvalidInputError("normalize", f"must be a bool, got {normalize!r}")
    if core not in ("python", "native"):
        raise InvalidInputError("core", f"must be 'python' or 'native', got {core!r}")


def require_native() -> Any:
    """The native core's module (`hatsuden_rules.native.load`), or the library's error."""
    from hatsuden_rules.native import NativeUnavailableError, load

    try:
        return load()
    except NativeUnavailableError:
        raise InvalidInputError(
            "core",
            "'native' needs the native core: pip install 'hatsuden-rules[native]'",
        ) from None


class Encoder:
    """The features of one ``(rules, kind, normalize)``: names, bounds, raw-to-feature map.

    Attributes:
        rules: The rule set.
        kind: ``"observation"`` or ``"information_state"``.
        normalize: Normalised float features in [0, 1] rather than the raw ints.
        raw_size: Entries of the raw tensor.
        size: Entries of the features.
        names: The name of each feature (`observation_feature_names`).
    """

    def __init__(self, rules: Rules, kind: str, normalize: bool) -> None:
        plan = feature_plan(rules, kind)
        self.rules = rules
        self.kind = kind
        self.normalize = normalize
        self.raw_size = len(plan)
        names = normalized_names(plan) if normalize else tuple(feature.name for feature in plan)
        self.names: tuple[str, ...] = names
        self.size = len(names)
        scale_src: list[int] = []
        scale_dst: list[int] = []
        scale_mul: list[float] = []
        sat_src: list[int] = []
        sat_dst: list[int] = []
        hot_src: list[int] = []
        hot_dst: list[int] = []
        hot_value: list[int] = []
        j = 0
        for i, feature in enumerate(plan):
            if feature.categories:
                for value, _ in feature.categories:
                    hot_src.append(i)
                    hot_dst.append(j)
                    hot_value.append(value)
                    j += 1
            elif feature.bound is None:
                sat_src.append(i)
                sat_dst.append(j)
                j += 1
            else:
                scale_src.append(i)
                scale_dst.append(j)
                scale_mul.append(0.0 if feature.bound == 0 else 1.0 / feature.bound)
                j += 1
        self._scale = (np.array(scale_src), np.array(scale_dst), np.array(scale_mul, np.float32))
        self._sat = (np.array(sat_src, dtype=np.intp), np.array(sat_dst, dtype=np.intp))
        self._hot = (np.array(hot_src), np.array(hot_dst), np.array(hot_value, np.float32))

    def features(self, raw: Array) -> Array:
        """The features (float32) of raw tensors: one row per tensor (N x raw_size)."""
        raw = np.asarray(raw, dtype=np.float32)
        if not self.normalize:
            return raw
        out = np.zeros((raw.shape[0], self.size), dtype=np.float32)
        src, dst, mul = self._scale
        out[:, dst] = raw[:, src] * mul
        src, dst = self._sat
        if len(src):
            x = raw[:, src]
            out[:, dst] = x / (x + 1.0)
        src, dst, value = self._hot
        out[:, dst] = raw[:, src] == value
        return out

    def bounds(self) -> tuple[Array, Array]:
        """The least and greatest value of each feature where the environments observe a game.

        The environments observe a game only where a player is to move or at its end, never in
        CHANCE, so the raw bounds of the plan (`_features`) are tightened: no CHANCE phase and
        no pending chance, at most ``deck_size - 2 * hand_size`` cards in the deck, my own
        stacks' values never hidden, and 0 for what needs a tech card not in play. A count
        without a bound has an infinite upper bound (raw) or 1 (normalised, never reached).
        """
        return _bounds(self.rules, self.kind, self.normalize)


@functools.lru_cache(maxsize=64)
def encoder(rules: Rules, kind: str, normalize: bool) -> Encoder:
    """The shared `Encoder` of ``(rules, kind, normalize)``."""
    return Encoder(rules, kind, normalize)


@functools.lru_cache(maxsize=64)
def _bounds(rules: Rules, kind: str, normalize: bool) -> tuple[Array, Array]:
    plan = feature_plan(rules, kind)
    techs = rules.techs
    low: list[float] = []
    high: list[float] = []
    for feature in plan:
        name = feature.name
        lo = float(feature.low)
        hi = float("inf") if feature.bound is None else float(feature.bound)
        if (
            name == "phase=chance"
            or name.startswith("pending_chance=")
            or (name == "phase=tech" and not techs)
            or (name.startswith("accumulator.") and Tech.ACCUMULATOR not in techs)
            or (name.startswith("smart[") and Tech.SMART not in techs)
        ):
            hi = 0.0
        elif name == "deck_size":
            hi = float(rules.deck_size - 2 * rules.hand_size)
        elif name.startswith("my_board[") and name.endswith(".value"):
            lo = 0.0
        elif name.endswith(".secret") and Tech.SECRET_BUILD not in techs:
            hi = 0.0
        elif name.endswith(".value") and Tech.SECRET_BUILD not in techs:
            lo = 0.0
        elif name.endswith(".downsized") and Tech.DOWN not in techs:
            hi = 0.0
        elif name.startswith("tech_hand["):
            tech = Tech[name[len("tech_hand[") : -1]]
            hi = 1.0 if tech in techs else 0.0
        if not normalize:
            low.append(lo)
            high.append(hi)
        elif feature.categories:
            for value, _ in feature.categories:
                low.append(0.0)
                high.append(1.0 if lo <= value <= hi else 0.0)
        elif feature.bound is None:
            low.append(0.0)
            high.append(1.0)
        elif feature.bound == 0:
            low.append(0.0)
            high.append(0.0)
        else:
            low.append(lo / feature.bound)
            high.append(hi / feature.bound)
    return np.array(low, dtype=np.float32), np.array(high, dtype=np.float32)


class _Tables:
    """What every episode of one rule set shares: moves and ids, the recall codec."""

    __slots__ = ("codec", "deal", "deal_tech", "ids", "moves", "rules")

    def __init__(self, rules: Rules) -> None:
        codec = RecallCodec(rules)
        self.rules = rules
        self.codec = codec
        self.moves = codec.moves
        self.ids = {move: a for a, move in enumerate(codec.moves)}
        chance_ids = {move: c for c, move in enumerate(codec.chance_moves)}
        self.deal = {card: chance_ids[Deal(card)] for card in rules.cards}
        self.deal_tech = {tech: chance_ids[DealTech(tech)] for tech in rules.techs}


@functools.lru_cache(maxsize=64)
def _tables(rules: Rules) -> _Tables:
    return _Tables(rules)


class Episode:
    """One game, stepped by action id; chance resolved by the portable sampler (R8, R33).

    Attributes:
        state: The current `GameState` (explicit chance mode, never in CHANCE after a step).
        seen: Per player, how many times they saw each seen id (information state), or None
            when the counts are not kept.
    """

    __slots__ = ("_rng", "_tables", "seen", "state")

    def __init__(self, rules: Rules, *, recall: bool) -> None:
        self._tables = _tables(rules)
        size = self._tables.codec.size
        self.seen: Array | None = np.zeros((2, size), dtype=np.int32) if recall else None
        self.state: GameState = new_game(rules=rules)
        self._rng = SplitMix64.from_seed(0)

    def reset(self, seed: int) -> None:
        """A new game whose chance events follow `seed` (the game ``new_game(seed=seed)``)."""
        self.state = new_game(rules=self._tables.rules)
        self._rng = SplitMix64.from_seed(seed)
        if self.seen is not None:
            self.seen[:] = 0
        self._resolve()

    def _resolve(self) -> None:
        state = self.state
        rng = self._rng
        tables = self._tables
        seen = self.seen
        while state.phase is _CHANCE:
            value, rng = rng.next()
            if state.pending_chance is _TECH_CHANCE:
                deck = state.tech_deck
                tech = deck[value % len(deck)]
                move: Deal | DealTech = DealTech(tech)
                chance = tables.deal_tech[tech]
            else:
                cards = state.deck
                card = cards[value % len(cards)]
                move = Deal(card)
                chance = tables.deal[card]
            if seen is not None:
                receiver = state.current_player
                mine, other = tables.codec.chance[chance]
                seen[receiver, mine] += 1
                seen[1 - receiver, other] += 1
            state = apply(state, move)
        self.state = state
        self._rng = rng

    @property
    def is_over(self) -> bool:
        """Whether the game is over (R26)."""
        return self.state.is_over

    @property
    def current_player(self) -> int:
        """The seat to act."""
        return self.state.current_player

    def legal_ids(self) -> list[int]:
        """The legal action ids, ascending (empty at the end): `legal_moves` is in id order."""
        ids = self._tables.ids
        return [ids[move] for move in legal_moves(self.state)]

    def step(self, action: int) -> None:
        """Apply action id `action` and resolve chance; an illegal one raises, changing nothing."""
        state = self.state
        self.state = apply(state, self._tables.moves[action])  # raises before any change
        if self.seen is not None:
            actor = state.current_player
            mine, other = self._tables.codec.player[action]
            self.seen[actor, mine] += 1
            self.seen[1 - actor, other] += 1
        self._resolve()

    def raw(self, player: int) -> list[int]:
        """`player`'s raw tensor: the observation, then the recall counts if kept."""
        tensor = list(observation_tensor(observe(self.state, player)))
        if self.seen is not None:
            tensor += self.seen[player].tolist()
        return tensor

    def counts(self, player: int) -> Array:
        """`player`'s recall counts (kept only with ``recall=True``)."""
        assert self.seen is not None
        row: Array = self.seen[player]
        return row

    def seeded_state(self) -> GameState:
        """The state as seeded mode holds it: the same game, with the generator's state."""
        return attrs.evolve(self.state, rng=self._rng.state)

    def winner(self) -> int:
        """The winner of the finished game (R29)."""
        return score(self.state).winner


def make_episode(rules: Rules, *, recall: bool, core: str) -> Episode | NativeEpisode:
    """One game on `core`: the library's engine, or the native core's (imported when asked)."""
    if core == "python":
        return Episode(rules, recall=recall)
    return NativeEpisode(rules, recall=recall)


def _native_class(name: str) -> Any:
    """The class `name` of the native core, or the library's one-line error."""
    cls = getattr(require_native(), name, None)
    if cls is None:
        raise InvalidInputError(
            "core", f"the installed native core has no {name} for the environments; upgrade it"
        )
    return cls


class NativeEpisode:
    """`Episode` on the native core (``hatsuden_native.Episode``): the same game, in Rust.

    The same interface as `Episode` except `state`, which is not kept as a `GameState`:
    `seeded_state` converts the native state through its notation when asked.
    """

    __slots__ = ("_game",)

    def __init__(self, rules: Rules, *, recall: bool) -> None:
        self._game = _native_class("Episode")(format_rules(rules), recall)

    def reset(self, seed: int) -> None:
        """A new game whose chance events follow `seed` (the game ``new_game(seed=seed)``)."""
        self._game.reset(seed)

    @property
    def is_over(self) -> bool:
        """Whether the game is over (R26)."""
        return bool(self._game.is_over)

    @property
    def current_player(self) -> int:
        """The seat to act."""
        return int(self._game.current_player)

    def legal_ids(self) -> list[int]:
        """The legal action ids, ascending (empty at the end)."""
        ids: list[int] = self._game.legal_ids()
        return ids

    def step(self, action: int) -> None:
        """Apply action id `action` and resolve chance; an illegal one raises, changing nothing."""
        self._game.step(action)

    def raw(self, player: int) -> list[int]:
        """`player`'s raw tensor: the observation, then the recall counts if kept."""
        raw: list[int] = self._game.raw(player)
        return raw

    def seeded_state(self) -> GameState:
        """The state as seeded mode holds it (read back from the native core's notation)."""
        return parse_state(self._game.seeded_notation())

    def winner(self) -> int:
        """The winner of the finished game (R29)."""
        return int(self._game.winner())


class PythonBatch:
    """N episodes stepped one after the other: arrays in, arrays out.

    The vectorised environment talks to its core through these five methods only (`reset`,
    `legal`, `observations`, `step`, `winners`) and the attribute `num_actions`; a native batch
    with the same methods steps every environment without a Python loop. Chance must be
    resolved as `Episode` does (R8, R33), so that both cores give the same trajectories.
    """

    def __init__(self, rules: Rules, num_envs: int, enc: Encoder) -> None:
        self.rules = rules
        self.num_actions = len(_tables(rules).moves)
        self.encoder = enc
        self.recall = enc.kind == "information_state"
        self.episodes = [Episode(rules, recall=self.recall) for _ in range(num_envs)]

    def reset(self, seeds: list[int], which: list[int]) -> None:
        """Start a new game in each environment of `which`, with the matching seed."""
        for i, seed in zip(which, seeds, strict=True):
            self.episodes[i].reset(seed)

    def legal(self, which: Array | None = None) -> tuple[Array, Array]:
        """The masks (rows x A bool) and players to act (-1 at an end) of `which` (default all)."""
        episodes = self.episodes
        rows = range(len(episodes)) if which is None else [int(i) for i in which]
        mask = np.zeros((len(rows), self.num_actions), dtype=bool)
        players = np.full(len(rows), -1, dtype=np.int64)
        for r, i in enumerate(rows):
            episode = episodes[i]
            state = episode.state
            if not state.is_over:
                mask[r, episode.legal_ids()] = True
                players[r] = state.current_player
        return mask, players

    def observations(
        self, players: Array, which: Array | None = None, out: Array | None = None
    ) -> Array:
        """The features of environments `which` (default all) from the view of `players[i]`.

        Written into `out` (len(which) x F float32) when given, and `out` returned.
        """
        if out is not None:
            out[...] = self.observations(players, which)
            return out
        episodes = self.episodes
        rows = range(len(episodes)) if which is None else [int(i) for i in which]
        if not rows:
            return np.zeros((0, self.encoder.size), dtype=np.float32)
        raw = np.array(
            [observation_tensor(observe(episodes[i].state, int(players[i]))) for i in rows],
            dtype=np.float32,
        )
        if self.recall:
            counts = np.stack([episodes[i].counts(int(players[i])) for i in rows])
            raw = np.hstack((raw, counts.astype(np.float32)))
        return self.encoder.features(raw)

    def step(self, actions: Array, which: Array) -> None:
        """Apply ``actions[i]`` in each environment ``i`` of `which` (legal: checked before)."""
        for i in which:
            self.episodes[int(i)].step(int(actions[int(i)]))

    def winners(self, which: Array) -> Array:
        """The winner (seat) of each finished game of environments `which`."""
        return np.array([self.episodes[int(i)].winner() for i in which], dtype=np.int64)


class NativeBatch:
    """The native core's batch (``hatsuden_native.VectorBatch``) behind `PythonBatch`'s methods.

    Every method is one call over the whole batch: numpy allocates the arrays and the native
    core reads its inputs from them and writes its outputs into them through the buffer
    protocol (no Python object per environment).
    """

    def __init__(self, rules: Rules, num_envs: int, enc: Encoder) -> None:
        self._batch = _native_class("VectorBatch")(
            format_rules(rules), num_envs, enc.kind, enc.normalize
        )
        self.num_envs = num_envs
        self.num_actions: int = self._batch.num_actions
        self.size: int = self._batch.observation_size
        assert self.size == enc.size, (self.size, enc.size)

    def reset(self, seeds: list[int], which: list[int]) -> None:
        """Start a new game in each environment of `which`, with the matching seed."""
        self._batch.reset(list(seeds), [int(i) for i in which])

    def legal(self, which: Array | None = None) -> tuple[Array, Array]:
        """The masks (rows x A bool) and players to act (-1 at an end) of `which` (default all)."""
        if which is None:
            rows = self.num_envs
            mask = np.empty((rows, self.num_actions), dtype=bool)
            players = np.empty(rows, dtype=np.int64)
            self._batch.legal(mask.view(np.uint8), players)
            return mask, players
        picked = np.ascontiguousarray(which, dtype=np.int64)
        mask = np.empty((len(picked), self.num_actions), dtype=bool)
        players = np.empty(len(picked), dtype=np.int64)
        self._batch.legal(mask.view(np.uint8), players, picked)
        return mask, players

    def observations(
        self, players: Array, which: Array | None = None, out: Array | None = None
    ) -> Array:
        """The features of environments `which` (default all) from the view of `players[i]`.

        Written in place into `out` (len(which) x F float32, C-contiguous) when given, and
        `out` returned.
        """
        rows = (
            np.arange(self.num_envs, dtype=np.int64)
            if which is None
            else np.ascontiguousarray(which, dtype=np.int64)
        )
        if out is None:
            out = np.empty((len(rows), self.size), dtype=np.float32)
        self._batch.observations(np.ascontiguousarray(players, dtype=np.int64), rows, out)
        return out

    def step(self, actions: Array, which: Array) -> None:
        """Apply ``actions[i]`` in each environment ``i`` of `which`, all checked first."""
        self._batch.step(
            np.ascontiguousarray(actions, dtype=np.int64),
            np.ascontiguousarray(which, dtype=np.int64),
        )

    def winners(self, which: Array) -> Array:
        """The winner (seat) of each finished game of environments `which`."""
        rows = np.ascontiguousarray(which, dtype=np.int64)
        out = np.empty(len(rows), dtype=np.int64)
        self._batch.winners(rows, out)
        return out
