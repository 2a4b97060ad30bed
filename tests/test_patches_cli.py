"""Finding a piece: ``patchwork patches`` (the catalogue drawn, filtered, as JSON and SVG), patches
named by the facts their pieces show, and the near matches ``hint`` and ``fill`` name for an unknown
patch; and the words ``hint QUILT --patch`` explains its placements in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps.placement_reasons import placement_reasons
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, mask_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.errors import DuplicatePatchError, UnknownPatchError
from patchwork_opt.core.lookup import facts_name, find_patch, parse_patch_ids
from solvers.bestfit import best_fit

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_catalogue_is_drawn_with_every_id_and_its_facts() -> None:
    code, out, _ = run("patches")
    assert code == 0
    for p in PATCHES:
        assert f"#{p.id} ({facts_name(p.id)})" in out
    assert out.count("cost ") == 33 and out.count("income ") == 33 and "33 patches" in out
    # patch 12's card: its shape as printed, a button as (), cloth as ##
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if "#12 (3/6)" in line)
    column = lines[top].index("#12")
    assert [lines[top + k][column:column + 6] for k in (1, 2, 3)] == ["  ()  ", "()####", "##  ##"]



def test_the_catalogue_is_drawn_in_the_players_language_within_80_columns() -> None:
    code, out, _ = run("--lang", "ru", "patches")
    assert code == 0
    # Russian plurals (2-4 клетки, 5-20 клеток), the card's words and the count under the cards
    assert "2 клетки" in out and "5 клеток" in out and out.count("доход ") == 33 and "33 лоскута." in out
    assert not any(word in out for word in ("cost", "income", "cells", "patches"))
    assert max(len(line) for line in out.splitlines()[:-1]) <= 80  # the cards; the legend is one line under them

def test_filters_and_the_closest_patches_when_none_matches(tmp_path: Path) -> None:
    code, out, _ = run("patches", "--cells", "3", "--json")
    data = json.loads(out)
    assert code == 0 and [p["id"] for p in data["patches"]] == [p.id for p in PATCHES if p.area == 3]
    assert data["patches"][0] == {"id": 1, "cost": 2, "time": 2, "income": 0, "buttons": 0, "cells": 3,
                                  "shape": ["###"], "name": "2/2/0/3"}
    code, out, _ = run("patches", "--cost", "0-1", "--time", "2-3", "--income", "0")
    assert code == 0 and "#10 (1/2/0/5)" in out and "#26 (1/3)" in out and "#16" not in out
    code, out, _ = run("patches", "--cost", "5", "--time", "4", "--income", "1", "--svg", str(tmp_path / "c.svg"))
    assert code == 0
    assert out.splitlines()[0].startswith("no patch has cost 5, time 4, income 1; the closest: #21 (cost 5, time 4")
    svg = (tmp_path / "c.svg").read_text()
    assert svg.startswith("<svg") and [f">#{i}<" in svg for i in (21, 23, 14, 12)] == [True, True, True, False]
    code, _, err = run("patches", "--cost", "cheap")
    assert code == 2 and err == "error: --cost: expected a number or a range like 2-4, got 'cheap'\n"


def test_a_patch_is_named_by_its_id_or_the_facts_its_piece_shows() -> None:
    assert [find_patch(t) for t in ("12", "#12", "3/6", "3/6/2", "3/6/2/6")] == [12] * 5
    assert all(find_patch(facts_name(p.id)) == p.id for p in PATCHES)
    assert parse_patch_ids("#1, 3/6 7/1", "--patches") == [1, 12, 3]
    with pytest.raises(UnknownPatchError, match=r"^--patch: 2/2 names 3 patches: #1 .*, #5 .*, #13 .*; add more "
                                                r"of its facts, e.g. 2/2/0/3 for #1, or give the id$"):
        find_patch("2/2", "--patch")
    with pytest.raises(DuplicatePatchError, match=r"^--patches: patch 12 is listed twice"):
        parse_patch_ids("12, 3/6")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["hint", "QUILT", "--patch", "40"], "error: --patch: no patch #40 (ids are 0-32, or name a piece by what "
                                             "it shows: cost/time[/income[/cells]], e.g. 3/6)"),
        (["hint", "QUILT", "--patch", "5/4/1"], "error: --patch: no patch has cost 5, time 4, income 1; the closest: "
                                                "#21 (cost 5, time 4, income 2, 5 cells), #23 (cost 5, time 3, "
                                                "income 1, 8 cells), #14 (cost 5, time 5, income 2, 5 cells)"),
        (["fill", "--patches", "1,2,99"], "error: --patches: no patch #99 (ids are 0-32"),
        (["fill", "--patches", "1,9/9"], "error: --patches: no patch has cost 9, time 9; the closest: #9 (cost 8"),
        (["hint", "QUILT", "--patch", "3", "--next", "5,cheap"], "error: --next: 'cheap' is not a patch id"),
    ],
)
def test_an_unknown_patch_names_a_near_match_in_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    quilt = tmp_path / "q.txt"
    quilt.write_text(".........\n" * 9)
    code, out, err = run(*[str(quilt) if a == "QUILT" else a for a in args])
    assert code == 2 and err.startswith(words) and err.count("\n") == 1 and out == "", err


def test_hint_and_fill_read_patches_by_their_facts(tmp_path: Path) -> None:
    quilt = tmp_path / "q.txt"
    quilt.write_text(".........\n" * 9)
    by_id = json.loads(run("hint", str(quilt), "--patch", "12", "--next", "3", "--json")[1])
    by_facts = json.loads(run("hint", str(quilt), "--patch", "3/6", "--next", "7/1", "--json")[1])
    assert by_facts["patch"] == 12 and by_facts["lookahead"] == [3]
    assert [h["cells"] for h in by_facts["hints"]] == [h["cells"] for h in by_id["hints"]]
    code, out, _ = run("fill", "--patches", "2/1/0/2,2/2/0/3", "--json")
    assert code == 0 and {p["patch"] for p in json.loads(out)["placements"]} == {0, 1}


def _reasons(quilt: int, patch: int, next_ids: list[int] = (), top: int = 1) -> list[object]:  # type: ignore[assignment]
    result = best_fit(quilt, patch, list(next_ids), top_k=top, deadline=None)
    return [placement_reasons(quilt, hint, result) for hint in result.hints]


def test_the_reasons_say_what_the_score_parts_are() -> None:
    # a 7x7 square missing only a 1x3 strip: the 1x3 patch completes it
    square = WINDOW_MASKS[0] & ~mask_of([(6, 0), (6, 1), (6, 2)])
    done = _reasons(square, 1)[0]
    assert done.square == "completes a 7x7 square (+7 points)"  # type: ignore[attr-defined]
    assert "+7.00 for completing a 7x7 square" in done.score  # type: ignore[attr-defined]
    # an empty corridor of 5 cells, a 1x2 patch with only a 1x3 still to come: a middle placement
    # leaves one cell and a pair nothing can fill
    corridor = FULL & ~mask_of((0, c) for c in range(5))
    result = best_fit(corridor, 0, [], pool=[1], top_k=4, deadline=None)
    worst = placement_reasons(corridor, result.hints[-1], result)
    assert "no patch still to come can fill" in worst.keeps_open
    assert "cells shut in" in worst.score or "cell shut in" in worst.score
    # the next patch loses room when the placement takes its only place
    pocket = FULL & ~(mask_of([(0, 0), (0, 1), (0, 2)]) | mask_of([(8, 8), (8, 7)]))
    lost = best_fit(pocket, 0, [1], top_k=2, deadline=None)
    words = [placement_reasons(pocket, h, lost).next_patches for h in lost.hints]
    assert words[0] == "the next patch #1 still fits as well as before: 3 of its 3 cells"
    assert words[1] == "the next patch #1 loses room: 0 of its 3 cells still fit, 3 fewer than before (3)"
    touches = _reasons(bit(0, 0), 0)[0].touches  # type: ignore[attr-defined]
    assert touches.endswith("of its 6 sides touch the edge or covered cells")
