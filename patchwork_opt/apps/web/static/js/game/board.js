// game/board.js: the game on screen, on the page's PositionBoard (components/position.js: both
// quilts with their figures, the offers, the tray, Advance, what comes next and the time track, as
// every page shows a position): over it, hints on your quilt, a teaching game's better move after a
// flagged move of yours and the AI's latest placements outlined on its; and on a phone the strip at
// the top (kept in view while you play) with the AI's quilt and the stretch of the track around both
// tokens, so the AI's last move is in view without scrolling.
//
//   mountBoard(play(move))   the board on the page's own layout (index.html), built once
//   drawPosition(titles)     the game now: the board, then what is drawn over it
//
// A move drawn on a quilt (a hint, a better move, a review's move) is its cells tinted and outlined
// with the patch's buttons where they will lie (drawMove). The hints are told apart by colour, dash
// and number (1 the best): each has a tag with its number and win chance on a cell of its own, so
// no two tags overlap and every hint shows (drawHints).

import { $, svg } from "../components/dom.js";
import { key, moveCells, selectionOn } from "../components/geometry.js";
import { drawButtons } from "../components/patch.js";
import { PositionBoard } from "../components/position.js";
import { CELL } from "../components/quilt.js";
import { drawTrack, stripAround } from "../components/track.js";
import { t } from "../components/i18n.js";
import { pct } from "../components/words.js";
import { S, aiSeat, canAct, humanSeat, render } from "./state.js";
import { betterMove } from "./teaching.js";

/** @typedef {[number, number]} Cell */


/** Cells of each patch the AI placed since the human last moved (buys and leather), newest last. @param {any[]} moves */
function aiPlacementsSinceHuman(moves) {
  const out = [];
  for (let i = moves.length - 1; i >= 0 && moves[i].actor === "ai"; i--) {
    const cells = moveCells(moves[i].move);
    if (cells.length) out.unshift(cells);
  }
  return out;
}

/** A hint's board label: "win" or "loss" once proven, else its win chance. @param {any} h */
export function hintLabel(h) {
  // Translators: a hint's tag on a quilt's cell (a narrow band): the move wins, or loses, for sure.
  if (h.proven) return h.win ? t("win") : t("loss");
  return pct(h.win);
}

/** The buttons a move's patch shows where the move puts it ([] for an advance or the leather patch). @param {any} move */
function buttonsOf(move) {
  if (move.type !== "buy") return [];
  const on = selectionOn(S.catalogue, move.patch, move.cells);
  return on ? on.buttons : [];
}

/**
 * A move (the API's JSON) drawn on a quilt: its cells tinted and outlined as `kind`, with the buttons
 * of its patch; its <g>, or null for an advance (drawn on the track).
 * @param {any} view a QuiltView @param {any} move @param {string} kind @param {{testid?: string}} [o]
 */
export function drawMove(view, move, kind, o = {}) {
  const cells = moveCells(move);
  if (!cells.length) return null;
  const g = view.overlay(cells, kind, o);
  drawButtons(g, buttonsOf(move), CELL);
  return g;
}

/**
 * A tag on a cell: one line (a word) or two (a number over a win chance), over the cell's buttons.
 * @param {Element} group @param {Cell} cell @param {string} kind @param {string[]} lines
 */
function tag(group, [r, c], kind, lines) {
  const x = c * CELL, y = r * CELL;
  const g = svg("g", { class: `cell-tag ${kind}` }, group);
  const [first, second] = lines;
  if (second === undefined) {  // a word: a band across the cell, wider than it
    svg("rect", { x: x + CELL / 2 - 23, y: y + 8, width: 46, height: 18, rx: 5, class: "cell-tag-box" }, g);
    svg("text", { x: x + CELL / 2, y: y + 21, "text-anchor": "middle", class: "overlay-label cell-tag-word" }, g).textContent = first;
  } else {
    svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 5, class: "cell-tag-box" }, g);
    svg("text", { x: x + CELL / 2, y: y + 14, "text-anchor": "middle", class: "cell-tag-rank" }, g).textContent = first;
    svg("text", { x: x + CELL / 2, y: y + 28, "text-anchor": "middle", class: "overlay-label cell-tag-word" }, g).textContent = second;
  }
  return g;
}

/**
 * The cell of each drawing to put its tag on, in order (the first chooses first): never a cell another
 * tag took; rather one no other drawing covers, then one without a button, then the nearest the centre.
 * @param {{cells: Cell[], buttons: Cell[]}[]} drawings @returns {Cell[]}
 */
function tagCells(drawings) {
  const taken = new Set();
  return drawings.map((d, i) => {
    const others = new Set(drawings.filter((_, j) => j !== i).flatMap((o) => o.cells.map(([r, c]) => key(r, c))));
    const buttons = new Set(d.buttons.map(([r, c]) => key(r, c)));
    const cy = d.cells.reduce((s, x) => s + x[0], 0) / d.cells.length;
    const cx = d.cells.reduce((s, x) => s + x[1], 0) / d.cells.length;
    /** @param {Cell} cell */
    const cost = ([r, c]) => (taken.has(key(r, c)) ? 1000 : 0) + (others.has(key(r, c)) ? 100 : 0)
      + (buttons.has(key(r, c)) ? 10 : 0) + Math.hypot(r - cy, c - cx);
    const best = d.cells.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    taken.add(key(best[0], best[1]));
    return best;
  });
}

