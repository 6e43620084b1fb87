"""The CLI's commands, one module per command family; each module has ``register(app)``.

Commands are thin: they parse options, call the library, and print. Shared option types and the
error-to-exit-code plumbing live in :mod:`xwsat.commands.common`.
"""
