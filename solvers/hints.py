"""Position hints: the moves of the player to move, ranked, each with the reasons behind its score.

A buy is worth, in end-of-game points: 2 per cell it covers, its income times the income
marks still ahead, minus its button cost, minus the time it takes (``time_value`` points per
space: advancing turns a space into a button, so a space is worth about one), plus 2 when
the move picks up a leather patch, plus the fill score of its placement (``solvers.bestfit``:
how fillable the quilt stays). Advancing earns a button per space and spends the same time,
so it scores the leather bonus only. Each offered patch the player can afford and place
appears with its ``top_k`` best placements; a pending leather patch gets its best cells.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from patchwork_opt.ai.analysis import PositionAnalysis, advice, analyse_position
from patchwork_opt.apps.review import GameReview, Progress, review_game
from patchwork_opt.core.bitboard import FULL, cells_of, iter_bits
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.quilt import label_grid, render_grid
from patchwork_opt.core.state import END, State, marks_ahead
from patchwork_opt.core.words import player_name, plural
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.record import Record
from solvers.advisor import SolverAdvisor
from solvers.bestfit import BestFitResult, Hint, Ranker, ScoreWeights, best_fit
from solvers.bounds import Pool
from solvers.model import SolverConfig

#: Points for taking a leather patch: one more cell covered at the end.
LEATHER_POINTS = 2.0


class PositionHints(BaseModel):
    """The ranked moves of ``player`` (0 or 1), best first."""

    player: int
    hints: list[Hint]
    lookahead: int = Field(description="How many upcoming patches of the circle the fill score looks at.")
    exact: bool
    weights: ScoreWeights = Field(description="How a placement's fill parts add up to its fill score.")
    time_value: float = Field(description="Points per space of time a move takes.")
    wall_time: float


def leather_ahead(state: State, position: int) -> int:
    return sum(1 for space in iter_bits(state.leather) if space > position)


def _advance_hint(state: State, player: int, time_value: float) -> Hint:
    pos = state.pos[player]
    new = state.advance_target(player)
    spaces = new - pos
    parts = {
        "buttons": float(spaces),
        "time": -time_value * spaces,
        "leather": LEATHER_POINTS if state.leather_between(pos, new) else 0.0,
    }
    score = sum(parts.values())
    reason = f"advance {plural(spaces, 'space')} (+{plural(spaces, 'button')})"
    if parts["leather"]:
        reason += ", takes a leather patch"
    return Hint(type="advance", patch=None, cells=[], score=round(score, 4), parts=parts, reason=reason)


def _buy_parts(state: State, player: int, pid: int, time_value: float) -> dict[str, float]:
    p = PATCHES[pid]
    pos = state.pos[player]
    new = min(pos + p.time, END)
    return {
        "area": 2.0 * p.area,
        "income": float(p.income * marks_ahead(pos)),
        "cost": -float(p.cost),
        "time": -time_value * (new - pos),
        "leather": LEATHER_POINTS if state.leather_between(pos, new) else 0.0,
    }


def position_hints(
    state: State,
    *,
    top_k: int = 3,
    lookahead: int = 6,
    weights: ScoreWeights | None = None,
    config: SolverConfig | None = None,
    time_value: float = 1.0,
    budget: float | None = 0.25,
) -> PositionHints:
    """Rank the moves of the player to move (empty when the game is over)."""
    started = time.perf_counter()
    weights = weights or ScoreWeights()
    config = config or SolverConfig(time_limit=0.1, workers=1)
    if state.is_terminal():
        return PositionHints(
            player=-1, hints=[], lookahead=lookahead, exact=True, weights=weights, time_value=time_value,
            wall_time=0.0,
        )
    player = state.to_move()
    quilt = state.quilts[player]
    bonus_at_stake = state.bonus < 0
    singles = leather_ahead(state, state.pos[player])
    hints: list[Hint] = []
    if state.pending >= 0:
        ranker = Ranker(
            quilt=quilt,
            pool=Pool.of(state.circle, singles),
            lookahead=tuple(state.circle[:lookahead]),
            weights=weights,
            config=config,
            bonus_at_stake=bonus_at_stake,
            piece_pool=Pool.of(state.circle, singles + 1),
        )
        cells = [1 << index for index in iter_bits(FULL & ~quilt)]
        for hint in ranker.rank(cells, top_k, None, kind="leather"):
            hint.reason = f"leather on {list(hint.cells[0])}: fill {hint.score:+.2f}"
            hints.append(hint)
    else:
        deadline = started + budget if budget is not None else None
        hints.append(_advance_hint(state, player, time_value))
        for k, pid in enumerate(state.offers()):
            if PATCHES[pid].cost > state.buttons[player] or not legal_placements(pid, quilt):
                continue
            after = state.circle[k + 1 :] + state.circle[:k]
            econ = _buy_parts(state, player, pid, time_value)
            value = sum(econ.values())
            share = None if deadline is None else max(0.0, (deadline - time.perf_counter()) / 2)
            fit = best_fit(
                quilt,
                pid,
                after[:lookahead],
                pool=after,
                singles=singles,
                top_k=top_k,
                weights=weights,
                config=config,
                bonus_at_stake=bonus_at_stake,
                budget=share,
            )
            for placed in fit.hints:
                fill = placed.score
                placed.type = "buy"
                placed.parts = {**econ, "fill": fill, **placed.parts}
                placed.score = round(value + fill, 4)
                placed.reason = (
                    f"patch {pid}: cells +{econ['area']:g}, income +{econ['income']:g}, "
                    f"cost {econ['cost']:g}, time {econ['time']:g}"
                    + (", takes a leather patch" if econ["leather"] else "")
                    + f", fill {fill:+.2f} (contact {placed.parts['contact']:.2f}, "
                    f"unfillable {placed.parts['new_unfillable']:+g}, "
                    f"lookahead lost {placed.parts['lookahead_lost']:g})"
                )
                hints.append(placed)
    hints.sort(key=lambda h: -h.score)
    return PositionHints(
        player=player,
        hints=hints,
        lookahead=lookahead,
        exact=all(h.exact for h in hints),
        weights=weights,
        time_value=time_value,
        wall_time=time.perf_counter() - started,
    )


class AdvisedHint(BaseModel):
    """One move of the player to move, valued by the AI's search (``patchwork_opt.ai.analysis``)."""

    type: Literal["advance", "buy", "leather"]
    patch: int | None
    cells: list[tuple[int, int]] = Field(description="cells the move covers ([] for advance)")
    score: float = Field(description="the ranking value in [-1, 1]: mostly the win chance, a little the margin")
    win: float = Field(description="chance the player to move wins after this move, 0-1")
    margin: float = Field(description="expected final margin for the player to move (points)")
    exact: bool = Field(description="the rest of the game was searched exhaustively")
    reason: str
    line: list[dict[str, Any]] = Field(description="the move and the expected continuation (RULES.md moves)")


