// puzzles/habits.js: how puzzles are asked for: the filters (Kind, Difficulty, Theme: a change
// loads a puzzle of the new choice at once), streak mode, the daily puzzle, and a set of puzzles
// named in the address (/puzzles?set=ID,ID: the mistakes of a reviewed game).

import { $ } from "../components/dom.js";
import { S } from "./state.js";
import { t } from "../components/i18n.js";

/** @param {string} id @returns {HTMLSelectElement} */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id));

/** The Kind select: each kind a new puzzle may be asked of, in its module's words. */
export function fillKindSelect() {
  const kinds = select("kind");
  kinds.replaceChildren();
  for (const k of S.kinds) {
    const option = document.createElement("option");
    option.value = k.kind;
    option.textContent = k.label;
    kinds.appendChild(option);
  }
}

// The theme select offers the chosen kind's themes, in words (the choice kept when it still fits);
// a theme no puzzle of this server carries is shown but cannot be chosen.
export function fillThemeSelect() {
  const themeSelect = select("theme");
  const keep = themeSelect.value;
  const themes = S.themes ? S.themes[select("kind").value] || [] : [];
  const any = document.createElement("option");
  any.value = "";
  any.textContent = t("any");
  themeSelect.replaceChildren(any);
  for (const theme of themes) {
    const option = document.createElement("option");
    option.value = theme.theme;
    // Translators: {theme} is a puzzle theme in the server's words.
    option.textContent = theme.puzzles ? theme.words : t("{theme} (no puzzles yet)", { theme: theme.words });
    option.disabled = !theme.puzzles;
    themeSelect.appendChild(option);
  }
  themeSelect.value = themes.some((/** @type {any} */ x) => x.theme === keep && x.puzzles) ? keep : "";
}

/** What POST /api/puzzles is asked for by the filters and the streak. */
export function newPuzzleRequest() {
  /** @type {Record<string, any>} */
  const body = { kind: select("kind").value };
  if (select("difficulty").value && !S.streakMode) body.difficulty = Number(select("difficulty").value);
  if (select("theme").value) body.theme = select("theme").value;
  if (S.streakMode) body.streak = true;
  if (S.visitor) body.visitor = S.visitor.id;
  if (S.puzzle) body.instead_of = S.puzzle.id;  // another puzzle than the one on screen, while one fits
  return body;
}

export function drawStreak() {
  const best = S.visitor ? S.visitor.best_streak : 0;
  const now = S.visitor ? S.visitor.streak : 0;
  $("streak").hidden = !S.streakMode && !best;
  $("streak").textContent = S.streakMode ? t("Streak mode. Streak: {now} · best {best}", { now, best })
    : t("Streak: {now} · best {best}", { now, best });
}

export function drawHeader() {
  $("streak-mode").setAttribute("aria-pressed", String(S.streakMode));
  $("streak-mode").textContent = S.streakMode ? t("Streak: on") : t("Streak");
  select("difficulty").disabled = S.streakMode;
  const at = S.puzzle ? S.set.indexOf(S.puzzle.id) : -1;
  $("next").textContent = at >= 0 && at + 1 < S.set.length ? t("Next of your game ({k} of {n})", { k: at + 2, n: S.set.length })
    : S.streakMode ? t("Next in the streak") : t("New puzzle");
  for (const id of ["next", "daily", "streak-mode"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = S.busy;
  document.body.dataset.streakMode = String(S.streakMode);
}

export function noteText() {
  const p = S.puzzle;
  const at = S.set.indexOf(p.id);
  // Translators: {note} says what the set is, such as "A mistake of your game, as an exercise".
  if (at >= 0 && S.board && S.board.setNote) return t("{note}: {k} of {n}.", { note: S.board.setNote, k: at + 1, n: S.set.length });
  if (at >= 0) return t("A puzzle of the set in this page's address: {k} of {n}.", { k: at + 1, n: S.set.length });
  // Translators: {date} is a date such as 2026-12-05.
  if (p.daily) return t("The daily puzzle of {date} (UTC): the same for everyone today.", { date: p.daily });
  if (p.retry) return t("You missed this puzzle before: another try.");
  if (S.inStreak) return t("Streak mode: the puzzles get harder as your streak grows (difficulty {difficulty} now).", { difficulty: p.difficulty });
  return "";
}

/** The next puzzle of the set after the one on screen; null when the set is done (or there is none). */
export function nextOfSet() {
  if (!S.set.length) return null;
  const at = S.puzzle ? S.set.indexOf(S.puzzle.id) : -1;
  if (at + 1 < S.set.length) return S.set[at + 1];
  leaveSet();
  return null;
}

/** Back to puzzles of the settings. */
export function leaveSet() {
  if (!S.set.length) return;
  S.set = [];
  history.replaceState(null, "", "/puzzles");
}
