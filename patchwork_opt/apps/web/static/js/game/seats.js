// game/seats.js: a game between people (a friend by a link, or two players at one device): who sits
// where, the seat this browser holds, and the game as the page's other modules read it.
//
// The server's view of such a game is the same for everyone (the public view: its `people` says who
// holds which seat and what is offered; peopleOf is the one place the page reads it). The page was made for a person against the AI: its near
// side ("Your quilt", the offers, the move controls; the moves of `actor` "human") and its far side
// ("ai"). localView puts a game between people into those words: the near side is the seat this
// browser holds, at one device the player to move, and for a spectator the first player; the far
// side never moves by itself (ai_to_move false), and only the seat held moves (human_to_move).
//
//   heldSeat(id)                  {seat: 0 | 1 | "both", secret, invite} this browser holds in game id, or null
//   holdSeat(id, seat, secret, invite?)  kept in localStorage (a reload, a link opened again keeps the seat),
//                                 and every request about the game carries the secret (api.js authorize)
//   peopleOf(view)                {kind: "friend" | "here", hints, taken, lastMoved (ms since 1970, or null,
//                                 by seat), takeback {seat, ply}, resigned, winner, rematch, mine} of a game
//                                 between people, or null for a game against the AI
//   localView(view)               the view as the page reads it (above)
//   seatKind(view, seat)          who sits there as the page speaks of them: "you", "ai", "friend", or
//                                 "player" (Player 1 or 2: at one device, or to a spectator)
//   sayOf(view, seat, forms)      the message for that kind of player: forms {you, ai, friend, player(number)},
//                                 each a whole message (i18n.js: never a name glued into English word order);
//                                 a kind without its form is said by `player`, by number
//   nearSeat(view)                the seat drawn as the near side

import { authorize } from "../components/api.js";

/** @param {string} id */
const storageKey = (id) => `patchwork-seat:${id}`;

/** @param {string} id @returns {{seat: 0 | 1 | "both", secret: string, invite: string} | null} */
export function heldSeat(id) {
  try {
    const held = JSON.parse(localStorage.getItem(storageKey(id)) || "null");
    if (held && typeof held.secret === "string") {
      authorize(id, held.secret);
      return held;
    }
  } catch {
    // a value written by something else: no seat
  }
  return null;
}

/** @param {string} id @param {0 | 1 | "both"} seat @param {string} secret @param {string} [invite] */
export function holdSeat(id, seat, secret, invite = "") {
  localStorage.setItem(storageKey(id), JSON.stringify({ seat, secret, invite }));
  authorize(id, secret);
}

/** @param {any} view a GameView */
export function peopleOf(view) {
  const p = view.people;
  if (!p) return null;
  const held = heldSeat(view.id);
  return {
    /** @type {"friend" | "here"} */
    kind: p.opponent,
    hints: !!p.hints,
    taken: p.seats.map((/** @type {any} */ s) => !!s.taken),
    lastMoved: p.seats.map((/** @type {any} */ s) => (s.last_moved === null ? null : 1000 * s.last_moved)),
    takeback: /** @type {{seat: number, ply: number}|null} */ (p.takeback),
    resigned: /** @type {number|null} */ (p.resigned),
    winner: /** @type {number|null} */ (p.winner),
    rematch: /** @type {string|null} */ (p.rematch),
    /** @type {0 | 1 | "both" | null} */
    mine: held ? held.seat : null,
  };
}

/** @param {any} view a GameView of a game between people */
export function nearSeat(view) {
  const people = peopleOf(view);
  if (!people) return view.seat;
  if (people.mine === 0 || people.mine === 1) return people.mine;
  if (people.mine === "both" && view.state.to_move !== null && view.state.to_move !== undefined) {
    return view.state.to_move;
  }
  return 0;
}

/** @typedef {"you" | "ai" | "friend" | "player"} SeatKind */

/** @param {any} view @param {number} seat @returns {SeatKind} */
export function seatKind(view, seat) {
  const people = peopleOf(view);
  if (!people) return seat === view.seat ? "you" : "ai";
  if (people.mine === 0 || people.mine === 1) return seat === people.mine ? "you" : "friend";
  return "player";
}

/**
 * @typedef {{you?: () => string, ai?: () => string, friend?: () => string, player: (number: number) => string}} Forms
 * @param {any} view @param {number} seat @param {Forms} forms @returns {string}
 */
export function sayOf(view, seat, forms) {
  const kind = seatKind(view, seat);
  const said = kind === "player" ? undefined : forms[kind];
  return said ? said() : forms.player(seat + 1);
}

/** @param {any} view a GameView @returns {any} */
export function localView(view) {
  const people = peopleOf(view);
  if (!people) return view;
  const near = nearSeat(view);
  const state = people.resigned === null ? view.state
    : { ...view.state, over: true, to_move: null, winner: people.winner };
  const toMove = state.over ? null : state.to_move;
  const mayMove = people.mine === "both" || people.mine === toMove;
  return {
    ...view,
    seat: near,
    state,
    teaching: false,
    human_to_move: toMove !== null && toMove === near && mayMove,
    ai_to_move: false,
    moves: view.moves.map((/** @type {any} */ m) => ({ ...m, actor: m.player === near ? "human" : "ai" })),
  };
}
