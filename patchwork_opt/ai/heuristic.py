"""Fast, solver-free judgement on bitboards: where to place a patch and whether to buy one.

Placement: a placement is good when its cells touch the quilt's edges and covered cells (a
compact, hole-free quilt stays fillable) and bad when it leaves empty cells cut off from every
other empty cell (a 1x1 hole is two points lost unless leather fills it). Completing a 7x7
window while the bonus is free is worth the bonus.

Purchase: a patch is worth ``2 * area + income * marks_ahead - cost`` buttons (each covered cell
saves two points, each income mark still ahead pays its income) for the time it costs;
advancing earns one button per space, so buying pays when the patch earns more than one button
per space of time.

Leather: one ranking of the empty cells (``rank_leather_cells``) serves the bots, the analysis and
the terminal's suggestions; ``leather_cell`` is its first cell.

This is the plain-Python heuristic of the ``mcts`` reference bot, the greedy bot and the apps; the
compiled search (``fastcore``) holds a Numba copy on two-word quilts, which
``tests/test_compiled_core.py`` compares with this one on thousands of random quilts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from patchwork_opt.core.advice import RankedPlacement
from patchwork_opt.core.bitboard import (
    FULL,
    WINDOW,
    WINDOW_MASKS,
    adjacent,
    best_window,
    contact_planes,
    edges_against,
    has_full_window,
    window_progress,
)
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS, legal_placements, patch_worth
from patchwork_opt.core.state import BONUS_POINTS, END, State, marks_ahead
from patchwork_opt.core.state import COST as COST  # re-exported: the one cost table

HOLE_PENALTY = 4.0  # per empty cell cut off from every other empty cell
WINDOW_WEIGHT = 0.15  # per cell of the best 7x7 window covered, while the bonus is free
ADVANCE_VALUE = 1.0  # buttons per space earned by advancing
QUICK_SAMPLES = 6  # random fits a rollout's placement compares (drawn in at most 3x as many tries)
LEATHER_IN_WINDOW = 0.5  # a leather cell inside the best-covered 7x7 (breaks ties of enclosure)
LEATHER_COMPLETES = 100.0  # the leather cell completing a free 7x7 ranks above every other

# Patch facts as flat tuples (indexing a tuple is cheaper than an attribute lookup in hot loops;
# ``COST`` is the state's, which says what is affordable).
AREA: tuple[int, ...] = tuple(p.area for p in PATCHES)
TIME: tuple[int, ...] = tuple(p.time for p in PATCHES)
INCOME: tuple[int, ...] = tuple(p.income for p in PATCHES)


def isolated(empty: int) -> int:
    """Empty cells none of whose neighbours is empty."""
    return empty & ~adjacent(empty)


def placement_score(quilt: int, mask: int, planes: tuple[int, int, int, int], holes_before: int,
                    bonus_free: bool, progress: bool = True) -> float:
    """Heuristic score of covering ``mask`` on ``quilt`` (higher is better); ``progress`` False
    drops the (comparatively slow) 7x7-progress term, as rollouts do."""
    contact = edges_against(mask, planes)  # the engine's contact, as best fit's (over the outline)
    after = quilt | mask
    holes = isolated(FULL & ~after).bit_count() - holes_before
    score = contact - HOLE_PENALTY * holes
    if bonus_free:
        if has_full_window(after):
            score += 2.0 * BONUS_POINTS
        elif progress:
            score += WINDOW_WEIGHT * window_progress(after)
    return score


def score_parts(quilt: int, mask: int, bonus_free: bool) -> dict[str, float]:
    """The named parts of ``placement_score`` for one placement (for explanations)."""
    contact = edges_against(mask, contact_planes(quilt))
    after = quilt | mask
    holes = isolated(FULL & ~after).bit_count() - isolated(FULL & ~quilt).bit_count()
    completes = bonus_free and has_full_window(after)
    return {"contact": float(contact), "holes": float(holes), "completes_7x7": float(completes)}


def rank_placements(quilt: int, patch_id: int, *, bonus_free: bool = True, top_k: int | None = None,
                    candidates: Sequence[int] | None = None) -> list[tuple[float, int]]:
    """Legal placements of the patch as (score, mask), best first (ties: lowest mask first)."""
    masks = legal_placements(patch_id, quilt) if candidates is None else candidates
    if not masks:
        return []
    planes = contact_planes(quilt)
    holes_before = isolated(FULL & ~quilt).bit_count()
    scored = [(placement_score(quilt, m, planes, holes_before, bonus_free), m) for m in masks]
    scored.sort(key=lambda sm: (-sm[0], sm[1]))
    return scored if top_k is None else scored[:top_k]


def best_placement(quilt: int, patch_id: int, bonus_free: bool = True) -> int:
    """The heuristic's placement of the patch, or 0 when it fits nowhere."""
    ranked = rank_placements(quilt, patch_id, bonus_free=bonus_free, top_k=1)
    return ranked[0][1] if ranked else 0


