"""Tests of `hatsuden_rules.modelcheck`."""
