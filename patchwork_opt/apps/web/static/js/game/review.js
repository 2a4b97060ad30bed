// game/review.js: the review of a finished game (GET /api/games/{id}/review): each player's
// accuracy, error rate and take-backs and the deal's luck (measures.js), the win-chance chart (the
// server's SVG, parsed as data: no script runs), the legend (the server's label_rule and
// measures_rule), the flagged moves, and each position stepped through with the move played and
// the best move drawn, every move in the server's words.


import { api } from "../components/api.js";
import { $, REDUCED_MOTION, showError } from "../components/dom.js";
import { pct } from "../components/words.js";
import { analysisHref, workshopHref } from "../components/nav.js";
import { drawGameTrack, drawMove } from "./board.js";
import { chancesText, dealText, playersText, verdictWords } from "./measures.js";
import { S, aiSeat, humanSeat, moverName, render } from "./state.js";

const FLAGGED = new Set(["inaccuracy", "mistake", "blunder"]);

export async function startReview() {
  if (!S.game || !S.game.state.over || S.busy) return;
  const id = S.game.id;
  S.busy = true;
  showError(null);
  render();
  $("review-wait").textContent = "Analysing every move…";
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

/** "a 62% chance", "an 8% chance", "an 18% chance": the article said as the figure is read. @param {number} x */
const chanceOf = (x) => `${/^(8|11|18)/.test(pct(x)) ? "an" : "a"} ${pct(x)} chance`;

function drawReview() {
  const r = S.review;
  const seconds = Number(r.seconds_per_move.toFixed(2));
  $("review-summary").textContent = `${r.summary} ${playersText(r, S.game.teaching)} (${seconds} s of analysis a `
    + "move; accuracy as lichess counts it, from what each move lost; the error rate as eXtreme Gammon counts it, "
    + "the mean win chance lost per decision.)";
  $("review-deal").textContent = dealText(r);
  $("label-rule").textContent = r.label_rule;
  $("measures-rule").textContent = r.measures_rule;
  $("curve-key").textContent = `The curve is ${r.seat === 0 ? "your" : "the AI's"} chance to win before each move `
    + `(above the middle line: ${r.seat === 0 ? "you" : "the AI"} ahead).`;
  const doc = new DOMParser().parseFromString(r.chart_svg, "image/svg+xml");
  const chart = document.importNode(doc.documentElement, true);
  chart.setAttribute("role", "img");
  chart.setAttribute("aria-label", "your chance to win before each move");
  $("review-chart").replaceChildren(chart);
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
    button.textContent = `Move ${p.ply + 1}, ${moverName(p.player)}: ${p.label}: ${p.played_words} `
      + `(${chancesText(p)}); best: ${p.best_words}`;
    button.addEventListener("click", () => showReviewPly(p.ply));
    li.appendChild(button);
    list.appendChild(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.textContent = "None: no move lost both win chance and points against the best move.";
    list.appendChild(li);
  }
  $("review-position").hidden = true;
  $("practise-result").replaceChildren();
  S.reviewPly = null;
  document.body.dataset.reviewPly = "";
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
  $("review-human-title").textContent = `Your quilt before move ${ply + 1}`;
  $("review-ai-title").textContent = `The AI's quilt before move ${ply + 1}`;
  const quilt = p.player === humanSeat() ? S.quilts.reviewHuman : S.quilts.reviewAi;
  const isBest = p.label === "best";
  if (!isBest) drawMove(quilt, p.best, "best", { testid: "review-best" });
  drawMove(quilt, p.played, "played", { testid: "review-played" });
  const from = then.state.players[p.player].position;
  const to = then.state.players[p.player].advance_to;
  const spans = [];
  if (!isBest && p.best.type === "advance") spans.push({ from, to, kind: "best", label: "best" });
  if (p.played.type === "advance") spans.push({ from, to, kind: "played", label: isBest ? "" : "played" });
  drawGameTrack(/** @type {any} */ ($("review-track")), then, spans);
  const exact = p.exact ? " (exact: every way the game can go was checked)" : "";
  // the server's words of a move are what the player does ("put the leather patch on row 4, col 4"):
  // "chose to" and "was to" make them whole sentences
  $("review-move").textContent = `Move ${ply + 1} of ${r.plies.length}: ${moverName(p.player)} chose to `
    + `${p.played_words} (${chancesText(p)}): ${verdictWords(p)}${exact}.`
    + (isBest ? "" : ` The best move was to ${p.best_words}, keeping ${chanceOf(p.win_before)} to win.`);
  $("review-count").textContent = `Move ${ply + 1} of ${r.plies.length}`;
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

/** @param {number} delta */
export function stepReview(delta) {
  if (!S.review) return;
  const last = S.review.plies.length - 1;
  const ply = S.reviewPly === null ? 0 : Math.min(Math.max(S.reviewPly + delta, 0), last);
  showReviewPly(ply);
}
