"""The interface between the AI and the placement solvers, in the engine's floor.

The AI asks for placement advice through ``PlacementAdvisor``; the CP-SAT solvers
(``solvers.advisor.SolverAdvisor``) implement it; the applications plug one into the other. Both
sides import this module and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class RankedPlacement:
    """One placement of a patch with its score and the named parts the score is made of."""

    mask: int
    score: float
    parts: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class PlacementAdvisor(Protocol):
    """Placement advice plugged into bots by the caller (the CP-SAT solvers implement it)."""

    def rank_placements(
        self, quilt: int, patch_id: int, upcoming: Sequence[int], top_k: int
    ) -> list[RankedPlacement]:
        """Legal placements of ``patch_id`` on ``quilt``, best first (at most ``top_k``)."""
        ...

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        """Can some 7x7 square still be completed with these patches? None when unknown."""
        ...
