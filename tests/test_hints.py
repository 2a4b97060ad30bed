"""Position hints and the ``hint`` command: only legal moves, ranked, with their reasons."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.random_play import playout, random_move
from patchwork_opt.bench.hint import random_midgame, run_hint_bench
from patchwork_opt.core.bitboard import FULL, bit, mask_of
from patchwork_opt.core.catalogue import is_placement
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation

runner = CliRunner()


def _positions(count: int, seed: int) -> list[State]:
    """Positions from random games, some with a leather patch waiting to be placed."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = State.new(seed=rng.randrange(10_000))
        stop = rng.randrange(5, 60)
        for _ in range(stop):
            if state.is_terminal():
                break
            state.apply(random_move(state, rng))
        if not state.is_terminal():
            out.append(state)
    return out


def test_a_position_hint_considers_legal_distinct_moves_for_every_affordable_offer() -> None:
    """The placement part of a position hint (the CP-SAT advisor's best placements of each offer)."""
    from patchwork_opt.ai.analysis.position import candidate_moves
    from solvers.advisor import SolverAdvisor

    advisor = SolverAdvisor(budget=0.05)
    pending_seen = False
    for state in _positions(20, seed=4):
        moves = candidate_moves(state, advisor)
        legal = set(state.legal_moves())
        assert moves and set(moves) <= legal and len(set(moves)) == len(moves)
        if state.pending >= 0:
            pending_seen = True
            assert {m.kind for m in moves} == {"leather"}
        else:
            assert moves.count(ADVANCE) == 1
            assert {m.patch for m in moves if m.kind == "buy"} == set(state.buyable())
    assert pending_seen


def test_finished_game_has_no_hints() -> None:
    from patchwork_opt.apps.hints import advised_hints
    from patchwork_opt.core.clock import Deadline

    state = State.new(seed=1)
    playout(state, random.Random(1))
    assert advised_hints(state, deadline=Deadline.after(1.0)).hints == []


def test_bench_reports_percentiles() -> None:
    result = run_hint_bench(quilts=4, baseline_quilts=0, positions=2, seed=1)
    assert result["quilts"] == 4 and result["baseline_quilts"] == 0
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]


def test_random_midgame_requests_are_consistent() -> None:
    rng = random.Random(2)
    for _ in range(10):
        quilt, pid, upcoming, pool = random_midgame(rng)
        assert 0.25 * 81 <= quilt.bit_count() <= 0.55 * 81 + 12
        assert 3 <= len(upcoming) <= 6
        assert pid not in pool and set(upcoming) <= set(pool)


# --- the command ------------------------------------------------------------------------------


