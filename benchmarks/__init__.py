"""Benchmarks of accountdesk (see the README, "Performance"); run ``python -m benchmarks``."""
