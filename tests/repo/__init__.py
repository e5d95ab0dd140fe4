"""Tests of the repository: documents, docs site, distribution, benchmarks."""
