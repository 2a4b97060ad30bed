// analysis/state.js: what the analysis board holds, read by its modules, and the one way to redraw
// it.
//
//   S            the page's state (below)
//   render()     redraws the page and writes its address (main.js registers how)
//   setRenderer(fn)
//   playerName(seat)   "Player 1" or "Player 2" (JSON's seats 0 and 1), in the page's language

import { t } from "../components/i18n.js";

/** @type {{catalogue: any, tree: import("./tree.js").Tree|null, node: import("./tree.js").Node|null,
 *   busy: boolean, shown: {rank: number, pinned: boolean}|null}} */
export const S = {
  catalogue: null,  // GET /api/catalogue
  tree: null,       // the variation tree of the position opened (tree.js)
  node: null,       // the node on the board
  busy: false,      // a position or a move is on its way from the server
  shown: null,      // the engine's line drawn on the board: its rank (0: best) and whether pressed to stay
};

let redraw = () => {};

/** @param {() => void} fn */
export function setRenderer(fn) {
  redraw = fn;
}

export function render() {
  redraw();
}

/** @param {number} seat */
export const playerName = (seat) => t("Player {n}", { n: seat + 1 });
