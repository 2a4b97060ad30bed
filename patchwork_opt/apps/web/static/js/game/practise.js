// game/practise.js: "Practise your mistakes": the review's mistakes and blunders of yours, each made
// an exercise by the server ("find a better move" from the position before it: POST
// /api/games/{id}/mistake-puzzles with the review's time_per_move, so the exercises are made of the
// review's own analyses), linked to the Puzzles page, where they are played (js/puzzles/kinds/exercise.js).

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { count } from "../components/words.js";
import { S, humanSeat, render } from "./state.js";

const PRACTISED = new Set(["mistake", "blunder"]);
const MAX_PRACTISED = 12;  // the server's MAX_PRACTISE_PLIES: the latest ones

/** Your flagged moves in words: "your blunder", "your 2 mistakes and 19 blunders". @param {any[]} plies */
function yours(plies) {
  const said = ["mistake", "blunder"].map((label) => [plies.filter((p) => p.label === label).length, label])
    .filter(([n]) => n).map(([n, label]) => (plies.length === 1 ? label : count(Number(n), String(label))));
  return `your ${said.join(" and ")}`;
}

/** @param {number} [seat] whose mistakes (at one device, each player's in turn): yours by default */
export async function practise(seat = humanSeat()) {
  const r = S.review;
  if (!r || S.busy) return;
  const mine = r.plies.filter((/** @type {any} */ p) => p.player === seat && PRACTISED.has(p.label));
  const result = $("practise-result");
  if (!mine.length) {
    result.textContent = "You made no mistake or blunder in this game: nothing to practise.";
    return;
  }
  const id = S.game.id;
  const asked = mine.slice(-MAX_PRACTISED);
  S.busy = true;
  showError(null);
  render();
  $("practise-wait").textContent = `Making ${asked.length === 1 ? "an exercise" : "exercises"} of ${yours(asked)}…`;
  try {
    const made = await api("POST", `/api/games/${id}/mistake-puzzles`,
      { plies: asked.map((/** @type {any} */ p) => p.ply), time_per_move: S.reviewAsked });
    if (S.game && S.game.id === id) drawPractise(made, mine);
  } catch (err) {
    showError(err);
  } finally {
    $("practise-wait").textContent = "";
    S.busy = false;
    render();
  }
}

/** @param {any} made the server's answer ({puzzles, plies, tried, exercises}) @param {any[]} mine your flagged plies */
function drawPractise(made, mine) {
  const result = $("practise-result");
  result.replaceChildren();
  document.body.dataset.practised = String(made.puzzles.length);
  const from = made.tried < mine.length ? `the latest ${made.tried} of ${yours(mine)}` : yours(mine);
  if (!made.puzzles.length) {
    result.textContent = `None of ${from} makes an exercise: analysed again, ${made.tried === 1 ? "it is" : "they are"} `
      + "no longer called a mistake.";
    return;
  }
  const moves = made.plies.map((/** @type {number} */ ply) => ply + 1).join(", ");
  result.append(`${count(made.puzzles.length, "exercise")} from ${from}, "find a better move" `
    + `(before ${made.plies.length === 1 ? "move" : "moves"} ${moves}): `);
  const link = document.createElement("a");
  link.id = "practise-link";
  link.href = `/puzzles?set=${made.puzzles.join(",")}`;
  link.textContent = made.puzzles.length === 1 ? "practise it on the Puzzles page" : "practise them on the Puzzles page";
  result.appendChild(link);
}
