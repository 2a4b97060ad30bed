// game/hints.js: a hint, as `patchwork hint --json` gives it for a position ({player, hints: [{type,
// patch, cells, words, win, margin, exact, outcome_proven, reason, ...}], ...}, best first). The first
// three distinct moves are drawn (numbered 1 to 3, each in its colour with its win chance on the
// board: board.js) and said in the server's words, each with its number and where it is drawn.

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { SYMMETRIES, cellKeys, moveCells } from "../components/geometry.js";
import { t } from "../components/i18n.js";
import { moveWords, pct } from "../components/words.js";
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
  if (!shown.length) return { shown, text: t("No hint: there is nothing to choose.") };
  const [best, ...others] = shown;
  // Translators: what the hinted move leaves you: a win or a loss for sure, else your win chance ("about 62%").
  const chance = (/** @type {any} */ h) => (h.proven ? (h.win ? t("a sure win") : t("a sure loss"))
    : t("you win about {chance}", { chance: pct(h.win) }));
  // Translators: one of the hint's next best moves: {move} in words, {where} where it is drawn ("2, violet on your
  // quilt"), {chance} what it leaves you ("you win about 40%").
  const next = others.map((h, i) => t("{move} ({where}: {chance})", { move: h.words, where: drawn(h, i + 1), chance: chance(h) }));
  // Translators: the hint's next best moves, joined by semicolons.
  const also = others.length ? ` ${t("Next best: {moves}.", { moves: next.join("; ") })}` : "";
  // Translators: {patch} is a patch's number, such as 12.
  const follow = best.move.type === "buy" ? ` ${t("Choose #{patch} to place it there.", { patch: best.move.patch })}` : "";
  // Translators: the hint: {reason} is the best move in words with why, {where} where it is drawn ("1, orange on your quilt").
  return { shown, text: `${t("Hint: {reason} ({where}).", { reason: best.reason, where: drawn(best, 0) })}${also}${follow}` };
}

/** Where a hint is drawn, by its number (1 the best) and colour (style.css's .hint-1 to .hint-3:
 * orange, violet, blue). @param {any} h @param {number} i its index, best first */
function drawn(h, i) {
  const rank = i + 1;
  // Translators: where a hint is drawn: its number ({rank}), shaded on the time track or in its colour on your quilt.
  if (h.move.type === "advance") return t("{rank}, shaded on the track", { rank });
  if (i === 0) return t("{rank}, orange on your quilt", { rank });
  if (i === 1) return t("{rank}, violet on your quilt", { rank });
  return t("{rank}, blue on your quilt", { rank });
}

export async function showHint() {
  if (!canAct()) return;
  S.busy = true;
  showError(null);
  render();
  $("hint-text").textContent = t("Thinking about a hint…");
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
