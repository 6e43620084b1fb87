"""xwsat: fill crossword grids, or prove them unfillable, with real solvers."""

import os

# No linear algebra here: numpy's OpenBLAS would start a thread per core at import that spins
# for a while, about 0.09 s of CPU in every process (a third of a small run's), taken from the
# racers on a 2-core machine. A user's own setting stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
