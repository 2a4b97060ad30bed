// puzzles/verdict.js: the verdict of an answer: right or wrong in words (the kind says it), its
// proof (the kind draws it), both ratings after it, and what it did to the streak.

import { $ } from "../components/dom.js";
import { S, ratingText } from "./state.js";
import { t } from "../components/i18n.js";

export function drawVerdict() {
  const a = S.answer;
  $("verdict").hidden = !a;
  document.body.dataset.answered = a ? (a.correct ? "correct" : "wrong") : "";
  if (!a) return;
  $("verdict").className = a.correct ? "correct" : "wrong";
  $("verdict-title").textContent = a.correct ? t("Correct!") : t("Not this one");
  $("verdict-text").textContent = S.board.verdict(S.puzzle, a);
  S.board.proof(S.puzzle, a, $("verdict-proof"));
  const ratings = { mine: ratingText(a.visitor), puzzle: ratingText(a.rating) };
  $("verdict-ratings").textContent = S.board.rated === false
    ? t("Your rating: {mine} (exercises move no rating).", ratings)
    : a.rated ? t("Your rating: {mine}. This puzzle: {puzzle}.", ratings)
      : t("Your rating: {mine}. This puzzle: {puzzle} (answered before: the ratings did not move).", ratings);
  $("verdict-habits").textContent = habitsText(a);
}

/** What the answer did to the streak and whether the puzzle comes back, in words. @param {any} a */
function habitsText(a) {
  const parts = [];
  if (S.inStreak) {
    const best = a.visitor.best_streak, now = a.visitor.streak;
    if (a.correct && now > S.streakBefore) parts.push(t("Streak: {now} (best {best}).", { now, best }));
    else if (!a.correct) parts.push(t("Streak over at {now} (best {best}): the next puzzle starts a new one.", { now: S.streakBefore, best }));
    else parts.push(t("Solved before, so the streak stays at {now} (best {best}).", { now, best }));
  }
  if (a.again) parts.push(t("This puzzle comes back after a few more, until you solve it."));
  return parts.join(" ");
}
