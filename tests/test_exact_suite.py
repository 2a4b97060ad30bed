"""The held-out suite of mixed styles (``bench/exact_suite.py``, ``data/exact_suite.json``) and
``patchwork bench exact --suite``: every position is a legal, unfinished one of its cell, the file is
what its generator writes, and the bench reports its figures by style and space."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.search import exactcore
from patchwork_opt.bench.exact import run_suite_bench
from patchwork_opt.bench.exact_suite import (
    PER_CELL,
    SPACES,
    STYLES,
    cut_game,
    load_suite,
    shipped_suite_path,
    suite_json,
)
from patchwork_opt.core.catalogue import PATCH_COUNT, PATCHES
from patchwork_opt.core.state import END
from patchwork_opt.formats.notation import to_notation

runner = CliRunner()


def test_the_suite_holds_every_style_and_space_and_says_it_is_held_out() -> None:
    positions = load_suite()
    cells = {(p.style, p.space) for p in positions}
    assert cells == {(s, c) for s in STYLES for c in SPACES}
    assert all(sum(1 for p in positions if (p.style, p.space) == cell) == PER_CELL for cell in cells)
    data = json.loads(shipped_suite_path().read_text(encoding="utf-8"))
    assert "held out from any fitting" in data["held_out"]


def test_every_suite_position_is_a_legal_unfinished_position_of_its_cell() -> None:
    for p in load_suite():
        state = p.state()
        assert to_notation(state) == p.notation
        assert not state.is_terminal() and state.pending < 0 and state.count_moves() >= 1
        assert p.space <= min(state.pos) and max(state.pos) <= END
        # what left the circle was bought: its cells and income are on the quilts, with one cell per leather taken
        bought = [PATCHES[i] for i in range(PATCH_COUNT) if i not in state.circle]
        leathers = len(state.printing) - len(state.leather_left())
        cells = sum(q.bit_count() for q in state.quilts)
        assert cells == sum(x.area for x in bought) + leathers, (p.style, p.space, p.seed)
        assert sum(state.income) == sum(x.income for x in bought), (p.style, p.space, p.seed)
        exactcore.root_moves(state)  # in the exact search's range


def test_the_suite_is_what_its_generator_writes() -> None:
    shipped = [p for p in load_suite() if p.style == "greedy-greedy"]
    again = [q for seed in sorted({p.seed for p in shipped}) for q in cut_game("greedy-greedy", seed)]
    assert {(p.seed, p.space, p.notation) for p in shipped} <= {(q.seed, q.space, q.notation) for q in again}


def _small_suite(tmp_path: Path) -> Path:
    """Two positions of greedy game 35000: one a few plies from the end (solved at once), one from 40."""
    positions = cut_game("greedy-greedy", 35_000, (40, 50))
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(suite_json(positions)), encoding="utf-8")
    return path


def test_bench_reports_shares_speed_and_the_estimates_error_by_cell(tmp_path: Path) -> None:
    result = run_suite_bench(suite=_small_suite(tmp_path), limits=(2.0, 0.5), modes=("best", "every"), table_mb=16)
    assert result["limits"] == [0.5, 2.0] and result["estimate_units"] == "nodes"
    end = next(g for g in result["groups"] if g["mode"] == "every" and g["space"] == 50 and g["style"] != "all")
    assert end["positions"] == 1 and end["solved_within"] == {"0.5": 1, "2": 1} and end["share_within"]["2"] == 1.0
    row = next(r for r in result["rows"] if r["mode"] == "every" and r["space"] == 50)
    assert end["estimate"]["median_ratio"] == row["estimate_nodes"] / row["nodes"] and end["estimate"]["unsolved"] == 0
    assert end["nodes_per_second"] > 0
    for g in result["groups"]:
        e = g["estimate"]
        assert e["solved"] + e["unsolved"] == g["positions"]
        assert g["solved_within"]["0.5"] <= g["solved_within"]["2"] == e["solved"]
    total = next(g for g in result["groups"] if g["mode"] == "best" and g["style"] == "all" and g["space"] == "all")
    assert total["positions"] == 2


def test_bench_command_on_the_shipped_suite_with_tiny_limits() -> None:
    out = runner.invoke(app, ["bench", "exact", "--suite", "--limits", "0.01,0.02", "--mode", "best",
                              "--styles", "greedy-greedy", "--spaces", "44", "--per-cell", "2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["positions"] == 2 and data["modes"] == ["best"] and len(data["rows"]) == 2
    cell = data["groups"][0]
    assert (cell["style"], cell["space"], cell["positions"]) == ("greedy-greedy", 44, 2)
    assert set(cell["share_within"]) == {"0.01", "0.02"}
    assert {"median_ratio", "p90_ratio", "unsolved", "unsolved_ratio_at_most_median"} <= set(cell["estimate"])
    text = runner.invoke(app, ["bench", "exact", "--suite", "--limits", "0.01", "--mode", "every",
                               "--styles", "level1-level3", "--spaces", "44", "--per-cell", "1"])
    assert text.exit_code == 0 and "every move" in text.stdout and "level1-level3" in text.stdout


def test_bench_refusals(tmp_path: Path) -> None:
    bad_file = tmp_path / "bad.json"
    bad_file.write_text("{}", encoding="utf-8")
    for args in (["--suite", "--limits", "0"], ["--suite", "--limits", "x"], ["--suite", "--mode", "all"],
                 ["--suite", "--styles", "chess"], ["--suite", "--spaces", "20"], ["--suite", "--per-cell", "0"],
                 ["--suite", "--every-move"], ["--suite-file", str(bad_file)],
                 ["--suite-file", str(tmp_path / "missing.json")]):
        bad = runner.invoke(app, ["bench", "exact", *args])
        assert bad.exit_code != 0 and bad.stderr.startswith("error: ") and len(bad.stderr.splitlines()) == 1, args
