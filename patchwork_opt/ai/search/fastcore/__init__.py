"""The solver bot's search compiled with Numba: the rules' transitions, the heuristic, the rollout and the UCT tree.

It plays the same game as ``State`` (the tests replay its moves through ``State.apply``) and the
same policies as ``mcts.py``/``policy.py`` (heuristic placement in the tree, noisy greedy with
sampled placements in rollouts), on a flat int64 position whose quilts are two words in the one
layout of compiled code (``core/bitwords``). The heuristic and the rollout here are compiled copies
of ``heuristic.py``/``policy.py`` (the Python ones stay for the ``mcts`` reference bot);
``tests/test_compiled_core.py`` holds the copies equal, the rollout move for move when both draw the
same uniform numbers. The result value is ``policy.outcome_value`` itself, compiled.

Each module holds one part and reads alone, bottom to top:

* ``tables``: the catalogue's placements, the 7x7 windows, prices and the track as arrays;
* ``position``: the flat position's slots and ``encode`` from a ``State``;
* ``geometry``: full and best-covered windows, isolated holes, whether a patch fits;
* ``rules``: who moves, ``advance``, ``buy``, ``place_leather``, the score and a finished game's
  value (``outcome``): the rules once, which the exact search (``exactcore``) plays too;
* ``heuristic``: the placements (``best_placement``, ``quick_placement``), the leather cell and
  ``resolve_leather``;
* ``playout``: the noisy-greedy ``rollout`` and ``rollout_value``, the default leaf evaluator;
* ``tree``: a node's moves (``init_node``) and ``run_iterations``, UCT over preallocated arrays;
* ``evaluators``: ``CompiledEvaluator`` (what values the leaves) and ``ROLLOUT``;
* ``search``: ``CompiledSearch`` from Python (run in slices, root statistics, lines), ``warm_up``.

This module only names what callers use: callers import the package, not a room.
"""

from __future__ import annotations

from patchwork_opt.ai.search.fastcore.evaluators import ROLLOUT, CompiledEvaluator, rollout_evaluator
from patchwork_opt.ai.search.fastcore.geometry import (
    fits_anywhere,
    full_window,
    holes_of,
    isolated,
    window_progress,
)
from patchwork_opt.ai.search.fastcore.heuristic import (
    best_placement,
    leather_cell,
    placement_score,
    quick_placement,
    resolve_leather,
)
from patchwork_opt.ai.search.fastcore.playout import rollout, rollout_value
from patchwork_opt.ai.search.fastcore.position import (
    BONUS,
    BUT,
    CIRCLE,
    CLEN,
    FIRST_END,
    INC,
    LAST,
    LEATHER,
    PENDING,
    POS,
    QHI,
    QLO,
    SLEN,
    encode,
)
from patchwork_opt.ai.search.fastcore.rules import (
    advance,
    buy,
    is_terminal,
    outcome,
    outcome_value,
    place_leather,
    score,
    to_move,
    token_to,
)
from patchwork_opt.ai.search.fastcore.search import CompiledSearch, RootStats, compile_search, warm_up
from patchwork_opt.ai.search.fastcore.tables import (
    AFTER,
    AREA_A,
    COST_A,
    INCOME_A,
    MARKS,
    MAX_PLACEMENTS,
    N_PATCHES,
    PL_HI,
    PL_LO,
    PL_N,
    TIME_A,
    VPT,
    WIN_HI,
    WIN_LO,
)
from patchwork_opt.ai.search.fastcore.tree import MAX_CHILDREN, init_node, run_iterations
from patchwork_opt.core.bitwords import HIGH, LOW, LOW_BITS, popcount

__all__ = [
    "AFTER",
    "AREA_A",
    "BONUS",
    "BUT",
    "CIRCLE",
    "CLEN",
    "COST_A",
    "FIRST_END",
    "HIGH",
    "INC",
    "INCOME_A",
    "LAST",
    "LEATHER",
    "LOW",
    "LOW_BITS",
    "MARKS",
    "MAX_CHILDREN",
    "MAX_PLACEMENTS",
    "N_PATCHES",
    "PENDING",
    "PL_HI",
    "PL_LO",
    "PL_N",
    "POS",
    "QHI",
    "QLO",
    "ROLLOUT",
    "SLEN",
    "TIME_A",
    "VPT",
    "WIN_HI",
    "WIN_LO",
    "CompiledEvaluator",
    "CompiledSearch",
    "RootStats",
    "advance",
    "best_placement",
    "buy",
    "compile_search",
    "encode",
    "fits_anywhere",
    "full_window",
    "holes_of",
    "init_node",
    "is_terminal",
    "isolated",
    "leather_cell",
    "outcome",
    "outcome_value",
    "place_leather",
    "placement_score",
    "popcount",
    "quick_placement",
    "resolve_leather",
    "rollout",
    "rollout_evaluator",
    "rollout_value",
    "run_iterations",
    "score",
    "to_move",
    "token_to",
    "warm_up",
    "window_progress",
]
