"""One analysis of a position, shared by advice (``hint``) and game review (``analyze``).

For a position and a time budget it lists every distinct candidate move (advance; each
affordable offer at its best few placements; the best leather cells) with the win chance of the
player to move, the expected final margin, whether the rest of the game was searched
exhaustively, and the expected continuation. Placements leaving quilts equal up to the board's
eight symmetries (nothing else differs between them) are listed once.

The numbers come from the AI's search (``patchwork_opt.ai.analysis.run``), so every gain in the AI's
strength flows into the advice: the compiled exact search goes first, over every legal move (the top
move then wins whenever a winning move exists); where its estimate says it can finish within the
whole budget (``within_reach``) it gets a full share and the result is waited for: the sampling keeps
at most its part of what is left, early stop or not, and the exact search goes on with the rest
(``resume_exact``, from the table the first attempt filled), so the same question gets the same
answer. When it runs out, the moves it proved keep their exact figures and the others are sampled
(``with_proven``: each move's ``exact`` says which); proven wins rank first, proven losses last
(``outcome_class``). For a pending leather
patch outside its reach, the AI's whole analysis, ``run_analysis``; elsewhere its sampling search,
``sampled_analysis``, over the analysis's own options of the one candidate list
(``candidate_moves``: several distinct placements per offer), with a move played in a game
compared in the same search, its leaves valued by the AI's default evaluator (the learned value)
unless an ``evaluator`` is given, stopping early once its best move is settled when timed. Every
move is the one analysed-move type, ``AnalysedMove``, and the analysis the one searched-position
type, ``SearchedPosition`` (``SearchedPosition`` names it here, as the applications know it).

The time is one ``Deadline`` (``core.clock``), made by the caller: the advisor's calls while the
candidates are listed, the exact search's share and the sampling search all end by it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from patchwork_opt.ai.analysis import run as search
from patchwork_opt.ai.base import PLACEMENTS_PER_OFFER, AnalysedMove, SearchedPosition, move_key
from patchwork_opt.ai.search import candidates
from patchwork_opt.ai.search.exact import final_value, value_margin
from patchwork_opt.ai.search.fastcore import MAX_CHILDREN, CompiledEvaluator
from patchwork_opt.ai.search.policy import outcome_value
from patchwork_opt.ai.seeding import require_running
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import EXACT_SHARE, Deadline, bounded
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import words_in
from patchwork_opt.i18n import N_, _, decimal, ngettext, percent, signed

LINE_PLIES = 4  # plies of expected continuation reported per move
#: One standard deviation of a sampled move's figures, ``sqrt(A^2 / depth + B^2)`` with (A, B), where
#: ``depth`` is the visits of the analysis's most visited move (``depth``): how far two analyses of
#: the same position tell the same move apart. It hardly depends on the move's own visits (the learned
#: value is deterministic: a move seldom visited is valued alike by both) but on how far each analysis
#: got down the lines that matter, so on its depth (a busy machine gets less of it a second).
#: Fitted by ``patchwork bench agreement --noise --positions 60`` (3,185 moves sampled in two of three
#: analyses at 0.1, 0.3 and 1 s, load average 10-13: docs/benchmarks/agreement.md): the floor B rules.
WIN_NOISE = (0.0102, 0.0135)
MARGIN_NOISE = (0.4415, 0.6037)


class AnalysisError(PatchworkError):
    """A request the analysis cannot answer (a non-positive budget, a position after a move
    without its own analysis); a finished game is ``GameOverError``."""


def ranking_value(m: AnalysedMove) -> float:
    """A move's ranking value in [-1, 1]: mostly the win chance, a little the margin (the value
    scale the AI's searches back up, ``policy.outcome_value``)."""
    return outcome_value(m.win, m.margin)


def candidate_moves(
    state: State, advisor: PlacementAdvisor | None = None, per_offer: int = PLACEMENTS_PER_OFFER
) -> list[Move]:
    """The analysis's candidates: advance and each affordable offer at its best few distinct
    placements (plus any placement completing a 7x7 square while the bonus is free), or the best
    few distinct leather cells (the candidate list's options for the analysis)."""
    return candidates.candidate_moves(state, per_offer=per_offer, advisor=advisor, distinct=True)


