"""Puzzles: kinds of puzzle as types in one registry (``kinds/``: "find the winning move" endgames
proven by the exact search, "fill this quilt" challenges proven by the fill optimizer, and "find a
better move" exercises from a reviewed game's own mistakes), how they are made, the shipped bank,
which puzzle a visitor gets next, and Glicko-2 ratings for puzzles and the people who solve them."""
