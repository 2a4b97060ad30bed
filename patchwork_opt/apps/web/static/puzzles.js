// The Puzzles page: a puzzle from POST /api/puzzles, the answer to POST /api/puzzles/{id}/answer,
// the verdict with its proof and both ratings. No build step, no libraries.
"use strict";

const VISITOR_KEY = "patchwork-puzzle-visitor";

const S = {
  catalogue: null,        // GET /api/catalogue
  puzzle: null,           // PuzzleView on screen
  selected: null,         // {patch, cells, buttons} being placed
  hover: null,            // [row, col] under the pointer on the quilt being played
  placed: [],             // a fill's placements so far: {patch, cells, buttons}
  answer: null,           // AnswerView once answered
  move: null,             // the endgame move answered
  busy: false,
  visitor: null,          // {id, rating, deviation}
};

// --- small helpers ------------------------------------------------------------------------------

const cellsText = (cells) => cells.map((x) => `[${x}]`).join("");

function describe(move) {
  if (move.type === "advance") return "advance";
  if (move.type === "leather") return `leather patch on [${move.cell}]`;
  return `buy #${move.patch} on ${cellsText(move.cells)}`;
}

// --- shapes: rotate, flip, place ----------------------------------------------------------------

// The button cells of a patch lying on ``cells`` (the orientation whose shape they are).
function buttonsOf(pid, cells) {
  const top = Math.min(...cells.map((x) => x[0]));
  const left = Math.min(...cells.map((x) => x[1]));
  const shape = new Set(cells.map(([r, c]) => key(r - top, c - left)));
  const o = S.catalogue.patches[pid].orientations.find(
    (x) => x.cells.length === shape.size && x.cells.every(([r, c]) => shape.has(key(r, c))));
  return o ? o.buttons.map(([r, c]) => [r + top, c + left]) : [];
}

function selectPatch(pid) {
  if (!canAct()) return;
  const o = S.catalogue.patches[pid].orientations[0];
  S.selected = { patch: pid, cells: o.cells.map((x) => [...x]), buttons: o.buttons.map((x) => [...x]) };
  showError(null);
  render();
}

// --- drawing ------------------------------------------------------------------------------------

// A quilt: its grid, ``given`` covered cells (a fill's starting quilt) in grey, then the pieces.
function drawQuilt(svg, pieces, given = []) {
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
  if (given.length) {
    const g = el("g", { class: "pieces" }, svg);
    for (const [r, c] of given) el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: "#b9ad99" }, g);
    outline(g, given, "piece-edge");
  }
  const layer = el("g", { class: "pieces" }, svg);
  for (const piece of pieces) drawPiece(layer, piece);
}

function drawPreview(svg, covered) {
  if (!S.selected || !S.hover || !canAct()) return;
  const at = placedAt(S.selected, S.hover[0], S.hover[1]);
  const bad = at.cells.some(([r, c]) => covered.has(key(r, c)));
  const g = el("g", { class: bad ? "preview illegal" : "preview legal", "data-testid": "preview" }, svg);
  for (const [r, c] of at.cells) {
    el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: patchColour(S.selected.patch) }, g);
  }
  drawButtons(g, at.buttons, CELL);
  outline(g, at.cells, "preview-edge");
}

// A patch as a card button: its shape and its facts.
function patchCard(pid, facts, usable, onClick) {
  const o = S.catalogue.patches[pid].orientations[0];
  const card = document.createElement("button");
  card.type = "button";
  card.className = "offer";
  card.dataset.patch = pid;
  card.disabled = !usable;
  if (S.selected && S.selected.patch === pid) card.classList.add("selected");
  const svg = document.createElementNS(SVG_NS, "svg");
  drawShape(svg, o.cells, o.buttons, patchColour(pid), MINI);
  card.appendChild(svg);
  const text = document.createElement("span");
  text.className = "facts";
  text.textContent = facts;
  card.appendChild(text);
  card.addEventListener("click", onClick);
  return card;
}

const ratingText = (r) => `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`;

function canAct() {
  return !!S.puzzle && !S.busy && !S.answer;
}

// --- an endgame -----------------------------------------------------------------------------------
function coveredOf(pieces, given = []) {
  const set = new Set(given.map(([r, c]) => key(r, c)));
  for (const piece of pieces) for (const [r, c] of piece.cells) set.add(key(r, c));
  return set;
}

