"""Fill quality as constructors measure it: the highest score level at which a grid fills,
proved the ceiling, then the best fill at that level (``fill --optimize``), and the short look
at a list's upper levels that makes plain ``fill`` prefer good words (``upper``).

A level L keeps, in every open slot, the words scored L or more; a slot whose letters the grid
gives in full (a locked entry, the kept part of a region) is the constructor's and keeps every
word. Levels are monotone: a grid that cannot be filled at L cannot be filled above it.
"""
