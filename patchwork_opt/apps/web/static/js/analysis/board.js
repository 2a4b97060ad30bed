// analysis/board.js: the position on the analysis board: a PositionBoard (components/position.js)
// whose quilts take moves for whoever is to move, a line of the engine drawn over it, and the
// words above it (who moves, or how the game ended).
//
//   mountBoard(container, play(move))   the board, built once; play: a move made on it
//   viewOf(node)          the PositionBoard's view of a node: its BoardPosition, its quilts (the
//                         patches played since the position was opened, over the cells it opened
//                         with), the offers with their costs and whether they can be bought
//   lineOverlays(line)    a line of the engine (its line_moves) as overlays: each move's cells on
//                         its mover's quilt, numbered in order, the first the strongest
//   positionWords(p)      "Player 2 to move" / "Player 1 to place a leather patch" / the result

import { moveCells } from "../components/geometry.js";
import { PositionBoard } from "../components/position.js";
import { byWords } from "../components/words.js";
import { S, playerName, render } from "./state.js";
import { t } from "../components/i18n.js";

export const PANELS = [
  { key: "p1", title: t("Player 1's quilt"), who: t("Player {n}", { n: 1 }), token: { cls: "human", letter: "1" } },
  { key: "p2", title: t("Player 2's quilt"), who: t("Player {n}", { n: 2 }), token: { cls: "ai", letter: "2" } },
];
export const SEATS = [0, 1];

/** @param {HTMLElement} container @param {(move: any) => void} play @returns {PositionBoard} */
export function mountBoard(container, play) {
  return new PositionBoard(container, {
    prefix: "an", catalogue: S.catalogue, panels: PANELS,
    canAct: () => !S.busy && !!S.node && !!S.node.position && !S.node.position.over,
    play, changed: render,
  });
}

/** @param {import("./tree.js").Node} node */
export function viewOf(node) {
  const p = node.position;
  const patches = S.catalogue.patches;
  return {
    state: p,
    boards: SEATS.map((seat) => ({ pieces: node.pieces[seat], given: node.given[seat] })),
    offers: p.offers.map((/** @type {number} */ pid) => ({
      patch: pid, cost: patches[pid].cost, time: patches[pid].time, income: patches[pid].income,
      buyable: p.buyable.includes(pid),
    })),
    upcoming: p.circle.slice(p.offers.length),
    pending_leather: p.pending_leather !== null,
  };
}

/** @param {any} line a line of a stream snapshot */
export function lineOverlays(line) {
  /** @type {{seat: number, cells: [number, number][], kind: string, label: string, testid: string}[]} */
  const out = [];
  line.line_moves.forEach((/** @type {any} */ step, /** @type {number} */ i) => {
    const cells = moveCells(step.move);
    if (cells.length) {
      out.push({ seat: step.player, cells, kind: i === 0 ? "line-first" : "line-next", label: String(i + 1), testid: `line-move-${i + 1}` });
    }
  });
  return out;
}

/** @param {any} p a BoardPosition @returns {string} */
export function positionWords(p) {
  if (p.over) {
    const [a, b] = p.players.map((/** @type {any} */ x) => x.score);
    // Translators: {a} and {b} are the players' final scores.
    if (p.winner === null) return t("The game is over: {a} to {b}.", { a, b });
    const margin = Math.abs(a - b);
    // Translators: {how} is "by 3 points" or "on the tie-break".
    return t("The game is over: {player} wins {how} ({a} to {b}).", { player: playerName(p.winner), how: byWords(margin), a, b });
  }
  if (p.pending_leather !== null) return t("{player} to place a leather patch.", { player: playerName(p.pending_leather) });
  return t("{player} to move.", { player: playerName(p.to_move) });
}
