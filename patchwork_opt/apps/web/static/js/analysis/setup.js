// analysis/setup.js: a position set up from a game on the table (POST /api/analysis/setup): the
// circle's order picked patch by patch by picture (patch cards, components/patch.js), both quilts
// painted cell by cell (QuiltView with cell buttons and its QuiltPainter, the workshop's), both
// tokens' spaces, buttons and income, the leather patches still on the track, who holds the 7x7
// bonus, and the rare facts a position needs only sometimes (whose token is on top on a shared
// space, a leather patch waiting to be placed, who reached the end first). The form holds the
// board's position, to change what differs: it follows the board, folded or open, until the visitor
// changes something in it (then it keeps their work until "Start again from the board's position");
// so it never shows an empty circle for a board that has one. An impossible set-up is refused with
// the server's line.
//
//   mountSetup(form, {open(body)})   builds the form; open(body) sets the position up (a promise:
//                                    its refusal's message goes under the form)
//   followBoard(position)            the board shows a BoardPosition: the form takes it, unless edited
//   fillSetup(position)              the form as a BoardPosition has it

import { $, html, svg } from "../components/dom.js";
import { key } from "../components/geometry.js";
import { QuiltPainter } from "../components/painter.js";
import { drawShape, patchCard, patchColour } from "../components/patch.js";
import { QuiltView } from "../components/quilt.js";
import { S, playerName } from "./state.js";
import { t, tn } from "../components/i18n.js";

/** @typedef {[number, number]} Cell */

const F = {
  circle: /** @type {number[]} */ ([]),
  quilts: [new Set(), new Set()],  // keys (geometry.key) of each player's covered cells
  views: /** @type {QuiltView[]} */ ([]),
  edited: false,                   // the visitor changed the form since it last took a position
};

/** @param {string} id @returns {HTMLInputElement} */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));

/** @param {HTMLElement} form @param {string} legend @param {string} id */
const fieldset = (form, legend, id) => {
  const box = html("fieldset", { id }, form);
  html("legend", {}, box, legend);
  return box;
};

/** @param {HTMLElement} parent @param {string} label @param {Record<string, string>} options @param {string} id */
function select(parent, label, options, id) {
  const wrap = html("label", {}, parent, `${label} `);
  const box = html("select", { id }, wrap);
  for (const [value, words] of Object.entries(options)) html("option", { value }, box, words);
  return box;
}

function buildCircle(/** @type {HTMLElement} */ form) {
  const box = fieldset(form, t("The circle of patches"), "setup-circle");
  html("p", { class: "legend" }, box, t("Press the patches in the circle's order, clockwise from the one after the "
    + "neutral token (the first three are on offer). Press a patch again to take it out."));
  html("p", { id: "circle-words", "data-testid": "circle-words" }, box);
  html("ol", { id: "circle-order", "aria-label": t("the circle in order") }, box);
  const controls = html("div", { class: "controls" }, box);
  html("button", { type: "button", id: "circle-undo" }, controls, t("Take the last one out")).addEventListener("click", () => {
    F.edited = true;
    F.circle.pop();
    drawCircle();
  });
  html("button", { type: "button", id: "circle-clear" }, controls, t("Clear the circle")).addEventListener("click", () => {
    F.edited = true;
    F.circle = [];
    drawCircle();
  });
  html("div", { id: "circle-patches", class: "offers", role: "group", "aria-label": t("the patches, to pick for the circle") }, box);
}

function drawCircle() {
  const order = $("circle-order");
  order.replaceChildren();
  for (const pid of F.circle) {
    const li = html("li", {}, order);
    const pic = svg("svg", { "aria-hidden": "true", class: "circle-pic" }, li);
    drawShape(pic, S.catalogue.patches[pid].orientations[0], patchColour(pid), 7);
    html("span", {}, li, `#${pid}`);
  }
  const n = F.circle.length;
  // Translators: {patches} lists the patches' ids in the circle's order, such as "#3, #12".
  $("circle-words").textContent = n ? tn("{count} patch on the circle: {patches}.", "{count} patches on the circle: {patches}.", n,
    { patches: F.circle.map((p) => `#${p}`).join(", ") })
    : t("No patch picked: the circle is empty.");
  const cards = $("circle-patches");
  cards.replaceChildren();
  S.catalogue.patches.forEach((/** @type {any} */ p) => {
    const at = F.circle.indexOf(p.id);
    const { card } = patchCard({
      catalogue: S.catalogue, pid: p.id, size: 9, pressed: at >= 0, // Translators: a patch's place in the circle's order (1 is the first after the neutral token).
      note: at >= 0 ? t("number {n} on the circle", { n: at + 1 }) : "",
      facts: [[t("cost"), p.cost], [t("time"), p.time], [t("income"), p.income]],
      onChoose: (pid) => {
        F.edited = true;
        F.circle = at >= 0 ? F.circle.filter((x) => x !== pid) : [...F.circle, pid];
        drawCircle();
        const again = /** @type {HTMLElement|null} */ (cards.querySelector(`[data-patch="${pid}"]`));
        if (again) again.focus();
      },
    });
    cards.appendChild(card);
  });
}

