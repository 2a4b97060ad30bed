"""Ranked places for the patch (or leather patch) the person is about to place.

Patches are ranked by the plugged-in PlacementAdvisor (the CP-SAT one from the CLI, or the
fast heuristic); leather patches by how enclosed the cell is and whether it completes a 7x7.
"""

from __future__ import annotations

from dataclasses import dataclass

from patchwork_opt.ai.base import PlacementAdvisor
from patchwork_opt.ai.heuristic import contact_planes, isolated, window_progress
from patchwork_opt.core.bitboard import FULL, has_full_window, iter_bits

LEATHER_COMPLETES_BONUS = 100.0
LEATHER_FILLS_HOLE = 10.0
LEATHER_WINDOW_WEIGHT = 0.01


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One place to put the patch: its cells, its score (higher is better) and why."""

    mask: int
    score: float
    note: str


def _note(parts: dict[str, float], most: int = 4) -> str:
    """The first few non-zero named parts of a score, shortly: ``contact 0.143, holes 1``."""
    shown = [f"{key.replace('_', ' ')} {value:.3g}" for key, value in parts.items() if value]
    return ", ".join(shown[:most])


def patch_suggestions(
    advisor: PlacementAdvisor, quilt: int, patch_id: int, upcoming: list[int], top_k: int
) -> list[Suggestion]:
    """The advisor's best ``top_k`` placements of the patch on ``quilt``, best first."""
    ranked = advisor.rank_placements(quilt, patch_id, upcoming, top_k)
    return [Suggestion(r.mask, r.score, _note(r.parts)) for r in ranked[:top_k]]


def leather_suggestions(quilt: int, bonus_free: bool, top_k: int) -> list[Suggestion]:
    """Empty cells best first: one that completes a free 7x7, then isolated holes, then cells
    with the most covered or off-quilt neighbours (ties: the lower cell index first)."""
    empty = FULL & ~quilt
    holes = isolated(empty)
    planes = contact_planes(quilt)
    scored: list[Suggestion] = []
    for index in iter_bits(empty):
        cell = 1 << index
        contact = sum(1 for plane in planes if cell & plane)
        score = float(contact)
        reasons = [f"{contact} covered/edge sides"]
        if cell & holes:
            score += LEATHER_FILLS_HOLE
            reasons.insert(0, "fills a 1x1 hole")
        if bonus_free:
            if has_full_window(quilt | cell):
                score += LEATHER_COMPLETES_BONUS
                reasons.insert(0, "completes a 7x7 (bonus)")
            else:
                score += LEATHER_WINDOW_WEIGHT * window_progress(quilt | cell)
        scored.append(Suggestion(cell, score, ", ".join(reasons)))
    scored.sort(key=lambda s: (-s.score, s.mask))
    return scored[:top_k]
