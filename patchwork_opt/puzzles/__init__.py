"""Puzzles proven by the solvers: "find the winning move" endgames (the exact search) and "fill
this quilt" challenges (the fill optimizer, in ``patchwork_opt/puzzles/making.py``), their file format, the
shipped bank, and Glicko-2 ratings for puzzles and the people who solve them."""
