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
import { t } from "../components/i18n.js";
import { S, setCovered } from "./state.js";


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
  const player = source.player + 1;
  const when = source.to_move === null
    ? t("Player {player}'s quilt in a position in a finished game.", { player })
    // Translators: {player} and {mover} are the numbers of players (1 or 2).
    : t("Player {player}'s quilt in a position with Player {mover} to move.", { player, mover: source.to_move + 1 });
  const figures = t("Buttons: {buttons}; income marks ahead: {marks}.", { buttons: source.buttons, marks: source.marks_ahead });
  const bonus = source.bonus_open ? t("The 7x7 bonus is still to be won.") : t("The 7x7 bonus is taken.");
  // Translators: {patch} is a patch's id such as #12, on offer but too dear or not fitting.
  const offers = source.offers.map((/** @type {any} */ o) => (o.affordable && o.fits ? `#${o.patch}` : t("{patch} (cannot buy)", { patch: `#${o.patch}` })));
  const offered = offers.length ? t("On offer: {patches}.", { patches: offers.join(", ") }) : t("Nothing on offer.");
  return [when, figures, bonus, offered].join(" ");
}