def _with_extra(state: State, moves: list[Move], extra: Sequence[Move]) -> list[Move]:
    quilt = state.quilts[state.to_move()]
    keys = {move_key(quilt, m) for m in moves}
    for move in extra:
        state.check(move)
        key = move_key(quilt, move)
        if key not in keys:
            keys.add(key)
            moves.append(move)
    return moves


# --- the search adapter: the one place that calls the AI's search ------------------------------


def _valued(stats: Sequence[AnalysedMove]) -> list[AnalysedMove]:
    """The AI's root figures; a move it could not value (an upper bound, the only move) is left
    out: its figure is read from the position it leads to instead (``value_after``)."""
    return [s if s.line else replace(s, line=(s.move,)) for s in stats if s.valued]


def _search(
    state: State,
    extra: Sequence[Move],
    *,
    deadline: Deadline | None,
    iterations: int | None,
    seed: int,
    advisor: PlacementAdvisor | None,
    stop: StopSignal | None = None,
    evaluator: CompiledEvaluator | None = None,
) -> SearchedPosition:
    # The exact search goes first (it needs no candidates). An exact result that can arrive within the
    # whole budget (``within_reach``) is waited for: a full share first, then the sampling keeps at most
    # its part of what is left (early stop or not) and the exact search goes on with the rest.
    reach = iterations is None and search.within_reach(state, deadline)
    exact = search.exact_analysis(state, deadline=deadline, iterations=iterations, every_move=True, stop=stop,
                                  pv_plies=LINE_PLIES, reach=reach)
    solved = _solved(exact)
    if solved is not None:
        return solved
    # not solved (or not tried): sampling has the time left; the moves the exact search proved keep their proofs
    sampling = deadline.share(1.0 - EXACT_SHARE) if reach and deadline is not None else deadline
    analysis = _sampled(state, extra, deadline=sampling, iterations=iterations, seed=seed, advisor=advisor,
                        stop=stop, evaluator=evaluator)
    if reach and exact is not None and deadline is not None and not deadline.expired() and not (stop and stop.is_set()):
        again = search.resume_exact(state, deadline, stop=stop, pv_plies=LINE_PLIES)
        solved = _solved(again)
        if solved is not None:
            return replace(solved, nodes=exact.nodes + again.nodes)
        if len(again.moves) >= len(exact.moves):  # it went on from the first attempt's table: it proved more
            exact = replace(again, nodes=exact.nodes + again.nodes)
    if exact is not None:
        analysis = replace(search.with_proven(analysis, exact.moves), exact_failed=True, nodes=exact.nodes)
    return replace(analysis, moves=_valued(analysis.moves))


def _sampled(state: State, extra: Sequence[Move], *, deadline: Deadline | None, iterations: int | None, seed: int,
             advisor: PlacementAdvisor | None, stop: StopSignal | None,
             evaluator: CompiledEvaluator | None) -> SearchedPosition:
    """The sampling search over the candidates (``extra`` compared alongside), stopping early when
    timed (a fixed budget stays whole: its figures are repeatable)."""
    early = iterations is None
    advisor = bounded(advisor, deadline)  # the advisor's calls end with the sampling's part of the time
    if state.pending >= 0:
        return search.run_analysis(state, deadline=deadline, iterations=iterations, seed=seed, advisor=advisor,
                                   exact=False, stop=stop, evaluator=evaluator, early_stop=early)
    moves = _with_extra(state, candidate_moves(state, advisor)[: MAX_CHILDREN - len(extra)], extra)
    return search.sampled_analysis(state, moves, deadline=deadline, iterations=iterations, seed=seed,
                                   pv_plies=LINE_PLIES, stop=stop, evaluator=evaluator, early_stop=early)


def _solved(exact: SearchedPosition | None) -> SearchedPosition | None:
    """The exact search's answer when it solved the position (and valued a move), else None."""
    if exact is None or not exact.solved:
        return None
    valued = _valued(exact.moves)
    return replace(exact, moves=valued) if valued else None


def _merged(quilt: int, analysed: list[AnalysedMove]) -> list[AnalysedMove]:
    """One entry per move up to symmetry (the better-founded one: exact, else more visits)."""
    kept: dict[tuple[str, int, int], AnalysedMove] = {}
    for m in analysed:
        key = move_key(quilt, m.move)
        old = kept.get(key)
        if old is None or (m.exact, m.visits) > (old.exact, old.visits):
            kept[key] = m
    return list(kept.values())


