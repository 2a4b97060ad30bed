// puzzles/kinds/endgame.js: "find the winning move": a late position of a real game where only a
// few moves win. The visitor moves as in a game (a MoveBoard); the verdict says whether the move
// wins, with the line of best play to step through on the board (← and →) and the winning moves,
// every move in the server's words (the verdict's line_words and its details' winning_words). A
// kind module (kinds/index.js describes the interface).

import { html } from "../../components/dom.js";
import { moveCells } from "../../components/geometry.js";
import { byWords, count } from "../../components/words.js";
import { MoveBoard } from "../moveboard.js";

class EndgameBoard extends MoveBoard {
  /** @param {any} page */
  constructor(page) {
    super(page, { id: "endgame", prefix: "eg" });
  }

  /** @param {any} puzzle @param {any} answer */
  draw(puzzle, answer) {
    const player = puzzle.position.player;
    if (answer) {
      this.steps.set([{ key: "line", moves: answer.line, players: answer.line_players, words: answer.line_words,
        title: "Best play from here, move by move (choose one, or ← and →, to see it on the board):" }]);
    }
    const { pieces, overlays } = this.steps.boards(puzzle.position);
    if (!this.steps.stepping() && this.move && moveCells(this.move).length) {
      // your answer, green when it wins; when it does not, a winning move drawn beside it
      overlays.push({ seat: player, cells: moveCells(this.move), kind: answer && answer.correct ? "best" : "played", testid: "answer-move" });
    }
    const winning = answer ? answer.details.winning : [];
    if (!this.steps.stepping() && answer && !answer.correct && winning.length && moveCells(winning[0]).length) {
      overlays.push({ seat: player, cells: moveCells(winning[0]), kind: "best", testid: "winning-move" });
    }
    this.show(puzzle, { pieces, overlays });
  }

  /** @param {any} puzzle */
  task(puzzle) {
    const e = puzzle.details;
    const wins = `${e.winning} of them ${e.winning === 1 ? "wins" : "win"}`;
    const level = `Difficulty ${puzzle.difficulty} of 5.`;
    if (puzzle.position.pending_leather) return `You move: place your leather patch where it wins. ${count(e.legal, "distinct place")}, ${wins}. ${level}`;
    return `You move: find a winning move. ${count(e.legal, "distinct move")}, ${wins}. ${level}`;
  }

  /** @param {any} puzzle @param {any} a */
  verdict(puzzle, a) {
    const yours = a.line_words[0];  // the line of best play starts with your move
    if (a.correct) return `Your move, ${yours}, wins: with best play you win ${byWords(a.margin)}.`;
    const win = a.details.winning.length ? ` A winning move was ${a.details.winning_words[0]} (drawn in green).` : "";
    return `Your move, ${yours} (drawn in red), loses: best play refutes it and you lose ${byWords(a.margin)}.${win}`;
  }

  /** The line of best play, move by move (each a button showing it on the board), and the winning moves. @param {any} puzzle @param {any} a @param {HTMLElement} box */
  proof(puzzle, a, box) {
    box.replaceChildren();
    this.steps.list(box, puzzle.position.player);
    const { winning, winning_words } = a.details;
    const shown = winning_words.slice(0, 5).join("; ");
    const more = winning.length > 5 ? `; and ${winning.length - 5} more` : "";
    const title = winning.length === 1 ? "The winning move" : `Winning moves (${winning.length})`;
    html("p", { id: "verdict-winning" }, box, `${title}: ${shown}${more}.`);
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
