"""Best fit of one patch on a quilt: the legal placements ranked by how fillable they leave it.

A placement's score is a sum of named parts a person can read (``ScoreWeights`` says how
they add up):

- ``contact``: share of the patch's outline lying against the quilt's border or covered
  cells (0..1); snug placements leave fewer ragged gaps.
- ``new_unfillable``: empty cells this placement makes unfillable for good: cells in regions
  the pool of patches still to come cannot fill (region sizes against subset sums of areas,
  see ``solvers.bounds``), after minus before.
- ``lookahead_lost``: cells of the next patches (of the circle, or a given list) that can no
  longer be placed because of this placement: the best cover of those patches on the quilt
  before, minus the best cover after. This is the solver part: the packing search (``solvers.search``),
  CP-SAT when the search runs long, and free answers whenever a known optimal cover of the
  quilt before avoids the placement's cells.
- ``bonus_lost``: 1 when some 7x7 square could still be completed before and cannot after.
- ``completes_square``: 1 when this placement completes a 7x7 square (the bonus tile).

Speed: every legal placement gets the cheap parts (bitboards, cached region bounds). The
lookahead part can only lower a score, so candidates are solved best cheap score first;
once k are held, a candidate is searched only far enough to tell whether it beats the k-th
score (a floor, as in alpha-beta), and the ranking stops when no cheap score left can beat
it: the top k are exactly the top k under the full score (by the deadline).

Time: the caller's deadline (``core.clock``) bounds the solver part; past it the candidates left
get the fast bound. Each CP-SAT call of the lookahead takes at most ``call_seconds`` of it.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import FULL, cells_of, contact_edges, has_full_window, mask_of
from patchwork_opt.core.catalogue import PATCH_COUNT, PATCHES, check_patch_ids, fits_anywhere, legal_placements, patch
from patchwork_opt.core.clock import COVER_CALL_SECONDS, Deadline
from patchwork_opt.core.errors import DuplicatePatchError, PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_
from solvers.bounds import FillOutlook, Pool, best_sum_at_most, outlook, subset_sums
from solvers.model import PlacementModel, SolverConfig, SolveStatus


class ScoreWeights(BaseModel):
    """How the parts add up to a score (points, roughly: an empty cell at the end costs 2).

    score = contact * contact - unfillable * new_unfillable - lookahead * lookahead_lost
            - bonus * bonus_lost + completes * completes_square
    """

    model_config = ConfigDict(frozen=True)

    contact: float = Field(default=2.0, ge=0, description="For a placement flush on every side.")
    unfillable: float = Field(default=2.0, ge=0, description="Per cell: an empty cell costs 2 points.")
    lookahead: float = Field(default=1.0, ge=0, description="Per cell of the next patches blocked.")
    bonus: float = Field(default=3.0, ge=0, description="For closing the last completable 7x7 square.")
    completes: float = Field(default=7.0, ge=0, description="For completing a 7x7 square (the tile's 7 points).")


class Hint(BaseModel):
    """One suggested move: a placement of ``patch`` (``type`` buy/place/leather) or an advance."""

    type: Literal["place", "buy", "leather", "advance"] = "place"
    patch: int | None
    cells: list[tuple[int, int]] = Field(default_factory=list)
    score: float
    parts: dict[str, float] = Field(default_factory=dict)
    exact: bool = Field(default=True, description="False when the lookahead part is a bound, not proven.")
    reason: str = ""

    @property
    def mask(self) -> int:
        return mask_of(self.cells)


class BestFitResult(BaseModel):
    """The top placements of one patch, best first, and what the ranking was based on."""

    patch: int
    hints: list[Hint]
    legal: int = Field(description="Legal placements of the patch on the quilt.")
    lookahead: list[int] = Field(description="The next patches whose cover is the solver part.")
    lookahead_cover_before: int = Field(description="Best cover of the lookahead patches before placing.")
    pool: int = Field(description="Patches (and leather) counted as still to come.")
    pool_ids: list[int] = Field(description="The patches counted as still to come.")
    singles: int = Field(description="The leather patches counted as still to come.")
    solved: int = Field(description="Candidates whose lookahead part was computed.")
    exact: bool = Field(description="True when the lookahead parts of all hints are proven.")
    weights: ScoreWeights
    wall_time: float


# --- the solver part: best cover of a few patches -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Cover:
    """Most cells the lookahead patches can cover on a quilt (``value``), proven when ``exact``."""

    value: int
    bound: int
    placements: tuple[tuple[int, int], ...] = ()
    method: str = "dfs"
    estimate: bool = False  # value is a bound standing in for a search cut short

    @property
    def exact(self) -> bool:
        return not self.estimate and self.value >= self.bound

    @property
    def union(self) -> int:
        out = 0
        for _, mask in self.placements:
            out |= mask
        return out


@dataclass
class CoverSolver:
    """Best cover of a fixed list of patches on many quilts, cached per quilt.

    The packing search (``solvers.search``) with the cover to beat as its incumbent; when it
    exceeds ``node_limit`` nodes, CP-SAT takes over with the search's best as a hint, for at most
    ``call_seconds`` (and never past the deadline ``solve`` is given).
    """

    ids: tuple[int, ...]
    config: SolverConfig = field(default_factory=lambda: SolverConfig(workers=1))
    call_seconds: float = COVER_CALL_SECONDS
    node_limit: int = 20_000
    use_dfs: bool = True
    cache: dict[int, Cover] = field(default_factory=dict)
    max_cache: int = 50_000
    dfs_runs: int = 0
    cpsat_runs: int = 0

    def __post_init__(self) -> None:
        self.ids = tuple(sorted(self.ids, key=lambda i: (-PATCHES[i].area, i)))
        self.areas = tuple(PATCHES[i].area for i in self.ids)
        self.pool = Pool.of(self.ids)

    def upper(self, quilt: int) -> int:
        """Fast proven bound: subset sums of the patches that fit, within the fillable cells."""
        if not self.ids:
            return 0
        fitting = [a for i, a in zip(self.ids, self.areas, strict=True) if fits_anywhere(i, quilt)]
        if not fitting:
            return 0
        view = outlook(quilt, self.pool)
        room = (FULL & ~quilt).bit_count() - view.unfillable
        return best_sum_at_most(subset_sums(fitting), room)

    def solve(self, quilt: int, cap: int | None = None, floor: int = -1, deadline: Deadline | None = None) -> Cover:
        """Best cover on ``quilt``.

        ``cap`` is a bound the caller has proven (reaching it ends the search); ``floor`` says
        only covers above it matter: when none exists the answer is ``Cover(0, floor)``, a proof
        that the cover is at most ``floor`` (alpha-beta style, much cheaper than the exact value).
        A CP-SAT call ends by ``deadline`` (None: ``call_seconds`` from when it starts).
        """
        cached = self.cache.get(quilt)
        if cached is not None and (cached.exact or cached.bound <= floor):
            return cached
        upper = self.upper(quilt)
        if cap is not None:
            upper = min(upper, cap)
        if upper <= 0:
            cover = Cover(0, 0, (), "bound")
        elif upper <= floor:
            cover = Cover(0, upper, (), "bound")
        elif not self.use_dfs:
            cover = self._cpsat(quilt, upper, floor, Cover(0, upper, (), "none"), deadline)
        else:
            found = self._dfs(quilt, upper, floor)
            proven = found.exact or found.bound <= floor
            cover = found if proven else self._cpsat(quilt, upper, floor, found, deadline)
        if len(self.cache) >= self.max_cache:
            self.cache.clear()
        self.cache[quilt] = cover
        return cover

    def _dfs(self, quilt: int, upper: int, floor: int) -> Cover:
        from solvers.search import PackingProblem, PackResult, pack  # compiled (Numba): only with a lookahead

        self.dfs_runs += 1
        # only covers above the floor matter: it stands as the incumbent to beat
        problem = PackingProblem(FULL & ~quilt, self.ids)
        found = pack(problem, upper=upper, incumbent=PackResult(value=max(floor, 0)), node_limit=self.node_limit)
        placements = tuple((self.ids[slot], mask) for slot, mask in found.placements)
        improved = bool(placements) or (floor < 0 and found.value == 0)
        if found.exhausted:
            if improved:
                return Cover(found.value, found.value, placements, "dfs")
            return Cover(0, max(floor, 0), (), "dfs")  # nothing above the floor: proven <= floor
        return Cover(found.value if improved else 0, upper, placements, "dfs")

    def _cpsat(self, quilt: int, upper: int, floor: int, start: Cover, deadline: Deadline | None) -> Cover:
        self.cpsat_runs += 1
        call = Deadline.after(self.call_seconds) if deadline is None else deadline.within(self.call_seconds)
        model = PlacementModel(quilt, self.ids)
        # the bound as the objective's upper end; above the floor, or not worth having
        model.maximize(model.covered_cells(), at_most=upper, at_least=floor + 1 if floor >= 0 else None)
        if start.placements:
            model.add_hint(start.placements)
        solution = model.solve(self.config, call)
        placements = tuple((p.patch, p.mask) for p in solution.placements)
        value = round(solution.objective or 0)
        if solution.status is SolveStatus.OPTIMAL:
            return Cover(value, value, placements, "cpsat")
        if solution.status is SolveStatus.INFEASIBLE:
            # nothing above the floor (without a floor this cannot happen: covering nothing is feasible)
            return Cover(0, max(floor, 0), (), "cpsat")
        if solution.status is SolveStatus.FEASIBLE and value >= start.value:
            bound = int(solution.bound) if solution.bound is not None else upper
            return Cover(value, max(min(upper, bound), value), placements, "cpsat")
        # UNKNOWN at the time limit, MODEL_INVALID, or a worse FEASIBLE: keep the search's best
        return Cover(start.value, max(upper, start.value), start.placements, start.method)


# --- the cheap parts --------------------------------------------------------------------------


def contact(mask: int, quilt: int) -> float:
    """Share of the outline of ``mask`` lying against the border or covered cells of ``quilt``
    (the engine's ``contact_edges``, which the heuristic's contact counts too)."""
    touching, outline = contact_edges(mask, quilt)
    return touching / outline if outline else 0.0


@dataclass(frozen=True, slots=True)
class Candidate:
    """A placement with its cheap parts evaluated."""

    mask: int
    contact: float
    unfillable: int
    new_unfillable: int
    bonus_lost: int
    completes: int
    regions: int
    cheap: float


@dataclass
class Ranker:
    """Ranks placements (masks) of one piece on one quilt; reusable parts are computed once.

    ``pool`` is what is still to come besides the piece; ``lookahead`` the next patches whose
    cover is the solver part; ``bonus_at_stake`` False when the 7x7 tile is already taken;
    ``piece_pool`` the pool before the piece is taken (for the unfillable cells before);
    ``deadline`` bounds the lookahead's searches (None: none), each CP-SAT call at most ``call_seconds``;
    ``stop``, once set, ends them as the deadline would.
    """

    quilt: int
    pool: Pool
    lookahead: tuple[int, ...]
    weights: ScoreWeights = field(default_factory=ScoreWeights)
    config: SolverConfig = field(default_factory=lambda: SolverConfig(workers=1))
    call_seconds: float = COVER_CALL_SECONDS
    deadline: Deadline | None = None
    stop: StopSignal | None = None
    bonus_at_stake: bool = True
    node_limit: int = 20_000
    use_shortcuts: bool = True
    piece_pool: Pool | None = None
    covers: CoverSolver | None = None

    def __post_init__(self) -> None:
        self.base = outlook(self.quilt, self.pool)
        before = outlook(self.quilt, self.piece_pool) if self.piece_pool is not None else self.base
        self.unfillable_before = before.unfillable
        self.bonus_before = self.bonus_at_stake and before.window_open()
        self.window_free = not has_full_window(self.quilt)
        if self.covers is None:
            self.covers = CoverSolver(
                self.lookahead, self.config, self.call_seconds, self.node_limit, use_dfs=self.use_shortcuts
            )
        self.cover_before = (self.covers.solve(self.quilt, deadline=self.deadline) if self.lookahead
                             else Cover(0, 0, (), "none"))
        self.best_before = self.cover_before.value
        self.witnesses: list[int] = [self.cover_before.union] if self.cover_before.exact else []
        self.solved = 0

    def cheap(self, mask: int) -> Candidate:
        after: FillOutlook = self.base.after(mask)
        unfillable = after.unfillable
        new_unfillable = unfillable - self.unfillable_before
        completes = int(self.bonus_at_stake and self.window_free and has_full_window(self.quilt | mask))
        lost = int(self.bonus_before and not completes and not after.window_open())
        touch = contact(mask, self.quilt)
        w = self.weights
        score = (
            w.contact * touch - w.unfillable * new_unfillable - w.bonus * lost + w.completes * completes
        )
        return Candidate(mask, touch, unfillable, new_unfillable, lost, completes, after.region_count, score)

    def lookahead_cover(self, mask: int, floor: int = -1, estimate: bool = False) -> Cover:
        """Best cover of the lookahead patches once ``mask`` is covered (see ``CoverSolver.solve``).

        ``estimate`` (out of time): no search, the fast upper bound stands in, marked unproven.
        """
        assert self.covers is not None
        if not self.lookahead or self.weights.lookahead == 0:
            return Cover(self.best_before, self.best_before, (), "none")
        before = self.cover_before
        if self.use_shortcuts and before.exact:
            for union in self.witnesses:
                if not union & mask:
                    return Cover(before.value, before.value, (), "witness")
        cap = before.value if before.exact and self.use_shortcuts else None
        if estimate:
            upper = self.covers.upper(self.quilt | mask)
            value = min(upper, cap) if cap is not None else upper
            return Cover(value, value, (), "estimate", estimate=True)
        self.solved += 1
        found = self.covers.solve(self.quilt | mask, cap, floor, self.deadline)
        if found.value > self.best_before:
            self.best_before = found.value
        if found.exact and found.value == before.value and self.use_shortcuts:
            self.witnesses.append(found.union)
        return found

    def hint(self, cand: Candidate, cover: Cover, piece: int | None, kind: str) -> Hint:
        w = self.weights
        lost = max(0, self.best_before - cover.value)
        parts = {
            "contact": round(cand.contact, 4),
            "new_unfillable": float(cand.new_unfillable),
            "lookahead_lost": float(lost),
            "bonus_lost": float(cand.bonus_lost),
            "completes_square": float(cand.completes),
            "unfillable": float(cand.unfillable),
            "lookahead_cover": float(cover.value),
            "lookahead_area": float(sum(PATCHES[i].area for i in self.lookahead)),
            "empty_after": float((FULL & ~(self.quilt | cand.mask)).bit_count()),
            "regions_after": float(cand.regions),
        }
        score = cand.cheap - w.lookahead * lost
        return Hint(
            type=kind,  # type: ignore[arg-type]
            patch=piece,
            cells=cells_of(cand.mask),
            score=round(score, 4),
            parts=parts,
            exact=cover.exact and self.cover_before.exact,
        )

    def rank(self, masks: Sequence[int], top_k: int, piece: int | None, kind: str = "place") -> list[Hint]:
        """The ``top_k`` best placements among ``masks`` under the full score, best first.

        Candidates go best cheap score first. Once ``top_k`` are held, a candidate only needs
        solving far enough to show whether its cover beats the k-th score (a floor); and when
        no cheap score left can beat it, the ranking is complete. Past the deadline (with
        ``use_shortcuts``), or once ``stop`` is set, the rest get the fast bound instead of a
        search (and ``exact`` False).
        """
        deadline = self.deadline if self.use_shortcuts else None
        cands = sorted((self.cheap(m) for m in masks), key=lambda c: (-c.cheap, c.mask))
        scored: list[tuple[float, int, Hint]] = []  # (score, -index) min-heap of the best k
        w = self.weights.lookahead
        for index, cand in enumerate(cands):
            full = len(scored) >= top_k
            if self.use_shortcuts and full and scored[0][0] >= cand.cheap:
                break  # a lookahead loss only lowers scores: nobody left can enter the top k
            late = (deadline is not None and deadline.expired()) or (self.stop is not None and self.stop.is_set())
            floor = -1
            if full and self.use_shortcuts and w > 0:
                # enter the top k only with cover > best_before - (cheap - kth) / w
                floor = max(-1, math.floor(self.best_before - (cand.cheap - scored[0][0]) / w - 1e-6))
            cover = self.lookahead_cover(cand.mask, floor, estimate=late)
            if cover.bound <= floor and not cover.estimate:
                continue  # proven not to beat the k-th score
            hint = self.hint(cand, cover, piece, kind)
            item = (hint.score, -index, hint)
            if len(scored) < top_k:
                heapq.heappush(scored, item)
            elif item[:2] > scored[0][:2]:
                heapq.heapreplace(scored, item)
        ranked = sorted(scored, key=lambda t: (-t[0], -t[1]))
        return [h for _, _, h in ranked]


def best_fit(
    quilt: int,
    patch_id: int,
    next_ids: Sequence[int] = (),
    *,
    deadline: Deadline | None,
    pool: Sequence[int] | None = None,
    singles: int = 0,
    top_k: int = 5,
    weights: ScoreWeights | None = None,
    config: SolverConfig | None = None,
    call_seconds: float = COVER_CALL_SECONDS,
    bonus_at_stake: bool = True,
    use_shortcuts: bool = True,
    node_limit: int = 20_000,
    covers: CoverSolver | None = None,
    stop: StopSignal | None = None,
) -> BestFitResult:
    """Rank the legal placements of ``patch_id`` on ``quilt`` (an 81-bit mask).

    ``next_ids`` are the patches coming next (the lookahead); ``pool`` the patches still to come
    (default: every patch but this one); ``singles`` leather patches still to come. Past
    ``deadline``, or once ``stop`` is set (from another thread), the placements left get the fast
    bound and the result says ``exact`` False (None: every one is searched, as proofs need); each
    CP-SAT call takes at most ``call_seconds``. ``use_shortcuts`` False is the plain baseline the
    benchmark compares with (CP-SAT on every placement, no search, no pruning, no cut). ``covers``
    reuses a ``CoverSolver`` (and its cache) for the same lookahead across calls.
    """
    started = time.perf_counter()
    upcoming, pool_ids = _checked_request(quilt, patch_id, next_ids, pool, top_k)
    weights = weights or ScoreWeights()
    ranker = Ranker(
        quilt=quilt,
        pool=Pool.of(pool_ids, singles),
        lookahead=tuple(upcoming),
        weights=weights,
        config=config or SolverConfig(workers=1),
        call_seconds=call_seconds, deadline=deadline, stop=stop,
        bonus_at_stake=bonus_at_stake,
        node_limit=node_limit,
        use_shortcuts=use_shortcuts,
        piece_pool=Pool.of([*pool_ids, patch_id], singles),
        covers=covers if covers is not None and set(covers.ids) == set(upcoming) else None,
    )
    masks = legal_placements(patch_id, quilt)
    hints = ranker.rank(masks, top_k, patch_id)
    return BestFitResult(
        patch=patch_id,
        hints=hints,
        legal=len(masks),
        lookahead=list(upcoming),
        lookahead_cover_before=ranker.cover_before.value,
        pool=len(pool_ids) + singles,
        pool_ids=pool_ids,
        singles=max(0, singles),
        solved=ranker.solved,
        exact=all(h.exact for h in hints),
        weights=weights,
        wall_time=time.perf_counter() - started,
    )


def _checked_request(
    quilt: int, patch_id: int, next_ids: Sequence[int], pool: Sequence[int] | None, top_k: int
) -> tuple[list[int], list[int]]:
    """The request checked (one-line errors): the next patches, and the pool (the given one or
    every patch, with the next ones and without the one being placed)."""
    if not 0 <= quilt <= FULL:
        raise PatchworkError(N_("quilt must be an 81-bit mask"))
    patch(patch_id)
    upcoming = check_patch_ids(next_ids, "next patches")
    if patch_id in upcoming:
        # Translators: --next (the patches coming next) names the patch being placed
        raise DuplicatePatchError(N_("next patches: patch {patch} is the patch being placed"), patch=patch_id)
    pool_ids = check_patch_ids(pool, "pool") if pool is not None else list(range(PATCH_COUNT))
    pool_ids = sorted({*pool_ids, *upcoming} - {patch_id})
    if top_k < 1:
        raise PatchworkError(N_("top must be at least 1, got {top}"), top=top_k)
    return upcoming, pool_ids
