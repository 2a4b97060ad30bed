// position.js: PositionBoard, a whole position on the page: both quilts with their figures, the
// offers (with Rotate, Flip, Place, Cancel and Advance), what comes next and the time track. The
// player to move places patches on their own quilt with a Placer. Built into a container from
// nothing, so any page shows a position with it (the endgame puzzles; the analysis board, which
// plays moves for either side: each quilt has its own Placer, live while its player moves).
//
//   new PositionBoard(container, {prefix, catalogue, panels, canAct(), play(move), changed()})
//     panels: two {key, title, who, token: {cls, letter}} in screen order ("you", "Your quilt",
//     "you", {cls: "human", letter: "Y"}); ids are the prefix and the key: #P-quilt-KEY (role
//     application while its player moves, else img), #P-stats-KEY, #P-KEY-title, #P-offers,
//     #P-rotate, #P-flip, #P-place, #P-cancel, #P-advance, #P-tray-shape, #P-upcoming, #P-track
//     (tokens data-testid token-KEY). play(move): a move in the API's JSON, made on the board;
//     changed(): the page redraws (and calls show again).
//     .show(position, {seats, pieces?, overlays?, spans?})
//       position: the API's view of a position ({state, boards, offers, upcoming, pending_leather});
//       a board is {pieces, given?}: given, covered cells drawn plain (a quilt known only by its
//       cells: a position from the notation); seats: the seat each panel shows; pieces: each seat's
//       patches to draw instead of the position's (a line played on); overlays: [{seat, cells,
//       kind, label?, testid?}] on the quilts; spans: spaces shaded on the track (track.js's spans:
//       an advance drawn, as a best move)
//     .placer()          the Placer of the player to move (R, F and Escape are the page's keys)
//     .start(position, seats)  a new position: nothing in hand but a waiting leather patch (show next)
//     .cancel()          the patch in hand put back (not a waiting leather patch)

import { SVG_NS, html } from "./dom.js";
import { LEATHER, LEATHER_SELECTION, coveredSet, selection } from "./geometry.js";
import { patchCard } from "./patch.js";
import { Placer, drawTray } from "./placer.js";
import { QuiltView } from "./quilt.js";
import { drawStats, drawTrack } from "./track.js";
import { count } from "./words.js";

const QUILT_HELP = "choose a patch, then the arrow keys move it, R and F turn it, Enter places it, Escape cancels";

/** @typedef {{key: string, title: string, who: string, token: {cls: string, letter: string}}} Panel */

/** @param {string} id @param {string} cls @param {Element} parent @returns {SVGSVGElement} */
function svgBox(id, cls, parent) {
  const box = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
  box.id = id;
  box.setAttribute("class", cls);
  parent.appendChild(box);
  return box;
}

export class PositionBoard {
  /**
   * @param {HTMLElement} container
   * @param {{prefix: string, catalogue: any, panels: Panel[], canAct: () => boolean,
   *   play: (move: any) => void, changed: () => void}} o
   */
  constructor(container, o) {
    this.o = o;
    /** @type {any} */ this.position = null;
    /** @type {number[]} */ this.seats = [0, 1];
    const p = o.prefix;
    const boards = html("div", { class: "position-boards", id: `${p}-boards` }, container);
    /** @type {HTMLElement[]} */ this.titles = [];
    /** @type {HTMLElement[]} */ this.stats = [];
    this.views = o.panels.map((panel) => {
      const box = html("div", { class: "board" }, boards);
      this.titles.push(html("h2", { id: `${p}-${panel.key}-title` }, box));
      const view = new QuiltView(svgBox(`${p}-quilt-${panel.key}`, "quilt", box));
      this.stats.push(html("dl", { class: "stats", id: `${p}-stats-${panel.key}` }, box));
      return view;
    });
    this.placers = this.views.map((view, i) => new Placer(view, {
      catalogue: o.catalogue,
      canAct: () => o.canAct() && this.mover() === this.seats[i],
      covered: () => {
        const board = this.position.boards[this.seats[i]];
        return coveredSet(board.pieces, board.given || []);
      },
      commit: (at) => this.commit(this.placers[i], at),
      changed: o.changed,
    }));
    this.buildSide(boards);
    this.track = svgBox(`${p}-track`, "track", container);
    this.track.setAttribute("role", "img");
    this.track.setAttribute("aria-label", "time track");
    legendOf(o.panels, html("p", { class: "legend" }, container));
    const b = this.buttons;
    b.rotate.addEventListener("click", () => this.placer().turn("rotate"));
    b.flip.addEventListener("click", () => this.placer().turn("flip"));
    b.place.addEventListener("click", () => this.placer().place());
    b.cancel.addEventListener("click", () => this.cancel());
    b.advance.addEventListener("click", () => o.canAct() && this.position && o.play({ type: "advance" }));
  }

