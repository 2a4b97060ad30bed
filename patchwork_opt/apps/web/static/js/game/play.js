// game/play.js: playing through the API: a new game (a teaching one when asked), a game opened by
// its link (/#id, also when the link changes in the same tab), a move, the AI's moves one at a time
// (each drawn, its token walking the track, said in words, and left on screen a moment; in a
// teaching game not while a flagged move of yours waits: teaching.js), undo (a teaching game's
// "Take it back" too), Play on, rematch.

import { api } from "../components/api.js";
import { $, REDUCED_MOTION, showError, sleep } from "../components/dom.js";
import { LEATHER_SELECTION } from "../components/geometry.js";
import { t } from "../components/i18n.js";
import { walkToken } from "../components/track.js";
import { moveWords } from "../components/words.js";
import { S, aiSeat, render } from "./state.js";
import { localView } from "./seats.js";
import { keepMove, tookBack, waiting } from "./teaching.js";

const PHONE = window.matchMedia("(max-width: 700px)");  // style.css's phone layout

/** @param {any} view a GameView: the game on screen from now on (a game between people as seats.js puts it) */
export function setGame(view) {
  const game = localView(view);
  const before = S.game;
  const same = before && before.id === game.id;
  if (!game.state.over || !same) { S.review = null; S.reviewCache.clear(); }
  if (!same) S.aiNote = "";
  // the spaces the newest move went over (none after an undo or on a fresh load)
  S.span = null;
  if (same && game.ply === before.ply + 1) {
    const m = game.moves[game.ply - 1];
    const from = before.state.players[m.player].position, to = game.state.players[m.player].position;
    if (to > from) S.span = { from, to, kind: m.actor };
  }
  S.game = game;
  S.hint = null;
  S.viewing = null;
  $("hint-text").textContent = "";
  S.placer.choose(game.pending_leather && game.human_to_move ? LEATHER_SELECTION : null);
  if (location.hash !== `#${game.id}`) history.replaceState(null, "", `#${game.id}`);
  render();
  // a new game starts with its first screen in view, wherever its Start button was: on a phone the
  // status, the offers and your quilt (the header above them), else the page from its top
  if (!same) {
    if (PHONE.matches) $("game").scrollIntoView({ block: "start" });
    else window.scrollTo({ top: 0 });
  }
  if (game.state.over && !(same && before.state.over)) {
    // the result comes into view by itself
    $("result").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
    $("result").focus({ preventScroll: true });
  }
}

/** How many games were opened by a link: what answers for the game on screen before is dropped. */
let opened = 0;

/** A request that answers a GameView, then the AI's moves. @param {() => Promise<any>} fn */
export async function request(fn) {
  if (S.busy) return;
  await answered(opened, fn);
}

/** The game of a link (/#id) on screen, whatever the page was doing: a request under way for the
 * game before is forgotten. @param {string} id */
export async function openGame(id) {
  await answered(++opened, () => api("GET", `/api/games/${encodeURIComponent(id)}`));
}

/** Ask `fn` for a GameView and show it, then the AI's moves, unless another game was opened meanwhile
 * (`mine` is the count of games opened when it was asked). @param {number} mine @param {() => Promise<any>} fn */
async function answered(mine, fn) {
  S.busy = true;
  showError(null);
  render();
  try {
    S.aiNote = "";
    const game = await fn();
    if (mine === opened) setGame(game);
  } catch (err) {
    if (mine === opened) showError(err);
  } finally {
    if (mine === opened) {
      S.busy = false;
      render();
    }
  }
  if (mine === opened) await aiTurns();
}

async function aiTurns() {
  const mine = opened;
  while (mine === opened && S.game && S.game.ai_to_move && !S.game.state.over && !S.busy && !waiting()) {
    S.busy = true;
    render();
    try {
      const before = S.game;
      const game = await api("POST", `/api/games/${S.game.id}/ai-move`, { ply: S.game.ply });
      if (mine !== opened) return;
      S.busy = false;
      const m = game.moves[game.moves.length - 1];
      const again = game.ai_to_move && !game.state.over;
      // Translators: the AI's move in the status line; {move} is the move in words ("advance 3 spaces").
      const said = t("The AI: {move}.", { move: moveWords(m.move, m.words) });
      S.aiNote = again ? `${said} ${t("The AI moves again.")}` : said;
      setGame(game);
      const from = before.state.players[aiSeat()].position, to = game.state.players[aiSeat()].position;
      await Promise.all([walkToken(/** @type {any} */ ($("track")), "token-ai", from, to),
        walkToken(/** @type {any} */ ($("strip-track")), "strip-token-ai", from, to)]);
      if (again) await sleep(REDUCED_MOTION ? 300 : 700);
    } catch (err) {
      if (mine !== opened) return;
      S.busy = false;
      showError(err);
      render();
      return;
    }
  }
}

/** @param {any} move a move in the API's JSON */
export async function play(move) {
  const id = S.game.id, ply = S.game.ply;
  await request(() => api("POST", `/api/games/${id}/moves`, { ply, move }));
  // a teaching game's flagged move: the keyboard is on its choice (the quilt and the offers are not live)
  if (waiting()) $("take-back").focus({ preventScroll: true });
}

export function undo() {
  const id = S.game.id, ply = S.game.ply;
  request(async () => {
    const game = await api("POST", `/api/games/${id}/undo`, { ply });
    tookBack(game);
    return game;
  });
}

/** A teaching game's flagged move kept: the AI moves on. */
export function playOn() {
  if (S.busy) return;
  keepMove();
  render();
  aiTurns();
}

/** @param {Event} evt the New game form's submit */
export async function startGame(evt) {
  evt.preventDefault();
  const seed = /** @type {HTMLInputElement} */ ($("seed")).value.trim();
  /** @type {Record<string, any>} */
  const body = {
    ai: /** @type {HTMLSelectElement} */ ($("ai")).value,
    level: Number(/** @type {HTMLSelectElement} */ ($("level")).value),
    seat: Number(/** @type {HTMLSelectElement} */ ($("seat")).value),
    printing: /** @type {HTMLSelectElement} */ ($("printing")).value,
    teaching: /** @type {HTMLInputElement} */ ($("teaching")).checked,
  };
  if (seed !== "") body.seed = Number(seed);
  /** @type {HTMLDetailsElement} */ ($("setup")).open = false;
  await request(() => api("POST", "/api/games", body));
}

/** The same AI, level and seat again, with a new order of patches. */
export function rematch() {
  const g = S.game;
  const printing = /** @type {HTMLSelectElement} */ ($("printing")).value;
  request(() => api("POST", "/api/games", { ai: g.ai, level: g.level, seat: g.seat, printing, teaching: g.teaching }));
}
