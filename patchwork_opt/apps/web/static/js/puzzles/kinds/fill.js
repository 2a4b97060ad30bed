// puzzles/kinds/fill.js: "fill the quilt": place some of the patches (each at most once) on a quilt
// for the most covered cells or the best score, within a button budget, or completing a 7x7 square;
// the proven optimum is drawn beside the answer. A kind module (kinds/index.js describes the
// interface).

import { html, showError } from "../../components/dom.js";
import { coveredSet, selection, selectionOn } from "../../components/geometry.js";
import { workshopHref } from "../../components/nav.js";
import { patchCard } from "../../components/patch.js";
import { Placer, drawTray } from "../../components/placer.js";
import { QuiltView } from "../../components/quilt.js";
import { t, tn } from "../../components/i18n.js";

// The labels are said before the template: `pybabel extract` does not read a t() call inside a quoted
// attribute of a template literal (aria-label="${t(...)}"), so it would never reach the catalogue.
const QUILT_LABEL = t("the quilt to fill: choose a patch, then the arrow keys move it, R and F turn it, Enter places it");
const TRAY_LABEL = t("the chosen patch as it will be placed");
const OPTIMUM_LABEL = t("the proven optimum");

const SECTION = `
  <div id="fill-boards">
    <div class="board">
      <h2>${t("Your quilt")}</h2>
      <svg id="fill-quilt" class="quilt" role="application"
           aria-label="${QUILT_LABEL}"></svg>
      <div class="tray">
        <svg id="fill-tray-shape" class="tray-shape" role="img" aria-label="${TRAY_LABEL}"></svg>
        <p id="fill-tray-caption" class="tray-caption"></p>
      </div>
      <p id="fill-score" data-testid="fill-score"></p>
    </div>
    <div class="side">
      <h2>${t("Patches (each at most once)")}</h2>
      <div id="fill-patches" class="offers"></div>
      <div class="controls">
        <button id="fill-rotate" type="button" aria-keyshortcuts="R">${t("Rotate ⟳")}</button>
        <button id="fill-flip" type="button" aria-keyshortcuts="F">${t("Flip ⇋")}</button>
        <button id="fill-place" type="button" aria-keyshortcuts="Enter">${t("Place")}</button>
        <button id="fill-undo" type="button">${t("Take back")}</button>
        <button id="fill-done" type="button">${t("Done: check my fill")}</button>
      </div>
      <p class="legend">${t("Choose a patch, then point at the quilt and click, drag it there, or tap where it goes and tap again (or press Place); R rotates, F flips. Click a placed patch to take it back.")}</p>
    </div>
    <div class="board" id="fill-optimum-box" hidden>
      <h2>${t("The proven optimum")}</h2>
      <svg id="fill-optimum" class="quilt" role="img" aria-label="${OPTIMUM_LABEL}" data-testid="optimum"></svg>
    </div>
  </div>`;

class FillBoard {
  /** @param {any} page */
  constructor(page) {
    this.page = page;
    this.section = html("section", { id: "fill", hidden: true }, page.main);
    this.section.innerHTML = SECTION;
    /** @param {string} id @returns {any} */
    const $ = (id) => this.section.querySelector(`#${id}`);
    this.$ = $;
    /** @type {any} */ this.puzzle = null;
    /** @type {{patch: number, cells: [number, number][], buttons: [number, number][]}[]} */ this.placed = [];
    this.quilt = new QuiltView($("fill-quilt"));
    this.optimum = new QuiltView($("fill-optimum"));
    this.placer_ = new Placer(this.quilt, {
      catalogue: page.catalogue, canAct: page.canAct, changed: page.changed,
      covered: () => coveredSet(this.placed, this.puzzle.details.quilt),
      commit: (at) => this.place(at),
    });
    this.placer_.draggable($("fill-tray-shape"), () => !!this.placer_.selected);
    $("fill-rotate").addEventListener("click", () => this.placer_.turn("rotate"));
    $("fill-flip").addEventListener("click", () => this.placer_.turn("flip"));
    $("fill-place").addEventListener("click", () => this.placer_.place());
    $("fill-undo").addEventListener("click", () => { if (page.canAct()) { this.placed.pop(); page.changed(); } });
    $("fill-done").addEventListener("click", () => page.answer({
      placements: this.placed.map((p) => ({ patch: p.patch, cells: p.cells })),
    }).then(() => this.placer_.choose(null)));
    $("fill-quilt").addEventListener("click", (/** @type {MouseEvent} */ evt) => this.takeBack(evt));
  }

