"""Tests of `hatsuden_rules.notation`."""
