// The Puzzles page: a puzzle from POST /api/puzzles, the answer to POST /api/puzzles/{id}/answer,
// the verdict in words with its proof (best play stepped through on the board) and both ratings.
// Playing habits: a theme filter, streak mode (POST /api/puzzles with streak), the daily puzzle
// (GET /api/puzzles/daily), missed puzzles served again (the server says which), and a set of
// puzzles named in the address (/puzzles?set=ID,ID: the mistakes of a reviewed game).
// No build step, no libraries.
"use strict";

const VISITOR_KEY = "patchwork-puzzle-visitor";
const PUZZLE_ID = /^[ef][0-9a-f]{12}$/;

const S = {
  catalogue: null,        // GET /api/catalogue
  puzzle: null,           // PuzzleView on screen
  placers: {},            // {endgame, fill}: the Placer on each quilt
  placed: [],             // a fill's placements so far: {patch, cells, buttons}
  answer: null,           // AnswerView once answered
  move: null,             // the endgame move answered
  step: null,             // the move of the line of best play shown on the board (index), or null
  busy: false,
  visitor: null,          // {id, rating, deviation, streak, best_streak}
  themes: null,           // GET /api/puzzles/themes: {endgame: [{theme, words}], fill: [...]}
  streakMode: false,      // new puzzles come in streak mode
  inStreak: false,        // the puzzle on screen was served in streak mode (its answer counts for the streak)
  streakBefore: 0,        // the streak when the puzzle on screen was served
  set: [],                // puzzle ids named by ?set= (practising a game's mistakes), in order
};

const placer = () => S.placers[S.puzzle && S.puzzle.kind === "fill" ? "fill" : "endgame"];
const moverName = (seat) => (seat === S.puzzle.endgame.player ? "you" : "the other player");
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// --- small helpers ------------------------------------------------------------------------------

function selectPatch(pid, forDrag = false) {
  if (!canAct()) return false;
  const p = placer();
  if (!(forDrag && p.selected && p.selected.patch === pid)) {
    const o = S.catalogue.patches[pid].orientations[0];
    p.choose({ patch: pid, cells: o.cells.map((x) => [...x]), buttons: o.buttons.map((x) => [...x]) });
  }
  showError(null);
  render();
  return true;
}

function coveredOf(pieces, given = []) {
  const set = new Set(given.map(([r, c]) => key(r, c)));
  for (const piece of pieces) for (const [r, c] of piece.cells) set.add(key(r, c));
  return set;
}

// --- drawing ------------------------------------------------------------------------------------

// A quilt: its numbered grid, ``given`` covered cells (a fill's starting quilt) in grey, then the pieces.
function drawQuilt(svg, pieces, given = []) {
  drawQuiltGrid(svg);
  if (given.length) {
    const g = el("g", { class: "pieces" }, svg);
    for (const [r, c] of given) el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: "#b9ad99" }, g);
    outline(g, given, "piece-edge");
  }
  const layer = el("g", { class: "pieces" }, svg);
  for (const piece of pieces) drawPiece(layer, piece);
}

// A patch as a card button: its shape (as it will be placed, when chosen) and its facts. A card with a
// ``refusal`` is greyed and not selectable: choosing it says why instead.
function patchCard(pid, facts, usable, refusal = "") {
  const chosen = placer().selected;
  const mine = chosen && chosen.patch === pid;
  const o = mine ? chosen : S.catalogue.patches[pid].orientations[0];
  const card = document.createElement("button");
  card.type = "button";
  card.className = "offer";
  card.dataset.patch = pid;
  card.disabled = !usable && !refusal;  // a refused card stays focusable: choosing it says why
  card.setAttribute("aria-pressed", String(!!mine));
  if (mine) card.classList.add("selected");
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("aria-hidden", "true");
  drawShape(svg, o.cells, o.buttons, patchColour(pid), MINI);
  card.appendChild(svg);
  const text = document.createElement("span");
  text.className = "facts";
  text.textContent = facts;
  card.appendChild(text);
  if (refusal) {
    card.classList.add("unaffordable");
    card.setAttribute("aria-disabled", "true");
    card.addEventListener("click", () => showError(new Error(refusal)));
    return card;
  }
  card.addEventListener("click", () => selectPatch(pid));
  if (usable) placer().draggable(svg, () => selectPatch(pid, true));
  return card;
}

