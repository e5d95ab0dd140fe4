"""HATSUDEN as an OpenSpiel game: importing this module registers ``python_hatsuden``.

    >>> import pyspiel
    >>> import hatsuden_rules.openspiel
    >>> game = pyspiel.load_game("python_hatsuden(energies=2,max_value=2,hand_size=2,techs=none)")

The parameters are the `Rules` fields (docs/frameworks.md). Needs the ``openspiel`` extra:
``pip install 'hatsuden-rules[openspiel]'``.

Examples:
    >>> import pyspiel
    >>> game = pyspiel.load_game("python_hatsuden")
    >>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
    (422, 24, 1702)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 20)
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
    import pyspiel
except ImportError:
    raise ImportError(
        "hatsuden_rules.openspiel needs the 'openspiel' extra: "
        "pip install 'hatsuden-rules[openspiel]'"
    ) from None

from hatsuden_rules.actions import action_to_move, move_to_action, num_distinct_actions
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.integrations.openspiel._game import (
    GAME_TYPE,
    HatsudenGame,
    HatsudenObserver,
    HatsudenState,
)
from hatsuden_rules.integrations.openspiel._length import max_chance_nodes, max_game_length
from hatsuden_rules.integrations.openspiel._params import (
    GAME_NAME,
    PARAMETERS,
    Parameter,
    game_string,
    parameters_from_rules,
    rules_from_parameters,
)

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "PARAMETERS",
    "HatsudenGame",
    "HatsudenObserver",
    "HatsudenState",
    "Parameter",
    "action_to_move",
    "game_string",
    "load_game",
    "max_chance_nodes",
    "max_game_length",
    "move_to_action",
    "num_distinct_actions",
    "parameters_from_rules",
    "rules_from_parameters",
]

pyspiel.register_game(GAME_TYPE, HatsudenGame)


def load_game(rules: Rules = STANDARD) -> HatsudenGame:
    """The ``python_hatsuden`` game of `rules`, loaded through OpenSpiel (`game_string`).

    Examples:
        >>> from hatsuden_rules import Rules
        >>> load_game(Rules(energies=2, max_value=2, hand_size=2, techs=())).num_distinct_actions()
        47
    """
    game: HatsudenGame = pyspiel.load_game(game_string(rules))
    return game
