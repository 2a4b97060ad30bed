// game/friend.js: games between people on the game page: "a friend, by a link" and "two players
// here" in the New game form, the invite link with its Copy button, joining a game by its link (the
// free seat, else watching), the game followed live (live.js), when each side last moved, take-backs
// by agreement (asked, then accepted or declined by the other), resigning, and the rematch with the
// seats swapped. The secret of the seat held is kept by seats.js and never shown.
//
// The rest of the page draws the game as seats.js's localView puts it (the near side is the seat held);
// drawPeople then says it in the words of the people playing (whose turn, whose quilt, the result).
//
//   wireFriend()    the form's Opponent choice and this module's buttons
//   startAny(evt)   the New game form's submit: a game against the AI (play.js) or between people
//   linkedGame()    the game the address names: /#id, or an invite link's /play/id
//   afterOpen()     a game opened by its link: take its free seat (join) or watch; follow it live
//   drawPeople()    after each redraw of a game between people: its words and controls
//   rematchAny()    Rematch: the same AI again, or between people the rematch with seats swapped

import { api } from "../components/api.js";
import { $, showError } from "../components/dom.js";
import { t, tn } from "../components/i18n.js";
import { moveWords } from "../components/words.js";
import { follow, unfollow } from "./live.js";
import { rematch, request, setGame, startGame } from "./play.js";
import { S, render } from "./state.js";
import { drawCurveKey } from "./review.js";
import { holdSeat, peopleOf, sayOf } from "./seats.js";

/** @param {string} id @returns {HTMLButtonElement} */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** @param {string} id @returns {HTMLSelectElement} */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id));

/** "2 minutes ago", "just now": how long ago a time was. @param {number} ms since 1970 */
function ago(ms) {
  const seconds = Math.max((Date.now() - ms) / 1000, 0);
  // Translators: how long ago a player last moved, said after "last moved" ("Your friend last moved {when}").
  if (seconds < 45) return t("just now");
  if (seconds >= 86400 * 0.75) return tn("{count} day ago", "{count} days ago", Math.round(seconds / 86400));
  if (seconds >= 3600 * 0.75) return tn("{count} hour ago", "{count} hours ago", Math.round(seconds / 3600));
  return tn("{count} minute ago", "{count} minutes ago", Math.round(seconds / 60));
}

/** The form's fields for the opponent chosen: the AI's, or a friend's (seat at random, hints). */
function showOpponentFields() {
  const kind = select("opponent").value;
  for (const el of document.querySelectorAll("#new-game .ai-only")) /** @type {HTMLElement} */ (el).hidden = kind !== "ai";
  for (const el of document.querySelectorAll("#new-game .people-only")) /** @type {HTMLElement} */ (el).hidden = kind === "ai";
  $("seat-field").hidden = kind === "here";
  const random = /** @type {HTMLOptionElement} */ (select("seat").querySelector("option[value=random]"));
  random.hidden = random.disabled = kind !== "friend";
  if (random.disabled && random.selected) select("seat").value = "0";
}

/** @param {Event} evt the New game form's submit */
export async function startAny(evt) {
  const kind = select("opponent").value;
  if (kind === "ai") return startGame(evt);
  evt.preventDefault();
  const seed = /** @type {HTMLInputElement} */ ($("seed")).value.trim();
  /** @type {Record<string, any>} */
  const body = { opponent: kind, printing: select("printing").value,
    hints: /** @type {HTMLInputElement} */ ($("hints")).checked };
  if (kind === "friend") body.seat = select("seat").value === "random" ? "random" : Number(select("seat").value);
  if (seed !== "") body.seed = Number(seed);
  /** @type {HTMLDetailsElement} */ ($("setup")).open = false;
  await request(async () => seated(await api("POST", "/api/games", body), kind === "here"));
}

/** A new game's answer (its view with `seat`, `secret` and `invite`): the seat kept, the view without
 * the secret. @param {any} made @param {boolean} both one device, both seats */
function seated(made, both) {
  const { secret, invite, ...view } = made;
  holdSeat(view.id, both ? "both" : view.seat, secret, invite || "");
  return view;
}

/** The game the address names: /#id (a game's link), or /play/id (an invite link, which the page
 * shows as /#id once opened). */
export function linkedGame() {
  const invited = /^\/play\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  if (invited) history.replaceState(null, "", `/#${invited[1]}`);
  return location.hash.slice(1);
}

/** A game opened by its link: a friend's game with a free seat is joined; with both seats taken (or
 * taken meanwhile: 409) this browser watches. */
