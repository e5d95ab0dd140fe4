"""Tests of the command-line programs (`hatsuden_rules.cli`)."""