function renderEndgame() {
  const e = S.puzzle.endgame;
  const you = e.player, other = 1 - e.player;
  const mine = e.boards[you];
  drawQuilt($("eg-quilt-you"), mine.pieces);
  if (S.move && S.move.type === "buy") {
    const g = el("g", { class: "answer", "data-testid": "answer-move" }, $("eg-quilt-you"));
    outline(g, S.move.cells, "answer-edge");
  }
  drawPreview($("eg-quilt-you"), coveredOf(mine.pieces));
  drawQuilt($("eg-quilt-other"), e.boards[other].pieces);
  $("eg-you-title").textContent = `Your quilt (${playerName(you)}, to move)`;
  $("eg-other-title").textContent = `${playerName(other)}'s quilt`;
  drawStats($("eg-stats-you"), e.state.players[you]);
  drawStats($("eg-stats-other"), e.state.players[other]);
  const tokens = [];
  tokens[you] = { cls: "human", testid: "token-you", letter: "Y" };
  tokens[other] = { cls: "ai", testid: "token-other", letter: "O" };
  drawTrack($("eg-track"), S.catalogue, e.state, tokens, you);
  const box = $("eg-offers");
  box.replaceChildren();
  for (const offer of e.offers) {
    const facts = `#${offer.patch} cost ${offer.cost} · time ${offer.time} · income ${offer.income}`
      + (offer.buyable ? "" : " (cannot buy)");
    box.appendChild(patchCard(offer.patch, facts, offer.buyable && canAct(), () => selectPatch(offer.patch)));
  }
  $("eg-upcoming").textContent = e.upcoming.slice(0, 9).map((p) => `#${p}`).join(" ");
  const me = e.state.players[you], them = e.state.players[other];
  const gain = Math.min(them.position + 1, S.catalogue.end) - me.position;
  $("eg-advance").textContent = `Advance (+${Math.max(gain, 0)} buttons)`;
  $("eg-advance").disabled = !canAct();
  for (const id of ["eg-rotate", "eg-flip", "eg-cancel"]) $(id).disabled = !canAct() || !S.selected;
}

function endgameTask() {
  const e = S.puzzle.endgame;
  return `${playerName(e.player)} (you) to move: find a winning move. ${e.legal} distinct moves, `
    + `${e.winning} of them win${e.winning === 1 ? "s" : ""}. Difficulty ${S.puzzle.difficulty} of 5.`;
}

// --- a fill ---------------------------------------------------------------------------------------
function fillValue() {
  const f = S.puzzle.fill;
  let value = 0, cost = 0;
  for (const p of S.placed) {
    const patch = S.catalogue.patches[p.patch];
    cost += patch.cost;
    value += f.objective === "cells" ? patch.area : 2 * patch.area + patch.income * f.marks - patch.cost;
  }
  return { value, cost };
}

function renderFill() {
  const f = S.puzzle.fill;
  drawQuilt($("fill-quilt"), S.placed, f.quilt);
  drawPreview($("fill-quilt"), coveredOf(S.placed, f.quilt));
  const used = new Set(S.placed.map((p) => p.patch));
  const box = $("fill-patches");
  box.replaceChildren();
  for (const pid of f.patches) {
    const p = S.catalogue.patches[pid];
    const worth = f.objective === "points" ? ` · worth ${2 * p.area + p.income * f.marks - p.cost}` : "";
    const card = patchCard(pid, `#${pid} cells ${p.area} · cost ${p.cost} · income ${p.income}${worth}`,
      canAct() && !used.has(pid), () => selectPatch(pid));
    if (used.has(pid)) card.classList.add("used");
    box.appendChild(card);
  }
  const { value, cost } = fillValue();
  const unit = f.objective === "cells" ? "cells" : "points";
  $("fill-score").textContent = `Your fill: ${value} ${unit}, costing ${cost} buttons`
    + (f.budget !== null ? ` (budget ${f.budget})` : "");
  for (const id of ["fill-rotate", "fill-flip"]) $(id).disabled = !canAct() || !S.selected;
  $("fill-undo").disabled = !canAct() || !S.placed.length;
  $("fill-done").disabled = !canAct();
  $("fill-optimum-box").hidden = !S.answer;
  if (S.answer) {
    const optimum = S.answer.optimum.map((p) => ({ patch: p.patch, cells: p.cells, buttons: buttonsOf(p.patch, p.cells) }));
    drawQuilt($("fill-optimum"), optimum, f.quilt);
  }
}

