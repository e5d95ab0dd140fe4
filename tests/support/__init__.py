"""Shared helpers of the tests: reference implementations, scripted games, SVG positions."""
