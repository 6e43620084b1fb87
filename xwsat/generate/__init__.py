"""Generate the pattern and the words together (seed 003): line automata, three back-ends,
an independent checker."""
