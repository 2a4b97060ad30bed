// analysis/lines.js: the engine's panel drawn from its state (live.js): Go and Stop, what it is
// doing, its figures growing (seconds, positions, how exact), the win-chance bar, and the best
// moves, each with its win chance, expected margin, whether it is proven, what it leads to and its
// line in words. A line is drawn on the board while pointed at or focused, and stays drawn when
// pressed; its Play button plays its first move.
//
//   mountLines({play(move)})   the list's pointer and focus wiring, once
//   drawEngine(engine, position)   the panel as the engine and the board's position are now
//   shownLine(engine)          the line drawn on the board (S.shown's rank), or null

import { $, REDUCED_MOTION, html } from "../components/dom.js";
import { pct } from "../components/words.js";
import { S, playerName, render } from "./state.js";

const SEARCH_WORDS = /** @type {Record<string, string>} */ ({
  exact: "exact: every move proven",
  "partly exact": "partly exact: some outcomes proven",
  sampled: "sampled",
});

/** @type {(move: any) => void} */
let playMove = () => {};

/** @param {{play: (move: any) => void}} o */
export function mountLines(o) {
  playMove = o.play;
  const list = $("lines");
  /** @param {Event} evt @returns {number|null} */
  const rankOf = (evt) => {
    const li = /** @type {Element} */ (evt.target).closest && /** @type {Element} */ (evt.target).closest("li.line");
    return li ? Number(/** @type {HTMLElement} */ (li).dataset.rank) : null;
  };
  /** @param {number|null} rank */
  const point = (rank) => {
    if (S.shown && S.shown.pinned) return;
    const next = rank === null ? null : { rank, pinned: false };
    if (JSON.stringify(next) === JSON.stringify(S.shown)) return;
    S.shown = next;
    render();
  };
  list.addEventListener("pointerover", (evt) => { if (/** @type {PointerEvent} */ (evt).pointerType !== "touch") point(rankOf(evt)); });
  list.addEventListener("pointerleave", () => point(null));
  list.addEventListener("focusin", (evt) => point(rankOf(evt)));
  list.addEventListener("focusout", (evt) => {
    const to = /** @type {FocusEvent} */ (evt).relatedTarget;
    if (!(to instanceof Node && list.contains(to))) point(null);
  });
}

/** @param {any} engine */
export function shownLine(engine) {
  const snap = engine.snapshot;
  if (!S.shown || !snap || engine.notation !== (S.node && S.node.notation)) return null;
  return snap.lines[S.shown.rank] || null;
}

/** @param {number} n */
function positions(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} million positions`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} thousand positions`;
  return `${n} positions`;
}

/** @param {number} m @param {boolean} exact */
const signed = (m, exact) => `${m > 0 ? "+" : m < 0 ? "−" : "±"}${Math.abs(m).toFixed(exact ? 0 : 1)}`;

/** @param {any} line @returns {[string, string]} the proof's badge and its class */
function proof(line) {
  if (line.proven) return ["proven: exact", "exact"];
  if (line.outcome_proven) return [line.win >= 0.5 ? "proven win" : "proven loss", "outcome"];
  return [`estimate from ${line.visits.toLocaleString("en")} games`, "estimate"];
}

/** @param {any} engine @returns {string} */
function stateWords(engine) {
  const snap = engine.snapshot;
  switch (engine.phase) {
    case "waiting": return "Starting to think…";
    case "thinking": return "Thinking…";
    case "solved": return "Solved: every way the game can go was checked, and the figures are exact.";
    case "time": return `Stopped at the server's limit (${Math.round(snap ? snap.seconds : 0)} s of thinking). Go thinks again.`;
    case "stopped": return snap ? "Stopped. Go thinks again." : "Stopped.";
    case "over": return "The game is over: there is nothing left to analyse.";
    case "refused": case "failed": return "Not thinking.";
    default: return engine.on ? "" : "Press Go: the engine thinks about the position on the board until you stop it or the server's limit.";
  }
}

/** @param {any} engine @param {any} position */
function drawBar(engine, position) {
  const snap = engine.snapshot, bar = $("win-bar");
  let p1 = null, words = "none yet";
  if (position && position.over) {
    p1 = position.winner === 0 ? 1 : 0;
    words = `${playerName(position.winner)} has won`;
  } else if (snap && snap.lines.length && engine.notation === position.position) {
    const best = snap.lines[0];
    p1 = snap.player === 0 ? best.win : 1 - best.win;
    const how = best.proven || best.outcome_proven ? " (proven)" : "";
    words = `Player 1 ${pct(p1)}, Player 2 ${pct(1 - p1)}${how}`;
  }
  bar.classList.toggle("empty", p1 === null);
  $("win-bar-p1").style.width = p1 === null ? "50%" : `${100 * p1}%`;
  $("win-bar-p2").style.width = p1 === null ? "50%" : `${100 * (1 - p1)}%`;
  bar.setAttribute("aria-label", `win chances with best play: ${words}`);
  $("win-words").textContent = p1 === null ? "Win chances: press Go" : `Win chances with best play: ${words}`;
}

