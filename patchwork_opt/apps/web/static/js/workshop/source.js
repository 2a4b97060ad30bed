// workshop/source.js: the quilt to start from, something you have: a pasted text quilt, a position
// in the notation, or a stored game before any move (one player's quilt, with the patches on offer
// there, the player's buttons and income marks ahead); and the switch to the other player's quilt.
// Each asks the workshop's API (a QuiltSource) and shows what it came from in words.
//
//   fromText(text), fromPosition(position, player?), fromGame(game, ply, player?)
//     resolve to the QuiltSource (takeSource makes it the page's); a refusal throws (ApiError: the
//     API's one-line detail)
//   sourceWords(source)   where the quilt comes from, in words
//   takeSource(source)    the page's quilt is the source's, with its patches; from a position, the
//     fill's budget and marks ahead become the player's buttons and marks

import { api } from "../components/api.js";
import { count } from "../components/words.js";
import { S, setCovered } from "./state.js";

/** @param {number} player */
const playerName = (player) => `Player ${player + 1}`;

/** @param {any} source */
export function takeSource(source) {
  S.source = source.position ? source : null;
  S.pieces = source.pieces;
  setCovered(source.quilt);
  if (source.position) {
    S.options.budget = source.buttons === null ? "" : String(source.buttons);
    S.options.marks = source.marks_ahead === null ? "9" : String(source.marks_ahead);
  }
}

/** @param {string} text @returns {Promise<any>} */
export async function fromText(text) {
  return api("POST", "/api/workshop/quilt", { text });
}

/** @param {string} position @param {number|null} [player] @returns {Promise<any>} */
export async function fromPosition(position, player = null) {
  /** @type {{position: string, player?: number}} */
  const body = { position };
  if (player !== null) body.player = player;
  return api("POST", "/api/workshop/position", body);
}

/** @param {string} game @param {number} ply @param {number|null} [player] @returns {Promise<any>} */
export async function fromGame(game, ply, player = null) {
  const query = player === null ? "" : `?player=${player}`;
  return api("GET", `/api/workshop/games/${encodeURIComponent(game)}/plies/${ply}${query}`);
}

/** @param {any} source @returns {string} */
export function sourceWords(source) {
  if (!source) return "";
  const whose = `${playerName(source.player)}'s quilt`;
  const when = source.to_move === null ? "in a finished game" : `with ${playerName(source.to_move)} to move`;
  const offers = source.offers.map((/** @type {any} */ o) => `#${o.patch}${o.affordable && o.fits ? "" : " (cannot buy)"}`);
  const bonus = source.bonus_open ? "the 7x7 bonus is still to be won" : "the 7x7 bonus is taken";
  return `${whose} in a position ${when}: ${count(source.buttons, "button")}, `
    + `${count(source.marks_ahead, "income mark")} ahead, ${bonus}. On offer: ${offers.join(", ") || "nothing"}.`;
}
