"""Text for people: a quilt with one letter per placed patch, and a legend."""

from __future__ import annotations

import string
from collections.abc import Sequence

from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.quilt import label_grid, render_grid
from solvers.model import PlacedPatch

#: Letters for placed patches, then digits-free lowercase when more are needed.
LABELS = string.ascii_uppercase + string.ascii_lowercase


def placement_lines(quilt: int, placements: Sequence[PlacedPatch]) -> list[str]:
    """The quilt (covered cells as blocks) with each placement drawn in its own letter,
    followed by one legend line per placement."""
    pieces = [(LABELS[i % len(LABELS)], p.mask) for i, p in enumerate(placements)]
    lines = render_grid(label_grid(pieces, quilt))
    for (label, _), placed in zip(pieces, placements, strict=True):
        info = PATCHES[placed.patch]
        lines.append(
            f"  {label} = patch {placed.patch:>2} ({info.area} cells, cost {info.cost}, "
            f"income {info.income})"
        )
    return lines
