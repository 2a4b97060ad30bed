// game/practise.js: "Practise your mistakes": the review's mistakes and blunders of yours, made into
// puzzles by the server (POST /api/games/{id}/mistake-puzzles), linked to the Puzzles page.

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { count } from "../components/words.js";
import { S, humanSeat, render } from "./state.js";

const PRACTISED = new Set(["mistake", "blunder"]);
const MAX_PRACTISED = 12;  // the server's MAX_PRACTISE_PLIES: the latest ones (late positions get proven)
/** @param {number} n */
const mistakes = (n) => count(n, "mistake or blunder", "mistakes and blunders");

export async function practise() {
  const r = S.review;
  if (!r || S.busy) return;
  const mine = r.plies.filter((/** @type {any} */ p) => p.player === humanSeat() && PRACTISED.has(p.label))
    .map((/** @type {any} */ p) => p.ply);
  const result = $("practise-result");
  if (!mine.length) {
    result.textContent = "You made no mistake or blunder in this game: nothing to practise.";
    return;
  }
  const id = S.game.id;
  S.busy = true;
  showError(null);
  render();
  $("practise-wait").textContent = `Making puzzles of your ${mistakes(mine.length)}… (the exact search proves each)`;
  try {
    const made = await api("POST", `/api/games/${id}/mistake-puzzles`, { plies: mine.slice(-MAX_PRACTISED) });
    if (S.game && S.game.id === id) drawPractise(made, mine.length);
  } catch (err) {
    showError(err);
  } finally {
    $("practise-wait").textContent = "";
    S.busy = false;
    render();
  }
}

/** @param {any} made @param {number} tried */
function drawPractise(made, tried) {
  const result = $("practise-result");
  result.replaceChildren();
  document.body.dataset.practised = String(made.puzzles.length);
  if (!made.puzzles.length) {
    result.textContent = `None of your ${mistakes(tried)} makes a puzzle: in none of those positions `
      + "could the exact search prove that exactly one move wins.";
    return;
  }
  const moves = made.plies.map((/** @type {number} */ ply) => ply + 1).join(", ");
  result.append(`${count(made.puzzles.length, "puzzle")} from your ${mistakes(tried)} `
    + `(before ${made.plies.length === 1 ? "move" : "moves"} ${moves}): `);
  const link = document.createElement("a");
  link.id = "practise-link";
  link.href = `/puzzles?set=${made.puzzles.join(",")}`;
  link.textContent = made.puzzles.length === 1 ? "practise it on the Puzzles page" : "practise them on the Puzzles page";
  result.appendChild(link);
}
