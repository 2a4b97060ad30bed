// game/measures.js: what a review says in words of a move, of each player and of the deal (GET
// /api/games/{id}/review: plies[], players[] {name, accuracy, error_rate, decisions, inaccuracies,
// mistakes, blunders, takebacks}, deal {first_win, average_first_win, luck, circles}; the points each
// player lost per decision are in the server's summary); a teaching game's verdict on a move is a
// review's ply, said alike.
//
//   chancesText(p)                 "win chance 62% → 40%, 3.5 points lost"
//   verdictWords(p)                "the best move", "about the same as the best" (a difference within
//                                  the analysis's margin of error), "a good move, close to the best", "a mistake"
//   playersText(review, teaching)  "You: accuracy 81%, error rate 3.4% over 27 decisions, 2 inaccuracies,
//                                  1 mistake, 0 blunders, 1 take-back. The AI (greedy): ..." (take-backs
//                                  said when a player made any, and for you in a teaching game)
//   dealText(review)               the deal apart from skill: Player 1's chance to win at the start with
//                                  this circle against the average circle, each player's luck (zero-sum)
//   errorRate(x)                   "3.4%": the mean win chance lost per decision, to one decimal

import { article, count, pct, points, signedPct } from "../components/words.js";
import { moverName } from "./state.js";

/** @param {any} p a review's ply, or a teaching game's verdict */
export const chancesText = (p) => `win chance ${pct(p.win_before)} → ${pct(p.win_after)}, ${points(p.points_lost)} lost`;

/** @param {any} p a review's ply, or a teaching game's verdict */
export const verdictWords = (p) => (p.label === "best" ? "the best move"
  : p.within_noise ? "about the same as the best"
    : p.label === "good" ? "a good move, close to the best" : article(p.label));

/** @param {number} x the mean win chance lost per decision, 0-1 */
export const errorRate = (x) => `${(100 * x).toFixed(1)}%`;

/** @param {any} review @param {boolean} teaching */
export function playersText(review, teaching) {
  return review.players.map((/** @type {any} */ p, /** @type {number} */ seat) => {
    const parts = [`accuracy ${Math.round(p.accuracy)}%`,
      `error rate ${errorRate(p.error_rate)} over ${count(p.decisions, "decision")}`,
      count(p.inaccuracies, "inaccuracy", "inaccuracies"), count(p.mistakes, "mistake"), count(p.blunders, "blunder")];
    if (p.takebacks || (teaching && seat === review.seat)) parts.push(count(p.takebacks, "take-back"));
    return `${p.name}: ${parts.join(", ")}.`;
  }).join(" ");
}

/** The player at `seat` as the page names them: "you", "the AI", "your friend", "Player 2" (state.js). */
const who = moverName;

/** @param {any} review */
export function dealText(review) {
  const d = review.deal;
  if (!d) return "The deal: its luck is not measured for this game's leather spaces (neither printing's).";
  const first = who(0);
  const luck = [0, 1].map((seat) => `${signedPct(d.luck[seat])} for ${who(seat)}`).join(", ");
  return `The deal: with this circle of patches, the first player (${first}) had a ${pct(d.first_win)} chance to `
    + `win at the start, against ${pct(d.average_first_win)} with the average circle (over `
    + `${d.circles.toLocaleString("en")} random ${d.circles === 1 ? "circle" : "circles"}): luck ${luck}. The rest of the result is `
    + "skill: the win chance each player lost, move by move.";
}
