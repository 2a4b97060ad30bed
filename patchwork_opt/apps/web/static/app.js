// The Patchwork page: plays a game against the AI through the JSON API. No build step, no libraries.
"use strict";

const S = {
  catalogue: null,        // GET /api/catalogue
  game: null,             // GameView of the game on screen
  selected: null,         // {patch, cells, buttons} being placed (patch -1: leather)
  hover: null,            // [row, col] under the pointer on the human's quilt
  hint: null,             // {cells, text} drawn on the human's quilt
  busy: false,            // a request is running (buttons disabled, clicks ignored)
  review: null,           // GET /api/games/{id}/review of the finished game on screen
};

// --- small helpers ------------------------------------------------------------------------------

const humanSeat = () => S.game.seat;
const aiSeat = () => 1 - S.game.seat;

function coveredSet(board) {
  const set = new Set();
  for (const piece of board.pieces) for (const [r, c] of piece.cells) set.add(key(r, c));
  return set;
}

// --- shapes: rotate, flip, place ----------------------------------------------------------------

function placementProblem(cells) {
  const covered = coveredSet(S.game.boards[humanSeat()]);
  const clash = cells.filter(([r, c]) => covered.has(key(r, c)));
  return clash.length ? `overlaps covered cell${clash.length > 1 ? "s" : ""} ${clash.map((x) => `[${x}]`).join(" ")}` : "";
}

// --- drawing ------------------------------------------------------------------------------------

// A quilt with its patches and, when complete, its 7x7 square: the board alone, no overlays.
function drawBoard(svg, board) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-2 -2 ${SIZE * CELL + 4} ${SIZE * CELL + 4}`);
  svg.setAttribute("width", SIZE * CELL + 4);
  svg.setAttribute("height", SIZE * CELL + 4);
  const grid = el("g", { class: "grid" }, svg);
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "cell", "data-r": r, "data-c": c }, grid);
    }
  }
  const pieces = el("g", { class: "pieces" }, svg);
  for (const piece of board.pieces) drawPiece(pieces, piece);
  const square = fullWindow(board);
  if (square) {
    el("rect", { x: square[1] * CELL + 2, y: square[0] * CELL + 2, width: 7 * CELL - 4, height: 7 * CELL - 4,
      class: "bonus-square", "data-testid": "bonus-square" }, svg);
  }
}

function drawQuilt(svg, board, seat) {
  drawBoard(svg, board);
  if (seat !== humanSeat()) {
    // what the AI just placed, so the human sees what changed
    const latest = aiPlacementsSinceHuman();
    if (latest.length) {
      const g = el("g", { class: "last-move", "data-testid": "last-ai-move" }, svg);
      for (const cells of latest) outline(g, cells, "last-edge");
    }
    return;
  }
  if (S.hint && S.hint.cells.length) {
    const g = el("g", { class: "hint", "data-testid": "hint-overlay" }, svg);
    for (const [r, c] of S.hint.cells) el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "hint-cell" }, g);
    outline(g, S.hint.cells, "hint-edge");
  }
  if (S.selected && S.hover && canAct()) {
    const at = placedAt(S.selected, S.hover[0], S.hover[1]);
    const bad = placementProblem(at.cells);
    const g = el("g", { class: bad ? "preview illegal" : "preview legal", "data-testid": "preview" }, svg);
    for (const [r, c] of at.cells) {
      el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: patchColour(S.selected.patch) }, g);
    }
    drawButtons(g, at.buttons, CELL);
    outline(g, at.cells, "preview-edge");
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

// Cells of each patch the AI placed since the human last moved (buys and leather).
function aiPlacementsSinceHuman() {
  const moves = S.game.moves;
  const out = [];
  for (let i = moves.length - 1; i >= 0 && moves[i].actor === "ai"; i--) {
    const m = moves[i].move;
    if (m.type === "buy") out.push(m.cells);
    else if (m.type === "leather") out.push([m.cell]);
  }
  return out;
}

function drawOffers() {
  const box = $("offers");
  box.replaceChildren();
  const mine = S.game.state.players[humanSeat()];
  S.game.offers.forEach((offer) => {
    const o = S.catalogue.patches[offer.patch].orientations[0];
    const card = document.createElement("button");
    card.type = "button";
    card.className = "offer";
    card.dataset.patch = offer.patch;
    const usable = offer.buyable && canAct() && !S.game.pending_leather;
    card.disabled = !usable;
    if (S.selected && S.selected.patch === offer.patch) card.classList.add("selected");
    const svg = document.createElementNS(SVG_NS, "svg");
    drawShape(svg, o.cells, o.buttons, patchColour(offer.patch), MINI);
    card.appendChild(svg);
    const facts = document.createElement("span");
    facts.className = "facts";
    facts.innerHTML = `<b>#${offer.patch}</b> cost <b>${offer.cost}</b> · time <b>${offer.time}</b> · income <b>${offer.income}</b>`;
    if (!offer.buyable && S.game.human_to_move && !S.game.pending_leather) {
      facts.innerHTML += mine.buttons < offer.cost ? " <i>(too dear)</i>" : " <i>(does not fit)</i>";
    }
    card.appendChild(facts);
    card.addEventListener("click", () => selectPatch(offer.patch));
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
    drawShape(svg, o.cells, o.buttons, patchColour(pid), 8);
    item.appendChild(svg);
    upcoming.appendChild(item);
  }
}

