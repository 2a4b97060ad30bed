// puzzles/state.js: what the Puzzles page holds, read by its modules, and the one way to redraw it.
//
//   S          the page's state (below)
//   render()   redraws the page (main.js registers how, with setRenderer)
//   canAct()   a puzzle is on screen, unanswered, and no request runs

/** @type {{catalogue: any, puzzle: any, board: any, answer: any, busy: boolean, visitor: any,
 *   themes: any, kinds: any[], streakMode: boolean, inStreak: boolean, streakBefore: number, set: string[]}} */
export const S = {
  catalogue: null,        // GET /api/catalogue
  puzzle: null,           // PuzzleView on screen
  board: null,            // the mounted board of the puzzle's kind (kinds/<kind>.js)
  answer: null,           // AnswerView once answered
  busy: false,
  visitor: null,          // {id, rating, deviation, streak, best_streak}
  themes: null,           // GET /api/puzzles/themes's kinds: {<kind>: [{theme, words, puzzles}], ...}
  kinds: [],              // the kind modules of the kinds a new puzzle may be asked of, in the server's order
  streakMode: false,      // new puzzles come in streak mode
  inStreak: false,        // the puzzle on screen was served in streak mode (its answer counts for the streak)
  streakBefore: 0,        // the streak when the puzzle on screen was served
  set: [],                // puzzle ids named by ?set= (practising a game's mistakes), in order
};

let redraw = () => {};

/** @param {() => void} fn */
export function setRenderer(fn) {
  redraw = fn;
}

export function render() {
  redraw();
}

export function canAct() {
  return !!S.puzzle && !S.busy && !S.answer;
}

/** @param {{rating: number, deviation: number}} r */
export const ratingText = (r) => `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`;
