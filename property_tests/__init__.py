"""Property-based tests of hatsuden_rules (Hypothesis), checked against RULES.md.

`oracle` re-derives from RULES.md, independently of the library, what every state must look
like (card conservation, legal moves, scores, phase transitions); `strategies` draws valid
`Rules`; the ``test_*`` modules play random complete games and a stateful machine against it.
"""
