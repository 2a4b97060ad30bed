"""Solver benchmarks (``patchwork bench solvers`` and ``bench hint``)."""
