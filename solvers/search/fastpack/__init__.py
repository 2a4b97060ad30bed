"""The one packing search, compiled with Numba: it answers every ``PackingProblem``.

Cells are settled one at a time: the first open cell is covered by a placement whose first
cell it is, or left empty, so every packing is reached exactly once and an exhausted search
proves its best optimal. A node is cut when what it has plus what the unused patches could
still add cannot beat the best found: with values equal to areas, the best subset sum of
their areas within the open cells (over all open cells, and part by part); with other values
(the ``points`` objective), a fractional knapsack by value density within those cells. After
a placement, open cells no unused patch can cover are left empty, the patches that fit
nowhere drop out, and the open cells are split into their connected parts, each bounded by
the patches fitting inside it (a pocket a little larger than what fits it wastes cells: seen
there, not when the search reaches it); patches sharing a shape (and value) are used in slot
order only. The smallest part is settled first (then the given regions, smallest first): a
tight pocket takes the patches that fit it before open space does, which finds perfect
packings and proofs alike in far fewer nodes. An optional transposition table
(``use_table``) cuts states reached again by other placements.

Sets of patches to exclude (``PackingProblem.exclude``, a no-good on the choice of patches)
change only which packings count as found: one whose placed slots are an excluded set is not
kept, what extends it is still searched. Every bound stays a bound; a transposition table entry
also keys on the patches placed, and twins an excluded set splits are no longer placed in slot
order.

A problem with cells to cover (7x7 completion) is the same search branching on those cells
only: the first uncovered one is covered by a placement whose first such cell it is (the
placement may spill onto other free cells), never left empty, and a branch ends as soon as
one of them can no longer be covered; reaching all of them covered ends the search. With a
button budget, a branch also ends when the cells still to cover cost more than the buttons left
even at the unused patches' best price per cell (a fractional knapsack: a fill's ``--budget``
with ``--require-bonus``, where only the cheapest sets of patches can complete a square).

The search keeps its stack in arrays, so it runs in slices of a node budget. Compiled once,
cached on disk (``cache=True``, in the per-user cache directory ``patchwork_opt.jitcache`` sets
before the first ``@njit``). Setting up a search costs some 50 microseconds, its nodes well under
one each: best fit's many small lookahead covers and the bonus windows go through it too.

Each module holds one part and reads alone, bottom to top:

* ``cells``: the lowest cell, a cell taken out, the connected parts (on ``core.bitwords``' layout);
* ``bounds``: what the unused patches could still add (subset sums, density knapsack) or cost;
* ``state``: the state the kernels share (``Instance``, ``Stack``, ``Memo``: named tuples of arrays);
* ``node``: a new node cut or readied (prune, parts, table, bounds, the cell to settle);
* ``loop``: the slice of nodes over the stack (``run``), its children and the table's entries;
* ``index``: a ``PackingProblem`` as an ``Instance`` (placements indexed, slots ordered);
* ``packer``: ``Packer``, ``pack`` and ``warm_up``.

This module only names what callers use.
"""

from __future__ import annotations

from solvers.search.fastpack.packer import Packer, pack, warm_up

__all__ = ["Packer", "pack", "warm_up"]
