"""Free-form crosswords from a word list with clues (seed 004): CP-SAT and the seed's greedy,
an independent checker."""