export async function afterOpen() {
  const g = S.game;
  const people = g && peopleOf(g);
  if (people && people.mine === null && people.kind === "friend" && people.taken.includes(false)) {
    try {
      const joined = await api("POST", `/api/games/${encodeURIComponent(g.id)}/join`);
      holdSeat(g.id, joined.seat, joined.secret);
      setGame(await api("GET", `/api/games/${encodeURIComponent(g.id)}`));
    } catch (err) {
      if (/** @type {any} */ (err).status !== 409) showError(err);
    }
  }
}

/** What a stream's view changes for the page: a new view is drawn only when one of these differs
 * (a view that changes nothing leaves a patch in hand where it is). @param {any} v */
const signature = (v) => JSON.stringify([v.ply, v.people, v.moves.length && v.moves[v.moves.length - 1].move]);

/** A view from the stream of the game on screen. @param {any} view */
function onView(view) {
  if (!S.game || view.id !== S.game.id || signature(view) === signature(S.game)) return;
  setGame(view);
}

/** @param {any} g the game on screen */
function turnWords(g) {
  if (g.state.over) return t("Game over");
  return sayOf(g, g.state.to_move, {
    you: () => t("Your turn"),
    friend: () => t("Your friend's turn"),
    player: (number) => t("Player {number}'s turn", { number }),
  });
}

/** Who won, the winner's score first, or who resigned. @param {any} g */
export function peopleResult(g) {
  const people = peopleOf(g);
  const winner = g.state.winner;
  if (people && people.resigned !== null) {
    const resigned = people.resigned;
    return sayOf(g, resigned, {
      you: () => t("You resigned: your friend wins"),
      friend: () => t("Your friend resigned: you win"),
      player: (number) => t("Player {number} resigned: Player {winner} wins", { number, winner: 2 - resigned }),
    });
  }
  const scores = { high: g.state.players[winner].score, low: g.state.players[1 - winner].score };
  if (scores.high === scores.low) {
    return sayOf(g, winner, {
      you: () => t("You won, {high} to {low} (a tie on points: you reached the end first)", scores),
      friend: () => t("Your friend won, {high} to {low} (a tie on points: your friend reached the end first)", scores),
      player: (number) => t("Player {number} won, {high} to {low} (a tie on points: Player {number} reached the end first)",
        { ...scores, number }),
    });
  }
  // Translators: the final scores, the winner's first ("Your friend won, 29 to -34").
  return sayOf(g, winner, {
    you: () => t("You won, {high} to {low}", scores),
    friend: () => t("Your friend won, {high} to {low}", scores),
    player: (number) => t("Player {number} won, {high} to {low}", { ...scores, number }),
  });
}

/** The last move in the status line: who made it and the move in the server's words. @param {any} g */
function lastWords(g) {
  const last = g.moves[g.moves.length - 1];
  if (!last) return "";
  const move = moveWords(last.move, last.words);
  // Translators: the last move in the status line; {move} is the move in words ("advance 3 spaces").
  return `${sayOf(g, last.player, {
    you: () => t("You: {move}.", { move }),
    friend: () => t("Your friend: {move}.", { move }),
    player: (number) => t("Player {number}: {move}.", { number, move }),
  })} `;
}

/** The status line: the player to move, what they may do, the last move. @param {any} g @param {any} people
 * @param {string} usual what the page says to the player to move (status.js) */
function statusWords(g, people, usual) {
  if (g.state.over) return t("{result}.", { result: peopleResult(g) });
  const lastSaid = lastWords(g);
  if (g.human_to_move) {
    // Translators: at one device, the player whose turn it is is told so, then what they may do.
    return people.mine === "both" ? `${lastSaid}${t("Player {number}, your move.", { number: g.seat + 1 })} ${usual}` : usual;
  }
  if (people.mine === null) return `${lastSaid}${t("Player {number} to move.", { number: g.state.to_move + 1 })}`;
  return `${lastSaid}${t("Waiting for your friend's move.")}`;
}

/** Who sits where, in words. @param {any} people */
function seatWords(people) {
  if (people.mine === "both") {
    return t("Two players at this device: Player 1 moved first. Pass it to the player whose turn it is; "
      + "the page shows that player's quilt.");
  }
  if (people.mine === null) return t("You are watching this game, live: Player 1 against Player 2. Only the players can move.");
  const seats = people.mine === 0 ? t("You play first (Player 1); your friend plays second.")
    : t("You play second (Player 2); your friend plays first.");
  return people.hints ? `${seats} ${t("Hints are allowed.")}` : seats;
}

/** @param {any} g @param {any} people */
function drawInvite(g, people) {
  const show = people.kind === "friend" && (people.mine === 0 || people.mine === 1) && !people.taken[1 - people.mine];
  $("invite").hidden = !show;
  if (!show) return;
  const held = JSON.parse(localStorage.getItem(`patchwork-seat:${g.id}`) || "{}");
  /** @type {HTMLInputElement} */ ($("invite-link")).value = new URL(held.invite || `/#${g.id}`, location.origin).href;
}