def quick_placement(quilt: int, patch_id: int, rng: random.Random, samples: int = QUICK_SAMPLES,
                    bonus_free: bool = True) -> int:
    """A cheap placement for rollouts: the best of a few random fits (exhaustive once few fit).

    Rejection sampling finds fits fast on an open quilt; when it misses, every legal placement
    is scored instead, which is cheap precisely because few remain.
    """
    masks = PLACEMENTS[patch_id]
    n = len(masks)
    found: list[int] = []
    for _ in range(samples * 3):
        m = masks[int(rng.random() * n)]
        if not m & quilt:
            found.append(m)
            if len(found) == samples:
                break
    if not found:
        legal = legal_placements(patch_id, quilt)
        if not legal:
            return 0
        found = legal
    if len(found) == 1:
        return found[0]
    planes = contact_planes(quilt)
    holes_before = isolated(FULL & ~quilt).bit_count()
    best, best_score = 0, -1e9
    for m in found:
        s = placement_score(quilt, m, planes, holes_before, bonus_free, progress=False)
        if s > best_score:
            best, best_score = m, s
    return best


def completing_cell(quilt: int) -> int:
    """The empty cell (a one-bit mask) of the first 7x7 window, in ``WINDOW_MASKS`` order, that
    misses exactly one cell, or 0: where a leather patch completes a 7x7 square."""
    empty = FULL & ~quilt
    for window in WINDOW_MASKS:
        missing = window & empty
        if missing and missing & (missing - 1) == 0:
            return missing
    return 0


def leather_scores(quilt: int, bonus_free: bool = True) -> list[tuple[float, int]]:
    """(score, cell) of every empty cell, in cell order: its covered or off-quilt sides (4 is an
    isolated hole), ``LEATHER_IN_WINDOW`` inside the best-covered 7x7 window and, while the bonus is
    free, ``LEATHER_COMPLETES`` for ``completing_cell`` (one such cell is enough to win the bonus;
    a second window completed by another cell, a rarity, does not lift that cell)."""
    return _leather_scores(quilt, bonus_free, completing_cell(quilt) if bonus_free else 0)


def _leather_scores(quilt: int, bonus_free: bool, completing: int) -> list[tuple[float, int]]:
    empty = FULL & ~quilt
    if not empty:
        return []
    up, down, left, right = contact_planes(quilt)
    preferred = best_window(quilt) if bonus_free else 0
    scored: list[tuple[float, int]] = []
    rest = empty
    while rest:
        cell = rest & -rest
        rest ^= cell
        score = bool(cell & up) + bool(cell & down) + bool(cell & left) + bool(cell & right) + (
            LEATHER_IN_WINDOW if cell & preferred else 0.0
        )
        if cell == completing:
            score += LEATHER_COMPLETES
        scored.append((score, cell))
    return scored


