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
import { num, t, tn } from "../components/i18n.js";
import { where } from "../components/words.js";
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

// Translators: the terms of a placement's reasons (a list of term: explanation).
const REASONS = () => [["where", t("Where")], ["touches", t("Touches")], ["keeps_open", t("Keeps open")],
  ["open_area", t("Open area")], ["next_patches", t("Next patches")], ["square", t("The 7x7")], ["score", t("Score")]];

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
  const ahead = view.lookahead.map((/** @type {number} */ i) => `#${i}`).join(", ");
  // Translators: {patch} is a patch's id such as #12; {ahead} lists the next patches' ids.
  $("answer-title").textContent = ahead ? t("Best placements of {patch}, looking ahead to {ahead}", { patch: `#${view.patch}`, ahead })
    : t("Best placements of {patch}", { patch: `#${view.patch}` });
  const shown = view.placements.length;
  $("verdict").textContent = view.exact
    ? tn("{count} legal placement; the best {shown} shown, best first.", "{count} legal placements; the best {shown} shown, best first.", view.legal, { shown })
    : tn("{count} legal placement; the best {shown} shown, best first (the look-ahead's figures are bounds: its search ran out of time).",
      "{count} legal placements; the best {shown} shown, best first (the look-ahead's figures are bounds: its search ran out of time).", view.legal, { shown });
  $("summary").textContent = "";
  const score = `${p.score >= 0 ? "+" : "\u2212"}${num(Math.abs(p.score), 2)}`;
  $("step-count").textContent = t("Placement {k} of {n}: score {score}", { k, n: shown, score });
  fillList($("reasons"), REASONS().map(([name, term]) => [term, p.reasons[name]]));
  $("score-rule").textContent = view.score_rule;
}

/** @param {any} a {kind: "fill"|"bonus", view: JobView} @param {number} k */
function jobWords(a, k) {
  const job = a.view, found = job.fill || job.bonus, pieces = answerPieces(a);
  $("answer-title").textContent = a.kind === "fill" ? t("Optimal fill") : t("Can the 7x7 be completed?");
  $("verdict").textContent = job.state === "done" ? found.verdict : job.words;
  $("summary").textContent = found && job.fill ? job.fill.summary : "";
  $("step-count").textContent = pieces.length
    // Translators: {patch} is a patch's id such as #12, {where} its rows and columns.
    ? t("Patch {k} of {n}: {patch} at {where}", { k, n: pieces.length, patch: `#${pieces[k - 1].patch}`, where: where(pieces[k - 1].cells) })
    : t("No patch placed");
  fillList($("reasons"), pieces.map((/** @type {any} */ p, /** @type {number} */ i) => [`${i + 1}.`,
    p.buttons.length
      ? tn("{patch} at {where}, {count} button", "{patch} at {where}, {count} buttons", p.buttons.length, { patch: `#${p.patch}`, where: where(p.cells) })
      : t("{patch} at {where}", { patch: `#${p.patch}`, where: where(p.cells) })]));
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
  $("more-words").textContent = more
    ? t("It stopped after {limit} s; asked again it may search {more} s.", { limit: a.view.progress.time_limit, more }) : "";
  $("stepper").hidden = n < 2;
  /** @type {HTMLButtonElement} */ ($("step-prev")).disabled = k <= 1;
  /** @type {HTMLButtonElement} */ ($("step-next")).disabled = k >= n;
  const links = a.kind === "placements" ? null : a.view.links;
  $("exports").hidden = !links || !links.svg;
  if (links && links.svg) {
    // Translators: {command} is a command of the terminal, such as patchwork fill --json.
    $("export-cli").textContent = t("(the JSON as {command} prints it)", { command: `patchwork ${a.kind} --json` });
    for (const fmt of ["svg", "png", "json"]) /** @type {HTMLAnchorElement} */ ($(`export-${fmt}`)).href = links[fmt];
  }
}
