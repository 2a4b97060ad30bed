// geometry.js: the quilt's cells and the patches' shapes, as the server has them. Cells are
// [row, col] from 0 at the top left; a selection is a patch turned one of its catalogue ways.
//
//   SIZE, LEATHER, key(r, c), cellKeys(cells)    the 9x9 grid; -1 is the leather patch's id
//   coveredSet(pieces, given?)                   the keys of the cells the pieces (and given cells) cover
//   fullWindow(covered)                          the first complete 7x7 square's top left, or null
//   SYMMETRIES                                   the square's 8 symmetries as maps of [row, col]
//   selection(catalogue, pid, index?)            {patch, orientation, cells, buttons}: orientation `index`
//   LEATHER_SELECTION                            the 1x1 leather patch, in hand
//   turned(catalogue, sel, "rotate"|"flip")      the selection turned a quarter clockwise, or mirrored;
//                                                its buttons are the catalogue's for that shape, so a
//                                                preview shows them where the placed patch will
//   placedAt(sel, row, col)                      {cells, buttons} centred on the cell, kept on the quilt
//   selectionOn(catalogue, pid, cells)           the orientation covering `cells`: {selected, hover,
//                                                buttons} (hover: the cell to centre it on), or null
//   moveCells(move)                              the cells a move (the API's JSON) covers on its
//                                                mover's quilt ([] for an advance)
//   quiltCode(cells), cellsOfCode(code)          a quilt as the position notation writes it: 21
//                                                hex digits of its mask (bit r*9+c: cell [r, c]
//                                                covered); cellsOfCode throws on anything else

export const SIZE = 9;
export const LEATHER = -1;

/** @typedef {[number, number]} Cell */
/** @typedef {{patch: number, orientation: number, cells: Cell[], buttons: Cell[]}} Selection */

/** @param {number} r @param {number} c */
export const key = (r, c) => r * SIZE + c;

/** @param {Cell[]} cells @returns {string} the cells' keys, sorted: equal for equal sets of cells */
export const cellKeys = (cells) => cells.map(([r, c]) => key(r, c)).sort((a, b) => a - b).join(",");

/**
 * @param {{cells: Cell[]}[]} pieces
 * @param {Cell[]} [given]
 * @returns {Set<number>}
 */
export function coveredSet(pieces, given = []) {
  const set = new Set(given.map(([r, c]) => key(r, c)));
  for (const piece of pieces) for (const [r, c] of piece.cells) set.add(key(r, c));
  return set;
}

/** @param {Set<number>} covered @returns {Cell|null} */
export function fullWindow(covered) {
  for (let top = 0; top <= SIZE - 7; top++) {
    for (let left = 0; left <= SIZE - 7; left++) {
      let full = true;
      for (let r = top; r < top + 7 && full; r++) for (let c = left; c < left + 7 && full; c++) full = covered.has(key(r, c));
      if (full) return [top, left];
    }
  }
  return null;
}

const LAST = SIZE - 1;
/** The 8 symmetries of the square quilt (core/symmetry.py lists the same). @type {((c: Cell) => Cell)[]} */
export const SYMMETRIES = [
  ([r, c]) => [r, c], ([r, c]) => [c, LAST - r], ([r, c]) => [LAST - r, LAST - c], ([r, c]) => [LAST - c, r],
  ([r, c]) => [r, LAST - c], ([r, c]) => [LAST - r, c], ([r, c]) => [c, r], ([r, c]) => [LAST - c, LAST - r],
];

/** @param {Cell[]} cells @returns {Cell[]} the cells moved so the top row and left column are 0 */
function atOrigin(cells) {
  const top = Math.min(...cells.map((x) => x[0]));
  const left = Math.min(...cells.map((x) => x[1]));
  return cells.map(([r, c]) => [r - top, c - left]);
}

/** @param {any} catalogue @param {number} pid @param {Cell[]} cells @returns {number} the orientation's index, or -1 */
function orientationOf(catalogue, pid, cells) {
  const shape = cellKeys(atOrigin(cells));
  return catalogue.patches[pid].orientations.findIndex((/** @type {any} */ o) => cellKeys(o.cells) === shape);
}

