"""The shared front-end components (static/js/components/) in a real browser, on a bare page of
the served app's origin: what the game, puzzle, workshop and analysis board pages are built of. A
position board plays a move for whichever side is to move.

The placement control previews every patch in every orientation (turned and flipped by the page's
own Rotate and Flip) with its buttons where the placed patch has them: the server draws a placed
patch's buttons from its cells (``button_cells``), so the preview must agree cell for cell. A quilt
painter's cells are buttons named "row R, col C" with aria-pressed, painted by click, drag, touch
and keys; a patch card is a control named "patch #ID ..." that keeps its size as the patch turns;
no serious or critical accessibility violation, at 1280x800 and at 390x844 with touch.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db)
    SCREENS,
    browser_fixture,
    checked_page,
    serious_violations,
    served_db_fixture,
    server_fixture,
)
from test_puzzles_page import turns_to

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, cells_of, full_window, mask_of
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle

pytestmark = pytest.mark.slow
Cells = list[tuple[int, int]]

HARNESS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>components</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><main><h1>Components</h1><svg id="q" class="quilt" role="group" aria-label="a quilt to paint"></svg>
<div id="cards" class="offers"></div><p id="error" role="alert"></p></main></body></html>"""


@pytest.fixture(name="bare", params=list(SCREENS))
def bare_fixture(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A bare page of the served app's origin (its modules and style), at each screen size."""
    for page in checked_page(browser, **SCREENS[request.param]):
        page.route(f"{server}/harness", lambda route: fulfil(route))
        page.goto(f"{server}/harness")
        yield page


def fulfil(route: Route) -> None:
    route.fulfill(status=200, content_type="text/html", body=HARNESS)


def _origin(cells: Cells) -> Cells:
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return sorted((r - top, c - left) for r, c in cells)


def turned(pid: int, flipped: bool, turns: int) -> Cells:
    """The patch's first orientation flipped (mirrored left to right), then turned a quarter clockwise
    `turns` times, as a player turns the piece in hand, at the origin."""
    shape = _origin(list(PATCHES[pid].orientations[0].cells))
    if flipped:
        shape = _origin([(r, -c) for r, c in shape])
    for _ in range(turns):
        shape = _origin([(c, -r) for r, c in shape])
    return shape


PREVIEWS = """async () => {
  const { catalogue } = await import("/static/js/components/api.js");
  const { QuiltView } = await import("/static/js/components/quilt.js");
  const { Placer } = await import("/static/js/components/placer.js");
  const { selection } = await import("/static/js/components/geometry.js");
  const cat = await catalogue();
  const view = new QuiltView(document.getElementById("q"));
  const placer = new Placer(view, { catalogue: cat, canAct: () => true, covered: () => new Set(),
    commit: () => {}, changed: () => {} });
  const at = (node, x, y) => [(Number(node.getAttribute(y)) - (y === "cy" ? 17 : 0)) / 34,
    (Number(node.getAttribute(x)) - (x === "cx" ? 17 : 0)) / 34];
  const out = [];
  for (let pid = 0; pid < cat.patches.length; pid++) {
    for (const flipped of [false, true]) {
      for (let turns = 0; turns < 4; turns++) {
        placer.choose(selection(cat, pid));
        placer.point([4, 4]);
        if (flipped) placer.turn("flip");
        for (let i = 0; i < turns; i++) placer.turn("rotate");
        placer.drawPreview();
        const g = view.layer("preview");
        out.push({ pid, flipped, turns,
          cells: [...g.querySelectorAll("rect")].map((r) => at(r, "x", "y")),
          buttons: [...g.querySelectorAll("circle")].map((c) => at(c, "cx", "cy")) });
      }
    }
  }
  return out;
}"""


def test_every_patch_in_every_orientation_previews_its_buttons_where_the_placed_patch_has_them(bare: Page) -> None:
    previews = bare.evaluate(PREVIEWS)
    assert len(previews) == len(PATCHES) * 8
    for p in previews:
        cells = [(int(r), int(c)) for r, c in p["cells"]]
        buttons = sorted((int(r), int(c)) for r, c in p["buttons"])
        what = f"patch #{p['pid']}, flipped {p['flipped']}, turned {p['turns']} times"
        assert _origin(cells) == turned(p["pid"], p["flipped"], p["turns"]), what
        # the server draws the placed patch's buttons from its cells: the preview shows the same
        assert buttons == sorted(button_cells(p["pid"], mask_of(cells))), what
        assert len(buttons) == PATCHES[p["pid"]].income, what


PAINTER = """async () => {
  const { QuiltView } = await import("/static/js/components/quilt.js");
  const { QuiltPainter } = await import("/static/js/components/painter.js");
  const { key } = await import("/static/js/components/geometry.js");
  const view = new QuiltView(document.getElementById("q"), { cellButtons: true });
  const covered = new Map();  // key -> [r, c]
  view.show({ given: [] });
  new QuiltPainter(view, {
    covered: () => new Set(covered.keys()),
    paint: (cells, cover) => {
      for (const [r, c] of cells) { if (cover) covered.set(key(r, c), [r, c]); else covered.delete(key(r, c)); }
      view.show({ given: [...covered.values()] });
      document.body.dataset.covered = [...covered.keys()].sort((a, b) => a - b).join(",");
    },
  });
}"""


def painted(page: Page) -> set[tuple[int, int]]:
    keys = page.get_attribute("body", "data-covered") or ""
    return {divmod(int(k), 9) for k in keys.split(",") if k}


def test_a_quilt_painter_names_its_cells_and_paints_by_pointer_drag_and_keys(bare: Page) -> None:
    bare.evaluate(PAINTER)
    touch = bool(bare.evaluate("() => matchMedia('(pointer: coarse)').matches"))
    cell = bare.get_by_role("button", name="row 2, col 3")
    assert cell.get_attribute("aria-pressed") == "false"
    cell.tap() if touch else cell.click()
    assert painted(bare) == {(2, 3)} and cell.get_attribute("aria-pressed") == "true"
    cell.tap() if touch else cell.click()
    assert painted(bare) == set() and cell.get_attribute("aria-pressed") == "false"
    if not touch:  # a stroke paints every cell it crosses
        a = bare.get_by_role("button", name="row 0, col 0").bounding_box()
        b = bare.get_by_role("button", name="row 0, col 3").bounding_box()
        assert a is not None and b is not None
        bare.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        bare.mouse.down()
        bare.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=10)
        bare.mouse.up()
        assert painted(bare) == {(0, 0), (0, 1), (0, 2), (0, 3)}
        assert bare.get_by_role("button", name="row 0, col 2").get_attribute("aria-pressed") == "true"
    # the keyboard: the arrows move the focus from cell to cell, Space toggles
    bare.get_by_role("button", name="row 2, col 3").focus()
    bare.keyboard.press("ArrowDown")
    bare.keyboard.press("ArrowRight")
    bare.keyboard.press("Space")
    assert (3, 4) in painted(bare)
    focused = bare.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert focused == "row 3, col 4"
    assert bare.locator(".cell[tabindex='0']").count() == 1  # one cell in the tab order
    assert serious_violations(bare) == []


