// painter.js: QuiltPainter, covering and uncovering cells of a QuiltView made with cellButtons
// (each cell a button named "row R, col C", aria-pressed when covered): a quilt you have in front
// of you, entered by mouse, pen, touch or keys.
//
//   new QuiltPainter(view, {covered(), paint(cells, cover)})
//     covered(): the keys (geometry.key) of the cells covered now; paint(cells, cover): the page
//     covers (cover true) or uncovers those cells, then shows the quilt again (view.show)
//   A click or tap toggles a cell; a drag paints every cell it crosses the way its first cell went.
//   Keys: the arrows move the focus from cell to cell (one cell is in the tab order), Space or
//   Enter toggles the focused cell.

import { SIZE, key } from "./geometry.js";

/** @typedef {[number, number]} Cell */

export class QuiltPainter {
  /**
   * @param {import("./quilt.js").QuiltView} view
   * @param {{covered: () => Set<number>, paint: (cells: Cell[], cover: boolean) => void}} hooks
   */
  constructor(view, hooks) {
    this.view = view;
    this.hooks = hooks;
    /** @type {{pointerId: number, cover: boolean, last: string}|null} */
    this.stroke = null;
    const box = view.svg;
    box.addEventListener("pointerdown", (evt) => this.onDown(evt));
    box.addEventListener("pointermove", (evt) => this.onMove(evt));
    window.addEventListener("pointerup", () => { this.stroke = null; });
    window.addEventListener("pointercancel", () => { this.stroke = null; });
    box.addEventListener("keydown", (evt) => this.onKey(evt));
  }

  /** @param {PointerEvent} evt */
  onDown(evt) {
    if (evt.button > 0) return;
    const cell = this.view.cellAt(evt);
    if (!cell) return;
    evt.preventDefault();  // no text selection, no scrolling: the stroke paints
    const cover = !this.hooks.covered().has(key(cell[0], cell[1]));
    this.stroke = { pointerId: evt.pointerId, cover, last: String(cell) };
    this.focusCell(cell);
    this.hooks.paint([cell], cover);
  }

  /** @param {PointerEvent} evt */
  onMove(evt) {
    const s = this.stroke;
    if (!s || evt.pointerId !== s.pointerId) return;
    const cell = this.view.cellAt(evt);
    if (!cell || String(cell) === s.last) return;
    s.last = String(cell);
    if (this.hooks.covered().has(key(cell[0], cell[1])) !== s.cover) this.hooks.paint([cell], s.cover);
  }

  /** @param {KeyboardEvent} evt */
  onKey(evt) {
    const target = /** @type {Element} */ (evt.target);
    if (!target.classList || !target.classList.contains("cell")) return;
    const r = Number(target.getAttribute("data-r")), c = Number(target.getAttribute("data-c"));
    /** @type {Record<string, Cell>} */
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (evt.key in moves) {
      const [dr, dc] = moves[evt.key];
      this.focusCell([Math.min(Math.max(r + dr, 0), SIZE - 1), Math.min(Math.max(c + dc, 0), SIZE - 1)]);
    } else if (evt.key === " " || evt.key === "Enter") {
      this.hooks.paint([[r, c]], !this.hooks.covered().has(key(r, c)));
      this.focusCell([r, c]);
    } else return;
    evt.preventDefault();
    evt.stopPropagation();
  }

  /** The cell in the tab order, focused. @param {Cell} cell */
  focusCell([r, c]) {
    for (const node of this.view.svg.querySelectorAll(".cell[tabindex='0']")) node.setAttribute("tabindex", "-1");
    const node = this.view.cell(r, c);
    node.setAttribute("tabindex", "0");
    node.focus({ preventScroll: true });
  }
}