def _quilt_file(tmp_path: Path, mask: int) -> Path:
    lines = ["".join("#" if mask & bit(r, c) else "." for c in range(9)) for r in range(9)]
    path = tmp_path / "quilt.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_hint_quilt_json(tmp_path: Path) -> None:
    quilt = mask_of((r, c) for r in range(3) for c in range(4))
    path = _quilt_file(tmp_path, quilt)
    result = runner.invoke(app, ["hint", str(path), "--patch", "12", "--next", "3,5,7", "--top", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["patch"] == 12 and data["lookahead"] == [3, 5, 7]
    assert 1 <= len(data["hints"]) <= 2
    for hint in data["hints"]:
        assert {"patch", "cells", "score", "parts", "type"} <= hint.keys()
        mask = mask_of(tuple(c) for c in hint["cells"])
        assert hint["patch"] == 12 and is_placement(12, mask) and mask & quilt == 0


def test_cli_hint_pool_decides_what_is_unfillable(tmp_path: Path) -> None:
    # only a 1x5 corridor is empty: with the 1x3 patch to come the ends are best
    path = _quilt_file(tmp_path, FULL & ~mask_of((0, c) for c in range(5)))
    args = ["hint", str(path), "--patch", "0", "--top", "4", "--json"]
    with_i3 = json.loads(runner.invoke(app, [*args, "--pool", "1"]).stdout)
    without = json.loads(runner.invoke(app, [*args, "--pool", "4"]).stdout)
    assert with_i3["pool"] == 1
    assert with_i3["hints"][0]["parts"]["new_unfillable"] == 0
    assert all(h["parts"]["unfillable"] == 3 for h in without["hints"])  # nothing else fits anywhere


def test_cli_hint_quilt_for_people(tmp_path: Path) -> None:
    path = _quilt_file(tmp_path, mask_of((r, c) for r in range(3) for c in range(4)))
    result = runner.invoke(app, ["hint", str(path), "--patch", "0", "--top", "3"])
    assert result.exit_code == 0, result.output
    assert "#1" in result.output and "contact" in result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    width = len("│ " + "x " * 9 + "│")
    first_grid = "".join(row[:width] for row in rows)
    assert len(rows) == 9 and first_grid.count("1") == 2  # suggestion 1: the 1x2 patch's two cells
    assert first_grid.count("█") == 12


def test_cli_hint_position_json() -> None:
    state = _positions(1, seed=9)[0]
    while state.pending >= 0:
        state.apply(next(state.legal_moves()))
    result = runner.invoke(app, ["hint", to_notation(state), "--top", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    types = [h["type"] for h in data["hints"]]
    assert types.count("advance") == 1
    advance = data["hints"][types.index("advance")]
    assert advance["patch"] is None and advance["cells"] == []
    for hint in data["hints"]:
        assert {"patch", "cells", "score", "reason"} <= hint.keys()


def test_cli_hint_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    path = _quilt_file(tmp_path, 0)
    bad_quilt = tmp_path / "bad.txt"
    bad_quilt.write_text(".........\n" * 8)
    cases = [
        ["hint", str(path), "--patch", "40"],
        ["hint", str(path), "--patch", "x"],
        ["hint", str(path), "--patch", "3", "--next", "5,5"],
        ["hint", str(path), "--patch", "3", "--next", "5,x"],
        ["hint", str(path), "--patch", "3", "--next", "3"],
        ["hint", str(path)],
        ["hint", str(bad_quilt), "--patch", "3"],
        ["hint", str(path), "--patch", "3", "--top", "0"],
        ["hint", str(path), "--patch", "3", "--pool", "4,4"],
        ["hint", to_notation(State.new(seed=1)), "--pool", "4,5"],
    ]
    for args in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.output)
        assert "Traceback" not in result.output


def test_cli_hint_patch_that_fits_nowhere_exits_1(tmp_path: Path) -> None:
    path = _quilt_file(tmp_path, FULL & ~bit(4, 4))
    result = runner.invoke(app, ["hint", str(path), "--patch", "0"])
    assert result.exit_code == 1
    assert result.output.startswith("error: patch 0 fits nowhere")


def test_cli_bench_hint_json() -> None:
    result = runner.invoke(app, ["bench", "hint", "--quilts", "3", "--baseline", "0", "--positions", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["quilts"] == 3 and data["p50_ms"] > 0


def test_hints_say_which_moves_are_proven() -> None:
    """A partly solved position: the proven move reads as exact, the sampled one as a chance, and the
    JSON and the text say the exact search ran out after proving one move."""
    from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
    from patchwork_opt.apps.hints import hints_of, render_advised_hints

    state = State.new(seed=3)
    buy = next(m for m in state.legal_moves() if m.kind == "buy")
    proven = AnalysedMove(buy, 1.0, 3.0, 0, True, (buy,), 6)
    sampled = AnalysedMove(ADVANCE, 0.4, -2.0, 500, False, (ADVANCE,))
    for moves, exact, kind in (([proven, sampled], False, "partly exact"), ([sampled], False, "sampled"),
                               ([proven], True, "exact")):
        hints = hints_of(state, SearchedPosition.of(state, moves, exact=exact), top=8)
        data = json.loads(hints.model_dump_json())
        assert data["search"] == kind and data["proven"] == sum(m.exact for m in moves)
        assert [h["exact"] for h in data["hints"]] == [m.exact for m in moves]
        text = render_advised_hints(hints, state)
        assert ("ran out of time after proving 1 move:" in text) == (kind == "partly exact")
        assert text.count("every way the game can go was checked") == sum(m.exact for m in moves) + (
            kind == "partly exact")
