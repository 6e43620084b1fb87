"""Benchmarks: suites of instances, sweeps of (instance, back-end, seed) runs, and their reports."""
