"""Tests of the rules core (`hatsuden_rules.core`): moves, phases, scoring, errors, state."""
