// game/review.js: the review of a finished game (GET /api/games/{id}/review): each player's
// accuracy, error rate and take-backs and the deal's luck (measures.js), the win-chance chart (the
// server's SVG, parsed as data: no script runs), the legend (the server's label_rule and
// measures_rule), the flagged moves, and each position stepped through with the move played and
// the best move drawn, every move in the server's words.


import { api } from "../components/api.js";
import { $, REDUCED_MOTION, showError } from "../components/dom.js";
import { num, t } from "../components/i18n.js";
import { pct } from "../components/words.js";
import { analysisHref, workshopHref } from "../components/nav.js";
import { drawGameTrack, drawMove } from "./board.js";
import { chancesText, dealText, playersText, verdictWords } from "./measures.js";
import { seatKind } from "./seats.js";
import { S, aiSeat, humanSeat, render, sayFor } from "./state.js";

const FLAGGED = new Set(["inaccuracy", "mistake", "blunder"]);

export async function startReview() {
  if (!S.game || !S.game.state.over || S.busy) return;
  const id = S.game.id;
  S.busy = true;
  showError(null);
  render();
  $("review-wait").textContent = t("Analysing every move…");
  try {
    const seconds = Number(/** @type {HTMLSelectElement} */ ($("review-depth")).value);
    const review = await api("GET", `/api/games/${id}/review?time_per_move=${seconds}`);
    if (S.game && S.game.id === id) {
      S.review = review;
      S.reviewAsked = seconds;
      drawReview();
    }
  } catch (err) {
    showError(err);
  } finally {
    $("review-wait").textContent = "";
    S.busy = false;
    render();
  }
  if (S.review) {
    await showReviewPly(0);
    $("review").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
  }
}

/** The chart's key: whose chance to win the curve is (the first player's), in words and as its label.
 * @returns {[string, string]} */
function curveKey() {
  const kind = seatKind(S.game, 0);
  // Translators: the key of the review's chart: whose chance to win its curve is (the first player's).
  if (kind === "you") {
    return [t("The curve is your chance to win before each move (above the middle line: you ahead)."),
      t("your chance to win before each move")];
  }
  if (kind === "ai") {
    return [t("The curve is the AI's chance to win before each move (above the middle line: the AI ahead)."),
      t("the AI's chance to win before each move")];
  }
  if (kind === "friend") {
    return [t("The curve is your friend's chance to win before each move (above the middle line: your friend ahead)."),
      t("your friend's chance to win before each move")];
  }
  return [t("The curve is Player {number}'s chance to win before each move (above the middle line: Player {number} "
    + "ahead).", { number: 1 }), t("Player {number}'s chance to win before each move", { number: 1 })];
}

/** The chart's key and its label, for whoever the first player is (also after a game between people's redraw). */
export function drawCurveKey() {
  const [key, label] = curveKey();
  $("curve-key").textContent = key;
  $("review-chart").querySelector("svg")?.setAttribute("aria-label", label);
}

