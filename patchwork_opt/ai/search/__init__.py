"""The searches: the compiled UCT (``fastcore``), the exact endgame search (``exact``, compiled in
``exactcore``), the Python MCTS baseline (``mcts`` with its playout ``policy``) and the root moves
they compare (``candidates``). Each takes its evaluator and its random generator from the caller."""
