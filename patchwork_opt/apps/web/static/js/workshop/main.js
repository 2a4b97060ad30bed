// workshop/main.js: the workshop page (workshop.html): a quilt of your own, painted or taken from a
// position, and patches chosen by their look; its best placements, the optimal fill and the 7x7
// question, answered by the workshop's API and drawn on the quilt. Built from the shared components
// (a QuiltView with cell buttons and its QuiltPainter, patch cards, the site's nav); the page's whole
// state lives in its address (address.js), so a link reproduces it.

import { catalogue } from "../components/api.js";
import { $, REDUCED_MOTION, editing, showError } from "../components/dom.js";
import { key } from "../components/geometry.js";
import { analysisHref, drawNav } from "../components/nav.js";
import { QuiltPainter } from "../components/painter.js";
import { QuiltView } from "../components/quilt.js";
import { t, tn } from "../components/i18n.js";
import { readAddress, writeAddress } from "./address.js";
import { drawAnswer, drawQuilt, shownStep, stepTo } from "./answer.js";
import { askBonus, askFill, askMore, askPlacements, cancelJob, forget, stopJob } from "./ask.js";
import { applyFilters, chooseOffers, chooseShown, chosenWords, drawChoice, mountPatches, showFilters } from "./patches.js";
import { fromGame, fromPosition, fromText, sourceWords, takeSource } from "./source.js";
import { S, dropAnswer, keptPieces, render, setCovered, setRenderer } from "./state.js";

/** @type {QuiltView} */
let quilt;
//: A phone's width (workshop.css's one column): the quilt is out of view when a question is asked.
const NARROW = window.matchMedia("(max-width: 700px)");

/** @param {string} id @returns {HTMLButtonElement} */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** @param {string} id @returns {HTMLInputElement} */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

function draw() {
  drawQuilt(quilt);
  const covered = S.covered.size;
  $("quilt-facts").textContent = tn("{count} cell covered, {empty} empty", "{count} cells covered, {empty} empty", covered, { empty: 81 - covered });
  $("source").hidden = !S.source;
  if (S.source) {
    $("source-text").textContent = sourceWords(S.source);
    /** @type {HTMLAnchorElement} */ ($("source-analysis")).href = analysisHref({ position: S.source.position });
    for (const p of [0, 1]) button(`player-${p}`).setAttribute("aria-pressed", String(S.source.player === p));
  }
  $("chosen-text").textContent = chosenWords();
  button("choose-offers").hidden = !S.source || !S.source.offers.length;
  button("unchoose").disabled = !S.chosen.length;
  drawChoice();
  const job = S.job;
  $("job").hidden = !job;
  if (job) {
    const bar = /** @type {HTMLProgressElement} */ ($("job-progress"));
    bar.max = job.progress.time_limit;
    bar.value = Math.min(job.progress.elapsed, job.progress.time_limit);
  }
  // Translators: {words} is the server's words on the question's progress.
  $("job-words").textContent = job ? (job.kind === "fill" ? t("Optimal fill: {words}", { words: job.words }) : t("The 7x7: {words}", { words: job.words }))
    : S.asking && S.mode !== "fill" && S.mode !== "bonus" ? t("Asking…") : "";
  for (const id of ["best-placements", "optimal-fill", "can-bonus"]) button(id).disabled = S.asking;
  drawAnswer();
  answerInView();
  writeAddress();
  document.body.dataset.busy = String(S.asking || !!S.job);
}

let shownAnswer = "";
/** A new answer on a phone: the quilt it is drawn on (and its words under it) scrolled into view. */
function answerInView() {
  const a = S.answer, now = a ? `${a.kind}:${a.view.id || a.view.patch}` : "";
  if (now && now !== shownAnswer && NARROW.matches) {
    $("quilt-panel").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
  }
  shownAnswer = now;
}

/** The question changed: the answer on screen and any answer on its way no longer hold. */
function changed() {
  forget();
  if (S.job) stopJob();
  dropAnswer();
  render();
}

/** @param {() => Promise<any>} load a QuiltSource, taken as the page's quilt (errors: the error line) */
async function start(load) {
  showError(null);
  S.asking = true;
  render();
  try {
    const source = await load();
    if (S.job) await stopJob();
    forget();
    takeSource(source);
  } catch (err) {
    showError(err);
  } finally {
    S.asking = false;
    render();
  }
}

