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

/** Your flagged moves in words, as what exercises are made from: "your blunder", "your 12 blunders", "your
 * 21 mistakes and blunders". @param {any[]} plies */
function yours(plies) {
  const mistakes = plies.filter((p) => p.label === "mistake").length, blunders = plies.length - mistakes;
  // Translators: your flagged moves, as what exercises are made from; the phrase follows "from" and "None of"
  // in the messages below (German: dative, Russian: genitive).
  if (plies.length === 1) return mistakes ? t("your mistake") : t("your blunder");
  if (!blunders) return tn("your {count} mistake", "your {count} mistakes", mistakes);
  if (!mistakes) return tn("your {count} blunder", "your {count} blunders", blunders);
  return tn("your {count} mistake and blunder", "your {count} mistakes and blunders", plies.length);
}

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
  // Translators: {yours} is "your 12 blunders", "your mistake" ...
  $("practise-wait").textContent = asked.length === 1 ? t("Making an exercise of {yours}…", { yours: yours(asked) })
    : t("Making exercises of {yours}…", { yours: yours(asked) });
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
  // Translators: the flagged moves exercises were made from, when only the latest ones were tried:
  // {count} of them, out of {yours} ("your 13 blunders").
  const from = made.tried < mine.length ? t("the latest {count} of {yours}", { count: made.tried, yours: yours(mine) })
    : yours(mine);
  if (!made.puzzles.length) {
    // Translators: {from} is "your 2 mistakes", "the latest 12 of your 13 blunders" ...
    result.textContent = made.tried === 1
      ? t("None of {from} makes an exercise: analysed again, it is no longer called a mistake.", { from })
      : t("None of {from} makes an exercise: analysed again, they are no longer called mistakes.", { from });
    return;
  }
  const moves = made.plies.map((/** @type {number} */ ply) => num(ply + 1)).join(", ");
  // Translators: the exercises made, played on the Puzzles page: {from} is "your 12 blunders" ..., {moves} are move
  // numbers ("4, 17, 30"); a link follows.
  result.append(tn("{count} exercise from {from}, \"find a better move\" (before move {moves}):",
    "{count} exercises from {from}, \"find a better move\" (before moves {moves}):", made.puzzles.length,
    { from, moves }), " ");
  const link = document.createElement("a");
  link.id = "practise-link";
  link.href = `/puzzles?set=${made.puzzles.join(",")}`;
  // Translators: the link to the exercises just made ("it": one exercise, "them": several).
  link.textContent = tn("practise it on the Puzzles page", "practise them on the Puzzles page", made.puzzles.length);
  result.appendChild(link);
}
