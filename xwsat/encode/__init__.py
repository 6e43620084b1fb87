"""Encodings of a FillProblem for external solvers: build, never solve."""