const NARROW = window.matchMedia("(max-width: 700px)");
//: moves of a line's continuation said in words (the board draws all of them)
const REST = 4;

/** A line's item, made once: its parts are updated in place as the figures grow, so that a press
 * or the focus is never lost under a snapshot. @param {HTMLElement} li */
function buildLine(li) {
  const show = html("button", { type: "button", class: "line-show" }, li);
  const head = html("span", { class: "line-head" }, show);
  for (const part of ["move", "win", "margin"]) html("span", { class: `line-${part}`, "data-part": part }, head);
  for (const part of ["proof", "outcome", "rest"]) html("span", { class: `line-${part}`, "data-part": part }, show);
  const play = html("button", { type: "button", class: "line-play" }, li, "Play");
  show.addEventListener("click", () => {
    const r = Number(li.dataset.rank);
    S.shown = S.shown && S.shown.pinned && S.shown.rank === r ? null : { rank: r, pinned: true };
    render();
    // a phone shows the board above the lines: the line pressed is drawn there, in view
    if (S.shown && NARROW.matches) $("an-boards").scrollIntoView({ block: "start", behavior: REDUCED_MOTION ? "auto" : "smooth" });
  });
  play.addEventListener("click", () => playMove(JSON.parse(li.dataset.move || "null")));
}

/** @param {HTMLElement} li @param {any} line @param {number} rank @param {number} mover */
function drawLine(li, line, rank, mover) {
  if (!li.firstChild) buildLine(li);
  li.dataset.rank = String(rank);
  li.dataset.move = JSON.stringify(line.move);
  const [badge, kind] = proof(line);
  const rest = line.line.slice(1);
  /** @type {Record<string, string>} */
  const parts = {
    move: line.words, win: `win ${pct(line.win)}`, margin: `margin ${signed(line.margin, line.proven)}`, proof: badge,
    outcome: `${playerName(mover)}: ${line.outcome}`,
    rest: rest.length ? `then ${rest.slice(0, REST).join("; ")}${rest.length > REST ? `; and ${rest.length - REST} more` : ""}` : "",
  };
  for (const [part, text] of Object.entries(parts)) {
    const node = /** @type {HTMLElement} */ (li.querySelector(`[data-part="${part}"]`));
    if (node.textContent !== text) node.textContent = text;
  }
  /** @type {HTMLElement} */ (li.querySelector("[data-part=proof]")).className = `line-proof ${kind}`;
  const show = /** @type {HTMLElement} */ (li.querySelector(".line-show"));
  const play = /** @type {HTMLButtonElement} */ (li.querySelector(".line-play"));
  show.setAttribute("aria-pressed", String(!!S.shown && S.shown.pinned && S.shown.rank === rank));
  li.classList.toggle("shown", !!S.shown && S.shown.rank === rank);
  play.setAttribute("aria-label", `Play ${line.words}`);
  play.disabled = S.busy;
}

/** @param {any} engine @param {any} position the BoardPosition on the board */
export function drawEngine(engine, position) {
  const over = !position || position.over;
  /** @type {HTMLButtonElement} */ ($("go")).disabled = over || engine.running;
  /** @type {HTMLButtonElement} */ ($("stop")).disabled = !engine.running;
  const words = stateWords(engine);
  if ($("engine-state").textContent !== words) $("engine-state").textContent = words;
  const snap = engine.snapshot && position && engine.notation === position.position ? engine.snapshot : null;
  $("engine-figures").textContent = snap
    ? `${snap.seconds.toFixed(1)} s · ${positions(snap.nodes)} · ${SEARCH_WORDS[snap.search] || snap.search}` : "";
  $("engine-error").textContent = engine.message;
  drawBar(engine, position);
  const list = $("lines");
  const lines = snap ? snap.lines : [];
  while (list.children.length > lines.length) /** @type {Element} */ (list.lastElementChild).remove();
  lines.forEach((/** @type {any} */ line, /** @type {number} */ rank) => {
    const li = /** @type {HTMLElement} */ (list.children[rank] || html("li", { class: "line", "data-testid": "line" }, list));
    drawLine(li, line, rank, snap.player);
  });
  list.setAttribute("aria-label", snap ? `the best moves for ${playerName(snap.player)}, best first` : "the best moves, best first");
  document.body.dataset.engine = engine.phase;
  document.body.dataset.snapshots = String(snap ? Math.round(snap.seconds * 10) : 0);
}
