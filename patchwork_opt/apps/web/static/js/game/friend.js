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
import { capital, moveWords } from "../components/words.js";
import { follow, unfollow } from "./live.js";
import { rematch, request, setGame, startGame } from "./play.js";
import { S, render } from "./state.js";
import { holdSeat, peopleOf, seatName } from "./seats.js";

/** @param {string} id @returns {HTMLButtonElement} */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** @param {string} id @returns {HTMLSelectElement} */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id));

/** "2 minutes ago", "just now": how long ago a time was. @param {number} ms since 1970 */
function ago(ms) {
  const seconds = Math.max((Date.now() - ms) / 1000, 0);
  if (seconds < 45) return "just now";
  /** @type {[number, string][]} */
  const units = [[86400, "day"], [3600, "hour"], [60, "minute"]];
  for (const [size, unit] of units) {
    const n = Math.round(seconds / size);
    if (seconds >= size * 0.75 || unit === "minute") return n === 1 ? `a${unit === "hour" ? "n" : ""} ${unit} ago` : `${n} ${unit}s ago`;
  }
  return "just now";
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
  if (g.state.over) return "Game over";
  const seat = g.state.to_move;
  return seatName(g, seat) === "you" ? "Your turn" : `${capital(seatName(g, seat))}'s turn`;
}

/** Who won, the winner's score first, or who resigned. @param {any} g */
export function peopleResult(g) {
  const people = peopleOf(g);
  const winner = g.state.winner;
  const name = (/** @type {number} */ seat) => seatName(g, seat);
  const won = name(winner) === "you" ? "You won" : `${capital(name(winner))} won`;
  if (people && people.resigned !== null) {
    return `${capital(name(people.resigned))} resigned: ${name(winner) === "you" ? "you win" : `${name(winner)} wins`}`;
  }
  const a = g.state.players[winner].score, b = g.state.players[1 - winner].score;
  const tie = a === b ? ` (a tie on points: ${name(winner)} reached the end first)` : "";
  return `${won}, ${a} to ${b}${tie}`;
}

/** The status line: the player to move, what they may do, the last move. @param {any} g @param {any} people
 * @param {string} usual what the page says to the player to move (status.js) */
function statusWords(g, people, usual) {
  if (g.state.over) return `${peopleResult(g)}.`;
  const last = g.moves[g.moves.length - 1];
  const lastSaid = last ? `${capital(seatName(g, last.player))}: ${moveWords(last.move, last.words)}. ` : "";
  if (g.human_to_move) return people.mine === "both" ? `${lastSaid}${capital(seatName(g, g.seat))}, your move. ${usual}` : usual;
  const mover = seatName(g, g.state.to_move);
  return `${lastSaid}${people.mine === null ? `${capital(mover)} to move.` : `Waiting for ${mover}'s move.`}`;
}

/** Who sits where, in words. @param {any} g @param {any} people */
function seatWords(g, people) {
  if (people.mine === "both") {
    return "Two players at this device: Player 1 moved first. Pass it to the player whose turn it is; "
      + "the page shows that player's quilt.";
  }
  if (people.mine === null) return "You are watching this game, live: Player 1 against Player 2. Only the players can move.";
  return `You play ${people.mine === 0 ? "first" : "second"} (Player ${people.mine + 1}); your friend plays `
    + `${people.mine === 0 ? "second" : "first"}.${people.hints ? " Hints are allowed." : ""}`;
}

/** @param {any} g @param {any} people */
function drawInvite(g, people) {
  const show = people.kind === "friend" && (people.mine === 0 || people.mine === 1) && !people.taken[1 - people.mine];
  $("invite").hidden = !show;
  if (!show) return;
  const held = JSON.parse(localStorage.getItem(`patchwork-seat:${g.id}`) || "{}");
  /** @type {HTMLInputElement} */ ($("invite-link")).value = new URL(held.invite || `/#${g.id}`, location.origin).href;
}

/** When each side last moved, the other player's first: "Your friend last moved 2 hours ago; you last
 * moved just now." @param {any} g @param {any} people */
function lastMovedWords(g, people) {
  const seats = people.mine === 0 ? [1, 0] : [0, 1];
  const said = seats.filter((seat) => people.lastMoved[seat]).map((seat) => `${seatName(g, seat)} last moved `
    + `${ago(people.lastMoved[seat])}`);
  return said.length ? `${capital(said.join("; "))}.` : "";
}

