// puzzles/main.js: the Puzzles page (puzzles.html): a puzzle from POST /api/puzzles, the answer to
// POST /api/puzzles/{id}/answer, the verdict with its proof and both ratings. Each kind of puzzle
// is its own module (kinds/), loaded by the registry when a puzzle of it first comes; this module
// knows no kind by name.

import { api, catalogue } from "../components/api.js";
import { $, REDUCED_MOTION, editing, html, showError } from "../components/dom.js";
import { drawNav } from "../components/nav.js";
import { drawHeader, drawStreak, fillKindSelect, fillThemeSelect, leaveSet, newPuzzleRequest, nextOfSet, noteText } from "./habits.js";
import { kindModule } from "./kinds/index.js";
import { S, canAct, ratingText, render, setRenderer } from "./state.js";
import { drawVerdict } from "./verdict.js";
import { t } from "../components/i18n.js";

const VISITOR_KEY = "patchwork-puzzle-visitor";
const PUZZLE_ID = /^[a-z][0-9a-f]{12}$/;
/** @type {Map<string, any>} the boards mounted, by kind */
const boards = new Map();
let reload = false;  // a filter changed while a request ran: load a puzzle of the new choice after it

function draw() {
  const p = S.puzzle;
  $("intro").hidden = !!p;
  $("puzzle").hidden = !p;
  document.body.dataset.busy = String(S.busy);
  if (S.visitor) $("my-rating").textContent = t("Your puzzle rating: {rating}", { rating: ratingText(S.visitor) });
  drawStreak();
  drawHeader();
  if (!p) return;
  for (const [kind, board] of boards) board.section.hidden = kind !== p.kind;
  $("task").textContent = S.board.task(p);
  $("puzzle-themes").hidden = !p.themes.length;
  $("puzzle-themes").textContent = t("Themes: {themes}.", { themes: p.themes.map((/** @type {any} */ theme) => theme.words).join(", ") });
  $("puzzle-note").textContent = noteText();
  $("puzzle-note").hidden = !$("puzzle-note").textContent;
  $("puzzle-rating").textContent = S.board.rated === false ? t("Puzzle {id}, not rated (an exercise of your own)", { id: p.id })
    : t("Puzzle {id}, rated {rating}", { id: p.id, rating: ratingText(S.answer ? S.answer.rating : p.rating) });
  /** @type {HTMLAnchorElement} */ ($("puzzle-workshop")).href = S.board.workshop(p);
  const analysis = S.answer && S.board.analysis ? S.board.analysis(p) : "";  // once answered: no spoiler before
  $("puzzle-analysis").hidden = !analysis;
  if (analysis) /** @type {HTMLAnchorElement} */ ($("puzzle-analysis")).href = analysis;
  S.board.draw(p, S.answer);
  drawVerdict();
  document.body.dataset.puzzle = p.id;
  document.body.dataset.kind = p.kind;
}

/** @param {string} kind @returns {Promise<any>} the kind's board, mounted the first time */
async function boardOf(kind) {
  if (!boards.has(kind)) {
    const module = await kindModule(kind);
    boards.set(kind, module.mount({ main: $("puzzle"), catalogue: S.catalogue, canAct, answer: sendAnswer, changed: render }));
  }
  return boards.get(kind);
}

/** @param {any} puzzle @param {boolean} [inStreak] */
async function setPuzzle(puzzle, inStreak = false) {
  S.board = await boardOf(puzzle.kind);
  S.puzzle = puzzle;
  S.inStreak = inStreak;
  S.streakBefore = puzzle.visitor ? puzzle.visitor.streak : (S.visitor ? S.visitor.streak : 0);
  S.answer = null;
  S.board.start(puzzle);
  if (puzzle.visitor) S.visitor = puzzle.visitor;
  if (location.hash !== `#${puzzle.id}`) history.replaceState(null, "", `${location.pathname}${location.search}#${puzzle.id}`);
  render();
}

/** @param {() => Promise<any>} fn @param {boolean} [inStreak] */
async function load(fn, inStreak = false) {
  if (S.busy) { reload = true; return; }
  S.busy = true;
  showError(null);
  render();
  try {
    await setPuzzle(await fn(), inStreak);
  } catch (err) {
    showError(err);
    $("puzzle").hidden = false;
  } finally {
    S.busy = false;
    render();
  }
  if (reload) { reload = false; await newPuzzle(); }
}