  /** @param {any} puzzle */
  start(puzzle) {
    this.puzzle = puzzle;
    this.placed = [];
    this.placer_.choose(null);
  }

  /** What the fill reaches so far, and what it costs. */
  value() {
    const f = this.puzzle.details;
    let value = 0, cost = 0;
    for (const p of this.placed) {
      const patch = this.page.catalogue.patches[p.patch];
      cost += patch.cost;
      value += f.objective === "cells" ? patch.area : 2 * patch.area + patch.income * f.marks - patch.cost;
    }
    return { value, cost };
  }

  /** Why the patch cannot join the fill for its price ("" when it can). @param {number} pid */
  overBudget(pid) {
    const f = this.puzzle.details;
    if (f.budget === null) return "";
    const cost = this.page.catalogue.patches[pid].cost;
    const left = f.budget - this.value().cost;
    if (cost <= left) return "";
    // Translators: {patch} is a patch's id such as #12; {left} buttons of the budget of {budget} are left.
    return tn("Patch {patch} costs {count} button: only {left} of the budget of {budget} left",
      "Patch {patch} costs {count} buttons: only {left} of the budget of {budget} left", cost, { patch: `#${pid}`, left, budget: f.budget });
  }

  /** @param {{cells: [number, number][], buttons: [number, number][]}} at */
  place(at) {
    const sel = this.placer_.selected;
    if (!sel) return;
    const refusal = this.overBudget(sel.patch);
    if (refusal) showError(new Error(t("cannot place it: {why}", { why: refusal })));  // refused as it happens: nothing placed
    else this.placed.push({ patch: sel.patch, cells: at.cells, buttons: at.buttons });
    this.placer_.choose(null);
    this.page.changed();
  }

  /** A click on a placed patch, with no patch chosen, takes it back. @param {MouseEvent} evt */
  takeBack(evt) {
    if (!this.page.canAct() || this.placer_.selected || this.placer_.justPlaced()) return;
    const cell = this.quilt.cellAt(evt);
    if (!cell) return;
    const i = this.placed.findIndex((p) => p.cells.some(([r, c]) => r === cell[0] && c === cell[1]));
    if (i >= 0) { this.placed.splice(i, 1); this.page.changed(); }
  }

  /** @param {number} pid */
  choose(pid, forDrag = false) {
    if (!this.page.canAct()) return false;
    const p = this.placer_;
    if (!(forDrag && p.selected && p.selected.patch === pid)) p.choose(selection(this.page.catalogue, pid), { focus: !forDrag });
    showError(null);
    this.page.changed();
    return true;
  }

  /** @param {any} puzzle @param {any} answer */
  draw(puzzle, answer) {
    const f = puzzle.details, $ = this.$, act = this.page.canAct(), catalogue = this.page.catalogue;
    this.quilt.show({ given: f.quilt, pieces: this.placed });
    this.placer_.drawPreview();
    const used = new Set(this.placed.map((p) => p.patch));
    const box = $("fill-patches");
    box.replaceChildren();
    const chosen = this.placer_.selected;
    for (const pid of f.patches) {
      const p = catalogue.patches[pid];
      const refusal = act && !used.has(pid) ? this.overBudget(pid) : "";
      /** @type {[string, number][]} */
      const facts = [[t("cells"), p.area], [t("cost"), p.cost], [t("income"), p.income]];
      // Translators: what a patch is worth to the fill's score (a patch card's fact).
      if (f.objective === "points") facts.push([t("worth"), 2 * p.area + p.income * f.marks - p.cost]);
      const mine = !!chosen && chosen.patch === pid;
      const usable = act && !used.has(pid) && !refusal;
      const { card, picture } = patchCard({ catalogue, pid, facts, shape: mine ? chosen : null, pressed: mine,
        usable, refusal, note: refusal ? t("(over the budget)") : "", onChoose: (id) => this.choose(id),
        onRefused: (why) => showError(new Error(why)) });
      if (usable) this.placer_.draggable(picture, () => this.choose(pid, true));
      if (used.has(pid)) card.classList.add("used");
      box.appendChild(card);
    }
    const { value, cost } = this.value();
    // Translators: {amount} is "12 cells" or "5 points".
    $("fill-score").textContent = f.budget !== null
      ? tn("Your fill: {amount}, costing {count} button (budget {budget})", "Your fill: {amount}, costing {count} buttons (budget {budget})", cost, { amount: this.amount(value), budget: f.budget })
      : tn("Your fill: {amount}, costing {count} button", "Your fill: {amount}, costing {count} buttons", cost, { amount: this.amount(value) });
    $("fill-undo").disabled = !act || !this.placed.length;
    $("fill-done").disabled = !act;
    $("fill-rotate").disabled = $("fill-flip").disabled = !act || !chosen;
    $("fill-place").disabled = !act || !chosen || !this.placer_.hover;
    $("fill-optimum-box").hidden = !answer;
    if (answer) {
      const optimum = answer.details.optimum.map((/** @type {any} */ p) => ({ patch: p.patch, cells: p.cells,
        buttons: selectionOn(catalogue, p.patch, p.cells)?.buttons || [] }));
      this.optimum.show({ given: f.quilt, pieces: optimum });
    }
    drawTray($("fill-tray-shape"), $("fill-tray-caption"), this.placer_, chosen ? t("Patch {patch}", { patch: `#${chosen.patch}` }) : "");
  }

