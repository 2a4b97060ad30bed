"""CP-SAT placement subproblems: best fit, 7x7 completion and optimal fill."""
