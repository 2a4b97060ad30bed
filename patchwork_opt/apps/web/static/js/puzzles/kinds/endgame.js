// puzzles/kinds/endgame.js: "find the winning move": a late position of a real game where only a
// few moves win. The visitor moves as in a game (a PositionBoard); the verdict says whether the
// move wins, with the line of best play to step through on the board (← and →) and the winning
// moves. A kind module (kinds/index.js describes the interface).

import { html } from "../../components/dom.js";
import { moveCells, selectionOn } from "../../components/geometry.js";
import { analysisHref, workshopHref } from "../../components/nav.js";
import { PositionBoard } from "../../components/position.js";
import { byWords, count, moveWords } from "../../components/words.js";


const PANELS = [
  { key: "you", title: "Your quilt", who: "you", token: { cls: "human", letter: "Y" } },
  { key: "other", title: "The other player's quilt", who: "the other player", token: { cls: "ai", letter: "O" } },
];

class EndgameBoard {
  /** @param {any} page */
  constructor(page) {
    this.page = page;
    this.section = html("section", { id: "endgame", hidden: true }, page.main);
    /** @type {any} */ this.move = null;          // the move answered
    /** @type {number|null} */ this.step = null;   // the move of the line of best play shown (index), or null
    /** @type {any} */ this.answer = null;
    this.board = new PositionBoard(this.section, {
      prefix: "eg", catalogue: page.catalogue, panels: PANELS, canAct: page.canAct,
      play: (/** @type {any} */ move) => this.answerMove(move), changed: page.changed,
    });
  }

  /** @param {any} puzzle */
  start(puzzle) {
    const e = puzzle.endgame;
    this.move = null;
    this.step = null;
    this.answer = null;
    this.board.start(e, [e.player, 1 - e.player]);
  }

  /** @param {any} move */
  async answerMove(move) {
    this.move = move;
    const answer = await this.page.answer({ move });
    if (!answer) this.move = null;
    this.board.placer().choose(null);
  }

  // The quilts as the line of best play leaves them after its move `step` (patches added to their
  // mover's quilt), with that move outlined; at null, the puzzle's position.
  /** @param {any} e */
  lineBoards(e) {
    const pieces = [e.boards[0].pieces.slice(), e.boards[1].pieces.slice()];
    /** @type {any} */
    let current = null;
    if (this.answer && this.step !== null) {
      this.answer.line.slice(0, this.step + 1).forEach((/** @type {any} */ move, /** @type {number} */ i) => {
        const seat = this.answer.line_players[i];
        const cells = moveCells(move);
        if (cells.length) {
          const on = move.type === "buy" ? selectionOn(this.page.catalogue, move.patch, cells) : null;
          pieces[seat].push({ patch: move.type === "buy" ? move.patch : -1, cells, buttons: on ? on.buttons : [] });
        }
        if (i === this.step) current = { seat, cells };
      });
    }
    return { pieces, current };
  }

  /** @param {any} puzzle @param {any} answer */
  draw(puzzle, answer) {
    this.answer = answer;
    const e = puzzle.endgame;
    const { pieces, current } = this.lineBoards(e);
    const overlays = [];
    if (this.step === null && this.move && moveCells(this.move).length) {
      // your answer, green when it wins; when it does not, a winning move drawn beside it
      overlays.push({ seat: e.player, cells: moveCells(this.move), kind: answer && answer.correct ? "best" : "played", testid: "answer-move" });
    }
    if (this.step === null && answer && !answer.correct && answer.winning.length && moveCells(answer.winning[0]).length) {
      overlays.push({ seat: e.player, cells: moveCells(answer.winning[0]), kind: "best", testid: "winning-move" });
    }
    if (current && current.cells.length) overlays.push({ seat: current.seat, cells: current.cells, kind: "step", testid: "line-step" });
    this.board.show(e, { seats: [e.player, 1 - e.player], pieces, overlays });
    document.body.dataset.step = this.step === null ? "" : String(this.step);
  }