/** @param {HTMLElement} parent @param {number} seat */
function buildPlayer(parent, seat) {
  const name = playerName(seat);
  const box = fieldset(parent, name, `setup-p${seat}`);
  const quilt = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (svg("svg", { id: `setup-quilt-${seat}`, class: "quilt",
    role: "group", "aria-label": t("{player}'s quilt: press or drag over cells to cover them", { player: name }) }, box)));
  const view = new QuiltView(quilt, { cellButtons: true });
  F.views[seat] = view;
  new QuiltPainter(view, {
    covered: () => F.quilts[seat],
    paint: (cells, cover) => {
      F.edited = true;
      for (const [r, c] of cells) {
        if (cover) F.quilts[seat].add(key(r, c));
        else F.quilts[seat].delete(key(r, c));
      }
      drawQuilt(seat);
    },
  });
  const facts = html("p", { id: `setup-cells-${seat}`, class: "legend" }, box);
  facts.setAttribute("aria-live", "polite");
  const row = html("div", { class: "controls" }, box);
  html("button", { type: "button" }, row, t("Clear {player}'s quilt", { player: name })).addEventListener("click", () => {
    F.edited = true;
    F.quilts[seat].clear();
    drawQuilt(seat);
  });
  const numbers = html("div", { class: "setup-numbers" }, box);
  const numberFields = /** @type {[string, string, string, number][]} */ ([
    // Translators: a player's number fields in the set-up: "Player 1's space", "Player 1's buttons", ...
    ["space", t("Space"), t("{player}'s space", { player: name }), 53],
    ["buttons", t("Buttons"), t("{player}'s buttons", { player: name }), 999],
    ["income", t("Income"), t("{player}'s income", { player: name }), 99]]);
  for (const [what, label, aria, max] of numberFields) {
    const wrap = html("label", {}, numbers, `${label} `);
    html("input", { id: `setup-${what}-${seat}`, type: "number", min: 0, max, step: 1, inputmode: "numeric",
      "aria-label": aria }, wrap);
  }
}

/** @param {number} seat */
function drawQuilt(seat) {
  /** @type {Cell[]} */
  const cells = [...F.quilts[seat]].sort((a, b) => a - b).map((k) => [Math.floor(k / 9), k % 9]);
  F.views[seat].show({ given: cells });
  $(`setup-cells-${seat}`).textContent = tn("{count} of 81 cells covered", "{count} of 81 cells covered", cells.length);
}

function buildRest(/** @type {HTMLElement} */ form) {
  const leather = fieldset(form, t("Leather patches still on the track"), "setup-leather");
  select(leather, t("The board's printing"), { revised: t("revised"), classic: t("classic") }, "setup-printing")
    .addEventListener("change", () => drawLeather(leatherLeft()));
  html("div", { id: "setup-leather-spaces", class: "checks" }, leather);
  const bonus = fieldset(form, t("Who holds the 7x7 bonus tile"), "setup-bonus");
  const checks = html("div", { class: "checks" }, bonus);
  for (const [value, words] of [["", t("nobody yet")], ["0", playerName(0)], ["1", playerName(1)]]) {
    const wrap = html("label", {}, checks);
    html("input", { type: "radio", name: "setup-bonus", value, checked: value === "" }, wrap);
    wrap.append(` ${words}`);
  }
  const more = fieldset(form, t("Needed only sometimes"), "setup-more");
  for (const seat of [0, 1]) $(`setup-space-${seat}`).addEventListener("input", drawRare);
  const seats = { "": t("nobody"), 0: playerName(0), 1: playerName(1) };
  select(more, t("When both tokens share a space, on top (moves next):"), { "": t("say which"), 0: playerName(0), 1: playerName(1) }, "setup-on-top");
  select(more, t("A leather patch waiting to be placed by:"), seats, "setup-pending");
  select(more, t("First to reach space 53:"), seats, "setup-first");
}

/** @param {number[]} left the spaces still holding a leather patch */
function drawLeather(left) {
  const printing = /** @type {HTMLSelectElement} */ ($("setup-printing")).value;
  const box = $("setup-leather-spaces");
  box.replaceChildren();
  for (const space of S.catalogue.leather_printings[printing]) {
    const wrap = html("label", {}, box);
    html("input", { type: "checkbox", value: space, checked: left.includes(space), "data-space": space }, wrap);
    wrap.append(` ${t("space {space}", { space })}`);
  }
}

const leatherLeft = () => [...$("setup-leather-spaces").querySelectorAll("input:checked")]
  .map((x) => Number(/** @type {HTMLInputElement} */ (x).value));

