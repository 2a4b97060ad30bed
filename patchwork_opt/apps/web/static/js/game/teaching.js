// game/teaching.js: a teaching game (KaTrain's teaching mode; "Teaching" when a game starts). The
// server judges each of your moves as the review would, right after it (the move's `verdict` in the
// game: the review's ply for it, `flagged` for a mistake or a blunder). The panel under the actions
// says it in words; a flagged move has its better move drawn on your quilt (an advance: shaded on
// the track) and waits, the AI not moving, until you take it back (the game's undo, which the
// review counts) or play on.
//
//   lesson()          what the panel speaks of: {move, verdict, latest} for your latest move with a
//                     verdict (latest: it is the game's last move), {takenBack} right after a
//                     take-back, or null (not a teaching game, or no move of yours yet)
//   waiting()         a flagged move of yours is the game's last and the AI would move now: the AI
//                     waits for Take it back or Play on
//   betterMove()      the better move to draw ({move, cells, advance}) while a flagged move is the
//                     last (also once it ended the game), or null. Once the game is over nothing is
//                     offered: no take-back, no next move
//   drawLesson()      the panel (#lesson): the verdict, Take it back and Play on
//   keepMove()        Play on: the flagged move stays (the AI moves next, see play.js)
//   tookBack(game)    the undo answered: the panel says so until your next move

import { $ } from "../components/dom.js";
import { moveCells } from "../components/geometry.js";
import { count } from "../components/words.js";
import { chancesText, verdictWords } from "./measures.js";
import { S } from "./state.js";

/** @type {{id: string, ply: number}|null} the game and ply a take-back left, while the game is there */
let backAt = null;

const key = (/** @type {any} */ g, /** @type {number} */ ply) => `${g.id}:${ply}`;

export function lesson() {
  const g = S.game;
  if (!g || !g.teaching) return null;
  if (backAt && backAt.id === g.id && backAt.ply === g.ply) return { takenBack: true };
  const moves = g.moves;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].actor !== "human") continue;
    return moves[i].verdict ? { move: moves[i], verdict: moves[i].verdict, latest: i === moves.length - 1 } : null;
  }
  return null;
}

/** A flagged move that is the game's last, not kept yet. */
function open() {
  const l = lesson();
  return !!l && !!l.verdict && l.verdict.flagged && l.latest && !S.playedOn.has(key(S.game, l.move.ply)) ? l : null;
}

/** A flagged move that can still be taken back: the game's last, not kept, and the game not over. */
function offered() {
  return S.game.state.over ? null : open();
}

export function waiting() {
  const g = S.game;
  return !!open() && g.ai_to_move && !g.state.over;
}

export function betterMove() {
  const l = open();
  if (!l || S.viewing) return null;
  return { move: l.verdict.best, cells: moveCells(l.verdict.best), advance: l.verdict.best.type === "advance" };
}

export function keepMove() {
  const l = open();
  if (l) S.playedOn.add(key(S.game, l.move.ply));
}

/** @param {any} game the GameView the undo answered */
export function tookBack(game) {
  backAt = game.teaching ? { id: game.id, ply: game.ply } : null;
}

/** The verdict in words. @param {any} l */
function lessonText(l) {
  if (l.takenBack) {
    return `Taken back: your move again (${count(S.game.takebacks, "take-back")} in this game; the review counts them).`;
  }
  const v = l.verdict;
  // the server's words of a move are what the player does ("buy #12 at ...", "put the leather
  // patch on ..."): "you chose to" and "was to" make them whole sentences
  const said = `Move ${l.move.ply + 1}, you chose to ${v.played_words}: ${verdictWords(v)} (${chancesText(v)}).`;
  if (v.label === "best" || v.label === "good") return said;
  if (!open()) return `${said} Better was to ${v.best_words}.`;  // kept, or the game went on
  const where = v.best.type === "advance" ? "shaded in green on the track" : "drawn in green on your quilt";
  if (!offered()) return `${said} Better was to ${v.best_words} (${where}).`;  // the game is over: nothing to take back
  const choice = waiting() ? "Take it back and try another move, or play on." : "Take it back, or make your next move.";
  return `${said} Better: ${v.best_words} (${where}). ${choice}`;
}

export function drawLesson() {
  const l = lesson();
  $("lesson").hidden = !l;
  document.body.dataset.lesson = l ? (l.takenBack ? "taken-back" : l.verdict.label) : "";
  if (!l) return;
  $("lesson").className = !l.takenBack && l.verdict.flagged ? "flagged" : "";
  $("lesson-text").textContent = lessonText(l);
  const flagged = !!offered() && !S.viewing;
  $("take-back").hidden = !flagged;
  $("play-on").hidden = !flagged || !waiting();
  /** @type {HTMLButtonElement} */ ($("take-back")).disabled = S.busy;
  /** @type {HTMLButtonElement} */ ($("play-on")).disabled = S.busy;
}
