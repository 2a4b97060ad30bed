"""The exact search's estimate and what an unfinished exact search leaves (issue 35).

The estimate (``exactcore.estimate_nodes``) is a fit of ln(nodes) on a position's features
(``bench/exact_fit.py``): a position with one root move still leads into a whole tree, more empty
cells and more affordable offers mean more to search, and a search cut by its budget is fitted as
censored, not as if it had finished. An exact search that runs out keeps the root moves it proved:
the analysis, the hints' JSON and their text say which moves are proven and which are sampled.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.analysis import run as search
from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.exactcore.threads import thread_table
from patchwork_opt.apps.hints import hints_of, render_advised_hints
from patchwork_opt.bench.exact_fit import (
    FIT_BASE_SEED,
    censored_least_squares,
    estimate_error,
    load_rows,
    measure,
    save_rows,
)
from patchwork_opt.bench.exact_suite import cut_game
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import END, State
from patchwork_opt.formats.notation import from_notation

runner = CliRunner()

#: A noisy-greedy position (``conftest.late_positions(1, 42)``) with 34 root moves, solved for every move
#: in about 30,000 nodes: half of that proves some of its moves, not all.
PARTLY = ("0,18,2,6,20,14,22,21,15,32,28 45/0/7/0cc7fa7f7eff7ffeff3f8 43/20/11/121fbfcbeddecffe13c1f 0 - - 50 - "
          "26,32,38,44,50")
#: Greedy against greedy from space 36 (the fit's game 45,002): player 2 to move can buy nothing, so
#: advancing is their one move; player 1 then has three offers to place.
ONE_MOVE = ("6,7,9,20,4,18,28,32,19,21 37/13/8/100805f6ff7fbff3efe7f 37/6/7/01c8fe7f3ffeff7fffe7b 1 - - 38,44,50 - "
            "26,32,38,44,50")


def _solve(state: State, *, every_move: bool = False, node_limit: int | None = None) -> SearchedPosition:
    """One search on an empty table of its own (the node counts are then the same on every run)."""
    return exactcore.solve(state, every_move=every_move, node_limit=node_limit, table=exactcore.ExactTable(16),
                           pv_plies=1)


# --- the estimate's features ----------------------------------------------------------------------------------
def test_a_position_with_one_root_move_is_not_estimated_at_nothing() -> None:
    """Its search is the search of the position its move leads to (for that position's value)."""
    only = from_notation(ONE_MOVE)
    assert exactcore.root_moves(only) == [ADVANCE]
    after = only.clone()
    after.apply(ADVANCE)
    assert len(exactcore.root_moves(after)) > exactcore.ROOT_FLOOR
    for every_move in (False, True):
        assert exactcore.estimate_nodes(only, every_move=every_move) == exactcore.estimate_nodes(after) > 10_000
    features = dict(zip(exactcore.ESTIMATE_FEATURES, exactcore.estimate_features(only), strict=True))
    assert features["ln root moves"] == pytest.approx(np.log(exactcore.ROOT_FLOOR))  # floored, not ln 1 = 0


def test_more_empty_cells_and_more_affordable_offers_mean_more_nodes() -> None:
    state = from_notation(ONE_MOVE)
    state.apply(ADVANCE)  # the other player to move, with offers they can buy
    p = state.to_move()
    emptier = state.clone()
    covered = emptier.quilts[p]
    low = covered & -covered
    emptier.quilts[p] = covered & ~low & ~(low << 1)  # a cell or two fewer covered
    assert emptier.quilts[p].bit_count() < covered.bit_count()
    richer = state.clone()
    richer.buttons[p] += 6  # more offers affordable
    assert len(richer.buyable_offers(p)) > len(state.buyable_offers(p)) > 0
    for every_move in (False, True):
        base = exactcore.estimate_nodes(state, every_move=every_move)
        assert exactcore.estimate_nodes(emptier, every_move=every_move) > base
        assert exactcore.estimate_nodes(richer, every_move=every_move) > base


def test_only_the_players_still_moving_count() -> None:
    """A player on space 53 places nothing more: their empty cells add nothing to the tree."""
    state = from_notation("28,3,12,10,9,32,4 48/13/5/0e9ff8fdffe7fffff9fff 53/27/19/0fe3f7ffff93cfbfdfefe 0 - - - - "
                          "26,32,38,44,50")
    features = dict(zip(exactcore.ESTIMATE_FEATURES, exactcore.estimate_features(state), strict=True))
    assert features["spaces left"] == END - 48
    assert features["empty cells"] == 81 - state.quilts[0].bit_count()


def test_the_estimate_refuses_an_unknown_quantile() -> None:
    with pytest.raises(PatchworkError, match="quantile"):
        exactcore.estimate_nodes(from_notation(ONE_MOVE), quantile=0.3)


# --- the fit ---------------------------------------------------------------------------------------------------
def test_censored_least_squares_recovers_a_fit_the_budget_cut_short() -> None:
    """Counting a cut search at the budget pulls the slope down; fitting it as censored does not."""
    rng = np.random.default_rng(7)
    spaces = rng.uniform(10, 40, 400)
    x = np.column_stack([np.ones_like(spaces), spaces])
    y = 1.0 + 0.4 * spaces + rng.normal(0, 1.0, spaces.size)
    cap = 12.0
    censored = y > cap
    seen = np.minimum(y, cap)
    assert censored.mean() > 0.3
    naive = np.linalg.lstsq(x, seen, rcond=None)[0]
    beta, sigma = censored_least_squares(x, seen, censored)
    assert abs(beta[1] - 0.4) < 0.03 < abs(naive[1] - 0.4)
    assert abs(sigma - 1.0) < 0.15


def test_measured_rows_are_kept_fitted_and_judged(tmp_path: Path) -> None:
    late = [p for seed in (0, 1) for p in cut_game("greedy-greedy", FIT_BASE_SEED + seed, (46, 48, 50))]
    rows = measure(late, node_cap=20_000, table_mb=16)
    assert {r.every_move for r in rows} == {False, True} and any(r.solved for r in rows)
    assert all(r.solved or r.nodes >= r.cap for r in rows)  # a capped search is marked, not mistaken for done
    path = tmp_path / "rows.json"
    save_rows(rows, path)
    assert load_rows(path) == rows
    error = estimate_error(rows, lambda notation, every_move: 2.0)
    assert error["solved"] + error["unsolved"] == len(rows)
    assert error["within_4x"] == sum(1 for r in rows if r.solved and 0.5 <= r.nodes <= 8)


def test_fit_data_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "fit_rows.json"
    bad.write_text("[{\"style\": 1}]", encoding="utf-8")
    result = runner.invoke(app, ["bench", "exact", "--fit", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: fit data {bad}: expected a list of measured rows "
                                                  "(bench exact --fit DIR)"]


# --- an unfinished exact search keeps what it proved -------------------------------------------------------
def test_an_unfinished_search_keeps_the_root_moves_it_proved() -> None:
    state = from_notation(PARTLY)
    for every_move in (True, False):
        full = _solve(state, every_move=every_move)
        part = _solve(state, every_move=every_move, node_limit=full.nodes // 2)
        assert full.solved and not part.solved
        exact = [m for m in part.moves if m.exact]
        assert part.moves and len(exact) < len(full.moves)
        values = {m.move: m for m in full.moves}
        for m in part.moves:
            whole = values[m.move]
            assert m.outcome_proven and m.win == whole.win  # won or lost is proven whatever the figures
            assert whole.value is not None
            if m.exact:  # an exact value is the move's value
                assert m.value == whole.value
            elif m.floor is not None:  # a proven win, by at least its floor
                assert 0 < m.floor <= whole.value and m.margin <= whole.margin
            else:  # a refuted or proven-losing move: its bound holds
                assert m.bound and m.value is not None and m.value >= whole.value
        if every_move:  # the first round asks only whether each move wins: half the nodes answer it for all
            assert len(part.moves) == len(full.moves)
            assert any(m.floor is not None or m.bound for m in part.moves)


@pytest.fixture
def attempted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate says every search finishes (so an attempt is made and runs out), on an empty table."""
    monkeypatch.setattr(exactcore, "estimate_nodes", lambda state, every_move=False, quantile=0.5: 1.0)
    thread_table().clear()  # the analysis searches on its thread's table: no earlier proofs


def test_the_analysis_keeps_proven_moves_and_samples_the_rest(attempted: None) -> None:
    state = from_notation(PARTLY)
    full = _solve(state, every_move=True)
    iterations = full.nodes // 4  # the exact search's share: half the nodes it needs
    analysis = analyse_position(state, iterations=iterations)
    assert not analysis.solved and analysis.exact_failed and analysis.nodes > 0
    exact = [m for m in analysis.moves if m.exact]
    sampled = [m for m in analysis.moves if not m.exact]
    assert exact and sampled and all(m.visits > 0 or m.outcome_proven for m in sampled)
    values = {m.move: m for m in full.moves}
    assert all(m.value == values[m.move].value for m in exact)
    outcomes = [m for m in sampled if m.outcome_proven]  # the first round proved who wins after every move
    assert outcomes and all(m.win == values[m.move].win for m in outcomes)
    for m in outcomes:  # the proven bound holds; the margin shown is the sampling's, kept within it
        whole = values[m.move].value
        assert whole is not None
        if m.floor is not None:
            assert m.floor <= whole and m.margin >= m.floor / 2
        else:
            assert m.bound and m.value is not None and m.value >= whole and m.margin <= m.value / 2

    hints = hints_of(state, analysis, top=40)
    data = json.loads(hints.model_dump_json())
    assert data["search"] == "partly exact" and data["proven"] == len(exact)
    assert data["outcomes_proven"] == len(exact) + len(outcomes)
    for hint in hints.hints:
        assert hint.exact == ("(every way the game can go was checked)" in hint.reason)
        assert hint.outcome_proven == ("every way the game can go was checked" in hint.reason)
    assert any(h.exact for h in hints.hints) and any(not h.exact for h in hints.hints)
    text = render_advised_hints(hints, state)
    assert f"after proving {len(exact)} move" in text and "the others are estimates from sampling" in text


#: Player 2 far behind at space 40 (a solver vs greedy game): the estimate puts every move's values far
#: beyond any hint's time, yet a few thousand nodes prove every move loses.
DECIDED = ("3,10,9,14,12,5,19,0,32,13,6,7,20,18 41/22/13/0081c0f93fff7f9fffe7f 40/4/4/00000000f36ff7dfeffff "
           "0 - - 44,50 - 26,32,38,44,50")


def test_a_hint_proves_who_wins_in_a_decided_game_the_estimate_prices_out_of_reach() -> None:
    state = from_notation(DECIDED)
    iterations = 20_000  # 40,000 nodes for the exact search, of which the probe gets a tenth
    assert exactcore.estimate_nodes(state, every_move=True, quantile=0.25) > 1000 * 2 * iterations
    analysis = analyse_position(state, iterations=iterations)
    roots = exactcore.root_moves(state)
    assert not analysis.solved and all(m.outcome_proven and m.win == 0.0 for m in analysis.moves)
    hints = hints_of(state, analysis, top=8)
    assert hints.search == "partly exact" and hints.proven == 0 and hints.outcomes_proven >= len(roots)
    assert all(h.outcome_proven and "you lose with best play" in h.reason for h in hints.hints)
    estimated = [h for h in hints.hints if "points expected" in h.reason]
    bounded = [h for h in hints.hints if "not yet by how much" in h.reason]
    assert estimated and len(estimated) + len(bounded) == len(hints.hints)
    ranks = [0 if h in estimated else 1 for h in hints.hints]
    assert ranks == sorted(ranks)  # a margin estimated before one only bounded
    text = render_advised_hints(hints, state)
    assert f"after proving who wins after {hints.outcomes_proven} moves, not yet by how much" in text


def test_proofs_replace_sampled_figures_wins_first_losses_last() -> None:
    """The bot plays ``moves[0]``: a proven win before any sampled move, a proven loss after them all."""
    state = from_notation(PARTLY)
    buys = [m for m in exactcore.root_moves(state) if m.kind == "buy"]
    kept, won = buys[0], next(m for m in buys if m.patch != buys[0].patch)
    sampled = SearchedPosition.of(state, [AnalysedMove(ADVANCE, 0.7, 3.0, 500, False, (ADVANCE,)),
                                          AnalysedMove(kept, 0.5, 0.0, 300, False, (kept,))])
    win = AnalysedMove(won, 1.0, 2.0, 0, True, (won,), 4)
    loss = AnalysedMove(ADVANCE, 0.0, -1.0, 0, True, (ADVANCE,), -2)
    merged = search.with_proven(sampled, [win, loss])
    assert merged.moves == [win, sampled.moves[1], loss] and not merged.solved
    assert search.with_proven(sampled, []) == sampled


def test_no_exact_search_is_tried_out_of_its_reach_and_a_probe_is_just_within_it() -> None:
    """Out of reach (a new game to about midway) no budget tries the exact search, not even a probe
    for every move, so a hint there compiles none of it; a position just within reach, its estimate
    still far over a hint's share, gets a probe for every move (its first round proves decided games)."""
    for seed in (2, 7, 11):
        state = State.new(seed=seed)
        assert exactcore.out_of_reach(state)
        rng = np.random.default_rng(seed)
        while exactcore.out_of_reach(state):
            moves = list(state.legal_moves())
            state.apply(moves[int(rng.integers(len(moves)))])
        assert not state.is_terminal()
        live = [p for p in (0, 1) if state.pos[p] < END]
        assert 30 <= sum(END - state.pos[p] for p in live) <= 70  # about midway, as the rule says
        assert exactcore.estimate_seconds(state, every_move=True, quantile=0.1) > 3600
        probe = search.exact_budget(state, deadline=Deadline.after(1.0), iterations=None, every_move=True)
        assert probe is not None and probe.probe
        assert search.exact_budget(state, deadline=Deadline.after(1.0), iterations=None, every_move=False) is None
    assert not exactcore.out_of_reach(from_notation(PARTLY))
