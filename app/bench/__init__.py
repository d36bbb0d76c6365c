"""Benchmarks run by hand (never timed assertions in the tests): `python -m app.bench.<name>`."""
