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
import { t, tn } from "../components/i18n.js";
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
    return tn("Taken back: your move again ({count} take-back in this game; the review counts them).",
      "Taken back: your move again ({count} take-backs in this game; the review counts them).", S.game.takebacks);
  }
  const v = l.verdict;
  // the server's words of a move are what the player does ("buy #12 at ...", "put the leather
  // patch on ..."): "you chose to" and "was to" make them whole sentences
  // Translators: {played} is a move in words as a verb phrase ("buy #12 at rows 0-1, cols 3-5"), {verdict} a
  // move's label ("a mistake", "the best move"), {chances} what it did to the win chance.
  const said = t("Move {number}, you chose to {played}: {verdict} ({chances}).",
    { number: l.move.ply + 1, played: v.played_words, verdict: verdictWords(v), chances: chancesText(v) });
  if (v.label === "best" || v.label === "good") return said;
  const best = { best: v.best_words };
  // Translators: {best} is the better move in words, a verb phrase ("advance 3 spaces").
  if (!open()) return `${said} ${t("Better was to {best}.", best)}`;  // kept, or the game went on
  const advance = v.best.type === "advance";
  if (!offered()) {  // the game is over: nothing to take back
    return `${said} ${advance ? t("Better was to {best} (shaded in green on the track).", best)
      : t("Better was to {best} (drawn in green on your quilt).", best)}`;
  }
  // Translators: {best} is the better move in words, a verb phrase; it is drawn on the page as said.
  const better = advance ? t("Better: {best} (shaded in green on the track).", best)
    : t("Better: {best} (drawn in green on your quilt).", best);
  const choice = waiting() ? t("Take it back and try another move, or play on.") : t("Take it back, or make your next move.");
  return `${said} ${better} ${choice}`;
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
