"""Tests of `hatsuden_rules.simulation`."""
