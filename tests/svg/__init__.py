"""Tests of `hatsuden_rules.svg`."""
