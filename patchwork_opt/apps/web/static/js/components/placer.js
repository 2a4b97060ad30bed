// placer.js: the placement control, one way to place a patch for every device, attached to any
// QuiltView; and the tray that shows the patch in hand.
//
// Mouse and pen: the preview follows the pointer over the quilt, a click places; a patch dragged
// from a handle (a card's picture, the tray) and dropped on the quilt is placed there. Touch: a tap
// (or a drag) on the quilt shows the preview; a second tap on it, or place(), places it, so a mis-tap
// costs nothing. Keys (the quilt has the focus): the arrows move the preview, Enter or Space places.
// R, F and Escape are the page's (they act wherever the focus is): turn("rotate"), turn("flip"),
// choose(null).
//
//   new Placer(view, {catalogue, canAct(), covered(), commit(at), changed(), refused?(message)})
//     covered(): keys of the covered cells; commit(at): place at = {cells, buttons}; changed(): the
//     page redraws (and calls drawPreview); refused(message): why a placement was refused (default:
//     the page's error line)
//     .selected / .hover / .armed   the patch in hand (geometry's Selection) / the cell the preview
//                                   is centred on / a touch preview is showing (a tap on it places)
//     .choose(sel, {focus?})        take a patch in hand (null: none); focus: the quilt takes the
//                                   focus, so the arrow keys move the patch at once
//     .turn("rotate"|"flip"), .at(), .problem(at), .drawPreview(), .place(), .point(cell)
//     .draggable(handle, pick)      dragging from `handle` picks the patch up (pick() chooses it)
//     .justPlaced()                 the click being handled is the one that placed a patch
//   overlapped(shown, clash)      what a refused placement's covered cells lie on, in words: each patch
//                                 by its own rows and columns (problem()'s words)
//   drawTray(svg, caption, placer, name)  the patch in hand as it will be placed, in a frame that
//                                   keeps its size (nothing in hand: the empty frame)

import { SVG_NS, showError, svg } from "./dom.js";
import { LEATHER, SIZE, key, placedAt, turned } from "./geometry.js";
import { drawButtons, drawShape, patchColour } from "./patch.js";
import { CELL, outline } from "./quilt.js";
import { where } from "./words.js";
import { t, tn } from "./i18n.js";

/** @typedef {[number, number]} Cell */
/** @typedef {import("./geometry.js").Selection} Selection */

export const TRAY_FRAME = /** @type {[number, number]} */ ([5, 5]);  // the longest patch fits either way
const TRAY_CELL = 18;

/** @param {Cell|null} a @param {Cell|null} b */
const same = (a, b) => String(a) === String(b);

/**
 * What the cells of a refused placement lie on, in words: each patch of the quilt under them by its own
 * rows and columns ("patch #12 already on rows 5-6, cols 4-6"), and covered cells that are no patch
 * (a painted or a puzzle's quilt) by where they are.
 * @param {{given: Cell[], pieces: import("./quilt.js").Piece[]}} shown the quilt as its view shows it
 * @param {Cell[]} clash the placement's cells that are covered
 */
export function overlapped(shown, clash) {
  const hit = new Set(clash.map(([r, c]) => key(r, c)));
  const onPieces = new Set();
  const parts = [];
  for (const piece of shown.pieces) {
    if (!piece.cells.some(([r, c]) => hit.has(key(r, c)))) continue;
    for (const [r, c] of piece.cells) onPieces.add(key(r, c));
    parts.push(piece.patch === LEATHER ? t("the leather patch already on {where}", { where: where(piece.cells) })
      // Translators: {patch} is a patch's id such as #12, {where} its rows and columns.
      : t("patch {patch} already on {where}", { patch: `#${piece.patch}`, where: where(piece.cells) }));
  }
  const rest = clash.filter(([r, c]) => !onPieces.has(key(r, c)));
  if (rest.length) parts.push(tn("the covered cell at {where}", "the covered cells at {where}", rest.length, { where: where(rest) }));
  // Translators: joins the things a placement overlaps, such as "patch #3 already on row 1, col 2".
  return parts.reduce((all, part) => t("{first} and {second}", { first: all, second: part }));
}

