"""The compiled exact search visits exactly the positions it visited when these counts were taken.

Moving the search's code between modules, changing how it is compiled (inlining, signatures, how
kernels are split) or how it is warmed up must not change what it does: the same tree, node for
node. On one thread with a fresh table a search is deterministic, so its node count and what the
tree did (``SearchStats``) pin it. The positions are from the held-out suite (``data/exact_suite.json``,
measured on only): six searches that finish and one stopped by its node budget (the anytime path),
both modes, from spaces 44 and 40. The counts were measured on the single-module search (bd5489f)
before it became a package; a change that means to alter the tree (a new bound, another ordering)
measures them again and says why in its commit.
"""

from __future__ import annotations

import pytest

from patchwork_opt.ai.search.exactcore import SEARCH_STATS, ExactTable, SearchStats, solve
from patchwork_opt.bench.exact_suite import SuitePosition, load_suite
from patchwork_opt.core.move import Move

NODE_LIMIT = 200_000

#: (style, space, seed, every_move) -> (solved, best move, its value, nodes and each of ``SEARCH_STATS``).
PINNED: dict[tuple[str, int, int, bool], tuple[bool, str, int, tuple[int, ...]]] = {
    ("greedy-greedy", 44, 35003, True):
        (True, "1@38,48,58", 2, (8124, 372, 212, 84, 4697, 3415, 3387, 8057, 9932, 3131)),
    ("solver-greedy", 44, 36001, False):
        (True, "A", -50, (11313, 633, 368, 3223, 3943, 2496, 2402, 11236, 23775, 3779)),
    ("solver-greedy", 44, 36001, True):
        (True, "A", -50, (20962, 570, 323, 5976, 7184, 4225, 4100, 20847, 34187, 7479)),
    ("mcts-solver", 44, 37002, True):
        (True, "9@61,71,72,73,82,83", -4, (77327, 2682, 1976, 4071, 37218, 30678, 27700, 77964, 171769, 34062)),
    ("level1-level3", 44, 38003, False):
        (True, "A", 60, (66562, 1658, 1048, 1887, 16657, 2437, 2132, 66763, 86991, 46970)),
    ("solver-greedy", 40, 36002, False):
        (True, "28@38,47,48,57", -38, (14911, 378, 321, 7366, 6487, 3737, 3709, 14893, 24405, 737)),
    ("mcts-solver", 44, 37004, True):
        (False, "14@46,47,48,57,67", -2, (200704, 758, 758, 2513, 58167, 31497, 18206, 200832, 543174, 139265)),
}


@pytest.fixture(scope="module")
def suite() -> dict[tuple[str, int, int], SuitePosition]:
    return {(p.style, p.space, p.seed): p for p in load_suite()}


@pytest.mark.parametrize("case", sorted(PINNED), ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}-{'every' if c[3] else 'best'}")
def test_the_search_visits_the_pinned_number_of_positions(suite: dict[tuple[str, int, int], SuitePosition],
                                                          case: tuple[str, int, int, bool]) -> None:
    style, space, seed, every_move = case
    solved, best, value, counts = PINNED[case]
    stats = SearchStats()
    result = solve(suite[style, space, seed].state(), every_move=every_move, table=ExactTable(16),
                   node_limit=NODE_LIMIT, stats=stats)
    measured = (stats.nodes, *(getattr(stats, name) for name in SEARCH_STATS))
    assert dict(zip(("nodes", *SEARCH_STATS), measured, strict=True)) == dict(
        zip(("nodes", *SEARCH_STATS), counts, strict=True))
    assert result.nodes == stats.nodes and result.solved is solved
    assert (result.moves[0].move, result.moves[0].value) == (Move.parse(best), value)