// The game's track: the human's token "Y", the AI's "A"; on a shared space the player to move
// (or, once the game is over, the last to move) is on top.
function drawGameTrack(svg, game) {
  const tokens = [];
  tokens[humanSeat()] = { cls: "human", testid: "token-human", letter: "Y" };
  tokens[aiSeat()] = { cls: "ai", testid: "token-ai", letter: "A" };
  const last = game.moves.length ? game.moves[game.moves.length - 1].player : 0;
  drawTrack(svg, S.catalogue, game.state, tokens, game.state.to_move ?? last);
}

function statusText() {
  const g = S.game;
  if (g.state.over) {
    const w = g.state.winner;
    const you = g.state.players[humanSeat()].score, ai = g.state.players[aiSeat()].score;
    return `Game over: ${w === humanSeat() ? "you win" : "the AI wins"}, ${you} to ${ai}.`;
  }
  if (g.ai_to_move) return g.pending_leather ? "The AI places its leather patch…" : "The AI is thinking…";
  if (g.pending_leather) return "Place your leather patch: click an empty cell of your quilt.";
  if (S.selected) return `Place patch #${S.selected.patch}: move over your quilt, R rotates, F flips, click to place.`;
  return `${againText()}Your move: choose a patch on offer, or advance.`;
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

function drawResult() {
  const g = S.game;
  $("result").hidden = !g.state.over;
  if (!g.state.over) return;
  const w = g.state.winner;
  $("result-title").textContent = w === humanSeat() ? "You win!" : "The AI wins";
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  for (const seat of [humanSeat(), aiSeat()]) {
    const p = g.state.players[seat];
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    for (const v of [seat === humanSeat() ? "You" : "AI", p.buttons, p.bonus ? "+7" : "—", `${p.empty} (−${2 * p.empty})`, p.score]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function drawLog() {
  const log = $("log");
  log.replaceChildren();
  S.game.moves.forEach((m, i) => {
    const li = document.createElement("li");
    const who = m.actor === "human" ? "You" : "AI";
    li.className = m.actor;
    const next = S.game.moves[i + 1];
    const again = next && next.actor === m.actor && next.move.type !== "leather" ? " (and moves again)" : "";
    li.textContent = `${who}: ${describe(m.move)}${m.reason ? ` — ${m.reason}` : ""}${again}`;
    log.appendChild(li);
  });
  log.scrollTop = log.scrollHeight;
}

// Where cells lie, as the CLI says it (rows and columns from 0 at the top left): "rows 3-4, cols 0-2".
function where(cells) {
  const span = (xs, one, many) => {
    const lo = Math.min(...xs), hi = Math.max(...xs);
    return lo === hi ? `${one} ${lo}` : `${many} ${lo}-${hi}`;
  };
  return `${span(cells.map((x) => x[0]), "row", "rows")}, ${span(cells.map((x) => x[1]), "col", "cols")}`;
}

function describe(move) {
  if (move.type === "advance") return "advance";
  if (move.type === "leather") return `leather on [${move.cell}]`;
  return `buy #${move.patch} on ${move.cells.map((x) => `[${x}]`).join("")}`;
}

function canAct() {
  return !!S.game && !S.busy && S.game.human_to_move && !S.game.state.over;
}

function render() {
  const g = S.game;
  $("welcome").hidden = !!g;
  if (!g) return;
  $("game").hidden = false;
  drawQuilt($("quilt-human"), g.boards[humanSeat()], humanSeat());
  drawQuilt($("quilt-ai"), g.boards[aiSeat()], aiSeat());
  $("human-title").textContent = `Your quilt (${playerName(humanSeat())}, moves ${humanSeat() === 0 ? "first" : "second"})`;
  $("ai-title").textContent = `AI's quilt (${playerName(aiSeat())}: ${g.ai}, level ${g.level})`;
  drawStats($("stats-human"), g.state.players[humanSeat()]);
  drawStats($("stats-ai"), g.state.players[aiSeat()]);
  drawGameTrack($("track"), g);
  drawOffers();
  drawLog();
  drawResult();
  $("status").textContent = statusText();
  const act = canAct();
  const me = g.state.players[humanSeat()], other = g.state.players[aiSeat()];
  const gain = Math.min(other.position + 1, S.catalogue.end) - me.position;
  $("advance").textContent = `Advance (+${Math.max(gain, 0)} buttons)`;
  $("advance").disabled = !act || g.pending_leather;
  $("hint").disabled = !act || !S.hintAvailable;
  $("undo").disabled = S.busy || !g.moves.some((m) => m.actor === "human");
  const placing = act && !!S.selected;
  $("rotate").disabled = !placing || g.pending_leather;
  $("flip").disabled = !placing || g.pending_leather;
  $("cancel").disabled = !placing || g.pending_leather;
  $("export").href = `/api/games/${g.id}/record?download=true`;
  $("review").hidden = !S.review;
  $("review-start").disabled = S.busy || !g.state.over;
  $("review-start").textContent = S.review ? "Review again" : "Review the game";
  // for scripts and tests: what the page is waiting for
  document.body.dataset.ply = g.ply;
  document.body.dataset.busy = String(S.busy);
  document.body.dataset.turn = g.state.over ? "over" : g.human_to_move ? "human" : "ai";
}

// --- actions ------------------------------------------------------------------------------------
function setGame(game) {
  if (!game.state.over || !S.game || S.game.id !== game.id) S.review = null;
  S.game = game;
  S.hint = null;
  $("hint-text").textContent = "";
  S.selected = game.pending_leather && game.human_to_move ? { patch: LEATHER, cells: [[0, 0]], buttons: [] } : null;
  if (location.hash !== `#${game.id}`) history.replaceState(null, "", `#${game.id}`);
  render();
}

async function request(fn) {
  if (S.busy) return;
  S.busy = true;
  showError(null);
  render();
  try {
    setGame(await fn());
  } catch (err) {
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
  await aiTurns();
}

async function aiTurns() {
  while (S.game && S.game.ai_to_move && !S.game.state.over && !S.busy) {
    S.busy = true;
    render();
    try {
      const game = await api("POST", `/api/games/${S.game.id}/ai-move`, { ply: S.game.ply });
      S.busy = false;
      setGame(game);
    } catch (err) {
      S.busy = false;
      showError(err);
      render();
      return;
    }
  }
}

function selectPatch(pid) {
  if (!canAct()) return;
  const o = S.catalogue.patches[pid].orientations[0];
  S.selected = { patch: pid, cells: o.cells.map((x) => [...x]), buttons: o.buttons.map((x) => [...x]) };
  if (S.hint && S.hint.patch === pid) followHint();
  showError(null);
  render();
}

// The hinted patch, selected: take the hinted orientation and put the preview where the hint is.
function followHint() {
  const cells = S.hint.cells;
  const top = Math.min(...cells.map((x) => x[0]));
  const left = Math.min(...cells.map((x) => x[1]));
  const shape = new Set(cells.map(([r, c]) => key(r - top, c - left)));
  const match = S.catalogue.patches[S.hint.patch].orientations.find(
    (o) => o.cells.length === shape.size && o.cells.every(([r, c]) => shape.has(key(r, c))));
  if (!match) return;
  S.selected = { patch: S.hint.patch, cells: match.cells.map((x) => [...x]), buttons: match.buttons.map((x) => [...x]) };
  S.hover = [top + Math.floor((match.height - 1) / 2), left + Math.floor((match.width - 1) / 2)];
}

function play(move) {
  const id = S.game.id, ply = S.game.ply;
  return request(() => api("POST", `/api/games/${id}/moves`, { ply, move }));
}

function placeAt(row, col) {
  if (!canAct() || !S.selected) return;
  const at = placedAt(S.selected, row, col);
  const problem = placementProblem(at.cells);
  if (problem) {
    showError(new Error(`cannot place there: ${problem}`));
    return;
  }
  if (S.selected.patch === LEATHER) play({ type: "leather", cell: at.cells[0] });
  else play({ type: "buy", patch: S.selected.patch, cells: at.cells });
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

const pct = (x) => `${Math.round(100 * x)}%`;

// A hint as ``patchwork hint --json`` prints it for a position: {player, hints: [{type, patch,
// cells, win, margin, exact, reason, ...}], ...}, best first. Its reason says the move and the
// win chance in words; the best one is drawn on the quilt, the next two are listed.
function readHint(result) {
  const hints = result.hints || [];
  if (!hints.length) return { cells: [], text: "No hint: there is nothing to choose." };
  const name = (h) => (h.type === "advance" ? "advance" : h.type === "leather" ? `leather on [${h.cells[0]}]` : `buy #${h.patch} at ${where(h.cells)}`);
  const chance = (h) => (h.win === undefined ? `score ${h.score.toFixed(1)}`
    : h.exact ? (h.win ? "a sure win" : "a sure loss") : `you win about ${pct(h.win)}`);
  const best = hints[0];
  const others = hints.slice(1, 3).map((h) => `${name(h)} (${chance(h)})`).join(", ");
  const follow = best.type === "buy" ? ` Choose #${best.patch} to place it there.` : "";
  return {
    cells: best.type === "advance" ? [] : best.cells,
    patch: best.type === "buy" ? best.patch : null,
    text: `Hint: ${best.reason || name(best)}${others ? `. Next best: ${others}` : ""}.${follow}`,
  };
}

// --- the review of a finished game ----------------------------------------------------------------
const FLAGGED = new Set(["inaccuracy", "mistake", "blunder"]);
const pointsLost = (p) => `${p.points_lost.toFixed(1)} point${p.points_lost === 1 ? "" : "s"} lost`;
const moverName = (seat) => (seat === humanSeat() ? "you" : "the AI");

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
}

// The summary, the chart (the server's SVG, parsed as data: no script runs) and the flagged moves.
function drawReview() {
  const r = S.review;
  const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const players = r.players.map((p) => `${p.name}: accuracy ${p.accuracy.toFixed(1)}%, `
    + `${count(p.inaccuracies, "inaccuracy").replace(/ys$/, "ies")}, ${count(p.mistakes, "mistake")}, `
    + `${count(p.blunders, "blunder")}`);
  $("review-summary").textContent = `${players.join(". ")}. (${r.seconds_per_move} s of analysis a move.)`;
  const doc = new DOMParser().parseFromString(r.chart_svg, "image/svg+xml");
  const chart = document.importNode(doc.documentElement, true);
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
    button.textContent = `Ply ${p.ply}, ${moverName(p.player)}: ${p.label}: ${p.played_text} `
      + `(win chance ${pct(p.win_before)} → ${pct(p.win_after)}, ${pointsLost(p)}); best: ${p.best_text}`;
    button.addEventListener("click", () => showReviewPly(p.ply));
    li.appendChild(button);
    list.appendChild(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.textContent = "None: no move lost much win chance or many points against the best move.";
    list.appendChild(li);
  }
  $("review-position").hidden = true;
  document.body.dataset.reviewPly = "";
}

function overlayMove(svg, move, kind) {
  const cells = move.type === "buy" ? move.cells : move.type === "leather" ? [move.cell] : [];
  if (!cells.length) return;
  const g = el("g", { class: `review-move ${kind}`, "data-testid": `review-${kind}` }, svg);
  for (const [r, c] of cells) el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: `${kind}-cell` }, g);
  outline(g, cells, `${kind}-edge`);
}

// The position before ``ply`` as it was (quilts and track), the move played and the best move drawn.
async function showReviewPly(ply) {
  const p = S.review && S.review.plies[ply];
  if (!p) return;
  showError(null);
  let then;
  try {
    then = await api("GET", `/api/games/${S.game.id}/plies/${ply}`);
  } catch (err) {
    showError(err);
    return;
  }
  drawBoard($("review-quilt-human"), then.boards[humanSeat()]);
  drawBoard($("review-quilt-ai"), then.boards[aiSeat()]);
  $("review-human-title").textContent = `Your quilt before ply ${ply}`;
  $("review-ai-title").textContent = `AI's quilt before ply ${ply}`;
  drawGameTrack($("review-track"), then);
  const quilt = p.player === humanSeat() ? $("review-quilt-human") : $("review-quilt-ai");
  if (p.label !== "best") overlayMove(quilt, p.best, "best");
  overlayMove(quilt, p.played, "played");
  const exact = p.exact ? " (exact: every way the game can go was checked)" : "";
  $("review-move").textContent = `Ply ${ply}, ${moverName(p.player)} to move: the best move, ${p.best_text}, `
    + `keeps a ${pct(p.win_before)} chance to win. Played: ${p.played_text}, leaving ${pct(p.win_after)} `
    + `(${pointsLost(p)}): `
    + `${p.label === "best" ? "the best move" : `a ${p.label}`}${exact}.`;
  for (const node of document.querySelectorAll("#review-chart .mark, #review-marks li")) {
    node.classList.toggle("chosen", Number(node.dataset.ply) === ply);
  }
  $("review-position").hidden = false;
  document.body.dataset.reviewPly = String(ply);
  $("review-position").scrollIntoView({ block: "nearest" });
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
  await request(() => api("POST", "/api/games", body));
}

// --- wiring -------------------------------------------------------------------------------------
async function boot() {
  const [catalogue, ais, health] = await Promise.all([api("GET", "/api/catalogue"), api("GET", "/api/ais"), api("GET", "/api/health")]);
  S.catalogue = catalogue;
  S.hintAvailable = health.solvers.includes("hint");
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
  $("undo").addEventListener("click", () => {
    const id = S.game.id, ply = S.game.ply;
    request(() => api("POST", `/api/games/${id}/undo`, { ply }));
  });
  $("rotate").addEventListener("click", () => { if (S.selected && S.selected.patch !== LEATHER) { S.selected = rotate(S.selected); render(); } });
  $("flip").addEventListener("click", () => { if (S.selected && S.selected.patch !== LEATHER) { S.selected = flip(S.selected); render(); } });
  $("cancel").addEventListener("click", () => {
    if (S.selected && S.selected.patch !== LEATHER) { S.selected = null; showError(null); render(); }
  });
  const quilt = $("quilt-human");
  quilt.addEventListener("mousemove", (evt) => {
    const cell = cellFromEvent(quilt, evt);
    if (String(cell) !== String(S.hover)) { S.hover = cell; if (S.selected) render(); }
  });
  // leaving the quilt (to press Rotate or Flip, say) keeps the preview where it was
  quilt.addEventListener("click", (evt) => {
    const cell = cellFromEvent(quilt, evt);
    if (!cell) return;
    // on a touch screen there is no hover: the first tap shows the preview, a second tap places
    const firstTouch = evt.pointerType === "touch" && String(cell) !== String(S.hover);
    S.hover = cell;
    if (firstTouch && S.selected && S.selected.patch !== LEATHER) render();
    else placeAt(cell[0], cell[1]);
  });
  document.addEventListener("keydown", (evt) => {
    if (evt.target instanceof HTMLInputElement || evt.target instanceof HTMLSelectElement) return;
    if (evt.key === "r" || evt.key === "R") $("rotate").click();
    else if (evt.key === "f" || evt.key === "F") $("flip").click();
    else if (evt.key === "Escape") $("cancel").click();
  });
  const id = location.hash.slice(1);
  if (id) await request(() => api("GET", `/api/games/${id}`));
  document.body.dataset.ready = "true";
}

boot().catch(showError);
