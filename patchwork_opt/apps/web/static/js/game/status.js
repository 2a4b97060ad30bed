// game/status.js: what is going on, in words: whose turn, the status line, the final scores.

import { $ } from "../components/dom.js";
import { S, aiSeat, humanSeat, moverName } from "./state.js";
import { lesson, waiting } from "./teaching.js";

export function statusText() {
  const g = S.game;
  if (g.state.over) return `${resultText()}.`;  // beside "Game over"
  const note = S.aiNote ? `${S.aiNote} ` : "";
  if (waiting()) return `Your move was ${lesson()?.verdict.label === "blunder" ? "a blunder" : "a mistake"}: take it back, or play on.`;
  if (g.ai_to_move) return `${note}${g.pending_leather ? "The AI places its leather patch…" : "The AI is thinking…"}`;
  if (g.pending_leather) return `${note}Place your leather patch: tap or click an empty cell of your quilt.`;
  const sel = S.placer.selected;
  if (sel) return `${note}Place patch #${sel.patch} on your quilt: point, drag or tap; Rotate and Flip turn it.`;
  return `${note}${againText()}Your move: choose a patch on offer, or advance.`;
}

// Why the human moves again right after their own move (the player behind moves; on a tie, the
// one on top, who arrived last), so a second turn in a row is never a surprise.
function againText() {
  const moves = S.game.moves;
  const last = moves[moves.length - 1];
  if (!last || last.actor !== "human") return "";
  const me = S.game.state.players[humanSeat()].position, ai = S.game.state.players[aiSeat()].position;
  const other = moverName(aiSeat());  // the AI, or in a game between people your friend, Player 2
  if (me === ai) return `You landed on ${other}'s space, on top of ${other === "the AI" ? "its" : "their"} token, so you move again. `;
  return `You are still behind ${other} on the time track, so you move again. `;
}

/** Who won, the winner's score first: "You won, 29 to -34", "The AI won, 29 to -34"; a tie on points
 * says who reached the end first (the tie-break). */
export function resultText() {
  const g = S.game;
  const you = g.state.players[humanSeat()].score, ai = g.state.players[aiSeat()].score;
  const won = g.state.winner === humanSeat();
  const scores = won ? `${you} to ${ai}` : `${ai} to ${you}`;
  const tie = you === ai ? ` (a tie on points: ${won ? "you" : "the AI"} reached the end first)` : "";
  return `${won ? "You won" : "The AI won"}, ${scores}${tie}`;
}

export function drawTurn() {
  const g = S.game;
  const turn = g.state.over ? "over" : g.human_to_move ? "human" : "ai";
  $("turn").className = `turn ${turn}`;
  $("turn-text").textContent = turn === "over" ? "Game over" : turn === "human" ? "Your turn" : "The AI's turn";
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
    [seat === humanSeat() ? "You" : "The AI", p.buttons, p.bonus ? "+7" : "—", `${p.empty} (−${2 * p.empty})`, p.score]
      .forEach((v, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) td.setAttribute("scope", "row");
        td.textContent = String(v);
        tr.appendChild(td);
      });
    body.appendChild(tr);
  }
}
