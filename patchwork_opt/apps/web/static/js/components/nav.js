// nav.js: the site's pages, listed once. Every page draws the same links in its header, its own
// marked (aria-current="page"), so a new page adds itself to PAGES here and nowhere else. Other
// pages open the workshop and the analysis board on something they show through workshopHref and
// analysisHref.
//
//   PAGES                 [{href, name}] in the order the header shows them
//   drawNav(nav)          the links in `nav` (a <nav aria-label="Pages">), emptied first
//   workshopHref(start)   the workshop's address for a start: {game, ply, player} (a stored game
//                         before move `ply`, one player's quilt), {position, player} (a position in
//                         the notation), or a quilt and patches of their own ({quilt: cells,
//                         patches, objective, budget, marks, bonus}); the workshop's address module
//                         (js/workshop/address.js) reads the same names
//   analysisHref(start)   the analysis board's address for {game, ply} (a stored game before move
//                         `ply`) or {position} (a position in the notation); js/analysis/open.js
//                         reads the same names

import { quiltCode } from "./geometry.js";

export const PAGES = [
  { href: "/", name: "Play" },
  { href: "/puzzles", name: "Puzzles" },
  { href: "/workshop", name: "Workshop" },
  { href: "/analysis", name: "Analysis" },
];

/** @param {HTMLElement|null} nav */
export function drawNav(nav) {
  if (!nav) return;
  nav.replaceChildren();
  const list = document.createElement("ul");
  for (const page of PAGES) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = page.href;
    link.textContent = page.name;
    if (location.pathname === page.href) link.setAttribute("aria-current", "page");
    item.appendChild(link);
    list.appendChild(item);
  }
  nav.appendChild(list);
}

/**
 * @param {{game?: string, ply?: number, player?: number, position?: string, quilt?: [number, number][],
 *   patches?: number[], objective?: string, budget?: number|null, marks?: number, bonus?: boolean}} start
 * @returns {string}
 */
export function workshopHref(start) {
  const params = new URLSearchParams();
  if (start.game) params.set("game", start.game);
  if (start.ply !== undefined) params.set("ply", String(start.ply));
  if (start.position) params.set("position", start.position);
  if (start.player !== undefined) params.set("player", String(start.player));
  if (start.quilt && start.quilt.length) params.set("quilt", quiltCode(start.quilt));
  if (start.patches && start.patches.length) params.set("patches", start.patches.join(","));
  if (start.objective) params.set("objective", start.objective);
  if (start.budget !== undefined && start.budget !== null) params.set("budget", String(start.budget));
  if (start.marks !== undefined) params.set("marks", String(start.marks));
  if (start.bonus) params.set("bonus", "1");
  const query = params.toString();
  return query ? `/workshop?${query}` : "/workshop";
}

/** @param {{game?: string, ply?: number, position?: string}} start @returns {string} */
export function analysisHref(start) {
  const params = new URLSearchParams();
  if (start.game) {
    params.set("game", start.game);
    params.set("ply", String(start.ply || 0));
  } else if (start.position) params.set("position", start.position);
  const query = params.toString();
  return query ? `/analysis?${query}` : "/analysis";
}
