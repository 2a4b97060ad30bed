// puzzles/verdict.js: the verdict of an answer: right or wrong in words (the kind says it), its
// proof (the kind draws it), both ratings after it, and what it did to the streak.

import { $ } from "../components/dom.js";
import { S, ratingText } from "./state.js";

export function drawVerdict() {
  const a = S.answer;
  $("verdict").hidden = !a;
  document.body.dataset.answered = a ? (a.correct ? "correct" : "wrong") : "";
  if (!a) return;
  $("verdict").className = a.correct ? "correct" : "wrong";
  $("verdict-title").textContent = a.correct ? "Correct!" : "Not this one";
  $("verdict-text").textContent = S.board.verdict(S.puzzle, a);
  S.board.proof(S.puzzle, a, $("verdict-proof"));
  const rated = a.rated ? "" : " (answered before: the ratings did not move)";
  $("verdict-ratings").textContent = S.board.rated === false
    ? `Your rating: ${ratingText(a.visitor)} (exercises move no rating).`
    : `Your rating: ${ratingText(a.visitor)}. This puzzle: ${ratingText(a.rating)}${rated}.`;
  $("verdict-habits").textContent = habitsText(a);
}

/** What the answer did to the streak and whether the puzzle comes back, in words. @param {any} a */
function habitsText(a) {
  const parts = [];
  if (S.inStreak) {
    const best = `best ${a.visitor.best_streak}`;
    if (a.correct && a.visitor.streak > S.streakBefore) parts.push(`Streak: ${a.visitor.streak} (${best}).`);
    else if (!a.correct) parts.push(`Streak over at ${S.streakBefore} (${best}): the next puzzle starts a new one.`);
    else parts.push(`Solved before, so the streak stays at ${a.visitor.streak} (${best}).`);
  }
  if (a.again) parts.push("This puzzle comes back after a few more, until you solve it.");
  return parts.join(" ");
}
