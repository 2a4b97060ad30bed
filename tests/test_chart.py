"""The win-chance chart of a game review: the SVG the page shows and the PNG `analyze --chart X.png` writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import random_record
from PIL import Image
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps.chart import HEIGHT, MARK_COLOURS, PNG_SCALE, WIDTH, win_chart_svg
from patchwork_opt.apps.review import GameReview, review_game, write_chart

runner = CliRunner()


@pytest.fixture(scope="module")
def review() -> GameReview:
    return review_game(random_record(5), iterations=30, seed=0)


def _colours(path: Path) -> set[tuple[int, int, int]]:
    with Image.open(path) as image:
        assert image.format == "PNG"
        rgb = image.convert("RGB")
        data = rgb.tobytes()
        return {(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)}


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def test_png_chart_draws_the_curve_and_the_marks_of_the_svg(review: GameReview, tmp_path: Path) -> None:
    written = write_chart(review, str(tmp_path / "win.png"))
    assert written == str(tmp_path / "win.png")
    with Image.open(written) as image:
        assert image.size == (WIDTH * PNG_SCALE, HEIGHT * PNG_SCALE)
    colours = _colours(Path(written))
    assert _rgb("#3a6ea5") in colours  # the curve
    labels = {label for _, label, _ in review.marks()}
    assert labels, "a random player's game has moves to point out"
    for label, colour in MARK_COLOURS.items():
        assert (_rgb(colour) in colours) == (label in labels), label
    # the SVG of the same review marks the same plies, each with its ply for the page to click
    svg = win_chart_svg(review.first_wins, review.marks())
    assert [int(p) for p in re.findall(r'data-ply="(\d+)"', svg)] == [ply for ply, _, _ in review.marks()]


def test_analyze_writes_a_png_chart_and_reports_an_unwritable_one(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    random_record(8).save(path)
    chart = tmp_path / "chart.png"
    result = runner.invoke(app, ["analyze", str(path), "--time-per-move", "0.02", "--chart", str(chart)])
    assert result.exit_code == 0, result.output
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert f"chart written to {chart}" in result.stderr
    (tmp_path / "taken.png").mkdir()
    refused = runner.invoke(app, ["analyze", str(path), "--time-per-move", "0.02", "--chart",
                                  str(tmp_path / "taken.png")])
    assert refused.exit_code == 2
    lines = [line for line in refused.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "taken.png" in lines[0], refused.stderr
    assert not list(tmp_path.glob("taken.png/*")) and not list(tmp_path.glob(".*tmp*"))  # nothing half-written


def test_analyze_refuses_a_chart_name_it_cannot_write_before_analysing(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    random_record(8).save(path)
    import patchwork_opt.apps.hints

    def must_not_run(*_: object, **__: object) -> None:
        raise AssertionError("the game was analysed before the chart's name was checked")

    monkeypatch.setattr(patchwork_opt.apps.hints, "review_record", must_not_run)
    result = runner.invoke(app, ["analyze", str(path), "--chart", str(tmp_path / "win.gif")])
    assert result.exit_code == 2
    wanted = f"error: --chart {tmp_path / 'win.gif'}: the chart is written as .svg or .png, not .gif"
    assert result.stderr.strip() == wanted
    assert not (tmp_path / "win.gif").exists()
