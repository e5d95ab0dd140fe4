"""HATSUDEN as a PettingZoo AEC environment.

The public path of `hatsuden_rules.integrations.pettingzoo` (see its docstring; needs the
``pettingzoo`` extra).
"""

from hatsuden_rules.integrations.pettingzoo import (
    AGENTS,
    action_to_move,
    env,
    move_to_action,
    num_distinct_actions,
    observation_bounds,
    raw_env,
)

__all__ = [
    "AGENTS",
    "action_to_move",
    "env",
    "move_to_action",
    "num_distinct_actions",
    "observation_bounds",
    "raw_env",
]