function wireQuilt() {
  quilt = new QuiltView(/** @type {any} */ ($("quilt")), { cellButtons: true });
  new QuiltPainter(quilt, {
    covered: () => S.covered,
    paint: (cells, cover) => {
      for (const [r, c] of cells) {
        if (cover) S.covered.add(key(r, c));
        else S.covered.delete(key(r, c));
      }
      S.pieces = keptPieces();
      changed();
    },
  });
  $("clear").addEventListener("click", () => { setCovered([]); changed(); });
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $("copied").textContent = t("The link is copied: it opens the workshop as it is now.");
    } catch (err) {
      $("copied").textContent = t("Copy the page's address: it opens the workshop as it is now.");
    }
  });
}

function wireStart() {
  $("text-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    start(() => fromText(/** @type {HTMLTextAreaElement} */ ($("quilt-text")).value));
  });
  $("position-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const who = /** @type {HTMLSelectElement} */ ($("position-player")).value;
    start(() => fromPosition(input("position-text").value.trim(), who === "" ? null : Number(who)));
  });
  for (const p of [0, 1]) {
    $(`player-${p}`).addEventListener("click", () => {
      if (S.source && S.source.player !== p) start(() => fromPosition(S.source.position, p));
    });
  }
}

function wireAsk() {
  $("choose-offers").addEventListener("click", chooseOffers);
  $("choose-shown").addEventListener("click", chooseShown);
  $("unchoose").addEventListener("click", () => { S.chosen = []; changed(); });
  /** @type {[string, "objective"|"budget"|"marks"][]} */
  const fields = [["objective", "objective"], ["budget", "budget"], ["marks", "marks"]];
  for (const [id, name] of fields) {
    $(id).addEventListener("input", () => {
      S.options[name] = input(id).value;
      if (S.mode === "fill") changed(); else render();
    });
  }
  $("require-bonus").addEventListener("change", () => {
    S.options.bonus = input("require-bonus").checked;
    if (S.mode === "fill") changed(); else render();
  });
  $("best-placements").addEventListener("click", askPlacements);
  $("optimal-fill").addEventListener("click", askFill);
  $("can-bonus").addEventListener("click", askBonus);
  $("more-time").addEventListener("click", askMore);
  $("cancel-job").addEventListener("click", cancelJob);
  $("step-prev").addEventListener("click", () => stepTo(shownStep() - 1));
  $("step-next").addEventListener("click", () => stepTo(shownStep() + 1));
  document.addEventListener("keydown", (evt) => {
    const target = /** @type {Element} */ (evt.target);
    if (editing(evt) || !S.answer || (target.classList && target.classList.contains("cell"))) return;
    if (evt.key !== "ArrowLeft" && evt.key !== "ArrowRight") return;
    stepTo(shownStep() + (evt.key === "ArrowLeft" ? -1 : 1));
    evt.preventDefault();
  });
}

/** The options' fields as the state holds them. */
function showOptions() {
  const o = S.options;
  /** @type {HTMLSelectElement} */ ($("objective")).value = o.objective;
  input("budget").value = o.budget;
  input("marks").value = o.marks;
  input("require-bonus").checked = o.bonus;
}

/** The page as its address says: the source, then the quilt, patches, options and the answer asked. */
async function open() {
  const a = readAddress(location.search);
  if (a.problems.length) showError(new Error(t("this link: {problems}", { problems: a.problems.join("; ") })));
  S.chosen = a.patches;
  Object.assign(S.filters, a.filters);
  showFilters();
  if (a.game || a.position) {
    try {
      takeSource(a.game ? await fromGame(a.game, a.ply === null ? 0 : a.ply, a.player)
        : await fromPosition(a.position, a.player));
    } catch (err) {
      showError(err);
    }
  }
  if (a.quilt) setCovered(a.quilt);
  Object.assign(S.options, a.options);
  showOptions();
  S.step = a.step;
  if (a.mode === "placements") await askPlacements();
  else if (a.mode === "fill") askFill();
  else if (a.mode === "bonus") askBonus();
}

async function boot() {
  drawNav($("site-nav"));
  S.catalogue = await catalogue();
  wireQuilt();
  wireStart();
  wireAsk();
  mountPatches({ chosen: changed, listed: render });
  setRenderer(draw);
  await open();
  if (Object.values(S.filters).some(Boolean)) await applyFilters();
  render();
  document.body.dataset.ready = "true";
}

boot().catch(showError);
