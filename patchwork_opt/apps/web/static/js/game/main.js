// game/main.js: the game page (index.html): a game against the AI through the JSON API, the AI's
// moves shown as they come, the moves played and the review stepped through. Built from the shared
// components (components/): the PositionBoard every page shows a position on (board.js lays it on
// this page's own layout), QuiltView, the track, the move in words. A game
// between people (a friend by a link, two players here) is drawn the same way and then said in its
// players' words, with its own controls (friend.js).

import { api, catalogue } from "../components/api.js";
import { $, editing, showError } from "../components/dom.js";
import { t } from "../components/i18n.js";
import { analysisHref, drawNav, workshopHref } from "../components/nav.js";
import { QuiltView } from "../components/quilt.js";
import { onLayoutChange } from "../components/track.js";
import { drawPosition, mountBoard } from "./board.js";
import { showHint } from "./hints.js";
import { afterOpen, drawPeople, linkedGame, rematchAny, startAny, wireFriend } from "./friend.js";
import { drawLog, drawViewing, leaveView, stepView, viewMove } from "./history.js";
import { openGame, play, playOn, undo } from "./play.js";
import { practise } from "./practise.js";
import { showReviewPly, startReview, stepReview } from "./review.js";
import { S, canAct, humanSeat, render, setRenderer } from "./state.js";
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
  const first = humanSeat() === 0;
  const yours = g.teaching ? (first ? t("Your quilt (you move first; a teaching game)")
    : t("Your quilt (you move second; a teaching game)"))
    : first ? t("Your quilt (you move first)") : t("Your quilt (you move second)");
  // Translators: {ai} is the AI's name (such as greedy or mcts), {level} its level, a number.
  const titles = [yours, t("The AI's quilt ({ai}, level {level})", { ai: g.ai, level: g.level })];
  if (S.viewing) {
    $("human-title").textContent = titles[0];
    $("ai-title").textContent = titles[1];
    drawViewing();
    S.board.drawSide();  // the offers of the game now, not live while a past move is shown
  } else drawPosition(titles);
  drawTurn();
  drawLog();
  drawResult();
  drawLesson();
  $("status").textContent = statusText();
  button("hint").disabled = !canAct() || !S.hintAvailable;
  button("undo").disabled = S.busy || !!S.viewing || !g.moves.some((/** @type {any} */ m) => m.actor === "human");
  /** @type {HTMLAnchorElement} */ ($("export")).href = `/api/games/${g.id}/record?download=true`;
  /** @type {HTMLAnchorElement} */ ($("to-workshop")).href = workshopHref({ game: g.id,
    ply: S.viewing ? S.viewing.index + 1 : g.ply, player: humanSeat() });
  /** @type {HTMLAnchorElement} */ ($("to-analysis")).href = analysisHref({ game: g.id, ply: S.viewing ? S.viewing.index + 1 : g.ply });
  $("review").hidden = !S.review;
  button("review-start").disabled = S.busy || !g.state.over;
  button("rematch").disabled = S.busy;
  button("review-start").textContent = S.review ? t("Review again") : t("Review the game");
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
  $("hint").addEventListener("click", showHint);
  $("review-start").addEventListener("click", startReview);
  $("practise").addEventListener("click", () => practise());
  $("practise-second").addEventListener("click", () => practise(1));
  $("rematch").addEventListener("click", rematchAny);
  $("undo").addEventListener("click", undo);
  $("take-back").addEventListener("click", undo);
  $("play-on").addEventListener("click", playOn);
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
  S.board = mountBoard(play);
  S.quilts = { human: S.board.views[0], ai: S.board.views[1], strip: view("strip-quilt-ai"),
    reviewHuman: view("review-quilt-human"), reviewAi: view("review-quilt-ai") };
  S.placer = S.board.placers[0];
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
