// game/status.js: what is going on, in words: whose turn, the status line, the final scores.

import { $ } from "../components/dom.js";
import { num, t } from "../components/i18n.js";
import { S, aiSeat, humanSeat, sayFor } from "./state.js";
import { lesson, waiting } from "./teaching.js";

export function statusText() {
  const g = S.game;
  // Translators: the status line once the game is over: {result} is who won and the scores ("You won, 29 to -34").
  if (g.state.over) return t("{result}.", { result: resultText() });
  const note = S.aiNote ? `${S.aiNote} ` : "";
  if (waiting()) {
    return lesson()?.verdict.label === "blunder" ? t("Your move was a blunder: take it back, or play on.")
      : t("Your move was a mistake: take it back, or play on.");
  }
  if (g.ai_to_move) return `${note}${g.pending_leather ? t("The AI places its leather patch…") : t("The AI is thinking…")}`;
  if (g.pending_leather) return `${note}${t("Place your leather patch: tap or click an empty cell of your quilt.")}`;
  const sel = S.placer.selected;
  // Translators: “Rotate” and “Flip” are the buttons that turn the patch in hand.
  if (sel) return `${note}${t("Place patch #{patch} on your quilt: point, drag or tap; Rotate and Flip turn it.", { patch: sel.patch })}`;
  return `${note}${againText()}${t("Your move: choose a patch on offer, or advance.")}`;
}

// Why the human moves again right after their own move (the player behind moves; on a tie, the
// one on top, who arrived last), so a second turn in a row is never a surprise.
function againText() {
  const moves = S.game.moves;
  const last = moves[moves.length - 1];
  if (!last || last.actor !== "human") return "";
  const me = S.game.state.players[humanSeat()].position, ai = S.game.state.players[aiSeat()].position;
  // the other player: the AI, or in a game between people your friend, Player 2
  const said = me === ai ? sayFor(aiSeat(), {
    ai: () => t("You landed on the AI's space, on top of its token, so you move again."),
    friend: () => t("You landed on your friend's space, on top of their token, so you move again."),
    player: (number) => t("You landed on Player {number}'s space, on top of their token, so you move again.", { number }),
  }) : sayFor(aiSeat(), {
    ai: () => t("You are still behind the AI on the time track, so you move again."),
    friend: () => t("You are still behind your friend on the time track, so you move again."),
    player: (number) => t("You are still behind Player {number} on the time track, so you move again.", { number }),
  });
  return `${said} `;
}

/** Who won, the winner's score first: "You won, 29 to -34", "The AI won, 29 to -34"; a tie on points
 * says who reached the end first (the tie-break). */
export function resultText() {
  const g = S.game;
  const you = g.state.players[humanSeat()].score, ai = g.state.players[aiSeat()].score;
  const won = g.state.winner === humanSeat();
  const scores = won ? { high: you, low: ai } : { high: ai, low: you };
  if (you === ai) {
    return won ? t("You won, {high} to {low} (a tie on points: you reached the end first)", scores)
      : t("The AI won, {high} to {low} (a tie on points: the AI reached the end first)", scores);
  }
  // Translators: the final scores, the winner's first ("You won, 29 to -34").
  return won ? t("You won, {high} to {low}", scores) : t("The AI won, {high} to {low}", scores);
}

export function drawTurn() {
  const g = S.game;
  const turn = g.state.over ? "over" : g.human_to_move ? "human" : "ai";
  $("turn").className = `turn ${turn}`;
  $("turn-text").textContent = turn === "over" ? t("Game over")
    : turn === "human" ? t("Your turn") : t("The AI's turn");
  $("board-human").classList.toggle("to-move", turn === "human");
  $("board-ai").classList.toggle("to-move", turn === "ai");
}

export function drawResult() {
  const g = S.game;
  $("result").hidden = !g.state.over;
  if (!g.state.over) return;
  $("result-title").textContent = resultText();
  const body = /** @type {HTMLElement} */ ($("scores").querySelector("tbody"));
  body.replaceChildren();
  for (const seat of [humanSeat(), aiSeat()]) {
    const p = g.state.players[seat];
    const tr = document.createElement("tr");
    tr.dataset.seat = String(seat);
    // Translators: the head of a row of the final scores' table (buttons, bonus, empty cells, score).
    [seat === humanSeat() ? t("You") : t("The AI"), num(p.buttons), p.bonus ? "+7" : "—",
      `${num(p.empty)} (−${num(2 * p.empty)})`, num(p.score)]
      .forEach((v, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) td.setAttribute("scope", "row");
        td.textContent = String(v);
        tr.appendChild(td);
      });
    body.appendChild(tr);
  }
}
