// @ts-check
// A solo table's result (Mind Cycling solo): the player's rounds against the best
// line the solver knows for the same course, team and rules, the riders across the
// line so far, and nothing of the multi-team game (no medals, no Best Team, no
// points: alone, they mean nothing). The solver's answer comes from solver.js.

import { el, clear, teamChip } from "./ui.js";

/** Riders that must cross for the solo race to end (the solo goal: four of five). */
const TO_CROSS = 4;

/** `[rounds, remaining]` in words. */
function score([rounds, remaining]) {
  return `${rounds} round${rounds === 1 ? "" : "s"}${remaining ? `, fifth rider ${remaining} row${remaining === 1 ? "" : "s"} short` : ", all five across"}`;
}

/** The seats panel's line for the solo seat: the round ridden, or the final score. */
export function soloSeatScore(snap) {
  const result = snap.result || {};
  if (result.solo_score) return `${result.solo_score[0]} rounds`;
  return snap.round ? `round ${snap.round}` : "setting up";
}

/** Fill `box` with the solo result of `snap`; `solver` is the solver's answer (or
 * null while it is asked for). */
export function renderSoloResult(box, snap, solver) {
  clear(box);
  const result = snap.result || {};
  const places = result.places || [];
  const mine = result.solo_score || null;
  const best = solver && solver.status === "done" && solver.solution && solver.solution.score ? solver.solution : null;
  const rows = el("dl", { class: "solo-compare", dataset: { testid: "solo-compare" } });
  rows.append(
    el("dt", {}, "Your rounds"),
    el("dd", { dataset: { testid: "solo-score" } }, mine ? el("strong", {}, score(mine))
      : snap.round ? `round ${snap.round} under way, ${places.length} of ${TO_CROSS} across` : "the riders are lining up"),
    el("dt", {}, "Best known line"),
    el("dd", { dataset: { testid: "solo-best" } }, best ? [el("strong", {}, score(best.score)), best.proven ? " (proven best)" : " (best found so far)"]
      : solver && solver.status !== "running" ? "no line known" : "the solver is looking…"),
  );
  box.append(el("h3", {}, "Solo challenge"), rows);
  if (mine && best) {
    const [r, rem] = mine;
    const [br, brem] = best.score;
    const behind = r - br;
    let verdict;
    if (r < br || (r === br && rem < brem)) verdict = "You beat the best line the solver found!";
    else if (r === br && rem === brem) verdict = best.proven ? "You matched the best possible line." : "You matched the best known line.";
    else if (behind > 0) verdict = `${behind} round${behind === 1 ? "" : "s"} more than the best line.`;
    else verdict = `The same rounds as the best line, ${rem - brem} row${rem - brem === 1 ? "" : "s"} further back.`;
    box.append(el("p", { class: "solo-verdict", dataset: { testid: "solo-verdict" } }, verdict));
  }
  if (places.length) {
    box.append(el("h3", {}, result.over ? "Across the line" : "Across so far"),
      el("ol", { class: "places", dataset: { testid: "classification" } }, places.map((rid) => el("li", { dataset: { rider: rid } }, teamChip(rid[0], rid)))));
  }
}
