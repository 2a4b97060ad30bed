// dom.js: the few DOM helpers every component and page uses. No build step, no libraries.
//
//   $(id)                          the element with that id
//   svg(tag, attrs, parent)        an SVG element with these attributes (appended to parent when given)
//   html(tag, attrs, parent, text) an HTML element likewise ("class" and "data-*" are attributes too)
//   sleep(ms)                      a promise settled after ms milliseconds
//   REDUCED_MOTION                 the reader asked for less motion: no walks, no smooth scrolls
//   showError(err)                 the page's one error line (#error): err's message; null clears it
//   editing(evt)                   a key event typed into a form field (pages leave those keys alone)

export const SVG_NS = "http://www.w3.org/2000/svg";
export const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** @param {string} id @returns {HTMLElement} */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {number} ms @returns {Promise<void>} */
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * @param {string} tag
 * @param {Record<string, string|number>} [attrs]
 * @param {Element|null} [parent]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, parent = null) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * @param {string} tag
 * @param {Record<string, string|number|boolean>} [attrs]
 * @param {Element|null} [parent]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
export function html(tag, attrs = {}, parent = null, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  if (text) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** @param {unknown} err an Error, a message, or null to clear the line */
export function showError(err) {
  const line = document.getElementById("error");
  if (!line) return;
  line.textContent = err ? String(/** @type {Error} */ (err).message || err) : "";
}

/** @param {KeyboardEvent} evt */
export function editing(evt) {
  const t = evt.target;
  return t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement
    || evt.altKey || evt.ctrlKey || evt.metaKey;
}
