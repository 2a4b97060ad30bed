// game/state.js: what the game page holds, read by its modules, and the one way to redraw it.
//
//   S            the page's state (below)
//   render()     redraws the page (main.js registers how, with setRenderer)
//   humanSeat(), aiSeat(), canAct(), seatOf(actor)
//   sayFor(seat, forms)   the message for the player at `seat` of the game on screen (seats.js sayOf:
//                         one whole message per kind of player: you, the AI, your friend, Player 2)

import { sayOf } from "./seats.js";

/** @type {{catalogue: any, game: any, board: any, placer: any, quilts: any, hint: any, hintAvailable: boolean,
 *   busy: boolean, span: any, aiNote: string, viewing: any, review: any, reviewAsked: number, reviewPly: number|null,
 *   reviewCache: Map<number, any>, playedOn: Set<string>}} */
export const S = {
  catalogue: null,        // GET /api/catalogue
  game: null,             // GameView of the game on screen
  board: null,            // the PositionBoard (components/position.js) the game is drawn on
  placer: null,           // the board's Placer on the human's quilt (the patch chosen, where it would go)
  quilts: null,           // {human, ai, strip, reviewHuman, reviewAi}: the page's QuiltViews
  hint: null,             // {shown: [hint, ...] distinct, best first; text}
  hintAvailable: false,   // the server offers hints
  busy: false,            // a request is running (buttons disabled, clicks ignored)
  span: null,             // {from, to, kind}: the spaces the last move went over, shaded on the track
  aiNote: "",             // what the AI just did, in words, for the status line
  viewing: null,          // {index, before, after}: a past move shown from the move list
  review: null,           // GET /api/games/{id}/review of the finished game on screen
  reviewAsked: 0,         // the time_per_move it was asked with (exercises are made of the same analyses)
  reviewPly: null,        // the ply the review shows
  reviewCache: new Map(), // ply -> GameView before it
  playedOn: new Set(),    // "game:ply" of the flagged moves of a teaching game the person chose to keep
};

let redraw = () => {};

/** @param {() => void} fn */
export function setRenderer(fn) {
  redraw = fn;
}

export function render() {
  redraw();
}

export const humanSeat = () => S.game.seat;
export const aiSeat = () => 1 - S.game.seat;
/** @param {string} actor a move's actor, "human" or "ai" @returns {number} */
export const seatOf = (actor) => (actor === "human" ? humanSeat() : aiSeat());
/** @param {number} seat @param {import("./seats.js").Forms} forms */
export const sayFor = (seat, forms) => sayOf(S.game, seat, forms);

export function canAct() {
  return !!S.game && !S.busy && !S.viewing && S.game.human_to_move && !S.game.state.over;
}