function drawTrayOf(prefix) {
  const p = S.placers[prefix === "eg" ? "endgame" : "fill"];
  drawTray($(`${prefix}-tray-shape`), $(`${prefix}-tray-caption`), p, p.selected ? `Patch #${p.selected.patch}` : "");
  const act = canAct() && !!p.selected;
  for (const id of ["rotate", "flip"]) $(`${prefix}-${id}`).disabled = !act;
  $(`${prefix}-place`).disabled = !act || !p.hover;
}

const ratingText = (r) => `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`;

function canAct() {
  return !!S.puzzle && !S.busy && !S.answer;
}

// --- an endgame -----------------------------------------------------------------------------------

// The quilts as the line of best play leaves them after its move ``step`` (patches added to
// their mover's quilt), with that move outlined; at ``null``, the puzzle's position.
function lineBoards(e) {
  const pieces = [e.boards[0].pieces.slice(), e.boards[1].pieces.slice()];
  let current = null;
  if (S.answer && S.step !== null) {
    S.answer.line.slice(0, S.step + 1).forEach((move, i) => {
      const seat = S.answer.line_players[i];
      const cells = moveCells(move);
      if (cells.length) {
        const sel = move.type === "buy" ? selectionOn(S.catalogue, move.patch, cells) : null;
        pieces[seat].push({ patch: move.type === "buy" ? move.patch : LEATHER, cells, buttons: sel ? sel.buttons : [] });
      }
      if (i === S.step) current = { seat, cells };
    });
  }
  return { pieces, current };
}

function renderEndgame() {
  const e = S.puzzle.endgame;
  const you = e.player, other = 1 - e.player;
  const { pieces, current } = lineBoards(e);
  const mine = $("eg-quilt-you");
  drawQuilt(mine, pieces[you]);
  drawQuilt($("eg-quilt-other"), pieces[other]);
  if (S.step === null && S.move && moveCells(S.move).length) {
    // your answer, green when it wins; when it does not, a winning move drawn beside it
    drawOverlay(mine, moveCells(S.move), S.answer && S.answer.correct ? "best" : "played", "", "answer-move");
  }
  if (S.step === null && S.answer && !S.answer.correct && S.answer.winning.length) {
    const win = S.answer.winning[0];
    if (moveCells(win).length) drawOverlay(mine, moveCells(win), "best", "", "winning-move");
  }
  if (current && current.cells.length) {
    drawOverlay(current.seat === you ? mine : $("eg-quilt-other"), current.cells, "step", "", "line-step");
  }
  S.placers.endgame.drawPreview();
  $("eg-you-title").textContent = "Your quilt (you move)";
  $("eg-other-title").textContent = "The other player's quilt";
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
    box.appendChild(patchCard(offer.patch, facts, offer.buyable && canAct() && !e.pending_leather));
  }
  $("eg-upcoming").textContent = e.upcoming.slice(0, 9).map((p) => `#${p}`).join(" ");
  const me = e.state.players[you], them = e.state.players[other];
  const gain = Math.min(them.position + 1, S.catalogue.end) - me.position;
  $("eg-advance").textContent = `Advance (+${Math.max(gain, 0)} buttons)`;
  $("eg-advance").disabled = !canAct() || e.pending_leather;
  $("eg-cancel").disabled = !canAct() || !S.placers.endgame.selected || e.pending_leather;
  drawTrayOf("eg");
}

