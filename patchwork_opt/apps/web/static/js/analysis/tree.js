// analysis/tree.js: the variation tree of the analysis board, and its drawing.
//
// Each node is a position: the move that led there (the API's PlayedMove: {move, text, words,
// player}; none at the root), its notation, its BoardPosition once asked for (a record's positions
// are asked for when first shown), and the quilts as the board draws them: the patches played
// since the position was opened (pieces, with their buttons) over the cells it opened with (given:
// the notation keeps a quilt's cells, not which patch covers which). A node's first child continues
// its line; the others are variations.
//
//   new Tree(catalogue, {notation, position?, given?, ply?, game?})   the root: the position opened
//     (ply: the moves played before it; game: the stored game it is the ply of)
//   tree.child(node, played, notation, position?, game?)  the node after `played`: the existing
//     child that played the same move, else a new one (a variation when the node had a child)
//   tree.remove(node)            the node and everything after it, gone (not the root)
//   tree.version                 raised by whoever changes the tree (its drawing is redone then)
//   tree.mainLine()              the root and its first children, to the end
//   tree.at(ply)                 the node of the main line at that ply, or null
//   drawTree(box, tree, current, jump(node))   every move as a button, variations indented under
//     the move they branch from; the current one marked (aria-current)

import { html } from "../components/dom.js";
import { LEATHER, selectionOn } from "../components/geometry.js";
import { playerName } from "./state.js";
import { t } from "../components/i18n.js";

/** @typedef {[number, number]} Cell */
/** @typedef {{patch: number, cells: Cell[], buttons: Cell[]}} Piece */
/** @typedef {{move: any, text: string, words: string, player: number}} Played */

let ids = 0;

export class Node {
  /**
   * @param {Node|null} parent @param {Played|null} played @param {string} notation
   * @param {Piece[][]} pieces @param {Cell[][]} given @param {number} ply
   */
  constructor(parent, played, notation, pieces, given, ply) {
    this.id = ++ids;
    this.parent = parent;
    /** @type {Node[]} */ this.children = [];
    this.played = played;
    this.notation = notation;
    /** @type {any} BoardPosition, once asked for */ this.position = null;
    this.pieces = pieces;
    this.given = given;
    this.ply = ply;
    /** @type {{id: string, ply: number}|null} */ this.game = null;
  }
}

/** The patch a move lays on its mover's quilt, or null (an advance). @param {any} catalogue @param {any} move @returns {Piece|null} */
export function pieceOf(catalogue, move) {
  if (move.type === "leather") return { patch: LEATHER, cells: [move.cell], buttons: [] };
  if (move.type !== "buy") return null;
  const on = selectionOn(catalogue, move.patch, move.cells);
  return { patch: move.patch, cells: move.cells, buttons: on ? on.buttons : [] };
}

export class Tree {
  /**
   * @param {any} catalogue
   * @param {{notation: string, position?: any, given?: Cell[][], ply?: number, game?: string|null}} root
   */
  constructor(catalogue, { notation, position = null, given = [[], []], ply = 0, game = null }) {
    this.catalogue = catalogue;
    this.version = 0;  // counts the changes of its shape, so that its drawing is redone only then
    this.root = new Node(null, null, notation, [[], []], given, ply);
    this.root.position = position;
    if (game) this.root.game = { id: game, ply };
  }

  /**
   * @param {Node} node @param {Played} played @param {string} notation @param {any} [position]
   * @param {string|null} [game] the stored game whose next ply this is (its main line)
   * @returns {Node}
   */
  child(node, played, notation, position = null, game = null) {
    let next = node.children.find((c) => c.notation === notation && c.played && c.played.text === played.text);
    if (!next) {
      const pieces = [node.pieces[0].slice(), node.pieces[1].slice()];
      const piece = pieceOf(this.catalogue, played.move);
      if (piece) pieces[played.player].push(piece);
      next = new Node(node, played, notation, pieces, node.given, node.ply + 1);
      if (game) next.game = { id: game, ply: next.ply };
      node.children.push(next);
    }
    if (position && !next.position) next.position = position;
    return next;
  }

  /** @param {Node} node */
  remove(node) {
    if (!node.parent) return;
    node.parent.children = node.parent.children.filter((c) => c !== node);
  }

  mainLine() {
    const line = [this.root];
    while (line[line.length - 1].children.length) line.push(line[line.length - 1].children[0]);
    return line;
  }

  /** @param {number} ply */
  at(ply) {
    return this.mainLine().find((n) => n.ply === ply) || null;
  }
}

/** @param {Node} node @returns {string} the move that led to the node, as its button says it */
export function moveName(node) {
  if (!node.played) return node.game ? t("Start: before move {move} of the game", { move: node.ply + 1 }) : t("Start: the position opened");
  return `${node.ply}. ${playerName(node.played.player)}: ${node.played.words}`;
}

/**
 * @param {HTMLElement} box @param {Tree} tree @param {Node} current @param {(node: Node) => void} jump
 */
export function drawTree(box, tree, current, jump) {
  box.replaceChildren();
  /** @param {Node} node @param {HTMLElement} into */
  const add = (node, into) => {
    const button = html("button", { type: "button", class: "move", "data-node": node.id }, into, moveName(node));
    if (node.played) button.classList.add(node.played.player === 0 ? "p1" : "p2");
    if (node === current) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => jump(node));
  };
  /** @param {Node} start @param {HTMLElement} into */
  const line = (start, into) => {
    let node = start;
    add(node, into);
    while (node.children.length) {
      const [main, ...others] = node.children;
      add(main, into);
      for (const other of others) {
        const block = html("div", { class: "variation", role: "group", "aria-label": t("a variation after move {move}", { move: node.ply }) }, into);
        line(other, block);
      }
      node = main;
    }
  };
  line(tree.root, box);
  // the current move in view within the list (the list scrolls, never the page)
  const mark = /** @type {HTMLElement|null} */ (box.querySelector("[aria-current='true']"));
  if (!mark) return;
  const top = mark.offsetTop, bottom = top + mark.offsetHeight;  // the list is positioned: offsets are its own
  if (top < box.scrollTop) box.scrollTop = top;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}
