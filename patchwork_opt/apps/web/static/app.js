// The Patchwork page: plays a game against the AI through the JSON API, shows each of the AI's moves
// as it comes, steps through the moves played and through the review. No build step, no libraries.
"use strict";

const S = {
  catalogue: null,        // GET /api/catalogue
  game: null,             // GameView of the game on screen
  placer: null,           // the Placer on the human's quilt (the patch chosen, where it would go)
  hint: null,             // {shown: [hint, ...] distinct, best first; text}
  busy: false,            // a request is running (buttons disabled, clicks ignored)
  span: null,             // {from, to, kind}: the spaces the last move went over, shaded on the track
  aiNote: "",             // what the AI just did, in words, for the status line
  viewing: null,          // {index, before, after}: a past move shown from the move list
  review: null,           // GET /api/games/{id}/review of the finished game on screen
  reviewPly: null,        // the ply the review shows
  reviewCache: new Map(), // ply -> GameView before it
};

// --- small helpers ------------------------------------------------------------------------------

const humanSeat = () => S.game.seat;
const aiSeat = () => 1 - S.game.seat;
const actorName = (actor) => (actor === "human" ? "you" : "the AI");
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

function coveredSet(board) {
  const set = new Set();
  for (const piece of board.pieces) for (const [r, c] of piece.cells) set.add(key(r, c));
  return set;
}

// Where an advance by ``seat`` ends: the space just past the other token (the end at most).
function advanceTarget(state, seat) {
  return Math.min(state.players[1 - seat].position + 1, S.catalogue.end);
}

function canAct() {
  return !!S.game && !S.busy && !S.viewing && S.game.human_to_move && !S.game.state.over;
}

// --- the quilts and the track ----------------------------------------------------------------------

// A quilt with its numbers, its patches and, when complete, its 7x7 square: no overlays.
function drawBoard(svg, board) {
  drawQuiltGrid(svg);
  const pieces = el("g", { class: "pieces" }, svg);
  for (const piece of board.pieces) drawPiece(pieces, piece);
  const square = fullWindow(board);
  if (square) {
    el("rect", { x: square[1] * CELL + 2, y: square[0] * CELL + 2, width: 7 * CELL - 4, height: 7 * CELL - 4,
      class: "bonus-square", "data-testid": "bonus-square" }, svg);
  }
}

// The first fully covered 7x7 square of a quilt, as [row, col] of its top-left cell, or null.
function fullWindow(board) {
  const covered = coveredSet(board);
  for (let top = 0; top <= SIZE - 7; top++) {
    for (let left = 0; left <= SIZE - 7; left++) {
      let full = true;
      for (let r = top; r < top + 7 && full; r++) for (let c = left; c < left + 7 && full; c++) full = covered.has(key(r, c));
      if (full) return [top, left];
    }
  }
  return null;
}

// Cells of each patch the AI placed since the human last moved (buys and leather), newest last.
function aiPlacementsSinceHuman(moves) {
  const out = [];
  for (let i = moves.length - 1; i >= 0 && moves[i].actor === "ai"; i--) {
    const cells = moveCells(moves[i].move);
    if (cells.length) out.unshift(cells);
  }
  return out;
}

// ``h``: a hint as ``readHint`` keeps it; ``proven`` when who wins after it is proven (margin or not)
function hintLabel(h) {
  if (h.proven) return h.win ? "win" : "loss";
  return pct(h.win);
}

function drawHumanQuilt() {
  const svg = $("quilt-human");
  drawBoard(svg, S.game.boards[humanSeat()]);
  if (S.hint) {
    // each hinted placement with its win chance; the best drawn last, on top
    [...S.hint.shown].reverse().forEach((h, i, all) => {
      const cells = moveCells(h.move);
      const best = i === all.length - 1;
      if (cells.length) drawOverlay(svg, cells, best ? "hint" : "hint-alt", hintLabel(h), best ? "hint-overlay" : "hint-alt");
    });
  }
  S.placer.drawPreview();
}