class AdvisedHints(BaseModel):
    """The ranked moves of ``player`` (0 or 1; -1 when the game is over), best first."""

    player: int
    hints: list[AdvisedHint]
    seconds: float


PLACEMENTS_SHOWN = 3  # placements of a patch shown by default
MOVES_SHOWN = 8  # moves of a position shown by default

#: Share of the time limit one advisor call (one offer's placements) may take.
ADVISOR_SHARE = 0.08


def advised_hints(state: State, *, time_limit: float = 1.0, top: int = 8, seed: int = 0) -> AdvisedHints:
    """The analysis of the position with the CP-SAT advisor placing the offers, as hints."""
    if state.is_terminal():
        return AdvisedHints(player=-1, hints=[], seconds=0.0)
    advisor = SolverAdvisor(budget=ADVISOR_SHARE * time_limit)
    analysis = analyse_position(state, seconds=time_limit, seed=seed, advisor=advisor)
    return hints_of(state, analysis, top)


def hints_of(state: State, analysis: PositionAnalysis, top: int) -> AdvisedHints:
    hints = [
        AdvisedHint(
            type=m.move.kind, patch=m.move.patch if m.move.kind == "buy" else None, cells=cells_of(m.move.mask),
            score=round(m.score, 4), win=round(m.win, 4), margin=round(m.margin, 2), exact=m.exact,
            reason=advice(state, m), line=[move.to_json() for move in m.line],
        )
        for m in analysis.shown()[:top]
    ]
    return AdvisedHints(player=analysis.player, hints=hints, seconds=round(analysis.seconds, 3))