/** @param {any} catalogue @param {number} pid @param {number} [index] @returns {Selection} */
export function selection(catalogue, pid, index = 0) {
  const o = catalogue.patches[pid].orientations[index];
  return { patch: pid, orientation: index, cells: o.cells.map((/** @type {Cell} */ x) => [...x]),
    buttons: o.buttons.map((/** @type {Cell} */ x) => [...x]) };
}

/** @type {Selection} */
export const LEATHER_SELECTION = Object.freeze({ patch: LEATHER, orientation: 0, cells: [[0, 0]], buttons: [] });

/** @type {Record<string, (c: Cell) => Cell>} */
const TURNS = { rotate: ([r, c]) => [c, -r], flip: ([r, c]) => [r, -c] };

/** @param {any} catalogue @param {Selection} sel @param {"rotate"|"flip"} how @returns {Selection} */
export function turned(catalogue, sel, how) {
  if (sel.patch === LEATHER) return sel;
  const index = orientationOf(catalogue, sel.patch, sel.cells.map(TURNS[how]));
  return selection(catalogue, sel.patch, index);
}

/** @param {Selection} sel @param {number} row @param {number} col @returns {{cells: Cell[], buttons: Cell[]}} */
export function placedAt(sel, row, col) {
  const h = Math.max(...sel.cells.map((x) => x[0])) + 1;
  const w = Math.max(...sel.cells.map((x) => x[1])) + 1;
  const top = Math.min(Math.max(row - Math.floor((h - 1) / 2), 0), SIZE - h);
  const left = Math.min(Math.max(col - Math.floor((w - 1) / 2), 0), SIZE - w);
  /** @param {Cell} x @returns {Cell} */
  const move = ([r, c]) => [r + top, c + left];
  return { cells: sel.cells.map(move), buttons: sel.buttons.map(move) };
}

/**
 * @param {any} catalogue @param {number} pid @param {Cell[]} cells
 * @returns {{selected: Selection, hover: Cell, buttons: Cell[]}|null}
 */
export function selectionOn(catalogue, pid, cells) {
  const index = orientationOf(catalogue, pid, cells);
  if (index < 0) return null;
  const selected = selection(catalogue, pid, index);
  const o = catalogue.patches[pid].orientations[index];
  const top = Math.min(...cells.map((x) => x[0]));
  const left = Math.min(...cells.map((x) => x[1]));
  return {
    selected,
    hover: [top + Math.floor((o.height - 1) / 2), left + Math.floor((o.width - 1) / 2)],
    buttons: selected.buttons.map(([r, c]) => [r + top, c + left]),
  };
}

/** @param {any} move @returns {Cell[]} */
export const moveCells = (move) => (move.type === "buy" ? move.cells : move.type === "leather" ? [move.cell] : []);

/** @param {Cell[]} cells @returns {string} the covered cells as 21 hex digits (bit r*9+c) */
export function quiltCode(cells) {
  let mask = 0n;
  for (const [r, c] of cells) mask |= 1n << BigInt(key(r, c));
  return mask.toString(16).padStart(21, "0");
}

/** @param {string} code @returns {Cell[]} the cells of a quiltCode, row by row */
export function cellsOfCode(code) {
  if (!/^[0-9a-f]{1,21}$/i.test(code)) throw new Error(`quilt: "${code.slice(0, 30)}" is not a quilt's code (up to 21 hex digits)`);
  const mask = BigInt(`0x${code}`);
  if (mask >> BigInt(SIZE * SIZE)) throw new Error(`quilt: "${code}" names cells beyond the 9x9 quilt`);
  /** @type {Cell[]} */
  const cells = [];
  for (let k = 0; k < SIZE * SIZE; k++) if ((mask >> BigInt(k)) & 1n) cells.push([Math.floor(k / SIZE), k % SIZE]);
  return cells;
}
