// i18n.js: the page's words in its language. The server sends each page in the language the visitor
// chose (?lang=, the `lang` cookie the picker sets, else the browser's Accept-Language) with
// <html lang> set; this module reads the same catalogue (the `pages` gettext domain) as JSON, once,
// before any module that imports it runs (a top-level await).
//
//   LANG                   the page's language ("en", "de", "fr", "ru", or the pseudo-locale "en-XA")
//   LANGUAGES              [{code, name}] the languages a page offers, each named in itself
//   t(message, params?)    the message (its English words are its key) in LANG, its {placeholders}
//                          filled from params; numbers in params are written as LANG writes them
//   tn(one, other, count, params?)  a message with a count: the form CLDR's plural rule picks
//                          (Intl.PluralRules: Russian one/few/many, French's singular for 0 and 1),
//                          {count} filled in
//   num(value, digits?)    a number as LANG writes it (Intl.NumberFormat: 0,5 in de, fr and ru)
//   withLang(url)          an API address asking for answers in LANG (server words: moves,
//                          reasons, verdicts), as the page's requests and streams send it
//   chooseLanguage(code)   remembers the choice (the `lang` cookie, a year) and shows the page in it
//
// Scripts' messages are found by `pybabel extract` (patchwork_opt/locale/pages.cfg: t and tn) with
// the `// Translators:` comment on the line before; a message must be a whole sentence, never
// pieces glued in English order.

/** @type {string} */
export const LANG = document.documentElement.lang || "en";

const NUMBER_LOCALE = LANG === "en-XA" ? "en" : LANG;

/** @type {{lang: string, languages: {code: string, name: string}[], messages: Record<string, string | Record<string, string>>}} */
const words = await fetch(`/i18n/${encodeURIComponent(LANG)}.json`)
  .then((res) => (res.ok ? res.json() : null))
  .catch(() => null) || { lang: LANG, languages: [{ code: "en", name: "English" }], messages: {} };

/** @type {{code: string, name: string}[]} */
export const LANGUAGES = words.languages;

const plurals = new Intl.PluralRules(NUMBER_LOCALE);

/** @param {number} value @param {number} [digits] @returns {string} */
export function num(value, digits) {
  const options = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(NUMBER_LOCALE, options).format(value);
}

/** @param {string} text @param {Record<string, unknown>} [params] @returns {string} */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? num(value) : String(value);
  });
}

/** @param {string} message @param {Record<string, unknown>} [params] @returns {string} */
export function t(message, params) {
  const said = words.messages[message];
  return fill(typeof said === "string" ? said : message, params);
}

/**
 * @param {string} one the English singular (the key) @param {string} other the English plural
 * @param {number} count @param {Record<string, unknown>} [params] @returns {string}
 */
export function tn(one, other, count, params) {
  const said = words.messages[one];
  let text;
  if (said && typeof said === "object") {
    const category = plurals.select(count);
    text = said[category] ?? said.other ?? said.many ?? other;
  } else {
    text = count === 1 ? one : other;
  }
  return fill(text, { count, ...params });
}

/** @param {string} url @returns {string} */
export function withLang(url) {
  if (LANG === "en") return url;
  return `${url}${url.includes("?") ? "&" : "?"}lang=${encodeURIComponent(LANG)}`;
}

/** @param {string} code */
export function chooseLanguage(code) {
  document.cookie = `lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  const address = new URL(location.href);
  address.searchParams.delete("lang");
  location.assign(address.toString());
}
