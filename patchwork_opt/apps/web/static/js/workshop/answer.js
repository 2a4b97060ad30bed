// workshop/answer.js: an answer drawn on the quilt and said in words. Best placements are drawn one
// at a time (step through them), each with its reasons; a fill or a 7x7 answer patch by patch (the
// first K of its patches drawn, the K-th outlined), with its verdict, its cost and income, and its
// exports (the job's SVG, PNG and the CLI's JSON); one whose time ran out unsettled offers "Give it
// more time" (the longer time the server would give it).
//
//   drawQuilt(view)       the painted quilt, the position's patches on it, and the answer's step
//   drawAnswer()          the answer's words, its stepper and its exports (hidden when none)
//   steps()               how many steps the answer has (placements, or the answer's patches)
//   shownStep()           the step on screen (S.step, or the first placement, or all the patches)
//   stepTo(k)             show step k (1-based; clamped)

import { $, html } from "../components/dom.js";
import { coveredSet, key } from "../components/geometry.js";
import { count, where } from "../components/words.js";
import { S, coveredCells, keptPieces, render } from "./state.js";

/** @param {any} answer @returns {any[]} the pieces a fill or 7x7 answer places */
function answerPieces(answer) {
  const view = answer && answer.view;
  if (!view || answer.kind === "placements") return [];
  const found = view.fill || view.bonus;
  return found ? found.pieces : [];
}

export function steps() {
  const a = S.answer;
  if (!a) return 0;
  return a.kind === "placements" ? a.view.placements.length : answerPieces(a).length;
}

/** The step shown: the placement (1-based), or how many of the answer's patches are drawn. */
export function shownStep() {
  const n = steps();
  return S.step >= 1 && S.step <= n ? S.step : (S.answer && S.answer.kind === "placements" ? 1 : n);
}

/** @param {number} k */
export function stepTo(k) {
  const n = steps();
  if (!n) return;
  S.step = Math.min(Math.max(k, 1), n);
  render();
}

/** @param {import("../components/quilt.js").QuiltView} view */
export function drawQuilt(view) {
  const kept = keptPieces();
  const onPieces = coveredSet(kept);
  const given = coveredCells().filter(([r, c]) => !onPieces.has(key(r, c)));
  const a = S.answer;
  if (!a) {
    view.show({ given, pieces: kept });
    return;
  }
  const k = shownStep();
  if (a.kind === "placements") {
    const p = a.view.placements[k - 1];
    if (!p) { view.show({ given, pieces: kept }); return; }
    view.show({ given, pieces: kept, proposed: [{ patch: a.view.patch, cells: p.cells, buttons: p.buttons }] });
    view.overlay(p.cells, "answer", { label: String(p.rank), testid: "answer-mark" });
    return;
  }
  const pieces = answerPieces(a).slice(0, k);
  view.show({ given, pieces: kept, proposed: pieces });
  if (pieces.length) view.overlay(pieces[pieces.length - 1].cells, "answer", { testid: "answer-mark" });
}

const REASONS = [["where", "Where"], ["touches", "Touches"], ["keeps_open", "Keeps open"],
  ["open_area", "Open area"], ["next_patches", "Next patches"], ["square", "The 7x7"], ["score", "Score"]];

/** @param {HTMLElement} dl @param {[string, string][]} rows */
function fillList(dl, rows) {
  dl.replaceChildren();
  for (const [term, text] of rows) {
    if (!text) continue;
    html("dt", {}, dl, term);
    html("dd", {}, dl, text);
  }
}

/** @param {any} view PlacementsView @param {number} k */
function placementWords(view, k) {
  const p = view.placements[k - 1];
  const ahead = view.lookahead.length ? `, looking ahead to ${view.lookahead.map((/** @type {number} */ i) => `#${i}`).join(", ")}` : "";
  $("answer-title").textContent = `Best placements of #${view.patch}${ahead}`;
  const proven = view.exact ? "" : " (the look-ahead's figures are bounds: its search ran out of time)";
  $("verdict").textContent = `${count(view.legal, "legal placement")}; the best ${view.placements.length} shown, `
    + `best first${proven}.`;
  $("summary").textContent = "";
  $("step-count").textContent = `Placement ${k} of ${view.placements.length}: score ${p.score >= 0 ? "+" : ""}${p.score.toFixed(2)}`;
  fillList($("reasons"), REASONS.map(([name, term]) => [term, p.reasons[name]]));
  $("score-rule").textContent = view.score_rule;
}

/** @param {any} a {kind: "fill"|"bonus", view: JobView} @param {number} k */
function jobWords(a, k) {
  const job = a.view, found = job.fill || job.bonus, pieces = answerPieces(a);
  $("answer-title").textContent = a.kind === "fill" ? "Optimal fill" : "Can the 7x7 be completed?";
  $("verdict").textContent = job.state === "done" ? found.verdict : job.words;
  $("summary").textContent = found && job.fill ? job.fill.summary : "";
  $("step-count").textContent = pieces.length
    ? `Patch ${k} of ${pieces.length}: #${pieces[k - 1].patch} at ${where(pieces[k - 1].cells)}` : "No patch placed";
  fillList($("reasons"), pieces.map((/** @type {any} */ p, /** @type {number} */ i) => [`${i + 1}.`,
    `#${p.patch} at ${where(p.cells)}${p.buttons.length ? `, ${count(p.buttons.length, "button")}` : ""}`]));
  $("score-rule").textContent = "";
}

export function drawAnswer() {
  const a = S.answer;
  $("answer").hidden = !a;
  document.body.dataset.answer = a ? `${a.kind}:${a.view.id || a.view.patch}:${shownStep()}` : "";
  if (!a) return;
  const k = shownStep(), n = steps();
  if (a.kind === "placements") placementWords(a.view, k);
  else jobWords(a, k);
  const more = a.kind === "placements" ? null : a.view.more_seconds;
  $("more").hidden = !more;
  $("more-words").textContent = more ? `It stopped after ${a.view.progress.time_limit} s; `
    + `asked again it may search ${more} s.` : "";
  $("stepper").hidden = n < 2;
  /** @type {HTMLButtonElement} */ ($("step-prev")).disabled = k <= 1;
  /** @type {HTMLButtonElement} */ ($("step-next")).disabled = k >= n;
  const links = a.kind === "placements" ? null : a.view.links;
  $("exports").hidden = !links || !links.svg;
  if (links && links.svg) {
    $("export-cli").textContent = `patchwork ${a.kind} --json`;
    for (const fmt of ["svg", "png", "json"]) /** @type {HTMLAnchorElement} */ ($(`export-${fmt}`)).href = links[fmt];
  }
}