CARDS = """async () => {
  const { catalogue } = await import("/static/js/components/api.js");
  const { patchCard } = await import("/static/js/components/patch.js");
  const { selection, turned } = await import("/static/js/components/geometry.js");
  const cat = await catalogue();
  const box = document.getElementById("cards");
  const sizes = [];
  let shape = selection(cat, 7);
  for (let turn = 0; turn < 4; turn++) {
    box.replaceChildren();
    for (const pid of [7, 11, 22]) {
      const p = cat.patches[pid];
      const { card } = patchCard({ catalogue: cat, pid, shape: pid === 7 ? shape : null, pressed: pid === 7,
        facts: [["cost", p.cost], ["time", p.time], ["income", p.income]], onChoose: () => {} });
      box.appendChild(card);
    }
    sizes.push([...box.children].map((c) => { const r = c.getBoundingClientRect(); return [r.width, r.height]; }));
    shape = turned(cat, shape, "rotate");
  }
  return sizes;
}"""


def test_a_patch_card_is_named_by_its_patch_and_keeps_its_size_as_the_patch_turns(bare: Page) -> None:
    sizes = bare.evaluate(CARDS)
    assert all(s == sizes[0] for s in sizes), sizes
    p = PATCHES[7]
    card = bare.get_by_role("button", name=f"patch #7 cost {p.cost} time {p.time} income {p.income}")
    assert card.get_attribute("aria-pressed") == "true"
    assert bare.get_by_role("button", name="patch #11", exact=False).count() == 1
    assert serious_violations(bare) == []


BOARD = """async (view) => {
  const { catalogue } = await import("/static/js/components/api.js");
  const { PositionBoard } = await import("/static/js/components/position.js");
  const cat = await catalogue();
  const main = document.querySelector("main");
  main.replaceChildren();
  window.played = [];
  const panels = [
    { key: "left", title: "Player 1's quilt", who: "player 1", token: { cls: "human", letter: "1" } },
    { key: "right", title: "Player 2's quilt", who: "player 2", token: { cls: "ai", letter: "2" } },
  ];
  const board = new PositionBoard(main, { prefix: "pb", catalogue: cat, panels, canAct: () => true,
    play: (move) => window.played.push(move), changed: () => board.show(view, { seats: [0, 1] }) });
  board.start(view, [0, 1]);
  board.show(view, { seats: [0, 1] });
}"""


OVERLAP = """async ({ pieces, given, hand }) => {
  const { catalogue } = await import("/static/js/components/api.js");
  const { QuiltView } = await import("/static/js/components/quilt.js");
  const { Placer } = await import("/static/js/components/placer.js");
  const { coveredSet, selection } = await import("/static/js/components/geometry.js");
  const cat = await catalogue();
  const view = new QuiltView(document.getElementById("q"));
  const draw = () => { view.show({ given, pieces }); placer.drawPreview(); };
  const placer = new Placer(view, { catalogue: cat, canAct: () => true, covered: () => coveredSet(pieces, given),
    commit: () => { window.placed = true; }, changed: draw });
  draw();
  placer.choose(selection(cat, hand));
}"""


