// workshop/address.js: the workshop's whole state in the page's address, so a link reproduces it.
//
//   ?quilt=HEX            the covered cells (geometry.quiltCode: bit r*9+c)
//   &position=NOTATION&player=P   the position the quilt comes from (its offers, buttons, marks ahead)
//   &game=ID&ply=N&player=P       a stored game before move N (read once, then written as a position)
//   &patches=12,3,20      the patches chosen, in order (the first is the one to place)
//   &objective=cells|points&budget=B&marks=M&bonus=1   the fill's options
//   &cells=&cost=&time=&income=   the patch filters (a number or a range, 2-4; income: its buttons)
//   &mode=placements|fill|bonus&step=K                 the answer on screen, asked again on opening
//
//   readAddress(search)   what the address asks for: {quilt, game, ply, position, player, patches,
//                         options, filters, mode, step}, with `problems` (a line each) for the parts
//                         it cannot read, which are left out
//   writeAddress()        the address of the page as it is now (history.replaceState)

import { cellsOfCode, quiltCode } from "../components/geometry.js";
import { t } from "../components/i18n.js";
import { S, coveredCells } from "./state.js";

const MODES = ["placements", "fill", "bonus"];
const PATCH_COUNT = 33;

/** @param {string} search location.search */
export function readAddress(search) {
  const q = new URLSearchParams(search);
  /** @type {string[]} */
  const problems = [];
  /** @type {any} */
  const start = { problems, quilt: null, game: q.get("game"), ply: null, position: q.get("position"), player: null,
    patches: [], options: {}, filters: {}, mode: "", step: 0 };
  const code = q.get("quilt");
  if (code) {
    try { start.quilt = cellsOfCode(code); } catch (err) { problems.push(String(/** @type {Error} */ (err).message)); }
  }
  const whole = (/** @type {string} */ name, /** @type {number} */ lo, /** @type {number} */ hi) => {
    const text = q.get(name);
    if (text === null || text === "") return null;
    const n = Number(text);
    if (Number.isInteger(n) && n >= lo && n <= hi) return n;
    problems.push(t('{name}: "{text}" is not a whole number from {lo} to {hi}', { name, text: text.slice(0, 20), lo, hi }));
    return null;
  };
  start.ply = whole("ply", 0, 1000);
  start.player = whole("player", 0, 1);
  for (const part of (q.get("patches") || "").split(",").filter(Boolean)) {
    const id = Number(part.replace(/^#/, ""));
    if (!Number.isInteger(id) || id < 0 || id >= PATCH_COUNT) problems.push(t('patches: no patch "{part}" (ids 0-32)', { part: part.slice(0, 10) }));
    else if (!start.patches.includes(id)) start.patches.push(id);
  }
  const objective = q.get("objective");
  if (objective === "cells" || objective === "points") start.options.objective = objective;
  else if (objective) problems.push(t('objective: "{value}" is neither cells nor points', { value: objective.slice(0, 20) }));
  // the budget and the marks are kept as written: the API names what is wrong with them
  if (q.has("budget")) start.options.budget = q.get("budget");
  if (q.has("marks")) start.options.marks = q.get("marks");
  if (q.has("bonus")) start.options.bonus = q.get("bonus") === "1";
  for (const name of ["cells", "cost", "time", "income"]) if (q.has(name)) start.filters[name] = q.get(name);
  const mode = q.get("mode") || "";
  if (MODES.includes(mode)) start.mode = mode;
  else if (mode) problems.push(t('mode: "{value}" is none of {modes}', { value: mode.slice(0, 20), modes: MODES.join(", ") }));
  start.step = whole("step", 1, 40) || 0;
  return start;
}

/** The address of the page as it is now. @returns {string} */
export function addressOf() {
  const q = new URLSearchParams();
  const cells = coveredCells();
  if (cells.length) q.set("quilt", quiltCode(cells));
  if (S.source && S.source.position) {
    q.set("position", S.source.position);
    q.set("player", String(S.source.player));
  }
  if (S.chosen.length) q.set("patches", S.chosen.join(","));
  const o = S.options;
  if (o.objective !== "cells") q.set("objective", o.objective);
  // from a position both are written: opening it again would take the player's instead
  if (o.budget !== "" || S.source) q.set("budget", o.budget);
  if (o.marks !== "9" || S.source) q.set("marks", o.marks);
  if (o.bonus) q.set("bonus", "1");
  for (const [name, value] of Object.entries(S.filters)) if (value) q.set(name, value);
  if (S.mode) q.set("mode", S.mode);
  if (S.mode && S.step) q.set("step", String(S.step));
  const query = q.toString();
  return `${location.pathname}${query ? `?${query}` : ""}`;
}

export function writeAddress() {
  const next = addressOf();
  if (next !== `${location.pathname}${location.search}`) history.replaceState(null, "", next);
}