  /** The offers, the tray, the buttons and what comes next. @param {HTMLElement} boards */
  buildSide(boards) {
    const p = this.o.prefix;
    const side = html("div", { class: "side" }, boards);
    html("h2", {}, side, "On offer");
    this.offers = html("div", { class: "offers", id: `${p}-offers` }, side);
    const tray = html("div", { class: "tray" }, side);
    this.trayShape = svgBox(`${p}-tray-shape`, "tray-shape", tray);
    this.trayShape.setAttribute("role", "img");
    this.trayShape.setAttribute("aria-label", "the chosen patch as it will be placed");
    this.trayCaption = html("p", { class: "tray-caption" }, tray);
    const controls = html("div", { class: "controls" }, side);
    /** @type {Record<string, HTMLButtonElement>} */
    this.buttons = {};
    for (const [name, label, keys] of [["rotate", "Rotate ⟳", "R"], ["flip", "Flip ⇋", "F"], ["place", "Place", "Enter"],
      ["cancel", "Cancel", "Escape"], ["advance", "Advance", ""]]) {
      const button = /** @type {HTMLButtonElement} */ (html("button", { type: "button", id: `${p}-${name}` }, controls, label));
      if (keys) button.setAttribute("aria-keyshortcuts", keys);
      this.buttons[name] = button;
    }
    html("h3", {}, side, "Coming next");
    this.upcoming = html("p", { class: "upcoming-ids", id: `${p}-upcoming` }, side);
  }

  /** The seat to move, or -1 once the game is over. @returns {number} */
  mover() {
    const s = this.position ? this.position.state.to_move : null;
    return s === null || s === undefined ? -1 : s;
  }

  placer() {
    const i = this.seats.indexOf(this.mover());
    return this.placers[Math.max(i, 0)];
  }

  cancel() {
    if (this.position && this.position.pending_leather) return;  // the leather patch must be placed
    this.placer().choose(null);
    this.o.changed();
  }

  /** @param {any} position @param {number[]} seats */
  start(position, seats) {
    this.position = position;
    this.seats = seats;
    for (const placer of this.placers) placer.choose(null);
    if (position.pending_leather) this.placer().choose(LEATHER_SELECTION);
  }

  /** @param {Placer} placer @param {{cells: [number, number][]}} at */
  commit(placer, at) {
    const sel = placer.selected;
    if (!sel) return;
    this.o.play(sel.patch === LEATHER ? { type: "leather", cell: at.cells[0] } : { type: "buy", patch: sel.patch, cells: at.cells });
  }

