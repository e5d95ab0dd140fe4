"""Tests of the rules core (`hatsuden_rules._core`): moves, phases, scoring, errors, state."""
