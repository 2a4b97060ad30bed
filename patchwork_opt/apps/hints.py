"""What ``patchwork hint`` answers: for a position, the moves of the player to move valued by the
AI's search (``patchwork_opt.ai.analysis.position``, with the CP-SAT advisor placing the offers): win
chance, expected margin, exact or not, in plain words; for a quilt and a patch, the patch's best
placements (``solvers.bestfit``). Also the game review of ``patchwork analyze``.

The time limit becomes a ``ThinkBudget`` at the edge (``core.clock``: the ``hint`` command, a web
request) and its one ``Deadline`` as the thinking starts (after the compile; after the wait in the
web's job queue), and comes here: the analysis, the advisor's calls and the best fit's CP-SAT calls
all end by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from patchwork_opt.ai.base import MOVES_SHOWN
from patchwork_opt.apps.placement_reasons import placement_reasons, reasons_lines, score_rule, summary
from patchwork_opt.apps.wiring import solver_advisor
from patchwork_opt.core.bitboard import cells_of, mask_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.clock import SOLVER_CALL_SECONDS, Deadline, ThinkBudget
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.quilt import label_grid, render_grid
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import line_words, player_name, words_in
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import _, ngettext, number, signed
from solvers.bestfit import BestFitResult, Hint, best_fit

if TYPE_CHECKING:  # the AI's searches (Numba) load only for a position's hints and reviews, not a quilt's
    from patchwork_opt.ai.base import SearchedPosition
    from patchwork_opt.apps.review import GameReview, Progress


class AdvisedHint(BaseModel):
    """One move of the player to move, valued by the AI's search (``patchwork_opt.ai.analysis.position``)."""

    type: Literal["advance", "buy", "leather"]
    patch: int | None
    cells: list[tuple[int, int]] = Field(description="cells the move covers ([] for advance)")
    words: str = Field(description="the move in words (core/words.py): no two moves of a position read the same")
    score: float = Field(description="the ranking value in [-1, 1]: mostly the win chance, a little the margin")
    win: float = Field(description="chance the player to move wins after this move, 0-1")
    margin: float = Field(description="expected final margin for the player to move (points)")
    exact: bool = Field(description="proven: every way the game can go after this move was checked (win is 1 or "
                        "0, margin the final margin under best play); false: estimated by sampling")
    outcome_proven: bool = Field(default=False, description="whether the move wins or loses is proven (win is 1 "
                                 "or 0) even where its margin is not (exact false: the margin is estimated, "
                                 "within the proven bound the reason gives)")
    reason: str
    line: list[dict[str, Any]] = Field(description="the move and the expected continuation (RULES.md moves)")
    line_words: list[str] = Field(description="each move of line in words, for the player who makes it")


SearchKind = Literal["exact", "partly exact", "sampled"]


class AdvisedHints(BaseModel):
    """The ranked moves of ``player`` (0 or 1; -1 when the game is over), best first."""

    player: int
    hints: list[AdvisedHint]
    seconds: float
    search: SearchKind = Field(
        default="sampled", description="exact: every move proven; partly exact: the exact search ran out of time after "
        "proving some moves (those have exact true), the others sampled; sampled: none proven")
    proven: int = Field(default=0, description="moves of the position proven by the exact search (shown or not)")
    outcomes_proven: int = Field(default=0, description="moves of the position whose win or loss the exact search "
                                 "proved, margins proven or not (shown or not)")


PLACEMENTS_SHOWN = 3  # placements of a patch shown by default

def advised_hints(
    state: State, *, deadline: Deadline, top: int = 8, seed: int = 0, stop: StopSignal | None = None
) -> AdvisedHints:
    """The analysis of the position by ``deadline`` with the CP-SAT advisor placing the offers
    (each call a share of the time left: ``clock.ADVISOR_SHARE``), as hints."""
    from patchwork_opt.ai.analysis.position import analyse_position

    if state.is_terminal():
        return AdvisedHints(player=-1, hints=[], seconds=0.0)
    analysis = analyse_position(state, deadline=deadline, seed=seed, advisor=solver_advisor(), stop=stop)
    return hints_of(state, analysis, top)


def hints_of(state: State, analysis: SearchedPosition, top: int) -> AdvisedHints:
    from patchwork_opt.ai.analysis.position import advice, ranking_value

    hints = [
        AdvisedHint(
            type=m.move.kind, patch=m.move.patch if m.move.kind == "buy" else None, cells=cells_of(m.move.mask),
            words=words_in(state, m.move), score=round(ranking_value(m), 4), win=round(m.win, 4),
            margin=round(m.margin, 2), exact=m.exact, outcome_proven=m.outcome_proven, reason=advice(state, m),
            line=[move.to_json() for move in m.line], line_words=line_words(state, m.line),
        )
        for m in analysis.shown()[:top]
    ]
    proven = sum(1 for m in analysis.moves if m.exact)
    outcomes = sum(1 for m in analysis.moves if m.outcome_proven)
    kind: SearchKind = "exact" if analysis.solved else "partly exact" if outcomes else "sampled"
    return AdvisedHints(player=analysis.player, hints=hints, seconds=round(analysis.seconds, 3), search=kind,
                        proven=proven, outcomes_proven=outcomes)


