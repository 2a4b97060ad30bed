"""The moves a search compares at a position: one list, built one way, with each search's options.

Three searches compare moves, each over a different share of them:

* the solver bot's sampling search (``search.root_moves``): advance, and each affordable offer at
  the ``per_offer`` placements its ranker puts first;
* the analysis behind hints and reviews (``analysis.candidate_moves``): the same with several
  placements per offer counted ``distinct`` up to the board's symmetries (quilts equal up to a
  rotation or reflection are one move to a player), or the best few cells of a pending leather
  patch;
* the exact search (``per_offer=EVERY``): every legal move up to equivalence, likely best first
  so that alpha-beta cuts early.

The ranker is the plugged-in advisor once the quilt has ``ADVISOR_FROM`` covered cells (the
heuristic before: placing on a nearly empty quilt is easy, and the advisor's solver calls would
cost the search its time) and the heuristic for the exact search (it ranks thousands of nodes).
While the 7x7 bonus is free, a placement completing a 7x7 square is always a candidate, on top
of the ``per_offer`` ranked ones: no ranking may hide the bonus.

Two reductions keep the exact search's list small and stay exact: placements are deduplicated by
the canonical form of the quilt they leave (``core.symmetry``), and a player whose token reaches
the end places nothing more (except a leather patch taken on that last move), so their
placements differ only in whether they complete a 7x7 square (or leave one a leather patch can
complete): one placement per such class (``end_classes``).
"""

from __future__ import annotations

from collections.abc import Iterable

from patchwork_opt.ai.heuristic import TIME, HeuristicAdvisor, completing_cell, rank_leather_cells
from patchwork_opt.ai.heuristic import rank_placements as heuristic_ranking
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.bitboard import FULL, SIZE, has_full_window
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, State
from patchwork_opt.core.symmetry import canonical

ADVISOR_FROM = 10  # below this many covered cells placement is easy: the heuristic places
DISTINCT_POOL = 8  # placements asked of the ranker per distinct one wanted (symmetric images repeat)
EVERY: None = None  # ``per_offer`` for every legal move up to equivalence (the exact search)

_HEURISTIC = HeuristicAdvisor()


def completing_placement(quilt: int, patch_id: int) -> int:
    """A placement of the patch that completes a 7x7 square on ``quilt``, or 0."""
    for mask in legal_placements(patch_id, quilt):
        if has_full_window(quilt | mask):
            return mask
    return 0


def upcoming_after(circle: list[int], k: int) -> list[int]:
    """The circle as it stands after offer ``k`` is bought: what may be bought next, in order."""
    return circle[k + 1 :] + circle[:k]


def distinct_masks(quilt: int, masks: Iterable[int], limit: int | None = None) -> list[int]:
    """``masks`` in order, less those leaving a quilt equal up to symmetry to an earlier one's
    (at most ``limit`` of them)."""
    seen: set[int] = set()
    out: list[int] = []
    for mask in masks:
        form = canonical(quilt | mask)
        if form not in seen:
            seen.add(form)
            out.append(mask)
            if len(out) == limit:
                break
    return out


def near_window(quilt: int) -> bool:
    """Some 7x7 window misses exactly one cell (a leather patch could complete it)."""
    return completing_cell(quilt) != 0


def end_classes(quilt: int, masks: list[int], bonus_free: bool, leather_next: bool) -> list[int]:
    """One placement per outcome class for a player who will place nothing more: completes a 7x7,
    leaves one a leather patch taken on the way can complete, or neither."""
    if not bonus_free:
        return masks[:1]
    classes: dict[int, int] = {}
    for m in masks:
        after = quilt | m
        if has_full_window(after):
            kind = 0
        elif leather_next and after != FULL and near_window(after):
            kind = 1
        else:
            kind = 2
        classes.setdefault(kind, m)
    return [classes[k] for k in sorted(classes)]