def analyse_position(
    state: State,
    *,
    deadline: Deadline | None = None,
    iterations: int | None = None,
    seed: int = 0,
    advisor: PlacementAdvisor | None = None,
    extra: Sequence[Move] = (),
    stop: StopSignal | None = None,
    evaluator: CompiledEvaluator | None = None,
) -> SearchedPosition:
    """The candidate moves of the player to move, best first, each with its win chance.

    Everything ends by ``deadline`` (the advisor bounded by the sampling's part of it where it can be:
    ``clock.bounded``);
    ``iterations`` instead fixes the search's budget, which makes it repeatable; ``extra`` moves (a
    move played in a game) are compared alongside where the sampling search runs (elsewhere
    ``find`` may miss them: see ``value_after``); ``evaluator`` values the sampling search's leaves
    (None: the AI's default, the learned value).
    """
    require_running(state)
    if iterations is None and deadline is None:
        raise AnalysisError("an analysis needs a time budget or iterations")
    if iterations is not None and iterations < 1:
        raise AnalysisError(N_("iterations must be at least 1, got {iterations}"), iterations=iterations)
    if iterations is not None:
        deadline = None  # a fixed budget rules: the figures are repeatable
    started = time.perf_counter()
    for move in extra:
        state.check(move)  # a move the rules refuse is refused before any search
    found = _search(state, extra, deadline=deadline, iterations=iterations, seed=seed, advisor=advisor, stop=stop,
                    evaluator=evaluator)
    return replace(found, moves=ranked(found), seconds=time.perf_counter() - started)


def ranked(found: SearchedPosition) -> list[AnalysedMove]:
    """The moves of a search worth reporting: those it valued, one per move up to symmetry, best
    first (``_rank``); the analysis and the live analysis (``live``) order moves by it."""
    analysed = _merged(found.quilt, _valued(found.moves))
    analysed.sort(key=_rank)
    return analysed


def outcome_class(m: AnalysedMove) -> int:
    """0 for a move proven to win, 2 for one proven to lose, 1 for a move whose outcome is not proven:
    a proven win ranks above any estimate, a proven loss below (no hint puts first a move it has
    proven lost while another is proven won, nor an estimate above a proven win)."""
    if not m.outcome_proven:
        return 1
    return 0 if m.win > 0 else 2


def _rank(m: AnalysedMove) -> tuple[int, float, bool, bool, float, int, str]:
    """Best first: proven wins, then the moves not proven, then proven losses (``outcome_class``);
    within each by the win chance the search backed up (the win map, which also weighs the learned
    value of the position after each move, makes the figures shown calibrated, not the search's
    order), then exact before sampled, a margin estimated before one only bounded (a move only
    proven to win or lose, which the sampling did not reach), margin, visits, and last the move's
    text, so that equal moves come in the same order whichever search found them first (the same
    question gets the same first move)."""
    return (outcome_class(m), -(m.searched if m.searched is not None else m.win), not m.exact,
            not (m.exact or m.visits), -m.margin, -m.visits, str(m.move))


@dataclass(frozen=True, slots=True)
class Spread:
    """One standard deviation of a move's figures: ``win`` (0-1) and ``margin`` (points); 0 where an
    exhaustive search settled them (a proven outcome's win; a sampled margin within a proven bound
    keeps the sampling's spread)."""

    win: float
    margin: float

    def __add__(self, other: Spread) -> Spread:
        """The spread of a difference of two independent figures."""
        return Spread(math.hypot(self.win, other.win), math.hypot(self.margin, other.margin))


def depth(analysis: SearchedPosition) -> int:
    """How deep a sampling went: the visits of its most visited move (0 when nothing was sampled)."""
    return max((m.visits for m in analysis.moves), default=0)


def spread(m: AnalysedMove, reached: int) -> Spread:
    """The search's own uncertainty about ``m``'s figures in an analysis of depth ``reached``
    (``depth``; ``WIN_NOISE``, ``MARGIN_NOISE``)."""
    if m.exact:
        return Spread(0.0, 0.0)
    n = max(reached, 1)
    margin = math.sqrt(MARGIN_NOISE[0] ** 2 / n + MARGIN_NOISE[1] ** 2)
    win = 0.0 if m.outcome_proven else math.sqrt(WIN_NOISE[0] ** 2 / n + WIN_NOISE[1] ** 2)
    return Spread(win, margin)