  /**
   * @param {any} position
   * @param {{seats: number[], pieces?: any[][], overlays?: {seat: number, cells: [number, number][], kind: string, label?: string, testid?: string}[],
   *   spans?: {from: number, to: number, kind: string, label?: string}[]}} o
   */
  show(position, { seats, pieces, overlays = [], spans = [] }) {
    this.position = position;
    this.seats = seats;
    const mover = this.mover();
    this.o.panels.forEach((panel, i) => {
      const seat = seats[i], view = this.views[i], moves = seat === mover;
      view.svg.setAttribute("role", moves ? "application" : "img");
      view.svg.setAttribute("tabindex", moves ? "0" : "-1");
      view.svg.setAttribute("aria-label", moves ? `${panel.title.toLowerCase()}: ${QUILT_HELP}` : panel.title.toLowerCase());
      this.titles[i].textContent = moves ? `${panel.title} (to move)` : panel.title;
      view.show({ given: position.boards[seat].given || [], pieces: pieces ? pieces[seat] : position.boards[seat].pieces });
      for (const o of overlays.filter((x) => x.seat === seat)) view.overlay(o.cells, o.kind, { label: o.label, testid: o.testid });
      this.placers[i].drawPreview();
      drawStats(this.stats[i], position.state.players[seat]);
    });
    this.drawSide();
    /** @type {any[]} */
    const tokens = [];
    this.o.panels.forEach((panel, i) => { tokens[seats[i]] = { ...panel.token, testid: `token-${panel.key}` }; });
    drawTrack(this.track, { catalogue: this.o.catalogue, state: position.state, tokens, top: Math.max(mover, 0), spans });
  }

  drawSide() {
    const position = this.position, placer = this.placer(), act = this.o.canAct() && this.mover() >= 0;
    const chosen = placer.selected, buying = act && !position.pending_leather;
    this.offers.replaceChildren();
    for (const offer of position.offers) {
      const mine = !!chosen && chosen.patch === offer.patch;
      const { card, picture } = patchCard({
        catalogue: this.o.catalogue, pid: offer.patch, shape: mine ? chosen : null, pressed: mine,
        facts: [["cost", offer.cost], ["time", offer.time], ["income", offer.income]],
        note: offer.buyable ? "" : "(cannot buy)", usable: offer.buyable && buying,
        onChoose: (pid) => this.choose(pid),
      });
      if (offer.buyable && buying) placer.draggable(picture, () => this.choose(offer.patch, true));
      this.offers.appendChild(card);
    }
    this.upcoming.textContent = position.upcoming.slice(0, 9).map((/** @type {number} */ p) => `#${p}`).join(" ");
    const seat = Math.max(this.mover(), 0);
    const me = position.state.players[seat];
    const gain = Math.max(me.advance_to - me.position, 0);  // the server's advance_to: the rule is the engine's
    const b = this.buttons;
    b.advance.textContent = `Advance (+${count(gain, "button")})`;
    b.advance.disabled = !act || position.pending_leather;
    b.rotate.disabled = b.flip.disabled = !act || !chosen || chosen.patch === LEATHER;
    b.place.disabled = !act || !chosen || !placer.hover;
    b.cancel.disabled = !act || !chosen || position.pending_leather;
    const name = !chosen ? "" : chosen.patch === LEATHER ? "The leather patch" : `Patch #${chosen.patch}`;
    drawTray(this.trayShape, this.trayCaption, placer, name);
  }

  /** @param {number} pid @param {boolean} [forDrag] a drag from the card's picture: keep the turn */
  choose(pid, forDrag = false) {
    if (!this.o.canAct() || this.position.pending_leather) return false;
    const placer = this.placer();
    if (!(forDrag && placer.selected && placer.selected.patch === pid)) {
      placer.choose(selection(this.o.catalogue, pid), { focus: !forDrag });
    }
    this.o.changed();
    return true;
  }
}

/** The track's legend: each panel's token, then the marks. @param {Panel[]} panels @param {HTMLElement} legend */
function legendOf(panels, legend) {
  for (const panel of panels) {
    html("span", { class: `dot ${panel.token.cls}` }, legend, panel.token.letter);
    legend.append(` ${panel.who} · `);
  }
  html("span", { class: "dot mark" }, legend);
  legend.append(" income mark · ");
  html("span", { class: "sq" }, legend);
  legend.append(" leather patch · 53: the end");
}