export class Placer {
  /**
   * @param {import("./quilt.js").QuiltView} view
   * @param {{catalogue: any, canAct: () => boolean, covered: () => Set<number>,
   *   commit: (at: {cells: Cell[], buttons: Cell[]}) => void, changed: () => void,
   *   refused?: (message: string) => void}} hooks
   */
  constructor(view, hooks) {
    this.view = view;
    this.hooks = hooks;
    /** @type {Selection|null} */ this.selected = null;
    /** @type {Cell|null} */ this.hover = null;
    this.armed = false;
    /** @type {{pointerId: number, type: string, moved: boolean, x: number, y: number, ghost: SVGSVGElement|null}|null} */
    this.drag = null;
    /** @type {{cell: Cell, onPreview: boolean, slid: boolean}|null} */
    this.touch = null;
    this.placedAtTime = 0;
    this.lastTouch = 0;
    const box = view.svg;
    box.setAttribute("tabindex", "0");
    box.addEventListener("pointermove", (evt) => this.onMove(evt));
    box.addEventListener("pointerdown", (evt) => this.onDown(evt));
    box.addEventListener("pointerup", (evt) => this.onUp(evt));
    box.addEventListener("click", (evt) => this.onClick(evt));
    box.addEventListener("keydown", (evt) => this.onKey(evt));
    window.addEventListener("pointermove", (evt) => this.onDrag(evt));
    window.addEventListener("pointerup", (evt) => this.onDrop(evt));
    window.addEventListener("pointercancel", () => this.endDrag());
  }

  /** @param {Selection|null} sel @param {{focus?: boolean}} [o] */
  choose(sel, { focus = false } = {}) {
    this.selected = sel;
    this.armed = false;
    if (!sel) this.hover = null;
    if (sel && focus) this.view.svg.focus({ preventScroll: true });
  }

  /** @param {"rotate"|"flip"} how */
  turn(how) {
    if (!this.selected || this.selected.patch === LEATHER || !this.hooks.canAct()) return;
    this.selected = turned(this.hooks.catalogue, this.selected, how);
    this.hooks.changed();
  }

  at() {
    return this.selected && this.hover ? placedAt(this.selected, this.hover[0], this.hover[1]) : null;
  }

  /** Why the preview cannot be placed ("" when it can): what it overlaps, each patch named by its
   * own rows and columns as the quilt shows it. @param {{cells: Cell[]}} at */
  problem(at) {
    const covered = this.hooks.covered();
    const clash = at.cells.filter(([r, c]) => covered.has(key(r, c)));
    return clash.length ? t("it overlaps {what}", { what: overlapped(this.view.shown, clash) }) : "";
  }

