// puzzles/kinds/endgame.js: "find the winning move": a late position of a real game where only a
// few moves win. The visitor moves as in a game (a PositionBoard); the verdict says whether the
// move wins, with the line of best play to step through on the board (← and →) and the winning
// moves, every move in the server's words (the verdict's line_words and winning_words). A kind
// module (kinds/index.js describes the interface).

import { html } from "../../components/dom.js";
import { moveCells } from "../../components/geometry.js";
import { workshopHref } from "../../components/nav.js";
import { PositionBoard } from "../../components/position.js";
import { byWords, count } from "../../components/words.js";
import { LineSteps } from "../line.js";

export const PANELS = [
  { key: "you", title: "Your quilt", who: "you", token: { cls: "human", letter: "Y" } },
  { key: "other", title: "The other player's quilt", who: "the other player", token: { cls: "ai", letter: "O" } },
];

class EndgameBoard {
  /** @param {any} page */
  constructor(page) {
    this.page = page;
    this.section = html("section", { id: "endgame", hidden: true }, page.main);
    /** @type {any} */ this.move = null;          // the move answered
    this.steps = new LineSteps(page.catalogue, page.changed);
    this.board = new PositionBoard(this.section, {
      prefix: "eg", catalogue: page.catalogue, panels: PANELS, canAct: page.canAct,
      play: (/** @type {any} */ move) => this.answerMove(move), changed: page.changed,
    });
  }

  /** @param {any} puzzle */
  start(puzzle) {
    const e = puzzle.endgame;
    this.move = null;
    this.steps.reset();
    this.board.start(e, [e.player, 1 - e.player]);
  }

  /** @param {any} move */
  async answerMove(move) {
    this.move = move;
    const answer = await this.page.answer({ move });
    if (!answer) this.move = null;
    this.board.placer().choose(null);  // the patch in hand is put down: the card and the tray show none
    this.page.changed();
  }

  /** @param {any} puzzle @param {any} answer */
  draw(puzzle, answer) {
    const e = puzzle.endgame;
    if (answer) {
      this.steps.set([{ key: "line", moves: answer.line, players: answer.line_players, words: answer.line_words,
        title: "Best play from here, move by move (choose one, or ← and →, to see it on the board):" }]);
    }
    const { pieces, overlays } = this.steps.boards(e);
    if (!this.steps.stepping() && this.move && moveCells(this.move).length) {
      // your answer, green when it wins; when it does not, a winning move drawn beside it
      overlays.push({ seat: e.player, cells: moveCells(this.move), kind: answer && answer.correct ? "best" : "played", testid: "answer-move" });
    }
    if (!this.steps.stepping() && answer && !answer.correct && answer.winning.length && moveCells(answer.winning[0]).length) {
      overlays.push({ seat: e.player, cells: moveCells(answer.winning[0]), kind: "best", testid: "winning-move" });
    }
    this.board.show(e, { seats: [e.player, 1 - e.player], pieces, overlays });
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
    const yours = a.line_words[0];  // the line of best play starts with your move
    if (a.correct) return `Your move, ${yours}, wins: with best play you win ${byWords(a.margin)}.`;
    const win = a.winning.length ? ` A winning move was ${a.winning_words[0]} (drawn in green).` : "";
    return `Your move, ${yours} (drawn in red), loses: best play refutes it and you lose ${byWords(a.margin)}.${win}`;
  }

  /** The line of best play, move by move (each a button showing it on the board), and the winning moves. @param {any} puzzle @param {any} a @param {HTMLElement} box */
  proof(puzzle, a, box) {
    box.replaceChildren();
    this.steps.list(box, puzzle.endgame.player);
    const shown = a.winning_words.slice(0, 5).join("; ");
    const more = a.winning.length > 5 ? `; and ${a.winning.length - 5} more` : "";
    const title = a.winning.length === 1 ? "The winning move" : `Winning moves (${a.winning.length})`;
    html("p", { id: "verdict-winning" }, box, `${title}: ${shown}${more}.`);
  }

  /** The position, the mover's quilt. @param {any} puzzle */
  workshop(puzzle) {
    return workshopHref({ position: puzzle.endgame.state.position, player: puzzle.endgame.player });
  }

  placer() {
    return this.board.placer();
  }

  cancel() {
    this.board.cancel();
  }

  /** ← and → step through the line of best play once answered. @param {KeyboardEvent} evt */
  key(evt) {
    return this.steps.key(evt);
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
