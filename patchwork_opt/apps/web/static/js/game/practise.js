// game/practise.js: "Practise your mistakes": the review's mistakes and blunders of yours, each made
// an exercise by the server ("find a better move" from the position before it: POST
// /api/games/{id}/mistake-puzzles with the review's time_per_move, so the exercises are made of the
// review's own analyses), linked to the Puzzles page, where they are played (js/puzzles/kinds/exercise.js).

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { num, t, tn } from "../components/i18n.js";
import { S, humanSeat, render, sayFor } from "./state.js";

const PRACTISED = new Set(["mistake", "blunder"]);
const MAX_PRACTISED = 12;  // the server's MAX_PRACTISE_PLIES: the latest ones

/** @param {number} [seat] whose mistakes (at one device, each player's in turn): yours by default */
export async function practise(seat = humanSeat()) {
  const r = S.review;
  if (!r || S.busy) return;
  const mine = r.plies.filter((/** @type {any} */ p) => p.player === seat && PRACTISED.has(p.label));
  const result = $("practise-result");
  if (!mine.length) {
    result.textContent = sayFor(seat, {
      you: () => t("You made no mistake or blunder in this game: nothing to practise."),
      player: (number) => t("Player {number} made no mistake or blunder in this game: nothing to practise.", { number }),
    });
    return;
  }
  const id = S.game.id;
  const asked = mine.slice(-MAX_PRACTISED);
  S.busy = true;
  showError(null);
  render();
  $("practise-wait").textContent = tn("Making {count} exercise of your mistakes and blunders…",
    "Making {count} exercises of your mistakes and blunders…", asked.length);
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
  if (!made.puzzles.length) {
    result.textContent = made.tried < mine.length
      ? t("None of the latest {count} of your {total} mistakes and blunders makes an exercise: analysed again, they "
        + "are no longer called mistakes.", { count: made.tried, total: mine.length })
      : tn("Your {count} mistake or blunder makes no exercise: analysed again, it is no longer called a mistake.",
        "None of your {count} mistakes and blunders makes an exercise: analysed again, they are no longer called mistakes.",
        made.tried);
    return;
  }
  const moves = made.plies.map((/** @type {number} */ ply) => num(ply + 1)).join(", ");
  // Translators: the exercises made of your mistakes, played on the Puzzles page; {moves} are move numbers
  // ("4, 17, 30"); a link follows.
  result.append(tn("{count} exercise of your mistakes, \"find a better move\" (before move {moves}):",
    "{count} exercises of your mistakes, \"find a better move\" (before moves {moves}):", made.puzzles.length, { moves }), " ");
  const link = document.createElement("a");
  link.id = "practise-link";
  link.href = `/puzzles?set=${made.puzzles.join(",")}`;
  // Translators: the link to the exercises just made ("it": one exercise, "them": several).
  link.textContent = tn("practise it on the Puzzles page", "practise them on the Puzzles page", made.puzzles.length);
  result.appendChild(link);
}
