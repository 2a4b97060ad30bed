// patch.js: patch pictures, and a patch as a control (a card you choose it with).
//
//   patchColour(pid)                          the patch's colour (the leather patch's brown for -1)
//   drawShape(svg, shape, colour, size, frame?)  the shape's cells and buttons ({cells, buttons}) drawn
//                                             in `svg` at `size` px a cell; with frame [rows, cols] the
//                                             picture keeps that size whatever the turn, shape centred
//   patchFrame(catalogue, pid)                the square frame of a patch's longest side (turns fit it)
//   patchCard({catalogue, pid, shape?, facts, note?, pressed?, usable?, refusal?, size?, onChoose,
//              onRefused?})
//                                             a <button class="offer" data-patch=ID> named "patch #ID
//                                             cost C time T income I ..." (facts: [label, value] pairs,
//                                             in that order; note: words after them). Its picture
//                                             (returned as `picture`, to drag the patch from) shows
//                                             `shape` (the orientation chosen) or the patch's first
//                                             orientation, in the patch's frame: a card keeps its size
//                                             as the patch turns. A card with a `refusal` stays
//                                             focusable but is aria-disabled: choosing it calls
//                                             onRefused(refusal) instead of onChoose(pid).

import { html, svg } from "./dom.js";
import { LEATHER } from "./geometry.js";
import { t } from "./i18n.js";

export const MINI = 15;  // px a cell of a patch drawn on a card

/** @param {number} pid */
export function patchColour(pid) {
  if (pid === LEATHER) return "#8b5a2b";
  return `hsl(${(pid * 137.508) % 360}, 55%, 66%)`;
}

/** @param {Element} group @param {[number, number][]} buttons @param {number} size */
export function drawButtons(group, buttons, size) {
  for (const [r, c] of buttons) {
    svg("circle", { cx: c * size + size / 2, cy: r * size + size / 2, r: size * 0.22, class: "button-icon" }, group);
  }
}

/**
 * @param {Element} box the <svg> drawn in (emptied first)
 * @param {{cells: [number, number][], buttons: [number, number][]}|null} shape nothing drawn but the frame when null
 * @param {string} colour
 * @param {number} size
 * @param {[number, number]|null} [frame]
 */
export function drawShape(box, shape, colour, size, frame = null) {
  box.replaceChildren();
  const cells = shape ? shape.cells : [];
  const h = cells.length ? Math.max(...cells.map((x) => x[0])) + 1 : 0;
  const w = cells.length ? Math.max(...cells.map((x) => x[1])) + 1 : 0;
  const [rows, cols] = frame || [h, w];
  // the shape centred in the frame (whole cells never needed: the offsets may be half a cell)
  const dy = ((rows - h) * size) / 2, dx = ((cols - w) * size) / 2;
  box.setAttribute("viewBox", `${-1 - dx} ${-1 - dy} ${cols * size + 2} ${rows * size + 2}`);
  box.setAttribute("width", String(cols * size + 2));
  box.setAttribute("height", String(rows * size + 2));
  if (!shape) return;
  for (const [r, c] of cells) svg("rect", { x: c * size, y: r * size, width: size, height: size, fill: colour, class: "mini-cell" }, box);
  drawButtons(box, shape.buttons, size);
}

/** @param {any} catalogue @param {number} pid @returns {[number, number]} */
export function patchFrame(catalogue, pid) {
  const o = catalogue.patches[pid].orientations[0];
  const side = Math.max(o.height, o.width);
  return [side, side];
}

/**
 * @param {{catalogue: any, pid: number, shape?: any, facts: [string, string|number][], note?: string,
 *   pressed?: boolean, usable?: boolean, refusal?: string, size?: number, onChoose: (pid: number) => void,
 *   onRefused?: (refusal: string) => void}} o
 * @returns {{card: HTMLButtonElement, picture: SVGElement}}
 */
export function patchCard(o) {
  const { catalogue, pid, facts, note = "", pressed = false, usable = true, refusal = "", size = MINI } = o;
  const card = /** @type {HTMLButtonElement} */ (html("button", { type: "button", class: "offer", "data-patch": pid }));
  card.disabled = !usable && !refusal;  // a refused card stays focusable: choosing it says why
  card.setAttribute("aria-pressed", String(pressed));
  if (pressed) card.classList.add("selected");
  const picture = /** @type {SVGElement} */ (svg("svg", { "aria-hidden": "true" }, card));
  drawShape(picture, o.shape || catalogue.patches[pid].orientations[0], patchColour(pid), size, patchFrame(catalogue, pid));
  const text = html("span", { class: "facts" }, card);
  // Translators: said (not shown) before a patch card's id, such as "patch #12".
  html("span", { class: "sr-only" }, text, `${t("patch")} `);
  html("b", {}, text, `#${pid}`);
  for (const [label, value] of facts) {
    text.append(" ");
    const fact = html("span", {}, text, `${label} `);
    html("b", {}, fact, String(value));
  }
  if (note) {
    text.append(" ");
    html("i", {}, text, note);
  }
  if (refusal) {
    card.classList.add("unaffordable");
    card.setAttribute("aria-disabled", "true");
    card.addEventListener("click", () => o.onRefused && o.onRefused(refusal));
  } else {
    card.addEventListener("click", () => o.onChoose(pid));
  }
  return { card, picture };
}
