// quilt.js: QuiltView, a 9x9 quilt drawn in an <svg> in layers: the numbered grid (drawn once),
// covered cells, the patches, marks (the complete 7x7 square), overlays, and the preview layer the
// placement control draws in. The SVG scales to its box (a phone's width, or beside the offers).
//
//   new QuiltView(svg, {cellButtons?})
//     .show({given?, pieces?, proposed?})  given: covered cells drawn plain (a puzzle's or a
//                                painted quilt); pieces: placed patches {patch, cells, buttons};
//                                proposed: patches an answer would place, drawn as patches but not
//                                part of the quilt (a painter's cells stay unpressed); the first
//                                complete 7x7 square is outlined (data-testid=bonus-square). Clears
//                                overlays. What it shows is kept as .shown ({given, pieces}): the
//                                patches a refused placement overlaps are named from it
//     .overlay(cells, kind, {label?, testid?})  cells tinted and outlined as `kind` (hint, hint-alt,
//                                played, best, step: style.css colours them), with a short label on
//                                the cell nearest their centre (a hint's win chance)
//     .outline(groups, cls, testid?)  each group of cells' outer edge only (the AI's latest placements)
//     .layer(name)               a layer's <g> ("preview": the placement control's)
//     .cellAt(evt)               [row, col] under a pointer event, or null
//     .cell(r, c)                the cell's element (.cell[data-r][data-c])
//   With cellButtons (a quilt painter): each cell is a button named "row R, col C", aria-pressed
//   when covered (show() keeps it true to what it was given); one cell is in the tab order.
//   CELL (px a cell in the drawing's units) is exported for drawings laid over a quilt.

import { svg } from "./dom.js";
import { SIZE, coveredSet, fullWindow, key } from "./geometry.js";
import { drawButtons, patchColour } from "./patch.js";
import { FIRST_NUMBER } from "./words.js";
import { t } from "./i18n.js";

export const CELL = 34;   // px a quilt cell
const MARGIN = 16;        // px left of and above the quilt for the row and column numbers
const LAYERS = ["given", "pieces", "marks", "overlays", "preview"];

/** @typedef {[number, number]} Cell */
/** @typedef {{patch: number, cells: Cell[], buttons: Cell[]}} Piece */

/** The outer edges of a set of cells, as one path. @param {Element} group @param {Cell[]} cells @param {string} cls */
export function outline(group, cells, cls) {
  const set = new Set(cells.map(([r, c]) => key(r, c)));
  let d = "";
  for (const [r, c] of cells) {
    const x = c * CELL, y = r * CELL;
    if (r === 0 || !set.has(key(r - 1, c))) d += `M${x} ${y}h${CELL}`;
    if (r === SIZE - 1 || !set.has(key(r + 1, c))) d += `M${x} ${y + CELL}h${CELL}`;
    if (c === 0 || !set.has(key(r, c - 1))) d += `M${x} ${y}v${CELL}`;
    if (c === SIZE - 1 || !set.has(key(r, c + 1))) d += `M${x + CELL} ${y}v${CELL}`;
  }
  svg("path", { d, class: cls }, group);
}