/** @param {any} p a BoardPosition */
export function fillSetup(p) {
  F.circle = p.circle.slice();
  [0, 1].forEach((seat) => {
    F.quilts[seat] = new Set(p.quilts[seat].map(([/** @type {number} */ r, /** @type {number} */ c]) => key(r, c)));
    const player = p.players[seat];
    field(`setup-space-${seat}`).value = String(player.position);
    field(`setup-buttons-${seat}`).value = String(player.buttons);
    field(`setup-income-${seat}`).value = String(player.income);
    drawQuilt(seat);
  });
  const printing = Object.entries(S.catalogue.leather_printings).find(([, spaces]) => String(spaces) === String(p.printing));
  /** @type {HTMLSelectElement} */ ($("setup-printing")).value = printing ? printing[0] : "revised";
  drawLeather(p.leather_left);
  const holder = p.players.findIndex((/** @type {any} */ x) => x.bonus);
  for (const radio of document.querySelectorAll("input[name='setup-bonus']")) {
    /** @type {HTMLInputElement} */ (radio).checked = /** @type {HTMLInputElement} */ (radio).value === (holder < 0 ? "" : String(holder));
  }
  const same = p.players[0].position === p.players[1].position;
  /** @type {HTMLSelectElement} */ ($("setup-on-top")).value = same ? String(p.on_top) : "";
  /** @type {HTMLSelectElement} */ ($("setup-pending")).value = p.pending_leather === null ? "" : String(p.pending_leather);
  /** @type {HTMLSelectElement} */ ($("setup-first")).value = p.first_at_end === null ? "" : String(p.first_at_end);
  drawCircle();
  drawRare();
  F.edited = false;
}

/** @param {any} p the BoardPosition the board shows now */
export function followBoard(p) {
  if (!F.edited) fillSetup(p);
}

/** Whether both tokens are on one space, and whether that space is the end. */
function shared() {
  const spaces = [0, 1].map((seat) => field(`setup-space-${seat}`).value.trim());
  const same = spaces[0] !== "" && spaces[0] === spaces[1];
  return { same, end: same && Number(spaces[0]) === S.catalogue.end };
}

/** The rare facts' fields, shown when the tokens make them matter. */
function drawRare() {
  const { same, end } = shared();
  /** @type {HTMLElement} */ ($("setup-on-top").parentElement).hidden = !same;
  /** @type {HTMLElement} */ ($("setup-first").parentElement).hidden = !end;
}

/** @returns {any} the PhysicalSetup the form holds (Error naming a number that is no whole number) */
function body() {
  const seatOf = (/** @type {string} */ id) => {
    const v = /** @type {HTMLSelectElement} */ ($(id)).value;
    return v === "" ? null : Number(v);
  };
  const players = [0, 1].map((seat) => {
    /** @type {Record<string, any>} */
    const player = { quilt: [...F.quilts[seat]].sort((a, b) => a - b).map((k) => [Math.floor(k / 9), k % 9]) };
    for (const [what, name] of [["space", "position"], ["buttons", "buttons"], ["income", "income"]]) {
      const text = field(`setup-${what}-${seat}`).value.trim(), n = Number(text);
      if (text === "" || !Number.isInteger(n)) {
        const named = { player: playerName(seat) };
        const fieldName = what === "space" ? t("{player}'s space", named) : what === "buttons" ? t("{player}'s buttons", named) : t("{player}'s income", named);
        throw new Error(t('{field}: "{text}" is not a whole number', { field: fieldName, text }));
      }
      player[name] = n;
    }
    return player;
  });
  const bonus = /** @type {HTMLInputElement|null} */ (document.querySelector("input[name='setup-bonus']:checked"));
  /** @type {Record<string, any>} */
  const out = { circle: F.circle, players, leather_left: leatherLeft(), printing: /** @type {HTMLSelectElement} */ ($("setup-printing")).value,
    bonus: bonus && bonus.value !== "" ? Number(bonus.value) : null };
  // whose token is on top, and who reached the end first, matter only when the tokens share a space
  const { same, end } = shared();
  for (const [id, name, needed] of /** @type {[string, string, boolean][]} */ ([["setup-on-top", "on_top", same],
    ["setup-pending", "pending_leather", true], ["setup-first", "first_at_end", end]])) {
    const seat = seatOf(id);
    if (seat !== null && needed) out[name] = seat;
  }
  return out;
}

/** @param {HTMLElement} form @param {{open: (body: any) => Promise<void>}} o */
export function mountSetup(form, o) {
  buildCircle(form);
  const players = html("div", { class: "setup-players" }, form);
  buildPlayer(players, 0);
  buildPlayer(players, 1);
  buildRest(form);
  const controls = html("div", { class: "controls" }, form);
  html("button", { type: "submit", id: "setup-submit" }, controls, t("Set up this position"));
  html("button", { type: "button", id: "setup-from-board" }, controls, t("Start again from the board's position"))
    .addEventListener("click", () => { if (S.node && S.node.position) fillSetup(S.node.position); });
  html("p", { id: "setup-error", role: "alert", "data-testid": "setup-error" }, form);
  form.addEventListener("submit", async (evt) => {
    evt.preventDefault();
    $("setup-error").textContent = "";
    try {
      await o.open(body());
    } catch (err) {
      $("setup-error").textContent = String(/** @type {Error} */ (err).message || err);
    }
  });
  // a field typed in or changed (numbers, the printing, the leather, the bonus, the rare facts)
  form.addEventListener("input", () => { F.edited = true; });
  form.addEventListener("change", () => { F.edited = true; });
  drawLeather([]);
  drawCircle();
  drawRare();
}
