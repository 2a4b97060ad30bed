// position.js: PositionBoard, a whole position on the page: both quilts with their figures, the
// offers (with Rotate, Flip, Place, Cancel and Advance), what comes next and the time track. The
// player to move places patches on their own quilt with a Placer. Every page that shows a position
// shows it with this (the game page, the endgame puzzles and exercises, the analysis board, which
// plays moves for either side: each quilt has its own Placer, live while its player moves), so
// what the offers, the tray and Advance say is said once.
//
//   new PositionBoard(container, {prefix, catalogue, panels, canAct(), play(move), changed(), prefer?})
//     panels: two {key, title, who, token: {cls, letter}, plays?} in screen order ("you", "Your
//     quilt", "you", {cls: "human", letter: "Y"}); plays: false for a seat nobody on this page
//     moves (the AI's). Ids are the prefix and the key: #P-quilt-KEY (role application while its
//     player moves here, else img), #P-stats-KEY, #P-KEY-title, #P-offers, #P-rotate, #P-flip,
//     #P-place, #P-cancel, #P-advance, #P-tray-shape, #P-tray-caption, #P-upcoming, #P-track
//     (tokens data-testid token-KEY); an empty prefix leaves out "P-". container: where the board
//     is built from nothing; null: the page has laid out those elements itself (the game page) and
//     the board adopts them. play(move): a move in the API's JSON, made on the board; changed():
//     the page redraws (and calls show again); prefer(pid): how a patch chosen from the offers is
//     first held ({selected, hover}: a hint's placement), or null.
//     .show(position, {seats, pieces?, overlays?, spans?, titles?, top?})
//       position: the API's view of a position ({state, boards, offers, upcoming, pending_leather});
//       a board is {pieces, given?}: given, covered cells drawn plain (a quilt known only by its
//       cells: a position from the notation); seats: the seat each panel shows; pieces: each seat's
//       patches to draw instead of the position's (a line played on); overlays: [{seat, cells,
//       kind, label?, testid?}] on the quilts; spans: spaces shaded on the track (track.js's spans:
//       an advance drawn, as a best move); titles: each panel's heading, said by the page (else
//       its title, "(to move)" added for the mover); top: the token on top on a shared space
//       (else the mover's)
//     .drawSide()        the offers, the tray, the buttons and what comes next, redrawn
//     .views, .placers   each panel's QuiltView and Placer, in screen order
//     .placer()          the Placer of the player to move (R, F and Escape are the page's keys)
//     .start(position, seats)  a new position: nothing in hand but a waiting leather patch (show next)
//     .cancel()          the patch in hand put back (not a waiting leather patch)

import { SVG_NS, html, showError } from "./dom.js";
import { LEATHER, LEATHER_SELECTION, coveredSet, selection } from "./geometry.js";
import { drawShape, patchCard, patchColour } from "./patch.js";
import { Placer, drawTray } from "./placer.js";
import { QuiltView } from "./quilt.js";
import { drawStats, drawTrack } from "./track.js";
import { LANG, t, tn } from "./i18n.js";

// Translators: a quilt's label for screen readers: {quilt} is its title, such as "Your quilt".
const quiltHelp = (/** @type {string} */ quilt) => t("{quilt}: choose a patch, then the arrow keys move it, R and F turn it, Enter places it, Escape cancels", { quilt });

/** @typedef {{key: string, title: string, who: string, token: {cls: string, letter: string}, plays?: boolean}} Panel */

/** @param {string} id @param {string} cls @param {Element} parent @returns {SVGSVGElement} */
function svgBox(id, cls, parent) {
  const box = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
  box.id = id;
  box.setAttribute("class", cls);
  parent.appendChild(box);
  return box;
}

/** "your quilt", "the AI's quilt", "player 1's quilt": a title as the middle of a sentence. @param {string} title */
const lowered = (title) => (LANG === "en" ? title.charAt(0).toLowerCase() + title.slice(1) : title);

/** The element of the page with that id (the board adopts the page's own layout). @param {string} id @returns {any} */
function adopted(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`PositionBoard: the page has no #${id}`);
  return el;
}