function endgameTask() {
  const e = S.puzzle.endgame;
  if (e.pending_leather) {
    return `You move: place your leather patch where it wins. ${e.legal} distinct places, `
      + `${e.winning} of them win${e.winning === 1 ? "s" : ""}. Difficulty ${S.puzzle.difficulty} of 5.`;
  }
  return `You move: find a winning move. ${e.legal} distinct moves, `
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

// Why the patch cannot join the fill for its price ("" when it can): the buttons left of the budget.
function overBudget(pid) {
  const f = S.puzzle.fill;
  if (f.budget === null) return "";
  const cost = S.catalogue.patches[pid].cost;
  const left = f.budget - fillValue().cost;
  if (cost <= left) return "";
  return `Patch #${pid} costs ${cost} buttons: only ${left} of the budget of ${f.budget} are left`;
}

function renderFill() {
  const f = S.puzzle.fill;
  drawQuilt($("fill-quilt"), S.placed, f.quilt);
  S.placers.fill.drawPreview();
  const used = new Set(S.placed.map((p) => p.patch));
  const box = $("fill-patches");
  box.replaceChildren();
  for (const pid of f.patches) {
    const p = S.catalogue.patches[pid];
    const worth = f.objective === "points" ? ` · worth ${2 * p.area + p.income * f.marks - p.cost}` : "";
    const refusal = canAct() && !used.has(pid) ? overBudget(pid) : "";
    const facts = `#${pid} cells ${p.area} · cost ${p.cost} · income ${p.income}${worth}`
      + (refusal ? " (over the budget)" : "");
    const card = patchCard(pid, facts, canAct() && !used.has(pid) && !refusal, refusal);
    if (used.has(pid)) card.classList.add("used");
    box.appendChild(card);
  }
  const { value, cost } = fillValue();
  const unit = f.objective === "cells" ? "cells" : "points";
  $("fill-score").textContent = `Your fill: ${value} ${unit}, costing ${cost} buttons`
    + (f.budget !== null ? ` (budget ${f.budget})` : "");
  $("fill-undo").disabled = !canAct() || !S.placed.length;
  $("fill-done").disabled = !canAct();
  $("fill-optimum-box").hidden = !S.answer;
  if (S.answer) {
    const optimum = S.answer.optimum.map((p) => ({ patch: p.patch, cells: p.cells, buttons: selectionOn(S.catalogue, p.patch, p.cells)?.buttons || [] }));
    drawQuilt($("fill-optimum"), optimum, f.quilt);
  }
  drawTrayOf("fill");
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

function placeFill(at) {
  const p = S.placers.fill;
  const refusal = overBudget(p.selected.patch);
  if (refusal) {
    // refused as it happens: nothing placed
    showError(new Error(`cannot place it: ${refusal}`));
    p.choose(null);
    render();
    return;
  }
  S.placed.push({ patch: p.selected.patch, cells: at.cells, buttons: at.buttons });
  p.choose(null);
  render();
}

// A click on a placed patch, with no patch chosen, takes it back.
function takeBack(evt) {
  if (!canAct() || S.placers.fill.selected || S.placers.fill.justPlaced()) return;
  const cell = cellFromEvent($("fill-quilt"), evt);
  if (!cell) return;
  const i = S.placed.findIndex((p) => p.cells.some(([r, c]) => r === cell[0] && c === cell[1]));
  if (i >= 0) { S.placed.splice(i, 1); render(); }
}

// --- the answer and the verdict -------------------------------------------------------------------
async function sendAnswer(body) {
  if (!canAct()) return;
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
    placer().choose(null);
  } catch (err) {
    S.move = null;
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
  if (S.answer) {
    // the verdict comes into view by itself
    $("verdict").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
    $("verdict").focus({ preventScroll: true });
  }
}

function answerMove(move) {
  S.move = move;
  sendAnswer({ move });
}

// The final margin in words, for the visitor: "by 3 points", "on the tie-break".
function byWords(margin) {
  const points = Math.abs(margin);
  return margin === 0 ? "on the tie-break" : `by ${points} point${points === 1 ? "" : "s"}`;
}

function verdictText(a) {
  if (S.puzzle.kind === "endgame") {
    const yours = S.move ? moveWords(S.move) : "your move";
    if (a.correct) return `Your move, ${yours}, wins: with best play you win ${byWords(a.margin)}.`;
    const win = a.winning.length ? ` A winning move was ${moveWords(a.winning[0])} (drawn in green).` : "";
    return `Your move, ${yours} (drawn in red), loses: best play refutes it and you lose ${byWords(a.margin)}.${win}`;
  }
  const f = S.puzzle.fill;
  const unit = f.objective === "cells" ? "cells" : "points";
  const mine = fillValue().value;
  if (a.correct) return `Your fill reaches ${mine} ${unit}: the proven optimum.`;
  if (f.require_bonus && a.value === 0 && mine !== 0) {
    return `Your fill reaches ${mine} ${unit} but completes no 7x7 square, so it does not count; `
      + `the proven optimum, drawn beside your quilt, reaches ${a.best} ${unit} with one.`;
  }
  return `Your fill reaches ${mine} ${unit}; the proven optimum, drawn beside your quilt, reaches ${a.best} ${unit}.`;
}

function drawVerdict() {
  const a = S.answer;
  $("verdict").hidden = !a;
  document.body.dataset.answered = a ? (a.correct ? "correct" : "wrong") : "";
  if (!a) return;
  $("verdict").className = a.correct ? "correct" : "wrong";
  $("verdict-title").textContent = a.correct ? "Correct!" : "Not this one";
  $("verdict-text").textContent = verdictText(a);
  const list = $("verdict-line");
  list.replaceChildren();
  $("verdict-steps").hidden = S.puzzle.kind !== "endgame" || !a.line.length;
  if (S.puzzle.kind === "endgame") {
    a.line.forEach((move, i) => {
      const mover = a.line_players[i];
      const li = document.createElement("li");
      li.className = mover === S.puzzle.endgame.player ? "you" : "other";
      if (S.step === i) li.classList.add("current");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${moverName(mover)}: ${moveWords(move)}`;
      button.addEventListener("click", () => { S.step = S.step === i ? null : i; render(); });
      li.appendChild(button);
      list.appendChild(li);
    });
    const shown = a.winning.slice(0, 5).map(moveWords).join("; ");
    const more = a.winning.length > 5 ? `; and ${a.winning.length - 5} more` : "";
    $("verdict-winning").textContent = `Winning moves (${a.winning.length}): ${shown}${more}.`;
  } else {
    $("verdict-winning").textContent = "";
  }
  const rated = a.rated ? "" : " (answered before: the ratings did not move)";
  $("verdict-ratings").textContent = `Your rating: ${ratingText(a.visitor)}. This puzzle: ${ratingText(a.rating)}${rated}.`;
  $("verdict-habits").textContent = habitsText(a);
}

// What the answer did to the streak and whether the puzzle comes back, in words.
function habitsText(a) {
  const parts = [];
  if (S.inStreak) {
    const best = `best ${a.visitor.best_streak}`;
    if (a.correct && a.visitor.streak > S.streakBefore) parts.push(`Streak: ${a.visitor.streak} (${best}).`);
    else if (!a.correct) parts.push(`Streak over at ${S.streakBefore} (${best}): the next puzzle starts a new one.`);
    else parts.push(`Solved before, so the streak stays at ${a.visitor.streak} (${best}).`);
  }
  if (a.again) parts.push("This puzzle comes back after a few more, until you solve it.");
  return parts.join(" ");
}

// --- the page -------------------------------------------------------------------------------------
function render() {
  const p = S.puzzle;
  $("intro").hidden = !!p;
  $("puzzle").hidden = !p;
  document.body.dataset.busy = String(S.busy);
  if (S.visitor) $("my-rating").textContent = `Your puzzle rating: ${ratingText(S.visitor)}`;
  drawStreak();
  drawHeader();
  if (!p) return;
  $("endgame").hidden = p.kind !== "endgame";
  $("fill").hidden = p.kind !== "fill";
  $("task").textContent = p.kind === "endgame" ? endgameTask() : fillTask();
  $("puzzle-themes").hidden = !p.themes.length;
  $("puzzle-themes").textContent = `Themes: ${p.themes.map((t) => t.words).join(", ")}.`;
  $("puzzle-note").textContent = noteText();
  $("puzzle-note").hidden = !$("puzzle-note").textContent;
  $("puzzle-rating").textContent = `Puzzle ${p.id}, rated ${ratingText(S.answer ? S.answer.rating : p.rating)}`;
  if (p.kind === "endgame") renderEndgame();
  else renderFill();
  drawVerdict();
  document.body.dataset.puzzle = p.id;
  document.body.dataset.kind = p.kind;
  document.body.dataset.step = S.step === null ? "" : String(S.step);
}

function setPuzzle(puzzle, inStreak = false) {
  S.puzzle = puzzle;
  S.inStreak = inStreak;
  S.streakBefore = puzzle.visitor ? puzzle.visitor.streak : (S.visitor ? S.visitor.streak : 0);
  S.answer = null;
  S.move = null;
  S.step = null;
  S.placed = [];
  // a leather patch waiting is the only thing to place: it is in hand from the start
  S.placers.endgame.choose(puzzle.endgame && puzzle.endgame.pending_leather
    ? { patch: LEATHER, cells: [[0, 0]], buttons: [] } : null);
  S.placers.fill.choose(null);
  if (puzzle.visitor) S.visitor = puzzle.visitor;
  if (location.hash !== `#${puzzle.id}`) history.replaceState(null, "", `#${puzzle.id}`);
  render();
}

async function load(fn, inStreak = false) {
  if (S.busy) return;
  S.busy = true;
  showError(null);
  render();
  try {
    setPuzzle(await fn(), inStreak);
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
  window.scrollTo({ top: 0 });
  const next = nextOfSet();
  if (next) return load(() => api("GET", `/api/puzzles/${next}`));
  const body = { kind: $("kind").value };
  if ($("difficulty").value && !S.streakMode) body.difficulty = Number($("difficulty").value);
  if ($("theme").value) body.theme = $("theme").value;
  if (S.streakMode) body.streak = true;
  if (S.visitor) body.visitor = S.visitor.id;
  return load(() => api("POST", "/api/puzzles", body), S.streakMode);
}

// --- habits: the theme select, streak mode, the daily puzzle, a set of puzzles ----------------------

// The theme select offers the chosen kind's themes, in words (the choice kept when it still fits);
// a theme no puzzle of this server carries is shown but cannot be chosen.
function fillThemeSelect() {
  const select = $("theme");
  const keep = select.value;
  const themes = S.themes ? S.themes[$("kind").value] : [];
  const any = document.createElement("option");
  any.value = "";
  any.textContent = "any";
  select.replaceChildren(any);
  for (const t of themes) {
    const option = document.createElement("option");
    option.value = t.theme;
    option.textContent = t.puzzles ? t.words : `${t.words} (no puzzles yet)`;
    option.disabled = !t.puzzles;
    select.appendChild(option);
  }
  select.value = themes.some((t) => t.theme === keep && t.puzzles) ? keep : "";
}

function drawStreak() {
  const best = S.visitor ? S.visitor.best_streak : 0;
  const now = S.visitor ? S.visitor.streak : 0;
  $("streak").hidden = !S.streakMode && !best;
  $("streak").textContent = `${S.streakMode ? "Streak mode. " : ""}Streak: ${now} · best ${best}`;
}

function drawHeader() {
  $("streak-mode").setAttribute("aria-pressed", String(S.streakMode));
  $("streak-mode").textContent = S.streakMode ? "Streak: on" : "Streak";
  $("difficulty").disabled = S.streakMode;
  const at = S.puzzle ? S.set.indexOf(S.puzzle.id) : -1;
  $("next").textContent = at >= 0 && at + 1 < S.set.length ? `Next of your game (${at + 2} of ${S.set.length})`
    : S.streakMode ? "Next in the streak" : "New puzzle";
  for (const id of ["next", "daily", "streak-mode"]) $(id).disabled = S.busy;
  document.body.dataset.streakMode = String(S.streakMode);
}

function noteText() {
  const p = S.puzzle;
  const at = S.set.indexOf(p.id);
  if (at >= 0) return `A mistake of your game, as a puzzle: ${at + 1} of ${S.set.length}.`;
  if (p.daily) return `The daily puzzle of ${p.daily} (UTC): the same for everyone today.`;
  if (p.retry) return "You missed this puzzle before: another try.";
  if (S.inStreak) return `Streak mode: the puzzles get harder as your streak grows (difficulty ${p.difficulty} now).`;
  return "";
}

// The next puzzle of the set after the one on screen; null when the set is done (or there is none).
function nextOfSet() {
  if (!S.set.length) return null;
  const at = S.puzzle ? S.set.indexOf(S.puzzle.id) : -1;
  if (at + 1 < S.set.length) return S.set[at + 1];
  S.set = [];  // the set is done: back to puzzles of the settings
  history.replaceState(null, "", "/puzzles");
  return null;
}

function toggleStreak() {
  S.streakMode = !S.streakMode;
  if (S.streakMode) {
    S.set = [];
    newPuzzle();
  } else {
    render();
  }
}

function dailyPuzzle() {
  window.scrollTo({ top: 0 });
  return load(() => api("GET", "/api/puzzles/daily"));
}

function onKey(evt) {
  const t = evt.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || evt.altKey || evt.ctrlKey || evt.metaKey) return;
  if (!S.puzzle) return;
  if (evt.key === "r" || evt.key === "R") placer().turn(rotate);
  else if (evt.key === "f" || evt.key === "F") placer().turn(flip);
  else if (evt.key === "Escape" && !(S.puzzle.endgame && S.puzzle.endgame.pending_leather)) {
    placer().choose(null);
    render();
  }
  else if ((evt.key === "ArrowLeft" || evt.key === "ArrowRight") && S.answer && S.answer.line.length) {
    // step through the line of best play
    const last = S.answer.line.length - 1;
    const at = S.step === null ? -1 : S.step;
    const next = evt.key === "ArrowRight" ? Math.min(at + 1, last) : at - 1;
    S.step = next < 0 ? null : next;
    render();
    evt.preventDefault();
  }
}

async function boot() {
  S.catalogue = await api("GET", "/api/catalogue");
  S.themes = await api("GET", "/api/puzzles/themes");
  fillThemeSelect();
  const named = new URLSearchParams(location.search).get("set");
  S.set = named ? [...new Set(named.split(",").filter((id) => PUZZLE_ID.test(id)))] : [];
  S.placers.endgame = new Placer($("eg-quilt-you"), {
    canAct,
    covered: () => coveredOf(S.puzzle.endgame.boards[S.puzzle.endgame.player].pieces),
    commit: (at) => answerMove(S.placers.endgame.selected.patch === LEATHER
      ? { type: "leather", cell: at.cells[0] } : { type: "buy", patch: S.placers.endgame.selected.patch, cells: at.cells }),
    changed: render,
  });
  S.placers.fill = new Placer($("fill-quilt"), {
    canAct,
    covered: () => coveredOf(S.placed, S.puzzle.fill.quilt),
    commit: placeFill,
    changed: render,
  });
  const stored = localStorage.getItem(VISITOR_KEY);
  $("new-puzzle").addEventListener("submit", newPuzzle);
  $("kind").addEventListener("change", fillThemeSelect);
  $("streak-mode").addEventListener("click", toggleStreak);
  $("daily").addEventListener("click", dailyPuzzle);
  $("eg-advance").addEventListener("click", () => canAct() && answerMove({ type: "advance" }));
  for (const prefix of ["eg", "fill"]) {
    $(`${prefix}-rotate`).addEventListener("click", () => placer().turn(rotate));
    $(`${prefix}-flip`).addEventListener("click", () => placer().turn(flip));
    $(`${prefix}-place`).addEventListener("click", () => placer().place());
    S.placers[prefix === "eg" ? "endgame" : "fill"].draggable($(`${prefix}-tray-shape`), () => !!placer().selected);
  }
  $("eg-cancel").addEventListener("click", () => { S.placers.endgame.choose(null); showError(null); render(); });
  $("fill-undo").addEventListener("click", () => { if (canAct()) { S.placed.pop(); render(); } });
  $("fill-done").addEventListener("click", () => sendAnswer({
    placements: S.placed.map((p) => ({ patch: p.patch, cells: p.cells })),
  }));
  $("fill-quilt").addEventListener("click", takeBack);
  document.addEventListener("keydown", onKey);
  const id = location.hash.slice(1);
  if (stored) {
    try {
      const view = await api("POST", "/api/puzzles", { kind: "endgame", visitor: stored });
      S.visitor = view.visitor;
      if (!id && !S.set.length) setPuzzle(view);
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
