// analysis/main.js: the analysis board (analysis.html, /analysis): any position (a notation, a
// record, a stored game's ply, a set-up from the table) on a PositionBoard that takes moves for
// either side, a tree of the variations played, the position's notation to copy, and the engine
// thinking about the position live (live.js, drawn by lines.js). Built from the shared components;
// the address names the position on the board (?position=NOTATION, or ?game=ID&ply=N on a game's
// own moves), so a link reopens it.

import { api, catalogue } from "../components/api.js";
import { $, editing, showError } from "../components/dom.js";
import { drawNav, workshopHref } from "../components/nav.js";
import { onLayoutChange } from "../components/track.js";
import { SEATS, lineOverlays, mountBoard, positionWords, viewOf } from "./board.js";
import { drawEngine, mountLines, shownLine } from "./lines.js";
import { Engine } from "./live.js";
import { ensurePosition, fromGame, fromNotation, fromRecord, fromSetup, newGame, readAddress, writeAddress } from "./open.js";
import { S, render, setRenderer } from "./state.js";
import { followBoard, mountSetup } from "./setup.js";
import { drawTree } from "./tree.js";
import { t } from "../components/i18n.js";

/** @type {import("../components/position.js").PositionBoard} */
let board;
const engine = new Engine(engineChanged);
let drawnTree = "";     // the tree and node the moves list shows
let drawnOverlays = ""; // the engine's line the board shows

/** @param {string} id @returns {HTMLButtonElement} */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
const lineCount = () => Number(/** @type {HTMLSelectElement} */ ($("line-count")).value);

function overlays() {
  const line = shownLine(engine);
  return line ? lineOverlays(line) : [];
}

function drawBoard() {
  const shown = overlays();
  drawnOverlays = JSON.stringify(shown);
  board.show(viewOf(/** @type {any} */ (S.node)), { seats: SEATS, overlays: shown });
}

function draw() {
  const node = S.node;
  document.body.dataset.busy = String(S.busy);
  if (!node || !node.position) return;
  const p = node.position;
  const from = node.game ? ` ${t("Before move {move} of game {game}.", { move: node.ply + 1, game: node.game.id })}` : "";
  $("to-move").textContent = positionWords(p) + from;
  drawBoard();
  const treeKey = `${S.tree && S.tree.version}:${node.id}`;
  if (treeKey !== drawnTree) {
    drawTree($("tree"), /** @type {any} */ (S.tree), node, jump);
    drawnTree = treeKey;
  }
  button("first").disabled = button("back").disabled = !node.parent || S.busy;
  button("forward").disabled = button("last").disabled = !node.children.length || S.busy;
  button("delete-node").disabled = !node.parent || S.busy;
  /** @type {HTMLInputElement} */ ($("notation")).value = node.notation;
  /** @type {HTMLAnchorElement} */ ($("to-workshop")).href = workshopHref({ position: node.notation });
  drawEngine(engine, p);
  writeAddress(node);
  document.body.dataset.ply = String(node.ply);
  document.body.dataset.node = String(node.id);
}

/** The engine's state changed: its panel, and the board when the line drawn on it changed. */
function engineChanged() {
  if (!S.node || !S.node.position) return;
  drawEngine(engine, S.node.position);
  if (JSON.stringify(overlays()) !== drawnOverlays) drawBoard();
}

/** The board shows `node` (its position asked for when not yet known). @param {import("./tree.js").Node} node */
async function goTo(node) {
  if (!node.position) {
    S.busy = true;
    render();
    try {
      await ensurePosition(node);
    } finally {
      S.busy = false;
    }
  }
  S.node = node;
  S.shown = null;
  board.start(viewOf(node), SEATS);
  followBoard(node.position);
  engine.follow(node.notation, node.position.over, lineCount());
  render();
}

/** @param {import("./tree.js").Node|null} node */
function jump(node) {
  if (!node || S.busy || node === S.node) return;
  goTo(node).catch(showError);
}

/** @param {any} move a move in the API's JSON, for whoever is to move */
async function play(move) {
  if (S.busy || !S.node || !S.tree) return;
  S.busy = true;
  showError(null);
  render();
  try {
    const after = await api("POST", "/api/analysis/play", { position: S.node.notation, move });
    const next = S.tree.child(S.node, after.played, after.position.position, after.position);
    S.tree.version++;
    S.busy = false;
    await goTo(next);
  } catch (err) {
    showError(err);
  } finally {
    S.busy = false;
    render();
  }
}