function drawReview() {
  const r = S.review;
  // Translators: after the review's summary and the players' measures: how the review was made ({seconds} a number).
  const how = t("({seconds} s of analysis a move; accuracy as lichess counts it, from what each move lost; the error "
    + "rate as eXtreme Gammon counts it, the mean win chance lost per decision.)", { seconds: num(Number(r.seconds_per_move.toFixed(2))) });
  $("review-summary").textContent = `${r.summary} ${playersText(r, S.game.teaching)} ${how}`;
  $("review-deal").textContent = dealText(r);
  $("label-rule").textContent = r.label_rule;
  $("measures-rule").textContent = r.measures_rule;
  const doc = new DOMParser().parseFromString(r.chart_svg, "image/svg+xml");
  const chart = document.importNode(doc.documentElement, true);
  chart.setAttribute("role", "img");
  $("review-chart").replaceChildren(chart);
  drawCurveKey();
  for (const mark of chart.querySelectorAll(".mark")) {
    mark.addEventListener("click", () => showReviewPly(Number(/** @type {any} */ (mark).dataset.ply)));
  }
  const list = $("review-marks");
  list.replaceChildren();
  for (const p of r.plies.filter((/** @type {any} */ x) => FLAGGED.has(x.label))) {
    const li = document.createElement("li");
    li.className = p.label;
    li.dataset.ply = p.ply;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = flaggedWords(p);
    button.addEventListener("click", () => showReviewPly(p.ply));
    li.appendChild(button);
    list.appendChild(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.textContent = t("None: no move lost both win chance and points against the best move.");
    list.appendChild(li);
  }
  $("review-position").hidden = true;
  $("practise-result").replaceChildren();
  S.reviewPly = null;
  document.body.dataset.reviewPly = "";
}

/** A flagged move's label, as the legend names it. @param {string} label */
function flag(label) {
  // Translators: a move's label in the review's list of flagged moves, as the legend and lichess name it.
  if (label === "inaccuracy") return t("inaccuracy");
  return label === "mistake" ? t("mistake") : t("blunder");
}

/** A flagged move in the review's list: its number, who, its label, the move played, what it lost and the best move.
 * @param {any} p a review's ply */
function flaggedWords(p) {
  const said = { number: p.ply + 1, label: flag(p.label), played: p.played_words, chances: chancesText(p),
    best: p.best_words };
  // Translators: a flagged move in the review's list: {label} its label ("a mistake"), {played} and {best} moves in
  // words ("advance 3 spaces"), {chances} what it did to the win chance.
  return sayFor(p.player, {
    you: () => t("Move {number}, you: {label}: {played} ({chances}); best: {best}", said),
    ai: () => t("Move {number}, the AI: {label}: {played} ({chances}); best: {best}", said),
    friend: () => t("Move {number}, your friend: {label}: {played} ({chances}); best: {best}", said),
    player: (number) => t("Move {number}, Player {player}: {label}: {played} ({chances}); best: {best}", { ...said, player: number }),
  });
}

/** @param {number} ply */
async function positionBefore(ply) {
  if (!S.reviewCache.has(ply)) S.reviewCache.set(ply, await api("GET", `/api/games/${S.game.id}/plies/${ply}`));
  return S.reviewCache.get(ply);
}

// The position before `ply` as it was (quilts and track), the move played and the best move drawn:
// a buy or a leather patch on the mover's quilt, an advance as the spaces it goes over.
/** @param {number} ply */
export async function showReviewPly(ply) {
  const r = S.review;
  const p = r && r.plies[ply];
  if (!p) return;
  showError(null);
  let then;
  try {
    then = await positionBefore(ply);
  } catch (err) {
    showError(err);
    return;
  }
  if (S.review !== r) return;
  S.reviewPly = ply;
  S.quilts.reviewHuman.show({ pieces: then.boards[humanSeat()].pieces });
  S.quilts.reviewAi.show({ pieces: then.boards[aiSeat()].pieces });
  const before = { number: ply + 1 };
  // Translators: the quilts of a position of the review, before move {number}.
  $("review-human-title").textContent = sayFor(humanSeat(), {
    you: () => t("Your quilt before move {number}", before),
    player: (number) => t("Player {player}'s quilt before move {number}", { ...before, player: number }),
  });
  $("review-ai-title").textContent = sayFor(aiSeat(), {
    ai: () => t("The AI's quilt before move {number}", before),
    friend: () => t("Your friend's quilt before move {number}", before),
    player: (number) => t("Player {player}'s quilt before move {number}", { ...before, player: number }),
  });
  const quilt = p.player === humanSeat() ? S.quilts.reviewHuman : S.quilts.reviewAi;
  const isBest = p.label === "best";
  if (!isBest) drawMove(quilt, p.best, "best", { testid: "review-best" });
  drawMove(quilt, p.played, "played", { testid: "review-played" });
  const from = then.state.players[p.player].position;
  const to = then.state.players[p.player].advance_to;
  const spans = [];
  if (!isBest && p.best.type === "advance") spans.push({ from, to, kind: "best", label: t("best") });
  if (p.played.type === "advance") spans.push({ from, to, kind: "played", label: isBest ? "" : t("played") });
  drawGameTrack(/** @type {any} */ ($("review-track")), then, spans);
  $("review-move").textContent = reviewMoveWords(p, r.plies.length);
  // Translators: where the review is: move {number} of the game's {total}.
  $("review-count").textContent = t("Move {number} of {total}", { number: ply + 1, total: r.plies.length });
  /** @type {HTMLAnchorElement} */ ($("review-workshop")).href = workshopHref({ game: S.game.id, ply, player: p.player });
  /** @type {HTMLAnchorElement} */ ($("review-analysis")).href = analysisHref({ game: S.game.id, ply });
  const ends = /** @type {[string, boolean][]} */ ([["review-first", ply === 0], ["review-prev", ply === 0],
    ["review-next", ply === r.plies.length - 1], ["review-last", ply === r.plies.length - 1]]);
  for (const [id, off] of ends) /** @type {HTMLButtonElement} */ ($(id)).disabled = off;
  for (const node of document.querySelectorAll("#review-chart .mark, #review-marks li")) {
    node.classList.toggle("chosen", Number(/** @type {any} */ (node).dataset.ply) === ply);
  }
  $("review-position").hidden = false;
  document.body.dataset.reviewPly = String(ply);
}

/** The move of the review's position in words: who chose what, what it did, its verdict, and the best move.
 * @param {any} p a review's ply @param {number} total the game's moves */
function reviewMoveWords(p, total) {
  const verdict = verdictWords(p);
  // Translators: a move's verdict when the analysis was exact; {verdict} is "a mistake", "the best move" ...
  const judged = p.exact ? t("{verdict} (exact: every way the game can go was checked)", { verdict }) : verdict;
  const said = { number: p.ply + 1, total, played: p.played_words, chances: chancesText(p), verdict: judged };
  // the server's words of a move are what the player does ("put the leather patch on row 4, col 4"):
  // "chose to" and "was to" make them whole sentences
  // Translators: {played} is a move in words as a verb phrase ("buy #12 at rows 0-1, cols 3-5"), {verdict} its label.
  const chose = sayFor(p.player, {
    you: () => t("Move {number} of {total}: you chose to {played} ({chances}): {verdict}.", said),
    ai: () => t("Move {number} of {total}: the AI chose to {played} ({chances}): {verdict}.", said),
    friend: () => t("Move {number} of {total}: your friend chose to {played} ({chances}): {verdict}.", said),
    player: (number) => t("Move {number} of {total}: Player {player} chose to {played} ({chances}): {verdict}.",
      { ...said, player: number }),
  });
  if (p.label === "best") return chose;
  // Translators: {best} is the best move in words as a verb phrase, {chance} the win chance it kept ("62%").
  return `${chose} ${t("The best move was to {best}, keeping a win chance of {chance}.", { best: p.best_words, chance: pct(p.win_before) })}`;
}

/** @param {number} delta */
export function stepReview(delta) {
  if (!S.review) return;
  const last = S.review.plies.length - 1;
  const ply = S.reviewPly === null ? 0 : Math.min(Math.max(S.reviewPly + delta, 0), last);
  showReviewPly(ply);
}
