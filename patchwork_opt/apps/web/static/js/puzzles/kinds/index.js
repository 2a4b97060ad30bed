// puzzles/kinds/index.js: the registry of puzzle kinds. A kind is the module ./<kind>.js, named as
// the API names the kind (PuzzleView.kind; the keys of GET /api/puzzles/themes's kinds), loaded the
// first time the page needs it. So a new kind of puzzle touches one front-end module: its own.
//
// A kind module default-exports
//   {kind, label, about, mount(page)}
//     label: the Kind select's words ("find the winning move"); about: a sentence for the page's
//     introduction (shown after the label, in bold)
//     mount(page) builds the kind's <section> into page.main and returns its board; page:
//     {main, catalogue, canAct(), answer(body), changed()}; answer(body) sends the answer (a
//     {move} or {placements}) and resolves to the AnswerView, or null when it was refused
//   a board:
//     .section                   its <section>, shown while a puzzle of the kind is on screen
//     .start(puzzle)             a new puzzle of this kind on screen
//     .draw(puzzle, answer)      draws it (the answer revealed once there is one); what the kind
//                                tells of a puzzle and of a verdict is in their .details alone
//     .task(puzzle)              what to do, in words
//     .workshop(puzzle)          the workshop's address for the puzzle's quilt (nav.js's workshopHref)
//     .analysis(puzzle)          (a kind with a position) the analysis board's address for it
//                                (nav.js's analysisHref); the page links it once the puzzle is answered
//     .verdict(puzzle, answer)   the verdict in words
//     .proof(puzzle, answer, box)  the verdict's proof drawn into box (emptied first)
//     .placer()                  the Placer R, F and Escape act on, or null
//     .key(evt)                  the kind's own keys (true when it used the key)
//     .rated                     false for a kind whose answers move no rating (exercises); else left out
//     .setNote                   (optional) the words before "N of M" when its puzzles come as a set
//                                from the page's address (exercises: "A mistake of your game, ...")

/** @type {Map<string, Promise<any>>} */
const loaded = new Map();

/** @param {string} kind @returns {Promise<any>} the kind's module (see the header) */
export function kindModule(kind) {
  if (!/^[a-z]+$/.test(kind)) return Promise.reject(new Error(`unknown puzzle kind ${kind}`));
  if (!loaded.has(kind)) loaded.set(kind, import(`./${kind}.js`).then((m) => m.default));
  return /** @type {Promise<any>} */ (loaded.get(kind));
}