export class PositionBoard {
  /**
   * @param {HTMLElement|null} container
   * @param {{prefix: string, catalogue: any, panels: Panel[], canAct: () => boolean,
   *   play: (move: any) => void, changed: () => void,
   *   prefer?: (pid: number) => ({selected: any, hover: [number, number]}|null)}} o
   */
  constructor(container, o) {
    this.o = o;
    /** @type {any} */ this.position = null;
    /** @type {number[]} */ this.seats = [0, 1];
    /** @param {string} name */
    this.id = (name) => (o.prefix ? `${o.prefix}-${name}` : name);
    const id = this.id;
    const boards = container ? html("div", { class: "position-boards", id: id("boards") }, container) : null;
    /** @type {HTMLElement[]} */ this.titles = [];
    /** @type {HTMLElement[]} */ this.stats = [];
    this.views = o.panels.map((panel) => {
      if (!boards) {
        this.titles.push(adopted(id(`${panel.key}-title`)));
        this.stats.push(adopted(id(`stats-${panel.key}`)));
        return new QuiltView(adopted(id(`quilt-${panel.key}`)));
      }
      const box = html("div", { class: "board" }, boards);
      this.titles.push(html("h2", { id: id(`${panel.key}-title`) }, box));
      const view = new QuiltView(svgBox(id(`quilt-${panel.key}`), "quilt", box));
      this.stats.push(html("dl", { class: "stats", id: id(`stats-${panel.key}`) }, box));
      return view;
    });
    /** @param {number} i */
    this.plays = (i) => o.panels[i].plays !== false && this.mover() === this.seats[i];
    this.placers = this.views.map((view, i) => new Placer(view, {
      catalogue: o.catalogue,
      canAct: () => o.canAct() && this.plays(i),
      covered: () => {
        const board = this.position.boards[this.seats[i]];
        return coveredSet(board.pieces, board.given || []);
      },
      commit: (at) => this.commit(this.placers[i], at),
      changed: o.changed,
    }));
    if (container && boards) {
      this.buildSide(boards);
      this.track = svgBox(id("track"), "track", container);
      this.track.setAttribute("role", "img");
      this.track.setAttribute("aria-label", t("time track"));
      legendOf(o.panels, html("p", { class: "legend" }, container));
    } else this.adoptSide();
    const b = this.buttons;
    b.rotate.addEventListener("click", () => this.placer().turn("rotate"));
    b.flip.addEventListener("click", () => this.placer().turn("flip"));
    b.place.addEventListener("click", () => this.placer().place());
    b.cancel.addEventListener("click", () => this.cancel());
    b.advance.addEventListener("click", () => this.position && this.acting() && o.play({ type: "advance" }));
  }

  /** The offers, the tray, the buttons and what comes next. @param {HTMLElement} boards */
  buildSide(boards) {
    const id = this.id;
    const side = html("div", { class: "side" }, boards);
    html("h2", {}, side, t("On offer"));
    this.offers = html("div", { class: "offers", id: id("offers") }, side);
    const tray = html("div", { class: "tray" }, side);
    this.trayShape = svgBox(id("tray-shape"), "tray-shape", tray);
    this.trayShape.setAttribute("role", "img");
    this.trayShape.setAttribute("aria-label", t("the chosen patch as it will be placed"));
    this.trayCaption = html("p", { class: "tray-caption", id: id("tray-caption") }, tray);
    const controls = html("div", { class: "controls" }, side);
    /** @type {Record<string, HTMLButtonElement>} */
    this.buttons = {};
    for (const [name, label, keys] of CONTROLS()) {
      const button = /** @type {HTMLButtonElement} */ (html("button", { type: "button", id: id(name) }, controls, label));
      if (keys) button.setAttribute("aria-keyshortcuts", keys);
      this.buttons[name] = button;
    }
    html("h3", {}, side, t("Coming next"));
    this.upcoming = html("div", { class: "upcoming-ids", id: id("upcoming") }, side);
  }

  /** The page's own offers, tray, buttons, what comes next and track (the game page lays them out). */
  adoptSide() {
    const id = this.id;
    this.offers = adopted(id("offers"));
    this.trayShape = adopted(id("tray-shape"));
    this.trayCaption = adopted(id("tray-caption"));
    /** @type {Record<string, HTMLButtonElement>} */
    this.buttons = {};
    for (const [name] of CONTROLS()) this.buttons[name] = adopted(id(name));
    this.upcoming = adopted(id("upcoming"));
    this.track = adopted(id("track"));
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

  /** Whether the page may act for the seat to move now. */
  acting() {
    const i = this.seats.indexOf(this.mover());
    return i >= 0 && this.o.canAct() && this.plays(i);
  }

  cancel() {
    if (this.position && this.position.pending_leather) return;  // the leather patch must be placed
    this.placer().choose(null);
    showError(null);  // a refused placement of it no longer applies
    this.o.changed();
  }

  /** @param {any} position @param {number[]} seats */
  start(position, seats) {
    this.position = position;
    this.seats = seats;
    for (const placer of this.placers) placer.choose(null);
    const i = seats.indexOf(this.mover());
    if (position.pending_leather && i >= 0 && this.o.panels[i].plays !== false) this.placer().choose(LEATHER_SELECTION);
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
   *   spans?: {from: number, to: number, kind: string, label?: string}[], titles?: string[], top?: number}} o
   */
  show(position, { seats, pieces, overlays = [], spans = [], titles, top }) {
    this.position = position;
    this.seats = seats;
    const mover = this.mover();
    this.o.panels.forEach((panel, i) => {
      const seat = seats[i], view = this.views[i], moves = this.plays(i);
      view.svg.setAttribute("role", moves ? "application" : "img");
      view.svg.setAttribute("tabindex", moves ? "0" : "-1");
      view.svg.setAttribute("aria-label", moves ? quiltHelp(lowered(panel.title)) : lowered(panel.title));
      // Translators: a quilt's title when its player is to move, such as "Player 1's quilt (to move)".
      this.titles[i].textContent = titles ? titles[i] : seat === mover ? t("{title} (to move)", { title: panel.title }) : panel.title;
      view.show({ given: position.boards[seat].given || [], pieces: pieces ? pieces[seat] : position.boards[seat].pieces });
      for (const o of overlays.filter((x) => x.seat === seat)) view.overlay(o.cells, o.kind, { label: o.label, testid: o.testid });
      this.placers[i].drawPreview();
      drawStats(this.stats[i], position.state.players[seat]);
    });
    this.drawSide();
    /** @type {any[]} */
    const tokens = [];
    this.o.panels.forEach((panel, i) => { tokens[seats[i]] = { ...panel.token, testid: `token-${panel.key}` }; });
    const onTop = top === undefined ? Math.max(mover, 0) : top;
    drawTrack(this.track, { catalogue: this.o.catalogue, state: position.state, tokens, top: onTop, spans });
  }

