"""Ranked places for the patch (or leather patch) the person is about to place, each said in
plain words: where it lies, whether it completes a 7x7 square, how snugly it sits and whether it
shuts a cell in (what the ranking weighs, said as facts of the quilt, never as internal scores).

Patches are ranked by the plugged-in PlacementAdvisor (the CP-SAT one from the CLI, or the
fast heuristic); leather patches by the AI's own leather ranking (``rank_leather_cells``: a cell
completing a 7x7 first, then the most enclosed cells), so the advice is what the AI would play.
"""

from __future__ import annotations

from dataclasses import dataclass

from patchwork_opt.ai.heuristic import isolated, rank_leather_cells
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.bitboard import FULL, contact_planes, edges_against, has_full_window
from patchwork_opt.core.words import cells_words, placed_words
from patchwork_opt.i18n import _, ngettext


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One place to put the patch: its cells, its rank's score (higher is better; never shown) and
    why, in words."""

    mask: int
    score: float
    note: str


def placement_words(quilt: int, patch_id: int, mask: int) -> str:
    """``rows 0-1, cols 0-2, flipped: 5 sides touch the edge or your patches; no cell shut in``
    (where the patch lies as every move in words says it: ``core.words.placed_words``)."""
    after = quilt | mask
    sides = edges_against(mask, contact_planes(quilt))
    shut = isolated(FULL & ~after).bit_count() - isolated(FULL & ~quilt).bit_count()
    facts = []
    if has_full_window(after) and not has_full_window(quilt):
        # Translators: a suggested placement completes a 7x7 square, worth the 7-point bonus tile
        facts.append(_("completes a 7x7 square (+7)"))
    facts.append(_touching(sides))
    # Translators: a suggested placement's empty cells it shuts in, that no patch can reach
    facts.append(_("no cell shut in") if shut <= 0 else ngettext("{count} cell shut in", "{count} cells shut in", shut))
    return _("{where}: {facts}", where=placed_words(patch_id, mask), facts="; ".join(facts))


def _touching(sides: int) -> str:
    # Translators: how many sides of a suggested placement touch the quilt's edge or the player's patches
    return ngettext("{count} side touches the edge or your patches", "{count} sides touch the edge or your patches",
                    sides)


def patch_suggestions(
    advisor: PlacementAdvisor, quilt: int, patch_id: int, upcoming: list[int], top_k: int
) -> list[Suggestion]:
    """The advisor's best ``top_k`` placements of the patch on ``quilt``, best first."""
    ranked = advisor.rank_placements(quilt, patch_id, upcoming, top_k)
    return [Suggestion(r.mask, r.score, placement_words(quilt, patch_id, r.mask)) for r in ranked[:top_k]]


def leather_suggestions(quilt: int, bonus_free: bool, top_k: int) -> list[Suggestion]:
    """Empty cells best first, as the AI ranks them: one that completes a free 7x7, then isolated
    holes, then cells with the most covered or off-quilt neighbours (ties: inside the best-covered
    7x7, then the lower cell index first)."""
    planes = contact_planes(quilt)
    suggestions = []
    for score, cell in rank_leather_cells(quilt, bonus_free)[:top_k]:
        sides = sum(1 for plane in planes if cell & plane)
        reasons = [_touching(sides)]
        if sides == 4:
            # Translators: a suggested cell for the leather patch is a hole of one cell
            reasons.insert(0, _("fills a 1x1 hole"))
        if bonus_free and has_full_window(quilt | cell):
            reasons.insert(0, _("completes a 7x7 square (+7)"))
        suggestions.append(Suggestion(cell, score, _("{where}: {facts}", where=cells_words(cell),
                                                     facts="; ".join(reasons))))
    return suggestions
