// words.js: the page's one place for a move in words, and for numbers with their nouns.
//
//   moveWords(move, words?)  the move in words, as the server said it: the `words` argument, else the
//                            move's own `words` field (a hint, a game's move). The server says every
//                            move it sends (core/words.py: no two legal moves of a position read the
//                            same); the page never words a move itself, so a move without them is an
//                            error (thrown), not a second wording
//   where(cells)             "rows 3-4, cols 0-2", "row 4, col 4": cells, not a move (what a refused
//                            placement overlaps, a workshop fill's patch)
//   count(n, noun, plural?)  "1 button", "2 buttons", "0 inaccuracies" (plural given when not noun+s)
//   pct(x), signedPct(x), points(x), capital(text), article(word), byWords(margin)
//                            "42%", "+4%" / "−4%", "2.5 points" / "1 point", "Abc", "a mistake", "by 3 points"

//: How rows and columns are numbered for people: the quilt's labels and the server's words agree
//: ("buy #27 at rows 6-7, cols 1-3", rows and columns from 0 at the top left).
export const FIRST_NUMBER = 0;

/** @param {[number, number][]} cells @returns {string} */
export function where(cells) {
  /** @param {number[]} xs @param {string} one @param {string} many */
  const span = (xs, one, many) => {
    const lo = Math.min(...xs) + FIRST_NUMBER, hi = Math.max(...xs) + FIRST_NUMBER;
    return lo === hi ? `${one} ${lo}` : `${many} ${lo}-${hi}`;
  };
  return `${span(cells.map((x) => x[0]), "row", "rows")}, ${span(cells.map((x) => x[1]), "col", "cols")}`;
}

/** @param {any} move a move the server sent @param {string|null} [words] its words, when sent beside it @returns {string} */
export function moveWords(move, words = null) {
  const said = words || (move && move.words);
  if (!said) throw new Error(`the server sent a move without its words: ${JSON.stringify(move)}`);
  return said;
}

/** @param {number} n @param {string} noun @param {string} [plural] @returns {string} */
export const count = (n, noun, plural) => `${n} ${n === 1 ? noun : plural || `${noun}s`}`;

/** @param {number} x a chance in [0, 1] */
export const pct = (x) => `${Math.round(100 * x)}%`;

/** @param {number} x a change of chance in [-1, 1]: "+4%", "−4%" (a minus sign), "0%" */
export const signedPct = (x) => {
  const n = Math.round(100 * x);
  return n > 0 ? `+${n}%` : n < 0 ? `\u2212${-n}%` : "0%";
};

/** @param {number} x points, to one decimal: "20 points", "2.5 points", "1 point" */
export const points = (x) => {
  const r = Math.round(10 * x) / 10;
  return `${Number.isInteger(r) ? r : r.toFixed(1)} ${r === 1 ? "point" : "points"}`;
};

/** @param {string} text */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** @param {string} word */
export const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/** @param {number} margin the final margin: "by 3 points", "by 1 point", "on the tie-break" */
export const byWords = (margin) => (margin === 0 ? "on the tie-break" : `by ${count(Math.abs(margin), "point")}`);
