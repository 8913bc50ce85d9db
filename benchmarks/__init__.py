"""Benchmarks of accountdesk (see notes/bench.md); run ``python -m benchmarks``."""