/** A new position on the board, from `load` (a source of open.js). @param {() => Promise<any>} load */
async function open(load) {
  S.busy = true;
  render();
  try {
    const { tree, node } = await load();
    S.tree = tree;
    S.busy = false;
    await goTo(node);
    showError(null);
    $("board-panel").scrollIntoView({ block: "start" });
  } finally {
    S.busy = false;
    render();
  }
}

/** @param {() => Promise<any>} load */
const openOrSay = (load) => open(load).catch(showError);

function wireOpen() {
  $("position-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    openOrSay(() => fromNotation(/** @type {HTMLInputElement} */ ($("position-text")).value));
  });
  $("record-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    openOrSay(() => fromRecord(/** @type {HTMLTextAreaElement} */ ($("record-text")).value));
  });
  $("record-file").addEventListener("change", async () => {
    const file = (/** @type {HTMLInputElement} */ ($("record-file")).files || [])[0];
    if (!file) return;
    const text = await file.text();
    /** @type {HTMLTextAreaElement} */ ($("record-text")).value = text;
    openOrSay(() => fromRecord(text));
  });
  $("game-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const id = /** @type {HTMLInputElement} */ ($("game-id")).value.trim();
    const ply = Number(/** @type {HTMLInputElement} */ ($("game-ply")).value || 0);
    openOrSay(() => fromGame(id, ply));
  });
  mountSetup($("setup-form"), { open: (body) => open(() => fromSetup(body)) });
}

function wireMoves() {
  const last = () => {
    let node = /** @type {any} */ (S.node);
    while (node.children.length) node = node.children[0];
    return node;
  };
  button("first").addEventListener("click", () => jump(S.tree && S.tree.root));
  button("back").addEventListener("click", () => jump(S.node && S.node.parent));
  button("forward").addEventListener("click", () => jump(S.node && S.node.children[0]));
  button("last").addEventListener("click", () => jump(last()));
  button("delete-node").addEventListener("click", () => {
    const node = S.node;
    if (!node || !node.parent || !S.tree) return;
    S.tree.remove(node);
    S.tree.version++;
    jump(node.parent);
  });
  document.addEventListener("keydown", (evt) => {
    const target = /** @type {Element} */ (evt.target);
    if (editing(evt) || (target.closest && target.closest("#setup-box"))) return;  // the set-up's painters have their own
    /** @type {Record<string, () => void>} */
    const keys = {
      ArrowLeft: () => jump(S.node && S.node.parent), ArrowRight: () => jump(S.node && S.node.children[0]),
      Home: () => jump(S.tree && S.tree.root), End: () => jump(last()),
      r: () => board.placer().turn("rotate"), f: () => board.placer().turn("flip"), Escape: () => board.cancel(),
    };
    const act = keys[evt.key.length === 1 ? evt.key.toLowerCase() : evt.key];
    if (!act || !S.node) return;
    act();
    if (evt.key.startsWith("Arrow") || evt.key === "Home" || evt.key === "End") evt.preventDefault();
  });
}

function wireEngine() {
  button("go").addEventListener("click", () => S.node && engine.go(S.node.notation, lineCount()));
  button("stop").addEventListener("click", () => engine.stop());
  $("line-count").addEventListener("change", () => {
    if (engine.running && S.node) engine.go(S.node.notation, lineCount());
  });
  mountLines({ play });
  $("copy-notation").addEventListener("click", () => copy(S.node ? S.node.notation : "", t("The position is copied.")));
  $("copy-link").addEventListener("click", () => copy(location.href, t("The link is copied: it opens this position.")));
}

/** @param {string} text @param {string} done */
async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    $("copied").textContent = done;
  } catch (err) {
    /** @type {HTMLInputElement} */ ($("notation")).select();
    $("copied").textContent = t("Copying was refused here: the position is selected, copy it with the keyboard.");
  }
}

async function boot() {
  drawNav($("site-nav"));
  S.catalogue = await catalogue();
  board = mountBoard($("board"), play);
  setRenderer(draw);
  wireOpen();
  wireMoves();
  wireEngine();
  onLayoutChange(render);
  const a = readAddress(location.search);
  let problem = "";
  try {
    if (a.problem) throw new Error(a.problem);
    if (a.game) await open(() => fromGame(a.game || "", a.ply));
    else if (a.position) await open(() => fromNotation(a.position || ""));
  } catch (err) {
    problem = `this link: ${/** @type {Error} */ (err).message || err}`;
  }
  if (!S.node) await open(newGame);
  if (problem) showError(`${problem} (a new game is on the board instead)`);
  render();
  document.body.dataset.ready = "true";
}

boot().catch(showError);
