// api.js: the JSON API client.
//
//   api(method, path, body?)  the parsed JSON answer; a failed request throws ApiError whose message
//                             is the server's `words` (what is wrong in a player's sentences: what a
//                             page shows), with the API's precise one-line `detail` kept beside it
//                             (every error of the API has both)
//   authorize(game, secret)   every later request about that game (/api/games/{game}...) carries the
//                             seat's secret as `Authorization: Bearer <secret>`, as a cookie would: a
//                             game between people takes a move, a take-back's answer, resigning and a
//                             rematch only from the seat's secret (js/game/seats.js keeps it)
//   (every request asks for its answer's words in the page's language: i18n.withLang)
//   catalogue()               GET /api/catalogue, asked once per page: the 33 patches with every
//                             orientation (cells and buttons, as the server draws placed patches),
//                             the track's end and income marks

import { withLang } from "./i18n.js";

export class ApiError extends Error {
  /** @param {string} message @param {number} status @param {string} [detail] the API's own line */
  constructor(message, status, detail = message) {
    super(message);
    this.status = status;
    this.detail = detail;
  }
}

/** @type {Map<string, string>} game id -> the secret of the seat this browser holds in it */
const secrets = new Map();

/** @param {string} game a game's id @param {string} secret its seat's secret */
export function authorize(game, secret) {
  secrets.set(game, secret);
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: {} };
  const game = /^\/api\/games\/([^/?#]+)/.exec(path);
  const secret = game && secrets.get(decodeURIComponent(game[1]));
  if (secret) init.headers.Authorization = `Bearer ${secret}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(withLang(path), init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = data.detail || `${res.status} ${res.statusText}`;
    throw new ApiError(data.words || detail, res.status, detail);
  }
  return data;
}

/** @type {Promise<any>|null} */
let asked = null;

/** @returns {Promise<any>} the catalogue (see the header) */
export function catalogue() {
  asked = asked || api("GET", "/api/catalogue");
  return asked;
}
