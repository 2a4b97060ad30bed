"""The service's routes, one router per part: pages (the pages, docs, health), games, solvers (the solver
endpoints and a game's hint), reviews, puzzles, workshop and analysis (the analysis board's stream)."""
