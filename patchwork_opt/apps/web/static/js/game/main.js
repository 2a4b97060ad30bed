// game/main.js: the game page (index.html): a game against the AI through the JSON API, the AI's
// moves shown as they come, the moves played and the review stepped through. Built from the shared
// components (components/): QuiltView, Placer, patch cards, the track, the move in words. A game
// between people (a friend by a link, two players here) is drawn the same way and then said in its
// players' words, with its own controls (friend.js).

import { api, catalogue } from "../components/api.js";
import { $, editing, showError } from "../components/dom.js";
import { LEATHER, coveredSet } from "../components/geometry.js";
import { Placer } from "../components/placer.js";
import { analysisHref, drawNav, workshopHref } from "../components/nav.js";
import { QuiltView } from "../components/quilt.js";
import { onLayoutChange } from "../components/track.js";
import { advanceText, drawOffers, drawPosition, drawTrayAndControls } from "./board.js";
import { showHint } from "./hints.js";
import { afterOpen, drawPeople, linkedGame, rematchAny, startAny, wireFriend } from "./friend.js";
import { drawLog, drawViewing, leaveView, stepView, viewMove } from "./history.js";
import { commitPlacement, openGame, play, playOn, undo } from "./play.js";
import { practise } from "./practise.js";
import { showReviewPly, startReview, stepReview } from "./review.js";
import { S, aiSeat, canAct, humanSeat, render, setRenderer } from "./state.js";
import { drawResult, drawTurn, statusText } from "./status.js";
import { drawLesson } from "./teaching.js";

/** @param {string} id @returns {HTMLButtonElement} */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));

function draw() {
  const g = S.game;
  $("welcome").hidden = !!g;
  if (!g) return;
  $("game").hidden = false;
  $("viewing").hidden = !S.viewing;
  $("human-title").textContent = `Your quilt (you move ${humanSeat() === 0 ? "first" : "second"}`
    + `${g.teaching ? "; a teaching game" : ""})`;
  $("ai-title").textContent = `The AI's quilt (${g.ai}, level ${g.level})`;
  if (S.viewing) drawViewing();
  else drawPosition();
  drawTurn();
  drawOffers();
  drawTrayAndControls();
  drawLog();
  drawResult();
  drawLesson();
  $("status").textContent = statusText();
  const act = canAct();
  button("advance").textContent = advanceText();
  button("advance").disabled = !act || g.pending_leather;
  button("hint").disabled = !act || !S.hintAvailable;
  button("undo").disabled = S.busy || !!S.viewing || !g.moves.some((/** @type {any} */ m) => m.actor === "human");
  /** @type {HTMLAnchorElement} */ ($("export")).href = `/api/games/${g.id}/record?download=true`;
  /** @type {HTMLAnchorElement} */ ($("to-workshop")).href = workshopHref({ game: g.id,
    ply: S.viewing ? S.viewing.index + 1 : g.ply, player: humanSeat() });
  /** @type {HTMLAnchorElement} */ ($("to-analysis")).href = analysisHref({ game: g.id, ply: S.viewing ? S.viewing.index + 1 : g.ply });
  $("review").hidden = !S.review;
  button("review-start").disabled = S.busy || !g.state.over;
  button("rematch").disabled = S.busy;
  button("review-start").textContent = S.review ? "Review again" : "Review the game";
  button("practise").disabled = S.busy || !S.review;
  // for scripts and tests: what the page is waiting for
  document.body.dataset.ply = g.ply;
  document.body.dataset.busy = String(S.busy);
  document.body.dataset.turn = g.state.over ? "over" : g.human_to_move ? "human" : "ai";
  drawPeople();
}

/** @param {KeyboardEvent} evt */
function onKey(evt) {
  if (editing(evt)) return;
  if (evt.key === "r" || evt.key === "R") S.placer.turn("rotate");
  else if (evt.key === "f" || evt.key === "F") S.placer.turn("flip");
  else if (evt.key === "Escape") {
    if (S.viewing) leaveView();
    else button("cancel").click();
  } else if (evt.key === "ArrowLeft" || evt.key === "ArrowRight") {
    const delta = evt.key === "ArrowLeft" ? -1 : 1;
    if (S.review && !$("review").hidden) stepReview(delta);
    else if (!stepView(delta)) return;
    evt.preventDefault();
  }
}

function wire() {
  $("new-game").addEventListener("submit", startAny);
  $("advance").addEventListener("click", () => canAct() && play({ type: "advance" }));
  $("hint").addEventListener("click", showHint);
  $("review-start").addEventListener("click", startReview);
  $("practise").addEventListener("click", () => practise());
  $("practise-second").addEventListener("click", () => practise(1));
  $("rematch").addEventListener("click", rematchAny);
  $("undo").addEventListener("click", undo);
  $("take-back").addEventListener("click", undo);
  $("play-on").addEventListener("click", playOn);
  $("rotate").addEventListener("click", () => S.placer.turn("rotate"));
  $("flip").addEventListener("click", () => S.placer.turn("flip"));
  $("place").addEventListener("click", () => S.placer.place());
  $("cancel").addEventListener("click", () => {
    const sel = S.placer.selected;
    if (sel && sel.patch !== LEATHER) { S.placer.choose(null); showError(null); render(); }
  });
  S.placer.draggable($("tray-shape"), () => !!S.placer.selected);
  $("view-prev").addEventListener("click", () => S.viewing && viewMove(S.viewing.index - 1));
  $("view-next").addEventListener("click", () => S.viewing && viewMove(S.viewing.index + 1));
  $("view-back").addEventListener("click", leaveView);
  $("review-first").addEventListener("click", () => showReviewPly(0));
  $("review-prev").addEventListener("click", () => stepReview(-1));
  $("review-next").addEventListener("click", () => stepReview(1));
  $("review-last").addEventListener("click", () => S.review && showReviewPly(S.review.plies.length - 1));
  wireFriend();
  document.addEventListener("keydown", onKey);
  onLayoutChange(render);
}

async function boot() {
  drawNav($("site-nav"));
  const [cat, ais, health] = await Promise.all([catalogue(), api("GET", "/api/ais"), api("GET", "/api/health")]);
  S.catalogue = cat;
  S.hintAvailable = health.solvers.includes("hint");
  /** @param {string} id */
  const view = (id) => new QuiltView(/** @type {any} */ ($(id)));
  S.quilts = { human: view("quilt-human"), ai: view("quilt-ai"), strip: view("strip-quilt-ai"),
    reviewHuman: view("review-quilt-human"), reviewAi: view("review-quilt-ai") };
  S.placer = new Placer(S.quilts.human, {
    catalogue: cat,
    canAct,
    covered: () => coveredSet(S.game.boards[humanSeat()].pieces),
    commit: commitPlacement,
    changed: render,
  });
  setRenderer(draw);
  const select = $("ai");
  for (const ai of ais) {
    const option = document.createElement("option");
    option.value = ai.name;
    option.textContent = ai.name;
    option.selected = ai.default;
    select.appendChild(option);
  }
  wire();
  window.addEventListener("hashchange", followLink);
  await followLink();
  document.body.dataset.ready = "true";
}

/** The game the address names (/#id) on screen: as the page loads, and when a game link is opened in the same tab. */
async function followLink() {
  const id = linkedGame();
  if (!id || (S.game && S.game.id === id)) return;
  /** @type {HTMLDetailsElement} */ ($("setup")).open = false;
  await openGame(id);
  await afterOpen();
}

boot().catch(showError);