function fillTask() {
  const f = S.puzzle.fill;
  const goal = f.objective === "cells" ? "as many covered cells as possible"
    : `the best score change (2 a cell, income at ${f.marks} income marks ahead, less the price)`;
  let text = `Fill the quilt with some of the ${f.patches.length} patches (each at most once) for ${goal}`;
  if (f.budget !== null) text += `, spending at most ${f.budget} buttons`;
  if (f.require_bonus) text += ", completing a 7x7 square";
  return `${text}. Difficulty ${S.puzzle.difficulty} of 5.`;
}

function placeFill(row, col) {
  const covered = coveredOf(S.placed, S.puzzle.fill.quilt);
  if (!S.selected) {  // a click on a placed patch takes it back
    const i = S.placed.findIndex((p) => p.cells.some(([r, c]) => r === row && c === col));
    if (i >= 0) S.placed.splice(i, 1);
    render();
    return;
  }
  const at = placedAt(S.selected, row, col);
  const clash = at.cells.filter(([r, c]) => covered.has(key(r, c)));
  if (clash.length) {
    showError(new Error(`cannot place there: overlaps covered cell${clash.length > 1 ? "s" : ""} ${cellsText(clash)}`));
    return;
  }
  S.placed.push({ patch: S.selected.patch, cells: at.cells, buttons: at.buttons });
  S.selected = null;
  showError(null);
  render();
}

