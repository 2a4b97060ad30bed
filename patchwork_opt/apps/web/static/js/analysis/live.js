// analysis/live.js: the engine thinking about the position on the board, live, through the
// analysis stream (GET /api/analysis/stream, server-sent events).
//
// The stream is read with fetch rather than EventSource: a refusal (429: this visitor already runs
// as many analyses as one may; 503: the server's are all taken; 422, 409) comes back with its
// status, its one-line detail and its Retry-After, which EventSource hides; and the stream ends
// when the last snapshot (`done`) comes, with no reconnecting. Stop aborts the request: the server
// stops the analysis when its client goes away.
//
//   new Engine(changed)       changed(): the page redraws
//   .on                       Go was pressed and Stop not since: the analysis follows the board
//   .phase                    "idle", "waiting" (asked), "thinking", "solved", "time" (the server's
//                             limit), "stopped", "refused" (429/503, with .retry seconds), "failed", "over"
//   .snapshot, .notation      the last snapshot ({seconds, nodes, player, search, done, end, lines}),
//                             and the position it is about
//   .message                  the line a refusal or a failure gets
//   .go(notation, lines), .stop()
//   .follow(notation, over, lines)   the board shows another position: its last figures (a solved
//                             one is kept), and a new analysis when .on (after a short pause, so
//                             that stepping through moves starts one analysis, not one per step)

import { t, withLang } from "../components/i18n.js";

//: ms the board must rest on a position before its analysis starts
const SETTLE_MS = 250;

/** @typedef {{seconds: number, nodes: number, player: number, search: string, done: boolean,
 *   end: string|null, lines: any[]}} Snapshot */

export class Engine {
  /** @param {() => void} changed */
  constructor(changed) {
    this.changed = changed;
    this.on = false;
    this.phase = "idle";
    /** @type {Snapshot|null} */ this.snapshot = null;
    /** @type {string|null} */ this.notation = null;
    this.message = "";
    this.retry = 0;
    /** @type {AbortController|null} */ this.controller = null;
    /** @type {Map<string, {snapshot: Snapshot, phase: string}>} the last figures of each position */
    this.seen = new Map();
    this.timer = 0;
    this.stoppedAt = 0;
    this.lines = 3;
  }

  get running() {
    return this.phase === "waiting" || this.phase === "thinking";
  }

  /** @param {string} notation @param {boolean} over @param {number} lines */
  follow(notation, over, lines) {
    if (notation === this.notation && (this.running || this.timer)) return;
    this.abort();
    this.notation = notation;
    const seen = this.seen.get(notation);
    this.snapshot = seen ? seen.snapshot : null;
    this.phase = over ? "over" : seen ? seen.phase : "idle";
    this.message = "";
    if (this.on && !over && !(seen && seen.phase === "solved")) {
      this.timer = window.setTimeout(() => { this.timer = 0; this.go(notation, lines); }, SETTLE_MS);
    }
    this.changed();
  }

  /** @param {string} notation @param {number} lines */
  go(notation, lines) {
    this.abort();
    this.on = true;
    this.lines = lines;
    this.notation = notation;
    this.phase = "waiting";
    this.message = "";
    this.changed();
    this.run(notation, lines, false);
  }

  stop() {
    this.on = false;
    const was = this.running;
    this.abort();
    if (was) {
      this.phase = "stopped";
      this.keep();
    }
    this.changed();
  }

  /** The request on its way, cancelled (the server stops its analysis). */
  abort() {
    if (this.timer) window.clearTimeout(this.timer);
    this.timer = 0;
    if (this.controller) {
      this.controller.abort();
      this.stoppedAt = Date.now();
    }
    this.controller = null;
  }

  /** The last figures of the position, kept to show when the board comes back to it. */
  keep() {
    const phase = this.phase === "solved" || this.phase === "time" ? this.phase : "stopped";
    if (this.snapshot && this.notation) this.seen.set(this.notation, { snapshot: this.snapshot, phase });
  }

  /** @param {string} notation @param {number} lines @param {boolean} again a quiet second try */
  async run(notation, lines, again) {
    const controller = new AbortController();
    this.controller = controller;
    const live = () => this.controller === controller;
    const query = new URLSearchParams({ position: notation, lines: String(lines) });
    try {
      const res = await fetch(withLang(`/api/analysis/stream?${query}`), { signal: controller.signal, headers: { Accept: "text/event-stream" } });
      if (!live()) return;
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        if (!live()) return;
        this.refused(res.status, body.words || body.detail || res.statusText, Number(res.headers.get("Retry-After") || 0), notation, lines, again);
        return;
      }
      if (!res.body) throw new Error(t("the browser cannot read the stream"));
      await this.read(res.body, live);
    } catch (err) {
      if (!live()) return;
      this.fail(`the analysis stopped: ${/** @type {Error} */ (err).message || err}`);
    }
  }

  /** @param {ReadableStream<Uint8Array>} body @param {() => boolean} live */
  async read(body, live) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (!live()) return;
      if (done) break;
      buffer += value;
      for (let cut = buffer.search(/\r?\n\r?\n/); cut >= 0; cut = buffer.search(/\r?\n\r?\n/)) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        if (this.event(block)) {
          this.controller = null;
          return;
        }
      }
    }
    if (this.running) this.fail(t("the analysis stopped: the stream ended early"));
  }

  /** One event of the stream; true when it was the last. @param {string} block */
  event(block) {
    let kind = "message";
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) kind = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (!data.length) return false;  // a comment (a keep-alive)
    const payload = JSON.parse(data.join("\n"));
    if (kind === "error") {
      this.fail(t("the analysis stopped: {detail}", { detail: payload.detail }));
      return true;
    }
    this.snapshot = payload;
    this.phase = payload.done ? (payload.end === "solved" ? "solved" : payload.end === "time" ? "time" : "stopped") : "thinking";
    if (payload.done) this.keep();
    this.changed();
    return payload.done;
  }

  /**
   * @param {number} status @param {string} detail @param {number} retry @param {string} notation
   * @param {number} lines @param {boolean} again
   */
  refused(status, detail, retry, notation, lines, again) {
    this.controller = null;
    // the analysis just stopped here may not have let go of its place yet: one quiet second try
    if (status === 429 && !again && Date.now() - this.stoppedAt < 2000) {
      this.timer = window.setTimeout(() => { this.timer = 0; this.run(notation, lines, true); }, 600);
      return;
    }
    const busy = status === 429 || status === 503;
    this.phase = busy ? "refused" : "failed";
    this.retry = retry;
    // the server's words name the cap; the page says what to do about it
    // Translators: {detail} is the server's reason; Go is the name of the button that starts the engine.
    if (status === 429) this.message = retry ? t("The engine is not thinking: {detail}. Stop an analysis in another tab, or wait {seconds} s and press Go.", { detail, seconds: retry })
      : t("The engine is not thinking: {detail}. Stop an analysis in another tab.", { detail });
    else if (status === 503) this.message = retry ? t("The server is busy: {detail}. Press Go again in {seconds} s.", { detail, seconds: retry })
      : t("The server is busy: {detail}. Press Go again later.", { detail });
    else this.message = t("The engine cannot analyse this position: {detail}", { detail });
    this.on = false;
    this.changed();
  }

  /** @param {string} message */
  fail(message) {
    this.controller = null;
    this.on = false;
    this.phase = "failed";
    this.message = message;
    this.keep();
    this.changed();
  }
}