  /** The patch in hand where it would go (green, or red when it cannot), in the view's preview layer. */
  drawPreview() {
    const layer = this.view.layer("preview");
    layer.replaceChildren();
    const at = this.at();
    if (!at || !this.selected || !this.hooks.canAct()) return;
    const bad = this.problem(at);
    const g = svg("g", { class: bad ? "preview illegal" : "preview legal", "data-testid": "preview" }, layer);
    for (const [r, c] of at.cells) {
      svg("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: patchColour(this.selected.patch) }, g);
    }
    drawButtons(g, at.buttons, CELL);
    outline(g, at.cells, "preview-edge");
  }

  place() {
    const at = this.at();
    if (!at || !this.hooks.canAct()) return;
    const bad = this.problem(at);
    if (bad) {
      (this.hooks.refused || ((m) => showError(new Error(m))))(t("cannot place it there: {why}", { why: bad }));
      return;
    }
    showError(null);
    this.armed = false;
    this.placedAtTime = Date.now();
    this.hooks.commit(at);
  }

  justPlaced() {
    return Date.now() - this.placedAtTime < 800;
  }

  /** @param {Cell|null} cell */
  point(cell) {
    if (same(cell, this.hover)) return;
    this.hover = cell;
    if (this.selected) this.hooks.changed();
  }

  /** @param {PointerEvent} evt */
  onMove(evt) {
    if (this.drag) return;
    if (evt.pointerType === "touch") {
      if (!this.touch) return;
      const cell = this.view.cellAt(evt);
      if (cell && !same(cell, this.touch.cell)) this.touch.slid = true;
      if (this.touch.slid && cell) this.point(cell);  // a finger sliding on the quilt drags the preview
      return;
    }
    this.point(this.view.cellAt(evt) || this.hover);
  }

  // Touch is read from pointerdown and pointerup alone: a tap shows the preview, a tap on the
  // preview shown places it.
  /** @param {PointerEvent} evt */
  onDown(evt) {
    if (evt.pointerType !== "touch" || !this.selected || !this.hooks.canAct()) return;
    const cell = this.view.cellAt(evt);
    if (!cell) return;
    const at = this.at();
    // on the preview, or on the very cell tapped to show it (an L's corner may lie off its cells)
    const onPreview = this.armed && !!at && (same(cell, this.hover)
      || at.cells.some(([r, c]) => r === cell[0] && c === cell[1]));
    this.touch = { cell, onPreview, slid: false };
  }

  /** @param {PointerEvent} evt */
  onUp(evt) {
    const t = this.touch;
    this.touch = null;
    if (evt.pointerType !== "touch" || !t || !this.selected || !this.hooks.canAct()) return;
    this.lastTouch = Date.now();
    if (!t.slid && t.onPreview) { this.place(); return; }
    if (!t.slid) this.hover = t.cell;
    this.armed = true;
    this.hooks.changed();
  }

  /** @param {MouseEvent} evt */
  onClick(evt) {
    // a tap was read by onUp
    if (/** @type {PointerEvent} */ (evt).pointerType === "touch" || Date.now() - this.lastTouch < 800) return;
    const cell = this.view.cellAt(evt);
    if (!cell || !this.selected || !this.hooks.canAct()) return;
    this.hover = cell;
    this.place();
  }

  /** @param {KeyboardEvent} evt */
  onKey(evt) {
    if (!this.selected || !this.hooks.canAct()) return;
    /** @type {Record<string, Cell>} */
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (evt.key in moves) {
      const [dr, dc] = moves[evt.key];
      const [r, c] = this.hover || [4, 4];
      this.hover = [Math.min(Math.max(r + dr, 0), SIZE - 1), Math.min(Math.max(c + dc, 0), SIZE - 1)];
      this.armed = true;
      this.hooks.changed();
    } else if (evt.key === "Enter" || evt.key === " ") {
      if (!this.hover) { this.hover = [4, 4]; this.armed = true; this.hooks.changed(); } else this.place();
    } else return;
    evt.preventDefault();
    evt.stopPropagation();
  }

  /** @param {Element} handle @param {() => boolean} pick */
  draggable(handle, pick) {
    handle.addEventListener("pointerdown", (e) => {
      const evt = /** @type {PointerEvent} */ (e);
      if (!this.hooks.canAct() || evt.button > 0) return;
      if (pick() === false || !this.selected) return;
      this.drag = { pointerId: evt.pointerId, type: evt.pointerType, moved: false, x: evt.clientX, y: evt.clientY, ghost: null };
      evt.preventDefault();
    });
  }

  /** @param {PointerEvent} evt */
  onDrag(evt) {
    const d = this.drag;
    if (!d || evt.pointerId !== d.pointerId || !this.selected) return;
    if (!d.moved && Math.hypot(evt.clientX - d.x, evt.clientY - d.y) < 6) return;
    d.moved = true;
    if (!d.ghost) {
      d.ghost = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
      d.ghost.setAttribute("class", "drag-ghost");
      d.ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(d.ghost);
    }
    drawShape(d.ghost, this.selected, patchColour(this.selected.patch), 22);
    const cell = this.view.cellAt(evt);
    d.ghost.style.left = `${evt.clientX + 14}px`;
    d.ghost.style.top = `${evt.clientY + 14}px`;
    d.ghost.style.visibility = cell ? "hidden" : "visible";  // over the quilt the preview shows it
    if (cell) this.point(cell);
  }

  /** @param {PointerEvent} evt */
  onDrop(evt) {
    const d = this.drag;
    if (!d || evt.pointerId !== d.pointerId) return;
    this.endDrag();
    if (!d.moved) return;  // a click on the card: chosen, not dropped
    const cell = this.view.cellAt(evt);
    if (!cell) return;
    this.hover = cell;
    if (d.type === "touch") { this.armed = true; this.hooks.changed(); }  // a finger's drop previews
    else this.place();
  }

  endDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }
}

/**
 * @param {SVGSVGElement} box @param {HTMLElement} caption @param {Placer} placer
 * @param {string} name the patch in hand, in words ("Patch #12")
 */
export function drawTray(box, caption, placer, name) {
  const sel = placer.selected;
  drawShape(box, sel, sel ? patchColour(sel.patch) : "", TRAY_CELL, TRAY_FRAME);
  if (!sel) caption.textContent = t("Choose a patch, or drag one onto the quilt.");
  // Translators: {name} is the patch in hand, such as "Patch #12"; Place is the name of a button.
  else if (placer.armed) caption.textContent = t("{name}: tap the preview or press Place to put it there", { name });
  else caption.textContent = t("{name}: point at the quilt (or tap it) to see where it goes", { name });
}
