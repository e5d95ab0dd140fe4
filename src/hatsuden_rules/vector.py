"""A vectorised HATSUDEN environment for learning agents: N games stepped as numpy arrays.

The public path of `hatsuden_rules.integrations.vector` (see its docstring; needs numpy, which
the ``pettingzoo`` or ``openspiel`` extra installs).
"""

from hatsuden_rules.integrations.vector import AUTORESET_MODE, VectorEnv

__all__ = ["AUTORESET_MODE", "VectorEnv"]
