// puzzles/kinds/endgame.js: "find the winning move": a late position of a real game where only a
// few moves win. The visitor moves as in a game (a MoveBoard); the verdict says whether the move
// wins, with the line of best play to step through on the board (← and →) and the winning moves,
// every move in the server's words (the verdict's line_words and its details' winning_words). A
// kind module (kinds/index.js describes the interface).

import { html } from "../../components/dom.js";
import { moveCells } from "../../components/geometry.js";
import { byWords } from "../../components/words.js";
import { MoveBoard } from "../moveboard.js";
import { t, tn } from "../../components/i18n.js";

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
        title: t("Best play from here, move by move (choose one, or ← and →, to see it on the board):") }]);
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
    const wins = tn("{count} of them wins", "{count} of them win", e.winning);
    const level = t("Difficulty {difficulty} of 5.", { difficulty: puzzle.difficulty });
    // Translators: {choices} is "12 distinct moves" (or places), {wins} "2 of them win".
    const figures = (/** @type {string} */ choices) => t("{choices}, {wins}.", { choices, wins });
    if (puzzle.position.pending_leather) {
      return [t("You move: place your leather patch where it wins."),
        figures(tn("{count} distinct place", "{count} distinct places", e.legal)), level].join(" ");
    }
    return [t("You move: find a winning move."), figures(tn("{count} distinct move", "{count} distinct moves", e.legal)), level].join(" ");
  }

  /** @param {any} puzzle @param {any} a */
  verdict(puzzle, a) {
    const yours = a.line_words[0];  // the line of best play starts with your move
    // Translators: {move} is your move in words; {how} is "by 3 points" or "on the tie-break".
    if (a.correct) return t("Your move, {move}, wins: with best play you win {how}.", { move: yours, how: byWords(a.margin) });
    const lost = t("Your move, {move} (drawn in red), loses: best play refutes it and you lose {how}.", { move: yours, how: byWords(a.margin) });
    return a.details.winning.length ? `${lost} ${t("A winning move was {move} (drawn in green).", { move: a.details.winning_words[0] })}` : lost;
  }

  /** The line of best play, move by move (each a button showing it on the board), and the winning moves. @param {any} puzzle @param {any} a @param {HTMLElement} box */
  proof(puzzle, a, box) {
    box.replaceChildren();
    this.steps.list(box, puzzle.position.player);
    const { winning, winning_words } = a.details;
    const shown = winning_words.slice(0, 5).join("; ");
    // Translators: {moves} are winning moves in words, separated by semicolons.
    const text = winning.length === 1 ? t("The winning move: {moves}.", { moves: shown })
      : winning.length > 5 ? t("Winning moves ({count}): {moves}; and {more} more.", { count: winning.length, moves: shown, more: winning.length - 5 })
        : t("Winning moves ({count}): {moves}.", { count: winning.length, moves: shown });
    html("p", { id: "verdict-winning" }, box, text);
  }
}

export default {
  kind: "endgame",
  label: t("find the winning move"),
  about: t("a late position of a real game, where only a few moves win. Make your move as in a game; the "
    + "exact search, which checks every way the rest of the game can go, says whether it wins and shows "
    + "the line of best play."),
  /** @param {any} page */
  mount: (page) => new EndgameBoard(page),
};
