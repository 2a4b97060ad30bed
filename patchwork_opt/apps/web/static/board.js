// What both pages draw and ask with: the quilt's geometry, patch shapes turned and placed, pieces,
// quilts with their row and column numbers, the time track (tokens that walk), moves in words, the
// JSON API, and one way to place a patch (Placer) for mouse, pen, touch and keyboard. Loaded before
// app.js and puzzles.js (classic scripts share these names). No build step, no libraries.
"use strict";

const SIZE = 9;
const CELL = 34;          // px per quilt cell
const MARGIN = 16;        // px left of and above the quilt for the row and column numbers
const MINI = 15;          // px per cell of a patch drawn small (on offer, on a card)
const SVG_NS = "http://www.w3.org/2000/svg";
const LEATHER = -1;
//: How rows and columns are numbered for people: the quilt's labels and every move in words agree
//: with the server's words ("buy #27 at rows 6-7, cols 1-3", rows and columns from 0 at the top left).
const FIRST_NUMBER = 0;
const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const $ = (id) => document.getElementById(id);

const key = (r, c) => r * SIZE + c;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function patchColour(id) {
  if (id === LEATHER) return "#8b5a2b";
  return `hsl(${(id * 137.508) % 360}, 55%, 66%)`;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `${res.status} ${res.statusText}`);
  return data;
}

function showError(err) {
  $("error").textContent = err ? String(err.message || err) : "";
}

const pct = (x) => `${Math.round(100 * x)}%`;

// --- words: how a person reads a move (the server's words, when it sends them, say the same) ------

// Where cells lie: "rows 3-4, cols 0-2", "row 4, col 4".
function where(cells) {
  const span = (xs, one, many) => {
    const lo = Math.min(...xs) + FIRST_NUMBER, hi = Math.max(...xs) + FIRST_NUMBER;
    return lo === hi ? `${one} ${lo}` : `${many} ${lo}-${hi}`;
  };
  return `${span(cells.map((x) => x[0]), "row", "rows")}, ${span(cells.map((x) => x[1]), "col", "cols")}`;
}

// A move in words without its position (the server's words add how far an advance goes).
function moveWords(move) {
  if (move.type === "advance") return "advance";
  if (move.type === "leather") return `put the leather patch on ${where([move.cell])}`;
  return `buy #${move.patch} at ${where(move.cells)}`;
}

// The cells a move covers on its mover's quilt ([] for an advance).
const moveCells = (move) => (move.type === "buy" ? move.cells : move.type === "leather" ? [move.cell] : []);

// --- shapes: turn, flip, place --------------------------------------------------------------------

function normalise(sel, f) {
  const cells = sel.cells.map(f);
  const buttons = sel.buttons.map(f);
  const top = Math.min(...cells.map((x) => x[0]));
  const left = Math.min(...cells.map((x) => x[1]));
  const shift = ([r, c]) => [r - top, c - left];
  return { ...sel, cells: cells.map(shift), buttons: buttons.map(shift) };
}

const rotate = (sel) => normalise(sel, ([r, c]) => [c, -r]);

const flip = (sel) => normalise(sel, ([r, c]) => [r, -c]);

// Cells of the selected shape when the pointer is on (row, col): the shape is centred there
// and kept on the quilt.
function placedAt(sel, row, col) {
  const h = Math.max(...sel.cells.map((x) => x[0])) + 1;
  const w = Math.max(...sel.cells.map((x) => x[1])) + 1;
  const top = Math.min(Math.max(row - Math.floor((h - 1) / 2), 0), SIZE - h);
  const left = Math.min(Math.max(col - Math.floor((w - 1) / 2), 0), SIZE - w);
  return {
    cells: sel.cells.map(([r, c]) => [r + top, c + left]),
    buttons: sel.buttons.map(([r, c]) => [r + top, c + left]),
  };
}

// The orientation of patch ``pid`` (from the catalogue) that covers exactly ``cells``, as a
// selection placed with its top-left corner at the origin, and the cell to centre it on.
function selectionOn(catalogue, pid, cells) {
  const top = Math.min(...cells.map((x) => x[0]));
  const left = Math.min(...cells.map((x) => x[1]));
  const shape = new Set(cells.map(([r, c]) => key(r - top, c - left)));
  const o = catalogue.patches[pid].orientations.find(
    (x) => x.cells.length === shape.size && x.cells.every(([r, c]) => shape.has(key(r, c))));
  if (!o) return null;
  return {
    selected: { patch: pid, cells: o.cells.map((x) => [...x]), buttons: o.buttons.map((x) => [...x]) },
    hover: [top + Math.floor((o.height - 1) / 2), left + Math.floor((o.width - 1) / 2)],
    buttons: o.buttons.map(([r, c]) => [r + top, c + left]),
  };
}

