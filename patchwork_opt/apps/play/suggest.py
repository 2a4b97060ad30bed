"""Ranked places for the patch (or leather patch) the person is about to place.

Patches are ranked by the plugged-in PlacementAdvisor (the CP-SAT one from the CLI, or the
fast heuristic); leather patches by the AI's own leather ranking (``rank_leather_cells``: a cell
completing a 7x7 first, then the most enclosed cells), so the advice is what the AI would play.
"""

from __future__ import annotations

from dataclasses import dataclass

from patchwork_opt.ai.heuristic import contact_planes, rank_leather_cells
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.bitboard import has_full_window


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
    """Empty cells best first, as the AI ranks them: one that completes a free 7x7, then isolated
    holes, then cells with the most covered or off-quilt neighbours (ties: inside the best-covered
    7x7, then the lower cell index first)."""
    planes = contact_planes(quilt)
    suggestions = []
    for score, cell in rank_leather_cells(quilt, bonus_free)[:top_k]:
        sides = sum(1 for plane in planes if cell & plane)
        reasons = [f"{sides} covered/edge sides"]
        if sides == 4:
            reasons.insert(0, "fills a 1x1 hole")
        if bonus_free and has_full_window(quilt | cell):
            reasons.insert(0, "completes a 7x7 (bonus)")
        suggestions.append(Suggestion(cell, score, ", ".join(reasons)))
    return suggestions