def test_a_refused_placement_names_the_patch_it_overlaps_by_the_patchs_own_cells(bare: Page) -> None:
    """A constructed quilt: patch #5 on rows 5-6, cols 4-6, patch #0 beside it on row 4, and a plain
    covered cell at row 5, col 2. Patch #1 (three in a row) placed on row 5, cols 2-4 overlaps #5 at
    one cell and the plain cell: the refusal names #5 where it lies, not the cells of the overlap."""
    five = [(5, 4), (5, 5), (6, 4), (6, 5), (6, 6)]
    assert _origin(five) == sorted(PATCHES[5].orientations[0].cells)
    pieces = [{"patch": 5, "cells": five, "buttons": sorted(button_cells(5, mask_of(five)))},
              {"patch": 0, "cells": [(4, 4), (4, 5)], "buttons": []}]
    bare.evaluate(OVERLAP, {"pieces": pieces, "given": [(5, 2)], "hand": 1})
    target = bare.locator("#q .cell[data-r='5'][data-c='3']")  # the middle of three: cols 2-4
    if bare.evaluate("() => matchMedia('(pointer: coarse)').matches"):
        target.tap()  # the preview
        expect(bare.locator("#q [data-testid=preview]")).to_have_class("preview illegal")
        target.tap()  # on the preview: place it
    else:
        target.click()
    expect(bare.locator("#error")).to_have_text(
        "cannot place it there: it overlaps patch #5 already on rows 5-6, cols 4-6 "
        "and the covered cell at row 5, col 2")
    assert not bare.evaluate("() => !!window.placed")


def test_a_position_board_plays_for_whichever_side_is_to_move(bare: Page, server: str) -> None:
    """The analysis board's need: either seat moves on its own quilt (here Player 2's, on the right)."""
    position = next(p for p in shipped_bank().puzzles["endgame"] if isinstance(p, EndgamePuzzle) and p.player == 1
                    and p.state().pending < 0 and any(m.kind == "buy" for m in p.winning))
    view = bare.evaluate(f"() => fetch('/api/puzzles/{position.id}').then(r => r.json())")["position"]
    bare.evaluate(BOARD, view)
    assert bare.get_attribute("#pb-quilt-right", "role") == "application"
    assert bare.get_attribute("#pb-quilt-left", "role") == "img"
    assert "(to move)" in bare.inner_text("#pb-right-title")
    move = next(m for m in position.winning if m.kind == "buy")
    touch = bool(bare.evaluate("() => matchMedia('(pointer: coarse)').matches"))
    card = bare.get_by_role("button", name=f"patch #{move.patch} ", exact=False)
    card.tap() if touch else card.click()
    assert bare.evaluate("() => document.activeElement.id") == "pb-quilt-right"  # the arrows move it at once
    cells = cells_of(move.mask)
    presses, flipped = turns_to(move.patch, cells)
    for button in ["#pb-flip"] * flipped + ["#pb-rotate"] * presses:
        bare.tap(button) if touch else bare.click(button)
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    shape = _origin(cells)
    row, col = top + (max(r for r, _ in shape)) // 2, left + (max(c for _, c in shape)) // 2
    target = bare.locator(f"#pb-quilt-right .cell[data-r='{row}'][data-c='{col}']")
    if touch:
        target.tap()
        target.tap()
    else:
        target.click()
    played = bare.evaluate("() => window.played")
    assert len(played) == 1 and played[0]["type"] == "buy" and played[0]["patch"] == move.patch
    assert sorted(tuple(c) for c in played[0]["cells"]) == sorted(cells)
    assert serious_violations(bare) == []


GEOMETRY = """async (quilts) => {
  const g = await import("/static/js/components/geometry.js");
  return quilts.map((cells) => {
    const code = g.quiltCode(cells);
    return { square: g.fullWindow(g.coveredSet([], cells)), code, back: g.cellsOfCode(code) };
  });
}"""


def test_the_pages_7x7_square_and_quilt_code_are_the_engines(bare: Page) -> None:
    """geometry.js is the pages' one copy of the 7x7 check and of the notation's quilt code
    (tests/test_front_end_rules.py keeps it the only one): it agrees with the engine's on quilts with
    and without a complete square, anywhere on the quilt."""
    rng = random.Random(48)
    masks = [0, FULL]
    masks += [window | rng.getrandbits(81) & FULL for window in WINDOW_MASKS]
    masks += [rng.getrandbits(81) & rng.getrandbits(81) & FULL for _ in range(10)]
    found = bare.evaluate(GEOMETRY, [cells_of(m) for m in masks])
    for mask, js in zip(masks, found, strict=True):
        square = full_window(mask)
        assert (tuple(js["square"]) if js["square"] else None) == square, f"{mask:021x}"
        assert js["code"] == f"{mask:021x}"
        assert [tuple(c) for c in js["back"]] == cells_of(mask)
