// puzzles/kinds/exercise.js: "find a better move": the position before a move of your own game that
// its review called a mistake or a blunder ("Practise your mistakes" under the review makes them).
// The visitor moves as in a game (a MoveBoard), the move played in the game outlined in red
// dashes; any move the review would not call a mistake is right, except that one. The verdict is
// the server's judgement in its words; the best move is drawn in green (an advance shaded on the
// track), and the proof says why the move played was worse, with the play expected after it (the
// line that refutes it) and after the best move, each move a step on the board (← and →). A kind
// module (kinds/index.js describes the interface); exercises are not rated, and a missed one comes
// back until it is solved.

import { html } from "../../components/dom.js";
import { moveCells } from "../../components/geometry.js";
import { capital, pct, points } from "../../components/words.js";
import { MoveBoard } from "../moveboard.js";
import { t } from "../../components/i18n.js";

class ExerciseBoard extends MoveBoard {
  /** @param {any} page */
  constructor(page) {
    super(page, { id: "exercise", prefix: "ex" });
    this.legend = html("p", { class: "legend", id: "ex-legend" }, this.section);
    this.rated = false;  // exercises move no rating
    this.setNote = t("A mistake of your game, as an exercise");  // the note over a set of them
  }

  /** A move of the player to move drawn: its cells on their quilt, or an advance's spaces on the track.
   * @param {any} puzzle @param {any} move @param {string} kind @param {string} testid @param {string} label
   * @param {{overlays: any[], spans: any[]}} into */
  mark(puzzle, move, kind, testid, label, into) {
    const p = puzzle.position, cells = moveCells(move);
    if (cells.length) into.overlays.push({ seat: p.player, cells, kind, testid });
    else if (move.type === "advance") {
      const me = p.state.players[p.player];
      into.spans.push({ from: me.position, to: me.advance_to, kind: kind === "mistake" ? "played" : kind, label });
    }
  }

  /** @param {any} puzzle @param {any} answer */
  draw(puzzle, answer) {
    const p = puzzle.position;
    if (answer) {
      const d = answer.details;
      this.steps.set([
        { key: "refutation", moves: d.refutation, players: d.refutation_players, words: d.refutation_words,
          title: t("The play expected after your move in the game, the line that refutes it (choose a move, or ← and →, to see it on the board):") },
        { key: "best-line", moves: d.best_line, players: d.best_line_players, words: d.best_line_words,
          title: t("The play expected after the best move:") },
      ]);
    }
    const { pieces, overlays } = this.steps.boards(p);
    const drawn = { overlays, spans: /** @type {any[]} */ ([]) };
    if (!this.steps.stepping()) {
      // Translators: labels of moves drawn on the time track: the move played in the game, your answer, the best move.
      if (!answer) this.mark(puzzle, puzzle.details.played, "mistake", "game-move", t("played"), drawn);
      if (this.move) this.mark(puzzle, this.move, answer && answer.correct ? "best" : "played", "answer-move", t("yours"), drawn);
      if (answer && answer.details.label !== "best") this.mark(puzzle, answer.details.best_move, "best", "best-move", t("best"), drawn);
    }
    this.show(puzzle, { pieces, overlays: drawn.overlays, spans: drawn.spans });
    this.legend.textContent = answer
      ? t("Drawn: your answer (green when it is right, red when not) and the best move (green dashes); an advance is shaded on the track.")
      : t("Drawn: the move you played in the game (red dashes; an advance is shaded on the track).");
  }

  /** @param {any} puzzle */
  task(puzzle) {
    const d = puzzle.details;
    const said = { move: d.ply + 1, played: d.played_words, loss: pct(d.loss), points: points(d.points_lost),
      where: d.played.type === "advance" ? t("shaded on the track") : t("outlined in red") };
    // Translators: {played} is the move in words; {loss} a win chance such as 12%; {points} such as "2.5 points"; {where} how it is drawn.
    const chose = d.label === "blunder"
      ? t("Move {move} of your game: you chose to {played}, a blunder: {loss} of win chance and {points} lost against the best move (yours is {where}).", said)
      : t("Move {move} of your game: you chose to {played}, a mistake: {loss} of win chance and {points} lost against the best move (yours is {where}).", said);
    return [chose, t("Find a better move: any move the review would not call a mistake is right."),
      t("Difficulty {difficulty} of 5.", { difficulty: puzzle.difficulty })].join(" ");
  }

  /** The server's judgement (its text, without the why the proof shows). @param {any} puzzle @param {any} a */
  verdict(puzzle, a) {
    const why = a.details.why;
    const judged = a.text.endsWith(why) ? a.text.slice(0, a.text.length - why.length).trim() : a.text;
    return capital(judged);
  }

  /** Why the move played was worse, and the lines after it and after the best move. @param {any} puzzle @param {any} a @param {HTMLElement} box */
  proof(puzzle, a, box) {
    box.replaceChildren();
    const d = a.details;
    const why = html("p", { id: "verdict-why", "data-testid": "verdict-why" }, box);
    html("b", {}, why, `${t("Why it was worse:")} `);
    why.append(d.worse);
    this.steps.list(box, puzzle.position.player);
  }
}

export default {
  kind: "exercise",
  label: t("find a better move"),
  about: t("a position from one of your own games, before a move the review called a mistake or a blunder. "
    + "Any move the review would not call a mistake is right, except the one you played; the verdict draws "
    + "the best move and says why yours was worse, with the play that refutes it."),
  /** @param {any} page */
  mount: (page) => new ExerciseBoard(page),
};