def rank_leather_cells(quilt: int, bonus_free: bool = True) -> list[tuple[float, int]]:
    """Every empty cell as (score, cell), best first (ties: the lower cell first): the one ranking
    of leather cells (the bots place on the first, the analysis and the suggestions list the top)."""
    return sorted(leather_scores(quilt, bonus_free), key=lambda sc: (-sc[0], sc[1]))


def leather_cell(quilt: int, bonus_free: bool = True) -> int:
    """The cell (as a one-bit mask) for a leather patch: ``rank_leather_cells``' first, i.e. the one
    completing a 7x7 if any, else the most enclosed empty cell (an isolated hole first), inside
    the best-covered window on ties; 0 on a full quilt."""
    completing = completing_cell(quilt) if bonus_free else 0
    if completing:
        return completing  # the top score: found without scoring every cell
    best, best_score = 0, -1.0
    for score, cell in _leather_scores(quilt, bonus_free, 0):
        if score > best_score:
            best, best_score = cell, score
    return best


def _purchase_value(patch_id: int, position: int) -> float:
    time = TIME[patch_id]
    space = min(time, END - position)
    value = patch_worth(patch_id, marks_ahead(position))
    return value / space if space > 0 else float(value)


#: VALUE_PER_TIME[patch_id][position]: the purchase rule's value, tabulated for rollouts.
VALUE_PER_TIME: tuple[tuple[float, ...], ...] = tuple(
    tuple(_purchase_value(pid, pos) for pos in range(END + 1)) for pid in range(len(PATCHES))
)


def purchase_value(patch_id: int, position: int) -> float:
    """Buttons-equivalent gained per space of time by buying the patch on ``position``."""
    return VALUE_PER_TIME[patch_id][position]


@dataclass(frozen=True, slots=True)
class PurchasePlan:
    """The greedy rule's choice: buy offer ``offer_index`` at ``mask`` (index -1: advance)."""

    offer_index: int
    mask: int
    value: float


def greedy_plan(state: State, player: int, *, exhaustive: bool = True,
                rng: random.Random | None = None, noise: float = 0.0) -> PurchasePlan:
    """The value-per-time rule: buy the best-valued affordable patch that fits when it beats
    advancing, placed by the heuristic (``exhaustive``) or by ``quick_placement``."""
    quilt, position = state.quilts[player], state.pos[player]
    bonus_free = state.bonus < 0
    circle = state.circle
    options: list[tuple[float, int]] = []
    for k in state.affordable_offers(player):
        value = purchase_value(circle[k], position)
        if noise and rng is not None:
            value += noise * (rng.random() - 0.5)
        options.append((value, k))
    options.sort(reverse=True)
    for value, k in options:
        if value <= ADVANCE_VALUE:
            break
        pid = circle[k]
        if exhaustive:
            mask = best_placement(quilt, pid, bonus_free)
        else:
            assert rng is not None
            mask = quick_placement(quilt, pid, rng, bonus_free=bonus_free)
        if mask:
            return PurchasePlan(k, mask, value)
    return PurchasePlan(-1, 0, ADVANCE_VALUE)


class HeuristicAdvisor:
    """A pure-Python PlacementAdvisor from the fast heuristic (no lookahead over the circle).

    ``bonus_feasible`` answers only what it can prove cheaply: True when a 7x7 is already full,
    False when no window's empty cells can be covered by the patches' total area, else None.
    """

    name = "heuristic"

    def rank_placements(self, quilt: int, patch_id: int, upcoming: Sequence[int],
                        top_k: int) -> list[RankedPlacement]:
        ranked = rank_placements(quilt, patch_id, top_k=top_k)
        return [RankedPlacement(mask, score, score_parts(quilt, mask, True)) for score, mask in ranked]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        if has_full_window(quilt):
            return True
        area = sum(AREA[p] for p in patches)
        least_empty = WINDOW * WINDOW - window_progress(quilt)
        if least_empty > area:
            return False
        return None