def review_record(
    record: Record, *, seconds: float, progress: Progress | None = None, stop: StopSignal | None = None
) -> GameReview:
    """``patchwork analyze``: the game review with the CP-SAT advisor placing the offers."""
    from patchwork_opt.apps.review import review_game

    if seconds <= 0:
        # Translators: an error; {seconds} is the number given
        raise PatchworkError(_("time per move must be positive, got {seconds}", seconds=number(seconds)))
    # each position's analysis makes its deadline of ``seconds`` and bounds the advisor by it
    return review_game(record, seconds=seconds, advisor=solver_advisor(), progress=progress, stop=stop)


class NoPlacementError(PatchworkError):
    """The patch fits nowhere on the quilt: a well-formed request the rules refuse."""

    exit_code = 1


def hint_for(
    loaded: LoadedInput,
    patch_id: int | None = None,
    next_ids: Sequence[int] | None = None,
    pool: Sequence[int] | None = None,
    *,
    deadline: Deadline,
    top_k: int | None = None,
    lookahead: int = 6,
    stop: StopSignal | None = None,
) -> AdvisedHints | BestFitResult:
    """What ``patchwork hint`` answers for a loaded quilt, position or record.

    A position without ``patch_id``: its ranked moves, valued by the AI (``top`` of them). A quilt
    (or a position's mover's quilt) with ``patch_id``: the best fit of that patch; for a position
    the next patches and the pool come from its circle unless ``next_ids`` is given.
    Everything ends by ``deadline`` (each CP-SAT call of a best fit within ``SOLVER_CALL_SECONDS``).
    """
    if top_k is None:
        top_k = PLACEMENTS_SHOWN if patch_id is not None or loaded.state is None else MOVES_SHOWN
    if top_k < 1:
        # Translators: an error; "top" is the option naming how many answers are shown
        raise PatchworkError(_("top must be at least 1, got {top}", top=top_k))
    if lookahead < 0:
        # Translators: an error; "lookahead" is the option naming how many upcoming patches are looked at
        raise PatchworkError(_("lookahead must be at least 0, got {lookahead}", lookahead=lookahead))
    state = loaded.state
    if state is not None and pool is not None:
        # Translators: an error; the pool is the patches still to come, given by hand for a bare quilt
        raise PatchworkError(_("a pool is for a quilt (a position's patches to come are its circle)"))
    if state is not None and patch_id is None:
        if next_ids is not None:
            # Translators: an error: the next patches were given without the patch to place
            raise PatchworkError(_("next patches need a patch (a position's next patches are its circle)"))
        return advised_hints(state, deadline=deadline, top=top_k, stop=stop)
    if patch_id is None:
        # Translators: an error; "--patch ID" is the command line's option, kept as it is
        raise PatchworkError(_("a bare quilt needs a patch to place (--patch ID)"))
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
        quilt.mask, patch_id, upcoming, deadline=deadline, pool=pool, top_k=top_k, call_seconds=SOLVER_CALL_SECONDS,
        stop=stop,
    )
    if not result.hints:
        # Translators: an error: no placement of the patch fits the quilt's empty cells
        raise NoPlacementError(ngettext("patch {patch} fits nowhere on this quilt ({count} empty cell)",
                                        "patch {patch} fits nowhere on this quilt ({count} empty cells)",
                                        quilt.empty, patch=patch_id))
    for hint in result.hints:  # the words the terminal and the workshop say it in, for --json too
        hint.reason = summary(placement_reasons(quilt.mask, hint, result))
    return result


def hint_command(what: str, *, patch_text: str | None, next_text: str | None, pool_text: str | None,
                 top: int | None, lookahead: int, time_limit: float | None, watch: bool,
                 as_json: bool) -> tuple[LoadedInput, AdvisedHints | BestFitResult] | None:
    """``patchwork hint`` from its options as typed: the input loaded, the compiled searches a
    position's analysis uses ready before its clock starts (a quilt's best fit compiles nothing), then
    either ``--watch``'s live lines, printed as they come (None), or the answer to render with the
    input it answers. The hint's budget is made of the options; its one clock starts after the compile:
    a hint's time is thinking."""
    from patchwork_opt.apps.warmup import groups_for_analysis, prepare
    from patchwork_opt.core.lookup import parse_patch_ids
    from patchwork_opt.formats.inputs import load_position_input

    patch_ids = parse_patch_ids(patch_text, "--patch") if patch_text is not None else []
    if len(patch_ids) > 1:
        # Translators: an error; "--patch" is the command line's option, kept as it is
        raise PatchworkError(_("--patch takes one patch id, got {given}", given=repr(patch_text)))
    if time_limit is not None and time_limit <= 0:
        # Translators: an error; {seconds} is the number given
        raise PatchworkError(_("time limit must be positive, got {seconds}", seconds=number(time_limit)))
    budget = ThinkBudget(1.0 if time_limit is None else time_limit)
    loaded = load_position_input(what)
    if loaded.state is not None and patch_text is None and not loaded.state.is_terminal():
        groups = groups_for_analysis(loaded.state)
        if groups:
            prepare(groups)
    if watch:
        from patchwork_opt.apps.watch import watch_hint

        given = [name for name, value in (("--patch", patch_text), ("--next", next_text), ("--pool", pool_text))
                 if value is not None]
        watch_hint(loaded, refused=given, top=top, time_limit=time_limit, as_json=as_json)
        return None
    result = hint_for(
        loaded,
        patch_ids[0] if patch_ids else None,
        parse_patch_ids(next_text, "--next") if next_text else None,
        parse_patch_ids(pool_text, "--pool") if pool_text is not None else None,
        deadline=budget.deadline(),
        top_k=top,
        lookahead=lookahead,
    )
    return loaded, result