def review_record(record: Record, *, seconds: float, progress: Progress | None = None) -> GameReview:
    """``patchwork analyze``: the game review with the CP-SAT advisor placing the offers."""
    if seconds <= 0:
        raise PatchworkError(f"time per move must be positive, got {seconds:g}")
    advisor = SolverAdvisor(budget=ADVISOR_SHARE * seconds)
    return review_game(record, seconds=seconds, advisor=advisor, progress=progress)


class NoPlacementError(PatchworkError):
    """The patch fits nowhere on the quilt: a well-formed request the rules refuse."""

    exit_code = 1


def hint_for(
    loaded: LoadedInput,
    patch_id: int | None = None,
    next_ids: Sequence[int] | None = None,
    pool: Sequence[int] | None = None,
    *,
    top_k: int | None = None,
    lookahead: int = 6,
    time_limit: float = 1.0,
) -> AdvisedHints | BestFitResult:
    """What ``patchwork hint`` answers for a loaded quilt, position or record.

    A position without ``patch_id``: its ranked moves, valued by the AI (``top`` of them). A quilt
    (or a position's mover's quilt) with ``patch_id``: the best fit of that patch; for a position
    the next patches and the pool come from its circle unless ``next_ids`` is given.
    ``time_limit`` bounds the solver part.
    """
    if time_limit <= 0:
        raise PatchworkError(f"time limit must be positive, got {time_limit:g}")
    if top_k is None:
        top_k = PLACEMENTS_SHOWN if patch_id is not None or loaded.state is None else MOVES_SHOWN
    if top_k < 1:
        raise PatchworkError(f"top must be at least 1, got {top_k}")
    if lookahead < 0:
        raise PatchworkError(f"lookahead must be at least 0, got {lookahead}")
    config = SolverConfig(time_limit=min(time_limit, 0.2), workers=1)
    state = loaded.state
    if state is not None and pool is not None:
        raise PatchworkError("a pool is for a quilt (a position's patches to come are its circle)")
    if state is not None and patch_id is None:
        if next_ids is not None:
            raise PatchworkError("next patches need a patch (a position's next patches are its circle)")
        return advised_hints(state, time_limit=time_limit, top=top_k)
    if patch_id is None:
        raise PatchworkError("a bare quilt needs a patch to place (--patch ID)")
    upcoming = list(next_ids or [])
    if state is not None:
        circle = state.circle
        if patch_id in circle:
            k = circle.index(patch_id)
            circle = circle[k + 1 :] + circle[:k]
        pool = circle
        if next_ids is None:
            upcoming = circle[:lookahead]
    quilt = loaded.quilt
    result = best_fit(
        quilt.mask, patch_id, upcoming, pool=pool, top_k=top_k, config=config, budget=time_limit
    )
    if not result.hints:
        raise NoPlacementError(f"patch {patch_id} fits nowhere on this quilt ({quilt.empty} empty cells)")
    return result


# --- benchmark ---------------------------------------------------------------------------------


LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SHOWN_PARTS = (
    ("contact", "contact"),
    ("new_unfillable", "new unfillable"),
    ("lookahead_lost", "lookahead lost"),
    ("bonus_lost", "7x7 lost"),
    ("completes_square", "completes 7x7"),
)


