"""The exact search compiled with Numba: the rest of the game over every legal move, as ``ai/search/exact.py``.

Same game, same values, same moves as the Python ``ExactSearch``, on the flat int64 position of
``ai/search/fastcore`` with its transitions (``advance``, ``buy``, ``place_leather``, ``score``:
the rules live there once). A finished game is worth ``2 * margin`` to a player, or +1/-1 for a tie
won/lost on the tie-break; negamax maximises it, so the best value is the best margin and a
positive one a win. ``solve`` is the entry point: every root move as an ``AnalysedMove``.

Each module holds one part and reads alone, bottom to top:

* ``symmetry``: canonical quilts (a compiled copy of ``core.symmetry``) and when they are needed;
* ``moves``: every legal move up to equivalence, in the one move order (``gen_moves``, ``order_key``),
  and the root's moves from Python (``root_moves``);
* ``bounds``: the value of a finished game, the static bounds that settle a node without a move,
  the last move valued on the spot, the first guess of a root move's value;
* ``table``: the transposition table (``ExactTable``), shared lock-free by threads;
* ``search``: the tree (``search_from``: alpha-beta on an explicit stack), its control array and
  what it counts (``SearchStats``);
* ``threads``: each thread's default table, the stacks kept with a table, root moves spread over
  threads, and the watcher that stops a search at its deadline;
* ``root``: ``solve``, anytime (the bounds each root move's probes proved survive a stop), and
  ``warm_up``;
* ``estimate``: how long a search takes from a position (``estimate_nodes``, ``estimate_seconds``),
  and where it is beyond any budget (``out_of_reach``).

This module only names what callers use.
"""

from __future__ import annotations

from patchwork_opt.ai.search.exactcore.estimate import (
    ESTIMATE_FEATURES,
    ESTIMATE_FIT,
    ESTIMATE_SPREAD,
    NODES_PER_SECOND,
    ROOT_FLOOR,
    THREAD_SPEEDUP,
    estimate_features,
    estimate_nodes,
    estimate_position,
    estimate_seconds,
    out_of_reach,
)
from patchwork_opt.ai.search.exactcore.moves import root_moves
from patchwork_opt.ai.search.exactcore.root import solve, warm_up
from patchwork_opt.ai.search.exactcore.search import MAX_THREADS, SEARCH_STATS, SearchStats
from patchwork_opt.ai.search.exactcore.table import ENTRY_BYTES, ExactTable

__all__ = [
    "ENTRY_BYTES",
    "ESTIMATE_FEATURES",
    "ESTIMATE_FIT",
    "ESTIMATE_SPREAD",
    "MAX_THREADS",
    "NODES_PER_SECOND",
    "ROOT_FLOOR",
    "SEARCH_STATS",
    "THREAD_SPEEDUP",
    "ExactTable",
    "SearchStats",
    "estimate_features",
    "estimate_nodes",
    "estimate_position",
    "estimate_seconds",
    "out_of_reach",
    "root_moves",
    "solve",
    "warm_up",
]
