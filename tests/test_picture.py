"""``patchwork show ... --svg/--png``: pictures of quilts and positions in the web page's style."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from cli import app
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.state import LEATHER_PATCH
from patchwork_opt.formats.picture import CELL, patch_colour
from patchwork_opt.formats.record import Record

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NS = "{http://www.w3.org/2000/svg}"


def _svg(path: Path) -> ET.Element:
    return ET.parse(path).getroot()  # well-formed XML, or this raises


def test_a_position_picture_shows_every_patch_its_buttons_both_tokens_and_the_result(tmp_path: Path) -> None:
    record = EXAMPLES / "records" / "random-game.json"
    out = tmp_path / "game.svg"
    result = runner.invoke(app, ["show", str(record), "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = _svg(out)
    assert root.tag == f"{NS}svg" and float(root.get("width") or 0) >= 2 * 9 * CELL
    state = Record.load(record).replay()
    fills = [r.get("fill") for r in root.iter(f"{NS}rect")]
    for p in (0, 1):
        for pid, mask in state.placed[p]:
            assert fills.count(patch_colour(pid)) >= mask.bit_count()
    buttons = sum(len(button_cells(pid, mask)) for p in (0, 1) for pid, mask in state.placed[p] if pid != LEATHER_PATCH)
    marks = 9  # the income marks on the track are drawn as buttons too
    icons = [c for c in root.iter(f"{NS}circle") if c.get("fill") == "#2e5eaa"]
    assert len(icons) == buttons + marks
    texts = [t.text or "" for t in root.iter(f"{NS}text")]
    assert "1" in texts and "2" in texts  # the tokens
    assert any(t.startswith("Player 1: score ") for t in texts) and any(t.startswith("Player 2: score ") for t in texts)
    assert f"game over: Player 1 {state.score(0)}, Player 2 {state.score(1)}; Player 2 wins" in texts


def test_a_bare_quilt_picture_and_a_png_of_it(tmp_path: Path) -> None:
    quilt = EXAMPLES / "quilts" / "late.json"
    svg, png = tmp_path / "q.svg", tmp_path / "q.png"
    result = runner.invoke(app, ["show", str(quilt), "--svg", str(svg), "--png", str(png)])
    assert result.exit_code == 0, result.output
    texts = [t.text for t in _svg(svg).iter(f"{NS}text")]
    assert texts == ["covered 50, empty 31"]
    from PIL import Image

    with Image.open(png) as image:
        assert image.format == "PNG" and image.size[0] >= 9 * CELL
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 5  # drawn, not blank


def test_a_picture_that_cannot_be_written_is_one_error_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(app, ["show", str(EXAMPLES / "quilts" / "late.json"), "--png", str(blocker / "x.png")])
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


def test_patch_colours_are_the_pages() -> None:
    # static/js/components/patch.js: hsl((id * 137.508) % 360, 55%, 66%); patch 0 is hsl(0, 55%, 66%) = #d87979
    assert patch_colour(0) == "#d87979"
    assert len({patch_colour(p.id) for p in PATCHES}) == len(PATCHES)
