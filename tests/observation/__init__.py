"""Tests of `hatsuden_rules.observation`."""
