// words.js: the page's one place for a move in words, and for numbers with their nouns.
//
//   moveWords(move, words?)  the move in words: the server's words when it sends them (the `words`
//                            argument, or a `words` field on the move), else the fallback below
//   hintWords(hint)          a hint's move in words: its `words`, else the part of its reason
//                            before ": " (the server's words), else the fallback
//   where(cells)             "rows 3-4, cols 0-2", "row 4, col 4"
//   count(n, noun, plural?)  "1 button", "2 buttons", "0 inaccuracies" (plural given when not noun+s)
//   pct(x), capital(text), article(word), byWords(margin)  "42%", "Abc", "a mistake", "by 3 points"
//
// FALLBACK: `localWords` says a move the server has not described: today the moves of a puzzle's
// answer (its line of best play and its winning moves), which come without words. The server's
// words name one move among all legal ones (issue 40); once every API answer carries `words` next
// to its moves, `localWords` and its two callers' fallbacks can go.

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

/** @param {any} move @returns {string} the FALLBACK wording (see the header) */
function localWords(move) {
  if (move.type === "advance") return "advance";
  if (move.type === "leather") return `put the leather patch on ${where([move.cell])}`;
  return `buy #${move.patch} at ${where(move.cells)}`;
}

/** @param {any} move @param {string|null} [words] @returns {string} */
export function moveWords(move, words = null) {
  return words || move.words || localWords(move);
}

/** @param {any} hint a hint as the API gives it ({type, patch, cells, reason, words?}) @returns {string} */
export function hintWords(hint) {
  if (hint.words) return hint.words;
  if (hint.reason) return hint.reason.split(": ")[0];
  const move = hint.type === "advance" ? { type: "advance" } : hint.type === "leather"
    ? { type: "leather", cell: hint.cells[0] } : { type: "buy", patch: hint.patch, cells: hint.cells };
  return localWords(move);
}

/** @param {number} n @param {string} noun @param {string} [plural] @returns {string} */
export const count = (n, noun, plural) => `${n} ${n === 1 ? noun : plural || `${noun}s`}`;

/** @param {number} x a chance in [0, 1] */
export const pct = (x) => `${Math.round(100 * x)}%`;

/** @param {string} text */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** @param {string} word */
export const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/** @param {number} margin the final margin: "by 3 points", "by 1 point", "on the tie-break" */
export const byWords = (margin) => (margin === 0 ? "on the tie-break" : `by ${count(Math.abs(margin), "point")}`);
