// workshop/patches.js: the 33 patches drawn as they look (components/patch.js cards, each a toggle
// named "patch #ID cost C time T income I cells N"), filtered by size, cost, time and buttons (the
// income a patch shows) as you type (GET /api/workshop/patches: `patchwork patches --json`, which also
// names the closest patches when none matches), and chosen in order: the first chosen is the one to
// place, the rest its look-ahead; a fill and the 7x7 question take them all. Each chosen card says
// its part ("to place", "look-ahead 1"), and pressing a chosen card again puts it back, saying under
// the filters which patch is placed now: the patch to place never changes unsaid.
//
//   mountPatches({chosen, listed})  builds the cards and wires the filters; chosen(): the choice
//                             changed (the answer no longer holds); listed(): the list changed
//   showFilters()             the filters' fields as S.filters holds them
//   applyFilters()            asks for the patches the filters leave (the newest answer wins)
//   drawChoice()              each card pressed or not and its part, as S.chosen says (the cards keep
//                             the focus), and what the last card put back changed
//   toggle(pid), chooseShown() (every patch listed), chooseOffers() (the position's), chosenWords()

import { api } from "../components/api.js";
import { t, tn } from "../components/i18n.js";
import { $, html } from "../components/dom.js";
import { patchCard } from "../components/patch.js";
import { S } from "./state.js";

/** @type {Map<number, HTMLButtonElement>} */
const cards = new Map();
/** @type {Map<number, HTMLElement>} each card's part in the choice, in words */
const parts = new Map();
//: What the last card pressed again changed, said while the choice stays as it left it: in a
//: sentence under the filters, and in short on the card itself (where the finger or pointer is).
const putBack = { pid: -1, text: "", short: "", chosen: "" };
let asked = 0;
/** @type {{chosen: () => void, listed: () => void}} */
let page = { chosen: () => {}, listed: () => {} };

const FILTERS = /** @type {const} */ (["cells", "cost", "time", "income"]);

/** @param {{chosen: () => void, listed: () => void}} hooks */
export function mountPatches(hooks) {
  page = hooks;
  const cat = S.catalogue;
  for (const p of cat.patches) {
    const { card } = patchCard({
      catalogue: cat, pid: p.id, // Translators: a patch card's facts, each a word before its number: cost 3 time 2 income 1 cells 4.
      facts: [[t("cost"), p.cost], [t("time"), p.time], [t("income"), p.income], [t("cells"), p.area]],
      onChoose: (pid) => toggle(pid),
    });
    cards.set(p.id, card);
    parts.set(p.id, html("span", { class: "role" }, card));
  }
  for (const name of FILTERS) {
    const input = /** @type {HTMLInputElement} */ ($(`filter-${name}`));
    input.addEventListener("input", () => {
      S.filters[name] = input.value.trim();
      applyFilters();
    });
  }
  $("filters").addEventListener("submit", (evt) => evt.preventDefault());
}

/** The filters' fields as the state holds them (a link's). */
export function showFilters() {
  for (const name of FILTERS) /** @type {HTMLInputElement} */ ($(`filter-${name}`)).value = S.filters[name];
}

/** The cards the filters leave, in id order (the closest ones when none matches). */
function drawList() {
  const box = $("patch-cards");
  const ids = S.listed === null ? [...cards.keys()] : S.listed;
  box.replaceChildren(...ids.map((id) => /** @type {HTMLButtonElement} */ (cards.get(id))));
}

export async function applyFilters() {
  const mine = ++asked;
  const params = new URLSearchParams();
  for (const name of FILTERS) if (S.filters[name]) params.set(name, S.filters[name]);
  const words = $("filter-words");
  if (![...params.keys()].length) {
    S.listed = null;
    words.textContent = "";
    words.classList.remove("problem");
    drawList();
    page.listed();
    return;
  }
  try {
    const found = await api("GET", `/api/workshop/patches?${params}`);
    if (mine !== asked) return;  // a newer filter was typed meanwhile
    const shown = found.patches.length ? found.patches : found.closest;
    S.listed = shown.map((/** @type {any} */ p) => p.id);
    words.textContent = found.words || tn("{count} of 33 patches", "{count} of 33 patches", found.patches.length);
    words.classList.remove("problem");
  } catch (err) {
    if (mine !== asked) return;
    words.textContent = String(/** @type {Error} */ (err).message);
    words.classList.add("problem");
    S.listed = [];
  }
  drawList();
  page.listed();
}