def leather_cells(quilt: int, bonus_free: bool, limit: int, distinct: bool = True) -> list[int]:
    """The best ``limit`` cells for a leather patch in the one leather ranking
    (``heuristic.rank_leather_cells``, whose first the bots play), ``distinct`` up to symmetry."""
    cells = [cell for _, cell in rank_leather_cells(quilt, bonus_free)]
    return distinct_masks(quilt, cells, limit) if distinct else cells[:limit]


def candidate_moves(state: State, *, per_offer: int | None = 1, advisor: PlacementAdvisor | None = None,
                    distinct: bool = False) -> list[Move]:
    """The moves of the player to move a search compares, in the order it should try them.

    ``per_offer`` placements of each affordable offer that fits (or cells of a pending leather
    patch) as ranked, ``distinct`` up to symmetry or not, after advance and with any placement
    completing a 7x7; ``EVERY``: every legal move up to equivalence (``distinct`` is implied).
    """
    if per_offer is None:
        return _every_move(state)
    p = state.to_move()
    quilt = state.quilts[p]
    bonus_free = state.bonus < 0
    if state.pending >= 0:
        return [Move("leather", -1, m) for m in leather_cells(quilt, bonus_free, per_offer, distinct)]
    ranker = advisor if advisor is not None and quilt.bit_count() >= ADVISOR_FROM else _HEURISTIC
    asked = per_offer * DISTINCT_POOL if distinct else per_offer
    moves = [ADVANCE]
    for k in state.buyable_offers(p):
        pid = state.circle[k]
        ranked = [rp.mask for rp in ranker.rank_placements(quilt, pid, upcoming_after(state.circle, k), asked)]
        completing = completing_placement(quilt, pid) if bonus_free else 0
        moves += [Move("buy", pid, m) for m in _picked(quilt, completing, ranked[:asked], per_offer, distinct)]
    return moves


def _picked(quilt: int, completing: int, ranked: list[int], per_offer: int, distinct: bool) -> list[int]:
    """The completing placement (when there is one), then ``per_offer`` of the ranked ones not
    already picked (up to symmetry when ``distinct``)."""
    out = [completing] if completing else []
    seen = {canonical(quilt | completing) if distinct else completing} if completing else set()
    taken = 0
    for mask in ranked:
        if taken == per_offer:
            break
        form = canonical(quilt | mask) if distinct else mask
        if form in seen:
            continue
        seen.add(form)
        out.append(mask)
        taken += 1
    return out


def _every_move(state: State) -> list[Move]:
    """Every legal move up to equivalence: placements completing a 7x7 and each offer's best
    placement first, then advance, then the other placements (the heuristic's order)."""
    p = state.to_move()
    quilt = state.quilts[p]
    bonus_free = state.bonus < 0
    if state.pending >= 0:
        cells = [1 << i for i in range(SIZE * SIZE) if not quilt >> i & 1]
        if state.pos[p] == END:
            cells = end_classes(quilt, cells, bonus_free, leather_next=False)
        return [Move("leather", -1, m) for m in distinct_masks(quilt, cells)]
    position = state.pos[p]
    buys: list[tuple[int, Move]] = []  # (0: completes a 7x7, 1: best placement, 2: other)
    for k in state.affordable_offers(p):
        pid = state.circle[k]
        masks = legal_placements(pid, quilt)
        if not masks:
            continue
        if min(position + TIME[pid], END) == END:
            leather_next = bool(state.leather_between(position, END))
            masks = end_classes(quilt, masks, bonus_free, leather_next)
        ranked = [m for _, m in heuristic_ranking(quilt, pid, bonus_free=bonus_free, candidates=masks)]
        for i, mask in enumerate(distinct_masks(quilt, ranked)):
            completes = bonus_free and has_full_window(quilt | mask)
            buys.append((0 if completes else 1 + (i > 0), Move("buy", pid, mask)))
    buys.sort(key=lambda t: t[0])
    return [*(m for rank, m in buys if rank < 2), ADVANCE, *(m for rank, m in buys if rank == 2)]
