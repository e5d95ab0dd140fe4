"""Tests of `hatsuden_rules.serialization` and `.records`."""
