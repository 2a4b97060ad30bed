// nav.js: the site's pages, listed once. Every page draws the same links in its header, its own
// marked (aria-current="page"), so a new page adds itself to PAGES here and nowhere else. Other
// pages open the workshop and the analysis board on something they show through workshopHref and
// analysisHref.
//
//   PAGES                 [{href, name}] in the order the header shows them (name: the English
//                         words, said in the page's language by i18n.js)
//   drawNav(nav)          the links in `nav` (a <nav aria-label="Pages">), emptied first, and the
//                         language picker after them (every page has it: the choice is remembered)
//   workshopHref(start)   the workshop's address for a start: {game, ply, player} (a stored game
//                         before move `ply`, one player's quilt), {position, player} (a position in
//                         the notation), or a quilt and patches of their own ({quilt: cells,
//                         patches, objective, budget, marks, bonus}); the workshop's address module
//                         (js/workshop/address.js) reads the same names
//   analysisHref(start)   the analysis board's address for {game, ply} (a stored game before move
//                         `ply`) or {position} (a position in the notation); js/analysis/open.js
//                         reads the same names

import { quiltCode } from "./geometry.js";
import { LANG, LANGUAGES, chooseLanguage, t } from "./i18n.js";

export const PAGES = [
  // Translators: the site's pages in the header's links
  { href: "/", name: t("Play") },
  { href: "/puzzles", name: t("Puzzles") },
  { href: "/workshop", name: t("Workshop") },
  { href: "/analysis", name: t("Analysis") },
  // Translators: the link to the page that teaches the game's rules
  { href: "/rules", name: t("How to play") },
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
  nav.appendChild(languagePicker());
}

/** @returns {HTMLElement} the language picker: each language named in itself; a choice is kept */
function languagePicker() {
  const label = document.createElement("label");
  label.className = "language-picker";
  const words = document.createElement("span");
  words.className = "sr-only";
  words.textContent = t("Language");
  const select = document.createElement("select");
  select.name = "lang";
  for (const language of LANGUAGES) {
    const option = document.createElement("option");
    option.value = language.code;
    option.lang = language.code;
    option.textContent = language.name;
    option.selected = language.code === LANG;
    select.appendChild(option);
  }
  select.addEventListener("change", () => chooseLanguage(select.value));
  label.append(words, select);
  return label;
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
