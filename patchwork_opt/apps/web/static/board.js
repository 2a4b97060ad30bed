// What both pages draw and ask with: the quilt's geometry, patch shapes turned and placed, pieces
// and the time track drawn in SVG, and the JSON API. Loaded before app.js and puzzles.js (classic
// scripts share these names). No build step, no libraries.
"use strict";

const SIZE = 9;
const CELL = 34;          // px per quilt cell
const MINI = 15;          // px per cell of a patch drawn small (on offer, on a card)
const SVG_NS = "http://www.w3.org/2000/svg";
const LEATHER = -1;

const $ = (id) => document.getElementById(id);

const key = (r, c) => r * SIZE + c;

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

// Seats are 0 and 1 in JSON; text says Player 1 and Player 2, as the CLI does.
const playerName = (seat) => `Player ${seat + 1}`;

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
  const h = Math.max(...cells.map((x) => x[0])) + 1;
  const w = Math.max(...cells.map((x) => x[1])) + 1;
  svg.setAttribute("viewBox", `-1 -1 ${w * size + 2} ${h * size + 2}`);
  svg.setAttribute("width", w * size + 2);
  svg.setAttribute("height", h * size + 2);
  for (const [r, c] of cells) el("rect", { x: c * size, y: r * size, width: size, height: size, fill: colour, class: "mini-cell" }, svg);
  drawButtons(svg, buttons, size);
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
// offset and the one on top (``top``: it moves next) is drawn last, over the other.
function drawTrack(svg, catalogue, state, tokens, top) {
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
  const pos = state.players.map((p) => p.position);
  const stacked = pos[0] === pos[1];
  for (const seat of [1 - top, top]) {
    const [x, y] = trackXY(pos[seat]);
    const shift = stacked ? (seat === top ? 5 : -5) : 0;
    const { cls, testid, letter } = tokens[seat];
    const g = el("g", { class: `token ${cls}`, "data-testid": testid }, svg);
    el("circle", { cx: x + 14 + shift, cy: y + 26 - shift, r: 9 }, g);
    el("text", { x: x + 14 + shift, y: y + 30 - shift, "text-anchor": "middle" }, g).textContent = letter;
  }
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

// The quilt cell [row, col] under the pointer of ``evt`` on ``svg`` (a drawn quilt), or null.
function cellFromEvent(svg, evt) {
  const box = svg.getBoundingClientRect();
  const scale = (SIZE * CELL + 4) / box.width;
  const x = (evt.clientX - box.left) * scale - 2;
  const y = (evt.clientY - box.top) * scale - 2;
  const r = Math.floor(y / CELL), c = Math.floor(x / CELL);
  return r >= 0 && r < SIZE && c >= 0 && c < SIZE ? [r, c] : null;
}
