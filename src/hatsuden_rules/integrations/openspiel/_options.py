"""OpenSpiel: the game parameters that are not `Rules` fields, the public and private observers.

Part of the OpenSpiel adapter (it needs pyspiel); `_game` reads the options through it.

- ``players``: OpenSpiel's example scripts pass ``players``; HATSUDEN is a two-player game, so
  2 is accepted and any other number refused with the library's error.
- ``normalize``: every observer's tensor holds features in [0, 1] (`observation_feature_names`
  with ``normalize=True``) instead of the raw ints of R39.
- ``core``: ``python`` (the library's engine) or ``native`` (the native core, when installed).

`SplitObserver` gives the public and the private halves of the observation for
``make_observation`` with ``IIGObservationType(perfect_recall=False, public_info=True,
private_info=NONE)`` and ``(perfect_recall=False, public_info=False,
private_info=SINGLE_PLAYER)``, as OpenSpiel's ``leduc_poker`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs
import numpy as np
import pyspiel

from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.integrations._learning import Encoder, encoder, require_native
from hatsuden_rules.observation import observation_tensor, observe
from hatsuden_rules.observation._features import feature_plan, split_plan, split_tensor

if TYPE_CHECKING:
    from hatsuden_rules.integrations.openspiel._game import HatsudenState

__all__ = ["DEFAULTS", "Options", "SplitObserver", "native_engine", "read", "split_of"]

#: The parameters that are not `Rules` fields, with their defaults.
DEFAULTS: Final[dict[str, int | bool | str]] = {"players": 2, "normalize": False, "core": "python"}


@attrs.frozen
class Options:
    """The non-rules parameters of a loaded game.

    Attributes:
        normalize: Observer tensors hold features in [0, 1].
        core: ``"python"`` or ``"native"``.
    """

    normalize: bool = False
    core: str = "python"


def read(params: dict[str, Any]) -> Options:
    """The options among the game parameters `params` (checked; one-line errors)."""
    players = params.get("players", 2)
    if players != 2 or type(players) is not int:
        raise InvalidInputError(
            "players", f"HATSUDEN is a two-player game: players must be 2, got {players!r}"
        )
    normalize = params.get("normalize", False)
    if type(normalize) is not bool:
        raise InvalidInputError("normalize", f"must be a bool, got {normalize!r}")
    core = params.get("core", "python")
    if core not in ("python", "native"):
        raise InvalidInputError("core", f"must be 'python' or 'native', got {core!r}")
    if core == "native":
        native_engine()  # the one-line error naming the extra when the native core is absent
    return Options(normalize=normalize, core=core)


def native_engine() -> Any:
    """The native core's OpenSpiel state class (imported only for ``core=native``)."""
    native = require_native()
    engine = getattr(native, "SpielState", None)
    if engine is None:
        raise InvalidInputError(
            "core", "the installed native core has no OpenSpiel state (SpielState); upgrade it"
        )
    return engine


def split_of(iig_obs_type: Any) -> str | None:
    """``"public"``, ``"private"``, or None (the observation or information state) for a kind.

    Raises:
        InvalidInputError: A kind this game does not provide (a perfect-recall public or
            private observation, or every player's private information).
    """
    private = iig_obs_type.private_info
    public = bool(iig_obs_type.public_info)
    recall = bool(iig_obs_type.perfect_recall)
    if private == pyspiel.PrivateInfoType.SINGLE_PLAYER and public:
        return None
    if not recall and public and private == pyspiel.PrivateInfoType.NONE:
        return "public"
    if not recall and not public and private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
        return "private"
    raise InvalidInputError(
        "iig_obs_type",
        f"python_hatsuden has no observation with perfect_recall={recall}, public_info={public}, "
        f"private_info={private}",
    )


def encoder_of(rules: Rules, *, perfect_recall: bool) -> Encoder:
    """The normalising encoder of the observation, or of the information state."""
    return encoder(rules, "information_state" if perfect_recall else "observation", True)


def normalized_segments(enc: Encoder) -> list[tuple[str, int]]:
    """The segments of `enc`'s normalised features, in order: ``(name, width)``."""
    return _segments(enc.rules, enc.kind, normalize=True)


def _segments(rules: Rules, kind: str, *, normalize: bool) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for feature in feature_plan(rules, kind):
        width = len(feature.categories) if normalize and feature.categories else 1
        if out and out[-1][0] == feature.segment:
            out[-1] = (feature.segment, out[-1][1] + width)
        else:
            out.append((feature.segment, width))
    return out


class SplitObserver:
    """OpenSpiel's Python observer of the public or the private half of the observation.

    Attributes:
        tensor: The flat float32 tensor, updated in place by `set_from`.
        dict: Named views into `tensor`, one per segment.
    """

    def __init__(self, rules: Rules, split: str, *, normalize: bool) -> None:
        self._rules = rules
        self._split = split
        self._names = [feature.name for feature, _ in split_plan(rules, split)]
        self._encoder = encoder(rules, split, True) if normalize else None
        segments = _segments(rules, split, normalize=normalize)
        self.tensor = np.zeros(sum(n for _, n in segments), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        start = 0
        for name, n in segments:
            self.dict[name] = self.tensor[start : start + n]
            start += n

    def _raw(self, state: HatsudenState, player: int) -> list[int]:
        game_state = state.game_state
        tensors = [observation_tensor(observe(game_state, seat)) for seat in (0, 1)]
        return split_tensor(self._rules, self._split, player, tensors)

    def set_from(self, state: HatsudenState, player: int) -> None:
        """Fill `tensor` with the public half (both players') or `player`'s private half."""
        raw = self._raw(state, player)
        if self._encoder is None:
            self.tensor[:] = raw
        else:
            self.tensor[:] = self._encoder.features(np.array([raw], dtype=np.float32))[0]

    def string_from(self, state: HatsudenState, player: int) -> str:
        """The non-zero entries of the raw half, as ``name=value`` pairs."""
        raw = self._raw(state, player)
        pairs = (f"{n}={v}" for n, v in zip(self._names, raw, strict=True) if v)
        if self._split == "public":
            return "public: " + " ".join(pairs)
        return f"private p{player}: " + " ".join(pairs)
