// puzzles/line.js: lines of moves played on from a puzzle's position, stepped through on its
// PositionBoard once the verdict shows them (an endgame's line of best play; an exercise's play
// after the move of the game, the line that refutes it, and after the best move). Each move is a
// button in the server's words; the chosen move is outlined on the board with the quilts as the line
// leaves them, and ← and → step through the line chosen last (the first at the start).
//
//   new LineSteps(catalogue, changed)   changed(): the page redraws
//     .reset()                    no line, no step (a new puzzle)
//     .set(lines)                 the verdict's lines, [{key, title, moves, players, words}] (moves as
//                                 the API's JSON, players who makes each, words each one's words); the
//                                 step chosen stays while the lines are the same
//     .boards(position)           {pieces, overlays}: each seat's patches as the chosen line leaves them
//                                 after its step (the position's own before any), and the step's move
//                                 outlined ({seat, cells, kind "step", testid "line-step"})
//     .stepping()                 a move of a line is shown (the board is not the puzzle's position)
//     .list(box, you)             each line in box: its title, then an <ol id="verdict-KEY"> of buttons
//                                 ("you: buy #3 at ...", "the other player: ..."; you: the visitor's seat)
//     .key(evt)                   ← and →: a step back or on (true when the key was used)
//   The body's data-line and data-step say which step is shown ("" when none), for scripts and tests.

import { html } from "../components/dom.js";
import { moveCells, selectionOn } from "../components/geometry.js";
import { t } from "../components/i18n.js";

/** @typedef {{key: string, title: string, moves: any[], players: number[], words: string[]}} Line */

export class LineSteps {
  /** @param {any} catalogue @param {() => void} changed */
  constructor(catalogue, changed) {
    this.catalogue = catalogue;
    this.changed = changed;
    /** @type {Line[]} */ this.lines = [];
    /** @type {{line: number, step: number}|null} */ this.at = null;
  }

  reset() {
    this.lines = [];
    this.at = null;
    this.mark();
  }

  /** @param {Line[]} lines */
  set(lines) {
    const shown = lines.filter((l) => l.moves.length);
    const same = shown.length === this.lines.length && shown.every((l, i) => l.moves === this.lines[i].moves);
    this.lines = shown;
    if (!same) this.at = null;
    this.mark();
  }

  stepping() {
    return this.at !== null;
  }

  /** @param {any} position @returns {{pieces: any[][], overlays: any[]}} */
  boards(position) {
    const pieces = [position.boards[0].pieces.slice(), position.boards[1].pieces.slice()];
    const overlays = [];
    if (this.at) {
      const line = this.lines[this.at.line];
      line.moves.slice(0, this.at.step + 1).forEach((move, i) => {
        const seat = line.players[i], cells = moveCells(move);
        if (cells.length) {
          const on = move.type === "buy" ? selectionOn(this.catalogue, move.patch, cells) : null;
          pieces[seat].push({ patch: move.type === "buy" ? move.patch : -1, cells, buttons: on ? on.buttons : [] });
        }
        if (i === this.at?.step && cells.length) overlays.push({ seat, cells, kind: "step", testid: "line-step" });
      });
    }
    return { pieces, overlays };
  }

  /** @param {HTMLElement} box @param {number} you */
  list(box, you) {
    this.lines.forEach((line, i) => {
      html("p", { class: "legend" }, box, line.title);
      const list = html("ol", { id: `verdict-${line.key}`, class: "line-steps", "data-testid": `verdict-${line.key}` }, box);
      line.moves.forEach((_, j) => {
        const mine = line.players[j] === you;
        const li = html("li", { class: mine ? "you" : "other" }, list);
        const shown = !!this.at && this.at.line === i && this.at.step === j;
        if (shown) li.classList.add("current");
        const button = html("button", { type: "button", "aria-pressed": String(shown) }, li,
          // Translators: a move of a line of play, by you or by the other player; {move} is the move in words.
          mine ? t("you: {move}", { move: line.words[j] }) : t("the other player: {move}", { move: line.words[j] }));
        button.addEventListener("click", () => { this.at = shown ? null : { line: i, step: j }; this.mark(); this.changed(); });
      });
    });
  }

  /** @param {KeyboardEvent} evt */
  key(evt) {
    if ((evt.key !== "ArrowLeft" && evt.key !== "ArrowRight") || !this.lines.length) return false;
    const line = this.at ? this.at.line : 0;
    const last = this.lines[line].moves.length - 1;
    const from = this.at ? this.at.step : -1;
    const next = evt.key === "ArrowRight" ? Math.min(from + 1, last) : from - 1;
    this.at = next < 0 ? null : { line, step: next };
    this.mark();
    this.changed();
    return true;
  }

  mark() {
    document.body.dataset.line = this.at ? this.lines[this.at.line].key : "";
    document.body.dataset.step = this.at ? String(this.at.step) : "";
  }
}
