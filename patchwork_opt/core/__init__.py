"""The rules engine: bitboards, the patch catalogue, moves and game states.

Pure Python with no third-party imports, so every layer above (formats, AI, solvers,
applications) can use it cheaply.
"""
