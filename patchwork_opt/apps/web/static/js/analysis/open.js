// analysis/open.js: where a position on the analysis board comes from, and the page's address.
// Each source asks the analysis API and resolves to a new variation tree with the node to show; a
// refusal throws (ApiError: the API's one-line detail).
//
//   fromNotation(text)       GET /api/analysis/position: a position in the notation
//   fromRecord(text)         POST /api/analysis/record: a game record (JSON text), its moves the
//                            tree's main line, shown from its start
//   fromGame(id, ply)        a stored game: its moves the main line (its record, stepped through),
//                            shown before move `ply` (GET /api/games/{id}/plies/{ply}/position)
//   fromSetup(body)          POST /api/analysis/setup: a position read off the table
//   newGame()                a new game's first position, its circle shuffled (the neutral token
//                            starts just after patch 0, as RULES.md sets a game up)
//   ensurePosition(node)     the node's BoardPosition, asked for when not yet known
//   readAddress(search)      {position, game, ply, problem}: what ?position=NOTATION or
//                            ?game=ID&ply=N asks for (nav.js's analysisHref writes the same)
//   writeAddress(node)       the address of the node on the board (history.replaceState): its game
//                            and ply on a game's own moves, else its position

import { api } from "../components/api.js";
import { analysisHref } from "../components/nav.js";
import { S } from "./state.js";
import { Tree } from "./tree.js";

/** @typedef {{tree: Tree, node: import("./tree.js").Node}} Opened */

/** @param {string} notation */
const positionPath = (notation) => `/api/analysis/position?${new URLSearchParams({ position: notation })}`;

/** @param {string} text @returns {Promise<Opened>} */
export async function fromNotation(text) {
  const position = await api("GET", positionPath(text.trim()));
  const tree = new Tree(S.catalogue, { notation: position.position, position, given: position.quilts });
  return { tree, node: tree.root };
}

/** The record's moves as the tree's main line. @param {any} steps RecordSteps @param {string|null} game */
function treeOfSteps(steps, game) {
  const tree = new Tree(S.catalogue, { notation: steps.positions[0], game });
  let node = tree.root;
  steps.moves.forEach((/** @type {any} */ played, /** @type {number} */ i) => {
    node = tree.child(node, played, steps.positions[i + 1], null, game);
  });
  return tree;
}

/** @param {string} text @returns {Promise<Opened>} */
export async function fromRecord(text) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (err) {
    throw new Error(`the record is not JSON: ${/** @type {Error} */ (err).message}`);
  }
  const steps = await api("POST", "/api/analysis/record", record);
  const tree = treeOfSteps(steps, null);
  await ensurePosition(tree.root);
  return { tree, node: tree.root };
}

/** @param {string} id @param {number} ply @returns {Promise<Opened>} */
export async function fromGame(id, ply) {
  const path = `/api/games/${encodeURIComponent(id)}`;
  const [position, record] = await Promise.all([api("GET", `${path}/plies/${ply}/position`), api("GET", `${path}/record`)]);
  const steps = await api("POST", "/api/analysis/record", record);
  const tree = treeOfSteps(steps, id);
  const node = tree.at(ply) || tree.root;
  node.position = position;
  return { tree, node };
}

/** @param {any} body a PhysicalSetup @returns {Promise<Opened>} */
export async function fromSetup(body) {
  const position = await api("POST", "/api/analysis/setup", body);
  const tree = new Tree(S.catalogue, { notation: position.position, position, given: position.quilts });
  return { tree, node: tree.root };
}

/** @returns {Promise<Opened>} */
export async function newGame() {
  const circle = Array.from({ length: S.catalogue.patches.length - 1 }, (_, i) => i + 1);
  for (let i = circle.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [circle[i], circle[j]] = [circle[j], circle[i]];
  }
  const steps = await api("POST", "/api/analysis/record", { circle: [...circle, 0], moves: [] });
  const tree = new Tree(S.catalogue, { notation: steps.positions[0] });
  await ensurePosition(tree.root);
  return { tree, node: tree.root };
}

/** @param {import("./tree.js").Node} node */
export async function ensurePosition(node) {
  if (!node.position) node.position = await api("GET", positionPath(node.notation));
  return node.position;
}

/** @param {string} search location.search */
export function readAddress(search) {
  const q = new URLSearchParams(search);
  const out = { position: q.get("position"), game: q.get("game"), ply: 0, problem: "" };
  const ply = q.get("ply");
  if (ply !== null && ply !== "") {
    const n = Number(ply);
    if (Number.isInteger(n) && n >= 0 && n <= 1000) out.ply = n;
    else out.problem = `ply: "${ply.slice(0, 20)}" is not a whole number from 0 to 1000`;
  }
  return out;
}

/** @param {import("./tree.js").Node} node */
export function writeAddress(node) {
  const next = node.game ? analysisHref({ game: node.game.id, ply: node.game.ply }) : analysisHref({ position: node.notation });
  if (next !== `${location.pathname}${location.search}`) history.replaceState(null, "", next);
}