def _grids_side_by_side(quilt: int, hints: list[Hint], per_row: int = 3) -> list[str]:
    """One small quilt per suggestion: covered cells as blocks, the suggestion as its label."""
    lines: list[str] = []
    for start in range(0, len(hints), per_row):
        chunk = hints[start : start + per_row]
        grids = [
            render_grid(label_grid([(LABELS[start + i], h.mask)], quilt)) for i, h in enumerate(chunk)
        ]
        width = len(grids[0][0])
        lines.append("   ".join(f"#{start + i + 1}".ljust(width) for i in range(len(chunk))).rstrip())
        for row in zip(*grids, strict=True):
            lines.append("   ".join(row))
        lines.append("")
    return lines


def _parts_text(hint: Hint) -> str:
    shown = []
    for key, name in _SHOWN_PARTS:
        value = hint.parts.get(key)
        if value is not None and (key == "contact" or value):
            shown.append(f"{name} {value:g}")
    cover = hint.parts.get("lookahead_cover")
    if cover is not None and hint.parts.get("lookahead_area"):
        shown.append(f"next patches cover {cover:g}/{hint.parts['lookahead_area']:g}")
    return ", ".join(shown)


def render_best_fit(result: BestFitResult, quilt: int) -> str:
    """The quilt with each suggestion drawn (its rank as label) and the score parts."""
    p = PATCHES[result.patch]
    head = (
        f"patch {result.patch} (cost {p.cost}, time {p.time}, income {p.income}, area {p.area}): "
        f"{result.legal} legal placement{'s' if result.legal != 1 else ''}"
    )
    if result.lookahead:
        head += (
            f"; lookahead {', '.join(map(str, result.lookahead))} "
            f"(cover {result.lookahead_cover_before} before)"
        )
    lines = [head, ""]
    if not result.hints:
        lines.append("no legal placement")
        return "\n".join(lines)
    lines += _grids_side_by_side(quilt, result.hints)
    for rank, hint in enumerate(result.hints, start=1):
        cells = " ".join(f"{r}{c}" for r, c in hint.cells)
        flag = "" if hint.exact else " (lookahead bounded, not proven)"
        lines.append(f"#{rank} score {hint.score:+.2f}  cells {cells}{flag}")
        lines.append(f"    {_parts_text(hint)}")
    return "\n".join(lines)


def render_position_hints(result: PositionHints, state: State) -> str:
    """The mover's quilt with the best placements drawn, then every ranked move with its reason."""
    if result.player < 0:
        return "the game is over: no moves to suggest"
    quilt = state.quilts[result.player]
    lines = [f"{player_name(result.player)} to move ({len(result.hints)} suggestions, best first)", ""]
    drawn = [h for h in result.hints if h.type != "advance"][:6]
    lines += _grids_side_by_side(quilt, drawn)
    labels = {id(h): f"#{i + 1}" for i, h in enumerate(drawn)}
    for hint in result.hints:
        tag = labels.get(id(hint), "  ")
        lines.append(f"{tag:>3} {hint.score:+7.2f}  {hint.reason}")
    return "\n".join(lines)


def render_advised_hints(result: AdvisedHints, state: State) -> str:
    """The mover's quilt with the suggested placements drawn, then each move in plain words."""
    if result.player < 0:
        return "the game is over: no moves to suggest"
    quilt = state.quilts[result.player]
    lines = [f"Player {result.player + 1} to move: {len(result.hints)} suggestions, best first", ""]
    drawn = [(i, h) for i, h in enumerate(result.hints) if h.type != "advance"][:6]
    for start in range(0, len(drawn), 3):
        chunk = drawn[start : start + 3]
        grids = [
            render_grid(label_grid([(LABELS[i], sum(1 << (r * 9 + c) for r, c in h.cells))], quilt))
            for i, h in chunk
        ]
        width = len(grids[0][0])
        lines.append("   ".join(f"#{i + 1}".ljust(width) for i, _ in chunk).rstrip())
        lines += ["   ".join(row) for row in zip(*grids, strict=True)]
        lines.append("")
    for i, hint in enumerate(result.hints):
        lines.append(f"#{i + 1} {hint.reason}")
    return "\n".join(lines)
