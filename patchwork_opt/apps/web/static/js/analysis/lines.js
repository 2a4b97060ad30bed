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
import { num, t, tn } from "../components/i18n.js";

// Translators: how the engine searched (after its time and the positions it saw).
const SEARCH_WORDS = () => /** @type {Record<string, string>} */ ({
  exact: t("exact: every move proven"),
  "partly exact": t("partly exact: some outcomes proven"),
  sampled: t("sampled"),
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
  if (n >= 1e6) return t("{n} million positions", { n: num(n / 1e6, 1) });
  if (n >= 1e3) return t("{n} thousand positions", { n: Math.round(n / 1e3) });
  return tn("{count} position", "{count} positions", n);
}

/** @param {number} m @param {boolean} exact */
const signed = (m, exact) => `${m > 0 ? "+" : m < 0 ? "−" : "±"}${num(Math.abs(m), exact ? 0 : 1)}`;

/** @param {any} line @returns {[string, string]} the proof's badge and its class */
function proof(line) {
  if (line.proven) return [t("proven: exact"), "exact"];
  if (line.outcome_proven) return [line.win >= 0.5 ? t("proven win") : t("proven loss"), "outcome"];
  // Translators: the engine's figures for a line come from {count} games it played out.
  return [tn("estimate from {count} game", "estimate from {count} games", line.visits), "estimate"];
}

/** @param {any} engine @returns {string} */
function stateWords(engine) {
  const snap = engine.snapshot;
  switch (engine.phase) {
    case "waiting": return t("Starting to think…");
    case "thinking": return t("Thinking…");
    case "solved": return t("Solved: every way the game can go was checked, and the figures are exact.");
    // Translators: "Go" is the name of the button that starts the engine.
    case "time": return t("Stopped at the server's limit ({seconds} s of thinking). Go thinks again.", { seconds: Math.round(snap ? snap.seconds : 0) });
    case "stopped": return snap ? t("Stopped. Go thinks again.") : t("Stopped.");
    case "over": return t("The game is over: there is nothing left to analyse.");
    case "refused": case "failed": return t("Not thinking.");
    default: return engine.on ? "" : t("Press Go: the engine thinks about the position on the board until you stop it or the server's limit.");
  }
}

/** @param {any} engine @param {any} position */
function drawBar(engine, position) {
  const snap = engine.snapshot, bar = $("win-bar");
  let p1 = null, words = t("none yet");
  if (position && position.over) {
    p1 = position.winner === 0 ? 1 : 0;
    words = t("{player} has won", { player: playerName(position.winner) });
  } else if (snap && snap.lines.length && engine.notation === position.position) {
    const best = snap.lines[0];
    p1 = snap.player === 0 ? best.win : 1 - best.win;
    const chances = { one: pct(p1), two: pct(1 - p1) };
    // Translators: the players' win chances, such as "Player 1 42%, Player 2 58%".
    words = best.proven || best.outcome_proven ? t("Player 1 {one}, Player 2 {two} (proven)", chances)
      : t("Player 1 {one}, Player 2 {two}", chances);
  }
  bar.classList.toggle("empty", p1 === null);
  $("win-bar-p1").style.width = p1 === null ? "50%" : `${100 * p1}%`;
  $("win-bar-p2").style.width = p1 === null ? "50%" : `${100 * (1 - p1)}%`;
  bar.setAttribute("aria-label", t("win chances with best play: {words}", { words }));
  $("win-words").textContent = p1 === null ? t("Win chances: press Go") : t("Win chances with best play: {words}", { words });
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
  // Translators: the button that plays a line's first move.
  const play = html("button", { type: "button", class: "line-play" }, li, t("Play"));
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
    // Translators: a line's win chance and final margin in points, such as "win 42%", "margin +3".
    move: line.words, win: t("win {chance}", { chance: pct(line.win) }), margin: t("margin {points}", { points: signed(line.margin, line.proven) }), proof: badge,
    outcome: t("{player}: {outcome}", { player: playerName(mover), outcome: line.outcome }),
    // Translators: {moves} are the line's next moves in words, separated by semicolons.
    rest: !rest.length ? "" : rest.length > REST
      ? tn("then {moves}; and {count} more", "then {moves}; and {count} more", rest.length - REST, { moves: rest.slice(0, REST).join("; ") })
      : t("then {moves}", { moves: rest.join("; ") }),
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
  play.setAttribute("aria-label", t("Play {move}", { move: line.words }));
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
    ? `${t("{seconds} s", { seconds: num(snap.seconds, 1) })} · ${positions(snap.nodes)} · ${SEARCH_WORDS()[snap.search] || snap.search}` : "";
  $("engine-error").textContent = engine.message;
  drawBar(engine, position);
  const list = $("lines");
  const lines = snap ? snap.lines : [];
  while (list.children.length > lines.length) /** @type {Element} */ (list.lastElementChild).remove();
  lines.forEach((/** @type {any} */ line, /** @type {number} */ rank) => {
    const li = /** @type {HTMLElement} */ (list.children[rank] || html("li", { class: "line", "data-testid": "line" }, list));
    drawLine(li, line, rank, snap.player);
  });
  list.setAttribute("aria-label", snap ? t("the best moves for {player}, best first", { player: playerName(snap.player) }) : t("the best moves, best first"));
  document.body.dataset.engine = engine.phase;
  document.body.dataset.snapshots = String(snap ? Math.round(snap.seconds * 10) : 0);
}