/** The hints on your quilt: each its colour, its patch's buttons and a tag with its number and win chance. @param {any} view */
function drawHints(view) {
  const placed = S.hint.shown.map((/** @type {any} */ h, /** @type {number} */ i) => ({ h, rank: i + 1, cells: moveCells(h.move) }))
    .filter((/** @type {any} */ d) => d.cells.length);
  // the best drawn last, on top; the tags over every drawing
  for (const d of [...placed].reverse()) {
    const g = drawMove(view, d.h.move, `hint-${d.rank}`, { testid: d.rank === 1 ? "hint-overlay" : "hint-alt" });
    if (g) g.setAttribute("data-rank", String(d.rank));
  }
  const tags = svg("g", { class: "cell-tags", "data-testid": "hint-tags" }, view.layer("overlays"));
  const cells = tagCells(placed.map((/** @type {any} */ d) => ({ cells: d.cells, buttons: buttonsOf(d.h.move) })));
  placed.forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    tag(tags, cells[i], `hint-${d.rank}`, [String(d.rank), hintLabel(d.h)]).setAttribute("data-rank", String(d.rank));
  });
}

/** Over your quilt as the board drew it: the hints, and a teaching game's better move. */
function drawOverHumanQuilt() {
  const view = S.quilts.human;
  if (S.hint) drawHints(view);
  const better = betterMove();
  if (better && better.cells.length) {
    const g = drawMove(view, better.move, "best", { testid: "lesson-best" });
    if (g) tag(g, tagCells([{ cells: better.cells, buttons: buttonsOf(better.move) }])[0], "best", [betterTag()]);
  }
}

// Translators: the tag on a teaching game's better move, drawn on your quilt or shaded on the track (a narrow band).
const betterTag = () => t("better");

/** The AI's latest placements outlined on its quilt, and its quilt in the phone's strip. */
function drawOverAiQuilt() {
  const latest = aiPlacementsSinceHuman(S.game.moves);
  S.quilts.strip.show({ pieces: S.game.boards[aiSeat()].pieces });
  for (const [view, testid] of [[S.quilts.ai, "last-ai-move"], [S.quilts.strip, "strip-last-ai-move"]]) {
    if (latest.length) view.outline(latest, "last-edge", testid);
  }
}

/** The game's two panels: yours (the near side) and the AI's, which nobody on this page moves. */
const PANELS = [
  // Translators: the game page's quilts; "you" and "the AI" name the tokens in the track's legend.
  { key: "human", title: t("Your quilt"), who: t("you"), token: { cls: "human", letter: "Y" } },
  { key: "ai", title: t("The AI's quilt"), who: t("the AI"), token: { cls: "ai", letter: "A" }, plays: false },
];

/** A hinted patch, chosen from the offers, is first held as the hint places it. @param {number} pid */
function hinted(pid) {
  const hint = S.hint && S.hint.shown.find((/** @type {any} */ h) => h.move.type === "buy" && h.move.patch === pid);
  return hint ? selectionOn(S.catalogue, pid, hint.move.cells) : null;
}

/** The page's PositionBoard, on index.html's own layout. @param {(move: any) => void} play */
export function mountBoard(play) {
  return new PositionBoard(null, { prefix: "", catalogue: S.catalogue, panels: PANELS, canAct, play, changed: render,
    prefer: hinted });
}

/** @param {string} prefix data-testid prefix of the tokens ("" on the main track) */
export function tokensOf(prefix = "") {
  /** @type {any[]} */
  const tokens = [];
  tokens[humanSeat()] = { cls: "human", testid: `${prefix}token-human`, letter: "Y" };
  tokens[aiSeat()] = { cls: "ai", testid: `${prefix}token-ai`, letter: "A" };
  return tokens;
}

/** The player to move (or, once over, the last to move): on top on a shared space. @param {any} view */
const onTop = (view) => view.state.to_move ?? (view.moves.length ? view.moves[view.moves.length - 1].player : 0);

/**
 * The track of `view` (a GameView); `spans` shade the spaces of a move (the last one, a hinted advance).
 * @param {SVGSVGElement} box @param {any} view @param {any[]} spans
 */
export function drawGameTrack(box, view, spans) {
  drawTrack(box, { catalogue: S.catalogue, state: view.state, tokens: tokensOf(), top: onTop(view), spans });
}

/** The phone's strip: the spaces around both tokens, the last move's shaded. @param {any} view @param {any[]} spans */
export function drawStripTrack(view, spans) {
  const spaces = stripAround(view.state, S.catalogue.end, 7);
  drawTrack(/** @type {any} */ ($("strip-track")), { catalogue: S.catalogue, state: view.state, tokens: tokensOf("strip-"),
    top: onTop(view), spans, spaces, columns: spaces[1] - spaces[0] + 1, testids: "strip-" });
}

/** Where advancing would have taken you from before your flagged move (the AI has not moved since). */
function betterAdvance() {
  const last = S.game.moves[S.game.moves.length - 1].move;
  const now = S.game.state.players[humanSeat()].position;
  const from = S.span && S.span.kind === "human" ? S.span.from
    : Math.max(0, now - (last.type === "buy" ? S.catalogue.patches[last.patch].time : 0));
  return { from, to: S.game.state.players[humanSeat()].advance_to };
}

export function trackSpans() {
  const spans = [];
  if (S.span) spans.push(S.span);
  const advance = S.hint && S.hint.shown.find((/** @type {any} */ h) => h.move.type === "advance");
  if (advance) {
    const me = S.game.state.players[humanSeat()];
    spans.push({ from: me.position, to: me.advance_to, kind: "hint", label: hintLabel(advance) });
  }
  const better = betterMove();
  if (better && better.advance) spans.push({ ...betterAdvance(), kind: "best", label: betterTag() });
  return spans;
}

/** @param {string[]} titles the panels' headings */
export function drawPosition(titles) {
  const spans = trackSpans();
  S.board.show(S.game, { seats: [humanSeat(), aiSeat()], spans, titles, top: onTop(S.game) });
  drawOverHumanQuilt();
  drawOverAiQuilt();
  drawStripTrack(S.game, spans);
}
