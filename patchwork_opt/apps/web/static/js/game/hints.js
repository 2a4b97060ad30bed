// game/hints.js: a hint, as `patchwork hint --json` gives it for a position ({player, hints: [{type,
// patch, cells, words, win, margin, exact, outcome_proven, reason, ...}], ...}, best first). The first
// three distinct moves are drawn (numbered 1 to 3, each in its colour with its win chance on the
// board: board.js) and said in the server's words, each with its number and where it is drawn.

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { SYMMETRIES, cellKeys, moveCells } from "../components/geometry.js";
import { moveWords, pct } from "../components/words.js";
import { HINT_COLOURS } from "./board.js";
import { S, canAct, humanSeat, render } from "./state.js";

// Two hinted moves that are the same for the rest of the game: the same words, or the same patch
// on cells one symmetry of the quilt maps onto each other while it keeps the quilt as it is.
/** @param {any} a @param {any} b @param {[number, number][]} covered */
function sameHint(a, b, covered) {
  if (a.move.type !== b.move.type) return false;
  if (a.words === b.words || a.move.type === "advance") return true;
  if (a.move.type === "buy" && a.move.patch !== b.move.patch) return false;
  const cellsA = moveCells(a.move), target = cellKeys(moveCells(b.move));
  const quilt = cellKeys(covered);
  return SYMMETRIES.some((f) => cellKeys(covered.map(f)) === quilt && cellKeys(cellsA.map(f)) === target);
}

/** @param {any} result @returns {{shown: any[], text: string}} */
function readHint(result) {
  const covered = S.game.boards[humanSeat()].pieces.flatMap((/** @type {any} */ p) => p.cells);
  /** @type {any[]} */
  const shown = [];
  for (const h of result.hints || []) {
    const move = h.type === "advance" ? { type: "advance" } : h.type === "leather" ? { type: "leather", cell: h.cells[0] }
      : { type: "buy", patch: h.patch, cells: h.cells };
    const words = moveWords(h);
    const item = { move, words, win: h.win, proven: h.exact || h.outcome_proven, reason: h.reason || words };
    if (!shown.some((s) => sameHint(s, item, covered))) shown.push(item);
    if (shown.length === 3) break;
  }
  if (!shown.length) return { shown, text: "No hint: there is nothing to choose." };
  const [best, ...others] = shown;
  const chance = (/** @type {any} */ h) => (h.proven ? (h.win ? "a sure win" : "a sure loss") : `you win about ${pct(h.win)}`);
  const drawn = (/** @type {any} */ h, /** @type {number} */ i) => (h.move.type === "advance"
    ? `${i + 1}, shaded on the track` : `${i + 1}, ${HINT_COLOURS[i]} on your quilt`);
  const also = others.length
    ? ` Next best: ${others.map((h, i) => `${h.words} (${drawn(h, i + 1)}: ${chance(h)})`).join("; ")}.` : "";
  const follow = best.move.type === "buy" ? ` Choose #${best.move.patch} to place it there.` : "";
  return { shown, text: `Hint: ${best.reason} (${drawn(best, 0)}).${also}${follow}` };
}

export async function showHint() {
  if (!canAct()) return;
  S.busy = true;
  showError(null);
  render();
  $("hint-text").textContent = "Thinking about a hint…";
  const id = S.game.id, ply = S.game.ply;
  try {
    const hint = await api("GET", `/api/games/${id}/hint`);
    if (S.game.id !== id || S.game.ply !== ply) return;  // another game opened meanwhile (a game link)
    S.hint = readHint(hint);
    $("hint-text").textContent = S.hint.text;
  } catch (err) {
    $("hint-text").textContent = "";
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
}