// --- drawing ---------------------------------------------------------------------------------------

function outline(group, cells, cls) {
  // Draws the outer edges of a set of cells as one path.
  const set = new Set(cells.map(([r, c]) => key(r, c)));
  let d = "";
  for (const [r, c] of cells) {
    const x = c * CELL, y = r * CELL;
    if (r === 0 || !set.has(key(r - 1, c))) d += `M${x} ${y}h${CELL}`;
    if (r === SIZE - 1 || !set.has(key(r + 1, c))) d += `M${x} ${y + CELL}h${CELL}`;
    if (c === 0 || !set.has(key(r, c - 1))) d += `M${x} ${y}v${CELL}`;
    if (c === SIZE - 1 || !set.has(key(r, c + 1))) d += `M${x + CELL} ${y}v${CELL}`;
  }
  el("path", { d, class: cls }, group);
}

function drawButtons(group, buttons, size) {
  for (const [r, c] of buttons) {
    el("circle", { cx: c * size + size / 2, cy: r * size + size / 2, r: size * 0.22, class: "button-icon" }, group);
  }
}

function drawPiece(group, piece) {
  const g = el("g", { class: piece.patch === LEATHER ? "piece leather" : "piece", "data-patch": piece.patch }, group);
  for (const [r, c] of piece.cells) {
    el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: patchColour(piece.patch) }, g);
  }
  drawButtons(g, piece.buttons, CELL);
  outline(g, piece.cells, "piece-edge");
}

function drawShape(svg, cells, buttons, colour, size) {
  svg.replaceChildren();
  const h = Math.max(...cells.map((x) => x[0])) + 1;
  const w = Math.max(...cells.map((x) => x[1])) + 1;
  svg.setAttribute("viewBox", `-1 -1 ${w * size + 2} ${h * size + 2}`);
  svg.setAttribute("width", w * size + 2);
  svg.setAttribute("height", h * size + 2);
  for (const [r, c] of cells) el("rect", { x: c * size, y: r * size, width: size, height: size, fill: colour, class: "mini-cell" }, svg);
  drawButtons(svg, buttons, size);
}

