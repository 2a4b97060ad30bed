// game/history.js: the moves played, as a list of buttons in words; a move chosen shows the
// position after it (the move outlined), and the arrow keys step through them.

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { drawStats } from "../components/track.js";
import { t } from "../components/i18n.js";
import { moveWords } from "../components/words.js";
import { moveCells } from "../components/geometry.js";
import { drawGameTrack, drawStripTrack } from "./board.js";
import { S, aiSeat, humanSeat, render, sayFor, seatOf } from "./state.js";

export function drawLog() {
  const log = $("log");
  log.replaceChildren();
  S.game.moves.forEach((/** @type {any} */ m, /** @type {number} */ i) => {
    const li = document.createElement("li");
    li.className = m.actor;
    li.dataset.index = String(i);
    if (S.viewing && S.viewing.index === i) li.classList.add("current");
    const next = S.game.moves[i + 1];
    const again = !!next && next.actor === m.actor && next.move.type !== "leather";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = moveSaid(m, again);
    button.addEventListener("click", () => viewMove(i));
    li.appendChild(button);
    log.appendChild(li);
  });
  if (!S.viewing) log.scrollTop = log.scrollHeight;
}

/** A move of the list: who made it, the move in the server's words, and whether they move again.
 * @param {any} m a game's move @param {boolean} again */
function moveSaid(m, again) {
  const move = moveWords(m.move, m.words);
  // Translators: a move in the list of moves played; {move} is the move in words ("advance 3 spaces").
  if (again) {
    return sayFor(seatOf(m.actor), {
      you: () => t("You: {move}, and you move again", { move }),
      ai: () => t("The AI: {move}, and the AI moves again", { move }),
      friend: () => t("Your friend: {move}, and your friend moves again", { move }),
      player: (number) => t("Player {number}: {move}, and Player {number} moves again", { move, number }),
    });
  }
  return sayFor(seatOf(m.actor), {
    you: () => t("You: {move}", { move }),
    ai: () => t("The AI: {move}", { move }),
    friend: () => t("Your friend: {move}", { move }),
    player: (number) => t("Player {number}: {move}", { move, number }),
  });
}

/** @param {number} index */
export async function viewMove(index) {
  if (!S.game || index < 0 || index >= S.game.moves.length || S.busy) return;
  const id = S.game.id;
  try {
    const [before, after] = await Promise.all([
      api("GET", `/api/games/${id}/plies/${index}`), api("GET", `/api/games/${id}/plies/${index + 1}`)]);
    if (!S.game || S.game.id !== id) return;  // another game opened meanwhile (a game link)
    S.viewing = { index, before, after };
  } catch (err) {
    showError(err);
    return;
  }
  render();
  document.querySelector(`#log li[data-index='${index}']`)?.scrollIntoView({ block: "nearest" });
}

export function leaveView() {
  S.viewing = null;
  render();
}

/** @param {number} delta -1 or 1: the move before or after the one shown (after the last: the game) */
export function stepView(delta) {
  if (!S.game || !S.game.moves.length) return false;
  if (S.viewing) {
    const next = S.viewing.index + delta;
    if (next >= S.game.moves.length) leaveView();
    else viewMove(Math.max(next, 0));
  } else if (delta < 0) viewMove(S.game.moves.length - 1);
  return true;
}

export function drawViewing() {
  const v = S.viewing;
  const m = S.game.moves[v.index];
  // Translators: above a past position shown from the list of moves; {said} is the move as the list says it
  // ("The AI: advance 3 spaces"); ← and → are the arrow keys.
  $("viewing-text").textContent = t("The position after move {number} of {total} ({said}, outlined). ← and → step, "
    + "Escape goes back to the game.", { number: v.index + 1, total: S.game.moves.length, said: moveSaid(m, false) });
  S.quilts.human.show({ pieces: v.after.boards[humanSeat()].pieces });
  S.quilts.ai.show({ pieces: v.after.boards[aiSeat()].pieces });
  S.quilts.strip.show({ pieces: v.after.boards[aiSeat()].pieces });
  S.placer.drawPreview();
  const cells = moveCells(m.move);
  if (cells.length) (m.player === humanSeat() ? S.quilts.human : S.quilts.ai).overlay(cells, "played", { testid: "viewed-move" });
  drawStats($("stats-human"), v.after.state.players[humanSeat()]);
  drawStats($("stats-ai"), v.after.state.players[aiSeat()]);
  const from = v.before.state.players[m.player].position, to = v.after.state.players[m.player].position;
  const spans = to > from ? [{ from, to, kind: m.actor }] : [];
  drawGameTrack(/** @type {any} */ ($("track")), v.after, spans);
  drawStripTrack(v.after, spans);
  /** @type {HTMLButtonElement} */ ($("view-prev")).disabled = v.index === 0;
  /** @type {HTMLButtonElement} */ ($("view-next")).disabled = v.index === S.game.moves.length - 1;
}
