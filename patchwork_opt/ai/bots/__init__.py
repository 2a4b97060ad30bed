"""The bots (random, greedy, MCTS, the solver), their registry by name and level, and the answer
``patchwork move`` gives."""