/** When each side last moved, the other player's first: "Your friend last moved 2 hours ago. You last
 * moved just now." @param {any} g @param {any} people */
function lastMovedWords(g, people) {
  const seats = people.mine === 0 ? [1, 0] : [0, 1];
  return seats.filter((seat) => people.lastMoved[seat]).map((seat) => {
    const when = { when: ago(people.lastMoved[seat]) };
    // Translators: {when} is how long ago: "just now", "2 hours ago".
    return sayOf(g, seat, {
      you: () => t("You last moved {when}.", when),
      friend: () => t("Your friend last moved {when}.", when),
      player: (number) => t("Player {number} last moved {when}.", { ...when, number }),
    });
  }).join(" ");
}

/** A take-back asked: the other player answers. @param {any} g @param {any} people */
function drawOffer(g, people) {
  const asked = people.takeback;
  $("offer").hidden = !asked || g.state.over;
  if (!asked || g.state.over) return;
  const mine = people.mine === asked.seat;
  const answers = people.mine === "both" || (people.mine !== null && !mine);
  $("offer-text").textContent = mine ? t("You asked to take back your last move: waiting for your friend's answer.")
    : people.mine === "both" ? t("Player {number} asks to take back their last move: Player {other}, do you agree?",
      { number: asked.seat + 1, other: 2 - asked.seat })
      : sayOf(g, asked.seat, {
        friend: () => t("Your friend asks to take back their last move."),
        player: (number) => t("Player {number} asks to take back their last move.", { number }),
      });
  button("accept-takeback").hidden = button("decline-takeback").hidden = !answers;
}

/** After each redraw of a game between people: its words and its controls. */
export function drawPeople() {
  const g = S.game;
  const people = g && peopleOf(g);
  $("people").hidden = !people;
  document.body.dataset.opponent = people ? people.kind : "ai";
  document.body.dataset.seat = people ? String(people.mine ?? "watching") : "";
  if (!people) { unfollow(); drawAgainstTheAi(); return; }
  follow(g.id, onView);  // the game between people on screen, live (again when another comes on screen)
  const near = g.seat, far = 1 - g.seat;
  const watching = people.mine === null;
  document.body.dataset.turn = g.state.over ? "over" : g.human_to_move ? "human" : watching ? "watching" : "other";
  $("turn-text").textContent = turnWords(g);
  $("turn").className = `turn ${g.state.over ? "over" : g.state.to_move === near ? "human" : "ai"}`;
  $("board-human").classList.toggle("to-move", !g.state.over && g.state.to_move === near);
  $("board-ai").classList.toggle("to-move", !g.state.over && g.state.to_move === far);
  $("human-title").textContent = sayOf(g, near, {
    you: () => (near === 0 ? t("Your quilt (you move first)") : t("Your quilt (you move second)")),
    player: (number) => t("Player {number}'s quilt", { number }),
  });
  $("ai-title").textContent = sayOf(g, far, {
    friend: () => t("Your friend's quilt"),
    player: (number) => t("Player {number}'s quilt", { number }),
  });
  $("strip-quilt-ai").setAttribute("aria-label", sayOf(g, far, {
    friend: () => t("your friend's quilt, the latest patches outlined"),
    player: (number) => t("Player {number}'s quilt, the latest patches outlined", { number }),
  }));
  $("legend-near").textContent = legendName(g, near);
  $("legend-far").textContent = legendName(g, far);
  $("status").textContent = statusWords(g, people, $("status").textContent || "");
  $("seat-words").textContent = seatWords(people);
  $("last-moved").textContent = lastMovedWords(g, people);
  if (g.state.over) $("result-title").textContent = peopleResult(g);
  for (const row of document.querySelectorAll("#scores tbody tr")) {
    const head = row.querySelector("th");
    if (head) head.textContent = rowName(g, Number(/** @type {HTMLElement} */ (row).dataset.seat));
  }
  drawInvite(g, people);
  drawOffer(g, people);
  $("people").classList.toggle("urgent", !$("invite").hidden || !$("offer").hidden);  // friend.css: on a phone
  if (S.review) drawCurveKey();
  drawControls(g, people, watching);
}

/** A player in the track's legend, beside their token. @param {any} g @param {number} seat */
function legendName(g, seat) {
  // Translators: a player named in the track's legend, beside their token.
  return sayOf(g, seat, { you: () => t("you"), friend: () => t("your friend"),
    player: (number) => t("Player {number}", { number }) });
}