  /** @param {any} puzzle */
  task(puzzle) {
    const e = puzzle.endgame;
    const wins = `${e.winning} of them ${e.winning === 1 ? "wins" : "win"}`;
    const level = `Difficulty ${puzzle.difficulty} of 5.`;
    if (e.pending_leather) return `You move: place your leather patch where it wins. ${count(e.legal, "distinct place")}, ${wins}. ${level}`;
    return `You move: find a winning move. ${count(e.legal, "distinct move")}, ${wins}. ${level}`;
  }

  /** @param {any} puzzle @param {any} a */
  verdict(puzzle, a) {
    const played = a.line.length ? a.line[0] : this.move;
    const yours = played ? moveWords(played) : "your move";
    if (a.correct) return `Your move, ${yours}, wins: with best play you win ${byWords(a.margin)}.`;
    const win = a.winning.length ? ` A winning move was ${moveWords(a.winning[0])} (drawn in green).` : "";
    return `Your move, ${yours} (drawn in red), loses: best play refutes it and you lose ${byWords(a.margin)}.${win}`;
  }

  /** The line of best play, move by move (each a button showing it on the board), and the winning moves. @param {any} puzzle @param {any} a @param {HTMLElement} box */
  proof(puzzle, a, box) {
    box.replaceChildren();
    if (a.line.length) {
      html("p", { class: "legend" }, box, "Best play from here, move by move (choose one, or ← and →, to see it on the board):");
      const list = html("ol", { id: "verdict-line", "data-testid": "verdict-line" }, box);
      a.line.forEach((/** @type {any} */ move, /** @type {number} */ i) => {
        const mover = a.line_players[i];
        const li = html("li", { class: mover === puzzle.endgame.player ? "you" : "other" }, list);
        if (this.step === i) li.classList.add("current");
        const who = mover === puzzle.endgame.player ? "you" : "the other player";
        const button = html("button", { type: "button" }, li, `${who}: ${moveWords(move)}`);
        button.addEventListener("click", () => { this.step = this.step === i ? null : i; this.page.changed(); });
      });
    }
    const shown = a.winning.slice(0, 5).map((/** @type {any} */ m) => moveWords(m)).join("; ");
    const more = a.winning.length > 5 ? `; and ${a.winning.length - 5} more` : "";
    const title = a.winning.length === 1 ? "The winning move" : `Winning moves (${a.winning.length})`;
    html("p", { id: "verdict-winning" }, box, `${title}: ${shown}${more}.`);
  }

  /** The position, the mover's quilt. @param {any} puzzle */
  workshop(puzzle) {
    return workshopHref({ position: puzzle.endgame.state.position, player: puzzle.endgame.player });
  }

  /** The position on the analysis board. @param {any} puzzle */
  analysis(puzzle) {
    return analysisHref({ position: puzzle.endgame.state.position });
  }

  placer() {
    return this.board.placer();
  }

  cancel() {
    this.board.cancel();
  }

  /** ← and → step through the line of best play once answered. @param {KeyboardEvent} evt */
  key(evt) {
    if ((evt.key !== "ArrowLeft" && evt.key !== "ArrowRight") || !this.answer || !this.answer.line.length) return false;
    const last = this.answer.line.length - 1;
    const at = this.step === null ? -1 : this.step;
    const next = evt.key === "ArrowRight" ? Math.min(at + 1, last) : at - 1;
    this.step = next < 0 ? null : next;
    this.page.changed();
    return true;
  }
}

export default {
  kind: "endgame",
  label: "find the winning move",
  about: "a late position of a real game, where only a few moves win. Make your move as in a game; the "
    + "exact search, which checks every way the rest of the game can go, says whether it wins and shows "
    + "the line of best play.",
  /** @param {any} page */
  mount: (page) => new EndgameBoard(page),
};
