// workshop/ask.js: the three questions, asked of the workshop's API. Best placements answer at once;
// a fill and the 7x7 question are jobs, followed by long polls (their progress shown as it comes)
// and cancelled with Cancel. The server runs one job of a client at a time, so a running job is
// cancelled before anything else is asked. Whatever is asked, the page keeps answering: nothing
// waits on the main thread, and an answer that comes back for a quilt or patches changed since is
// dropped.
//
//   askPlacements(), askFill(), askBonus()   ask (a refusal is the page's error line); a fill and the
//                                            7x7 are first given FIRST_SECONDS
//   askMore()                                Give it more time: the answer's question asked again with
//                                            the longer time the server offers (its more_seconds)
//   cancelJob()                              Cancel: the job's best answer so far is kept and shown
//   stopJob()                                the running job cancelled quietly (its answer dropped)
//   fillBody(), bonusBody(), placementsBody()  the requests, from the page's state

import { api } from "../components/api.js";
import { t } from "../components/i18n.js";
import { showError, sleep } from "../components/dom.js";
import { S, coveredCells, render } from "./state.js";

//: The seconds a fill or the 7x7 question is first given: most answers are proven well within them,
//: and one that is not comes with "Give it more time" (the server's cap) rather than a longer wait.
export const FIRST_SECONDS = 3;
//: How long one poll may wait for its job to end (s): the progress is drawn this often at least.
const POLL_WAIT = 0.5;
//: How often, and how many times, a cancelled job is read again for the answer its solver returns late.
const LATE_POLL_MS = 250;
const LATE_POLLS = 40;
let generation = 0;  // bumped by forget(): answers asked before it are dropped

/** The question changed (quilt, patches, options): answers still on their way are dropped. */
export function forget() {
  generation++;
}

/** @param {string} text a whole number as typed, or anything else (the API names what is wrong) */
const number = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text);

export function placementsBody() {
  /** @type {any} */
  const body = { quilt: coveredCells(), patch: S.chosen[0], next: S.chosen.slice(1), top: 5 };
  if (S.source) {  // the patches still to come are the position's circle
    const circle = [...S.source.offers.map((/** @type {any} */ o) => o.patch), ...S.source.upcoming];
    const pool = circle.filter((id) => id !== S.chosen[0]);
    if (pool.length) body.pool = pool;
  }
  return body;
}

/** @param {number} [seconds] the time it may search (the server caps it) */
export function fillBody(seconds = FIRST_SECONDS) {
  const o = S.options;
  /** @type {any} */
  const body = { patches: S.chosen, quilt: coveredCells(), objective: o.objective, marks: number(o.marks),
    require_bonus: o.bonus, time_limit: seconds };
  if (o.budget.trim() !== "") body.budget = number(o.budget);
  return body;
}

/** @param {number} [seconds] the time it may search (the server caps it) */
export function bonusBody(seconds = FIRST_SECONDS) {
  return { quilt: coveredCells(), patches: S.chosen, time_limit: seconds };
}

/** @returns {boolean} patches are chosen (else the error line says so) */
function haveChoice() {
  if (S.chosen.length) return true;
  showError(new Error(t("choose a patch first: press one of the Patches")));
  return false;
}

export async function askPlacements() {
  if (S.asking || !haveChoice()) return;
  showError(null);
  S.asking = true;
  render();
  const mine = ++generation;
  try {
    await stopJob();
    const view = await api("POST", "/api/workshop/placements", placementsBody());
    if (mine !== generation) return;
    S.answer = { kind: "placements", view };
    S.mode = "placements";
    S.step = Math.min(Math.max(S.step, 1), view.placements.length);
  } catch (err) {
    if (mine === generation) showError(err);
  } finally {
    S.asking = false;
    render();
  }
}

export const askFill = () => submit("fill", "/api/workshop/fills", fillBody());
export const askBonus = () => submit("bonus", "/api/workshop/bonus", bonusBody());

/** The answer on screen ran out of time unsettled: its question asked again with the time the server offers. */
export function askMore() {
  const a = S.answer, seconds = a && a.kind !== "placements" ? a.view.more_seconds : null;
  if (!seconds) return Promise.resolve();
  return a.kind === "fill" ? submit("fill", "/api/workshop/fills", fillBody(seconds))
    : submit("bonus", "/api/workshop/bonus", bonusBody(seconds));
}

/** @param {"fill"|"bonus"} kind @param {string} path @param {any} body */
async function submit(kind, path, body) {
  if (S.asking || !haveChoice()) return;
  showError(null);
  S.asking = true;
  const step = S.mode === kind || S.mode === "" ? S.step : 0;  // a link's step, or the one shown
  S.answer = null;
  S.mode = kind;
  render();
  const mine = ++generation;
  try {
    await stopJob();
    const job = await api("POST", path, body);
    if (mine !== generation) { cancelQuietly(job); return; }
    S.job = job;
    S.step = step;
  } catch (err) {
    if (mine === generation) { S.mode = ""; showError(err); }
    return;
  } finally {
    S.asking = false;
    render();
  }
  await follow(S.job.id, kind);
}

/** Poll the job until it ends, drawing its progress. @param {string} id @param {"fill"|"bonus"} kind */
async function follow(id, kind) {
  while (S.job && S.job.id === id) {
    let view;
    try {
      view = await api("GET", `/api/workshop/jobs/${id}?wait=${POLL_WAIT}`);
    } catch (err) {
      if (S.job && S.job.id === id) { S.job = null; showError(err); render(); }
      return;
    }
    if (!S.job || S.job.id !== id) return;
    settle(view, kind);
  }
}

/** @param {any} view a JobView @param {"fill"|"bonus"} kind */
function settle(view, kind) {
  if (view.state === "queued" || view.state === "running") {
    S.job = view;
  } else {
    S.job = null;
    if (view.state === "failed") showError(new Error(view.words));
    S.answer = view.fill || view.bonus || view.state === "cancelled" ? { kind, view } : null;
    if (!S.answer) S.mode = "";
    // cancelled while its solver was still building its model: the best it found comes a little later
    if (view.state === "cancelled" && !view.fill && !view.bonus && view.progress.elapsed > 0) lateAnswer(view.id, kind);
  }
  render();
}

/** A cancelled job's answer, once its solver has returned (polled a few seconds at most). @param {string} id @param {"fill"|"bonus"} kind */
async function lateAnswer(id, kind) {
  for (let i = 0; i < LATE_POLLS; i++) {
    await sleep(LATE_POLL_MS);
    if (!S.answer || S.answer.view.id !== id) return;
    const view = await api("GET", `/api/workshop/jobs/${id}`).catch(() => null);
    if (!S.answer || S.answer.view.id !== id || !view) return;
    if (view.fill || view.bonus) {
      S.answer = { kind, view };
      render();
      return;
    }
  }
}

export async function cancelJob() {
  const job = S.job;
  if (!job) return;
  try {
    const view = await api("POST", job.links.cancel);
    if (S.job && S.job.id === job.id) settle(view, job.kind);
  } catch (err) {
    showError(err);
  }
}

/** @param {any} job */
function cancelQuietly(job) {
  api("POST", job.links.cancel).catch(() => {});
}

/** The running job cancelled (its answer dropped): the server runs one job of ours at a time. */
export async function stopJob() {
  const job = S.job;
  if (!job) return;
  S.job = null;
  render();
  try {
    await api("POST", job.links.cancel);
  } catch (err) {
    // it ended meanwhile, or the server forgot it: either way it no longer holds a worker
  }
}