/** A player as the head of a row of the final scores' table. @param {any} g @param {number} seat */
function rowName(g, seat) {
  // Translators: the head of a row of the final scores' table.
  return sayOf(g, seat, { you: () => t("You"), friend: () => t("Your friend"),
    player: (number) => t("Player {number}", { number }) });
}

/** A game against the AI after one between people: its words and controls as main.js draws them. */
function drawAgainstTheAi() {
  $("legend-near").textContent = t("you");
  $("legend-far").textContent = t("the AI");
  $("actions").hidden = $("tray").hidden = button("undo").hidden = button("hint").hidden = false;
  $("open-in").hidden = false;
  button("rematch").hidden = button("practise").hidden = false;
  button("rematch").textContent = t("Rematch");
  button("practise").textContent = t("Practise your mistakes");
  button("practise-second").hidden = true;
}

/** @param {any} g @param {any} people @param {boolean} watching */
function drawControls(g, people, watching) {
  $("actions").hidden = $("tray").hidden = $("people-actions").hidden = watching;
  button("undo").hidden = true;
  button("hint").hidden = !people.hints;
  // hints off: no engine while the game runs, so no way into the workshop or the analysis board
  // either (the server closes the review likewise until the game is over)
  $("open-in").hidden = !people.hints && !g.state.over;
  const playing = !g.state.over && !S.busy && !watching;
  const mine = people.mine === "both" ? g.moves.length > 0
    : g.moves.some((/** @type {any} */ m) => m.player === people.mine);
  button("ask-takeback").disabled = !playing || !mine || !!people.takeback;
  button("resign").disabled = !playing;
  button("resign").hidden = $("resign-sure").hidden === false;
  const heldInRematch = people.rematch && localStorage.getItem(`patchwork-seat:${people.rematch}`);
  button("join-rematch").hidden = !people.rematch || !!heldInRematch || watching;
  button("rematch").hidden = watching;
  button("rematch").textContent = heldInRematch ? t("Go to the rematch") : t("Rematch (seats swapped)");
  button("practise").textContent = people.mine === "both" ? t("Practise Player 1's mistakes") : t("Practise your mistakes");
  button("practise-second").hidden = people.mine !== "both";
  button("practise-second").disabled = button("practise").disabled;
  button("practise").hidden = watching;
}

/** A seat's request about the game on screen (the secret goes with it: api.js). @param {string} path @param {unknown} [body] */
function ask(path, body) {
  const id = S.game.id;
  return request(() => api("POST", `/api/games/${encodeURIComponent(id)}/${path}`, body));
}

/** The take-back offered, accepted or declined. @param {boolean} accept */
function answerTakeback(accept) {
  const people = S.game && peopleOf(S.game);
  if (people && people.takeback) ask("takeback/answer", { ply: people.takeback.ply, accept });
}

/** Rematch: against the AI the same AI again; between people the rematch with the seats swapped (the
 * first to ask makes it, the other takes the other seat of the same game). */
export async function rematchAny() {
  const people = S.game && peopleOf(S.game);
  if (!people) return rematch();
  const id = S.game.id;
  const held = people.rematch && localStorage.getItem(`patchwork-seat:${people.rematch}`);
  if (held) { location.hash = /** @type {string} */ (people.rematch); return; }
  await request(async () => seated(await api("POST", `/api/games/${encodeURIComponent(id)}/rematch`),
    people.mine === "both"));
}

export function wireFriend() {
  $("opponent").addEventListener("change", showOpponentFields);
  showOpponentFields();
  $("copy-invite").addEventListener("click", copyInvite);
  $("ask-takeback").addEventListener("click", () => ask("takeback", { ply: S.game.ply }));
  $("accept-takeback").addEventListener("click", () => answerTakeback(true));
  $("decline-takeback").addEventListener("click", () => answerTakeback(false));
  $("resign").addEventListener("click", () => { $("resign-sure").hidden = false; render(); button("resign-no").focus(); });
  $("resign-no").addEventListener("click", () => { $("resign-sure").hidden = true; render(); button("resign").focus(); });
  $("resign-yes").addEventListener("click", async () => { $("resign-sure").hidden = true; await ask("resign", {}); });
  $("join-rematch").addEventListener("click", rematchAny);
  // when each side last moved, kept true as time passes
  setInterval(() => {
    const people = S.game && peopleOf(S.game);
    if (people) $("last-moved").textContent = lastMovedWords(S.game, people);
  }, 15_000);
}

async function copyInvite() {
  const field = /** @type {HTMLInputElement} */ ($("invite-link"));
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select();  // no clipboard (an address that is not secure): the link selected, to copy by hand
    document.execCommand("copy");
  }
  $("copy-said").textContent = t("Copied: send it to your friend.");
}
