// words.js: the page's one place for a move in words, and for numbers with their nouns.
//
//   moveWords(move, words?)  the move in words, as the server said it: the `words` argument, else the
//                            move's own `words` field (a hint, a game's move). The server says every
//                            move it sends (core/words.py: no two legal moves of a position read the
//                            same); the page never words a move itself, so a move without them is an
//                            error (thrown), not a second wording
//   where(cells)             "rows 3-4, cols 0-2", "row 4, col 4": cells, not a move (what a refused
//                            placement overlaps, a workshop fill's patch)
//   pct(x, digits?), signedPct(x), points(x), capital(text), byWords(margin)
//                            "42%" ("3.4%" to one decimal), "+4%" / "−4%", "2.5 points" / "1 point", "Abc",
//                            "by 3 points", as the page's language writes them (a count with its noun is a
//                            whole message of the page's scripts: i18n.js tn, never a noun glued to a number)

import { t, tn } from "./i18n.js";

//: How rows and columns are numbered for people: the quilt's labels and the server's words agree
//: ("buy #27 at rows 6-7, cols 1-3", rows and columns from 0 at the top left).
export const FIRST_NUMBER = 0;

/** @param {[number, number][]} cells @returns {string} */
export function where(cells) {
  /** @param {number[]} xs */
  const span = (xs) => [Math.min(...xs) + FIRST_NUMBER, Math.max(...xs) + FIRST_NUMBER];
  const [r0, r1] = span(cells.map((x) => x[0])), [c0, c1] = span(cells.map((x) => x[1]));
  // Translators: where cells lie on a quilt; rows and columns are numbered from 0 at the top left.
  if (r0 === r1 && c0 === c1) return t("row {row}, col {col}", { row: r0, col: c0 });
  // Translators: where cells lie on a quilt (one row, several columns).
  if (r0 === r1) return t("row {row}, cols {first}-{last}", { row: r0, first: c0, last: c1 });
  // Translators: where cells lie on a quilt (several rows, one column).
  if (c0 === c1) return t("rows {first}-{last}, col {col}", { first: r0, last: r1, col: c0 });
  // Translators: where cells lie on a quilt (several rows and columns).
  return t("rows {first}-{last}, cols {firstCol}-{lastCol}", { first: r0, last: r1, firstCol: c0, lastCol: c1 });
}

/** @param {any} move a move the server sent @param {string|null} [words] its words, when sent beside it @returns {string} */
export function moveWords(move, words = null) {
  const said = words || (move && move.words);
  if (!said) throw new Error(`the server sent a move without its words: ${JSON.stringify(move)}`);
  return said;
}

/** @param {number} x a chance in [0, 1] @param {number} [digits] decimals of the percentage: none by default,
 * rounded half up ("42%"); with decimals, as the figure's own decimal rounds ("3.4%", as toFixed) */
export const pct = (x, digits = 0) => new Intl.NumberFormat(numberLocale(), { style: "percent",
  minimumFractionDigits: digits, maximumFractionDigits: digits })
  .format(digits ? Number((100 * x).toFixed(digits)) / 100 : Math.round(100 * x) / 100);

/** The locale numbers are written in (the page's language; English for the pseudo-locale). */
function numberLocale() {
  const lang = document.documentElement.lang || "en";
  return lang === "en-XA" ? "en" : lang;
}

/** @param {number} x a change of chance in [-1, 1]: "+4%", "−4%" (a minus sign), "0%" */
export const signedPct = (x) => {
  const n = Math.round(100 * x);
  return n > 0 ? `+${pct(n / 100)}` : n < 0 ? `\u2212${pct(-n / 100)}` : pct(0);
};

/** @param {number} x points, to one decimal: "20 points", "2.5 points", "1 point" */
export const points = (x) => {
  const r = Math.round(10 * x) / 10;
  return tn("{count} point", "{count} points", r);
};

/** @param {string} text */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** @param {number} margin the final margin: "by 3 points", "by 1 point", "on the tie-break" */
export const byWords = (margin) => (margin === 0 ? t("on the tie-break")
  : tn("by {count} point", "by {count} points", Math.abs(margin)));