/** A patch (or the leather patch) on a quilt, its <g>. @param {Element} group @param {Piece} piece */
export function drawPiece(group, piece) {
  const g = svg("g", { class: piece.patch < 0 ? "piece leather" : "piece", "data-patch": piece.patch }, group);
  for (const [r, c] of piece.cells) {
    svg("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: patchColour(piece.patch) }, g);
  }
  drawButtons(g, piece.buttons, CELL);
  outline(g, piece.cells, "piece-edge");
  return g;
}

export class QuiltView {
  /** @param {SVGSVGElement} box @param {{cellButtons?: boolean}} [options] */
  constructor(box, { cellButtons = false } = {}) {
    this.svg = box;
    this.cellButtons = cellButtons;
    /** @type {Record<string, SVGElement>} */
    this.layers = {};
    /** @type {{given: Cell[], pieces: Piece[]}} the quilt as last shown (proposed patches are not on it) */
    this.shown = { given: [], pieces: [] };
    this.drawGrid();
  }

  drawGrid() {
    const box = this.svg;
    box.replaceChildren();
    const side = SIZE * CELL;
    box.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${side + MARGIN + 3} ${side + MARGIN + 3}`);
    box.setAttribute("width", String(side + MARGIN + 3));
    box.setAttribute("height", String(side + MARGIN + 3));
    const labels = svg("g", { class: "axis", "aria-hidden": "true" }, box);
    for (let i = 0; i < SIZE; i++) {
      svg("text", { x: i * CELL + CELL / 2, y: -4, "text-anchor": "middle" }, labels).textContent = String(i + FIRST_NUMBER);
      svg("text", { x: -MARGIN / 2, y: i * CELL + CELL / 2 + 4, "text-anchor": "middle" }, labels).textContent = String(i + FIRST_NUMBER);
    }
    const grid = svg("g", { class: "grid" }, box);
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const cell = svg("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "cell", "data-r": r, "data-c": c }, grid);
        if (this.cellButtons) {
          cell.setAttribute("role", "button");
          cell.setAttribute("aria-label", t("row {row}, col {col}", { row: r + FIRST_NUMBER, col: c + FIRST_NUMBER }));
          cell.setAttribute("aria-pressed", "false");
          cell.setAttribute("tabindex", r === 0 && c === 0 ? "0" : "-1");
        }
      }
    }
    for (const name of LAYERS) this.layers[name] = svg("g", { class: `layer-${name}` }, box);
  }

  /** @param {{given?: Cell[], pieces?: Piece[], proposed?: Piece[]}} quilt */
  show({ given = [], pieces = [], proposed = [] } = {}) {
    this.shown = { given, pieces };
    for (const name of ["given", "pieces", "marks", "overlays"]) this.layers[name].replaceChildren();
    if (given.length) {
      const g = svg("g", { class: "pieces" }, this.layers.given);
      for (const [r, c] of given) svg("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "given-cell" }, g);
      outline(g, given, "piece-edge");
    }
    const layer = svg("g", { class: "pieces" }, this.layers.pieces);
    for (const piece of pieces) drawPiece(layer, piece);
    for (const piece of proposed) drawPiece(layer, piece).classList.add("proposed");
    const covered = coveredSet(pieces, given);
    const square = fullWindow(proposed.length ? coveredSet([...pieces, ...proposed], given) : covered);
    if (square) {
      svg("rect", { x: square[1] * CELL + 2, y: square[0] * CELL + 2, width: 7 * CELL - 4, height: 7 * CELL - 4,
        class: "bonus-square", "data-testid": "bonus-square" }, this.layers.marks);
    }
    if (this.cellButtons) {
      for (const cell of this.svg.querySelectorAll(".cell")) {
        const r = Number(cell.getAttribute("data-r")), c = Number(cell.getAttribute("data-c"));
        cell.setAttribute("aria-pressed", String(covered.has(key(r, c))));
      }
    }
  }

  /** @param {Cell[]} cells @param {string} kind @param {{label?: string, testid?: string}} [o] */
  overlay(cells, kind, { label = "", testid = "" } = {}) {
    /** @type {Record<string, string>} */
    const attrs = { class: `overlay ${kind}` };
    if (testid) attrs["data-testid"] = testid;
    const g = svg("g", attrs, this.layers.overlays);
    for (const [r, c] of cells) svg("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: `${kind}-cell` }, g);
    outline(g, cells, `${kind}-edge`);
    if (label) {
      const cy = cells.reduce((s, x) => s + x[0], 0) / cells.length;
      const cx = cells.reduce((s, x) => s + x[1], 0) / cells.length;
      // the label sits on the cell nearest the centre, so it stays on the patch's own cells
      const [r, c] = cells.reduce((a, b) => (Math.hypot(b[0] - cy, b[1] - cx) < Math.hypot(a[0] - cy, a[1] - cx) ? b : a));
      svg("rect", { x: c * CELL + 1, y: r * CELL + 8, width: CELL - 2, height: 18, rx: 4, class: "overlay-tag" }, g);
      svg("text", { x: c * CELL + CELL / 2, y: r * CELL + 21, "text-anchor": "middle", class: "overlay-label" }, g).textContent = label;
    }
    return g;
  }

  /** @param {Cell[][]} groups each a set of cells outlined @param {string} cls @param {string} [testid] */
  outline(groups, cls, testid = "") {
    /** @type {Record<string, string>} */
    const attrs = { class: "outlines" };
    if (testid) attrs["data-testid"] = testid;
    const g = svg("g", attrs, this.layers.overlays);
    for (const cells of groups) outline(g, cells, cls);
    return g;
  }

  /** @param {string} name */
  layer(name) {
    return this.layers[name];
  }

  /** @param {number} r @param {number} c */
  cell(r, c) {
    return /** @type {SVGElement} */ (this.svg.querySelector(`.cell[data-r="${r}"][data-c="${c}"]`));
  }

  /** @param {{clientX: number, clientY: number}} evt @returns {Cell|null} */
  cellAt(evt) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
    const r = Math.floor(p.y / CELL), c = Math.floor(p.x / CELL);
    return r >= 0 && r < SIZE && c >= 0 && c < SIZE ? [r, c] : null;
  }
}