def spread_after(state: State, move: Move, following: SearchedPosition | None) -> Spread:
    """The spread of ``value_after``'s figures: none when the game ends there, else the spread of
    the following analysis's best move."""
    after = state.clone()
    after.apply(move)
    if after.is_terminal() or following is None or not following.moves:
        return Spread(0.0, 0.0)
    return spread(following.best, depth(following))


def value_after(state: State, move: Move, following: SearchedPosition | None) -> tuple[float, float, bool]:
    """``move``'s (win, margin, exact) for its mover, read from the position it leads to:
    ``following`` is that position's analysis (None when the game ends there)."""
    p = state.to_move()
    after = state.clone()
    after.apply(move)
    if after.is_terminal():
        value = final_value(after, p)
        return (1.0 if value > 0 else 0.0), after.score(p) - after.score(1 - p), True
    if following is None or not following.moves:
        raise AnalysisError("the position after the move needs its own analysis")
    best = following.best
    if following.player == p:
        return best.win, best.margin, best.exact
    return 1.0 - best.win, -best.margin, best.exact


# --- plain words -------------------------------------------------------------------------------


def outcome_words(m: AnalysedMove) -> str:
    """What the move leads to, in words a player reads without knowing how the AI searches."""
    if m.exact:
        return _exact_words(m)
    if m.outcome_proven:  # won or lost is proven, the margin only bounded (an unfinished or refuting search)
        if m.floor is not None:
            margin = value_margin(m.floor)
            # Translators: a move's proven outcome; the margin is a lower bound
            result = ngettext("you win with best play, by at least {count} point",
                              "you win with best play, by at least {count} points", margin)
        elif m.value is not None and m.value > 0:
            margin = value_margin(m.value)
            # Translators: a move's proven outcome; the margin is an upper bound
            result = ngettext("you win with best play, by at most {count} point",
                              "you win with best play, by at most {count} points", margin)
        elif m.value is not None and m.value < -1:
            margin = -value_margin(m.value)
            # Translators: a move's proven outcome; the margin is a lower bound
            result = ngettext("you lose with best play, by at least {count} point",
                              "you lose with best play, by at least {count} points", margin)
        else:
            # Translators: a move's proven outcome, the margin not known
            result = _("you lose with best play")
        if not m.visits:  # no estimate of the margin beside the proven bound
            # Translators: {result} is a proven outcome ("you win with best play, by at least 3 points")
            return _("{result} (every way the game can go was checked for who wins, not yet by how much)",
                     result=result)
        # Translators: {result} is a proven outcome; {margin} the expected final margin, signed ("+2.5")
        return ngettext("{result} (every way the game can go was checked for who wins; {margin} point expected)",
                        "{result} (every way the game can go was checked for who wins; {margin} points expected)",
                        decimal(abs(m.margin), 1), result=result, margin=signed(m.margin, 1))
    # Translators: a move's estimated outcome: {percent} the share of games won ("55%"), {margin} the
    # expected final margin, signed ("+2.5")
    return ngettext("you win about {percent} of games from here, {margin} point expected",
                    "you win about {percent} of games from here, {margin} points expected",
                    decimal(abs(m.margin), 1), percent=percent(m.win), margin=signed(m.margin, 1))


def _exact_words(m: AnalysedMove) -> str:
    """A proven move's outcome and margin under best play."""
    if m.margin == 0 and m.win:
        # Translators: a move's proven outcome: the scores tie and the tie-break favours you
        return _("you win on the tie-break with best play (every way the game can go was checked)")
    if m.margin == 0:
        # Translators: a move's proven outcome: the scores tie and the tie-break favours the opponent
        return _("you lose on the tie-break with best play (every way the game can go was checked)")
    if m.win:
        # Translators: a move's proven outcome and margin
        return ngettext("you win by {count} point with best play (every way the game can go was checked)",
                        "you win by {count} points with best play (every way the game can go was checked)",
                        abs(m.margin))
    # Translators: a move's proven outcome and margin
    return ngettext("you lose by {count} point with best play (every way the game can go was checked)",
                    "you lose by {count} points with best play (every way the game can go was checked)",
                    abs(m.margin))


def advice(state: State, m: AnalysedMove) -> str:
    # Translators: a hint: the move ("buy #18 at ...") and what it leads to ("you win by 3 points ...")
    return _("{move}: {outcome}", move=words_in(state, m.move), outcome=outcome_words(m))
