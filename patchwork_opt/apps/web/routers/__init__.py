"""The service's routes, one router per part: service (page, docs, health), games, solvers, reviews, puzzles."""
