// puzzles/moveboard.js: MoveBoard, what the kinds answered by a move have in common (the endgame, the
// exercise): the puzzle's position (the view's `position`) on a PositionBoard where the visitor
// moves as in a game, the move answered, and the verdict's lines stepped through (line.js). A kind
// extends it with draw, task, verdict and proof (kinds/index.js describes a board).
//
//   new MoveBoard(page, {id, prefix})   its <section id> in page.main; the PositionBoard's id prefix
//     .move                the move answered (null before, or when the answer was refused)
//     .steps               the LineSteps of the verdict's lines
//     .show(puzzle, {pieces, overlays, spans?})   the position drawn, the visitor's seat first
//   and the board's start, workshop, analysis, placer, cancel and key.

import { html } from "../components/dom.js";
import { analysisHref, workshopHref } from "../components/nav.js";
import { PositionBoard } from "../components/position.js";
import { LineSteps } from "./line.js";
import { t } from "../components/i18n.js";

export const PANELS = [
  { key: "you", title: t("Your quilt"), who: t("you"), token: { cls: "human", letter: "Y" } },
  { key: "other", title: t("The other player's quilt"), who: t("the other player"), token: { cls: "ai", letter: "O" } },
];

export class MoveBoard {
  /** @param {any} page @param {{id: string, prefix: string}} o */
  constructor(page, { id, prefix }) {
    this.page = page;
    this.section = html("section", { id, hidden: true }, page.main);
    /** @type {any} */ this.move = null;
    this.steps = new LineSteps(page.catalogue, page.changed);
    this.board = new PositionBoard(this.section, {
      prefix, catalogue: page.catalogue, panels: PANELS, canAct: page.canAct,
      play: (/** @type {any} */ move) => this.answerMove(move), changed: page.changed,
    });
  }

  /** @param {any} puzzle */
  start(puzzle) {
    const p = puzzle.position;
    this.move = null;
    this.steps.reset();
    this.board.start(p, [p.player, 1 - p.player]);
  }

  /** @param {any} move */
  async answerMove(move) {
    this.move = move;
    const answer = await this.page.answer({ move });
    if (!answer) this.move = null;
    this.board.placer().choose(null);  // the patch in hand is put down: the card and the tray show none
    this.page.changed();
  }

  /** @param {any} puzzle @param {{pieces: any[][], overlays: any[], spans?: any[]}} drawn */
  show(puzzle, { pieces, overlays, spans = [] }) {
    const p = puzzle.position;
    this.board.show(p, { seats: [p.player, 1 - p.player], pieces, overlays, spans });
  }

  /** The position, the mover's quilt. @param {any} puzzle */
  workshop(puzzle) {
    return workshopHref({ position: puzzle.position.state.position, player: puzzle.position.player });
  }

  /** The position on the analysis board (the page links it once the puzzle is answered). @param {any} puzzle */
  analysis(puzzle) {
    return analysisHref({ position: puzzle.position.state.position });
  }

  placer() {
    return this.board.placer();
  }

  cancel() {
    this.board.cancel();
  }

  /** ← and → step through the verdict's lines once answered. @param {KeyboardEvent} evt */
  key(evt) {
    return this.steps.key(evt);
  }
}
