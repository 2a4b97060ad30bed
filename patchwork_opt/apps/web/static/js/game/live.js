// game/live.js: a game between people followed live: the server's stream of the game
// (GET /api/games/{id}/events, server-sent events: each event's data is the game's public view with
// its ply, its id the ply), its moves in the page's language (withLang). EventSource reconnects by itself after a dropped connection, sending the
// last id it saw (Last-Event-ID), and the server first sends what was missed; a stream the server
// closed for good (a refusal) is opened again a few seconds later. One game is followed at a time.
//
//   follow(id, onView)   follow game id: onView(view) for each view the stream sends
//   unfollow()           stop following (another game on screen)
//   document.body.dataset.live   "open" while the stream is connected, "connecting" otherwise (for tests
//                        and scripts: what the page is waiting for)

import { withLang } from "../components/i18n.js";

const RETRY_MS = 3000;

/** @type {EventSource|null} */
let source = null;
/** @type {string|null} */
let following = null;
/** @type {ReturnType<typeof setTimeout>|null} */
let retry = null;

/** @param {string} state */
const say = (state) => { document.body.dataset.live = state; };

/** @param {string} id @param {(view: any) => void} onView */
export function follow(id, onView) {
  if (following === id && source) return;
  unfollow();
  following = id;
  open(id, onView);
}

/** @param {string} id @param {(view: any) => void} onView */
function open(id, onView) {
  say("connecting");
  const stream = new EventSource(withLang(`/api/games/${encodeURIComponent(id)}/events`));
  source = stream;
  stream.onopen = () => say("open");
  stream.onmessage = (evt) => {
    if (following !== id) return;
    onView(JSON.parse(evt.data));
  };
  stream.onerror = () => {
    if (following !== id) return;
    say("connecting");
    if (stream.readyState !== EventSource.CLOSED) return;  // EventSource is reconnecting by itself
    retry = setTimeout(() => { if (following === id) open(id, onView); }, RETRY_MS);
  };
}

export function unfollow() {
  if (retry) clearTimeout(retry);
  retry = null;
  if (source) source.close();
  source = null;
  following = null;
  delete document.body.dataset.live;
}
