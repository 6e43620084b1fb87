"""Solver back-ends: one interface (``base.Backend``), one registry (``registry``)."""
