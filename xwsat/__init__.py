"""xwsat: fill crossword grids, or prove them unfillable, with real solvers."""

__version__ = "0.1.0"