// --- the answer and the verdict -------------------------------------------------------------------
async function sendAnswer(body) {
  if (!canAct()) return;
  S.busy = true;
  showError(null);
  render();
  try {
    if (S.visitor) body.visitor = S.visitor.id;
    const answer = await api("POST", `/api/puzzles/${S.puzzle.id}/answer`, body);
    S.answer = answer;
    S.visitor = answer.visitor;
    localStorage.setItem(VISITOR_KEY, answer.visitor.id);
    S.selected = null;
  } catch (err) {
    S.move = null;
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
}

function answerMove(move) {
  S.move = move;
  sendAnswer({ move });
}

function drawVerdict() {
  const a = S.answer;
  $("verdict").hidden = !a;
  document.body.dataset.answered = a ? (a.correct ? "correct" : "wrong") : "";
  if (!a) return;
  $("verdict").className = a.correct ? "correct" : "wrong";
  $("verdict-title").textContent = a.correct ? "Correct!" : "Not this one";
  $("verdict-text").textContent = a.text;
  const list = $("verdict-line");
  list.replaceChildren();
  if (S.puzzle.kind === "endgame") {
    const you = S.puzzle.endgame.player;
    a.line.forEach((move, i) => {
      const mover = a.line_players[i];
      const li = document.createElement("li");
      li.className = mover === you ? "you" : "other";
      li.textContent = `${mover === you ? "you" : playerName(mover)}: ${describe(move)}`;
      list.appendChild(li);
    });
    const shown = a.winning.slice(0, 5).map(describe).join("; ");
    const more = a.winning.length > 5 ? `; and ${a.winning.length - 5} more` : "";
    $("verdict-winning").textContent = `Winning moves (${a.winning.length}): ${shown}${more}.`;
  } else {
    $("verdict-winning").textContent = `Your fill: ${a.value}; the proven optimum: ${a.best} (drawn beside your quilt).`;
  }
  const rated = a.rated ? "" : " (answered before: the ratings did not move)";
  $("verdict-ratings").textContent = `Your rating: ${ratingText(a.visitor)}. This puzzle: ${ratingText(a.rating)}${rated}.`;
}

// --- the page -------------------------------------------------------------------------------------
function render() {
  const p = S.puzzle;
  $("intro").hidden = !!p;
  $("puzzle").hidden = !p;
  document.body.dataset.busy = String(S.busy);
  if (S.visitor) $("my-rating").textContent = `Your puzzle rating: ${ratingText(S.visitor)}`;
  if (!p) return;
  $("endgame").hidden = p.kind !== "endgame";
  $("fill").hidden = p.kind !== "fill";
  $("task").textContent = p.kind === "endgame" ? endgameTask() : fillTask();
  $("puzzle-rating").textContent = `Puzzle ${p.id}, rated ${ratingText(S.answer ? S.answer.rating : p.rating)}`;
  if (p.kind === "endgame") renderEndgame();
  else renderFill();
  drawVerdict();
  $("next").disabled = S.busy;
  document.body.dataset.puzzle = p.id;
  document.body.dataset.kind = p.kind;
}

function setPuzzle(puzzle) {
  S.puzzle = puzzle;
  S.answer = null;
  S.move = null;
  S.selected = null;
  S.placed = [];
  S.hover = null;
  if (puzzle.visitor) S.visitor = puzzle.visitor;
  if (location.hash !== `#${puzzle.id}`) history.replaceState(null, "", `#${puzzle.id}`);
  render();
}

async function load(fn) {
  if (S.busy) return;
  S.busy = true;
  showError(null);
  render();
  try {
    setPuzzle(await fn());
  } catch (err) {
    showError(err);
    $("puzzle").hidden = false;
  } finally {
    S.busy = false;
    render();
  }
}

function newPuzzle(evt) {
  if (evt) evt.preventDefault();
  const body = { kind: $("kind").value };
  if ($("difficulty").value) body.difficulty = Number($("difficulty").value);
  if (S.visitor) body.visitor = S.visitor.id;
  return load(() => api("POST", "/api/puzzles", body));
}

function wireQuilt(svg, place) {
  svg.addEventListener("mousemove", (evt) => {
    const cell = cellFromEvent(svg, evt);
    if (String(cell) !== String(S.hover)) { S.hover = cell; if (S.selected) render(); }
  });
  svg.addEventListener("click", (evt) => {
    const cell = cellFromEvent(svg, evt);
    if (!cell || !canAct()) return;
    const firstTouch = evt.pointerType === "touch" && String(cell) !== String(S.hover) && S.selected;
    S.hover = cell;
    if (firstTouch) render();
    else place(cell[0], cell[1]);
  });
}

function turn(fn) {
  if (S.selected && canAct()) { S.selected = fn(S.selected); render(); }
}

async function boot() {
  S.catalogue = await api("GET", "/api/catalogue");
  const stored = localStorage.getItem(VISITOR_KEY);
  $("new-puzzle").addEventListener("submit", newPuzzle);
  $("eg-advance").addEventListener("click", () => canAct() && answerMove({ type: "advance" }));
  for (const prefix of ["eg", "fill"]) {
    $(`${prefix}-rotate`).addEventListener("click", () => turn(rotate));
    $(`${prefix}-flip`).addEventListener("click", () => turn(flip));
  }
  $("eg-cancel").addEventListener("click", () => { S.selected = null; showError(null); render(); });
  $("fill-undo").addEventListener("click", () => { if (canAct()) { S.placed.pop(); render(); } });
  $("fill-done").addEventListener("click", () => sendAnswer({
    placements: S.placed.map((p) => ({ patch: p.patch, cells: p.cells })),
  }));
  wireQuilt($("eg-quilt-you"), (row, col) => {
    if (!S.selected) return;
    const at = placedAt(S.selected, row, col);
    const covered = coveredOf(S.puzzle.endgame.boards[S.puzzle.endgame.player].pieces);
    const clash = at.cells.filter(([r, c]) => covered.has(key(r, c)));
    if (clash.length) { showError(new Error(`cannot place there: overlaps covered cells ${cellsText(clash)}`)); return; }
    answerMove({ type: "buy", patch: S.selected.patch, cells: at.cells });
  });
  wireQuilt($("fill-quilt"), placeFill);
  document.addEventListener("keydown", (evt) => {
    if (evt.target instanceof HTMLInputElement || evt.target instanceof HTMLSelectElement) return;
    if (evt.key === "r" || evt.key === "R") turn(rotate);
    else if (evt.key === "f" || evt.key === "F") turn(flip);
    else if (evt.key === "Escape") { S.selected = null; render(); }
  });
  if (stored) {
    try {
      const view = await api("POST", "/api/puzzles", { kind: "endgame", visitor: stored });
      S.visitor = view.visitor;
      const id = location.hash.slice(1);
      if (id && id !== view.id) await load(() => api("GET", `/api/puzzles/${id}`));
      else setPuzzle(view);
    } catch (err) {
      localStorage.removeItem(VISITOR_KEY);  // a visitor this server does not know: start afresh
    }
  }
  if (!S.puzzle) {
    const id = location.hash.slice(1);
    if (id) await load(() => api("GET", `/api/puzzles/${id}`));
    else await newPuzzle();
  }
  document.body.dataset.ready = "true";
}

boot().catch(showError);
