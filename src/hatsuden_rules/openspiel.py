"""HATSUDEN as an OpenSpiel game: importing this module registers ``python_hatsuden``.

The public path of `hatsuden_rules.integrations.openspiel` (see its docstring; needs the
``openspiel`` extra).
"""

from hatsuden_rules.integrations.openspiel import (
    GAME_NAME,
    GAME_TYPE,
    PARAMETERS,
    HatsudenGame,
    HatsudenObserver,
    HatsudenState,
    Parameter,
    action_to_move,
    game_string,
    load_game,
    max_chance_nodes,
    max_game_length,
    move_to_action,
    num_distinct_actions,
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