function drawAiQuilt() {
  const svg = $("quilt-ai");
  drawBoard(svg, S.game.boards[aiSeat()]);
  const latest = aiPlacementsSinceHuman(S.game.moves);
  if (latest.length) {
    const g = el("g", { class: "last-move", "data-testid": "last-ai-move" }, svg);
    for (const cells of latest) outline(g, cells, "last-edge");
  }
}

function tokensOf() {
  const tokens = [];
  tokens[humanSeat()] = { cls: "human", testid: "token-human", letter: "Y" };
  tokens[aiSeat()] = { cls: "ai", testid: "token-ai", letter: "A" };
  return tokens;
}

// The track of ``view``: the player to move (or, once over, the last to move) on top on a shared
// space; ``spans`` shade the spaces of a move (the last one, a hinted advance).
function drawGameTrack(svg, view, spans) {
  const last = view.moves.length ? view.moves[view.moves.length - 1].player : 0;
  drawTrack(svg, S.catalogue, view.state, tokensOf(), view.state.to_move ?? last, spans);
}

function trackSpans() {
  const spans = [];
  if (S.span) spans.push(S.span);
  const advance = S.hint && S.hint.shown.find((h) => h.move.type === "advance");
  if (advance) {
    const me = S.game.state.players[humanSeat()].position;
    spans.push({ from: me, to: advanceTarget(S.game.state, humanSeat()), kind: "hint", label: hintLabel(advance) });
  }
  return spans;
}

// --- the offers and the tray ------------------------------------------------------------------------

function drawOffers() {
  const box = $("offers");
  box.replaceChildren();
  const mine = S.game.state.players[humanSeat()];
  const chosen = S.placer.selected;
  S.game.offers.forEach((offer) => {
    const card = document.createElement("button");
    card.type = "button";
    card.className = "offer";
    card.dataset.patch = offer.patch;
    const usable = offer.buyable && canAct() && !S.game.pending_leather;
    card.disabled = !usable;
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("aria-hidden", "true");
    // the chosen patch is drawn as it will be placed: turned and flipped with Rotate and Flip
    const shape = chosen && chosen.patch === offer.patch ? chosen : S.catalogue.patches[offer.patch].orientations[0];
    if (chosen && chosen.patch === offer.patch) card.classList.add("selected");
    card.setAttribute("aria-pressed", String(!!chosen && chosen.patch === offer.patch));
    drawShape(svg, shape.cells, shape.buttons, patchColour(offer.patch), MINI);
    card.appendChild(svg);
    const facts = document.createElement("span");
    facts.className = "facts";
    facts.innerHTML = `<b>#${offer.patch}</b> <span>cost <b>${offer.cost}</b></span> <span>time <b>${offer.time}</b></span> `
      + `<span>income <b>${offer.income}</b></span>`;
    if (!offer.buyable && S.game.human_to_move && !S.game.pending_leather) {
      facts.innerHTML += mine.buttons < offer.cost ? " <i>(too dear)</i>" : " <i>(does not fit)</i>";
    }
    card.appendChild(facts);
    card.addEventListener("click", () => selectPatch(offer.patch));
    if (usable) S.placer.draggable(svg, () => selectPatch(offer.patch, true));
    box.appendChild(card);
  });
  const upcoming = $("upcoming");
  upcoming.replaceChildren();
  for (const pid of S.game.upcoming.slice(0, 9)) {
    const o = S.catalogue.patches[pid].orientations[0];
    const p = S.catalogue.patches[pid];
    const item = document.createElement("span");
    item.className = "upcoming";
    item.title = `#${pid}: cost ${p.cost}, time ${p.time}, income ${p.income}`;
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", item.title);
    drawShape(svg, o.cells, o.buttons, patchColour(pid), 8);
    item.appendChild(svg);
    upcoming.appendChild(item);
  }
}

function drawTrayAndControls() {
  const sel = S.placer.selected;
  const name = !sel ? "" : sel.patch === LEATHER ? "The leather patch" : `Patch #${sel.patch}`;
  drawTray($("tray-shape"), $("tray-caption"), S.placer, name);
  const placing = canAct() && !!sel;
  const turning = placing && sel.patch !== LEATHER;
  $("rotate").disabled = !turning;
  $("flip").disabled = !turning;
  $("place").disabled = !placing || !S.placer.hover;
  $("cancel").disabled = !turning;
}

