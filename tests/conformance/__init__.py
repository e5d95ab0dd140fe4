"""Tests of `hatsuden_rules.conformance` and of the vectors."""