def render_hint(result: AdvisedHints | BestFitResult, loaded: LoadedInput) -> str:
    """``hint``'s answer in words: a position's ranked moves, or a patch's placements on the quilt."""
    if isinstance(result, AdvisedHints):
        assert loaded.state is not None
        return render_advised_hints(result, loaded.state)
    return render_best_fit(result, loaded.quilt.mask)


LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


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


def render_best_fit(result: BestFitResult, quilt: int) -> str:
    """The quilt with each suggestion drawn (its rank as label) and the score parts."""
    p = PATCHES[result.patch]
    # Translators: the head of a patch's placements: its number, its price in buttons, the spaces it
    # costs on the time board, its button income, its cells, then how many placements are legal
    head = ngettext(
        "patch {patch} (cost {cost}, time {time}, income {income}, area {area}): {count} legal placement",
        "patch {patch} (cost {cost}, time {time}, income {income}, area {area}): {count} legal placements",
        result.legal, patch=result.patch, cost=p.cost, time=p.time, income=p.income, area=p.area,
    )
    if result.lookahead:
        # Translators: follows the head: the next patches looked at ({patches}: "3, 5, 7") and how many
        # of their cells fit before this placement
        head += _("; lookahead {patches} (cover {cover} before)", patches=", ".join(map(str, result.lookahead)),
                  cover=result.lookahead_cover_before)
    lines = [head, ""]
    if not result.hints:
        lines.append(_("no legal placement"))
        return "\n".join(lines)
    lines += _grids_side_by_side(quilt, result.hints)
    for rank, hint in enumerate(result.hints, start=1):
        reasons = placement_reasons(quilt, hint, result)
        # Translators: a placement's rank, its score ("+0.85") and where it lies
        lines.append(_("#{rank} score {score}  {where}", rank=rank, score=signed(hint.score, 2), where=reasons.where))
        lines += [f"    {line}" for line in reasons_lines(reasons)]
    lines.append(f"({score_rule(result.weights)})")
    return "\n".join(lines)


def _partly_exact(proven: int, extra: int) -> list[str]:
    """What an exact search that ran out of time proved: ``proven`` moves in full, ``extra`` more
    moves' winner only."""
    if not proven:
        return [ngettext("The exact search ran out of time after proving who wins after {count} move, not yet by "
                         "how much: the margins are estimates from sampling.",
                         "The exact search ran out of time after proving who wins after {count} moves, not yet by "
                         "how much: the margins are estimates from sampling.", extra)]
    lines = [ngettext("The exact search ran out of time after proving {count} move: those say every way the game "
                      "can go was checked; the others are estimates from sampling.",
                      "The exact search ran out of time after proving {count} moves: those say every way the game "
                      "can go was checked; the others are estimates from sampling.", proven)]
    if extra:
        lines.append(ngettext("For {count} more move it proved who wins, not yet by how much.",
                              "For {count} more moves it proved who wins, not yet by how much.", extra))
    return lines


def render_advised_hints(result: AdvisedHints, state: State) -> str:
    """The mover's quilt with the suggested placements drawn, then each move in plain words."""
    if result.player < 0:
        return _("the game is over: no moves to suggest")
    quilt = state.quilts[result.player]
    # Translators: the head of a position's hints; {player} is "Player 1" or "Player 2"
    lines = [ngettext("{player} to move: {count} suggestion, best first", "{player} to move: {count} suggestions, best "
                      "first", len(result.hints), player=player_name(result.player))]
    if result.search == "partly exact":
        lines += _partly_exact(result.proven, result.outcomes_proven - result.proven)
    lines.append("")
    drawn = [(i, h) for i, h in enumerate(result.hints) if h.type != "advance"][:6]
    for start in range(0, len(drawn), 3):
        chunk = drawn[start : start + 3]
        grids = [
            render_grid(label_grid([(LABELS[i], mask_of(h.cells))], quilt))
            for i, h in chunk
        ]
        width = len(grids[0][0])
        lines.append("   ".join(f"#{i + 1}".ljust(width) for i, _hint in chunk).rstrip())
        lines += ["   ".join(row) for row in zip(*grids, strict=True)]
        lines.append("")
    for i, hint in enumerate(result.hints):
        lines.append(f"#{i + 1} {hint.reason}")
    return "\n".join(lines)