// --- what is going on: turn, status, result, move list ----------------------------------------------

function statusText() {
  const g = S.game;
  if (g.state.over) {
    const you = g.state.players[humanSeat()].score, ai = g.state.players[aiSeat()].score;
    return `Game over: ${g.state.winner === humanSeat() ? "you win" : "the AI wins"}, ${you} to ${ai}.`;
  }
  const note = S.aiNote ? `${S.aiNote} ` : "";
  if (g.ai_to_move) return `${note}${g.pending_leather ? "The AI places its leather patch…" : "The AI is thinking…"}`;
  if (g.pending_leather) return `${note}Place your leather patch: tap or click an empty cell of your quilt.`;
  const sel = S.placer.selected;
  if (sel) return `${note}Place patch #${sel.patch} on your quilt: point, drag or tap; Rotate and Flip turn it.`;
  return `${note}${againText()}Your move: choose a patch on offer, or advance.`;
}

// Why the human moves again right after their own move (the player behind moves; on a tie, the
// one on top, who arrived last), so a second turn in a row is never a surprise.
function againText() {
  const moves = S.game.moves;
  const last = moves[moves.length - 1];
  if (!last || last.actor !== "human") return "";
  const me = S.game.state.players[humanSeat()].position, ai = S.game.state.players[aiSeat()].position;
  if (me === ai) return "You landed on the AI's space, on top of its token, so you move again. ";
  return "You are still behind the AI on the time track, so you move again. ";
}

function drawTurn() {
  const g = S.game;
  const turn = g.state.over ? "over" : g.human_to_move ? "human" : "ai";
  $("turn").className = `turn ${turn}`;
  $("turn-text").textContent = turn === "over" ? "Game over" : turn === "human" ? "Your turn" : "The AI's turn";
  $("board-human").classList.toggle("to-move", turn === "human");
  $("board-ai").classList.toggle("to-move", turn === "ai");
}

function drawResult() {
  const g = S.game;
  $("result").hidden = !g.state.over;
  if (!g.state.over) return;
  $("result-title").textContent = g.state.winner === humanSeat() ? "You win!" : "The AI wins";
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  for (const seat of [humanSeat(), aiSeat()]) {
    const p = g.state.players[seat];
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    [seat === humanSeat() ? "You" : "The AI", p.buttons, p.bonus ? "+7" : "—", `${p.empty} (−${2 * p.empty})`, p.score]
      .forEach((v, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) td.scope = "row";
        td.textContent = v;
        tr.appendChild(td);
      });
    body.appendChild(tr);
  }
}

function drawLog() {
  const log = $("log");
  log.replaceChildren();
  S.game.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.className = m.actor;
    li.dataset.index = i;
    if (S.viewing && S.viewing.index === i) li.classList.add("current");
    const next = S.game.moves[i + 1];
    const again = next && next.actor === m.actor && next.move.type !== "leather" ? `, and ${actorName(m.actor)} ${m.actor === "human" ? "move" : "moves"} again` : "";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${capital(actorName(m.actor))}: ${m.words}${again}`;
    button.addEventListener("click", () => viewMove(i));
    li.appendChild(button);
    log.appendChild(li);
  });
  if (!S.viewing) log.scrollTop = log.scrollHeight;
}

// --- a past move, from the move list ------------------------------------------------------------------

async function viewMove(index) {
  if (!S.game || index < 0 || index >= S.game.moves.length || S.busy) return;
  const id = S.game.id;
  try {
    const [before, after] = await Promise.all([
      api("GET", `/api/games/${id}/plies/${index}`), api("GET", `/api/games/${id}/plies/${index + 1}`)]);
    S.viewing = { index, before, after };
  } catch (err) {
    showError(err);
    return;
  }
  render();
  document.querySelector(`#log li[data-index='${index}']`)?.scrollIntoView({ block: "nearest" });
}

function leaveView() {
  S.viewing = null;
  render();
}

