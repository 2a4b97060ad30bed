"""What a placement does to the quilt's open area, read on its graph (NetworkX): the parts the
region it lies in falls into, the cells whose covering alone would have split that region
(articulation points), and the small holes it leaves with the patches still to come that fit them.

This is for words (a placement's reasons), never for a search: the searches keep to bitboards.
NetworkX takes about 0.2 s to import, so the bitboards first say whether there is anything to tell
(the rest of the region whole and larger than a hole: nothing), and a light command such as a bare
quilt's ``hint`` loads NetworkX only for a placement that splits the open area or leaves a hole.
"""

from __future__ import annotations

from dataclasses import dataclass

from patchwork_opt.core.bitboard import FULL, cells_of, mask_of, regions
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from solvers.bounds import Pool, empty_graph, region_bound

#: The largest region told as a hole, with the patches that fit it (the catalogue's shapes).
SMALL_HOLE = 5


@dataclass(frozen=True, slots=True)
class Hole:
    """A small region a placement leaves: its cells, the pool's patches with a placement inside it,
    whether leather patches are still to come, and at most how many of its cells they can cover."""

    cells: int
    fits: tuple[int, ...]
    leather: bool
    fillable: int

    @property
    def size(self) -> int:
        return self.cells.bit_count()


@dataclass(frozen=True, slots=True)
class OpenAreaChange:
    """The region a placement lies in, after it: its parts (masks, largest first; none when the
    placement fills it), the placed cells whose covering alone would have split it, and the parts
    of at most ``SMALL_HOLE`` cells as holes (smallest first). ``regions_before`` counts the open
    area's regions before the placement."""

    parts: tuple[int, ...]
    cut: int
    holes: tuple[Hole, ...]
    regions_before: int

    @property
    def large(self) -> tuple[int, ...]:
        """The parts larger than a hole, largest first."""
        return tuple(part for part in self.parts if part.bit_count() > SMALL_HOLE)

    @property
    def splits(self) -> bool:
        """Whether the region falls into two or more parts larger than a hole (a part of a hole's
        size or smaller is told as a hole)."""
        return len(self.large) > 1


def hole(cells: int, pool: Pool) -> Hole:
    """The hole ``cells`` with the pool's patches that have a placement inside it."""
    outside = FULL & ~cells
    size = cells.bit_count()
    fits = tuple(pid for pid in pool.ids if PATCHES[pid].area <= size and legal_placements(pid, outside))
    return Hole(cells, fits, pool.singles > 0, region_bound(cells, pool).fillable)


def open_area_change(quilt: int, mask: int, pool: Pool) -> OpenAreaChange:
    """What covering ``mask`` (one placement, on empty cells of ``quilt``) does to the open area."""
    before = regions(FULL & ~quilt)
    region = next((r for r in before if r & mask), 0)
    rest = region & ~mask
    if not rest:
        return OpenAreaChange((), 0, (), len(before))
    if rest.bit_count() > SMALL_HOLE and len(regions(rest)) == 1:  # whole and large: nothing to tell
        return OpenAreaChange((rest,), 0, (), len(before))
    import networkx as nx

    graph = empty_graph(quilt).subgraph(cells_of(region))
    placed = set(cells_of(mask))
    cut = mask_of(cell for cell in nx.articulation_points(graph) if cell in placed)
    found = nx.connected_components(graph.subgraph(set(graph.nodes) - placed))
    parts = sorted((mask_of(part) for part in found), key=lambda m: (-m.bit_count(), m))
    holes = tuple(hole(part, pool) for part in reversed(parts) if part.bit_count() <= SMALL_HOLE)
    return OpenAreaChange(tuple(parts), cut, holes, len(before))