/** @param {Event} [evt] */
function newPuzzle(evt) {
  if (evt) evt.preventDefault();
  window.scrollTo({ top: 0 });
  const next = nextOfSet();
  if (next) return load(() => api("GET", `/api/puzzles/${next}`));
  return load(() => api("POST", "/api/puzzles", newPuzzleRequest()), S.streakMode);
}

/** A filter changed: a puzzle of the new choice now (a set being practised is left). */
function filtersChanged() {
  leaveSet();
  return newPuzzle();
}

/** @param {any} body @returns {Promise<any>} the AnswerView, or null when the answer was refused */
async function sendAnswer(body) {
  if (!canAct()) return null;
  S.busy = true;
  showError(null);
  render();
  try {
    if (S.visitor) body.visitor = S.visitor.id;
    if (S.inStreak) body.streak = true;
    const answer = await api("POST", `/api/puzzles/${S.puzzle.id}/answer`, body);
    S.answer = answer;
    S.visitor = answer.visitor;
    localStorage.setItem(VISITOR_KEY, answer.visitor.id);
  } catch (err) {
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
  if (!S.answer) return null;
  // the verdict comes into view by itself
  $("verdict").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
  $("verdict").focus({ preventScroll: true });
  return S.answer;
}

/** @param {KeyboardEvent} evt */
function onKey(evt) {
  if (editing(evt) || !S.puzzle) return;
  if (S.board.key(evt)) { evt.preventDefault(); return; }
  if (evt.key === "r" || evt.key === "R") S.board.placer().turn("rotate");
  else if (evt.key === "f" || evt.key === "F") S.board.placer().turn("flip");
  else if (evt.key === "Escape") S.board.cancel();
}

function wire() {
  $("new-puzzle").addEventListener("submit", newPuzzle);
  $("kind").addEventListener("change", () => { fillThemeSelect(); filtersChanged(); });
  $("difficulty").addEventListener("change", filtersChanged);
  $("theme").addEventListener("change", filtersChanged);
  $("streak-mode").addEventListener("click", () => {
    S.streakMode = !S.streakMode;
    if (S.streakMode) filtersChanged();
    else render();
  });
  $("daily").addEventListener("click", () => {
    window.scrollTo({ top: 0 });
    return load(() => api("GET", "/api/puzzles/daily"));
  });
  document.addEventListener("keydown", onKey);
}

/** The kinds a new puzzle may be asked of (the server's), their modules, and their introductions. */
async function loadKinds() {
  S.themes = (await api("GET", "/api/puzzles/themes")).kinds;
  S.kinds = await Promise.all(Object.keys(S.themes).map(kindModule));
  fillKindSelect();
  fillThemeSelect();
  const intro = $("kinds-intro");
  for (const k of S.kinds) {
    const p = html("p", {}, intro);
    html("b", {}, p, k.label.charAt(0).toUpperCase() + k.label.slice(1));
    p.append(`: ${k.about}`);
  }
}

async function boot() {
  drawNav($("site-nav"));
  S.catalogue = await catalogue();
  await loadKinds();
  setRenderer(draw);
  const named = new URLSearchParams(location.search).get("set");
  S.set = named ? [...new Set(named.split(",").filter((id) => PUZZLE_ID.test(id)))] : [];
  wire();
  const stored = localStorage.getItem(VISITOR_KEY);
  const id = location.hash.slice(1);
  if (stored) {
    try {
      const view = await api("POST", "/api/puzzles", { kind: S.kinds[0].kind, visitor: stored });
      S.visitor = view.visitor;
      if (!id && !S.set.length) await setPuzzle(view);
    } catch (err) {
      localStorage.removeItem(VISITOR_KEY);  // a visitor this server does not know: start afresh
    }
  }
  if (!S.puzzle) {
    const first = S.set.includes(id) ? id : S.set[0] || id;
    if (first) await load(() => api("GET", `/api/puzzles/${first}`));
    else await newPuzzle();
  }
  document.body.dataset.ready = "true";
}

boot().catch(showError);