function drawViewing() {
  const v = S.viewing;
  const m = S.game.moves[v.index];
  $("viewing-text").textContent = `The position after move ${v.index + 1} of ${S.game.moves.length}, `
    + `${actorName(m.actor)}: ${m.words} (outlined). ← and → step, Escape goes back to the game.`;
  drawBoard($("quilt-human"), v.after.boards[humanSeat()]);
  drawBoard($("quilt-ai"), v.after.boards[aiSeat()]);
  const cells = moveCells(m.move);
  if (cells.length) drawOverlay(m.player === humanSeat() ? $("quilt-human") : $("quilt-ai"), cells, "played", "", "viewed-move");
  drawStats($("stats-human"), v.after.state.players[humanSeat()]);
  drawStats($("stats-ai"), v.after.state.players[aiSeat()]);
  const from = v.before.state.players[m.player].position, to = v.after.state.players[m.player].position;
  drawGameTrack($("track"), v.after, to > from ? [{ from, to, kind: m.actor }] : []);
  $("view-prev").disabled = v.index === 0;
  $("view-next").disabled = v.index === S.game.moves.length - 1;
}

// --- the page -----------------------------------------------------------------------------------------

function render() {
  const g = S.game;
  $("welcome").hidden = !!g;
  if (!g) return;
  $("game").hidden = false;
  $("viewing").hidden = !S.viewing;
  $("human-title").textContent = `Your quilt (you move ${humanSeat() === 0 ? "first" : "second"})`;
  $("ai-title").textContent = `The AI's quilt (${g.ai}, level ${g.level})`;
  if (S.viewing) {
    drawViewing();
  } else {
    drawHumanQuilt();
    drawAiQuilt();
    drawStats($("stats-human"), g.state.players[humanSeat()]);
    drawStats($("stats-ai"), g.state.players[aiSeat()]);
    drawGameTrack($("track"), g, trackSpans());
  }
  drawTurn();
  drawOffers();
  drawTrayAndControls();
  drawLog();
  drawResult();
  $("status").textContent = statusText();
  const act = canAct();
  const me = g.state.players[humanSeat()];
  const gain = advanceTarget(g.state, humanSeat()) - me.position;
  $("advance").textContent = `Advance (+${Math.max(gain, 0)} button${gain === 1 ? "" : "s"})`;
  $("advance").disabled = !act || g.pending_leather;
  $("hint").disabled = !act || !S.hintAvailable;
  $("undo").disabled = S.busy || !!S.viewing || !g.moves.some((m) => m.actor === "human");
  $("export").href = `/api/games/${g.id}/record?download=true`;
  $("review").hidden = !S.review;
  $("review-start").disabled = S.busy || !g.state.over;
  $("rematch").disabled = S.busy;
  $("review-start").textContent = S.review ? "Review again" : "Review the game";
  $("practise").disabled = S.busy || !S.review;
  // for scripts and tests: what the page is waiting for
  document.body.dataset.ply = g.ply;
  document.body.dataset.busy = String(S.busy);
  document.body.dataset.turn = g.state.over ? "over" : g.human_to_move ? "human" : "ai";
}

// --- actions ------------------------------------------------------------------------------------
function setGame(game) {
  const before = S.game;
  const same = before && before.id === game.id;
  if (!game.state.over || !same) { S.review = null; S.reviewCache.clear(); }
  if (!same) S.aiNote = "";
  // the spaces the newest move went over (none after an undo or on a fresh load)
  S.span = null;
  if (same && game.ply === before.ply + 1) {
    const m = game.moves[game.ply - 1];
    const from = before.state.players[m.player].position, to = game.state.players[m.player].position;
    if (to > from) S.span = { from, to, kind: m.actor };
  }
  S.game = game;
  S.hint = null;
  S.viewing = null;
  $("hint-text").textContent = "";
  S.placer.choose(game.pending_leather && game.human_to_move ? { patch: LEATHER, cells: [[0, 0]], buttons: [] } : null);
  if (location.hash !== `#${game.id}`) history.replaceState(null, "", `#${game.id}`);
  render();
  if (game.state.over && !(same && before.state.over)) {
    // the result comes into view by itself
    $("result").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
    $("result").focus({ preventScroll: true });
  }
}