  drawSide() {
    const position = this.position, placer = this.placer(), act = this.acting();
    const chosen = placer.selected, buying = act && !position.pending_leather;
    const me = position.state.players[Math.max(this.mover(), 0)];
    this.offers.replaceChildren();
    for (const offer of position.offers) {
      const mine = !!chosen && chosen.patch === offer.patch;
      // why the player to move cannot buy it (the server says whether: offer.buyable)
      const why = offer.buyable || this.mover() < 0 || position.pending_leather ? ""
        : me.buttons < offer.cost ? t("(too dear)") : t("(does not fit)");
      const { card, picture } = patchCard({
        catalogue: this.o.catalogue, pid: offer.patch, shape: mine ? chosen : null, pressed: mine,
        facts: [[t("cost"), offer.cost], [t("time"), offer.time], [t("income"), offer.income]],
        note: why, usable: offer.buyable && buying,
        onChoose: (pid) => this.choose(pid),
      });
      if (offer.buyable && buying) placer.draggable(picture, () => this.choose(offer.patch, true));
      this.offers.appendChild(card);
    }
    this.drawUpcoming(position.upcoming.slice(0, 9));
    const gain = Math.max(me.advance_to - me.position, 0);  // the server's advance_to: the rule is the engine's
    const b = this.buttons;
    // Translators: the Advance button, with the buttons the move takes.
    b.advance.textContent = tn("Advance (+{count} button)", "Advance (+{count} buttons)", gain);
    b.advance.disabled = !act || position.pending_leather;
    b.rotate.disabled = b.flip.disabled = !act || !chosen || chosen.patch === LEATHER;
    b.place.disabled = !act || !chosen || !placer.hover;
    b.cancel.disabled = !act || !chosen || position.pending_leather;
    const name = !chosen ? "" : chosen.patch === LEATHER ? t("The leather patch") : t("Patch {patch}", { patch: `#${chosen.patch}` });
    drawTray(this.trayShape, this.trayCaption, placer, name);
  }

  /** What comes after the offers: each patch's picture, named by its figures. @param {number[]} pids */
  drawUpcoming(pids) {
    this.upcoming.replaceChildren();
    for (const pid of pids) {
      const p = this.o.catalogue.patches[pid];
      // Translators: a patch coming next, named by its id and figures.
      const title = t("{patch}: cost {cost}, time {time}, income {income}", { patch: `#${pid}`, cost: p.cost, time: p.time, income: p.income });
      const item = html("span", { class: "upcoming", title }, this.upcoming);
      const picture = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
      picture.setAttribute("role", "img");
      picture.setAttribute("aria-label", title);
      drawShape(picture, p.orientations[0], patchColour(pid), 8);
      item.appendChild(picture);
    }
  }

  /** @param {number} pid @param {boolean} [forDrag] a drag from the card's picture: keep the turn */
  choose(pid, forDrag = false) {
    if (!this.acting() || this.position.pending_leather) return false;
    const placer = this.placer();
    if (!(forDrag && placer.selected && placer.selected.patch === pid)) {
      placer.choose(selection(this.o.catalogue, pid), { focus: !forDrag });
      const preferred = this.o.prefer ? this.o.prefer(pid) : null;
      if (preferred) {
        placer.choose(preferred.selected, { focus: !forDrag });
        placer.hover = preferred.hover;
        placer.armed = true;
      }
    }
    this.o.changed();
    return true;
  }
}

/** The placement buttons and Advance: [name, label, keys]. */
const CONTROLS = () => [["rotate", t("Rotate ⟳"), "R"], ["flip", t("Flip ⇋"), "F"], ["place", t("Place"), "Enter"],
  ["cancel", t("Cancel"), "Escape"], ["advance", t("Advance"), ""]];

/** The track's legend: each panel's token, then the marks. @param {Panel[]} panels @param {HTMLElement} legend */
function legendOf(panels, legend) {
  for (const panel of panels) {
    html("span", { class: `dot ${panel.token.cls}` }, legend, panel.token.letter);
    legend.append(` ${panel.who} · `);
  }
  html("span", { class: "dot mark" }, legend);
  legend.append(` ${t("income mark")} · `);
  html("span", { class: "sq" }, legend);
  legend.append(` ${t("leather patch")} · ${t("53: the end")}`);
}