/** A take-back asked: the other player answers. @param {any} g @param {any} people */
function drawOffer(g, people) {
  const asked = people.takeback;
  $("offer").hidden = !asked || g.state.over;
  if (!asked || g.state.over) return;
  const asker = seatName(g, asked.seat);
  const mine = people.mine === asked.seat;
  const answers = people.mine === "both" || (people.mine !== null && !mine);
  $("offer-text").textContent = mine ? "You asked to take back your last move: waiting for your friend's answer."
    : people.mine === "both" ? `${capital(asker)} asks to take back their last move: ${seatName(g, 1 - asked.seat)}, do you agree?`
      : `${capital(asker)} asks to take back their last move.`;
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
  const nearName = seatName(g, near);
  $("human-title").textContent = nearName === "you" ? `Your quilt (you move ${near === 0 ? "first" : "second"})`
    : `${capital(nearName)}'s quilt`;
  $("ai-title").textContent = `${capital(seatName(g, far))}'s quilt`;
  $("strip-quilt-ai").setAttribute("aria-label", `${seatName(g, far)}'s quilt, the latest patches outlined`);
  $("legend-near").textContent = nearName;
  $("legend-far").textContent = seatName(g, far);
  $("status").textContent = statusWords(g, people, $("status").textContent || "");
  $("seat-words").textContent = seatWords(g, people);
  $("last-moved").textContent = lastMovedWords(g, people);
  if (g.state.over) $("result-title").textContent = peopleResult(g);
  for (const row of document.querySelectorAll("#scores tbody tr")) {
    const head = row.querySelector("th");
    if (head) head.textContent = capital(seatName(g, Number(/** @type {HTMLElement} */ (row).dataset.seat)));
  }
  drawInvite(g, people);
  drawOffer(g, people);
  $("people").classList.toggle("urgent", !$("invite").hidden || !$("offer").hidden);  // friend.css: on a phone
  if (S.review) drawCurveKey(g);
  drawControls(g, people, watching);
}

/** The review's chart is the first player's chance to win, said by name. @param {any} g */
function drawCurveKey(g) {
  const first = seatName(g, 0);
  const whose = first === "you" ? "your" : `${first}'s`;
  $("curve-key").textContent = `The curve is ${whose} chance to win before each move (above the middle line: `
    + `${first} ahead).`;
  $("review-chart").querySelector("svg")?.setAttribute("aria-label", `${whose} chance to win before each move`);
}

/** A game against the AI after one between people: its words and controls as main.js draws them. */
function drawAgainstTheAi() {
  $("legend-near").textContent = "you";
  $("legend-far").textContent = "the AI";
  $("actions").hidden = $("tray").hidden = button("undo").hidden = button("hint").hidden = false;
  button("rematch").hidden = button("practise").hidden = false;
  button("rematch").textContent = "Rematch";
  button("practise").textContent = "Practise your mistakes";
  button("practise-second").hidden = true;
}

/** @param {any} g @param {any} people @param {boolean} watching */
function drawControls(g, people, watching) {
  $("actions").hidden = $("tray").hidden = $("people-actions").hidden = watching;
  button("undo").hidden = true;
  button("hint").hidden = !people.hints;
  const playing = !g.state.over && !S.busy && !watching;
  const mine = people.mine === "both" ? g.moves.length > 0
    : g.moves.some((/** @type {any} */ m) => m.player === people.mine);
  button("ask-takeback").disabled = !playing || !mine || !!people.takeback;
  button("resign").disabled = !playing;
  button("resign").hidden = $("resign-sure").hidden === false;
  const heldInRematch = people.rematch && localStorage.getItem(`patchwork-seat:${people.rematch}`);
  button("join-rematch").hidden = !people.rematch || !!heldInRematch || watching;
  button("rematch").hidden = watching;
  button("rematch").textContent = heldInRematch ? "Go to the rematch" : "Rematch (seats swapped)";
  button("practise").textContent = people.mine === "both" ? "Practise Player 1's mistakes" : "Practise your mistakes";
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
  $("copy-said").textContent = "Copied: send it to your friend.";
}
