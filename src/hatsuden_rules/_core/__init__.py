"""The rules core: cards, moves, rules, the state and its encoding, legal moves, apply, score.

Nothing here imports from the rest of the package (see docs/architecture.md); the public names
are re-exported by `hatsuden_rules`.
"""
