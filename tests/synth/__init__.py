"""Synthetic photos of filled sheets and tick pads, for the tests and the benchmarks."""
