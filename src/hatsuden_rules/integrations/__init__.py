"""Adapters to game and learning frameworks: OpenSpiel and PettingZoo (optional extras).

Their public paths are `hatsuden_rules.openspiel`, `hatsuden_rules.pettingzoo` and
`hatsuden_rules.vector` (the vectorised environment; `_learning` is the engine they share).
"""
