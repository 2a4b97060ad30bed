// track.js: the time track, and a player's figures beside a quilt.
//
//   drawTrack(svg, {catalogue, state, tokens, top, spans?, spaces?, columns?, testids?})
//     every space of `spaces` ([first, last]; default the whole track) with its number, income
//     marks, leather patches still lying there, and both tokens; laid as a snake of `columns`
//     spaces a row (default: 18, or 9 on a narrow screen, so its numbers stay at least 11 px on
//     a phone). tokens[seat] = {cls, testid, letter}; tokens sharing a space are offset and the
//     one on `top` (it moves next) is drawn last. spans: spaces a token went over, shaded
//     ({from, to, kind, label?}: the last move, a hinted advance, the review's moves), each with
//     data-testid `${testids}span-${kind}` (testids: a prefix, "" by default).
//     A one-row slice (spaces [a, b], columns b - a + 1) is the compact strip a phone shows.
//   walkToken(svg, testid, from, to)   the drawn token walks there, one space at a time (at once
//                                      when the reader asked for less motion)
//   stripAround(state, end, count?)    the [first, last] spaces of a slice that shows both tokens
//   onLayoutChange(redraw)             redraw() when the screen turns narrow or wide (the rows change)
//   drawStats(dl, player)              a player's figures (each value tagged data-stat)

import { REDUCED_MOTION, svg } from "./dom.js";
import { num, t } from "./i18n.js";

const BOX = 40, ROW = 44;   // px a space's step across and a row's step down
const NARROW = window.matchMedia("(max-width: 700px)");

/** @typedef {{cls: string, testid: string, letter: string}} Token */
/** @typedef {{from: number, to: number, kind: string, label?: string}} Span */

/** @param {number} space @param {number} first @param {number} columns @returns {[number, number]} */
function spaceXY(space, first, columns) {
  const i = space - first;
  const row = Math.floor(i / columns);
  const col = row % 2 === 0 ? i % columns : columns - 1 - (i % columns);
  return [col * BOX + 2, row * ROW + 2];
}

/** @param {any} state @param {number} end @param {number} [count] @returns {[number, number]} */
export function stripAround(state, end, count = 10) {
  const pos = state.players.map((/** @type {any} */ p) => p.position);
  const first = Math.max(0, Math.min(Math.min(...pos) - 1, end + 1 - count));
  return [first, Math.min(end, first + count - 1)];
}

/**
 * @param {SVGSVGElement} box
 * @param {{catalogue: any, state: any, tokens: Token[], top: number, spans?: Span[],
 *   spaces?: [number, number], columns?: number, testids?: string}} o
 */
export function drawTrack(box, o) {
  const { catalogue, state, tokens, top, spans = [] } = o;
  const end = catalogue.end;
  const [first, last] = o.spaces || [0, end];
  const columns = o.columns || (NARROW.matches ? 9 : 18);
  const rows = Math.ceil((last - first + 1) / columns);
  box.replaceChildren();
  box.dataset.first = String(first);
  box.dataset.columns = String(columns);
  box.classList.toggle("narrow", columns < 18);
  const width = columns * BOX + 4, height = rows * ROW;
  box.setAttribute("viewBox", `0 0 ${width} ${height}`);
  box.setAttribute("width", String(width));
  box.setAttribute("height", String(height));
  const at = (/** @type {number} */ s) => spaceXY(s, first, columns);
  const marks = new Set(catalogue.income_marks);
  const leather = new Set(state.leather_left);
  for (let s = first; s <= last; s++) {
    const [x, y] = at(s);
    const g = svg("g", { class: "space", "data-space": s }, box);
    svg("rect", { x, y, width: 38, height: 40, rx: 4, class: s === end ? "space-box end" : "space-box" }, g);
    svg("text", { x: x + 3, y: y + 12, class: "space-no" }, g).textContent = String(s);
    if (marks.has(s)) svg("circle", { cx: x + 30, cy: y + 9, r: 5, class: "button-icon" }, g);
    if (leather.has(s)) svg("rect", { x: x + 24, y: y + 24, width: 11, height: 11, class: "leather-token" }, g);
  }
  for (const span of spans) {
    const g = svg("g", { class: `span ${span.kind}`, "data-testid": `${o.testids || ""}span-${span.kind}` }, box);
    for (let s = Math.max(span.from + 1, first); s <= Math.min(span.to, last); s++) {
      const [x, y] = at(s);
      svg("rect", { x: x + 1, y: y + 1, width: 36, height: 38, rx: 4, class: "span-box" }, g);
    }
    if (span.label && span.to <= last) {
      const [x, y] = at(span.to);
      svg("text", { x: x + 19, y: y + 12, "text-anchor": "middle", class: "span-label" }, g).textContent = span.label;
    }
  }
  const pos = state.players.map((/** @type {any} */ p) => p.position);
  const stacked = pos[0] === pos[1];
  for (const seat of [1 - top, top]) {
    if (pos[seat] < first || pos[seat] > last) continue;
    const [x, y] = at(pos[seat]);
    const shift = stacked ? (seat === top ? 5 : -5) : 0;
    const { cls, testid, letter } = tokens[seat];
    /** @type {Record<string, string|number>} */
    const attrs = { class: `token ${cls}`, "data-space": pos[seat] };
    if (testid) attrs["data-testid"] = testid;
    const g = svg("g", attrs, box);
    svg("circle", { cx: x + 14 + shift, cy: y + 26 - shift, r: 9 }, g);
    svg("text", { x: x + 14 + shift, y: y + 30 - shift, "text-anchor": "middle" }, g).textContent = letter;
  }
}

/**
 * @param {SVGSVGElement} box @param {string} testid @param {number} from @param {number} to
 * @returns {Promise<void>}
 */
export function walkToken(box, testid, from, to) {
  const token = /** @type {SVGGElement|null} */ (box.querySelector(`[data-testid="${testid}"]`));
  if (!token || from === to || REDUCED_MOTION || !token.animate) return Promise.resolve();
  const first = Number(box.dataset.first || 0), columns = Number(box.dataset.columns || 18);
  const [x1, y1] = spaceXY(to, first, columns);
  const step = to > from ? 1 : -1;
  const frames = [];
  for (let s = Math.max(from, first); s !== to + step; s += step) {
    const [x, y] = spaceXY(s, first, columns);
    frames.push({ transform: `translate(${x - x1}px, ${y - y1}px)` });
  }
  const duration = Math.min(900, 110 * Math.abs(to - from) + 150);
  return token.animate(frames, { duration, easing: "ease-in-out" }).finished.then(() => {}, () => {});
}

/** @param {() => void} redraw called when the screen turns narrow or wide (the track's rows change) */
export function onLayoutChange(redraw) {
  NARROW.addEventListener("change", redraw);
}

/** @param {HTMLElement} dl @param {any} player */
export function drawStats(dl, player) {
  dl.replaceChildren();
  // [the stat's key (tests and styles read it), its words, its value]
  const rows = [
    ["space", t("Space"), player.position],
    ["buttons", t("Buttons"), player.buttons],
    ["income", t("Income"), player.income],
    ["empty-cells", t("Empty cells"), player.empty],
    ["7x7-bonus", t("7x7 bonus"), player.bonus ? t("yes") : t("no")],
    ["score-now", t("Score now"), player.score],
  ];
  for (const [stat, k, v] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = String(k);
    const dd = document.createElement("dd");
    dd.textContent = typeof v === "number" ? num(v) : String(v);
    dd.dataset.stat = String(stat);
    dl.append(dt, dd);
  }
}
