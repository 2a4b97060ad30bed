"""Command groups of the CLI that sit beside ``cli.py``'s own commands: matches, self-play and
training (``ai``), puzzles (``puzzle``). The ``bench`` group lives with the benchmarks."""
