"""Free-form crosswords from a word list with clues: CP-SAT and the free-form placer's greedy,
an independent checker."""
