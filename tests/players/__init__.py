"""Tests of `hatsuden_rules.players`."""
