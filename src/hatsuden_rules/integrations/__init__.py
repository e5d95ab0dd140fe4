"""Adapters to game and learning frameworks: OpenSpiel and PettingZoo (optional extras).

Their public paths are `hatsuden_rules.openspiel` and `hatsuden_rules.pettingzoo`.
"""
