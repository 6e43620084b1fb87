"""The numba-compiled MAC search (the `mac` back-end): model, state, kernel, its ahead-of-time
build, proofs and shared nogoods."""
