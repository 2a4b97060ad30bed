// workshop/state.js: what the workshop page holds, read by its modules, and the one way to redraw
// it. Everything a link must reproduce is here (address.js writes it into the page's address).
//
//   S                 the page's state (below)
//   render()          redraws the page and writes the address (main.js registers how)
//   coveredCells()    the covered cells, row by row
//   keptPieces()      the source's patches still lying whole on the quilt (drawn as patches)
//   setCovered(cells) a new quilt: the answer and the source's patches on other cells go
//   dropAnswer()      the answer no longer matches the quilt or the patches: forget it

import { SIZE, key } from "../components/geometry.js";

/** @typedef {[number, number]} Cell */

/** @type {{catalogue: any, covered: Set<number>, pieces: any[], source: any, chosen: number[],
 *   filters: {cells: string, cost: string, time: string, income: string}, listed: number[]|null,
 *   options: {objective: string, budget: string, marks: string, bonus: boolean},
 *   mode: string, step: number, answer: any, job: any, asking: boolean}} */
export const S = {
  catalogue: null,      // GET /api/catalogue
  covered: new Set(),   // keys (geometry.key) of the covered cells
  pieces: [],           // the patches known to lie on the quilt (a position's), [{patch, cells, buttons}]
  source: null,         // QuiltSource of the position the quilt comes from (offers, buttons, marks), or null
  chosen: [],           // the patches chosen, in the order chosen: the first is the one to place
  filters: { cells: "", cost: "", time: "", income: "" },  // income: the buttons a patch shows
  listed: null,         // the ids the filters leave (the closest ones when none matches); null: all
  options: { objective: "cells", budget: "", marks: "9", bonus: false },
  mode: "",             // the answer asked for: "placements", "fill", "bonus" or ""
  step: 0,              // the placement shown, or how many of a fill's patches are drawn (1-based; 0: all)
  answer: null,         // PlacementsView, or the JobView with the answer (fill or bonus)
  job: null,            // the JobView of the job running (queued or running), or null
  asking: false,        // a request for placements (or a source) is on its way
};

let redraw = () => {};

/** @param {() => void} fn */
export function setRenderer(fn) {
  redraw = fn;
}

export function render() {
  redraw();
}

/** @returns {Cell[]} */
export function coveredCells() {
  /** @type {Cell[]} */
  const cells = [];
  for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) if (S.covered.has(key(r, c))) cells.push([r, c]);
  return cells;
}

export function keptPieces() {
  return S.pieces.filter((p) => p.cells.every(([/** @type {number} */ r, /** @type {number} */ c]) => S.covered.has(key(r, c))));
}

/** @param {Cell[]} cells */
export function setCovered(cells) {
  S.covered = new Set(cells.map(([r, c]) => key(r, c)));
  S.pieces = keptPieces();
  dropAnswer();
}

export function dropAnswer() {
  S.answer = null;
  S.mode = "";
  S.step = 0;
}