export function drawChoice() {
  cards.forEach((card, pid) => {
    const at = S.chosen.indexOf(pid);
    card.setAttribute("aria-pressed", String(at >= 0));
    card.classList.toggle("selected", at >= 0);
    card.classList.toggle("first", at === 0);
  });
  const said = putBack.chosen === S.chosen.join(",");
  parts.forEach((part, pid) => {
    const at = S.chosen.indexOf(pid);
    // Translators: a chosen patch card's part: the patch to place, or the {n}-th patch looked ahead to.
    part.textContent = at === 0 ? t("to place") : at > 0 ? t("look-ahead {n}", { n: at }) : said && pid === putBack.pid ? putBack.short : "";
  });
  $("choice-note").textContent = said ? putBack.text : "";
  if (!$("patch-cards").children.length) drawList();
}

/** A card pressed: chosen (after those chosen already), or, chosen already, put back. @param {number} pid */
export function toggle(pid) {
  const at = S.chosen.indexOf(pid);
  if (at >= 0) {
    S.chosen.splice(at, 1);
    const first = S.chosen[0];
    putBack.pid = pid;
    const patch = `#${pid}`, next = `#${first}`;
    // Translators: {patch} and {next} are patches' ids such as #12.
    putBack.text = first === undefined ? t("{patch} is put back: no patch is chosen now.", { patch })
      : at === 0 ? t("{patch} is put back: {next} is the patch to place now.", { patch, next })
      : t("{patch} is put back: {next} is still the patch to place.", { patch, next });
    putBack.short = first === undefined ? t("put back: none chosen") : at === 0 ? t("put back: {next} to place now", { next }) : t("put back");
    putBack.chosen = S.chosen.join(",");
  } else {
    S.chosen.push(pid);
  }
  page.chosen();
}

/** Every patch the filters leave, after those chosen already. */
export function chooseShown() {
  const shown = S.listed === null ? [...cards.keys()] : S.listed;
  S.chosen = [...S.chosen, ...shown.filter((id) => !S.chosen.includes(id))];
  page.chosen();
}

export function chooseOffers() {
  if (!S.source) return;
  S.chosen = S.source.offers.map((/** @type {any} */ o) => o.patch);
  page.chosen();
}

//: Patches named one by one in the choice's words; past this, how many more.
const NAMED = 8;

/** @param {number[]} ids */
const names = (ids) => (ids.length <= NAMED ? ids.map((id) => `#${id}`).join(", ")
  // Translators: {patches} lists patches' ids; {count} more are chosen after them.
  : tn("{patches} and {count} more", "{patches} and {count} more", ids.length - NAMED + 1,
    { patches: ids.slice(0, NAMED - 1).map((id) => `#${id}`).join(", ") }));

/** What the choice means to each question, in words. */
export function chosenWords() {
  const c = S.chosen;
  if (!c.length) return t("Choose a patch under Patches for its best placements, or several to fill the quilt with.");
  const patch = `#${c[0]}`;
  if (c.length === 1) return t("Best placements of {patch}; a fill and the 7x7 question take it.", { patch });
  // Translators: {patch} is a patch's id such as #12, {ahead} the ids of the next ones; {count} is how many are chosen in all.
  return tn("Best placements of {patch}, looking ahead to {ahead}; a fill and the 7x7 question take all {count}.",
    "Best placements of {patch}, looking ahead to {ahead}; a fill and the 7x7 question take all {count}.", c.length,
    { patch, ahead: names(c.slice(1)) });
}