  /** @param {number} n */
  amount(n) {
    return this.puzzle.details.objective === "cells" ? tn("{count} cell", "{count} cells", n) : tn("{count} point", "{count} points", n);
  }

  /** @param {any} puzzle */
  task(puzzle) {
    const f = puzzle.details;
    const n = f.patches.length;
    const said = [f.objective === "cells"
      ? tn("Fill the quilt with some of the {count} patch (each at most once) for as many covered cells as possible.",
        "Fill the quilt with some of the {count} patches (each at most once) for as many covered cells as possible.", n)
      // Translators: {marks} is how many income marks are still ahead.
      : tn("Fill the quilt with some of the {count} patch (each at most once) for the best score change (2 a cell, income times the {marks} income marks ahead, less the price).",
        "Fill the quilt with some of the {count} patches (each at most once) for the best score change (2 a cell, income times the {marks} income marks ahead, less the price).", n, { marks: f.marks })];
    if (f.budget !== null) said.push(tn("Spend at most {count} button.", "Spend at most {count} buttons.", f.budget));
    if (f.require_bonus) said.push(t("Complete a 7x7 square."));
    said.push(t("Difficulty {difficulty} of 5.", { difficulty: puzzle.difficulty }));
    return said.join(" ");
  }

  /** @param {any} puzzle @param {any} a */
  verdict(puzzle, a) {
    const mine = this.value().value;
    // Translators: {amount} and {best} are "12 cells" or "5 points".
    if (a.correct) return t("Your fill reaches {amount}: the proven optimum.", { amount: this.amount(mine) });
    const { value, best } = a.details;
    if (puzzle.details.require_bonus && value === 0 && mine !== 0) {
      return t("Your fill reaches {amount} but completes no 7x7 square, so it does not count; the proven optimum, drawn beside your quilt, reaches {best} with one.",
        { amount: this.amount(mine), best: this.amount(best) });
    }
    return t("Your fill reaches {amount}; the proven optimum, drawn beside your quilt, reaches {best}.", { amount: this.amount(mine), best: this.amount(best) });
  }

  /** @param {any} puzzle @param {any} a @param {HTMLElement} box */
  proof(puzzle, a, box) {
    box.replaceChildren();  // the optimum is drawn beside the quilt
  }

  /** The quilt, the patches and the fill's options. @param {any} puzzle */
  workshop(puzzle) {
    const f = puzzle.details;
    return workshopHref({ quilt: f.quilt, patches: f.patches, objective: f.objective, budget: f.budget, marks: f.marks,
      bonus: f.require_bonus });
  }

  placer() {
    return this.placer_;
  }

  cancel() {
    this.placer_.choose(null);
    this.page.changed();
  }

  key() {
    return false;
  }
}

export default {
  kind: "fill",
  label: t("fill the quilt"),
  about: t("place some of the patches on the quilt for the most covered cells, the best score within a "
    + "button budget, or a complete 7x7 square. The optimum is proven by the fill optimizer and shown "
    + "after your answer."),
  /** @param {any} page */
  mount: (page) => new FillBoard(page),
};
