// At the end of a game of a competition (a stage race's leg, an omnium's event): the
// way to its next table, in the end dialog. The server opens the next table with the
// same seats and tells everyone at the finished one (the `next` message,
// docs/protocol.md); a page opened later asks the competition where it goes on. A
// player's seat token is the same at every table of the competition: it is copied to
// the next table's id before going there.

import { api, tokens } from "./api.js";
import { el } from "./ui.js";

/** Where the competition `compId` goes on after table `tableId`: `{id, url, game,
 * over, standings}` like a `next` message, or null while its next table is not open. */
export async function nextOf(compId, tableId) {
  const detail = await api("GET", `/api/competitions/${encodeURIComponent(compId)}`);
  const standings = `/competitions/${encodeURIComponent(compId)}`;
  const at = detail.tables.findIndex((t) => t.table === tableId);
  const following = at >= 0 ? detail.tables[at + 1] : null;
  if (following) return { id: following.table, url: following.url, game: detail.game, over: false, standings };
  if (detail.status === "finished") return { id: null, url: standings, game: detail.game, over: true, standings };
  return null;
}

/** Go to the next table, seated there as here (the same token). */
export function goNext(next, tableId) {
  const token = tokens.get(tableId);
  if (token && next.id) tokens.set(next.id, token);
  location.href = next.url;
}

/** The end dialog's buttons for a table of competition `compId`: "Next leg" (or
 * event) once its table is open, "Final standings" once the competition is over, and
 * the standings page. */
export function nextActions(next, { compId, tableId }) {
  const standings = el("a", { class: "btn", href: `/competitions/${encodeURIComponent(compId)}`, dataset: { testid: "competition-standings" } }, "Standings");
  if (next && next.id) {
    const word = next.game || "game";
    return [el("button", { type: "button", class: "btn primary", dataset: { testid: "next-game", table: next.id },
      title: `the competition goes on at its next table, with the same seats`,
      onclick: () => goNext(next, tableId) }, `Next ${word}`), standings];
  }
  if (next && next.over) {
    return [el("a", { class: "btn primary", href: next.standings || next.url, dataset: { testid: "final-standings" } }, "Final standings")];
  }
  return [standings];
}
