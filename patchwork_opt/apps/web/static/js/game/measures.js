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

import { t, tn } from "../components/i18n.js";
import { pct, signedPct } from "../components/words.js";
import { sayFor } from "./state.js";

/** @param {any} p a review's ply, or a teaching game's verdict */
export const chancesText = (p) => {
  const lost = Math.round(10 * p.points_lost) / 10;
  // Translators: what a move did to the mover's chance to win ("win chance 62% → 40%, 3.5 points lost").
  return tn("win chance {before} → {after}, {count} point lost", "win chance {before} → {after}, {count} points lost",
    lost, { before: pct(p.win_before), after: pct(p.win_after) });
};

/** A move's label as a noun ("a mistake"), as the review's legend names it (lichess's words). @param {string} label */
function labelWords(label) {
  // Translators: a move's label in a review, as lichess says it (an inaccuracy, a mistake, a blunder).
  if (label === "inaccuracy") return t("an inaccuracy");
  if (label === "mistake") return t("a mistake");
  if (label === "blunder") return t("a blunder");
  if (label === "good") return t("a good move, close to the best");
  return t("the best move");
}

/** @param {any} p a review's ply, or a teaching game's verdict */
export const verdictWords = (p) => (p.within_noise && p.label !== "best" ? t("about the same as the best")
  : labelWords(p.label));

/** @param {number} x the mean win chance lost per decision, 0-1 */
export const errorRate = (x) => pct(x, 1);

/** @param {any} review @param {boolean} teaching */
export function playersText(review, teaching) {
  return review.players.map((/** @type {any} */ p, /** @type {number} */ seat) => {
    const said = {
      name: p.name, accuracy: pct(p.accuracy / 100), rate: errorRate(p.error_rate),
      // Translators: part of a player's measures: "error rate 3.4% over 27 decisions".
      decisions: tn("over {count} decision", "over {count} decisions", p.decisions),
      // Translators: part of a player's measures, a count of moves so labelled (lichess's words).
      inaccuracies: tn("{count} inaccuracy", "{count} inaccuracies", p.inaccuracies),
      mistakes: tn("{count} mistake", "{count} mistakes", p.mistakes),
      blunders: tn("{count} blunder", "{count} blunders", p.blunders),
      // Translators: part of a player's measures: the moves they took back.
      takebacks: tn("{count} take-back", "{count} take-backs", p.takebacks),
    };
    // Translators: one player's measures in a review; {name} is the player as the review names them.
    if (p.takebacks || (teaching && seat === review.seat)) {
      return t("{name}: accuracy {accuracy}, error rate {rate} {decisions}, {inaccuracies}, {mistakes}, {blunders}, {takebacks}.", said);
    }
    return t("{name}: accuracy {accuracy}, error rate {rate} {decisions}, {inaccuracies}, {mistakes}, {blunders}.", said);
  }).join(" ");
}

/** A player's deal luck ("+4% for you"). @param {number} seat @param {number} x */
const luckOf = (seat, x) => sayFor(seat, {
  // Translators: a player's luck in the deal, a change of win chance such as +4% or −4%.
  you: () => t("{luck} for you", { luck: signedPct(x) }),
  ai: () => t("{luck} for the AI", { luck: signedPct(x) }),
  friend: () => t("{luck} for your friend", { luck: signedPct(x) }),
  player: (number) => t("{luck} for Player {number}", { luck: signedPct(x), number }),
});

/** The first player as the deal's sentence names them, in its parentheses. */
const firstPlayer = () => sayFor(0, {
  // Translators: who the first player is, in parentheses after "the first player".
  you: () => t("you"), ai: () => t("the AI"), friend: () => t("your friend"),
  player: (number) => t("Player {number}", { number }),
});

/** @param {any} review */
export function dealText(review) {
  const d = review.deal;
  if (!d) return t("The deal: its luck is not measured for this game's leather spaces (neither printing's).");
  // Translators: how many random circles of patches the average is over.
  const circles = tn("over {count} random circle", "over {count} random circles", d.circles);
  // Translators: {circles} is "over 1,000 random circles"; {luck} is each player's luck ("+4% for you, −4% for the AI").
  const said = t("The deal: with this circle of patches, the first player ({first}) had a {chance} chance to win at the "
    + "start, against {average} with the average circle ({circles}): luck {luck}.", {
    first: firstPlayer(), chance: pct(d.first_win), average: pct(d.average_first_win),
    circles,
    luck: [0, 1].map((seat) => luckOf(seat, d.luck[seat])).join(", "),
  });
  return `${said} ${t("The rest of the result is skill: the win chance each player lost, move by move.")}`;
}