// An empty quilt: the grid with each row's and column's number (as the texts number them); the
// SVG scales to its box, so the same drawing fills a phone's width or sits beside the offers.
function drawQuiltGrid(svg) {
  svg.replaceChildren();
  const side = SIZE * CELL;
  svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${side + MARGIN + 3} ${side + MARGIN + 3}`);
  svg.setAttribute("width", side + MARGIN + 3);
  svg.setAttribute("height", side + MARGIN + 3);
  const labels = el("g", { class: "axis", "aria-hidden": "true" }, svg);
  for (let i = 0; i < SIZE; i++) {
    el("text", { x: i * CELL + CELL / 2, y: -4, "text-anchor": "middle" }, labels).textContent = i + FIRST_NUMBER;
    el("text", { x: -MARGIN / 2, y: i * CELL + CELL / 2 + 4, "text-anchor": "middle" }, labels).textContent = i + FIRST_NUMBER;
  }
  const grid = el("g", { class: "grid" }, svg);
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "cell", "data-r": r, "data-c": c }, grid);
    }
  }
}

// Cells drawn over a quilt (a hint, the move played, the best move): a tint, an outline and,
// when given, a short label at their centre (a hint's win chance).
function drawOverlay(svg, cells, kind, label = "", testid = "") {
  const attrs = { class: `overlay ${kind}` };
  if (testid) attrs["data-testid"] = testid;
  const g = el("g", attrs, svg);
  for (const [r, c] of cells) el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: `${kind}-cell` }, g);
  outline(g, cells, `${kind}-edge`);
  if (label) {
    const cy = cells.reduce((s, x) => s + x[0], 0) / cells.length;
    const cx = cells.reduce((s, x) => s + x[1], 0) / cells.length;
    // the label sits on the cell nearest the centre, so it stays on the patch's own cells
    const [r, c] = cells.reduce((a, b) => (Math.hypot(b[0] - cy, b[1] - cx) < Math.hypot(a[0] - cy, a[1] - cx) ? b : a));
    el("rect", { x: c * CELL + 1, y: r * CELL + 8, width: CELL - 2, height: 18, rx: 4, class: "overlay-tag" }, g);
    el("text", { x: c * CELL + CELL / 2, y: r * CELL + 21, "text-anchor": "middle", class: "overlay-label" }, g).textContent = label;
  }
  return g;
}

// The track as a snake of three rows of 18 spaces: 0..17 left to right, 18..35 back, 36..53.
function trackXY(space) {
  const row = Math.floor(space / 18);
  const i = space % 18;
  const col = row % 2 === 0 ? i : 17 - i;
  return [col * 40 + 2, row * 44 + 2];
}

// The time track: every space (its number, income marks, leather patches still lying there) and
// both tokens. ``tokens`` gives each seat's class, test id and letter; tokens sharing a space are
// offset and the one on top (``top``: it moves next) is drawn last, over the other. ``spans``
// marks spaces a token went over ({from, to, kind, label}: the last advance, a hinted one).
function drawTrack(svg, catalogue, state, tokens, top, spans = []) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 724 136");
  svg.setAttribute("width", 724);
  svg.setAttribute("height", 136);
  const end = catalogue.end;
  const marks = new Set(catalogue.income_marks);
  const leather = new Set(state.leather_left);
  for (let s = 0; s <= end; s++) {
    const [x, y] = trackXY(s);
    const g = el("g", { class: "space", "data-space": s }, svg);
    el("rect", { x, y, width: 38, height: 40, rx: 4, class: s === end ? "space-box end" : "space-box" }, g);
    el("text", { x: x + 3, y: y + 11, class: "space-no" }, g).textContent = s;
    if (marks.has(s)) el("circle", { cx: x + 30, cy: y + 9, r: 5, class: "button-icon" }, g);
    if (leather.has(s)) el("rect", { x: x + 24, y: y + 24, width: 11, height: 11, class: "leather-token" }, g);
  }
  for (const span of spans) {
    const g = el("g", { class: `span ${span.kind}`, "data-testid": `span-${span.kind}` }, svg);
    for (let s = span.from + 1; s <= Math.min(span.to, end); s++) {
      const [x, y] = trackXY(s);
      el("rect", { x: x + 1, y: y + 1, width: 36, height: 38, rx: 4, class: "span-box" }, g);
    }
    if (span.label) {
      const [x, y] = trackXY(Math.min(span.to, end));
      el("text", { x: x + 19, y: y + 11, "text-anchor": "middle", class: "span-label" }, g).textContent = span.label;
    }
  }
  const pos = state.players.map((p) => p.position);
  const stacked = pos[0] === pos[1];
  for (const seat of [1 - top, top]) {
    const [x, y] = trackXY(pos[seat]);
    const shift = stacked ? (seat === top ? 5 : -5) : 0;
    const { cls, testid, letter } = tokens[seat];
    const g = el("g", { class: `token ${cls}`, "data-testid": testid, "data-space": pos[seat] }, svg);
    el("circle", { cx: x + 14 + shift, cy: y + 26 - shift, r: 9 }, g);
    el("text", { x: x + 14 + shift, y: y + 30 - shift, "text-anchor": "middle" }, g).textContent = letter;
  }
}

// Walks a drawn token (test id ``testid``) from space ``from`` to where it now stands, one space
// at a time; resolves when it arrives (at once when the reader asked for less motion).
function walkToken(svg, testid, from, to) {
  const token = svg.querySelector(`[data-testid="${testid}"]`);
  if (!token || from === to || REDUCED_MOTION || !token.animate) return Promise.resolve();
  const [x1, y1] = trackXY(to);
  const step = to > from ? 1 : -1;
  const frames = [];
  for (let s = from; s !== to + step; s += step) {
    const [x, y] = trackXY(s);
    frames.push({ transform: `translate(${x - x1}px, ${y - y1}px)` });
  }
  const duration = Math.min(900, 110 * Math.abs(to - from) + 150);
  return token.animate(frames, { duration, easing: "ease-in-out" }).finished.catch(() => {});
}

// A player's figures as a definition list (each value tagged data-stat for tests and styles).
function drawStats(dl, player) {
  dl.replaceChildren();
  const rows = [
    ["Space", player.position],
    ["Buttons", player.buttons],
    ["Income", player.income],
    ["Empty cells", player.empty],
    ["7x7 bonus", player.bonus ? "yes" : "no"],
    ["Score now", player.score],
  ];
  for (const [k, v] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dd.dataset.stat = k.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    dl.append(dt, dd);
  }
}

// The quilt cell [row, col] under the client point of ``evt`` on ``svg`` (a drawn quilt), or null.
function cellFromEvent(svg, evt) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
  const r = Math.floor(p.y / CELL), c = Math.floor(p.x / CELL);
  return r >= 0 && r < SIZE && c >= 0 && c < SIZE ? [r, c] : null;
}

// --- placing a patch: one way for every device -------------------------------------------------------
//
// Mouse and pen: the preview follows the pointer over the quilt, a click places; a patch dragged
// from its card (or from the tray beside the quilt) and dropped on the quilt is placed there.
// Touch: a tap (or a drag) on the quilt shows the preview; a second tap on the preview, or the
// Place button, places it, so a mis-tap costs nothing. Keyboard: the quilt takes focus, the arrows
// move the preview, R and F turn it, Enter places, Escape cancels.
class Placer {
  // ``svg``: the quilt placed on; ``hooks``: canAct(), covered() (a Set of covered cell keys),
  // commit(at) (at: {cells, buttons}), changed() (redraw), cancel() (Escape; optional).
  constructor(svg, hooks) {
    this.svg = svg;
    this.hooks = hooks;
    this.selected = null;   // {patch, cells, buttons} at the origin
    this.hover = null;      // [row, col] the preview is centred on
    this.armed = false;     // a touch preview is showing: a tap on it places
    this.drag = null;       // {pointerId, type, moved, x, y, ghost}
    this.touch = null;      // {cell, onPreview, slid}: a finger down on the quilt
    svg.setAttribute("tabindex", "0");
    svg.addEventListener("pointermove", (evt) => this.onMove(evt));
    svg.addEventListener("pointerdown", (evt) => this.onDown(evt));
    svg.addEventListener("pointerup", (evt) => this.onUp(evt));
    svg.addEventListener("click", (evt) => this.onClick(evt));
    svg.addEventListener("keydown", (evt) => this.onKey(evt));
    window.addEventListener("pointermove", (evt) => this.onDrag(evt));
    window.addEventListener("pointerup", (evt) => this.onDrop(evt));
    window.addEventListener("pointercancel", () => this.endDrag());
  }

  choose(sel) {
    this.selected = sel;
    this.armed = false;
    if (!sel) this.hover = null;
  }

  turn(fn) {
    if (!this.selected || this.selected.patch === LEATHER || !this.hooks.canAct()) return;
    this.selected = fn(this.selected);
    this.hooks.changed();
  }

  at() {
    return this.selected && this.hover ? placedAt(this.selected, this.hover[0], this.hover[1]) : null;
  }

  // Why the preview cannot be placed ("" when it can).
  problem(at) {
    const covered = this.hooks.covered();
    const clash = at.cells.filter(([r, c]) => covered.has(key(r, c)));
    if (!clash.length) return "";
    return `it overlaps the patch already on ${where(clash)}`;
  }

  // Draws the preview of the selected patch where it would go (green, or red when it cannot).
  drawPreview() {
    const at = this.at();
    if (!at || !this.hooks.canAct()) return;
    const bad = this.problem(at);
    const g = el("g", { class: bad ? "preview illegal" : "preview legal", "data-testid": "preview" }, this.svg);
    for (const [r, c] of at.cells) {
      el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: patchColour(this.selected.patch) }, g);
    }
    drawButtons(g, at.buttons, CELL);
    outline(g, at.cells, "preview-edge");
  }

  place() {
    const at = this.at();
    if (!at || !this.hooks.canAct()) return;
    const bad = this.problem(at);
    if (bad) {
      showError(new Error(`cannot place it there: ${bad}`));
      return;
    }
    showError(null);
    this.armed = false;
    this.placedAt = Date.now();
    this.hooks.commit(at);
  }

  // Whether the click now being handled is the one that just placed a patch.
  justPlaced() {
    return Date.now() - (this.placedAt || 0) < 800;
  }

  point(cell) {
    if (String(cell) === String(this.hover)) return;
    this.hover = cell;
    if (this.selected) this.hooks.changed();
  }

  onMove(evt) {
    if (this.drag) return;
    if (evt.pointerType === "touch") {
      if (!this.touch) return;
      const cell = cellFromEvent(this.svg, evt);
      if (cell && String(cell) !== String(this.touch.cell)) this.touch.slid = true;
      if (this.touch.slid && cell) this.point(cell);  // a finger sliding on the quilt drags the preview
      return;
    }
    this.point(cellFromEvent(this.svg, evt) || this.hover);
  }

  // Touch is read from pointerdown and pointerup alone (no redraw in between, so the finger's
  // target stays): a tap shows the preview, a tap on the preview shown places it.
  onDown(evt) {
    if (evt.pointerType !== "touch" || !this.selected || !this.hooks.canAct()) return;
    const cell = cellFromEvent(this.svg, evt);
    if (!cell) return;
    const at = this.at();
    // on the preview, or on the very cell tapped to show it (an L's corner may lie off its cells)
    const onPreview = this.armed && !!at && (String(cell) === String(this.hover)
      || at.cells.some(([r, c]) => r === cell[0] && c === cell[1]));
    this.touch = { cell, onPreview, slid: false };
  }

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

  onClick(evt) {
    if (evt.pointerType === "touch" || Date.now() - (this.lastTouch || 0) < 800) return;  // read by onUp
    const cell = cellFromEvent(this.svg, evt);
    if (!cell || !this.selected || !this.hooks.canAct()) return;
    this.hover = cell;
    this.place();
  }

  onKey(evt) {
    if (!this.selected || !this.hooks.canAct()) return;
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

  // A patch picked up from ``handle`` (its card's picture, the tray): ``pick()`` selects it.
  draggable(handle, pick) {
    handle.addEventListener("pointerdown", (evt) => {
      if (!this.hooks.canAct() || evt.button > 0) return;
      if (pick() === false || !this.selected) return;
      this.drag = { pointerId: evt.pointerId, type: evt.pointerType, moved: false, x: evt.clientX, y: evt.clientY, ghost: null };
      evt.preventDefault();
    });
  }

  onDrag(evt) {
    const d = this.drag;
    if (!d || evt.pointerId !== d.pointerId) return;
    if (!d.moved && Math.hypot(evt.clientX - d.x, evt.clientY - d.y) < 6) return;
    d.moved = true;
    if (!d.ghost) {
      d.ghost = document.createElementNS(SVG_NS, "svg");
      d.ghost.setAttribute("class", "drag-ghost");
      d.ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(d.ghost);
    }
    drawShape(d.ghost, this.selected.cells, this.selected.buttons, patchColour(this.selected.patch), 22);
    const cell = cellFromEvent(this.svg, evt);
    d.ghost.style.left = `${evt.clientX + 14}px`;
    d.ghost.style.top = `${evt.clientY + 14}px`;
    d.ghost.style.visibility = cell ? "hidden" : "visible";  // over the quilt the preview shows it
    if (cell) this.point(cell);
  }

  onDrop(evt) {
    const d = this.drag;
    if (!d || evt.pointerId !== d.pointerId) return;
    this.endDrag();
    if (!d.moved) return;  // a click on the card: chosen, not dropped
    const cell = cellFromEvent(this.svg, evt);
    if (!cell) return;
    this.hover = cell;
    if (d.type === "touch") { this.armed = true; this.hooks.changed(); } // a finger's drop previews
    else this.place();
  }

  endDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }
}

// The tray beside a quilt: the chosen patch drawn as it will be placed (turned and flipped), with
// its name; the page's Rotate, Flip, Place and Cancel buttons sit with it.
function drawTray(svg, caption, placer, name) {
  const sel = placer.selected;
  if (!sel) {
    svg.replaceChildren();
    svg.setAttribute("width", 0);
    svg.setAttribute("height", 0);
    caption.textContent = "Choose a patch, or drag one onto your quilt.";
    return;
  }
  drawShape(svg, sel.cells, sel.buttons, patchColour(sel.patch), 18);
  caption.textContent = placer.armed
    ? `${name}: tap the preview or press Place to put it there`
    : `${name}: point at your quilt (or tap it) to see where it goes`;
}