async function request(fn) {
  if (S.busy) return;
  S.busy = true;
  showError(null);
  render();
  try {
    S.aiNote = "";
    setGame(await fn());
  } catch (err) {
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
  await aiTurns();
}

// The AI's moves one at a time: each is drawn (its token walks the track, its patch outlined), said
// in words, and left on screen a moment before the next is asked for.
async function aiTurns() {
  while (S.game && S.game.ai_to_move && !S.game.state.over && !S.busy) {
    S.busy = true;
    render();
    try {
      const before = S.game;
      const game = await api("POST", `/api/games/${S.game.id}/ai-move`, { ply: S.game.ply });
      S.busy = false;
      const m = game.moves[game.moves.length - 1];
      const again = game.ai_to_move && !game.state.over;
      S.aiNote = `The AI: ${m.words}.${again ? " The AI moves again." : ""}`;
      setGame(game);
      await walkToken($("track"), "token-ai", before.state.players[aiSeat()].position, game.state.players[aiSeat()].position);
      if (again) await sleep(REDUCED_MOTION ? 300 : 700);
    } catch (err) {
      S.busy = false;
      showError(err);
      render();
      return;
    }
  }
}

function selectPatch(pid, forDrag = false) {
  if (!canAct() || S.game.pending_leather) return false;
  const current = S.placer.selected;
  if (!(forDrag && current && current.patch === pid)) {
    const o = S.catalogue.patches[pid].orientations[0];
    S.placer.choose({ patch: pid, cells: o.cells.map((x) => [...x]), buttons: o.buttons.map((x) => [...x]) });
    const hinted = S.hint && S.hint.shown.find((h) => h.move.type === "buy" && h.move.patch === pid);
    if (hinted) {
      // the hinted patch, chosen: its hinted orientation, its preview where the hint is
      const on = selectionOn(S.catalogue, pid, hinted.move.cells);
      if (on) { S.placer.choose(on.selected); S.placer.hover = on.hover; S.placer.armed = true; }
    }
  }
  showError(null);
  render();
  return true;
}

function play(move) {
  const id = S.game.id, ply = S.game.ply;
  return request(() => api("POST", `/api/games/${id}/moves`, { ply, move }));
}

function commitPlacement(at) {
  const sel = S.placer.selected;
  if (sel.patch === LEATHER) play({ type: "leather", cell: at.cells[0] });
  else play({ type: "buy", patch: sel.patch, cells: at.cells });
}

// --- hints -------------------------------------------------------------------------------------------

//: The 8 symmetries of the square quilt as maps of (row, col) (core/symmetry.py lists the same).
const LAST = SIZE - 1;
const SYMMETRIES = [
  ([r, c]) => [r, c], ([r, c]) => [c, LAST - r], ([r, c]) => [LAST - r, LAST - c], ([r, c]) => [LAST - c, r],
  ([r, c]) => [r, LAST - c], ([r, c]) => [LAST - r, c], ([r, c]) => [c, r], ([r, c]) => [LAST - c, LAST - r],
];

const cellKeys = (cells) => cells.map(([r, c]) => key(r, c)).sort((a, b) => a - b).join(",");

// Two hinted moves that are the same for the rest of the game: the same words, or the same patch
// on cells one symmetry of the quilt maps onto each other while it keeps the quilt as it is.
function sameHint(a, b, covered) {
  if (a.move.type !== b.move.type) return false;
  if (a.words === b.words || a.move.type === "advance") return true;
  if (a.move.type === "buy" && a.move.patch !== b.move.patch) return false;
  const cellsA = moveCells(a.move), target = cellKeys(moveCells(b.move));
  const quilt = cellKeys(covered);
  return SYMMETRIES.some((f) => cellKeys(covered.map(f)) === quilt && cellKeys(cellsA.map(f)) === target);
}

// A hint as ``patchwork hint --json`` gives it for a position: {player, hints: [{type, patch,
// cells, win, margin, exact, reason, ...}], ...}, best first. The first three distinct moves are
// drawn (the win chance of each on the board) and said in words.
function readHint(result) {
  const covered = S.game.boards[humanSeat()].pieces.flatMap((p) => p.cells);
  const shown = [];
  for (const h of result.hints || []) {
    const move = h.type === "advance" ? { type: "advance" } : h.type === "leather" ? { type: "leather", cell: h.cells[0] }
      : { type: "buy", patch: h.patch, cells: h.cells };
    const words = h.reason ? h.reason.split(": ")[0] : moveWords(move);
    const item = { move, words, win: h.win, proven: h.exact || h.outcome_proven, reason: h.reason || words };
    if (!shown.some((s) => sameHint(s, item, covered))) shown.push(item);
    if (shown.length === 3) break;
  }
  if (!shown.length) return { shown, text: "No hint: there is nothing to choose." };
  const [best, ...others] = shown;
  const chance = (h) => (h.proven ? (h.win ? "a sure win" : "a sure loss") : `you win about ${pct(h.win)}`);
  const also = others.length ? ` Next best: ${others.map((h) => `${h.words} (${chance(h)})`).join("; ")}.` : "";
  const follow = best.move.type === "buy" ? ` Choose #${best.move.patch} to place it there.`
    : best.move.type === "advance" ? " The shaded spaces on the track show the advance." : "";
  return { shown, text: `Hint: ${best.reason}.${also}${follow}` };
}

async function showHint() {
  if (!canAct()) return;
  S.busy = true;
  showError(null);
  render();
  $("hint-text").textContent = "Thinking about a hint…";
  try {
    const hint = await api("GET", `/api/games/${S.game.id}/hint`);
    S.hint = readHint(hint);
    $("hint-text").textContent = S.hint.text;
  } catch (err) {
    $("hint-text").textContent = "";
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
}

// --- the review of a finished game ----------------------------------------------------------------
const FLAGGED = new Set(["inaccuracy", "mistake", "blunder"]);
const pointsLost = (p) => `${p.points_lost.toFixed(1)} point${p.points_lost === 1 ? "" : "s"} lost`;
const moverName = (seat) => (seat === humanSeat() ? "you" : "the AI");
const count = (n, word, words) => `${n} ${n === 1 ? word : words || `${word}s`}`;

async function startReview() {
  if (!S.game || !S.game.state.over || S.busy) return;
  const id = S.game.id;
  S.busy = true;
  showError(null);
  render();
  $("review-wait").textContent = "Analysing every move…";
  try {
    const seconds = encodeURIComponent($("review-depth").value);
    const review = await api("GET", `/api/games/${id}/review?time_per_move=${seconds}`);
    if (S.game && S.game.id === id) {
      S.review = review;
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

// The summary, the chart (the server's SVG, parsed as data: no script runs) and the flagged moves.
function drawReview() {
  const r = S.review;
  const players = r.players.map((p) => `${p.name}: accuracy ${Math.round(p.accuracy)}%, `
    + `${count(p.inaccuracies, "inaccuracy", "inaccuracies")}, ${count(p.mistakes, "mistake")}, `
    + `${count(p.blunders, "blunder")}`);
  const seconds = Number(r.seconds_per_move.toFixed(2));
  $("review-summary").textContent = `${players.join(". ")}. (${seconds} s of analysis a move; accuracy as `
    + "lichess counts it, from the win chance each move lost.)";
  $("label-rule").textContent = r.label_rule;
  $("curve-key").textContent = `The curve is ${r.seat === 0 ? "your" : "the AI's"} chance to win before each move `
    + `(above the middle line: ${r.seat === 0 ? "you" : "the AI"} ahead).`;
  const doc = new DOMParser().parseFromString(r.chart_svg, "image/svg+xml");
  const chart = document.importNode(doc.documentElement, true);
  chart.setAttribute("role", "img");
  chart.setAttribute("aria-label", "your chance to win before each move");
  $("review-chart").replaceChildren(chart);
  for (const mark of chart.querySelectorAll(".mark")) {
    mark.addEventListener("click", () => showReviewPly(Number(mark.dataset.ply)));
  }
  const list = $("review-marks");
  list.replaceChildren();
  for (const p of r.plies.filter((x) => FLAGGED.has(x.label))) {
    const li = document.createElement("li");
    li.className = p.label;
    li.dataset.ply = p.ply;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Move ${p.ply + 1}, ${moverName(p.player)}: ${p.label}: ${p.played_text} `
      + `(win chance ${pct(p.win_before)} → ${pct(p.win_after)}, ${pointsLost(p)}); best: ${p.best_text}`;
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

// --- practise your mistakes: the review's mistakes and blunders of yours, made into puzzles ----------
const PRACTISED = new Set(["mistake", "blunder"]);
const MAX_PRACTISED = 12;  // the server's MAX_PRACTISE_PLIES: the latest ones (late positions get proven)

async function practise() {
  const r = S.review;
  if (!r || S.busy) return;
  const mine = r.plies.filter((p) => p.player === humanSeat() && PRACTISED.has(p.label)).map((p) => p.ply);
  const result = $("practise-result");
  if (!mine.length) {
    result.textContent = "You made no mistake or blunder in this game: nothing to practise.";
    return;
  }
  const id = S.game.id;
  S.busy = true;
  showError(null);
  render();
  $("practise-wait").textContent = `Making puzzles of your ${count(mine.length, "mistake or blunder", "mistakes and blunders")}… (the exact search proves each)`;
  try {
    const made = await api("POST", `/api/games/${id}/mistake-puzzles`, { plies: mine.slice(-MAX_PRACTISED) });
    if (S.game && S.game.id === id) drawPractise(made, mine.length);
  } catch (err) {
    showError(err);
  } finally {
    $("practise-wait").textContent = "";
    S.busy = false;
    render();
  }
}

function drawPractise(made, mistakes) {
  const result = $("practise-result");
  result.replaceChildren();
  document.body.dataset.practised = String(made.puzzles.length);
  if (!made.puzzles.length) {
    result.textContent = `None of your ${count(mistakes, "mistake or blunder", "mistakes and blunders")} makes a puzzle: in none of those positions `
      + "could the exact search prove that exactly one move wins.";
    return;
  }
  const moves = made.plies.map((ply) => ply + 1).join(", ");
  result.append(`${count(made.puzzles.length, "puzzle")} from your ${count(mistakes, "mistake or blunder", "mistakes and blunders")} (before move `
    + `${moves}): `);
  const link = document.createElement("a");
  link.id = "practise-link";
  link.href = `/puzzles?set=${made.puzzles.join(",")}`;
  link.textContent = "practise them on the Puzzles page";
  result.appendChild(link);
}

async function positionBefore(ply) {
  if (!S.reviewCache.has(ply)) S.reviewCache.set(ply, await api("GET", `/api/games/${S.game.id}/plies/${ply}`));
  return S.reviewCache.get(ply);
}

// The position before ``ply`` as it was (quilts and track), the move played and the best move drawn:
// a buy or a leather patch on the mover's quilt, an advance as the spaces it goes over.
async function showReviewPly(ply) {
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
  drawBoard($("review-quilt-human"), then.boards[humanSeat()]);
  drawBoard($("review-quilt-ai"), then.boards[aiSeat()]);
  $("review-human-title").textContent = `Your quilt before move ${ply + 1}`;
  $("review-ai-title").textContent = `The AI's quilt before move ${ply + 1}`;
  const quilt = p.player === humanSeat() ? $("review-quilt-human") : $("review-quilt-ai");
  const isBest = p.label === "best";
  if (!isBest) drawOverlay(quilt, moveCells(p.best), "best", "", "review-best");
  drawOverlay(quilt, moveCells(p.played), "played", "", "review-played");
  const from = then.state.players[p.player].position;
  const to = advanceTarget(then.state, p.player);
  const spans = [];
  if (!isBest && p.best.type === "advance") spans.push({ from, to, kind: "best", label: "best" });
  if (p.played.type === "advance") spans.push({ from, to, kind: "played", label: isBest ? "" : "played" });
  drawGameTrack($("review-track"), then, spans);
  const exact = p.exact ? " (exact: every way the game can go was checked)" : "";
  const mover = moverName(p.player);
  const verdict = isBest ? "the best move" : p.label === "good" ? "a good move, close to the best"
    : article(p.label);
  const chances = `win chance ${pct(p.win_before)} → ${pct(p.win_after)}, ${pointsLost(p)}`;
  $("review-move").textContent = `Move ${ply + 1} of ${r.plies.length}: ${mover} played `
    + `${p.played_text} (${chances}): ${verdict}${exact}.`
    + (isBest ? "" : ` The best move was ${p.best_text}, keeping a ${pct(p.win_before)} chance to win.`);
  $("review-count").textContent = `Move ${ply + 1} of ${r.plies.length}`;
  $("review-first").disabled = $("review-prev").disabled = ply === 0;
  $("review-next").disabled = $("review-last").disabled = ply === r.plies.length - 1;
  for (const node of document.querySelectorAll("#review-chart .mark, #review-marks li")) {
    node.classList.toggle("chosen", Number(node.dataset.ply) === ply);
  }
  $("review-position").hidden = false;
  document.body.dataset.reviewPly = String(ply);
}

function stepReview(delta) {
  if (!S.review) return;
  const last = S.review.plies.length - 1;
  const ply = S.reviewPly === null ? 0 : Math.min(Math.max(S.reviewPly + delta, 0), last);
  showReviewPly(ply);
}

async function startGame(evt) {
  evt.preventDefault();
  const seed = $("seed").value.trim();
  const body = {
    ai: $("ai").value,
    level: Number($("level").value),
    seat: Number($("seat").value),
    printing: $("printing").value,
  };
  if (seed !== "") body.seed = Number(seed);
  $("setup").open = false;
  await request(() => api("POST", "/api/games", body));
}

// The same AI, level and seat again, with a new order of patches.
function rematch() {
  const g = S.game;
  window.scrollTo({ top: 0 });
  request(() => api("POST", "/api/games", { ai: g.ai, level: g.level, seat: g.seat, printing: $("printing").value }));
}

// --- wiring -------------------------------------------------------------------------------------
function onKey(evt) {
  const t = evt.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (evt.altKey || evt.ctrlKey || evt.metaKey) return;
  if (evt.key === "r" || evt.key === "R") S.placer.turn(rotate);
  else if (evt.key === "f" || evt.key === "F") S.placer.turn(flip);
  else if (evt.key === "Escape") {
    if (S.viewing) leaveView();
    else $("cancel").click();
  } else if (evt.key === "ArrowLeft" || evt.key === "ArrowRight") {
    const delta = evt.key === "ArrowLeft" ? -1 : 1;
    if (S.review && !$("review").hidden) stepReview(delta);
    else if (S.game && S.game.moves.length) {
      if (S.viewing) {
        const next = S.viewing.index + delta;
        if (next >= S.game.moves.length) leaveView();
        else viewMove(Math.max(next, 0));
      } else if (delta < 0) viewMove(S.game.moves.length - 1);
    } else return;
    evt.preventDefault();
  }
}

async function boot() {
  const [catalogue, ais, health] = await Promise.all([api("GET", "/api/catalogue"), api("GET", "/api/ais"), api("GET", "/api/health")]);
  S.catalogue = catalogue;
  S.hintAvailable = health.solvers.includes("hint");
  S.placer = new Placer($("quilt-human"), {
    canAct,
    covered: () => coveredSet(S.game.boards[humanSeat()]),
    commit: commitPlacement,
    changed: render,
  });
  const select = $("ai");
  for (const ai of ais) {
    const option = document.createElement("option");
    option.value = ai.name;
    option.textContent = ai.name;
    option.selected = ai.default;
    select.appendChild(option);
  }
  $("new-game").addEventListener("submit", startGame);
  $("advance").addEventListener("click", () => canAct() && play({ type: "advance" }));
  $("hint").addEventListener("click", showHint);
  $("review-start").addEventListener("click", startReview);
  $("practise").addEventListener("click", practise);
  $("rematch").addEventListener("click", rematch);
  $("undo").addEventListener("click", () => {
    const id = S.game.id, ply = S.game.ply;
    request(() => api("POST", `/api/games/${id}/undo`, { ply }));
  });
  $("rotate").addEventListener("click", () => S.placer.turn(rotate));
  $("flip").addEventListener("click", () => S.placer.turn(flip));
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
  document.addEventListener("keydown", onKey);
  const id = location.hash.slice(1);
  if (id) {
    $("setup").open = false;
    await request(() => api("GET", `/api/games/${id}`));
  }
  document.body.dataset.ready = "true";
}

boot().catch(showError);
