"""Generate the pattern and the words together (the line generator, ARCHITECTURE.md): line
automata, three back-ends, an independent checker."""
