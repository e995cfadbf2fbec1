// @ts-check
// The solver panel of a solo table: the best score the solo solver finds for this
// course, team and rules (GET /api/tables/{id}/solver), proven optimal or not, and
// its line round by round. The server solves once per setup, in the background.

import { api } from "./api.js";
import { el, clear } from "./ui.js";

const POLL_MS = 2000;

/** Show the solver's answer for table `tableId` in `panel` (a hidden section that
 * holds a `[data-testid=solver]` box), polling while the solve runs. `onAnswer(answer)`
 * hears each answer; `onShowLine(moves)` steps through the line on the board. */
export async function showSolver(tableId, panel, { onAnswer = null, onShowLine = null } = {}) {
  panel.hidden = false;
  const box = panel.querySelector("[data-testid=solver]");
  const path = `/api/tables/${encodeURIComponent(tableId)}/solver`;
  for (;;) {
    let answer;
    try {
      answer = await api("GET", path);
    } catch (e) {
      if (e.code === "bad_request") {
        panel.hidden = true; // a solo table of a game without a solver (Cyclo's time trial)
        return;
      }
      render(box, { status: "failed", message: e.message });
      if (onAnswer) onAnswer({ status: "failed", message: e.message });
      return;
    }
    render(box, answer, onShowLine);
    if (onAnswer) onAnswer(answer);
    if (answer.status !== "running") return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function render(box, answer, onShowLine = null) {
  clear(box);
  box.dataset.status = answer.status;
  if (answer.status === "running") {
    box.append(el("p", { class: "muted" }, `The solver is looking for the best line (at most ${answer.seconds} s)…`));
    return;
  }
  if (answer.status !== "done") {
    box.append(el("p", { class: "muted" }, answer.message || "The solver could not answer."));
    return;
  }
  const s = answer.solution;
  if (!s.score) {
    box.append(el("p", {}, "The solver found no line."));
    return;
  }
  const [rounds, remaining] = s.score;
  box.dataset.proven = s.proven ? "true" : "false";
  box.append(
    el("p", { dataset: { testid: "solver-score" } },
      s.proven ? "Best possible score: " : "Best score found: ",
      el("strong", {}, `${rounds} rounds`), `, remaining ${remaining}`,
      s.proven ? " — proven optimal." : ""),
  );
  if (!s.proven) {
    const [lr, lrem] = s.lower_bound;
    box.append(el("p", { class: "muted", dataset: { testid: "solver-bound" } },
      `Not proven optimal within the time limit: no line can beat (${lr}, ${lrem}).`));
  }
  box.append(el("p", { class: "muted", dataset: { testid: "solver-time" } },
    `Solved in ${formatSeconds(s.seconds)} (${(s.nodes || 0).toLocaleString("en")} positions searched).`));
  const details = el("details", { dataset: { testid: "solver-line" } }, el("summary", {}, "The solver's line"));
  const list = el("ol", { class: "solver-line" });
  for (const r of s.rounds) list.append(el("li", {}, el("strong", {}, `${r.label}: `), r.moves.join(" ")));
  details.append(list);
  if (onShowLine) {
    box.append(el("button", {
      type: "button", class: "btn", dataset: { testid: "solver-show-line" },
      title: "step through the solver's line on the board, move by move",
      onclick: () => onShowLine(s.rounds.flatMap((r) => r.moves)),
    }, "Step through the line on the board"));
  }
  box.append(details);
}

/** Seconds as the panel says them: "0.4 s", "12 s". */
function formatSeconds(seconds) {
  const n = Number(seconds) || 0;
  return n < 10 ? `${n.toFixed(1)} s` : `${Math.round(n)} s`;
}
