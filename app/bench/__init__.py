"""Benchmarks and calibration scripts, run by hand (their figures are never asserted in the
tests): `python -m app.bench.<name>`."""
